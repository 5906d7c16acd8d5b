"""One position's full analysis: exact values, threat masks, symmetry, counts.

:func:`analyze` asks the board's answers it is handed (:mod:`workbench.engine.answers`; a solution
:func:`workbench.kept.answers_for` read back or made), else the engine's own (:func:`answers_of`: tables built once a
process, on first use, up to 12 cells; the search above 16); :func:`analyze_all` analyses every reachable position.
Nothing here is a place to put answers: what is kept is a memo of the engine's own work.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from ..errors import InputError
from .answers import (
    Answers,
    BoardTooLargeError as BoardTooLargeError,
    SearchedAnswers,
    TableAnswers,
    analyze_key,
    analyze_solution,
    check_analysable,
)
from .census import counts
from .geometry import (
    MAX_STRONG_CELLS,
    MAX_TABLE_CELLS as MAX_TABLE_CELLS,  # re-exported: the commands read the limits here
    TIC_TAC_TOE,
    Cell,
    Geometry,
)
from .graph import class_index, state_graph
from .position import Position, check_legal
from .results import MASK_NAMES, Analysis, Masks, MoveAnalysis, SymmetryInfo, Tables, analysis_record  # noqa: F401 - re-exported
from .searched_analysis import (
    best_moves as best_moves,
    exact_masks as exact_masks,
    exact_masks_of as exact_masks_of,
    searched_analysis as searched_analysis,
    threat_masks as threat_masks,
)
from .solver import solve
from .threats import planner_for

if TYPE_CHECKING:
    from .strong import StrongSolution


# --- the engine's own answers for each board: its tables (up to 12 cells, built here on first use), else the
# search above 16 cells. A memo of pure work, not a place to put answers: a strong or kept solution is read back or
# made by workbench.kept.answers_for and handed to what needs it (an ``answers`` argument, the app's state) ----------

_BUILT: dict[Geometry, TableAnswers] = {}
_BUILDING = threading.Lock()


def answers_of(geometry: Geometry) -> Answers:
    """The answers the engine has of ``geometry`` by itself: its tables, built in this process on first use and
    kept for it (up to 12 cells), or the search (above 16 cells). The same object every time for a board.

    :raises BoardTooLargeError: 13 to 16 cells, whose strong solution is read back or solved elsewhere
        (:func:`workbench.kept.answers_for` gives it)."""
    if geometry.size > MAX_STRONG_CELLS:
        return SearchedAnswers(geometry)
    answers = _BUILT.get(geometry)
    if answers is None:
        if geometry.size > MAX_TABLE_CELLS:
            raise BoardTooLargeError(
                f"board {geometry}: answered by its strong solution, which the engine is handed "
                f"(workbench.kept.answers_for makes it; its own tables cover boards of at most {MAX_TABLE_CELLS} "
                f"cells, {geometry.size} here)"
            )
        with _BUILDING:  # one build per board, however many threads ask
            answers = _BUILT.get(geometry)
            if answers is None:
                answers = _BUILT[geometry] = TableAnswers(build_tables(geometry))
    return answers


def answers_given(geometry: Geometry, answers: Answers | None) -> Answers:
    """``answers`` where given, else the engine's own (:func:`answers_of`): what every function taking the board's
    answers asks.

    :raises InputError: ``answers`` of another board.
    :raises BoardTooLargeError: none given for a board of 13 to 16 cells."""
    if answers is None:
        return answers_of(geometry)
    if answers.geometry != geometry:
        raise InputError(f"the answers of {answers.geometry} say nothing of {geometry}")
    return answers


def tables(geometry: Geometry = TIC_TAC_TOE) -> Tables:
    """The geometry's tables, built in this process on first use (:func:`answers_of`).

    :raises BoardTooLargeError: the board has more than :data:`MAX_TABLE_CELLS` cells.
    """
    check_analysable(geometry)
    return cast(TableAnswers, answers_of(geometry)).table


def forget_tables() -> None:
    """Drop every board's tables built in this process (the next question builds them again)."""
    _BUILT.clear()


def check_exact(answers: Answers) -> None:
    """:raises BoardTooLargeError: naming the board, where ``answers`` do not know the value of every position (a
    board searched position by position: what needs them, a review or the best line, cannot be had there)."""
    if not answers.exact:
        raise SearchedAnswers(answers.geometry)._not_exact("exact values of every position")


