"""Issue 40, the app: one notation in every pane, set-up by coordinate, screens that show everything, words
that are true. (The engine's and the command line's side is tests/test_every_board.py.)"""

import re
import tempfile

import pytest
from textual.widgets import Input

from workbench.engine import Geometry, Player
from workbench.engine.solver import Value
from workbench.state import AppState, EngineMode, reduce
from workbench.state.actions import NewGame, PlayCell, SetEngine, SetOverlay
from workbench.tui.app import WorkbenchApp
from workbench.tui.panes.board import BoardGrid, BoardStatus, value_in_cell
from workbench.tui.panes.evaluation import EvaluationView
from workbench.tui.panes.history import ValueStrip
from workbench.tui.panes.symmetry import SymmetryView
from workbench.tui.panes.variation_tree import VariationTree

from .tui_helpers import cell_texts, moves, text_of, wait_ready

GOMOKU = Geometry(15, 15, 5)


def _app(**options) -> WorkbenchApp:
    return WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", **options)


def _on(geometry: Geometry, cells=()) -> AppState:
    state = reduce(AppState(), NewGame(geometry=geometry))
    for cell in cells:
        state = reduce(state, PlayCell(cell=cell))
    return state


def no_search(monkeypatch) -> None:
    monkeypatch.setattr(WorkbenchApp, "_start_search", lambda self, position: None)


async def test_set_up_on_gomoku_takes_coordinates_spaced_or_with_commas(monkeypatch):
    """Was: `i` rejected ``h8 h9 g8 i8`` and ``h8,h9,g8,i8`` ("not a cell number"); only ``113 98 112 114`` did."""
    no_search(monkeypatch)
    for typed in ("h8 h9 g8 i8", "h8,h9,g8,i8", "113 98 112 114", "h8 98 g8,i8"):
        app = _app(game=GOMOKU)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_ready(pilot, app)
            await pilot.press("i")
            await pilot.pause()
            assert app.screen.query_one(Input).placeholder == "X.O/.X./...  or  h8 h9 g8"  # the board's own notation
            await pilot.press(*typed, "enter")
            await pilot.pause()
            assert moves(app) == (113, 98, 112, 114), typed
            tree = app.query_one(VariationTree)
            history = "\n".join(tree.render_line(y).text for y in range(tree.size.height))
            assert "1. h8" in history and "2… i8" in history and "113" not in history  # named as the board names them


