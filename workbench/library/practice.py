"""Practice kept in the library: the puzzles found for each variant, and every attempt at a puzzle or at a mistake of
a study played again, with the counts a practice screen shows (attempts, solved, the streak), the positions due
again by spaced repetition, and the progress over time.

Spaced repetition is by Leitner boxes, kept in the attempts: a position solved goes up a box (from 1 to
:data:`BOXES`), anything else (a hint, a miss, the solution shown, a skip) sends it back to box 1; it is due again
:data:`BOX_DAYS` days after, by box (box 1 at once: what was missed comes back in the next sitting). One solved again
before it is due stays where it was.

A variant is written as :func:`~workbench.engine.geometry.format_variant` writes it, a position as
:func:`~workbench.engine.position.format_position` does. A library older than version 4 that is opened read-only
has neither table: it reads as one with no puzzles and no attempts (writing to it fails as any write to a
read-only library does).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Literal

from ..engine.geometry import Cell, Geometry, format_variant
from ..engine.position import Position, format_position, parse_position
from ..engine.puzzles import Puzzle
from ..engine.solver import Value
from .db import Library, LibraryError

Kind = Literal["mistake", "puzzle"]
"""What an attempt was at: a puzzle, or a position where a study went wrong."""
KINDS: tuple[Kind, ...] = ("mistake", "puzzle")
PRACTICE_SINCE = 4
"""The schema version that added the ``puzzles`` and ``attempts`` tables."""
REVIEWS_SINCE = 5
"""The schema version that added each attempt's result, theme, box and day due."""
RESULTS = ("solved", "helped", "found later", "shown", "missed", "skipped")
"""How an attempt ended (:data:`workbench.state.practice.RESULTS`); only ``solved`` is solved."""
BOXES = 5
BOX_DAYS = (0, 1, 3, 7, 21)
"""Days until a position in box 1, 2, … is due again."""

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


def keep_puzzles(library: Library, geometry: Geometry, puzzles: Iterable[Puzzle], *, every: bool = False) -> int:
    """Keep ``puzzles`` of ``geometry``; a position kept already is left as it is. How many were new. ``every`` says
    they are all the board's puzzles (:func:`~workbench.engine.puzzles.find_puzzles` with no count), and the library
    notes it (:func:`every_puzzle_kept`): a few kept by ``workbench puzzles --count`` are not the board's puzzles.

    :raises ValueError: a puzzle of another board or rule (a caller's mistake, not the user's).
    """
    variant = format_variant(geometry)
    rows = []
    for puzzle in puzzles:
        if puzzle.position.geometry != geometry:
            raise ValueError(f"a puzzle of {puzzle.position.geometry} kept as one of {variant}")
        rows.append(
            (
                variant,
                format_position(puzzle.position),
                puzzle.answer,
                puzzle.value.label,
                puzzle.remoteness,
                puzzle.difficulty,
                puzzle.moves,
                puzzle.losing,
                puzzle.natural,
            )
        )
    with library.transaction() as connection:
        new = connection.executemany(
            "INSERT OR IGNORE INTO puzzles "  # pragma: no mutate - SQL
            "(variant, position, answer, value, remoteness, "  # pragma: no mutate - SQL
            "difficulty, moves, losing, natural) "  # pragma: no mutate - SQL
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",  # pragma: no mutate - SQL
            rows,
        ).rowcount
        if every:
            connection.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",  # pragma: no mutate - SQL
                (_EVERY_PUZZLE + variant, str(len(rows))),
            )
        return new


_EVERY_PUZZLE = "every puzzle kept: "
"""The meta key (before the variant) noting that all of a board's puzzles are kept, with their number."""


def every_puzzle_kept(library: Library, geometry: Geometry) -> bool:
    """Whether all of ``geometry``'s puzzles are kept (``keep_puzzles(..., every=True)`` ran, and none was taken
    out since), rather than none or the few a ``workbench puzzles --count`` printed.

    :raises LibraryError: the library cannot be read.
    """
    if not _has_practice(library):
        return False
    variant = format_variant(geometry)
    noted = library.query("SELECT value FROM meta WHERE key = ?", (_EVERY_PUZZLE + variant,))  # pragma: no mutate
    if not noted:
        return False
    [(kept,)] = library.query("SELECT count(*) FROM puzzles WHERE variant = ?", (variant,))  # pragma: no mutate
    return str(noted[0][0]).isdigit() and kept >= int(noted[0][0])


