"""Strong solutions of boards of at most 16 cells, by a ply-by-ply retrograde sweep over arrays.

Every position of a board with ``n`` cells has a base-3 number, its *index*: digit
``c`` is 0 for an empty cell ``c + 1``, 1 for X, 2 for O. A solution is one byte
per index (``3**n`` bytes: 43 MB for 16 cells), holding the value and remoteness
of the position for the side to move, or :data:`UNREACHED`.

The sweep goes forward once, ply by ply, to find the reachable positions (a
stamp array over the indices removes duplicates without sorting), then back
from the last ply to the first: each position takes the best of its children,
the winner hurrying and the loser delaying, exactly as :mod:`workbench.engine.solver`
does with dictionaries for small boards (the two are compared on every position
of the boards both can solve).

numpy does the work; this module does no I/O (:mod:`workbench.cache` keeps the
bytes between runs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .geometry import Bitboard, Geometry

MAX_STRONG_CELLS = 16
"""The largest board solved strongly: 3**16 bytes is 43 MB."""

UNREACHED = 255
"""The byte of an index that no game reaches."""

Progress = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)``: stage ``"forward"`` or ``"back"``, plies done of the total."""


class BoardTooLargeForStrongSolveError(ValueError):
    """A board with more cells than a strong solution holds."""


def pack(value: int, remoteness: int) -> int:
    """The byte of a value (-1, 0, 1 for the side to move) and a remoteness (0…16)."""
    return (value + 1) << 5 | remoteness


def unpack(byte: int) -> tuple[int, int] | None:
    """(value, remoteness) of a byte, or None for :data:`UNREACHED`."""
    if byte == UNREACHED:
        return None
    return (byte >> 5) - 1, byte & 31


@dataclass(frozen=True, eq=False)
class StrongSolution:
    """The value and remoteness of every reachable position of ``geometry``, with counts by ply."""

    geometry: Geometry
    packed: np.ndarray
    """uint8, one byte per index: :func:`pack` of (value, remoteness), or :data:`UNREACHED`."""
    positions_by_ply: tuple[int, ...]
    terminal_by_ply: tuple[int, ...]
    values_by_ply: tuple[tuple[int, int, int], ...]
    """For each ply, how many positions in play are (won, drawn, lost) for the side to move."""

    @property
    def positions(self) -> int:
        return sum(self.positions_by_ply)

    def index(self, x: Bitboard, o: Bitboard) -> int:
        return ternary(x, self.geometry.size) + 2 * ternary(o, self.geometry.size)

    def lookup(self, x: Bitboard, o: Bitboard) -> tuple[int, int] | None:
        """(value, remoteness) of the position for the side to move, or None when no game reaches it."""
        return unpack(int(self.packed[self.index(x, o)]))


def ternary(bb: Bitboard, size: int) -> int:
    """The base-3 number with digit 1 where ``bb`` has a cell."""
    total, power = 0, 1
    for _ in range(size):
        if bb & 1:
            total += power
        bb >>= 1
        power *= 3
    return total


def check_strongly_solvable(geometry: Geometry) -> None:
    """:raises BoardTooLargeForStrongSolveError: naming the board, above :data:`MAX_STRONG_CELLS` cells."""
    if geometry.size > MAX_STRONG_CELLS:
        raise BoardTooLargeForStrongSolveError(
            f"board {geometry}: strong solutions cover boards of at most {MAX_STRONG_CELLS} cells ({geometry.size} here)"
        )


def _ternary_table(size: int) -> np.ndarray:
    """``table[bb]`` is :func:`ternary` of ``bb`` for every bitboard of ``size`` cells."""
    boards = np.arange(1 << size, dtype=np.int64)
    table = np.zeros(1 << size, dtype=np.int64)
    for cell in range(size):
        table += ((boards >> cell) & 1) * 3**cell
    return table


def _holds_line(marks: np.ndarray, lines: tuple[Bitboard, ...]) -> np.ndarray:
    held = np.zeros(marks.shape, dtype=bool)
    for line in lines:
        held |= (marks & line) == line
    return held


