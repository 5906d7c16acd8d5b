"""The search process's side of the pipe (workbench.search_service.serve), driven in a thread of this process."""

import subprocess
import sys
import threading
import time
from multiprocessing import Pipe

import pytest

from workbench.engine import Geometry, Position
from workbench.engine.search import search
from workbench.search_service import READY, SearchReport, SearchRequest, serve

FIVE = Geometry(5, 5, 4)
GOMOKU = Geometry(15, 15, 5)


def _quick() -> Position:
    """A 5×5 position whose every move the search proves in a moment."""
    position = Position.empty(FIVE)
    for cell in (13, 7, 8, 9, 12):
        position = position.play(cell)
    return position


@pytest.fixture
def service():
    """The app's end of a pipe to :func:`serve` running in a thread; the thread must end when it closes."""
    ours, theirs = Pipe()
    thread = threading.Thread(target=serve, args=(theirs,), daemon=True)
    thread.start()
    yield ours
    ours.close()
    thread.join(timeout=60)
    assert not thread.is_alive()  # the app's end closed: the process's loop is over


def _until_ended(connection) -> list[SearchReport]:
    reports = []
    while not reports or reports[-1].ended is None:
        assert connection.poll(120), "no report"
        reports.append(connection.recv())
    return reports


def test_a_search_reports_as_it_goes_and_ends_done_with_the_search_s_values(service):
    position = _quick()
    service.send(SearchRequest(position, (), 0, 60.0))
    reports = _until_ended(service)
    assert all(report.running for report in reports[:-1]) and not reports[-1].running
    assert reports[-1].ended == "done" and reports[-1].result.complete
    expected = search(position)
    assert {m.cell: (m.value, m.remoteness) for m in reports[-1].result.moves} == {
        m.cell: (m.value, m.remoteness) for m in expected.moves
    }
    proven = [sum(move.proven for move in report.result.moves) for report in reports]
    assert proven == sorted(proven) and proven[0] < proven[-1]  # filled in move by move, never taken back


def test_a_newer_request_stops_the_running_search_and_none_stops_it_for_good(service):
    hard = Position.empty(GOMOKU).play(113)
    service.send(SearchRequest(hard, (), 0, 600.0))
    assert service.poll(60) and service.recv().running
    quick = _quick()
    service.send(SearchRequest(quick, (), 0, 60.0))
    reports = _until_ended(service)
    assert reports[-1].result.position == hard and reports[-1].ended == "stopped" and not reports[-1].running
    reports = _until_ended(service)
    assert reports[-1].result.position == quick and reports[-1].ended == "done"
    service.send(SearchRequest(hard, (), 0, 600.0))
    service.send(None)
    reports = _until_ended(service)
    assert reports[-1].result.position == hard and reports[-1].ended == "stopped"
    assert not service.poll(0.5)  # idle until asked again


def test_a_go_ends_when_its_time_is_spent_and_carries_on_from_what_was_proven(service):
    hard = Position.empty(GOMOKU).play(113)
    service.send(SearchRequest(hard, (), 0, 0.0))
    first = _until_ended(service)[-1]
    assert first.ended == "time" and not first.result.complete
    quick = _quick()
    done = search(quick)
    earlier = tuple(done.moves[:3])
    service.send(SearchRequest(quick, earlier, 1234, 60.0))
    reports = _until_ended(service)
    assert all(move in reports[0].result.moves for move in earlier)  # shown from the first report on
    assert reports[-1].result.nodes >= 1234 and reports[-1].ended == "done"


def test_moves_not_proven_yet_are_reported_as_unknown_with_no_nodes(service):
    hard = Position.empty(GOMOKU).play(113)
    service.send(SearchRequest(hard, (), 0, 0.0))
    first = _until_ended(service)[0]
    unproven = [move for move in first.result.moves if not move.proven]
    assert unproven and all((move.value, move.remoteness, move.nodes) == (None, None, 0) for move in unproven)


