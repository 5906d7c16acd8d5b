"""Who may use a ``workbench serve``: its token, the host names and origins it answers to, and its cap on apps.

A server on 127.0.0.1 is not reached only by the user: any web page open in the user's browser can ask it for
things (a ``fetch``, a ``new WebSocket``), and a remote site can reach it by a name of its own that it points at
127.0.0.1 (DNS rebinding). Four checks, each refusing with a 403 and a page that says why, keep them out, as
Jupyter Server's do:

* **Host**: the ``Host`` a request names must be one of the server's own: ``localhost``, ``127.0.0.1``, ``::1``,
  the address the connection reached, the name ``--host`` gave (with ``--host 0.0.0.0`` or ``::``, also the
  machine's name), each at the server's port; or a name ``--allow-host`` gave. A rebinding name never gets the
  page or the socket.
* **Origin**: a request a page sends carries the page's origin; one whose origin is not the server's own
  (scheme, host and port, as its ``Host`` says) is refused unless ``--allow-origin`` names it. Browsers send an
  ``Origin`` with every websocket and every request from another page's script; a request without one is not a
  script's of another origin (a navigation, the page's own scripts, a program that is no browser).
* **Fetch metadata**: a browser says which site's page sent a request (``Sec-Fetch-Site``), also where it sends no
  ``Origin`` (a ``fetch`` in ``no-cors`` mode, an image). A request from a page of another site, or of this site
  at another port (127.0.0.1:9000 is the same *site* as 127.0.0.1:8000, and gets its cookies), is refused,
  unless it is the opening of a page in a tab (a navigation: the other page cannot read it) or its origin is an
  allowed one.
* **Token**: a random key made at each start (``secrets``, 192 bits) and printed in the address. The first page
  that address opens is given, in exchange, the server's *session* key (another random one, never in an address),
  which it keeps in the browser's storage of its origin, that is of this host *and port*: a reload and a new tab at
  the bare address find it there, and no page of another port can read it (a cookie would be sent to every port of
  the host). The exchange spends the token (:class:`Exchange`): the address in the browser's history, its session
  files and its cache opens nothing more, unless ``--keep-token`` keeps it a key (several browsers, a script). The
  websocket needs one of the two keys; a download, the key of the tab whose app offered it. The page, its script
  and its static files are the same for everyone and carry no key (a page without one says how to get it); a wrong
  token in an address is refused.

The cap on apps (``--max-tabs``) is the server's (:class:`Cap`): a tab past it gets :func:`full_page`.

Pure checks (:class:`Access`) and the pages a refusal sends; the aiohttp middleware that applies them is
:func:`guard`. Imports only the standard library, ``errors``, and aiohttp where a response is made (the command
line checks its options with this module without loading a web server).
"""

from __future__ import annotations

import hashlib
import html
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from ..errors import InputError
from .headers import SECURITY_HEADERS
from .names import (
    LOOPBACK_NAMES,
    canonical_name,
    default_port,
    format_origin,
    machine_names,
    split_host,
    split_origin,
)

if TYPE_CHECKING:
    from aiohttp import web

TOKEN_BYTES = 24
"""The token's randomness: 24 bytes, 192 bits (at least 128 asked), 32 characters in the address."""
TOKEN_LIMIT = 256
TOKEN_CHARACTERS = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~:-]{1,256}")
"""What ``--token`` may hold: 1 to 256 of the characters a cookie's value is written with unquoted (Python's
``http.cookies``: letters, digits and ``!#$%&'*+-.^_`|~:``)."""
SHORT_TOKEN = 16
"""A ``--token`` shorter than this is warned about: it could be guessed."""
DEFAULT_MAX_TABS = 16


class AccessError(InputError):
    """An access option that cannot be: names the option, its value and the reason."""


