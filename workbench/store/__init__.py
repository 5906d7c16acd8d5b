"""Solutions past 16 cells, kept in Zarr: one compressed array per ply, ranked as :mod:`workbench.engine.ranked`
numbers the ply, written whole or not at all, and read back lazily a small chunk at a time.

An edge, as the library is: it does I/O, turns every failure to read or write a store into one
:class:`workbench.errors.StoreError`, and imports only the engine, the tables' cache (its folder and the
engine's fingerprint), ``workbench.lifeline`` and ``workbench.errors`` (and zarr, numpy).

Rooms it may import: ``errors``, ``lifeline``, ``engine``, ``cache``.
"""

from __future__ import annotations

from ..engine.geometry import Geometry, is_keepable


def install_kept(geometry: Geometry) -> bool:
    """Install the solution kept for a board of 17–20 cells (``workbench solve`` made it), if there is one, so
    that its positions are answered exactly rather than searched; False where there is none. A board of another
    size loads none of the store's code (nor numpy): the command line, the app and the API all ask here."""
    if not is_keepable(geometry):
        return False
    from .kept import install_if_kept

    return install_if_kept(geometry)
