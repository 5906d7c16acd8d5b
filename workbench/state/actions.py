"""Actions: frozen dataclasses describing every change to the state."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Cell, Geometry, Player, Position
from ..engine.answers import Answers
from ..engine.search import SearchResult
from .app_state import AppState, EngineMode
from .tree import GameTree, NodeId


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayCell:
    """Play ``cell`` at the cursor: the existing child with that move, else a new variation."""

    cell: Cell


@dataclass(frozen=True, kw_only=True, slots=True)
class AddLine:
    """Add ``cells``, played one after another from the cursor, as a line of the tree (each move
    reusing an existing child, else a new last variation); the cursor stays. All or nothing: a
    line with an illegal move adds none of it."""

    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Back:
    """Step to the parent."""


@dataclass(frozen=True, slots=True)
class Forward:
    """Step to the first child (the main line)."""


@dataclass(frozen=True, slots=True)
class ToStart:
    """Jump to the root."""


@dataclass(frozen=True, slots=True)
class ToEnd:
    """Follow the main line from the cursor to its end."""


@dataclass(frozen=True, slots=True)
class NextVariation:
    """Switch to the next variation at the nearest branch point at or above the cursor."""


@dataclass(frozen=True, slots=True)
class PreviousVariation:
    """Switch to the previous variation at the nearest branch point at or above the cursor."""


@dataclass(frozen=True, kw_only=True, slots=True)
class JumpTo:
    node: NodeId


@dataclass(frozen=True, slots=True)
class PromoteVariation:
    """Move the cursor's variation one place up among its siblings."""


@dataclass(frozen=True, slots=True)
class PromoteToMainLine:
    """Make the cursor's line the main line all the way from the root."""


@dataclass(frozen=True, slots=True)
class DeleteVariation:
    """Delete the cursor's node and everything after it; the cursor goes to the parent."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SetUpPosition:
    """Start a new tree from ``position`` (must be legal)."""

    position: Position


@dataclass(frozen=True, kw_only=True, slots=True)
class NewGame:
    """Start a new tree from the empty board: of ``geometry`` (another variant), or of the one played now."""

    geometry: Geometry | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class SetComment:
    text: str
    node: NodeId | None = None
    """The node to comment; the cursor when None."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SetEngine:
    mode: EngineMode
    side: Player | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class SetOverlay:
    overlay: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Highlight:
    cell: Cell | None


@dataclass(frozen=True, kw_only=True, slots=True)
class ReplaceTree:
    """Load a tree (from move text) with the cursor at ``cursor``."""

    tree: GameTree
    cursor: NodeId


@dataclass(frozen=True, kw_only=True, slots=True)
class LoadState:
    """Replace the whole state: an opened study, which counts as saved, or a study
    restored after a crash (``unsaved``), which does not."""

    state: AppState
    unsaved: bool = False


@dataclass(frozen=True, slots=True)
class MarkSaved:
    """The study was written out: nothing is unsaved now."""


@dataclass(frozen=True, kw_only=True, slots=True)
class UseAnswers:
    """The board's answers are ready (:func:`workbench.kept.answers_for` made them, in a worker or at once): every
    question of its positions is asked of them from now on. Nothing changes where they are of another board (the
    rules changed while they were made) or are in use already."""

    answers: Answers


@dataclass(frozen=True, kw_only=True, slots=True)
class SearchFound:
    """A search (run off the UI thread, on a board above 16 cells) found ``result`` so far, and is still running
    (``running``) or has stopped (done, cancelled, or its budget spent)."""

    result: SearchResult
    running: bool


Action = (
    PlayCell
    | AddLine
    | Back
    | Forward
    | ToStart
    | ToEnd
    | NextVariation
    | PreviousVariation
    | JumpTo
    | PromoteVariation
    | PromoteToMainLine
    | DeleteVariation
    | SetUpPosition
    | NewGame
    | SetComment
    | SetEngine
    | SetOverlay
    | Highlight
    | ReplaceTree
    | LoadState
    | MarkSaved
    | SearchFound
    | UseAnswers
)
