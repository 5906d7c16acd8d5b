"""Positions of one ply numbered densely, by halves of the board: the index space of the solutions past 16 cells.

A strong solution of up to 16 cells keeps one byte for each of the ``3**n`` ternary indices (about 4.3 × 10⁷ bytes
at 16, 3.5 × 10⁹ at 20, most of it unreachable). Past 16 cells each ply gets its own array instead, holding exactly
the positions with the ply's marks (``C(n, X's) · C(n − X's, O's)`` of them): 7.4 × 10⁸ bytes for every ply
of 4×5 together, ~1.6 × 10¹¹ for 5×5.

The board is cut in two halves, A (the first ``n // 2`` cells) and B (the rest). Each half's *pattern* is
its ternary number (digit 0 empty, 1 X, 2 O, as :func:`workbench.engine.strong.ternary` reads the whole
board, so that the whole board's ternary index is ``a + 3**len(A) · b``). A ply's positions fall into
*blocks* by how many X and O marks lie in A; within a block a position's rank is
``offset + rank(a) · size(B's group) + rank(b)``, where a half's rank counts the patterns of its group
(same marks) below it. The point of it: a move changes one half alone, so the ranks of the children of a
whole block of positions are one row term plus one column term, two small arrays added by broadcasting;
and a stretch of ranks is rows of a block, so any range of a ply can be solved on its own (a chunk of an
array in a store, a task on a cluster).

Pure numpy; no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from .geometry import Bitboard, Geometry


@dataclass(frozen=True, eq=False)
class Half:
    """One half of the board: ``size`` cells from cell index ``start`` (0-based)."""

    start: int
    size: int
    x_bits: np.ndarray
    """uint32 per pattern: the cells X holds in it, as board bits."""
    o_bits: np.ndarray
    rank: np.ndarray
    """int64 per pattern: how many patterns of its group (the same X and O counts) come before it."""
    groups: dict[tuple[int, int], np.ndarray]
    """(X count, O count) → the group's patterns, ascending (int64)."""
    ternary: np.ndarray
    """int64 per set of the half's cells (bit i for its cell i): Σ 3**i over the set."""

    def group_size(self, xs: int, os: int) -> int:
        found = self.groups.get((xs, os))
        return 0 if found is None else int(found.size)


@dataclass(frozen=True)
class Block:
    """The positions of a ply with ``ax`` X and ``ao`` O marks in half A: ``rows`` of A's group by ``cols``
    of B's, from rank ``offset``."""

    ax: int
    ao: int
    bx: int
    bo: int
    offset: int
    rows: int
    cols: int

    @property
    def stop(self) -> int:
        return self.offset + self.rows * self.cols


