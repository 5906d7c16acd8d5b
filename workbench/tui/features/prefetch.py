"""Reading a variant's analysis back while the new-game dialog lights it, so that choosing it shows the analysis at
once: in a fresh process a 4×4 strong solution takes a noticeable while to read back (numpy's import, its bytes read and
its digest checked: docs/benchmarks.md), which the user would otherwise wait for after Enter. What is read back and not
chosen is dropped when the dialog closes. Nothing is ever built or solved here: a variant that was never made waits for
the user's choice, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ...engine import Geometry
from ...kept.held import held, let_go
from ...state import Store


class PrefetchHost(Protocol):
    """What the prefetch uses of the app that owns it (the app passes itself; this module never imports it)."""

    store: Store

    def run_worker(
        self, work: Callable[[], Any], *, name: str | None = ..., thread: bool = ..., exit_on_error: bool = ...
    ) -> Any: ...

    def from_worker(self, callback: Callable[..., Any], *args: Any) -> Any: ...


class AnalysisPrefetch:
    """One thread at a time reads back the variant lit last; the bookkeeping stays on the UI thread."""

    def __init__(self, app: PrefetchHost) -> None:
        self._app = app
        self._wanted: Geometry | None = None  # read by the worker thread: the variant lit last, None once closed
        self._tried: set[Geometry] = set()
        self._read_back: set[Geometry] = set()  # read back and held here, while the dialog was open
        self._reading = False

    def consider(self, geometry: Geometry) -> None:
        """The dialog lights ``geometry``: read its analysis back unless it is at hand."""
        self._wanted = geometry
        if not self._reading and geometry not in self._tried and held(geometry) is None:
            self._reading = True
            self._app.run_worker(self._read_wanted, thread=True, name="prefetch-analysis", exit_on_error=False)

    def settle(self) -> None:
        """The dialog closed (its choice, if any, already made the game): drop what is not played."""
        self._wanted = None
        self._tried.clear()
        for geometry in self._read_back:
            self._drop_unless_played(geometry)
        self._read_back.clear()

    def _read_wanted(self) -> None:
        """Worker thread: read back the lit variant, then the one lit meanwhile, until it is one tried."""
        from ...kept.tables import read_back_analysis

        while (geometry := self._wanted) is not None and geometry not in self._tried:
            self._tried.add(geometry)
            before = held(geometry) is not None
            if read_back_analysis(geometry) and not before:
                self._app.from_worker(self._installed, geometry)
        self._app.from_worker(self._stopped)

    def _installed(self, geometry: Geometry) -> None:
        if self._wanted is None:  # the dialog closed while it was read
            self._drop_unless_played(geometry)
        else:
            self._read_back.add(geometry)

    def _stopped(self) -> None:
        self._reading = False
        if self._wanted is not None:  # lit as the thread ended
            self.consider(self._wanted)

    def _drop_unless_played(self, geometry: Geometry) -> None:
        if geometry != self._app.store.state.geometry:
            let_go(geometry)