def kept_puzzles(library: Library, geometry: Geometry, *, limit: int | None = None) -> list[Puzzle]:
    """The puzzles kept for ``geometry``, easiest first, then by position text (the order
    :func:`~workbench.engine.puzzles.find_puzzles` gives); the first ``limit`` of them when given.

    :raises LibraryError: the library cannot be read, or a row is not a puzzle of this board any more.
    """
    if not _has_practice(library):
        return []
    rows = library.query(
        "SELECT position, answer, value, remoteness, difficulty, moves, losing, natural "  # pragma: no mutate - SQL
        "FROM puzzles "  # pragma: no mutate - SQL
        "WHERE variant = ? ORDER BY difficulty, position LIMIT ?",  # pragma: no mutate - SQL
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


def record_attempt(
    library: Library,
    *,
    kind: Kind,
    geometry: Geometry,
    position: Position,
    answer: Cell | None,
    solved: bool | None = None,
    result: str | None = None,
    theme: str | None = None,
    study: str | None = None,
    today: date | None = None,
) -> int:
    """Write one attempt at ``position``: the cell answered last (None when skipped, or the solution was shown), how
    it ended (``result``, one of :data:`RESULTS`; or only whether it was ``solved``), the puzzle's theme, for a
    mistake the study it came from; and the Leitner box it goes to, with the day it is due again. Solved before it
    was due, it stays in its box, due on the same day (a puzzle asked again early proves nothing new); missed, it
    goes back to box 1 whenever that is. Returns the attempt's number, for :func:`settle_attempt`.

    :raises ValueError: an unknown ``kind`` or ``result``, or a position or cell not of ``geometry`` (a caller's
        mistake).
    :raises LibraryError: the library cannot be written.
    """
    _check_kind(kind)
    if result is None:
        result = "solved" if solved else "missed"
    if result not in RESULTS:
        raise ValueError(f"an attempt ends as one of {', '.join(RESULTS)}, not {result!r}")
    if position.geometry != geometry:
        raise ValueError(f"a position of {position.geometry} recorded as one of {format_variant(geometry)}")
    if answer is not None and not geometry.contains(answer):
        raise ValueError(f"no cell {answer} on {format_variant(geometry)}")
    variant, text = format_variant(geometry), format_position(position)
    day = today or date.today()
    with library.transaction() as connection:
        last = connection.execute(
            "SELECT box, due FROM attempts WHERE kind = ? AND variant = ? AND position = ? "  # pragma: no mutate
            "ORDER BY id DESC LIMIT 1",  # pragma: no mutate - SQL
            (kind, variant, text),
        ).fetchone()
        early = last is not None and last[1] is not None and last[1] > day.isoformat()
        if result == "solved" and early:  # solved before it was due: it stays in its box, due when it was
            box, due = last[0], last[1]
        else:
            box = min((last[0] if last else 1) + 1, BOXES) if result == "solved" else 1
            due = (day + timedelta(days=BOX_DAYS[box - 1])).isoformat()
        cursor = connection.execute(
            "INSERT INTO attempts "  # pragma: no mutate - SQL
            "(kind, variant, position, answer, solved, study, result, theme, box, due) "  # pragma: no mutate - SQL
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",  # pragma: no mutate - SQL
            (
                kind,
                variant,
                text,
                answer,
                int(result == "solved"),
                study,
                result,
                theme,
                box,
                due,
            ),
        )
    assert cursor.lastrowid is not None  # pragma: no mutate - an INSERT's row
    return cursor.lastrowid


def settle_attempt(library: Library, attempt: int, *, answer: Cell | None, result: str) -> None:
    """How attempt number ``attempt`` ended, where it was written before it ended: its first try lost (a wrong
    answer, a hint), it was kept at once as not solved, so that a crash or a kill after it cannot make the next
    sitting's first try of it a solve; now its last answer and ``result``. It stays in box 1, due when it was.

    :raises ValueError: ``result`` unknown, or ``solved`` (an attempt whose first try was lost never is).
    :raises LibraryError: the library cannot be written.
    """
    if result not in RESULTS or result == "solved":
        raise ValueError(f"an attempt kept before it ended ends as one of {', '.join(RESULTS[1:])}, not {result!r}")
    with library.transaction() as connection:
        connection.execute(
            "UPDATE attempts SET answer = ?, result = ? WHERE id = ? AND solved = 0",  # pragma: no mutate - SQL
            (answer, result, attempt),
        )


def attempt_stats(library: Library, kind: Kind, geometry: Geometry) -> AttemptStats:
    """How the attempts of ``kind`` on ``geometry`` went: how many, how many solved, the streak now.

    :raises LibraryError: the library cannot be read.
    """
    _check_kind(kind)
    if not _has_practice(library):
        return AttemptStats(0, 0, 0)
    [(attempts, solved, streak)] = library.query(_STATS, (kind, format_variant(geometry)))
    return AttemptStats(attempts, solved, streak)


_STATS = (
    "SELECT count(*), coalesce(sum(solved), 0), "  # pragma: no mutate - SQL
    "count(*) FILTER (WHERE id > coalesce((SELECT max(id) FROM attempts "  # pragma: no mutate - SQL
    "WHERE kind = ?1 AND variant = ?2 AND solved = 0), 0)) "  # pragma: no mutate - SQL
    "FROM attempts WHERE kind = ?1 AND variant = ?2"  # pragma: no mutate - SQL
)
"""Attempts, solved, and the streak (solved since the latest attempt that was not) of one kind on one variant."""


def missed_positions(library: Library, kind: Kind, geometry: Geometry) -> list[Position]:
    """The positions whose latest attempt of ``kind`` on ``geometry`` was not solved, the latest first.

    :raises LibraryError: the library cannot be read, or a row's position is not one of this board.
    """
    _check_kind(kind)
    if not _has_practice(library):
        return []
    rows = library.query(
        "SELECT position FROM attempts AS a WHERE kind = ?1 AND variant = ?2 AND solved = 0 "  # pragma: no mutate - SQL
        "AND id = (SELECT max(id) FROM attempts AS b "  # pragma: no mutate - SQL
        "WHERE b.kind = ?1 AND b.variant = ?2 AND b.position = a.position) "  # pragma: no mutate - SQL
        "ORDER BY id DESC",  # pragma: no mutate - SQL
        (kind, format_variant(geometry)),
    )
    return [_position_of(library, text, geometry) for (text,) in rows]


def due_positions(library: Library, kind: Kind, geometry: Geometry, *, today: date | None = None) -> list[Position]:
    """The positions of ``kind`` on ``geometry`` due again by their box (the latest attempt at each says when), the
    longest overdue first, then the latest attempted.

    :raises LibraryError: the library cannot be read, or a row's position is not one of this board.
    """
    _check_kind(kind)
    if _schema_version(library) < REVIEWS_SINCE:
        return missed_positions(library, kind, geometry)
    rows = library.query(
        "SELECT position FROM attempts AS a WHERE kind = ?1 AND variant = ?2 AND due <= ?3 "  # pragma: no mutate - SQL
        "AND id = (SELECT max(id) FROM attempts AS b "  # pragma: no mutate - SQL
        "WHERE b.kind = ?1 AND b.variant = ?2 AND b.position = a.position) "  # pragma: no mutate - SQL
        "ORDER BY due, id DESC",  # pragma: no mutate - SQL
        (kind, format_variant(geometry), (today or date.today()).isoformat()),
    )
    return [_position_of(library, text, geometry) for (text,) in rows]


def attempted_positions(library: Library, kind: Kind, geometry: Geometry) -> set[Position]:
    """Every position of ``kind`` on ``geometry`` attempted at least once (due or not).

    :raises LibraryError: the library cannot be read, or a row's position is not one of this board.
    """
    _check_kind(kind)
    if not _has_practice(library):
        return set()
    rows = library.query(
        "SELECT DISTINCT position FROM attempts WHERE kind = ? AND variant = ?",  # pragma: no mutate - SQL
        (kind, format_variant(geometry)),
    )
    return {_position_of(library, text, geometry) for (text,) in rows}


def due_counts(library: Library, *, today: date | None = None) -> dict[str, int]:
    """Positions due again today, by variant (puzzles and mistakes together); variants with none left out.

    :raises LibraryError: the library cannot be read.
    """
    counts: dict[str, int] = {}
    for (variant, _), count in sorted(_due_by(library, today or date.today()).items()):
        counts[variant] = counts.get(variant, 0) + count
    return counts


@dataclass(frozen=True, slots=True)
class Progress:
    """How practice of one kind went on one board."""

    variant: str
    kind: Kind
    attempts: int
    solved: int
    """Solved on the first try, with no hint."""
    streak: int
    due: int
    """Positions due again today."""
    themes: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Attempts and first-try solves by theme (puzzles kept since themes were)."""
    weeks: tuple[tuple[str, int, int], ...] = ()
    """(the Monday of a week, attempts, solved) for each week with attempts, oldest first."""

    def as_dict(self) -> dict:
        return {
            "variant": self.variant,
            "kind": self.kind,
            "attempts": self.attempts,
            "solved": self.solved,
            "streak": self.streak,
            "due": self.due,
            "themes": {
                theme: {"attempts": attempts, "solved": solved} for theme, (attempts, solved) in self.themes.items()
            },
            "weeks": [{"week": week, "attempts": attempts, "solved": solved} for week, attempts, solved in self.weeks],
        }


def progress(library: Library, geometry: Geometry | None = None, *, today: date | None = None) -> list[Progress]:
    """Practice on every board practised (or on ``geometry`` only), puzzles before mistakes, by variant.

    :raises LibraryError: the library cannot be read.
    """
    if not _has_practice(library):
        return []
    variants = [format_variant(geometry)] if geometry is not None else None
    sql = "SELECT DISTINCT variant, kind FROM attempts ORDER BY variant, kind DESC"  # pragma: no mutate - SQL
    pairs = library.query(sql)
    due = _due_by(library, today or date.today())
    reviews = _schema_version(library) >= REVIEWS_SINCE
    found = []
    for variant, kind in pairs:
        if kind not in KINDS or (variants is not None and variant not in variants):
            continue
        [(attempts, solved, streak)] = library.query(_STATS, (kind, variant))
        themes: dict[str, tuple[int, int]] = {}
        if reviews:
            for theme, count, right in library.query(
                "SELECT theme, count(*), sum(solved) FROM attempts "  # pragma: no mutate - SQL
                "WHERE kind = ? AND variant = ? AND theme IS NOT NULL "  # pragma: no mutate - SQL
                "GROUP BY theme ORDER BY theme",  # pragma: no mutate - SQL
                (kind, variant),
            ):
                themes[str(theme)] = (count, right)
        weeks = tuple(
            (str(week), count, right)
            for week, count, right in library.query(
                # the week of each attempt's day where the user is, as "due" and the bars' weeks count days (the
                # time kept is UTC's: a Sunday evening in America was Monday's, the next week's)
                "SELECT date(at, 'localtime', 'weekday 0', '-6 days'), "  # pragma: no mutate - SQL
                "count(*), sum(solved) FROM attempts "  # pragma: no mutate - SQL
                "WHERE kind = ? AND variant = ? GROUP BY 1 ORDER BY 1",  # pragma: no mutate - SQL
                (kind, variant),
            )
        )
        found.append(
            Progress(str(variant), kind, attempts, solved, streak, due.get((str(variant), kind), 0), themes, weeks)
        )
    return found


def _due_by(library: Library, today: date) -> dict[tuple[str, str], int]:
    if _schema_version(library) < REVIEWS_SINCE:
        return {}
    rows = library.query(
        "SELECT variant, kind, count(*) FROM attempts AS a WHERE due <= ?1 "  # pragma: no mutate - SQL
        "AND id = (SELECT max(id) FROM attempts AS b "  # pragma: no mutate - SQL
        "WHERE b.kind = a.kind AND b.variant = a.variant "  # pragma: no mutate - SQL
        "AND b.position = a.position) GROUP BY variant, kind",  # pragma: no mutate - SQL
        (today.isoformat(),),
    )
    return {(str(variant), str(kind)): count for variant, kind, count in rows}


def _position_of(library: Library, text: object, geometry: Geometry) -> Position:
    try:
        return parse_position(str(text), geometry)
    except ValueError as error:
        raise LibraryError(
            f"library {str(library.path)!r}: an attempt's position {str(text)[:40]!r} is damaged ({error})"
        ) from None


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"an attempt is at a {' or a '.join(KINDS)}, not {kind!r}")


def _has_practice(library: Library) -> bool:
    """Whether the library has the practice tables: a read-only library of an older schema is read as it is."""
    return _schema_version(library) >= PRACTICE_SINCE


def _schema_version(library: Library) -> int:
    return library.query("PRAGMA user_version")[0][0]  # pragma: no mutate - SQL


__all__ = [
    "BOXES",
    "BOX_DAYS",
    "KINDS",
    "RESULTS",
    "AttemptStats",
    "Kind",
    "Progress",
    "attempt_stats",
    "attempted_positions",
    "due_counts",
    "due_positions",
    "every_puzzle_kept",
    "keep_puzzles",
    "kept_puzzles",
    "missed_positions",
    "progress",
    "record_attempt",
    "settle_attempt",
]
