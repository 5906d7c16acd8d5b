"""`workbench serve`: an app's life is its tab's, and no app outlives its server (issue 47's first finding); every
message is checked before the app sees it; abuse leaves the server's terminal quiet.

The stubborn app (tests/serve_stubborn.py) is busy for good, deaf to a quit and to SIGTERM: the worst a tab's app
can be. The server's descendants are counted from /proc."""

import asyncio
import json
import os
import select
import signal
import socket
import subprocess
import sys

import aiohttp
import pytest

from workbench.bench.browser import all_panes, descendants, websocket_address
from workbench.framework_mode import STOCK_VARIABLE
from workbench.web import serve_ext
from workbench.web.messages import MAX_MESSAGE_BYTES

from .test_cli_serve import Tab, _apps, base_of, server, serving_again  # noqa: F401 - a fixture

fast_path_only = pytest.mark.skipif(
    not serve_ext.MODE.fast, reason=f"the stubborn app is forked warm; {serve_ext.MODE}"
)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def _until(condition, what: str, seconds: float = 30) -> None:
    for _ in range(int(seconds * 20)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


def _wait_gone(pids: set[int], seconds: float = 30) -> set[int]:
    """Those of ``pids`` still running after ``seconds`` at most (each watched by a pidfd, which says its end)."""
    watched = {}
    for pid in pids:
        try:
            watched[os.pidfd_open(pid)] = pid
        except ProcessLookupError:
            pass
    try:
        left = dict(watched)
        for _ in range(int(seconds * 10)):
            if not left:
                break
            ended, _, _ = select.select(list(left), [], [], 0.1)
            for descriptor in ended:
                left.pop(descriptor)
        return {pid for pid in left.values() if _alive(pid)}
    finally:
        for descriptor in watched:
            os.close(descriptor)


@fast_path_only
async def test_a_closed_tab_s_stubborn_app_is_killed_and_its_place_comes_back_only_once_it_has_ended(tmp_path):
    """A tab's close asks its app to quit, then SIGTERM, then SIGKILL; the place under --max-tabs is free only once
    the app's process has ended (it was free at the first failed write to the closed socket, and five such apps
    ran beside --max-tabs 2)."""
    with serving_again(tmp_path, "--max-tabs", "1", module="tests.serve_stubborn") as (process, url):
        (warm,) = descendants(process.pid)
        async with aiohttp.ClientSession() as session:
            socket_ = await session.ws_connect(websocket_address(url, 80, 24))
            await _until(lambda: len(descendants(process.pid)) == 2, "the tab's app")
            (app,) = descendants(process.pid) - {warm}
            await socket_.send_str(json.dumps(["stdin", "\x11"]))  # (ctrl+q: unread)
            await socket_.close()
            answers = []
            while True:
                async with session.get(url) as page:
                    answers.append((page.status, _alive(app)))
                if page.status == 200 or len(answers) > 600:
                    break
                await asyncio.sleep(0.05)
        # never free while the closed tab's app still ran; free once it was killed
        assert answers[-1] == (200, False) and all(not alive for status, alive in answers if status == 200), answers
        assert descendants(process.pid) == {warm}  # the app killed, the warm process left to fork the next
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
        assert process.stderr.read() == "" and process.stdout.read() == "workbench: stopped serving\n"


@fast_path_only
@pytest.mark.parametrize(
    "ending",
    ["SIGTERM of the server", "SIGKILL of the server", "SIGKILL of the server and its warm process"],
)
async def test_no_app_outlives_its_server_however_it_ends_and_whatever_the_app_does(tmp_path, ending):
    """Two stubborn apps open when the server stops or is killed: every process the server started ends (the
    warm process ends its apps when the server is gone, and the kernel kills each app when the warm process has
    gone: its parent-death signal)."""
    with serving_again(tmp_path, module="tests.serve_stubborn") as (process, url):
        (warm,) = descendants(process.pid)
        async with aiohttp.ClientSession() as session:
            sockets = [await session.ws_connect(websocket_address(url, 80, 24)) for _ in range(2)]
            await _until(lambda: len(descendants(process.pid)) == 3, "the two tabs' apps")
            started = descendants(process.pid)
            if ending == "SIGTERM of the server":
                process.send_signal(signal.SIGTERM)
                assert await asyncio.to_thread(process.wait, 30) == 0
            else:
                if ending.endswith("warm process"):
                    os.kill(warm, signal.SIGKILL)
                process.kill()
                process.wait()
            left = await asyncio.to_thread(_wait_gone, started)
            for socket_ in sockets:
                await socket_.close()
    assert not left, f"{ending}: {len(left)} of the server's {len(started)} processes still ran"


@pytest.mark.parametrize("mode", ["fast path", "stock"])
async def test_a_stopped_app_ends_with_its_server_killed_outright_in_either_mode(tmp_path, monkeypatch, mode):
    """A tab's app stopped (SIGSTOP: it runs no code, reads no input, handles no signal) still ends when its server
    is killed outright: the kernel kills it (its parent-death signal). In the stock mode it ran on until someone
    sent it SIGCONT: it ended only by noticing its input closed."""
    if mode == "stock":
        monkeypatch.setenv(STOCK_VARIABLE, "1")
    with serving_again(tmp_path) as (process, url):
        async with aiohttp.ClientSession() as session, Tab(session, url, 80, 24) as tab:
            await tab.until(all_panes, "the four panes")
            (app,) = _apps(process.pid)
            os.kill(app, signal.SIGSTOP)
            process.kill()
            process.wait()
            left = await asyncio.to_thread(_wait_gone, {app}, 30)
            if left:
                os.kill(app, signal.SIGKILL)
    assert not left, f"{mode}: the stopped app outlived its server"


async def test_every_bad_message_is_dropped_with_one_line_and_the_app_plays_on(untraced_children, server):
    """Sizes negative, zero, strings, 1e308, 10**40; no JSON; []; ["stdin", 5]: each crashed the tab's app or its
    socket. Now each is dropped or clamped, the app never sees it, and the server says so in one line a minute.
    (The server runs untraced. The tab's socket that closed after these messages, one run in five, was the tab's app
    crashing: its resize, then the key drawn before the layout, asked a kept scrollbar for rows it no longer had.)"""
    process, url = server
    bad = [
        "not json",
        "[]",
        "{}",
        '["stdin", 5]',
        '["stdin", "\\ud800"]',
        '["resize", {"width": "80", "height": 24}]',
        '["resize", {"width": -5, "height": 0}]',
        '["resize", {"width": 1e308, "height": 0}]',
        json.dumps(["resize", {"width": 10**40, "height": -(10**40)}]),
        '["resize", {"width": 1e999, "height": 1}]',
        '["resize"]',
        '["quit"]',
        "[" * 10000 + "]" * 10000,
    ]
    async with aiohttp.ClientSession() as session:
        tab = Tab(session, url, 80, 24)
        tab.socket = await session.ws_connect(websocket_address(url, 3, -2).replace("height=-2", "height=x"))
        await tab.until(all_panes, "the four panes at the default 80×24")
        (app,) = _apps(process.pid)
        for message in bad:
            await tab.socket.send_str(message)
        await tab.resize(120, 36)
        await tab.until(all_panes, "the four panes after the bad messages")
        await tab.press("5")
        await tab.until(lambda text: "ply 1" in text, "the move played after the bad messages")
        assert _apps(process.pid) == {app}
        await tab.socket.close()
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == 0
    assert process.stderr.read().splitlines() == [
        "workbench: a tab's websocket asked for a size that is not two whole numbers",
    ]  # (the rest, of the same kind within a minute, counted in the next such line)


async def test_a_message_over_the_limit_closes_its_socket_and_ends_its_app(server):
    """["stdin", "a" * 3900000] took an app to 2.6 GB; now a message over MAX_MESSAGE_BYTES closes the socket."""
    process, url = server
    async with aiohttp.ClientSession() as session, Tab(session, url) as tab:
        await tab.until(all_panes, "the four panes")
        (app,) = _apps(process.pid)
        await tab.socket.send_str(json.dumps(["stdin", "a" * MAX_MESSAGE_BYTES]))
        message = await tab.socket.receive(timeout=30)
        while message.type == aiohttp.WSMsgType.BINARY:
            message = await tab.socket.receive(timeout=30)
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert tab.socket.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    assert not await asyncio.to_thread(_wait_gone, {app})


def _raw(port: int, request: bytes, *, reset: bool = False) -> bytes:
    """``request`` sent on a connection of its own: the answer's first line (none: the connection reset)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        if reset:  # gone mid-handshake: a reset, not a close
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            return b""
        return connection.makefile("rb").readline()


async def test_a_flood_of_bad_requests_is_a_few_lines_on_the_server_s_terminal_and_starts_no_app(server):
    """200 requests with two Host headers printed 2,200 traceback lines; 200 without a Host, 2,000; a connection
    reset mid-handshake and a plain GET /ws two tracebacks each. Now a kind of trouble is a line a minute, and a
    GET /ws that is no websocket is a 400 before any place is taken."""
    process, url = server
    port, token = int(base_of(url).rsplit(":", 1)[1]), url.rsplit("=", 1)[1]
    host = f"127.0.0.1:{port}".encode()
    floods = [
        b"GET / HTTP/1.1\r\nHost: " + host + b"\r\nHost: " + host + b"\r\n\r\n",
        b"GET / HTTP/1.1\r\n\r\n",
        b"GET /ws?token=" + token.encode() + b" HTTP/1.1\r\nHost: " + host + b"\r\n\r\n",
        b"GET /ws?token=" + token.encode() + b" HTTP/1.1\r\nHost: " + host + b"\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ",  # (reset before its end)
    ]
    answers = {}
    for index, request in enumerate(floods):
        for _ in range(200):
            answers[index] = await asyncio.to_thread(_raw, port, request, reset=index == 3)
    assert answers[0].startswith(b"HTTP/1.") and answers[0].split()[1] == b"400"
    assert answers[1].split()[1] in (b"400", b"403") and answers[2].split()[1] == b"400"
    assert _apps(process.pid) == set()
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == 0
    said = process.stderr.read().splitlines()
    assert len(said) <= 4 and not any("Traceback" in line for line in said), said
    assert "Traceback" not in process.stdout.read()


def test_a_tab_s_app_s_crash_is_one_line_on_the_server_s_terminal_and_its_traceback_is_kept_in_a_file(tmp_path):
    """textual-serve prints what a tab's app says on its standard error on the server's terminal, as it is: a
    crash by a bad resize was a Rich traceback with its locals. A served app keeps it in a file, and says one line."""
    crash = (
        "from workbench.tui.served_driver import keep_errors_in_a_file\nkeep_errors_in_a_file()\nraise "
        "RuntimeError('boom')"
    )
    result = subprocess.run([sys.executable, "-c", crash], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    line, kept = result.stderr.rstrip("\n").rsplit(" is in ", 1)
    assert line == "workbench: a tab's app crashed (RuntimeError: boom); what it said"
    try:
        with open(kept, encoding="utf-8") as report:
            assert report.read().startswith("Traceback (most recent call last):")
    finally:
        os.unlink(kept)
    error = (
        "import sys\nfrom workbench.tui.served_driver import "
        "keep_errors_in_a_file\nkeep_errors_in_a_file()\nprint('workbench: error: one line', file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", error], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.stderr == "workbench: error: one line\n"  # a single line is said as it is


@fast_path_only
async def test_a_closed_tab_s_app_drawing_as_it_ends_is_read_until_it_has_ended(tmp_path, monkeypatch):
    """Review 45: a tab closed while its app drew (a search's counts) made textual-serve stop reading the app at the
    first failed write to the closed socket, and the server closed the app's pipes; the app, still ending, crashed
    on a broken pipe now and then, its traceback left in a file and its study's last change not kept. The app
    here draws all the time and for a while after it is asked to quit: it ends as asked, every time."""
    outcomes = tmp_path / "outcomes"
    outcomes.mkdir()
    monkeypatch.setenv("WORKBENCH_TEST_OUTCOMES", str(outcomes))
    with serving_again(tmp_path, module="tests.serve_lingering") as (process, url):
        (warm,) = descendants(process.pid)
        async with aiohttp.ClientSession() as session:
            for _ in range(3):
                socket_ = await session.ws_connect(websocket_address(url, 80, 24))
                await _until(lambda: len(descendants(process.pid)) == 2, "the tab's app")
                (app,) = descendants(process.pid) - {warm}
                await socket_.receive()  # drawing
                await socket_.close()
                assert not await asyncio.to_thread(_wait_gone, {app}), "the app never ended"
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
        assert process.stderr.read() == ""
    assert sorted(path.read_text() for path in outcomes.iterdir()) == ["ended"] * 3


def test_a_served_app_whose_output_is_gone_ends_as_on_a_quit_rather_than_crash(tmp_path):
    """A server killed outright reads nothing more: the app's next frame met a closed pipe, and the app crashed in a
    traceback. Each of the web driver's writes to a pipe with no reader asks the app to end instead."""
    script = """
import asyncio, os
from textual.app import App
from workbench.tui.served_driver import ServedDriver

async def main():
    read, write = os.pipe()
    os.close(read)
    driver = ServedDriver(App())
    driver._write = lambda data: os.write(write, data)  # (its output: a pipe no one reads any more)
    driver.app_loop = asyncio.get_running_loop()
    asked = []
    driver.served_app.exit = lambda: asked.append("exit")
    driver.write("a frame")
    driver.write_meta({"type": "exit"})
    driver.write_binary_encoded(("deliver_chunk", "key", b"bytes"))
    await asyncio.sleep(0.1)
    print(driver.ending, asked)

asyncio.run(main())
"""
    result = subprocess.run(
        [sys.executable, "-c", script], input="", capture_output=True, text=True, cwd=tmp_path, timeout=60
    )  # (its input a pipe, as a served app's: Textual's reader watches it)
    assert (result.returncode, result.stdout, result.stderr) == (0, "True ['exit']\n", "")
