"""`workbench serve`'s downloads (workbench.web.serve_ext.downloads): a file read whole from its app once, for every
request that asks for it, again too; one the app does not hand over whole is an error page, never part of a file.
Against an app that hands its chunks over as Textual's web driver does, and beside textual-serve's own manager."""

import asyncio
import io
from types import SimpleNamespace

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from workbench.web.headers import secure_headers
from workbench.web.serve_ext.downloads import CHUNK_BYTES, DownloadCut, KeptDownloads

SVG = b"<svg>" + bytes(range(32, 127)) * 3000 + b"</svg>"  # three chunks and a bit
KEY = "0123456789abcdef"


class DrivenApp:
    """A tab's app as textual-serve's AppService sees it, handing files over as Textual's web driver does: a chunk
    for each request, an empty one at the end, after which the file is closed and a request for it is answered with
    nothing. ``delay``: seconds before each chunk; ``stall_after``: chunks handed over before it answers no more;
    ``gone``: its input closed (a request cannot be sent)."""

    def __init__(self, manager, *, delay=0.0, stall_after=None, gone=False) -> None:
        self.app_service_id = "app-1"
        self.manager, self.delay, self.stall_after, self.gone = manager, delay, stall_after, gone
        self.files: dict = {}
        self.requests = 0
        self.handed = 0

    async def send_meta(self, meta: dict) -> bool:
        if self.gone:
            return False
        assert meta["type"] == "deliver_chunk_request" and meta["size"] == CHUNK_BYTES
        self.requests += 1
        file = self.files.get(meta["key"])
        if file is None or file.closed or (self.stall_after is not None and self.handed >= self.stall_after):
            return True  # (Textual logs an unknown key, and sends nothing)
        chunk = file.read(meta["size"])
        if not chunk:
            file.close()
        self.handed += 1
        asyncio.get_running_loop().call_later(
            self.delay, lambda: asyncio.ensure_future(self.manager.chunk_received(meta["key"], chunk))
        )
        return True

    async def offer(self, key: str = KEY, body: bytes | str = SVG, **options) -> None:
        """The app's ``deliver_file_start``, as textual-serve's AppService passes it on."""
        self.files[key] = io.StringIO(body) if isinstance(body, str) else io.BytesIO(body)
        fields = dict(file_name="study 1.svg", open_method="download", mime_type="image/svg+xml", encoding=None)
        await self.manager.create_download(app_service=self, delivery_key=key, **{**fields, **options})


async def offered(body: bytes | str = SVG, manager=None, encoding=None, **options) -> tuple[KeptDownloads, DrivenApp]:
    manager = manager or KeptDownloads()
    app = DrivenApp(manager, **options)
    await app.offer(KEY, body, encoding=encoding)
    return manager, app


async def whole(manager: KeptDownloads, key: str = KEY) -> bytes:
    return await manager.whole_file(await manager.get_download_metadata(key))


async def test_a_file_of_several_chunks_is_read_whole_and_asked_for_again_it_comes_whole_without_the_app():
    manager, app = await offered()
    assert await whole(manager) == SVG
    assert app.requests == len(SVG) // CHUNK_BYTES + 2  # each chunk and the empty end
    # textual-serve's answered the request made again with nothing (the app has closed the file), 4 s later
    assert await whole(manager) == SVG and app.requests == len(SVG) // CHUNK_BYTES + 2


async def test_requests_at_once_share_one_reading():
    manager, app = await offered(delay=0.01)
    assert await asyncio.gather(*(whole(manager) for _ in range(3))) == [SVG] * 3
    assert app.requests == len(SVG) // CHUNK_BYTES + 2


async def test_a_request_dropped_mid_file_leaves_the_reading_to_go_on_for_the_next():
    manager, app = await offered(delay=0.02)
    dropped = asyncio.ensure_future(whole(manager))
    await asyncio.sleep(0.03)  # a chunk or two in
    dropped.cancel()
    assert await whole(manager) == SVG  # (textual-serve's: the file's rest only, from where the first left it)


async def test_a_slow_app_s_file_comes_whole_where_textual_serve_s_manager_failed_it(monkeypatch):
    import textual_serve.download_manager

    monkeypatch.setattr(textual_serve.download_manager, "DOWNLOAD_TIMEOUT", 0.05)
    stock = textual_serve.download_manager.DownloadManager()
    _, app = await offered(manager=stock, delay=0.1)
    try:
        got = b"".join([chunk async for chunk in stock.download(KEY)])
    except ValueError:  # (textual-serve 1.1.3's own error, as its wait runs out: the browser's request fails)
        got = None
    assert got != SVG

    manager, app = await offered(manager=KeptDownloads(chunk_seconds=1.0), delay=0.1)
    assert await whole(manager) == SVG


