"""Game counts (seed 000) by dynamic programming over the state graph.

* games: complete games from a position, each stopping at the first line,
  split by outcome (X wins, O wins, draw);
* ledger: seed 000's table of every fill order of the whole board, where
  play goes on to a full board and the first line decides the winner. A game
  that ends with ``e`` empty cells stands for ``e!`` fill orders.

Nothing here enumerates games: each position's counts are the sum of its
children's, computed once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import factorial
from typing import NamedTuple

from .geometry import Bitboard, Geometry, cell_bit, scan_cells
from .graph import class_index, state_graph
from .position import Status
from .solver import Value, solve


class GameCounts(NamedTuple):
    """Games split by outcome."""

    x: int = 0
    o: int = 0
    draw: int = 0

    @property
    def total(self) -> int:
        return self.x + self.o + self.draw

    def as_dict(self) -> dict[str, int]:
        return {"total": self.total, "x": self.x, "o": self.o, "draw": self.draw}


_OUTCOME = {Status.X_WON: (1, 0, 0), Status.O_WON: (0, 1, 0), Status.DRAW: (0, 0, 1)}


@dataclass(frozen=True, slots=True)
class Counts:
    games: dict[int, GameCounts]
    paths: dict[int, int]
    """Move orders from the empty board that reach each position."""


@cache
def completing_cells(geometry: Geometry) -> tuple[Bitboard, ...]:
    """For every set of one side's marks, the cells that would complete a line.

    Built line by line: a cell ``c`` of a line completes it for every mark set
    that holds the rest of the line (and anything off it).
    """
    full = geometry.full
    table = [0] * (1 << geometry.size)
    for line in geometry.lines:
        off_line = full & ~line
        for cell in scan_cells(line):
            bit = cell_bit(cell)
            rest = line ^ bit
            extra = off_line
            while True:  # every subset of the cells off the line
                table[rest | extra] |= bit
                if not extra:
                    break
                extra = (extra - 1) & off_line
    return tuple(table)


def ledger_counts(geometry: Geometry) -> GameCounts:
    """Seed 000's ledger: winners over every fill order, by a forward DP by ply.

    Each layer maps a position to the number of move orders reaching it; a move
    that completes a line ends ``paths × (cells left)!`` fill orders.
    """
    size, full = geometry.size, geometry.full
    completing = completing_cells(geometry)
    layer = {0: 1}
    wins = [0, 0]
    for ply in range(size):
        side = ply % 2
        shift = size * side
        next_layer: dict[int, int] = {}
        get = next_layer.get
        ended = 0
        for key, paths in layer.items():
            empties = full & ~(key | key >> size)
            winning = completing[(key >> shift) & full] & empties
            if winning:
                ended += paths * winning.bit_count()
                empties ^= winning
            while empties:
                bit = empties & -empties
                empties ^= bit
                child = key | bit << shift
                next_layer[child] = get(child, 0) + paths
        wins[side ^ geometry.misere] += ended * factorial(size - ply - 1)  # misère: completing a line loses
        layer = next_layer
    return GameCounts(wins[0], wins[1], sum(layer.values()))


@cache
def counts(geometry: Geometry) -> Counts:
    graph = state_graph(geometry)
    games: dict[int, GameCounts] = {}
    for key, status in graph.terminal.items():
        games[key] = GameCounts(*_OUTCOME[status])
    for key, moves in graph.bottom_up():
        x_wins = o_wins = draws = 0
        for _, child in moves:
            child_games = games[child]
            x_wins += child_games[0]
            o_wins += child_games[1]
            draws += child_games[2]
        games[key] = GameCounts(x_wins, o_wins, draws)
    children = graph.children
    paths: dict[int, int] = {0: 1}
    for layer in graph.layers:
        for key in layer:
            moves = children.get(key)
            if moves is None:
                continue
            through = paths[key]
            for _, child in moves:
                paths[child] = paths.get(child, 0) + through
    return Counts(games, paths)


def games_through(geometry: Geometry, key: int) -> GameCounts:
    """Complete games from the empty board that pass through the position ``key``:
    the move orders reaching it times the games continuing from it."""
    tallies = counts(geometry)
    orders = tallies.paths[key]
    return GameCounts(*(orders * part for part in tallies.games[key]))


def census(geometry: Geometry) -> dict:
    """Whole-game statistics as plain data (the ``workbench census`` record)."""
    graph = state_graph(geometry)
    classes = class_index(geometry)
    solution = solve(geometry)
    tallies = counts(geometry)
    terminal_classes = {classes.class_of[key] for key in graph.terminal}
    by_value = {"win": 0, "draw": 0, "loss": 0}
    classes_by_value: dict[str, set[int]] = {"win": set(), "draw": set(), "loss": set()}
    for key in graph.children:  # only positions in play have a side to move
        label = ("loss", "draw", "win")[solution.value[key] + 1]
        by_value[label] += 1
        classes_by_value[label].add(classes.class_of[key])
    games_by_length: dict[int, int] = {}
    for key in graph.terminal:
        length = key.bit_count()
        games_by_length[length] = games_by_length.get(length, 0) + tallies.paths[key]
    return {  # the keys of strong_records.strong_census, in its order: one census, whichever solver made it
        "variant": str(geometry),
        "geometry": {"rows": geometry.rows, "cols": geometry.cols, "k": geometry.k, "misere": geometry.misere},
        "positions": len(graph),
        "terminal_positions": len(graph.terminal),
        "positions_by_ply": [len(layer) for layer in graph.layers],
        "terminal_by_ply": [sum(1 for key in layer if key in graph.terminal) for layer in graph.layers],
        "positions_by_value": by_value,
        "classes": classes.count,
        "terminal_classes": len(terminal_classes),
        "classes_by_ply": list(classes.by_ply()),
        "classes_by_value": {label: len(ids) for label, ids in classes_by_value.items()},
        "games": tallies.games[0].as_dict(),
        "games_by_length": {str(length): games_by_length[length] for length in sorted(games_by_length)},
        "ledger": ledger_counts(geometry).as_dict(),
        "value": {"value": Value(solution.value[0]).label, "remoteness": solution.remoteness[0]},
    }
