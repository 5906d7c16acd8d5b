"""How far a strong solve has got, as one share of the whole: its four stages weighed by their measured share of
the time, and the plies within a stage by the positions the board's size allows at each.

:func:`workbench.engine.strong.strong_solve` reports ``(stage, done, total)`` per ply of each stage in turn;
:func:`solve_fraction` turns that into 0…1 for one bar, and :func:`describe_progress` into the line a person
reads, with the time left from the time so far (the caller's clock: the engine reads none).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from .geometry import Geometry

STAGE_ORDER = ("forward", "games", "back", "classes")
"""The stages in the order the solve runs them."""
STAGE_SHARES = {"forward": 0.28, "games": 0.26, "back": 0.32, "classes": 0.14}
"""Each stage's share of a solve's time, measured on 4×4k4, 3×5k3 and 2×7k3 (within ±0.06 of these on each)."""
STAGE_WORDS = {
    "forward": "enumerating positions",
    "games": "counting games",
    "back": "values, back from the last ply",
    "classes": "symmetry classes",
}
"""Each stage as a person reads it."""
FORWARD_STAGES = frozenset({"forward", "classes"})
"""Stages that go from the first ply to the last; the others go back from the last."""


@lru_cache(maxsize=64)
def _ply_weights(size: int) -> tuple[float, ...]:
    """Each ply's share of a stage's work: the positions it can hold at most (the cells X and O fill, in any
    arrangement), as the board's size allows; wins cut the real counts, most in the late plies."""
    weights = [comb(size, ply) * comb(ply, ply // 2) for ply in range(size + 1)]
    total = sum(weights)
    return tuple(weight / total for weight in weights)


def solve_fraction(geometry: Geometry, stage: str, done: int, total: int) -> float:
    """The share of the whole solve done once ``stage`` has reported ``done`` of ``total`` plies (0…1)."""
    index = STAGE_ORDER.index(stage)
    before = sum(STAGE_SHARES[name] for name in STAGE_ORDER[:index])
    weights = _ply_weights(geometry.size)
    plies = min(done, len(weights))
    within = sum(weights[:plies]) if stage in FORWARD_STAGES else sum(weights[len(weights) - plies :])
    if done >= total:
        within = 1.0  # a stage that ends early (every game over before the board fills) is done whole
    return min(1.0, before + STAGE_SHARES[stage] * within)


def describe_progress(stage: str, fraction: float, elapsed: float) -> str:
    """``stage 2 of 4, counting games · 37% · about 12 s left``: the time left from the time so far, once there
    is enough of it to go by."""
    line = f"{describe_stage(stage)} · {fraction:.0%}"
    if 0.05 <= fraction < 1 and elapsed >= 1:
        left = elapsed * (1 - fraction) / fraction
        line += f" · about {duration(left)} left"
    return line


def describe_stage(stage: str) -> str:
    """``stage 2 of 4, counting games``."""
    return f"stage {STAGE_ORDER.index(stage) + 1} of {len(STAGE_ORDER)}, {STAGE_WORDS[stage]}"


def duration(seconds: float) -> str:
    """``12 s``, ``3 min 05 s``, ``14 min``."""
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes < 10 else f"{minutes} min"
