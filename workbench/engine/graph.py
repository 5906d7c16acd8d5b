"""The state graph (seed 002): every reachable position, by ply, and its classes.

Positions are keyed by one integer, ``x | o << size`` (see :attr:`Position.key`).
The graph is a DAG: different move orders reach the same position, and the
symmetry classes form a smaller DAG (765 nodes on 3×3).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .geometry import Cell, Geometry
from .position import Position, Status
from .symmetry import canonical_pair, transforms


@dataclass(frozen=True, slots=True)
class StateGraph:
    """All positions reachable from the empty board of ``geometry``.

    ``layers[p]`` holds the keys at ply ``p``; ``children[key]`` the
    (cell, child key) pairs of a position in play (in cell order);
    ``terminal[key]`` the status of a finished position.
    """

    geometry: Geometry
    layers: tuple[tuple[int, ...], ...]
    children: dict[int, tuple[tuple[Cell, int], ...]]
    terminal: dict[int, Status]

    def __contains__(self, key: int) -> bool:
        return key in self.children or key in self.terminal

    def __len__(self) -> int:
        return len(self.children) + len(self.terminal)

    def position(self, key: int) -> Position:
        size = self.geometry.size
        return Position(key & self.geometry.full, key >> size, self.geometry)

    def keys(self):
        for layer in self.layers:
            yield from layer

    def bottom_up(self):
        """(key, moves) of every position in play, deepest ply first: children before parents."""
        children = self.children
        for layer in reversed(self.layers):
            for key in layer:
                moves = children.get(key)
                if moves is not None:
                    yield key, moves


def _terminal_status(x: int, o: int, lines: tuple[int, ...], full: int, misere: bool = False) -> Status | None:
    for line in lines:
        if x & line == line:
            return Status.O_WON if misere else Status.X_WON
        if o & line == line:
            return Status.X_WON if misere else Status.O_WON
    if x | o == full:
        return Status.DRAW
    return None


@cache
def state_graph(geometry: Geometry) -> StateGraph:
    """Enumerate every reachable position breadth-first by ply."""
    size, full, lines = geometry.size, geometry.full, geometry.lines
    layers: list[tuple[int, ...]] = []
    children: dict[int, tuple[tuple[Cell, int], ...]] = {}
    terminal: dict[int, Status] = {}
    layer: list[int] = [0]
    ply = 0
    while layer:
        layers.append(tuple(sorted(layer)))
        next_layer: dict[int, None] = {}
        shift = 0 if ply % 2 == 0 else size  # X moves at even plies
        for key in layers[-1]:
            x, o = key & full, key >> size
            status = _terminal_status(x, o, lines, full, geometry.misere)
            if status is not None:
                terminal[key] = status
                continue
            empties = full & ~(x | o)
            moves = []
            while empties:
                bit = empties & -empties
                empties ^= bit
                child = key | (bit << shift)
                moves.append((bit.bit_length(), child))
                next_layer[child] = None
            children[key] = tuple(moves)
        layer = list(next_layer)
        ply += 1
    return StateGraph(geometry, tuple(layers), children, terminal)


@dataclass(frozen=True, slots=True)
class ClassIndex:
    """Symmetry classes of the reachable positions.

    Class ids run from 1, numbered by ply and then by canonical form (the
    canonical image that reads smallest comes first).
    """

    class_of: dict[int, int]
    canonical_keys: tuple[int, ...]
    """Canonical key of each class; index ``id - 1``."""
    plies: tuple[int, ...]
    """Ply of each class; index ``id - 1``."""
    dag: tuple[tuple[int, int], ...]
    """Edges (parent class, child class) of the class DAG, sorted."""

    @property
    def count(self) -> int:
        return len(self.canonical_keys)

    def by_ply(self) -> tuple[int, ...]:
        counts = [0] * (max(self.plies) + 1)
        for ply in self.plies:
            counts[ply] += 1
        return tuple(counts)


@cache
def class_index(geometry: Geometry) -> ClassIndex:
    graph = state_graph(geometry)
    size, full = geometry.size, geometry.full
    canonical_of: dict[int, int] = {}
    class_of: dict[int, int] = {}
    canonical_keys: list[int] = []
    plies: list[int] = []
    symmetries = transforms(geometry)
    for ply, layer in enumerate(graph.layers):
        ranked: dict[int, int] = {}
        for key in layer:
            if key in canonical_of:
                continue  # already met as an image of an earlier key
            x, o = key & full, key >> size
            rank, cx, co = canonical_pair(geometry, x, o)
            canonical_key = cx | (co << size)
            ranked[canonical_key] = rank
            for transform in symmetries:
                canonical_of[transform.apply(x) | (transform.apply(o) << size)] = canonical_key
        # (apply() is a table lookup on small boards; on large ones, a few per-byte lookups)
        for canonical_key in sorted(ranked, key=ranked.__getitem__, reverse=True):
            canonical_keys.append(canonical_key)
            plies.append(ply)
        ids = {canonical_key: index + 1 for index, canonical_key in enumerate(canonical_keys) if plies[index] == ply}
        for key in layer:
            class_of[key] = ids[canonical_of[key]]
    edges = {(class_of[key], class_of[child]) for key, moves in graph.children.items() for _, child in moves}
    return ClassIndex(class_of, tuple(canonical_keys), tuple(plies), tuple(sorted(edges)))
