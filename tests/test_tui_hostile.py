"""The app under hostile input: each of these once ended the app; now each is one notification or one
error line in a dialog, and the user's study is never lost."""

from __future__ import annotations

import json
import random

import pytest
from textual.widgets import Input, OptionList, Static

from workbench.library import Library
from workbench.library.studies import list_studies, save_study
from workbench.state import AppState, dumps_study, import_movetext
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs import PathDialog
from workbench.tui.library_dialogs import GamesLikeThis, OpenDialog
from workbench.tui.panes.variation_tree import VariationTree, tree_lines

from .fuzz import run_sql as execute
from .tui_helpers import library_with_games, moves, plain_text, text_of, wait_library, wait_ready

SIZE = (100, 34)


def messages(app) -> list[str]:
    return [notification.message for notification in app._notifications]


async def test_opening_a_library_row_that_is_not_a_study_says_so_in_the_dialog(tmp_path):
    db = tmp_path / "lib.sqlite3"
    with Library.open(db) as library:
        save_study(library, "good", AppState(tree=import_movetext("5 1"), cursor=2))
        save_study(library, "[/]broken[bold]", AppState())
    execute(db, "UPDATE studies SET data = '{\"nodes\": 5}' WHERE name = '[/]broken[bold]'")
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("ctrl+o")
        dialog = app.screen
        assert isinstance(dialog, OpenDialog)
        listed = [str(dialog.query_one(OptionList).get_option_at_index(i).prompt) for i in range(2)]
        # the name is shown as typed, markup and all, and the damage is told beside it
        assert any(line.startswith("[/]broken[bold]  damaged: not a workbench study") for line in listed), listed
        studies = dialog.query_one(OptionList)
        studies.focus()
        studies.highlighted = next(i for i in range(2) if studies.get_option_at_index(i).id == "[/]broken[bold]")
        await pilot.press("enter")  # picked from the list: a library name, though it holds a '/'
        assert app.screen is dialog
        error = plain_text(dialog.query_one("#open-error", Static))
        assert "study '[/]broken[bold]' is damaged (not a workbench study" in error
        typed = dialog.query_one(Input)
        typed.focus()
        typed.value = "good"
        await pilot.press("enter")
        assert moves(app) == (5, 1)


@pytest.mark.parametrize(
    "content, reason",
    [
        ("[" * 100_000, "not a study: JSON nested too deeply"),
        ('{"format": "workbench-study", "version": 1, "nodes": [5]}', 'missing "geometry"'),
        ("[]", "not a workbench study"),
    ],
    ids=["nested", "no geometry", "a list"],
)
async def test_ctrl_o_on_a_bad_json_file_is_an_error_line_and_the_study_stays(tmp_path, content, reason):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "ctrl+o")
        await pilot.click("#discard")  # the move is an unsaved change: asked first
        dialog = app.screen
        assert isinstance(dialog, OpenDialog)
        dialog.query_one(Input).value = str(bad)
        await pilot.press("enter")
        assert app.screen is dialog and reason in plain_text(dialog.query_one("#open-error", Static))
        await pilot.press("escape")
        assert app.is_running


async def test_games_like_this_on_a_damaged_games_table_falls_back_to_the_engine(tmp_path):
    db = tmp_path / "lib.sqlite3"
    library_with_games(db)
    execute(db, "DROP TABLE openings")
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("5")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app.library_has_games  # said once, then counted by the engine
        assert any("no such table: openings" in message and "computed instead" in message for message in messages(app))
        await pilot.press("g")
        assert isinstance(app.screen, GamesLikeThis)
        body = text_of(app.screen.query_one("#games-like-this", Static))
        assert "X wins" in body and "source: computed" in body


async def test_a_save_into_a_damaged_library_keeps_the_study_and_offers_a_file(tmp_path):
    db = tmp_path / "lib.sqlite3"
    Library.open(db).close()
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        execute(db, "DROP TABLE studies")  # damaged while the app runs
        await pilot.press("5", "1", "ctrl+s")
        app.screen.query_one(Input).value = "my study"
        await pilot.press("enter")
        dialog = app.screen
        assert isinstance(dialog, PathDialog)  # still asking: nothing was saved
        assert "damaged (no such table: studies)" in plain_text(dialog.query_one("#path-error", Static))
        assert moves(app) == (5, 1) and app.store.state.modified
        target = tmp_path / "kept.json"
        dialog.query_one(Input).value = str(target)
        await pilot.press("enter")
        assert not app.store.state.modified and json.loads(target.read_text())["nodes"][2]["move"] == 1


