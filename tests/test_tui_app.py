"""Pilot tests: every binding and click path, asserting the state and what the panes show."""

import html
import io
import os
import re

import pytest
from rich.cells import cell_len
from rich.console import Console
from textual.widgets import Button, Input, OptionList, Static

from workbench.engine import Geometry, parse_position, principal_variation
from workbench.state import AppState, EngineMode, load_study, reduce, save_study
from workbench.state.actions import PlayCell, ToStart
from workbench.tui import app as app_module, keys_help, textual_ext
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs import ConfirmQuit, HelpScreen, MoveTextScreen, PathDialog, SetUpDialog, parse_setup
from workbench.tui.features import engine_play
from workbench.tui.library_dialogs import OpenDialog
from workbench.tui.panes.board import BoardGrid, BoardStatus
from workbench.tui.panes.evaluation import EvaluationView
from workbench.tui.panes.history import ValueStrip
from workbench.tui.panes.symmetry import SymmetryView
from workbench.tui.panes.variation_tree import VariationTree

from .tui_helpers import (
    HANG_GUARD_SECONDS,
    cell_offset,
    cell_texts,
    discard_changes,
    moves,
    text_of,
    until,
    wait_for_reactive,
    wait_library,
    wait_ready,
)

SIZE = (100, 34)


async def test_start_up_shows_four_titled_panes_and_focuses_the_board():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        titles = {pane.border_title for pane in app.query("#board, #evaluation, #symmetry, #history")}
        assert titles == {"Board · classic", "Evaluation", "Symmetry", "History"}
        assert isinstance(app.focused, BoardGrid)
        assert "X to move: draw in 9" in text_of(app.query_one(EvaluationView))
        assert "class 1 of 765" in text_of(app.query_one(SymmetryView))


async def test_a_mask_with_no_cells_reads_none_dimmed_as_the_legend_where_the_masks_are_named():
    """Where six small boards do not fit the evaluation pane, each mask is a line of the cells it names; an
    empty one reads "(none)", dimmed as the legend under the masks is, not in the text's own colour (3×4 at 80
    columns: six small boards of four columns do not fit)."""
    app = WorkbenchApp(game=Geometry(3, 4, 3))
    async with app.run_test(size=(80, 30)) as pilot:
        await wait_ready(pilot, app)
        evaluation = app.query_one(EvaluationView)
        segments = [segment for y in range(evaluation.size.height) for segment in evaluation.render_line(y)]
        [legend] = [segment for segment in segments if segment.text.startswith("p-win/p-lose: perfect play")]
        nones = [segment for segment in segments if segment.text == "(none)"]
        assert len(nones) >= 3  # win, block and fork at the start
        assert all(segment.style == legend.style for segment in nones)


@pytest.mark.parametrize("cell", range(1, 10))
async def test_number_keys_play_their_cell(cell):
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press(str(cell))
        assert moves(app) == (cell,)
        assert app.store.state.position.mark_at(cell).value == "X"


async def test_the_cell_cursor_moves_with_hjkl_or_shift_arrows_and_enter_plays():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        assert app.store.state.view.highlighted == 5  # focusing the board puts the cursor in the middle
        await pilot.press("k", "h")
        assert app.store.state.view.highlighted == 1
        await pilot.press("j", "shift+down", "l", "shift+right")
        assert app.store.state.view.highlighted == 9
        await pilot.press("l")  # wraps around
        assert app.store.state.view.highlighted == 7
        await pilot.press("shift+up", "shift+left", "shift+right", "shift+down")
        assert app.store.state.view.highlighted == 7
        await pilot.press("enter")
        assert moves(app) == (7,)
        table = [line.split() for line in text_of(app.query_one(EvaluationView)).splitlines()]
        assert ["★5", "draw", "8"] == [row[:3] for row in table if row and row[0].startswith("★")][0]


async def test_clicking_a_cell_plays_it_and_occupied_cells_do_nothing():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        grid = app.query_one(BoardGrid)
        await pilot.click(BoardGrid, offset=cell_offset(grid, 3))
        assert moves(app) == (3,)
        await pilot.click(BoardGrid, offset=cell_offset(grid, 3))
        assert moves(app) == (3,)
        await pilot.click(BoardGrid, offset=cell_offset(grid, 8))
        assert moves(app) == (3, 8)
        assert cell_texts(grid) == ["1", "2", "X", "4", "5", "6", "7", "O", "9"]


async def test_overlays_toggle_and_cycle():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "2")  # O's edge reply loses: X has winning moves
        await pilot.press("v")
        assert app.store.state.view.overlay == "values"
        # each empty cell shows its exact value and plies to the end, as the engine has them
        shown = cell_texts(app.query_one(BoardGrid))
        expected = {move.cell: f"{move.value.label} {move.remoteness}" for move in app.store.state.analysis.moves}
        assert shown == [
            expected.get(cell, mark) for cell, mark in zip(range(1, 10), ["", "O", "", "", "X", "", "", "", ""])
        ]
        assert expected[8] == "draw 7" and expected[1] == "win 5"
        await pilot.press("v")
        assert app.store.state.view.overlay == "none"
        seen = []
        for _ in range(7):
            await pilot.press("m")
            seen.append(app.store.state.view.overlay)
        assert seen == ["win", "block", "fork", "perfect_win", "perfect_lose", "best", "none"]


async def test_backspace_steps_back_and_undo_redo_restore_edits():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "backspace")
        assert moves(app) == (5,)
        await pilot.press("n", "enter")
        await discard_changes(pilot, app)  # asked first: undo brings them back, but not once the app is closed
        assert moves(app) == () and len(app.store.state.tree.nodes) == 1
        await pilot.press("ctrl+z")
        assert len(app.store.state.tree.nodes) == 3
        await pilot.press("ctrl+y")
        assert len(app.store.state.tree.nodes) == 1


async def test_history_keys_step_switch_promote_and_delete():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "backspace", "3")  # variation 5 3 beside 5 1
        tree = app.query_one(VariationTree)
        tree.focus()
        await pilot.pause()
        assert moves(app) == (5, 3)
        await pilot.press("up")
        assert moves(app) == (5, 1)
        await pilot.press("down")
        assert moves(app) == (5, 3)
        await pilot.press("left")
        assert moves(app) == (5,)
        await pilot.press("right")
        assert moves(app) == (5, 1)
        await pilot.press("home")
        assert moves(app) == ()
        await pilot.press("end")
        assert moves(app) == (5, 1)
        await pilot.press("down", "p")
        assert app.store.state.tree.main_line()[-1] == app.store.state.cursor
        await pilot.press("d")
        assert moves(app) == (5,)
        assert len(app.store.state.tree.nodes) == 3
        await pilot.press("3", "P")  # 3 is a new variation again; P makes it the main line
        assert app.store.state.tree.is_main_line(app.store.state.cursor)


