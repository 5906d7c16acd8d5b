"""`workbench serve`: the app served to browser tabs, driven here as a browser page drives it, over the
page's websocket (keys in, the terminal's output back, read with a terminal emulator); a port in use or a bad
host is one line and exit 2; a closed tab ends its app, and its unsaved study is offered to the next tab."""

import asyncio
import contextlib
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pyte
import pytest

from workbench.bench.browser import all_panes, children, descendants, tab_apps, websocket_address
from workbench.cli import main
from workbench.web import serve_ext
from workbench.web.serve_ext.warm_start import MODULE as WARM_MODULE

from .child_process import PACKAGE_ROOT

fast_path_only = pytest.mark.skipif(not serve_ext.MODE.fast, reason=f"the fast path's own; {serve_ext.MODE}")


def _apps(pid: int) -> set[int]:
    return set(tab_apps(pid))


def base_of(url: str) -> str:
    """The server's address without the path and token of the printed one."""
    return url.split("/?token=", 1)[0]


def browser_session() -> aiohttp.ClientSession:
    """A session that keeps cookies as a browser does (the server sets none: a test would see one it set)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


def _command(pid: int) -> str:
    with open(f"/proc/{pid}/cmdline", "rb") as command:
        return command.read().replace(b"\0", b" ").decode()


@contextlib.contextmanager
def serving_again(tmp_path, *options: str, reach: str = "this machine only", module: str = "workbench"):
    """`workbench serve` on a free port, on the library and data folders in ``tmp_path``; (process, the address it
    printed, with its token). The first line says the server is reached as ``reach`` says. (``module``: another
    that runs the server, ``tests.serve_stubborn``.)"""
    # the server and its apps import the workbench the tests import (mutmut's copy, under mutmut)
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHONPATH": PACKAGE_ROOT,
    }
    env.pop("COLUMNS", None), env.pop("LINES", None)
    cwd = (
        PACKAGE_ROOT if "MUTANT_UNDER_TEST" in os.environ else tmp_path
    )  # (mutmut's trampolines read their settings there)
    process = subprocess.Popen(
        [sys.executable, "-m", module, "serve", "--port", "0", "--db", str(tmp_path / "library.sqlite3"), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
    )
    try:
        first = process.stdout.readline()
        match = re.search(rf"serving the app at (http://127\.0\.0\.1:\d+/(?:\?token=\S+)?) \({re.escape(reach)}", first)
        assert match, (first, process.stderr.read() if process.poll() is not None else "")
        yield process, match.group(1)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.fixture
def server(tmp_path):
    """`workbench serve` on a free port, its own library and data folders; (process, page address)."""
    with serving_again(tmp_path) as started:
        yield started


def page_key(url: str, html: str) -> str:
    """The session key the page at ``url`` was given in exchange for its token."""
    (key,) = re.findall(rf'"{base_of(url).replace("http", "ws")}/ws/([\w-]+)"', html)
    return key


def keyed_websocket(url: str, key: str | None, columns: int, rows: int) -> str:
    """The websocket of a tab of ``columns`` × ``rows``: with the session ``key``, else the printed address's token."""
    if key is None:
        return websocket_address(url, columns, rows)
    return f"{base_of(url).replace('http', 'ws')}/ws/{key}?width={columns}&height={rows}"


