"""The position search in a process of its own, for the app.

A search in a thread of the app's process held the interpreter for milliseconds at a time: every key the UI
thread handled waited for it again and again (stepping through a 15×15 game under Pilot was many times slower than
with no search: docs/benchmarks.md). In a process of its own it runs on another core and the UI thread never waits
for it.

:func:`start` runs ``python -m workbench.search_service FD`` and hands back the app's end of a socket pair,
wrapped as a :class:`multiprocessing.connection.Connection` (pickled messages). Not :mod:`multiprocessing`'s
own processes: they start a resource tracker that needs the app's stderr, which Textual has replaced, and
their "spawn" imports the app's main module again. The app sends requests; :func:`serve` (the child's whole
work) answers with reports:

* ``SearchRequest`` — search this position (the moves already proven go with it, so a search carries on),
  for at most ``seconds``; a newer request, or ``None``, stops it.
* ``None`` — stop whatever is running; the process is then idle. Closing the pipe ends the process.

Its first message is :data:`READY`: from then on the kernel ends it when the app ends, however the app ends. Until
then the app must not stop it with ``SIGSTOP`` (a process stopped before that is left behind by an app killed
outright). Reports are ``SearchReport``: what is proven so far, whether the search still runs and, at its end, why it
ended. One :class:`~workbench.engine.search.Searcher` per board lives as long as the process, so the searches
of nearby positions share its transposition table.

Rooms it may import: ``errors``, ``lifeline``, ``engine``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection

from .engine import Geometry, Position
from .engine.search import MoveResult, Searcher, SearchResult, search

REPORT_SECONDS = 0.25
"""How often a running search reports its node count."""
READY = "ready"
"""The child's first message: its end is tied to the app's (:func:`workbench.lifeline.die_with_parent`)."""
STOP_CHECK = 63
"""The search looks for a newer request every 64 nodes: on 15×15 a node costs about a millisecond."""


@dataclass(frozen=True, slots=True)
class SearchRequest:
    position: Position
    proven: tuple[MoveResult, ...]
    """What earlier goes proved: reported from the start (searched again, they come back at once from the
    transposition table)."""
    nodes: int
    """The nodes of the earlier goes: the count goes on from there."""
    seconds: float

    def __reduce__(self):
        return (SearchRequest, (self.position, self.proven, self.nodes, self.seconds))


@dataclass(frozen=True, slots=True)
class SearchReport:
    result: SearchResult
    running: bool
    ended: str | None = None
    """Once it has ended: ``"done"`` (every move proven), ``"time"`` (its go spent) or ``"stopped"``."""

    def __reduce__(self):
        return (SearchReport, (self.result, self.running, self.ended))


def serve(connection: Connection) -> None:
    """Answer requests until the pipe closes (the app ended, however it ended)."""
    searchers: dict[Geometry, Searcher] = {}
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        if isinstance(request, SearchRequest):
            try:
                _search(connection, request, searchers)
            except (BrokenPipeError, EOFError, OSError):
                return


def _search(connection: Connection, request: SearchRequest, searchers: dict[Geometry, Searcher]) -> None:
    position = request.position
    searcher = searchers.get(position.geometry)
    if searcher is None:
        searcher = searchers[position.geometry] = Searcher(position.geometry)
    searcher.stop_check = STOP_CHECK
    legal = position.legal_moves()
    proven = {move.cell: move for move in request.proven if move.proven}
    searcher.nodes = 0
    deadline = time.monotonic() + request.seconds
    next_report = time.monotonic() + REPORT_SECONDS
    interrupted = False

    def so_far() -> SearchResult:
        moves = tuple(proven.get(cell) or MoveResult(cell, None, None, 0) for cell in legal)
        return SearchResult(position, moves, request.nodes + searcher.nodes, len(proven) == len(legal))

    def should_stop() -> bool:
        nonlocal next_report, interrupted
        if connection.poll():  # a newer request, a stop, or the app gone
            interrupted = True
            return True
        now = time.monotonic()
        if now >= deadline:
            return True
        if now >= next_report:
            next_report = now + REPORT_SECONDS
            connection.send(SearchReport(so_far(), running=True))
        return False

    def progress(move: MoveResult, nodes: int) -> None:
        proven[move.cell] = move
        connection.send(SearchReport(so_far(), running=True))

    connection.send(SearchReport(so_far(), running=True))
    if len(proven) < len(legal):
        result = search(position, max_nodes=10**12, should_stop=should_stop, progress=progress, searcher=searcher)
        for move in result.moves:
            if move.proven:
                proven[move.cell] = move
    final = so_far()
    ended = "done" if final.complete else ("stopped" if interrupted else "time")
    connection.send(SearchReport(final, running=False, ended=ended))


def start() -> tuple[Connection, subprocess.Popen]:
    """The search process, started, and the app's end of its pipe. Its output goes nowhere: it must never
    draw on the app's terminal."""
    ours, theirs = socket.socketpair()
    with theirs:
        process = subprocess.Popen(
            [sys.executable, "-m", "workbench.search_service", str(theirs.fileno()), str(os.getpid())],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    return Connection(ours.detach()), process


def stop(connection: Connection, process: subprocess.Popen) -> None:
    """End the search process now (it holds nothing worth keeping) and reap it."""
    connection.close()
    process.kill()
    process.wait()


if __name__ == "__main__":  # pragma: no cover - the child of start(); serve() is tested in-process
    # this file runs as __main__: the requests unpickle as the classes of workbench.search_service, which
    # isinstance() here would not recognise
    from workbench.lifeline import die_with_parent
    from workbench.search_service import serve as serve_requests

    die_with_parent(int(sys.argv[2]))
    # below the app and the terminal it draws on: where cores are few, a key's frame comes first
    os.nice(10)
    app_end = Connection(int(sys.argv[1]))
    try:
        app_end.send(READY)
    except OSError:  # the app has gone already
        sys.exit(0)
    serve_requests(app_end)
