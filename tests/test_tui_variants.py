"""Choosing a variant in the app: the new-game dialog, the palette, the command line, and what is remembered."""

import json
import re
import sys
import tempfile

import pytest
from textual.widgets import Input, OptionList, Static

from workbench.engine import Geometry, Position, parse_position
from workbench.engine.answers import SolutionAnswers, TableAnswers
from workbench.kept import held as held_module
from workbench.settings import load_settings
from workbench.state import load_study
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs import NewGameDialog
from workbench.tui.panes.board import BoardGrid, BoardPane
from workbench.tui.panes.evaluation import EvaluationView
from workbench.tui.panes.symmetry import SymmetryView

from .tui_helpers import cell_offset, discard_changes, moves, text_of, until, wait_ready

SIZE = (100, 34)
THREE_BY_FOUR = Geometry(3, 4, 3)


def _app(**options) -> WorkbenchApp:
    return WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", **options)


def held(monkeypatch, name: str):
    """``workbench.kept.tables.<name>`` made to wait, in the worker that calls it, until the returned event is set;
    the boards it was called for are listed in the returned list."""
    import threading

    from workbench.kept import tables as cache

    release, original, called = threading.Event(), getattr(cache, name), []

    def waiting(geometry, *rest):
        called.append(geometry)
        release.wait(60)
        return original(geometry, *rest)

    monkeypatch.setattr(cache, name, waiting)
    return release, called


def _header(app: WorkbenchApp) -> str:
    return str(app.format_title(app.title, app.sub_title))


async def _choose(pilot, app: WorkbenchApp, downs: int) -> None:
    await pilot.press("n")
    await pilot.pause()
    assert isinstance(app.screen, NewGameDialog)
    await pilot.press(*["down"] * downs, "enter")
    await pilot.pause()
    await wait_ready(pilot, app)


async def test_n_lists_the_variants_with_the_one_played_lit_and_enter_starts_it_again():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5")
        await pilot.press("n")
        await pilot.pause()
        listed = app.screen.query_one("#variant-list", OptionList)
        texts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert [re.search(r"\b\d+x\d+k\d+(-misere)?\b", text).group() for text in texts] == [
            "3x3k3",
            "3x3k3-misere",
            "3x4k3",
            "3x4k3-misere",
            "4x4k3",
            "4x4k4",
            "4x5k4",
            "5x5k4",
            "7x7k5",
            "15x15k5",
        ]
        # past 16 cells, whether the board is solved here (this test's cache holds nothing)
        assert texts[6].endswith("4x5k4    unsolved, 1–3 min")
        assert texts[0].startswith("classic") and texts[2].startswith("3×4, three in a row")
        assert listed.highlighted == 0 and app.focused is listed
        await pilot.press("enter")
        await discard_changes(pilot, app)  # the 5, never saved: asked first
        assert not isinstance(app.screen, NewGameDialog)
        assert moves(app) == () and app.store.state.geometry == Geometry()


async def test_choosing_3x4_plays_it_in_every_pane_and_names_it():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await _choose(pilot, app, 2)
        state = app.store.state
        assert state.geometry == THREE_BY_FOUR and state.position == Position.empty(THREE_BY_FOUR)
        assert app.query_one(BoardPane).border_title == "Board · 3×4 k3"
        assert "3×4, three in a row · untitled study" in _header(app)
        grid = app.query_one(BoardGrid)
        left_of_grid = grid._origin()[0]
        assert re.findall(r"[a-d]\d", "\n".join(line[left_of_grid:] for line in text_of(grid).splitlines())) == [
            f"{col}{row}" for row in (3, 2, 1) for col in "abcd"
        ]  # each empty cell named as : reads it
        await pilot.click(BoardGrid, offset=cell_offset(grid, 12))  # a cell past the digit keys
        await pilot.press("6")
        await pilot.pause()
        assert moves(app) == (12, 6)
        evaluation = text_of(app.query_one(EvaluationView))
        assert evaluation.startswith("X to move")
        assert re.search(
            r"^\s*★?[a-d][1-3]\s+(win|draw|loss)\b", evaluation.split("cell value")[1], re.M
        )  # rows by coordinate
        await pilot.press("ctrl+z")  # the move, then the new game: back to the classic board, its tables at hand
        await pilot.press("ctrl+z", "ctrl+z")
        await pilot.pause()
        assert app.store.state.geometry == Geometry() and app.ready
        assert app.query_one(BoardPane).border_title == "Board · classic"


async def test_the_panes_say_the_tables_are_being_built_and_nothing_blocks_meanwhile(monkeypatch):
    """A variant whose tables are not at hand gets them from a worker; the panes say so until then, and
    the app answers keys meanwhile."""
    from workbench.kept import tables as cache

    monkeypatch.setattr(
        held_module, "_HELD", {key: value for key, value in held_module._HELD.items() if key != THREE_BY_FOUR}
    )
    monkeypatch.setattr(cache, "load_tables", lambda geometry: None)  # none kept on disk either
    release, _ = held(monkeypatch, "build_and_cache_tables")
    app = _app(game=Geometry())
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("n", "down", "down", "enter")
        await pilot.pause()
        assert not app.ready and held_module.held(THREE_BY_FOUR) is None
        assert "Building the engine's tables" in text_of(app.query_one(EvaluationView))
        await pilot.press("v")  # the app still answers
        await pilot.pause()
        assert app.store.state.view.overlay == "values"
        release.set()
        await wait_ready(pilot, app)
        assert held_module.held(THREE_BY_FOUR) is not None
        assert text_of(app.query_one(EvaluationView)).startswith("X to move: win in")