class Tab:
    """One browser tab's connection: what the page's script does (size, keys), and the screen it would draw."""

    def __init__(
        self, session: aiohttp.ClientSession, url: str, columns: int = 120, rows: int = 36, key: str | None = None
    ) -> None:
        """A tab of the server at ``url``: with the session ``key`` a page was given, as a page opens it, else with
        the token of the printed address (as a program may, until a page has spent it)."""
        self.session, self.url, self.key = session, url, key
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.size = (columns, rows)
        self.said: list = []  # the server's words to the page (its instance, a download's key)

    async def __aenter__(self) -> "Tab":
        columns, rows = self.size
        self.socket = await self.session.ws_connect(keyed_websocket(self.url, self.key, columns, rows))
        return self

    async def __aexit__(self, *exc) -> None:
        await self.socket.close()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, condition, what: str, seconds: float = 60) -> None:
        """Read what the app sends until ``condition(text)`` holds (the bound turns a hang into a failure)."""
        deadline = time.monotonic() + seconds
        while not condition(self.text()):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never: {what}\n{self.text()}")
            try:
                message = await self.socket.receive(timeout=min(left, 1.0))
            except TimeoutError:
                continue
            if message.type == aiohttp.WSMsgType.BINARY:
                self.stream.feed(message.data)
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.said.append(json.loads(message.data))
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                raise AssertionError(f"the tab's connection closed while waiting for {what}")

    async def press(self, *keys: str) -> None:
        for key in keys:
            await self.socket.send_str(json.dumps(["stdin", key]))

    async def resize(self, columns: int, rows: int) -> None:
        self.screen.resize(rows, columns)
        await self.socket.send_str(json.dumps(["resize", {"width": columns, "height": rows}]))


@fast_path_only
async def test_a_screenshot_s_download_asked_for_again_comes_whole_again(server):
    """The page opens a download's address in a new tab; Chromium, seeing an attachment there, at times drops the
    request and makes it again. textual-serve's answer to the second was nothing, after its chunk timeout."""
    process, url = server
    async with browser_session() as session, Tab(session, url) as tab:
        await tab.until(all_panes, "the four panes")
        await tab.press("5", "1", "9")
        await tab.until(lambda text: "O to move: draw in 6" in text, "the position after 5 1 9")
        await tab.press("\x1b[24~")  # f12
        await tab.until(lambda text: any(said[0] == "deliver_file_start" for said in tab.said), "a download offered")
        words = dict((said[0], said[1]) for said in tab.said)
        address = f"{base_of(url)}/download/{words['deliver_file_start']}?instance={words['instance_id']}"
        answers = []
        for _ in range(2):
            async with session.get(address) as answer:
                body = await answer.read()
                answers.append((answer.status, answer.headers.get("Content-Length"), len(body), body[:4]))
                assert answer.headers["Content-Disposition"].startswith("attachment; ")
        whole = (200, str(len(body)), len(body), b"<svg")
        assert answers == [whole, whole] and b"draw" in body  # (with its length: the browser knows a file cut short)
        async with session.get(address.replace("instance=", "instance=0")) as answer:
            assert answer.status == 404  # only its own tab's


