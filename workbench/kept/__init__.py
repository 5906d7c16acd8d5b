"""What is kept between runs, on disk: each board's solution, so that no run solves what an earlier one solved.

- :mod:`~workbench.kept.tables` — the engine's tables (up to 12 cells) and strong solutions (13–16 cells) as files
  in ``$XDG_CACHE_HOME/workbench``, named after the engine's fingerprint; an optimisation only, whose every failure
  is silent (the board is then built again).
- :mod:`~workbench.kept.solutions` — solutions of 17–20 cells as Zarr stores, one compressed array per ply, written
  whole or not at all and read back lazily; :mod:`~workbench.kept.partial`, the plies of a killed solve that a
  later one continues from; :mod:`~workbench.kept.solving`, where they live and ``workbench solve`` making one.
- :func:`answers_for`, the one place a board's tier is chosen (tables, a strong solution, a kept solution, the
  search) and its answers (:mod:`workbench.engine.answers`) made ready: the command line, the app and the API ask
  it; :func:`answers_at_hand`, the same without building or solving; :func:`install_kept`, the kept solutions'
  way in, which loads none of the Zarr code (nor numpy) for a board of another size.

Not to be mistaken for :mod:`workbench.state.store`, the app's game state in memory. An edge, as the library is:
failures to read or write a Zarr store are one :class:`workbench.errors.StoreError`.

Rooms it may import: ``errors``, ``lifeline``, ``engine``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..engine.geometry import MAX_STRONG_CELLS, Geometry, is_keepable

if TYPE_CHECKING:
    from ..engine.answers import Answers

SolveProgress = Callable[[str, int, int], None]
"""Called with (stage, done, total) while a strong solution is made (:func:`workbench.engine.strong.strong_solve`)."""


def answers_for(geometry: Geometry, progress: SolveProgress | None = None) -> Answers:
    """The answers of ``geometry``, its tier chosen here: its tables up to 12 cells (read back, or built and kept);
    its strong solution from 13 to 16 (read back, or solved now with ``progress`` and kept); from 17 to 20 the
    solution ``workbench solve`` kept, where there is one; else the search. Put in use for the engine's functions
    too (:func:`workbench.engine.analysis.use_answers`), so a board is made ready once a process."""
    from ..engine.analysis import answers_of

    if geometry.size > MAX_STRONG_CELLS:
        install_kept(geometry)
    else:
        from .tables import make_analysis_ready

        make_analysis_ready(geometry, progress)
    return answers_of(geometry)


def answers_at_hand(geometry: Geometry) -> Answers | None:
    """The answers of ``geometry`` where they cost no building or solving: in use already, read back from the cache
    (tables, a strong solution, a kept solution), or the search past 16 cells; None where they would have to be
    made (or another thread is reading them back now: never waits)."""
    from ..engine.analysis import answers_in_use, answers_of

    if geometry.size > MAX_STRONG_CELLS:
        install_kept(geometry)
        return answers_of(geometry)
    from .tables import read_back_analysis

    return answers_in_use(geometry) if read_back_analysis(geometry) else None


def install_kept(geometry: Geometry) -> bool:
    """Install the solution kept for a board of 17–20 cells (``workbench solve`` made it), if there is one, so
    that its positions are answered exactly rather than searched; False where there is none. A board of another
    size loads none of the store's code (nor numpy): the command line, the app and the API all ask here."""
    if not is_keepable(geometry):
        return False
    from .solving import install_if_kept

    return install_if_kept(geometry)