async def test_keys_and_clicks_in_the_tree_jump_and_fold():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9")
        tree = app.query_one(VariationTree)
        tree.focus()
        await pilot.pause()
        await pilot.press("k")  # the board follows the tree's lines at once
        assert moves(app) == (5, 1)
        await pilot.press("k")
        assert moves(app) == (5,)
        await pilot.press("j", "j", "j")  # and stops at the last line
        assert moves(app) == (5, 1, 9)
        await pilot.click(VariationTree, offset=(6, tree.line_of(0) - tree.scroll_offset.y))
        assert moves(app) == ()
        await pilot.press("5", "1", "backspace", "3")  # 1… 3 a variation under 1… 1
        await pilot.pause()
        unfolded = ["  Start", "  1. 5", "▼ 1… 1 ≈", "└── ( 1… 3 ≈", "  2. 9"]
        assert drawn_tree(tree) == unfolded
        await pilot.click(VariationTree, offset=(0, 2 - tree.scroll_offset.y))  # 1… 1's ▼
        assert moves(app) == (5, 1)  # the fold hid the board's line: the board goes to the folded move
        assert drawn_tree(tree) == ["  Start", "  1. 5", "▶ 1… 1 ≈", "  2. 9"]
        await pilot.press("minus")  # and back, by key
        assert drawn_tree(tree) == unfolded
        await pilot.press("minus", "down")  # folded again; the next variation unfolds to show the board's line
        assert moves(app) == (5, 3)
        assert drawn_tree(tree) == unfolded
        await pilot.click(VariationTree, offset=(10, 3 - tree.scroll_offset.y))  # a label: a jump
        assert moves(app) == (5, 3) and drawn_tree(tree) == unfolded
        await pilot.click(
            VariationTree, offset=(4, len(unfolded) - tree.scroll_offset.y)
        )  # the row under the last line
        await pilot.pause()
        assert moves(app) == (5, 3) and drawn_tree(tree) == unfolded  # nothing there: nothing happens


async def test_the_lit_line_stays_in_view_and_a_long_comment_ends_in_an_ellipsis_rather_than_a_scrollbar():
    from workbench.state.actions import SetComment

    app = WorkbenchApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press(*"5193728")
        app.store.dispatch(SetComment(text="the only move that keeps the draw, as the strip below shows " * 2))
        await pilot.pause()
        tree = app.query_one(VariationTree)
        assert not tree.show_horizontal_scrollbar and tree.label(app.store.state.cursor).endswith("below shows")
        lit = tree.line_of(app.store.state.cursor)
        box = tree.scrollable_content_region
        assert tree.scroll_offset.y <= lit < tree.scroll_offset.y + box.height
        shown = tree.render_line(lit - tree.scroll_offset.y).text[: box.width]
        assert shown.startswith("  3… 2!  the only move") and shown.endswith("…")  # cut to the pane's width


def drawn_tree(tree: VariationTree) -> list[str]:
    """The tree's lines as drawn, scrolled or not, without trailing blanks."""
    return [tree._strip(y).text.rstrip() for y in range(len(tree.lines))]


def lit_tree_lines(tree: VariationTree) -> list[str]:
    """The tree lines drawn as current, in the current node's colours."""
    lit_colours = {tree.part("history--current").bgcolor}
    lit = []
    for y in range(tree.size.height):
        strip = tree.render_line(y)
        if any(segment.style and segment.style.bgcolor in lit_colours for segment in strip if segment.text.strip()):
            lit.append(strip.text.lstrip("│├└─ ▼▶").strip())  # the label without the guides
    return lit


async def test_the_tree_lights_exactly_the_boards_node_after_a_new_variation():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9", "backspace", "backspace", "3")  # 1… 3 becomes a variation of 1… 1
        tree = app.query_one(VariationTree)
        tree.focus()
        await pilot.pause()
        assert lit_tree_lines(tree) == ["( 1… 3 ≈"]
        await pilot.press("k")  # the line above, as drawn now, not a line drawn before
        assert moves(app) == (5, 1)
        assert lit_tree_lines(tree) == ["1… 1 ≈"]


async def test_jump_to_twin_follows_the_tree_after_it_changes():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("1", "5", "9", "home", "2", "home", "9", "5", "1")  # a variation 2 in between
        tree = app.query_one(VariationTree)
        tree.focus()
        await pilot.pause()
        await pilot.press("t")
        assert moves(app) == (1, 5, 9)
        await pilot.press("t")
        assert moves(app) == (9, 5, 1)
        assert lit_tree_lines(tree) == ["2. 1 ≡"]


async def test_jump_to_twin_says_when_there_is_none_and_a_click_on_a_scrolled_tree_goes_to_its_line():
    app = WorkbenchApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press(*"519328")
        tree = app.query_one(VariationTree)
        tree.focus()
        await pilot.press("t")
        await pilot.pause()
        # a short note, gone in two seconds
        assert [(n.message, n.timeout) for n in app._notifications][-1] == (
            "No transposition of this position in the tree.",
            2,
        )
        assert moves(app) == (5, 1, 9, 3, 2, 8)
        await pilot.pause()
        assert tree.scroll_offset.y > 0  # seven lines in a smaller box: scrolled to the last
        top = tree.scroll_offset.y
        await pilot.click(VariationTree, offset=(2, 0))  # the first line shown: line `top` of the tree
        await pilot.pause()
        assert app.store.state.cursor == tree.lines[top].node and len(moves(app)) == top


async def test_value_strip_click_jumps_to_that_ply():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9", "home")
        strip = app.query_one(ValueStrip)
        await pilot.click(ValueStrip, offset=(strip.CELL_WIDTH * 2 + 1, 0))
        assert moves(app) == (5, 1)
        await pilot.click(ValueStrip, offset=(0, 0))  # the first cell is the start
        assert moves(app) == ()
        await pilot.click(ValueStrip, offset=(strip.CELL_WIDTH * 3 + 1, 0))  # the last ply of the line
        assert moves(app) == (5, 1, 9)


async def test_transposition_mark_and_jump():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("1", "5", "9")
        first = app.store.state.cursor
        app.store.dispatch(ToStart())
        await pilot.press("9", "5", "1")
        tree = app.query_one(VariationTree)
        tree.focus()
        await pilot.pause()
        assert tree.label(first).endswith("≡")
        await pilot.press("t")
        assert app.store.state.cursor == first


async def test_set_up_dialog_shows_errors_inline_then_sets_up():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("i")
        assert isinstance(app.screen, SetUpDialog)
        await pilot.press(*"XX/")
        error = app.screen.query_one("#setup-error", Static)
        assert "wrong length" in str(error.render())
        app.screen.query_one(Input).value = ""
        await pilot.pause()
        assert str(error.render()) == ""  # an emptied box is no error
        await pilot.press(*"x.o/.x./...", "enter")
        assert not isinstance(app.screen, SetUpDialog)
        assert app.store.state.tree.root_position == parse_position("X.O/.X./...")
        await pilot.press("i", *"5 1 (3) 9", "enter")
        await discard_changes(pilot, app)  # the set-up position, never saved
        assert moves(app) == (5, 1, 9)
        await pilot.press("i", *"5,5")
        error = app.screen.query_one("#setup-error", Static)
        assert str(error.render()) == "invalid move text: '5' at column 3: cell is occupied"  # the move, where it is
        await pilot.press("escape")
        assert not isinstance(app.screen, SetUpDialog)


async def test_save_and_open_through_dialogs(tmp_path):
    target = tmp_path / "mine.json"
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, PathDialog)
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        assert load_study(target).tree == app.store.state.tree
        assert not app.store.state.modified
        await pilot.press("9", "ctrl+s")  # a known path saves straight away
        assert len(load_study(target).tree.nodes) == 4

        broken = tmp_path / "broken.json"
        broken.write_text("{ not json")
        before = app.store.state
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, OpenDialog)
        app.screen.query_one(Input).value = str(broken)
        app.screen.query_one(Input).focus()
        await pilot.press("enter")
        assert isinstance(app.screen, OpenDialog)
        assert "not valid JSON" in str(app.screen.query_one("#open-error", Static).render())
        assert app.store.state is before
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        assert not isinstance(app.screen, OpenDialog)
        assert moves(app) == (5, 1, 9)


