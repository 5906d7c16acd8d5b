"""The terminal's driver: a frame written by the main thread when the output thread is idle, in order always."""

import os
import pty
import threading
import time
from types import SimpleNamespace

import pytest
from textual.drivers.linux_driver import LinuxDriver

from workbench.tui import textual_ext
from workbench.tui.app import WorkbenchApp
from workbench.tui.textual_ext import terminal_driver
from workbench.tui.textual_ext.terminal_driver import DirectWriter, TerminalDriver, terminal_takes_more

# the fast path's own tests (stock Textual is tested by the rest, in both modes: tests/test_gate.py)
pytestmark = pytest.mark.skipif(not textual_ext.MODE.fast, reason=f"the fast path's own; {textual_ext.MODE}")


@pytest.fixture
def terminal():
    """(the app's end of a pseudo-terminal as a text file, the terminal's end to read from)."""
    leader, follower = pty.openpty()
    import tty

    tty.setraw(follower)  # as the app's terminal is: no newline translation
    file = os.fdopen(follower, "w", encoding="utf-8")
    yield file, leader
    file.close()
    os.close(leader)


def read_all(leader: int, size: int) -> str:
    """``size`` bytes from the terminal; what came within 10 s when fewer come."""
    import select

    data = b""
    while len(data) < size and select.select([leader], [], [], 10)[0]:
        data += os.read(leader, 65536)
    return data.decode()


def test_an_idle_writer_s_frame_is_written_by_the_caller_and_the_thread_is_not_woken(terminal, monkeypatch):
    file, leader = terminal
    writer = DirectWriter(file)
    puts: list[str] = []
    monkeypatch.setattr(writer._queue, "put", puts.append)  # the thread is never handed a frame
    writer.write("frame one")
    writer.write("frame two")
    assert read_all(leader, 18) == "frame oneframe two" and puts == []


def test_the_driver_lets_the_terminal_read_by_a_pause_of_the_main_thread(monkeypatch):
    """A sleep, which lets the processor go to the terminal (a yield may hand it straight back): see the module."""
    slept: list[float] = []
    monkeypatch.setattr(terminal_driver.time, "sleep", slept.append)
    TerminalDriver.let_the_terminal_read(SimpleNamespace())  # (nothing of the driver's own is read)
    assert slept == [terminal_driver.READ_PAUSE_S] and 0 < terminal_driver.READ_PAUSE_S < 0.001


def test_frames_keep_their_order_when_some_wait_for_a_terminal_that_stopped_reading(terminal, monkeypatch):
    """While the terminal takes nothing more, frames go to the thread; the next frame the terminal could take at
    once still waits behind them; and nothing the main thread does blocks meanwhile."""
    file, leader = terminal
    ready = [True]
    monkeypatch.setattr(terminal_driver, "terminal_takes_more", lambda file: ready[0])
    writer = DirectWriter(file)
    held = threading.Lock()
    held.acquire()
    original_write = file.write

    def slow_write(text: str) -> int:  # the thread's writes wait, as on a terminal that is not reading
        if threading.current_thread() is writer:
            held.acquire()
            held.release()
        return original_write(text)

    monkeypatch.setattr(file, "write", slow_write)
    writer.start()
    try:
        writer.write("a")  # straight through
        ready[0] = False
        writer.write("b")  # to the thread, which is stuck writing it
        writer.write("c")
        ready[0] = True
        writer.write("d")  # the terminal could take it, but b and c are first
        assert writer._queued == 3
    finally:
        held.release()
        writer.stop()
    assert read_all(leader, 4) == "abcd" and writer._queued == 0


def test_a_terminal_that_takes_nothing_more_is_told_from_one_that_does(terminal):
    file, _ = terminal
    assert terminal_takes_more(file)
    os.set_blocking(file.fileno(), False)
    try:
        # fill the terminal's buffer to the last byte (nobody reads it); the kernel moves what was written between
        # its queues a moment later, which can free a few bytes: filled again until it settles full
        for _ in range(200):
            for chunk in (4096, 1):
                while True:
                    try:
                        os.write(file.fileno(), b"x" * chunk)
                    except BlockingIOError:
                        break
            time.sleep(0.005)
            if not terminal_takes_more(file):
                break
        assert not terminal_takes_more(file)
    finally:
        os.set_blocking(file.fileno(), True)
    closed = os.fdopen(os.dup(file.fileno()), "w")
    closed.close()
    assert not terminal_takes_more(closed)


def test_the_app_in_a_terminal_runs_on_the_driver_that_writes_directly(monkeypatch):
    from textual.app import App

    monkeypatch.setattr(App, "get_driver_class", lambda self: LinuxDriver)
    assert WorkbenchApp().get_driver_class() is TerminalDriver


def test_a_terminal_gone_mid_write_leaves_the_frame_to_the_thread_as_textual_does(terminal, monkeypatch):
    file, _ = terminal
    writer = DirectWriter(file)

    def hung_up(text: str) -> int:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(file, "write", hung_up)
    writer.write("frame")  # no exception in the caller
    assert list(writer._queue.queue) == ["frame"] and writer._queued == 1


