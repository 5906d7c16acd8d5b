"""Games already played, as the app's state: the screenshots and the benchmarks open the app on them.

Imports only the engine and the state's own modules.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.geometry import Geometry
from .actions import NewGame, PlayCell
from .app_state import AppState
from .reducer import reduce

GOMOKU_OPENING = (
    113,
    98,
    112,
    114,
    82,
    97,
    96,
    110,
    80,
    128,
    81,
    83,
    111,
    126,
    142,
    127,
    129,
    125,
    124,
    78,
    66,
    51,
    94,
    52,
    64,
    48,
    109,
    79,
    67,
    65,
)
"""Thirty moves of the threat player against itself from h8, none in the top row the scenarios' keys play: the
15×15 board is timed with a few dozen stones on it, as the family's issue asks."""


def game_state(geometry: Geometry, cells: Sequence[int]) -> AppState:
    """The app's state after ``cells`` are played on a new game of ``geometry``, the cursor on the last."""
    state = reduce(AppState(), NewGame(geometry=geometry))
    for cell in cells:
        state = reduce(state, PlayCell(cell=cell))
    return state