def new_token() -> str:
    """A token for one server start (URL- and cookie-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def check_token(token: str) -> str:
    """``token`` as ``--token`` gave it. :raises AccessError: it is empty, too long or holds a character a cookie
    would have to quote."""
    if not TOKEN_CHARACTERS.fullmatch(token):
        raise AccessError(
            f"--token {token[:40]!r}: a token is 1 to 256 letters, digits and characters of !#$%&'*+-.^_`|~:"
        )
    return token


TOKEN_VARIABLE = "WORKBENCH_SERVE_TOKEN"
"""The environment variable that gives the token when no option does (a command's arguments are every user's to
read; its environment is not)."""


def chosen_token(*, token: str | None, token_file: str | None, environ: dict[str, str]) -> str | None:
    """The token ``--token``, ``--token-file`` (the file's first line) or :data:`TOKEN_VARIABLE` gives, in that
    order; None for a random one. :raises AccessError: the file cannot be read, or what it gives is no token."""
    if token is not None:
        return check_token(token)
    if token_file is not None:
        try:
            with open(token_file, encoding="utf-8") as file:
                first = file.readline(TOKEN_LIMIT + 2).rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as error:
            raise AccessError(
                f"--token-file {token_file[:80]!r}: {getattr(error, 'strerror', None) or error}"
            ) from None
        return _checked(first, f"--token-file {token_file[:80]!r}")
    if environ.get(TOKEN_VARIABLE):
        return _checked(environ[TOKEN_VARIABLE], TOKEN_VARIABLE)
    return None


def _checked(token: str, where: str) -> str:
    try:
        return check_token(token)
    except AccessError as error:
        raise AccessError(f"{where}: {str(error).split(': ', 1)[1]}") from None


def check_origin(origin: str) -> str:
    """An origin as ``--allow-origin`` gave it, as compared. :raises AccessError: it is not an origin."""
    parts = split_origin(origin.removesuffix("/"))
    if parts is None:
        raise AccessError(f"--allow-origin {origin[:80]!r}: not an origin (scheme://host or scheme://host:port)")
    return format_origin(*parts)


def check_allowed_host(value: str) -> tuple[str, int | None]:
    """A name as ``--allow-host`` gave it (``name`` at any port, ``name:port`` at that one). :raises AccessError:
    it names no host."""
    found = split_host(value)
    if found is None:
        raise AccessError(f"--allow-host {value[:80]!r}: not a host name (name, name:port, or [IPv6]:port)")
    return found


@dataclass
class Exchange:
    """Whether the printed token has been exchanged for the session key (a page was sent with it), which spends
    it, unless it is ``reusable`` (``--keep-token``). The one part of :class:`Access` that changes."""

    reusable: bool = False
    done: bool = False


@dataclass(frozen=True)
class Access:
    """What a request needs to be answered: a token (None: none), and a Host and Origin of the server's own."""

    token: str | None
    port: int
    names: frozenset[str] = LOOPBACK_NAMES
    """The host names answered to at ``port``, besides the address a connection reached."""
    allowed_hosts: tuple[tuple[str, int | None], ...] = ()
    """``--allow-host``'s: (name, port), a port of None for any."""
    allowed_origins: frozenset[str] = frozenset()
    """``--allow-origin``'s, as :func:`format_origin` writes them."""

    @classmethod
    def make(
        cls,
        *,
        token: str | None,
        host: str,
        port: int,
        allow_hosts: tuple[str, ...] = (),
        allow_origins: tuple[str, ...] = (),
        keep_token: bool = False,
    ) -> Access:
        """The access of a server listening on ``host``:``port``; the token spent by its first exchange unless
        ``keep_token``. :raises AccessError: an option names no host or no origin, or the token is not one."""
        return cls(
            token=None if token is None else check_token(token),
            port=port,
            session=None if token is None else new_token(),
            names=LOOPBACK_NAMES | machine_names(host),
            allowed_hosts=tuple(check_allowed_host(name) for name in allow_hosts),
            allowed_origins=frozenset(check_origin(origin) for origin in allow_origins),
            exchange=Exchange(reusable=keep_token),
        )

    session: str | None = None
    """The key the page keeps in its origin's storage, given in exchange for the token (None: no token)."""
    exchange: Exchange = field(default_factory=Exchange, compare=False)

    @property
    def session_mark(self) -> str:
        """What every page of this start carries, so that a page can tell a key kept from an earlier start of a
        server at this address (a new start makes a new session key) from none: a digest of the session key,
        which no one can turn back into it; "" where no key is asked for (no token)."""
        return "" if self.session is None else hashlib.sha256(self.session.encode()).hexdigest()[:16]

    def host_refusal(self, host: str | None, local_address: str | None) -> str | None:
        """Why a request naming ``host`` (its ``Host`` header) is refused, or None; ``local_address`` is the
        address its connection reached."""
        if host is None:
            return "the request names no host"
        found = split_host(host)
        if found is None:
            return f"the host {host[:80]!r} is no host name"
        name, port = found
        port = port if port is not None else default_port("http")
        for allowed, allowed_port in self.allowed_hosts:
            if name == allowed and allowed_port in (None, port):
                return None
        ours = name in self.names or (local_address is not None and name == canonical_name(local_address))
        if not ours:
            return f"{host[:80]!r} is not a name of this server"
        if port != self.port:
            return f"{host[:80]!r} is not this server's port ({self.port})"
        return None

    def allows_origin(self, origin: str) -> bool:
        """Whether ``--allow-origin`` named ``origin`` (an ``Origin`` header)."""
        parts = split_origin(origin)
        return parts is not None and format_origin(*parts) in self.allowed_origins

    def origin_refusal(self, origin: str | None, host: str, scheme: str) -> str | None:
        """Why a request from a page of ``origin`` (its ``Origin`` header; None: none sent) to ``host`` (its
        ``Host``, already accepted) over ``scheme`` is refused, or None."""
        if origin is None or self.allows_origin(origin):
            return None
        parts, found = split_origin(origin), split_host(host)
        if parts is not None and found is not None:
            name, port = found
            if parts == (scheme, name, port if port is not None else default_port(scheme)):
                return None
        return f"a page of {origin[:80]!r} may not use this server"

    def fetch_refusal(
        self, site: str | None, mode: str | None, destination: str | None, origin: str | None
    ) -> str | None:
        """Why a request a browser says was sent by a page of ``site`` (``Sec-Fetch-Site``), in ``mode``
        (``Sec-Fetch-Mode``) for ``destination`` (``Sec-Fetch-Dest``), from ``origin`` (its ``Origin``, already
        accepted) is refused, or None."""
        if site in (None, "same-origin", "none"):  # (none: the user typed or pasted the address)
            return None
        if mode == "navigate" and destination == "document":
            return None
        if origin is not None and self.allows_origin(origin):
            return None
        return f"a page of another site may not use this server (Sec-Fetch-Site: {site[:40]!r})"

    def token_accepted(self, given: str | None) -> bool:
        """Whether ``given`` is the token, and not spent (always, with none)."""
        if self.token is None:
            return True
        return self.is_token(given) and not self.token_spent

    def is_token(self, given: str | None) -> bool:
        """Whether ``given`` is the token, spent or not."""
        return self.token is not None and given is not None and _same(given, self.token)

    @property
    def token_spent(self) -> bool:
        """Whether the token was exchanged already, and opens nothing more."""
        return self.exchange.done and not self.exchange.reusable

    def exchange_token(self, given: str | None) -> bool:
        """Whether a page asked for with ``given`` gets the session key: ``given`` is the token, not spent; the
        token is spent then (unless reusable). Nothing awaits in here: of two pages asked for at once, one gets it."""
        if self.session is None or not self.token_accepted(given):
            return False
        self.exchange.done = True
        return True

    def key_accepted(self, token: str | None, session: str | None) -> bool:
        """Whether a request with ``token`` and ``session`` (its address's) carries a key: the token or the session
        key (always, with no token)."""
        if self.token is None:
            return True
        return (token is not None and self.token_accepted(token)) or (
            session is not None and self.session is not None and _same(session, self.session)
        )

    def address(self, base: str) -> str:
        """The address to open, from the server's ``base`` (``http://127.0.0.1:8000``): with the token."""
        return f"{base}/" if self.token is None else f"{base}/?token={quote(self.token, safe='')}"


def _same(given: str, key: str) -> bool:
    # (an address's bytes that are no UTF-8 arrive as lone surrogates: they compare, unequal, rather than fail)
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), key.encode())


