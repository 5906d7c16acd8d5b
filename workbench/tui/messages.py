"""Messages panes send up: they never change state themselves."""

from __future__ import annotations

from textual.message import Message

from ..state import Action


class Dispatch(Message):
    """Ask the app to dispatch ``action`` to the store."""

    def __init__(self, action: Action) -> None:
        super().__init__()
        self.action = action