def analyze_strong(solution: StrongSolution, position: Position) -> Analysis:
    """The analysis of a legal ``position`` from a strong (or kept) solution
    (:func:`workbench.engine.answers.analyze_solution`).

    :raises IllegalPositionError: no game reaches ``position``."""
    return analyze_solution(solution, position)


def classes_by_ply(geometry: Geometry, answers: Answers | None = None) -> tuple[int, ...]:
    """How many symmetry classes have 0, 1, 2, … marks, from ``answers`` (the tables or the strong solution; by
    default :func:`answers_of`).

    :raises BoardTooLargeError: above 16 cells, where classes are not counted; 13 to 16 with no ``answers``."""
    return answers_given(geometry, answers).classes_by_ply()


def build_tables(geometry: Geometry) -> Tables:
    """Compute every table from scratch (quick for 3×3; the cache keeps them for the next run)."""
    graph = state_graph(geometry)
    solution = solve(geometry)
    classes = class_index(geometry)
    value = solution.value
    tallies = counts(geometry)
    trap: dict[int, float] = {}
    for key, replies in graph.children.items():
        # value[grandchild] is for the side that made the move before the reply
        trap[key] = sum(1 for _, reply in replies if value[reply] > 0) / len(replies)
    planner = planner_for(geometry)
    planner.masks(0, 0)  # every position the game reaches from the empty board, planned once here
    return Tables(
        geometry,
        graph.children,
        graph.terminal,
        value,
        solution.remoteness,
        trap,
        tallies.games,
        tallies.paths,
        classes.class_of,
        classes.canonical_keys,
        planner.known(),
    )


def analyze(position: Position, answers: Answers | None = None) -> Analysis:
    """Analyse a legal position from its board's ``answers`` (:func:`workbench.kept.answers_for` gives them for
    every tier), by default the engine's own (:func:`answers_of`: tables, or the search).

    :raises IllegalPositionError: the position is not reachable.
    :raises BoardTooLargeError: 13 to 16 cells, and no ``answers`` given.
    :raises InputError: ``answers`` of another board (so do the other functions taking them).
    """
    return answers_given(position.geometry, answers).analyze(position)


def class_id(position: Position, answers: Answers | None = None) -> int:
    """The position's symmetry class id: ``analyze(position, answers).symmetry.class_id``, without the rest.

    :raises IllegalPositionError: the position is not reachable.
    :raises BoardTooLargeError: above 16 cells, where classes are not numbered (:func:`class_key` is); 13 to 16
        with no ``answers`` given.
    """
    return answers_given(position.geometry, answers).class_id(position)


def class_key(position: Position, answers: Answers | None = None) -> int:
    """A key shared by exactly the positions of one symmetry class: the class id where the classes are numbered
    (up to 16 cells, from ``answers`` as :func:`class_id`), else the canonical form's key (above them).

    :raises IllegalPositionError: the position is not reachable.
    :raises BoardTooLargeError: 13 to 16 cells with no ``answers`` given.
    """
    if position.geometry.size > MAX_STRONG_CELLS:  # searched, or solved and kept: classes not numbered
        return _canonical_key(position)
    return class_id(position, answers)


@lru_cache(maxsize=4096)
def _canonical_key(position: Position) -> int:
    # kept: the history marks twins by it, asking again for every node of the tree at every edit (on 15×15 a
    # large part of a move played in a long game)
    from .symmetry import canonical

    check_legal(position)
    return canonical(position).key


def principal_variation(position: Position, answers: Answers | None = None) -> tuple[Cell, ...]:
    """The rest of the game under perfect play: at every ply the side to move plays its best
    move (the winner hurrying, the loser delaying); among equally good ones, the move whose story the words
    tell (:func:`workbench.engine.line_choice.story_first`: a win, a fork or a threat for the winner, a block for
    the other side), then the lowest cell.

    Empty when the game is over; as long as the position's remoteness otherwise.

    :raises IllegalPositionError: the position is not reachable.
    :raises BoardTooLargeError: where ``answers`` (by default :func:`answers_of`) do not know every value: above 16
        cells with no kept solution, and 13 to 16 with no ``answers`` given.
    """
    return answers_given(position.geometry, answers).principal_variation(position)


def analyze_all(geometry: Geometry = TIC_TAC_TOE) -> list[Analysis]:
    """Analyses of every reachable position, by ply then key."""
    table = tables(geometry)
    graph = state_graph(geometry)
    return [analyze_key(table, graph.position(key), key) for key in graph.keys()]
