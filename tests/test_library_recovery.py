"""Unsaved work kept in the library: written after each change on a thread of its own, offered back after a crash."""

import os
import sqlite3
import time
from contextlib import contextmanager

import pytest

from workbench.library import Library, LibraryError
from workbench.library.recovery import NO_APP, RecoveryKeeper, claim, forget, keep, left_behind
from workbench.state import AppState, reduce
from workbench.state.actions import MarkSaved, PlayCell, SetComment

from .child_process import run_child
from .states import played


def rows(path):
    with Library.open(path) as library:
        return library.query("SELECT session, pid, path, name FROM recovery ORDER BY session")


def test_a_kept_study_is_offered_back_whole_and_only_once_forgotten(tmp_path):
    path = tmp_path / "lib.sqlite3"
    state = reduce(played(5, 1, 9), SetComment(text="the corner"))
    with Library.open(path) as library:
        keep(library, "first", state, path="/studies/corner.json", name=None)
        keep(library, "first", played(5, 1, 9, 3), path="/studies/corner.json", name=None)  # the newest replaces it
        keep(library, "second", played(1), path=None, name="opening")
        [newest, older] = sorted(left_behind(library), key=lambda r: r.session != "second")
        assert (newest.session, newest.name, newest.path) == ("second", "opening", None)
        assert older.state.tree == played(5, 1, 9, 3).tree and older.path == "/studies/corner.json"
        assert [r.session for r in left_behind(library, own_session="second")] == ["first"]
        forget(library, "first")
        forget(library, "second")
        assert left_behind(library) == []


def test_studies_of_apps_still_running_elsewhere_are_not_offered(tmp_path):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        keep(library, "mine", played(5), path=None, name=None)
        keep(library, "alive", played(1), path=None, name=None)
        keep(library, "gone", played(9), path=None, name=None)
        library.connection.execute("UPDATE recovery SET pid = 1 WHERE session = 'alive'")  # init: always running
        library.connection.execute("UPDATE recovery SET pid = 4194305 WHERE session = 'gone'")  # past pid_max
        assert sorted(r.session for r in left_behind(library, own_session="mine")) == ["gone"]


LISTED_ELSEWHERE = """
import sys
from workbench.library import Library
from workbench.library.recovery import left_behind
with Library.open(sys.argv[1] if len(sys.argv) > 1 else "lib.sqlite3") as library:
    print(sorted(recovered.session for recovered in left_behind(library)))
"""


def test_an_app_takes_over_what_it_offers_so_no_app_started_meanwhile_offers_it_too(tmp_path):
    """Two browser tabs opened after a server's restart each offered the same study left behind: one discarded it
    while the other, putting it off, said it would be offered again. Each app now claims what it offers."""
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        for session in ("taken meanwhile", "dropped meanwhile", "mine", "salvaged"):
            keep(library, session, played(5), path=None, name=None)
        library.connection.execute("UPDATE recovery SET pid = 4194305")  # apps gone (past pid_max)
        library.connection.execute("UPDATE recovery SET pid = ? WHERE session = 'salvaged'", (NO_APP,))
        found = left_behind(library)
        assert len(found) == 4
        # between this app's listing and its claim: another app claims one (a running process), one is dropped
        library.connection.execute("UPDATE recovery SET pid = 1 WHERE session = 'taken meanwhile'")
        forget(library, "dropped meanwhile")
        assert sorted(recovered.session for recovered in claim(library, found)) == ["mine", "salvaged"]
        assert library.query("SELECT pid FROM recovery WHERE session IN ('mine', 'salvaged')") == [(os.getpid(),)] * 2
    # an app started while this one asks is offered neither (this process runs)
    assert run_child(LISTED_ELSEWHERE, tmp_path).stdout == "[]\n"
    keeper = RecoveryKeeper(path)
    keeper.release("mine")  # put off: left for the next start
    keeper.drop("salvaged")  # restored or discarded
    assert keeper.flush()
    keeper.close(clean=True)
    assert run_child(LISTED_ELSEWHERE, tmp_path).stdout == "['mine']\n"
    with Library.open(path) as library:
        assert library.query("SELECT session, pid FROM recovery WHERE session = 'mine'") == [("mine", NO_APP)]


