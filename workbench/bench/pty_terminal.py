"""A real terminal for the benchmarks: the app run on a pseudo-terminal, its screen read as a terminal would
(pyte), and each key's bytes."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Sequence

import pyte

SETTLE_S = 1.0
"""Seconds without output that make a recorded settled screen."""

LIMIT_S = 10.0
"""A key whose screen has not settled by then is reported as a failure, not waited on."""

KEYS = {
    "left": b"\x1b[D",
    "right": b"\x1b[C",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "backspace": b"\x7f",
    "enter": b"\r",
    "escape": b"\x1b",
    "ctrl+z": b"\x1a",
    "colon": b":",
}

Snapshot = tuple[tuple[tuple, ...], ...]

TICK_READ_S = 0.05
"""With a ticking line, output never pauses: the screen is compared at least this often."""


def key_bytes(key: str) -> bytes:
    return KEYS.get(key, key.encode())


def _take_the_terminal() -> None:
    """In the child: make the pty its controlling terminal, as a terminal emulator does, so that closing
    it sends SIGHUP. Without one, an app left behind by a crashed bench reads EIO forever and spins."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A process on a pseudo-terminal of ``columns`` × ``rows``, and the screen it draws."""

    def __init__(
        self, argv: Sequence[str], columns: int, rows: int, env: dict[str, str], ticking: re.Pattern | None = None
    ) -> None:
        self.columns, self.rows = columns, rows
        self.ticking = ticking
        """Text matching it changes on their own (a search's node count four times a second, moves proven as it
        goes): those cells are left out of every screen compared, or the screen would never settle, nor ever
        be the same screen twice."""
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
            close_fds=True,
            preexec_fn=_take_the_terminal,
        )
        os.close(slave)
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.bytes_read = 0

    def send(self, key: str) -> float:
        data = key_bytes(key)
        start = time.perf_counter()
        os.write(self.master, data)
        # Linux hands the key on to the app by a kernel worker woken on this processor, which waited behind whatever
        # this process computed next (a snapshot of the screen): sleeping for no time lets it run first
        time.sleep(0)
        return start

    def read(self, quiet: float, limit: float) -> list[tuple[float, bytes]]:
        """Chunks of output with their arrival times, until ``quiet`` seconds pass with none (or ``limit``)."""
        chunks: list[tuple[float, bytes]] = []
        deadline = time.perf_counter() + limit
        while True:
            timeout = min(quiet, deadline - time.perf_counter())
            if timeout <= 0:
                return chunks
            ready, _, _ = select.select([self.master], [], [], timeout)
            if not ready:
                return chunks
            try:
                data = os.read(self.master, 1 << 16)
            except OSError:  # the process ended and closed the terminal
                return chunks
            if not data:
                return chunks
            chunks.append((time.perf_counter(), data))

    def feed(self, data: bytes) -> None:
        self.bytes_read += len(data)
        self.stream.feed(data)

    def snapshot(self) -> Snapshot:
        buffer = self.screen.buffer
        rows = []
        for y in range(self.rows):
            cells: list = [buffer[y][x] for x in range(self.columns)]
            if self.ticking is not None:
                text = "".join(cell.data[:1] or " " for cell in cells)  # a character a column
                for match in self.ticking.finditer(text):
                    cells[match.start() : match.end()] = [None] * (match.end() - match.start())
            rows.append(tuple(cells))
        return tuple(rows)

    def read_until_still(
        self, quiet: float, limit: float, *, first_change: bool = False, shown: Snapshot | None = None
    ) -> list[tuple[float, Snapshot]]:
        """Read and feed the output until the screen (its ticking lines left out) has not changed for ``quiet``
        seconds, or ``limit`` passes; each change with the moment the output that made it arrived. With
        ``first_change``, the quiet spell counts only from a first change (a process still starting up).
        ``shown``: the screen's snapshot as it is, when the caller has just taken it."""
        changes: list[tuple[float, Snapshot]] = []
        last = self.snapshot() if shown is None else shown
        still_since = time.perf_counter()
        deadline = still_since + limit
        while True:
            now = time.perf_counter()
            waiting_for_first = first_change and not changes
            wait = deadline - now if waiting_for_first else min(quiet - (now - still_since), deadline - now)
            if wait <= 0:
                return changes
            # a ticking screen never pauses, and a first change must not wait out the whole limit: short reads
            short = self.ticking is not None or waiting_for_first
            chunks = self.read(min(wait, TICK_READ_S), wait) if short else self.read(wait, wait)
            if not chunks and self.process.poll() is not None and not self._pending():
                return changes
            for arrived, data in chunks:
                self.feed(data)
                current = self.snapshot()
                if current != last:
                    changes.append((arrived, current))
                    last, still_since = current, arrived

    def _pending(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], 0)
        return bool(ready)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def settle(self, quiet: float = SETTLE_S, limit: float = 60.0) -> Snapshot:
        self.read_until_still(quiet, limit)
        return self.snapshot()

    def wait_for(self, condition: Callable[[], object], limit: float, quiet: float) -> bool:
        """Read and feed the output until ``condition()`` holds; False if ``limit`` seconds pass first, or
        the process ends, without it."""
        deadline = time.perf_counter() + limit
        while not condition():
            left = deadline - time.perf_counter()
            # the condition is looked at again at least every ``quiet`` seconds: a ticking screen never pauses
            span = min(quiet, left)
            chunks = self.read(span, span) if left > 0 else []
            if not chunks and (left <= 0 or self.process.poll() is not None):
                return False
            for _, data in chunks:
                self.feed(data)
        return True

    def press(self, key: str, quiet: float = SETTLE_S) -> Snapshot:
        """Send ``key``, wait for the screen to change, then for it to settle. Waiting for the change
        first keeps a slow start (a loaded machine) from being taken for the settled screen of the key."""
        before = self.snapshot()
        self.send(key)
        if not self.wait_for(lambda: self.snapshot() != before, LIMIT_S, quiet):
            raise RuntimeError(f"{key!r} did not change the screen within {LIMIT_S:.0f} s")
        return self.settle(quiet=quiet)

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        os.close(self.master)
