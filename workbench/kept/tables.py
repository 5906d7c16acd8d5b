"""The engine's tables kept between runs, so the app starts without rebuilding them.

Reading the tables back is several times quicker than building them in pure Python. The file lives in
``$XDG_CACHE_HOME/workbench`` (``~/.cache`` when unset), named after the geometry and a fingerprint of the engine's
source and the Python version, so any change to either builds afresh. Its payload carries a SHA-256 digest: a truncated,
corrupted or foreign file is never believed, only rebuilt. The cache is an optimisation only: every failure to read or
write it is silent, and ``WORKBENCH_NO_TABLES_CACHE=1`` turns it off.

Like the library, this module does I/O and imports only the engine.
"""

from __future__ import annotations

import gc
import hashlib
import marshal
import os
import sys
import tempfile
import threading
from functools import cache
from pathlib import Path

from .. import __version__
from ..engine import Geometry
from ..engine.analysis import Tables, build_tables
from ..engine.answers import SolutionAnswers, TableAnswers
from ..engine.tables_file import TABLES_FORMAT, TablesDataError, format_tables, parse_tables
from .held import held, hold

MAGIC = b"workbench tables\n"
DISABLE_VARIABLE = "WORKBENCH_NO_TABLES_CACHE"


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "workbench"


@cache
def engine_fingerprint() -> str:
    """Changes whenever the engine's source, the tables' format, the workbench's or
    Python's version does (the version still counts where no source is installed)."""
    digest = hashlib.sha256(f"{TABLES_FORMAT} {__version__} {sys.version}".encode())
    for source in sorted(Path(__file__).with_name("engine").glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def cache_path(geometry: Geometry) -> Path:
    rule = "-misere" if geometry.misere else ""  # the classic name is unchanged: its files stay valid
    return cache_folder() / f"tables-{geometry.rows}x{geometry.cols}-k{geometry.k}{rule}-{engine_fingerprint()}.bin"


def cache_enabled() -> bool:
    """False where ``WORKBENCH_NO_TABLES_CACHE`` turns the cache off."""
    return os.environ.get(DISABLE_VARIABLE, "") in ("", "0")


def load_tables(geometry: Geometry) -> Tables | None:
    """The cached tables of ``geometry``, or None when there are none to trust."""
    try:
        content = cache_path(geometry).read_bytes()
    except OSError:
        return None
    header_end = len(MAGIC) + 65  # the magic line, then 64 hex digits and a newline
    if not content.startswith(MAGIC):  # a shorter file fails the digest check below
        return None
    digest, payload = content[len(MAGIC) : header_end - 1], content[header_end:]
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    # tens of thousands of new objects: without this the collector would sweep the
    # whole heap (all of Textual, in the app) several times while they are made
    collecting = gc.isenabled()
    gc.disable()
    try:
        return parse_tables(geometry, marshal.loads(payload))
    except (TablesDataError, ValueError, EOFError, TypeError):
        return None
    finally:
        if collecting:
            gc.enable()


def save_tables(table: Tables) -> bool:
    """Write ``table`` to the cache (whole or not at all); False when the folder cannot be written."""
    target = cache_path(table.geometry)
    payload = marshal.dumps(format_tables(table))
    if not _write_whole(target, MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload):
        return False
    _remove_stale(target)
    return True


def _write_whole(target: Path, content: bytes) -> bool:
    """Write ``content`` beside ``target``, then rename it into place; False (and nothing left) on failure."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        os.replace(temporary, target)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False
    return True


# --- strong solutions of boards of at most 16 cells (engine.strong): one byte per position ---------------

STRONG_MAGIC = b"workbench strong solution\n"


def strong_cache_path(geometry: Geometry) -> Path:
    rule = "-misere" if geometry.misere else ""
    return cache_folder() / f"strong-{geometry.rows}x{geometry.cols}-k{geometry.k}{rule}-{engine_fingerprint()}.bin"


def load_strong(geometry: Geometry):
    """The cached strong solution of ``geometry``, or None when there is none to trust."""
    import json

    import numpy as np

    from ..engine.strong import StrongSolution

    try:
        content = strong_cache_path(geometry).read_bytes()
    except OSError:
        return None
    header_end = len(STRONG_MAGIC) + 65
    if not content.startswith(STRONG_MAGIC):
        return None
    digest, payload = content[len(STRONG_MAGIC) : header_end - 1], memoryview(content)[header_end:]
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    try:
        meta_end = bytes(payload[:65536]).index(b"\n")
        meta = json.loads(bytes(payload[:meta_end]))
        if meta["variant"] != str(geometry):
            return None
        arrays, offset = [], meta_end + 1
        for dtype, shape in meta["arrays"]:
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            if offset + size > len(payload):
                return None
            arrays.append(np.frombuffer(payload[offset : offset + size], dtype=dtype).reshape(shape))
            offset += size
        if offset != len(payload) or arrays[0].size != 3**geometry.size:
            return None
        plies = len(meta["kept_plies"])
        return StrongSolution(
            geometry,
            arrays[0],
            tuple(meta["positions_by_ply"]),
            tuple(meta["terminal_by_ply"]),
            tuple(tuple(counts) for counts in meta["values_by_ply"]),
            arrays[1],
            tuple(meta["classes_by_ply"]),
            tuple(arrays[2 : 2 + plies]),
            tuple(arrays[2 + plies : 2 + 2 * plies]),
            meta["terminal_classes"],
            tuple(meta["classes_by_value"]),
            tuple(meta["games_by_length"]),
            tuple(meta["ledger"]),
        )
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def save_strong(solution) -> bool:
    """Write a strong solution to the cache (whole or not at all); False when it cannot be written."""
    import json

    target = strong_cache_path(solution.geometry)
    arrays = [solution.packed, solution.class_ranks, *solution.games_indices, *solution.games_counts]
    meta = json.dumps(
        {
            "variant": str(solution.geometry),
            "positions_by_ply": solution.positions_by_ply,
            "terminal_by_ply": solution.terminal_by_ply,
            "values_by_ply": solution.values_by_ply,
            "classes_by_ply": solution.classes_by_ply,
            "kept_plies": list(range(len(solution.games_indices))),
            "terminal_classes": solution.terminal_classes,
            "classes_by_value": solution.classes_by_value,
            "games_by_length": solution.games_by_length,
            "ledger": solution.ledger,
            "arrays": [[array.dtype.str, list(array.shape)] for array in arrays],
        }
    ).encode()
    payload = meta + b"\n" + b"".join(array.tobytes() for array in arrays)
    if not _write_whole(target, STRONG_MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload):
        return False
    _remove_stale(target)
    return True


def strong_solution(geometry: Geometry, progress=None):
    """(solution, where): the strong solution of ``geometry`` read back from the cache (``"cache"``), or
    solved now and kept for the next run (``"solved"``).

    :raises BoardTooLargeForStrongSolveError: more than 16 cells."""
    from ..engine.strong import check_strongly_solvable, strong_solve

    check_strongly_solvable(geometry)
    if cache_enabled():
        solution = load_strong(geometry)
        if solution is not None:
            return solution, "cache"
    solution = strong_solve(geometry, progress)
    if cache_enabled():
        save_strong(solution)
    return solution, "solved"


def _remove_stale(current: Path) -> None:
    # files of older engines for the same board are never read again
    prefix = current.name.rsplit("-", 1)[0] + "-"
    for stale in current.parent.glob(f"{prefix}*.bin"):
        # only a fingerprint after the prefix: the misère board's files share the classic one's prefix
        if stale != current and "-" not in stale.name[len(prefix) :]:
            try:
                stale.unlink()
            except OSError:
                pass


_BUSY = threading.Lock()
"""Held while one thread loads or builds tables, so no other builds them twice."""
_SOLVING = threading.Lock()
"""Held while a strong solution is read back or solved and held (:func:`make_analysis_ready`)."""


def ready_tables(geometry: Geometry) -> str | None:
    """Make the tables of ``geometry`` ready if that is cheap: ``"memory"`` when this
    process has them already, ``"cache"`` when read back (quick enough for the first paint), else None (also
    while another thread is loading or building them: never waits)."""
    if held(geometry) is not None:
        return "memory"
    if not _BUSY.acquire(blocking=False):
        return None
    try:
        # re-checked under the lock for a thread that finished between the check above and the acquire;
        # only that race reaches these two lines, so no test can pin a mutant of them (no mutate)
        if held(geometry) is not None:  # pragma: no mutate - a race only (above)
            return "memory"  # pragma: no mutate - a race only (above)
        if cache_enabled():
            table = load_tables(geometry)
            if table is not None:
                hold(TableAnswers(table))
                return "cache"
        return None
    finally:
        _BUSY.release()


def build_and_cache_tables(geometry: Geometry) -> bool:
    """Compute the tables of ``geometry`` (the heavy path) and keep them for the next run.

    Waits for a thread already busy with them; False when that one made them ready."""
    with _BUSY:
        if held(geometry) is not None:
            return False
        table = build_tables(geometry)
        hold(TableAnswers(table))
        if cache_enabled():
            save_tables(table)
        return True


def warm_tables(geometry: Geometry) -> str:
    """Make the tables ready however it takes: ``"memory"``, ``"cache"`` or ``"built"``."""
    source = ready_tables(geometry)
    if source is None:
        source = "built" if build_and_cache_tables(geometry) else "memory"
    return source


def make_analysis_ready(geometry: Geometry, progress=None) -> None:
    """Whatever ``analyze`` needs on ``geometry``, however it takes: its tables (up to 12 cells, read back or
    built) or its strong solution (13-16 cells, read back or solved, with ``progress``), held either way
    (:mod:`.held`) and kept in the cache. What :func:`workbench.kept.answers_for` and the terminal bench's untimed
    warm-up do."""
    from ..engine.analysis import MAX_STRONG_CELLS, MAX_TABLE_CELLS

    if geometry.size > MAX_STRONG_CELLS:  # nothing is made past the strong solutions (a kept one is opened)
        return
    if geometry.size <= MAX_TABLE_CELLS:
        warm_tables(geometry)
        return
    # one solve at a time: a second caller for a board being solved (the app's user went away and came back)
    # waits for it and finds it held, rather than solving it again beside it
    with _SOLVING:
        if held(geometry) is None:
            hold(SolutionAnswers(strong_solution(geometry, progress)[0]))


def read_back_analysis(geometry: Geometry) -> bool:
    """Make ``geometry``'s analysis ready from the cache alone: its tables or strong solution read back and
    held (:mod:`.held`), never built or solved (what a glance at a variant may cost). True when it is ready now.
    Never waits: False while another thread reads or makes it; False past 16 cells (a kept solution is opened, not
    read back: :func:`workbench.kept.answers_at_hand`)."""
    from ..engine.analysis import MAX_STRONG_CELLS, MAX_TABLE_CELLS

    if held(geometry) is not None:
        return True
    if geometry.size > MAX_STRONG_CELLS:
        return False
    if geometry.size <= MAX_TABLE_CELLS:
        return ready_tables(geometry) is not None
    if not cache_enabled() or not _SOLVING.acquire(blocking=False):
        return False
    try:
        if held(geometry) is None:
            solution = load_strong(geometry)
            if solution is None:
                return False
            hold(SolutionAnswers(solution))
        return True
    finally:
        _SOLVING.release()


def warm_in_background(geometry: Geometry) -> threading.Thread:
    """Start making the tables ready in a thread of their own.

    The command starts this before importing the app, so that reading (or, on a
    first run, building) them overlaps Textual's import; the app then finds them
    ready, or waits for this thread in a worker."""
    thread = threading.Thread(target=warm_tables, args=(geometry,), name="warm-tables", daemon=True)
    thread.start()
    return thread