async def test_a_typed_variant_is_checked_before_the_game_starts():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "n")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#variant-input", Input).focus()
        for text, problem in (
            ("16x16k5", "boards have 1 to 15 rows and columns"),
            ("chess", "unknown variant 'chess'"),
            ("3x3k5", "does not fit"),
            ("[b]x[/b]", "unknown variant '[b]x[/b]'"),
        ):  # shown as typed, never read as markup
            dialog.query_one("#variant-input", Input).value = text
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is dialog and problem in str(dialog.query_one("#variant-error", Static).render())
        assert moves(app) == (5,)  # nothing changed meanwhile
        dialog.query_one("#variant-input", Input).value = "2x5K3-Misère"
        await pilot.press("enter")
        await discard_changes(pilot, app)
        await wait_ready(pilot, app)
        assert app.store.state.geometry == Geometry(2, 5, 3, misere=True) and moves(app) == ()
        assert app.query_one(BoardPane).border_title == "Board · 2×5 k3 misère"


async def test_escape_leaves_the_game_as_it_was():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1")
        before = app.store.state
        await pilot.press("n", "down", "escape")
        await pilot.pause()
        assert app.store.state is before and not isinstance(app.screen, NewGameDialog)


async def test_the_palette_starts_a_named_variant():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"New game: misère")
        await pilot.pause()
        await pilot.press("enter")
        await wait_ready(pilot, app)
        assert app.store.state.geometry == Geometry(misere=True)
        assert "misère · untitled study" in _header(app)


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
async def test_the_masks_are_named_for_what_their_cells_do_under_the_rule(misere):
    """A review against the exact values: under misère the pane, the status line and f1 said "win" for cells that
    lose at once (the mask of cells completing your own line)."""
    from workbench.tui.panes.board import BoardStatus

    app = _app(game=Geometry(misere=misere))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("1", "4", "2", "5")  # X has 1 2, O has 4 5: X to move
        await pilot.pause()
        shown = text_of(app.query_one(EvaluationView))
        headings = ["loses", "leave", "force"] if misere else ["win", "block", "fork"]
        heading_line = next(line for line in shown.splitlines() if "p-win" in line)
        assert heading_line.split() == [*headings, "p-win", "p-lose", "best"]
        await pilot.press("m")
        await pilot.pause()
        assert f"showing {headings[0]}" in text_of(app.query_one(BoardStatus))
        assert app.store.state.view.overlay == "win"


async def test_the_palette_s_new_game_opens_the_new_game_dialog():
    from textual.command import CommandList

    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "ctrl+p", *"New game")
        await app.workers.wait_for_complete()  # the palette gathers its matches in a worker
        await pilot.pause()
        matches = app.screen.query_one(CommandList)
        assert str(matches.get_option_at_index(matches.highlighted).prompt).startswith("New game\n")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, NewGameDialog), "the new-game dialog", seconds=8)
        await pilot.press("enter")  # this variant again: its empty board
        await discard_changes(pilot, app)
        assert not isinstance(app.screen, NewGameDialog) and moves(app) == ()


async def test_the_last_variant_is_where_the_next_run_starts():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await _choose(pilot, app, 3)
        await pilot.pause()
        await app.workers.wait_for_complete()
    assert load_settings().variant == "3x4k3-misere"
    again = _app()
    async with again.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, again)
        assert again.store.state.geometry == Geometry(3, 4, 3, misere=True)
    chosen = _app(game=Geometry())  # `workbench --game 3x3k3` says otherwise for this run
    async with chosen.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, chosen)
        assert chosen.store.state.geometry == Geometry()


async def test_a_misere_study_saved_and_opened_again_keeps_its_rule(tmp_path):
    path = tmp_path / "misere.json"
    app = _app(game=Geometry(misere=True))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1")
        await pilot.press("ctrl+s")
        await pilot.pause()
        dialog = app.screen
        field = dialog.query_one(Input)
        field.value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
    loaded = load_study(path)
    assert loaded.geometry == Geometry(misere=True) and loaded.tree.moves_to(loaded.cursor) == (5, 1)
    assert json.loads(path.read_text())["geometry"]["misere"] is True
    reopened = _app(state=loaded)
    async with reopened.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, reopened)
        assert reopened.query_one(BoardPane).border_title == "Board · misère"
        assert "misère" in _header(reopened)


