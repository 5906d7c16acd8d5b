"""The retrograde sweep on Dask: one task per chunk of a ply, each ply a Zarr array of the kept store.

:func:`dask_sweep` solves a board ply by ply, the full board first, on a ``LocalCluster`` of its own (``workers``
processes of one thread each) or on the cluster whose scheduler is at ``scheduler``. A ply's array is made
empty by the driver (:meth:`~workbench.kept.solutions.SolutionWriter.create`); each of the ply's tasks
(:func:`solve_task`) opens the store, reads the whole next ply once per worker process (kept there until the
sweep moves to the ply below), solves its ranks with :func:`workbench.engine.sweep.solve_range`, writes them
into the array and hands back only the ply's bincount of its bytes and what it read and wrote. The driver sums
the bincounts into the ply's summary; no values ever pass through it. The store is renamed into place only
when every ply is whole (:meth:`~workbench.kept.solutions.SolutionWriter.finish`), so that it is the store
:func:`workbench.kept.solutions.write_solution` writes from the one-process sweep, chunk for chunk.

A task's range is a whole number of the store's chunks: two tasks never write the same chunk file, and a task
run again (Dask retries a failed one ``retries`` times, and runs again elsewhere the tasks of a worker that
died) writes the same bytes again. Zarr writes a chunk under a temporary name and renames it, so a worker
killed mid-write leaves at most a stray ``*.partial`` file, removed before the store is kept.

On a cluster of several machines the store's folder must be one the driver and every worker see at the same
path (a shared file system): the driver makes and renames it, the workers fill it.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import numpy as np

from ..engine.geometry import Geometry
from ..engine.ranked import numbering
from ..engine.sweep import CHUNK as SWEEP_CHUNK, solve_range
from ..errors import StoreError, UsageError
from ..kept.solutions import CHUNK as STORE_CHUNK, SolutionWriter, chunk_length, store_name, summary_of_counts
from ..kept.solving import sweep_weights

DEFAULT_WORKERS = 2
"""Local worker processes when neither ``workers`` nor ``scheduler`` is given."""
RETRIES = 3
"""Times Dask runs a task again after it raised (a worker that dies is Dask's own business: its tasks are run
elsewhere, up to ``distributed.scheduler.allowed-failures`` deaths)."""
CONNECT_TIMEOUT = 5.0
"""Seconds to reach a scheduler, and to wait for its first worker."""
TASKS_PER_WORKER = 4
"""A ply is cut into at least this many tasks per worker thread where its chunks allow (a worker idle while
another finishes a long last task is the cost of fewer), and none longer than :data:`engine.sweep.CHUNK`."""
CLUSTER_EXTRA = "the Dask sweep needs the cluster extra: pip install 'mnk-workbench[cluster]'"

SweepProgress = Callable[[float], None]


def dask_sweep(
    geometry: Geometry,
    target: Path | None,
    *,
    fingerprint: str,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: SweepProgress | None = None,
    chunk: int = SWEEP_CHUNK,
    retries: int = RETRIES,
    connect_timeout: float = CONNECT_TIMEOUT,
) -> Path | None:
    """Solve ``geometry`` on Dask and keep it at ``target`` (None: solve, check and keep nothing; the plies go
    to a temporary folder, removed at the end). Returns where it was kept.

    ``progress(share)`` is called after each task with the share of the sweep done (0…1, each ply weighed by
    its positions times their moves). ``chunk`` is the longest task, in ranks: a multiple
    of the store's chunk.

    :raises UsageError: Dask is not installed; the scheduler cannot be reached or has no worker; the workers
        kept dying on a task (out of memory, most likely).
    :raises StoreError: the store cannot be written.
    """
    if chunk <= 0 or chunk % STORE_CHUNK:
        raise ValueError(f"a task's chunk must be a positive multiple of {STORE_CHUNK} ranks, not {chunk}")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError(CLUSTER_EXTRA) from None
    scratch = None
    if target is None:
        scratch = Path(tempfile.mkdtemp(prefix="workbench-dask-sweep-"))
        target = scratch / store_name(geometry, fingerprint)
    try:
        with _quiet(), _client(workers, scheduler, connect_timeout) as client:
            _sweep(client, geometry, Path(target), fingerprint, progress, chunk, retries)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return None if scratch is not None else Path(target)


def _sweep(client, geometry: Geometry, target: Path, fingerprint: str, progress, chunk: int, retries: int) -> None:
    started = time.perf_counter()
    numbered = numbering(geometry)
    threads = client.nthreads()
    writer = SolutionWriter(geometry, target, fingerprint, resume=True)  # (a killed sweep's plies carried on from)
    store = str(writer.partial)
    weights = _weights(geometry)
    done = 0.0
    summaries: dict[int, dict] = dict(writer.done)
    seconds = [0.0] * numbered.plies
    read = [0] * numbered.plies
    tasks = [0] * numbered.plies
    task_seconds = [[0.0, 0.0, 0.0] for _ in range(numbered.plies)]
    run = uuid.uuid4().hex[:8]
    try:
        for ply in range(numbered.plies - 1, -1, -1):
            if ply in writer.done:
                done += weights[ply]
                continue
            ply_started = time.perf_counter()
            writer.create(ply)
            size = numbered.ply_size(ply)
            counts = np.zeros(256, dtype=np.int64)
            for result in _solve_ply(
                client,
                f"workbench-sweep-{run}",
                store,
                geometry,
                ply,
                task_length(size, sum(threads.values()) or 1, chunk),
                retries,
            ):
                counts += result["counts"]
                read[ply] += result["read"]
                tasks[ply] += 1
                task_seconds[ply] = [total + part for total, part in zip(task_seconds[ply], result["seconds"])]
                done += weights[ply] * (result["stop"] - result["start"]) / size
                if progress is not None:
                    progress(min(1.0, done))
            summaries[ply] = summary_of_counts(counts)
            writer.ply_done(ply, summaries[ply])
            seconds[ply] = round(time.perf_counter() - ply_started, 3)
        _remove_stray_writes(writer.partial)
        writer.finish(
            summaries,
            solver="dask",
            workers=len(threads),
            threads=sum(threads.values()),
            seconds=round(time.perf_counter() - started, 3),
            seconds_by_ply=seconds,
            read_bytes_by_ply=read,
            tasks_by_ply=tasks,
            task_seconds_by_ply=[[round(part, 3) for part in parts] for parts in task_seconds],
        )
    except BaseException as error:
        writer.abandon(error)
        raise
    finally:
        with contextlib.suppress(Exception):  # the workers' copies of the last ply read: hundreds of MB each
            client.run(forget, store)


def _solve_ply(
    client, name: str, store: str, geometry: Geometry, ply: int, length: int, retries: int
) -> Iterator[dict]:
    """The results of the ply's tasks (:func:`solve_task`, ``length`` ranks each) as they finish."""
    from distributed import KilledWorker, as_completed

    size = numbering(geometry).ply_size(ply)
    futures = [
        client.submit(
            solve_task,
            store,
            geometry,
            ply,
            start,
            min(size, start + length),
            key=f"{name}-{ply}-{start}",
            retries=retries,
            pure=False,
        )
        for start in range(0, size, length)
    ]
    try:
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
    except KilledWorker as error:
        raise UsageError(
            f"the Dask sweep of {geometry} lost a worker on every try of a task of ply {ply} (out of memory?): {error}"
        ) from None
    finally:
        client.cancel(futures)


