"""Puzzles from the exact solutions: positions where exactly one move keeps what the side to move has.

A position is a puzzle when the game is in play, the side to move has at least two moves, and exactly one of them
is right: the only move that wins (a win to find), the only move that draws (every other move loses), or, in a lost
position, the only move that loses slowest (every other move loses sooner). Whether another win would be slower
does not matter: a position with two winning moves is no puzzle, whichever is quicker.

Every position of the board is looked at, in arrays (numpy): the values of a board of up to 12 cells come from
its tables, those of 13–16 cells from its strong solution, one byte a position, which must be given
(:func:`workbench.kept.answers_for` reads it back or solves it). 4×4k4 has 9.7 million positions; asking
:func:`~workbench.engine.analysis.analyze` of each would take hours. Symmetric positions are one puzzle, given
in the canonical form (:func:`~workbench.engine.symmetry.canonical`) with the answer carried over.

The difficulty (:func:`~workbench.engine.puzzle_finder.difficulty`) is a number from 0 up, made of three parts:

* how deep the line is that shows the answer right, in moves of the solver's own: half the plies, rounded down,
  of the answer's win (a win in 1 is 0, in 3 is 1), or, in a drawn or lost position, of the slowest loss among the
  other moves (the wrong move whose refutation is hardest to see);
* 2 more when the threat player (:func:`~workbench.engine.threats.threat_move`: win, block, fork, the most open
  lines) would play another move: the natural move is wrong;
* under 1 for how many moves there are to choose from: (moves − 2) / (cells − 1).

So the trivial puzzles, a win in 1 (and under misère the one move that does not complete a line of one's own), are
graded easiest, below 1, rather than left out. Puzzles come easiest first, then by their position's text.

Each puzzle has a theme (:func:`puzzle_theme`), a fact of its answer: ``win`` (it completes a line), ``block`` (it
takes the cell where the other side would complete one next), ``fork`` (it makes two threats where the other side
has no line to complete first: :func:`~workbench.engine.explain.role_of`), ``hold out`` (every move loses: the
answer loses slowest), ``misère squeeze`` (under misère, it leaves the other side only cells that complete a line of
their own), else ``only move``.

This module holds no numpy (a puzzle kept in the library is read back without it); the array work is
:mod:`.puzzle_finder`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import InputError
from .analysis import analyze, answers_of, check_exact
from .answers import Answers, SolutionAnswers, TableAnswers
from .explain import role_of
from .geometry import MAX_STRONG_CELLS, MAX_TABLE_CELLS, Cell, Geometry, cell_name, format_variant
from .position import Position, format_position
from .solver import Value

if TYPE_CHECKING:
    from .results import Tables
    from .strong import StrongSolution


THEMES = ("win", "block", "fork", "only move", "hold out", "misère squeeze")
"""The themes a puzzle can have, one each: :func:`puzzle_theme`."""


class PuzzleError(InputError):
    """Puzzles that cannot be made here: a count below one, or a board whose exact values are not at hand."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position with exactly one right move, and how hard that move is to find."""

    position: Position
    answer: Cell
    """The one move that keeps :attr:`value` (the slowest loss, in a lost position)."""
    value: Value
    """The position's exact value for the side to move: what the answer keeps."""
    remoteness: int
    """Plies to the end after best play from the position (the answer's)."""
    difficulty: float
    """See the module's docstring: depth, then 2 for a wrong natural move, then under 1 for the choice."""
    moves: int
    """Legal moves: the answer and ``moves - 1`` that do worse."""
    losing: int
    """Moves that lose (all of them but the answer, in a drawn or lost position)."""
    natural: Cell
    """The threat player's move here: :func:`~workbench.engine.threats.threat_move`."""

    @property
    def natural_is_wrong(self) -> bool:
        """The move the threats point at is not the answer: the puzzle has a trap."""
        return self.natural != self.answer