@pytest.mark.parametrize(
    "options, reason",
    [
        ({"stall_after": 2}, "study 1.svg: the app handed nothing over for 0.2 seconds."),
        ({"gone": True}, "study 1.svg: the app has ended."),
    ],
    ids=["an app that stops answering", "an app whose input is closed"],
)
async def test_a_file_the_app_does_not_hand_over_whole_is_a_failure_that_says_why_and_is_let_go(options, reason):
    manager, app = await offered(manager=KeptDownloads(chunk_seconds=0.2), **options)
    for _ in range(2):  # the request waiting for it, and one made again: the same words
        with pytest.raises(DownloadCut) as cut:
            await whole(manager)
        assert str(cut.value) == reason
    manager.keep_seconds = -1  # (every download ended is older than that)
    with pytest.raises(KeyError):
        await manager.get_download_metadata(KEY)


class StuckApp(DrivenApp):
    """An app that stopped reading its input (the pipe full: a request to it never goes), or whose service fails
    with an error of its own."""

    def __init__(self, manager, error=None) -> None:
        super().__init__(manager)
        self.error = error

    async def send_meta(self, meta: dict) -> bool:
        if self.error is not None:
            raise self.error
        await asyncio.Event().wait()
        return True


async def test_an_app_whose_input_is_full_is_a_failure_in_time_not_a_request_that_hangs():
    manager = KeptDownloads(chunk_seconds=0.2)
    await StuckApp(manager).offer()
    with pytest.raises(DownloadCut, match="the app handed nothing over for 0.2 seconds"):
        await asyncio.wait_for(whole(manager), 5)


async def test_a_chunk_that_comes_after_the_wait_is_dropped_and_changes_nothing():
    manager, app = await offered(manager=KeptDownloads(chunk_seconds=0.1), delay=0.3)
    with pytest.raises(DownloadCut, match="for 0.1 seconds"):
        await whole(manager)
    await asyncio.sleep(0.4)  # the late chunk arrives
    download = await manager.get_download_metadata(KEY)
    assert download.incoming.empty() and download.body is None
    with pytest.raises(DownloadCut, match="for 0.1 seconds"):
        await whole(manager)


async def test_an_error_of_the_server_s_own_ends_the_download_as_the_bug_it_is():
    """Not taken for the app's failure (it is the server's bug, and shows as one); a request made again gets the
    same error at once rather than a reading that never ends, and it is let go as any ended download."""
    manager = KeptDownloads()
    await StuckApp(manager, AssertionError("the service has no input")).offer()
    for _ in range(2):
        with pytest.raises(AssertionError, match="the service has no input"):
            await asyncio.wait_for(whole(manager), 5)
    manager.keep_seconds = -1
    with pytest.raises(KeyError):
        await manager.get_download_metadata(KEY)


async def test_an_app_ending_mid_file_cuts_its_reading_lets_go_of_what_it_offered_and_keeps_what_was_read():
    manager = KeptDownloads()
    app = DrivenApp(manager, delay=0.05)
    for key in ("read", "reading", "never asked for"):
        await app.offer(key)
    assert await whole(manager, "read") == SVG
    reading = asyncio.ensure_future(whole(manager, "reading"))
    await asyncio.sleep(0.01)
    await manager.cancel_app_downloads("app-2")  # another tab's end touches none of them
    await manager.cancel_app_downloads("app-1")  # this one's (textual-serve's AppService.stop)
    with pytest.raises(DownloadCut, match="the app ended before handing the whole file over"):
        await reading
    assert await whole(manager, "read") == SVG  # a request may come again after the tab closed
    with pytest.raises(DownloadCut, match="the app ended before handing the whole file over"):
        await whole(manager, "reading")  # and says why again
    with pytest.raises(KeyError):  # it can never be read
        await manager.get_download_metadata("never asked for")


async def test_text_is_written_in_its_encoding():
    manager, app = await offered("«é» " * 40_000, encoding="utf-8")
    assert await whole(manager) == ("«é» " * 40_000).encode()