async def test_tabs_share_the_library_and_a_closed_tab_ends_its_app_and_its_study_is_offered_to_the_next(server):
    process, url = server
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as page:
            assert page.status == 200
            html = await page.text()
            assert (
                f"{base_of(url).replace('http', 'ws')}/ws" in html
            )  # the page's websocket is where the browser reached it
            if serve_ext.MODE.fast:  # (textual-serve's own page keeps no key: a reload needs the address again)
                assert re.search(r'data-session-mark="[0-9a-f]{16}"', html)  # this start's, for a stale key
        key = page_key(url, html)
        async with Tab(session, url, key=key) as tab, Tab(session, url, key=key) as other:
            await tab.until(all_panes, "the four panes")
            await other.until(all_panes, "the four panes in the other tab")
            assert len(_apps(process.pid)) == 2  # an app each, forked from the one warm process (fast path)
            if serve_ext.MODE.fast:
                (warm,) = children(process.pid)
                assert WARM_MODULE in _command(warm) and _apps(process.pid) == set(children(warm))
            else:  # textual-serve's own: each app started as a process of the server's
                assert not any(WARM_MODULE in _command(child) for child in children(process.pid))
            await tab.press("5", "1", "9")
            await tab.until(lambda text: "O to move: draw in 6" in text, "the position after 5 1 9")
            assert all(re.search(rf"│\s+{cell} loss\s", tab.text()) for cell in (2, 4, 6, 8))  # the edges lose
            # saved in one tab, listed in the other: one library
            await tab.press("\x13")  # ctrl+s: a name for it
            await tab.until(lambda text: "Save" in text and "Cancel" in text, "the save dialog")
            await tab.press(*"corner opening", "\r")
            # the title, not the toast: a toast lasts 2 s, and a loaded machine has missed it
            await tab.until(
                lambda text: (
                    text.splitlines()[0].split() == ["○", "workbench", "—", "classic", "·", "corner", "opening"]
                ),
                "saved",
            )
            await other.press("\x0f")  # ctrl+o
            await other.until(lambda text: "corner opening" in text, "the other tab's library lists it")
            await tab.press("3")  # an unsaved move, then the tab is closed (a reload closes it too)
            await tab.until(lambda text: "ply 4" in text, "the fourth move")
            await tab.resize(80, 24)
            # two columns at 80×24: the history beside the symmetry pane (at 120×36 it was under the board alone)
            assert not any("History" in line and "Symmetry" in line for line in tab.text().splitlines())
            await tab.until(
                lambda text: any("History" in line and "Symmetry" in line for line in text.splitlines()),
                "the layout at 80×24",
            )
        for _ in range(100):  # the closed tabs' apps end
            if not _apps(process.pid):
                break
            await asyncio.sleep(0.1)
        assert not _apps(process.pid)
        async with Tab(session, url, key=key) as tab:
            await tab.until(lambda text: "Restore the unsaved study" in text, "the unsaved study offered back")
            assert "(corner opening, 4" in tab.text() and "moves)" in tab.text()  # the dialog wraps it there
            # stopped while a tab is open: its app ends too, nothing is left running
            running = descendants(process.pid)
            # the warm process and the tab's app (stock: the app alone, the shell's exec)
            assert len(running) >= (2 if serve_ext.MODE.fast else 1)
            process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(process.wait, 30) == 0
    assert "stopped serving" in process.stdout.read()
    for _ in range(100):
        if not any(os.path.exists(f"/proc/{pid}") for pid in running):
            break
        await asyncio.sleep(0.1)
    assert not [pid for pid in running if os.path.exists(f"/proc/{pid}")]


@fast_path_only
async def test_with_its_warm_process_gone_the_server_starts_each_tab_s_app_the_usual_way(server):
    process, url = server
    (warm,) = children(process.pid)
    os.kill(warm, signal.SIGKILL)
    async with aiohttp.ClientSession() as session, Tab(session, url) as tab:
        await tab.until(all_panes, "the four panes")
        await tab.press("5")
        await tab.until(lambda text: "X 5" in text or "ply 1" in text, "the move played")
        (app,) = _apps(process.pid)
        assert "-m workbench --db" in _command(app) and WARM_MODULE not in _command(app)


def _until_kept_for_recovery(library: Path, seconds: float = 60) -> None:
    """Wait until the library at ``library`` keeps an app session's study for recovery (a bound: a failure)."""
    import sqlite3

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with contextlib.closing(sqlite3.connect(f"file:{library}?mode=ro", uri=True, timeout=1)) as db:
                if db.execute("SELECT count(*) FROM recovery").fetchone()[0]:
                    return
        except sqlite3.Error:  # not made yet, or being written
            pass
        time.sleep(0.1)
    raise AssertionError(f"no study kept for recovery in {library} after {seconds} s")