@dataclass(frozen=True, eq=False)
class Numbering:
    """The ranks of every ply of a board."""

    geometry: Geometry
    a: Half
    b: Half
    blocks: tuple[tuple[Block, ...], ...]
    """Per ply, its blocks in rank order."""

    @property
    def plies(self) -> int:
        return len(self.blocks)

    def ply_size(self, ply: int) -> int:
        blocks = self.blocks[ply]
        return blocks[-1].stop if blocks else 0

    def block(self, ply: int, ax: int, ao: int) -> Block:
        return _block_index(self)[ply][(ax, ao)]

    def rank(self, x: Bitboard, o: Bitboard) -> tuple[int, int]:
        """(ply, rank) of a position given by its bitboards (counts as play leaves them)."""
        a, b = self.patterns(x, o)
        ply = (x | o).bit_count()
        ax, ao = _counts(a, self.a.size)
        block = self.block(ply, ax, ao)
        return ply, block.offset + int(self.a.rank[a]) * block.cols + int(self.b.rank[b])

    def patterns(self, x: Bitboard, o: Bitboard) -> tuple[int, int]:
        """The two halves' patterns of a position."""
        a = b = 0
        for cell in range(self.geometry.size):
            digit = 1 if x >> cell & 1 else 2 if o >> cell & 1 else 0
            if cell < self.a.size:
                a += digit * 3**cell
            else:
                b += digit * 3 ** (cell - self.a.size)
        return a, b

    def position(self, ply: int, rank: int) -> tuple[Bitboard, Bitboard]:
        """The (x, o) bitboards of ``rank`` in ``ply``."""
        for block in self.blocks[ply]:
            if block.offset <= rank < block.stop:
                row, col = divmod(rank - block.offset, block.cols)
                a = self.a.groups[(block.ax, block.ao)][row]
                b = self.b.groups[(block.bx, block.bo)][col]
                return (int(self.a.x_bits[a] | self.b.x_bits[b]), int(self.a.o_bits[a] | self.b.o_bits[b]))
        raise IndexError(f"rank {rank} is outside ply {ply} ({self.ply_size(ply)} positions)")

    def ranks(self, x: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(ply, rank) of each of many positions given as arrays of bitboards (vectorised :meth:`rank`)."""
        a, b = self.a, self.b
        x = np.asarray(x, dtype=np.int64)
        o = np.asarray(o, dtype=np.int64)
        a_cells, b_cells = (1 << a.size) - 1, (1 << b.size) - 1
        xa, oa = x & a_cells, o & a_cells
        xb, ob = x >> a.size & b_cells, o >> a.size & b_cells
        pa = a.ternary[xa] + 2 * a.ternary[oa]
        pb = b.ternary[xb] + 2 * b.ternary[ob]
        ply = np.bitwise_count(x | o).astype(np.int64)
        offsets, cols = _block_arrays(self)
        where = (ply, np.bitwise_count(xa).astype(np.int64), np.bitwise_count(oa).astype(np.int64))
        return ply, offsets[where] + a.rank[pa] * cols[where] + b.rank[pb]

    def ternary_indices(self, ply: int) -> np.ndarray:
        """The whole-board ternary index of every rank of ``ply``, in rank order (int64; for comparisons with
        the solutions of up to 16 cells)."""
        parts = []
        scale = 3**self.a.size
        for block in self.blocks[ply]:
            a = self.a.groups[(block.ax, block.ao)]
            b = self.b.groups[(block.bx, block.bo)]
            parts.append((a[:, None] + scale * b[None, :]).ravel())
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _counts(pattern: int, size: int) -> tuple[int, int]:
    xs = os = 0
    for _ in range(size):
        digit = pattern % 3
        xs += digit == 1
        os += digit == 2
        pattern //= 3
    return xs, os


def marks_at(ply: int) -> tuple[int, int]:
    """(X marks, O marks) on the board after ``ply`` moves (X moves first)."""
    return (ply + 1) // 2, ply // 2


def positions_with_marks(cells: int, ply: int) -> int:
    """How many boards of ``cells`` cells hold the marks of ``ply`` (reachable or not)."""
    xs, os = marks_at(ply)
    return comb(cells, xs) * comb(cells - xs, os)


@cache
def _half(start: int, size: int) -> Half:
    patterns = np.arange(3**size, dtype=np.int64)
    x_bits = np.zeros(patterns.size, dtype=np.uint32)
    o_bits = np.zeros(patterns.size, dtype=np.uint32)
    xs = np.zeros(patterns.size, dtype=np.int64)
    os = np.zeros(patterns.size, dtype=np.int64)
    for cell in range(size):
        digit = patterns // 3**cell % 3
        bit = np.uint32(1 << (start + cell))
        x_bits[digit == 1] |= bit
        o_bits[digit == 2] |= bit
        xs += digit == 1
        os += digit == 2
    rank = np.zeros(patterns.size, dtype=np.int64)
    groups = {}
    key = xs * (size + 1) + os
    for x_count in range(size + 1):
        for o_count in range(size + 1 - x_count):
            members = np.flatnonzero(key == x_count * (size + 1) + o_count)
            rank[members] = np.arange(members.size)
            members.flags.writeable = False
            groups[(x_count, o_count)] = members
    sets = np.arange(1 << size, dtype=np.int64)
    ternary = np.zeros(sets.size, dtype=np.int64)
    for cell in range(size):
        ternary += (sets >> cell & 1) * 3**cell
    for array in (x_bits, o_bits, rank, ternary):
        array.flags.writeable = False
    return Half(start, size, x_bits, o_bits, rank, groups, ternary)


@cache
def numbering(geometry: Geometry) -> Numbering:
    """The numbering of ``geometry``'s plies (kept: its halves' tables are 3**(n/2) entries each)."""
    n = geometry.size
    a = _half(0, n // 2)
    b = _half(n // 2, n - n // 2)
    plies = []
    for ply in range(n + 1):
        xs, os = marks_at(ply)
        blocks, offset = [], 0
        for ax in range(min(a.size, xs) + 1):
            for ao in range(min(a.size - ax, os) + 1):
                rows, cols = a.group_size(ax, ao), b.group_size(xs - ax, os - ao)
                if rows and cols:
                    blocks.append(Block(ax, ao, xs - ax, os - ao, offset, rows, cols))
                    offset += rows * cols
        assert offset == positions_with_marks(n, ply)  # pragma: no mutate - Vandermonde's identity
        plies.append(tuple(blocks))
    return Numbering(geometry, a, b, tuple(plies))


@cache
def _block_index(numbered: Numbering) -> tuple[dict[tuple[int, int], Block], ...]:
    return tuple({(block.ax, block.ao): block for block in blocks} for blocks in numbered.blocks)


@cache
def _block_arrays(numbered: Numbering) -> tuple[np.ndarray, np.ndarray]:
    """Each block's offset and columns as arrays indexed by (ply, X in A, O in A)."""
    shape = (numbered.plies, numbered.a.size + 1, numbered.a.size + 1)
    offsets = np.zeros(shape, dtype=np.int64)
    cols = np.zeros(shape, dtype=np.int64)
    for ply, blocks in enumerate(numbered.blocks):
        for block in blocks:
            offsets[ply, block.ax, block.ao] = block.offset
            cols[ply, block.ax, block.ao] = block.cols
    return offsets, cols
