"""The engine's tables of the variant being played, made ready for the panes: read back from the cache before the
first paint where that is quick, else made in a worker while the panes say how far it is; a mixin of the app.

Also :meth:`AnalysisTables.from_worker`, how every worker of the app hands a result back to the UI thread.
"""

from __future__ import annotations

import gc
from functools import partial
from typing import TYPE_CHECKING

from textual import events

from ...engine import Geometry, Position
from ...engine.answers import Answers
from ...engine.geometry import MAX_STRONG_CELLS, describe_variant
from ...state import UseAnswers
from ..panes.evaluation import EvaluationView

if TYPE_CHECKING:
    from ...state import AppState
    from .host import AppHost
else:
    AppHost = object


class AnalysisTables(AppHost):
    """The app's part that makes the analysis ready: its `ready` and `preparing` are the app's reactives."""

    def on_load(self) -> None:
        # Tables read back from the cache are there for the first paint; building them
        # (several times longer: the first run, or after an engine change) is a worker's
        # job, with the panes saying so meanwhile. A worker for the cheap case would only
        # delay the first paint: it competes for the GIL with the screen being set up.
        # (The command starts on them before importing the app: they are usually
        # ready here; if that thread is still busy, the worker waits for it.)
        answers = self._answers_at_hand(self.store.state.geometry)
        if answers is not None:
            self._tables_ready(answers)
        else:
            self.run_worker(self._build_tables, thread=True, name="build-tables", exit_on_error=False)

    def _build_tables(self) -> Answers:
        """The exact analysis of the variant being played, as :func:`workbench.kept.answers_for` chooses it: its
        tables (up to 12 cells), or its strong solution (13-16 cells), read back from the cache or made and kept
        there; its empty board analysed once, so the first pane drawn finds it at hand. The worker's result, which
        :meth:`_tables_ready` hands to the store."""
        import time

        from ...engine.solve_progress import describe_progress, solve_fraction
        from ...kept import answers_for

        geometry = self.store.state.geometry
        started = time.monotonic()

        def progress(stage: str, done: int, total: int) -> None:
            # one bar for the four stages, not four runs from zero; the time left from the time so far
            fraction = solve_fraction(geometry, stage, done, total)
            bar = "━" * round(30 * fraction) + "─" * (30 - round(30 * fraction))
            text = describe_progress(stage, fraction, time.monotonic() - started)
            self.from_worker(setattr, self, "preparing", f"{text}\n{bar}")

        answers = answers_for(geometry, progress)
        answers.analyze(Position.empty(geometry))
        return answers

    def from_worker(self, callback, *args, **options) -> None:
        """``callback(*args, **options)`` on the UI thread, soon; the worker thread calling this goes on at once.

        Not Textual's ``call_from_thread``, which waits for the callback: once the app has stopped, a callback
        queued as its loop ran for the last time is never run, and the worker waits for ever. A strong solve
        waiting so holds the lock that every later solve in the process needs (a hang seen under pytest-xdist,
        where one process runs many apps)."""
        try:
            self.post_message(events.Callback(callback=partial(callback, *args, **options)))
        except RuntimeError:  # its loop is closed: the app is gone, nothing is left to tell
            pass

    def _tables_ready(self, answers: Answers) -> None:
        """The board's ``answers`` are made: into the store (every pane asks them from now on), and the app ready."""
        if answers.geometry != self.store.state.geometry:  # the rules changed while they were built
            if self.store.state.answers is None:  # and this board's are not at hand either
                self.run_worker(self._build_tables, thread=True, name="build-tables", exit_on_error=False)
            return
        self.store.dispatch(UseAnswers(answers=answers))
        # The tables live as long as the app: keep the collector from rescanning
        # them on every full collection, which would stall keypresses.
        gc.freeze()
        self.ready = True
        self.call_after_refresh(self._maybe_search)  # after the first paint: starting the search's process costs
        self._maybe_engine_move()

    def _values_not_ready(self, *, timeout: float | None = None) -> bool:
        """The board's exact values are still being made (a worker reads, builds or solves them): said, for
        ``timeout`` seconds (Textual's default where None), and True. What asks for them waits, rather than make
        them on the UI thread or fail; False too on a board searched position by position, which has none to wait
        for."""
        state = self.store.state
        if state.answers is not None or state.searched:
            return False
        self.notify(
            f"The exact values of {describe_variant(state.geometry)} are still being made: a moment.",
            severity="warning",
            timeout=timeout,
        )
        return True

    def watch_preparing(self, text: str) -> None:
        self.query_one(EvaluationView).preparing = text

    @staticmethod
    def _answers_at_hand(geometry: Geometry) -> Answers | None:
        """The variant's answers where they cost no making (the store asks too, for a state of another board): held
        by this process already, its tables read back from the cache at once (on the classic board's size only:
        3x4's take longer than a frame, a worker's job), or past 16 cells a kept solution opened or the search;
        else None."""
        from ...kept import answers_for
        from ...kept.held import held
        from ...kept.tables import ready_tables

        if geometry.size > MAX_STRONG_CELLS:  # 17-20 cells solved by `workbench solve`: exact; else searched
            return answers_for(geometry)
        answers = held(geometry)
        if answers is None and geometry.size <= 9 and ready_tables(geometry) is not None:
            answers = held(geometry)
        return answers

    def _rules_changed(self, state: AppState) -> bool:
        """Another variant: unless its answers came with the state (the store asked :meth:`_answers_at_hand`;
        returns True), the panes stop reading an analysis and a worker makes them (3x4's tables, a 4x4 strong
        solution) while they say so. Called before the panes see the new state: they must never read the
        analysis of a board whose answers are not made."""
        if state.answers is not None:
            return True
        self.preparing = ""
        self.ready = False
        self.run_worker(self._build_tables, thread=True, name="build-tables", exit_on_error=False)
        return False
