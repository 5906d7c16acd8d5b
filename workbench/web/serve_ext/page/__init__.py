"""The page ``workbench serve`` sends a browser: textual-serve's, lighter to load.

On a machine without a GPU (eight tabs loading at once on a few cores), a page load is mostly the browser's CPU, and
textual-serve's page spends some of it on nothing the user sees:

* its script sets up two terminal renderers, xterm.js's WebGL one and then the canvas one, which takes over: the WebGL
  one (a context, its shaders and glyph atlas, in software without a GPU) is made for nothing, and is left out here;
* it fades the terminal and its start dialog in and out, draws a background picture, and asks Google for a font the
  terminal does not use when it cannot have it; this page shows the terminal at its first bytes, and asks nothing of
  any server but this one;
* the canvas renderer draws each glyph of a frame as it meets it: a glyph not yet in its atlas is put there
  (``putImageData``) and then copied to the screen (``drawImage``). Chromium copies a whole canvas that was read
  since its last write before it writes to it again, so each new glyph of a frame costs a copy of its 512×512 atlas
  page: a third of a tab's renderer CPU for the first screen's 226 glyphs (docs/serving.md). Here a
  frame's glyphs are all put in the atlas first, then all drawn, in the same order: the same pixels, without the
  copies.

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


_GLYPH_DRAWING = re.compile(
    r"(_drawChars\(e,t,i\)\{[^{}]*?,!o\.size\.x\|\|!o\.size\.y\)return;)(this\._ctx\.save\(\),this\._clipRow\(i\),)"
)
"""The canvas renderer's ``_drawChars``, cut where the cell's glyph is in the atlas and its drawing begins. The
drawing reads only the glyph ``o``, the cell's column and row ``t`` and ``i``, its code ``r`` and its width ``n``."""
_DRAWING_DEFERRED = (
    r"\1if(this._glyphsToDraw){this._glyphsToDraw.push(o,t,i,r,n);return}this._drawGlyph(o,t,i,r,n)}"
    r"_drawGlyph(o,t,i,r,n){\2"
)
_FOREGROUND = "_drawForeground(e,t){this._forEachCell(e,t,((e,t,i)=>this._drawChars(e,t,i)))}"
_FOREGROUND_IN_TWO_PASSES = (
    "_drawForeground(e,t){const p=this._glyphsToDraw,q=this._glyphsToDraw=[];"
    "try{this._forEachCell(e,t,((e,t,i)=>this._drawChars(e,t,i)))}"
    "finally{this._glyphsToDraw=p;for(let k=0;k<q.length;k+=5)this._drawGlyph(q[k],q[k+1],q[k+2],q[k+3],q[k+4])}}"
)
_CELL_NAMES = re.compile(r"(?<![\w$.])[es](?![\w$])")
"""The cell (``e``) and its characters (``s``) in ``_drawChars``: the drawing moved out of it must not name them."""


def with_glyphs_drawn_after_the_atlas(script: str) -> str:
    """textual-serve's terminal script with the canvas renderer's foreground drawn in two passes: every glyph of
    the frame put in the atlas, then every glyph drawn, in the order the renderer meets them. A script in which the
    two places are not found as in textual-serve 1.x, or whose drawing reads more of the cell than the glyph and
    the cell's place, code and width, is returned as it is (slower, as correct), and a test says so."""
    found = list(_GLYPH_DRAWING.finditer(script))
    if _FOREGROUND not in script or len(found) != 1:
        return script
    cut = found[0]
    drawing = script[cut.end(1) : script.index("}", cut.end(1))]  # to the end of _drawChars (no braces in it)
    if _CELL_NAMES.search(drawing):
        return script
    script = script[: cut.start()] + cut.expand(_DRAWING_DEFERRED) + script[cut.end() :]
    return script.replace(_FOREGROUND, _FOREGROUND_IN_TWO_PASSES, 1)


def lighter_script(script: str) -> str:
    """The page's terminal script, made from textual-serve's (see the module's docstring)."""
    return with_glyphs_drawn_after_the_atlas(without_webgl_renderer(script))


def textual_serve_script() -> Path:
    """The terminal script of the installed textual-serve."""
    import textual_serve

    return Path(textual_serve.__file__).parent / "static" / "js" / "textual.js"


class TerminalScript:
    """The page's terminal script, made once when the server starts; an aiohttp handler (:meth:`handle`)."""

    def __init__(self, script: str) -> None:
        self.body = lighter_script(script).encode("utf-8")
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
