"""What the app's keys do to the game: play, step, branch, new game, set-up, comment, undo, overlays, zoom, help and
screenshots. Each action dispatches to the store, or opens the dialog that will.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`.
"""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ...engine import MASK_NAMES, Geometry
from ...engine.geometry import cell_names
from ...state import AppState, EngineMode, choose_move, describe_choice, selected_line
from ...state.actions import (
    AddLine,
    Back,
    Forward,
    NewGame,
    NextVariation,
    PlayCell,
    PreviousVariation,
    SetComment,
    SetOverlay,
    ToEnd,
    ToStart,
)

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object

MASK_CYCLE = ("none", *MASK_NAMES)
"""What ``m`` steps through: no mask, then each of the planner's."""
SCREENSHOTS_A_SECOND = 99
"""f12's file is named to the second; further screenshots in that second are numbered, up to this many in all."""


class GameActions(AppHost):
    """The actions of the app's bindings that act on the game and the view."""

    def action_play(self, cell: int) -> None:
        self._user_dispatch(PlayCell(cell=cell))

    def action_type_cell(self) -> None:
        """Ask for a cell (its number or coordinate): the way to cells past 9 without the mouse or the cursor."""
        from ..dialogs import PlayCellDialog

        def played(cell: int | None) -> None:
            if cell is not None:
                self._user_dispatch(PlayCell(cell=cell))

        self.push_screen(PlayCellDialog(self.store.state.position), played)

    def action_play_best(self) -> None:
        """Play the best move (the first of the best line from here; the lowest cell among equals)."""
        if self._values_not_ready(timeout=3):
            return
        state = self.store.state
        if state.searched:  # the best move where the search proved it, else the threat player's
            cell = choose_move(state.analysis, EngineMode.PERFECT)
            if cell is not None:
                self.notify(describe_choice(state.analysis, cell), timeout=4)  # what it rests on: said, never implied
                self._user_dispatch(PlayCell(cell=cell))
            return
        line = state.board_answers.principal_variation(state.position) if state.analysis.to_move else ()
        if line:
            self._user_dispatch(PlayCell(cell=line[0]))

    def action_add_best_line(self) -> None:
        """Add the evaluation's best line (after the selected move) to the history as a variation."""
        if self._values_not_ready(timeout=3):
            return
        state = self.store.state
        line = selected_line(state)
        if not line and state.analysis.to_move is not None:  # a board searched move by move
            self.notify("No best line on this board: the search proves single moves, not lines.", timeout=3)
            return
        if not line:
            self.notify("The game is over: no line to add.", timeout=2)
            return
        before = self.store.state.tree
        continues = not before.node(state.cursor).children  # nothing after here yet: the line goes on, no branch
        self.store.dispatch(AddLine(cells=line))
        text = cell_names(line, state.geometry)
        if self.store.state.tree is before:
            self.notify(f"{text} is already in the history.", timeout=3)
        elif continues:
            where = "the main line" if state.cursor in before.main_line() else "this variation"
            self.notify(f"Added {text} to {where}: → steps into it.", timeout=3)
        else:
            self.notify(f"Added {text} as a variation: ↓ or → steps into it.", timeout=3)

    # (Textual's App.action_back is a coroutine that pops a screen; this one steps back in the game, at once)
    def action_back(self) -> None:  # type: ignore[override]
        self.store.dispatch(Back())

    def action_step(self, direction: int) -> None:
        self.store.dispatch(Forward() if direction > 0 else Back())

    def action_to_start(self) -> None:
        self.store.dispatch(ToStart())

    def action_to_end(self) -> None:
        self.store.dispatch(ToEnd())

    def action_variation(self, direction: int) -> None:
        self.store.dispatch(NextVariation() if direction > 0 else PreviousVariation())

    def action_new_game(self) -> None:
        """Ask which variant (the one being played lit: n, Enter starts it again)."""
        from ..dialogs import NewGameDialog

        self.push_screen(NewGameDialog(self.store.state.geometry), self._new_game_dismissed)

    def on_new_game_dialog_considered(self, message) -> None:
        self._prefetch.consider(message.geometry)

    def _new_game_dismissed(self, geometry: Geometry | None) -> None:
        if geometry is not None:
            self.new_game(geometry)
        self._prefetch.settle()

    def new_game(self, geometry: Geometry) -> None:
        """A new game of ``geometry``: a new, untitled study, once unsaved changes to the one open are saved or
        discarded (undo would bring them back, but not after the app is closed)."""

        def start() -> None:
            before = self.store.state
            self.store.dispatch(NewGame(geometry=geometry))
            self._untitled(before)
            self._maybe_engine_move()  # an engine playing X opens the new game
            self.notify("New game (ctrl+z brings the old tree back).", timeout=3)

        self._unless_unsaved(start)

    def _untitled(self, before: AppState) -> None:
        """A new game or set-up is a new study: saving it must not overwrite the one that was open.
        Undo (ctrl+z) brings the old tree back, and with it the old study's name."""
        # two entries a new game, and undo goes back at most history_limit changes: older ones are unreachable
        self._names_of_trees = [
            *self._names_of_trees[-2 * self.store.history_limit :],
            (before.tree, self.study_path, self.study_name),
            (self.store.state.tree, None, None),
        ]
        self.study_path = self.study_name = None
        self._update_title()
        self._keep_recovery()

    def _names_follow_the_tree(self, tree) -> None:
        """After an undo or redo across a new game or set-up: the study that tree belongs to."""
        for known, path, name in reversed(self._names_of_trees):
            if known is tree:
                if (path, name) != (self.study_path, self.study_name):
                    self.study_path, self.study_name = path, name
                    self._update_title()
                return

    def action_toggle_values(self) -> None:
        overlay = "none" if self.store.state.view.overlay == "values" else "values"
        self.store.dispatch(SetOverlay(overlay=overlay))

    def action_toggle_line(self) -> None:
        overlay = "none" if self.store.state.view.overlay == "line" else "line"
        self.store.dispatch(SetOverlay(overlay=overlay))

    def action_cycle_mask(self) -> None:
        current = self.store.state.view.overlay
        index = MASK_CYCLE.index(current) if current in MASK_CYCLE else 0
        self.store.dispatch(SetOverlay(overlay=MASK_CYCLE[(index + 1) % len(MASK_CYCLE)]))

    def action_undo(self) -> None:
        if self.store.can_undo:
            self.store.undo()
            self._names_follow_the_tree(self.store.state.tree)

    def action_redo(self) -> None:
        if self.store.can_redo:
            self.store.redo()
            self._names_follow_the_tree(self.store.state.tree)

    def action_set_up(self) -> None:
        from ..dialogs import SetUpDialog

        def done(action) -> None:
            if action is not None:
                self._unless_unsaved(lambda: set_up(action))  # as a new game: the study open is kept or let go first

        def set_up(action) -> None:
            before = self.store.state
            self.store.dispatch(action)
            self._untitled(before)
            self._maybe_engine_move()  # a set-up where it is the engine's turn
            self.notify("Set up (ctrl+z brings the old tree back).", timeout=3)

        self.push_screen(SetUpDialog(self.store.state.geometry), done)

    def action_comment(self) -> None:
        from ..dialogs import CommentDialog

        state = self.store.state

        def done(text: str | None) -> None:
            if text is not None:
                self.store.dispatch(SetComment(text=text))

        self.push_screen(CommentDialog(state.tree.node(state.cursor).comment), done)

    def action_help(self) -> None:
        from ..dialogs import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        from ..keys_help import help_sections
        from ..panes.evaluation_words import due_words

        self.push_screen(
            HelpScreen(help_sections(self.BINDINGS, due_words(self.practice_due.items()) if self.practice_due else ""))
        )

    def action_zoom(self) -> None:
        """Maximize the focused pane, or restore the four-pane layout."""
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
        elif screen.focused is not None:
            screen.maximize(screen.focused)
            self.notify("z again brings the four panes back.", timeout=2)

    # (Textual's takes a file name and a folder; the app's binding gives none, and a browser tab downloads it)
    def action_screenshot(self) -> None:  # type: ignore[override]
        from ...state.study import StudyError, StudyFileExistsError, write_text_atomically
        from .study_files import download_stem

        stem = f"{download_stem(self.study_path, self.study_name)} {time.strftime('%Y-%m-%d %H-%M-%S')}"
        if self.is_web:  # a browser tab: the server's folder is no place for it; the browser downloads it
            # (Textual's deliver_screenshot opens it in a tab of its own instead)
            filename = f"{stem}.svg"
            self.deliver_text(io.StringIO(self.export_screenshot()), save_filename=filename, mime_type="image/svg+xml")
            self.notify(f"Downloading {filename}", timeout=3)
            return
        # written whole or not at all (Textual's save_screenshot left an empty file on a full disk, and its error
        # ended the app), and never over a file there: a second one in the same second gets a number
        svg = self.export_screenshot()
        for number in range(1, SCREENSHOTS_A_SECOND + 1):
            path = Path(f"{stem}.svg" if number == 1 else f"{stem} ({number}).svg")
            try:
                write_text_atomically(path, svg, replace=False)
            except StudyFileExistsError:
                continue
            except StudyError as error:
                self.notify(str(error), title="Screenshot not saved", severity="error")
                return
            self.notify(f"Screenshot saved to {path.resolve()}", timeout=3)
            return
        self.notify(f"{stem}.svg and the next {SCREENSHOTS_A_SECOND - 1} names are taken", title="Screenshot not saved")

    def action_set_overlay(self, overlay: str) -> None:
        self.store.dispatch(SetOverlay(overlay=overlay))