async def test_a_server_killed_outright_leaves_no_app_behind_and_its_unsaved_study_is_offered_back(server, tmp_path):
    process, url = server
    async with aiohttp.ClientSession() as session:
        async with Tab(session, url) as tab:
            await tab.until(all_panes, "the four panes")
            await tab.press("5")
            await tab.until(lambda text: "ply 1" in text, "the move played")
            # the app keeps the unsaved study once its edits settle: the kill comes after that, not in the race
            await asyncio.to_thread(_until_kept_for_recovery, tmp_path / "library.sqlite3")
            (app,) = _apps(process.pid)
            ended = os.pidfd_open(app)  # readable once the app has ended
            process.kill()  # no quit for the apps: their input just closes
            process.wait()
        readable, _, _ = await asyncio.to_thread(select.select, [ended], [], [], 120)
        os.close(ended)
        assert readable, "the app outlived its server by 2 minutes"
    with serving_again(tmp_path) as (_, again):
        async with aiohttp.ClientSession() as session, Tab(session, again) as tab:
            await tab.until(lambda text: "Restore the unsaved study" in text, "the unsaved study offered back")


async def test_a_tab_past_max_tabs_gets_the_full_page_and_no_app_and_a_closed_tab_gives_its_place_back(tmp_path):
    with serving_again(tmp_path, "--max-tabs", "2") as (process, url):
        async with browser_session() as session:
            async with session.get(url) as page:
                assert page.status == 200
                key = page_key(url, await page.text())
            async with Tab(session, url, key=key) as tab, Tab(session, url, key=key) as other:
                await tab.until(all_panes, "the four panes")
                await other.until(all_panes, "the four panes in the other tab")
                async with session.get(url) as page:
                    assert page.status == 503 and "the server is full" in await page.text()
                # a page loaded before the server filled up opens its websocket: refused, nothing started
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(keyed_websocket(url, key, 80, 24))
                assert refused.value.status == 503
                assert len(_apps(process.pid)) == 2
            deadline = time.monotonic() + 60  # the closed tabs' places, back once their apps end (after their sockets)
            while True:
                async with session.get(url) as page:
                    if page.status == 200 or time.monotonic() > deadline:
                        break
                await asyncio.sleep(0.1)
            assert page.status == 200
            async with Tab(session, url, key=key) as tab:
                await tab.until(all_panes, "the four panes in a third tab")


