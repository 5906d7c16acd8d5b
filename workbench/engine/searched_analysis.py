"""The analysis of a position on a board beyond the strong solutions (above 16 cells), whose moves are searched
one by one, and the masks every analysis reads off a position's lines and its moves' values.

:func:`searched_analysis` knows a move's value only where a search proved it; :func:`threat_masks`,
:func:`best_moves` and :func:`exact_masks_of` serve the tables' and the strong solutions' analyses too
(:mod:`.analysis`, which re-exports them).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from .geometry import Bitboard, Cell, cell_bit
from .position import Position, Status, check_legal, format_position
from .results import Analysis, Masks, MoveAnalysis, SymmetryInfo
from .solver import Value
from .symmetry import group_moves, stabilizer, transforms
from .threats import squeezes

if TYPE_CHECKING:
    from .search import SearchResult


def searched_analysis(position: Position, found: SearchResult | None = None) -> Analysis:
    """The analysis of a legal position on a board beyond the strong solutions: the threat masks and the
    symmetry at once, and the value and remoteness of each move that ``found`` (a search of this position,
    perhaps unfinished) proved; every other value None, the position's too until every move is proven. The
    classes are not numbered (None) and games not counted (None): only the tables and strong solutions know them.

    :raises IllegalPositionError: no game reaches ``position``.
    """
    _searched_position(position)  # checks the position is legal first
    if found is not None and found.position != position:
        raise ValueError(f"a search of {format_position(found.position)} says nothing of {format_position(position)}")
    proven = (
        () if found is None else tuple((move.cell, move.value, move.remoteness) for move in found.moves if move.proven)
    )
    return _searched_analysis(position, proven)


@lru_cache(maxsize=64)
def _searched_analysis(position: Position, proven_moves: tuple[tuple[Cell, Value, int], ...]) -> Analysis:
    """:func:`searched_analysis` of ``position`` and the moves (cell, value, remoteness) a search of it proved:
    the same for every report that proved nothing new (only its node counts differ) and every step back to a
    position searched before."""
    symmetry, legal, threats = _searched_position(position)
    if position.is_over:
        return Analysis(position, position.status, None, None, None, (), Masks(), symmetry, None)
    proven = {cell: (value, remoteness) for cell, value, remoteness in proven_moves}
    moves = tuple(
        MoveAnalysis(cell, *proven[cell], None, None) if cell in proven else MoveAnalysis(cell, None, None, None, None)
        for cell in legal
    )
    complete = len(proven) == len(legal)
    best = best_moves(moves) if complete else 0
    value = remoteness = None
    if complete:
        top = next(move for move in moves if cell_bit(move.cell) & best)
        value, remoteness = top.value, top.remoteness
    exact_win, exact_lose = exact_masks_of(moves)
    masks = replace(threats, perfect_win=exact_win, perfect_lose=exact_lose, best=best)
    return Analysis(position, Status.IN_PLAY, position.turn, value, remoteness, moves, masks, symmetry, None)


@lru_cache(maxsize=256)
def _searched_position(position: Position) -> tuple[SymmetryInfo, tuple[Cell, ...], Masks]:
    """What :func:`searched_analysis` reads off the position alone (its symmetry, its moves, the threat masks):
    the same for every report of a search (four a second) and every visit of a position, and not cheap on
    15×15."""
    from .symmetry import canonical

    check_legal(position)
    group = stabilizer(position)
    legal = position.legal_moves()
    symmetry = SymmetryInfo(
        canonical=canonical(position),
        class_id=None,
        class_count=None,
        orbit_size=len(transforms(position.geometry)) // len(group),
        stabilizer=group,
        move_classes=group_moves(legal, group),
    )
    threats = Masks() if position.is_over else threat_masks(position, perfect_win=0, perfect_lose=0, best=0)
    return symmetry, legal, threats


def threat_masks(position: Position, *, perfect_win: Bitboard, perfect_lose: Bitboard, best: Bitboard) -> Masks:
    """The masks of a position in play on a board of any size: ``win``, ``block`` and ``fork`` read off its
    lines (one pass each, quick on 15×15, where the planner's look-ahead is not), the rest as given."""
    from .threats import completions, forks

    geometry = position.geometry
    me, opp = position.sides
    return Masks(
        win=completions(geometry, me, opp),
        block=completions(geometry, opp, me),
        fork=squeezes(geometry, me, opp) if geometry.misere else forks(geometry, me, opp),
        perfect_win=perfect_win,
        perfect_lose=perfect_lose,
        best=best,
    )


def best_moves(moves: tuple[MoveAnalysis, ...]) -> Bitboard:
    """The ``best`` mask: every move of the best outcome (the quickest win, else a draw, else the slowest loss)."""
    top = max(move.outcome for move in moves)
    return sum(cell_bit(move.cell) for move in moves if move.outcome == top)


def exact_masks(analysis: Analysis) -> tuple[Bitboard, Bitboard]:
    """(perfect_win, perfect_lose) as the exact solver sees them."""
    return exact_masks_of(analysis.moves)


def exact_masks_of(moves: tuple[MoveAnalysis, ...]) -> tuple[Bitboard, Bitboard]:
    win = lose = 0
    for move in moves:
        if move.value is Value.WIN:
            win |= cell_bit(move.cell)
        elif move.value is Value.LOSS:
            lose |= cell_bit(move.cell)
    return win, lose
