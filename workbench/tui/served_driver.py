"""The driver of a served app (`workbench serve`): Textual's web driver, and an app that ends with its server."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App
from textual.drivers.web_driver import WebDriver


class ServedDriver(WebDriver):
    """Textual's web driver (textual-serve's apps run on it), ending the app when its input closes.

    textual-serve ends an app by asking it to quit. A server killed outright asks nothing: the app's input
    closes, and the web driver stops reading but leaves the app running, alone, for good. Here the app exits
    then, as on a quit, so its unsaved study is kept for the next tab."""

    def __init__(self, app: App, **options: Any) -> None:
        super().__init__(app, **options)
        self.served_app = app
        self.app_loop: asyncio.AbstractEventLoop | None = None

    def start_application_mode(self) -> None:
        self.app_loop = asyncio.get_running_loop()
        super().start_application_mode()

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if not self.exit_event.is_set() and self.app_loop is not None:  # the input ended, not the app: the server is gone
            try:
                self.app_loop.call_soon_threadsafe(self.served_app.exit)
            except RuntimeError:  # the app ended meanwhile (its loop is closed)
                pass
