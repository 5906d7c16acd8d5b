"""Boards searched move by move, in the app. A running search's reports reach the panes without holding up the
keys: a burst read at once is drawn once, reports closer than DRAW_GAP wait for the gap (the newest only), an end
is drawn at once, and a report that changes only the node count builds again only what shows it. Then what the
panes draw of such boards (the history's accuracy line, the symmetry images, the moves table's width)."""

import os
import pickle
import re
import signal
import tempfile
from types import SimpleNamespace

import pytest
from hypothesis import given, strategies as st

from workbench.engine import Geometry, Position, Value
from workbench.engine.search import MoveResult, SearchResult
from workbench.search_service import SearchReport, SearchRequest
from workbench.state import Store
from workbench.state.actions import NewGame, PlayCell, SearchFound, SetOverlay
from workbench.tui.app import WorkbenchApp
from workbench.tui.features import searching
from workbench.tui.features.searching import PositionSearch, latest_reports
from workbench.tui.panes.board import BoardGrid, BoardStatus
from workbench.tui.panes.evaluation import EvaluationView

from .test_tui_variants import no_search
from .tui_helpers import text_of, until, wait_ready

GOMOKU = Geometry(15, 15, 5)
CENTRE = Position.empty(GOMOKU).play(113)
ELSEWHERE = CENTRE.play(98)


def _found(
    position: Position, proven: dict[int, tuple[Value, int]], nodes: int, complete: bool = False
) -> SearchResult:
    moves = tuple(
        MoveResult(cell, *proven[cell], 7) if cell in proven else MoveResult(cell, None, None, 0)
        for cell in position.legal_moves()
    )
    return SearchResult(position, moves, nodes, complete)


def _report(position: Position, proven: dict, nodes: int, ended: str | None = None) -> SearchReport:
    return SearchReport(_found(position, proven, nodes), running=ended is None, ended=ended)


def test_of_reports_read_at_once_each_position_s_newest_and_every_end_are_kept_in_order():
    first, second, third = (_report(CENTRE, {}, nodes) for nodes in (10, 20, 30))
    ended = _report(CENTRE, {}, 40, ended="stopped")
    other = _report(ELSEWHERE, {}, 5)
    assert latest_reports([first, second, third]) == [third]
    assert latest_reports([first, ended, other]) == [ended, other]  # the end is kept, what it ended is not
    assert latest_reports([first, other, second]) == [other, second]
    assert latest_reports([ended, first]) == [ended, first]  # a new go after the end: both say something
    assert latest_reports([]) == []


class _Host(PositionSearch):
    """The search mixin with a store and a clock of its own: a timer fires only when the test says."""

    def __init__(self) -> None:
        self.store = Store()
        self.store.dispatch(NewGame(geometry=GOMOKU))
        self.timers: list = []
        self.stays: list = []
        """The timers of :data:`~searching.SEARCH_AFTER`: a search once the position has stayed."""
        self.sent: list = []
        self.quiets: list = []
        """The delays of the timers that end a hold of the search for the user's input."""
        self._init_search()

    def _send_to_search(self, request) -> None:
        self.sent.append(request)

    def set_timer(self, delay, callback):
        if delay <= searching.INPUT_QUIET and callback == self._input_quiet:
            self.quiets.append(delay)
            quiets = self.quiets

            class Quiet:
                def stop(self) -> None:
                    quiets.append("stopped")

            return Quiet()
        if delay == searching.SEARCH_AFTER:
            stays = self.stays

            class Stay:
                def stop(self) -> None:
                    stays.remove(callback)

            stays.append(callback)
            return Stay()
        assert delay == searching.DRAW_GAP
        host = self

        class Timer:
            def stop(self) -> None:
                host.timers.remove(callback)

        self.timers.append(callback)
        return Timer()

    def fire(self) -> None:
        self.timers.pop(0)()

    def shown(self) -> SearchResult | None:
        return self.store.state.search_of(CENTRE)


