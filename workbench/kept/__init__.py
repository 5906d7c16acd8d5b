"""What is kept between runs, on disk: each board's solution, so that no run solves what an earlier one solved.

- :mod:`~workbench.kept.tables` — the engine's tables (up to 12 cells) and strong solutions (13–16 cells) as files
  in ``$XDG_CACHE_HOME/workbench``, named after the engine's fingerprint; an optimisation only, whose every failure
  is silent (the board is then built again).
- :mod:`~workbench.kept.solutions` — solutions of 17–20 cells as Zarr stores, one compressed array per ply, written
  whole or not at all and read back lazily; :mod:`~workbench.kept.partial`, the plies of a killed solve that a
  later one continues from; :mod:`~workbench.kept.solving`, where they live and ``workbench solve`` making one.
- :func:`install_kept`, the one way in for the command line, the app and the API, which loads none of the Zarr
  code (nor numpy) for a board of another size.

Not to be mistaken for :mod:`workbench.state.store`, the app's game state in memory. An edge, as the library is:
failures to read or write a Zarr store are one :class:`workbench.errors.StoreError`.

Rooms it may import: ``errors``, ``lifeline``, ``engine``.
"""

from __future__ import annotations

from ..engine.geometry import Geometry, is_keepable


def install_kept(geometry: Geometry) -> bool:
    """Install the solution kept for a board of 17–20 cells (``workbench solve`` made it), if there is one, so
    that its positions are answered exactly rather than searched; False where there is none. A board of another
    size loads none of the store's code (nor numpy): the command line, the app and the API all ask here."""
    if not is_keepable(geometry):
        return False
    from .solving import install_if_kept

    return install_if_kept(geometry)
