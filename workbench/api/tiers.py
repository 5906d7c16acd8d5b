"""Which way a board is answered, asked of the one place that chooses it.

A board of at most 12 cells is answered from its tables, 13 to 16 from its strong solution (read back from the
cache, or solved now and kept), 17 to 20 from a solution ``workbench solve`` kept, where there is one; every other
board is searched one position at a time, and a value the search did not prove is ``None``, never a guess. The
choice is :func:`workbench.kept.answers_for`'s, as it is the command line's and the app's: it gives the board's
answers (:class:`workbench.engine.answers.Answers`), which this module asks.
"""

from __future__ import annotations

import time

from ..engine import Analysis, Geometry, Position
from ..engine.answers import TIERS as TIERS
from ..engine.geometry import MAX_STRONG_CELLS, MAX_TABLE_CELLS
from ..errors import InputError
from ..kept import answers_for

DEFAULT_NODES = 20_000_000
"""The search's node budget where only a time is given (the command line's ``--nodes`` default)."""


def tier_of(geometry: Geometry) -> str:
    """The tier (one of :data:`TIERS`) that answers ``geometry`` in this process now; reads, never solves."""
    if geometry.size <= MAX_TABLE_CELLS:
        return "tables"
    if geometry.size <= MAX_STRONG_CELLS:
        return "strong"
    return answers_for(geometry).tier  # past 16 cells it only opens a kept solution, never solves: "kept" or "search"


def make_exact(geometry: Geometry) -> bool:
    """Make every value of ``geometry`` known if its tier knows them (:func:`workbench.kept.answers_for`): the
    tables read back or built, the strong solution read back or solved (and kept), or the kept solution opened.
    True where they are known; False for a searched board (nothing is built for it).

    Solving a 4×4 board the first time is the slow step: the cache keeps it for every later run.
    """
    return answers_for(geometry).exact


def analysis_of(position: Position, *, seconds: float | None = None, nodes: int | None = None) -> Analysis:
    """The engine's analysis of a legal ``position`` from its board's tier. Where the board is searched, the
    position is searched within ``seconds`` and ``nodes`` when either is given (else not at all): a move the search
    did not prove has ``value`` None, and so has the position until every move is proven.

    :raises IllegalPositionError: no game reaches ``position``.
    :raises InputError: ``seconds`` or ``nodes`` not above zero.
    """
    if seconds is not None and not seconds > 0:
        raise InputError(f"seconds={seconds!r}: a search's time is above zero")
    if nodes is not None and nodes < 1:
        raise InputError(f"nodes={nodes!r}: a search's node budget is 1 or more")
    answers = answers_for(position.geometry)
    if answers.exact or (seconds is None and nodes is None):
        return answers.analyze(position)
    from ..engine.search import search
    from ..engine.searched_analysis import searched_analysis

    deadline = None if seconds is None else time.monotonic() + seconds

    def out_of_time() -> bool:
        return deadline is not None and time.monotonic() > deadline

    found = search(position, max_nodes=nodes or DEFAULT_NODES, should_stop=out_of_time)
    return searched_analysis(position, found)
