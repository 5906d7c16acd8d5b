"""The driver of the app in a terminal: Textual's, a frame written straight to the terminal when it can be, and the
terminal's input read on the app's event loop.

Textual hands every frame to an output thread through a queue, so that a slow terminal never holds up the
app. Waking that thread costs the main thread a switch of threads at the end of each frame: on 15×15 at 200×60
that was about a sixth of a key's time in the app (the wake-up, then the wait for the thread to take the frame).
Here the main thread writes the frame itself when nothing is queued or being written and the terminal can take
more at once; otherwise the frame goes to the thread as before, behind the ones it holds, so that frames reach
the terminal in order and a terminal that has stopped reading still holds up nothing but the thread.

After the frame of a key or a click, the main thread pauses a moment (:meth:`TerminalDriver.let_the_terminal_read`)
before the work that a key leaves after its frame (its widgets' messages, the study kept for recovery). On a machine
of few processors the terminal shares one with the app, and the scheduler ran that work first: seen in the system's
timeline, the kernel's worker that hands a pty's output on to its reader was queued behind the app's main thread, and
then the terminal, woken, waited on the same processor while the other one was idle; a frame, or its second piece
(Linux hands a pty's output on in pieces of a few kilobytes), reached the terminal only when the app's work was done.
Sleeping for no time let the worker run, not the terminal; a pause a few times a terminal's read lets both.

Textual reads the terminal's input on a thread of its own, which hands each event to the app's event loop
(``asyncio.run_coroutine_threadsafe``): a key woke that thread, then the loop, and waited for the interpreter's
lock in between. Here the loop reads the terminal itself (``loop.add_reader``), decodes and parses as Textual's
thread does, with the same parser and its timeout (a lone escape), and posts each event to the app from the loop.
Textual's thread still starts and stops as before: it hands the reading to the loop and waits for the input to be
disabled; where the loop cannot watch the terminal, it reads as Textual's own.
"""

from __future__ import annotations

import os
import select
import threading
import time
from codecs import getincrementaldecoder
from collections.abc import Iterable
from typing import IO

from textual._xterm_parser import XTermParser
from textual.drivers._writer_thread import WriterThread
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

TICK_S = 0.1
"""How often the parser is asked whether a sequence it waits on has timed out (Textual's thread asks at each of its
selects, at most this far apart): a lone escape is an escape key."""


def terminal_takes_more(file: IO[str]) -> bool:
    """Whether ``file`` has room for more output (a poll, never a wait). A frame bigger than the room left waits
    for the reader to take the rest, as a terminal that reads does at once; one that has stopped reading fills
    up, and its frames then go to the thread."""
    try:
        return bool(select.select([], [file.fileno()], [], 0)[1])
    except (OSError, ValueError):  # closed, or not a file the system can poll
        return False


READ_PAUSE_S = 0.0002
"""The pause after the frame of a key or a click, for the terminal to read it: a few times what a read takes."""


class DirectWriter(WriterThread):
    """Textual's output thread, bypassed while it is idle and the terminal is ready: a frame is then written by
    the caller, under a lock that the thread takes for each write it does, so that the two never interleave."""

    def __init__(self, file: IO[str]) -> None:
        super().__init__(file)
        self._lock = threading.Lock()
        self._queued = 0
        """Frames given to the thread and not written yet: while there are any, a frame queues behind them."""

    def write(self, text: str) -> None:
        with self._lock:
            if not self._queued and terminal_takes_more(self._file):
                try:
                    self._file.write(text)
                    self._file.flush()
                    return
                except OSError:  # a terminal gone (a hang-up): the thread meets it as Textual's would, not the app
                    pass
            self._queued += 1
        self._queue.put(text)

    def run(self) -> None:
        while (text := self._queue.get()) is not None:
            with self._lock:
                self._file.write(text)
                self._queued -= 1
                if not self._queued:
                    self._file.flush()
        with self._lock:
            self._file.flush()