async def test_a_4x4_misere_study_saved_opened_again_and_exported_keeps_its_board_and_rule(tmp_path, kept_solution):
    """Played on 4×4 misère by coordinate, saved as a file, opened from an app on the classic board: the
    board, the rule, the moves and the comment come back, and the move text names the variant."""
    from workbench.tui.library_dialogs import OpenDialog

    path = tmp_path / "four-misere.json"
    four_misere = Geometry(4, 4, 4, misere=True)
    kept_solution(four_misere)  # solved once per test process, read back here
    app = _app(game=four_misere)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        for cell in ("b2", "c3", "a4"):
            await pilot.press("colon", *cell, "enter")
        await pilot.press("c", *"edge", "enter")
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one(Input).value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert not app.store.state.modified and moves(app) == (10, 7, 1)  # a1 is the bottom left
    data = json.loads(path.read_text())
    assert data["version"] == 2 and data["geometry"] == {"rows": 4, "cols": 4, "k": 4, "misere": True}
    again = _app()
    async with again.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, again)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(again.screen, OpenDialog)
        again.screen.query_one(Input).value = str(path)
        again.screen.query_one(Input).focus()
        await pilot.press("enter")
        await wait_ready(pilot, again)
        state = again.store.state
        assert state.geometry == four_misere and moves(again) == (10, 7, 1)
        assert state.tree.nodes[state.cursor].comment == "edge"
        assert again.query_one(BoardPane).border_title == "Board · 4×4 k4 misère"
        assert "4×4, four in a row, misère" in _header(again)
        assert text_of(again.query_one(EvaluationView)).startswith("O to move: ")
        await pilot.press("x")  # the move text, as exported
        await pilot.pause()
        assert again.screen.query_one("#movetext").text == '[Variant "4x4k4-misere"] b2 c3 a4 {edge}'


async def test_set_up_reads_the_board_being_played():
    """On 3x4 a position is three rows of four, and a move list may name cells up to 12."""
    app = _app(game=THREE_BY_FOUR)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("i", *"x.../.o../....", "enter")
        await pilot.pause()
        assert app.store.state.tree.root_position == parse_position("X.../.O../....", THREE_BY_FOUR)
        await pilot.press("i", *"12 1 6", "enter")
        await discard_changes(pilot, app)  # the set-up position, never saved
        assert moves(app) == (12, 1, 6) and app.store.state.geometry == THREE_BY_FOUR
        await pilot.press("i", *"x.o/.x./...")
        await pilot.pause()
        assert "wrong length" in str(app.screen.query_one("#setup-error", Static).render())


TWO_BY_SEVEN = Geometry(2, 7, 4)  # 14 cells: beyond the tables, a strong solution in about a second


async def test_a_board_beyond_the_tables_is_solved_in_a_worker_with_its_progress_shown(monkeypatch, only_tables_held):
    """13-16 cells: the strong solution is made off the UI thread (held here until the test lets it go), the
    evaluation says what it is doing and how far it is, keys answer meanwhile, and then every pane reads it."""
    from workbench.engine.strong import strong_solve

    release, _ = held(monkeypatch, "strong_solution")
    app = _app(game=Geometry())
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        app.watch(app, "preparing", lambda text: seen.append(text), init=False)
        await pilot.press("n", "tab", *"2x7k4", "enter")
        await pilot.pause()
        assert not app.ready and app.store.state.geometry == TWO_BY_SEVEN
        assert "Solving 2×7, four in a row exactly" in text_of(app.query_one(EvaluationView))
        await pilot.press("v")  # the app still answers
        await pilot.pause()
        assert app.store.state.view.overlay == "values"
        for stage in ("stage 1 of 4, enumerating positions · 3%\n━━", "stage 1 of 4, enumerating positions · 9%\n━━━"):
            app.preparing = stage  # as the solver reports
            await pilot.pause()
            assert all(
                line in text_of(app.query_one(EvaluationView)) for line in stage.splitlines()
            )  # never a stale one
        release.set()
        await wait_ready(pilot, app)
        # one progress through the four stages, growing, each with its stage named and a bar for the whole
        reports = [text for text in seen[2:] if text]  # the solver's own, after the two set above
        shares = [int(re.search(r"· (\d+)%", text).group(1)) for text in reports]
        assert shares == sorted(shares) and shares[-1] == 100
        assert {text.split(",")[0] for text in reports} == {f"stage {n} of 4" for n in range(1, 5)}
        assert all(len(text.splitlines()[1]) == 30 and set(text.splitlines()[1]) <= {"━", "─"} for text in reports)
        evaluation = text_of(app.query_one(EvaluationView))
        solution = strong_solve(TWO_BY_SEVEN)
        value, remoteness = solution.lookup(0, 0)
        assert evaluation.startswith(f"X to move: {('loss', 'draw', 'win')[value + 1]} in {remoteness}")
        assert "pass through" not in evaluation  # counted by the tables only: not claimed here
        assert f"of {sum(solution.classes_by_ply)}" in text_of(app.query_one(SymmetryView))
        await pilot.click(BoardGrid, offset=cell_offset(app.query_one(BoardGrid), 14))
        await pilot.pause()
        assert moves(app) == (14,) and text_of(app.query_one(EvaluationView)).startswith("O to move")


def test_a_solve_left_running_by_a_quit_app_finishes_and_holds_up_no_later_one(monkeypatch, only_tables_held):
    """The user quits while a board is being solved: the solve goes on in its thread, its progress reports
    going nowhere, and it ends, so a later solve in the same process (another app, the screenshots) is not
    held up behind it. (Reports that waited for the stopped app made the worker wait for ever, holding the
    lock every later solve needs.)"""
    import asyncio
    import threading

    from workbench.kept import tables as cache

    monkeypatch.setenv(cache.DISABLE_VARIABLE, "1")  # solved here, not read back
    app = _app(game=TWO_BY_SEVEN)
    reported = threading.Event()
    app.watch(app, "preparing", lambda text: text and reported.set(), init=False)

    async def open_and_quit() -> None:
        async with app.run_test(size=SIZE) as pilot:
            while not reported.is_set():  # the solve has begun: quit in the middle of it
                await pilot.pause(0.01)
            assert not app.ready

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(open_and_quit())  # the app's loop stays open and runs nothing more
        later = threading.Thread(target=cache.make_analysis_ready, args=(TWO_BY_SEVEN,), daemon=True)
        later.start()
        later.join(timeout=300)  # about a second; a hold-up waits for ever
        assert not later.is_alive() and held_module.held(TWO_BY_SEVEN) is not None
    finally:
        loop.close()


