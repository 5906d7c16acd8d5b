"""What makes a key feel instant, checked as behaviour (never as a time): a step through the game
redraws only the lines that changed, builds are reused, and the terminal bench measures what a
user sees (a real process on a terminal, its screen read back by a terminal emulator)."""

import asyncio
import random
import re
import sys
import tempfile
import time

import pytest
from hypothesis import given, strategies as st
from textual._compositor import Compositor
from textual.widget import Widget

from tests.tui_helpers import text_of, wait_ready
from workbench.bench import key_timing, terminal as terminal_bench
from workbench.engine import TIC_TAC_TOE
from workbench.kept.tables import build_and_cache_tables
from workbench.state.played import GOMOKU_OPENING, game_state
from workbench.tui import textual_ext
from workbench.tui.app import WorkbenchApp
from workbench.tui.panes.board import BoardGrid, BoardStatus
from workbench.tui.panes.evaluation import EvaluationView
from workbench.tui.panes.lines import _runs, ellipsis
from workbench.tui.panes.symmetry import SymmetryView
from workbench.tui.panes.variation_tree import VariationTree
from workbench.tui.textual_ext.compositor import _chops_meeting

# the fast path's own tests (stock Textual is tested by the rest, in both modes: tests/test_gate.py)
pytestmark = pytest.mark.skipif(not textual_ext.MODE.fast, reason=f"the fast path's own; {textual_ext.MODE}")


def _app() -> WorkbenchApp:
    return WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3")


class UpdateSpy:
    """Records the screen regions each compositor update covers."""

    def __init__(self, monkeypatch) -> None:
        self.updates: list[list] = []
        original = Compositor.render_update
        spy = self

        def render_update(compositor, full=False, screen_stack=None, simplify=False):
            spy.updates.append(["full"] if full else sorted(compositor._dirty_regions))
            return original(compositor, full=full, screen_stack=screen_stack, simplify=simplify)

        monkeypatch.setattr(Compositor, "render_update", render_update)
        self.layouts = 0
        original_reflow = Compositor.reflow

        def reflow(compositor, parent, size):
            spy.layouts += 1
            return original_reflow(compositor, parent, size)

        monkeypatch.setattr(Compositor, "reflow", reflow)

    def rows(self) -> set[int]:
        return {
            y
            for update in self.updates
            for region in update
            if region != "full"
            for y in range(region.y, region.bottom)
        }

    def rows_in(self, area) -> set[int]:
        """The rows, counted from ``area``'s top, of the updates that overlap ``area`` (a pane beside it is not it)."""
        return {
            y - area.y
            for update in self.updates
            for region in update
            if region != "full" and region.overlaps(area)
            for y in range(max(region.y, area.y), min(region.bottom, area.bottom))
        }