def strong_solve(geometry: Geometry, progress: Progress | None = None) -> StrongSolution:
    """Solve every reachable position of ``geometry`` (both objectives).

    :raises BoardTooLargeForStrongSolveError: more than :data:`MAX_STRONG_CELLS` cells.
    """
    check_strongly_solvable(geometry)
    size = geometry.size
    report = progress or (lambda stage, done, total: None)
    table = _ternary_table(size)
    count = 3**size
    stamp = np.zeros(count, dtype=np.uint8)  # ply + 1 of the layer that last reached each index
    key_of = np.zeros(count, dtype=np.uint32)  # the (x, o) bitboards of each reached index: x | o << 16
    bits = [np.uint32(1 << cell) for cell in range(size)]

    # forward: the reachable positions of each ply, and which of them end the game
    layers: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (x, o, won) per ply
    x = np.zeros(1, dtype=np.uint32)
    o = np.zeros(1, dtype=np.uint32)
    for ply in range(size + 1):
        last_mover = x if ply % 2 == 1 else o
        won = _holds_line(last_mover, geometry.lines) if ply else np.zeros(1, dtype=bool)
        layers.append((x, o, won))
        report("forward", ply + 1, size + 1)
        if ply == size:
            break
        open_x, open_o = x[~won], o[~won]
        occupied = open_x | open_o
        mark = np.uint8(ply + 2)
        for bit in bits:
            empty = (occupied & bit) == 0
            child_x, child_o = (open_x[empty] | bit, open_o[empty]) if ply % 2 == 0 else (open_x[empty], open_o[empty] | bit)
            index = table[child_x] + 2 * table[child_o]
            stamp[index] = mark
            key_of[index] = child_x | (child_o << np.uint32(16))
        reached = np.flatnonzero(stamp == mark)
        if reached.size == 0:
            layers.append((np.zeros(0, np.uint32), np.zeros(0, np.uint32), np.zeros(0, bool)))
            break
        keys = key_of[reached]
        x, o = keys & np.uint32(0xFFFF), keys >> np.uint32(16)
    del stamp, key_of

    # back: each position takes the best of its children for the side to move
    packed = np.full(count, UNREACHED, dtype=np.uint8)
    line_made = pack(1 if geometry.misere else -1, 0)  # for the side to move after the other side made a line
    positions_by_ply, terminal_by_ply, values_by_ply = [], [], []
    for ply in range(len(layers) - 1, -1, -1):
        x, o, won = layers[ply]
        index = table[x] + 2 * table[o]
        result = np.empty(x.size, dtype=np.uint8)
        result[won] = line_made
        full = ~won if ply == size else np.zeros(x.size, dtype=bool)
        result[full] = pack(0, 0)
        in_play = ~won & ~full
        if in_play.any():
            result[in_play] = _best_of_children(packed, table, x[in_play], o[in_play], ply, bits, size)
        packed[index] = result
        values = (result[in_play] >> 5).astype(np.int64) - 1
        positions_by_ply.append(int(x.size))
        terminal_by_ply.append(int(won.sum() + full.sum()))
        values_by_ply.append((int((values == 1).sum()), int((values == 0).sum()), int((values == -1).sum())))
        report("back", len(layers) - ply, len(layers))
    return StrongSolution(
        geometry,
        packed,
        tuple(reversed(positions_by_ply)),
        tuple(reversed(terminal_by_ply)),
        tuple(reversed(values_by_ply)),
    )


# A child's outcome as a score for the side choosing it, higher is better: a win sooner beats a win later,
# every win beats a draw, a draw beats every loss, and a loss later beats a loss sooner (remoteness ≤ 16 < 32).
_DRAW_SCORE = 32


