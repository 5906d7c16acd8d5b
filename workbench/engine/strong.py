"""Strong solutions of boards of at most 16 cells, by a ply-by-ply retrograde sweep over arrays.

Every position of a board with ``n`` cells has a base-3 number, its *index*: digit
``c`` is 0 for an empty cell ``c + 1``, 1 for X, 2 for O. A solution is one byte
per index (``3**n`` bytes: about 4.3 × 10⁷ for 16 cells), holding the value and remoteness
of the position for the side to move, or :data:`UNREACHED`.

The sweep goes forward once, ply by ply, to find the reachable positions (a
stamp array over the indices removes duplicates without sorting), then back
from the last ply to the first: each position takes the best of its children,
the winner hurrying and the loser delaying, exactly as :mod:`workbench.engine.solver`
does with dictionaries for small boards (the two are compared on every position
of the boards both can solve). Beside the values, a solution counts what the
3×3 census counts: complete games from each position (a DP back, kept for the
first plies), move orders (a DP forward: games by length, the ledger of fill
orders) and symmetry classes, numbered as the dictionary tables number them.

numpy does the work; this module does no I/O (:mod:`workbench.kept.tables` keeps the
bytes between runs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

import numpy as np

from ..errors import InputError
from .geometry import MAX_STRONG_CELLS, Bitboard, Geometry  # (MAX_STRONG_CELLS re-exported: the largest board solved)
from .solve_progress import STAGE_WORDS

UNREACHED = 255
"""The byte of an index that no game reaches."""

Progress = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)``: plies done of the total in each stage, in turn ``"forward"``
(enumerating), ``"games"``, ``"back"`` (values and remoteness) and ``"classes"``."""
STAGE_NAMES = STAGE_WORDS
"""Each stage of :data:`Progress` as a person reads it (:mod:`.solve_progress` makes one bar of the four)."""


_Packable = TypeVar("_Packable", int, np.ndarray)


class BoardTooLargeForStrongSolveError(InputError):
    """A board with more cells than a strong solution holds."""


