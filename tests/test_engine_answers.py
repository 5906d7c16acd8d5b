"""Each board's answers (issue 51): one object per board that is its tier and answers its positions. The tables and
a strong solution of the same board answer alike; the search says where it cannot; the engine's functions ask the
answers they are handed, else the engine's own, and nothing is installed anywhere."""

import random

import pytest

from tests.solved import solved
from workbench.engine import Geometry, Position, analysis
from workbench.engine.analysis import (
    analyze,
    answers_of,
    class_id,
    class_key,
    classes_by_ply,
    principal_variation,
    tables,
)
from workbench.engine.answers import (
    BoardTooLargeError,
    SearchedAnswers,
    SolutionAnswers,
    TableAnswers,
)
from workbench.engine.explain import explain
from workbench.engine.graph import state_graph
from workbench.errors import InputError

pytestmark = pytest.mark.engine

SMALL = [Geometry(), Geometry(misere=True), Geometry(2, 4, 3), Geometry(3, 4, 3)]


def _sample(geometry: Geometry, count: int) -> list[Position]:
    graph = state_graph(geometry)
    keys = sorted(graph.keys())
    return [graph.position(key) for key in random.Random(str(geometry)).sample(keys, min(count, len(keys)))]


@pytest.mark.parametrize("geometry", SMALL, ids=str)
def test_the_tables_and_a_strong_solution_of_one_board_answer_alike(geometry):
    """The same values, remoteness, moves, best line, class and classes by ply, from either tier of a small board
    (the strong solution's masks are the threat lines', the tables' the planner's: not compared)."""
    from_tables, from_solution = TableAnswers(tables(geometry)), SolutionAnswers(solved(geometry))
    assert (from_tables.tier, from_solution.tier) == ("tables", "strong") and from_tables.exact and from_solution.exact
    assert from_tables.classes_by_ply() == from_solution.classes_by_ply()
    for position in _sample(geometry, 150):
        ours, theirs = from_tables.analyze(position), from_solution.analyze(position)
        assert (ours.status, ours.value, ours.remoteness) == (theirs.status, theirs.value, theirs.remoteness)
        assert [(m.cell, m.value, m.remoteness, m.games) for m in ours.moves] == [
            (m.cell, m.value, m.remoteness, m.games) for m in theirs.moves
        ]
        assert from_tables.class_id(position) == from_solution.class_id(position) == ours.symmetry.class_id
        assert from_tables.principal_variation(position) == from_solution.principal_variation(position)
        if not position.is_over:
            assert (
                from_tables.move_values(position)
                == from_solution.move_values(position)
                == (
                    ours.value,
                    ours.remoteness,
                    tuple(move.__class__(move.cell, move.value, move.remoteness, None, None) for move in ours.moves),
                )
            )


def test_a_solution_s_answers_keep_their_own_analyses():
    """Each object keeps its analyses: asked again, the same analysis; another object of the same board keeps its
    own (nothing shared between them to clear)."""
    board = Geometry(2, 4, 3)
    first, second = SolutionAnswers(solved(board)), SolutionAnswers(solved(board))
    start = Position.empty(board)
    assert first.analyze(start) is first.analyze(start)
    assert second.analyze(start) is not first.analyze(start) and second.analyze(start) == first.analyze(start)


@pytest.mark.parametrize("board", [Geometry(5, 5, 4), Geometry(15, 15, 5)], ids=str)
def test_a_searched_board_s_answers_say_what_they_cannot_know(board):
    answers = answers_of(board)
    assert isinstance(answers, SearchedAnswers) and answers.tier == "search" and not answers.exact
    start = Position.empty(board)
    assert answers.analyze(start).position == start
    asked_of = (answers.principal_variation, answers.class_id, answers.move_values)
    for asked in (lambda ask=ask: ask(start) for ask in asked_of):
        with pytest.raises(BoardTooLargeError, match=rf"^board {board}: exact values of every position cover"):
            asked()
    with pytest.raises(BoardTooLargeError, match=rf"^board {board}: symmetry classes are counted"):
        answers.classes_by_ply()


