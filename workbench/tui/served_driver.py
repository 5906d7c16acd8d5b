"""The driver of a served app (`workbench serve`): Textual's web driver, an app that ends with its server, and a
page whose terminal takes the theme's colours."""

from __future__ import annotations

import asyncio
import atexit
import os
import signal
import tempfile
import threading
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.color import Color, ColorParseError
from textual.drivers.web_driver import WebDriver
from textual.signal import SignalError
from textual.theme import Theme

from ..lifeline import die_with_parent


class ServedDriver(WebDriver):
    """Textual's web driver (textual-serve's apps run on it), ending the app when its input closes.

    textual-serve ends an app by asking it to quit. A server killed outright asks nothing: the app's input
    closes, and the web driver stops reading but leaves the app running, alone, for good. Here the app exits
    then, as on a quit, so its unsaved study is kept for the next tab; a SIGTERM (the server's, or the warm
    process's as it ends) does the same. An app that has not ended :data:`EXIT_SECONDS` after either (busy, or
    stuck) is killed; and the kernel kills the app when the process that started it ends, whatever state the app
    is in (its parent-death signal): no app outlives its server.

    The page's terminal is told the theme's background (and an ANSI theme's foreground) as its own default colours
    (:func:`page_colours`), at the start and at every change of theme: the few pixels of the page below the last
    row and beside the last column are the terminal's background, not of a row, and were the page's dark blue
    under every theme; an ANSI theme draws on the terminal's own colours, which in the page are light on dark."""

    EXIT_SECONDS = 3.0

    def __init__(self, app: App, **options: Any) -> None:
        super().__init__(app, **options)
        keep_errors_in_a_file()
        self.served_app = app
        self.app_loop: asyncio.AbstractEventLoop | None = None
        self.ending = False

    def start_application_mode(self) -> None:
        self.app_loop = asyncio.get_running_loop()
        try:
            signal.signal(signal.SIGTERM, lambda number, frame: self.end_app())
        except ValueError:  # (not the main thread: a test's app; SIGTERM then ends it at once)
            pass
        else:
            # the app's own process: the kernel ends it with the process that started it (the server, which
            # starts it by ``exec`` in its shell, or the warm process), even while it is stopped or busy
            die_with_parent(os.getppid())
        super().start_application_mode()
        try:
            self.served_app.theme_changed_signal.subscribe(self.served_app, self.tell_page_colours)
        except SignalError:  # (an app not yet running, in a Textual other than this one: its start's colours stay)
            pass
        self.tell_page_colours(self.served_app.current_theme)

    def tell_page_colours(self, theme: Theme) -> None:
        """Set the page's terminal's default colours to ``theme``'s (:func:`page_colours`)."""
        self.write(page_colours(theme, self.served_app.get_css_variables().get("background", "")))

    def write(self, data: str) -> None:
        self._unless_the_server_is_gone(super().write, data)

    def write_meta(self, data: dict[str, object]) -> None:
        self._unless_the_server_is_gone(super().write_meta, data)

    def write_binary_encoded(self, data: tuple[str | bytes, ...]) -> None:
        self._unless_the_server_is_gone(super().write_binary_encoded, data)

    def _unless_the_server_is_gone(self, write: Callable[[Any], None], data: Any) -> None:
        """``write(data)``; on a closed pipe the app ends, as when its input closes, rather than crash in a
        traceback. (The server reads the app's output until the app has ended; a server killed outright does not.)"""
        try:
            write(data)
        except BrokenPipeError:
            self.end_app()

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if not self.exit_event.is_set():  # the input ended, not the app: the server is gone
            self.end_app()

    def end_app(self) -> None:
        """Have the app exit as on a quit, and kill it if it has not :data:`EXIT_SECONDS` later."""
        if self.ending or self.app_loop is None:
            return
        self.ending = True
        try:
            self.app_loop.call_soon_threadsafe(self.served_app.exit)
        except RuntimeError:  # the app ended meanwhile (its loop is closed)
            pass
        deadline = threading.Timer(self.EXIT_SECONDS, os.kill, (os.getpid(), signal.SIGKILL))
        deadline.daemon = True  # (an app that ends first takes it with it)
        deadline.start()


ANSI_LIGHT_PAGE = ("#000000", "#ffffff")
"""The foreground and background of the page's terminal under a light ANSI theme, as a light terminal's."""


def page_colours(theme: Theme, background: str) -> str:
    """The escape codes (OSC 10 and 11, xterm's; xterm.js takes them) that set a terminal's default foreground
    and background to ``theme``'s: its ``background`` (the CSS variable, which Textual works out where the theme
    names none), with the page's own foreground (OSC 110 restores it); a dark ANSI theme the page's own colours
    (OSC 110 and 111), a light one black on white. A background that is not a colour restores the page's."""
    if theme.ansi:
        if theme.dark:
            return "\x1b]110\x1b\\\x1b]111\x1b\\"
        foreground, background = ANSI_LIGHT_PAGE
        return f"\x1b]10;{_xterm_colour(foreground)}\x1b\\\x1b]11;{_xterm_colour(background)}\x1b\\"
    try:
        colour = Color.parse(background)
    except ColorParseError:
        return "\x1b]110\x1b\\\x1b]111\x1b\\"
    # the foreground restored too: an ANSI theme before may have set it, and no cell of this theme's reads it
    return f"\x1b]110\x1b\\\x1b]11;{_xterm_colour(colour.hex6)}\x1b\\"


def _xterm_colour(hex6: str) -> str:
    """``#rrggbb`` as X11 writes a colour in a terminal's escape code, ``rgb:rr/gg/bb``."""
    hex6 = hex6.lower()
    return f"rgb:{hex6[1:3]}/{hex6[3:5]}/{hex6[5:7]}"


_errors_kept = False
"""This process's standard error goes to a file already (:func:`keep_errors_in_a_file` is done)."""


def keep_errors_in_a_file() -> None:
    """What the app writes on its standard error (a crash's traceback, with Textual's locals) goes to a file; at the
    app's exit, the server's terminal gets one line of it. (textual-serve prints a tab's standard error on the
    server's terminal as it is: a crash was dozens of lines, a flood of tabs a flood of them.) Once a process."""
    global _errors_kept
    if _errors_kept:
        return
    _errors_kept = True
    try:
        kept = tempfile.TemporaryFile("w+", encoding="utf-8")  # (nameless: an app killed leaves nothing behind)
        server = os.dup(2)
        os.dup2(kept.fileno(), 2)
    except OSError:  # (no file to be had: the errors go to the server as they are)
        return
    atexit.register(say_errors, kept, server)


def say_errors(kept, server: int) -> None:
    """One line on ``server`` (the standard error the app was given) for what ``kept`` holds: a single line as it
    is (an error of the user's); more, in a file of their own, named in the line."""
    import sys

    try:
        sys.stderr.flush()
        kept.seek(0)
        text = kept.read()
        lines = [line.strip(" │╭╰─") for line in text.splitlines()]
        lines = [line for line in lines if line]
        if not lines:
            return
        if len(lines) == 1:
            said = lines[0]
        else:
            with tempfile.NamedTemporaryFile(
                "w", prefix="workbench-tab-", suffix=".txt", delete=False, encoding="utf-8"
            ) as report:
                report.write(text)
            said = f"workbench: a tab's app crashed ({lines[-1][:160]}); what it said is in {report.name}"
        os.write(server, (said + "\n").encode("utf-8", "replace"))
    except OSError:
        pass