async def test_games_like_this_says_which_boards_it_counts():
    from workbench.engine.strong import strong_solve

    held_module.hold(SolutionAnswers(strong_solve(TWO_BY_SEVEN)))
    app = _app(game=TWO_BY_SEVEN)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("g")
        await pilot.pause()
        notes = [(n.title, str(n.message)) for n in app._notifications]
        assert (
            "Games like this",
            "Games like this counts the games of boards of up to 12 cells; this is 2×7, four in a row.",
        ) in notes
        assert not app.screen.query("GamesLikeThis") and app.screen is app.screen_stack[0]


def test_set_up_on_the_classic_board_still_reads_digits_as_moves():
    from workbench.tui.dialogs import parse_setup

    for geometry in (None, Geometry()):
        action = parse_setup("519", geometry)
        assert action.tree.moves_to(action.cursor) == (5, 1, 9)
    action = parse_setup("11 12", THREE_BY_FOUR)
    assert action.tree.moves_to(action.cursor) == (11, 12)


@pytest.mark.parametrize(
    "text, cell",
    [("16", 16), (" 1 ", 1), ("a1", 13), ("A4", 1), ("d1", 16), ("b3", 6)],
)
def test_a_cell_is_typed_by_number_or_coordinate(text, cell):
    from workbench.tui.dialogs import parse_cell

    assert parse_cell(text, Position.empty(Geometry(4, 4, 4))) == cell


@pytest.mark.parametrize(
    "text, moves, problem",
    [
        ("17", (), "no cell 17 on a 4x4 board (a1-d4 or 1-16)"),
        ("0", (), "no cell 0 on a 4x4 board (a1-d4 or 1-16)"),
        ("9" * 400, (), f"no cell {'9' * 20} on a 4x4 board (a1-d4 or 1-16)"),  # a flood quoted by its first 20 digits
        ("e1", (), "no cell 'e1' on a 4x4 board (a1-d4 or 1-16)"),
        ("x", (), "not a cell: 'x'"),
        ("b3", (6,), "b3 is taken"),
        ("6", (6,), "b3 is taken"),  # typed by number, named as the board names it
        ("16", (1, 5, 2, 6, 3, 7, 4), "the game is over"),
    ],
)
def test_a_typed_cell_that_cannot_be_played_says_why(text, moves, problem):
    from workbench.tui.dialogs import parse_cell

    with pytest.raises(ValueError) as caught:
        parse_cell(text, Position.empty(Geometry(4, 4, 4)).play_all(moves))
    assert problem in str(caught.value)


async def test_colon_plays_a_typed_cell_on_any_board():
    from workbench.engine.strong import strong_solve

    held_module.hold(SolutionAnswers(strong_solve(TWO_BY_SEVEN)))
    app = _app(game=TWO_BY_SEVEN)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("colon", *"14", "enter")
        await pilot.pause()
        assert moves(app) == (14,)
        await pilot.press("colon", *"g1")  # taken: said in the dialog, nothing played
        await pilot.press("enter")
        await pilot.pause()
        error = app.screen.query_one("#cell-error", Static)
        assert "g1 is taken" in str(error.render())
        await pilot.press("backspace")  # editing the cell takes the complaint away
        await pilot.pause()
        assert str(error.render()) == ""
        await pilot.press("escape")
        await pilot.press("colon", *"a2", "enter")  # the top row's first cell
        await pilot.pause()
        assert moves(app) == (14, 1) and app.screen is app.screen_stack[0]


async def test_coordinates_go_where_the_cells_leave_room_and_every_cell_stays_clickable():
    """A 2x7 board in a 30-column pane: the row numbers would push the last column out, so they are left
    out; the letters still fit under the grid. Every cell is where a click finds it."""
    from workbench.engine.strong import strong_solve

    held_module.hold(SolutionAnswers(strong_solve(TWO_BY_SEVEN)))
    app = _app(game=TWO_BY_SEVEN)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        grid = app.query_one(BoardGrid)
        assert grid._margins() == (0, 1)
        lines = [line for line in text_of(grid).splitlines() if line.strip()]
        assert lines[-1].split() == list("abcdefg")
        for cell in range(1, 15):
            assert grid.cell_at(*cell_offset(grid, cell)) == cell
    wide = _app(game=THREE_BY_FOUR)
    async with wide.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, wide)
        grid = wide.query_one(BoardGrid)
        assert grid._margins() == (3, 1)
        left_of_grid = grid._origin()[0]
        labels = [line[:left_of_grid].strip() for line in text_of(grid).splitlines() if line[:left_of_grid].strip()]
        assert labels == ["3", "2", "1"]  # counted from the bottom, once a row
        assert [line for line in text_of(grid).splitlines() if line.strip()][-1].split() == list("abcd")
        for cell in range(1, 13):
            assert grid.cell_at(*cell_offset(grid, cell)) == cell