async def test_the_printed_token_is_exchanged_for_a_session_key_and_no_answer_is_kept_or_sniffed_or_lists_a_folder(
    server,
):
    """The token went into a cookie, which the browser sends to every port of 127.0.0.1: now the page it opens is
    given the session key (which the page keeps in its origin's storage), and no cookie is set. The page and the
    other answers are never stored (the disk cache held the token's page), nor sniffed; /static/ lists nothing."""
    process, url = server
    base = base_of(url)
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as page:
            html = await page.text()
            assert page.status == 200 and "Set-Cookie" not in page.headers
            assert page.headers["Cache-Control"] == "no-store" and page.headers["X-Content-Type-Options"] == "nosniff"
        (key,) = re.findall(rf'"{base.replace("http", "ws")}/ws/([\w-]+)"', html)
        assert key != url.rsplit("=", 1)[1]
        async with session.get(base + "/") as page:  # a reload: the same page, without a key (the page has it)
            assert page.status == 200 and f'"{base.replace("http", "ws")}/ws"' in await page.text()
        if serve_ext.MODE.fast:
            # the token is spent: the address in the browser's history gives no key, and opens no websocket
            async with session.get(url) as page:
                assert page.status == 200 and f'"{base.replace("http", "ws")}/ws"' in await page.text()
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(websocket_address(url, 80, 24))
            assert refused.value.status == 403
        else:  # textual-serve's page keeps no key: the token is kept, and a reload with it gets the key again
            async with session.get(url) as page:
                assert re.findall(rf'"{base.replace("http", "ws")}/ws/([\w-]+)"', await page.text()) == [key]
        async with session.ws_connect(f"{base.replace('http', 'ws')}/ws/{key}?width=80&height=24") as tab:
            assert (await tab.receive(timeout=30)).type in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"{base.replace('http', 'ws')}/ws?width=80&height=24")
        assert refused.value.status == 403
        for folder in ("/static/", "/static", "/static/css", "/static/css/", "/static/../static/js/"):
            async with session.get(base + folder) as listing:
                assert listing.status == 404 and listing.headers["X-Content-Type-Options"] == "nosniff", folder
        async with session.get(base + "/static/css/xterm.css") as style:
            assert style.status == 200 and style.headers["Cache-Control"] == "no-cache"  # asked again at each use
            assert style.headers["X-Content-Type-Options"] == "nosniff" and style.headers["X-Frame-Options"] == "DENY"
        async with session.get(base + "/download/" + "0" * 32) as download:  # no such download, and no tab's key
            assert download.status == 404 and download.headers["Cache-Control"] == "no-store"
    # the page's websocket address is the checked Host's: a target naming another host is refused
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(
            f"GET http://evil.example/?{url.split('?')[1]} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        )
        assert connection.makefile("rb").readline().split()[1] == b"403"


def test_the_first_line_of_a_server_on_every_address_names_the_machine_s_address_and_the_risk():
    from workbench.web.access import Access
    from workbench.web.serve import reach

    access = Access.make(token="k" * 32, host="0.0.0.0", port=8799)
    said = reach("0.0.0.0", 8799, access)
    assert said.startswith(
        f"on every network this machine is on, as http://{socket.gethostname()}:8799/?token={'k' * 32}"
    )
    assert said.endswith("no encryption, the token is the only key; prefer an SSH tunnel to a server on 127.0.0.1")
    assert reach("192.0.2.7", 8799, Access.make(token=None, host="192.0.2.7", port=8799)) == (
        "by anyone who can reach this address: no encryption, with no key at all; prefer an SSH tunnel to a server on "
        "127.0.0.1"
    )
    assert reach("::1", 8799, access) == (
        "this machine only; the address is the key of the first browser that opens it, keep it to yourself"
    )
    kept = Access.make(token="k" * 32, host="::1", port=8799, keep_token=True)
    assert (
        reach("::1", 8799, kept)
        == "this machine only; the address is the key while this server runs, keep it to yourself"
    )
    for loopback in ("127.1", "127.0.0.2", "localhost.", "::ffff:127.0.0.1"):  # (warned as open to the network)
        assert reach(loopback, 8799, access).startswith("this machine only"), loopback
    # without a token the address is no key, and the line does not call it one
    assert reach("127.0.0.1", 8799, Access.make(token=None, host="127.0.0.1", port=8799)) == (
        "this machine only, with no key: every program on it can use it"
    )


def test_a_server_on_another_address_than_loopback_says_so_in_a_warning_line_first(capsys, monkeypatch):
    from workbench.web.serve import serve

    _serve_without_running(monkeypatch)
    said: list[str] = []
    assert serve(host="0.0.0.0", port=0, debug=True, say=said.append) == 0
    err = capsys.readouterr().err
    assert err == "workbench: warning: --host 0.0.0.0: the app and your library are open to the network, unencrypted\n"
    for loopback in ("127.0.0.1", "127.1"):  # 127.1 is 127.0.0.1 to the system: it was warned of
        assert serve(host=loopback, port=0, debug=True, say=said.append) == 0
        assert capsys.readouterr().err == "", loopback


def test_a_port_in_use_is_one_line_and_exit_2(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err == f"workbench: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--port", "65536"], "argument --port: '65536' is not a port (0 to 65535)"),
        (["--port", "http"], "argument --port: 'http' is not a port (0 to 65535)"),
        (["--port", "000080"], "argument --port: '000080' is not a port (0 to 65535)"),  # six digits: not a port's
        (["--port", "9" * 40], f"argument --port: '{'9' * 20}'… (40 characters) is not a port (0 to 65535)"),
        (["--host", "no.such.host.invalid"], "host 'no.such.host.invalid': "),
        (
            ["--host", "192.0.2.1"],
            "cannot listen on 192.0.2.1:8000: Cannot assign requested address",
        ),  # not this machine's
        (["--game", "3x3k9"], "unknown variant '3x3k9': 9 in a row does not fit on a 3x3 board"),
    ],
)
def test_bad_serving_options_are_one_line_and_exit_2(capsys, arguments, message):
    assert main(["serve", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"workbench: error: {message}") and err.count("\n") == 1


@pytest.mark.parametrize(
    "host, hint",
    [
        ("[::1]", "(an IPv6 address goes without brackets: --host ::1)"),
        ("127.0.0.1:18726", "(the port goes apart: --host 127.0.0.1 --port 18726)"),
        ("no.such.host.invalid", None),  # (no hint for a name that is only wrong)
    ],
)
def test_a_host_that_does_not_resolve_says_what_it_may_have_meant(capsys, host, hint):
    """Review 45: `--host [::1]` and `--host 127.0.0.1:18726` said only "Name or service not known"."""
    assert main(["serve", "--host", host]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"workbench: error: host {host!r}: ") and err.count("\n") == 1, err
    if hint is None:
        assert "--host" not in err
    else:
        assert err.rstrip("\n").endswith(hint), err


@pytest.mark.parametrize("port", ["0", "8000", "65535"])
def test_every_port_from_0_to_65535_is_taken(port):
    from workbench.cli import build_parser

    assert build_parser().parse_args(["serve", "--port", port]).port == int(port)


def test_each_tab_runs_this_python_s_app_with_the_library_and_variant_asked_for():
    """textual-serve runs the command through a shell: a library path with spaces or quotes stays one word, and the
    shell becomes the app (its parent is then the server, whose end the kernel tells it of)."""
    import shlex

    from workbench.web.serve import app_command

    assert shlex.split(app_command()) == ["exec", sys.executable, "-m", "workbench"]
    words = shlex.split(app_command(db="/tmp/my 'odd' library.sqlite3", game="4x4k4"))
    assert words == [
        "exec",
        sys.executable,
        "-m",
        "workbench",
        "--db",
        "/tmp/my 'odd' library.sqlite3",
        "--game",
        "4x4k4",
    ]


def _serve_without_running(monkeypatch) -> list:
    """serve() as far as its server would run: what aiohttp was given to run, once it got there."""
    from aiohttp import web

    seen = []

    def run_app(app, **options) -> None:
        app.close()  # the server's application, never run
        seen.append(app)

    monkeypatch.setattr(web, "run_app", run_app)
    return seen


@fast_path_only
def test_the_server_s_downloads_are_read_whole_and_kept_and_textual_serve_s_wait_is_left_as_it_is(monkeypatch):
    """The server answers downloads from workbench.web.serve_ext.downloads (tests/test_cli_serve_downloads.py):
    nothing of textual-serve's own module is changed for the process."""
    import textual_serve.download_manager

    from workbench.web import serve_ext
    from workbench.web.serve import serve
    from workbench.web.serve_ext.downloads import KeptDownloads

    timeout = textual_serve.download_manager.DOWNLOAD_TIMEOUT
    servers = []

    def run(server, listener, **options) -> None:
        listener.close()
        servers.append(server)

    monkeypatch.setattr(serve_ext, "run", run)
    assert serve(host="127.0.0.1", port=0, debug=True, say=lambda line: None) == 0
    assert isinstance(servers[0].download_manager, KeptDownloads)
    assert textual_serve.download_manager.DOWNLOAD_TIMEOUT == timeout


@pytest.mark.parametrize(
    "interrupt, terminate",
    [(signal.default_int_handler, signal.SIG_DFL), (signal.SIG_IGN, signal.SIG_IGN)],
    ids=["a terminal's", "a background job's (nohup, &)"],
)
def test_serve_leaves_the_signal_handlers_as_it_found_them(monkeypatch, interrupt, terminate):
    """Its loop's handlers of ctrl+c and SIGTERM go when it stops; asyncio then puts Python's own ctrl+c handler
    back, even where the process had ctrl+c ignored (a shell's background job): serve() puts back what it found."""
    from workbench.web.serve import serve

    seen = _serve_without_running(monkeypatch)
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    try:
        signal.signal(signal.SIGINT, interrupt)
        signal.signal(signal.SIGTERM, terminate)
        assert serve(host="127.0.0.1", port=0, debug=True, say=lambda line: None) == 0
        assert seen  # (it got as far as its server)
        assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == (interrupt, terminate)
    finally:
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGTERM, before[1])