def test_a_start_with_nothing_left_behind_writes_nothing_and_a_busy_library_refuses_a_claim(tmp_path):
    """A claim takes the library's write lock: with nothing to claim none is asked (a start never waits for a
    library another program is writing), and where one is held for long the claim fails as any write does."""
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        with held_for_writing(path):
            started = time.monotonic()
            assert claim(library, left_behind(library)) == [] and time.monotonic() - started < 1
        keep(library, "gone", played(5), path=None, name=None)
        library.connection.execute("UPDATE recovery SET pid = 4194305")  # its app gone (past pid_max)
        found = left_behind(library)
        with held_for_writing(path), pytest.raises(LibraryError, match="locked by another program"):
            claim(library, found)
        assert [recovered.session for recovered in claim(library, found)] == ["gone"]


@contextmanager
def held_for_writing(path):
    """Another program writing the library meanwhile (its write lock held)."""
    busy = sqlite3.connect(path)
    busy.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        busy.rollback()
        busy.close()


@pytest.mark.parametrize("data", ["{ not json", "5", '{"format": "workbench-study"}', "[" * 100_000])
def test_a_damaged_row_is_dropped_not_offered(tmp_path, data):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        keep(library, "good", played(5), path=None, name=None)
        keep(library, "bad", played(1), path=None, name=None)
        library.connection.execute("UPDATE recovery SET data = ? WHERE session = 'bad'", (data,))
        assert [r.session for r in left_behind(library)] == ["good"]
    assert [row[0] for row in rows(path)] == ["good"]


def test_the_keeper_writes_each_unsaved_change_and_clears_on_a_clean_quit(tmp_path):
    path = tmp_path / "lib.sqlite3"
    Library.open(path).close()
    keeper = RecoveryKeeper(path)
    keeper.offer(played(5), path=None, name="study")
    assert keeper.flush()
    assert rows(path) == [(keeper.session, os.getpid(), None, "study")]
    keeper.offer(played(5, 1), path="/s.json", name=None)
    assert keeper.flush()
    with Library.open(path) as library:
        [recovered] = left_behind(library)
    assert recovered.state.tree == played(5, 1).tree and recovered.path == "/s.json"
    keeper.offer(reduce(played(5, 1), MarkSaved()), path="/s.json", name=None)  # saved: nothing to keep
    assert keeper.flush() and rows(path) == []
    keeper.offer(played(5, 1, 9), path="/s.json", name=None)
    keeper.close(clean=True)
    assert rows(path) == [] and keeper.error is None


def test_the_keeper_waits_for_the_app_to_settle_then_writes_the_newest_change_once(tmp_path, monkeypatch):
    """Keys pressed while it settles are one write (of the last state), made after the settle: the
    app draws a change without the keeper's Python work taking turns with it."""
    import workbench.library.recovery as recovery

    path = tmp_path / "lib.sqlite3"
    Library.open(path).close()
    written = []
    monkeypatch.setattr(recovery, "keep", lambda library, session, state, **where: written.append(state))
    keeper = RecoveryKeeper(path, settle=0.3)
    keeper.offer(played(5), path=None, name=None)
    keeper.offer(played(5, 1), path=None, name=None)
    keeper.offer(played(5, 1, 9), path=None, name=None)
    assert not keeper.flush(timeout=0.1) and written == []  # settling: nothing written yet
    assert keeper.flush()
    assert [state.tree for state in written] == [played(5, 1, 9).tree]
    keeper.close(clean=False)


