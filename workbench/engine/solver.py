"""Exact values and remoteness of every reachable position, by retrograde sweep.

The value is for the side to move: win, draw or loss under perfect play.
Remoteness counts plies to the end when the winner hurries and the loser
delays; a drawn game runs to a full board. A finished position is a loss for
the side to move if the other side made a line (a win under misère; remoteness
0), else a draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache

from .geometry import Geometry
from .graph import state_graph
from .position import Status


class Value(IntEnum):
    LOSS = -1
    DRAW = 0
    WIN = 1

    @property
    def label(self) -> str:
        return self.name.lower()


def preference(value: int, remoteness: int) -> tuple[int, int]:
    """Sort key of an outcome for the side that gets it: higher is better.

    Among wins the quickest is best; among losses the slowest.
    """
    return (value, -remoteness if value > 0 else remoteness)


@dataclass(frozen=True, slots=True)
class Solution:
    """``value[key]`` and ``remoteness[key]`` for every reachable position."""

    value: dict[int, int]
    remoteness: dict[int, int]


@cache
def solve(geometry: Geometry) -> Solution:
    graph = state_graph(geometry)
    value: dict[int, int] = {}
    remoteness: dict[int, int] = {}
    line_made = 1 if geometry.misere else -1  # for the side to move: the other side completed a line
    for key, status in graph.terminal.items():
        value[key] = 0 if status is Status.DRAW else line_made
        remoteness[key] = 0
    for key, moves in graph.bottom_up():
        best_value, best_remoteness = -2, 0
        for _, child in moves:
            child_value = -value[child]
            child_remoteness = remoteness[child] + 1
            if child_value > best_value or (
                child_value == best_value
                and (child_remoteness < best_remoteness if child_value > 0 else child_remoteness > best_remoteness)
            ):
                best_value, best_remoteness = child_value, child_remoteness
        value[key] = best_value
        remoteness[key] = best_remoteness
    return Solution(value, remoteness)