def pack(value: _Packable, remoteness: _Packable) -> _Packable:
    """The byte of a value (-1, 0, 1 for the side to move) and a remoteness (0…16); of arrays of them, elementwise."""
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
    class_ranks: np.ndarray
    """int32: the canonical ranks (see :func:`workbench.engine.symmetry.canonical_pair`) of every class, ply by
    ply, highest first within a ply: class ``i + 1`` is ``class_ranks[i]``, numbered as the 3×3 classes are."""
    classes_by_ply: tuple[int, ...]
    games_indices: tuple[np.ndarray, ...]
    """For plies 0…:data:`GAMES_KEPT_PLY`, the indices of the ply's positions, sorted."""
    games_counts: tuple[np.ndarray, ...]
    """Beside each of those, rows of complete games from the position: (X wins, O wins, draws), in uint32 where
    every count fits (from ply 4 on for 16 cells), else int64."""
    terminal_classes: int
    classes_by_value: tuple[int, int, int]
    """Classes of positions in play won, drawn and lost for the side to move."""
    games_by_length: tuple[int, ...]
    """Complete games from the empty board that end after each number of plies (index = length)."""
    ledger: tuple[int, int, int]
    """Seed 000's ledger: of the size! orders in which the cells could all be filled, those whose first line
    X wins, O wins, and those with no line (by the rule: under misère the line's maker loses)."""

    @property
    def positions(self) -> int:
        return sum(self.positions_by_ply)

    def index(self, x: Bitboard, o: Bitboard) -> int:
        return ternary(x, self.geometry.size) + 2 * ternary(o, self.geometry.size)

    def lookup(self, x: Bitboard, o: Bitboard) -> tuple[int, int] | None:
        """(value, remoteness) of the position for the side to move, or None when no game reaches it."""
        return unpack(int(self.packed[self.index(x, o)]))

    def lookup_many(self, x, o) -> list[tuple[int, int] | None]:
        """:meth:`lookup` of many positions, given as sequences of bitboards."""
        table = _ternary_table(self.geometry.size)
        indices = table[np.asarray(x, dtype=np.int64)] + 2 * table[np.asarray(o, dtype=np.int64)]
        return [unpack(byte) for byte in self.packed[indices].tolist()]

    def class_id(self, position) -> int:
        """The class of a reachable ``position`` (1-based, by ply then canonical rank, as the 3×3 tables number)."""
        from .symmetry import canonical_pair

        rank = canonical_pair(self.geometry, position.x, position.o)[0]
        start = sum(self.classes_by_ply[: position.ply])
        ply_ranks = self.class_ranks[start : start + self.classes_by_ply[position.ply]]
        # highest first: search the negated ranks, which are ascending
        offset = int(np.searchsorted(-ply_ranks, -rank))
        return start + offset + 1

    def games(self, x: Bitboard, o: Bitboard) -> tuple[int, int, int]:
        """(X wins, O wins, draws) over the complete games from a reachable position."""
        return self.games_and_children(x, o)[0]

    def games_and_children(
        self, x: Bitboard, o: Bitboard
    ) -> tuple[tuple[int, int, int], dict[int, tuple[int, int, int]]]:
        """The games from a reachable position, and from each position one move on (by index): kept for the first
        plies, counted from the position's own subtree below them (a few milliseconds)."""
        ply = (x | o).bit_count()
        if ply + 1 >= len(self.games_indices):
            return subtree_games(self.geometry, x, o)
        size = self.geometry.size
        empty = self.geometry.full & ~(x | o)
        children = {}
        for cell in range(size):
            bit = 1 << cell
            if empty & bit:
                child = (x | bit, o) if ply % 2 == 0 else (x, o | bit)
                found = self._kept_games(ply + 1, *child)
                if found is not None:
                    children[self.index(*child)] = found
        games = self._kept_games(ply, x, o)
        assert games is not None, "a reachable position's games are kept"  # pragma: no mutate - narrows types
        return games, children

    def _kept_games(self, ply: int, x: Bitboard, o: Bitboard) -> tuple[int, int, int] | None:
        index = self.index(x, o)
        indices = self.games_indices[ply]
        row = int(np.searchsorted(indices, index))
        if row == indices.size or indices[row] != index:
            return None  # not reached (a move after the game ended)
        return _three(self.games_counts[ply][row])


def _three(row) -> tuple[int, int, int]:
    """A row of (X wins, O wins, draws) as Python ints."""
    x_wins, o_wins, draws = (int(n) for n in row)
    return x_wins, o_wins, draws


GAMES_KEPT_PLY = 7
"""Game counts are kept for the positions of plies 0…7 (617,000 of them on 4×4: 10 MB, in the narrowest
integers that hold them); deeper ones are counted from their own subtree when asked (a few thousand
positions on 16 cells)."""


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
            f"board {geometry}: strong solutions cover boards of at most {MAX_STRONG_CELLS} cells ({geometry.size} "
            "here)"
        )


