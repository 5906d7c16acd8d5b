"""The one immutable application state every pane reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

from ..engine import MASK_NAMES, TIC_TAC_TOE, Analysis, Cell, Geometry, Player, Position, analyze
from .tree import ROOT, GameTree, NodeId


class EngineMode(str, Enum):
    """How the engine plays its side."""

    OFF = "off"
    PERFECT = "perfect"
    TRAP = "trap"
    """Among the best moves, the one whose replies most often lose (seed 001 step 5)."""
    RANDOM = "random"


OVERLAYS = ("none", "values", *MASK_NAMES)
"""What the board paints on empty cells: nothing, exact values, or one mask."""


@dataclass(frozen=True, kw_only=True, slots=True)
class EngineSettings:
    mode: EngineMode = EngineMode.OFF
    side: Player = Player.O
    """The side the engine plays when ``mode`` is not off."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ViewSettings:
    """View state more than one pane reads."""

    highlighted: Cell | None = None
    """The board cursor's cell (arrow keys), also marked in the evaluation pane."""
    overlay: str = "none"


@dataclass(frozen=True, kw_only=True)
class AppState:
    geometry: Geometry = TIC_TAC_TOE
    tree: GameTree = field(default_factory=GameTree.new)
    cursor: NodeId = ROOT
    engine: EngineSettings = field(default_factory=EngineSettings)
    view: ViewSettings = field(default_factory=ViewSettings)
    modified: bool = False
    """True when the tree or comments changed since the last save or open."""

    # cached: every pane reads them on every state change, and the position is replayed from the root
    @cached_property
    def position(self) -> Position:
        return self.tree.position(self.cursor)

    @cached_property
    def analysis(self) -> Analysis:
        """The current position's analysis (derived, never stored)."""
        return analyze(self.position)

    @property
    def engine_to_move(self) -> bool:
        """True when the engine should play the next move here."""
        position = self.position
        return self.engine.mode is not EngineMode.OFF and position.to_move is self.engine.side
