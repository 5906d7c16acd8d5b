"""The app over the library: save and open by name, rename, delete, games like this, no library."""

import pytest
from textual.widgets import Button, Input, OptionList, Static

from workbench.library import Library, games
from workbench.library.studies import list_studies
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs import Confirm, PathDialog
from workbench.tui.library_dialogs import GamesLikeThis, OpenDialog
from workbench.tui.panes.evaluation import EvaluationView

from .tui_helpers import discard_changes, library_with_games, moves, text_of, until, wait_library

SIZE = (100, 34)


async def save_in_library(pilot, app, name: str) -> None:
    """ctrl+s, the name typed in the save dialog, enter."""
    await pilot.press("ctrl+s")
    app.screen.query_one(Input).value = name
    await pilot.press("enter")


def pick_first_study(dialog) -> None:
    """In the open dialog: the list focused, its first study highlighted."""
    studies = dialog.query_one(OptionList)
    studies.focus()
    studies.highlighted = 0


async def test_save_by_name_then_open_rename_and_delete(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    app = WorkbenchApp(db=db)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5", "1", "ctrl+s")
        app.screen.query_one(Input).value = "centre game"
        await pilot.press("enter")
        assert [r.name for r in list_studies(app.library)] == ["centre game"]
        assert "centre game" in app.sub_title and not app.store.state.modified
        await pilot.press("9", "ctrl+s")  # a named study saves straight back to the library
        assert list_studies(app.library)[0].moves == 3

        await pilot.press("n", "enter", "ctrl+o")
        assert isinstance(app.screen, OpenDialog)  # an empty new game has nothing to save: nothing asked (issue 48)
        options = app.screen.query_one(OptionList)
        assert options.option_count == 1
        options.focus()
        options.highlighted = 0
        await pilot.press("enter")
        assert moves(app) == (5, 1, 9)

        await pilot.press("ctrl+o")
        app.screen.query_one(Input).value = "renamed"
        app.screen.query_one(OptionList).highlighted = 0
        await pilot.press("f2")
        assert [r.name for r in list_studies(app.library)] == ["renamed"]
        await pilot.press("ctrl+o")
        pick_first_study(app.screen)
        await pilot.press("delete")
        assert (
            isinstance(app.screen, Confirm) and app.screen.focused.id == "no"
        )  # deleting asks; keeping is the default
        await pilot.press("escape")
        assert [r.name for r in list_studies(app.library)] == ["renamed"]
        assert str(app.screen.query_one("#open-error", Static).render()) == "kept 'renamed'"
        await pilot.press("delete")
        await pilot.click("#yes")
        assert list_studies(app.library) == []
        assert str(app.screen.query_one("#open-error", Static).render()) == "deleted 'renamed'"
        app.screen.query_one(Input).value = "no such study"
        app.screen.query_one(Input).focus()
        await pilot.press("enter")
        assert "no study called" in str(app.screen.query_one("#open-error", Static).render())


async def test_games_like_this_is_computed_without_the_games_tables(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5", "1", "9", "g")
        assert isinstance(app.screen, GamesLikeThis)
        body = str(app.screen.query_one("#games-like-this", Static).render())
        assert (
            body.splitlines()[0]
            == "1,072 complete games from the empty board pass through O../.X./..X, in any move order"
        )
        assert "source: computed" in body
        assert body.splitlines()[5].split()[:3] == ["5", "1", "9"]  # the samples continue the line played
        assert sum(1 for line in body.splitlines() if line.startswith("  ")) == 10


async def test_games_are_served_from_the_library_when_it_has_them(tmp_path):
    db = tmp_path / "lib.sqlite3"
    library_with_games(db)
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        assert app.library_has_games
        await pilot.press("5", "1", "9")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = text_of(app.query_one(EvaluationView))
        assert "1,072 from the start pass through, any order · library ✓" in shown  # the engine's figure, confirmed
        assert "games after each move: the library" in shown
        view = app.query_one(EvaluationView)
        served = view.library_games[2]
        assert {cell: counts["total"] for cell, counts in served.items()} == {
            move.cell: move.games.total for move in app.store.state.analysis.moves
        }
        await pilot.press("g")
        body = str(app.screen.query_one("#games-like-this", Static).render())
        assert "1,072 complete games" in body and "from the library" in body


@pytest.mark.parametrize("variant", ["3x3k3-misere", "3x4k3"])
async def test_the_classic_board_s_library_counts_are_never_shown_on_another_board(tmp_path, variant):
    """A review against an independent count: after a new game under misère (or on 3×4) the empty board showed
    the classic game's counts from the library (their positions have the same keys), "· library ✓" beside them."""
    from workbench.engine import analyze
    from workbench.engine.geometry import cell_name, parse_variant
    from workbench.state.actions import NewGame

    db = tmp_path / "lib.sqlite3"
    library_with_games(db)
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=(120, 40)) as pilot:
        assert await wait_library(pilot, app) == "open"
        await app.workers.wait_for_complete()
        await pilot.pause()
        view = app.query_one(EvaluationView)
        assert "games after each move: the library" in text_of(view)
        geometry = parse_variant(variant)
        app.store.dispatch(NewGame(geometry=geometry))
        await until(pilot, lambda: app.store.state.analysis is not None, "the new board's analysis")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = text_of(view)
        assert "library" not in shown and "games after each move: computed" in shown
        truth = {move.cell: move.games for move in analyze(app.store.state.position).moves}
        rows = {move.cell: move.games for move in app.store.state.analysis.moves}
        assert rows == truth
        for cell, counts in truth.items():  # each move's row shows its own count
            name = cell_name(cell, geometry)
            row = next(line for line in shown.splitlines() if line.lstrip(" ★").startswith(name + " "))
            assert f" {counts.total:,} " in row
        await pilot.press("5", "left")  # and stepping about does not bring them back
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "library" not in text_of(view)
        await pilot.press("g")  # its games are the tables': `workbench games` would not serve them (classic only)
        body = str(app.screen.query_one("#games-like-this", Static).render())
        assert "source: computed from this board's tables (the library keeps the classic board's games only)" in body
        assert "workbench games" not in body
        samples = [line.split("→")[0].split() for line in body.splitlines() if line.startswith("  ")]
        names = {cell_name(cell, geometry) for cell in range(1, geometry.size + 1)}
        assert len(samples) == 10 and all(set(moves) <= names for moves in samples)  # named as the board names them


async def test_games_like_this_keeps_its_close_button_in_view_on_a_small_terminal(tmp_path):
    """At 80×24 the list of games ran to the dialog's border, its Close button out of view."""
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5", "g")
        assert isinstance(app.screen, GamesLikeThis)
        await pilot.pause()
        button = app.screen.query_one("#close").region
        assert (
            button.height == 1 and 0 <= button.y < 24 and app.screen.query_one(".dialog").region.contains_region(button)
        )
        assert "run `workbench games`" in str(app.screen.query_one("#games-like-this", Static).render())
        await pilot.click("#close")
        assert not isinstance(app.screen, GamesLikeThis)


async def test_a_position_met_again_has_its_library_counts_in_its_own_frame(tmp_path, monkeypatch):
    db = tmp_path / "lib.sqlite3"
    library_with_games(db)
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        for key in ("5", "1", "9", "left"):  # each position answered by the library once
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()

        def asked_again(*args):
            raise AssertionError("the library was asked again")

        monkeypatch.setattr(games, "games_through", asked_again)
        monkeypatch.setattr(games, "games_after", asked_again)
        await pilot.press("right")  # back to 5 1 9: its counts were kept
        view = app.query_one(EvaluationView)
        assert view.library_games is not None and view.library_games[0] == app.store.state.position
        shown = text_of(view)
        assert "1,072 from the start pass through, any order · library ✓" in shown
        assert "games after each move: the library" in shown
        assert not [worker for worker in app.workers if worker.name == "library-games"]  # none started for it


async def test_an_unusable_library_warns_and_files_still_work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_text("not a database" * 100)
    app = WorkbenchApp(db=str(garbage))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "unavailable"
        assert app.library is None
        assert any("not a workbench library (file is not a database)" in n.message for n in app._notifications)
        await pilot.press("5", "ctrl+s")
        assert str(app.screen.query_one(".dialog-title").render()) == "Save study as (a .json file)"
        app.screen.query_one(Input).value = "plain"  # no library: a name is a file name
        await pilot.press("enter")
        assert app.study_path == "plain" and not app.store.state.modified


async def test_save_from_the_unsaved_changes_dialog_goes_back_to_the_library(tmp_path):
    """Regression: "Save" in the unsaved-changes dialog wrote study.json instead of the library study."""
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5", "ctrl+s")
        app.screen.query_one(Input).value = "mine"
        await pilot.press("enter")
        await pilot.press("1", "q")
        await pilot.click("#save")
        await pilot.pause()
    assert app.return_code == 0
    with Library.open(tmp_path / "lib.sqlite3") as library:
        assert list_studies(library)[0].moves == 2
    assert not (tmp_path / "study.json").exists()


async def test_an_app_opened_on_a_library_study_saves_back_to_it(tmp_path):
    from workbench.library.studies import open_study, save_study
    from workbench.state import AppState, reduce
    from workbench.state.actions import PlayCell

    db = str(tmp_path / "lib.sqlite3")
    with Library.open(db) as library:
        save_study(library, "corner opening", reduce(reduce(AppState(), PlayCell(cell=5)), PlayCell(cell=1)))
    with Library.open(db) as library:
        state = open_study(library, "corner opening")
    app = WorkbenchApp(state, name="corner opening", db=db)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        assert app.sub_title == "classic · corner opening"
        await pilot.press("9")
        assert app.sub_title == "classic · corner opening •"
        await pilot.press("ctrl+s")
        assert app.sub_title == "classic · corner opening"
        assert moves(app) == (5, 1, 9) and [r.moves for r in list_studies(app.library)] == [3]


async def test_saving_over_another_study_asks_and_a_new_game_is_untitled(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    app = WorkbenchApp(db=db)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press(*"51937", "ctrl+s")
        app.screen.query_one(Input).value = "corner opening"
        await pilot.press("enter")
        assert app.sub_title == "classic · corner opening"
        await pilot.press("n", "enter")  # a new game is a new, untitled study (empty: nothing unsaved yet)
        assert app.sub_title == "classic · untitled study"
        await pilot.press("1", "ctrl+s")  # so ctrl+s asks for a name instead of overwriting
        assert isinstance(app.screen, PathDialog)
        app.screen.query_one(Input).value = "corner opening"
        await pilot.press("enter")
        assert isinstance(app.screen, Confirm)
        assert (
            str(app.screen.query_one("#confirm-question").render())
            == "'corner opening' exists in the library — replace it?"
        )
        assert [str(button.label) for button in app.screen.query(Button)] == [
            "Keep it (esc)",
            "Replace",
        ]  # keeping first
        await pilot.press("enter")  # the default answer keeps it
        assert isinstance(app.screen, PathDialog)
        assert str(app.screen.query_one("#path-error").render()) == "kept as it was: type another name"
        assert [r.moves for r in list_studies(app.library)] == [5]
        await pilot.press("enter")  # asked again
        await pilot.click("#yes")
        assert not isinstance(app.screen, (Confirm, PathDialog))
        assert [r.moves for r in list_studies(app.library)] == [1] and app.sub_title == "classic · corner opening"
        await pilot.press("i")
        app.screen.query_one(Input).value = "5 1"
        await pilot.press("enter")
        assert app.sub_title == "classic · untitled study •"  # a set-up too


async def test_saving_over_a_file_asks_but_saving_back_to_its_own_file_does_not(tmp_path):
    other = tmp_path / "other.json"
    other.write_text("precious")
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5", "ctrl+s")
        app.screen.query_one(Input).value = str(other)
        await pilot.press("enter")
        assert str(app.screen.query_one("#confirm-question").render()) == f"{other} exists — replace it?"
        await pilot.press("escape")
        assert other.read_text() == "precious"
        (tmp_path / "folder.json").mkdir()  # a folder: nothing to replace, said at once (it asked, then failed)
        app.screen.query_one(Input).value = str(tmp_path / "folder.json")
        await pilot.press("enter")
        assert isinstance(app.screen, PathDialog) and "a folder" in str(app.screen.query_one("#path-error").render())
        app.screen.query_one(Input).value = str(tmp_path / "mine.json")
        await pilot.press("enter")
        assert app.sub_title == "classic · mine.json"
        await pilot.press("1", "ctrl+s")  # its own file: saved straight back
        assert app.sub_title == "classic · mine.json" and not isinstance(app.screen, (Confirm, PathDialog))


async def test_f2_puts_the_name_in_the_box_to_edit_and_enter_renames(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5")
        await save_in_library(pilot, app, "corner opening")
        await pilot.press("ctrl+o")
        dialog = app.screen
        assert isinstance(dialog, OpenDialog)
        hint = str(dialog.query_one("#open-hint").render())
        assert hint.splitlines() == [
            "enter opens · f2 renames · delete removes",
            "or type a study name or a .json path below",
        ]
        hint_label = dialog.query_one("#open-hint")
        assert hint_label.size.height == 2 and hint_label.size.width >= 42  # both lines whole at 80×24
        pick_first_study(dialog)
        await pilot.press("f2")
        box = dialog.query_one(Input)
        await pilot.pause()
        assert app.focused is box and box.value == "corner opening" and box.cursor_position == len("corner opening")
        assert box.selection.is_empty  # typing edits the name rather than replacing it
        assert "new name for 'corner opening'" in str(dialog.query_one("#open-hint").render())
        await pilot.press("escape")  # leaves the rename, not the dialog
        assert (
            app.screen is dialog
            and box.value == ""
            and str(dialog.query_one("#open-hint").render()).startswith("enter opens")
        )
        assert isinstance(app.focused, OptionList)
        await pilot.press(
            "f2",
            "backspace",
            "backspace",
            "backspace",
            "backspace",
            "backspace",
            "backspace",
            "backspace",
            *"game",
            "enter",
        )
        assert app.screen is not dialog
        assert [r.name for r in list_studies(app.library)] == ["corner game"]


async def test_renaming_or_deleting_the_open_study_follows_in_the_app(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5", "2")
        await save_in_library(pilot, app, "edge reply")
        await pilot.press("ctrl+o")
        pick_first_study(app.screen)
        await pilot.press("f2", "s", "enter")
        assert app.sub_title == "classic · edge replys"
        assert any(n.message == "Renamed 'edge reply' to 'edge replys'" for n in app._notifications)
        await pilot.press("9", "ctrl+s")  # saves into the renamed study, not a new copy of the old name
        assert [(r.name, r.moves) for r in list_studies(app.library)] == [("edge replys", 3)]
        await pilot.press("ctrl+o")
        pick_first_study(app.screen)
        await pilot.press("delete")
        await pilot.click("#yes")
        await pilot.press("escape")
        assert list_studies(app.library) == []
        assert app.sub_title == "classic · untitled study •" and app.store.state.modified  # only here now: unsaved
        assert moves(app) == (5, 2, 9)


async def test_undoing_a_new_game_brings_back_the_study_and_its_name(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("1", "5")
        await save_in_library(pilot, app, "corner line")
        await pilot.press("n", "enter")
        assert app.sub_title == "classic · untitled study"
        await pilot.press("ctrl+z")
        assert moves(app) == (1, 5) and app.sub_title.startswith("classic · corner line")
        await pilot.press("9", "ctrl+s")  # saves back into it, without asking for a name
        assert not isinstance(app.screen, PathDialog)
        assert [(r.name, r.moves) for r in list_studies(app.library)] == [("corner line", 3)]
        await pilot.press("ctrl+z")  # the 9 came off; another ctrl+z has nothing; redo brings it back
        await pilot.press("ctrl+y")
        assert app.sub_title.startswith("classic · corner line")
        await pilot.press("i")
        app.screen.query_one(Input).value = "X../.../..."
        await pilot.press("enter")
        await discard_changes(pilot, app)  # the 9 taken off and not saved
        assert app.sub_title == "classic · untitled study •"
        await pilot.press("ctrl+z")
        assert app.sub_title.startswith("classic · corner line")
        await pilot.press("ctrl+y")  # redo: the set-up again, untitled again
        assert app.sub_title == "classic · untitled study •"


async def test_a_library_that_cannot_list_its_studies_warns_and_still_opens_files(tmp_path, monkeypatch):
    from workbench.library import LibraryError, studies as library_studies
    from workbench.state import AppState, save_study

    def damaged(library):
        raise LibraryError("the library is damaged: no such table studies")

    monkeypatch.setattr(library_studies, "list_studies", damaged)
    study = tmp_path / "kept.json"
    save_study(AppState(), study)
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("ctrl+o")
        [warning] = [n for n in app._notifications if n.message == "the library is damaged: no such table studies"]
        assert (warning.title, warning.severity) == ("Library", "warning")
        assert isinstance(app.screen, OpenDialog)
        # a review: it said "The library has no studies yet", though a study's name opened it
        hint = str(app.screen.query_one("#open-unlisted").render())
        assert hint == (
            "The library's studies cannot be listed (the library is damaged: no such table studies): type a "
            "study's name or a .json path."
        )
        assert "no studies yet" not in " ".join(str(label.render()) for label in app.screen.query(".dialog-hint"))
        app.screen.query_one(Input).value = str(study)
        await pilot.press("enter")
        assert not isinstance(app.screen, OpenDialog) and app.study_path == str(study)


async def test_saving_in_the_library_is_a_brief_notice(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5")
        await save_in_library(pilot, app, "brief")
        [notice] = [n for n in app._notifications if n.message == "Saved 'brief' in the library"]
        assert notice.timeout == 2


async def test_a_games_table_that_disagrees_with_the_engine_is_shown_as_such(tmp_path):
    """The engine's count comes first; the library's is a check: ✓ when it agrees, its own figure with "!"
    when it does not (a games table edited or damaged by hand)."""
    import sqlite3

    db = tmp_path / "lib.sqlite3"
    library_with_games(db)
    connection = sqlite3.connect(db)
    with connection:
        game_id, reply = connection.execute(
            "SELECT game_id, b2 FROM games WHERE a1 = 5 AND b1 = 1 AND a2 = 9 LIMIT 1"
        ).fetchone()
        connection.execute("DELETE FROM games WHERE game_id = ?", (game_id,))
    connection.close()
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5", "1", "9")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = [strip.text.rstrip() for strip in app.query_one(EvaluationView)._ensure_strips()]
        assert "1,072 pass through, any order · library says 1,071!" in shown, shown
        # the moves table's games after each move are the library's: one fewer after the deleted game's reply
        from workbench.engine import analyze, parse_position

        computed = {move.cell: move.games.total for move in analyze(parse_position("O../.X./..X")).moves}
        rows = {
            line.split()[0].lstrip("★"): line.split()
            for line in shown
            if line.split() and line.split()[0].lstrip("★").isdigit()
        }
        assert "games after each move: the library" in shown
        assert rows[str(reply)][4] == f"{computed[reply] - 1:,}"
        assert all(rows[str(cell)][4] == f"{total:,}" for cell, total in computed.items() if cell != reply)


async def test_renaming_another_study_leaves_the_open_one_s_name_alone(tmp_path):
    """Only the open study follows a rename; and a rename with the box emptied says what to do."""
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5")
        await save_in_library(pilot, app, "[b]other")  # a name that would be markup
        await pilot.press("n", "enter", "1")
        await save_in_library(pilot, app, "mine")
        await pilot.press("ctrl+o")
        await pilot.pause()
        studies = app.screen.query_one(OptionList)
        studies.focus()
        studies.highlighted = studies.get_option_index("[b]other")
        await pilot.press("f2")
        await pilot.pause()
        hint = str(app.screen.query_one("#open-hint").render())
        assert hint == "new name for '[b]other': enter renames · escape cancels"  # the name as typed, not as markup
        app.screen.query_one(Input).value = ""
        await pilot.press("enter")
        await pilot.pause()
        assert "type the new name in the box" in str(app.screen.query_one(".dialog-error").render())
        app.screen.query_one(Input).value = "renamed"
        await pilot.press("enter")
        await pilot.press("escape")
        await pilot.pause()
        assert sorted(r.name for r in list_studies(app.library)) == ["mine", "renamed"]
        assert app.study_name == "mine" and app.sub_title == "classic · mine"


async def test_opening_from_an_empty_library_says_to_type_a_file_s_path(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog) and not app.screen.query(OptionList)
        assert (
            str(app.screen.query_one(".dialog-hint").render()) == "The library has no studies yet: type a .json path."
        )


async def test_deleting_a_study_another_tab_deleted_meanwhile_says_so(tmp_path):
    """Two apps on one library (two browser tabs): the study listed here was deleted there before this delete."""
    db = tmp_path / "lib.sqlite3"
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5")
        await save_in_library(pilot, app, "centre")
        await pilot.press("ctrl+o")
        dialog = app.screen
        pick_first_study(dialog)
        with Library.open(db) as other:
            from workbench.library.studies import delete_study

            delete_study(other, "centre")
        await pilot.press("delete")
        await pilot.click("#yes")
        await pilot.pause()
        assert app.screen is dialog
        shown = str(dialog.query_one("#open-error", Static).render())
        assert shown == f"library {str(db)!r}: no study called 'centre'"


async def test_games_like_this_shows_a_library_path_with_brackets_as_it_is(tmp_path):
    folder = tmp_path / "games [b]x"  # Rich would read "[b]" as bold, and drop it from the path
    folder.mkdir()
    db = folder / "lib.sqlite3"
    library_with_games(db)
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5", "g")
        assert isinstance(app.screen, GamesLikeThis)
        body = str(app.screen.query_one("#games-like-this", Static).render())
        assert f"source: from the library ({db})" in body


def test_the_open_dialog_s_detail_of_a_study_says_move_or_moves():
    """Beside each name the open dialog shows the variant, the moves (one "move", else "moves") and when it was
    saved; a damaged study says why instead."""
    from workbench.library.studies import StudyRecord
    from workbench.tui.features.study_files import _record_detail

    when = "2026-11-27 10:00:00"
    assert _record_detail(StudyRecord(name="a", moves=1, updated=when)) == f"3x3k3 · 1 move · {when}"
    four = StudyRecord(name="b", moves=4, updated=when, variant="4x4k4")
    assert _record_detail(four) == f"4x4k4 · 4 moves · {when}"
    damaged = StudyRecord(name="c", moves=0, updated=when, damaged="not valid JSON")
    assert _record_detail(damaged) == f"damaged: not valid JSON · {when}"


def _state_of(*cells: int):
    from workbench.state import AppState, reduce
    from workbench.state.actions import PlayCell

    state = AppState()
    for cell in cells:
        state = reduce(state, PlayCell(cell=cell))
    return state


@pytest.mark.parametrize("kept_in", ["library", "file"])
async def test_ctrl_s_asks_before_writing_over_a_copy_changed_elsewhere_since_it_was_opened(tmp_path, kept_in):
    """A new user's review: two windows on one study; the second saved a variation, then the first's ctrl+s wrote
    over it without a word, and the variation was gone."""
    from workbench.library.studies import open_study, save_study as save_to_library
    from workbench.state import load_study, save_study as save_to_file

    db, path = tmp_path / "lib.sqlite3", tmp_path / "corner.json"
    with Library.open(db) as library:
        save_to_library(library, "corner", _state_of(5, 1))
    save_to_file(_state_of(5, 1), path)
    where = {"name": "corner"} if kept_in == "library" else {"path": str(path)}

    def kept():
        if kept_in == "file":
            return load_study(path).tree.moves_to(max(load_study(path).tree.nodes))
        with Library.open(db) as library:
            study = open_study(library, "corner")
        return study.tree.moves_to(max(study.tree.nodes))

    def saved_elsewhere(*cells):
        if kept_in == "file":
            save_to_file(_state_of(*cells), path)
        else:
            with Library.open(db) as library:
                save_to_library(library, "corner", _state_of(*cells), replace=True)

    app = WorkbenchApp(_state_of(5, 1), db=str(db), **where)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("9", "ctrl+s")  # nothing changed elsewhere: saved at once
        await pilot.pause()
        assert kept() == (5, 1, 9) and not app.store.state.modified and not isinstance(app.screen, Confirm)
        saved_elsewhere(5, 1, 3)  # another window's save
        await pilot.press("left", "2", "ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, Confirm), "the question")
        question = str(app.screen.query_one("#confirm-question").render())
        named = "'corner' in the library" if kept_in == "library" else repr(str(path))
        assert question == (
            f"{named} was changed by another window or program since it was opened here. Replace it with this study?"
        )
        await pilot.press("escape")  # keep it: asked where to save this one instead
        await until(pilot, lambda: isinstance(app.screen, PathDialog), "the save-as dialog")
        app.screen.query_one(Input).value = "corner" if kept_in == "library" else str(path)  # its own name again
        await pilot.press("enter")  # the same question, not a silent replace (a review)
        await until(pilot, lambda: isinstance(app.screen, Confirm), "the question in the save-as dialog")
        assert str(app.screen.query_one("#confirm-question").render()) == question
        await pilot.press("enter")  # kept
        await until(pilot, lambda: isinstance(app.screen, PathDialog), "the save-as dialog again")
        await pilot.press("escape")
        await pilot.pause()
        assert kept() == (5, 1, 3) and app.store.state.modified
        await pilot.press("ctrl+s")  # asked again: it is still not the copy opened here
        await until(pilot, lambda: isinstance(app.screen, Confirm), "the question again")
        await pilot.click("#yes")
        await pilot.pause()
        assert kept() == (5, 1, 2) and not app.store.state.modified
        await pilot.press("left", "4", "ctrl+s")  # the copy written here is the one remembered: no question
        await pilot.pause()
        assert kept() == (5, 1, 4) and not isinstance(app.screen, Confirm)


async def test_a_restored_study_asks_before_replacing_a_kept_copy_that_differs_from_it(tmp_path):
    from workbench.library.studies import open_study, save_study as save_to_library

    db = tmp_path / "lib.sqlite3"
    with Library.open(db) as library:
        save_to_library(library, "corner", _state_of(5, 1, 3))
    # as the recovery restores a study: its own state, the name it was kept under, the copy it was opened from unknown
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=(120, 40)) as pilot:
        assert await wait_library(pilot, app) == "open"
        from workbench.state.actions import LoadState

        app.store.dispatch(LoadState(state=_state_of(5, 1, 9), unsaved=True))
        app.study_name = "corner"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, Confirm), "the question")
        assert str(app.screen.query_one("#confirm-question").render()).startswith(
            "'corner' in the library is not the copy this study was opened from here, and may have been saved since"
        )
        await pilot.click("#yes")
        await pilot.pause()
        with Library.open(db) as library:
            study = open_study(library, "corner")
        assert study.tree.moves_to(max(study.tree.nodes)) == (5, 1, 9)


async def test_typing_while_the_open_dialog_s_list_has_the_focus_goes_into_its_box(tmp_path):
    """A new user's review: ctrl+o puts the focus on the list, so a name typed went nowhere, and Enter opened the
    highlighted study instead of the one typed."""
    from workbench.state import AppState, reduce, save_study
    from workbench.state.actions import PlayCell

    other = tmp_path / "other.json"
    save_study(reduce(AppState(), PlayCell(cell=7)), other)
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5")
        await save_in_library(pilot, app, "centre")
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, OpenDialog) and isinstance(app.screen.focused, OptionList)
        await pilot.press(*str(other), "enter")
        assert not isinstance(app.screen, OpenDialog) and moves(app) == (7,) and app.sub_title.endswith("other.json")
