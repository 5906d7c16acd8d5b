"""A tab's downloads (a screenshot, an exported study), read whole from its app once and kept a while, so that every
request for one gets the whole file, or a clear failure.

textual-serve's ``DownloadManager`` hands a download's chunks to the one request reading it, as the app gives them.
A request the browser drops and makes again (Chromium does, with an attachment opened in a new tab; so does a
download's "retry") got what was left: nothing, the app having closed the file, and only after the chunk timeout.
An app slow to hand over a chunk (four seconds, on a busy machine) failed the download.

Here a task of its own reads the file from the app, whatever becomes of the requests; each request waits for the
whole file and gets it with its length. A file the app stops giving before its end (a chunk not given within
:data:`CHUNK_SECONDS`, the app gone) is answered with an error page that says so, never with part of it. Either
is kept :data:`KEEP_SECONDS` for the requests that come again (the file, or the page), the whole files kept
together within :data:`KEPT_BYTES` but for the newest.

Implements what textual-serve 1.1's ``Server`` and ``AppService`` call on their ``download_manager``
(``create_download``, ``chunk_received``, ``cancel_app_downloads``, ``get_download_metadata``), and answers a
download's request itself (:meth:`KeptDownloads.respond`, in place of its server's ``handle_download``) with the
headers that handler sets.

May import aiohttp and the standard library.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aiohttp import web

CHUNK_SECONDS = 30.0
"""How long the app has to hand over each chunk of a file before the download is taken as failed. An app answers
well within this however busy the machine (eight tabs starting, a test suite beside it); only an app gone
mid-download waits it out."""
CHUNK_BYTES = 64 * 1024
"""What each request to the app asks for (textual-serve's own size)."""
KEEP_SECONDS = 600.0
"""How long a whole file is kept after it was read, for the browser to ask for it again."""
KEPT_BYTES = 64 * 1024 * 1024
"""The most that whole files kept together may hold; the oldest go first (the newest is kept whatever its size)."""


class DownloadCut(Exception):
    """The app did not hand the whole file over; the reason, in words for the browser's page."""


@dataclass(eq=False)
class Download:
    """One file an app offers, with the fields textual-serve's ``Download`` has (its server reads them)."""

    app_service: Any
    delivery_key: str
    file_name: str
    open_method: str
    mime_type: str
    encoding: str | None = None
    name: str | None = None
    incoming: asyncio.Queue[bytes | None] = field(default_factory=asyncio.Queue)
    reading: asyncio.Task[bytes] | None = None
    """The task reading the file from the app, started by the first request; its result is the whole file."""
    body: bytes | None = None
    """The whole file, once read."""
    read_at: float = 0.0
    """When its reading ended (``time.monotonic``), whole or not; 0 while it has not: kept from then on."""

    @property
    def content_type(self) -> str:
        return self.mime_type + (f"; charset={self.encoding}" if self.encoding else "")

    @property
    def content_disposition(self) -> str:
        # textual-serve's words, which the server's headers hook writes as RFC 6266 does
        return f"{'inline' if self.open_method == 'browser' else 'attachment'}; filename={self.file_name}"


class KeptDownloads:
    """Every download of a server's tabs, read from their apps once (see the module)."""

    def __init__(
        self, *, chunk_seconds: float = CHUNK_SECONDS, keep_seconds: float = KEEP_SECONDS, kept_bytes: int = KEPT_BYTES
    ) -> None:
        self.chunk_seconds = chunk_seconds
        self.keep_seconds = keep_seconds
        self.kept_bytes = kept_bytes
        self._downloads: dict[str, Download] = {}

    # what textual-serve's AppService calls

    async def create_download(
        self,
        *,
        app_service: Any,
        delivery_key: str,
        file_name: str,
        open_method: str,
        mime_type: str,
        encoding: str | None = None,
        name: str | None = None,
    ) -> None:
        self._let_go()
        self._downloads[delivery_key] = Download(
            app_service, delivery_key, file_name, open_method, mime_type, encoding or None, name
        )

    async def chunk_received(self, delivery_key: str, chunk: bytes | str) -> None:
        download = self._downloads.get(delivery_key)
        if download is None or download.reading is None or download.reading.done():
            return  # a download cut or let go meanwhile, or a chunk nobody asked for
        if isinstance(chunk, str):
            chunk = chunk.encode(download.encoding or "utf-8")
        download.incoming.put_nowait(chunk)

    async def cancel_app_downloads(self, app_service_id: str) -> None:
        """The app is ending: what it has not handed over will not come. Files read whole stay (a request may
        come again after the tab closed); those never asked for are let go."""
        for key, download in tuple(self._downloads.items()):
            if download.app_service.app_service_id != app_service_id or download.read_at:
                continue
            if download.reading is None:
                del self._downloads[key]
            else:
                download.incoming.put_nowait(None)

    # what textual-serve's Server calls

    async def get_download_metadata(self, delivery_key: str) -> Download:
        """:raises KeyError: no such download (or let go)."""
        self._let_go()
        return self._downloads[delivery_key]

    # the fast path's own

    async def whole_file(self, download: Download) -> bytes:
        """The file, read from the app by the first request that asks (later ones wait for the same reading).

        :raises DownloadCut: the app did not hand it all over."""
        if download.reading is None:
            download.reading = asyncio.get_running_loop().create_task(self._read(download))
            # (a cut reading whose requests were all dropped is not an error to log)
            download.reading.add_done_callback(lambda task: task.cancelled() or task.exception())
        # a request dropped meanwhile leaves the reading to go on, for the request that comes again
        return await asyncio.shield(download.reading)

    async def respond(self, request: web.Request, download: Download) -> web.StreamResponse:
        """The answer to a request for ``download``: the whole file with its length, or a page saying why not."""
        from aiohttp import web

        try:
            body = await self.whole_file(download)
        except DownloadCut as cut:
            return web.Response(status=504, text=f"The file was not downloaded: {cut}", content_type="text/plain")
        return web.Response(
            body=body,
            headers={"Content-Type": download.content_type, "Content-Disposition": download.content_disposition},
        )

    async def _read(self, download: Download) -> bytes:
        chunks: list[bytes] = []
        try:
            while True:
                try:
                    # the request to the app too: an app that stops reading its input fills the pipe
                    chunk = await asyncio.wait_for(self._next_chunk(download), self.chunk_seconds)
                except TimeoutError:
                    seconds = f"{self.chunk_seconds:g} seconds"
                    raise self._failed(download, f"the app handed nothing over for {seconds}") from None
                if not chunk:  # the app's end of the file
                    download.body = b"".join(chunks)
                    self._ended(download)
                    return download.body
                chunks.append(chunk)
        except DownloadCut:
            raise
        except BaseException:  # a bug, or the server stopping: the download ends with it, and no retry hangs on it
            self._ended(download)
            raise

    async def _next_chunk(self, download: Download) -> bytes:
        """:raises DownloadCut: the app has ended."""
        request = {"type": "deliver_chunk_request", "key": download.delivery_key, "size": CHUNK_BYTES}
        if not await download.app_service.send_meta({**request, "name": download.name}):
            raise self._failed(download, "the app has ended")
        chunk = await download.incoming.get()
        if chunk is None:
            raise self._failed(download, "the app ended before handing the whole file over")
        return chunk

    def _ended(self, download: Download) -> None:
        """The reading of ``download`` is over: it is kept from now (a request made again gets the file, or the
        same failure), and older ones are let go."""
        download.read_at = time.monotonic()
        self._let_go()

    def _failed(self, download: Download, reason: str) -> DownloadCut:
        """The reading of ``download`` ended without the whole file; the exception that says why, to raise."""
        self._ended(download)
        return DownloadCut(f"{download.file_name}: {reason}.")

    def _let_go(self) -> None:
        """Downloads whose reading ended over :attr:`keep_seconds` ago, then the oldest whole files while all
        together hold over :attr:`kept_bytes` (the newest stays whatever its size)."""
        now = time.monotonic()
        for key, download in tuple(self._downloads.items()):
            if download.read_at and now - download.read_at > self.keep_seconds:
                del self._downloads[key]
        kept = sorted((d for d in self._downloads.values() if d.body is not None), key=lambda d: d.read_at)
        held = sum(len(download.body or b"") for download in kept)
        for download in kept[:-1]:
            if held <= self.kept_bytes:
                break
            del self._downloads[download.delivery_key]
            held -= len(download.body or b"")