async def test_export_comment_help_and_screenshot(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "backspace", "2")
        await pilot.press("c")
        assert str(app.screen.query_one(".dialog-title").render()) == "Comment on this move"
        await pilot.press(*"edge", "enter")
        assert app.store.state.tree.node(app.store.state.cursor).comment == "edge"
        await pilot.press("x")
        assert isinstance(app.screen, MoveTextScreen)
        assert app.screen.query_one("#movetext").text == "5 1 (2 {edge})"
        assert str(app.screen.query_one(".dialog-title").render()) == "Move text (copied to the clipboard)"
        assert str(app.screen.query_one("#movetext-close", Button).label) == "Close"
        app.screen.query_one("#movetext").focus()
        await pilot.press("a", "backspace", "delete")  # to read and copy, not to edit
        assert app.screen.query_one("#movetext").text == "5 1 (2 {edge})"
        await pilot.click("#movetext-close")
        assert not isinstance(app.screen, MoveTextScreen)
        await pilot.press("x")
        await pilot.press("escape", "f1")
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=400, file=io.StringIO(), color_system=None)  # wide: one line per row
        console.print(app.screen.query_one("#help-text", Static).content)
        help_text = "\n".join(line.strip() for line in console.file.getvalue().splitlines())
        for key in ("ctrl+s", "Promote", "To main line", "Play cursor cell", "Values", "Jump to twin"):
            assert key in help_text
        rows = [" ".join(line.split()) for line in help_text.splitlines()]
        for term, words in keys_help.GLOSSARY:  # every column and mark of the panes, explained at length
            assert " ".join(f"{term} {words}".split()) in rows
        assert {term for term, _ in keys_help.GLOSSARY} >= {
            "★",
            "trap",
            "plies",
            "games",
            "p-win / p-lose",
            "??",
            "?!",
            "!",
            "≡ / ≈",
            "orbit",
        }
        await pilot.press("escape", "f12")
        shots = list(tmp_path.glob("*.svg"))
        assert len(shots) == 1 and shots[0].name.startswith("study 20")  # an untitled study's, then the time
        svg = shots[0].read_text()
        assert svg.startswith("<svg") and "Evaluation" in svg and "History" in svg
        assert [n.message for n in app._notifications][-1] == f"Screenshot saved to {shots[0].resolve()}"
        monkeypatch.setattr("time.strftime", lambda form, *when: "2026-11-29 08-00-00")  # three in one second
        await pilot.press("f12", "f12", "f12")
        assert sorted(p.name for p in tmp_path.glob("study 2026-11-29 08-00-00*.svg")) == [
            "study 2026-11-29 08-00-00 (2).svg",
            "study 2026-11-29 08-00-00 (3).svg",
            "study 2026-11-29 08-00-00.svg",
        ]
        (tmp_path / "shots").mkdir()
        monkeypatch.chdir(tmp_path / "shots")

        def full_disk(*args, **kwargs):
            raise OSError(28, "No space left on device")

        with monkeypatch.context() as patched:
            patched.setattr("tempfile.mkstemp", full_disk)
            await pilot.press("f12")
            await pilot.pause()
        last = list(app._notifications)[-1]
        assert (last.title, last.severity) == ("Screenshot not saved", "error") and "No space left" in last.message
        assert app.is_running and os.listdir(tmp_path / "shots") == []  # no empty file, and the app goes on


