"""The rules as a value: rows, columns, how many in a row complete a line, and the objective.

Under the normal objective whoever completes a line wins; under misère whoever
completes a line loses. A variant is written ``3x3k3``, ``4x4k4``, ``15x15k5``,
with ``-misere`` appended for the misère rule (:func:`parse_variant`,
:func:`format_variant`).

Cells are numbered from 1, row-major from the top-left, everywhere a user sees
them (seed 000's numbering). Cell ``c`` is bit ``c - 1`` of a :data:`Bitboard`.
They also have coordinates as Gomoku and Renju programs write them: the column
letter from the left (``a``…, skipping nothing), the row number from the bottom,
so ``h8`` is the centre of 15×15 (:func:`parse_coordinate`, :func:`format_coordinate`).

One notation per board (:func:`cell_name`, :func:`parse_cell_name`): a 3×3 board names its cells 1-9, as
Tic-Tac-Toe players do; every other board by coordinate. Inputs accept both everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from ..errors import InputError

Bitboard = int
"""A set of cells: bit ``c - 1`` is set when cell ``c`` is in the set."""

Cell = int
"""A cell number, 1-based, row-major from the top-left."""


class GeometryError(InputError):
    """A board shape that cannot be played."""


class VariantError(GeometryError):
    """Text that names no playable variant (``4x4k7``, ``0x3k3``, ``chess``)."""


MAX_SIDE = 15
"""Boards have 1 to 15 rows and columns (15×15 with k=5 is free-style Gomoku)."""
MAX_TABLE_CELLS = 12
"""The largest board whose every position the analysis's tables hold: 3×4 has 111,973 positions and builds in
about two seconds; 4×4 has 9,722,011, beyond what dictionaries of Python ints hold."""
MAX_STRONG_CELLS = 16
"""The largest board :mod:`workbench.engine.strong` solves whole: 3**16 bytes is 43 MB (kept here, beside the
tables' limit, so that asking does not import numpy). Above it, positions are searched one by one."""
MAX_SWEPT_CELLS = 20
"""The largest board solved here by the ranked sweep (:mod:`workbench.engine.sweep`) and kept
(:mod:`workbench.kept`): 4×5's 741 million ranks take a minute or two and 1.3 GB; 5×5 needs a cluster."""


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
    misere: bool = False
    """Whoever completes a line loses (instead of winning)."""
    lines: tuple[Bitboard, ...] = field(init=False, repr=False, compare=False)
    full: Bitboard = field(init=False, repr=False, compare=False)
    runs: tuple[tuple[int, Bitboard], ...] | None = field(init=False, repr=False, compare=False)
    """(shift, starts) per direction: a line runs from each cell of ``starts``, its next cell ``shift`` bits on.
    None where the lines are few enough to test one by one faster."""
    holds_line: bytearray | None = field(init=False, repr=False, compare=False)
    """On boards of at most :data:`LINE_TABLE_CELLS` cells, 1 at each set of cells that holds a whole line:
    :meth:`has_line` is one index there (a teacher's facts ask it hundreds of thousands of times a board)."""

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise GeometryError(f"invalid geometry {self.rows}x{self.cols}: needs at least one row and column")
        if not 1 <= self.k <= max(self.rows, self.cols):
            raise GeometryError(f"invalid geometry {self.rows}x{self.cols}: k={self.k} does not fit on the board")
        object.__setattr__(self, "lines", tuple(_generate_lines(self.rows, self.cols, self.k)))
        object.__setattr__(self, "full", (1 << (self.rows * self.cols)) - 1)
        object.__setattr__(self, "runs", _runs(self.rows, self.cols, self.k) if len(self.lines) > FEW_LINES else None)
        object.__setattr__(
            self,
            "holds_line",
            _line_table(self.lines, self.full) if self.rows * self.cols <= LINE_TABLE_CELLS else None,
        )

    def __reduce__(self):
        # pickled as its four parameters: a search's reports cross a pipe; unpickled as the one geometry made
        # of them (rather than 15x15's 572 lines made again for every report: docs/benchmarks.md)
        return (_unpickled_geometry, (self.rows, self.cols, self.k, self.misere))

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
        if self.holds_line is not None and bb <= self.full:
            return bool(self.holds_line[bb])
        runs = self.runs
        if runs is None:
            return any(bb & line == line for line in self.lines)
        # shifted copies, not the lines one by one: 15×15 has 572 lines (docs/benchmarks.md), and replaying a
        # game checks after each move
        for shift, starts in runs:
            run = bb & starts
            for step in range(1, self.k):
                run &= bb >> (shift * step)
            if run:
                return True
        return False

    def lines_in(self, bb: Bitboard) -> tuple[Bitboard, ...]:
        """The winning lines wholly inside ``bb``."""
        return tuple(line for line in self.lines if bb & line == line)

    def __str__(self) -> str:
        return format_variant(self)


FEW_LINES = 16
"""Boards with at most this many lines test them one by one in :meth:`Geometry.has_line`."""
LINE_TABLE_CELLS = 12
"""Boards of at most this many cells keep :attr:`Geometry.holds_line`, a byte for each of their 2**cells sets."""


def _line_table(lines: tuple[Bitboard, ...], full: Bitboard) -> bytearray:
    """1 at every subset of ``full`` that holds one of ``lines``: each line's supersets, enumerated."""
    table = bytearray(full + 1)
    for line in lines:
        rest = full & ~line
        extra = rest
        while True:
            table[line | extra] = 1
            if not extra:
                break
            extra = (extra - 1) & rest
    return table


@lru_cache(maxsize=64)
def _unpickled_geometry(rows: int, cols: int, k: int, misere: bool) -> Geometry:
    return Geometry(rows, cols, k, misere)


def _runs(rows: int, cols: int, k: int) -> tuple[tuple[int, Bitboard], ...]:
    if k == 1:  # every cell is a line
        return ((0, (1 << (rows * cols)) - 1),)
    runs = []
    for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
        starts = 0
        for row in range(rows - d_row * (k - 1)):
            for col in range(cols):
                if 0 <= col + d_col * (k - 1) < cols:
                    starts |= 1 << (row * cols + col)
        if starts:
            runs.append((d_row * cols + d_col, starts))
    return tuple(runs)


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


_VARIANT = re.compile(r"(\d+)x(\d+)k(\d+)(-misere)?")


def is_keepable(geometry: Geometry) -> bool:
    """Whether ``geometry`` is past the strong solve and within the ranked sweep (17 to :data:`MAX_SWEPT_CELLS`
    cells): a board whose solution :mod:`workbench.kept` keeps."""
    return MAX_STRONG_CELLS < geometry.size <= MAX_SWEPT_CELLS


def parse_variant(text: str) -> Geometry:
    """``3x3k3``, ``4x4k4-misere``, ``15x15k5`` (any case, ``×`` for ``x``, ``misère`` for ``misere``).

    :raises VariantError: naming the text and what is wrong with it.
    """
    spelled = text.strip().lower().replace("×", "x").replace("misère", "misere")
    match = _VARIANT.fullmatch(spelled)
    if match is None:
        raise VariantError(f"unknown variant {text[:40]!r}: write rows x columns k in a row, as 3x3k3 or 4x4k4-misere")
    # a number of more than three digits is too big for any board: not read (int() refuses some 4,300 digits)
    rows, cols, k = (int(group) if len(group.lstrip("0")) <= 3 else 1000 for group in match.groups()[:3])
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise VariantError(f"unknown variant {text[:40]!r}: boards have 1 to {MAX_SIDE} rows and columns")
    if k < 1:
        raise VariantError(f"unknown variant {text[:40]!r}: at least 1 in a row")
    if k > max(rows, cols):
        raise VariantError(
            f"unknown variant {text[:40]!r}: {k if k < 1000 else 'so many'} in a row does not fit on a {rows}x{cols} "
            "board"
        )
    return Geometry(rows, cols, k, misere=match.group(4) is not None)


def format_variant(geometry: Geometry) -> str:
    """The variant's name, as :func:`parse_variant` reads it."""
    return f"{geometry.rows}x{geometry.cols}k{geometry.k}{'-misere' if geometry.misere else ''}"


_COORDINATE = re.compile(r"([a-o])(\d{1,2})")


def parse_coordinate(text: str, geometry: Geometry) -> Cell:
    """The cell at a Gomoku coordinate: column letter from the left, row number from the bottom (``h8``).

    :raises GeometryError: the text is no coordinate on this board.
    """
    match = _COORDINATE.fullmatch(text.strip().lower())
    if match is None:
        raise GeometryError(f"not a cell: {text.strip()[:20]!r} (a number, or a column letter and a row number, as b2)")
    col, row_from_bottom = ord(match.group(1)) - ord("a"), int(match.group(2))
    if col >= geometry.cols or not 1 <= row_from_bottom <= geometry.rows:
        raise GeometryError(
            f"no cell {text.strip()[:20]!r} on a {geometry.rows}x{geometry.cols} board ({cell_range(geometry)})"
        )
    return geometry.cell(geometry.rows - row_from_bottom, col)


def format_coordinate(cell: Cell, geometry: Geometry) -> str:
    """The Gomoku coordinate of ``cell`` (``h8``)."""
    row, col = geometry.row_col(cell)
    return f"{chr(ord('a') + col)}{geometry.rows - row}"


def uses_cell_numbers(geometry: Geometry) -> bool:
    """True on 3×3 boards (either rule, any k), where cells are named 1-9 as Tic-Tac-Toe players name them;
    every other board is named by coordinate, which a reader finds on its edges."""
    return geometry.rows == 3 and geometry.cols == 3


@lru_cache(maxsize=4096)
def cell_name(cell: Cell, geometry: Geometry) -> str:
    """The name a user sees for ``cell``: ``5`` on 3×3, ``b2`` (:func:`format_coordinate`) elsewhere; kept, as
    every sentence of an explanation names its cells."""
    return str(cell) if uses_cell_numbers(geometry) else format_coordinate(cell, geometry)


def cell_names(cells, geometry: Geometry, separator: str = " ") -> str:
    """Several cells by :func:`cell_name`, joined by ``separator``."""
    return separator.join(cell_name(cell, geometry) for cell in cells)


def parse_cell_name(text: str, geometry: Geometry) -> Cell:
    """A cell written either way on any board: its number (``14``) or its coordinate (``b2``).

    :raises GeometryError: naming the text and the board's range in its own notation.
    """
    body = text.strip().lower()
    if body.isdigit() and body.isascii():
        # a number longer than any cell's is no cell (and int() of thousands of digits raises)
        cell = int(body) if len(body) <= len(str(geometry.size)) else 0
        if geometry.contains(cell):
            return cell
        raise GeometryError(f"no cell {body[:20]} on a {geometry.rows}x{geometry.cols} board ({cell_range(geometry)})")
    return parse_coordinate(body, geometry)


def cell_range(geometry: Geometry) -> str:
    """The board's cells as a range in both notations, its own first: ``1-9 or a1-c3``, ``a1-d4 or 1-16``."""
    coordinates = f"a1-{format_coordinate(geometry.cell(0, geometry.cols - 1), geometry)}"
    numbers = f"1-{geometry.size}"
    return f"{numbers} or {coordinates}" if uses_cell_numbers(geometry) else f"{coordinates} or {numbers}"


TIC_TAC_TOE = Geometry()
"""The classic 3×3 board, three in a row."""

NAMED_VARIANTS: tuple[tuple[str, Geometry], ...] = (
    ("classic", TIC_TAC_TOE),
    ("misère", Geometry(misere=True)),
    ("3×4, three in a row", Geometry(3, 4, 3)),
    ("3×4, three in a row, misère", Geometry(3, 4, 3, misere=True)),
    ("4×4, three in a row", Geometry(4, 4, 3)),
    ("4×4, four in a row", Geometry(4, 4, 4)),
    ("4×5, four in a row", Geometry(4, 5, 4)),
    ("5×5, four in a row", Geometry(5, 5, 4)),
    ("7×7, five in a row", Geometry(7, 7, 5)),
    ("Gomoku 15×15", Geometry(15, 15, 5)),
)
"""The family's well-known members, by the names a player knows them by."""

_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def describe_variant(geometry: Geometry, *, short: bool = False) -> str:
    """The variant as a player says it: ``classic``, ``misère``, ``Gomoku 15×15``, ``3×5, four in a row``;
    ``short``, where a frame's title has little room: ``3×5 k4``, ``3×4 k3 misère``."""
    for name, known in NAMED_VARIANTS[:2]:  # the classic board's two rules are known by name alone
        if known == geometry:
            return name
    if short:
        return f"{geometry.rows}×{geometry.cols} k{geometry.k}" + (" misère" if geometry.misere else "")
    for name, known in NAMED_VARIANTS:
        if known == geometry:
            return name
    in_a_row = f"{_WORDS.get(geometry.k, geometry.k)} in a row"
    return f"{geometry.rows}×{geometry.cols}, {in_a_row}" + (", misère" if geometry.misere else "")
