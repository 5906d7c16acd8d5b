"""``workbench serve``: the app in a browser tab, served by textual-serve.

Each browser tab (each websocket) gets an app process of its own, run as ``python -m workbench`` with the
same ``--db`` and ``--game``: every tab shares the library, so a study saved in one opens in another, and an
unsaved study outlives a reload or a closed tab in the library's recovery table (the next tab offers it back).
A tab closed ends its app: the server asks the app to quit, closes its input if it has not, and (on the fast
path, which knows the app's process) sends SIGTERM, then SIGKILL; its place under ``--max-tabs`` is given back only
once the app's process has ended. Every message of a tab is checked before its app sees it
(:mod:`workbench.web.messages`). No app outlives the server (:mod:`workbench.web.serve_ext.warm_start`,
:mod:`workbench.tui.served_driver`).

Only the app is reachable: the page, its static files, the websocket that drives one app, and the downloads
the app offers; Textual's devtools are off unless ``--debug``. The server listens on 127.0.0.1 unless ``--host``
says otherwise, and answers only requests with its token, a Host of its own and no other page's Origin
(:mod:`workbench.web.access`), with at most ``--max-tabs`` apps at once.

An edge, like the command line: a port in use, a host that does not resolve or cannot be bound to, an access
option that names nothing, is one :class:`ServeError` line. Uses textual-serve's public names only; what reads
its private parts (the warm start, the page, the server's run) is :mod:`workbench.web.serve_ext`'s.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import InputError
from . import serve_ext
from .access import (
    DEFAULT_MAX_TABS,
    KEYED,
    SHORT_TOKEN,
    Access,
    AccessError,
    Cap,
    RefusalLog,
    full_page,
    guard,
    new_token,
    page,
    refusal,
)
from .headers import secure_headers
from .messages import MAX_MESSAGE_BYTES, BadMessage, query_size, read_message
from .names import WILDCARDS, canonical_name, is_loopback

STOP_SECONDS = 2.0
"""How long a stop (ctrl+c, SIGTERM) waits for open tabs before ending their apps."""


class ServeError(InputError):
    """The server cannot listen where it was asked to, or an access option names nothing: names the address or
    the option, and the reason."""


PAGE_SESSION_MARK = 'data-session-mark=""'
"""Where the page's template (``serve_ext/page/app_index.html``) is given :attr:`Access.session_mark`."""

FULL_WAIT_SECONDS = 3.0
"""How long a tab's websocket past the cap on apps waits for a place before it is refused: a tab reloaded as
another tab closed gets the place its app gives back a moment later."""


async def place_freed(cap: Cap) -> bool:
    """Whether the cap has a place, or gets one within :data:`FULL_WAIT_SECONDS` (it is not taken here)."""
    waited = 0.0
    while cap.full:
        if waited >= FULL_WAIT_SECONDS:
            return False
        await asyncio.sleep(0.05)
        waited += 0.05
    return True


def app_arguments(*, db: str | None = None, game: str | None = None) -> list[str]:
    """The arguments of each tab's app: ``workbench`` with them runs it."""
    words = []
    if db is not None:
        words += ["--db", db]
    if game is not None:
        words += ["--game", game]
    return words


def app_command(*, db: str | None = None, game: str | None = None) -> str:
    """The shell command textual-serve runs for each tab (it runs it through a shell: every word quoted). The shell
    becomes the app (``exec``): the app's parent is the server, whose end the kernel tells it of."""
    return "exec " + shlex.join([sys.executable, "-m", "workbench", *app_arguments(db=db, game=game)])


async def say_when_listening(host: str, port: int, line: str, say: Callable[[str], None]) -> None:
    """Say ``line`` once ``host``:``port`` takes connections (a connection opened and closed, no request sent)."""
    while True:
        try:
            _, writer = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(0.02)
            continue
        writer.close()
        say(line)
        return


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening, made before the server starts so that a port in use
    or a bad host is said at once, in one line, and no other program can take the port meanwhile.

    :raises ServeError: the host does not resolve, or the address cannot be bound (in use, not this machine's,
        a port below 1024 without the right).
    """
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise ServeError(f"host {host!r}: {getattr(error, 'strerror', None) or error}{host_hint(host)}") from None
    listener = socket.socket(family, kind, protocol)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # not a port in use: one in TIME_WAIT
        listener.bind(address)
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return listener


def host_hint(host: str) -> str:
    """What a host that does not resolve may have meant, as the end of its error line: an IPv6 address written
    in brackets, as an address writes it, or a host with its port."""
    if host.startswith("[") and host.endswith("]"):
        return f" (an IPv6 address goes without brackets: --host {host[1:-1]})"
    name, colon, port = host.rpartition(":")
    if colon and port.isdigit() and ":" not in name:
        return f" (the port goes apart: --host {name} --port {port})"
    return ""


def page_url(host: str, port: int) -> str:
    """The server's address in a browser (an IPv6 address in brackets), without its path and token."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


