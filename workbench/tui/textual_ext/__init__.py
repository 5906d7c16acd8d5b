"""The gate: the one package of the app that reads or overrides private parts of Textual (and one of Rich).

Each piece here has a stock counterpart, Textual's or Rich's own. Each makes the app quicker and never different,
but :mod:`.colours`, which draws the app in a terminal of 256 colours in the colours nearest its own:

========================  =================================================  =====================================
piece                     what it does                                       stock
========================  =================================================  =====================================
:mod:`.compositor`        renders only the changed regions; draws a key's    ``Screen`` and its compositor
                          frame at once
:mod:`.sgr`               writes each style as the change from the one       ``Strip.render``: every code of a
                          before                                             style, then a reset
:mod:`.shown`             writes of a changed chop only the cells that       every cell of every chop a change
                          differ from what the screen's frames left there    meets
:mod:`.terminal_driver`   writes a frame itself when the output thread is    Textual's ``LinuxDriver``
                          idle; pauses after a key's frame for the terminal
                          to read it; reads the terminal's input on the
                          event loop, not on a thread that hands it over
:mod:`.key_routing`       takes a key straight to the bindings when nothing  Textual's trip up the DOM; its
                          on the way reads keys; the chain of bindings       ``Screen._binding_chain``; its
                          without a pass that takes nothing out              look for the app's key handlers
:mod:`.header`            a header whose title's change is no layout         ``Header``
:mod:`.scrollbars`        scrollbars drawn from a kept strip; a line count   Textual's ``ScrollBar``, a layout
                          that needs no layout
:mod:`.binding`           the state set on each bound pane directly          ``data_bind``
:mod:`.colours`           in 256 colours, each colour the palette's nearest  Rich's ``Color.downgrade``: each
                                                                             channel rounded on its own
========================  =================================================  =====================================

The app runs on the stock counterparts (:data:`MODE`, which ``workbench --version`` prints) when
``WORKBENCH_STOCK_TEXTUAL=1`` is set, when the installed Textual is not a release these pieces were checked
against (:data:`~workbench.framework_mode.CHECKED_TEXTUAL`; ``tests/versions.py`` checks them), or when a
piece cannot be loaded. Stock is complete and correct, only slower (and in 256 colours, as Rich rounds them).
The decision is made once, at import, before anything private is imported.

Outside this package and :mod:`workbench.web.serve_ext` (textual-serve's), a private name of Textual, Rich or
textual-serve is a defect: ``tests/test_gate.py`` fails on one.

May import Textual and Rich, private modules included, and nothing of the workbench but
:mod:`workbench.framework_mode`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.widget import Widget
from textual.widgets import Header

from ...framework_mode import APP_PACKAGES, Mode, mode_for

if TYPE_CHECKING:
    from textual import events
    from textual.app import App

__all__ = [
    "MODE",
    "OwnScrollBars",
    "LinesWithoutLayout",
    "main_screen",
    "terminal_driver_class",
    "title_header",
    "HEADER_TITLE_SIDES",
    "input_arrived",
    "take_key_straight",
    "pass_on_bound",
    "kept_scrollbar",
]


def _load(mode: Mode) -> Mode:
    """``mode``, or stock when a piece of the fast path cannot be imported (a private module renamed)."""
    if not mode.fast:
        return mode
    try:
        from . import colours, compositor, header, key_routing, scrollbars, terminal_driver  # noqa: F401
    except (ImportError, AttributeError) as error:
        return Mode(False, f"{mode.reason}, but the fast path could not be loaded: {error}")
    return mode


MODE: Mode = _load(mode_for(*APP_PACKAGES))
"""The fast path or stock, and why."""

if MODE.fast:
    from .binding import bound_nodes, set_bound
    from .colours import install as _install_colours
    from .scrollbars import LinesWithoutLayout, OwnScrollBars

    _install_colours()
else:

    class OwnScrollBars:  # type: ignore[no-redef]
        """Stock: Textual makes the widget's scrollbars."""

    class LinesWithoutLayout:  # type: ignore[no-redef]
        """Stock: a new number of lines is a layout, as Textual does it."""

        sizing_lines = False
        sizing_lines_is_quiet = False


