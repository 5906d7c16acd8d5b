"""The engine as an opponent: which mode, which side, and its move picked off the UI thread.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`; it works on the app's ``store``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import Player
from ...state import AppState, EngineMode, choose_move
from ...state.actions import SetEngine

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object

ENGINE_CYCLE = (EngineMode.OFF, EngineMode.PERFECT, EngineMode.TRAP, EngineMode.RANDOM)


class EnginePlay(AppHost):
    """Cycle the engine's mode and side; when it is the engine's turn, pick its move in a worker."""

    def _maybe_engine_move(self) -> None:
        state = self.store.state
        if self.library_status == "opening" or self._restore_pending:
            return  # a study left by a crash is offered back first: an engine move now would be an unsaved change
        if self.ready and state.engine_to_move:
            # the group only makes a newer search replace an older one: any name unique to it does
            self.run_worker(
                lambda: self._pick_engine_move(state),
                thread=True,
                name="engine",
                group="engine",  # pragma: no mutate - any unique group does
                exclusive=True,
                exit_on_error=False,
            )

    def _pick_engine_move(self, state: AppState) -> tuple[int, int | None]:
        return state.cursor, choose_move(state.analysis, state.engine.mode, self._rng)

    def action_cycle_engine(self) -> None:
        engine = self.store.state.engine
        mode = ENGINE_CYCLE[(ENGINE_CYCLE.index(engine.mode) + 1) % len(ENGINE_CYCLE)]
        self.store.dispatch(SetEngine(mode=mode))
        self.notify(
            f"Engine: {mode.value}" + ("" if mode is EngineMode.OFF else f", playing {engine.side.value}"), timeout=2
        )

    def action_swap_engine_side(self) -> None:
        engine = self.store.state.engine
        self.store.dispatch(SetEngine(mode=engine.mode, side=engine.side.other))
        off = " when it is on (e)" if engine.mode is EngineMode.OFF else ""
        self.notify(f"Engine plays {engine.side.other.value}{off}", timeout=2)

    def action_set_engine(self, mode: str, side: str) -> None:
        self.store.dispatch(SetEngine(mode=EngineMode(mode), side=Player(side)))
