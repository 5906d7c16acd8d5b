"""One position's full analysis: exact values, threat masks, symmetry, counts.

:func:`analyze` asks the answers in use for the position's board (:mod:`workbench.engine.answers`: tables built
once, on first use, up to 12 cells; a solution :func:`workbench.kept.answers_for` read back or made; else the
search); :func:`analyze_all` analyses every reachable position.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .answers import (
    Answers,
    BoardTooLargeError as BoardTooLargeError,
    SearchedAnswers,
    SolutionAnswers,
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


# --- the answers in use for each board: its tables (up to 12 cells, built here on first use), a strong solution
# (13-16), a kept one past 16 (workbench.kept chooses and reads them back: answers_for), else the search --------

_IN_USE: dict[Geometry, Answers] = {}
"""The answers each board is asked through, once :func:`use_answers` or a first :func:`tables` made them."""


def use_answers(answers: Answers) -> None:
    """Answer :func:`analyze`, :func:`class_id`, :func:`principal_variation` and the rest on ``answers``' board from
    ``answers`` from now on (tables read back, a strong solution solved, a kept one opened: what
    :func:`workbench.kept.answers_for` chose). Tables teach the board's planner their masks."""
    if isinstance(answers, TableAnswers):
        planner_for(answers.geometry).learn(answers.table.plans)
    _IN_USE[answers.geometry] = answers


def answers_in_use(geometry: Geometry) -> Answers | None:
    """The answers :func:`use_answers` set for ``geometry``, or None; never builds."""
    return _IN_USE.get(geometry)


def answers_of(geometry: Geometry) -> Answers:
    """The answers of ``geometry`` in this process: those in use, else its tables built now (up to 12 cells), else
    the search (above 16 cells).

    :raises BoardTooLargeError: 13 to 16 cells with no solution in use (:func:`workbench.kept.answers_for` reads
        it back or solves it)."""
    answers = _IN_USE.get(geometry)
    if answers is not None:
        return answers
    if geometry.size > MAX_STRONG_CELLS:
        return SearchedAnswers(geometry)
    return _tables_built_and_used(geometry)


def _tables_built_and_used(geometry: Geometry) -> TableAnswers:
    """``geometry``'s tables built now and put in use (tables answer before a solution of the same small board, as
    they always have). :raises BoardTooLargeError: above :data:`MAX_TABLE_CELLS` cells."""
    check_analysable(geometry)
    answers = TableAnswers(build_tables(geometry))
    use_answers(answers)
    return answers


def tables(geometry: Geometry = TIC_TAC_TOE) -> Tables:
    """The geometry's tables: built on first use, or as installed by :func:`install_tables`.

    :raises BoardTooLargeError: the board has more than :data:`MAX_TABLE_CELLS` cells.
    """
    answers = _IN_USE.get(geometry)
    if not isinstance(answers, TableAnswers):
        answers = _tables_built_and_used(geometry)
    return answers.table


def tables_if_built(geometry: Geometry) -> Tables | None:
    """The geometry's tables if this process has them already; never builds."""
    answers = _IN_USE.get(geometry)
    return answers.table if isinstance(answers, TableAnswers) else None


def install_tables(table: Tables) -> None:
    """:func:`use_answers` of ``table`` (tables read back by :func:`parse_tables`, say)."""
    use_answers(TableAnswers(table))


def forget_tables() -> None:
    """Drop every board's answers from this process (the next question builds or needs them again)."""
    _IN_USE.clear()


def forget_analysis(geometry: Geometry) -> None:
    """Drop ``geometry``'s answers from this process (read back for a variant looked at and not chosen: a 4×4
    solution holds a byte per position); the next :func:`analyze` there needs them made ready again."""
    _IN_USE.pop(geometry, None)


def install_strong(solution) -> None:
    """:func:`use_answers` of a strong solution (13–16 cells) or, past 16, a kept one: the board exact from now on
    (no longer searched; its values read, and past 16 cells its classes and games not counted). Tables of the same
    small board, where they are in use, keep answering."""
    if not isinstance(_IN_USE.get(solution.geometry), TableAnswers):
        use_answers(SolutionAnswers(solution))


