"""The page ``workbench serve`` sends a browser: textual-serve's, lighter to load.

On a machine without a GPU (this 2-core box: eight tabs loading at once), a page load is mostly the browser's CPU, and
textual-serve's page spends some of it on nothing the user sees:

* its script sets up two terminal renderers, xterm.js's WebGL one and then the canvas one, which takes over: the WebGL
  one (a context, its shaders and glyph atlas, in software without a GPU) is made for nothing, and is left out here;
* it fades the terminal and its start dialog in and out, draws a background picture, and asks Google for a font the
  terminal does not use when it cannot have it; this page shows the terminal at its first bytes, and asks nothing of
  any server but this one.

The page's markup and its terminal script otherwise are textual-serve's (MIT licensed): the script is read from the
installed textual-serve when the server starts, and sent compressed where the browser takes it so.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

from aiohttp import web

TEMPLATES = Path(__file__).parent
"""The folder of the page's template (``app_index.html``, the name textual-serve renders)."""
SCRIPT_PATH = "/page/terminal.js"
"""Where the page asks for its terminal script (the template names it)."""

_WEBGL_RENDERER = re.compile(r"this\.webglAddon=new [\w$]+\.WebglAddon,this\.terminal\.loadAddon\(this\.webglAddon\),")


def without_webgl_renderer(script: str) -> str:
    """textual-serve's terminal script without its load of xterm.js's WebGL renderer (the canvas renderer it loads
    next is the one that draws). A script that does not load it as textual-serve 1.x does is returned as it is: the
    page works either way, and a test says when the load is no longer found."""
    return _WEBGL_RENDERER.sub("", script, count=1)


def textual_serve_script() -> Path:
    """The terminal script of the installed textual-serve."""
    import textual_serve

    return Path(textual_serve.__file__).parent / "static" / "js" / "textual.js"


class TerminalScript:
    """The page's terminal script, made once when the server starts; an aiohttp handler (:meth:`handle`)."""

    def __init__(self, script: str) -> None:
        self.body = without_webgl_renderer(script).encode("utf-8")
        self.gzipped = gzip.compress(self.body, compresslevel=9, mtime=0)
        self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:32] + '"'

    @classmethod
    def read(cls) -> TerminalScript:
        """From textual-serve's script. :raises OSError: it cannot be read."""
        return cls(textual_serve_script().read_text(encoding="utf-8"))

    async def handle(self, request: web.Request) -> web.Response:
        # revalidated at every load, answered "not modified" while it is the same (a reload fetches nothing)
        headers = {"ETag": self.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        if self.etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        body = self.body
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            body, headers["Content-Encoding"] = self.gzipped, "gzip"
        return web.Response(body=body, content_type="application/javascript", charset="utf-8", headers=headers)
