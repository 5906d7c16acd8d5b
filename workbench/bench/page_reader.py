"""The page reader: the screen a served app's page shows, rebuilt from the frames of the page's websocket in a pyte
terminal of the size the page asked for (the page's terminal draws on a canvas, which no program reads). The
browser bench times page loads and keys with it; the browser test reads the screen with it."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pyte

PANE_TITLES = ("Board", "Evaluation", "Symmetry", "History")


class PageScreen:
    """The screen a page's terminal shows, rebuilt from its websocket's frames: the page's own size messages
    resize it, the app's output is fed to it.

    A frame is only noted as it arrives (its time and bytes); the terminal emulator runs when the screen is
    asked for. pyte costs milliseconds a frame: run in the frame handler, it delayed the timing of every later
    frame of every tab, and took a core from the server being measured (seconds of CPU in the
    bench's own process with eight tabs, which made the page loads look seconds slower than they were)."""

    def __init__(self) -> None:
        self.events: list[tuple[float, str, Any]] = []
        """(perf_counter(), kind, data): "open" (columns, rows) for a new websocket, "resize" (columns, rows)
        the page sent, "out" the app's bytes."""
        self.sockets = 0
        self.arrived_at = 0.0
        """perf_counter() when the app's last frame arrived."""
        self._titles: set[str] = set()
        self._tail = b""
        self._replay = Replay()
        self._fed = 0
        self._text: str | None = None

    def attach(self, socket) -> None:
        """A new websocket: a new app (a loaded or reloaded page), its size in the address."""
        self.sockets += 1
        size = re.search(r"width=(\d+)&height=(\d+)", socket.url)
        columns, rows = (int(size.group(1)), int(size.group(2))) if size else (80, 24)
        self.events.append((time.perf_counter(), "open", (columns, rows)))
        self._titles, self._tail = set(), b""
        socket.on("framereceived", self._received)
        socket.on("framesent", self._sent)

    def _received(self, payload) -> None:
        if isinstance(payload, bytes):
            self.arrived_at = time.perf_counter()
            self.events.append((self.arrived_at, "out", payload))
            seen = self._tail + payload  # a title split between two frames
            self._titles.update(title for title in PANE_TITLES if title.encode() in seen)
            self._tail = payload[-16:]

    def _sent(self, payload) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = json.loads(payload)[1]
            self.events.append((time.perf_counter(), "resize", (size["width"], size["height"])))

    def titles_sent(self) -> bool:
        """The app has written the four pane titles since its page opened (cheap: no emulator run)."""
        return len(self._titles) == len(PANE_TITLES)

    def _catch_up(self) -> None:
        while self._fed < len(self.events):
            self._replay.apply(self.events[self._fed])
            self._fed += 1
            self._text = None

    def text(self) -> str:
        self._catch_up()
        if self._text is None:
            self._text = self._replay.text()
        return self._text

    @property
    def size(self) -> tuple[int, int]:
        self._catch_up()
        return self._replay.size

    def screens(self) -> Iterator[tuple[float, str]]:
        """Each screen the page showed, with the arrival of the frame that drew it, from the first frame on."""
        replay = Replay()
        for event in self.events:
            replay.apply(event)
            if event[1] == "out":
                yield event[0], replay.text()


class Replay:
    """A pyte terminal that the page's events are applied to, in order."""

    def __init__(self) -> None:
        self.screen: pyte.Screen | None = None
        self.stream: pyte.ByteStream | None = None

    def apply(self, event: tuple[float, str, Any]) -> None:
        _, kind, data = event
        if kind == "open":
            self.screen = pyte.Screen(*data)
            self.stream = pyte.ByteStream(self.screen)
        elif kind == "resize":
            assert self.screen is not None  # pragma: no mutate - a page's events start with its socket's opening
            self.screen.resize(data[1], data[0])
        else:
            assert self.stream is not None  # pragma: no mutate - a page's events start with its socket's opening
            self.stream.feed(data)

    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen is not None else ""

    @property
    def size(self) -> tuple[int, int]:
        return (self.screen.columns, self.screen.lines) if self.screen is not None else (0, 0)


def all_panes(text: str) -> bool:
    return all(title in text for title in PANE_TITLES)