class _App:
    """What the driver reads of the app: where events go."""

    def __init__(self) -> None:
        self.posted: list = []
        self.panicked: list = []

    def post_message(self, message) -> bool:
        self.posted.append(message)
        return True

    async def _post_message(self, message) -> bool:
        return self.post_message(message)

    def panic(self, *renderables) -> None:  # (called later, through call_later)
        pass

    def call_later(self, callback, *args) -> None:
        self.panicked.append(args)


async def _until(condition, limit: float = 5.0) -> bool:
    import asyncio

    deadline = time.monotonic() + limit
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    return bool(condition())


async def test_the_terminal_is_read_on_the_event_loop_as_textuals_thread_reads_it():
    """Keys arrive in order, a character split between two reads arrives whole, a lone escape is the escape key once
    the parser's wait is over, a click is a press and a release, and each is posted from the loop, not from the input
    thread; the input disabled, the loop no longer watches the terminal and the thread ends."""
    import asyncio
    import tty

    from textual import events

    leader, follower = pty.openpty()
    tty.setraw(follower)  # as application mode leaves it
    app = _App()
    driver = TerminalDriver(app, debug=False, mouse=False, size=None)  # type: ignore[arg-type]
    driver.fileno = follower
    loop = asyncio.get_running_loop()
    threads: list[int] = []
    posted = app.post_message
    app.post_message = lambda message: threads.append(threading.get_ident()) or posted(message)  # type: ignore[method-assign]
    reader = threading.Thread(target=driver.run_input_thread)
    reader.start()
    try:
        assert await _until(lambda: driver._loop_input is not None)
        os.write(leader, b"ab\x1b[A")
        os.write(leader, "é".encode()[:1])
        await asyncio.sleep(0.05)
        os.write(leader, "é".encode()[1:] + b"\x1b")
        keys = lambda: [message.key for message in app.posted if isinstance(message, events.Key)]  # noqa: E731
        assert await _until(lambda: len(keys()) == 5)
        assert keys() == ["a", "b", "up", "é", "escape"]
        os.write(leader, b"z")
        time.sleep(0.05)  # (the loop does not run meanwhile: its callback is not called)
        driver._loop_input.read()
        assert keys()[-1] == "z"  # in the app's queue at once, not through a coroutine the loop runs later
        os.write(leader, b"\x1b[<0;10;5M\x1b[<0;10;5m")  # a click, in the terminal's SGR mouse codes
        clicks = lambda: [type(message) for message in app.posted if isinstance(message, events.MouseEvent)]  # noqa: E731
        assert await _until(lambda: len(clicks()) == 2)
        assert clicks() == [events.MouseDown, events.MouseUp]
        assert set(threads) == {threading.get_ident()} and app.panicked == []  # the loop's own thread
    finally:
        driver.disable_input()
        reader.join(5)
        os.close(leader)
        os.close(follower)
    assert not reader.is_alive() and driver._loop_input is None
    assert not loop.remove_reader(follower)  # the loop watched it no longer


async def test_input_that_ends_or_fails_on_the_loop_is_left_as_textuals_thread_leaves_it(monkeypatch):
    """The terminal's end (a hang-up: the read fails) takes the watch off the loop; a read the parser cannot take
    makes the app panic with the traceback, as Textual's thread does, and the watch goes too."""
    import asyncio
    import tty

    for ending in ("hang-up", "parser fails"):
        leader, follower = pty.openpty()
        tty.setraw(follower)
        app = _App()
        driver = TerminalDriver(app, debug=False, mouse=False, size=None)  # type: ignore[arg-type]
        driver.fileno = follower
        reader = threading.Thread(target=driver.run_input_thread)
        reader.start()
        try:
            assert await _until(lambda: driver._loop_input is not None)
            loop_input = driver._loop_input
            if ending == "hang-up":
                os.close(leader)
            else:
                monkeypatch.setattr(loop_input.parser, "feed", lambda data: 1 / 0)
                os.write(leader, b"a")
            assert await _until(lambda: driver._loop_input is None)
            assert len(app.panicked) == (ending == "parser fails")
            await asyncio.sleep(0.05)
        finally:
            driver.disable_input()
            reader.join(5)
            if ending != "hang-up":
                os.close(leader)
            os.close(follower)
        assert not reader.is_alive()


async def test_a_terminal_the_loop_cannot_watch_is_read_by_textuals_own_thread(tmp_path, monkeypatch):
    """A file the event loop cannot watch (a regular file: no poll on it): Textual's own reading runs on its thread,
    and ends when the input is disabled."""
    read_by_textual = threading.Event()

    def textuals_reading(driver) -> None:
        read_by_textual.set()
        driver.exit_event.wait()

    monkeypatch.setattr(LinuxDriver, "run_input_thread", textuals_reading)
    file = tmp_path / "input"
    file.write_bytes(b"")
    app = _App()
    driver = TerminalDriver(app, debug=False, mouse=False, size=None)  # type: ignore[arg-type]
    with open(file, "rb") as opened:
        driver.fileno = opened.fileno()
        reader = threading.Thread(target=driver.run_input_thread)
        reader.start()
        assert await _until(read_by_textual.is_set) and driver._loop_input is None
        driver.disable_input()
        reader.join(5)
    assert not reader.is_alive()