def test_a_position_proven_whole_already_is_not_searched_again(service):
    quick = _quick()
    done = search(quick)
    service.send(SearchRequest(quick, done.moves, 777, 60.0))
    reports = _until_ended(service)
    assert reports[-1].ended == "done" and reports[-1].result.nodes == 777  # not a node more
    assert reports[-1].result.moves == done.moves


def test_searches_on_one_board_share_what_they_learnt(service):
    """One searcher per board for the process's life: a position searched again (its earlier finds not handed
    back) is proved from the transposition table, in a fraction of the nodes."""
    quick = _quick()
    service.send(SearchRequest(quick, (), 0, 60.0))
    first = _until_ended(service)[-1]
    service.send(SearchRequest(quick, (), 0, 60.0))
    again = _until_ended(service)[-1]
    values = [[(move.cell, move.value, move.remoteness) for move in report.result.moves] for report in (first, again)]
    assert first.ended == again.ended == "done" and values[0] == values[1]
    assert again.result.nodes * 4 < first.result.nodes, (first.result.nodes, again.result.nodes)


def test_the_search_process_answers_over_its_pipe_and_ends_when_stopped():
    """The real child process (``start``), not the thread the other tests use: it answers a request, and
    ``stop`` ends it."""
    from workbench.search_service import start, stop

    pipe, process = start()
    try:
        assert pipe.poll(120) and pipe.recv() == READY  # its first word: its end is tied to ours
        pipe.send(SearchRequest(_quick(), (), 0, 60.0))
        reports = _until_ended(pipe)
        assert reports[-1].ended == "done" and reports[-1].result.complete
    finally:
        stop(pipe, process)
    assert process.returncode is not None


def test_the_threat_player_s_weight_of_a_line_and_the_search_s_inlined_copy_agree():
    """open_line_weight is copied into Searcher.ordered for speed: the two must order moves alike. Its values:
    a line open to both 2, each own mark more (1 + 4n²), each of theirs more (1 + 3n²), a dead line 0."""
    from workbench.engine.search import Searcher
    from workbench.engine.threats import open_line_weight

    line = 0b11111  # the top row of 5x5
    assert open_line_weight(line, 0, 0) == 2
    assert open_line_weight(line, 0b1, 0) == 1 + 4
    assert open_line_weight(line, 0, 0b11) == 1 + 3 * 4
    assert open_line_weight(line, 0b1, 0b10) == 0
    searcher = Searcher(FIVE)
    position = _quick()
    own, other = position.sides
    empty = FIVE.full & ~(own | other)
    by_weight = sorted(
        (-sum(open_line_weight(line, own, other) for line in FIVE.lines if line & (1 << (cell - 1))), cell)
        for cell in position.legal_moves()
    )
    assert searcher.ordered(own, other, empty) == [1 << (cell - 1) for _, cell in by_weight]


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie waiting for its parent counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_a_search_stopped_for_the_user_s_input_ends_with_the_app_killed_outright():
    """The app holds its search with SIGSTOP while keys come in; a held search reads no pipe, so if the app is
    killed then, only the kernel's parent-death signal keeps the search from staying behind for ever."""
    app = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import os, signal, sys, time\n"
                "from workbench.search_service import start\n"
                "pipe, process = start()\n"
                "assert pipe.poll(120) and pipe.recv() == 'ready'\n"  # the parent-death signal is asked for
                "os.kill(process.pid, signal.SIGSTOP)\n"
                "print(process.pid, flush=True)\n"
                "time.sleep(60)\n"
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        search_pid = int(app.stdout.readline())
        assert _alive(search_pid)
        app.kill()
        app.wait()
        for _ in range(3000):  # (a bound, 30 s: a loaded machine is slow to reap)
            if not _alive(search_pid):
                break
            time.sleep(0.01)
        assert not _alive(search_pid)
    finally:
        app.kill()
        app.wait()
