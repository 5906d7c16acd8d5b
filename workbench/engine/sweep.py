"""The retrograde sweep over ranked plies (:mod:`.ranked`): any range of one ply solved from the next ply, whole or
only the rows of its blocks the range's children lie in (:func:`rows_needed`, :class:`HeldRows`).

A ply's bytes are :func:`workbench.engine.strong.pack` of (value, remoteness) for the side to move, or
:data:`~workbench.engine.strong.UNREACHED`, in rank order. :func:`solve_range` is the one step every sweep
takes, whoever runs it: :func:`sweep` here in one process, ply by ply from the full board back to the empty
one, and the Dask sweep (:mod:`workbench.distributed`) as one task per chunk of a ply stored in Zarr. The
two are compared byte for byte with each other and with :func:`workbench.engine.strong.strong_solve`.

Reachable positions are recognised rather than enumerated: with the ply's marks, a position is reached by
some game if neither side holds a line, or if only the side that moved last does and one of its marks lies
on every line it holds (that mark was the last move; without it nobody held a line before).

Pure numpy; no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from .geometry import Geometry
from .ranked import Block, Numbering, numbering
from .strong import UNREACHED, pack

CHUNK = 1 << 22
"""Ranks solved at once (4 Mi: the int64 child ranks of a chunk are 32 MB)."""

PlyProgress = Callable[[int, int], None]
"""Called as ``progress(plies_done, plies)`` after each ply."""


@dataclass(frozen=True, eq=False)
class HeldRows:
    """Some rows of one block of a ply, as a task holds them: ``data`` is their bytes, row after row of
    ``cols`` bytes; ``rows`` the rows held (ascending), or None for every row from ``first`` on."""

    data: np.ndarray
    cols: int
    first: int = 0
    rows: np.ndarray | None = None

    def terms(self, wanted: np.ndarray) -> np.ndarray:
        """Where each of the ``wanted`` rows begins in :attr:`data` (int64).

        :raises ValueError: a wanted row is not held (a task given less than :func:`rows_needed` names).
        """
        if self.rows is None:
            index = wanted - self.first
            held = self.data.size // self.cols
            if index.size and (int(index.min()) < 0 or int(index.max()) >= held):
                raise ValueError(f"rows {self.first}…{self.first + held - 1} are held, not all of {wanted.tolist()}")
            return index * self.cols
        index = np.searchsorted(self.rows, wanted)
        found = index < self.rows.size
        if not found.all() or not np.array_equal(self.rows[index], wanted):
            raise ValueError(f"not every one of rows {wanted.tolist()} is held")
        return index * self.cols


Later = np.ndarray | Mapping[tuple[int, int], HeldRows] | None
"""What a range is solved from: every byte of the next ply (anything indexable by an int64 array), or the rows of
its blocks that :func:`rows_needed` names, by block (X and O marks in half A); None for the full board."""


def blocks_meeting(numbered: Numbering, ply: int, start: int, stop: int) -> Iterator[tuple[Block, int, int, int, int]]:
    """Each block of ``ply`` that ranks ``start``…``stop − 1`` meet, in rank order: (the block, the first rank of the
    range in it, one past its last, the block's first row those ranks lie in, one past its last row)."""
    for block in numbered.blocks[ply]:
        low, high = max(start, block.offset), min(stop, block.stop)
        if low < high:
            yield block, low, high, (low - block.offset) // block.cols, (high - block.offset - 1) // block.cols + 1


def rows_needed(geometry: Geometry, ply: int, start: int, stop: int) -> dict[tuple[int, int], np.ndarray]:
    """The rows of the blocks of ply + 1 that the children of ranks ``start``…``stop − 1`` of ``ply`` lie in, by
    block (its X and O marks in half A): ascending, unique (int64). A mark in half A leads to one block of ply + 1
    (one more mark in A), at rows spread over it; a mark in half B to the block of the same marks in A, at the
    same rows as the range's own. Empty for the full board."""
    numbered = numbering(geometry)
    if ply >= geometry.size:
        return {}
    a = numbered.a
    x_to_move = ply % 2 == 0
    digit = 1 if x_to_move else 2
    found: dict[tuple[int, int], list[np.ndarray]] = {}
    for block, _, _, first_row, end_row in blocks_meeting(numbered, ply, start, stop):
        if block.ax + block.ao < a.size:
            rows = a.groups[(block.ax, block.ao)][first_row:end_row]
            key = (block.ax + x_to_move, block.ao + (not x_to_move))
            for cell in range(a.size):
                power = 3**cell
                empty = rows[rows // power % 3 == 0]
                found.setdefault(key, []).append(a.rank[empty + digit * power])
        if block.bx + block.bo < numbered.b.size:
            found.setdefault((block.ax, block.ao), []).append(np.arange(first_row, end_row, dtype=np.int64))
    return {key: np.unique(np.concatenate(parts)) for key, parts in found.items()}


def _rows_from(later: Later, block: Block, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The array the children in ``rows`` of ``block`` (of the next ply) are read from, and where each row
    begins in it."""
    if isinstance(later, Mapping):
        held = later[(block.ax, block.ao)]
        return held.data, held.terms(rows)
    assert later is not None  # pragma: no mutate - narrows types
    return later, block.offset + rows * block.cols


@cache
def _score_of_child() -> np.ndarray:
    """A child's byte → its score for the side choosing it, higher better: a win sooner beats a win later
    (64 − moves to it), every win beats the draw (32), which beats every loss (moves to it: a loss later is
    better). A position of at most 30 cells has remoteness ≤ 30, so the three never meet."""
    score = np.zeros(256, dtype=np.uint8)
    for byte in range(UNREACHED):
        ours = 1 - (byte >> 5)  # the child's value is for the other side
        moves = (byte & 31) + 1
        score[byte] = 64 - moves if ours > 0 else moves if ours < 0 else 32
    score.flags.writeable = False
    return score


@cache
def _byte_of_best(cells: int, ply: int) -> np.ndarray:
    """The best child's score → the position's byte (a draw runs to the full board: remoteness ``cells − ply``)."""
    table = np.zeros(65, dtype=np.uint8)
    for score in range(65):
        if score > 32:
            table[score] = pack(1, 64 - score)
        elif score < 32:
            table[score] = pack(-1, score)
        else:
            table[score] = pack(0, cells - ply)
    table.flags.writeable = False
    return table


@cache
def _line_masks(geometry: Geometry) -> tuple[list[tuple[np.ndarray, np.ndarray]], ...]:
    """For half A, then B, and in each for X, then O: of every pattern, ``whole`` (bool: it holds a line
    lying in this half alone) and ``part`` (uint64: bit i set where it holds this half's piece of crossing
    line i). A position holds a line where a half holds a whole one or both hold a piece of the same."""
    numbered = numbering(geometry)
    a_cells = (1 << numbered.a.size) - 1
    crossing = [line for line in geometry.lines if line & a_cells and line & ~a_cells]
    inside = [line for line in geometry.lines if not (line & a_cells and line & ~a_cells)]
    if len(crossing) > 64:  # pragma: no cover - boards past 8×8; the sweep stops long before
        raise ValueError(f"board {geometry}: {len(crossing)} lines cross its halves, more than 64")
    tables = []
    for half in (numbered.a, numbered.b):
        half_cells = ((1 << half.size) - 1) << half.start
        per_side = []
        for bits in (half.x_bits, half.o_bits):
            whole = np.zeros(bits.size, dtype=bool)
            for line in inside:
                if line & half_cells == line:
                    whole |= (bits & np.uint32(line)) == line
            part = np.zeros(bits.size, dtype=np.uint64)
            for i, line in enumerate(crossing):
                piece = line & half_cells
                part |= np.where((bits & np.uint32(piece)) == piece, np.uint64(1 << i), np.uint64(0))
            per_side.append((whole, part))
        tables.append(per_side)
    return tables[0], tables[1]


def solve_range(geometry: Geometry, ply: int, start: int, stop: int, later: Later) -> np.ndarray:
    """The bytes of ranks ``start``…``stop − 1`` of ``ply``, from ``later``: every byte of ply + 1, or the rows
    of its blocks :func:`rows_needed` names (:data:`Later`; None for the full board, whose positions have no
    children).

    :raises ValueError: ``later`` holds rows, and not every row needed.
    :raises KeyError: ``later`` holds rows, and not of every block needed.
    """
    numbered = numbering(geometry)
    out = np.empty(stop - start, dtype=np.uint8)
    for block, low, high, first_row, end_row in blocks_meeting(numbered, ply, start, stop):
        values = _solve_rows(numbered, ply, block, first_row, end_row, later).ravel()
        base = block.offset + first_row * block.cols
        out[low - start : high - start] = values[low - base : high - base]
    return out


def _solve_rows(numbered: Numbering, ply: int, block: Block, first_row: int, end_row: int, later: Later) -> np.ndarray:
    geometry = numbered.geometry
    a, b = numbered.a, numbered.b
    rows = a.groups[(block.ax, block.ao)][first_row:end_row]
    cols = b.groups[(block.bx, block.bo)]
    x_moved_last = ply % 2 == 1
    last, mover = (0, 1) if x_moved_last else (1, 0)
    a_lines, b_lines = _line_masks(geometry)

    def holds(side: int) -> np.ndarray:
        a_whole, a_part = a_lines[side]
        b_whole, b_part = b_lines[side]
        held = (a_part[rows][:, None] & b_part[cols][None, :]) != 0
        held |= a_whole[rows][:, None]
        held |= b_whole[cols][None, :]
        return held

    marks_needed = geometry.k
    last_marks, mover_marks = (ply + 1) // 2 if x_moved_last else ply // 2, ply // 2 if x_moved_last else (ply + 1) // 2
    shape = (rows.size, cols.size)
    last_line = holds(last) if last_marks >= marks_needed else np.zeros(shape, dtype=bool)
    mover_line = holds(mover) if mover_marks >= marks_needed else np.zeros(shape, dtype=bool)

    if ply == geometry.size:
        result = np.full(shape, pack(0, 0), dtype=np.uint8)
    else:
        result = _byte_of_best(geometry.size, ply)[_best_scores(numbered, ply, block, rows, cols, later)]
    if last_line.any():
        result[last_line] = pack(1 if geometry.misere else -1, 0)
        # reached only if one of the last mover's marks lies on every line it holds
        row_of, col_of = np.nonzero(last_line)
        bits_of = a.x_bits if x_moved_last else a.o_bits
        marks = bits_of[rows[row_of]] | (b.x_bits if x_moved_last else b.o_bits)[cols[col_of]]
        common = np.full(marks.size, np.uint32(geometry.full))
        for line in geometry.lines:
            held = np.uint32(line)
            common = np.where((marks & held) == held, common & held, common)
        unreached = common == 0
        result[row_of[unreached], col_of[unreached]] = UNREACHED
    result[mover_line] = UNREACHED
    return result


def _best_scores(
    numbered: Numbering, ply: int, block: Block, rows: np.ndarray, cols: np.ndarray, later: Later
) -> np.ndarray:
    """The best child's score of every position of the block's rows × cols (0 where a position has no child)."""
    a, b = numbered.a, numbered.b
    score_of = _score_of_child()
    x_to_move = ply % 2 == 0
    digit = 1 if x_to_move else 2
    best = np.zeros((rows.size, cols.size), dtype=np.uint8)
    col_ranks = b.rank[cols]
    # a mark in half A: B's group is unchanged, the child's block has one more mark in A
    child_block = (
        numbered.block(ply + 1, block.ax + x_to_move, block.ao + (not x_to_move))
        if block.ax + block.ao < a.size
        else None
    )
    for cell in range(a.size if child_block is not None else 0):
        power = 3**cell
        empty = np.flatnonzero(rows // power % 3 == 0)
        if empty.size == 0:
            continue
        assert child_block is not None  # pragma: no mutate - the loop runs only with a child block
        source, row_terms = _rows_from(later, child_block, a.rank[rows[empty] + digit * power])
        scores = score_of[source[row_terms[:, None] + col_ranks[None, :]]]
        if empty.size == rows.size:
            np.maximum(best, scores, out=best)
        else:
            best[empty] = np.maximum(best[empty], scores)
    # a mark in half B: A's pattern is unchanged, the child's block has the same marks in A
    if block.bx + block.bo < b.size:
        child_block = numbered.block(ply + 1, block.ax, block.ao)
        source, row_terms = _rows_from(later, child_block, a.rank[rows])
        for cell in range(b.size):
            power = 3**cell
            empty = np.flatnonzero(cols // power % 3 == 0)
            if empty.size == 0:
                continue
            scores = score_of[source[row_terms[:, None] + b.rank[cols[empty] + digit * power][None, :]]]
            if empty.size == cols.size:
                np.maximum(best, scores, out=best)
            else:
                best[:, empty] = np.maximum(best[:, empty], scores)
    return best


def sweep(
    geometry: Geometry,
    progress: PlyProgress | None = None,
    *,
    chunk: int = CHUNK,
    below: int | None = None,
    later: np.ndarray | None = None,
) -> Iterator[tuple[int, np.ndarray]]:
    """Solve every ply from the full board back to the empty one, yielding ``(ply, bytes)`` as each is done
    (only the ply just done is needed for the next: the caller keeps or stores each). With ``below``, only the
    plies below it, from ``later``, the bytes of ply ``below`` (a sweep carried on)."""
    numbered = numbering(geometry)
    first = numbered.plies - 1 if below is None else below - 1
    if below is not None and (later is None or later.shape != (numbered.ply_size(below),)):
        raise ValueError(f"ply {below}'s bytes are needed to carry the sweep on below it")
    for ply in range(first, -1, -1):
        size = numbered.ply_size(ply)
        values = np.empty(size, dtype=np.uint8)
        for start in range(0, size, chunk):
            stop = min(size, start + chunk)
            values[start:stop] = solve_range(geometry, ply, start, stop, later)
        later = values
        if progress is not None:
            progress(numbered.plies - ply, numbered.plies)
        yield ply, values
