"""The facts a teacher may say about a move, each one a claim that can be checked against the exact solution.

An explanation (:mod:`workbench.engine.explain`) is built from facts, and its words are told from them alone
(:mod:`workbench.engine.telling`): nothing is said that is not one of these. Every fact is about a position of the
explanation's line: the one before ``line[step]``, where ``player`` is to move. Its kind says what it claims:

``value``
    Playing ``cell`` there gives ``player`` ``value``, the game ending ``remoteness`` moves later (this move
    counted) under best play.
``plays``
    ``cell`` is one of the best moves there (the best value, the quickest win or the slowest loss).
``completes``
    ``cell`` completes a line of ``player``'s (a win; under misère a loss).
``threatens``
    ``cell`` makes threats at exactly ``cells``: after it, ``player`` would complete a line next at each of
    them, and could not before it (a threat already on the board is not the move's).
``passes up``
    ``player`` could complete a line now at exactly ``cells``, and ``cell`` (which completes none) is not one
    of them.
``stops only one``
    After ``cell``, the other side has no line of its own to complete, and ``player`` would complete one at
    each of ``cells`` (two or more, the move's threats and any standing before it): one reply can block only
    one of them.
``must block``
    The other side would complete a line at ``cell`` and nowhere else, and ``player`` has no line to complete
    first: any other move loses at once.
``blocks``
    The other side would complete a line at ``cell``.
``leaves``
    After ``cell`` (which completes no line), the other side would complete a line next at exactly ``cells``.
``squeezes``
    Under misère: ``cell`` completes no line of ``player``'s, and leaves the other side only cells that complete
    a line of its own.
``must complete``
    Under misère: every empty cell there completes a line of ``player``'s, ``cell`` among them.
``only move``
    Every move there other than ``cell`` (they are ``cells``) gives ``player`` less than ``cell`` does; the best
    of them gives ``value``.
``worst other``
    ``cells`` are the worst moves there other than the explained one (the quickest loss, else the slowest draw or
    win), each giving ``value`` in ``remoteness`` moves; ``cell`` is the first of them.
``keepers``
    ``cells`` are exactly the moves there that keep the position's value, ``value``.
``best``
    ``cells`` are exactly the best moves there, giving ``value`` in ``remoteness`` moves.

Pure: imports only the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .geometry import Bitboard, Cell, Geometry, cell_bit, cells_of
from .position import Player, Position
from .solver import Value
from .threats import cells_of_bits, completions, squeezes

FACT_KINDS = (
    "value",
    "plays",
    "completes",
    "threatens",
    "passes up",
    "stops only one",
    "must block",
    "blocks",
    "leaves",
    "squeezes",
    "must complete",
    "only move",
    "worst other",
    "keepers",
    "best",
)


@dataclass(frozen=True, slots=True)
class Fact:
    """One claim about the position before ``line[step]`` of an explanation (see the module's list)."""

    kind: str
    """One of :data:`FACT_KINDS`."""
    step: int
    player: Player
    """The side to move in the fact's position."""
    cell: Cell | None = None
    cells: tuple[Cell, ...] = ()
    value: Value | None = None
    remoteness: int | None = None

    def later(self, steps: int) -> Fact:
        """The same fact, about a line that has ``steps`` more moves before it."""
        return Fact(self.kind, self.step + steps, self.player, self.cell, self.cells, self.value, self.remoteness)


DECISIVE = frozenset({"completes", "stops only one", "leaves", "squeezes", "must complete"})
"""Facts after which the rest of the line follows by itself: the telling stops there."""


@lru_cache(maxsize=64)
def _lines_through(geometry: Geometry) -> dict[Bitboard, tuple[Bitboard, ...]]:
    """The lines through each cell (by its bit): a move changes only those."""
    return {bit: tuple(line for line in geometry.lines if line & bit) for bit in cells_of_bits(geometry.full)}


@dataclass(frozen=True, slots=True)
class Board:
    """What every move of one position shares: the sides, and where each would complete a line now."""

    position: Position
    own: Bitboard
    other: Bitboard
    mine: Bitboard
    """Empty cells where the side to move would complete a line."""
    theirs: Bitboard
    """Empty cells where the other side would."""
    squeezes: Bitboard
    """Under misère, the moves that leave the other side only cells completing a line of theirs (else 0)."""


@lru_cache(maxsize=1024)
def board_of(position: Position) -> Board:
    """The shared bitboards of ``position`` (in play), kept for the positions seen lately: each of their moves
    asks."""
    geometry = position.geometry
    own, other = position.sides
    return Board(
        position,
        own,
        other,
        completions(geometry, own, other),
        completions(geometry, other, own),
        squeezes(geometry, own, other) if geometry.misere else 0,
    )


def after_move(board: Board, bit: Bitboard) -> tuple[bool, Bitboard, Bitboard]:
    """(the move at ``bit`` completes a line of the mover's, where the mover would complete one next, where the
    other side would), from the lines through ``bit`` alone."""
    geometry = board.position.geometry
    after, other = board.own | bit, board.other
    through = _lines_through(geometry)[bit]
    if any(line & after == line for line in through):
        return True, 0, board.theirs & ~bit
    mine = board.mine & ~bit
    need = geometry.k - 1
    for line in through:
        if not line & other and (line & after).bit_count() == need:
            mine |= line & ~after
    # a line of theirs through the move is blocked by it; every other line of theirs is as it was
    return False, mine, board.theirs & ~bit


def move_facts(position: Position, cell: Cell, step: int, *, best: bool) -> tuple[Fact, ...]:
    """What ``cell`` does in ``position`` (the position before ``line[step]``): the facts of the board alone,
    and ``plays`` where ``best`` says it is a best move there (the caller knows the values)."""
    board = board_of(position)
    player = position.turn
    bit = cell_bit(cell)
    completes, mine, theirs = after_move(board, bit)
    if position.geometry.misere:
        empty = position.geometry.full & ~(board.own | board.other)
        if board.mine == empty:
            return (Fact("must complete", step, player, cell),)
        if completes:
            return (Fact("completes", step, player, cell),)
        facts = [Fact("plays", step, player, cell)] if best else []
        if board.squeezes & bit:
            facts.append(Fact("squeezes", step, player, cell))
        return tuple(facts)
    if completes:
        return (Fact("completes", step, player, cell),)
    facts = []
    if board.mine:
        facts.append(Fact("passes up", step, player, cell, cells_of(board.mine)))
    if board.theirs & bit:
        forced = board.theirs == bit and not board.mine
        facts.append(Fact("must block" if forced else "blocks", step, player, cell))
    elif best:
        facts.append(Fact("plays", step, player, cell))
    if theirs:  # the other side completes a line next: what the move threatens does not matter
        facts.append(Fact("leaves", step, player, cell, cells_of(theirs)))
        return tuple(facts)
    made = mine & ~board.mine
    if made:
        facts.append(Fact("threatens", step, player, cell, cells_of(made)))
    if mine & (mine - 1):
        facts.append(Fact("stops only one", step, player, cell, cells_of(mine)))
    return tuple(facts)


__all__ = ["DECISIVE", "FACT_KINDS", "Board", "Fact", "after_move", "board_of", "move_facts"]
