"""Choosing a variant in the app: the new-game dialog, the palette, the command line, and what is remembered."""

import json
import re
import tempfile

import pytest
from textual.widgets import Input, OptionList, Static

from workbench.engine import Geometry, Position, parse_position
from workbench.settings import load_settings
from workbench.state import load_study
from workbench.tui.app import WorkbenchApp
from workbench.tui.board import BoardGrid, BoardPane
from workbench.tui.dialogs import NewGameDialog
from workbench.tui.evaluation import EvaluationView
from workbench.tui.symmetry import SymmetryView

from .tui_helpers import cell_offset, moves, text_of, wait_ready

SIZE = (100, 34)
THREE_BY_FOUR = Geometry(3, 4, 3)


def _app(**options) -> WorkbenchApp:
    return WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", **options)


def held(monkeypatch, name: str):
    """``workbench.cache.<name>`` made to wait, in the worker that calls it, until the returned event is set;
    the boards it was called for are listed in the returned list."""
    import threading

    from workbench import cache

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
        assert [text.split()[-1] for text in texts] == ["3x3k3", "3x3k3-misere", "3x4k3", "3x4k3-misere", "4x4k3", "4x4k4"]
        assert texts[0].startswith("classic") and texts[2].startswith("3×4, three in a row")
        assert listed.highlighted == 0 and app.focused is listed
        await pilot.press("enter")
        await pilot.pause()
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
        assert re.findall(r"\d+", "\n".join(line[left_of_grid:] for line in text_of(grid).splitlines())) == [
            str(cell) for cell in range(1, 13)]  # fmt: skip
        await pilot.click(BoardGrid, offset=cell_offset(grid, 12))  # a cell past the digit keys
        await pilot.press("6")
        await pilot.pause()
        assert moves(app) == (12, 6)
        evaluation = text_of(app.query_one(EvaluationView))
        assert evaluation.startswith("X to move") and "12" in evaluation.split("cell value")[1]
        await pilot.press("ctrl+z")  # the move, then the new game: back to the classic board, its tables at hand
        await pilot.press("ctrl+z", "ctrl+z")
        await pilot.pause()
        assert app.store.state.geometry == Geometry() and app.ready
        assert app.query_one(BoardPane).border_title == "Board · classic"


async def test_the_panes_say_the_tables_are_being_built_and_nothing_blocks_meanwhile(monkeypatch):
    """A variant whose tables are not at hand gets them from a worker; the panes say so until then, and
    the app answers keys meanwhile."""
    from workbench import cache
    from workbench.engine import analysis

    monkeypatch.setattr(analysis, "_TABLES", {key: value for key, value in analysis._TABLES.items() if key != THREE_BY_FOUR})
    monkeypatch.setattr(cache, "load_tables", lambda geometry: None)  # none kept on disk either
    release, _ = held(monkeypatch, "build_and_cache_tables")
    app = _app(game=Geometry())
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("n", "down", "down", "enter")
        await pilot.pause()
        assert not app.ready and analysis.tables_if_built(THREE_BY_FOUR) is None
        assert "Building the engine's tables" in text_of(app.query_one(EvaluationView))
        await pilot.press("v")  # the app still answers
        await pilot.pause()
        assert app.store.state.view.overlay == "values"
        release.set()
        await wait_ready(pilot, app)
        assert analysis.tables_if_built(THREE_BY_FOUR) is not None
        assert text_of(app.query_one(EvaluationView)).startswith("X to move: win in")


async def test_a_typed_variant_is_checked_before_the_game_starts():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "n")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#variant-input", Input).focus()
        for text, problem in (("5x5k4", "at most 16 cells"), ("chess", "unknown variant 'chess'"), ("3x3k5", "does not fit")):
            dialog.query_one("#variant-input", Input).value = text
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is dialog and problem in str(dialog.query_one("#variant-error", Static).render())
        assert moves(app) == (5,)  # nothing changed meanwhile
        dialog.query_one("#variant-input", Input).value = "2x5K3-Misère"
        await pilot.press("enter")
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


async def test_set_up_reads_the_board_being_played():
    """On 3x4 a position is three rows of four, and a move list may name cells up to 12."""
    app = _app(game=THREE_BY_FOUR)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("i", *"x.../.o../....", "enter")
        await pilot.pause()
        assert app.store.state.tree.root_position == parse_position("X.../.O../....", THREE_BY_FOUR)
        await pilot.press("i", *"12 1 6", "enter")
        await pilot.pause()
        assert moves(app) == (12, 1, 6) and app.store.state.geometry == THREE_BY_FOUR
        await pilot.press("i", *"x.o/.x./...")
        await pilot.pause()
        assert "wrong length" in str(app.screen.query_one("#setup-error", Static).render())


TWO_BY_SEVEN = Geometry(2, 7, 4)  # 14 cells: beyond the tables, a strong solution in about a second


