"""The workbench app: owns the store, lays out the four panes, routes actions.

The keys' actions on the game (:mod:`.game_actions`), the layout for the terminal's size
(:mod:`.layout`), the library's games (:mod:`.library_games`), the file flows
(:mod:`.study_files`), keeping unsaved work safe (:mod:`.recovery`), the engine as an opponent
(:mod:`.engine_play`) and the palette's entries (:mod:`.commands`) are mixed in from modules of
their own; what reads Textual's internals is behind :mod:`.textual_ext`. Dialogs are imported where they open: they pull
in widgets the first paint never needs.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ..engine import Geometry
from ..engine.geometry import describe_variant
from ..state import (
    AppState,
    EngineMode,
    Store,
    refusal,
)
from ..state.actions import (
    PlayCell,
)
from . import textual_ext
from .features.commands import PaletteCommands
from .features.engine_play import EnginePlay
from .features.game_actions import GameActions
from .features.layout import Layout, ResponsiveLayout, layout_for
from .features.library_games import LibraryGames
from .features.practising import Practising
from .features.prefetch import AnalysisPrefetch
from .features.recovery import Recovery
from .features.remembered import RememberedSettings
from .features.searching import PositionSearch
from .features.study_files import StudyFiles
from .features.tables import AnalysisTables
from .messages import Dispatch
from .panes.bars import KeysFooter
from .panes.board import BoardGrid, BoardPane, BoardStatus
from .panes.evaluation import EvaluationPane
from .panes.history import HistoryPane
from .panes.lines import ellipsis
from .panes.symmetry import SymmetryPane

_DRAWN_AT_ONCE = (events.Key, events.MouseDown, events.MouseUp, events.MouseScrollDown, events.MouseScrollUp)
"""The user's input whose frame the fast path's screen draws at once (a mouse's moves keep Textual's pace)."""


class WorkbenchApp(
    AnalysisTables,
    GameActions,
    ResponsiveLayout,
    LibraryGames,
    StudyFiles,
    Recovery,
    EnginePlay,
    PositionSearch,
    Practising,
    PaletteCommands,
    RememberedSettings,
    App[int],
):
    """Tic-Tac-Toe analysis: Board, Evaluation, Symmetry and History over one store."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute, so subclasses elsewhere find it
    TITLE = "workbench"
    ALLOW_IN_MAXIMIZED_VIEW = "KeysFooter"  # a zoomed pane keeps the keys, as with Textual's Footer

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True),
        Binding("q", "request_quit", "Quit", show=False),
        Binding("f1,question_mark", "help", "Help"),
        Binding("n", "new_game", "New"),
        Binding("colon", "type_cell", "Play a cell by number or coordinate", show=False, key_display=":"),
        Binding("i", "set_up", "Set up"),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+o", "open", "Open"),
        Binding("x", "export", "Export"),
        Binding("v", "toggle_values", "Values"),
        Binding("m", "cycle_mask", "Mask"),
        Binding("L", "learn", "Learn"),
        Binding("u", "puzzles", "Puzzles", show=False),
        Binding("r", "toggle_line", "Best line on the board, in order (after a mistake: its refutation)", show=False),
        Binding("e", "cycle_engine", "Engine"),
        Binding("E", "swap_engine_side", "Engine side", show=False),
        Binding("c", "comment", "Comment", show=False),
        Binding("z", "zoom", "Zoom pane", show=False),
        Binding("g", "games_like_this", "Games like this", show=False),
        # boards above 16 cells only (check_action); the evaluation says so beside the search's progress
        Binding("s", "search", "Search: stop, or search on", show=False),
        # the game's navigation, as on an analysis board, from whichever pane has focus
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("right", "step(1)", "Forward", priority=True),
        Binding("home", "to_start", "Start", show=False, priority=True),
        Binding("end", "to_end", "End", show=False, priority=True),
        Binding("up", "variation(-1)", "Previous variation", show=False, priority=True),
        Binding("down", "variation(1)", "Next variation", show=False, priority=True),
        Binding("backspace", "back", "Back", show=False),
        Binding("space", "play_best", "Play best move", show=False, priority=True),  # over the tree's own space
        Binding("b", "add_best_line", "Add best line", show=False),
        Binding("ctrl+z", "undo", "Undo edit", show=False),
        Binding("ctrl+y", "redo", "Redo edit", show=False),
        Binding("f12", "screenshot", "Screenshot", show=False),
        *(Binding(str(n), f"play({n})", f"Play {n}", show=False) for n in range(1, 10)),
    ]

    # repaint=False: the app draws nothing itself, and an app repaint is a repaint of the whole screen
    state: reactive[AppState] = reactive(AppState, repaint=False)
    """The store's current state, mirrored so panes can bind to it."""
    ready: reactive[bool] = reactive(False, repaint=False)
    """True once the engine's tables are ready: read back before the first paint, or built in a worker."""
    preparing: reactive[str] = reactive("", repaint=False)
    """While a strong solution is made: its step and how far it is (``"forward 5/17"``)."""
    library_status: reactive[str] = reactive("opening", repaint=False)
    """``"opening"`` until the library worker is done, then ``"open"`` or ``"unavailable"``."""

    def __init__(
        self,
        state: AppState | None = None,
        *,
        path: str | None = None,
        name: str | None = None,
        db: str | None = None,
        seed: int | None = None,
        game: Geometry | None = None,
    ) -> None:
        super().__init__()
        self.store = Store(self._load_settings(state, game), answers_at_hand=self._answers_at_hand)
        self.study_path = path
        """The JSON file the study came from or was saved to, if any."""
        self.study_name = name
        """The study's name in the library, if it came from or went there."""
        self._stored_copies: dict[tuple[str, str], str | None] = {}
        """Each place a study was kept (its file, or its library name) → the copy this app last read or wrote
        there: ctrl+s asks before writing over one changed since (:mod:`.features.study_files`)."""
        if path:  # read just now by the command that started the app
            self._remember_stored()
        self.db_path = db
        self.library = None
        """The open library, or None while opening or when it cannot be used."""
        self.library_has_games = False
        self._layout: Layout | None = None
        self._focus_before_small: Widget | None = None
        self._names_of_trees: list[tuple[object, str | None, str | None]] = []
        """(tree, study path, study name) around each new game or set-up, for undo and redo."""
        self._rng = random.Random(seed)
        self._state_readers: tuple[Any, ...] = ()
        """The panes and views bound to :attr:`state` (each with a ``state`` reactive: any widget class), once found
        (see :meth:`_pass_state_on`)."""
        self._prefetch = AnalysisPrefetch(self)
        self._init_search()
        self.store.subscribe(self._store_changed)
        self.set_reactive(WorkbenchApp.state, self.store.state)

    # --- layout -----------------------------------------------------------------------

    def get_default_screen(self) -> Screen:
        return textual_ext.main_screen("_default")

    def compose(self) -> ComposeResult:
        # laid out for the starting size here: restyling after mount is the dearest thing at start-up
        too_small, wide, wider, tall, with_header = self._layout = layout_for(self.size.width, self.size.height)
        header = textual_ext.title_header("header")
        header.display = with_header
        yield header
        with Container(
            id="panes",
            classes=" ".join(name for name, on in (("-wide", wide), ("-wider", wider), ("-tall", tall)) if on),
        ) as panes:
            panes.display = not too_small
            with Container(id="left"):
                yield BoardPane(id="board").data_bind(WorkbenchApp.state, WorkbenchApp.ready)
                history = HistoryPane(id="history").data_bind(WorkbenchApp.state, WorkbenchApp.ready)
                history.set_reactive(HistoryPane.tall, tall)
                yield history
            with Container(id="right"):
                # the first run's first paint says how to begin
                yield EvaluationPane(id="evaluation", welcome=self.first_run).data_bind(
                    WorkbenchApp.state, WorkbenchApp.ready
                )
                yield SymmetryPane(id="symmetry").data_bind(WorkbenchApp.state, WorkbenchApp.ready)
        message = Static(self._too_small_text(*self.size), id="too-small")
        message.display = too_small
        yield message
        yield KeysFooter()  # the board's keys fit 120 columns; where keys do not, those that fit whole, then "…"

    def _open_library(self):
        from ..library import Library, LibraryError
        from ..library.games import has_games
        from ..library.recovery import claim, held_elsewhere, left_behind

        try:
            library = Library.open(self.db_path)
        except LibraryError as error:
            return str(error)
        # a damaged part costs that part only: studies still save and open without the games tables
        problems = []
        try:
            games = has_games(library)
        except LibraryError as error:
            games = False
            problems.append(f"{error}; game counts are computed instead")
        held = False
        try:
            # a read-only library (perhaps of schema 2, without the recovery table) keeps nothing to offer; held
            # first (perhaps by a reloaded tab's app, ending): one that ends after it is left behind for the next read
            held = not library.read_only and held_elsewhere(library)
            found = [] if library.read_only else left_behind(library)
        except LibraryError as error:
            found = []
            problems.append(f"{error}; unsaved work left by an earlier run cannot be offered")
        try:
            left = claim(library, found)
        except LibraryError:  # a library busy for seconds: offered all the same, unclaimed (as before claims were)
            left = found
        return library, games, (left, held), problems

    def get_driver_class(self) -> type:
        """Textual's choice (a terminal's driver, or the web driver textual-serve asks for), the web driver made
        one that ends the app when its server is gone (:mod:`.served_driver`), the terminal's one that writes a
        frame itself when its output thread is idle (:mod:`.terminal_driver`)."""
        driver = super().get_driver_class()
        if driver.__module__ == "textual.drivers.web_driver" and driver.__name__ == "WebDriver":
            from .served_driver import ServedDriver

            return ServedDriver
        return textual_ext.terminal_driver_class(driver)

    def on_mount(self) -> None:
        self._fit_panes_to_board()
        self._update_title()
        self._warn_about_settings()
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if not self.panes_hidden:  # too small: nothing takes keys until the panes show (see _apply_size)
            self.query_one(BoardGrid).focus()
        # the first paint never needs the library: open it after, not competing for the GIL
        self.call_after_refresh(
            self.run_worker, self._open_library, thread=True, name="open-library", exit_on_error=False
        )

    def on_unmount(self) -> None:
        self._end_recovery(clean=False)  # a clean quit has ended it already; anything else keeps the study
        self._end_search_process()
        if self.library is not None:
            self.library.close()

    # --- the store ----------------------------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if event.state is WorkerState.ERROR:
            self.notify(f"{worker.name} failed: {worker.error!r}", title="Error", severity="error", timeout=10)
            if worker.name == "open-library":
                self.library_status = "unavailable"
            return
        if event.state is not WorkerState.SUCCESS:
            return
        if worker.name == "build-tables":
            assert worker.result is not None  # pragma: no mutate - narrows types: the worker returns the answers
            self._tables_ready(worker.result)
        elif worker.name == "open-library":
            if isinstance(worker.result, str):
                self.notify(
                    f"{worker.result}; studies save to .json files instead, and unsaved work is not kept safe.",
                    title="No library",
                    severity="warning",
                    timeout=8,
                )
                self.library_status = "unavailable"
            else:
                opened = worker.result
                assert opened is not None  # pragma: no mutate - the worker's result: a library, or why not (above)
                self.library, self.library_has_games, (left_behind, others_keep), problems = opened
                if self.study_name and not self.study_path:  # opened by name (`workbench open NAME`)
                    self._remember_stored()
                self._forget_library_games()
                for problem in problems:
                    self.notify(problem, title="Library", severity="warning", timeout=8)
                # first: a restore offer holds the engine
                self._start_recovery(self.library, left_behind, look_again=others_keep)
                self.library_status = "open"
                self._library_games()
        elif worker.name == "library-games" and isinstance(worker.result, Exception):
            # a damaged games table: say so once, and count the games from the engine's tables from now on
            self.library_has_games = False
            self.notify(
                f"{worker.result}; game counts are computed instead.", title="Library", severity="warning", timeout=8
            )
        elif worker.name == "library-games" and worker.result is not None:
            self._library_games_answered(worker.result)
        elif worker.name == "engine" and worker.result is not None:
            cursor, cell = worker.result
            if cell is not None and self.store.state.cursor == cursor:
                self.store.dispatch(PlayCell(cell=cell))

    def watch_library_status(self, status: str) -> None:
        if status != "opening":
            self._maybe_engine_move()  # held while the library opened (see EnginePlay)
            self._read_due()  # what practice is due today (Practising)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, _DRAWN_AT_ONCE) and not event.is_forwarded:
            self._hold_search_for_input()
            textual_ext.input_arrived(self.screen)  # what it changes is drawn at once, not at the next tick
        if (
            isinstance(event, events.Key)
            and not event.is_forwarded
            and await textual_ext.take_key_straight(self, event)
        ):
            return
        await super().on_event(event)

    def on_dispatch(self, message: Dispatch) -> None:
        message.stop()
        self.take_action(message.action)

    def take_action(self, action) -> None:
        """What a pane's :func:`~.messages.dispatch` calls: the store changes before the next key is read.
        Not while the terminal is too small to show the panes: a focused pane must not change them unseen."""
        if self.panes_hidden:
            return
        self._user_dispatch(action)

    def _user_dispatch(self, action) -> None:
        """An action of the user's. The engine answers a move just played, never navigation: stepping back
        to a position where it is the engine's turn lets the user look at it."""
        before = self.store.state
        self.store.dispatch(action)
        if isinstance(action, PlayCell):
            if self.store.state is not before:
                self._maybe_engine_move()
            else:  # a taken cell, or the game over: the board's status says why, until the position changes
                self.query_one(BoardStatus).notice = (before.position, refusal(before.position, action.cell))

    def _store_changed(self, old: AppState, new: AppState) -> None:
        at_hand = new.geometry == old.geometry or self._rules_changed(new)
        if new.geometry != old.geometry:
            self._update_title()
            self._fit_panes_to_board()
        self._pass_state_on(new)
        if at_hand and not self.ready and new.geometry != old.geometry:
            # after the panes have the new state: lit with the old one, they would read an analysis it has not
            # (switching to the classic game while 4x4 was being solved raised inside a pane)
            assert new.answers is not None  # pragma: no mutate - narrows types: at hand, they came with the state
            self._tables_ready(new.answers)
        self._keep_recovery_after_frame()
        if old.unsaved_work != new.unsaved_work:  # (a property: a move from an empty new game turns it on)
            self._update_title()
        turned_on = old.engine.mode is EngineMode.OFF and new.engine.mode is not EngineMode.OFF
        if turned_on or new.engine.side != old.engine.side:
            # turned on, or moved to the side to move: its turn now (a new level alone is not)
            self._maybe_engine_move()
        if new.engine != old.engine or new.view.overlay != old.view.overlay or new.geometry != old.geometry:
            self._remember_settings()
        if new.position != old.position:
            self._library_games()
            if self.ready:  # once the new position is drawn: the key's frame does not wait for the request's pickling
                self.call_after_refresh(self._position_changed)

    def _pass_state_on(self, new: AppState) -> None:
        """Set the app's ``state`` to ``new``, and each pane's and view's bound to it (the gate's binding piece on
        the fast path; Textual's own assignment, through the bindings, until the panes are there, and stock)."""
        root = None
        if not self._state_readers:  # (found once: a query of the screen at every change would cost the key)
            panes = self.screen_stack[0].query("#panes") if self.screen_stack else ()
            root = panes.first() if panes else None
        self._state_readers = textual_ext.pass_on_bound(self, "state", new, root, self._state_readers)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Textual's notify, reading the message as plain text unless told: messages quote names and paths."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def format_title(self, title: str, sub_title: str) -> Content:
        """Textual dims the study's name, below 4.5:1 on light themes: italic keeps it apart instead."""
        if not sub_title:
            return Content(title)
        return Content.assemble(Content(title), " — ", Content(sub_title).stylize("italic"))

    @property
    def panes_hidden(self) -> bool:
        """The terminal is too small: the panes are hidden, and nothing may change them unseen."""
        return self._layout is not None and self._layout.too_small

    def _update_title(self, width: int | None = None) -> None:
        """The header's title and the board's frame, for the terminal's ``width`` (a resize's, which the app's
        size does not have yet; by default the app's)."""
        width = self.size.width if width is None else width
        name = Path(self.study_path).name if self.study_path else self.study_name or "untitled study"
        variant, unsaved = describe_variant(self.store.state.geometry), " •" if self.store.state.unsaved_work else ""
        # the header cuts a title too long at its end, the unsaved mark with it: the name is cut here instead
        room = (
            width - textual_ext.HEADER_TITLE_SIDES - self.format_title(self.title, f"{variant} · {unsaved}").cell_length
        )
        self.sub_title = f"{variant} · {ellipsis(name, max(room, 1)) if width else name}{unsaved}"
        # under 30 rows there is no header: the board's frame carries the name and the unsaved mark
        with_header = self._layout is None or self._layout.with_header
        # the mark first: a long name is cut at its end, and the mark must not go with it
        mark = "• " if self.store.state.unsaved_work else ""
        self.query_one("#board").border_subtitle = "" if with_header else mark + name

    MODAL_SAFE_ACTIONS: ClassVar[frozenset[str]] = frozenset({"request_quit", "screenshot"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While a dialog is open, or the terminal is too small to show the panes, the workbench's
        own keys must not act unseen (Textual's, such as tab between a dialog's buttons, still work)."""
        covered = isinstance(self.screen, ModalScreen) or self.panes_hidden
        if action == "search" and not self.store.state.searched:
            return False  # nothing to search where the values are all known: not in the footer either
        return not (covered and action in _OWN_ACTIONS and action not in self.MODAL_SAFE_ACTIONS)

    # --- actions ------------------------------------------------------------------------


_OWN_ACTIONS = frozenset(
    binding.action.split("(")[0] for binding in WorkbenchApp.BINDINGS if isinstance(binding, Binding)
)


def run(
    state: AppState | None = None,
    path: str | None = None,
    name: str | None = None,
    db: str | None = None,
    game: Geometry | None = None,
) -> int:
    """Run the app (on a study from the file ``path`` or the library study ``name``, else a new game of
    ``game`` or of the variant last played); 0 on a normal quit, 1 on a crash (Textual prints the traceback)."""
    app = WorkbenchApp(state, path=path, name=name, db=db, game=game)
    app.run()
    if app.return_code not in (None, 0):
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
