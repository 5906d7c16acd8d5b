"""Practice kept in the library: the puzzles found for each variant, and every attempt at a puzzle or at a mistake of
a study played again, with the counts a practice screen shows (attempts, solved, the streak) and the positions
missed last time.

A variant is written as :func:`~workbench.engine.geometry.format_variant` writes it, a position as
:func:`~workbench.engine.position.format_position` does. A library older than version 4 that is opened read-only
has neither table: it reads as one with no puzzles and no attempts (writing to it fails as any write to a
read-only library does).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..engine.geometry import Cell, Geometry, format_variant
from ..engine.position import Position, format_position, parse_position
from ..engine.puzzles import Puzzle
from ..engine.solver import Value
from .db import Library, LibraryError, describe

Kind = Literal["mistake", "puzzle"]
"""What an attempt was at: a puzzle, or a position where a study went wrong."""
KINDS: tuple[Kind, ...] = ("mistake", "puzzle")
PRACTICE_SINCE = 4
"""The schema version that added the ``puzzles`` and ``attempts`` tables."""

_VALUES = {value.label: value for value in Value}


@dataclass(frozen=True, slots=True)
class AttemptStats:
    """Attempts of one kind on one variant."""

    attempts: int
    solved: int
    streak: int
    """Solved in a row, counting back from the latest attempt (0 when the latest was missed)."""

    @property
    def solve_rate(self) -> float | None:
        """The share of attempts solved; None before the first."""
        return self.solved / self.attempts if self.attempts else None


def keep_puzzles(library: Library, geometry: Geometry, puzzles: Iterable[Puzzle]) -> int:
    """Keep ``puzzles`` of ``geometry``; a position kept already is left as it is. How many were new.

    :raises ValueError: a puzzle of another board or rule (a caller's mistake, not the user's).
    """
    variant = format_variant(geometry)
    rows = []
    for puzzle in puzzles:
        if puzzle.position.geometry != geometry:
            raise ValueError(f"a puzzle of {puzzle.position.geometry} kept as one of {variant}")
        rows.append((variant, format_position(puzzle.position), puzzle.answer, puzzle.value.label, puzzle.remoteness,
                     puzzle.difficulty, puzzle.moves, puzzle.losing, puzzle.natural))  # fmt: skip
    with library.transaction() as connection:
        return connection.executemany(
            "INSERT OR IGNORE INTO puzzles (variant, position, answer, value, remoteness, difficulty, moves, losing, natural) "  # pragma: no mutate
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",  # pragma: no mutate
            rows,
        ).rowcount


def kept_puzzles(library: Library, geometry: Geometry, *, limit: int | None = None) -> list[Puzzle]:
    """The puzzles kept for ``geometry``, easiest first, then by position text (the order
    :func:`~workbench.engine.puzzles.find_puzzles` gives); the first ``limit`` of them when given.

    :raises LibraryError: the library cannot be read, or a row is not a puzzle of this board any more.
    """
    if not _has_practice(library):
        return []
    rows = library.query(
        "SELECT position, answer, value, remoteness, difficulty, moves, losing, natural FROM puzzles "  # pragma: no mutate
        "WHERE variant = ? ORDER BY difficulty, position LIMIT ?",  # pragma: no mutate
        (format_variant(geometry), -1 if limit is None else limit),
    )
    return [_puzzle(library, geometry, row) for row in rows]


def _puzzle(library: Library, geometry: Geometry, row: tuple) -> Puzzle:
    text, answer, value, remoteness, grade, moves, losing, natural = row
    try:
        numbers = (answer, remoteness, moves, losing, natural)
        if not all(isinstance(number, int) for number in numbers) or not isinstance(grade, (int, float)):
            raise ValueError("a number that is not one")
        return Puzzle(
            parse_position(str(text), geometry),
            answer,
            _VALUES[value],
            remoteness,
            float(grade),
            moves,
            losing,
            natural,
        )
    except (ValueError, KeyError) as error:
        raise LibraryError(f"library {str(library.path)!r}: puzzle {str(text)[:40]!r} is damaged ({error})") from None


def record_attempt(library: Library, *, kind: Kind, geometry: Geometry, position: Position, answer: Cell | None,
                   solved: bool, study: str | None = None) -> None:  # fmt: skip
    """Write one attempt at ``position``: the cell answered (None when skipped, or the solution was shown), whether
    it was right, and for a mistake the study it came from.

    :raises ValueError: an unknown ``kind``, or a position or cell not of ``geometry`` (a caller's mistake).
    :raises LibraryError: the library cannot be written.
    """
    _check_kind(kind)
    if position.geometry != geometry:
        raise ValueError(f"a position of {position.geometry} recorded as one of {format_variant(geometry)}")
    if answer is not None and not geometry.contains(answer):
        raise ValueError(f"no cell {answer} on {format_variant(geometry)}")
    with library.transaction() as connection:
        connection.execute(
            "INSERT INTO attempts (kind, variant, position, answer, solved, study) VALUES (?, ?, ?, ?, ?, ?)",  # pragma: no mutate
            (kind, format_variant(geometry), format_position(position), answer, int(bool(solved)), study),
        )


def attempt_stats(library: Library, kind: Kind, geometry: Geometry) -> AttemptStats:
    """How the attempts of ``kind`` on ``geometry`` went: how many, how many solved, the streak now.

    :raises LibraryError: the library cannot be read.
    """
    _check_kind(kind)
    if not _has_practice(library):
        return AttemptStats(0, 0, 0)
    variant = format_variant(geometry)
    [(attempts, solved, streak)] = library.query(
        "SELECT count(*), coalesce(sum(solved), 0), "  # pragma: no mutate
        "count(*) FILTER (WHERE id > coalesce((SELECT max(id) FROM attempts "  # pragma: no mutate
        "WHERE kind = ?1 AND variant = ?2 AND solved = 0), 0)) "  # pragma: no mutate
        "FROM attempts WHERE kind = ?1 AND variant = ?2",  # pragma: no mutate
        (kind, variant),
    )
    return AttemptStats(attempts, solved, streak)


def missed_positions(library: Library, kind: Kind, geometry: Geometry) -> list[Position]:
    """The positions whose latest attempt of ``kind`` on ``geometry`` was not solved, the latest first.

    :raises LibraryError: the library cannot be read, or a row's position is not one of this board.
    """
    _check_kind(kind)
    if not _has_practice(library):
        return []
    rows = library.query(
        "SELECT position FROM attempts AS a WHERE kind = ?1 AND variant = ?2 AND solved = 0 "  # pragma: no mutate
        "AND id = (SELECT max(id) FROM attempts AS b WHERE b.kind = ?1 AND b.variant = ?2 AND b.position = a.position) "  # pragma: no mutate
        "ORDER BY id DESC",  # pragma: no mutate
        (kind, format_variant(geometry)),
    )
    positions = []
    for (text,) in rows:
        try:
            positions.append(parse_position(str(text), geometry))
        except ValueError as error:
            raise LibraryError(
                f"library {str(library.path)!r}: an attempt's position {str(text)[:40]!r} is damaged ({error})"
            ) from None
    return positions


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"an attempt is at a {' or a '.join(KINDS)}, not {kind!r}")


def _has_practice(library: Library) -> bool:
    """Whether the library has the practice tables: a read-only library of an older schema is read as it is."""
    try:
        version = library.connection.execute("PRAGMA user_version").fetchone()[0]  # pragma: no mutate
    except sqlite3.DatabaseError as error:
        raise LibraryError(f"library {str(library.path)!r}: {describe(error)}") from None
    return version >= PRACTICE_SINCE


__all__ = [
    "KINDS",
    "AttemptStats",
    "Kind",
    "attempt_stats",
    "keep_puzzles",
    "kept_puzzles",
    "missed_positions",
    "record_attempt",
]