async def test_a_board_beyond_the_tables_is_solved_in_a_worker_with_its_progress_shown(monkeypatch):
    """13-16 cells: the strong solution is made off the UI thread (held here until the test lets it go), the
    evaluation says what it is doing and how far it is, keys answer meanwhile, and then every pane reads it."""
    from workbench.engine import analysis
    from workbench.engine.strong import strong_solve

    monkeypatch.setattr(analysis, "_STRONG", {})
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
        release.set()
        await wait_ready(pilot, app)
        assert any(text.startswith("enumerating positions: ply") for text in seen)
        assert any(text.startswith("values, back from the last ply: ply") for text in seen)
        evaluation = text_of(app.query_one(EvaluationView))
        solution = strong_solve(TWO_BY_SEVEN)
        value, remoteness = solution.lookup(0, 0)
        assert evaluation.startswith(f"X to move: {('loss', 'draw', 'win')[value + 1]} in {remoteness}")
        assert "pass through" not in evaluation  # counted by the tables only: not claimed here
        assert f"of {sum(solution.classes_by_ply)}" in text_of(app.query_one(SymmetryView))
        await pilot.click(BoardGrid, offset=cell_offset(app.query_one(BoardGrid), 14))
        await pilot.pause()
        assert moves(app) == (14,) and text_of(app.query_one(EvaluationView)).startswith("O to move")


async def test_games_like_this_says_which_boards_it_counts():
    from workbench.engine import analysis
    from workbench.engine.strong import strong_solve

    analysis.install_strong(strong_solve(TWO_BY_SEVEN))
    app = _app(game=TWO_BY_SEVEN)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("g")
        await pilot.pause()
        notes = [(n.title, str(n.message)) for n in app._notifications]
        assert ("Games like this", "Games like this counts the games of boards of up to 12 cells; this is 2×7, four in a row.") in notes
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
        ("17", (), "no cell 17 on this board (1-16)"),
        ("0", (), "no cell 0 on this board (1-16)"),
        ("9" * 400, (), "no cell 9999"),
        ("e1", (), "no cell 'e1' on a 4x4 board (a1-d4)"),
        ("x", (), "not a coordinate: 'x'"),
        ("b3", (6,), "b3 (cell 6) is taken"),
        ("16", (1, 5, 2, 6, 3, 7, 4), "the game is over"),
    ],
)
def test_a_typed_cell_that_cannot_be_played_says_why(text, moves, problem):
    from workbench.tui.dialogs import parse_cell

    with pytest.raises(ValueError) as caught:
        parse_cell(text, Position.empty(Geometry(4, 4, 4)).play_all(moves))
    assert problem in str(caught.value)


async def test_colon_plays_a_typed_cell_on_any_board():
    from workbench.engine import analysis
    from workbench.engine.strong import strong_solve

    analysis.install_strong(strong_solve(TWO_BY_SEVEN))
    app = _app(game=TWO_BY_SEVEN)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("colon", *"14", "enter")
        await pilot.pause()
        assert moves(app) == (14,)
        await pilot.press("colon", *"g1")  # taken: said in the dialog, nothing played
        await pilot.press("enter")
        await pilot.pause()
        assert "g1 (cell 14) is taken" in str(app.screen.query_one("#cell-error", Static).render())
        await pilot.press("escape")
        await pilot.press("colon", *"a2", "enter")  # the top row's first cell
        await pilot.pause()
        assert moves(app) == (14, 1) and app.screen is app.screen_stack[0]


async def test_coordinates_go_where_the_cells_leave_room_and_every_cell_stays_clickable():
    """A 2x7 board in a 30-column pane: the row numbers would push the last column out, so they are left
    out; the letters still fit under the grid. Every cell is where a click finds it."""
    from workbench.engine import analysis
    from workbench.engine.strong import strong_solve

    analysis.install_strong(strong_solve(TWO_BY_SEVEN))
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


async def test_coming_back_to_a_board_being_solved_does_not_solve_it_twice(monkeypatch):
    from workbench.engine import analysis

    monkeypatch.setattr(analysis, "_STRONG", {})
    release, solved = held(monkeypatch, "strong_solution")
    app = _app(game=Geometry())
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("n", "tab", *"2x7k4", "enter")
        await pilot.pause()
        await pilot.press("n", "up", "up", "up", "up", "up", "up", "enter")  # the classic game: ready at once
        await wait_ready(pilot, app)
        assert app.store.state.geometry == Geometry()
        await pilot.press("n", "tab", *"2x7k4", "enter")  # back, while the first solve still runs
        await pilot.pause()
        assert not app.ready
        release.set()
        await wait_ready(pilot, app)
        await app.workers.wait_for_complete()
        assert solved == [TWO_BY_SEVEN] and app.store.state.geometry == TWO_BY_SEVEN


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
        assert "boards of up to 16 cells" in str(app.screen.query_one(".dialog-hint", Static).render())