async def test_the_moves_table_of_a_bigger_board_is_whole_and_scrolls_and_a_smaller_board_fits_again():
    """The evaluation is as tall as its lines: every move of 2×7 has its row (the view was 25 lines high, and cut
    4×4's last rows and legend away), the pane scrolls to the last line, and back on the classic board the view
    is the classic board's height, not the bigger one's."""
    from workbench.engine.strong import strong_solve
    from workbench.tui.panes.evaluation import EvaluationPane

    held_module.hold(SolutionAnswers(strong_solve(TWO_BY_SEVEN)))
    app = _app(game=TWO_BY_SEVEN)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        view, pane = app.query_one(EvaluationView), app.query_one(EvaluationPane)
        lines = text_of(view).splitlines()
        assert view.size.height == len(view._ensure_strips()) > 25
        assert sum(bool(re.match(r"\s+★?\s*[a-g][12]\s+(win|draw|loss)\b", line)) for line in lines) == 14
        assert lines[-1].strip() and pane.max_scroll_y > 0
        bigger = view.size.height
        await pilot.press("n", "home", "enter")  # the classic game
        await wait_ready(pilot, app)
        await pilot.pause()
        classic = len(view._ensure_strips())
        assert view.size.height == classic < bigger - 5


async def test_coming_back_to_a_board_being_solved_does_not_solve_it_twice(monkeypatch, only_tables_held):
    release, solved = held(monkeypatch, "strong_solution")
    app = _app(game=Geometry())
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("n", "tab", *"2x7k4", "enter")
        await pilot.pause()
        await pilot.press("n", "home", "enter")  # the classic game, first in the list: ready at once
        await wait_ready(pilot, app)
        assert app.store.state.geometry == Geometry()
        await pilot.press("n", "tab", *"2x7k4", "enter")  # back, while the first solve still runs
        await pilot.pause()
        assert not app.ready
        release.set()
        await wait_ready(pilot, app)
        await app.workers.wait_for_complete()
        assert solved == [TWO_BY_SEVEN] and app.store.state.geometry == TWO_BY_SEVEN


def _kept_only_in_the_cache(monkeypatch, *boards: Geometry) -> None:
    """The tables of ``boards`` in this test's cache, and not in memory (for this test only: others keep
    theirs); the classic game's in memory, as the app starts on it."""
    from workbench.engine import analysis
    from workbench.kept import tables as cache

    analysis.tables(Geometry())
    for board in boards:
        assert cache.save_tables(analysis.tables(board))
    monkeypatch.setattr(
        held_module, "_HELD", {geometry: used for geometry, used in held_module._HELD.items() if geometry not in boards}
    )


async def test_a_variant_lit_in_the_new_game_dialog_is_read_back_and_dropped_unless_chosen(monkeypatch):
    """Lighting a variant whose analysis is kept reads it back while the user looks (a 4×4 solution takes 0.2 s
    in a fresh process): chosen, its game starts with its analysis at hand; passed over, it is dropped."""

    _kept_only_in_the_cache(monkeypatch, THREE_BY_FOUR, Geometry(misere=True))
    app = _app(game=Geometry())
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("n", "down", "down")  # 3×4, three in a row
        await until(pilot, lambda: held_module.held(THREE_BY_FOUR) is not None, "3x4 read back while lit")
        await pilot.press("escape")
        await pilot.pause()
        # the game played is kept
        assert held_module.held(THREE_BY_FOUR) is None and held_module.held(Geometry()) is not None
        await pilot.press("n", "down", "down")
        await until(pilot, lambda: held_module.held(THREE_BY_FOUR) is not None, "3x4 read back again")
        await pilot.press("enter")
        await pilot.pause()
        assert app.store.state.geometry == THREE_BY_FOUR and app.ready  # at once: nothing left to make
        assert not [worker for worker in app.workers if worker.name == "build-tables"]
        assert text_of(app.query_one(EvaluationView)).startswith("X to move: ")
        await pilot.press("n", "up")  # the misère 3×3 lit, then the dialog left: the game played keeps its tables
        misere = Geometry(misere=True)
        await until(pilot, lambda: held_module.held(misere) is not None, "the misère 3x3 read back while lit")
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert held_module.held(THREE_BY_FOUR) is not None and held_module.held(Geometry(misere=True)) is None


async def test_a_variant_read_back_after_the_dialog_closed_is_dropped_and_one_chosen_meanwhile_read_once(monkeypatch):
    """The read-back of a lit variant is still going when the dialog closes: passed over, what it reads is
    dropped when it arrives; chosen, the game waits for that read rather than reading or building again."""
    import threading

    from workbench.kept import tables as cache

    _kept_only_in_the_cache(monkeypatch, THREE_BY_FOUR)
    release, read, built, load_tables = threading.Event(), [], [], cache.load_tables

    def held_for_3x4(geometry):  # the misère 3×3, lit on the way, is read back at once
        if geometry == THREE_BY_FOUR:
            read.append(geometry)
            release.wait(60)
        return load_tables(geometry)

    monkeypatch.setattr(cache, "load_tables", held_for_3x4)
    monkeypatch.setattr(cache, "build_tables", lambda geometry: built.append(geometry))
    app = _app(game=Geometry())
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("n", "down", "down")
        await until(pilot, lambda: read == [THREE_BY_FOUR], "3x4 being read back")
        await pilot.press("escape")
        release.set()
        await until(
            pilot,
            lambda: not [worker for worker in app.workers if worker.name == "prefetch-analysis"],
            "the read-back over",
        )
        await pilot.pause()
        assert held_module.held(THREE_BY_FOUR) is None
        release.clear()
        read.clear()
        await pilot.press("n", "down", "down")
        await until(pilot, lambda: read == [THREE_BY_FOUR], "3x4 being read back again")
        await pilot.press("enter")
        await pilot.pause()
        assert app.store.state.geometry == THREE_BY_FOUR and not app.ready
        release.set()
        await wait_ready(pilot, app)
        await app.workers.wait_for_complete()
        assert read == [THREE_BY_FOUR] and built == [] and held_module.held(THREE_BY_FOUR) is not None
        assert text_of(app.query_one(EvaluationView)).startswith("X to move: ")


