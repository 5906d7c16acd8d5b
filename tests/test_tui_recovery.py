"""Nothing lost: unsaved work survives an app that did not quit cleanly, and every way out asks first."""

import os
from contextlib import ExitStack
from datetime import UTC

import pytest

from workbench.engine import Geometry
from workbench.library import Library
from workbench.library.recovery import NO_APP, keep, left_behind
from workbench.state.played import game_state
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs import Confirm, ConfirmQuit

from .test_library_recovery import held_for_writing, sleeping_app
from .tui_helpers import moves, wait_library

SIZE = (100, 34)


async def play_and_leave_without_quitting(db, *keys):
    """An app session that ends without a clean quit (as a killed terminal does), its study kept."""
    app = WorkbenchApp(db=db)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press(*keys)
        assert app.keeper.flush()
        session = app.keeper.session
    return session


async def offered_question(pilot, app) -> str:
    """The restore question the app asks once its library is open (it must be up)."""
    assert await wait_library(pilot, app) == "open"
    await pilot.pause()
    assert isinstance(app.screen, Confirm)
    return str(app.screen.query_one("#confirm-question").render())


async def test_a_study_left_by_a_session_that_did_not_quit_is_offered_back(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    await play_and_leave_without_quitting(db, "5", "1", "9")
    with Library.open(db) as library:  # left by an app of another process, gone (past pid_max)
        library.connection.execute("UPDATE recovery SET pid = 4194305")
    app = WorkbenchApp(db=db)
    async with app.run_test(size=SIZE) as pilot:
        question = await offered_question(pilot, app)
        assert question.startswith("Restore the unsaved study from ") and question.endswith(
            "(an untitled study, 3 moves)"
        )
        assert (
            app.screen.focused.id == "no" and str(app.screen.focused.label) == "Restore (esc)"
        )  # the default keeps the work
        # taken over while it is asked about: no app started meanwhile (another tab) offers it too
        assert app.library.query("SELECT pid FROM recovery") == [(os.getpid(),)]
        await pilot.press("enter")
        assert moves(app) == (5, 1, 9) and app.store.state.modified and app.sub_title == "classic · untitled study •"
        assert app.keeper.flush()
        assert (
            left_behind(app.library, own_session=app.keeper.session) == []
        )  # the old row is gone; ours holds the study
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.click("#discard")
    with Library.open(db) as library:
        assert left_behind(library) == [] and library.query("SELECT count(*) FROM recovery") == [(0,)]


async def test_a_study_left_behind_is_offered_even_while_another_program_writes_the_library(tmp_path):
    """The claim (library.recovery.claim) is a write: where it cannot be made, the study is offered unclaimed, as
    before claims were, rather than not at all."""
    db = str(tmp_path / "lib.sqlite3")
    with Library.open(db) as library:
        keep(library, "gone", game_state(Geometry(3, 3, 3), (5, 1)), path=None, name=None)
        library.connection.execute("UPDATE recovery SET pid = 4194305")  # its app gone (past pid_max)
    with ExitStack() as busy:
        busy.enter_context(held_for_writing(db))
        app = WorkbenchApp(db=db)
        async with app.run_test(size=SIZE) as pilot:
            assert (await offered_question(pilot, app)).endswith("(an untitled study, 2 moves)")
            assert not any("cannot be offered" in n.message for n in app._notifications)
            busy.close()  # the other program done
            await pilot.press("enter")
            assert moves(app) == (5, 1)


async def test_declining_the_restore_drops_it_and_a_clean_quit_leaves_nothing(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    await play_and_leave_without_quitting(db, "5")
    app = WorkbenchApp(db=db)
    async with app.run_test(size=SIZE) as pilot:
        assert (await offered_question(pilot, app)).endswith("(an untitled study, 1 move)")
        await pilot.click("#yes")  # Discard
        assert moves(app) == () and not app.store.state.modified
        await pilot.press("ctrl+q")  # nothing unsaved: quits at once
    assert app.return_code == 0
    with Library.open(db) as library:
        assert library.query("SELECT count(*) FROM recovery") == [(0,)]


async def test_two_studies_left_behind_each_is_asked_about_in_its_own_words(tmp_path):
    """Restoring the first of two, the second's offer comes as its own question; restoring it too asks about the
    first (unsaved now), saying why. Going back (at once, or from the question where to save it) keeps the first open
    and the second for the next start; discarding the first restores the second."""
    db = str(tmp_path / "lib.sqlite3")
    for answers in (("escape",), ("s", "escape"), ("d",)):  # back; save, then back from the question where; discard
        with Library.open(db) as library:  # as two apps killed in turn would leave them
            keep(library, "older", game_state(Geometry(3, 3, 3), (7, 8, 9)), path=None, name=None)
            keep(library, "newer", game_state(Geometry(3, 3, 3), (1,)), path=None, name=None)
            with library.transaction() as connection:  # (the newer offered first: both may be kept in one second)
                connection.execute("UPDATE recovery SET updated = datetime('now', '-1 minute') WHERE session = 'older'")
        app = WorkbenchApp(db=db)
        async with app.run_test(size=SIZE) as pilot:
            assert await wait_library(pilot, app) == "open"
            await pilot.pause()
            await pilot.press("enter")  # restore the newer, which is not this answer's subject
            assert moves(app) == (1,) and app.store.state.modified
            await pilot.pause()
            assert isinstance(app.screen, Confirm)  # the next offer in its own words, before anything is discarded
            assert str(app.screen.query_one("#confirm-question").render()).endswith("(an untitled study, 3 moves)")
            await pilot.press("enter")  # restore it as well: over the restored one
            assert isinstance(app.screen, ConfirmQuit)
            question = app.screen.query_one("#unsaved-question")
            why = str(question.render())
            assert why.startswith("Restoring the study from ") and why.endswith(
                "replaces the open one, which has unsaved changes."
            )
            assert question.size.height == 2  # wrapped at 100 columns, not cut
            await pilot.press(*answers)
            await pilot.pause()
            assert app.screen is app.screen_stack[0] and not app._restore_pending  # no more questions; the engine free
            assert app.keeper.flush()
            kept = left_behind(app.library, own_session=app.keeper.session)
            if answers[-1] == "escape":  # the first stays open, the second kept for later (and it says so)
                assert moves(app) == (1,) and [len(study.state.tree.nodes) - 1 for study in kept] == [3]
                assert [study.pid for study in kept] == [NO_APP]  # under no app: the next start's to offer
                assert any("offered again at the next start" in n.message for n in app._notifications)
            else:  # the first discarded, the second restored
                assert moves(app) == (7, 8, 9) and kept == []
            await pilot.press("ctrl+q")
            await pilot.press("d")
    with Library.open(db) as library:
        assert library.query("SELECT count(*) FROM recovery") == [(0,)]


def asked(app) -> str:
    """The restore question's words once it is up and drawn; "" before (a condition to wait on)."""
    from textual.css.query import NoMatches

    if not isinstance(app.screen, Confirm):
        return ""
    try:
        return str(app.screen.query_one("#confirm-question").render())
    except NoMatches:  # (pushed, not yet composed)
        return ""


def looks_counted(app) -> list:
    """Each look for studies left behind that ``app`` makes from now on, as it comes back (its arguments)."""
    looked: list = []
    found_again = app._found_again

    def counted(*arguments):
        looked.append(arguments)
        found_again(*arguments)

    app._found_again = counted
    return looked


def kept_by(db: str, session: str, process, played: tuple[int, ...]) -> None:
    with Library.open(db) as library:
        keep(library, session, game_state(Geometry(3, 3, 3), played), path=None, name=None)
        library.connection.execute("UPDATE recovery SET pid = ? WHERE session = ?", (process.pid, session))


async def test_a_study_found_while_a_question_is_up_is_asked_about_after_it_and_the_engine_waits(tmp_path):
    """Two reloaded tabs' apps end in turn: the second's study is not put over the first's question (no look is made
    while it is up, and such looks do not count); it comes once the first is answered."""
    from .tui_helpers import until

    db = str(tmp_path / "lib.sqlite3")
    with sleeping_app() as first, sleeping_app() as second:
        try:
            kept_by(db, "first", first, (5,))
            kept_by(db, "second", second, (1, 2))
            app = WorkbenchApp(db=db)
            async with app.run_test(size=SIZE) as pilot:
                assert await wait_library(pilot, app) == "open"
                first.kill()
                first.wait()
                await until(pilot, lambda: asked(app).endswith("1 move)"), "the first study offered", seconds=10)
                second.kill()
                second.wait()
                looked = looks_counted(app)
                # more looks than are counted: a user may take their time
                await until(pilot, lambda: len(looked) >= 6, "six looks while the question is up", seconds=15)
                assert len(app.screen_stack) == 2 and app._restore_pending  # one question; the engine held
                await pilot.click("#yes")  # discard the first
                await until(pilot, lambda: asked(app).endswith("2 moves)"), "the second study offered", seconds=10)
                assert len(app.screen_stack) == 2
                await pilot.press("escape")  # restore it
                assert moves(app) == (1, 2) and not app._restore_pending
                await pilot.press("ctrl+q")
                await pilot.press("d")
        finally:
            first.kill()
            second.kill()


async def test_an_app_that_ends_between_the_two_reads_at_the_start_has_its_study_offered(tmp_path, monkeypatch):
    """The library's two reads as it opens: whether another app keeps a study, and what is left behind. An app that
    ends between them, whichever comes first, is found by one of them (a reviewer's case: in the other order, by
    neither, and its study waited for a later start)."""
    from workbench.library import recovery

    from .tui_helpers import until

    db = str(tmp_path / "lib.sqlite3")
    with sleeping_app() as ending:
        try:
            kept_by(db, "reloaded", ending, (5, 1, 9))

            def then_the_app_ends(read):
                def reading(library, **options):
                    found = read(library, **options)
                    ending.kill()  # (after the first of the two reads; the second finds it gone)
                    ending.wait()
                    return found

                return reading

            for name in ("held_elsewhere", "left_behind"):
                monkeypatch.setattr(recovery, name, then_the_app_ends(getattr(recovery, name)))
            app = WorkbenchApp(db=db)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: asked(app).endswith("3 moves)"), "the study offered", seconds=10)
        finally:
            ending.kill()


async def test_a_study_whose_app_ends_just_after_the_library_opened_is_offered_all_the_same(tmp_path):
    """A reloaded browser tab: its new app opens the library while the old one, asked to quit, still runs; the old
    one's study is left behind a moment later, and offered then. Kept for later, it is not asked about again while
    the app goes on looking (another tab's app runs); that tab's study is not offered while it runs."""
    from workbench.tui.features.recovery import LOOK_AGAIN_SECONDS

    from .tui_helpers import until

    db = str(tmp_path / "lib.sqlite3")
    with sleeping_app() as ending, sleeping_app() as other_tab:
        try:
            kept_by(db, "reloaded", ending, (5, 1, 9))
            kept_by(db, "other", other_tab, (1,))
            app = WorkbenchApp(db=db)
            async with app.run_test(size=SIZE) as pilot:
                assert await wait_library(pilot, app) == "open"
                await pilot.press("2")  # a study of this app's own, unsaved
                await pilot.pause(LOOK_AGAIN_SECONDS * 1.5)
                assert not isinstance(app.screen, Confirm)  # both apps run: nothing left behind yet
                ending.kill()
                ending.wait()
                await until(pilot, lambda: asked(app).endswith("(an untitled study, 3 moves)"), "the study offered", 10)
                assert app.library.query("SELECT pid FROM recovery WHERE session = 'reloaded'") == [(os.getpid(),)]
                await pilot.press("enter")  # restore: over this app's unsaved study, which it asks about first
                assert isinstance(app.screen, ConfirmQuit)
                await pilot.press("escape")  # back: kept for later
                looked = looks_counted(app)
                await until(pilot, lambda: len(looked) >= 2, "two more looks (the other tab's app runs)", seconds=10)
                assert app.screen is app.screen_stack[0] and moves(app) == (2,)
                assert app.library.query("SELECT pid FROM recovery WHERE session = 'reloaded'") == [(NO_APP,)]
                await pilot.press("ctrl+q")
                await pilot.press("d")
        finally:
            ending.kill()
            other_tab.kill()


async def test_a_saved_study_leaves_nothing_to_recover(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    app = WorkbenchApp(db=db)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5", "1")
        assert app.keeper.flush()
        assert app.library.query("SELECT count(*) FROM recovery") == [(1,)]
        app._save_to(str(tmp_path / "s.json"))
        await pilot.pause()  # the keeper is told once the change is handled
        assert app.keeper.flush()
        assert app.library.query("SELECT count(*) FROM recovery") == [(0,)]


async def test_the_palettes_quit_asks_about_unsaved_changes(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5")
        await app.action_quit()  # what the palette's "Quit" runs
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuit) and app.is_running
        await pilot.click("#cancel")
        assert moves(app) == (5,) and app.is_running


@pytest.mark.parametrize("ending", ["SIGKILL", "SIGTERM", "SIGHUP"])  # killed; shut down; its terminal closed
def test_a_killed_app_loses_nothing(tmp_path, ending):
    """The real thing: the app in a terminal of its own, two moves, a signal; the next start offers them back."""
    import asyncio
    import fcntl
    import os
    import pty
    import signal
    import struct
    import subprocess
    import sys
    import termios
    import threading
    import time

    from .child_process import PACKAGE_ROOT
    from .tui_helpers import HANG_GUARD_SECONDS

    db = str(tmp_path / "lib.sqlite3")
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 34, 100, 0, 0))
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT, TERM="xterm-256color", COLUMNS="100", LINES="34")

    def default_signals():  # nohup or a background job may have left them ignored, and children inherit that
        for number in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
            signal.signal(number, signal.SIG_DFL)

    child = subprocess.Popen(
        [sys.executable, "-m", "workbench", "--db", db],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        cwd=PACKAGE_ROOT,
        start_new_session=True,
        preexec_fn=default_signals,
    )
    os.close(follower)
    screen = bytearray()

    def drain():  # a terminal reads what the app writes, or the app would block on a full pty
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                return
            if not chunk:
                return
            screen.extend(chunk)

    threading.Thread(target=drain, daemon=True).start()

    def wait_for(condition):
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while not condition():
            assert child.poll() is None, bytes(screen[-2000:])
            assert time.monotonic() < deadline, bytes(screen[-2000:])
            time.sleep(0.05)

    try:
        wait_for(lambda: b"Symmetry" in screen)  # painted: the terminal is in the app's hands
        os.write(leader, b"5")
        os.write(leader, b"1")

        def kept_study():  # the app is alive, so its row is not "left behind": read the row itself
            try:
                with Library.open(db) as library:
                    return library.query("SELECT data FROM recovery")[0][0]
            except Exception:  # not created yet, or no row yet
                return ""

        wait_for(lambda: '"move": 1' in kept_study())
        os.kill(child.pid, getattr(signal, ending))
        child.wait(HANG_GUARD_SECONDS)  # ended, however it chose to (the study is on disk either way)
    finally:
        if child.poll() is None:
            child.kill()
        os.close(leader)

    async def restart():
        app = WorkbenchApp(db=db)
        async with app.run_test(size=SIZE) as pilot:
            assert await wait_library(pilot, app) == "open"
            await pilot.pause()
            assert isinstance(app.screen, Confirm)
            await pilot.press("enter")
            return moves(app), app.store.state.modified

    assert asyncio.run(restart()) == ((5, 1), True)


