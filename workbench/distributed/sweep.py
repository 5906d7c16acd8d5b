"""The retrograde sweep on Dask: tasks of whole chunks of a ply, each ply a Zarr array of the kept store.

:func:`dask_sweep` solves a board ply by ply, the full board first, on a ``LocalCluster`` of its own (``workers``
processes of one thread each) or on the cluster whose scheduler is at ``scheduler``. A ply's array is made
empty by the driver (:meth:`~workbench.kept.solutions.SolutionWriter.create`), which cuts the ply into tasks at
its blocks and gives each block's tasks to one worker (:mod:`.plan`: Dask's ``workers=`` with
``allow_other_workers``, so that a task still runs where its worker is gone or busy). Each task
(:func:`~.task.solve_task`) reads from the store only the rows of the next ply its positions' children lie in (its
block's child block whole, kept by the worker for the block's next tasks), solves its ranks with
:func:`workbench.engine.sweep.solve_range`, writes them into the array and hands back only the bincount of its
bytes, what it read and held, and its worker's peak memory. The driver sums the bincounts into the ply's summary;
no values ever pass through it. The store's attributes say, by ply, what was read in all and by each worker, what
each worker held at most and its peak memory. The store is renamed into place only when every ply is whole
(:meth:`~workbench.kept.solutions.SolutionWriter.finish`), so that it is the store
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
import logging
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from ..engine.geometry import Geometry
from ..engine.ranked import numbering
from ..engine.sweep import CHUNK as SWEEP_CHUNK
from ..errors import UsageError
from ..kept.solutions import CHUNK as STORE_CHUNK, SolutionWriter, chunk_length, store_name, summary_of_counts
from ..kept.solving import sweep_weights
from .plan import Task, cut_ply, share_out
from .task import forget, solve_task

__all__ = ["CLUSTER_EXTRA", "dask_sweep", "forget", "solve_task", "task_length"]

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
    tally = _Tally(numbered.plies)
    run = uuid.uuid4().hex[:8]
    try:
        for ply in range(numbered.plies - 1, -1, -1):
            if ply in writer.done:
                done += weights[ply]
                continue
            ply_started = time.perf_counter()
            writer.create(ply)
            size = numbered.ply_size(ply)
            workers = client.nthreads()  # (a worker lost and started again has another address)
            length = task_length(size, sum(workers.values()) or 1, chunk)
            planned = share_out(cut_ply(numbered, ply, length, chunk_length(size)), workers)
            counts = np.zeros(256, dtype=np.int64)
            for result in _solve_ply(client, f"workbench-sweep-{run}", store, geometry, ply, planned, retries):
                counts += result["counts"]
                tally.add(ply, result)
                done += weights[ply] * (result["stop"] - result["start"]) / size
                if progress is not None:
                    progress(min(1.0, done))
            summaries[ply] = summary_of_counts(counts)
            writer.ply_done(ply, summaries[ply])
            tally.seconds[ply] = round(time.perf_counter() - ply_started, 3)
        _remove_stray_writes(writer.partial)
        writer.finish(
            summaries,
            solver="dask",
            workers=len(threads),
            threads=sum(threads.values()),
            seconds=round(time.perf_counter() - started, 3),
            **tally.attributes(),
        )
    except BaseException as error:
        writer.abandon(error)
        raise
    finally:
        with contextlib.suppress(Exception):  # the workers' blocks of the last ply read: up to hundreds of MB each
            client.run(forget, store)


class _Tally:
    """What the tasks of each ply said of themselves, summed by ply and by worker (the store's attributes)."""

    def __init__(self, plies: int) -> None:
        self.seconds = [0.0] * plies
        self.read = [0] * plies
        self.tasks = [0] * plies
        self.away = [0] * plies
        self.task_seconds = [[0.0, 0.0, 0.0] for _ in range(plies)]
        self.by_worker: dict[str, list[dict[str, int]]] = {
            name: [{} for _ in range(plies)] for name in ("read", "held", "peak")
        }

    def add(self, ply: int, result: dict) -> None:
        """One task's result (:func:`~.task.solve_task`'s, with the worker it was meant for as ``meant``)."""
        self.read[ply] += result["read"]
        self.tasks[ply] += 1
        self.away[ply] += result["meant"] is not None and result["address"] != result["meant"]
        self.task_seconds[ply] = [total + part for total, part in zip(self.task_seconds[ply], result["seconds"])]
        worker = result["worker"]
        read, held, peak = (self.by_worker[name][ply] for name in ("read", "held", "peak"))
        read[worker] = read.get(worker, 0) + result["read"]
        held[worker] = max(held.get(worker, 0), result["held"])
        peak[worker] = max(peak.get(worker, 0), result["peak"])

    def attributes(self) -> dict:
        """By ply: seconds, bytes of the next ply read (in all, and by worker), tasks (and those run elsewhere
        than the worker meant), the tasks' seconds reading, solving and writing, and by worker the most bytes of
        the next ply held at once and the peak memory."""
        return {
            "seconds_by_ply": self.seconds,
            "read_bytes_by_ply": self.read,
            "tasks_by_ply": self.tasks,
            "tasks_elsewhere_by_ply": self.away,
            "task_seconds_by_ply": [[round(part, 3) for part in parts] for parts in self.task_seconds],
            "worker_read_bytes_by_ply": self.by_worker["read"],
            "worker_held_bytes_by_ply": self.by_worker["held"],
            "worker_peak_bytes_by_ply": self.by_worker["peak"],
        }


def _solve_ply(
    client, name: str, store: str, geometry: Geometry, ply: int, planned: list[tuple[Task, str | None]], retries: int
) -> Iterator[dict]:
    """The results of the ply's tasks (:func:`~.task.solve_task`) as they finish, each with ``address`` (the
    worker that ran it) and ``meant`` (the worker it was meant for). Each task goes to its worker where it can, in
    the order planned (a worker's tasks of one block one after another)."""
    from distributed import KilledWorker, as_completed

    futures = {
        client.submit(
            _run_task,
            store,
            geometry,
            ply,
            task.start,
            task.stop,
            key=f"{name}-{ply}-{task.start}",
            retries=retries,
            pure=False,
            workers=None if worker is None else [worker],
            allow_other_workers=True,
            priority=len(planned) - index,
        ): worker
        for index, (task, worker) in enumerate(planned)
    }
    try:
        for future in as_completed(futures, loop=client.loop):
            yield {**future.result(), "meant": futures[future]}
    except KilledWorker as error:
        raise UsageError(
            f"the Dask sweep of {geometry} lost a worker on every try of a task of ply {ply} (out of memory?): {error}"
        ) from None
    finally:
        client.cancel(list(futures))


def _run_task(store: str, geometry: Geometry, ply: int, start: int, stop: int) -> dict:
    """:func:`~.task.solve_task` in a worker, with the worker's address."""
    from distributed import get_worker

    return {**solve_task(store, geometry, ply, start, stop), "address": get_worker().address}


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