class TerminalDriver(LinuxDriver):
    """Textual's driver for a terminal on Linux and macOS, with a :class:`DirectWriter` for its output thread and its
    input read on the app's event loop (:class:`LoopInput`)."""

    _loop_input: LoopInput | None = None
    _loop_thread: int | None = None
    posting_from_loop = False
    """Set while the loop's reading hands events on: they go straight into the app's queue."""
    _input_disabled = False
    """Set from :meth:`disable_input` until application mode starts again: the loop takes no reading over."""

    def let_the_terminal_read(self) -> None:
        """Pause the main thread a moment after the frame of a key or a click, so that the terminal reads it before
        the app goes on (see the module's docstring)."""
        time.sleep(READ_PAUSE_S)

    def run_input_thread(self) -> None:
        """The body of Textual's input thread: the reading handed to the event loop, then a wait until the input is
        disabled (:meth:`disable_input` takes the reading off the loop first). Textual's own reading where the loop
        cannot watch the terminal."""
        handed = threading.Event()
        taken: list[bool] = []

        def take_over() -> None:
            try:
                if not self._input_disabled:
                    loop_input = LoopInput(self)
                    self._loop.add_reader(self.fileno, loop_input.read)
                    self._loop_input, self._loop_thread = loop_input, threading.get_ident()
                    taken.append(True)
            except (OSError, ValueError, NotImplementedError):
                pass  # (a loop that cannot watch this file)
            finally:
                handed.set()

        try:
            self._loop.call_soon_threadsafe(take_over)
        except RuntimeError:  # the loop closed
            return
        while not handed.wait(TICK_S):
            if self.exit_event.is_set() or self._loop.is_closed():
                return
        if taken:
            self.exit_event.wait()
        else:
            super().run_input_thread()

    def send_message(self, message: Message) -> None:
        """Textual's; an event of the loop's reading goes straight into the app's queue (Textual's thread hands it
        to the loop through a coroutine scheduled from the thread)."""
        if self.posting_from_loop:
            self._app.post_message(message)
        else:
            super().send_message(message)

    def stop_reading_on_loop(self) -> None:
        """The loop no longer watches the terminal (its input ended, was disabled, or failed)."""
        if self._loop_input is not None:
            self._loop_input = None
            try:
                self._loop.remove_reader(self.fileno)
            except (OSError, ValueError, RuntimeError):
                pass

    def input_failed(self) -> None:
        """What Textual's input thread does when its reading fails: the app panics with the traceback."""
        import rich.traceback

        self.stop_reading_on_loop()
        self._app.call_later(self._app.panic, rich.traceback.Traceback())

    def disable_input(self) -> None:
        """Textual's, the reading taken off the loop first (Textual's sets the thread's exit and joins it)."""
        self._input_disabled = True
        if self._loop_input is not None:
            if threading.get_ident() == self._loop_thread:
                self.stop_reading_on_loop()
            elif not self._loop.is_closed():  # (Textual disables input on the loop's thread; this is in case)
                self._loop.call_soon_threadsafe(self.stop_reading_on_loop)
        super().disable_input()

    def start_application_mode(self) -> None:
        self._input_disabled = False
        super().start_application_mode()
        textuals, file = self._writer_thread, self._file
        # not started (a terminal it may not use)
        if textuals is None or type(textuals) is not WriterThread or file is None:
            return
        textuals.stop()  # it writes what it was given (the codes that begin application mode), then ends
        direct = DirectWriter(file)
        direct.start()
        self._writer_thread = direct


class LoopInput:
    """The terminal's input read on the app's event loop: each read decoded and parsed as Textual's input thread does,
    each event handed to the driver's processing as that thread hands it."""

    def __init__(self, driver: TerminalDriver) -> None:
        self.driver = driver
        self.parser = XTermParser(driver._debug)
        self.decode = getincrementaldecoder("utf-8")().decode
        self._ticking = False

    def read(self) -> None:
        """The loop's callback when the terminal has input."""
        driver = self.driver
        try:
            try:
                data = os.read(driver.fileno, 1024 * 4)
            except BlockingIOError:
                return
            except OSError:  # the terminal gone: nothing more to read (its hang-up ends the app)
                data = b""
            if not data:
                driver.stop_reading_on_loop()
                return
            self._hand_on(self.parser.feed(self.decode(data)))
            self._tick_later()
        except Exception:
            driver.input_failed()

    def _hand_on(self, events: Iterable[Message]) -> None:
        """Each event through the driver's processing, posted to the app from here (see
        :meth:`TerminalDriver.send_message`)."""
        driver = self.driver
        driver.posting_from_loop = True
        try:
            for event in events:
                driver.process_message(event)
        finally:
            driver.posting_from_loop = False

    def _tick_later(self) -> None:
        if not self._ticking:
            self._ticking = True
            self.driver._loop.call_later(TICK_S, self._tick)

    def _tick(self) -> None:
        self._ticking = False
        try:
            self._hand_on(self.parser.tick())
            if self.parser._timeout_time is not None:  # still waiting on a sequence's end
                self._tick_later()
        except Exception:
            self.driver.input_failed()
