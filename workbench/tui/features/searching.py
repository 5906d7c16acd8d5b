"""Searching the position on a board beyond the strong solutions (above 16 cells), in a process of its own.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`; it works on the app's ``store``. Each position shown is searched,
move by move, by :mod:`workbench.search_service` in a child process (started with the first such board, ended with the
app): a search in a thread held the interpreter the UI thread needs for every key. What it proves reaches the store as
:class:`~workbench.state.actions.SearchFound` while it runs (each proven move, and the node count four times a second),
read off the pipe by the event loop itself, so the panes fill in as it goes: at most one redraw every :data:`DRAW_GAP`
while it runs (the newest report), its end at once. A go lasts at most :data:`SEARCH_SECONDS`; ``s`` stops a search, or
searches the position further. Stepping to another position stops the search of this one; the new one is searched once
it has stayed :data:`SEARCH_AFTER` on the board.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from typing import TYPE_CHECKING

from textual.timer import Timer

from ...engine import Position
from ...state.actions import SearchFound

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object

if TYPE_CHECKING:  # the service (and multiprocessing's modules) are imported with the first search, not by the
    # first paint of every board (the modules a start imports are a good part of its time)
    from multiprocessing.connection import Connection

    from ...search_service import SearchReport, SearchRequest

SEARCH_SECONDS = 30.0
"""One go of the search of a position; ``s`` gives it another."""
SEARCH_AFTER = 0.4
"""Seconds a position stays on the board before its search starts. A position stepped through on the way to
another is not searched: each start and stop of the search process's work cost every key of a walk through a
game 2–4 ms on a 2-core machine, and what such a search proves is never looked at. The search of the position
left stops at once."""
INPUT_QUIET = 0.5
"""Seconds without a key or a click after which a search held for the user's input goes on (see
:meth:`PositionSearch._hold_search_for_input`)."""
DRAW_GAP = 0.1
"""Seconds between two redraws of a running search: on 15×15 it can prove thirty moves a second, and a redraw of
the evaluation costs milliseconds that a key pressed meanwhile would wait for. Its end is drawn at once."""


def latest_reports(reports: list[SearchReport]) -> list[SearchReport]:
    """Of reports read at once, those that say something the later ones do not: a running search's report is
    dropped when a later one of the same position follows it (each holds all that was proven so far). A frame
    that fell behind a search proving several moves at once then draws once, not once a report."""
    last = {report.result.position: index for index, report in enumerate(reports)}
    return [
        report
        for index, report in enumerate(reports)
        if report.ended is not None or last[report.result.position] == index
    ]


class PositionSearch(AppHost):
    """Search the position on the board when the board is too big to be solved whole."""

    def _init_search(self) -> None:
        self._search_pipe: Connection | None = None
        """The app's end of the pipe to the search process, once started."""
        self._search_process: subprocess.Popen | None = None
        self._search_ready = False
        """Whether the search process has said :data:`~workbench.search_service.READY` (only then may it be held
        for the user's input: its end is tied to the app's from then on)."""
        self._searched_enough: set[Position] = set()
        """Positions whose search had its go, or was stopped by ``s``: not searched again unless ``s`` asks.
        One left for another position before its go ended is searched on when it is back on the board."""
        self._stopping: Position | None = None
        """The position ``s`` stopped the search of, until that search has ended."""
        self._held_report: SearchReport | None = None
        """The newest report of a running search that came within :data:`DRAW_GAP` of the last one drawn."""
        self._draw_gap: Timer | None = None
        """Running until :data:`DRAW_GAP` has passed since a running search's report was drawn."""
        self._search_soon: Timer | None = None
        """Running until the position on the board has stayed :data:`SEARCH_AFTER`, then searching it."""
        self._search_held: Timer | None = None
        """Running while the search process is stopped for the user's input, until :data:`INPUT_QUIET` passes."""
        self._last_input = 0.0
        """``time.monotonic()`` of the user's last key or click."""

    def _hold_search_for_input(self) -> None:
        """A key or a click came: stop the search's process until the user's input has been quiet for
        :data:`INPUT_QUIET`.

        On a machine with few cores a running search made each key later (docs/benchmarks.md), though it runs at
        nice 10: the app's threads wait for a core all the same. Held, it loses at most
        :data:`INPUT_QUIET` a key. Its go is counted in the time that passes, held or not."""
        self._last_input = time.monotonic()
        process = self._search_process
        if process is None or self._search_held is not None or not self._search_ready:
            return
        if self._signal_search(signal.SIGSTOP):
            self._search_held = self.set_timer(INPUT_QUIET, self._input_quiet)

    def _input_quiet(self) -> None:
        left = self._last_input + INPUT_QUIET - time.monotonic()
        if left > 0:  # a key came meanwhile: from that key on
            self._search_held = self.set_timer(left, self._input_quiet)
            return
        self._search_held = None
        self._signal_search(signal.SIGCONT)

    def _drop_hold(self) -> bool:
        """Stop the timer of a hold for the user's input, if one runs; whether one did."""
        if self._search_held is None:
            return False
        self._search_held.stop()
        self._search_held = None
        return True

    def _signal_search(self, signal_number: int) -> bool:
        """Send the search's process ``signal_number``; False when there is none (it ended, or was killed)."""
        process = self._search_process
        if process is None:
            return False
        try:
            os.kill(process.pid, signal_number)
        except OSError:  # gone (reaped by someone else), or no longer ours to signal
            return False
        return True

    def _position_changed(self) -> None:
        """The board shows another position: stop searching the one left, and search this one if it stays."""
        state = self.store.state
        if not state.searched:
            self._maybe_search()  # stops a search of the board left, if any
            return
        if state.searching is not None and state.searching != state.position:
            self._stop_search()
        if self._search_soon is not None:
            self._search_soon.stop()
        self._search_soon = self.set_timer(SEARCH_AFTER, self._search_after_stay)

    def _search_after_stay(self) -> None:
        self._search_soon = None
        self._maybe_search()

    def _maybe_search(self) -> None:
        """Start searching the position on the board, unless it is searched already (running or stopped: ``s``
        goes on) or nothing is left to search."""
        state = self.store.state
        position = state.position
        if not state.searched or position.is_over:
            self._stop_search()
            return
        if state.searching == position or position in self._searched_enough or state.analysis.proven:
            return
        self._start_search(position)

    def _start_search(self, position: Position) -> None:
        """Ask for ``position`` to be searched (a search still running stops first and reports so)."""
        from ...search_service import SearchRequest

        earlier = self.store.state.search_of(position)
        request = SearchRequest(
            position, earlier.moves if earlier else (), earlier.nodes if earlier else 0, SEARCH_SECONDS
        )
        self._send_to_search(request)

    def _stop_search(self) -> None:
        if self._search_pipe is not None:
            self._send_to_search(None)

    def _send_to_search(self, request: SearchRequest | None) -> None:
        if self._search_pipe is None:
            self._start_search_process()
        pipe = self._search_pipe
        assert pipe is not None  # pragma: no mutate - started just above
        try:
            pipe.send(request)
        except (OSError, ValueError):  # the process has gone (killed from outside): a new one next time
            self._end_search_process()

    def _start_search_process(self) -> None:
        from ... import search_service

        self._search_pipe, self._search_process = search_service.start()
        self._search_ready = False
        asyncio.get_running_loop().add_reader(self._search_pipe.fileno(), self._read_search_reports)

    def _end_search_process(self) -> None:
        """End the search process, if one runs (the app ends, or the process was found gone)."""
        pipe, process = self._search_pipe, self._search_process
        if pipe is None or process is None:  # (the two are set together)
            return
        self._drop_hold()  # (a stopped process is killed all the same)
        self._search_pipe = self._search_process = None
        from ... import search_service

        try:
            asyncio.get_running_loop().remove_reader(pipe.fileno())
        except (RuntimeError, OSError, ValueError):  # no loop any more, or the pipe is closed already
            pass
        search_service.stop(pipe, process)

    def _read_search_reports(self) -> None:
        if self._drop_hold():
            # it may have been stopped partway through a report: recv() would wait on the main thread for the
            # rest, which a stopped process never sends (and the timer that would let it go on runs there too)
            self._signal_search(signal.SIGCONT)
        from ...search_service import READY

        pipe = self._search_pipe
        reports: list[SearchReport] = []
        try:
            while pipe is not None and pipe.poll():
                message = pipe.recv()
                if message == READY:
                    self._search_ready = True
                else:
                    reports.append(message)
        except (EOFError, OSError):  # the process has gone (killed from outside): a new one for the next search
            self._reports_read(reports)
            if self._held_report is not None:
                self._search_reported(self._held_report)
            self._end_search_process()
            state = self.store.state
            if state.searching is not None:  # what it proved stays; it is no longer searching
                from ...search_service import SearchReport

                found = state.search_of(state.searching)
                assert found is not None  # pragma: no mutate - a position is searching once its first report is in
                self._search_reported(SearchReport(found, running=False, ended="stopped"))
                self.notify("The search's process ended: s searches again.", severity="warning", timeout=4)
            return
        self._reports_read(reports)

    def _reports_read(self, reports: list[SearchReport]) -> None:
        for report in latest_reports(reports):
            if report.ended is None and self._draw_gap is not None:
                self._held_report = report  # drawn when the gap ends, unless a newer report comes first
            else:
                self._search_reported(report)

    def _draw_gap_over(self) -> None:
        self._draw_gap = None
        if self._held_report is not None:
            self._search_reported(self._held_report)

    def _search_reported(self, report: SearchReport) -> None:
        self._held_report = None  # older than this one, which holds all it held (or ends its search)
        if report.ended is None:
            if self._draw_gap is not None:  # a held report drawn before its gap ended (the process found gone)
                self._draw_gap.stop()
            self._draw_gap = self.set_timer(DRAW_GAP, self._draw_gap_over)
        position = report.result.position
        if report.ended is not None:
            # its go is over (done, its time spent, or stopped by s) unless another position took its place
            if report.ended != "stopped" or self._stopping == position:
                self._searched_enough.add(position)
            if self._stopping == position:
                self._stopping = None
        self.store.dispatch(SearchFound(result=report.result, running=report.running))

    def action_search(self) -> None:
        """``s``: stop the search of this position, or search it further."""
        state = self.store.state
        if not state.searched or state.position.is_over:
            return
        if state.searching == state.position:
            self._stopping = state.position
            self._stop_search()
            self.notify("Search stopped: s searches on.", timeout=2)
        elif state.analysis.proven:
            self.notify("Every move here is proven already.", timeout=2)
        else:
            self._start_search(state.position)