CLOSE_SECONDS = 1.0
"""How long the server waits for a tab to answer its websocket's closing."""
CLOSE_INPUT_SECONDS = 2.0
"""How long a closed tab's app has to quit before its input is closed (which ends it: the served driver)."""


async def stop_app(service) -> None:
    """End a tab's app (textual-serve's ``AppService``, public methods only): ask it to quit, close its input if it
    has not ended :data:`CLOSE_INPUT_SECONDS` later; return once it has ended (on the fast path, once its process
    has: see :mod:`workbench.web.serve_ext.app_service`)."""
    stopping = asyncio.ensure_future(service.stop())
    done, _ = await asyncio.wait({stopping}, timeout=CLOSE_INPUT_SECONDS)
    if not done:
        try:
            service.stdin.close()
        except (AssertionError, RuntimeError, OSError):  # (no input: it never started)
            pass
    await stopping


class ServerLog(logging.Handler):
    """What aiohttp, textual-serve and asyncio would print (a traceback for each bad request, each connection reset
    mid-handshake), as one line of the refusal log: a flood of them is a line a minute."""

    NAMES = ("aiohttp", "textual-serve", "asyncio")

    def __init__(self, log: Callable[[str, str], None]) -> None:
        super().__init__(logging.WARNING)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # (a bad format of theirs is not the server's to raise)
            message = str(record.msg)
        line = (message.splitlines() or [""])[0][:160]
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line = f"{line}: {type(error).__name__}: {str(error)[:120]}".rstrip(": ")
        self.log(f"log {record.name}", f"workbench: {record.name}: {line!r}"[:300])

    def install(self) -> Callable[[], None]:
        """Take over the loggers; what puts them back as they were."""
        found = []
        for name in self.NAMES:
            logger = logging.getLogger(name)
            found.append((logger, logger.handlers[:], logger.propagate, logger.level))
            logger.handlers, logger.propagate = [self], False
            if logger.level == logging.NOTSET or logger.level < logging.WARNING:
                logger.setLevel(logging.WARNING)

        def put_back() -> None:
            for logger, handlers, propagate, level in found:
                logger.handlers, logger.propagate = handlers, propagate
                logger.setLevel(level)

        return put_back


def reach(host: str, port: int, access: Access) -> str:
    """Who can open the page, as the start's first line says it."""
    name = canonical_name(host)
    if is_loopback(name):
        if access.token is None:
            return "this machine only, with no key: every program on it can use it"
        if access.exchange.reusable:
            return "this machine only; the address is the key while this server runs, keep it to yourself"
        return "this machine only; the address is the key of the first browser that opens it, keep it to yourself"
    if name in WILDCARDS:
        named = access.address(page_url(socket.gethostname(), port))
        where = f"on every network this machine is on, as {named}"
    else:
        where = "by anyone who can reach this address"
    key = "the token is the only key" if access.token is not None else "with no key at all"
    return f"{where}: no encryption, {key}; prefer an SSH tunnel to a server on 127.0.0.1"


async def pass_messages(websocket, service, log: Callable[[str, str], None]) -> None:
    """A tab's messages to its app until the tab closes; each checked first (a bad one is dropped, and said)."""
    from aiohttp import WSMsgType

    async for message in websocket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            checked = read_message(message.data)
        except BadMessage as error:
            log("message", f"workbench: a tab's message dropped: {error}")
            continue
        if checked.clamped:
            log(
                "message",
                f"workbench: a tab's resize brought within a screen's size: {checked.size[0]}×{checked.size[1]}",
            )
        if checked.kind == "stdin":
            await service.send_bytes(checked.text.encode("utf-8"))
        elif checked.kind == "resize":
            await service.set_terminal_size(*checked.size)
        elif checked.kind == "ping":
            await websocket.send_json(["pong", checked.data])
        elif checked.kind == "blur":
            await service.blur()
        elif checked.kind == "focus":
            await service.focus()


PAGE_DESTINATIONS = ("document",)
"""What a browser says (``Sec-Fetch-Dest``) it asks for where it will show the page (never in a frame: the page's
headers forbid one)."""


def shown_in_a_browser(request) -> bool:
    """Whether ``request`` may be for the page to show it: a GET (a HEAD is a link checker's or ``curl -I``'s), and,
    where the browser says what for, a document (not a script's fetch). A GET that says nothing counts: older
    browsers say nothing."""
    return request.method == "GET" and request.headers.get("Sec-Fetch-Dest", "document") in PAGE_DESTINATIONS