def test_reports_closer_than_the_gap_wait_for_it_and_only_the_newest_is_drawn():
    host = _Host()
    host._reports_read([_report(CENTRE, {}, 10)])
    assert host.shown().nodes == 10 and host.store.state.searching == CENTRE  # the first at once
    host._reports_read([_report(CENTRE, {}, 20)])
    host._reports_read([_report(CENTRE, {99: (Value.LOSS, 3)}, 30)])
    assert host.shown().nodes == 10  # within the gap: held
    host.fire()
    assert host.shown().nodes == 30 and host.store.state.proven_in(CENTRE) == ((99, Value.LOSS, 3),)  # the newest, once
    assert len(host.timers) == 1  # a new gap from that draw
    host.fire()
    assert host.shown().nodes == 30 and host.timers == []  # nothing held: nothing drawn, no gap


def test_the_end_of_a_search_is_drawn_at_once_and_drops_what_was_held():
    host = _Host()
    host._reports_read([_report(CENTRE, {}, 10)])
    host._reports_read([_report(CENTRE, {}, 20)])  # held
    host._reports_read([_report(CENTRE, {}, 25, ended="time")])
    assert host.shown().nodes == 25 and host.store.state.searching is None
    assert CENTRE in host._searched_enough
    host.fire()  # the gap of the first draw ends: the held report is older than the end, never drawn
    assert host.shown().nodes == 25 and host.store.state.searching is None


def test_a_position_stepped_through_is_not_searched_and_the_one_stayed_on_is():
    host = _Host()
    host.store.dispatch(PlayCell(cell=113))
    host._position_changed()
    host.store.dispatch(PlayCell(cell=98))
    host._position_changed()  # within SEARCH_AFTER of the first: its wait ends unsearched
    assert host.sent == [] and len(host.stays) == 1
    host.stays.pop()()
    assert [request.position for request in host.sent] == [ELSEWHERE]


def test_the_search_of_the_position_left_stops_at_once_and_its_return_is_searched_again():
    host = _Host()
    host.store.dispatch(PlayCell(cell=113))
    host._search_pipe = object()  # a search process runs (what is sent to it is recorded)
    host._reports_read([_report(CENTRE, {}, 10)])  # CENTRE is being searched
    host.store.dispatch(PlayCell(cell=98))
    host._position_changed()
    assert host.sent == [None]  # stopped before the new position's wait is over
    host._reports_read([_report(CENTRE, {99: (Value.LOSS, 3)}, 20, ended="stopped")])
    host.store.undo()
    host._position_changed()
    host.stays.pop()()
    request = host.sent[-1]
    assert request.position == CENTRE and request.nodes == 20  # on from what it had proved


def test_the_search_is_held_while_keys_come_and_goes_on_once_they_have_been_quiet(monkeypatch):
    host = _Host()
    signals: list[tuple[int, int]] = []
    now = [100.0]
    monkeypatch.setattr(searching.os, "kill", lambda pid, number: signals.append((pid, number)))
    monkeypatch.setattr(searching.time, "monotonic", lambda: now[0])
    host._hold_search_for_input()
    assert signals == [] and host.quiets == []  # no search process yet: nothing to hold
    host._search_process = SimpleNamespace(pid=4242)
    host._hold_search_for_input()
    assert signals == [] and host.quiets == []  # not ready: its end is not yet tied to the app's
    host._search_ready = True
    host._hold_search_for_input()
    assert signals == [(4242, signal.SIGSTOP)] and host.quiets == [searching.INPUT_QUIET]
    now[0] += 0.3
    host._hold_search_for_input()  # held already: the same hold, from this key on
    assert signals == [(4242, signal.SIGSTOP)] and len(host.quiets) == 1
    now[0] += 0.2
    host._input_quiet()  # the first key's spell is over, not the second's
    assert signals == [(4242, signal.SIGSTOP)] and host.quiets[-1] == pytest.approx(0.3)
    now[0] += 0.3
    host._input_quiet()
    assert signals == [(4242, signal.SIGSTOP), (4242, signal.SIGCONT)] and host._search_held is None
    host._hold_search_for_input()  # a new spell of keys
    assert signals[-1] == (4242, signal.SIGSTOP)


