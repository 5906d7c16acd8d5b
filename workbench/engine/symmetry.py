"""Symmetries of the board (seed 002): transforms, canonical forms, stabilisers.

A square board has 8 symmetries (the dihedral group of the square); a
rectangular one has 4 (no quarter turns, no diagonal mirrors). Each transform
is a permutation of cells applied to bitboards through per-byte lookup tables.

The canonical form of a position is its image that reads smallest row-major
with X < O < empty, so marks gather at the top-left: an opening corner is
``X../.../...`` and an opening edge ``.X./.../...``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .geometry import Bitboard, Cell, Geometry
from .position import Position

TRANSFORM_NAMES = ("identity", "rot90", "rot180", "rot270", "flip_h", "flip_v", "flip_diag", "flip_anti")
"""Stable names: quarter turns clockwise, then mirrors left-right (``flip_h``),
top-bottom (``flip_v``), about the main diagonal and about the anti-diagonal."""


WHOLE_TABLE_CELLS = 12
"""Boards up to this many cells get a lookup table over every bitboard: they are the ones whose every position
the dictionary tables enumerate. Larger boards look positions up one at a time, where building eight tables of
65,536 images (≈ 180 ms at 16 cells) would cost more than it saves."""


@dataclass(frozen=True, slots=True)
class Transform:
    """One symmetry: ``mapping[i]`` is the 0-based image of 0-based cell index ``i``."""

    name: str
    mapping: tuple[int, ...]
    _tables: tuple[tuple[int, ...], ...] = field(repr=False, compare=False)
    _whole: tuple[int, ...] | None = field(default=None, repr=False, compare=False)
    """Image of every bitboard at once, on boards small enough (≤ 16 cells)."""

    def apply(self, bb: Bitboard) -> Bitboard:
        """The image of a bitboard."""
        if self._whole is not None:
            return self._whole[bb]
        result = 0
        chunk = 0
        while bb:
            result |= self._tables[chunk][bb & 0xFF]
            bb >>= 8
            chunk += 1
        return result

    def cell(self, cell: Cell) -> Cell:
        """The image of a cell."""
        return self.mapping[cell - 1] + 1

    def position(self, position: Position) -> Position:
        return Position(self.apply(position.x), self.apply(position.o), position.geometry)


def _coordinate_map(name: str, rows: int, cols: int):
    last_row, last_col = rows - 1, cols - 1
    return {
        "identity": lambda r, c: (r, c),
        "rot90": lambda r, c: (c, last_row - r),
        "rot180": lambda r, c: (last_row - r, last_col - c),
        "rot270": lambda r, c: (last_col - c, r),
        "flip_h": lambda r, c: (r, last_col - c),
        "flip_v": lambda r, c: (last_row - r, c),
        "flip_diag": lambda r, c: (c, r),
        "flip_anti": lambda r, c: (last_col - c, last_row - r),
    }[name]


def _subset_sums(values: list[int]) -> tuple[int, ...]:
    """For every mask of ``len(values)`` bits, the sum of the values of its set bits: each mask's is its lowest bit's
    value added to the rest's, which the table already holds. Images of distinct cells are distinct bits, so their
    sum is their union; reading weights are powers of three, summed."""
    table = [0] * (1 << len(values))
    for mask in range(1, len(table)):
        low = mask & -mask
        table[mask] = table[mask ^ low] + values[low.bit_length() - 1]
    return tuple(table)


def _byte_values(values: list[int]) -> tuple[tuple[int, ...], ...]:
    """:func:`_subset_sums` of each byte's eight values (the last byte's missing bits worth 0): a bitboard's sum is
    its bytes' (a loop over every bit of every byte value made 15×15's eight transforms a large part of the first
    paint: docs/benchmarks.md)."""
    padded = values + [0] * (-len(values) % 8)
    return tuple(_subset_sums(padded[start : start + 8]) for start in range(0, len(padded), 8))


def _whole_table(mapping: tuple[int, ...]) -> tuple[int, ...]:
    """The image of every bitboard."""
    return _subset_sums([1 << image for image in mapping])


def _byte_tables(mapping: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per byte of a bitboard, the image of each of its 256 values."""
    return _byte_values([1 << image for image in mapping])