async def test_engine_plays_its_side_in_each_mode():
    app = WorkbenchApp(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("e")
        assert app.store.state.engine.mode is EngineMode.PERFECT
        await pilot.press("5")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert moves(app)[0] == 5 and len(moves(app)) == 2
        assert moves(app)[1] in (1, 3, 7, 9)  # the only drawing replies to the centre
        await pilot.press("E")  # the engine now plays X, and it is X's move
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(moves(app)) == 3
        await pilot.press("e", "e", "e")
        assert app.store.state.engine.mode is EngineMode.OFF


async def test_the_board_s_status_takes_a_row_for_the_engine_only_while_it_plays():
    app = WorkbenchApp(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        status = app.query_one(BoardStatus)
        assert not status.has_class("-engine")
        await pilot.press("5", "left", "right")
        assert not status.has_class("-engine")
        await pilot.press("e")  # on, playing O: its move
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert status.has_class("-engine") and len(moves(app)) == 2
        await pilot.press("left", "right")  # steps keep it
        assert status.has_class("-engine")
        await pilot.press("e", "e", "e")  # through the other modes, then off
        assert app.store.state.engine.mode is EngineMode.OFF and not status.has_class("-engine")
        await pilot.press("left")
        assert not status.has_class("-engine")


async def test_engine_worker_error_surfaces_instead_of_hanging(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(engine_play, "choose_move", broken)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("e", "5")
        await app.workers.wait_for_complete()
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any("engine exploded" in message for message in messages)
        await pilot.press("1")  # still responsive: the user can play the engine's side
        assert moves(app) == (5, 1)


async def test_command_palette_runs_workbench_commands():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("ctrl+p")
        await pilot.press(*"Overlay: best")
        await app.workers.wait_for_complete()  # the palette gathers its matches in a worker
        await pilot.pause()
        from textual.command import CommandList

        matches = app.screen.query_one(CommandList)
        assert "Overlay: best" in str(matches.get_option_at_index(matches.highlighted).prompt)
        await pilot.press("enter")
        await pilot.pause()
        assert app.store.state.view.overlay == "best"
        commands = [(command.title, command.help) for command in app.get_system_commands(app.screen)]
        ours = commands[[title for title, _ in commands].index("New game") :]
        engine = "Who the engine plays, and how"
        from workbench.tui.keys_help import PUZZLE_THEMES

        assert list(PUZZLE_THEMES) == ["win", "block", "fork", "only move", "hold out", "misère squeeze"]
        assert ours == [
            ("New game", "Start again from the empty board, of this variant or another"),
            *(
                (f"New game: {name}", f"{spelling}: a new study on its empty board")
                for name, spelling in (
                    ("classic", "3x3k3"),
                    ("misère", "3x3k3-misere"),
                    ("3×4, three in a row", "3x4k3"),
                    ("3×4, three in a row, misère", "3x4k3-misere"),
                    ("4×4, three in a row", "4x4k3"),
                    ("4×4, four in a row", "4x4k4"),
                    ("4×5, four in a row", "4x5k4"),
                    ("5×5, four in a row", "5x5k4"),
                    ("7×7, five in a row", "7x7k5"),
                    ("Gomoku 15×15", "15x15k5"),
                )
            ),
            ("Play a cell", "By its number or coordinate (b2)"),
            ("Set up position", "Type a position or a move list"),
            ("Open study", "Open a study from the library, or a .json file"),
            ("Save study", "Save the study (tree, comments, settings)"),
            ("Save study as", "Save under a new name in the library, or to a .json file"),
            ("Games like this", "The complete games through this position, from the library when it has them"),
            ("Export move text", "Show and copy the moves with variations"),
            ("Comment", "Comment on the current move"),
            ("Undo tree edit", "Bring back the tree before the last edit"),
            ("Redo tree edit", "Re-apply an undone edit"),
            ("Play best move", "The first move of the best line from here"),
            ("Add best line", "The evaluation's best line, as a variation in the history"),
            (
                "Learn from your mistakes",
                "Each mistake of a side in this study, variations too, asked again: find a better move",
            ),
            ("Learn from all your mistakes", "The mistakes of every study of this board kept in the library, up to 20"),
            ("Puzzles", "Positions with one move that keeps the value: find it (exact, from the solved board)"),
            *((f"Puzzles: {theme}", words) for theme, words in PUZZLE_THEMES.items()),  # a theme to choose (issue 48)
            ("Toggle value overlay", "Colour empty cells by their exact value"),
            *(
                (f"Overlay: {name}", "Paint the board with this")
                for name in ("none", "values", "win", "block", "fork", "perfect-win", "perfect-lose", "best", "line")
            ),
            ("Engine off", engine),
            *(
                (f"Play vs engine: {mode}, the engine plays {side}", engine)
                for mode in ("perfect", "trap", "random")
                for side in "XO"
            ),
            ("Screenshot", "Save an SVG screenshot in the current folder (in a browser: download it)"),
            ("Help: keys", "Every key of every pane"),
        ]  # the palette's words, as a user reads them
        titles = [title for title, _ in commands]
        for title in ("Theme", "Quit"):  # Textual's own come first
            assert titles.index(title) < titles.index("New game")


async def test_quit_asks_about_unsaved_changes():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.click("#cancel")
        assert not isinstance(app.screen, ConfirmQuit) and app.is_running
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.click("#discard")
        await pilot.pause()
    assert app.return_code == 0


async def test_quit_without_changes_exits_at_once():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_quit_with_save_writes_the_study(tmp_path):
    path = tmp_path / "s.json"
    save_study(AppState(), path)
    app = WorkbenchApp(load_study(path), path=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "q")
        await pilot.click("#save")
        await pilot.pause()
    assert load_study(path).tree.moves_to(1) == (5,)


async def test_a_crash_exits_with_code_1(monkeypatch):
    app = WorkbenchApp()

    def explode(self):
        raise RuntimeError("boom")

    monkeypatch.setattr(WorkbenchApp, "action_toggle_values", explode)
    with pytest.raises(RuntimeError):
        async with app.run_test(size=SIZE) as pilot:
            await wait_ready(pilot, app)
            await pilot.press("v")
            await pilot.pause()
    assert app.return_code == 1


@pytest.mark.parametrize("size", [(1, 1), (10, 5), (79, 23), (80, 24), (120, 40), (300, 100)])
async def test_any_size_renders_and_small_ones_explain(size):
    app = WorkbenchApp()
    async with app.run_test(size=size) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5")
        too_small = app.query_one("#too-small", Static)
        small = size[0] < 80 or size[1] < 24
        assert too_small.display is small
        assert app.query_one("#panes").display is not small
        if small:
            assert "needs at least 80×24" in str(too_small.render())
            await pilot.press("n", "right", "space", "b", "v", "enter", "6")  # the hidden board never changes
            assert moves(app) == () and app.store.state.view.overlay == "none"
            titles = [command.title for command in app.get_system_commands(app.screen)]
            assert "Quit" in titles and "New game" not in titles  # nor does the palette change it
        else:
            assert moves(app) == (5,)


async def test_in_a_browser_the_too_small_message_speaks_of_its_window(monkeypatch):
    monkeypatch.setattr(WorkbenchApp, "is_web", property(lambda self: True))
    app = WorkbenchApp()
    async with app.run_test(size=(55, 16)) as pilot:
        await wait_ready(pilot, app)
        words = str(app.query_one("#too-small", Static).render())
        assert words.startswith("The window holds 55×16 characters.") and "needs at least 80×24" in words
        assert "terminal" not in words


async def test_resizing_back_and_forth_never_crashes():
    app = WorkbenchApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        for size in [(300, 100), (1, 1), (81, 25), (40, 10), (150, 45), (80, 24)]:
            await pilot.resize_terminal(*size)
            await pilot.press("5")
        assert app.query_one("#panes").display
        assert app.query_one("#panes").has_class("-wide") is False
        assert moves(app) == (5,)  # played at 300×100; at 1×1 and 40×10 nothing was
        await pilot.press("h", "enter")  # and the board takes keys again
        assert moves(app) == (5, 4)


@pytest.mark.parametrize("opened", ["before", "while small"])
async def test_the_command_palette_keeps_its_keys_through_a_resize_to_too_small_and_back(opened):
    """A new user's review: the palette (or the theme picker) opened while the terminal was too small took no key
    once it was big again: the app gave the focus back to the board, under the palette."""
    from textual.command import CommandPalette

    app = WorkbenchApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        if opened == "before":
            await pilot.press("ctrl+p")
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        if opened == "while small":
            await pilot.press("ctrl+p")
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"theme")
        assert app.screen.query_one("CommandInput").value == "theme"
        await pilot.press("escape")
        assert not isinstance(app.screen, CommandPalette)
        await pilot.press("5")  # and the board has its keys again
        assert moves(app) == (5,)


async def test_a_dialog_closed_while_the_terminal_is_too_small_gives_no_hidden_pane_the_focus():
    """A review: after f1, a resize to too small and escape, Textual's focus on resume gave the hidden board the focus
    (no key changed anything, but the panes' rule is that a hidden pane takes none)."""
    app = WorkbenchApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("f1")
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        panes = app.query_one("#panes")
        assert app.focused is None or panes not in app.focused.ancestors_with_self  # no hidden pane has it
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        await pilot.press("5")
        assert moves(app) == (5,)


async def test_open_study_from_the_command_line(tmp_path):
    from workbench.cli import main

    path = tmp_path / "s.json"
    state = reduce(AppState(), PlayCell(cell=5))
    save_study(state, path)
    ran = {}

    def fake_run(**options):
        ran.update(options)
        return 0

    original = app_module.run
    app_module.run = fake_run
    try:
        assert main(["open", str(path)]) == 0
    finally:
        app_module.run = original
    assert ran["path"] == str(path) and ran["state"].tree == state.tree


async def test_zoom_maximizes_the_focused_pane_and_restores():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("z")
        assert app.screen.maximized is not None and app.screen.maximized.id == "board"
        assert [(n.message, n.timeout) for n in app._notifications][-1] == ("z again brings the four panes back.", 2)
        await pilot.press("5")  # the zoomed board still plays
        assert moves(app) == (5,)
        await pilot.press("z")
        assert app.screen.maximized is None
        app.query_one(VariationTree).focus()
        await pilot.press("z")
        assert app.screen.maximized.id == "history"


async def test_keys_do_not_act_under_an_open_dialog():
    """Regression: with a dialog open (its input not focused), n / e / g / digits acted on the main screen."""
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "q")
        assert isinstance(app.screen, ConfirmQuit)
        before = app.store.state
        await pilot.press("n", "e", "v", "1", "g")
        assert app.store.state is before and isinstance(app.screen, ConfirmQuit)
        await pilot.click("#cancel")
        await pilot.press("1")
        assert moves(app) == (5, 1)


async def test_tab_moves_between_dialog_buttons():
    """Regression: blocking the app's keys under dialogs also blocked tab, so enter hit the wrong button."""
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "q")
        assert app.screen.focused.id == "save"
        await pilot.press("tab")
        assert app.screen.focused.id == "discard"
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_code == 0


@pytest.fixture
def cold_tables(classic_let_go):
    """A process without the board's answers held, as on the first run; restored afterwards."""
    classic_let_go()


async def test_first_run_builds_the_tables_in_a_worker_and_keeps_them(cold_tables, monkeypatch):
    import threading

    from workbench.kept import tables as cache

    # the build waits until the test has seen the screen without tables, however fast or slow the machine
    release = threading.Event()
    real_build = cache.build_and_cache_tables

    def gated_build(geometry):
        assert release.wait(HANG_GUARD_SECONDS)
        return real_build(geometry)

    monkeypatch.setattr(cache, "build_and_cache_tables", gated_build)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        assert not app.ready  # built in a worker: the screen is up meanwhile
        assert [worker.name for worker in app.workers if worker.name == "build-tables"] == ["build-tables"]
        assert "Building the engine's tables" in text_of(app.query_one(EvaluationView))
        await pilot.press("5")  # the board already plays
        assert moves(app) == (5,)
        release.set()
        await wait_ready(pilot, app)
        assert "O to move: draw in 8" in text_of(app.query_one(EvaluationView))
    assert cache.load_tables(app.store.state.geometry) is not None