def test_a_quit_does_not_wait_for_the_keeper_to_settle(tmp_path):
    path = tmp_path / "lib.sqlite3"
    keeper = RecoveryKeeper(path, settle=60.0)
    keeper.offer(played(5, 1), path=None, name=None)
    keeper.close(clean=False)  # at once: a minute's settle would hold the quit (the join gives up after 10 s)
    assert not keeper._thread.is_alive()
    with Library.open(path) as library:
        [recovered] = left_behind(library)
    assert recovered.state.tree == played(5, 1).tree


def test_a_keeper_closed_without_a_clean_quit_leaves_the_study(tmp_path):
    path = tmp_path / "lib.sqlite3"
    keeper = RecoveryKeeper(path)
    keeper.offer(played(5, 1), path=None, name=None)
    keeper.close(clean=False)
    with Library.open(path) as library:
        [recovered] = left_behind(library)
    assert recovered.state.tree == played(5, 1).tree


def test_the_keeper_drops_rows_it_is_told_to_and_reports_a_library_it_cannot_write(tmp_path):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        keep(library, "old", played(9), path=None, name=None)
    keeper = RecoveryKeeper(path)
    keeper.drop("old")
    assert keeper.flush() and rows(path) == []
    keeper.close(clean=True)
    blocked = RecoveryKeeper(tmp_path / "a-file" / "lib.sqlite3")
    (tmp_path / "a-file").write_text("not a folder")
    blocked.offer(played(5), path=None, name=None)
    assert not blocked.flush(timeout=2.5)  # it keeps the study and tries again, and says why it cannot
    assert (
        blocked.error == f"library {str(tmp_path / 'a-file' / 'lib.sqlite3')!r}: cannot create its folder (File exists)"
    )
    (tmp_path / "a-file").unlink()  # the obstacle goes: the next try succeeds without a new offer
    assert blocked.flush() and blocked.error is None
    with Library.open(tmp_path / "a-file" / "lib.sqlite3") as library:
        [recovered] = left_behind(library)
    assert recovered.state.tree == played(5).tree
    blocked.close(clean=True)


def sleeping_app():
    """A process that stands for another app: running until killed (or a minute)."""
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])


def test_asking_whether_an_app_still_runs_does_not_signal_it(tmp_path):
    import subprocess

    from workbench.lifeline import is_running as _running

    child = sleeping_app()
    try:
        assert _running(child.pid)
        with pytest.raises(subprocess.TimeoutExpired):  # a real signal (SIGHUP, say) would end it at once
            child.wait(1)
    finally:
        child.kill()
        child.wait()
    assert not _running(child.pid)


def test_an_app_that_ended_but_was_never_reaped_counts_as_gone(tmp_path):
    """A served app outlives its warm process: an orphan, and an init that never reaps (a container's) keeps it a
    zombie. It holds nothing any more: its study is offered, as CI once showed it was not."""
    import subprocess
    import sys

    from workbench.lifeline import is_running as _running

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        for _ in range(500):  # ended, and left unreaped (no wait() yet): a zombie
            with open(f"/proc/{child.pid}/stat", "rb") as stat:
                if stat.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    break
            time.sleep(0.01)
        assert not _running(child.pid)
        path = tmp_path / "lib.sqlite3"
        with Library.open(path) as library:
            keep(library, "ended", played(5), path=None, name=None)
            library.connection.execute("UPDATE recovery SET pid = ?", (child.pid,))
            assert [r.session for r in left_behind(library)] == ["ended"]
    finally:
        child.wait()


def test_another_users_app_counts_as_running(monkeypatch):
    import os

    from workbench.lifeline import is_running

    def refuse(pid, signal):
        raise PermissionError("not yours")

    monkeypatch.setattr(os, "kill", refuse)
    assert is_running(12345)


def test_a_clean_close_deletes_the_row_and_an_unclean_one_keeps_it(tmp_path):

    path = tmp_path / "lib.sqlite3"
    Library.open(path).close()
    changed = reduce(AppState(), PlayCell(cell=5))
    for clean, rows in ((True, 0), (False, 1)):
        keeper = RecoveryKeeper(path)
        keeper.offer(changed, path=None, name=None)
        assert keeper.flush()
        keeper.close(clean=clean)
        with Library.open(path) as library:
            assert library.query("SELECT count(*) FROM recovery WHERE session = ?", (keeper.session,)) == [(rows,)]