def kept_scrollbar(fit: Callable, draw_kept: Callable) -> type[ScrollBar]:
    """The vertical scrollbar of a scrolling pane: on the fast path one that keeps each drawing of itself, its rows
    made by ``fit`` and drawn by ``draw_kept`` (:class:`.scrollbars.KeptScrollBar`); stock, Textual's own."""
    if not MODE.fast:
        return ScrollBar
    from .scrollbars import KeptScrollBar

    return type("PaneScrollBar", (KeptScrollBar,), {"fit": staticmethod(fit), "draw_kept": staticmethod(draw_kept)})


def main_screen(id: str) -> Screen:
    """The app's main screen: composited from the changed regions on the fast path."""
    if MODE.fast:
        from .compositor import PanesScreen

        return PanesScreen(id=id)
    return Screen(id=id)


def terminal_driver_class(textuals: type) -> type:
    """The driver for a terminal, given Textual's choice: on the fast path its Linux driver writes frames itself."""
    if MODE.fast and textuals.__module__ == "textual.drivers.linux_driver" and textuals.__name__ == "LinuxDriver":
        from .terminal_driver import TerminalDriver

        return TerminalDriver
    return textuals


HEADER_ICON = "○"
"""The header's command-palette button. Textual's own, "⭘" (U+2B58), is in few fonts: a browser with only DejaVu
or Liberation drew it as an empty box; this circle is in both, and in every usual terminal font."""


HEADER_TITLE_SIDES = 18
"""The header's columns beside its title, in both modes: Textual's icon, and the room its clock would take (the
``HeaderIcon`` and ``HeaderClockSpace`` of its private ``textual.widgets._header``; a test measures them). A title
wider than the rest is cut at its end by Textual."""


def title_header(id: str) -> Header:
    """The app's header, without a clock."""
    if MODE.fast:
        from .header import TitleHeader

        return TitleHeader(id=id, icon=HEADER_ICON)
    return Header(id=id, icon=HEADER_ICON)


def input_arrived(screen: Screen) -> None:
    """A key or a click came in: on the fast path, the frame it makes is drawn as soon as the screen is idle."""
    if MODE.fast:
        from .compositor import PanesScreen

        if isinstance(screen, PanesScreen):
            screen.draw_input_at_once = True


async def take_key_straight(app: App, event: events.Key) -> bool:
    """On the fast path, and when nothing on its way reads keys: ``event`` handled as Textual would, straight at
    the bindings, and its frame drawn; True then. False: Textual's own way is for the caller to take."""
    if not MODE.fast:
        return False
    from .compositor import PanesScreen
    from .key_routing import keys_go_straight, take_key_straight

    if not keys_go_straight(app, event):
        return False
    await take_key_straight(app, event)
    if isinstance(app.screen, PanesScreen):
        app.screen.draw_repaints_now()
    return True


def pass_on_bound(owner: App, name: str, new: object, root: Widget | None, kept: tuple = ()) -> tuple:
    """Set ``owner``'s reactive ``name`` to ``new``: on the fast path directly on each node bound to it as well
    (:mod:`.binding`: ``kept``, the nodes found before, else those under ``root``), else as Textual's assignment
    does, through its bindings. Returns the bound nodes, to pass back in as ``kept``, or ``()`` where Textual's way
    was taken."""
    nodes: tuple = ()
    if MODE.fast:  # (its pieces imported with the gate's: this runs at every state change)
        nodes = kept or (bound_nodes(root, name) if root is not None else ())
        if nodes:
            set_bound(owner, name, new, nodes)
            return nodes
    setattr(owner, name, new)
    return nodes