@fast_path_only
async def test_the_page_asks_nothing_of_other_servers_and_its_script_leaves_out_the_webgl_renderer(server):
    """The page: textual-serve's, less what costs a browser's CPU for nothing at each load (see
    workbench.web.serve_ext.page). Its script comes compressed, and a reload is answered "not modified"."""
    from workbench.web.serve_ext.page import SCRIPT_PATH

    _, printed = server
    url = base_of(printed)
    async with browser_session() as session:
        async with session.get(printed) as response:  # (the page's scripts have the token from its cookie)
            page = await response.text()
        addresses = re.findall(r'(?:src|href)="([^"]*)"', page)
        assert SCRIPT_PATH in addresses and "/static/css/xterm.css" in addresses
        assert all(address.startswith((url, "/")) for address in addresses), addresses  # no font from Google
        for address in addresses:  # each is there (textual-serve 1.1.0 wrote the stylesheet's with a doubled slash)
            async with session.get(address if address.startswith("http") else url + address) as response:
                assert response.status == 200, address
        assert "transition" not in page and "background.png" not in page
        async with session.get(url + SCRIPT_PATH, headers={"Accept-Encoding": "gzip"}) as response:
            assert response.status == 200 and response.headers["Content-Encoding"] == "gzip"
            assert response.content_type == "application/javascript"
            script, etag = await response.text(), response.headers["ETag"]
        assert "this.terminal.loadAddon(this.canvasAddon)" in script and "loadAddon(this.webglAddon)" not in script
        async with session.get(url + SCRIPT_PATH, headers={"If-None-Match": etag}) as response:
            assert response.status == 304 and not await response.read()
        async with session.get(url + SCRIPT_PATH, headers={"Accept-Encoding": "identity"}) as response:
            assert "Content-Encoding" not in response.headers and await response.text() == script


