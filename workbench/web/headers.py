"""The headers of every answer of ``workbench serve``: the page, its static files, the downloads, the errors and
refusals, the websocket's upgrade.

Pure, but for :func:`secure_headers`, aiohttp's hook that sets them as each answer goes out. Imports only the
standard library (and aiohttp's names for its types).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from aiohttp import web

SECURITY_HEADERS = {
    # the page is never shown inside another site's page (which could lay its own clicks over it)
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    # the address carries the token: it is never sent on as a referrer
    "Referrer-Policy": "no-referrer",
    # a file is what its type says, never sniffed into a script or a page
    "X-Content-Type-Options": "nosniff",
}


def cache_control(path: str) -> str:
    """What a browser may keep of the answer to ``path``: the files every page loads alike (textual-serve's static
    files) are asked again at each use, so that no page can find them in the cache once the server is gone;
    anything else is never stored."""
    return "no-cache" if path.startswith("/static/") else "no-store"


def content_disposition(value: str) -> str:
    """textual-serve's ``Content-Disposition`` (``attachment; filename=NAME``, unquoted) as RFC 6266 writes it: an
    ASCII ``filename`` for old browsers and ``filename*``, the name in UTF-8; anything else as it is."""
    kind, separator, name = value.partition("; filename=")
    if not separator or kind not in ("attachment", "inline"):
        return value
    plain = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name)
    return f"{kind}; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


async def secure_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer's headers, set as it goes out (aiohttp's ``on_response_prepare``: pages, static files,
    downloads, errors, the websocket's upgrade alike)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("Cache-Control", cache_control(request.path))
    if "Content-Disposition" in response.headers:
        response.headers["Content-Disposition"] = content_disposition(response.headers["Content-Disposition"])
