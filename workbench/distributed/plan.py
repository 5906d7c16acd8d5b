"""The Dask sweep's plan of one ply: its tasks, cut at its blocks, and the worker each is meant for.

A ply's ranks are blocks (:class:`workbench.engine.ranked.Block`); the children of a block's positions by a mark
in half A lie in one block of the next ply, spread over nearly all of it, and those by a mark in half B in the
same rows of another (:func:`workbench.engine.sweep.rows_needed`). So a worker running the tasks of one block
holds that one child block whole (read once) and reads its tasks' own rows of the other: each task's *home* is
the block holding most of its ranks, and the tasks of a home go to one worker.

:func:`cut_ply` cuts the ply at each block's start (rounded to the nearest of the store's chunks: two tasks never
write one chunk file), then each piece into tasks of equal whole chunks, none longer than ``length``.
:func:`share_out` gives each home's tasks to one worker, the homes largest first, each to the worker with the
fewest ranks per thread so far; a home larger than a worker's share is cut into runs of tasks, a run to a
worker. Pure: no Dask, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..engine.ranked import Numbering
from ..engine.sweep import blocks_meeting


@dataclass(frozen=True)
class Task:
    """Ranks ``start``…``stop − 1`` of a ply, and the block (X and O marks in half A) holding most of them."""

    start: int
    stop: int
    home: tuple[int, int]

    @property
    def ranks(self) -> int:
        return self.stop - self.start


def home_of(numbered: Numbering, ply: int, start: int, stop: int) -> tuple[int, int]:
    """The block of ``ply`` (its X and O marks in half A) holding the most of ranks ``start``…``stop − 1``
    (the first such, on a tie).

    :raises ValueError: the range holds no rank of the ply.
    """
    best, most = None, 0
    for block, low, high, _, _ in blocks_meeting(numbered, ply, start, stop):
        if high - low > most:
            best, most = (block.ax, block.ao), high - low
    if best is None:
        raise ValueError(f"ranks {start}…{stop - 1} hold no position of ply {ply}")
    return best


def cut_ply(numbered: Numbering, ply: int, length: int, chunk: int) -> list[Task]:
    """The tasks of ``ply``, in rank order: each a whole number of ``chunk`` ranks (the last of the ply
    excepted) and at most ``length`` (a multiple of ``chunk``), cut at the blocks' starts rounded to the nearest
    chunk. They cover the ply once."""
    size = numbered.ply_size(ply)
    starts = {min(size, (block.offset + chunk // 2) // chunk * chunk) for block in numbered.blocks[ply]}
    cuts = sorted({0, size} | starts)
    tasks = []
    for low, high in zip(cuts, cuts[1:]):
        pieces = -(-(high - low) // length)
        step = -(-(high - low) // (pieces * chunk)) * chunk
        for start in range(low, high, step):
            stop = min(high, start + step)
            tasks.append(Task(start, stop, home_of(numbered, ply, start, stop)))
    return tasks


def share_out(tasks: list[Task], workers: Mapping[str, int]) -> list[tuple[Task, str | None]]:
    """Each task with the worker (address → its threads) meant to run it, in the order to hand them over: the
    tasks of a home together, in rank order, the homes largest first; a home larger than the largest worker's
    share of the ply is cut into runs of tasks no larger than it. None for every task where there is no worker."""
    if not workers:
        return [(task, None) for task in tasks]
    threads = sum(workers.values())
    share = sum(task.ranks for task in tasks) * max(workers.values()) / threads
    runs: list[list[Task]] = []
    homes: dict[tuple[int, int], list[list[Task]]] = {}
    for task in tasks:
        home_runs = homes.setdefault(task.home, [])
        if not home_runs or sum(other.ranks for other in home_runs[-1]) + task.ranks > share:
            home_runs.append([])
            runs.append(home_runs[-1])
        home_runs[-1].append(task)
    load = dict.fromkeys(sorted(workers), 0)
    planned: list[tuple[Task, str | None]] = []
    for run in sorted(runs, key=lambda run: -sum(task.ranks for task in run)):
        worker = min(load, key=lambda address: (load[address] / workers[address], address))
        load[worker] += sum(task.ranks for task in run)
        planned.extend((task, worker) for task in run)
    return planned
