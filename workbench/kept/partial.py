"""A solve's partial store, kept across a kill: what a writer records of each ply it finished, and the check that
decides whether a later run may carry on from it.

A writer marks each ply whole in the group's attributes (``plies_done``: the ply's counts and the SHA-256 of its
bytes) once the ply is written. A later run of the same board and engine adopts the partial store of a writer
that is gone, after reading every ply it claims back and comparing it with its digest; anything else about it
(another board, another engine, a ply missing, damaged or not the one recorded, plies done out of order) sets it
aside under another name, said in one line, and the run starts from nothing. A partial store is never trusted
unchecked.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..engine.geometry import Geometry
from ..engine.ranked import Numbering
from ..lifeline import is_running

DONE = "plies_done"
"""The attribute a writer keeps its finished plies in: ``{ply: {"summary": counts, "sha256": digest}}``."""
DIGEST_BLOCK = 1 << 24
"""Ranks read back at once while a ply's digest is taken."""


def digest(array) -> str:
    """The SHA-256 of a ply's bytes (a numpy array, or a Zarr array read back a block at a time)."""
    found = hashlib.sha256()
    size = array.shape[0]
    for start in range(0, size, DIGEST_BLOCK):
        found.update(np.ascontiguousarray(array[start : min(size, start + DIGEST_BLOCK)], dtype=np.uint8).data)
    return found.hexdigest()


def partials_of(target: Path) -> list[Path]:
    """The partial stores of ``target`` whose writer is gone (this process's own name counts as gone: a pid of an
    earlier run that was reused)."""
    found = []
    for partial in sorted(target.parent.glob(f"{target.name}.partial-*")):
        pid = partial.name.rsplit("-", 1)[-1]
        if pid.isdigit() and (int(pid) == os.getpid() or not is_running(int(pid))):
            found.append(partial)
    return found


def checked_plies(
    partial: Path, geometry: Geometry, fingerprint: str, numbered: Numbering, zarr, layout: int
) -> dict[int, dict]:
    """The plies ``partial`` holds whole, each ply's counts: checked against their digests (``layout``: the store
    format a writer of today writes).

    :raises ValueError: why it cannot be carried on from (another board or engine, a ply missing or damaged).
    """
    try:
        group = zarr.open_group(str(partial), mode="r")
        attributes = dict(group.attrs)
    except Exception as error:  # zarr raises its own kinds for a damaged group
        raise ValueError(f"it cannot be read ({error})") from None
    if attributes.get("format") != layout or attributes.get("variant") != str(geometry):
        raise ValueError("it is of another board or layout")
    if attributes.get("engine") != fingerprint:
        raise ValueError("an older engine wrote it")
    recorded = attributes.get(DONE)
    if not isinstance(recorded, dict):
        raise ValueError("it records no ply done")
    done: dict[int, dict] = {}
    expected = numbered.plies - 1
    for ply in sorted((int(key) for key in recorded if str(key).isdigit()), reverse=True):
        if ply != expected:
            raise ValueError(f"its plies done are not the last ones in order (ply {ply})")
        entry = recorded[str(ply)]
        try:
            array = group[str(ply)]
            whole = array.shape == (numbered.ply_size(ply),) and digest(array) == entry["sha256"]
        except Exception as error:  # a chunk missing or damaged: zarr's and its codecs' own kinds
            raise ValueError(f"ply {ply} cannot be read ({error})") from None
        if not whole:
            raise ValueError(f"ply {ply} is not the one recorded")
        done[ply] = entry["summary"]
        expected -= 1
    if not done:
        raise ValueError("it records no ply done")
    return done


def set_aside(partial: Path, target: Path) -> Path:
    """``partial`` moved out of the way, beside ``target`` (an older one set aside replaced): kept for a look,
    never read again."""
    aside = target.with_name(f"{target.name}.set-aside")
    shutil.rmtree(aside, ignore_errors=True)
    os.replace(partial, aside)
    return aside


def adopt(
    target: Path,
    geometry: Geometry,
    fingerprint: str,
    numbered: Numbering,
    zarr,
    say: Callable[[str], None],
    layout: int,
) -> tuple[Path, dict[int, dict]] | None:
    """The partial store of ``target`` an earlier run left (its writer gone) and the plies it holds whole, checked;
    None where there is none. One that fails the check is set aside, and ``say`` is told in one line."""
    best: tuple[Path, dict[int, dict]] | None = None
    for partial in partials_of(target):
        try:
            done = checked_plies(partial, geometry, fingerprint, numbered, zarr, layout)
        except ValueError as reason:
            aside = set_aside(partial, target)
            say(f"workbench: the partial solve at {partial} was set aside ({reason}), as {aside}")
            continue
        if best is None or len(done) > len(best[1]):
            best = partial, done
    return best