def test_flush_says_when_the_study_could_not_be_written_in_time(tmp_path):

    path = tmp_path / "lib.sqlite3"
    Library.open(path).close()
    blocker = sqlite3.connect(path)
    blocker.execute("BEGIN EXCLUSIVE")  # another program holds the library
    keeper = RecoveryKeeper(path)
    try:
        keeper.offer(reduce(AppState(), PlayCell(cell=5)), path=None, name=None)
        assert keeper.flush(0.5) is False
    finally:
        blocker.rollback()
        blocker.close()
    assert keeper.flush()  # retried within a second once the library is free
    assert keeper.error is None
    keeper.close(clean=True)


def test_a_process_that_never_closes_its_keeper_still_exits(tmp_path):
    path = tmp_path / "lib.sqlite3"
    Library.open(path).close()
    RecoveryKeeper(path).close(clean=True)  # here too, so that mutmut knows this test runs the keeper
    script = (
        "from workbench.library.recovery import RecoveryKeeper\n"
        "from workbench.state import AppState\n"
        f"keeper = RecoveryKeeper({str(path)!r})\n"
        "keeper.offer(AppState(), path=None, name=None)\n"
        "keeper.flush()\n"
        "print('done')\n"  # and no close(): the thread must not hold the process open
    )
    result = run_child(script, tmp_path)
    assert result.returncode == 0 and result.stdout == "done\n"


def test_a_game_sequence_that_is_not_in_progress_is_named():
    from workbench.library.games import sequence_range

    with pytest.raises(LibraryError, match=r"^move sequence \(1, 2, 4, 5, 7, 3\) is not a game in progress$"):
        sequence_range((1, 2, 4, 5, 7, 3))


def test_a_left_study_carries_when_it_was_last_kept(tmp_path):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        keep(library, "gone", played(5, 1), path=None, name="mine")
        [(updated,)] = library.query("SELECT updated FROM recovery")
        [found] = left_behind(library)
    assert found.updated == updated and len(updated) == 19


def test_a_keeper_that_never_wrote_stops_cleanly(tmp_path, monkeypatch):
    """Nothing offered, so no library was opened: stopping must not trip over the library it never had."""
    import threading

    failures = []
    monkeypatch.setattr(threading, "excepthook", lambda arguments: failures.append(arguments.exc_value))
    keeper = RecoveryKeeper(tmp_path / "lib.sqlite3")
    keeper.close(clean=False)
    assert not keeper._thread.is_alive() and failures == [] and keeper.error is None
    assert not (tmp_path / "lib.sqlite3").exists()  # and nothing was written


def test_a_change_offered_while_a_write_fails_is_the_one_written_next(tmp_path, monkeypatch):
    """A failed write (a busy or full disk) is tried again, unless a newer change came meanwhile: the newer
    one is written then, never the older one over it."""
    import workbench.library.recovery as recovery

    path = tmp_path / "lib.sqlite3"
    Library.open(path).close()
    real_keep, written = recovery.keep, []

    def keep_failing_once(library, session, state, **where):
        if not written:
            written.append(None)
            keeper.offer(played(5, 1, 9), path=None, name="newer")  # the user plays on while the disk is full
            raise LibraryError("library 'lib.sqlite3': database or disk is full")
        written.append(state)
        real_keep(library, session, state, **where)

    monkeypatch.setattr(recovery, "keep", keep_failing_once)
    keeper = RecoveryKeeper(path)
    keeper.offer(played(5, 1), path=None, name="older")
    assert keeper.flush()
    assert [state.tree for state in written[1:]] == [played(5, 1, 9).tree] and keeper.error is None
    assert rows(path) == [(keeper.session, os.getpid(), None, "newer")]
    keeper.close(clean=False)