@pytest.mark.parametrize("key", ["left", "v", "backspace", "3", "ctrl+z", "up"])
async def test_a_key_repaints_only_the_lines_that_changed_never_the_whole_screen(monkeypatch, key):
    """Stepping, an overlay, a new move into the tree (3, and its undo), another variation: no layout, no
    full-screen update."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        for move in "519":
            await pilot.press(move)
        if key == "up":  # a second variation to switch to
            await pilot.press("backspace", "3")
        await pilot.pause()
        spy = UpdateSpy(monkeypatch)
        screen_area = app.screen.region
        await pilot.press(key)
        await pilot.pause()
        assert spy.updates, "the key changed nothing on screen"
        assert spy.layouts == 0
        for update in spy.updates:
            assert "full" not in update and screen_area not in update
        # rows no pane draws on (the header, the footer, pane borders) are left alone
        assert not spy.rows() & {0, 1, 39}
        if key == "v":  # the overlay changes the board and its status: nothing right of the board repaints
            board_right = app.query_one(BoardGrid).region.right
            assert all(region.x < board_right for update in spy.updates for region in update)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_tree_growing_past_its_box_scrolls_to_the_last_move_without_a_layout(monkeypatch, size):
    """The tree's scrollbar is always there, so moves that take it past its box and an undo that
    brings it back under are repaints: the thumb follows, the last move stays in view, and the
    scroll offset never points past the lines."""
    app = _app()
    async with app.run_test(size=size) as pilot:
        await wait_ready(pilot, app)
        tree = app.query_one(VariationTree)
        assert tree.show_vertical_scrollbar and tree.max_scroll_y == 0
        assert tree.size.height < 10  # the whole drawn game below is ten lines with the start
        spy = UpdateSpy(monkeypatch)
        for move in "519328467":
            await pilot.press(move)
            await pilot.pause()
        await pilot.pause()
        assert tree.max_scroll_y == 10 - tree.size.height
        assert tree.vertical_scrollbar.window_virtual_size == 10
        assert tree.line_of(app.store.state.cursor) == 9
        assert tree.scroll_offset.y == tree.max_scroll_y  # the last move, on the last line, in view
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+z", "ctrl+z", "ctrl+z", "ctrl+z")  # four lines: the start and 5 1 9
        await pilot.pause()
        await pilot.pause()
        assert tree.max_scroll_y == max(0, 4 - tree.size.height)
        assert tree.scroll_offset.y == tree.max_scroll_y
        assert tree.vertical_scrollbar.window_virtual_size == 4
        assert spy.layouts == 0


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("view_class", [SymmetryView, EvaluationView])
async def test_a_fitted_view_has_its_height_in_the_first_frame(monkeypatch, size, view_class):
    """The symmetry's images wrap with the width, and the evaluation has a row a move, so their heights come
    from their lines: given at the first layout, the first frame is the settled one (fitted after the first
    paint, the start took a second layout and a second frame, and the screen settled late)."""
    heights: list[int] = []
    original = Compositor.render_update

    def render_update(compositor, full=False, screen_stack=None, simplify=False):
        views = compositor.root.query(view_class) if compositor.root is not None else []
        heights.extend(view.size.height for view in views if view.region)
        return original(compositor, full=full, screen_stack=screen_stack, simplify=simplify)

    monkeypatch.setattr(Compositor, "render_update", render_update)
    build_and_cache_tables(TIC_TAC_TOE)  # as on every start but the first: the tables there for the first paint
    app = _app()
    async with app.run_test(size=size) as pilot:
        await wait_ready(pilot, app)
        view = app.query_one(view_class)
        lines = len(view._ensure_strips())
        assert ("classes by ply" if view_class is SymmetryView else "trap: share") in text_of(view)  # its last line
        assert heights and heights[0] == view.size.height == lines


@pytest.mark.parametrize("size", [(80, 24), (133, 44)])
async def test_the_first_screen_is_drawn_once(monkeypatch, size):
    """One frame draws the whole screen at the start, and nothing after it draws a widget again that did not change.
    Textual drew the first screen three more times (its resume's own refresh of the screen, each widget's repaint
    asked for by the first layout, and the evaluation view fitted after the first paint): 135 KB at 133×44 where
    41 KB draw it, which a browser tab then parsed and drew four times over."""
    build_and_cache_tables(TIC_TAC_TOE)  # as on every start but the first: the tables there for the first paint
    spy = UpdateSpy(monkeypatch)
    app = _app()
    async with app.run_test(size=size) as pilot:
        await wait_ready(pilot, app)
        await pilot.pause(0.3)
        screen = app.screen.size.region
        whole = [index for index, update in enumerate(spy.updates) if update == ["full"] or screen in update]
        assert whole == [0], spy.updates
        # after it, what the tables bring (values, classes), not the panes around it
        panes = [app.query_one(f"#{name}").region for name in ("board", "history", "evaluation", "symmetry")]
        assert panes and not any(
            region.contains_region(pane) for update in spy.updates[1:] for region in update for pane in panes
        )


def _styles_of(screen) -> list:
    """Each node's styles on ``screen`` as the stylesheet gave them, its component classes' too."""
    return [
        (
            node,
            node._css_styles.get_rules(),
            {name: styles._base_styles.get_rules() for name, styles in node._component_styles.items()},
        )
        for node in screen.walk_children(with_self=True)
    ]


@pytest.mark.parametrize(
    "size, theme, first_run",
    [
        ((80, 24), None, True),
        ((120, 40), "textual-light", False),
        ((200, 60), "ansi-dark", False),
        ((120, 29), None, False),  # no header
        ((50, 16), None, False),  # too small: the message alone
    ],
)
async def test_the_first_frame_is_laid_out_with_the_styles_textuals_restyle_of_every_node_gives(
    monkeypatch, size, theme, first_run
):
    """The first resume of the screen leaves out Textual's pass over every node's styles (the gate's PanesScreen):
    as the first frame is laid out, every node's styles and component classes are already what that pass makes."""
    from textual.screen import Screen

    from workbench.settings import Settings, save_settings
    from workbench.tui.textual_ext.compositor import PanesScreen

    build_and_cache_tables(TIC_TAC_TOE)
    if not first_run:
        save_settings(Settings(theme=theme))
    compared = []
    original = Screen._refresh_layout

    def refresh_layout(screen, size=None, scroll=False):
        if not compared and isinstance(screen, PanesScreen):
            laid_out = _styles_of(screen)
            screen.app.stylesheet.update(screen, animate=False)  # Textual's pass, at the first resume
            compared.append((laid_out, _styles_of(screen)))
        return original(screen, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", refresh_layout)
    app = _app()
    async with app.run_test(size=size) as pilot:
        await wait_ready(pilot, app)
        assert app.first_run is first_run and app.theme == (theme or "textual-dark")
    [(laid_out, restyled)] = compared
    assert len(laid_out) >= 3 and laid_out == restyled


async def test_the_screen_is_drawn_whole_again_when_a_dialog_over_it_closes(monkeypatch):
    """What the first screen drops (a second frame of the whole screen) a screen back from under a dialog needs:
    the dialog's cells are on the terminal until it is drawn."""
    spy = UpdateSpy(monkeypatch)
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is not app.screen_stack[0]
        spy.updates.clear()
        await pilot.press("escape")
        await pilot.pause(0.2)
        screen = app.screen.size.region
        assert any(update == ["full"] or screen in update for update in spy.updates), spy.updates


async def test_lines_added_within_the_tree_s_box_leave_its_empty_scrollbar_unpainted():
    """With no thumb before or after, the bar is an empty track: it is not drawn again (its numbers still
    follow, so the first line past the box brings the thumb)."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        tree = app.query_one(VariationTree)
        bar = tree.vertical_scrollbar
        painted = []
        original = bar.refresh
        bar.refresh = lambda *regions, **options: (painted.append(regions), original(*regions, **options))[1]
        for key in ("5", "1", "ctrl+z", "9"):
            await pilot.press(key)
            await pilot.pause()
        assert painted == [] and bar.window_virtual_size == 3 and tree.size.height > 3
        for key in ("3", "2", "8", "4", "6", "left", "7", "left", "1", "left", "left", "1"):  # variations: past its box
            await pilot.press(key)
            await pilot.pause()
        lines = len(tree.lines)
        assert bar.window_virtual_size == lines > tree.size.height and painted


@pytest.mark.parametrize("key", ["9", "ctrl+z"])
async def test_a_move_added_or_undone_repaints_only_the_tree_lines_that_changed(monkeypatch, key):
    """A new line at the foot of the tree (or one taken away) changes its number of lines; of the tree's
    rows only the line lit before, the new one (or the one gone) and the one lit after are drawn again."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        for move in "51" + ("9" if key == "ctrl+z" else ""):
            await pilot.press(move)
        await pilot.pause()
        tree = app.query_one(VariationTree)
        lines_before = len(tree.lines)
        assert tree.size.height > lines_before + 1  # room for the new line: no scrolling
        spy = UpdateSpy(monkeypatch)
        await pilot.press(key)
        await pilot.pause()
        rows = spy.rows_in(tree.content_region)  # the evaluation beside it changes too: its own rows are not the tree's
        last = lines_before - 1
        # 9: the old last line unlit, the new line lit; ctrl+z: the last line gone, the one above lit
        assert rows == ({last, last + 1} if key == "9" else {last - 1, last})
        assert len(tree.lines) == lines_before + (1 if key == "9" else -1)
        assert spy.layouts == 0


async def test_a_step_back_asks_the_tree_only_for_the_two_lines_it_repaints():
    """The compositor asks a widget for the rows it repaints, not for the rows down to the screen's foot."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9")
        await pilot.pause()
        tree = app.query_one(VariationTree)
        asked = []
        original = tree.render_lines
        tree.render_lines = lambda crop: (asked.append((crop.y, crop.height)), original(crop))[1]
        await pilot.press("left")  # the lit move goes from the third line to the second
        await pilot.pause()
        rows = {y for top, height in asked for y in range(top, top + height)}  # (the crop is the widget's own)
        assert rows == {2, 3}, asked  # the tree's rows: Start, 1. 5, 1… 1, 2. 9


async def test_unchanged_lines_of_a_view_are_not_repainted():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5")
        await pilot.pause()
        status = app.query_one(BoardStatus)
        refreshed = []
        original = status.refresh
        status.refresh = lambda *regions, **options: (refreshed.append(regions), original(*regions, **options))[1]
        await pilot.press("v")  # the overlay line changes; the side to move does not
        await pilot.pause()
        assert [[(region.y, region.height) for region in regions] for regions in refreshed] == [[(1, 1)]]
        assert text_of(status).splitlines()[1].startswith("ply 1 · showing values")


async def test_stepping_back_and_forth_reuses_the_lines_built_for_each_position():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        for move in "513":
            await pilot.press(move)
        await pilot.pause()
        views = [app.query_one(kind) for kind in (BoardGrid, EvaluationView, SymmetryView)]
        after_three = [view._strips for view in views]
        builds = []
        for view in views:
            view.build = lambda writer, view=view, built=type(view).build: (builds.append(view), built(view, writer))[1]
        await pilot.press("left", "right", "left", "right")  # positions drawn before
        await pilot.pause()
        assert builds == []
        assert all(now is before for now, before in zip((view._strips for view in views), after_three))
        await pilot.press("9")  # a position never drawn: each view builds it once
        await pilot.pause()
        assert sorted(type(view).__name__ for view in builds) == ["BoardGrid", "EvaluationView", "SymmetryView"]


async def test_a_reused_build_keeps_which_row_shows_which_move():
    """The moves table's rows are clickable: after a kept build is reused, a click still plays the row's move."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        for move in "51":
            await pilot.press(move)
        await pilot.press("left", "right")  # back to a position whose build is kept
        await pilot.pause()
        view = app.query_one(EvaluationView)
        row, cell = next(iter(view._row_cells.items()))
        assert re.search(rf"(^|\D){cell}\D", view.render_line(row).text)
        await pilot.click(EvaluationView, offset=(2, row))
        await pilot.pause()
        state = app.store.state
        assert state.tree.moves_to(state.cursor) == (5, 1, cell)


async def test_a_theme_change_drops_every_kept_build():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "left", "right")
        await pilot.pause()
        view = app.query_one(EvaluationView)
        assert len(view._builds) >= 2
        before = view.render_line(0)
        app.theme = "textual-light"
        await pilot.pause()
        await pilot.pause()
        assert view.render_line(0).text == before.text and view.render_line(0) != before  # same words, new colours
        assert len(view._builds) == 1


def test_runs_and_ellipsis():
    assert _runs([]) == []
    assert _runs([1, 2, 3, 7, 9, 10]) == [(1, 3), (7, 7), (9, 10)]
    assert ellipsis("accuracy X 67%", 20) == "accuracy X 67%"
    assert ellipsis("accuracy X 67%", 10) == "accuracy …"
    assert ellipsis("abc", 1) == "…" and ellipsis("abc", 0) == ""
    assert ellipsis("abc", 3) == "abc" and ellipsis("abcd", 3) == "ab…"  # a text as wide as the room is whole


# --- the terminal bench: real processes on a terminal of their own ------------------------------


@pytest.fixture
def bench_env(tmp_path, untraced_children):
    return terminal_bench.environment(str(tmp_path))


def test_the_bare_app_is_timed_to_its_settled_screen(bench_env):
    terminal = terminal_bench.start("bare", 60, 12, bench_env)
    try:
        assert "hello" in terminal.text() and "hello, again" not in terminal.text()
        terminal.send("v")
        flipped = terminal.settle()
        assert "hello, again" in terminal.text()
        terminal.send("v")
        back = terminal.settle()
        assert flipped != back
        latency, written = terminal_bench.time_key(terminal, "v", flipped)
        assert latency is not None and latency > 0 and written > 0
        assert "hello, again" in terminal.text()
    finally:
        terminal.close()
    assert terminal.process.poll() is not None  # closing ends the process


@pytest.mark.usefixtures("untraced_children")
def test_the_bench_times_a_variant_chosen_in_the_new_game_dialog_until_its_analysis_shows(monkeypatch):
    """The first analysis shown (the family issue's ≤ 100 ms on 4×4k4), on the misère 3×3, the dialog's second
    entry: a real app chooses it in its dialog, lit a while before Enter and at once, in every launch."""
    report = terminal_bench.run_terminal_bench(quick=True, game="3x3k3-misere", sizes=())
    first = report["first_analysis"]
    assert (first["size"], first["target_s"], first["lit_s"]) == ("120x40", 0.1, terminal_bench.LIT_BEFORE_ENTER_S)
    assert len(first["lit_s_values"]) == len(first["at_once_s_values"]) == report["launches"] == 2
    assert all(seconds > 0 for seconds in first["lit_s_values"] + first["at_once_s_values"])
    lines = terminal_bench.format_terminal_report(report)
    assert (
        lines[-3].startswith("first analysis shown: Enter on 3x3k3-misere in the new-game dialog")
        and "≤ 100 ms" in lines[-3]
    )
    assert lines[-2].lstrip().startswith("lit 0.25 s before Enter") and lines[-1].lstrip().startswith(
        "Enter as soon as it is lit"
    )
    assert "first_analysis" not in terminal_bench.run_terminal_bench(
        quick=True, game="2x7k4", sizes=()
    )  # not in the dialog's list


def test_a_screen_that_never_comes_is_a_failure_not_a_hang(bench_env, monkeypatch):
    monkeypatch.setattr(terminal_bench, "LIMIT_S", 1.0)
    terminal = terminal_bench.start("bare", 40, 8, bench_env)
    try:
        never = tuple(tuple() for _ in range(8))
        latency, written = terminal_bench.time_key(terminal, "v", never)
        assert latency is None and written > 0
    finally:
        terminal.close()


def test_a_key_is_settled_only_after_it_changed_the_screen(bench_env, monkeypatch):
    """The settled screen of a key is taken after the key's own output: a machine slow to answer would
    otherwise hand back the screen from before it (and every key timed to it would fail)."""
    terminal = terminal_bench.start("bare", 40, 8, bench_env)
    try:
        before = terminal.snapshot()
        read, quiet_spells = terminal.read, []

        def slow_read(quiet, limit):  # the app's answer comes only after a quiet spell as long as the settle's
            if not quiet_spells:
                quiet_spells.append(quiet)
                time.sleep(quiet)
                return []
            return read(quiet, limit)

        monkeypatch.setattr(terminal, "read", slow_read)
        after = terminal.press("v", quiet=0.2)
        assert quiet_spells and after != before and "hello, again" in terminal.text()
        assert terminal.settle(quiet=0.2) == after
        monkeypatch.setattr(terminal_bench, "LIMIT_S", 1.0)
        with pytest.raises(RuntimeError, match="'x' did not change the screen"):
            terminal.press("x", quiet=0.2)  # no binding: nothing changes, and that is an error, not a hang
    finally:
        terminal.close()


def test_an_app_that_draws_nothing_is_an_error_not_a_blank_settled_screen(bench_env, monkeypatch):
    monkeypatch.setattr(terminal_bench, "argv_of", lambda kind, game=None, study=None: [sys.executable, "-c", "pass"])
    with pytest.raises(RuntimeError, match="ours: no screen within 60 s"):
        terminal_bench.start("ours", 40, 8, bench_env)


def _time_alone(scenario, env, keys, game=None):
    """Our app alone on a terminal at 80x24, ``keys`` keys of ``scenario`` timed."""
    with terminal_bench.ScenarioRun("ours", scenario, 80, 24, env, game) as run:
        for index in range(keys):
            run.time_next(index)
    return run.timing


def test_each_scenario_of_ours_moves_between_two_different_screens(bench_env):
    """Every scenario runs on the real app (not a stand-in): each key is timed to a settled screen."""
    terminal_bench.start("ours", 80, 24, bench_env).close()  # the tables cache, as the bench does
    for scenario in terminal_bench.SCENARIOS:
        timing = _time_alone(scenario, bench_env, keys=2)
        assert timing.failures == 0 and len(timing.latencies) == 2, scenario.name
        assert all(written > 100 for written in timing.bytes_per_key), scenario.name


def test_the_bare_app_is_timed_beside_ours_key_for_key_in_turn(bench_env, monkeypatch):
    """Each scenario's ratio is over a bare app timed in the same minutes: the two take their keys in turn."""
    terminal_bench.start("ours", 80, 24, bench_env).close()  # the tables cache, as the bench does
    order, real = [], terminal_bench.time_key

    def noted(terminal, key, target):
        order.append((terminal.process.args[-1] == terminal_bench.BARE_APP, key))
        return real(terminal, key, target)

    monkeypatch.setattr(terminal_bench, "time_key", noted)
    scenario = terminal_bench.SCENARIOS[0]
    bare, ours = terminal_bench.run_side_by_side(scenario, 80, 24, bench_env, keys=3)
    assert order == [(is_bare, key) for key in ("left", "right", "left") for is_bare in (True, False)]
    assert len(bare.latencies) == len(ours.latencies) == 3 and bare.failures == ours.failures == 0
    assert bare.by_key == bare.latencies and ours.by_key == ours.latencies  # in the order timed: they pair up
    assert min(bare.bytes_per_key) > 0 and min(ours.bytes_per_key) > max(bare.bytes_per_key)  # ours draws more


def test_a_key_that_never_settles_keeps_its_place_among_the_keys(monkeypatch):
    """A failed key is None in ``by_key``, so the next key of each app still pairs with the other's."""
    run = terminal_bench.ScenarioRun.__new__(terminal_bench.ScenarioRun)
    run.scenario, run.terminal, run.targets, run.timing = (
        terminal_bench.SCENARIOS[0],
        None,
        [None, None],
        terminal_bench.Timing(),
    )
    outcomes = iter([(0.002, 900), (None, 0), (0.003, 950)])
    monkeypatch.setattr(terminal_bench, "time_key", lambda terminal, key, target: next(outcomes))
    for index in range(3):
        run.time_next(index)
    assert run.timing.by_key == [0.002, None, 0.003] and run.timing.latencies == [0.002, 0.003]
    assert run.timing.failures == 1 and run.timing.bytes_per_key == [900, 950]


def _keys(count, seed, low=0.002, high=0.004):
    chooser = random.Random(seed)
    return [chooser.uniform(low, high) for _ in range(count)]


@pytest.mark.parametrize("factor", [0.5, 1.0, 1.25])
def test_the_ratio_interval_of_an_app_a_fixed_factor_slower_is_that_factor(factor):
    bare = _keys(200, 1)
    low, high = key_timing.p95_ratio_interval(bare, [key * factor for key in bare])
    assert low == pytest.approx(factor) and high == pytest.approx(factor)


def test_the_ratio_interval_holds_the_ratio_and_narrows_with_more_keys():
    widths = []
    for count in (40, 400):
        bare, ours = _keys(count, 2), _keys(count, 3)
        ratio = key_timing.p95_of(ours) / key_timing.p95_of(bare)
        low, high = key_timing.p95_ratio_interval(bare, ours)
        assert low <= ratio <= high and low < high
        assert key_timing.p95_ratio_interval(bare, ours) == (low, high)  # seeded: the same run, the same interval
        narrower = key_timing.p95_ratio_interval(bare, ours, level=0.5)
        assert low <= narrower[0] <= narrower[1] <= high
        widths.append(high - low)
    assert widths[1] < widths[0]


def test_the_ratio_interval_pairs_keys_by_turn_and_leaves_failed_ones_out():
    bare = _keys(30, 4)
    ours = [key * 2 for key in bare]
    # a failure of either app takes its pair out; the pairs left are still each twice the bare app's key
    bare_failed, ours_failed = [None, *bare[1:]], [*ours[:5], None, *ours[6:]]
    low, high = key_timing.p95_ratio_interval(bare_failed, ours_failed)
    assert low == pytest.approx(2.0) and high == pytest.approx(2.0)
    # fewer than the smallest number of pairs: no interval (a p95 of ten keys is about their slowest)
    count = key_timing.MIN_PAIRS_FOR_INTERVAL
    assert key_timing.p95_ratio_interval(bare[: count - 1], ours[: count - 1]) is None
    assert key_timing.p95_ratio_interval(bare[:count], ours[:count]) is not None
    assert key_timing.p95_ratio_interval([None] * count, ours[:count]) is None


def test_the_terminal_bench_runs_the_app_on_another_variant(bench_env):
    """`workbench bench --game 3x4k3`: the app started on that board, its analysis made once untimed."""
    assert terminal_bench.argv_of("ours", "3x4k3")[-2:] == ["--game", "3x4k3"]
    assert "--game" not in terminal_bench.argv_of("ours") and "--game" not in terminal_bench.argv_of("bare", "3x4k3")
    terminal_bench.warm_variant("3x4k3", bench_env)
    terminal = terminal_bench.start("ours", 80, 24, bench_env, "3x4k3")
    try:
        assert "3×4 k3" in terminal.text() and "d1" in terminal.text()
    finally:
        terminal.close()
    timing = _time_alone(terminal_bench.SCENARIOS[1], bench_env, keys=2, game="3x4k3")
    assert timing.failures == 0 and len(timing.latencies) == 2


def test_the_terminal_bench_opens_15x15_on_a_game_of_thirty_moves(bench_env, tmp_path):
    """On Gomoku the app is timed with stones on the board: it opens a study of the bench's opening."""
    from workbench.engine import Geometry
    from workbench.state import load_study

    assert terminal_bench.opening_study("3x4k3", str(tmp_path)) is None
    path = terminal_bench.opening_study("15x15k5", str(tmp_path))
    study = load_study(path)
    assert study.geometry == Geometry(15, 15, 5) and study.position.ply == 30
    argv = terminal_bench.argv_of("ours", "15x15k5", path)
    assert argv[-2:] == ["open", path]
    # its first frame, not the settled screen start() waits for: the search's go runs 30 s first (CI's time)
    terminal = terminal_bench.Terminal(argv, 80, 24, bench_env, terminal_bench.ticking_of("ours", "15x15k5"))
    try:
        assert terminal.wait_for(lambda: "15×15 k5" in terminal.text() and "ply 30" in terminal.text(), 60.0, 0.2)
    finally:
        terminal.close()


def test_first_paint_ends_at_the_settled_first_screen(bench_env):
    assert 0 < terminal_bench.first_paint("bare", 60, 12, bench_env) < terminal_bench.SETTLE_S + 60


def test_the_terminal_report_names_every_size_scenario_and_ratio():
    figures = {
        "median_s": 0.01,
        "p95_s": 0.02,
        "max_s": 0.03,
        "bytes_per_key": 1000,
        "failures": 0,
        "p95_ratio": 2.0,
        "bare_p95_s": 0.01,
        "bare_median_s": 0.005,
    }
    report = {
        "keys_per_scenario": 10,
        "launches": 2,
        "quiet_s": 0.25,
        "target_ratio": 2.0,
        "target_first_paint_ratio": 1.5,
        "sizes": {
            "80x24": {
                "first_paint_bare_s": 0.5,
                "first_paint_s": 0.6,
                "first_paint_ratio": 1.2,
                "bare": {**figures, "p95_s": 0.01},
                "scenarios": {s.name: dict(figures) for s in terminal_bench.SCENARIOS},
            }
        },
    }
    report["sizes"]["80x24"]["scenarios"]["values overlay"]["failures"] = 3
    lines = terminal_bench.format_terminal_report(report)
    assert lines[0].startswith("keypress to settled screen, in a terminal, 3x3k3 (10 keys")
    assert "80x24 bare Textual app     p95   10.0 ms" in lines[1] and "first paint   500 ms" in lines[1]
    assert all(scenario.name in line for scenario, line in zip(terminal_bench.SCENARIOS, lines[2:6], strict=True))
    assert "3 never settled" in lines[4] and "never settled" not in lines[3]
    assert "2.00× the bare app's p95 beside it, 10.0 ms" in lines[2]
    assert lines[-1].endswith("1.20× the bare app")
    assert not any("resamples" in line for line in lines)  # a report without intervals (--quick, or saved before)
    report["sizes"]["80x24"]["scenarios"]["play a move"]["p95_ratio_interval"] = [1.8, 2.25]
    lines = terminal_bench.format_terminal_report(report)
    assert "middle 90% of 1000 resamples of the keys" in lines[1]
    assert "2.00× (1.80–2.25) the bare app's p95 beside it, 10.0 ms" in lines[4]
    assert "2.00× the bare app's p95 beside it, 10.0 ms" in lines[3]  # a scenario without one has no brackets


async def test_the_footer_follows_the_keys_of_the_focused_pane_and_is_redrawn_only_when_they_change(monkeypatch):
    from workbench.tui.panes.bars import KeysFooter

    redraws = []
    original = KeysFooter.refresh
    monkeypatch.setattr(
        KeysFooter, "refresh", lambda footer, *a, **k: (redraws.append(footer), original(footer, *a, **k))[1]
    )
    app = _app()
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_ready(pilot, app)
        footer = app.query_one(KeysFooter)

        def shown() -> set[str]:
            return {key.description for key in footer.keys}

        assert {"Quit", "Values", "Back", "Forward"} <= shown() and "Promote" not in shown()
        assert "^q Quit" in text_of(footer)  # the keys were there from the first paint
        redraws.clear()
        await pilot.press("tab")  # the history tree has keys of its own
        await pilot.pause()
        assert {"Promote", "To main line", "Delete", "Quit"} <= shown() and "p Promote" in text_of(footer)
        assert len(redraws) == 1
        await pilot.press("tab")  # the evaluation pane shows none of its own: back to the app's keys
        await pilot.pause()
        assert "Promote" not in shown() and "Quit" in shown() and "Promote" not in text_of(footer)
        assert len(redraws) == 2
        app.screen.refresh_bindings()  # asked again with nothing changed: no redraw
        await pilot.pause()
        assert len(redraws) == 2


async def test_the_first_move_marks_the_study_unsaved_in_the_title_without_a_layout(monkeypatch):
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        spy = UpdateSpy(monkeypatch)
        await pilot.press("5")
        await pilot.pause()
        assert app.sub_title == "classic · untitled study •"
        from workbench.tui.textual_ext.header import FixedTitle

        assert "workbench — classic · untitled study •" in str(app.query_one(FixedTitle).render())
        assert spy.layouts == 0


def _drawn(tree: VariationTree) -> list:
    """What the tree shows, line by line, as strips: guides, labels, marks and their colours."""
    return [tree._strip(y) for y in range(len(tree.lines))]


def _forget(tree: VariationTree) -> None:
    """Drop everything the tree keeps between states: its next state is drawn from scratch."""
    tree._shown, tree._laid_out, tree._keys, tree._labels, tree._marks = (None, False), (None, frozenset()), [], {}, {}
    tree._strips.clear()
    tree._kept_labels.clear()


async def test_an_undone_and_redone_move_is_not_labelled_again(monkeypatch):
    """Undo brings back the very tree shown before, and redo the one after: their labels are kept, not made anew.
    Labels are kept per tree and per whether the tables are ready (they bring marks and ≈ twins)."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9")
        await pilot.pause()
        tree = app.query_one(VariationTree)
        drawn = _drawn(tree)
        labelled: list[int] = []
        real_label = VariationTree._label
        monkeypatch.setattr(
            VariationTree, "_label", lambda self, *args: (labelled.append(1), real_label(self, *args))[1]
        )
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert app.store.state.position.ply == 2 and labelled == []
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert app.store.state.position.ply == 3 and labelled == [] and _drawn(tree) == drawn
        await pilot.press("3")  # a new tree
        await pilot.pause()
        assert labelled
        drawn = _drawn(tree)
        labelled.clear()
        tree.ready = False  # no tables: no marks, ≡ twins only
        assert len(labelled) == len(tree.lines)
        tree.ready = True  # this tree with the tables was labelled before
        assert len(labelled) == len(tree.lines) and _drawn(tree) == drawn


@pytest.mark.parametrize("seed", range(6))
async def test_the_tree_draws_from_its_kept_lines_what_a_tree_drawn_from_scratch_draws(seed):
    """The tree keeps its layout, labels, marks and drawn lines between states; after random moves, undos,
    jumps, deletions, promotions and comments, with twin marks coming and going, it shows exactly what a
    tree that kept nothing shows, and lights the board's node."""
    import random

    from textual.app import App

    from workbench.state import AppState, reduce
    from workbench.state.actions import (
        Back,
        DeleteVariation,
        JumpTo,
        PlayCell,
        PromoteToMainLine,
        PromoteVariation,
        SetComment,
    )

    class Trees(App):
        CSS = "VariationTree > .history--current { background: red; }"

        def compose(self):
            yield VariationTree(id="kept")
            yield VariationTree(id="rebuilt")

    rng = random.Random(seed)
    app = Trees()
    async with app.run_test(size=(60, 80)) as pilot:
        kept, rebuilt = app.query_one("#kept", VariationTree), app.query_one("#rebuilt", VariationTree)
        for tree in (kept, rebuilt):
            tree.ready = seed % 2 == 1  # with the tables: annotations and ≈; without: ≡ only
        history = [AppState()]
        for _ in range(60):
            state = history[-1]
            roll = rng.random()
            if roll < 0.2 and len(history) > 1:
                history.pop()  # an undo: the state before, its tree the very object it was
                state = history[-1]
            else:
                position = state.tree.position(state.cursor)
                if roll < 0.6 and position.legal_moves():
                    action = PlayCell(cell=rng.choice(position.legal_moves()))
                elif roll < 0.7:
                    action = Back()
                elif roll < 0.8:
                    action = JumpTo(node=rng.choice(list(state.tree.nodes)))
                else:
                    action = rng.choice(
                        [
                            DeleteVariation(),
                            PromoteVariation(),
                            PromoteToMainLine(),
                            SetComment(node=state.cursor, text=rng.choice(["", "idea"])),
                        ]
                    )
                state = reduce(state, action)
                history.append(state)
            kept.state = state
            rebuilt.state = None  # an equal state would not reach its watcher
            _forget(rebuilt)
            rebuilt.state = state
            await pilot.pause()
            assert _drawn(kept) == _drawn(rebuilt)
            lit = kept.line_of(state.cursor)
            assert lit is not None and kept.lines[lit].node == state.cursor
            lit_colour = kept.part("history--current").bgcolor
            assert [
                line for line in range(len(kept.lines)) if any(s.style.bgcolor == lit_colour for s in kept._strip(line))
            ] == [lit]


@pytest.mark.parametrize("theme, no_color", [("textual-dark", False), ("textual-light", False), ("textual-dark", True)])
async def test_the_views_draw_their_kept_lines_exactly_as_textuals_own_path_draws_them(monkeypatch, theme, no_color):
    """A view whose box adds nothing hands its kept lines to the compositor itself: every line of every
    view, in every overlay, equals what Textual's own rendering (styles, the app's filters such as
    NO_COLOR's, crop) makes of them."""
    from textual.geometry import Region
    from textual.widget import Widget

    from workbench.tui.panes.lines import LinesView, box_adds_nothing

    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        app.theme = theme
        compared = 0
        for keys in ((), ("5", "1", "9"), ("v",), ("m",), ("left",)):
            await pilot.press(*keys)
            await pilot.pause()
            for view in [*app.query(LinesView), app.query_one(VariationTree)]:
                width, height = view.size
                assert box_adds_nothing(view)
                top = 1 if height > 1 else 0
                for crop in (Region(0, 0, width, height), Region(2, top, width - 3, height - top)):
                    view._styles_cache.clear()
                    assert view.render_lines(crop) == Widget.render_lines(view, crop), type(view).__name__
                    compared += 1
        assert compared >= 50
        view = app.query_one(BoardStatus)
        view.styles.padding = (0, 1)  # a box that draws something: Textual's own path
        await pilot.pause()
        assert not box_adds_nothing(view)


@pytest.mark.parametrize("change", ["inline background", "inline opacity", "a class of the CSS", "theme"])
async def test_what_a_view_keeps_of_its_box_follows_every_change_of_its_ancestors_styles(change):
    """A view keeps whether its box adds nothing and the background its lines are filtered over (both read every
    ancestor's styles) until its styles are worked out again or it is refreshed whole. Each way an ancestor's
    background or opacity changes reaches it: after each, what it keeps is what it would read afresh, and its
    lines are Textual's own."""
    from textual.geometry import Region
    from textual.widget import Widget

    from workbench.tui.panes.lines import LinesView, box_adds_nothing

    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1")
        await pilot.pause()
        views = [*app.query(LinesView), app.query_one(VariationTree)]
        for view in views:
            view.render_lines(Region(0, 0, *view.size))  # what each keeps, before the change
        before = {view: view.box_look() for view in views}
        ancestor = app.query_one(BoardStatus).parent
        assert ancestor is not None
        if change == "inline background":
            app.screen.styles.background = "darkred"
            ancestor.styles.background = "blue 50%"
        elif change == "inline opacity":
            ancestor.styles.opacity = 0.5
        elif change == "a class of the CSS":
            app.stylesheet.add_source(".tinted-for-test { background: green 40%; }", read_from=("test", ""))
            app.stylesheet.reparse()
            app.stylesheet.update(app)
            ancestor.add_class("tinted-for-test")
        else:
            app.theme = "textual-light"
        await pilot.pause()
        changed = 0
        for view in views:
            kept = view.box_look()
            assert kept == (box_adds_nothing(view), view.background_colors[1]), type(view).__name__
            changed += kept != before[view]
            crop = Region(0, 0, *view.size)
            view._styles_cache.clear()
            assert view.render_lines(crop) == Widget.render_lines(view, crop), type(view).__name__
        assert changed  # the change reached some view: the test tests something


async def test_a_kept_scrollbar_asked_for_rows_it_no_longer_has_draws_textuals_rows():
    """A tab resized by its browser and a key drawn before the layout: the compositor asked a bar for the rows of
    its size before (the served app crashed with an IndexError, one run in five of the bad-messages test)."""
    from textual.geometry import Region

    from workbench.tui.textual_ext.scrollbars import KeptScrollBar

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9", "3", "7", "4")
        await pilot.pause()
        bar = app.query_one(VariationTree).vertical_scrollbar
        assert isinstance(bar, KeptScrollBar)
        taller = Region(0, 0, bar.size.width, bar.size.height + 3)
        drawn = bar.render_lines(taller)
        bar._styles_cache.clear()
        assert len(drawn) == taller.height and drawn == Widget.render_lines(bar, taller)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "ansi-dark"])
