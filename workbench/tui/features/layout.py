"""How the panes are laid out for the terminal's size: three columns from 118 wide, a taller board from 36 rows, a
message below 80×24; and the board pane's height fitted to its grid.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from textual.css.scalar import Scalar
from textual.widgets import Static

from ..panes.board import BoardGrid
from ..panes.history import HistoryPane
from ..panes.symmetry import MAX_IMAGE_ROWS

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object

MIN_WIDTH, MIN_HEIGHT = 80, 24
WIDE_WIDTH = 118  # three columns from here: the board's 32, the evaluation's 56 (its whole moves table), symmetry
WIDER_WIDTH = 160  # a wider board column
TALL_HEIGHT = 36

BOARD_FRAME_LINES = 5
"""The board pane's lines beside its grid: two of frame, three of status (two while the engine is off: the
column letters have the third)."""


class Layout(NamedTuple):
    too_small: bool
    """Below 80×24: a message instead of the panes."""
    wide: bool
    wider: bool
    tall: bool
    with_header: bool


def layout_for(width: int, height: int) -> Layout:
    """How the panes are laid out in a terminal of that size."""
    too_small = width < MIN_WIDTH or height < MIN_HEIGHT
    return Layout(too_small, width >= WIDE_WIDTH, width >= WIDER_WIDTH, height >= TALL_HEIGHT, height >= 30)


class ResponsiveLayout(AppHost):
    """The panes laid out again as the terminal's size changes."""

    _layout: Layout | None
    """The layout the panes have now; None before the first (the app sets it as it composes)."""

    def on_resize(self, event) -> None:
        self._apply_size(event.size.width, event.size.height)

    def _too_small_text(self, width: int, height: int) -> str:
        # in a browser tab the terminal is the page's, as big as its window
        if self.is_web:
            return (
                f"The window holds {width}×{height} characters.\nworkbench needs at least {MIN_WIDTH}×{MIN_HEIGHT}:"
                " make the window bigger, or zoom out (ctrl or ⌘ and -)."
            )
        return f"The terminal is {width}×{height}.\nworkbench needs at least {MIN_WIDTH}×{MIN_HEIGHT}."

    def _apply_size(self, width: int, height: int) -> None:
        layout = layout_for(width, height)
        too_small = layout.too_small
        # the first Static of the app is this message: query_one(Static) finds the same widget, today
        message = self.query_one("#too-small", Static)  # pragma: no mutate - the type only narrows
        if too_small:
            message.update(self._too_small_text(width, height))
        if layout == self._layout:
            self._update_title(width)  # (a long study name is cut to the header's width)
            return  # restyling the whole screen for nothing is the dearest thing at start-up
        self._layout = layout
        panes = self.query_one("#panes")
        # the panes' own screen, not the app's current one: a dialog or the command palette above the panes keeps
        # its focus through the resize (the app's set_focus moved it to the board, and the palette took no keys)
        screen = panes.screen
        if too_small and panes.display:  # a hidden pane must not take keys: the board would change unseen
            self._focus_before_small = screen.focused
            screen.set_focus(None)
        elif not too_small and not panes.display:
            self.call_after_refresh(screen.set_focus, self._focus_before_small or self.query_one(BoardGrid))
        panes.display = not too_small
        # and disabled: a dialog closed meanwhile gives its screen's focus back to the first widget that takes it
        # (Textual asks visibility, not display), which a disabled pane never is
        panes.disabled = too_small
        message.display = too_small
        panes.set_class(layout.wide, "-wide")
        panes.set_class(layout.wider, "-wider")
        panes.set_class(layout.tall, "-tall")
        self.query_one(HistoryPane).tall = layout.tall  # the verdict has its own lines there
        self.query_one("#header").display = layout.with_header
        self._fit_panes_to_board()
        self._update_title(width)

    def _fit_panes_to_board(self) -> None:
        """Under 36 rows the board pane has 15 lines, ten for the grid: a board of more rows takes what it needs
        (15×15: 20 lines, its rows and the letters under them), the history what is left. A board too big for
        the symmetry's images (above 7 rows) leaves that pane a few lines of text, the evaluation long lists of
        cells: from 160 columns the evaluation takes the width the images would have had."""
        layout = self._layout
        rows = self.store.state.geometry.rows
        self.query_one("#panes").set_class(rows > MAX_IMAGE_ROWS, "-no-images")
        board = self.query_one("#board")
        wanted = BOARD_FRAME_LINES + rows if layout is not None and not layout.tall and rows > 10 else None
        # the inline rule only: a new style lays the screen out again, the dearest thing at start-up
        if board.styles.inline.height != (None if wanted is None else Scalar.from_number(wanted)):
            board.styles.height = wanted