async def test_later_runs_read_the_tables_back_before_the_first_paint(cold_tables):
    from workbench.engine.analysis import build_tables
    from workbench.kept import tables as cache

    cache.save_tables(build_tables(AppState().geometry))
    app = WorkbenchApp()
    async with app.run_test(size=SIZE):
        assert app.ready
        assert "X to move: draw in 9" in text_of(app.query_one(EvaluationView))


async def test_a_failed_table_build_surfaces_instead_of_hanging(cold_tables, monkeypatch):
    from workbench.kept import tables as cache

    def broken(geometry):
        raise RuntimeError("tables exploded")

    monkeypatch.setattr(cache, "build_and_cache_tables", broken)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert any("tables exploded" in notification.message for notification in app._notifications)
        assert not app.ready


async def test_at_80x24_the_summaries_fit_whole(tmp_path):
    app = WorkbenchApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9")
        evaluation = text_of(app.query_one(EvaluationView))
        symmetry = [line.rstrip() for line in text_of(app.query_one(SymmetryView)).splitlines()]
        assert "536 go on: X 248 · O 144 · draw 144" in evaluation
        assert "1,072 pass through, any order" in evaluation  # the `g` dialog's count, said apart
        assert symmetry[:2] == ["class 38 of 765  orbit 4", "canonical X../.X./..O"]
    app = WorkbenchApp(db=str(tmp_path / "other.sqlite3"))  # the default library would offer the moves above back
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9")
        evaluation = text_of(app.query_one(EvaluationView))
        assert "536 games go on from here: X 248 · O 144 · draw 144" in evaluation  # 51 cells: the pane holds 52
        assert "1,072 from the start pass through, any order" in evaluation
        symmetry = [line.rstrip() for line in text_of(app.query_one(SymmetryView)).splitlines()]
        assert symmetry[:2] == ["class 38 of 765  orbit 4", "canonical X../.X./..O"]  # the narrow third column
        await pilot.press("home")  # bigger numbers: the longest form that fits
        evaluation = text_of(app.query_one(EvaluationView))
        assert "255,168 go on: X 131,184 · O 77,904 · draw 46,080" in evaluation


@pytest.mark.parametrize("pane", ["BoardGrid", "EvaluationPane", "SymmetryPane", "VariationTree"])  # the focus chain
async def test_the_arrows_step_through_the_game_from_every_pane(pane):
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "backspace", "3", "9")  # 5 1 and the variation 5 3 9
        app.query_one(pane).focus()
        await pilot.pause()
        assert type(app.focused).__name__ == pane
        await pilot.press("left")
        assert moves(app) == (5, 3)
        await pilot.press("up")
        assert moves(app) == (5, 1)
        await pilot.press("down")
        assert moves(app) == (5, 3)
        await pilot.press("home")
        assert moves(app) == ()
        await pilot.press("right", "right")
        assert moves(app) == (5, 1)  # forward follows the main line
        await pilot.press("end")
        assert moves(app) == (5, 1)
        assert app.store.state.view.highlighted in (None, 5)  # the cell cursor did not move


async def test_the_mouse_wheel_over_the_board_or_the_history_steps_through_the_game():
    from textual import events

    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9")
        for widget in (app.query_one(BoardGrid), app.query_one(VariationTree)):
            widget.post_message(events.MouseScrollUp(widget, 1, 1, 0, -1, 0, False, False, False))
            await pilot.pause()
            assert moves(app) == (5, 1)
            widget.post_message(events.MouseScrollDown(widget, 1, 1, 0, 1, 0, False, False, False))
            await pilot.pause()
            assert moves(app) == (5, 1, 9)


async def test_a_click_on_a_row_of_the_moves_table_plays_that_move():
    app = WorkbenchApp()
    async with app.run_test(size=(120, 50)) as pilot:  # tall enough for the whole table
        await wait_ready(pilot, app)
        await pilot.press("5")
        view = app.query_one(EvaluationView)
        rows = text_of(view).splitlines()
        row_of_9 = next(y for y, line in enumerate(rows) if line.split()[:1] in (["9"], ["★9"]))
        await pilot.click(EvaluationView, offset=(4, row_of_9))
        assert moves(app) == (5, 9)
        heading = next(y for y, line in enumerate(text_of(view).splitlines()) if line.split()[:1] == ["cell"])
        await pilot.click(EvaluationView, offset=(4, heading))  # not a move: nothing happens
        assert moves(app) == (5, 9)


async def test_space_plays_the_best_move_even_from_the_history_tree():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("1", "5", "9")  # O must take an edge to hold the draw: 2 is the lowest
        await pilot.press("space")
        assert moves(app) == (1, 5, 9, 2)
        app.query_one(VariationTree).focus()
        await pilot.pause()
        await pilot.press("space")  # X must block at 8
        assert moves(app) == (1, 5, 9, 2, 8)


async def test_b_adds_the_best_line_after_the_selected_move_as_a_variation():
    app = WorkbenchApp()
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9", "backspace")  # after 5 1; the board's cursor is on 5
        await pilot.press("k", "h")  # the cursor on 1... occupied: the line from the position
        text = text_of(app.query_one(EvaluationView))
        line = next(line for line in text.splitlines() if line.startswith(("best line:", "after ")))
        assert line.startswith("best line: ")
        shown = tuple(int(cell) for cell in line.removeprefix("best line: ").split("  ")[0].split())
        assert shown == principal_variation(app.store.state.position)
        await pilot.press("l", "l")  # the cursor on 3, a legal move: the line after it
        text = text_of(app.query_one(EvaluationView))
        line = next(line for line in text.splitlines() if line.startswith(("best line:", "after ")))
        assert line.startswith("after 3: ")
        view = app.query_one(EvaluationView)
        [row] = [
            view.render_line(y) for y in range(view.size.height) if view.render_line(y).text.startswith("after 3: ")
        ]
        heading = next(segment for segment in row if segment.text.strip())
        assert heading.text == "after 3: " and heading.style.bold  # a heading, as "best line:" is
        after = tuple(int(cell) for cell in line.removeprefix("after 3: ").split("  ")[0].split())
        assert after == principal_variation(app.store.state.position.play(3))
        before = app.store.state
        await pilot.press("b")
        state = app.store.state
        assert state.cursor == before.cursor and state.modified
        variation = state.tree.node(state.cursor).children[-1]
        assert state.tree.moves_to(state.tree.main_line(variation)[-1]) == (5, 1, 3, *after)
        added = " ".join(map(str, (3, *after)))
        assert [n.message for n in app._notifications][-1] == f"Added {added} as a variation: ↓ or → steps into it."
        await pilot.press("b")  # already there: nothing new, and it says so
        assert app.store.state.tree is state.tree
        assert [(n.message, n.timeout) for n in app._notifications][-1] == (f"{added} is already in the history.", 3)