def target_refusal(target: str, host: str) -> str | None:
    """Why a request whose target (as sent: ``/path`` or, in absolute form, ``http://name/path``) names another
    host than its ``Host`` is refused, or None."""
    if target.startswith("/"):
        return None
    try:
        named = urlsplit(target).netloc
    except ValueError:
        named = None
    if named is not None and named.lower() == host.lower():
        return None
    return f"its target names another host ({(named or target)[:80]!r}) than its Host"  # (not its query: a token)


FULL_RETRY_SECONDS = 3
"""How often the full page asks again: a place freed, it opens the app by itself. (A reloaded tab's own former
app holds its place until the new page has arrived, so a reload at the cap gets the full page first.)"""


def page(title: str, *paragraphs: str, refresh: int | None = None) -> str:
    """A small page of its own (no script, nothing asked of any server but itself again, every ``refresh``
    seconds): the refusals and the full server."""
    body = "".join(f"<p>{html.escape(text)}</p>" for text in paragraphs)
    again = f'<meta http-equiv="refresh" content="{refresh}">' if refresh is not None else ""
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8">{again}<title>workbench: '
        f"{html.escape(title)}</title><style>body{{background:#0c181f;color:#e8eef2;font:16px/1.5 monospace;"
        f"max-width:44em;margin:3em auto;padding:0 1em}}</style></head><body><h1>{html.escape(title)}</h1>{body}"
        "</body></html>"
    )