async def test_a_kept_scrollbar_draws_exactly_what_textuals_scrollbar_draws(theme):
    """Each place of the thumb, plain and under the mouse, in a tree taller than its box at 80×24; the history's
    tree and the panes scroll with it."""
    from textual.geometry import Region

    from workbench.tui.panes.lines import ViewPane
    from workbench.tui.textual_ext.scrollbars import KeptScrollBar

    app = _app()
    if theme not in app.available_themes:  # (Textual 8.0 has no ANSI themes: tests/versions.py runs it there)
        pytest.skip(f"this Textual has no theme {theme!r}")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        app.theme = theme
        await pilot.press("5", "1", "9", "3", "7", "4")
        await pilot.pause()
        tree = app.query_one(VariationTree)
        bar = tree.vertical_scrollbar
        assert isinstance(bar, KeptScrollBar) and tree.show_vertical_scrollbar
        assert all(isinstance(pane.vertical_scrollbar, KeptScrollBar) for pane in app.query(ViewPane))
        drawings = set()
        for hovered in (False, True):
            bar.mouse_over = hovered
            for y in range(tree.max_scroll_y + 1):
                tree.scroll_to(y=y, animate=False, immediate=True)
                await pilot.pause()
                crop = Region(0, 0, *bar.size)
                for _ in range(2):  # made, then kept
                    kept = bar.render_lines(crop)
                    bar._styles_cache.clear()
                    assert kept == Widget.render_lines(bar, crop)
                    assert [list(strip) for strip in kept] == [list(strip) for strip in Widget.render_lines(bar, crop)]
                drawings.add(tuple(tuple(strip) for strip in kept))
        assert len(drawings) >= 4  # the thumb moved, and the hover changed its colour


