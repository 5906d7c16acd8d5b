"""Symmetry on boards of every shape, against transforms written out cell by cell here."""

import pytest
from hypothesis import given, settings, strategies as st

from workbench.engine import Geometry, Position, format_position
from workbench.engine.symmetry import (
    canonical,
    canonical_pair,
    group_moves,
    images,
    move_classes,
    orbit_size,
    reading_rank,
    stabilizer,
    transforms,
)

# (row, col) -> (row, col) of each symmetry, for a board with rows R and columns C
DIHEDRAL = {
    "identity": lambda r, c, R, C: (r, c),
    "rot90": lambda r, c, R, C: (c, R - 1 - r),
    "rot180": lambda r, c, R, C: (R - 1 - r, C - 1 - c),
    "rot270": lambda r, c, R, C: (C - 1 - c, r),
    "flip_h": lambda r, c, R, C: (r, C - 1 - c),
    "flip_v": lambda r, c, R, C: (R - 1 - r, c),
    "flip_diag": lambda r, c, R, C: (c, r),
    "flip_anti": lambda r, c, R, C: (C - 1 - c, R - 1 - r),
}
SHAPES = [(3, 3), (3, 4), (4, 3), (4, 4), (2, 5), (5, 5), (1, 1), (6, 6), (15, 15), (3, 7)]


def expected_image(geometry, name, bb):
    image = 0
    for index in range(geometry.size):
        if bb >> index & 1:
            row, col = DIHEDRAL[name](*divmod(index, geometry.cols), geometry.rows, geometry.cols)
            image |= 1 << (row * geometry.cols + col)
    return image


def reading(position):
    """The position's notation as a key that sorts X before O before empty."""
    return format_position(position).replace("/", "").translate(str.maketrans("XO.", "012"))


@pytest.mark.parametrize("rows, cols", SHAPES)
def test_a_square_has_eight_symmetries_a_rectangle_four(rows, cols):
    names = [t.name for t in transforms(Geometry(rows, cols, 1))]
    if rows == cols:
        assert names == list(DIHEDRAL)
    else:
        assert names == ["identity", "rot180", "flip_h", "flip_v"]


@pytest.mark.parametrize("rows, cols", SHAPES)
def test_every_transform_moves_each_cell_as_written_out(rows, cols):
    geometry = Geometry(rows, cols, 1)
    for transform in transforms(geometry):
        for cell in range(1, geometry.size + 1):
            assert (
                transform.cell(cell) - 1 == expected_image(geometry, transform.name, 1 << (cell - 1)).bit_length() - 1
            )
        assert sorted(transform.mapping) == list(range(geometry.size))  # a permutation


@settings(max_examples=60)
@given(st.sampled_from(SHAPES), st.data())
def test_images_of_whole_boards_equal_cell_by_cell_images(shape, data):
    geometry = Geometry(*shape, 1)
    x = data.draw(st.integers(0, geometry.full))
    o = data.draw(st.integers(0, geometry.full)) & ~x
    position = Position(x, o, geometry)
    seen = images(position)
    assert [t.name for t, _ in seen] == [t.name for t in transforms(geometry)]
    for transform, image in seen:
        assert image.x == expected_image(geometry, transform.name, x) == transform.apply(x)
        assert image.o == expected_image(geometry, transform.name, o)
    # the canonical form is the image that reads smallest, with X < O < empty
    smallest = min((image for _, image in seen), key=reading)
    assert canonical(position) == smallest
    rank, cx, co = canonical_pair(geometry, x, o)
    assert (cx, co) == (smallest.x, smallest.o) and rank == reading_rank(smallest)
    assert all(reading_rank(image) <= rank for _, image in seen)
    # the stabiliser: the transforms that leave it alone; the orbit: the distinct images
    fixed = [t.name for t, image in seen if image == position]
    assert [t.name for t in stabilizer(position)] == fixed and fixed[0] == "identity"
    assert orbit_size(position) == len({(image.x, image.o) for _, image in seen})


@pytest.mark.parametrize("shape", SHAPES)
def test_the_empty_board_is_its_own_canonical_form_with_rank_zero(shape):
    # boards above 16 cells take the general path, the others whole-board tables: both must agree here
    assert canonical_pair(Geometry(*shape, 1), 0, 0) == (0, 0, 0)


def test_reading_rank_orders_by_the_first_cell_that_differs():
    geometry = Geometry(3, 3, 3)
    boards = ["X../.../...", "O../.../...", ".X./.../...", "..X/.../...", "..O/.../...", ".../.../..X", ".../.../..."]

    def of(text):  # any marks, legal or not
        cells = text.replace("/", "")
        x = sum(1 << i for i, char in enumerate(cells) if char == "X")
        return Position(x, sum(1 << i for i, char in enumerate(cells) if char == "O"), geometry)

    ranks = [reading_rank(of(text)) for text in boards]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)


def test_moves_the_same_up_to_symmetry():
    geometry = Geometry(3, 3, 3)
    empty = Position.empty(geometry)
    assert move_classes(empty) == ((1, 3, 7, 9), (2, 4, 6, 8), (5,))
    centre = empty.play(5)
    assert move_classes(centre) == ((1, 3, 7, 9), (2, 4, 6, 8))
    corner = empty.play(1)
    assert move_classes(corner) == ((2, 4), (3, 7), (5,), (6, 8), (9,))
    rectangle = Position.empty(Geometry(3, 4, 3))
    assert move_classes(rectangle) == ((1, 4, 9, 12), (2, 3, 10, 11), (5, 8), (6, 7))
    assert group_moves((1, 2, 3), transforms(geometry)[:1]) == ((1,), (2,), (3,))
