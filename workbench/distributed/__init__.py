"""The ply-by-ply sweep on Dask: each ply a Zarr array (:mod:`workbench.kept`), cut into tasks at its blocks
(:mod:`.plan`), each solved from the blocks of the next ply it needs (:mod:`.task`,
:func:`workbench.engine.sweep.solve_range`), on a local cluster or an existing one (:mod:`.sweep`).

An edge: it imports the engine and the kept solutions' room (and dask, distributed), never the app. Dask is the
``cluster`` extra: without it, :func:`workbench.distributed.sweep.dask_sweep` says so in one line.

Rooms it may import: ``errors``, ``engine``, ``kept``.
"""
