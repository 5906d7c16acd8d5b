"""A scorecard for a line of play, from the exact values: each move rated, each side's accuracy.

A move is *best* when it is one of the position's best moves (the value kept,
the quickest win or the slowest loss); *inaccurate* when it keeps the value but
wins more slowly or loses more quickly; a *mistake* when it gives away a win or
a draw. A side's accuracy is the share of its moves that were best.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable

from .analysis import analyze, check_exact
from .geometry import Cell, cell_bit
from .position import Player, Position
from .solver import Value


class Rating(enum.Enum):
    BEST = "best"
    INACCURATE = "inaccurate"
    MISTAKE = "mistake"


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of the line, judged for the side that made it."""

    ply: int
    """1 for the first move of the line."""
    player: Player
    cell: Cell
    rating: Rating
    value_before: Value
    """What the mover could still get before the move (exact, best play from there)."""
    remoteness_before: int
    value_after: Value
    """What the mover is left with after it."""
    remoteness_after: int
    best_cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class SideScore:
    moves: int
    best: int
    inaccurate: int
    mistakes: int

    @property
    def accuracy(self) -> float | None:
        """Share of this side's moves that were best; None when it made none."""
        return self.best / self.moves if self.moves else None


def review_line(start: Position, cells: Iterable[Cell]) -> tuple[MoveReview, ...]:
    """Rate every move of ``cells`` played from ``start``.

    :raises IllegalMoveError: a move of the line cannot be played.
    :raises BoardTooLargeError: above 16 cells, where the values a rating needs are not known.
    """
    check_exact(start.geometry)
    reviews = []
    position = start
    for ply, cell in enumerate(cells, start=1):
        before = analyze(position)
        after = position.play(cell)  # raises for an illegal move, as the line is then no line
        played = before.move(cell)
        # for the type checker: a position in play has a value and every legal move an analysis
        assert before.value is not None and before.remoteness is not None and played is not None  # pragma: no mutate
        best = before.masks.best & cell_bit(cell)
        if played.value < before.value:
            rating = Rating.MISTAKE
        elif best:
            rating = Rating.BEST
        else:
            rating = Rating.INACCURATE
        best_cells = tuple(move.cell for move in before.moves if before.masks.best & cell_bit(move.cell))
        reviews.append(
            MoveReview(ply, position.turn, cell, rating, before.value, before.remoteness, played.value,
                       played.remoteness, best_cells)  # fmt: skip
        )
        position = after
    return tuple(reviews)


def score(reviews: Iterable[MoveReview], player: Player) -> SideScore:
    """How ``player`` did over ``reviews``."""
    ratings = [review.rating for review in reviews if review.player is player]
    return SideScore(
        moves=len(ratings),
        best=ratings.count(Rating.BEST),
        inaccurate=ratings.count(Rating.INACCURATE),
        mistakes=ratings.count(Rating.MISTAKE),
    )