def refused_page(reason: str, *, why: str = "token") -> str:
    """The 403 page: what was refused, and what to do (``why``: ``token``, ``host`` or ``origin``)."""
    what_to_do = {
        "token": "The address with the key is in the terminal where `workbench serve` runs, on its first line: "
        "http://127.0.0.1:PORT/?token=... Open it as it is; reloads and tabs opened at this server's address need "
        "no token again. Each start makes a new token (unless --token, --token-file or WORKBENCH_SERVE_TOKEN gives "
        "it): after the server was started again, the address it printed that time is the one that works.",
        "host": "The server answers only to its own names (localhost, 127.0.0.1, [::1], the address it listens on), "
        "so that a web site cannot reach it under a name of its own. If you reach it by this name on purpose "
        "(a name on your network, a proxy), start it with --allow-host NAME.",
        "origin": "Only the server's own page may use it: another page open in your browser may not. If that page "
        "is yours, start the server with --allow-origin ORIGIN.",
    }[why]
    return page("not allowed", f"This workbench server refused the request: {reason}.", what_to_do)


def full_page(max_tabs: int) -> str:
    tabs, close = ("1 tab", "Close it") if max_tabs == 1 else (f"{max_tabs} tabs", "Close one of them")
    return page(
        "the server is full",
        f"This workbench server has {tabs} open, each with its app: as many as it runs at once "
        f"(`workbench serve --max-tabs {max_tabs}`).",
        f"{close}, and this page opens the app by itself: it asks again every {FULL_RETRY_SECONDS} seconds. Nothing "
        "was started for this tab meanwhile.",
        refresh=FULL_RETRY_SECONDS,
    )


def refusal(status: int, body: str) -> web.Response:
    from aiohttp import web

    headers = {**SECURITY_HEADERS, "Cache-Control": "no-store"}
    if status == 503:
        headers["Retry-After"] = str(FULL_RETRY_SECONDS)
    return web.Response(status=status, text=body, content_type="text/html", headers=headers)


@dataclass
class Cap:
    """At most ``max_tabs`` apps at once: :meth:`take` a place before an app starts, :meth:`give_back` it after."""

    max_tabs: int = DEFAULT_MAX_TABS
    taken: int = 0

    @property
    def full(self) -> bool:
        return self.taken >= self.max_tabs

    def take(self) -> bool:
        """A place for one more app, or False when the server is full."""
        if self.full:
            return False
        self.taken += 1
        return True

    def give_back(self) -> None:
        self.taken -= 1


