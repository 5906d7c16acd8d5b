"""A scenario's keys in numbers: each app's latencies, their p95, and how far the ratio of two apps' p95 may move.

Pure computation over the times the terminal bench (:mod:`.terminal`) took; imports nothing of the workbench.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class Timing:
    """Latencies of one app in one scenario at one size."""

    by_key: list[float | None] = field(default_factory=list)
    """Every key's latency in the order timed, None where the screen never settled: the keys of two apps timed in
    turn pair up by index."""
    bytes_per_key: list[int] = field(default_factory=list)
    """The bytes of each key that settled."""

    @property
    def latencies(self) -> list[float]:
        """The latencies of the keys that settled, in the order timed."""
        return [latency for latency in self.by_key if latency is not None]

    @property
    def failures(self) -> int:
        """Keys whose screen never settled."""
        return self.by_key.count(None)

    def p95(self) -> float:
        latencies = self.latencies
        return p95_of(latencies) if latencies else float("nan")

    def median(self) -> float:
        latencies = self.latencies
        return statistics.median(latencies) if latencies else float("nan")

    def add(self, other: Timing) -> None:
        """Take ``other``'s keys in too (one app's keys over several scenarios)."""
        self.by_key += other.by_key
        self.bytes_per_key += other.bytes_per_key


def p95_of(values: Sequence[float]) -> float:
    """The p95 as :meth:`Timing.p95` takes it (the value a twentieth from the top, by index)."""
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


RATIO_RESAMPLES = 1000
"""Resamples of a scenario's keys for the interval of its p95 ratio."""
RATIO_INTERVAL_LEVEL = 0.90
MIN_PAIRS_FOR_INTERVAL = 20
"""Fewer keys than this (``--quick``'s ten) give no interval: a p95 of so few is their top value or next to it."""


def p95_ratio_interval(
    bare: Sequence[float | None],
    ours: Sequence[float | None],
    *,
    resamples: int = RATIO_RESAMPLES,
    level: float = RATIO_INTERVAL_LEVEL,
    seed: int = 0,
) -> tuple[float, float] | None:
    """How far our app's p95 over the bare app's could move with other keys of the same run: the central ``level`` of
    the ratio over ``resamples`` bootstrap resamples of the keys. The two apps took their keys in turn, so key ``i``
    of each is a pair that met the same spell of load, and pairs are resampled whole. Keys where either screen never
    settled are left out; None below :data:`MIN_PAIRS_FOR_INTERVAL` pairs. Seeded: the same run gives the same
    interval."""
    pairs = [(b, o) for b, o in zip(bare, ours, strict=False) if b is not None and o is not None]
    count = len(pairs)
    if count < MIN_PAIRS_FOR_INTERVAL:
        return None
    chooser = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        sample = [pairs[chooser.randrange(count)] for _ in range(count)]
        ratios.append(p95_of([o for _, o in sample]) / p95_of([b for b, _ in sample]))
    ratios.sort()
    tail = (1 - level) / 2
    return ratios[int(tail * (resamples - 1))], ratios[int((1 - tail) * (resamples - 1))]