@pytest.mark.parametrize("width", [4, 5, 6, 10])
async def test_the_palette_opens_in_a_terminal_of_a_few_columns(width):
    app = WorkbenchApp()
    async with app.run_test(size=(width, 12)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press("t", "h")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running


def assert_history_matches_the_tree(app) -> None:
    """The history pane shows exactly the store's tree: a line per node of it (less any folded away), each
    labelled with its own move, the main line in order, and the lit line is the board's, in view."""
    view = app.query_one(VariationTree)
    tree = app.store.state.tree
    folded = frozenset(line.node for line in view.lines if line.expander == "▶ ")
    assert view.lines == tree_lines(tree, folded)  # the layout of this tree, not of an older one
    for line in view.lines[1:]:
        assert view.label(line.node).removeprefix("( ").split()[1].rstrip("?!") == str(tree.node(line.node).move)
    cursor = app.store.state.cursor
    assert view.line_of(cursor) is not None  # never folded away
    if not app.panes_hidden and view.scrollable_content_region.height > 0:
        top = view.scroll_offset.y
        assert top <= view.line_of(cursor) < top + view.scrollable_content_region.height


KEYS = [
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "left",
    "right",
    "home",
    "end",
    "up",
    "down",
    "backspace",
    "space",
    "b",
    "d",
    "p",
    "P",
    "j",
    "k",
    "enter",
    "tab",
    "shift+tab",
    "ctrl+z",
    "ctrl+y",
    "v",
    "m",
    "e",
    "t",
    "x",
    "escape",
    "z",
    "i",
    "h",
    "l",
    "minus",
]


@pytest.mark.parametrize("seed", [1, 2])
async def test_random_keys_and_resizes_keep_the_history_in_step_with_the_tree(seed):
    rng = random.Random(seed)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        for step in range(150):
            if step % 25 == 24:  # tiny terminals too: the panes hide, and must come back in step
                await pilot.resize_terminal(
                    rng.choice([5, 30, 60, 80, 100, 120, 170]), rng.choice([4, 12, 20, 24, 34, 40])
                )
            elif step % 7 == 6:
                width, height = app.size
                await pilot.click(offset=(rng.randrange(width), rng.randrange(height)))
            else:
                await pilot.press(rng.choice(KEYS))
            while app.screen is not app.screen_stack[0]:  # a dialog: close it, as a user would
                await pilot.press("escape")
            assert_history_matches_the_tree(app)
        assert app.is_running


async def test_the_history_lines_follow_the_tree_after_going_back_and_branching():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "home", "9")
        app.query_one(VariationTree).focus()
        await pilot.press("k")  # the variation 9 is drawn under the move it replaces
        assert moves(app) == (5,)
        await pilot.press("j", "j")
        assert moves(app) == (5, 1)
        await pilot.press("k")
        assert moves(app) == (9,)
        assert_history_matches_the_tree(app)


async def test_a_study_with_a_name_of_markup_opens_and_shows_in_the_title(tmp_path):
    db = tmp_path / "lib.sqlite3"
    with Library.open(db) as library:
        save_study(library, "[bold]x[/]", AppState(tree=import_movetext("5"), cursor=1))
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"
        await pilot.press("ctrl+o")
        studies = app.screen.query_one(OptionList)
        studies.focus()
        studies.highlighted = 0
        await pilot.press("enter")
        assert moves(app) == (5,) and "[bold]x[/]" in app.sub_title
        assert dumps_study(app.store.state)


async def test_a_library_missing_its_games_and_recovery_tables_still_keeps_studies(tmp_path):
    db = tmp_path / "lib.sqlite3"
    Library.open(db).close()
    execute(db, "DROP TABLE games", "DROP TABLE recovery")
    app = WorkbenchApp(db=str(db))
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_library(pilot, app) == "open"  # the studies table is whole: the library stays
        said = messages(app)
        assert any("no such table: games" in m and "game counts are computed instead" in m for m in said), said
        assert any("no such table: recovery" in m and "cannot be offered" in m for m in said), said
        await pilot.press("5", "ctrl+s")
        app.screen.query_one(Input).value = "still saved"
        await pilot.press("enter")
        assert app.study_name == "still saved" and not app.store.state.modified
        with Library.open(db) as library:
            assert [record.name for record in list_studies(library)] == ["still saved"]


def _dialogs() -> dict[str, object]:
    """Every screen the app pushes, made as the app makes it: each a function of the running app."""
    from workbench.engine.position import Position
    from workbench.state.practice import Exercise, Practice
    from workbench.tui.dialogs import (
        CommentDialog,
        Confirm,
        ConfirmQuit,
        HelpScreen,
        MoveTextScreen,
        NewGameDialog,
        PlayCellDialog,
        SetUpDialog,
    )
    from workbench.tui.practice import PracticeScreen, SideDialog

    def practice(app):
        position = Position.empty(app.store.state.geometry).play_all((1, 5))
        return PracticeScreen(Practice("mistake", (Exercise(position, 1),), answers=app.store.state.answers), "t")

    return {
        "confirm": lambda app: Confirm("Delete it?", yes="Delete", no="Keep it"),
        "confirm quit": lambda app: ConfirmQuit(),
        "new game": lambda app: NewGameDialog(app.store.state.geometry),
        "side": lambda app: SideDialog({"X": 1, "O": 2}),
        "practice": practice,
        "play a cell": lambda app: PlayCellDialog(Position.empty(app.store.state.geometry)),
        "set up": lambda app: SetUpDialog(app.store.state.geometry),
        "path": lambda app: PathDialog("Save to", "study.json", lambda path: None),
        "comment": lambda app: CommentDialog("a comment"),
        "move text": lambda app: MoveTextScreen("1. 5 1"),
        "help": lambda app: HelpScreen([("Board", [("5", "play")])]),
        "games like this": lambda app: GamesLikeThis("Games", "none"),
        "open": lambda app: OpenDialog([("a study", "5 1")], lambda text, listed: None, None, None),
    }


@pytest.mark.parametrize("name", sorted(_dialogs()))
async def test_a_quit_as_a_dialog_opens_ends_the_app_cleanly(name, tmp_path):
    """A key that opens a dialog and a quit read in one go (a fast typist, a paste, a browser's held keys): the app
    ends before the dialog has mounted its parts. A dialog that looked its parts up as it mounted (to focus one)
    failed there, and the app ended in a traceback."""
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        app.push_screen(_dialogs()[name](app))
        app.exit()
    assert app._exception is None
