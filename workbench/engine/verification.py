"""The threat planner (seed 001) against the exact solver: the positions where their perfect-win and perfect-lose
masks differ. What ``workbench verify`` reports; pure computation, like the rest of the engine."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .analysis import analyze_all, exact_masks
from .geometry import Bitboard, Geometry
from .position import Player, Position
from .threats import planner_for


@dataclass(frozen=True)
class Disagreement:
    """A position in play where the planner's masks are not the solver's."""

    position: Position
    planner: tuple[Bitboard, Bitboard]
    """The planner's (perfect-win, perfect-lose) masks."""
    solver: tuple[Bitboard, Bitboard]
    """The exact ones."""


@dataclass(frozen=True)
class PlannerCheck:
    checked: int
    """Positions in play compared."""
    disagreements: tuple[Disagreement, ...]


def planner_disagreements(geometry: Geometry) -> Iterator[Disagreement | None]:
    """For each position in play of ``geometry`` (every reachable one, in the solver's order): None when the
    planner's masks are the solver's, else how they differ. The planner reads a line as a win: normal play only."""
    planner = planner_for(geometry)
    for analysis in analyze_all(geometry):
        if analysis.to_move is None:
            continue
        exact = exact_masks(analysis)
        position = analysis.position
        me, opp = (position.x, position.o) if analysis.to_move is Player.X else (position.o, position.x)
        masks = planner.masks(me, opp)
        planned = (masks.perfect_winning, masks.perfect_losing)
        yield None if planned == exact else Disagreement(position, planned, exact)


def check_planner(geometry: Geometry) -> PlannerCheck:
    """Every position in play of ``geometry`` compared (see :func:`planner_disagreements`)."""
    checked = 0
    found = []
    for disagreement in planner_disagreements(geometry):
        checked += 1
        if disagreement is not None:
            found.append(disagreement)
    return PlannerCheck(checked, tuple(found))
