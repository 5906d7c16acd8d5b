"""`workbench serve`'s warm process, from the server's end: each request forks an app of the size asked for, on
the pipes handed over; a warm process that is gone fails the request at once (the server then starts the app
the usual way); closing the server's end ends the warm process, and the apps it forked end with a quit."""

import asyncio
import json
import os
import select
import signal

import pyte

from workbench.web.serve_ext.warm_start import WarmStart

from .child_process import PACKAGE_ROOT


def _packet(kind: bytes, payload: bytes) -> bytes:
    """textual-serve's framing of what it writes to an app: a kind, a 4-byte length, the payload."""
    return kind + len(payload).to_bytes(4, "big") + payload


async def _read_screen(stdout: int, screen: pyte.Screen, condition, seconds: float = 60) -> None:
    """Feed the app's output (its data packets) to ``screen`` until ``condition(text)`` holds."""
    stream = pyte.ByteStream(screen)
    loop = asyncio.get_running_loop()
    buffered = b""
    deadline = loop.time() + seconds
    while not condition("\n".join(screen.display)):
        assert loop.time() < deadline, "\n".join(screen.display)
        chunk = await asyncio.wait_for(loop.run_in_executor(None, os.read, stdout, 65536), deadline - loop.time())
        assert chunk, "the app's output ended"
        buffered += chunk
        if b"__GANGLION__\n" in buffered:  # the web driver's prelude, then packets
            buffered = buffered.split(b"__GANGLION__\n", 1)[1]
        while len(buffered) >= 5 and len(buffered) >= 5 + int.from_bytes(buffered[1:5], "big"):
            size = int.from_bytes(buffered[1:5], "big")
            if buffered[:1] == b"D":
                stream.feed(buffered[5 : 5 + size])
            buffered = buffered[5 + size :]


def _pids_of_children(pid: int) -> set[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listing:
        return {int(child) for child in listing.read().split()}


async def test_the_warm_process_forks_an_app_of_the_size_asked_for_and_a_quit_ends_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", PACKAGE_ROOT)  # the warm process imports the workbench the tests import
    for variable in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / variable.lower()))
    warm = WarmStart({"db": str(tmp_path / "library.sqlite3"), "game": None})
    try:
        stdin, stdout, stderr, pid = await warm.start_app(100, 30)
        (app,) = _pids_of_children(warm.process.pid)
        assert pid == app and os.getpgid(app) == app  # the app's own process group, named to the server
        screen = pyte.Screen(100, 30)
        await _read_screen(stdout, screen, lambda text: "History" in text and "Evaluation" in text)
        # drawn to its last column and its last row: the size asked for (the footer on the 30th row)
        assert any(line[99] == "│" for line in screen.display) and "Quit" in screen.display[29]
        os.write(stdin, _packet(b"D", b"5"))
        await _read_screen(stdout, screen, lambda text: "ply 1" in text)
        ended = os.pidfd_open(app)  # readable once the app has ended
        os.write(stdin, _packet(b"M", json.dumps({"type": "quit"}).encode()))
        readable, _, _ = await asyncio.to_thread(select.select, [ended], [], [], 120)
        os.close(ended)
        assert readable, "the app did not end within 2 minutes of its quit"
        for descriptor in (stdin, stdout, stderr):
            os.close(descriptor)
    finally:
        warm.close()
    assert warm.process.returncode == 0  # its end closed, it ended


async def test_a_request_to_a_warm_process_that_is_gone_fails_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", PACKAGE_ROOT)
    warm = WarmStart({"db": str(tmp_path / "library.sqlite3"), "game": None})
    warm.process.send_signal(signal.SIGKILL)
    warm.process.wait()
    open_before = len(os.listdir("/proc/self/fd"))
    try:
        await warm.start_app(80, 24)
    except OSError as error:
        assert "no app forked" in str(error)
    else:
        raise AssertionError("a request to a dead warm process succeeded")
    assert len(os.listdir("/proc/self/fd")) == open_before  # the six ends of the three pipes closed
    warm.close()