def compare_with_textuals_updates(
    monkeypatch, width: int, height: int, sizes: list[tuple[int, int]] | None = None
) -> list[bool]:
    """From now on, each partial update of the app's compositor is also rendered by Textual's own compositor from
    the same changed regions, and each is written to a terminal of its own, update after update (the app's
    compositor writes only the cells that differ from what its earlier frames left there): one entry an update,
    True where the two terminals then show the same cells (characters and looks), whatever look each held
    before the update, ours written in fewer bytes than Textual's. ``sizes``, if given, gets each compared update's
    bytes as written to the terminal: (ours, Textual's)."""
    from rich.console import Console

    from workbench.tui.textual_ext.compositor import ChangedRegionsCompositor, QuickChopsUpdate

    from .terminal_model import TerminalModel

    console = Console(width=width, height=height, color_system="truecolor", force_terminal=True)
    compared: list[bool] = []
    ours = ChangedRegionsCompositor.render_partial_update
    terminals = {"ours": TerminalModel(width, height), "textuals": TerminalModel(width, height)}

    def both(compositor):
        regions = set(compositor._dirty_regions)
        textuals = Compositor.render_partial_update(compositor)
        compositor._dirty_regions.update(regions)
        update = ours(compositor)
        if textuals is not None or update is not None:
            if not (isinstance(update, QuickChopsUpdate) and textuals is not None):
                compared.append(False)
                return update
            written = {"ours": update.render_segments(console), "textuals": textuals.render_segments(console)}
            if sizes is not None:
                sizes.append((len(written["ours"].encode()), len(written["textuals"].encode())))
            terminals["ours"].feed("\x1b[1;7;38;5;3;48;5;4m")  # a look left behind: our frame must not rely on it
            for name, output in written.items():
                terminals[name].feed(output)
            compared.append(
                len(written["ours"]) < len(written["textuals"])
                and terminals["ours"].screen() == terminals["textuals"].screen()
            )
        return update

    monkeypatch.setattr(ChangedRegionsCompositor, "render_partial_update", both)
    return compared


