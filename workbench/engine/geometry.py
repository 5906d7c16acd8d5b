"""Board geometry as a value: rows, columns and how many in a row win.

Cells are numbered from 1, row-major from the top-left, everywhere a user sees
them (seed 000's numbering). Cell ``c`` is bit ``c - 1`` of a :data:`Bitboard`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

Bitboard = int
"""A set of cells: bit ``c - 1`` is set when cell ``c`` is in the set."""

Cell = int
"""A cell number, 1-based, row-major from the top-left."""


class GeometryError(ValueError):
    """A board shape that cannot be played."""


def popcount(bb: Bitboard) -> int:
    """Number of cells in ``bb``."""
    return bb.bit_count()


def cell_bit(cell: Cell) -> Bitboard:
    """The bitboard holding only ``cell``."""
    return 1 << (cell - 1)


def scan_cells(bb: Bitboard) -> Iterator[Cell]:
    """Cells of ``bb`` in increasing order."""
    while bb:
        low = bb & -bb
        yield low.bit_length()
        bb ^= low


def cells_of(bb: Bitboard) -> tuple[Cell, ...]:
    """Cells of ``bb`` as a sorted tuple."""
    return tuple(scan_cells(bb))


def bitboard_of(cells: Iterator[Cell] | tuple[Cell, ...] | list[Cell]) -> Bitboard:
    """The bitboard holding exactly ``cells``."""
    bb = 0
    for cell in cells:
        bb |= cell_bit(cell)
    return bb


@dataclass(frozen=True, slots=True)
class Geometry:
    """A rows × cols board on which ``k`` marks in a line win.

    The winning lines are generated from the shape: every horizontal, vertical
    and diagonal run of ``k`` cells.
    """

    rows: int = 3
    cols: int = 3
    k: int = 3
    lines: tuple[Bitboard, ...] = field(init=False, repr=False, compare=False)
    full: Bitboard = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise GeometryError(f"invalid geometry {self.rows}x{self.cols}: needs at least one row and column")
        if not 1 <= self.k <= max(self.rows, self.cols):
            raise GeometryError(
                f"invalid geometry {self.rows}x{self.cols}: k={self.k} does not fit on the board"
            )
        object.__setattr__(self, "lines", tuple(_generate_lines(self.rows, self.cols, self.k)))
        object.__setattr__(self, "full", (1 << (self.rows * self.cols)) - 1)

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    @property
    def is_square(self) -> bool:
        return self.rows == self.cols

    def cell(self, row: int, col: int) -> Cell:
        """The cell at 0-based ``row`` and ``col``."""
        return row * self.cols + col + 1

    def row_col(self, cell: Cell) -> tuple[int, int]:
        """0-based (row, col) of ``cell``."""
        return divmod(cell - 1, self.cols)

    def contains(self, cell: Cell) -> bool:
        return 1 <= cell <= self.size

    def has_line(self, bb: Bitboard) -> bool:
        """True when ``bb`` holds a whole winning line."""
        return any(bb & line == line for line in self.lines)

    def lines_in(self, bb: Bitboard) -> tuple[Bitboard, ...]:
        """The winning lines wholly inside ``bb``."""
        return tuple(line for line in self.lines if bb & line == line)

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}k{self.k}"


def _generate_lines(rows: int, cols: int, k: int) -> Iterator[Bitboard]:
    if k == 1:  # a single cell is one line, not four
        yield from (1 << cell for cell in range(rows * cols))
        return
    directions = ((0, 1), (1, 0), (1, 1), (1, -1))
    for row in range(rows):
        for col in range(cols):
            for d_row, d_col in directions:
                end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                if not (0 <= end_row < rows and 0 <= end_col < cols):
                    continue
                yield sum(1 << ((row + d_row * i) * cols + col + d_col * i) for i in range(k))


TIC_TAC_TOE = Geometry()
"""The classic 3×3 board, three in a row."""
