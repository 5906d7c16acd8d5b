"""What is kept between runs, on disk: each board's solution, so that no run solves what an earlier one solved.

- :mod:`~workbench.kept.tables` — the engine's tables (up to 12 cells) and strong solutions (13–16 cells) as files
  in ``$XDG_CACHE_HOME/workbench``, named after the engine's fingerprint; an optimisation only, whose every failure
  is silent (the board is then built again).
- :mod:`~workbench.kept.solutions` — solutions of 17–20 cells as Zarr stores, one compressed array per ply, written
  whole or not at all and read back lazily; :mod:`~workbench.kept.partial`, the plies of a killed solve that a
  later one continues from; :mod:`~workbench.kept.solving`, where they live and ``workbench solve`` making one.
- :func:`answers_for`, the one place a board's tier is chosen (tables, a strong solution, a kept solution, the
  search) and its answers (:mod:`workbench.engine.answers`) made ready, one object per board held by
  :mod:`~workbench.kept.held`: the command line, the app and the API ask it and hand the answers on;
  :func:`answers_at_hand`, the same without building or solving; :func:`open_kept`, the kept solutions' way in,
  which loads none of the Zarr code (nor numpy) for a board of another size.

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
    solution ``workbench solve`` kept, where there is one; else the search. Held for the rest of the process
    (:mod:`.held`), so that a board is made ready once and every asker gets the same object; a searched board is
    asked again each time (a solve may keep its solution meanwhile)."""
    from ..engine.answers import SearchedAnswers
    from .held import held

    answers = held(geometry)
    if answers is not None:
        return answers
    if geometry.size > MAX_STRONG_CELLS:
        return open_kept(geometry) or SearchedAnswers(geometry)
    from .tables import make_analysis_ready

    for _ in range(3):  # (let go in between, a variant the user passed over: read back again, from the cache now)
        make_analysis_ready(geometry, progress)
        answers = held(geometry)
        if answers is not None:
            return answers
    raise RuntimeError(f"{geometry}: its answers were let go as often as they were made")


def answers_at_hand(geometry: Geometry) -> Answers | None:
    """The answers of ``geometry`` where they cost no building or solving: held already, read back from the cache
    (tables, a strong solution), a kept solution opened, or the search past 16 cells; None where they would have to
    be made (or another thread is reading them back now: never waits)."""
    from .held import held

    if geometry.size > MAX_STRONG_CELLS:
        return answers_for(geometry)
    from .tables import read_back_analysis

    return held(geometry) if read_back_analysis(geometry) else None


def open_kept(geometry: Geometry) -> Answers | None:
    """The answers of a board of 17–20 cells from the solution kept for it (``workbench solve`` made it), if there
    is one, so that its positions are answered exactly rather than searched; None where there is none. A board of
    another size loads none of the store's code (nor numpy): the command line, the app and the API all ask here."""
    if not is_keepable(geometry):
        return None
    from .solving import open_kept as open_kept_solution

    return open_kept_solution(geometry)
