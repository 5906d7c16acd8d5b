"""A scorecard for a line of play, from the exact values: each move rated, each side's accuracy.

A move is *best* when it is one of the position's best moves (the value kept,
the quickest win or the slowest loss); *inaccurate* when it keeps the value but
wins more slowly or loses more quickly; a *mistake* when it gives away a win or
a draw. A side's accuracy is the share of its moves that were best.

Beyond 16 cells (:func:`review_searched`) a position's values are what a search proved: a move is rated only
where that settles it (every move proven, or a proven move better than the one played); any other is
*not proven*, never guessed, and a side's accuracy counts only its rated moves.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .analysis import answers_given, check_exact
from .answers import Answers
from .geometry import Cell, cell_bit
from .position import Player, Position
from .solver import Value

if TYPE_CHECKING:
    from .search import SearchResult


class Rating(enum.Enum):
    BEST = "best"
    INACCURATE = "inaccurate"
    MISTAKE = "mistake"
    NOT_PROVEN = "not proven"


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of the line, judged for the side that made it."""

    ply: int
    """1 for the first move of the line."""
    player: Player
    cell: Cell
    rating: Rating
    value_before: Value | None
    """What the mover could still get before the move (exact, best play from there); beyond 16 cells the best
    a search proved (at least that much: ``exact_before`` says whether it is all), None where it proved none."""
    remoteness_before: int | None
    value_after: Value | None
    """What the mover is left with after it; None where no search proved it."""
    remoteness_after: int | None
    best_cells: tuple[Cell, ...]
    """The best moves; beyond 16 cells, while not every move is proven, the best of those proven."""
    exact_before: bool = True
    """Every move of the position before was proven (always, up to 16 cells)."""


@dataclass(frozen=True, slots=True)
class SideScore:
    moves: int
    best: int
    inaccurate: int
    mistakes: int
    not_proven: int = 0

    @property
    def accuracy(self) -> float | None:
        """Share of this side's rated moves that were best; None when it has none rated."""
        rated = self.moves - self.not_proven
        return self.best / rated if rated else None


def review_line(start: Position, cells: Iterable[Cell], answers: Answers | None = None) -> tuple[MoveReview, ...]:
    """Rate every move of ``cells`` played from ``start``, by the board's exact values: its ``answers``
    (:func:`workbench.kept.answers_for`), by default the engine's own (its tables up to 12 cells).

    :raises IllegalMoveError: a move of the line cannot be played.
    :raises BoardTooLargeError: where the values a rating needs are not known (a searched board; 13 to 16 cells
        with no ``answers`` given).
    """
    answers = answers_given(start.geometry, answers)
    check_exact(answers)
    reviews = []
    position = start
    for ply, cell in enumerate(cells, start=1):
        before = answers.analyze(position)
        after = position.play(cell)  # raises for an illegal move, as the line is then no line
        played = before.move(cell)
        # for the type checker (no mutate): a position in play has a value and every legal move an analysis
        assert before.value is not None and before.remoteness is not None  # pragma: no mutate - narrows types
        assert played is not None and played.value is not None  # pragma: no mutate - narrows types
        best = before.masks.best & cell_bit(cell)
        if played.value < before.value:
            rating = Rating.MISTAKE
        elif best:
            rating = Rating.BEST
        else:
            rating = Rating.INACCURATE
        best_cells = tuple(move.cell for move in before.moves if before.masks.best & cell_bit(move.cell))
        reviews.append(
            MoveReview(
                ply,
                position.turn,
                cell,
                rating,
                before.value,
                before.remoteness,
                played.value,
                played.remoteness,
                best_cells,
            )
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
        not_proven=ratings.count(Rating.NOT_PROVEN),
    )


