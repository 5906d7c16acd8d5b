"""The workbench as a library: the names ``workbench`` offers at its top, implemented here.

:mod:`.game` holds a variant and a position (:class:`Variant`, :class:`Position`, :func:`variant`,
:func:`position`); :mod:`.tiers` chooses how a board is answered (tables, strong solution, kept solution, search)
as the command line does; :mod:`.bulk` holds whole solutions for research (:class:`Solution`, :func:`solve`,
:func:`kept_solution`, :func:`open_solution`) and what is read off them (:func:`puzzles`, :func:`atlas_record`).
A user imports these from ``workbench`` itself (``docs/api.md``), never from here.

Rooms it may import: ``errors``, ``engine``, ``kept``, ``svg``.
"""

from .bulk import NOT_REACHED, Solution, atlas_record, kept_solution, open_solution, puzzles, solve
from .game import Position, Variant, position, variant
from .tiers import TIERS

__all__ = [
    "NOT_REACHED",
    "TIERS",
    "Position",
    "Solution",
    "Variant",
    "atlas_record",
    "kept_solution",
    "open_solution",
    "position",
    "puzzles",
    "solve",
    "variant",
]
