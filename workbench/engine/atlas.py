"""The family's atlas: for every board of at most N cells, under both rules, what its strong solution says of
the whole game (``workbench atlas``).

The boards are every m×n with m ≤ n and m·n ≤ N, with every k from 3 to n, normal and misère. None is skipped
for want of a line: with k ≤ n a row always holds one (on a 1×n board only the row does), and a board narrower
than 3 has no k at all. Each board's record is read off its strong solution (:mod:`.strong`), the one bulk path
for every size up to 16 cells, so the small boards and the large are counted by the same code; the dictionary
tables of the small ones check it in the tests.

What the solution does not hold, the dead draws (positions in play where no line can be completed any more,
``analyze``'s ``"dead_draw"``), is counted here over every reachable position at once with numpy, by the same
rule as :func:`workbench.engine.position.no_line_left`.

Pure: the caller reads or makes the solutions (the cache is the command line's) and owns the clock; the progress
of a whole run, one bar over boards of very different cost, is worked out here from what it reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from .census import GameCounts
from .geometry import MAX_SWEPT_CELLS, Cell, Geometry, cell_name
from .solve_progress import STAGE_WORDS, describe_stage, duration
from .solver import preference
from .strong import UNREACHED, StrongSolution
from .symmetry import group_moves, transforms

MAX_ATLAS_CELLS = MAX_SWEPT_CELLS
"""The atlas covers the boards solved here: strongly up to 16 cells, by the ranked sweep and kept up to 20 (4×5's
741 million positions; their games and dead draws are not counted)."""
MIN_ATLAS_CELLS = 3
"""The smallest board of the atlas, 1×3 with three in a row: below it no board holds a line of three."""
MAX_ATLAS_SIDE = 16
"""The longest side of an atlas board: 1×16 is the longest single row solved strongly. Past 16 cells every board
has two rows or more (4×5, 3×6, 2×9, 2×10); 1×17 to 1×20, single rows longer than the app's boards (15 at most),
would take an hour between them and say nothing a shorter row does not."""
MIN_K = 3
"""k = 1 and 2 are left out: the first mark (or the second of the first player) decides them."""
_LABELS = {1: "win", 0: "draw", -1: "loss"}


@dataclass(frozen=True, slots=True)
class AtlasRecord:
    """One board under one rule, as its strong solution has it. ``value`` and ``remoteness`` are the empty
    board's, for X, who moves first (1 a win, 0 a draw, -1 a loss, by the board's rule)."""

    geometry: Geometry
    value: int
    remoteness: int
    keeping_first_moves: tuple[Cell, ...]
    """The first moves that keep the value (a win, however slow; a draw; any move where all lose), one per
    symmetry class: the lowest cell of each."""
    best_first_moves: tuple[Cell, ...]
    """The best first moves, as the app's ★ marks them: the quickest win, else a draw, else the slowest loss (of
    those that keep the value, the ones that get there soonest or hold out longest), one per symmetry class."""
    first_move_classes: int
    """The first moves up to symmetry (the empty board's stabiliser is the whole group)."""
    positions: int
    classes: int
    games: GameCounts | None
    """Complete games from the empty board, each stopping at the first line, by outcome (None past 16 cells:
    not counted)."""
    dead_draws: int | None
    """Positions in play where neither side can complete a line any more (None past 16 cells: not counted)."""

    @property
    def variant(self) -> str:
        return str(self.geometry)

    @property
    def dead_draw_share(self) -> float | None:
        """Dead draws as a share of every reachable position (the ended ones included)."""
        return None if self.dead_draws is None else self.dead_draws / self.positions

    @property
    def keeping_first_names(self) -> tuple[str, ...]:
        return tuple(cell_name(cell, self.geometry) for cell in self.keeping_first_moves)

    @property
    def best_first_names(self) -> tuple[str, ...]:
        return tuple(cell_name(cell, self.geometry) for cell in self.best_first_moves)


def atlas_boards(max_cells: int) -> tuple[Geometry, ...]:
    """Every board of the atlas of at most ``max_cells`` cells (no side longer than :data:`MAX_ATLAS_SIDE`),
    smallest first: by cells, then rows, k, the normal rule before the misère."""
    boards = []
    for cells in range(MIN_ATLAS_CELLS, max_cells + 1):
        for rows in range(1, cells + 1):
            cols, rest = divmod(cells, rows)
            if rest or rows > cols or cols > MAX_ATLAS_SIDE:
                continue
            for k in range(MIN_K, cols + 1):
                boards += [Geometry(rows, cols, k), Geometry(rows, cols, k, misere=True)]
    return tuple(boards)


def atlas_record(solution: StrongSolution) -> AtlasRecord:
    """The atlas's record of ``solution``'s board: a strong solution (up to 16 cells), or a kept one past them
    (:class:`workbench.kept.solutions.KeptSolution`: anything with ``lookup_many``, ``positions`` and no
    ``games``), whose classes are counted here and whose games and dead draws are not."""
    geometry = solution.geometry
    start = solution.lookup(0, 0)
    read = solution.lookup_many([1 << cell for cell in range(geometry.size)], [0] * geometry.size)
    assert start is not None and None not in read  # pragma: no mutate - every game reaches these positions
    value, remoteness = start
    first = [found for found in read if found is not None]
    # the child's value is O's, who moves there
    keeping = tuple(cell for cell, (child_value, _) in enumerate(first, 1) if -child_value == value)
    outcomes = [preference(-child_value, child_remoteness + 1) for child_value, child_remoteness in first]
    best = tuple(cell for cell, outcome in enumerate(outcomes, 1) if outcome == max(outcomes))
    group = transforms(geometry)
    counted = hasattr(solution, "games")
    return AtlasRecord(
        geometry=geometry,
        value=value,
        remoteness=remoteness,
        keeping_first_moves=tuple(orbit[0] for orbit in group_moves(keeping, group)),
        best_first_moves=tuple(orbit[0] for orbit in group_moves(best, group)),
        first_move_classes=len(group_moves(tuple(range(1, geometry.size + 1)), group)),
        positions=solution.positions,
        classes=sum(solution.classes_by_ply) if counted else classes_counted(solution),
        games=GameCounts(*solution.games(0, 0)) if counted else None,
        dead_draws=dead_draws(solution) if counted else None,
    )


def classes_counted(solution) -> int:
    """The symmetry classes of the reachable positions, by Burnside's lemma: the average over the board's
    symmetries of the reachable positions each leaves unchanged. A position a symmetry leaves unchanged is one
    mark (or none) per cycle of cells it permutes: 3**cycles candidates (at most 3**12 on 20 cells), each
    looked up, rather than every position's images (the strong solve's way, too slow past 16 cells)."""
    geometry = solution.geometry
    group = transforms(geometry)
    total = solution.positions  # the identity leaves every one
    for transform in group[1:]:
        cycles = _cycles(transform.mapping)
        codes = np.arange(3 ** len(cycles), dtype=np.int64)
        x = np.zeros(codes.size, dtype=np.int64)
        o = np.zeros(codes.size, dtype=np.int64)
        for place, cycle in enumerate(cycles):
            digit = codes // 3**place % 3
            cells = sum(1 << cell for cell in cycle)
            x |= np.where(digit == 1, cells, 0)
            o |= np.where(digit == 2, cells, 0)
        ahead = np.bitwise_count(x).astype(np.int64) - np.bitwise_count(o)
        played = (ahead == 0) | (ahead == 1)  # the marks of some ply (X moves first)
        total += sum(found is not None for found in solution.lookup_many(x[played], o[played]))
    classes, rest = divmod(total, len(group))
    assert rest == 0, f"Burnside's count of {geometry} is not whole"  # pragma: no mutate - an invariant, never false
    return classes


def _cycles(mapping: tuple[int, ...]) -> list[list[int]]:
    seen, cycles = set(), []
    for start in range(len(mapping)):
        if start not in seen:
            cycle, cell = [], start
            while cell not in seen:
                seen.add(cell)
                cycle.append(cell)
                cell = mapping[cell]
            cycles.append(cycle)
    return cycles


@cache
def _popcounts(size: int) -> np.ndarray:
    """``table[bb]``: the cells of ``bb``, for every bitboard of ``size`` cells."""
    boards = np.arange(1 << size, dtype=np.int64)
    table = np.zeros(boards.size, dtype=np.int8)
    for cell in range(size):
        table += ((boards >> cell) & 1).astype(np.int8)
    table.flags.writeable = False
    return table


def dead_draws(solution: StrongSolution, chunk: int = 1 << 22) -> int:
    """How many reachable positions in play are dead draws: for every line, it holds a mark of each side, or
    needs more marks than its side has moves left (X moves when the counts are equal). Over the solution's
    bytes in chunks of indices (the positions decoded from their base-3 index), never one position at a time."""
    geometry = solution.geometry
    size, lines = geometry.size, geometry.lines
    popcount = _popcounts(size)
    found = 0
    for start in range(0, solution.packed.size, chunk):
        block = solution.packed[start : start + chunk]
        # reached, and in play: a byte of remoteness 0 is a game over (a line made, or the board full)
        rest = np.flatnonzero((block != UNREACHED) & ((block & 31) != 0)) + start
        x = np.zeros(rest.size, dtype=np.int64)
        o = np.zeros(rest.size, dtype=np.int64)
        for cell in range(size):
            rest, digit = np.divmod(rest, 3)
            x |= (digit == 1).astype(np.int64) << cell
            o |= (digit == 2).astype(np.int64) << cell
        x_count, o_count = popcount[x], popcount[o]
        empties = size - x_count - o_count
        x_moves = np.where(x_count == o_count, (empties + 1) // 2, empties // 2)
        o_moves = empties - x_moves
        alive = np.zeros(x.size, dtype=bool)
        for line in lines:
            alive |= ((o & line) == 0) & (popcount[line & ~x] <= x_moves)
            alive |= ((x & line) == 0) & (popcount[line & ~o] <= o_moves)
        found += int(x.size - alive.sum())
    return found


def record_data(record: AtlasRecord) -> dict:
    """The record as plain JSON-ready data (a line of ``workbench atlas --json``): the value as ``analyze``
    labels it, for X on the empty board."""
    geometry = record.geometry
    games = record.games
    share = record.dead_draw_share
    return {
        "variant": record.variant,
        "rows": geometry.rows,
        "cols": geometry.cols,
        "k": geometry.k,
        "misere": geometry.misere,
        "value": _LABELS[record.value],
        "remoteness": record.remoteness,
        "keeping_first_moves": list(record.keeping_first_names),
        "keeping_first_cells": list(record.keeping_first_moves),
        "best_first_moves": list(record.best_first_names),
        "best_first_cells": list(record.best_first_moves),
        "first_move_classes": record.first_move_classes,
        "positions": record.positions,
        "classes": record.classes,
        "games": games.as_dict() if games is not None else None,
        "dead_draws": record.dead_draws,
        "dead_draw_share": round(share, 6) if share is not None else None,
    }


def outcome_words(record: AtlasRecord) -> str:
    """``X wins in 7``, ``draw``, ``O wins in 8``: the empty board's value as a person reads it."""
    if record.value == 0:
        return "draw"
    return f"{'X' if record.value > 0 else 'O'} wins in {record.remoteness}"


# --- one progress display for a whole run ---------------------------------------------------------------------

READ_BACK_SHARE = 0.25
"""A board whose solution is kept costs about this share of solving it: reading it back, and counting its dead
draws, which are counted either way (the run's time left is an estimate, and says "about")."""


def board_weight(geometry: Geometry, *, kept: bool = False) -> float:
    """A board's expected share of a run's time, up to a common factor: the positions its size allows (the
    cells X and O fill, in any arrangement), which bound the sweep's work; less for a solution kept."""
    weight = float(sum(comb(geometry.size, ply) * comb(ply, ply // 2) for ply in range(geometry.size + 1)))
    return weight * READ_BACK_SHARE if kept else weight


def run_fraction(weights: tuple[float, ...], board: int, within: float) -> float:
    """The share of a run done at ``within`` (0…1) of board ``board`` (0-based), the boards weighed by
    :func:`board_weight`."""
    total = sum(weights)
    return min(1.0, (sum(weights[:board]) + weights[board] * within) / total)


def describe_run(board: int, boards: int, variant: str, stage: str, fraction: float, elapsed: float) -> str:
    """``board 131 of 268 · 4x4k4-misere · stage 3 of 4, values, back from the last ply · 47% · about 2 min left``:
    the board now (0-based ``board``), what is done to it (a stage of the solve by its name, else as said), the
    whole run's share done and the time left from the time so far, once there is enough of it to go by."""
    doing = describe_stage(stage) if stage in STAGE_WORDS else stage
    line = f"board {board + 1} of {boards} · {variant} · {doing} · {fraction:.0%}"
    if 0.02 <= fraction < 1 and elapsed >= 1:
        line += f" · about {duration(elapsed * (1 - fraction) / fraction)} left"
    return line