def test_a_held_search_goes_on_before_its_report_is_read(monkeypatch):
    """Stopped partway through a report, the process would leave the app's recv() waiting for ever: a report
    coming in ends the hold first."""
    host = _Host()
    signals: list[int] = []
    monkeypatch.setattr(searching.os, "kill", lambda pid, number: signals.append(number))
    host._search_process = SimpleNamespace(pid=4242)
    host._search_ready = True
    host._hold_search_for_input()
    reads: list[list[int]] = []

    class Pipe:
        def poll(self) -> bool:
            reads.append(list(signals))
            return False

    host._search_pipe = Pipe()
    host._read_search_reports()
    assert reads == [[signal.SIGSTOP, signal.SIGCONT]] and host._search_held is None
    assert host.quiets == [searching.INPUT_QUIET, "stopped"]


def test_the_search_process_s_word_that_it_is_ready_lets_it_be_held_and_is_no_report():
    from workbench.search_service import READY

    host = _Host()
    host._search_process = SimpleNamespace(pid=4242)
    messages = [READY, _report(CENTRE, {}, 10)]

    class Pipe:
        def poll(self) -> bool:
            return bool(messages)

        def recv(self):
            return messages.pop(0)

    host._search_pipe = Pipe()
    host._read_search_reports()
    assert host._search_ready
    assert host.store.state.search_of(CENTRE).nodes == 10  # the report after it was read as one


def test_a_held_search_whose_process_has_gone_is_let_be(monkeypatch):
    host = _Host()
    host._search_process = SimpleNamespace(pid=4242)
    host._search_ready = True

    def gone(pid, number):
        raise ProcessLookupError(pid)

    monkeypatch.setattr(searching.os, "kill", gone)
    host._hold_search_for_input()
    assert host._search_held is None and host.quiets == []


def test_a_board_solved_whole_sets_no_wait_for_a_search():
    host = _Host()
    host.store.dispatch(NewGame(geometry=Geometry(3, 3, 3)))
    host.store.dispatch(PlayCell(cell=4))
    host._position_changed()
    assert host.stays == [] and host.sent == []  # no search process was ever started: nothing to stop


def test_geometry_crosses_a_pipe_as_the_one_made_of_its_parameters():
    """A search's report holds its position's geometry: unpickled, it is the geometry made once, not its 572
    lines made again for each report (2 ms on 15×15)."""
    copies = [pickle.loads(pickle.dumps(GOMOKU)) for _ in range(3)]
    assert all(copy == GOMOKU and copy.lines == GOMOKU.lines for copy in copies)
    assert copies[0] is copies[1] is copies[2]
    misere = pickle.loads(pickle.dumps(Geometry(15, 15, 5, misere=True)))
    assert misere.misere and misere != copies[0]


@st.composite
def _search_results(draw):
    cells = draw(st.lists(st.integers(1, 225), unique=True, max_size=12))
    position = Position.empty(GOMOKU)
    for cell in cells:
        if not position.is_over:
            position = position.play(cell)
    moves = tuple(
        MoveResult(cell, value, None if value is None else draw(st.integers(0, 200)), draw(st.integers(0, 10**9)))
        for cell in position.legal_moves()[: draw(st.integers(0, 8))]
        for value in [draw(st.sampled_from([None, Value.WIN, Value.DRAW, Value.LOSS]))]
    )
    return SearchResult(position, moves, draw(st.integers(0, 10**12)), draw(st.booleans()))


@given(_search_results(), st.sampled_from([None, "done", "time", "stopped"]), st.floats(0, 60))
def test_requests_and_reports_cross_the_pipe_whole(result, ended, seconds):
    """Each message of the search's pipe is pickled as its fields (not the slots dataclass's state, a call of
    ``fields()`` per root move each way): unpickled, every field is back, the geometry the one made of it."""
    report = SearchReport(result, running=ended is None, ended=ended)
    request = SearchRequest(result.position, result.moves, result.nodes, seconds)
    for message in (report, request, result, result.position, *result.moves):
        copy = pickle.loads(pickle.dumps(message))
        assert copy == message and type(copy) is type(message)
    copy = pickle.loads(pickle.dumps(report))
    assert (copy.running, copy.ended, copy.result.nodes, copy.result.complete) == (
        report.running,
        ended,
        result.nodes,
        result.complete,
    )
    assert copy.result.position.geometry is pickle.loads(pickle.dumps(GOMOKU))
    assert [(m.cell, m.value, m.remoteness, m.nodes) for m in copy.result.moves] == [
        (m.cell, m.value, m.remoteness, m.nodes) for m in result.moves
    ]