@cache
def _ternary_table(size: int) -> np.ndarray:
    """``table[bb]`` is :func:`ternary` of ``bb`` for every bitboard of ``size`` cells (kept: ``2**16`` int64s
    at 16)."""
    boards = np.arange(1 << size, dtype=np.int64)
    table = np.zeros(1 << size, dtype=np.int64)
    for cell in range(size):
        table += ((boards >> cell) & 1) * 3**cell
    table.flags.writeable = False
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
            child_x, child_o = (
                (open_x[empty] | bit, open_o[empty]) if ply % 2 == 0 else (open_x[empty], open_o[empty] | bit)
            )
            index = table[child_x] + 2 * table[child_o]
            stamp[index] = mark
            key_of[index] = child_x | (child_o << np.uint32(16))
        reached = np.flatnonzero(stamp == mark)
        if reached.size == 0:  # every game ended before the board could fill (2×2, two in a row)
            report("forward", size + 1, size + 1)  # the stage is done: its bar ends full
            break
        keys = key_of[reached]
        x, o = keys & np.uint32(0xFFFF), keys >> np.uint32(16)
    del stamp, key_of

    games_indices, games_counts = _games(geometry, table, layers, bits, report, keep=GAMES_KEPT_PLY)
    games_by_length, ledger = _paths(geometry, table, layers, bits)

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
    class_ranks, classes_by_ply, terminal_classes, classes_by_value = _classes(geometry, layers, packed, table, report)
    return StrongSolution(
        geometry,
        packed,
        tuple(reversed(positions_by_ply)),
        tuple(reversed(terminal_by_ply)),
        tuple(reversed(values_by_ply)),
        class_ranks,
        classes_by_ply,
        games_indices,
        games_counts,
        terminal_classes,
        classes_by_value,
        games_by_length,
        ledger,
    )


def _children(table: np.ndarray, x: np.ndarray, o: np.ndarray, ply: int, bits: list):
    """For each cell, the rows of (x, o) where it is empty and the index of the position after the side to
    move (X at even plies) marks it there."""
    occupied = x | o
    for bit in bits:
        empty = np.flatnonzero((occupied & bit) == 0)
        if ply % 2 == 0:
            yield empty, table[x[empty] | bit] + 2 * table[o[empty]]
        else:
            yield empty, table[x[empty]] + 2 * table[o[empty] | bit]


def _permutation_tables(geometry: Geometry) -> list[np.ndarray]:
    """For each symmetry, the image of every bitboard of the board (``size`` ≤ 16 bits)."""
    from .symmetry import transforms

    boards = np.arange(1 << geometry.size, dtype=np.int64)
    tables = []
    for transform in transforms(geometry):
        image = np.zeros(boards.size, dtype=np.int64)
        for cell, target in enumerate(transform.mapping):
            image |= ((boards >> cell) & 1) << target
        tables.append(image)
    return tables


def _reading_table(size: int) -> np.ndarray:
    """``table[bb]``: Σ 3**(size - 1 - i) over the cells i of ``bb`` (the board read as a base-3 number)."""
    boards = np.arange(1 << size, dtype=np.int64)
    table = np.zeros(boards.size, dtype=np.int64)
    for cell in range(size):
        table += ((boards >> cell) & 1) * 3 ** (size - 1 - cell)
    return table


def _classes(geometry: Geometry, layers, packed, table, report):
    """Every class's canonical rank, ply by ply, highest first: the image of highest rank 2·R(x) + R(o), as
    :func:`workbench.engine.symmetry.canonical_pair` ranks them; with the number of classes by ply, of
    terminal classes, and of classes in play by value (symmetric positions share their value)."""
    reading = _reading_table(geometry.size)
    image_readings = [reading[image] for image in _permutation_tables(geometry)]  # R of each image, by bitboard
    ranks, by_ply = [], []
    terminal, by_value = 0, [0, 0, 0]
    for ply, (x, o, _) in enumerate(layers):
        best = np.full(x.size, -1, dtype=np.int64)
        for image_reading in image_readings:
            np.maximum(best, 2 * image_reading[x] + image_reading[o], out=best)
        unique, first = np.unique(best, return_index=True)  # one member of each class
        ranks.append(unique[::-1].astype(np.int32))
        by_ply.append(int(unique.size))
        byte = packed[table[x[first]] + 2 * table[o[first]]]
        over = (byte & 31) == 0  # remoteness 0: the game has ended
        terminal += int(over.sum())
        value = (byte[~over] >> 5).astype(np.int64) - 1
        for column, wanted in enumerate((1, 0, -1)):
            by_value[column] += int((value == wanted).sum())
        report("classes", ply + 1, len(layers))
    return np.concatenate(ranks), tuple(by_ply), terminal, tuple(by_value)


