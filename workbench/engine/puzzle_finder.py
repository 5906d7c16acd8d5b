"""The array work behind :func:`workbench.engine.puzzles.find_puzzles`: every position of a board scored at once
(numpy), the positions with exactly one right move kept, one of each symmetry class in its canonical form, each
graded by :func:`difficulty`, and ordered.

The values are :mod:`.strong`'s bytes, one a position by its base-3 index: a strong solution's own, or the tables'
written into that layout (boards of up to 12 cells). For every position in play, each move's outcome becomes a
*score* for the side moving (a win sooner and a loss later score more, a taken cell 0), read from the bytes of the
positions one move on: on 4×4k4 that is 9.1 million positions in play times 16 cells, in chunks.
"""

from __future__ import annotations

import numpy as np

from .geometry import Geometry
from .results import Tables
from .strong import UNREACHED, StrongSolution, _permutation_tables, _reading_table, _ternary_table, pack
from .symmetry import transforms
from .threats import threat_move

Row = tuple[int, int, int, int, int, float, int, int, int]
"""One puzzle as plain numbers: (x, o, answer, value, remoteness, difficulty, moves, losing, natural), as
:class:`workbench.engine.puzzles.Puzzle` holds them."""

_DRAW = 32
"""The score of a move that draws: every win scores above it (64 less its remoteness), every loss below (its
remoteness), as :mod:`.strong` orders the children of a position."""
_CHUNK = 1 << 21
"""Positions scored at a time: (cells × chunk) bytes of scores, 32 MB on 16 cells."""