def draws_the_same(ours: str, textuals: str, width: int, height: int) -> bool:
    """Whether ``ours`` draws Textual's cells, on a terminal left in another look, in fewer bytes."""
    from .terminal_model import screen_of

    left_behind = "\x1b[1;7;38;5;3;48;5;4m"
    return len(ours) < len(textuals) and screen_of(ours, width, height, before=left_behind) == screen_of(
        textuals, width, height
    )


async def test_a_partial_update_from_the_changed_regions_writes_what_textuals_own_would(monkeypatch):
    """The main screen's compositor asks only the widgets and rows that changed regions meet: for every
    update of a game played, stepped through, overlaid and branched, it draws on the terminal exactly
    what Textual's compositor draws for the same changed regions (in fewer bytes: styles written as changes)."""
    from workbench.tui.textual_ext.compositor import ChangedRegionsCompositor

    compared = compare_with_textuals_updates(monkeypatch, 120, 40)
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        assert type(app.screen._compositor) is ChangedRegionsCompositor
        for key in ("5", "1", "9", "left", "left", "v", "3", "up", "down", "m", "ctrl+z", "tab", "right", "7"):
            await pilot.press(key)
            await pilot.pause()
        assert len(compared) >= 14 and all(compared)


@pytest.mark.parametrize(
    ("size", "theme"), [((80, 24), "textual-dark"), ((120, 40), "textual-light"), ((200, 60), "nord")]
)
async def test_a_full_update_from_the_front_writes_what_textuals_own_would(monkeypatch, size, theme):
    """The first frame, a resize, a theme: the app's compositor leaves a container the widgets in front of it
    cover out of a full update, and draws exactly what Textual's compositor draws (in fewer bytes), in every state
    of a game played, overlaid, branched and maximised."""
    from rich.console import Console

    from workbench.tui.textual_ext.compositor import ChangedRegionsCompositor

    console = Console(width=size[0], height=size[1], color_system="truecolor", force_terminal=True)
    compared: list[bool] = []
    ours = ChangedRegionsCompositor.render_full_update

    def both(compositor, simplify=False):
        update = ours(compositor, simplify)
        compared.append(
            draws_the_same(
                update.render_segments(console),
                Compositor.render_full_update(compositor).render_segments(console),
                *size,
            )
        )
        return update

    monkeypatch.setattr(ChangedRegionsCompositor, "render_full_update", both)
    app = _app()
    async with app.run_test(size=size) as pilot:
        await wait_ready(pilot, app)
        app.theme = theme
        for key in ("5", "1", "9", "v", "3", "m", "tab", "ctrl+z"):
            await pilot.press(key)
            await pilot.pause()
            compared.append(
                draws_the_same(
                    ours(app.screen._compositor).render_segments(console),
                    Compositor.render_full_update(app.screen._compositor).render_segments(console),
                    *size,
                )
            )
        await pilot.resize_terminal(size[0] - 7, size[1] - 3)  # a full update of Textual's own making
        await pilot.pause()
        assert len(compared) >= 10 and all(compared)