def task_length(size: int, threads: int, chunk: int = SWEEP_CHUNK) -> int:
    """The ranks of one task of a ply of ``size`` ranks on ``threads`` worker threads: a whole number of the
    store's chunks, at most ``chunk``, and short enough for :data:`TASKS_PER_WORKER` tasks per thread where
    the ply is long enough."""
    store_chunk = chunk_length(size)
    wanted = -(-size // (threads * TASKS_PER_WORKER))
    whole_chunks = -(-wanted // store_chunk) * store_chunk
    return max(store_chunk, min(chunk, whole_chunks))


def _weights(geometry: Geometry) -> list[float]:
    """Each ply's share of the sweep's work, by ply (as the numpy sweep's progress weighs them)."""
    return list(reversed(sweep_weights(geometry)))


def _remove_stray_writes(store: Path) -> None:
    """The temporary files of chunk writes cut short by a worker's death (Zarr writes ``c/<i>.<hex>.partial``
    and renames it): the chunk itself was written again whole by the task's next run."""
    for stray in store.rglob("*.partial"):
        stray.unlink(missing_ok=True)


# --- in the workers ---------------------------------------------------------------------------------------

_later_lock = threading.Lock()
_later: dict[tuple[str, int], np.ndarray] = {}
"""This worker process's copy of the ply its tasks read, by (store, ply): one per store."""


def solve_task(store: str, geometry: Geometry, ply: int, start: int, stop: int) -> dict:
    """One task: ranks ``start``…``stop − 1`` of ``ply`` solved and written into the store's array of the ply.
    Returns the bincount of their bytes (``counts``), the bytes of the next ply this task read from the store
    (``read``: 0 where this process had read it already), its range, and the seconds it spent reading, solving
    and writing; never the bytes themselves. Run again, it writes the same bytes."""
    zarr = _zarr()
    _reuse_freed_memory()
    began = time.perf_counter()
    later, read = _later_ply(store, geometry, ply)
    read_at = time.perf_counter()
    values = solve_range(geometry, ply, start, stop, later)
    solved_at = time.perf_counter()
    try:
        zarr.open_array(f"{store}/{ply}", mode="r+")[start:stop] = values
    except OSError as error:
        raise _store_error(error, f"write ply {ply}", store) from None
    seconds = (read_at - began, solved_at - read_at, time.perf_counter() - solved_at)
    return {
        "counts": np.bincount(values, minlength=256),
        "read": read,
        "start": start,
        "stop": stop,
        "seconds": seconds,
    }


def _later_ply(store: str, geometry: Geometry, ply: int) -> tuple[np.ndarray | None, int]:
    """The whole of ply + 1, read from the store the first time a task of ``ply`` runs in this process."""
    if ply == geometry.size:
        return None, 0
    key = (store, ply + 1)
    with _later_lock:
        found = _later.get(key)
        if found is not None:
            return found, 0
        forget(store)  # the ply before: never read again
        try:
            found = np.asarray(_zarr().open_array(f"{store}/{ply + 1}", mode="r")[:])
        except OSError as error:
            raise _store_error(error, f"read ply {ply + 1}", store) from None
        _later[key] = found
        return found, found.nbytes


def _store_error(error: OSError, doing: str, store: str) -> StoreError:
    if isinstance(error, FileNotFoundError):  # the driver made it: this worker does not see the driver's files
        return StoreError(
            f"a Dask worker cannot {doing} at {store}: it is not there on the worker's machine (the store's folder "
            "must be shared by the driver and every worker, at the same path)"
        )
    return StoreError(f"a Dask worker cannot {doing} at {store}: {error.strerror or error}")


@cache
def _reuse_freed_memory() -> None:
    """Let glibc keep the sweep's large temporaries for reuse, in a worker that Dask started with
    ``MALLOC_TRIM_THRESHOLD_`` set (its default, ``distributed.nanny.pre-spawn-environ``: 64 KiB). Setting it
    turns off glibc's sliding mmap threshold, so that every array over 128 KiB is mapped afresh and its pages
    faulted in again, which made the numpy sweep in a worker more than twice as slow, most of it in the kernel
    (docs/benchmarks.md). Arrays up to 32 MiB then come from the heap, and up to 64 MiB of it is kept when
    freed: glibc's own defaults once it has seen arrays that large."""
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(_M_MMAP_THRESHOLD, 32 << 20)
        libc.mallopt(_M_TRIM_THRESHOLD, 64 << 20)
    except (OSError, AttributeError):  # not glibc (musl has no mallopt to speak of)
        pass


_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def forget(store: str) -> None:
    """Drop this process's copy of a ply of ``store`` (run on every worker at the sweep's end)."""
    for key in [key for key in _later if key[0] == store]:
        del _later[key]


def _zarr():
    import zarr

    return zarr


# --- the cluster ------------------------------------------------------------------------------------------


@contextlib.contextmanager
def _client(workers: int | None, scheduler: str | None, connect_timeout: float) -> Iterator:
    from distributed import Client, LocalCluster

    if scheduler is not None:
        from distributed.comm import resolve_address

        try:
            # first, without a client: one made for an address with no port, of an unknown scheme or a host
            # nobody knows is left half-made, and closing it at exit waits out a timeout and prints a traceback
            resolve_address(scheduler)
            client = Client(scheduler, timeout=connect_timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError, TypeError) as error:  # TypeError: tls:// without its settings
            reason = f"no answer within {connect_timeout:g} s" if "Timed out" in str(error) else _first_line(error)
            raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {reason}") from None
        try:
            if not client.nthreads():
                try:
                    client.wait_for_workers(1, timeout=connect_timeout)
                except (OSError, TimeoutError):
                    raise UsageError(f"the Dask scheduler at {scheduler} has no workers") from None
            yield client
        finally:
            client.close()
        return
    count = DEFAULT_WORKERS if workers is None else workers
    if count < 1:
        raise UsageError(f"the Dask sweep needs at least one worker, not {count}")
    # no dashboard; the scheduler's bare HTTP routes (health, metrics) on a free port of this machine alone, not
    # on 8787 of every interface (taken by another cluster, it warns)
    cluster = LocalCluster(
        n_workers=count,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )
    try:
        client = Client(cluster, set_as_default=False)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Dask's own logging below ERROR kept off the terminal while the sweep runs (a worker's restart, a
    connection retried, the cluster's shutdown: each a few lines of noise for someone watching a progress bar);
    the levels are put back after."""
    changed: list[tuple[logging.Logger | logging.Handler, int]] = []
    for name in ("distributed", "tornado"):
        logger = logging.getLogger(name)
        handlers: list[logging.Logger | logging.Handler] = [logger, *logger.handlers]
        for handler in handlers:
            if handler.level < logging.ERROR:
                changed.append((handler, handler.level))
                handler.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for handler, level in changed:
            handler.setLevel(level)