def test_search_results_are_equal_field_by_field_whatever_the_order_they_are_compared_in():
    base = _found(CENTRE, {98: (Value.DRAW, 20)}, 500)
    same = _found(CENTRE, {98: (Value.DRAW, 20)}, 500)
    assert base == same and base is not same and hash(base) == hash(same)
    assert base == base and not (base != same)
    others = [
        _found(CENTRE, {98: (Value.DRAW, 20)}, 501),  # nodes
        _found(CENTRE, {98: (Value.DRAW, 20)}, 500, complete=True),  # complete
        _found(ELSEWHERE, {}, 500),  # position
        SearchResult(CENTRE, base.moves[:-1], 500, False),  # moves
        _found(CENTRE, {98: (Value.DRAW, 21)}, 500),  # a move's remoteness
    ]
    for other in others:
        assert base != other and other != base
    assert base != (CENTRE, base.moves, 500, False) and base != None  # noqa: E711


def test_a_state_says_what_a_search_proved_without_its_node_counts():
    state = Store().dispatch(NewGame(geometry=GOMOKU))
    assert state.proven_in(Position.empty(GOMOKU)) is None
    found = _found(Position.empty(GOMOKU), {113: (Value.DRAW, 220), 1: (Value.LOSS, 9)}, 500)
    state = Store(state).dispatch(SearchFound(result=found, running=True))
    assert state.proven_in(Position.empty(GOMOKU)) == ((1, Value.LOSS, 9), (113, Value.DRAW, 220))
    busier = Store(state).dispatch(
        SearchFound(
            result=_found(Position.empty(GOMOKU), {113: (Value.DRAW, 220), 1: (Value.LOSS, 9)}, 900), running=True
        )
    )
    assert busier.proven_in(Position.empty(GOMOKU)) == state.proven_in(Position.empty(GOMOKU))


async def test_a_report_that_only_counts_nodes_builds_the_evaluation_alone_again(monkeypatch):
    """Four times a second a running search reports its node count: only the evaluation shows it, and only it
    is built again (on 15×15 a board build took 4 ms a report). The board, values overlay on, and its status
    line are built again when a move is proven, and show it."""
    no_search(monkeypatch)
    builds = {BoardGrid: 0, BoardStatus: 0, EvaluationView: 0}
    for view in builds:

        def counted(self, writer, _build=view.build, _view=view):
            builds[_view] += 1
            return _build(self, writer)

        monkeypatch.setattr(view, "build", counted)
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", game=GOMOKU)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        app.store.dispatch(SetOverlay(overlay="values"))
        app.store.dispatch(SearchFound(result=_found(Position.empty(GOMOKU), {}, 100), running=True))
        await pilot.pause()
        grid, status, evaluation = app.query_one(BoardGrid), app.query_one(BoardStatus), app.query_one(EvaluationView)
        before = dict(builds)
        app.store.dispatch(SearchFound(result=_found(Position.empty(GOMOKU), {}, 2_345), running=True))
        await pilot.pause()
        assert "2,345 nodes" in text_of(evaluation)
        assert builds[EvaluationView] > before[EvaluationView]
        assert (builds[BoardGrid], builds[BoardStatus]) == (before[BoardGrid], before[BoardStatus])
        board_before, status_before = text_of(grid), text_of(status)
        assert status_before.startswith("X to move: ? searching 0/225")  # shortened to fit the board's 28 columns whole
        app.store.dispatch(
            SearchFound(result=_found(Position.empty(GOMOKU), {1: (Value.LOSS, 9)}, 2_400), running=True)
        )
        await pilot.pause()
        assert text_of(status).startswith("X to move: ? searching 1/225")
        assert text_of(grid) != board_before  # the proven cell is drawn with its value