@dataclass
class RefusalLog:
    """Refusals said on the server's terminal: the first of each kind (host, origin, fetch, token) in full; then,
    while that kind keeps coming, one line at most every ``every`` seconds, with how many came meanwhile. A page
    that keeps trying can neither flood the terminal nor, by varying what it sends, make it fall silent."""

    say: Callable[[str], None]
    every: float = 60.0
    clock: Callable[[], float] = time.monotonic
    said_at: dict[str, float] = field(default_factory=dict)
    unsaid: dict[str, int] = field(default_factory=dict)

    def __call__(self, kind: str, line: str) -> None:
        now = self.clock()
        if kind in self.said_at and now - self.said_at[kind] < self.every:
            self.unsaid[kind] = self.unsaid.get(kind, 0) + 1
            return
        more = self.unsaid.pop(kind, 0)
        self.said_at[kind] = now
        self.say(line if not more else f"{line} (and {more} more refused so since the last such line)")


KEYED = "/ws"
"""The path that needs a key: the websocket, ``/ws?token=TOKEN`` or ``/ws/SESSION`` (the session key in the path,
since textual-serve's page adds its own query to the address it is given)."""


def shown_path(path: str) -> str:
    """``path`` as a refusal says it: a session key in it (``/ws/SESSION``) left out."""
    if path.startswith(f"{KEYED}/") and len(path) > len(KEYED) + 1:
        return f"{KEYED}/…"
    return path


def guard(access: Access, log: Callable[[str, str], None]) -> Callable:
    """The aiohttp middleware that answers only requests with a Host and Origin of the server's own, whose target
    names no other host; the websocket (:data:`KEYED`) needs a key, and a token in any address must be the right
    one."""
    from aiohttp import web

    @web.middleware
    async def checked(request: web.Request, handler: Callable) -> web.StreamResponse:
        hosts = request.headers.getall("Host", [])
        host = hosts[0] if len(hosts) == 1 else None
        local = request.transport.get_extra_info("sockname") if request.transport is not None else None
        # what the requester chose (its path) is shown as a Python string: a control character in it would
        # reach the server's terminal as an escape sequence
        # (a session key in the path is not written out: the server's terminal, or its log, is no place for it)
        refused = f"workbench: refused {request.method} {shown_path(request.path)[:80]!r}"
        reason: str | None
        if len(hosts) > 1:
            kind, reason = "host", "the request names more than one host"
        else:
            kind, reason = "host", access.host_refusal(host, local[0] if local else None)
        if reason is None:
            assert host is not None  # pragma: no mutate - host_refusal refuses a request that names none
            kind, reason = "host", target_refusal(request.raw_path, host)
        if reason is None:
            assert host is not None  # pragma: no mutate - (as above)
            headers = request.headers
            kind, reason = "origin", access.origin_refusal(headers.get("Origin"), host, request.scheme)
            if reason is None:
                kind, reason = (
                    "fetch",
                    access.fetch_refusal(
                        headers.get("Sec-Fetch-Site"),
                        headers.get("Sec-Fetch-Mode"),
                        headers.get("Sec-Fetch-Dest"),
                        headers.get("Origin"),
                    ),
                )
        if reason is not None:
            log(kind, f"{refused}: {reason}")
            return refusal(403, refused_page(reason, why="host" if kind == "host" else "origin"))
        token = request.query.get("token")
        session = request.path.removeprefix(KEYED + "/") if request.path.startswith(KEYED + "/") else None
        if token is not None and access.token is not None and not access.is_token(token):
            reason = "its token is not this server's"
        elif token is not None and access.token_spent and request.path == KEYED:
            reason = "its token has been exchanged already"
        elif (request.path == KEYED or session is not None) and not access.key_accepted(token, session):
            reason = "its address has no key" if token is None and session is None else "its key is not this server's"
        if reason is not None:
            log("token", f"{refused}: {reason}")
            return refusal(403, refused_page(reason))
        return await handler(request)

    return checked
