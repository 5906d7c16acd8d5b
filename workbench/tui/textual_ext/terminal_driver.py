"""The driver of the app in a terminal: Textual's, a frame written straight to the terminal when it can be.

Textual hands every frame to an output thread through a queue, so that a slow terminal never holds up the
app. Waking that thread costs the main thread a switch of threads at the end of each frame: on 15×15 at 200×60
that was about a sixth of a key's time in the app (the wake-up, then the wait for the thread to take the frame).
Here the main thread writes the frame itself when nothing is queued or being written and the terminal can take
more at once; otherwise the frame goes to the thread as before, behind the ones it holds, so that frames reach
the terminal in order and a terminal that has stopped reading still holds up nothing but the thread.
"""

from __future__ import annotations

import select
import threading
from typing import IO

from textual.drivers._writer_thread import WriterThread
from textual.drivers.linux_driver import LinuxDriver


def terminal_takes_more(file: IO[str]) -> bool:
    """Whether ``file`` has room for more output (a poll, never a wait). A frame bigger than the room left waits
    for the reader to take the rest, as a terminal that reads does at once; one that has stopped reading fills
    up, and its frames then go to the thread."""
    try:
        return bool(select.select([], [file.fileno()], [], 0)[1])
    except (OSError, ValueError):  # closed, or not a file the system can poll
        return False


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
    """Textual's driver for a terminal on Linux and macOS, with a :class:`DirectWriter` for its output thread."""

    def start_application_mode(self) -> None:
        super().start_application_mode()
        textuals, file = self._writer_thread, self._file
        # not started (a terminal it may not use)
        if textuals is None or type(textuals) is not WriterThread or file is None:
            return
        textuals.stop()  # it writes what it was given (the codes that begin application mode), then ends
        direct = DirectWriter(file)
        direct.start()
        self._writer_thread = direct