async def test_a_step_lays_nothing_out_when_a_view_it_refreshes_is_clipped_out_of_a_small_pane(monkeypatch):
    """On 15×15 at 80×24 the history pane has one row for its tree: the value strip under it has none, and each
    step refreshes it. Textual takes a widget it does not see for a new one and lays every widget out again at
    the next lookup of a region (2-3 ms a key there); the app's compositor knows it from the full map. What it
    writes is still what Textual's own compositor writes."""
    from workbench.engine.geometry import parse_variant

    from .test_tui_variants import no_search

    no_search(monkeypatch)
    compared = compare_with_textuals_updates(monkeypatch, 80, 24)
    arranged = []
    arrange_root = Compositor._arrange_root
    monkeypatch.setattr(
        Compositor, "_arrange_root", lambda self, *a, **k: arranged.append(1) or arrange_root(self, *a, **k)
    )
    state = game_state(parse_variant("15x15k5"), GOMOKU_OPENING)
    app = WorkbenchApp(state, db=tempfile.mkdtemp() + "/library.sqlite3")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.pause()
        strip = app.query_one("#value-strip")
        assert strip.is_mounted and strip not in app.screen._compositor.visible_widgets
        arranged.clear()
        refreshed = []
        monkeypatch.setattr(
            type(strip), "refresh", lambda self, *a, **k: refreshed.append(1) or Widget.refresh(self, *a, **k)
        )
        for key in ("left", "right", "left", "left", "right"):
            await pilot.press(key)
            await pilot.pause()
        assert refreshed, "the value strip was refreshed"
        assert arranged == []
        assert len(compared) >= 5 and all(compared)