async def test_a_move_typed_just_before_q_is_never_lost(tmp_path):
    from textual import events

    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        # both keys queued at once, as a fast typist's terminal delivers them in one read
        app.post_message(events.Key("5", "5"))
        app.post_message(events.Key("q", "q"))
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuit) and app.is_running
        assert moves(app) == (5,)


async def test_the_engine_answers_moves_never_navigation(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))

    async def settled():
        await app.workers.wait_for_complete()
        await pilot.pause()

    def replies_to_the_first_move():
        tree = app.store.state.tree
        return len(tree.node(tree.node(0).children[0]).children)

    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("e", "e", "e")  # the random engine, playing O
        assert app.store.state.engine.mode.value == "random"
        await pilot.press("1")
        await settled()
        assert len(moves(app)) == 2  # it answered the move
        for _ in range(4):
            replies = replies_to_the_first_move()
            await pilot.press("backspace")  # back to O's turn, the engine's: only to look at it
            await settled()
            assert moves(app) == (1,) and replies_to_the_first_move() == replies
            await pilot.press("1")  # a cell already taken: nothing is played, so the engine has nothing to answer
            await settled()
            assert moves(app) == (1,) and replies_to_the_first_move() == replies
            await pilot.press("backspace", "1")  # X's move played again: that the engine answers
            await settled()
            assert len(moves(app)) == 2


