"""The Zarr layout of a kept solution, its writer and its lazy reader.

A store is a Zarr group named after the board and the engine's fingerprint (as the cache's files are, so
that a changed engine solves afresh), holding an array per ply (``"0"``…``"n"``) of
:func:`workbench.engine.strong.pack` bytes in rank order. A chunk of :data:`CHUNK` ranks is what a reader
decompresses (Zstandard, with its checksum: a damaged chunk is refused, never believed); a writer writes
whole chunks only (the sweep's chunk is a multiple of it), so that writers on a cluster never share one.
Sharding (fewer files, for 5×5's millions of chunks) was measured slower to read here: a shard's index is
read with each chunk. The group's attributes carry the counts by ply and ``complete``, set last: a store is
written under a temporary name and renamed into place only when whole.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.geometry import Bitboard, Geometry
from ..engine.ranked import Numbering, numbering
from ..engine.strong import UNREACHED, unpack
from ..errors import StoreError
from .partial import DONE, adopt, digest, partials_of

FORMAT = 1
"""Raised whenever the layout changes: a store of another format is solved again."""
CHUNK = 1 << 16
"""Ranks a reader decompresses at once (64 KiB: 8 KiB or so on disk)."""
READ_CACHE_BYTES = 256 << 20
"""Decompressed chunks a reader keeps (the most recently used)."""


def store_stem(geometry: Geometry) -> str:
    rule = "-misere" if geometry.misere else ""
    return f"solution-{geometry.rows}x{geometry.cols}-k{geometry.k}{rule}"


def store_name(geometry: Geometry, fingerprint: str) -> str:
    return f"{store_stem(geometry)}-{fingerprint}.zarr"


def chunk_length(size: int) -> int:
    """The chunk of a ply of ``size`` ranks."""
    return max(1, min(CHUNK, size))


def ply_summary(values: np.ndarray) -> dict:
    """Counts of one ply's bytes: positions reached, those that end the game, and those in play by value for
    the side to move (won, drawn, lost)."""
    return summary_of_counts(np.bincount(values, minlength=256))


def summary_of_counts(counts: np.ndarray) -> dict:
    """:func:`ply_summary` from the ply's bincount (256 counts, one per byte): the sum of its pieces'
    bincounts, where the ply was solved in pieces that never came together (the Dask sweep)."""
    reached = np.asarray(counts)[:UNREACHED]
    bytes_ = np.arange(UNREACHED)
    over = (bytes_ & 31) == 0
    value = (bytes_ >> 5) - 1
    in_play = ~over
    return {
        "positions": int(reached.sum()),
        "terminal": int(reached[over].sum()),
        "values": [int(reached[in_play & (value == wanted)].sum()) for wanted in (1, 0, -1)],
    }


def _zarr():
    import zarr

    return zarr


def _codecs():
    from zarr.codecs import ZstdCodec

    return (ZstdCodec(level=3, checksum=True),)


class SolutionWriter:
    """Writes a solution into ``target`` under a temporary name; :meth:`finish` renames it into place.

    Each ply's array is made by :meth:`create` (all of them at once, when writers elsewhere fill them) or by
    :meth:`write` (whole, from one process), and marked whole by :meth:`ply_done`. Nothing is visible at
    ``target`` until :meth:`finish`. With ``resume``, the partial store an earlier run left (killed) is carried
    on from once checked (:mod:`.partial`): :attr:`done` holds the plies it had finished; ``say`` is told, in
    one line, of one that was set aside instead.
    """

    def __init__(
        self,
        geometry: Geometry,
        target: Path,
        fingerprint: str,
        *,
        resume: bool = False,
        say: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
    ) -> None:
        self.geometry = geometry
        self.target = Path(target)
        self.fingerprint = fingerprint
        self.partial = self.target.with_name(f"{self.target.name}.partial-{os.getpid()}")
        self.numbered = numbering(geometry)
        self.done: dict[int, dict] = {}
        """The plies whole in the store already (each ply's counts), carried on from an earlier run."""
        zarr = _zarr()
        try:
            self.target.parent.mkdir(parents=True, exist_ok=True)
            adopted = adopt(self.target, geometry, fingerprint, self.numbered, zarr, say, FORMAT) if resume else None
            if adopted is not None and adopted[0] != self.partial:
                shutil.rmtree(self.partial, ignore_errors=True)
                os.replace(adopted[0], self.partial)
            _remove_abandoned(self.target, keep=self.partial if adopted is not None else None)
            if adopted is not None:
                self.done = adopted[1]
                self.group = zarr.open_group(str(self.partial), mode="r+")
                say(
                    f"workbench: carrying on an earlier solve of {geometry} that was cut short: plies "
                    f"{max(self.done)} to {min(self.done)} were done (checked); going on from ply {min(self.done) - 1}"
                )
            else:
                self.group = zarr.open_group(str(self.partial), mode="w")
                self.group.attrs.update({"format": FORMAT, "variant": str(geometry), "engine": fingerprint, DONE: {}})
        except OSError as error:
            raise StoreError(f"cannot write a solution at {self.partial}: {error.strerror or error}") from None

    def ply_done(self, ply: int, summary: dict, values: np.ndarray | None = None) -> None:
        """Mark ``ply`` whole, with its counts and the digest of its bytes (``values``, else read back from the
        store): a run killed after this carries on below it."""
        try:
            done = dict(self.group.attrs.get(DONE, {}))
            sha256 = digest(values if values is not None else self.group[str(ply)])
            done[str(ply)] = {"summary": summary, "sha256": sha256}
            self.group.attrs[DONE] = done
        except OSError as error:
            raise StoreError(f"cannot write ply {ply} at {self.partial}: {error.strerror or error}") from None
        self.done[ply] = summary

    def read(self, ply: int) -> np.ndarray:
        """The bytes of ``ply``, whole in the store (the next ply a resumed sweep needs)."""
        return np.asarray(self.group[str(ply)][:])

    def create(self, ply: int):
        """The (empty) array of ``ply``."""
        size = self.numbered.ply_size(ply)
        try:
            return self.group.create_array(
                str(ply),
                shape=(size,),
                dtype="uint8",
                chunks=(chunk_length(size),),
                compressors=_codecs(),
                fill_value=UNREACHED,
                overwrite=True,  # (a ply a killed run had begun: written again whole)
            )
        except OSError as error:
            raise StoreError(f"cannot write ply {ply} at {self.partial}: {error.strerror or error}") from None

    def write(self, ply: int, values: np.ndarray) -> None:
        array = self.create(ply)
        try:
            array[:] = values
        except OSError as error:
            raise StoreError(f"cannot write ply {ply} at {self.partial}: {error.strerror or error}") from None

    def finish(self, summaries: dict[int, dict], **about) -> Path:
        """Record the counts by ply (and ``about``: how it was solved), mark the store whole and move it into
        place, replacing an older one."""
        plies = range(self.numbered.plies)
        attributes = {
            "format": FORMAT,
            "variant": str(self.geometry),
            "engine": self.fingerprint,
            "positions_by_ply": [summaries[ply]["positions"] for ply in plies],
            "terminal_by_ply": [summaries[ply]["terminal"] for ply in plies],
            "values_by_ply": [summaries[ply]["values"] for ply in plies],
            **about,
            "complete": True,
        }
        try:
            self.group.attrs.update(attributes)
            self.group.attrs.pop(DONE, None)  # (a whole store's layout has no need of it)
            if self.target.exists():
                shutil.rmtree(self.target)
            os.replace(self.partial, self.target)
        except OSError as error:
            raise StoreError(f"cannot keep the solution at {self.target}: {error.strerror or error}") from None
        return self.target

    def abandon(self, error: BaseException | None = None) -> None:
        """Give the partial store up: removed, unless ``error`` is an interruption (ctrl+c, SIGTERM, an exit),
        when the plies done so far are left for the next run to carry on from."""
        if isinstance(error, (KeyboardInterrupt, SystemExit)) and self.done:
            return
        shutil.rmtree(self.partial, ignore_errors=True)


@dataclass(eq=False)
class KeptSolution:
    """A kept solution, read lazily: :meth:`lookup` decompresses the one chunk it needs (kept for the next)."""

    geometry: Geometry
    path: Path
    attributes: dict
    numbered: Numbering
    _group: Any = field(default=None, repr=False)  # a zarr group, opened on first read
    """Opened by zarr only where a chunk is not read straight from its file (another layout, a whole ply)."""
    _arrays: dict = field(default_factory=dict, repr=False)
    _chunks: OrderedDict = field(default_factory=OrderedDict, repr=False)
    _plain: dict = field(default_factory=dict, repr=False)
    _cached_bytes: int = 0

    @property
    def positions_by_ply(self) -> tuple[int, ...]:
        return tuple(self.attributes["positions_by_ply"])

    @property
    def positions(self) -> int:
        return sum(self.positions_by_ply)

    @property
    def terminal_by_ply(self) -> tuple[int, ...]:
        return tuple(self.attributes["terminal_by_ply"])

    @property
    def values_by_ply(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(tuple(counts) for counts in self.attributes["values_by_ply"])

    def lookup(self, x: Bitboard, o: Bitboard) -> tuple[int, int] | None:
        """(value, remoteness) for the side to move, or None where no game reaches the position."""
        if x & o or x.bit_count() - o.bit_count() not in (0, 1):
            return None  # not the marks of any ply
        ply, rank = self.numbered.rank(x, o)
        return unpack(self.byte(ply, rank))

    def warm_in_background(self) -> None:
        """Import the codec (numcodecs, slow to import) and read the empty board's chunks in a thread of their own,
        so that the first position asked for (in the app, on its UI thread) does not wait for them."""
        import threading

        def warm() -> None:
            try:
                self.lookup_many([1 << cell for cell in range(self.geometry.size)], [0] * self.geometry.size)
            except Exception:  # pragma: no cover - a damaged store says so when a position asks, in one line
                pass

        threading.Thread(target=warm, name="warm-kept-solution", daemon=True).start()

    def lookup_many(self, x, o) -> list[tuple[int, int] | None]:
        """:meth:`lookup` of many positions with the marks of a ply (as play leaves them), given as sequences of
        bitboards: each chunk they need read once."""
        return [unpack(byte) for byte in self.bytes_of(x, o).tolist()]

    def bytes_of(self, x, o) -> np.ndarray:
        plies, ranks = self.numbered.ranks(np.asarray(x, dtype=np.int64), np.asarray(o, dtype=np.int64))
        out = np.empty(plies.size, dtype=np.uint8)
        for ply in np.unique(plies).tolist():
            chosen = np.flatnonzero(plies == ply)
            chunk = chunk_length(self.numbered.ply_size(ply))
            wanted = ranks[chosen]
            starts = wanted - wanted % chunk
            for start in np.unique(starts).tolist():
                here = starts == start
                out[chosen[here]] = self._chunk(ply, start, chunk)[wanted[here] - start]
        return out

    def byte(self, ply: int, rank: int) -> int:
        chunk = chunk_length(self.numbered.ply_size(ply))
        start = rank - rank % chunk
        return int(self._chunk(ply, start, chunk)[rank - start])

    def ply(self, ply: int) -> np.ndarray:
        """The whole of one ply's bytes (read now: 133,024,320 bytes at the widest ply of 4×5)."""
        return self._read(ply, slice(None))

    def _chunk(self, ply: int, start: int, length: int) -> np.ndarray:
        key = (ply, start)
        found = self._chunks.get(key)
        if found is not None:
            self._chunks.move_to_end(key)
            return found
        found = self._read_chunk(ply, start, length)
        self._chunks[key] = found
        self._cached_bytes += found.nbytes
        while self._cached_bytes > READ_CACHE_BYTES:
            _, dropped = self._chunks.popitem(last=False)
            self._cached_bytes -= dropped.nbytes
        return found

    def _read_chunk(self, ply: int, start: int, length: int) -> np.ndarray:
        """One chunk, straight from its file where the array is laid out as :class:`SolutionWriter` lays it out
        (Zarr v3's spec: the file ``c/<index>`` holds the chunk, Zstandard-compressed; no file is a chunk of
        the fill value). Several times quicker than zarr's own reading, whose machinery is made for large
        selections; anything else is read through zarr."""
        if not self._plain_layout(ply):
            return self._read(ply, slice(start, start + length))
        from numcodecs import Zstd

        size = self.numbered.ply_size(ply)
        wanted = min(length, size - start)
        try:
            raw = (self.path / str(ply) / "c" / str(start // length)).read_bytes()
        except FileNotFoundError:
            return np.full(wanted, UNREACHED, dtype=np.uint8)
        except OSError as error:
            raise StoreError(
                f"cannot read the solution kept at {self.path} (ply {ply}): {error.strerror or error}"
            ) from None
        try:
            chunk = np.frombuffer(Zstd().decode(raw), dtype=np.uint8)
        except Exception as error:  # numcodecs raises RuntimeError for a damaged frame or a wrong checksum
            raise StoreError(
                f"the solution kept at {self.path} is damaged (ply {ply}: {error}); solve the board again"
            ) from None
        if chunk.size != length:
            raise StoreError(f"the solution kept at {self.path} is damaged (ply {ply}: a chunk of {chunk.size} bytes)")
        return chunk[:wanted]

    def _plain_layout(self, ply: int) -> bool:
        found = self._plain.get(ply)
        if found is None:
            found = self._plain[ply] = _is_plain_layout(self.path / str(ply) / "zarr.json", self.numbered.ply_size(ply))
        return found

    def _read(self, ply: int, where: slice) -> np.ndarray:
        try:
            array = self._arrays.get(ply)
            if array is None:
                if self._group is None:
                    self._group = _zarr().open_group(str(self.path), mode="r")
                array = self._arrays[ply] = self._group[str(ply)]
            return np.asarray(array[where])
        except Exception as error:  # zarr and its codecs raise their own kinds for a damaged chunk
            raise StoreError(
                f"the solution kept at {self.path} is damaged (ply {ply}: {error}); solve the board again"
            ) from None


def _remove_abandoned(target: Path, keep: Path | None = None) -> None:
    """Partial stores of ``target`` whose writer is gone (a solve killed part way, not carried on from): hundreds
    of MB each. ``keep``: the one this run carries on from."""
    for partial in partials_of(target):  # (this process's own name among them)
        if partial != keep:
            shutil.rmtree(partial, ignore_errors=True)


def _is_plain_layout(metadata: Path, size: int) -> bool:
    """Whether an array's ``zarr.json`` is exactly what :meth:`SolutionWriter.create` writes: uint8, one
    regular chunk length, the default ``/`` keys, the bytes then Zstandard codecs, no transformers."""
    import json

    try:
        meta = json.loads(metadata.read_text())
        codecs = meta["codecs"]
        return (
            meta["zarr_format"] == 3
            and meta["data_type"] == "uint8"
            and meta["shape"] == [size]
            and meta["chunk_grid"] == {"name": "regular", "configuration": {"chunk_shape": [chunk_length(size)]}}
            and meta["chunk_key_encoding"] == {"name": "default", "configuration": {"separator": "/"}}
            and [codec["name"] for codec in codecs] == ["bytes", "zstd"]
            and not meta.get("storage_transformers")
        )
    except (OSError, ValueError, KeyError, TypeError):
        return False


def read_stretch(store: Path, ply: int, size: int, start: int, stop: int) -> np.ndarray:
    """Ranks ``start``…``stop − 1`` of the array of ``ply`` (``size`` ranks) in the store at ``store``, whole or
    still being written: decoded straight from its chunk files where it is laid out as :class:`SolutionWriter`
    lays it out (a chunk with no file is the fill value), else through zarr. Several times quicker than zarr's
    own reading of a stretch of small chunks.

    :raises OSError: the array or a chunk file cannot be read (FileNotFoundError: no such array).
    :raises StoreError: a chunk is damaged.
    """
    folder = Path(store) / str(ply)
    if not _is_plain_layout(folder / "zarr.json", size):
        return np.asarray(_zarr().open_array(str(folder), mode="r")[start:stop])
    from numcodecs import Zstd

    length = chunk_length(size)
    codec = Zstd()
    out = np.empty(stop - start, dtype=np.uint8)
    for first in range(start - start % length, stop, length):
        try:
            raw = (folder / "c" / str(first // length)).read_bytes()
        except FileNotFoundError:
            chunk = np.full(length, UNREACHED, dtype=np.uint8)
        else:
            try:
                chunk = np.frombuffer(codec.decode(raw), dtype=np.uint8)
            except Exception as error:  # numcodecs raises RuntimeError for a damaged frame or a wrong checksum
                raise StoreError(f"the store at {store} is damaged (ply {ply}: {error})") from None
            if chunk.size != length:
                raise StoreError(f"the store at {store} is damaged (ply {ply}: a chunk of {chunk.size} bytes)")
        low, high = max(start, first), min(stop, first + length)
        out[low - start : high - start] = chunk[low - first : high - first]
    return out


def open_solution(geometry: Geometry, path: Path, fingerprint: str | None = None) -> KeptSolution | None:
    """The solution kept at ``path``, or None where there is none whole, of this board and this engine."""
    import json

    try:  # the group's own metadata, read as Zarr v3's spec lays it out: zarr itself (slow to import) waits
        meta = json.loads((Path(path) / "zarr.json").read_text(encoding="utf-8"))
        attributes = meta["attributes"] if meta.get("node_type") == "group" and meta.get("zarr_format") == 3 else {}
        attributes = attributes if isinstance(attributes, dict) else {}
    except (OSError, ValueError, KeyError, TypeError):  # none, half-written or foreign: not a solution to believe
        return None
    numbered = numbering(geometry)
    if (
        attributes.get("format") != FORMAT
        or attributes.get("variant") != str(geometry)
        or attributes.get("complete") is not True
        or (fingerprint is not None and attributes.get("engine") != fingerprint)
        or len(attributes.get("positions_by_ply", ())) != numbered.plies
    ):
        return None
    return KeptSolution(geometry, Path(path), attributes, numbered)


def write_solution(
    geometry: Geometry,
    target: Path,
    fingerprint: str,
    plies,
    *,
    resume: bool = False,
    say: Callable[[str], None] | None = None,
    **about,
) -> Path:
    """Write the ``(ply, bytes)`` pairs of a sweep (:func:`workbench.engine.sweep.sweep`) as a store at
    ``target``, whole or not at all, each ply marked whole as it is written. ``plies`` is the pairs, or with
    ``resume`` a function of (the ply to go on below, None for the full board; that ply's bytes) giving them: a
    killed run's partial store is carried on from, once checked (``say`` hears of one set aside)."""
    started = time.perf_counter()
    options = {} if say is None else {"say": say}
    writer = SolutionWriter(geometry, target, fingerprint, resume=resume, **options)
    try:
        summaries = dict(writer.done)
        if resume:
            below = min(writer.done, default=None)
            plies = plies(below, None if below is None else writer.read(below))
        for ply, values in plies:
            writer.write(ply, values)
            summaries[ply] = ply_summary(values)
            writer.ply_done(ply, summaries[ply], values)
        return writer.finish(summaries, seconds=round(time.perf_counter() - started, 3), **about)
    except BaseException as error:
        writer.abandon(error)
        raise
