"""Searching the position on a board beyond the strong solutions (above 16 cells), off the UI thread.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`; it works on the app's ``store``. Each position shown is
searched in a thread worker, move by move (:func:`workbench.engine.search.search`); what it proves reaches the
store as :class:`~workbench.state.actions.SearchFound` while it runs (each proven move, and the node count four
times a second), so the panes fill in as it goes. A go lasts at most :data:`SEARCH_SECONDS`; ``s`` stops a
search, or searches the position further. Stepping to another position stops the search of this one.
"""

from __future__ import annotations

import threading
import time

from textual.worker import get_current_worker

from ..engine import Geometry, Position
from ..engine.analysis import is_searched
from ..engine.search import MoveResult, Searcher, SearchResult, search
from ..state.actions import SearchFound

SEARCH_SECONDS = 30.0
"""One go of the search of a position; ``s`` gives it another."""
REPORT_SECONDS = 0.25
"""How often a running search tells the panes its node count."""
STOP_CHECK = 63
"""The search asks whether to stop every 64 nodes: on 15×15 a node costs about a millisecond."""


class PositionSearch:
    """Search the position on the board when the board is too big to be solved whole."""

    _searchers: dict[Geometry, Searcher]
    _search_lock: threading.Lock

    def _init_search(self) -> None:
        self._searchers = {}
        """One per board: its transposition table is what the searches of nearby positions share."""
        self._search_lock = threading.Lock()
        """Held by the one search running: a newer one waits for the one it replaced to stop."""
        self._searched_enough: set[Position] = set()
        """Positions whose search had its go, or was stopped by ``s``: not searched again unless ``s`` asks.
        One left for another position before its go ended is searched on when it is back on the board."""
        self._stopping: Position | None = None
        """The position ``s`` stopped the search of, until that search has ended."""

    def _maybe_search(self) -> None:
        """Start searching the position on the board, unless it is searched already (running or stopped: ``s``
        goes on) or nothing is left to search."""
        state = self.store.state
        position = state.position
        if not is_searched(state.geometry) or position.is_over:
            self._stop_search()
            return
        if state.searching == position or position in self._searched_enough or state.analysis.proven:
            return
        self._start_search(position)

    def _start_search(self, position: Position) -> None:
        # exclusive: a newer search cancels the older (it stops within 64 nodes and hands over the lock)
        self.run_worker(lambda: self._search(position), thread=True, name="search", group="search",  # pragma: no mutate
                        exclusive=True, exit_on_error=False)  # fmt: skip

    def _stop_search(self) -> None:
        self.workers.cancel_group(self, "search")

    def action_search(self) -> None:
        """``s``: stop the search of this position, or search it further."""
        state = self.store.state
        if not is_searched(state.geometry) or state.position.is_over:
            return
        if state.searching == state.position:
            self._stopping = state.position
            self._stop_search()
            self.notify("Search stopped: s searches on.", timeout=2)
        elif state.analysis.proven:
            self.notify("Every move here is proven already.", timeout=2)
        else:
            self._start_search(state.position)

    def _search(self, position: Position) -> None:
        worker = get_current_worker()
        with self._search_lock:
            if worker.is_cancelled:
                return
            searcher = self._searchers.setdefault(position.geometry, Searcher(position.geometry))
            searcher.stop_check = STOP_CHECK
            legal = position.legal_moves()
            earlier = self.store.state.search_of(position)
            proven: dict[int, MoveResult] = {move.cell: move for move in earlier.moves if move.proven} if earlier else {}
            earlier_nodes = earlier.nodes if earlier else 0  # searching on: the count goes on from the last go's
            searcher.nodes = 0
            deadline = time.monotonic() + SEARCH_SECONDS
            next_report = time.monotonic() + REPORT_SECONDS

            def so_far() -> SearchResult:
                moves = tuple(proven.get(cell) or MoveResult(cell, None, None, 0) for cell in legal)
                return SearchResult(position, moves, earlier_nodes + searcher.nodes, len(proven) == len(legal))

            def report(running: bool) -> None:
                self.from_worker(self.store.dispatch, SearchFound(result=so_far(), running=running))

            def finish() -> None:
                # its go is over (done, its time spent, or stopped by s) unless another position took its place
                if not worker.is_cancelled or self._stopping == position:
                    self._searched_enough.add(position)
                if self._stopping == position:
                    self._stopping = None
                self.store.dispatch(SearchFound(result=so_far(), running=False))

            def should_stop() -> bool:
                nonlocal next_report
                now = time.monotonic()
                if worker.is_cancelled or now >= deadline:
                    return True
                if now >= next_report:
                    next_report = now + REPORT_SECONDS
                    report(True)
                return False

            def progress(move: MoveResult, nodes: int) -> None:
                proven[move.cell] = move
                report(True)

            report(True)
            result = search(position, max_nodes=10**12, should_stop=should_stop, progress=progress, searcher=searcher)
            for move in result.moves:
                if move.proven:
                    proven[move.cell] = move
            self.from_worker(finish)