def _paths(geometry: Geometry, table, layers, bits) -> tuple[tuple[int, ...], tuple[int, int, int]]:
    """Move orders from the empty board to each position, by a DP forward (float64 sums stay exact: at most
    16! < 2**53), turned into the games by length and the ledger of fill orders."""
    from math import factorial

    size = geometry.size
    slot: list | np.ndarray = (
        np.zeros(3**size, dtype=np.int32) if sum(len(layer[0]) for layer in layers) > 100_000 else []
    )
    paths = np.ones(1)
    by_length = [0] * (size + 1)
    ledger = [0, 0, 0]
    for ply, (x, o, won) in enumerate(layers):
        line_ends = int(paths[won].sum())
        by_length[ply] += line_ends
        x_made_it = ply % 2 == 1
        ledger[_WINNER_COLUMN[x_made_it != geometry.misere]] += line_ends * factorial(size - ply)
        if ply == size:
            draws = int(paths[~won].sum())
            by_length[ply] += draws
            ledger[2] += draws
            break
        if ply + 1 == len(layers):  # every game ended before the board could fill
            break
        later = layers[ply + 1]
        _remember_rows(slot, table[later[0]] + 2 * table[later[1]])
        in_play = np.flatnonzero(~won)
        weight = paths[in_play]
        following = np.zeros(later[0].size)
        for empty, child in _children(table, x[in_play], o[in_play], ply, bits):
            following += np.bincount(_rows(slot, child), weights=weight[empty], minlength=following.size)
        paths = following
    return tuple(by_length), (ledger[0], ledger[1], ledger[2])


_WINNER_COLUMN = {True: 0, False: 1}  # X made the line / O made it → the column of the side the rule favours


def _games(geometry: Geometry, table, layers, bits, report, *, keep: int):
    """Complete games from every position (X wins, O wins, draws), by a DP from the last ply back; the rows
    of plies 0…``keep`` are returned as (n, 3) arrays, each beside its ply's sorted indices."""
    kept_indices, kept_counts = [], []
    later: list[np.ndarray] | None = None  # pragma: no mutate - never read: the last ply's positions all end the game
    # the row of each position in its ply's arrays, by index: a child's row is one lookup, not a search
    # (an array over every index where the positions are many; a search of the ply's sorted indices where few)
    many = sum(len(layer[0]) for layer in layers) > 100_000
    slot: list | np.ndarray = np.zeros(3**geometry.size, dtype=np.int32) if many else []
    for ply in range(len(layers) - 1, -1, -1):
        x, o, won = layers[ply]
        index = table[x] + 2 * table[o]  # sorted: the layers come out of the stamp array in index order
        counts = [np.zeros(x.size, dtype=np.int64) for _ in range(3)]  # X wins, O wins, draws
        x_made_it = ply % 2 == 1
        counts[_WINNER_COLUMN[x_made_it != geometry.misere]][won] = 1
        in_play = np.flatnonzero(~won)
        if ply == geometry.size:
            counts[2][in_play] = 1
        elif in_play.size:
            assert later is not None  # pragma: no mutate - a ply with moves left has a next ply
            for empty, child in _children(table, x[in_play], o[in_play], ply, bits):
                rows, targets = _rows(slot, child), in_play[empty]
                for column in range(3):
                    counts[column][targets] += later[column][rows]
        if ply <= keep:
            stacked = np.stack(counts, axis=1)
            narrow = stacked.max(initial=0) < 2**32  # 16 cells: from ply 4 on, at most 12! games
            kept_indices.append(index.astype(np.int32))
            kept_counts.append(stacked.astype(np.uint32) if narrow else stacked)
        _remember_rows(slot, index)
        later = counts
        report("games", len(layers) - ply, len(layers))
    return tuple(reversed(kept_indices)), tuple(reversed(kept_counts))


def _rows(slot, indices: np.ndarray) -> np.ndarray:
    if isinstance(slot, list):
        return np.searchsorted(slot[0], indices)
    return slot[indices]