async def test_a_click_on_a_cell_moves_the_cursor_there_and_plays_it():
    app = _app(game=THREE_BY_FOUR)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        grid = app.query_one(BoardGrid)
        await pilot.click(BoardGrid, offset=cell_offset(grid, 11))
        await pilot.pause()
        assert moves(app) == (11,) and app.store.state.view.highlighted == 11  # h j k l go on from there
        await pilot.press("l")
        assert app.store.state.view.highlighted == 12


async def test_the_palette_s_open_study_opens_the_open_dialog():
    from workbench.tui.library_dialogs import OpenDialog

    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("ctrl+p", *"Open study")
        await pilot.pause()
        await pilot.press("enter")
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, OpenDialog):
                break
        assert isinstance(app.screen, OpenDialog)


async def test_the_new_game_dialog_opens_with_no_error_shown():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("n")
        await pilot.pause()
        assert str(app.screen.query_one("#variant-error", Static).render()) == ""
        assert "up to 16 cells solved exactly" in str(app.screen.query_one(".dialog-hint", Static).render())


# --- boards above 16 cells: searched position by position, off the UI thread -------------------------------------

GOMOKU = Geometry(15, 15, 5)


def no_search(monkeypatch) -> list:
    """The position search is not started (the positions it would have searched are listed): a screen that
    does not tick, for the tests that look at everything else."""
    asked: list = []
    monkeypatch.setattr(WorkbenchApp, "_start_search", lambda self, position: asked.append(position))
    return asked


async def test_gomoku_is_chosen_by_name_drawn_compact_and_played_by_coordinate(monkeypatch):
    from workbench.tui.panes.board import BoardStatus

    asked = no_search(monkeypatch)
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await _choose(pilot, app, 9)
        assert app.store.state.geometry == GOMOKU and app.query_one(BoardPane).border_title == "Board · 15×15 k5"
        assert "Gomoku 15×15" in app.sub_title
        grid = app.query_one(BoardGrid)
        assert grid.compact
        lines = text_of(grid).splitlines()
        assert [line.split()[0] for line in lines if line.strip()][:15] == [str(row) for row in range(15, 0, -1)]
        assert all(line.split()[1] == "·" * 15 for line in lines[:-1] if line.strip())  # fifteen rows of fifteen cells
        assert lines[-1].split() == ["abcdefghijklmno"]  # and the column letters, which `:` reads
        await pilot.press("colon", "h", "8", "enter")
        await pilot.pause()
        assert moves(app) == (113,)
        await until(
            pilot, lambda: asked and asked[-1] == Position.empty(GOMOKU).play(113), "h8 searched once it stayed"
        )
        assert "·······X·······" in text_of(grid)  # h8: the centre of row 8
        assert text_of(app.query_one(BoardStatus)).startswith("O to move: ? (not searched)")
        evaluation = text_of(app.query_one(EvaluationView))
        assert evaluation.startswith("O to move: not proven yet") and "not searched yet" in evaluation
        assert "224 not proven" in evaluation
        symmetry = text_of(app.query_one(SymmetryView))
        assert "canonical X h8" in symmetry and "classes numbered up to 16 cells" in " ".join(symmetry.split())
        app.screen.maximize(app.query_one("#symmetry"), container=False)  # 80×24 shows its first lines only
        await pilot.pause()
        symmetry = text_of(app.query_one(SymmetryView))
        assert "the same position under id, r90, r180, r270, m|, m-, m\\, m/" in symmetry
        assert "images: too big to draw" in symmetry
        app.screen.minimize()
        await pilot.pause()
        await pilot.click(BoardGrid, offset=cell_offset(grid, 112))  # g8, left of the centre: a click plays it
        await pilot.pause()
        assert moves(app) == (113, 112)


