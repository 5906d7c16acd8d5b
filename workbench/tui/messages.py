"""How panes ask for a change: they never change state themselves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.message import Message
from textual.widget import Widget

from ..state import Action
from ..state.actions import Back, Forward

if TYPE_CHECKING:  # a mixin of widgets, to the type checker
    _WidgetBase = Widget
else:
    _WidgetBase = object


class Dispatch(Message):
    """Ask the app to dispatch ``action`` to the store."""

    def __init__(self, action: Action) -> None:
        super().__init__()
        self.action = action


def dispatch(widget: Widget, action: Action) -> None:
    """Hand ``action`` at once to the widget's screen where that takes actions itself (practice), else to the
    app's store; or post it as a :class:`Dispatch` where the app takes no actions directly (a pane alone in a test
    harness).

    At once matters: a message climbs through every parent's queue, so a key queued behind the
    one that played a move (``5`` then ``q``) would be handled first, and quit over an unsaved move.
    """
    # a screen that takes actions itself (practice: a board whose moves are answers) comes before the app's store
    take = getattr(widget.screen, "take_action", None) if widget.is_mounted else None
    take = take or getattr(widget.app, "take_action", None)
    if take is not None:
        take(action)
    else:
        widget.post_message(Dispatch(action))


class WheelStepsThroughGame(_WidgetBase):
    """A widget mixin: the mouse wheel over it steps back and forward through the game, as on an analysis board
    (not Textual's scrolling). The board and the variation tree have it."""

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        event.prevent_default()
        dispatch(self, Forward())

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        event.prevent_default()
        dispatch(self, Back())