def strong_if_installed(geometry: Geometry):
    """The strong (or kept) solution in use for ``geometry``, or None."""
    answers = _IN_USE.get(geometry)
    return answers.solution if isinstance(answers, SolutionAnswers) else None


def analysis_ready(geometry: Geometry) -> bool:
    """Whether :func:`analyze` answers on ``geometry`` without building anything: its answers are in use, or it is
    beyond them (above 16 cells), where nothing is built and the moves are searched."""
    return geometry in _IN_USE or is_searched(geometry)


def check_exact(geometry: Geometry) -> None:
    """:raises BoardTooLargeError: naming the board, where the values of every position are not known (above 16
    cells: what needs them, a review or the best line, cannot be had there)."""
    if is_searched(geometry):
        raise SearchedAnswers(geometry)._not_exact("exact values of every position")


def is_searched(geometry: Geometry) -> bool:
    """The board is beyond the strong solutions (above 16 cells, and no kept solution in use): its positions are
    searched one by one, and a value is known only where a search proved it (:func:`searched_analysis`)."""
    return geometry.size > MAX_STRONG_CELLS and geometry not in _IN_USE


def analyze_strong(solution: StrongSolution, position: Position) -> Analysis:
    """The analysis of a legal ``position`` from a strong (or kept) solution, whether or not it is in use
    (:func:`workbench.engine.answers.analyze_solution`).

    :raises IllegalPositionError: no game reaches ``position``."""
    return analyze_solution(solution, position)


def classes_by_ply(geometry: Geometry) -> tuple[int, ...]:
    """How many symmetry classes have 0, 1, 2, … marks, from the tables or the strong solution.

    :raises BoardTooLargeError: above 16 cells, where classes are not counted."""
    return answers_of(geometry).classes_by_ply()


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


def analyze(position: Position) -> Analysis:
    """Analyse a legal position, through its board's answers (:func:`answers_of`).

    :raises IllegalPositionError: the position is not reachable.
    :raises BoardTooLargeError: 13 to 16 cells with no solution in use.
    """
    return answers_of(position.geometry).analyze(position)


def class_id(position: Position) -> int:
    """The position's symmetry class id: ``analyze(position).symmetry.class_id``, without the rest.

    :raises IllegalPositionError: the position is not reachable.
    :raises BoardTooLargeError: above 16 cells, where classes are not numbered (:func:`class_key` is).
    """
    return answers_of(position.geometry).class_id(position)


def class_key(position: Position) -> int:
    """A key shared by exactly the positions of one symmetry class: the class id where the classes are numbered
    (up to 16 cells), else the canonical form's key (above them).

    :raises IllegalPositionError: the position is not reachable.
    """
    if position.geometry.size > MAX_STRONG_CELLS:  # searched, or solved and kept: classes not numbered
        return _canonical_key(position)
    return class_id(position)


@lru_cache(maxsize=4096)
def _canonical_key(position: Position) -> int:
    # kept: the history marks twins by it, asking again for every node of the tree at every edit (on 15×15 a
    # large part of a move played in a long game)
    from .symmetry import canonical

    check_legal(position)
    return canonical(position).key


def principal_variation(position: Position) -> tuple[Cell, ...]:
    """The rest of the game under perfect play: at every ply the side to move plays its best
    move (the winner hurrying, the loser delaying); among equally good ones, the move whose story the words
    tell (:func:`workbench.engine.line_choice.story_first`: a win, a fork or a threat for the winner, a block for
    the other side), then the lowest cell.

    Empty when the game is over; as long as the position's remoteness otherwise.

    :raises IllegalPositionError: the position is not reachable.
    :raises BoardTooLargeError: above 16 cells, where the values are not all known.
    """
    return answers_of(position.geometry).principal_variation(position)


def analyze_all(geometry: Geometry = TIC_TAC_TOE) -> list[Analysis]:
    """Analyses of every reachable position, by ply then key."""
    table = tables(geometry)
    graph = state_graph(geometry)
    return [analyze_key(table, graph.position(key), key) for key in graph.keys()]
