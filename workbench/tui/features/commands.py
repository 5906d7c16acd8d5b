"""The command palette's entries (ctrl+p): every action of the app, by name.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.screen import Screen

from ...engine import Player
from ...engine.geometry import describe_variant, format_variant
from ...state import OVERLAYS, EngineMode
from ..keys_help import PUZZLE_THEMES

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object


class PaletteCommands(AppHost):
    """Textual's own system commands, then the workbench's."""

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # the dialogs (and the widgets only they use) are imported when first needed, not at the app's start
        from ..dialogs import playable_variants

        yield from super().get_system_commands(screen)
        if self.panes_hidden:
            return  # the terminal is too small to show the panes: nothing may change them unseen
        yield SystemCommand(
            "New game", "Start again from the empty board, of this variant or another", self.action_new_game
        )
        for geometry in playable_variants(self.store.state.geometry):
            yield SystemCommand(
                f"New game: {describe_variant(geometry)}",
                f"{format_variant(geometry)}: a new study on its empty board",
                lambda g=geometry: self.new_game(g),
            )
        yield SystemCommand("Play a cell", "By its number or coordinate (b2)", self.action_type_cell)
        yield SystemCommand("Set up position", "Type a position or a move list", self.action_set_up)
        yield SystemCommand("Open study", "Open a study from the library, or a .json file", self.action_open)
        yield SystemCommand("Save study", "Save the study (tree, comments, settings)", self.action_save)
        yield SystemCommand(
            "Save study as", "Save under a new name in the library, or to a .json file", self.action_save_as
        )
        yield SystemCommand(
            "Games like this",
            "The complete games through this position, from the library when it has them",
            self.action_games_like_this,
        )
        yield SystemCommand("Export move text", "Show and copy the moves with variations", self.action_export)
        yield SystemCommand("Comment", "Comment on the current move", self.action_comment)
        yield SystemCommand("Undo tree edit", "Bring back the tree before the last edit", self.action_undo)
        yield SystemCommand("Redo tree edit", "Re-apply an undone edit", self.action_redo)
        yield SystemCommand("Play best move", "The first move of the best line from here", self.action_play_best)
        yield SystemCommand(
            "Add best line", "The evaluation's best line, as a variation in the history", self.action_add_best_line
        )
        yield SystemCommand(
            "Learn from your mistakes",
            "Each mistake of a side in this study, variations too, asked again: find a better move",
            self.action_learn,
        )
        yield SystemCommand(
            "Learn from all your mistakes",
            "The mistakes of every study of this board kept in the library, up to 20",
            self.action_learn_all,
        )
        yield SystemCommand(
            "Puzzles",
            "Positions with one move that keeps the value: find it (exact, from the solved board)",
            self.action_puzzles,
        )
        for theme, what in PUZZLE_THEMES.items():
            yield SystemCommand(f"Puzzles: {theme}", what, lambda t=theme: self.action_puzzles(t))
        yield SystemCommand(
            "Toggle value overlay", "Colour empty cells by their exact value", self.action_toggle_values
        )
        for overlay in OVERLAYS:
            yield SystemCommand(
                f"Overlay: {overlay.replace('_', '-')}",
                "Paint the board with this",
                lambda o=overlay: self.action_set_overlay(o),
            )
        for mode in EngineMode:
            for side in Player:
                if mode is EngineMode.OFF and side is Player.X:
                    continue
                title = (
                    "Engine off"
                    if mode is EngineMode.OFF
                    else f"Play vs engine: {mode.value}, the engine plays {side.value}"
                )
                yield SystemCommand(
                    title,
                    "Who the engine plays, and how",
                    lambda m=mode, s=side: self.action_set_engine(m.value, s.value),
                )
        yield SystemCommand(
            "Screenshot",
            "Save an SVG screenshot in the current folder (in a browser: download it)",
            self.action_screenshot,
        )
        yield SystemCommand("Help: keys", "Every key of every pane", self.action_help)