async def test_the_value_strip_names_every_ply_of_a_big_board():
    """Was: 3-digit cells left blank on 15×15 (`·     98          82`)."""
    cells = (113, 98, 112, 114, 97, 99, 82, 128)
    app = _app(state=_on(GOMOKU, cells))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        strip = app.query_one(ValueStrip)
        names = ["·", "h8", "h9", "g8", "i8", "g9", "i9", "g10", "h7"]
        shown = text_of(strip).split()
        assert shown == names[-len(shown) :] and len(shown) >= 6  # apart, never run together; the board's ply in view
        strip.styles.width = 40
        await pilot.pause()
        await pilot.pause()
        assert text_of(strip).split() == names  # room for the whole line
    app = _app(state=_on(Geometry(), (5, 1, 9)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        assert text_of(app.query_one(ValueStrip)).split() == ["·", "5", "1", "9"]  # 3×3: numbers, as ever


async def test_gomoku_at_80_by_24_keeps_its_column_letters_while_the_engine_is_off(monkeypatch):
    """Was: 15×15 at 80×24 lost the column letters that `:` needs (the status held a blank third line)."""
    no_search(monkeypatch)
    app = _app(state=_on(GOMOKU))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        grid, status = app.query_one(BoardGrid), app.query_one(BoardStatus)
        assert text_of(grid).splitlines()[-1].strip() == "abcdefghijklmno" and status.size.height == 2
        app.store.dispatch(SetEngine(mode=EngineMode.PERFECT))
        await pilot.pause()
        await pilot.pause()
        assert status.size.height == 3 and "engine" in text_of(status).splitlines()[2]


@pytest.mark.parametrize(
    "value, remoteness, width, shown",
    [
        (Value.LOSS, 5, 6, "loss 5"),
        (Value.LOSS, 5, 5, "L5"),
        (Value.WIN, 11, 3, "W11"),
        (Value.DRAW, 9, 2, "D9"),
        (Value.WIN, 11, 2, "W"),
        (None, None, 1, "?"),
        (Value.DRAW, 16, 4, "D16"),
    ],
)
def test_a_value_in_a_cell_keeps_its_remoteness_where_it_can(value, remoteness, width, shown):
    assert value_in_cell(value, remoteness, width) == shown and len(shown) <= width


async def test_the_values_overlay_on_4x4k3_shows_each_value_with_its_remoteness(kept_solution):
    """Was: a cell read `4 loss`: the 4 the row label, the remoteness cut away."""
    kept_solution(Geometry(4, 4, 3))
    app = _app(state=reduce(_on(Geometry(4, 4, 3)), SetOverlay(overlay="values")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        grid = app.query_one(BoardGrid)
        analysis = app.store.state.analysis
        texts = cell_texts(grid)
        for move in analysis.moves:
            assert re.fullmatch(r"(win|loss|draw) \d+|[WLD]\d+", texts[move.cell - 1]), texts[move.cell - 1]
            assert texts[move.cell - 1].endswith(str(move.remoteness))


async def test_a_refused_move_says_why_on_the_board_s_status_until_the_position_changes():
    """Was: an occupied cell, or any cell after the game's end, did nothing visible."""
    app = _app(state=_on(Geometry(), (5,)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        status = app.query_one(BoardStatus)
        await pilot.press("5")
        await pilot.pause()
        assert moves(app) == (5,) and text_of(status).splitlines()[1].strip() == "5 is taken."
        await pilot.press("1")
        await pilot.pause()
        assert "taken" not in text_of(status) and text_of(status).splitlines()[1].startswith("ply 2")
    app = _app(state=_on(Geometry(), (1, 4, 2, 5, 3)))  # X won on the top row
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("9")
        await pilot.pause()
        assert moves(app) == (1, 4, 2, 5, 3)
        assert text_of(app.query_one(BoardStatus)).splitlines()[1].startswith("Game over (X won): ← steps")


async def test_an_empty_mask_says_none_on_the_status_and_in_the_evaluation():
    """Was: `m` on a mask with no cells lit nothing, and said nothing."""
    app = _app(state=_on(Geometry()))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("m")  # the win mask: no line to complete on the empty board
        await pilot.pause()
        assert app.store.state.view.overlay == "win"
        assert "showing win (none)" in text_of(app.query_one(BoardStatus))


async def test_b_at_the_end_of_the_main_line_says_it_extends_it():
    """Was: "Added … as a variation" when it extended the main line."""
    app = _app(state=_on(Geometry(), (5,)))
    notes = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        app.notify = lambda message, **options: notes.append(message)
        await pilot.press("b")
        await pilot.pause()
        assert (
            len(app.store.state.tree.nodes) > 2
            and notes[-1].startswith("Added ")
            and "to the main line: → steps" in notes[-1]
        )
        await pilot.press("home")
        await pilot.pause()
        await pilot.press("b")  # the start has the main line after it: now a variation
        await pilot.pause()
        assert notes[-1].endswith("is already in the history.") or "as a variation" in notes[-1]


async def test_on_gomoku_the_engine_and_space_say_what_their_move_rests_on(monkeypatch):
    """Was: "engine plays O (perfect)" where it is the threat player, and space played g10 without a word."""
    no_search(monkeypatch)
    state = reduce(_on(GOMOKU, (113,)), SetEngine(mode=EngineMode.PERFECT, side=Player.X))  # not to move: it waits
    app = _app(state=state)
    notes = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        status = text_of(app.query_one(BoardStatus)).splitlines()
        assert status[2].strip() in (
            "engine plays X (threat player: not proven)",
            "engine X: threat player",
        )  # 28 columns
        app.notify = lambda message, **options: notes.append(message)
        app.store.dispatch(SetEngine(mode=EngineMode.OFF))
        await pilot.press("space")
        await pilot.pause()
        assert len(moves(app)) == 2
        assert re.fullmatch(
            r"Played [a-o]\d+: the threat player's move, not proven \(0 of 224 moves proven here\)\.", notes[-1]
        )


async def test_the_best_line_of_3x5_is_wrapped_whole_in_a_narrow_evaluation():
    """Was: 3×5's best line cut at the pane's edge (`… 14 15 3  b a`)."""
    from workbench.engine.geometry import cell_name
    from workbench.state import selected_line
    from workbench.tui.panes.evaluation import MOVES_LEGEND

    geometry = Geometry(3, 5, 4)
    app = _app(state=_on(geometry))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        text = text_of(app.query_one(EvaluationView))
        line = [cell_name(cell, geometry) for cell in selected_line(app.store.state)]
        assert len(line) > 10
        heading = f"after {line[0]}: "  # the board's cursor selects its move: the line after it
        words = text[text.index(heading) + len(heading) :].split("b adds it")[0].split()
        assert words == line[1:] and "b adds it" in text
        assert " ".join(" ".join(MOVES_LEGEND).split()) in " ".join(text.split())  # the legend whole, wrapped too


async def test_the_canonical_form_of_a_big_board_is_wrapped_whole_in_the_symmetry_pane(monkeypatch):
    """Was: `… O b4` hid `d4 e1`."""
    no_search(monkeypatch)
    cells = (13, 1, 7, 5, 19, 25, 17, 9, 3, 21, 11)
    app = _app(state=_on(Geometry(5, 5, 4), cells))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        app.screen.maximize(app.query_one("#symmetry"), container=False)
        await pilot.pause()
        text = text_of(app.query_one(SymmetryView))
        words = text[text.index("canonical ") + len("canonical ") :].split("same moves")[0].split()
        assert words.count("X") == words.count("O") == 1 and len(words) == 1 + len(cells) + 2  # X, the marks, ·, O


@pytest.mark.parametrize("geometry, wider", [(GOMOKU, "evaluation"), (Geometry(), "symmetry")], ids=str)
async def test_at_200_by_60_the_room_goes_to_the_pane_with_something_to_show(monkeypatch, geometry, wider):
    """Was: on 15×15 the symmetry took about 100 columns to say "images: too big to draw", the evaluation 54.
    On 3×3 the symmetry's eight images have the room, and the evaluation its whole moves table."""
    no_search(monkeypatch)
    app = _app(state=_on(geometry))
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_ready(pilot, app)
        evaluation, symmetry = app.query_one("#evaluation").size.width, app.query_one("#symmetry").size.width
        assert (evaluation > symmetry) is (wider == "evaluation")
        assert min(evaluation, symmetry) >= 50
        text = text_of(app.query_one(SymmetryView))
        if geometry == GOMOKU:  # what it has to say, whole
            assert "the same position under id, r90, r180, r270, m|, m-, m\\, m/" in " ".join(text.split())


async def test_the_symmetry_pane_wraps_what_is_wider_than_it_and_cuts_nothing(monkeypatch):
    """Was: at 120×40 on 15×15 the symmetry's 28 columns cut "classes numbered up to 16 c" and "same moves 118
    kinds of mov" without a mark."""
    no_search(monkeypatch)
    app = _app(state=_on(GOMOKU, (113, 98)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        view = app.query_one(SymmetryView)
        text = " ".join(text_of(view).split())
        for whole in (
            "classes numbered up to 16 cells",
            "orbit 4",
            "canonical X h8 · O h9",
            "same moves 118 kinds of move, 105 with twins",
        ):
            assert whole in text, whole
        assert all(len(line.rstrip()) <= view.size.width for line in text_of(view).splitlines())
        lines = [line.strip() for line in text_of(view).splitlines()]
        # a review: "classes numbered up to 16 / cells  orbit 4": the number kept with its unit, the next fact apart
        assert "16\u00a0cells" in lines and any(line.startswith("orbit") for line in lines)


@pytest.mark.parametrize(
    ("rows", "cols", "mirrors"), [(3, 3, "| - \\ /"), (3, 4, "| -"), (2, 5, "| -"), (4, 4, "| - \\ /")]
)
async def test_the_symmetry_legend_names_the_board_s_own_mirrors(rows, cols, mirrors):
    """Was: 3×4's legend said "mirrored in | - \\ /", though a board that is not square has no diagonal mirror."""
    from workbench.engine.symmetry import transforms
    from workbench.tui.panes.symmetry import TRANSFORM_LABELS

    geometry = Geometry(rows, cols, 3)
    app = _app(state=_on(geometry))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        text = text_of(app.query_one(SymmetryView))
        assert [found.strip() for found in re.findall(r"m: mirrored in ([^\n·]*)", text)] == [mirrors]
        shown = {TRANSFORM_LABELS[t.name] for t in transforms(geometry) if t.name.startswith("flip")}
        assert {f"m{mirror}" for mirror in mirrors.split()} == shown  # each one drawn above, and no other
