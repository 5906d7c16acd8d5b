"""Where the solutions of 17–20 cells are kept, and making one: `workbench solve` past 16 cells.

Kept in the cache folder beside the strong solutions (:mod:`workbench.kept.tables`), named with the same engine
fingerprint, so that a changed engine solves again; older stores of the board are removed once a new one is
whole. ``WORKBENCH_NO_TABLES_CACHE=1`` keeps nothing here either: the board is then solved and not kept, and
stays searched.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ..engine.geometry import MAX_STRONG_CELLS, MAX_SWEPT_CELLS, Geometry, is_keepable
from ..engine.ranked import positions_with_marks
from ..errors import InputError
from .solutions import KeptSolution, open_solution, store_name, store_stem, write_solution
from .tables import cache_enabled, cache_folder, engine_fingerprint

if TYPE_CHECKING:
    from ..engine.answers import Answers
    from ..engine.strong import StrongSolution

MAX_KEPT_CELLS = MAX_SWEPT_CELLS
"""The largest boards solved on this machine: 4×5's 741 million positions take a minute or two and 1.3 GB."""

SweepProgress = Callable[[float], None]
"""Called with the share of the sweep done (0…1), weighed by each ply's positions."""


class BoardNotKeptError(InputError):
    """A board outside the sizes a solution is kept for (17 to :data:`MAX_KEPT_CELLS` cells)."""


def check_keepable(geometry: Geometry) -> None:
    """:raises BoardNotKeptError: naming the board, outside 17–20 cells."""
    if not is_keepable(geometry):
        raise BoardNotKeptError(
            f"board {geometry}: solutions are kept for boards of {MAX_STRONG_CELLS + 1} to {MAX_KEPT_CELLS} cells "
            f"({geometry.size} here)"
        )


def kept_path(geometry: Geometry) -> Path:
    return cache_folder() / store_name(geometry, engine_fingerprint())


def load_kept(geometry: Geometry) -> KeptSolution | None:
    """The whole solution kept for ``geometry`` by this engine, or None."""
    if not (cache_enabled() and is_keepable(geometry)):
        return None
    return open_solution(geometry, kept_path(geometry), engine_fingerprint())


def is_kept(geometry: Geometry) -> bool:
    return load_kept(geometry) is not None


def open_kept(geometry: Geometry) -> Answers | None:
    """The answers of a board of 17–20 cells from the solution kept for it (opening it reads two small files: a few
    ms; its chunks are read as positions ask for them), held (:mod:`.held`); None where none is kept."""
    from ..engine.answers import SolutionAnswers
    from .held import held, hold

    if not is_keepable(geometry):
        return None
    answers = held(geometry)
    if answers is not None:
        return answers
    kept = load_kept(geometry)
    if kept is None:
        return None
    mine = SolutionAnswers(cast("StrongSolution", kept))  # read as a strong one is: values alone
    answers = hold(mine)
    if answers is mine:  # (not where another thread opened and held it first)
        kept.warm_in_background()
    return answers


def solving_estimate(geometry: Geometry) -> str:
    """How long solving the board here takes, as short as a list's column allows (``1–3 min``): in proportion to its
    positions, from the range measured for 4×5's 741 million on one core (the sweep and the store;
    docs/benchmarks.md)."""
    positions = sum(positions_with_marks(geometry.size, ply) for ply in range(geometry.size + 1))
    low, high = (seconds * positions / 741_365_049 for seconds in (70, 160))
    if high < 60:
        return f"{max(1, round(low))}–{max(1, round(high))} s"
    return f"{max(1, round(low / 60))}–{round(high / 60)} min"


def sweep_weights(geometry: Geometry) -> list[float]:
    """Each ply's share of a sweep's work, last ply first (the order it is solved): its positions times the
    moves each has."""
    cells = geometry.size
    work = [positions_with_marks(cells, ply) * max(1, cells - ply) for ply in range(cells, -1, -1)]
    total = sum(work)
    return [part / total for part in work]


Sweeper = Callable[[Geometry, "Path | None", str, "SweepProgress | None"], None]
"""Solves a board into a store at the given path (or into none: solved, not kept), with the engine's fingerprint:
:func:`numpy_sweep` here, or the command line's Dask sweep (:mod:`workbench.distributed`, which imports this
module: it is handed in, not imported)."""


def solve_and_keep(
    geometry: Geometry, progress: SweepProgress | None = None, sweeper: Sweeper | None = None
) -> tuple[KeptSolution | None, str, float]:
    """(solution, where, seconds): read back (``"cache"``), or solved now (``"solved"``, by ``sweeper``: the numpy
    sweep in this process unless another is given) and kept. The solution is None where it cannot be kept (the
    cache turned off): nothing past 16 cells is held in memory.

    :raises BoardNotKeptError: outside 17–20 cells.
    :raises StoreError: the store cannot be written.
    """
    check_keepable(geometry)
    found = load_kept(geometry)
    if found is not None:
        return found, "cache", 0.0
    started = time.perf_counter()
    target = kept_path(geometry) if cache_enabled() else None
    (sweeper or numpy_sweep)(geometry, target, engine_fingerprint(), progress)
    seconds = time.perf_counter() - started
    if target is None:
        return None, "solved", seconds
    _remove_older(geometry, target)
    return open_solution(geometry, target, engine_fingerprint()), "solved", seconds


def numpy_sweep(
    geometry: Geometry, target: Path | None, fingerprint: str, progress: SweepProgress | None = None
) -> None:
    """The sweep in this process (:func:`workbench.engine.sweep.sweep`), each ply written as it is done; a sweep
    killed part way is carried on from the last ply it finished (its partial store checked first)."""
    from ..engine.sweep import sweep

    weights = sweep_weights(geometry)
    plies_in_all = len(weights)

    def plies(below: int | None = None, later=None):
        done = sum(weights[: plies_in_all - below]) if below is not None else 0.0
        step = plies_in_all - below if below is not None else 0
        for ply, values in sweep(geometry, below=below, later=later):
            done += weights[step]
            step += 1
            if progress is not None:
                progress(min(1.0, done))
            yield ply, values

    if target is None:
        for _ in plies():
            pass
        return
    write_solution(geometry, target, fingerprint, plies, resume=True, solver="numpy")


def _remove_older(geometry: Geometry, current: Path) -> None:
    """Stores of this board made by an older engine: never read again."""
    prefix = store_stem(geometry) + "-"
    for other in current.parent.glob(f"{prefix}*.zarr"):
        if other != current and "-" not in other.name.removeprefix(prefix):  # not the misère board's
            shutil.rmtree(other, ignore_errors=True)