async def test_a_big_board_s_search_fills_in_and_s_stops_it_and_searches_on():
    """5×5, four in a row, one mark down (far from proven: its search runs long): the search runs in a worker
    while the keys answer, shows its nodes and what it proved; ``s`` stops it (the finds stay) and ``s`` searches on."""
    app = _app(game=Geometry(5, 5, 4))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        for cell in (13,):
            await pilot.press("colon", *str(cell), "enter")
        await pilot.pause()
        position = app.store.state.position
        await until(pilot, lambda: app.store.state.searching == position, "the search started")
        view = app.query_one(EvaluationView)
        await until(pilot, lambda: "searching ·" in text_of(view) and "nodes" in text_of(view), "its progress shown")
        # its first report (waited for: under load a stop pressed before it would leave no nodes counted)
        await until(
            pilot,
            lambda: (r := app.store.state.search_of(position)) is not None and r.nodes > 0,
            "the search's first report",
        )
        await pilot.press("v")  # the keys answer while it runs
        await pilot.pause()
        assert app.store.state.view.overlay == "values"
        await pilot.press("s")
        await until(pilot, lambda: app.store.state.searching is None, "the search stopped")
        found = app.store.state.search_of(position)
        assert found is not None and found.nodes > 0
        assert "search stopped ·" in text_of(view) or found.complete
        proven = sum(move.proven for move in found.moves)
        if not found.complete:
            await pilot.press("s")  # further: what was proven is kept, and more comes
            await until(pilot, lambda: app.store.state.searching == position, "the search went on")
            # the finds are kept, and the count goes on from the first go (waited for: a stop pressed before the
            # search's first report would leave the count where it was)
            await until(
                pilot,
                lambda: (
                    (r := app.store.state.search_of(position)) is not None
                    and sum(m.proven for m in r.moves) >= proven
                    and r.nodes > found.nodes
                ),
                "the finds kept, the count going on",
            )
            await pilot.press("s")
            await until(pilot, lambda: app.store.state.searching is None, "stopped again")
            assert app.store.state.search_of(position).nodes > found.nodes
        await pilot.press("left")  # another position: its own search; this one's finds stay in the state
        await until(
            pilot, lambda: app.store.state.searching == app.store.state.position, "the earlier position searched"
        )
        assert app.store.state.search_of(position) is not None


async def test_a_search_that_proves_every_move_shows_the_value_and_the_best_move(monkeypatch):
    """Late in a 5×5 game the search proves every move quickly: the evaluation, the board's status, the values
    overlay and the value strip then show exact values, and space plays the best move."""
    from workbench.state import AppState, reduce
    from workbench.state.actions import NewGame, PlayCell
    from workbench.tui.panes.board import BoardStatus
    from workbench.tui.panes.history import ValueStrip, outcome_for_x

    # X: c3 b3 a3 is three in a row with d3 free; O has to block there, and does not
    state = reduce(AppState(), NewGame(geometry=Geometry(5, 5, 4)))
    for cell in (13, 1, 12, 2, 11):
        state = reduce(state, PlayCell(cell=cell))
    app = _app(state=state)  # opened on it: the one position searched
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        position = app.store.state.position
        for _ in range(600):  # (a bound: a hang fails)
            found = app.store.state.search_of(position)
            if found is not None and found.complete:
                break
            if found is not None and app.store.state.searching is None:  # its budget spent first, on a loaded
                await pilot.press("s")  # machine: searched further, as a user would
            await pilot.pause(0.1)
        else:
            raise AssertionError("never: every move proven")
        await until(pilot, lambda: app.store.state.searching is None, "the search done")
        await pilot.pause()
        analysis = app.store.state.analysis
        assert analysis.proven and analysis.value is not None
        assert text_of(app.query_one(BoardStatus)).startswith(
            f"O to move: {analysis.value.label} in {analysis.remoteness}"
        )
        assert "searched: every move proven" in text_of(app.query_one(EvaluationView))
        assert "not proven" not in text_of(app.query_one(EvaluationView))
        strip = app.query_one(ValueStrip)
        assert text_of(strip).split() == ["·", "c3", "a5", "b3", "b5", "a3"]
        assert outcome_for_x(app.store.state, app.store.state.cursor) == (
            1 if analysis.value.label == "loss" else -1 if analysis.value.label == "win" else 0
        )
        await pilot.press("space")
        await pilot.pause()
        assert moves(app)[-1] in (10, 14)  # O blocks the three: one of its two open ends


async def test_the_search_runs_in_a_process_that_ends_with_the_app_and_a_killed_one_is_replaced():
    """The search has a process of its own (the UI thread never waits for it). Killed from outside, the app
    says so, stops showing a search running, and s starts a new one; the app's end ends it."""
    import os
    import signal

    from workbench.tui.panes.board import BoardStatus

    app = _app(game=Geometry(15, 15, 5))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await until(pilot, lambda: app.store.state.searching is not None, "a search running")
        first = app._search_process
        assert first is not None and first.pid != os.getpid() and first.poll() is None
        os.kill(first.pid, signal.SIGKILL)
        await until(pilot, lambda: app.store.state.searching is None, "the search seen gone")
        await pilot.pause()
        assert "search stopped" in text_of(app.query_one(EvaluationView)) and "searching" not in text_of(
            app.query_one(BoardStatus)
        )
        assert any("process ended" in notice.message for notice in app._notifications)
        await pilot.press("s")
        await until(pilot, lambda: app.store.state.searching is not None, "searching again")
        second = app._search_process
        assert second is not None and second.pid != first.pid
    assert second.poll() is not None  # ended with the app, and reaped


def _process_state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process's state from /proc")
async def test_the_search_s_process_is_held_while_keys_come_and_goes_on_when_they_stop():
    """On a 2-core machine a running search made each key 3-4 ms later: a key or a click stops its process until
    the input has been quiet a moment, then it searches on."""
    from workbench.tui.features import searching

    app = _app(game=Geometry(15, 15, 5))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await until(pilot, lambda: app.store.state.searching is not None, "a search running")
        process = app._search_process
        await until(pilot, lambda: _process_state(process.pid) != "T", "running")
        await pilot.press("v")
        assert _process_state(process.pid) == "T"  # stopped, not ended
        await pilot.press("v")
        assert _process_state(process.pid) == "T"
        await pilot.pause(searching.INPUT_QUIET / 2)
        assert _process_state(process.pid) == "T"  # the second key's spell is not over
        await until(pilot, lambda: _process_state(process.pid) != "T", "searching on once the keys stopped")
        nodes = app.store.state.search_of(app.store.state.position).nodes
        await until(
            pilot, lambda: app.store.state.search_of(app.store.state.position).nodes > nodes, "counting nodes again"
        )
    assert process.poll() is not None  # ended with the app, held or not