def test_the_page_script_is_textual_serve_s_less_exactly_the_webgl_renderer_s_load():
    """The load is found in the textual-serve installed (a new textual-serve that loads it otherwise fails here); a
    script without it is sent as it is."""
    from workbench.web.serve_ext.page import textual_serve_script, without_webgl_renderer

    original = textual_serve_script().read_text(encoding="utf-8")
    lighter = without_webgl_renderer(original)
    load = "this.webglAddon=new p.WebglAddon,this.terminal.loadAddon(this.webglAddon),"
    assert lighter != original and len(original) - len(lighter) == len(load.replace("p.", "x."))
    assert (
        "this.terminal.loadAddon(this.webglAddon)" not in lighter
        and "this.terminal.loadAddon(this.canvasAddon)" in lighter
    )
    assert without_webgl_renderer(lighter) == lighter and without_webgl_renderer("var a=1;") == "var a=1;"


def test_the_page_script_draws_a_frame_s_glyphs_after_its_atlas_has_them_all():
    """Both places of the canvas renderer are found in the textual-serve installed (a new one that draws otherwise
    fails here); a script with either place missing is sent as it is. (The pixels: tests/test_cli_browser.py.)"""
    from workbench.web.serve_ext.page import lighter_script, textual_serve_script, with_glyphs_drawn_after_the_atlas

    original = textual_serve_script().read_text(encoding="utf-8")
    page = lighter_script(original)
    assert page.count("_drawGlyph(o,t,i,r,n){this._ctx.save(),this._clipRow(i),") == 1
    assert (
        page.count("this._glyphsToDraw.push(o,t,i,r,n)") == 1
        and page.count("const p=this._glyphsToDraw,q=this._glyphsToDraw=[]") == 1
    )
    assert "this._ctx.drawImage(" in page.split("_drawGlyph(o,t,i,r,n){", 1)[1].split("}_clipRow(", 1)[0]
    foreground = "_drawForeground(e,t){this._forEachCell(e,t,((e,t,i)=>this._drawChars(e,t,i)))}"
    drawing = "!o.size.x||!o.size.y)return;this._ctx.save(),this._clipRow(i),"
    assert foreground in original and drawing in original
    for missing in (foreground, drawing):
        script = original.replace(missing, "")
        assert with_glyphs_drawn_after_the_atlas(script) == script
    # a drawing that reads the cell itself (``e``) would read the wrong cell from the second pass: left as it is
    end = "o.size.y),this._ctx.restore()}_clipRow("
    assert original.count(end) == 1
    script = original.replace(end, "o.size.y),this._ctx.restore(),e.getWidth()}_clipRow(")
    assert with_glyphs_drawn_after_the_atlas(script) == script