def test_an_app_on_the_bench_terminal_ends_when_that_terminal_closes(tmp_path):
    """The bench's pty is its app's controlling terminal, as in a terminal emulator: closing it hangs the app
    up, so a bench that dies cannot leave an app spinning on a closed terminal."""
    import os
    import subprocess

    from tests.tui_helpers import HANG_GUARD_SECONDS

    terminal = terminal_bench.start("bare", 80, 24, terminal_bench.environment(str(tmp_path)))
    assert terminal.process.poll() is None
    os.close(terminal.master)
    try:
        terminal.process.wait(HANG_GUARD_SECONDS)
    except subprocess.TimeoutExpired:
        terminal.process.kill()
        pytest.fail("the app outlived its terminal")


@given(
    st.lists(st.integers(1, 79), unique=True).map(sorted), st.lists(st.tuples(st.integers(0, 79), st.integers(1, 40)))
)
def test_the_chops_a_span_meets_are_found_as_a_scan_of_every_chop_finds_them(inner_cuts, spans):
    cuts = [0, *inner_cuts, 80]
    spans = [(x1, min(80, x1 + width)) for x1, width in spans]
    scanned = [cut for cut, end in zip(cuts, cuts[1:]) if any(cut < x2 and end > x1 for x1, x2 in spans)]
    assert _chops_meeting(cuts, spans) == scanned