def _remember_rows(slot, indices: np.ndarray) -> None:
    if isinstance(slot, list):
        slot[:] = [indices]
    else:
        slot[indices] = np.arange(indices.size, dtype=np.int32)


def subtree_games(
    geometry: Geometry, x: Bitboard, o: Bitboard
) -> tuple[tuple[int, int, int], dict[int, tuple[int, int, int]]]:
    """(X wins, O wins, draws) over the complete games from one position, and from each position one move on
    (by index), by the same DP over its subtree."""
    size = geometry.size
    table = _ternary_table(size) if size <= MAX_STRONG_CELLS else None
    bits = [np.uint32(1 << cell) for cell in range(size) if not (x | o) >> cell & 1]  # only the cells still empty
    start = (x | o).bit_count()
    layers = []
    lx, lo = np.array([x], dtype=np.uint32), np.array([o], dtype=np.uint32)
    for ply in range(start, size + 1):
        last = lx if ply % 2 == 1 else lo
        won = _holds_line(last, geometry.lines) if ply else np.zeros(lx.size, dtype=bool)
        layers.append((lx, lo, won))
        if ply == size or won.all():
            break
        open_x, open_o = lx[~won], lo[~won]
        occupied = open_x | open_o
        children = []
        for bit in bits:
            empty = (occupied & bit) == 0
            if ply % 2 == 0:
                children.append(
                    (open_x[empty] | bit).astype(np.uint64) | (open_o[empty].astype(np.uint64) << np.uint64(32))
                )
            else:
                children.append(
                    open_x[empty].astype(np.uint64) | ((open_o[empty] | bit).astype(np.uint64) << np.uint64(32))
                )
        keys = np.unique(np.concatenate(children))
        # ordered by index, as the DP's searches need
        cx, co = (keys & np.uint64(0xFFFFFFFF)).astype(np.uint32), (keys >> np.uint64(32)).astype(np.uint32)
        assert table is not None  # pragma: no mutate - subtrees are counted on boards of at most 16 cells
        order = np.argsort(table[cx] + 2 * table[co], kind="stable")
        lx, lo = cx[order], co[order]
    padded = [(np.zeros(0, np.uint32), np.zeros(0, np.uint32), np.zeros(0, bool))] * start + layers
    indices, counts = _games(geometry, table, padded, bits, lambda *args: None, keep=start + 1)
    root = _three(counts[start][0])
    if len(indices) <= start + 1:
        return root, {}
    return root, {int(i): _three(row) for i, row in zip(indices[start + 1], counts[start + 1])}


# A child's outcome as a score for the side choosing it, higher is better: a win sooner beats a win later,
# every win beats a draw, a draw beats every loss, and a loss later beats a loss sooner (remoteness ≤ 16 < 32).
_DRAW_SCORE = 32


def _best_of_children(
    packed: np.ndarray, table: np.ndarray, x: np.ndarray, o: np.ndarray, ply: int, bits: list, size: int
) -> np.ndarray:
    best = np.zeros(x.size, dtype=np.int16)  # below every score: each position here has a move
    for empty, child in _children(table, x, o, ply, bits):
        byte = packed[child].astype(np.int16)
        ours = 1 - (byte >> 5)  # the child's value is for the other side: ours is its negation
        remoteness = (byte & 31) + 1
        score = np.where(ours > 0, 64 - remoteness, np.where(ours < 0, remoteness, _DRAW_SCORE))
        best[empty] = np.maximum(best[empty], score)
    value = np.where(best > _DRAW_SCORE, 1, np.where(best < _DRAW_SCORE, -1, 0))
    # a draw always runs to the full board
    remoteness = np.where(best > _DRAW_SCORE, 64 - best, np.where(best < _DRAW_SCORE, best, size - ply))
    return ((value + 1) << 5 | remoteness).astype(np.uint8)