def _best_of_children(
    packed: np.ndarray, table: np.ndarray, x: np.ndarray, o: np.ndarray, ply: int, bits: list, size: int
) -> np.ndarray:
    best = np.zeros(x.size, dtype=np.int16)  # below every score: each position here has a move
    occupied = x | o
    for bit in bits:
        empty = np.flatnonzero((occupied & bit) == 0)
        if ply % 2 == 0:
            child = table[x[empty] | bit] + 2 * table[o[empty]]
        else:
            child = table[x[empty]] + 2 * table[o[empty] | bit]
        byte = packed[child].astype(np.int16)
        ours = 1 - (byte >> 5)  # the child's value is for the other side: ours is its negation
        remoteness = (byte & 31) + 1
        score = np.where(ours > 0, 64 - remoteness, np.where(ours < 0, remoteness, _DRAW_SCORE))
        best[empty] = np.maximum(best[empty], score)
    value = np.where(best > _DRAW_SCORE, 1, np.where(best < _DRAW_SCORE, -1, 0))
    # a draw always runs to the full board
    remoteness = np.where(best > _DRAW_SCORE, 64 - best, np.where(best < _DRAW_SCORE, best, size - ply))
    return ((value + 1) << 5 | remoteness).astype(np.uint8)


def analyze_strong(solution: StrongSolution, position):
    """The analysis of a legal ``position`` from a strong solution: the value and remoteness of the position and
    of every move, each move's trap share, the threat masks, and its symmetry (orbit, stabiliser, canonical form).
    Symmetry classes and game counts are not counted for these boards (None).

    :raises IllegalPositionError: no game reaches ``position``.
    """
    from .analysis import Analysis, Masks, MoveAnalysis, SymmetryInfo, exact_masks_of
    from .position import Player, Position, Status, check_legal
    from .solver import Value, preference
    from .symmetry import canonical, group_moves, stabilizer, transforms
    from .threats import completions, forks, squeezes
    from .geometry import cell_bit

    check_legal(position)
    geometry = position.geometry
    group = stabilizer(position)
    legal = position.legal_moves()
    symmetry = SymmetryInfo(
        canonical=canonical(position),
        class_id=None,
        class_count=None,
        orbit_size=len(transforms(geometry)) // len(group),
        stabilizer=group,
        move_classes=group_moves(legal, group),
    )
    if position.is_over:
        return Analysis(position, position.status, None, None, None, (), Masks(), symmetry, None)
    found = solution.lookup(position.x, position.o)
    assert found is not None, f"legal position {position} missing from the strong solution"
    moves = []
    for cell in legal:
        child = position.play(cell)
        child_value, child_remoteness = solution.lookup(child.x, child.o)
        replies = child.legal_moves()
        trap = None
        if replies:
            losing = 0
            for reply in replies:
                after = child.play(reply)
                if solution.lookup(after.x, after.o)[0] > 0:  # good for us, who move after the reply
                    losing += 1
            trap = losing / len(replies)
        moves.append(MoveAnalysis(cell, Value(-child_value), child_remoteness + 1, trap, None))
    moves = tuple(moves)
    best_key = max(preference(move.value, move.remoteness) for move in moves)
    best = 0
    for move in moves:
        if preference(move.value, move.remoteness) == best_key:
            best |= cell_bit(move.cell)
    to_move = position.turn
    me, opp = (position.x, position.o) if to_move is Player.X else (position.o, position.x)
    perfect_win, perfect_lose = exact_masks_of(moves)
    # from the lines alone: the planner's masks read the whole game tree below (354,000 pairs on 4×4)
    masks = Masks(
        win=completions(geometry, me, opp),
        block=completions(geometry, opp, me),
        fork=squeezes(geometry, me, opp) if geometry.misere else forks(geometry, me, opp),
        perfect_win=perfect_win,
        perfect_lose=perfect_lose,
        best=best,
    )
    value, remoteness = found
    return Analysis(position, Status.IN_PLAY, to_move, Value(value), remoteness, moves, masks, symmetry, None)


def strong_census(solution: StrongSolution) -> dict:
    """Counts over every reachable position, keyed as :func:`workbench.engine.census` keys them for 3×3."""
    in_play = solution.values_by_ply
    return {
        "variant": str(solution.geometry),
        "positions": solution.positions,
        "terminal_positions": sum(solution.terminal_by_ply),
        "positions_by_ply": list(solution.positions_by_ply),
        "terminal_by_ply": list(solution.terminal_by_ply),
        "positions_by_value": {"win": sum(c[0] for c in in_play), "draw": sum(c[1] for c in in_play),
                               "loss": sum(c[2] for c in in_play)},
        "value": dict(zip(("value", "remoteness"), solution.lookup(0, 0))),
    }  # fmt: skip