async def test_the_engine_answers_on_a_big_board_by_the_threats(monkeypatch):
    """7×7, five in a row: nothing is proven (no search here), so the engine's O plays the threat player's move,
    at once, and blocks X's four."""
    from workbench.engine.threats import completions

    no_search(monkeypatch)
    app = _app(game=Geometry(7, 7, 5))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("e")  # perfect play, for O
        for cell in (22, 23, 24, 25, 8, 9, 10, 11):  # X's row 4 (a4-d4), else row 6: wherever O has not played
            state = app.store.state
            if cell in moves(app) or state.position.is_over:
                continue
            await pilot.press("colon", *str(cell), "enter")
            await until(
                pilot, lambda: app.store.state.position.ply % 2 == 0 or app.store.state.position.is_over, "an answer"
            )
            position = app.store.state.tree.position(app.store.state.tree.node(app.store.state.cursor).parent)
            threats = completions(position.geometry, position.x, position.o)  # X's, before O's answer
            if threats and not app.store.state.position.is_over:
                assert (1 << (moves(app)[-1] - 1)) & threats, moves(app)  # O blocked a line of four
        assert len(moves(app)) >= 6 and app.store.state.position.status.value != "x_won"


async def test_the_values_overlay_keeps_each_cell_s_name_on_its_top_line_where_cells_are_three_rows_high():
    app = _app(game=Geometry(4, 3, 3))
    async with app.run_test(size=(100, 40)) as pilot:  # a 4x3 board's cells are 3 rows high here
        await wait_ready(pilot, app)
        await pilot.press("v")
        await app.workers.wait_for_complete()
        await pilot.pause()
        lines = text_of(app.query_one(BoardGrid)).splitlines()
        tops = [line for line in lines if re.fullmatch(r"\s+[a-c]\d\s+│[a-c]\d\s+│[a-c]\d\s*", line)]
        assert [re.findall(r"[a-c]\d", line) for line in tops] == [
            [f"{col}{row}" for col in "abc"] for row in (4, 3, 2, 1)
        ]
        assert sum("win 9" in line for line in lines) == 2  # the values, one line below


async def test_the_app_s_state_carries_the_answers_of_the_board_played():
    """Issue 51: the panes ask the board's answers the state carries, never a registry: the classic board's from the
    start, 3×4's once made (the very object the one place that chooses a tier holds), and the classic board's
    again, the same object, on the way back; every pane bound to the state has them."""
    from workbench.kept import answers_for
    from workbench.state.actions import NewGame

    app = _app(game=Geometry())
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        classic = app.store.state.answers
        assert isinstance(classic, TableAnswers) and classic is answers_for(Geometry())
        await pilot.press("n", "down", "down", "enter")
        await wait_ready(pilot, app)
        wide = app.store.state.answers
        assert app.store.state.geometry == THREE_BY_FOUR and wide is answers_for(THREE_BY_FOUR)
        assert app.query_one(EvaluationView).state.answers is wide
        app.store.dispatch(NewGame(geometry=Geometry()))
        await wait_ready(pilot, app)
        assert app.store.state.answers is classic and app.query_one(EvaluationView).state.answers is classic


@pytest.mark.parametrize("key", ["space", "b", "g"])
async def test_what_asks_for_exact_values_while_they_are_made_waits_for_them_and_says_so(monkeypatch, key):
    """The best move, the best line and the games through a position read the board's exact values: while a worker
    still makes them (a 2×7k4 solve, 3×4's tables) the key is told to wait, the board is left as it was, and nothing
    is built on the UI thread (or raises: space and b did on 2×7k4, and built 3×4's tables on the UI thread)."""
    from workbench.engine import analysis

    classic = TableAnswers(analysis.tables(Geometry()))  # the game the app starts on: at hand
    monkeypatch.setattr(held_module, "_HELD", {Geometry(): classic})
    monkeypatch.setattr(analysis, "build_tables", lambda geometry: pytest.fail(f"{geometry} built on the UI thread"))
    release, _ = held(monkeypatch, "strong_solution")
    tables_release, _ = held(monkeypatch, "build_and_cache_tables")
    monkeypatch.setattr("workbench.kept.tables.load_tables", lambda geometry: None)  # 3×4's not kept either
    app = _app(game=Geometry())
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_ready(pilot, app)
            for variant in ("2x7k4", "3x4k3"):
                await pilot.press("n", "tab", *variant, "enter")
                await pilot.pause()
                state = app.store.state
                assert not app.ready and state.answers is None and str(state.geometry) == variant
                await pilot.press(key)
                await pilot.pause()
                assert app.store.state.tree is state.tree and app.is_running
                notes = [str(note.message) for note in app._notifications]
                # (the games are counted on boards of up to 12 cells: 2×7's never are, which is what it says)
                said = (
                    "up to 12 cells; this is 2×7" if (key, variant) == ("g", "2x7k4") else "still being made: a moment."
                )
                assert any(said in note for note in notes), notes
                app._notifications.clear()
    finally:
        release.set()
        tables_release.set()