async def test_a_report_draws_only_the_lines_it_changes_and_the_moves_table_keeps_its_strips(monkeypatch):
    """On 15×15 a searched position's moves table runs to two hundred rows, built again at every report and
    every step back to the position: the rows that come out the same are the very strips drawn before (a step
    back took 9 ms making them again), a row that changes is made anew, and it reads what it should."""
    from workbench.tui.panes import lines

    no_search(monkeypatch)
    made = []
    fitted = lines.fitted_strip
    monkeypatch.setattr(
        lines,
        "fitted_strip",
        lambda segments, base, width, *rest: (made.append((segments, width)), fitted(segments, base, width, *rest))[1],
    )
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", game=GOMOKU)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        empty = Position.empty(GOMOKU)
        proven = {cell: (Value.LOSS, 20 + cell) for cell in range(1, 151)}
        app.store.dispatch(SearchFound(result=_found(empty, proven, 100), running=True))
        await pilot.pause()
        evaluation = app.query_one(EvaluationView)
        before = list(evaluation._ensure_strips())
        assert len(before) > 150
        made.clear()
        app.store.dispatch(SearchFound(result=_found(empty, {**proven, 200: (Value.LOSS, 3)}, 2_345), running=True))
        await pilot.pause()
        after = evaluation._ensure_strips()
        text = [strip.text for strip in after]
        assert len(after) == len(before) + 1
        assert any("2,345 nodes" in line for line in text) and any(
            re.match(r"\s+e2\s+loss\s+3\s*$", line) for line in text
        )
        kept = {id(strip) for strip in before}
        assert sum(id(strip) in kept for strip in after) >= 150  # the rows of the 150 moves proven before
        # the new row and the counts (the pane's scrollbar, a column wide, draws its longer content's thumb anew)
        made = [segments for segments, width in made if width == evaluation.size.width]
        assert len(made) <= 6, [[segment.text for segment in segments] for segments in made]


async def test_the_moves_table_of_a_searched_board_has_its_heading_underlined(monkeypatch):
    """As the strongly solved boards' table: the heading "cell value plies" underlined, the rows not."""
    no_search(monkeypatch)
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", game=GOMOKU)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        app.store.dispatch(SearchFound(result=_found(Position.empty(GOMOKU), {1: (Value.LOSS, 9)}, 100), running=True))
        await pilot.pause()
        evaluation = app.query_one(EvaluationView)
        strips = [evaluation.render_line(y) for y in range(evaluation.size.height)]
        [heading] = [strip for strip in strips if strip.text.split() == ["cell", "value", "plies"]]
        [row] = [strip for strip in strips if strip.text.split()[-2:] == ["loss", "9"]]
        assert all(segment.style.underline for segment in heading if segment.text.strip())
        assert not any(segment.style.underline for segment in row if segment.text.strip())


def test_what_a_held_report_proved_stays_when_the_search_process_is_found_gone():
    """The process dies (killed from outside) while a report waits for its gap: what it proved is drawn, the
    search is shown stopped, and the user is told."""
    host = _Host()
    notices = []
    host.notify = lambda message, **options: notices.append(message)

    class Gone:
        """A pipe whose process has died: one report left in it, then the end."""

        def __init__(self, reports):
            self.reports = list(reports)

        def poll(self):
            return True

        def recv(self):
            if self.reports:
                return self.reports.pop(0)
            raise EOFError

        def fileno(self):
            return -1

        def close(self):
            pass

    class Dead:
        def kill(self):
            pass

        def wait(self):
            return -9

    host._reports_read([_report(CENTRE, {}, 10)])
    host._search_pipe, host._search_process = Gone([_report(CENTRE, {5: (Value.WIN, 11)}, 50)]), Dead()
    host._read_search_reports()
    assert host.store.state.proven_in(CENTRE) == ((5, Value.WIN, 11),) and host.shown().nodes == 50
    assert host.store.state.searching is None and host._search_pipe is None
    assert notices == ["The search's process ended: s searches again."]
    assert len(host.timers) == 1  # the first gap stopped when the held report was drawn: one gap, not two