@pytest.mark.parametrize("size", [(120, 36), (140, 40), (200, 60)])
async def test_at_screenshot_sizes_nothing_needs_scrolling(size):
    from workbench.tui.panes.bars import KeysFooter

    app = WorkbenchApp()
    async with app.run_test(size=size) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("e")  # the engine plays O: the board says so
        for pane in app.query("#evaluation, #symmetry"):
            assert pane.max_scroll_y == 0, pane.id
            view = pane.query_one(EvaluationView if pane.id == "evaluation" else SymmetryView)
            assert view.region.bottom <= pane.content_region.bottom, pane.id
        symmetry = text_of(app.query_one(SymmetryView))
        assert "classes by ply" in symmetry and "153" in symmetry and "r: turned clockwise" in symmetry
        evaluation = text_of(app.query_one(EvaluationView))
        assert "★9" in evaluation and "b adds it" in evaluation
        assert "★ best · plies: to the end" in evaluation and "trap: share of the replies that lose" in evaluation
        status = text_of(app.query_one(BoardStatus))
        assert "engine plays O (" in status
        footer = app.query_one(KeysFooter)
        assert footer.palette.key == "ctrl+p" and text_of(footer).rstrip().endswith("▏^p palette")
        # every key drawn whole, none cut under the palette key
        assert all(f"{key.display} {key.description}" in text_of(footer) for key in footer.keys)
        assert {"Quit", "Help", "Engine", "Back", "Forward"} <= {key.description for key in footer.keys}


async def test_at_80_by_24_the_unsaved_mark_shows_on_the_board():
    app = WorkbenchApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        assert app.query_one("#header").display is False
        assert app.query_one("#board").border_subtitle == "untitled study"
        await pilot.press("5")
        assert app.query_one("#board").border_subtitle == "• untitled study"
        await pilot.resize_terminal(100, 34)
        await pilot.pause()
        assert app.query_one("#header").display is True and app.query_one("#board").border_subtitle == ""
        assert app.sub_title == "classic · untitled study •"


async def test_history_marks_each_move_and_scores_each_side_of_the_line():
    from workbench.tui.panes.history import LineScore

    app = WorkbenchApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("4", "1", "5", "2")  # O's 2 throws the draw away
        await pilot.press("3")  # X wins more slowly than with 6
        tree = app.query_one(VariationTree)
        assert drawn_tree(tree) == [
            "  Start",
            "  1. 4",
            "  1… 1",
            "  2. 5",
            "  2… 2??",
            "  3. 3?!",
        ]  # a line: no guides
        assert text_of(app.query_one(LineScore)).strip() == "accuracy X 67% · O 50%"
        legend = app.query_one("#history-legend")  # in tall layouts: the verdict on the move, the legend at the start
        assert (
            legend.display and " ".join(text_of(legend).split()) == "X 3?! Inaccuracy: win in 1 → win in 3. Best was 6."
        )
        await pilot.press("home")  # the score is the whole line's, wherever the cursor is on it
        assert text_of(app.query_one(LineScore)).strip() == "accuracy X 67% · O 50%"
        assert "?? mistake" in text_of(legend) and "≡ ≈ twins" in text_of(legend)
        await pilot.press("n", "enter")
        await discard_changes(pilot, app)
        assert text_of(app.query_one(LineScore)).strip() == "accuracy X — · O —"
        await pilot.resize_terminal(100, 30)  # not tall: the legend gives its rows to the tree
        await pilot.pause()
        assert not legend.display


async def test_theme_overlay_and_engine_are_remembered_for_the_next_run():
    from workbench.settings import Settings, load_settings

    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press(
            "v", "e", "5", "r"
        )  # values overlay; the engine plays O; r's line of a move is not remembered
        assert app.store.state.view.overlay == "line"
        app.theme = "textual-light"
        await pilot.pause()
        await app.workers.wait_for_complete()
    assert load_settings() == Settings(
        theme="textual-light", overlay="values", engine_mode="perfect", engine_side="O"
    )  # finding 11
    again = WorkbenchApp()
    async with again.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, again)
        assert again.theme == "textual-light"
        assert again.store.state.view.overlay == "values" and again.store.state.engine.mode.value == "perfect"
        assert not again._notifications  # nothing to warn about


@pytest.mark.parametrize("content", ['{"overlay": 5}', "not json", '{"theme": "no-such-theme"}'])
async def test_a_broken_settings_file_warns_once_and_starts_on_the_defaults(content):
    from workbench.settings import settings_path

    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        warnings = [n for n in app._notifications if n.title == "Settings"]
        assert len(warnings) == 1 and "\n" not in warnings[0].message
        assert ("no theme called 'no-such-theme'" in warnings[0].message) == ("no-such-theme" in content)
        assert app.store.state.view.overlay == "none" and app.theme == "textual-dark"
        await pilot.press("5")
        assert moves(app) == (5,)


async def test_settings_that_cannot_be_written_warn_once_and_the_app_goes_on(monkeypatch, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker))  # workbench/ cannot be made under a file
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("v")
        await app.workers.wait_for_complete()
        await pilot.press("v")
        await app.workers.wait_for_complete()
        await pilot.pause()
        warnings = [n for n in app._notifications if n.title == "Settings"]
        assert len(warnings) == 1 and warnings[0].message.endswith("; not remembered")


async def test_a_theme_change_repaints_every_pane_at_once():
    app = WorkbenchApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("4", "1", "5", "2")
        views = [app.query_one(EvaluationView), app.query_one(SymmetryView), app.query_one(BoardGrid)]
        before = [view.render_line(0) for view in views]
        tree = app.query_one(VariationTree)
        mark_style = tree.get_component_rich_style("history--mistake", partial=True)
        app.theme = "nord"  # its error colour differs from textual-dark's, which textual-light shares
        await pilot.pause()
        await pilot.pause()
        after = [view.render_line(0) for view in views]
        for old, new, view in zip(before, after, views, strict=True):
            assert old.text == new.text and list(old) != list(new), view  # same words, new colours
            assert new == view.render_line(0)
        new_mark = tree.get_component_rich_style("history--mistake", partial=True)
        assert new_mark != mark_style
        mistake = app.store.state.cursor
        await pilot.press("home")  # the lit line is drawn in the current node's colours, marks included
        drawn = tree._strip(tree.line_of(mistake))
        assert any(segment.text == "??" and segment.style.color == new_mark.color for segment in drawn)


async def test_space_types_a_space_in_dialogs_and_the_palette():
    from textual.command import CommandPalette

    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "c", *"an edge", "enter")  # space is "play the best move" only on the main screen
        assert app.store.state.tree.node(app.store.state.cursor).comment == "an edge" and moves(app) == (5,)
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"new game")
        assert app.screen.query_one(Input).value == "new game"
        await pilot.press("escape")
        assert moves(app) == (5,)


def test_help_lists_the_keys_that_are_not_bindings():
    from workbench.tui.app import WorkbenchApp

    sections = dict(keys_help.help_sections(WorkbenchApp.BINDINGS))
    assert sections["Everywhere"][-3:] == [
        ("1 … 9", "Play that cell"),
        ("tab", "Next pane"),
        ("ctrl+p", "Command palette"),
    ]
    assert sections["Board"][-1] == ("click", "Play the cell")
    assert sections["Evaluation"] == [
        ("click a row", "Play that move"),
        ("space / b", "Play the best move / add the best line"),
    ]
    assert sections["History"][-1] == ("click", "Jump to a move (on ▼ ▶: fold), or a ply on the value strip")


async def test_the_move_text_of_a_study_without_moves_says_so():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("x")
        assert app.screen.query_one("#movetext").text == "(no moves yet)"


async def test_the_set_up_dialog_s_buttons_set_up_and_cancel():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("i", *"5,5")
        await pilot.click("#setup-ok")  # an error: the dialog stays, saying why
        assert isinstance(app.screen, SetUpDialog)
        assert (
            str(app.screen.query_one("#setup-error", Static).render())
            == "invalid move text: '5' at column 3: cell is occupied"
        )
        app.screen.query_one("#setup-input", Input).value = "5 1 9"
        while app.screen.query_one("#setup-ok", Button).has_class(
            "-active"
        ):  # a button takes no second press while it shows the first
            await pilot.pause(0.05)
        await pilot.click("#setup-ok")
        assert not isinstance(app.screen, SetUpDialog) and moves(app) == (5, 1, 9)
        await pilot.press("i", *"3")
        await pilot.click("#setup-cancel")
        assert not isinstance(app.screen, SetUpDialog) and moves(app) == (5, 1, 9)