async def test_a_read_only_library_of_schema_2_still_opens_in_the_app(tmp_path, monkeypatch):
    import os
    import sqlite3

    from workbench.library import db as library_db

    path = tmp_path / "old.sqlite3"
    Library.open(path).close()
    connection = sqlite3.connect(path)
    connection.execute("DROP TABLE recovery")
    connection.execute("PRAGMA user_version = 2")
    connection.commit()
    connection.close()
    real_access = os.access
    monkeypatch.setattr(library_db.os, "access", lambda p, mode: False if str(p) == str(path) else real_access(p, mode))
    app = WorkbenchApp(db=str(path))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        assert app.library.read_only and app.keeper is None
        [warning] = [n for n in app._notifications if "read-only" in n.message]
        assert (warning.title, warning.message) == (
            "Library",
            "The library is read-only: unsaved work is not kept safe.",
        )


async def test_a_study_opened_from_a_file_without_json_saves_back_to_that_file(tmp_path):
    from workbench.state import load_study, save_study

    from .states import played

    notes = tmp_path / "notes"
    save_study(played(5), notes)
    app = WorkbenchApp(load_study(notes), path=str(notes), db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("1", "ctrl+s")
        assert load_study(notes).tree.moves_to(load_study(notes).cursor) == (5, 1)
        assert app.library.query("SELECT count(*) FROM studies") == [(0,)]  # not into the library


async def test_an_engine_playing_x_opens_a_new_game(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("e", "E")  # perfect engine, playing X: its turn at once
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(moves(app)) == 1
        await pilot.press("n", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(moves(app)) == 1  # the new game, opened by the engine


async def test_the_engine_waits_for_the_restore_question_and_the_question_is_whole(tmp_path, monkeypatch):
    """With the engine on as X (remembered), its first move at the start would be an unsaved change
    that put the generic unsaved-changes question before the restore offer."""
    from workbench.settings import Settings, save_settings
    from workbench.tui.dialogs import Confirm

    db = str(tmp_path / "lib.sqlite3")
    save_settings(Settings(engine_mode="perfect", engine_side="X"))
    first = WorkbenchApp(db=db)
    async with first.run_test(size=(120, 36)) as pilot:
        await wait_library(pilot, first)
        await first.workers.wait_for_complete()
        await pilot.pause()
        assert len(moves(first)) == 1  # the engine opened, once the library was there
        await pilot.press(next(str(cell) for cell in range(1, 10) if cell not in moves(first)))
        await first.workers.wait_for_complete()
        await pilot.pause()
        played = moves(first)
        assert len(played) == 3
        first.keeper.close(clean=False)  # as if killed: the study stays in the library
        first.keeper = None
    app = WorkbenchApp(db=db)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_library(pilot, app)
        await pilot.pause()
        assert isinstance(app.screen, Confirm)  # the restore offer itself, not "unsaved changes"
        assert moves(app) == () and not app.store.state.modified  # the engine held its move
        question = app.screen.query_one("#confirm-question")
        assert str(question.render()).endswith("(an untitled study, 3 moves)")
        assert question.size.height == 2  # wrapped, not cut
        await pilot.press("enter")  # restore, the default
        assert moves(app) == played


def test_the_offer_says_when_the_work_was_kept_in_local_time():
    """The library stamps in UTC; the offer reads it as the user's clock does: the time alone today, the date
    too on another day, and a stamp it cannot read as it is (never an error)."""
    from datetime import datetime, timedelta

    from workbench.tui.features.recovery import _when

    now = datetime.now(UTC).replace(microsecond=0)
    local = now.astimezone()
    assert _when(now.strftime("%Y-%m-%d %H:%M:%S")) == local.strftime("%H:%M")
    earlier = now - timedelta(days=3)
    assert _when(earlier.strftime("%Y-%m-%d %H:%M:%S")) == earlier.astimezone().strftime("%Y-%m-%d %H:%M")
    assert _when("yesterday-ish") == "yesterday-ish"


def hold_the_library_opening(monkeypatch):
    """The app's library opens on its thread only once the returned ``release`` is set; ``opening`` is set
    when that thread has started."""
    import threading

    opening, release = threading.Event(), threading.Event()
    real_open = WorkbenchApp._open_library

    def held_open(self):
        opening.set()
        release.wait(30)
        return real_open(self)

    monkeypatch.setattr(WorkbenchApp, "_open_library", held_open)
    return opening, release


async def test_a_study_played_before_the_library_opened_is_kept_when_the_app_ends(tmp_path, monkeypatch):
    """The library opens after the first paint, on a thread; a server killed (or a terminal closed) before
    that thread is done still leaves the moves to be offered back."""
    db = str(tmp_path / "lib.sqlite3")
    Library.open(db).close()
    opening, release = hold_the_library_opening(monkeypatch)
    app = WorkbenchApp(db=db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5", "1")
        assert opening.is_set() and app.library_status == "opening" and app.keeper is None
        assert moves(app) == (5, 1)
    release.set()
    with Library.open(db) as library:
        (left,) = left_behind(library)
    assert left.state.tree.moves_to(left.state.cursor) == (5, 1)


async def test_a_clean_quit_while_the_library_opens_keeps_nothing(tmp_path, monkeypatch):
    """Discarding on the way out while the library is still opening: nothing is kept at the app's end, nor by a
    library that opens a moment after the quit."""
    db = str(tmp_path / "lib.sqlite3")
    Library.open(db).close()
    _, release = hold_the_library_opening(monkeypatch)
    app = WorkbenchApp(db=db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5", "ctrl+q")
        assert isinstance(app.screen, ConfirmQuit) and app.library_status == "opening"
        await pilot.click("#discard")
        with Library.open(db) as library:  # the library opens as the app quits: recovery has ended already
            app._start_recovery(library, [])
            assert app.keeper is None
    release.set()
    assert app.return_code == 0
    with Library.open(db) as library:
        assert library.query("SELECT count(*) FROM recovery") == [(0,)]


async def test_a_study_restored_over_the_one_opened_at_start_asks_before_replacing_its_kept_copy(tmp_path):
    """A review: `workbench open corner.json`, then corner's unsaved copy from a session that did not quit restored:
    the file read at the start was taken for the restored study's own copy, and ctrl+s wrote over it unasked."""
    from workbench.state import load_study, save_study

    db, path = str(tmp_path / "lib.sqlite3"), tmp_path / "corner.json"
    state = game_state(Geometry(), (5, 1))
    save_study(state, path)
    left = WorkbenchApp(state, path=str(path), db=db)  # a session on the file that ends without quitting
    async with left.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, left) == "open"
        await pilot.press("9")
        assert left.keeper.flush()
    save_study(game_state(Geometry(), (5, 1, 3)), path)  # saved since, elsewhere
    app = WorkbenchApp(load_study(path), path=str(path), db=db)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.pause()
        assert isinstance(app.screen, Confirm)  # the offer
        await pilot.press("enter")  # restore
        await pilot.pause()
        assert moves(app) == (5, 1, 9) and app.study_path == str(path)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        assert str(app.screen.query_one("#confirm-question").render()).startswith(
            f"{str(path)!r} is not the copy this study was opened from here"
        )
        await pilot.click("#yes")
        await pilot.pause()
        kept = load_study(path)
        assert kept.tree.moves_to(max(kept.tree.nodes)) == (5, 1, 9)