def no_folder_listing(folder: Path) -> Callable:
    """The aiohttp middleware that answers a request for a folder of the static files (``folder``) with a 404:
    textual-serve lists them."""
    from aiohttp import web

    @web.middleware
    async def checked(request: web.Request, handler: Callable) -> web.StreamResponse:
        if request.path == "/static" or request.path.startswith("/static/"):
            inside = request.path.removeprefix("/static").strip("/")
            try:
                is_folder = (folder / inside).resolve().is_dir()
            except (OSError, ValueError):
                is_folder = True
            if is_folder:
                raise web.HTTPNotFound()
        return await handler(request)

    return checked


def serve(
    *,
    host: str,
    port: int,
    db: str | None = None,
    game: str | None = None,
    debug: bool = False,
    token: str | None = None,
    no_token: bool = False,
    keep_token: bool = False,
    allow_origins: tuple[str, ...] = (),
    allow_hosts: tuple[str, ...] = (),
    max_tabs: int = DEFAULT_MAX_TABS,
    say: Callable[[str], None] = lambda line: print(line, flush=True),  # (a pipe's buffer held the address back)
    warn: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
) -> int:
    """Serve the app until interrupted (ctrl+c or SIGTERM); 0 then. Every request needs ``token`` (a new random
    one when None), unless ``no_token``; the first page a browser shows with it spends it (a HEAD or a script's
    fetch does not), unless ``keep_token`` or in stock mode, whose page keeps no session key. A page of another
    origin is refused unless ``allow_origins`` names it, a Host not the server's own unless ``allow_hosts`` names it;
    at most ``max_tabs`` apps run at once.

    :raises ServeError: the address cannot be listened on, or an access option names nothing.
    """
    from aiohttp import web
    from textual_serve.server import Server

    if max_tabs < 1:
        raise ServeError(f"--max-tabs {max_tabs}: at least one tab")
    try:
        script = serve_ext.page_script()
    except OSError as error:
        raise ServeError(f"textual-serve's page script {error.filename}: {error.strerror or error}") from None
    listener = listening_socket(host, port)
    port = listener.getsockname()[1]
    try:
        access = Access.make(
            token=None if no_token else (new_token() if token is None else token),
            host=host,
            port=port,
            allow_hosts=allow_hosts,
            # textual-serve's own page keeps no session key: a reload asks with the token again, which must open it
            keep_token=keep_token or not serve_ext.MODE.fast,
            allow_origins=allow_origins,
        )
    except AccessError as error:
        listener.close()
        raise ServeError(str(error)) from None
    # a server on every address is opened on this machine at its loopback address (0.0.0.0 is no place to go)
    shown_host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(canonical_name(host), host)
    url = access.address(page_url(shown_host, port))
    local = is_loopback(host)
    if not local:
        warn(f"workbench: warning: --host {host}: the app and your library are open to the network, unencrypted")
    if access.token is None:
        who = "every program on this machine" if local else f"everyone who can reach {host} port {port}"
        warn(f"workbench: warning: --no-token: {who} can use the app and your library through it")
    elif len(access.token) < SHORT_TOKEN:
        warn(
            f"workbench: warning: a token of {len(access.token)} characters can be guessed; leave --token out for a "
            "random one"
        )
    cap = Cap(max_tabs)
    kept = serve_ext.kept_downloads()  # (None: textual-serve's own)
    log = RefusalLog(warn)
    tabs: set[asyncio.Task] = set()
    announcing: set[asyncio.Future] = set()

    class WorkbenchServer(Server):
        """textual-serve's server, through its public hooks only (the fast path's pieces are
        :mod:`workbench.web.serve_ext`'s)."""

        def initialize_logging(self) -> None:
            pass  # the server's own lines are the workbench's (below); textual-serve's log is for its developers

        async def on_startup(self, app: web.Application) -> None:
            # aiohttp runs the start-up hooks before it freezes the application: the checks are in place before
            # the first request, and a release that froze it earlier would fail here, never serve unguarded
            app.middlewares.append(guard(access, log))
            app.middlewares.append(no_folder_listing(Path(self.statics_path)))
            app.on_response_prepare.append(secure_headers)
            app.router.add_get(KEYED + "/{session}", self.handle_websocket)  # (the session key, checked by the guard)
            serve_ext.add_page_routes(app, script)
            line = f"workbench: serving the app at {url} ({reach(host, port, access)}); ctrl+c stops it"
            if serve_ext.MODE.fast:
                say(line)  # the socket listens already
            else:  # textual-serve binds the port after this hook: the address is given once it answers
                announcing.add(asyncio.ensure_future(say_when_listening(shown_host, port, line, say)))

        async def on_shutdown(self, app: web.Application) -> None:
            # an open tab's websocket handler runs until its tab closes: a stop gives the tabs a moment, then
            # cancels them, which ends their apps (aiohttp's default waited a minute)
            loop = asyncio.get_running_loop()
            for task in tuple(tabs):
                loop.call_later(STOP_SECONDS, task.cancel)

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            if cap.full:  # (no wait here: a reloaded tab's own former app holds its place until this page is sent)
                return refusal(503, full_page(cap.max_tabs))
            # the page's websocket address as the browser reached the page: at the Host the guard checked (a host
            # of 0.0.0.0 is no address to connect to); with the session key, in exchange for a token (the guard
            # refused a wrong one). Nothing awaits between this and the page's rendering: no request sees another's
            self.public_url = f"{request.scheme}://{request.headers['Host']}"
            # of two pages asked for at once with the token, one gets the key (and spends the token), decided here;
            # only a page a browser shows does: a HEAD (a link checker, `curl -I`) or a script's fetch spent the
            # token, and the user's own browser got a page with no key
            exchanged = shown_in_a_browser(request) and access.exchange_token(request.query.get("token"))
            response = await super().handle_index(request)
            if isinstance(response, web.Response) and response.text is not None:  # (the page's text)
                text = response.text.replace(PAGE_SESSION_MARK, f'data-session-mark="{access.session_mark}"', 1)
                if exchanged:
                    text = text.replace(f'{KEYED}"', f'{KEYED}/{access.session}"', 1)
                response.text = text
            return response

        # (a refusal answers a plain GET or a full server: not every answer is a websocket)
        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
            """textual-serve's, on its public parts, with every message checked, and the tab's place given back
            only once its app has ended."""
            import textual_serve.server

            # (a closing handshake the tab does not answer within CLOSE_SECONDS is over: aiohttp's own wait held a stop)
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE_BYTES, timeout=CLOSE_SECONDS)
            if not websocket.can_prepare(request).ok:  # a plain GET: no place taken, nothing started
                return refusal(
                    400, page("not a websocket", "This address is the app's websocket, which only the page opens.")
                )
            # full since the page was sent: nothing is started (the page offers a restart, which gets the full page)
            if not (await place_freed(cap) and cap.take()):
                return refusal(503, full_page(cap.max_tabs))
            task = asyncio.current_task()
            if task is not None:
                tabs.add(task)
            service = None
            try:
                (columns, rows), wrong = query_size(request.query)
                if wrong is not None:
                    log("message", f"workbench: a tab's websocket asked for {wrong}")
                try:
                    await websocket.prepare(request)
                except (ConnectionError, RuntimeError, web.HTTPException):  # gone mid-handshake
                    return websocket
                service = textual_serve.server.AppService(
                    self.command,
                    write_bytes=websocket.send_bytes,
                    write_str=websocket.send_str,
                    close=websocket.close,  # type: ignore[arg-type]  # (its bool is unread, as textual-serve's own)
                    download_manager=self.download_manager,
                    debug=self.debug,
                )
                await service.start(columns, rows)
                # the page sends this with its downloads: a download is only its own tab's
                await websocket.send_json(["instance_id", service.app_service_id])
                await pass_messages(websocket, service, log)
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                tabs.discard(task)
                try:
                    if service is not None:
                        await asyncio.shield(stop_app(service))
                    await websocket.close()
                finally:
                    cap.give_back()
            return websocket

        async def handle_download(self, request: web.Request) -> web.StreamResponse:
            try:
                download = await self.download_manager.get_download_metadata(request.match_info["key"])
            except KeyError:
                download = None
            if download is None or request.query.get("instance") != download.app_service.app_service_id:
                raise web.HTTPNotFound(text="No such download.")
            if kept is not None:
                return await kept.respond(request, download)
            return await super().handle_download(request)

    templates = serve_ext.templates()
    server = WorkbenchServer(
        app_command(db=db, game=game),
        host=host,
        port=port,
        title="workbench",
        public_url=page_url(shown_host, port),
        **({} if templates is None else {"templates_path": templates}),
    )
    server.debug = debug
    if kept is not None:
        server.download_manager = kept
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    # asyncio puts Python's own handler back when the loop closes, whatever was there before (a shell that started
    # this in the background had SIGINT ignored): what was found is put back after
    found = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    for signal_number in found:
        loop.add_signal_handler(signal_number, server.request_exit)
    put_back_loggers = ServerLog(log).install()
    try:
        # devtools are switched on in the environment Textual is imported in: with --debug every app starts cold
        warm_options = None if debug else {"db": db, "game": game}
        serve_ext.run(server, listener, loop=loop, stop_seconds=STOP_SECONDS, warm_options=warm_options)
    finally:
        put_back_loggers()
        listener.close()
        if not loop.is_closed():  # aiohttp closes it when it ran
            loop.close()
        asyncio.set_event_loop(None)
        for signal_number, handler in found.items():
            if handler is not None:  # (None: a handler not set from Python, which Python cannot put back)
                signal.signal(signal_number, handler)
    say("workbench: stopped serving")
    return 0
