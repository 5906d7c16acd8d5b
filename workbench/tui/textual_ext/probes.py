"""Probes for ``workbench bench``: when Textual draws a frame, and when a screen has nothing left to do.

They read and wrap Textual 8's private screen state (``Screen._compositor_refresh``, ``_on_timer_update``,
``_update_timer``, ``_layout_required``, ``_repaint_required``, ``_dirty_widgets``, ``_message_queue``); only the
benchmarks use them, in either mode.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.app import App
from textual.screen import Screen


def install_first_paint_probe(result: dict) -> None:
    """Note in ``result["painted"]`` the end of the first frame that draws the finished app (one whose ``ready``
    is true, or any app without one), then end the app. Its source is run as it is in a bare launch script, which
    imports nothing of the workbench: it names only Textual and ``time``."""
    import time

    from textual.screen import Screen

    refresh = Screen._compositor_refresh

    def noted_refresh(screen):
        refresh(screen)
        if "painted" not in result and getattr(screen.app, "ready", True) and screen.app.is_running:
            result["painted"] = time.perf_counter()  # CLOCK_MONOTONIC: comparable with the parent's
            screen.app.call_later(screen.app.exit)

    Screen._compositor_refresh = noted_refresh  # type: ignore[method-assign]  # the probe: Textual's, timed


class FrameProbe:
    """The times at which ``screen``'s update timer drew something, and whether the screen and every node on it
    has nothing left to lay out, paint or handle."""

    def __init__(self, app: App, screen: Screen) -> None:
        self.app, self.screen = app, screen
        self.updates: list[float] = []
        original: Callable[[], None] = screen._on_timer_update

        def noted_update() -> None:
            busy = screen._layout_required or screen._repaint_required or bool(screen._dirty_widgets)
            original()
            if busy:
                self.updates.append(time.perf_counter())

        screen._on_timer_update = noted_update  # type: ignore[method-assign]
        screen._update_timer._callback = noted_update

    def settled(self) -> bool:
        screen = self.screen
        return not (screen._layout_required or screen._repaint_required or screen._dirty_widgets) and all(
            widget._message_queue.empty() for widget in (self.app, screen, *screen.walk_children())
        )