async def test_kept_files_are_let_go_after_a_while_and_the_oldest_first_beyond_the_bytes_kept(monkeypatch):
    import workbench.web.serve_ext.downloads as downloads

    now = [1000.0]
    monkeypatch.setattr(downloads.time, "monotonic", lambda: now[0])
    manager = KeptDownloads(keep_seconds=60, kept_bytes=2 * len(SVG))
    app = DrivenApp(manager)
    for key in ("first", "second", "third"):
        await app.offer(key)
        assert await whole(manager, key) == SVG
        now[0] += 1
    with pytest.raises(KeyError):  # three over the bytes kept: the oldest went
        await manager.get_download_metadata("first")
    assert await whole(manager, "second") == SVG
    manager.kept_bytes = 1  # the newest stays whatever its size
    await app.offer("fourth")
    assert [key for key in ("second", "third", "fourth") if key in manager._downloads] == ["third", "fourth"]
    now[0] += 61
    await app.offer("fifth")
    # one never asked for waits for the browser until its app ends
    assert [key for key in ("third", "fourth", "fifth") if key in manager._downloads] == ["fourth", "fifth"]


async def _client(manager, stock) -> TestClient:
    """A server answering /ours/{key} as the fast path does and /stock/{key} with textual-serve's own handler,
    with the headers every answer of `workbench serve` has."""
    from textual_serve.server import Server

    async def ours(request: web.Request) -> web.StreamResponse:
        return await manager.respond(request, await manager.get_download_metadata(request.match_info["key"]))

    async def theirs(request: web.Request) -> web.StreamResponse:
        return await Server.handle_download(SimpleNamespace(download_manager=stock), request)

    app = web.Application()
    app.router.add_get("/ours/{key}", ours)
    app.router.add_get("/stock/{key}", theirs)
    app.on_response_prepare.append(secure_headers)
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    return client


@pytest.mark.parametrize(
    "body, options",
    [(SVG, {}), ("# study\n«é»\n" * 9000, {"mime_type": "text/plain", "encoding": "utf-8", "open_method": "browser"})],
    ids=["a screenshot", "a text shown in the browser"],
)
async def test_the_answer_is_textual_serve_s_with_its_length_and_asked_again_the_same(body, options):
    import textual_serve.download_manager

    manager, stock = KeptDownloads(), textual_serve.download_manager.DownloadManager()
    for keeper in (manager, stock):
        await DrivenApp(keeper).offer(KEY, body, **options)
    client = await _client(manager, stock)
    try:
        theirs = await client.get(f"/stock/{KEY}")
        for _ in range(2):
            ours = await client.get(f"/ours/{KEY}")
            assert ours.status == theirs.status == 200
            assert await ours.read() == await theirs.read() == (body if isinstance(body, bytes) else body.encode())
            for name in ("Content-Type", "Content-Disposition", "Cache-Control", "X-Content-Type-Options"):
                assert ours.headers[name] == theirs.headers[name], name
            assert int(ours.headers["Content-Length"]) == len(await ours.read())
    finally:
        await client.close()


async def test_an_answer_the_app_did_not_hand_over_whole_is_an_error_page_not_part_of_a_file():
    manager, app = await offered(manager=KeptDownloads(chunk_seconds=0.2), stall_after=1)
    client = await _client(manager, None)
    try:
        answer = await client.get(f"/ours/{KEY}")
        assert answer.status == 504 and "Content-Disposition" not in answer.headers
        assert await answer.text() == (
            "The file was not downloaded: study 1.svg: the app handed nothing over for 0.2 seconds."
        )
    finally:
        await client.close()


async def test_a_browser_that_drops_its_request_and_asks_again_gets_the_whole_file():
    manager, app = await offered(delay=0.05)
    client = await _client(manager, None)
    try:
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(client.get(f"/ours/{KEY}"), 0.08)
        again = await client.get(f"/ours/{KEY}")
        assert again.status == 200 and await again.read() == SVG
    finally:
        await client.close()


def test_the_server_s_downloads_are_kept_on_the_fast_path_and_textual_serve_s_own_on_stock(monkeypatch):
    from workbench.web import serve_ext

    assert isinstance(serve_ext.kept_downloads(), KeptDownloads) == serve_ext.MODE.fast
    monkeypatch.setattr(serve_ext, "MODE", serve_ext.Mode(False, "stock, for the test"))
    assert serve_ext.kept_downloads() is None