async def _until_first_report(pilot, app: WorkbenchApp) -> None:
    """The app ready and its search of the position on the board reporting."""
    await wait_ready(pilot, app)
    store = app.store
    await until(
        pilot,
        lambda: store.state.searching is not None and store.state.search_of(store.state.searching) is not None,
        "the search's first report",
    )


async def _the_notice(pilot, app: WorkbenchApp, message: str):
    """The one notification saying ``message``, once shown."""
    await until(pilot, lambda: any(note.message == message for note in app._notifications), "the notice")
    [notice] = [note for note in app._notifications if note.message == message]
    return notice


async def test_a_search_process_killed_from_outside_is_a_warning_and_what_it_proved_stays():
    """Killed as the kernel's out-of-memory killer would: the search shows stopped, with what it proved, and the
    user is warned (the warning's colour, as the other notices that something went wrong)."""
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", game=GOMOKU)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until_first_report(pilot, app)
        state = lambda: app.store.state  # noqa: E731
        os.kill(app._search_process.pid, signal.SIGKILL)
        notice = await _the_notice(pilot, app, "The search's process ended: s searches again.")
        assert notice.severity == "warning"
        assert state().searching is None and state().search_of(state().position) is not None
        assert "search stopped" in text_of(app.query_one(EvaluationView))


async def test_s_stops_the_running_search_and_says_so_for_two_seconds_as_the_other_short_notices():
    """``s`` on the position being searched stops its search, what it proved stays, and a short notice (two
    seconds, as "Saved …" and the engine's) says how to go on."""
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", game=GOMOKU)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until_first_report(pilot, app)
        state = lambda: app.store.state  # noqa: E731
        await pilot.press("s")
        notice = await _the_notice(pilot, app, "Search stopped: s searches on.")
        assert notice.timeout == 2 and notice.severity == "information"
        await until(pilot, lambda: state().searching is None, "the search's end")
        assert state().search_of(state().position) is not None


async def test_the_history_says_why_it_scores_no_line_in_words_that_fit_its_pane(monkeypatch):
    """Accuracy needs every position's exact values: on a searched board the line says so, whole, in the
    pane's width at 80×24 (it was cut to "accuracy: exact values up t…"), and at length where there is room."""
    from workbench.tui.panes.history import LineScore

    no_search(monkeypatch)
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", game=GOMOKU)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        score = app.query_one(LineScore)
        assert score.size.width < 42 and text_of(score).strip() == "accuracy: up to 16 cells"
        app.screen.maximize(app.query_one("#history"), container=False)  # `z`: the whole screen's width
        await pilot.pause()
        assert text_of(score).strip() == "accuracy: exact values up to 16 cells only"


def test_the_moves_table_is_as_wide_as_its_columns_and_the_spaces_between_them():
    """The evaluation picks the fullest table that fits its width by this figure: one too small, and a table
    one column too wide for the pane would be drawn and cut."""
    from workbench.tui.panes.evaluation import _table_width

    columns = [("cell", ["★3", "12"], ">"), ("value", ["draw", "loss"], "<"), ("games", ["1,234,567"], ">")]
    header = " ".join(f"{name:{align}{max(len(name), *map(len, entries))}}" for name, entries, align in columns)
    assert _table_width(columns) == len(header) == 4 + 1 + 5 + 1 + 9
    assert _table_width(columns[:1]) == 4


async def test_the_symmetry_images_of_a_7x7_board_stand_a_space_apart(monkeypatch):
    """Images wider than the classic board's label column take their width and one space each: as many fit
    in the pane as can."""
    from workbench.tui.panes.symmetry import SymmetryView

    no_search(monkeypatch)
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", game=Geometry(7, 7, 5))
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("colon", *"a7", "enter")  # a corner: its eight images differ
        await pilot.pause()
        text = text_of(app.query_one(SymmetryView))
        image_rows = [line.strip() for line in text.splitlines() if re.fullmatch(r"\s*[·XO]{7}( +[·XO]{7})+\s*", line)]
        assert len(image_rows) >= 7, text
        assert all(re.fullmatch(r"[·XO]{7}( [·XO]{7})+", row) for row in image_rows), image_rows
