"""``workbench serve``: the app in a browser tab, served by textual-serve.

Each browser tab (each websocket) gets an app process of its own, run as ``python -m workbench`` with the
same ``--db`` and ``--game``: every tab shares the library, so a study saved in one opens in another, and an
unsaved study outlives a reload or a closed tab in the library's recovery table (the next tab offers it back).
A tab closed ends its app: textual-serve asks the app to quit, and the app's exit keeps the unsaved study.

Only the app is reachable: the page, its static files, the websocket that drives one app, and the downloads
the app offers. Textual's devtools are off unless ``--debug``. The server listens on 127.0.0.1 unless
``--host`` says otherwise; anyone who can reach another address can use the app and the library through it.

An edge, like the command line: a port in use, a host that does not resolve or cannot be bound to, is one
:class:`ServeError` line.
"""

from __future__ import annotations

import asyncio
import shlex
import signal
import socket
import sys
from typing import Callable

STOP_SECONDS = 2.0
"""How long a stop (ctrl+c, SIGTERM) waits for open tabs before ending their apps."""


class ServeError(ValueError):
    """The server cannot listen where it was asked to: names the address and the reason."""


def app_command(*, db: str | None = None, game: str | None = None) -> str:
    """The shell command textual-serve runs for each tab (it runs it through a shell: every word quoted)."""
    words = [sys.executable, "-m", "workbench"]
    if db is not None:
        words += ["--db", db]
    if game is not None:
        words += ["--game", game]
    return shlex.join(words)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening, made before the server starts so that a port in use
    or a bad host is said at once, in one line, and no other program can take the port meanwhile.

    :raises ServeError: the host does not resolve, or the address cannot be bound (in use, not this machine's,
        a port below 1024 without the right).
    """
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise ServeError(f"host {host!r}: {getattr(error, 'strerror', None) or error}") from None
    listener = socket.socket(family, kind, protocol)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # not a port in use: one in TIME_WAIT
        listener.bind(address)
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return listener


def page_url(host: str, port: int) -> str:
    """The address to open in a browser (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def serve(
    *, host: str, port: int, db: str | None = None, game: str | None = None,
    debug: bool = False, say: Callable[[str], None] = print,
) -> int:  # fmt: skip
    """Serve the app until interrupted (ctrl+c or SIGTERM); 0 then.

    :raises ServeError: the address cannot be listened on.
    """
    from aiohttp import web
    from textual_serve.server import Server

    listener = listening_socket(host, port)
    url = page_url(host, listener.getsockname()[1])

    class WorkbenchServer(Server):
        async def on_startup(self, app: web.Application) -> None:
            local = host in ("127.0.0.1", "::1", "localhost")
            reach = "this machine only; --host 0.0.0.0 serves every network it is on" if local else "reachable by anyone who can reach this address"
            say(f"workbench: serving the app at {url} ({reach}); ctrl+c stops it")

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            # the page's websocket address as the browser reached the page (a host of 0.0.0.0 is no address
            # to connect to); nothing awaits between this and the page's rendering, so no request sees another's
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

    server = WorkbenchServer(app_command(db=db, game=game), host=host, port=port, title="workbench", public_url=url)
    server.debug = debug
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, server.request_exit)
    try:
        # an open tab's websocket handler runs until its tab closes: a stop gives the tabs a moment, then cancels
        # them, which ends their apps (aiohttp's default waited a minute)
        web.run_app(
            server._make_app(), sock=listener, shutdown_timeout=STOP_SECONDS, handle_signals=False, loop=loop,
            print=lambda *args: None,
        )  # fmt: skip
    finally:
        listener.close()
    say("workbench: stopped serving")
    return 0
