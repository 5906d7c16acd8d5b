"""The one immutable application state every pane reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

from ..engine import (
    MASK_NAMES,
    TIC_TAC_TOE,
    Analysis,
    Cell,
    Geometry,
    Player,
    Position,
    Value,
)
from ..engine.analysis import answers_of, searched_analysis
from ..engine.answers import Answers
from ..engine.geometry import MAX_STRONG_CELLS
from ..engine.search import SearchResult
from .tree import ROOT, GameTree, NodeId


class EngineMode(str, Enum):
    """How the engine plays its side."""

    OFF = "off"
    PERFECT = "perfect"
    TRAP = "trap"
    """Among the best moves, the one whose replies most often lose (seed 001 step 5)."""
    RANDOM = "random"


KEPT_SEARCHES = 64
"""The searches a state keeps (each a few hundred bytes): the positions visited lately."""

OVERLAYS = ("none", "values", *MASK_NAMES, "line")
"""What the board paints on empty cells: nothing, exact values, one mask, or the best line (the selected move and
best play after it, each cell numbered in its order: after a mistake, its refutation)."""


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
    searches: tuple[SearchResult, ...] = ()
    """On a board searched move by move (above 16 cells): what the searches of positions found, newest last
    (at most :data:`KEPT_SEARCHES`); a value there is known only where one proved it."""
    searching: Position | None = None
    """The position a search is running on, if one is."""
    answers: Answers | None = field(default=None, repr=False)
    """The board's answers as :func:`workbench.kept.answers_for` made them ready (tables read back, a strong
    solution solved, a kept one opened), handed over by :class:`~.actions.UseAnswers` or the store; None until then
    (:attr:`board_answers` says what is asked meanwhile). Part of the state's equality (by identity), so that
    a state with them is seen as a change by whatever compares states (Textual's reactives do)."""

    # cached: every pane reads them on every state change, and the position is replayed from the root
    @cached_property
    def position(self) -> Position:
        return self.tree.position(self.cursor)

    @cached_property
    def board_answers(self) -> Answers:
        """What every question of this board's positions is asked of: :attr:`answers`, else the engine's own
        (:func:`~workbench.engine.analysis.answers_of`: the tables, built here up to 12 cells; the search above 16).

        :raises BoardTooLargeError: 13 to 16 cells with no answers handed over yet (the app reads none then)."""
        return self.answers if self.answers is not None else answers_of(self.geometry)

    @property
    def unsaved_work(self) -> bool:
        """Changed since the last save or open, and something to keep: an empty new game (no move, no comment, no
        set-up) is not asked about, nor marked unsaved."""
        return self.modified and not self.tree.is_empty

    @property
    def searched(self) -> bool:
        """The board is searched position by position (above 16 cells, no kept solution in use): a value is known
        only where a search proved it."""
        if self.answers is not None:
            return not self.answers.exact
        return self.geometry.size > MAX_STRONG_CELLS

    @cached_property
    def analysis(self) -> Analysis:
        """The current position's analysis (derived, never stored): on a searched board, what the searches of
        this position proved so far."""
        if self.searched:
            return searched_analysis(self.position, self.search_of(self.position))
        return self.board_answers.analyze(self.position)

    def search_of(self, position: Position) -> SearchResult | None:
        """What a search of ``position`` found, if one ran."""
        for result in reversed(self.searches):
            if result.position == position:
                return result
        return None

    def proven_in(self, position: Position) -> tuple[tuple[Cell, Value, int], ...] | None:
        """What the searches of ``position`` proved, move by move (cell, value, remoteness), or None where none
        ran: what a pane drawing values reads of a search. Without its node counts, which change four times a
        second while it runs and are drawn only by the evaluation."""
        found = self.search_of(position)
        if found is None:
            return None
        return tuple(
            (move.cell, move.value, move.remoteness)
            for move in found.moves
            if move.value is not None and move.remoteness is not None
        )

    @property
    def engine_to_move(self) -> bool:
        """True when the engine should play the next move here."""
        position = self.position
        return self.engine.mode is not EngineMode.OFF and position.to_move is self.engine.side


def selected_move(state: AppState) -> Cell | None:
    """The move the evaluation is about: the board's highlighted cell when it is a legal move."""
    cell = state.view.highlighted
    return cell if cell is not None and state.analysis.move(cell) is not None else None


def selected_line(state: AppState) -> tuple[Cell, ...]:
    """The best line the evaluation shows (and the board's ``line`` overlay): the selected move and perfect play
    after it, or perfect play from the position when no move is selected; empty when the game is over, and on a
    board searched move by move (a search proves each move's value, not the line after it)."""
    if state.analysis.to_move is None or state.searched:
        return ()
    cell = selected_move(state)
    answers = state.board_answers
    if cell is None:
        return answers.principal_variation(state.position)
    return (cell, *answers.principal_variation(state.position.play(cell)))
