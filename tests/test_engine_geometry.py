"""Board shapes: the winning lines of any m×n board with k in a row, counted and checked independently."""

import pytest

from workbench.engine import Geometry, GeometryError, cell_bit, cells_of
from workbench.engine.geometry import (
    NAMED_VARIANTS,
    bitboard_of,
    describe_variant,
    format_variant,
    parse_variant,
    popcount,
    scan_cells,
)

SHAPES = [
    (1, 1, 1),
    (1, 5, 3),
    (3, 3, 3),
    (3, 3, 2),
    (3, 3, 1),
    (3, 4, 3),
    (4, 3, 3),
    (4, 4, 4),
    (4, 4, 3),
    (5, 5, 4),
    (2, 6, 2),
    (7, 7, 5),
    (6, 2, 6),
]


def expected_line_count(rows, cols, k):
    if k == 1:
        return rows * cols
    across = rows * max(0, cols - k + 1)
    down = cols * max(0, rows - k + 1)
    diagonal = max(0, rows - k + 1) * max(0, cols - k + 1)
    return across + down + 2 * diagonal


@pytest.mark.parametrize("rows, cols, k", SHAPES)
def test_lines_are_every_straight_run_of_k_cells(rows, cols, k):
    geometry = Geometry(rows, cols, k)
    assert len(geometry.lines) == len(set(geometry.lines)) == expected_line_count(rows, cols, k)
    for line in geometry.lines:
        cells = [geometry.row_col(cell) for cell in cells_of(line)]
        assert len(cells) == k
        steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, cells[1:])}
        assert len(steps) <= 1 and steps <= {(0, 1), (1, 0), (1, 1), (1, -1)}  # one direction, no gaps
    assert geometry.full == (1 << rows * cols) - 1 and geometry.size == rows * cols
    assert geometry.is_square is (rows == cols)
    assert str(geometry) == f"{rows}x{cols}k{k}"


def test_the_classic_board_has_its_eight_lines():
    lines = sorted(tuple(cells_of(line)) for line in Geometry().lines)
    assert lines == [(1, 2, 3), (1, 4, 7), (1, 5, 9), (2, 5, 8), (3, 5, 7), (3, 6, 9), (4, 5, 6), (7, 8, 9)]


@pytest.mark.parametrize(
    "rows, cols, k, message",
    [
        (0, 3, 3, "invalid geometry 0x3: needs at least one row and column"),
        (3, 0, 3, "invalid geometry 3x0: needs at least one row and column"),
        (4, 4, 7, "invalid geometry 4x4: k=7 does not fit on the board"),
        (3, 3, 0, "invalid geometry 3x3: k=0 does not fit on the board"),
    ],
)
def test_impossible_boards_are_refused_with_the_reason(rows, cols, k, message):
    with pytest.raises(GeometryError) as caught:
        Geometry(rows, cols, k)
    assert str(caught.value) == message and isinstance(caught.value, ValueError)


def test_a_long_thin_board_takes_k_along_its_long_side():
    assert len(Geometry(1, 5, 5).lines) == 1 and len(Geometry(5, 1, 5).lines) == 1


@pytest.mark.parametrize("rows, cols", [(3, 3), (3, 4), (4, 3), (1, 7)])
def test_cells_and_coordinates_are_inverse(rows, cols):
    geometry = Geometry(rows, cols, 1)
    for cell in range(1, rows * cols + 1):
        row, col = geometry.row_col(cell)
        assert 0 <= row < rows and 0 <= col < cols and geometry.cell(row, col) == cell
        assert geometry.contains(cell)
    assert not geometry.contains(0) and not geometry.contains(rows * cols + 1)


def test_bitboard_helpers():
    assert cell_bit(1) == 1 and cell_bit(9) == 256
    assert list(scan_cells(0b100100101)) == [1, 3, 6, 9]
    assert bitboard_of([1, 3, 6, 9]) == 0b100100101 and bitboard_of(()) == 0
    assert popcount(0b1011) == 3
    classic = Geometry()
    assert classic.has_line(bitboard_of([1, 5, 9, 2])) and not classic.has_line(bitboard_of([1, 5, 8]))
    assert classic.lines_in(bitboard_of([1, 2, 3, 5, 9])) == tuple(
        line for line in classic.lines if line in (bitboard_of([1, 2, 3]), bitboard_of([1, 5, 9]))
    )


@pytest.mark.parametrize(
    "variant, long, short",
    [
        ("3x3k3", "classic", "classic"),
        ("3x3k3-misere", "misère", "misère"),
        ("3x4k3", "3×4, three in a row", "3×4 k3"),
        ("3x4k3-misere", "3×4, three in a row, misère", "3×4 k3 misère"),
        ("15x15k5", "Gomoku 15×15", "15×15 k5"),
        ("2x5k4-misere", "2×5, four in a row, misère", "2×5 k4 misère"),
        ("9x9k8", "9×9, 8 in a row", "9×9 k8"),
    ],
)
def test_a_variant_is_described_as_a_player_says_it(variant, long, short):
    geometry = parse_variant(variant)
    assert describe_variant(geometry) == long and describe_variant(geometry, short=True) == short


def test_every_named_variant_has_its_own_name_and_spelling():
    names = [name for name, _ in NAMED_VARIANTS]
    spellings = [format_variant(geometry) for _, geometry in NAMED_VARIANTS]
    assert len(set(names)) == len(names) and len(set(spellings)) == len(spellings)
    assert all(describe_variant(geometry) == name for name, geometry in NAMED_VARIANTS)


@pytest.mark.parametrize(
    "rows, cols, k", [*SHAPES, (15, 15, 5), (2, 7, 4), (7, 2, 4), (1, 15, 5), (15, 1, 5), (9, 9, 1)]
)
def test_has_line_says_whether_some_line_is_whole(rows, cols, k):
    """Bit shifts on large boards: each line alone and less one of its cells, lines ending at every edge (where
    a shift could wrap a row into the next), and random boards, against the lines tested one by one."""
    import random

    geometry = Geometry(rows, cols, k)
    for line in geometry.lines:
        assert geometry.has_line(line) and geometry.has_line(line | cell_bit(1))
        for cell in cells_of(line):
            assert not geometry.has_line(line ^ cell_bit(cell))
    # rows cut at their ends: a run of k that would wrap from one row into the next is no line
    for row in range(rows):
        for col in range(cols):
            wrapped = bitboard_of(((row * cols + col + step) % (rows * cols)) + 1 for step in range(k))
            assert geometry.has_line(wrapped) == any(wrapped & line == line for line in geometry.lines)
    chance = random.Random(f"{rows}x{cols}k{k}")
    for _ in range(3000):
        board = chance.getrandbits(rows * cols) & chance.getrandbits(rows * cols)
        assert geometry.has_line(board) == any(board & line == line for line in geometry.lines)