def difficulty(plies: np.ndarray, natural_wrong: np.ndarray, moves: np.ndarray, cells: int) -> np.ndarray:
    """How hard each puzzle is (:mod:`workbench.engine.puzzles` says why each part): ``plies // 2`` for the depth of
    the line that shows the answer right, 2 more where the threat player's move is wrong, and (``moves`` − 2) /
    (``cells`` − 1), under 1, for the choice. Rounded to thousandths, so that it reads back from the library as it
    was written."""
    return np.round(plies // 2 + 2 * natural_wrong.astype(np.int64) + (moves - 2) / max(cells - 1, 1), 3)


def puzzle_rows(geometry: Geometry, values: StrongSolution | Tables, count: int | None) -> list[Row]:
    """Every puzzle of ``geometry`` (one a symmetry class), easiest first, then by the position's text; ``count`` of
    them (:func:`spread`) when there are more. The values are ``values``': a strong solution's, or the tables'."""
    packed = _packed_tables(values) if isinstance(values, Tables) else values.packed
    found = _unique_moves(geometry, packed)
    canonical_x, canonical_o, answers, ranks = _canonical(geometry, found)
    naturals = _natural_moves(geometry, canonical_x, canonical_o)
    best = found["best"]
    plies = np.where(best > _DRAW, 64 - best, found["second"])  # a win's own; else the slowest other loss
    grades = difficulty(plies, naturals != answers, found["moves"], geometry.size)
    # the canonical rank orders as the position's text does: '.' < 'O' < 'X' are its digits 0, 1, 2
    order = np.lexsort((ranks, grades))
    if count is not None and count < order.size:
        order = order[spread(grades[order], count)]
    byte = found["byte"][order]
    return list(
        zip(
            canonical_x[order].tolist(),
            canonical_o[order].tolist(),
            answers[order].tolist(),
            ((byte >> 5) - 1).tolist(),
            (byte & 31).tolist(),
            grades[order].tolist(),
            found["moves"][order].tolist(),
            found["losing"][order].tolist(),
            naturals[order].tolist(),
        )
    )


def spread(grades: np.ndarray, count: int) -> list[int]:
    """``count`` places in ``grades`` (ascending, more of them than ``count``), spread over their range of values
    rather than their ranks: each the first at or above its share of the way from the lowest to the highest, moved on
    past the one before. Most puzzles are easy (a 3×3 has 108 wins in 1 among 310): an even spread by rank would be
    mostly those."""
    targets = np.linspace(grades[0], grades[-1], count)
    places = np.searchsorted(grades, targets).tolist()
    for i in range(1, count):  # distinct, in order
        places[i] = max(places[i], places[i - 1] + 1)
    places[-1] = min(places[-1], grades.size - 1)
    for i in range(count - 2, -1, -1):  # and none past the end
        places[i] = min(places[i], places[i + 1] - 1)
    return places


def _score_of_byte() -> np.ndarray:
    """The score, for the side moving, of a move to a position with the byte ``b`` (whose value is the other side's):
    a win sooner scores more, a loss later scores more; 0 for :data:`UNREACHED`."""
    table = np.zeros(256, dtype=np.uint8)
    for byte in range(256):
        if byte == UNREACHED:
            continue
        value, remoteness = -((byte >> 5) - 1), (byte & 31) + 1
        if (byte >> 5) <= 2:
            table[byte] = 64 - remoteness if value > 0 else remoteness if value < 0 else _DRAW
    return table


_SCORE_OF_BYTE = _score_of_byte()


def _packed_tables(table: Tables) -> np.ndarray:
    """The tables' values and remoteness (a board of up to 12 cells) in :mod:`.strong`'s layout, one byte an index."""
    geometry = table.geometry
    keys = np.fromiter(table.value, dtype=np.int64, count=len(table.value))
    values = np.fromiter(table.value.values(), dtype=np.int64, count=len(table.value))
    remoteness = np.fromiter((table.remoteness[key] for key in table.value), dtype=np.int64, count=len(table.value))
    ternary = _ternary_table(geometry.size)
    packed = np.full(3**geometry.size, UNREACHED, dtype=np.uint8)
    packed[ternary[keys & geometry.full] + 2 * ternary[keys >> geometry.size]] = pack(values, remoteness)
    return packed


def _decoders(size: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(x, o) bitboards of every index of the low ``size // 2`` digits, and of the high digits (shifted into place),
    by the number those digits make; and 3 to the low digits' count: one division reads an index's marks."""
    low = size // 2
    marks = []
    for digits, shift in ((low, 0), (size - low, low)):
        numbers = np.arange(3**digits, dtype=np.int64)
        x = np.zeros(numbers.size, dtype=np.int64)
        o = np.zeros(numbers.size, dtype=np.int64)
        for cell in range(digits):
            numbers, digit = np.divmod(numbers, 3)
            x |= (digit == 1).astype(np.int64) << (cell + shift)
            o |= (digit == 2).astype(np.int64) << (cell + shift)
        marks.append((x, o))
    (low_x, low_o), (high_x, high_o) = marks
    return np.stack([low_x, low_o]), np.stack([high_x, high_o]), 3**low


def _unique_moves(geometry: Geometry, packed: np.ndarray) -> dict[str, np.ndarray]:
    """Every position in play whose best move is the only one at its level (the only win, the only draw, or the only
    slowest loss), with at least two moves: its marks, its own byte (value and remoteness), its answer, the answer's
    score, the best score of the other moves, its number of moves and of losing moves."""
    size = geometry.size
    in_play = np.flatnonzero((packed != UNREACHED) & ((packed & 31) != 0))  # remoteness 0: the game is over
    low, high, base = _decoders(size)
    upper, lower = np.divmod(in_play, base)
    x = low[0][lower] | high[0][upper]
    o = low[1][lower] | high[1][upper]
    x_to_move = np.bitwise_count(x) == np.bitwise_count(o)
    parts: list[dict[str, np.ndarray]] = []
    for mark, rows in ((1, np.flatnonzero(x_to_move)), (2, np.flatnonzero(~x_to_move))):
        for start in range(0, rows.size, _CHUNK):
            chunk = rows[start : start + _CHUNK]
            parts.append(_puzzles_among(packed, in_play[chunk], x[chunk], o[chunk], mark, size))
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]} if parts else _none()


def _none() -> dict[str, np.ndarray]:
    return {
        name: np.zeros(0, dtype=np.int64) for name in ("x", "o", "byte", "answer", "best", "second", "moves", "losing")
    }


def _puzzles_among(
    packed: np.ndarray, index: np.ndarray, x: np.ndarray, o: np.ndarray, mark: int, size: int
) -> dict[str, np.ndarray]:
    """:func:`_unique_moves` over positions of one side to move (``mark`` 1 for X, 2 for O: its digit)."""
    empty = (x | o) ^ ((1 << size) - 1)
    last = np.uint32(packed.size - 1)  # every index past the board's reads as a taken cell
    index = index.astype(np.uint32)  # (3**16 < 2**32: half the bytes to move)
    scores = np.empty((size, index.size), dtype=np.uint8)
    for cell in range(size):
        child = np.minimum(index + np.uint32(mark * 3**cell), last)
        np.multiply(_SCORE_OF_BYTE[packed[child]], (empty & (1 << cell)) != 0, out=scores[cell])
    best = scores.max(axis=0)
    # the level a move must reach to be right: any win, a draw, or the slowest loss itself
    level = np.where(best > _DRAW, _DRAW + 1, best).astype(np.uint8)
    moves = np.zeros(index.size, dtype=np.uint8)
    right = np.zeros(index.size, dtype=np.uint8)
    for row in scores:
        moves += row > 0
        right += row >= level
    keep = np.flatnonzero((right == 1) & (moves >= 2))
    kept = scores[:, keep]
    answer = kept.argmax(axis=0)
    others = kept.copy()
    others[answer, np.arange(keep.size)] = 0
    return {
        "x": x[keep],
        "o": o[keep],
        "byte": packed[index[keep]].astype(np.int64),
        "answer": answer.astype(np.int64) + 1,
        "best": best[keep].astype(np.int64),
        "second": others.max(axis=0, initial=0).astype(np.int64),
        "moves": moves[keep].astype(np.int64),
        "losing": ((kept > 0) & (kept < _DRAW)).sum(axis=0).astype(np.int64),
    }


# --- one puzzle a symmetry class, in its canonical form ---------------------------------------------------------


def _canonical(
    geometry: Geometry, found: dict[str, np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Keep one position of each symmetry class in ``found`` (in place): (the canonical images' x and o, the answer
    carried onto them, their canonical ranks as :func:`~workbench.engine.symmetry.canonical_pair` ranks)."""
    reading = _reading_table(geometry.size)
    images = _permutation_tables(geometry)
    x, o = found["x"], found["o"]
    ranks = (
        np.stack([2 * reading[image[x]] + reading[image[o]] for image in images])
        if x.size
        else np.zeros((1, 0), np.int64)
    )
    best = ranks.max(axis=0)
    _, first = np.unique(best, return_index=True)
    for name in found:
        found[name] = found[name][first]
    chosen = ranks[:, first].argmax(axis=0)
    mappings = np.array([(-1, *transform.mapping) for transform in transforms(geometry)], dtype=np.int64) + 1
    stacked = np.stack(images)
    canonical_x = stacked[chosen, found["x"]]
    canonical_o = stacked[chosen, found["o"]]
    return canonical_x, canonical_o, mappings[chosen, found["answer"]], best[first]


def _natural_moves(geometry: Geometry, x: np.ndarray, o: np.ndarray) -> np.ndarray:
    """The threat player's move in each position (a cell number)."""
    naturals = []
    for xs, os_ in zip(x.tolist(), o.tolist()):
        own, other = (xs, os_) if xs.bit_count() == os_.bit_count() else (os_, xs)
        naturals.append(threat_move(geometry, own, other).bit_length())
    return np.array(naturals, dtype=np.int64)


__all__ = ["Row", "difficulty", "puzzle_rows", "spread"]
