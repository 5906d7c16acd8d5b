"""The search process's side of the pipe (workbench.search_service.serve), driven in a thread of this process."""

import threading
from multiprocessing import Pipe

import pytest

from workbench.engine import Geometry, Position
from workbench.engine.search import search
from workbench.search_service import SearchReport, SearchRequest, serve

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
    assert {m.cell: (m.value, m.remoteness) for m in reports[-1].result.moves} == {m.cell: (m.value, m.remoteness) for m in expected.moves}
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