@fast_path_only
def test_a_textual_serve_without_its_page_script_is_one_line_and_exit_2(monkeypatch, tmp_path, capsys):
    import workbench.web.serve_ext.page

    monkeypatch.setattr(workbench.web.serve_ext.page, "textual_serve_script", lambda: tmp_path / "gone.js")
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err == f"workbench: error: textual-serve's page script {tmp_path / 'gone.js'}: No such file or directory\n"


@pytest.mark.skipif(not serve_ext.MODE.fast, reason="textual-serve's own page keeps no key")
async def test_a_head_or_a_script_s_fetch_of_the_address_does_not_spend_its_token(server):
    """Review 45: `curl -I` on the printed address (a link checker's HEAD) spent the token, and the user's browser
    then got a page with no key, for good."""
    process, url = server
    async with aiohttp.ClientSession() as session:
        async with session.head(url) as answer:
            assert answer.status == 200
        for destination in ("empty", "iframe"):  # fetch() from a script; a frame, which the page's headers forbid
            async with session.get(url, headers={"Sec-Fetch-Dest": destination}) as answer:
                assert answer.status == 200 and not re.findall(r"/ws/[\w-]+\"", await answer.text())
        async with session.get(url, headers={"Sec-Fetch-Dest": "document"}) as page:  # the browser's
            key = page_key(url, await page.text())
        async with Tab(session, url, key=key) as tab:
            await tab.until(all_panes, "the four panes")


async def test_in_stock_mode_a_reloaded_page_opens_its_app_again(tmp_path, monkeypatch):
    """Review 45: textual-serve's own page keeps no session key, so a reload asks with the token again; spent by the
    first load, it opened nothing ("Session ended", and the tab's study out of reach until a restart). In stock mode
    the token is kept while the server runs, and the first line says so."""
    from workbench.framework_mode import STOCK_VARIABLE

    monkeypatch.setenv(STOCK_VARIABLE, "1")
    kept = "this machine only; the address is the key while this server runs"
    with serving_again(tmp_path, reach=kept) as (process, url):
        async with aiohttp.ClientSession() as session:
            for _ in range(2):  # the first load, then a reload
                async with session.get(url) as page:
                    key = page_key(url, await page.text())
                async with Tab(session, url, key=key) as tab:
                    await tab.until(all_panes, "the four panes")


def test_a_library_no_tab_could_open_is_one_line_and_exit_2_at_the_start(tmp_path, capsys, monkeypatch):
    """Review 45: `--db` under a file started the server all the same; each tab then said, for a moment, that its
    work was not kept safe, and lost it on a reload."""
    import workbench.web.serve

    monkeypatch.setattr(workbench.web.serve, "serve", lambda **options: 0)  # (reached: the server would run)
    (tmp_path / "a file").write_text("")
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "a file" / "library.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"workbench: error: library '{tmp_path}/a file/library.sqlite3': ")
