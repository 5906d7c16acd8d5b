"""One task of the Dask sweep, in a worker: a range of a ply solved from the parts of the next ply it needs.

:func:`solve_task` reads from the store only the rows of the next ply's blocks that its positions' children lie in
(:func:`workbench.engine.sweep.rows_needed`). The child block of its home (:mod:`.plan`: the block holding most of
its ranks), reached by a mark in half A, is read whole and kept in the worker process for the home's next tasks,
one such block a worker thread (the least recently used dropped); the rest (its own rows of the block reached by
a mark in half B, a few rows of a neighbouring block's children) is read for the task alone, in stretches from one
row needed to the next unless a whole chunk of the store lies between them. So a worker holds at most one whole
child block a thread beside what its running task reads.

A task hands back the bincount of the bytes it wrote, the bytes it read and held of the next ply, the worker's name
and its peak memory in the ply so far (Linux's high-water mark, set back when the worker's first task of a ply
begins); never the bytes themselves.
"""

from __future__ import annotations

import ctypes
import os
import re
import resource
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

from ..engine.geometry import Geometry
from ..engine.ranked import Block, numbering
from ..engine.sweep import HeldRows, rows_needed, solve_range
from ..errors import StoreError
from ..kept.solutions import CHUNK as STORE_CHUNK, read_stretch
from .plan import home_of

_held_lock = threading.Lock()
_held: OrderedDict[tuple[str, int, int, int], np.ndarray] = OrderedDict()
"""This worker process's whole child blocks, by (store, ply, X in A, O in A), the most recently used last."""
_ply_begun: list[tuple[str, int]] = []
"""The (store, ply) of this process's last task: its peak memory is set back when another begins."""


def solve_task(store: str, geometry: Geometry, ply: int, start: int, stop: int) -> dict:
    """Ranks ``start``…``stop − 1`` of ``ply`` solved and written into the store's array of the ply.

    Returns ``counts`` (the bincount of the bytes written), ``read`` (bytes of the next ply read from the store
    for it: 0 where the worker held them all already), ``held`` (bytes of the whole child blocks the worker kept
    while it ran: at most the largest block of the next ply a worker thread), ``worker`` (the worker's name),
    ``peak`` (the process's peak memory in bytes since its first task of this ply began), ``start``, ``stop`` and
    ``seconds`` (reading, solving, writing). Run again, it writes the same bytes.

    :raises StoreError: the store cannot be read or written (not on this machine, a disk error).
    """
    zarr = _zarr()
    _reuse_freed_memory()
    _begin_ply(store, ply)
    began = time.perf_counter()
    later, read, held = _later_rows(store, geometry, ply, start, stop)
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
        "held": held,
        "worker": _worker_name(),
        "peak": peak_bytes(),
        "start": start,
        "stop": stop,
        "seconds": seconds,
    }


def _later_rows(
    store: str, geometry: Geometry, ply: int, start: int, stop: int
) -> tuple[dict[tuple[int, int], HeldRows] | None, int, int]:
    """What the range needs of ply + 1 (None for the full board), the bytes read for it, and the bytes of the
    whole child blocks this process keeps with it."""
    if ply >= geometry.size:
        return None, 0, 0
    numbered = numbering(geometry)
    ax, ao = home_of(numbered, ply, start, stop)
    x_to_move = ply % 2 == 0
    whole = (ax + x_to_move, ao + (not x_to_move))
    size = numbered.ply_size(ply + 1)

    def stretch(low: int, high: int) -> np.ndarray:
        return read_stretch(Path(store), ply + 1, size, low, high)

    try:
        later, read = {}, 0
        needed = rows_needed(geometry, ply, start, stop)
        for key in sorted(needed, key=lambda key: key != whole):  # the home's block first: no other dropped after
            block = numbered.block(ply + 1, *key)
            found = _kept_block((store, ply + 1, *key))
            if found is None and key == whole:
                _make_room()
                found = stretch(block.offset, block.stop)
                read += found.nbytes
                _keep_block((store, ply + 1, *key), found)
            if found is not None:
                later[key] = HeldRows(found, block.cols)
                continue
            later[key], bytes_read = _read_rows(stretch, block, needed[key])
            read += bytes_read
    except OSError as error:
        raise _store_error(error, f"read ply {ply + 1}", store) from None
    with _held_lock:
        return later, read, sum(kept.nbytes for kept in _held.values())


def _read_rows(stretch: Callable[[int, int], np.ndarray], block: Block, rows: np.ndarray) -> tuple[HeldRows, int]:
    """The ``rows`` (ascending) of ``block``, read as stretches of the ply (``stretch(start, stop)``) from one row
    wanted to the next unless a whole chunk of the store lies between them, and the bytes read. Held as the one
    stretch where it is one, else as the rows alone."""
    cols = block.cols
    cuts = (np.flatnonzero((np.diff(rows) - 1) * cols >= STORE_CHUNK) + 1).tolist()
    runs = np.split(rows, cuts)
    if len(runs) == 1:
        first = int(rows[0])
        data = stretch(block.offset + first * cols, block.offset + (int(rows[-1]) + 1) * cols)
        return HeldRows(data, cols, first=first), data.nbytes
    parts, read = [], 0
    for run in runs:
        first = int(run[0])
        data = stretch(block.offset + first * cols, block.offset + (int(run[-1]) + 1) * cols)
        read += data.nbytes
        parts.append(data.reshape(-1, cols)[run - first].ravel())
    return HeldRows(np.concatenate(parts), cols, rows=rows), read


def _kept_block(key: tuple[str, int, int, int]) -> np.ndarray | None:
    with _held_lock:
        found = _held.get(key)
        if found is not None:
            _held.move_to_end(key)
        return found


def _make_room() -> None:
    """Drop the least recently used blocks kept, so that one more keeps to one a worker thread (before it is read:
    never a block more in memory)."""
    with _held_lock:
        while _held and len(_held) >= _threads():
            _held.popitem(last=False)


def _keep_block(key: tuple[str, int, int, int], block: np.ndarray) -> None:
    """Keep ``block`` for the next tasks, dropping the least recently used beyond one a worker thread."""
    with _held_lock:
        _held[key] = block
        while len(_held) > _threads():
            _held.popitem(last=False)


def forget(store: str) -> None:
    """Drop this process's blocks of ``store`` (run on every worker at the sweep's end)."""
    with _held_lock:
        for key in [key for key in _held if key[0] == store]:
            del _held[key]


def _threads() -> int:
    try:
        from distributed import get_worker

        return max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):  # run outside a worker
        return 1


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().name)
    except (ImportError, ValueError, AttributeError):  # run outside a worker
        return f"pid {os.getpid()}"


def _begin_ply(store: str, ply: int) -> None:
    """When this process's first task of a ply begins: drop the blocks kept for another ply, and set the peak
    memory back (Linux: ``clear_refs``)."""
    if _ply_begun == [(store, ply)]:
        return
    _ply_begun[:] = [(store, ply)]
    with _held_lock:
        for key in [key for key in _held if key[:2] != (store, ply + 1)]:
            del _held[key]
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:  # not Linux, or not allowed: the peak is the process's whole life's
        pass


def peak_bytes() -> int:
    """This process's peak resident memory in bytes: since the high-water mark was last set back (Linux), else
    over its life."""
    try:
        found = re.search(r"VmHWM:\s+(\d+) kB", Path("/proc/self/status").read_text())
        if found:
            return int(found.group(1)) * 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


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


def _zarr():
    import zarr

    return zarr