@cache
def transforms(geometry: Geometry) -> tuple[Transform, ...]:
    """The board's symmetries, identity first: 8 on a square board, 4 otherwise."""
    names = TRANSFORM_NAMES if geometry.is_square else ("identity", "rot180", "flip_h", "flip_v")
    result = []
    for name in names:
        to = _coordinate_map(name, geometry.rows, geometry.cols)
        mapping = []
        for index in range(geometry.size):
            row, col = divmod(index, geometry.cols)
            image_row, image_col = to(row, col)
            mapping.append(image_row * geometry.cols + image_col)
        mapping_tuple = tuple(mapping)
        if geometry.size <= WHOLE_TABLE_CELLS:
            result.append(Transform(name, mapping_tuple, (), _whole_table(mapping_tuple)))
        else:
            result.append(Transform(name, mapping_tuple, _byte_tables(mapping_tuple)))
    return tuple(result)


@cache
def _reading_weights(geometry: Geometry) -> tuple[tuple[int, ...], ...]:
    """Per-byte tables of Σ 3^(n-1-i) over set bits: a ternary reading weight."""
    return _byte_values(_cell_weights(geometry.size))


def _cell_weights(cells: int) -> list[int]:
    """Each cell's reading weight, 3^(n-1-i): the first cell weighs most."""
    return [3 ** (cells - 1 - cell) for cell in range(cells)]


def _weight(tables: tuple[tuple[int, ...], ...], bb: Bitboard) -> int:
    total = 0
    chunk = 0
    while bb:
        total += tables[chunk][bb & 0xFF]
        bb >>= 8
        chunk += 1
    return total


def reading_rank(position: Position) -> int:
    """Larger for images that read smaller (X < O < empty, row-major)."""
    tables = _reading_weights(position.geometry)
    return 2 * _weight(tables, position.x) + _weight(tables, position.o)


@cache
def _whole_weights(geometry: Geometry) -> tuple[int, ...] | None:
    """The reading weight of every bitboard, on boards small enough for whole tables."""
    if geometry.size > WHOLE_TABLE_CELLS:
        return None
    return _subset_sums(_cell_weights(geometry.size))


def canonical_pair(geometry: Geometry, x: Bitboard, o: Bitboard) -> tuple[int, Bitboard, Bitboard]:
    """(rank, x, o) of the canonical image of the marks ``x``/``o``: the image of highest rank.

    The rank reads the board as a base-3 number, so equal ranks are equal images."""
    # the fast path (plain table lookups, no calls) and the general one give the same answer
    weights = _whole_weights(geometry)  # pragma: no mutate - None only takes the slower path to the same image
    if weights is not None:
        # every transform has its whole table on a board this small (weights is not None): no check in the hot path
        return max(
            (2 * weights[whole[x]] + weights[whole[o]], whole[x], whole[o])  # type: ignore[index]
            for whole in (transform._whole for transform in transforms(geometry))
        )
    tables = _reading_weights(geometry)
    return max(
        (2 * _weight(tables, tx) + _weight(tables, to), tx, to)
        for tx, to in ((transform.apply(x), transform.apply(o)) for transform in transforms(geometry))
    )


def images(position: Position) -> tuple[tuple[Transform, Position], ...]:
    """Every transform with the image it makes of ``position``."""
    return tuple((t, t.position(position)) for t in transforms(position.geometry))


def canonical(position: Position) -> Position:
    """The canonical representative of the position's symmetry class."""
    _, x, o = canonical_pair(position.geometry, position.x, position.o)
    return Position(x, o, position.geometry)


def stabilizer(position: Position) -> tuple[Transform, ...]:
    """Transforms that leave the position unchanged (identity always first)."""
    return tuple(
        t
        for t in transforms(position.geometry)
        if t.apply(position.x) == position.x and t.apply(position.o) == position.o
    )


def orbit_size(position: Position) -> int:
    """How many distinct positions the symmetries make of this one."""
    return len(transforms(position.geometry)) // len(stabilizer(position))


def move_classes(position: Position, group: tuple[Transform, ...] | None = None) -> tuple[tuple[Cell, ...], ...]:
    """Legal moves grouped into classes equivalent under the stabiliser, by smallest cell.

    ``group`` is the position's stabiliser when the caller already has it.
    """
    if group is None:
        group = stabilizer(position)
    return group_moves(position.legal_moves(), group)


def group_moves(cells: tuple[Cell, ...], group: tuple[Transform, ...]) -> tuple[tuple[Cell, ...], ...]:
    """``cells`` grouped into orbits of ``group``, each sorted, ordered by smallest cell."""
    remaining = set(cells)
    classes = []
    for cell in sorted(remaining):
        if cell not in remaining:
            continue
        orbit = tuple(sorted({t.cell(cell) for t in group}))
        remaining.difference_update(orbit)
        classes.append(orbit)
    return tuple(classes)
