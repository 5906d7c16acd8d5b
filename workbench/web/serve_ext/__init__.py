"""The gate of the web side: the one package that reads or overrides private parts of textual-serve.

Each piece makes ``workbench serve`` quicker or sturdier, never different to use, and has a stock counterpart:

=======================  ===============================================  ===========================================
piece                    what it does                                     stock
=======================  ===============================================  ===========================================
:mod:`.warm_start`,      a tab's app forked from a process that has        ``python -m workbench`` started for each tab
:mod:`.app_service`      imported the app and read its tables; ended by    (by a shell); a closed tab's app that does
                         its process (quit, SIGTERM, SIGKILL), and every   not quit has its input closed, and ends
                         app ended when the server is gone                 itself (``tui/served_driver.py``)
:mod:`.page`             a page that loads with less of the browser's      textual-serve's page and script
                         CPU, and takes the token out of the address bar
:func:`run`              the server on the socket the command line         textual-serve's ``Server.serve()``, which
                         bound (a port in use is said at once), a stop     binds the port itself; a stop gives open
                         that gives open tabs ``serve.STOP_SECONDS``       tabs the same time (see ``serve``)
:mod:`.downloads`        a download read whole from the app once, kept a   textual-serve's ``DownloadManager``: the
                         while for a request made again; one the app does  one request reading it gets the chunks as
                         not hand over whole is an error page, never part  they come (one made again gets nothing),
                         of it                                             and a slow app's download fails
=======================  ===============================================  ===========================================

The server's access checks (token, Host, Origin, the cap on tabs) are the same in both modes: they are added
through textual-serve's public hooks, never through a piece of this package.

The server runs stock when ``WORKBENCH_STOCK_TEXTUAL=1`` is set or the installed textual-serve is not a release
these pieces were checked against (:data:`~workbench.framework_mode.CHECKED_TEXTUAL_SERVE`); a piece that
cannot be loaded makes it stock too. :data:`MODE` says which, and why (``workbench --version`` prints it).

May import textual-serve (its private parts included), aiohttp, the app (``tui``, to run a tab's app in the
warm process), the settings, the tables' cache, the engine, ``framework_mode``, ``lifeline`` and ``errors``.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

from ...framework_mode import SERVE_PACKAGES, Mode, mode_for


def _load(mode: Mode) -> Mode:
    if not mode.fast:
        return mode
    try:
        from textual_serve.app_service import AppService
        from textual_serve.server import Server

        for owner, name in ((Server, "_make_app"), (AppService, "_open_app_process")):
            if not callable(getattr(owner, name, None)):
                raise AttributeError(f"textual-serve's {owner.__name__} has no {name}")
        from .page import TerminalScript  # noqa: F401
    except (ImportError, AttributeError) as error:
        return Mode(False, f"{mode.reason}, but the fast path could not be loaded: {error}")
    return mode


MODE: Mode = _load(mode_for(*SERVE_PACKAGES))
"""The fast path or stock, and why."""


def kept_downloads() -> Any | None:
    """The server's downloads, read whole from the apps and kept a while (:class:`.downloads.KeptDownloads`); None:
    textual-serve's own ``DownloadManager``."""
    if not MODE.fast:
        return None
    from .downloads import KeptDownloads

    return KeptDownloads()


def templates() -> Path | None:
    """The folder of the page's template; None: textual-serve's own."""
    if not MODE.fast:
        return None
    from .page import TEMPLATES

    return TEMPLATES


def page_script() -> Any | None:
    """The fast path's page's terminal script, read now (None: stock, textual-serve's own).

    :raises OSError: textual-serve's script cannot be read."""
    if not MODE.fast:
        return None
    from .page import TerminalScript

    return TerminalScript.read()


def add_page_routes(app: Any, script: Any | None) -> None:
    """The routes the fast path's page needs (``script``, from :func:`page_script`) added to ``app`` (an aiohttp
    application)."""
    if script is not None:
        from .page import SCRIPT_PATH

        app.router.add_get(SCRIPT_PATH, script.handle)


def run(
    server: Any,
    listener: socket.socket,
    *,
    loop: asyncio.AbstractEventLoop,
    stop_seconds: float,
    warm_options: Any | None,
) -> None:
    """Serve with textual-serve's ``server`` on ``listener`` until the server's ``request_exit`` ends it, on the fast
    path (:data:`MODE` fast: the app made by ``Server._make_app``, tabs forked warm unless ``warm_options`` is None)
    or on textual-serve's own ``Server.serve()``. The caller has set ``loop`` as the event loop, with its signal
    handlers."""
    from aiohttp import web

    if not MODE.fast:
        listener.close()  # textual-serve binds the port itself
        server.serve(debug=server.debug)
        return
    from .app_service import start_apps_warm
    from .warm_start import WarmStart

    warm = None if warm_options is None else WarmStart(warm_options)
    if warm is not None:
        start_apps_warm(warm)
    try:
        # an open tab's websocket handler runs until its tab closes: a stop gives the tabs a moment, then cancels
        # them, which ends their apps (aiohttp's default waited a minute)
        web.run_app(
            server._make_app(),
            sock=listener,
            shutdown_timeout=stop_seconds,
            handle_signals=False,
            loop=loop,
            print=lambda *args: None,
        )
    finally:
        if warm is not None:
            warm.close()
