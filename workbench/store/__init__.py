"""Solutions past 16 cells, kept in Zarr: one compressed array per ply, ranked as :mod:`workbench.engine.ranked`
numbers the ply, written whole or not at all, and read back lazily a small chunk at a time.

An edge, as the library is: it does I/O, turns every failure to read or write a store into one
:class:`workbench.errors.StoreError`, and imports only the engine, the tables' cache (its folder and the
engine's fingerprint), ``workbench.lifeline`` and ``workbench.errors`` (and zarr, numpy).

Rooms it may import: ``errors``, ``lifeline``, ``engine``, ``cache``.
"""