def test_on_a_searched_board_the_bench_leaves_out_only_what_the_search_changes():
    """The board's cells and the masks read off the lines are compared; the search's progress, the values it
    proves and the scrollbar of the growing table are not (they change on their own)."""
    pattern = terminal_bench.TICKING
    assert terminal_bench.ticking_of("ours", "15x15k5") is pattern
    assert terminal_bench.ticking_of("ours", "4x4k4") is None and terminal_bench.ticking_of("bare", "15x15k5") is None

    def kept(line: str) -> str:
        for match in pattern.finditer(line):
            line = line[: match.start()] + "~" * (match.end() - match.start()) + line[match.end() :]
        return line

    assert (
        kept("│      12 ··O··OO········      ││ X to move: not proven yet   │")
        == "│      12 ··O··OO········      ││ X ~~~~~~~~~~~~~~~~~~~~~~~~~~│"
    )
    assert (
        kept("│ X to move: ? (searching, 6/… ││ searching · 7,872 nodes · 6/195 proven · s…  │")
        == "│ X " + "~" * 27 + "││ " + "~" * 45 + "│"
    )
    assert (
        kept("│       4 ···X···········      ││   ★e9     win       3          │")
        == "│       4 ···X···········      ││   ~~~~~~~~~~~~~~~~~~~          │"
    )
    for constant in (
        "│ fork   e9                  │",
        "│ win    —                    │",
        "│ ply 30 · v values, m masks   │",
    ):
        assert kept(constant) == constant
    assert kept("│ fork   e9                ▁ │") == "│ fork   e9                ~ │"


@given(
    st.lists(st.tuples(st.text("ab★界 ", max_size=8), st.sampled_from([None, "bold", "blue on white"])), max_size=6),
    st.integers(0, 30),
    st.integers(0, 12),
)
def test_a_view_s_line_is_fitted_to_its_width_exactly_as_textual_fits_it(runs, width, start):
    """A built line over the view's style, from a column on (the tree scrolled sideways), padded or cut to its
    width, wide characters included: the cells of the strip Textual's ``crop_extend`` makes, made once, and each
    run of one style a single segment (each segment costs the terminal its colour codes)."""
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    from workbench.tui.panes.lines import fitted_strip

    base = Style(color="red", bgcolor="black")
    segments = [Segment(text, None if style is None else Style.parse(style)) for text, style in runs]
    fitted = fitted_strip(segments, base, width, start)
    textuals = Strip(Segment.apply_style(segments, base)).crop_extend(start, start + width, base)

    def cells(strip):
        return [(char, style) for text, style, _ in strip for char in text]

    assert cells(fitted) == cells(textuals)
    assert fitted.cell_length == width == sum(segment.cell_length for segment in fitted)
    assert all(before.style != after.style for before, after in zip(list(fitted), list(fitted)[1:]))


async def test_what_a_key_changes_is_drawn_without_waiting_for_the_update_timer(monkeypatch):
    """Textual draws on the ticks of a 60 fps timer; after another frame (a search's report) a key waited up to
    16 ms for the next one. With that timer held back, a key's change is drawn all the same, at once; a change
    that no input made keeps Textual's pace, and is drawn at the timer's tick."""
    from textual.screen import Screen

    from workbench.state.actions import SetOverlay

    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.pause()
        screen = app.screen
        drawn = []
        real_refresh = Screen._compositor_refresh
        monkeypatch.setattr(Screen, "_compositor_refresh", lambda self: (drawn.append(self), real_refresh(self))[1])
        monkeypatch.setattr(type(screen._update_timer), "resume", lambda timer: None)  # a tick that never comes
        # (the pilot's pause draws a frame itself, as the timer's tick: waited for here without it)
        await pilot.press("5")
        for _ in range(200):
            if drawn:
                break
            await asyncio.sleep(0.01)
        assert drawn == [screen] and "ply 1" in text_of(app.query_one(BoardStatus))
        app.store.dispatch(SetOverlay(overlay="values"))  # no input made it
        await asyncio.sleep(0.3)
        assert drawn == [screen]  # held for the tick
        screen._on_timer_update()
        assert drawn == [screen, screen]
        assert "showing values" in text_of(app.query_one(BoardStatus))