def test_a_kept_solution_s_answers_number_no_classes():
    """A solution without classes (a kept one past 16 cells reads values alone) answers values and lines, and
    says classes are not numbered, naming the board."""

    class ValuesOnly:
        def __init__(self, solution):
            self.geometry, self.lookup_many = solution.geometry, solution.lookup_many

    board = Geometry(2, 4, 3)
    answers = SolutionAnswers(ValuesOnly(solved(board)))
    start = Position.empty(board)
    assert answers.tier == "kept" and answers.exact
    assert answers.principal_variation(start) == SolutionAnswers(solved(board)).principal_variation(start)
    assert answers.analyze(start).symmetry.class_id is None and answers.analyze(start).games is None
    with pytest.raises(BoardTooLargeError, match=f"^board {board}: symmetry classes are numbered"):
        answers.class_id(start)
    with pytest.raises(BoardTooLargeError, match=f"^board {board}: symmetry classes are counted"):
        answers.classes_by_ply()


def test_the_engine_s_functions_ask_the_answers_they_are_handed_and_keep_nothing_of_them():
    """`analyze`, the best line and the classes answer from the answers handed to them; without, from the engine's
    own (the tables, built once; the search above 16 cells), and a board of 13-16 cells is one line, not a solve,
    however often its answers were handed over before: no call leaves anything behind for the next."""
    fourteen = Geometry(2, 7, 4)
    start = Position.empty(fourteen).play(3)
    answers = SolutionAnswers(solved(fourteen))
    assert analyze(start, answers) is answers.analyze(start)
    assert principal_variation(start, answers) == answers.principal_variation(start)
    assert class_id(start, answers) == class_key(start, answers) == answers.class_id(start)
    assert classes_by_ply(fourteen, answers) == answers.classes_by_ply()
    for asked in (analyze, principal_variation, class_id, class_key):
        with pytest.raises(BoardTooLargeError, match=f"^board {fourteen}: answered by its strong solution, which the"):
            asked(start)
    misere = answers_of(Geometry(misere=True))
    for asked in (analyze, principal_variation, class_id, class_key):  # another board's answers: one line
        with pytest.raises(InputError, match=r"^the answers of 3x3k3-misere say nothing of 3x3k3$"):
            asked(Position.empty(Geometry()), misere)
    with pytest.raises(InputError, match=r"^the answers of 3x3k3-misere say nothing of 3x3k3$"):
        explain(Position.empty(Geometry()), 4, misere)
    small = Geometry(2, 4, 3)
    assert isinstance(answers_of(small), TableAnswers) and answers_of(small).table is tables(small)
    assert isinstance(answers_of(Geometry(5, 5, 4)), SearchedAnswers)
    assert not hasattr(analysis, "use_answers") and not hasattr(analysis, "_IN_USE")


def test_a_solution_s_answers_are_freed_once_forgotten_without_a_collection():
    """Nothing in the answers refers back to them: dropped, they (and the solution, a byte a position) go at once,
    even where the collector does not run (the app freezes its view once the analysis is ready)."""
    import gc
    import weakref

    board = Geometry(2, 4, 3)
    answers = SolutionAnswers(solved(board))
    answers.analyze(Position.empty(board))
    gone = weakref.ref(answers)
    gc.disable()
    try:
        del answers
        assert gone() is None
    finally:
        gc.enable()


def test_a_solution_s_answers_keep_the_latest_analyses_only(monkeypatch):
    from workbench.engine import answers as answers_module

    monkeypatch.setattr(answers_module, "ANALYSES_KEPT", 2)
    board = Geometry(2, 4, 3)
    answers = SolutionAnswers(solved(board))
    first, second, third = (Position.empty(board).play(cell) for cell in (1, 2, 3))
    kept_first = answers.analyze(first)
    answers.analyze(second)
    assert answers.analyze(first) is kept_first  # asked again: the latest now
    answers.analyze(third)  # the oldest, second, makes room
    assert answers.analyze(first) is kept_first and list(answers._analyses) == [third, first]