def review_searched(
    start: Position, cells: Iterable[Cell], searched: Callable[[Position], SearchResult]
) -> tuple[MoveReview, ...]:
    """Rate every move of ``cells`` from ``start`` on a board beyond the strong solutions, from
    ``searched(position)``: a search of each position before a move (its budget is the caller's).

    Rated exactly where the search settles it: every move proven (then as :func:`review_line` rates), or a
    proven move of a better value than the move played, which is then a mistake whatever the rest prove.
    Otherwise :attr:`Rating.NOT_PROVEN`.

    :raises IllegalMoveError: a move of the line cannot be played.
    """
    reviews = []
    position = start
    for ply, cell in enumerate(cells, start=1):
        after = position.play(cell)  # raises for an illegal move, as the line is then no line
        found = searched(position)
        proven = [move for move in found.moves if move.proven]
        played = next((move for move in found.moves if move.cell == cell), None)
        rank = {move.cell: move.outcome for move in proven}
        top = max(rank.values(), default=None)
        best_cells = tuple(sorted(c for c, r in rank.items() if r == top))
        best_move = next((move for move in proven if move.cell == best_cells[0]), None) if best_cells else None
        if played is None or played.value is None:  # not proven
            rating = Rating.NOT_PROVEN
        elif best_move is not None and best_move.value is not None and played.value < best_move.value:
            rating = Rating.MISTAKE
        elif played.value is Value.WIN and played.remoteness == 1:
            rating = Rating.BEST  # no win is quicker: best whatever the rest prove
        elif not found.complete:
            rating = Rating.NOT_PROVEN
        else:
            rating = Rating.BEST if rank[cell] == top else Rating.INACCURATE
        reviews.append(
            MoveReview(
                ply,
                position.turn,
                cell,
                rating,
                best_move.value if best_move else None,
                best_move.remoteness if best_move else None,
                played.value if played is not None else None,
                played.remoteness if played is not None else None,
                best_cells,
                exact_before=found.complete,
            )
        )
        position = after
    return tuple(reviews)


def searched_headline(review: MoveReview, position: Position) -> str | None:
    """The verdict on a move of a board beyond 16 cells, as far as the search of ``position`` (before the move)
    proved it, in the words of :func:`workbench.engine.explain.headline`: ``g10?? Mistake: draw at least → loss in
    7. Proven better: h8.`` None where the search settles nothing about the move."""
    from .explain import value_words
    from .geometry import cell_name, cell_names

    geometry = position.geometry
    name = cell_name(review.cell, geometry)
    if review.rating is Rating.NOT_PROVEN or review.value_after is None:
        return None
    # a proven move has its remoteness; a move rated below the best, the value it fell from
    assert review.remoteness_after is not None  # pragma: no mutate - narrows types
    after = value_words(review.value_after, review.remoteness_after)
    best = cell_names(review.best_cells, geometry, ", ")
    if review.rating is Rating.MISTAKE:
        assert review.value_before is not None  # pragma: no mutate - narrows types
        assert review.remoteness_before is not None  # pragma: no mutate - narrows types
        before = value_words(review.value_before, review.remoteness_before)
        if review.exact_before:
            return f"{name}?? Mistake: {before} → {after}. Best was {best}."
        # a proven better move; the best of all may be better still: quicker, where it wins ("win in 3 at least"
        # read as three moves or more), so a win is said without its count, as the review's lines say it
        at_least = review.value_before.label + ("" if review.value_before is Value.WIN else " at least")
        return f"{name}?? Mistake: {at_least} → {after}. Proven better: {best}."
    if review.rating is Rating.INACCURATE:
        assert review.value_before is not None  # pragma: no mutate - narrows types
        assert review.remoteness_before is not None  # pragma: no mutate - narrows types
        before = value_words(review.value_before, review.remoteness_before)
        return f"{name}?! Inaccuracy: {before} → {after}. Best was {best}."
    # rated best with moves unproven only where it wins at once: no win is quicker, whatever the rest prove
    return f"{name} Best move: {after}" + (
        "." if review.exact_before else " (no win is quicker; not every move proven)."
    )