def find_puzzles(geometry: Geometry, count: int | None = None, *, answers: Answers | None = None) -> tuple[Puzzle, ...]:
    """Every puzzle of ``geometry``, one per symmetry class, easiest first (then by position text); or ``count`` of
    them spread over the range of difficulty, from the easiest to one of the hardest (the same ones every time:
    :func:`~workbench.engine.puzzle_finder.spread`).

    Reads the board's ``answers`` (:func:`workbench.kept.answers_for`): its tables, or its strong solution (13–16
    cells); by default the engine's own (the tables, built if need be).

    :raises PuzzleError: ``count`` below 1, 13–16 cells without a strong solution, or ``answers`` of another board.
    :raises BoardTooLargeError: above 16 cells, where not every value is known.
    """
    if answers is None:  # the engine's own: tables up to 12 cells, the search above 16; none from 13 to 16
        answers = None if MAX_TABLE_CELLS < geometry.size <= MAX_STRONG_CELLS else answers_of(geometry)
    elif answers.geometry != geometry:
        raise PuzzleError(f"the answers of {answers.geometry} say nothing of {geometry}")
    if answers is not None:
        check_exact(answers)
    if geometry.size > MAX_STRONG_CELLS:  # exact from a kept solution, but its positions are not enumerated here
        raise PuzzleError(
            f"board {geometry}: puzzles are made on boards of at most {MAX_STRONG_CELLS} cells ({geometry.size} here)"
        )
    if count is not None and count < 1:
        raise PuzzleError(f"a count of puzzles is 1 or more (not {count})")
    if isinstance(answers, TableAnswers):
        values: Tables | StrongSolution = answers.table
    elif isinstance(answers, SolutionAnswers):
        values = answers.solution
    else:
        raise PuzzleError(
            f"board {geometry}: puzzles read its strong solution, not made here yet (`workbench solve --game "
            f"{geometry}`)"
        )
    from .puzzle_finder import puzzle_rows  # numpy: imported when puzzles are made, not with the dataclass

    return tuple(
        Puzzle(Position(x, o, geometry), answer, Value(value), remoteness, grade, moves, losing, natural)
        for x, o, answer, value, remoteness, grade, moves, losing, natural in puzzle_rows(geometry, values, count)
    )


def is_unique(puzzle: Puzzle, answers: Answers | None = None) -> bool:
    """Whether the puzzle holds by :func:`~workbench.engine.analysis.analyze`'s exact values: the position's value
    and remoteness are the puzzle's, it has two moves or more, and the answer is the only one that keeps the value
    (in a lost position: the only slowest loss). A check from another road than :func:`find_puzzles` took."""
    analysis = analyze(puzzle.position, answers)
    if analysis.value is None or len(analysis.moves) < 2:
        return False
    if (analysis.value, analysis.remoteness) != (puzzle.value, puzzle.remoteness):
        return False
    if analysis.value is Value.LOSS:
        slowest = max(move.remoteness for move in analysis.moves if move.remoteness is not None)
        right = [move.cell for move in analysis.moves if move.remoteness == slowest]
    else:
        right = [move.cell for move in analysis.moves if move.value == analysis.value]
    return right == [puzzle.answer]


def puzzle_theme(puzzle: Puzzle) -> str:
    """The puzzle's theme (one of :data:`THEMES`), from what its answer does on the board and the exact value."""
    if puzzle.value is Value.LOSS:
        return "hold out"
    role, _ = role_of(puzzle.position, puzzle.answer)
    if puzzle.position.geometry.misere:
        return "misère squeeze" if role == "squeeze" else "only move"
    return role if role in ("win", "block", "fork") else "only move"


def puzzle_record(puzzle: Puzzle) -> dict:
    """The puzzle as JSON-ready data (``workbench puzzles --json``): the answer by number and by name."""
    position = puzzle.position
    geometry = position.geometry
    return {
        "variant": format_variant(geometry),
        "position": format_position(position),
        "to_move": position.turn.value,
        "answer": puzzle.answer,
        "name": cell_name(puzzle.answer, geometry),
        "value": puzzle.value.label,
        "remoteness": puzzle.remoteness,
        "difficulty": puzzle.difficulty,
        "moves": puzzle.moves,
        "losing": puzzle.losing,
        "natural": puzzle.natural,
        "natural_name": cell_name(puzzle.natural, geometry),
        "natural_is_wrong": puzzle.natural_is_wrong,
        "theme": puzzle_theme(puzzle),
    }


__all__ = ["THEMES", "Puzzle", "PuzzleError", "find_puzzles", "is_unique", "puzzle_record", "puzzle_theme"]
