"""Settings remembered between runs (theme, overlay, engine), and a theme change that repaints at once.

A mixin of :class:`~workbench.tui.app.WorkbenchApp`; the file itself is :mod:`workbench.settings`.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from ...engine import Geometry, Player, Position
from ...engine.geometry import format_variant, parse_variant
from ...settings import FORGOTTEN_OVERLAYS, Settings, SettingsError, load_settings, save_settings, settings_path
from ...state import AppState, EngineMode, GameTree

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object


class RememberedSettings(AppHost):
    """Reads the settings before the first paint and writes them (in a worker) when they change."""

    _settings: Settings
    _settings_lock: threading.Lock
    _settings_problem: str | None
    _settings_warned: bool

    def _load_settings(self, state: AppState | None, game: Geometry | None = None) -> AppState | None:
        """Apply the saved theme; apply the saved overlay and engine to a fresh state (an opened
        study keeps its own), on ``game`` or else the variant last played. A broken file leaves the
        defaults and a warning for on_mount."""
        self._settings_problem: str | None = None
        self._settings_warned = False
        self.first_run = not settings_path().exists()
        """No settings yet: the evaluation says how to begin on an empty study."""
        try:
            settings = load_settings()
        except SettingsError as error:
            self._settings_problem = f"{error}; starting on the defaults"
            settings = Settings()
        self._settings = settings
        self._settings_lock = threading.Lock()
        if settings.theme is not None:
            if settings.theme in self.available_themes:
                self.theme = settings.theme
            else:
                self._settings_problem = f"settings: no theme called {settings.theme!r}; using the default"
        if state is not None:
            return _with_cursor(state)
        geometry = game or parse_variant(settings.variant)  # (the settings hold only variants the app can start on)
        fresh = AppState(geometry=geometry, tree=GameTree.new(Position.empty(geometry)))
        view = replace(fresh.view, overlay=settings.overlay, highlighted=_with_cursor(fresh).view.highlighted)
        engine = replace(fresh.engine, mode=EngineMode(settings.engine_mode), side=Player(settings.engine_side))
        return replace(fresh, view=view, engine=engine)

    def _warn_about_settings(self) -> None:
        if self._settings_problem:
            self.notify(self._settings_problem, title="Settings", severity="warning", timeout=8)

    def _remember_settings(self) -> None:
        """Write the settings if they differ from those last read or written."""
        state = self.store.state
        overlay = state.view.overlay
        settings = Settings(
            theme=self.theme,
            overlay=self._settings.overlay if overlay in FORGOTTEN_OVERLAYS else overlay,
            engine_mode=state.engine.mode.value,
            engine_side=state.engine.side.value,
            variant=format_variant(state.geometry),
        )
        if settings == self._settings:
            return
        self._settings = settings
        self.run_worker(self._write_settings, thread=True, name="settings")

    def _write_settings(self) -> None:
        """Write the newest settings. One writer at a time, each taking the newest when it starts:
        two quick changes can never leave the older one in the file."""
        try:
            with self._settings_lock:
                save_settings(self._settings)
        except SettingsError as error:
            if not self._settings_warned:  # once a session: a read-only folder stays read-only
                self._settings_warned = True
                self.from_worker(self.notify, f"{error}; not remembered", title="Settings", severity="warning")

    def _theme_changed(self, _theme) -> None:
        """Every pane draws in the new colours at once. The line views and the tree keep their drawn
        lines: both draw them again once the new CSS is in (a line drawn during the style update can
        still read the old theme's "auto" text colour)."""
        from ..panes.lines import LinesView
        from ..panes.variation_tree import VariationTree

        for view in self.query(LinesView):
            self.call_after_refresh(view.invalidate)
        for tree in self.query(VariationTree):
            self.call_after_refresh(tree.redraw_lines)
        self._remember_settings()


def _with_cursor(state: AppState) -> AppState:
    """The board's cell cursor on the centre from the start, where the board would put it when it takes focus
    (after the first paint): the evaluation explains the cursor's move, and its first layout has those lines."""
    if state.view.highlighted is not None:
        return state
    return replace(state, view=replace(state.view, highlighted=(state.geometry.size + 1) // 2))