async def test_each_engine_command_of_the_palette_sets_the_mode_and_side_it_names():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        commands = [
            command
            for command in app.get_system_commands(app.screen)
            if command.help == "Who the engine plays, and how"
        ]
        assert len(commands) == 7
        for command in commands:
            command.callback()
            await pilot.pause()
            engine = app.store.state.engine
            if command.title == "Engine off":
                assert engine.mode is EngineMode.OFF
            else:
                assert command.title == f"Play vs engine: {engine.mode.value}, the engine plays {engine.side.value}"


async def test_the_game_over_notice_of_add_best_line_is_brief():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("1", "4", "2", "5", "3", "b")  # X has won: there is no line to add
        [notice] = [n for n in app._notifications if n.message == "The game is over: no line to add."]
        assert notice.timeout == 2  # a passing remark, gone in two seconds like the other hints


async def test_undo_back_through_many_new_games_brings_the_first_study_s_name_back(tmp_path):
    path = tmp_path / "first.json"
    save_study(AppState(), path)
    app = WorkbenchApp(load_study(path), path=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        for _ in range(15):  # more than the last few: undo reaches them all
            await pilot.press("5", "n", "enter")
            await discard_changes(pilot, app)
        assert app.study_path is None
        for _ in range(30):
            await pilot.press("ctrl+z")
        await pilot.pause()
        assert moves(app) == () and app.study_path == str(path)


def test_run_opens_the_app_on_a_study_file(monkeypatch):
    opened = {}

    def fake_run(self):
        opened.update(name=self.study_name, path=self.study_path, moves=self.store.state.tree.moves_to(1))
        return 0

    monkeypatch.setattr(WorkbenchApp, "run", fake_run)
    state = reduce(AppState(), PlayCell(cell=5))
    assert app_module.run(state, path="mine.json") == 0
    assert opened == {"name": None, "path": "mine.json", "moves": (5,)}


@pytest.mark.parametrize(("height", "header"), [(29, False), (30, True)])
async def test_the_header_shows_from_30_rows(height, header):
    app = WorkbenchApp()
    async with app.run_test(size=(100, height)) as pilot:
        await wait_ready(pilot, app)
        assert app.query_one("#header").display is header


async def test_the_headers_palette_button_is_a_circle_every_usual_font_has_and_opens_the_palette():
    from textual.command import CommandPalette

    from workbench.tui.textual_ext import HEADER_ICON

    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        assert HEADER_ICON == "○" and app.screen.get_widget_at(1, 0)[0].render() == HEADER_ICON
        await pilot.click("HeaderIcon")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")


def test_run_opens_the_app_on_a_library_study_by_name(monkeypatch):
    opened = {}

    def fake_run(self):
        opened.update(name=self.study_name, path=self.study_path, db=self.db_path)
        return 0

    monkeypatch.setattr(WorkbenchApp, "run", fake_run)
    assert app_module.run(name="corner opening", db="lib.sqlite3") == 0
    assert opened == {"name": "corner opening", "path": None, "db": "lib.sqlite3"}


async def test_a_library_worker_that_crashes_is_one_error_and_the_app_goes_on(monkeypatch):
    def explode(self):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(WorkbenchApp, "_open_library", explode)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await wait_for_reactive(app, "library_status", lambda status: status != "opening")
        assert app.library_status == "unavailable"
        [error] = [n for n in app._notifications if n.severity == "error"]
        assert error.title == "Error" and error.message == "open-library failed: RuntimeError('disk on fire')"
        await pilot.press("5")
        assert moves(app) == (5,)


def test_set_up_reads_letters_alone_as_a_position():
    for text in ("xox", "XOX", "ox"):
        with pytest.raises(
            ValueError, match=rf"^invalid position '{text}': wrong length, {len(text)} cells instead of 9$"
        ):
            parse_setup(text)


async def test_the_moves_table_lists_the_best_move_first():
    """After 5 1 9, O holds the draw only at 3 or 7: those two rows come first, then the four losing moves,
    the slowest loss first."""
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9")
        lines = text_of(app.query_one(EvaluationView)).splitlines()
        start = next(y for y, line in enumerate(lines) if line.split()[:2] == ["cell", "value"]) + 1
        rows = [line.replace("★", "").split()[:3] for line in lines[start : start + 6]]
        assert [row[1] for row in rows] == ["draw", "draw", "loss", "loss", "loss", "loss"]
        assert {row[0] for row in rows[:2]} == {"3", "7"} and {row[0] for row in rows[2:]} == {"2", "4", "6", "8"}
        plies = [int(row[2]) for row in rows[2:]]
        assert plies == sorted(plies, reverse=True)


async def test_the_compact_moves_table_and_a_won_game_in_words():
    app = WorkbenchApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        view = app.query_one(EvaluationView)
        lines = [line.rstrip() for line in text_of(view).splitlines()]
        assert "cell value ply trap  games         X/O/draw" in lines  # each column as wide as its entries
        highlighted = view.part("evaluation--highlight").bgcolor
        lit = [
            view.render_line(y).text.split()[0]
            for y in range(view.size.height)
            if any(segment.style and segment.style.bgcolor == highlighted for segment in view.render_line(y))
        ]
        assert lit == ["★5"]  # the board's cursor cell, lit in the table
        row = next(y for y in range(view.size.height) if view.render_line(y).text.split()[:1] == ["★5"])
        shown = [(char, segment.style) for segment in view.render_line(row) for char in segment.text if char.strip()]
        assert "".join(char for char, _ in shown).startswith("★5draw")  # the value too
        assert all(style.bgcolor == highlighted for _, style in shown)
        await pilot.press("1", "5", "2", "4", "9", "6")  # O completes 4 5 6
        assert text_of(view).splitlines()[0].rstrip() == "Game over: O won"


async def test_the_open_dialog_says_what_it_is_and_clears_an_old_error(tmp_path):
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_library(pilot, app)
        await pilot.press("5", "ctrl+s")
        app.screen.query_one(Input).value = "centre"
        await pilot.press("enter", "ctrl+o")
        dialog = app.screen
        assert str(dialog.query_one(".dialog-title").render()) == "Open a study"
        assert dialog.query_one(Input).placeholder == "study name or path/to/study.json"
        dialog.query_one(OptionList).highlighted = 0
        dialog.query_one(OptionList).focus()
        await pilot.press("delete", "escape")  # kept: says so
        error = dialog.query_one("#open-error", Static)
        assert str(error.render()) == "kept 'centre'"
        await pilot.press("f2")  # a rename begins: the old line goes
        assert str(error.render()) == ""


async def test_saving_says_where_and_failing_says_not_saved(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_library(pilot, app)
        await pilot.press("5", "ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, PathDialog)
        assert (
            str(dialog.query_one(".dialog-title").render())
            == "Save as (a library name, or a file: .json or a path with /)"
        )
        dialog.query_one(Input).value = str(tmp_path / "missing-folder" / "deeper" / "study.json")
        await pilot.press("enter")
        missing = tmp_path / "missing-folder" / "deeper" / "study.json"
        assert (
            str(dialog.query_one("#path-error", Static).render())
            == f"cannot save '{missing}': No such file or directory"
        )
        assert app.screen is dialog  # open still, to try another path
        dialog.query_one(Input).value = "plain.json"  # no folder, but .json: a file, not a library name
        await pilot.press("enter")
        await pilot.pause()
        saved = [n for n in app._notifications if n.message.startswith("Saved ")]
        assert saved[-1].message == "Saved plain.json" and saved[-1].timeout == 2
        assert (tmp_path / "plain.json").exists() and app.study_path == "plain.json"
        (tmp_path / "plain.json").unlink()
        (tmp_path / "plain.json").mkdir()  # saving back to it now fails
        await pilot.press("9", "ctrl+s")
        await pilot.pause()
        [failed] = [n for n in app._notifications if n.severity == "error"]
        assert failed.title == "Not saved"
        assert "plain.json" in failed.message and app.store.state.modified


async def test_the_value_strip_shows_every_ply_of_a_full_game_in_the_narrow_column():
    app = WorkbenchApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press(*"951287364")  # nine plies and the start: ten cells in 28 columns
        strip = app.query_one(ValueStrip)
        assert text_of(strip).split() == ["·", "9", "5", "1", "2", "8", "7", "3", "6", "4"]
        await pilot.click(ValueStrip, offset=(2 * 9, 0))  # the last cell, two columns each now
        assert moves(app) == (9, 5, 1, 2, 8, 7, 3, 6, 4)
        await pilot.click(ValueStrip, offset=(2 * 4 + 1, 0))
        assert moves(app) == (9, 5, 1, 2)


async def test_changing_the_engines_level_never_makes_it_move():
    app = WorkbenchApp(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("E")  # the engine's side is X; it is still off, and says so
        assert [n.message for n in app._notifications][-1] == "Engine plays X when it is on (e)"
        await pilot.press("e")  # on, as X, at the start: it opens
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(moves(app)) == 1
        await pilot.press("home", "e", "e", "e")  # back at the start, X to move: trap, random, off
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert moves(app) == () and len(app.store.state.tree.nodes) == 2  # no new move, no new variation
        assert app.store.state.engine.mode.value == "off"


async def test_the_save_dialog_s_cancel_button_saves_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = WorkbenchApp(db=str(tmp_path / "lib.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_library(pilot, app)
        await pilot.press("5", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, PathDialog)
        app.screen.query_one(Input).value = "kept.json"
        await pilot.click("#path-cancel")
        await pilot.pause()
        assert not isinstance(app.screen, PathDialog) and app.store.state.modified
        assert list(tmp_path.glob("*.json")) == [] and app.study_path is None


async def test_every_pane_and_view_bound_to_the_state_holds_the_store_s_after_each_change():
    """The app hands a new state to its readers itself (not through Textual's bindings): none may be missed, and
    each watcher sees the state it had before."""
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        readers = [node for node in app.query("#panes *") if "state" in node._reactives]
        assert {type(node).__name__ for node in readers} >= {
            "BoardPane",
            "BoardGrid",
            "BoardStatus",
            "HistoryPane",
            "VariationTree",
            "ValueStrip",
            "LineScore",
            "EvaluationPane",
            "EvaluationView",
            "SymmetryPane",
            "SymmetryView",
        }
        seen: list[tuple[object, object]] = []
        real_watch = VariationTree.watch_state
        tree = app.query_one(VariationTree)
        tree.watch_state = lambda old, new: (seen.append((old, new)), real_watch(tree, old, new))  # type: ignore[method-assign]
        for keys in (("5",), ("1", "9"), ("ctrl+z",), ("ctrl+y",), ("left", "left"), ("n",)):
            before = app.store.state
            await pilot.press(*keys)
            await pilot.pause()
            if app.screen is not app.screen_stack[0]:
                await pilot.press("enter")  # the new-game dialog: the classic game
                await discard_changes(pilot, app)
            assert all(node.state is app.store.state for node in readers), keys
            assert app.state is app.store.state
            assert seen and seen[-1][1] is app.store.state and (len(keys) > 1 or seen[-1][0] is before)
        assert "class 1 of 765" in text_of(app.query_one(SymmetryView))  # a new game, drawn


async def test_a_new_game_or_set_up_over_unsaved_changes_asks_first():
    """A new user's review: `n`, Enter replaced a changed untitled study with a toast; undo brought it back, but the
    quit question asks only about the study open then, so the old one was lost at quit. Now it is asked first: d
    discards, escape keeps the study as it was; an empty study is replaced without a word."""
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("n", "enter")  # nothing to lose: no question
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmQuit) and moves(app) == ()
        await pilot.press("5", "1", "n", "enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmQuit), "the unsaved-changes question")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0] and moves(app) == (5, 1)
        await pilot.press("n", "enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmQuit), "asked again")
        await pilot.press("s")  # save: an untitled study asks where
        await until(pilot, lambda: isinstance(app.screen, PathDialog), "where to save")
        await pilot.press("escape")  # not saved: the new game waits for a save that never came
        await pilot.pause()
        assert moves(app) == (5, 1)
        await pilot.press("i", *"X../.../...", "enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmQuit), "asked before a set-up too")
        await pilot.press("d")
        await pilot.pause()
        assert app.store.state.tree.root_position == parse_position("X../.../...") and moves(app) == ()


async def test_an_empty_new_game_is_not_marked_unsaved_and_its_first_move_is(tmp_path):
    """A new user's review: after `n` (discarding a move) the title said "untitled study •" over an empty board,
    while quitting asked nothing: the mark and the question follow one rule."""
    app = WorkbenchApp(db=str(tmp_path / "library.sqlite3"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5")
        assert app.sub_title.endswith("untitled study •")
        await pilot.press("n", "enter", "d")  # a new game of the same board; the move discarded
        await pilot.pause()
        assert app.store.state.modified and app.store.state.tree.is_empty
        assert app.sub_title.endswith("untitled study")
        await pilot.press("1")
        assert app.sub_title.endswith("untitled study •")


def _screen_row(app, row: int) -> str:
    """The text of one row of the screen, as its screenshot draws it."""
    svg = app.export_screenshot()
    parts = re.findall(rf'<text [^>]*clip-path="url\(#[\w-]+-line-{row}\)"[^>]*>([^<]*)</text>', svg)
    return html.unescape("".join(parts)).replace("\u00a0", " ")


@pytest.mark.parametrize("size", [(80, 30), (120, 40), (200, 60)])
async def test_a_long_study_name_is_cut_in_the_header_and_the_unsaved_mark_stays(size, tmp_path):
    """A review in a browser: a long name's end went with the unsaved mark, Textual's header cutting the title."""
    name = 'Ünïcödé "quoted" — 井字棋 ' + "very long name " * 16 + "end"
    app = WorkbenchApp(name=name, db=str(tmp_path / "long.sqlite3"))
    async with app.run_test(size=size) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5")
        await pilot.pause()
        header = _screen_row(app, 0).rstrip()
        assert header.endswith("…" + " •") and "workbench — classic · Ünïcödé" in header, header
        # the room the cut counts on: the header's middle part, its title, as Textual lays it out
        icon, title, clock_room = app.query_one("#header").children
        assert title.size.width == size[0] - textual_ext.HEADER_TITLE_SIDES
        assert cell_len(header) <= size[0]
        await pilot.resize_terminal(size[0] + 40, size[1])
        await pilot.pause()
        wider = _screen_row(app, 0).rstrip()
        assert wider.endswith(" •") and len(wider) > len(header), wider
    short = WorkbenchApp(name="corner", db=str(tmp_path / "short.sqlite3"))
    async with short.run_test(size=size) as pilot:
        await wait_ready(pilot, short)
        await pilot.press("5")
        await pilot.pause()
        assert short.sub_title == "classic · corner •"
