"""The workbench app: owns the store, lays out the four panes, routes actions.

Dialogs are imported where they open: they pull in widgets the first paint never needs.
"""

from __future__ import annotations

import gc
import random
import sys
from pathlib import Path
from typing import ClassVar, Iterable

from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Header, Static
from textual.worker import Worker, WorkerState

from ..engine import Player, Position, Status, analyze
from ..engine.analysis import tables
from ..engine.position import some_move_order
from ..state import (
    OVERLAYS,
    AppState,
    EngineMode,
    Store,
    StudyError,
    choose_move,
    export_movetext,
    load_study,
    save_study,
)
from ..state.actions import Back, LoadState, MarkSaved, NewGame, PlayCell, SetComment, SetEngine, SetOverlay
from .board import BoardGrid, BoardPane
from .evaluation import EvaluationPane, EvaluationView
from .history import HistoryPane, VariationTree
from .messages import Dispatch
from .symmetry import SymmetryPane

MIN_WIDTH, MIN_HEIGHT = 80, 24
WIDE_WIDTH = 140  # three columns only where the evaluation table still fits
TALL_HEIGHT = 36
ENGINE_CYCLE = (EngineMode.OFF, EngineMode.PERFECT, EngineMode.TRAP, EngineMode.RANDOM)
MASK_CYCLE = ("none", *OVERLAYS[2:])


def _layout_for(width: int, height: int) -> tuple[bool, bool, bool, bool]:
    """(too small, wide, tall, with header) for a terminal of that size."""
    return (width < MIN_WIDTH or height < MIN_HEIGHT, width >= WIDE_WIDTH, height >= TALL_HEIGHT, height >= 30)


class WorkbenchApp(App[int]):
    """Tic-Tac-Toe analysis: Board, Evaluation, Symmetry and History over one store."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute, so subclasses elsewhere find it
    TITLE = "workbench"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True),
        Binding("q", "request_quit", "Quit", show=False),
        Binding("f1,question_mark", "help", "Help"),
        Binding("n", "new_game", "New"),
        Binding("i", "set_up", "Set up"),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+o", "open", "Open"),
        Binding("x", "export", "Export"),
        Binding("v", "toggle_values", "Values"),
        Binding("m", "cycle_mask", "Mask"),
        Binding("e", "cycle_engine", "Engine"),
        Binding("E", "swap_engine_side", "Engine side", show=False),
        Binding("c", "comment", "Comment", show=False),
        Binding("z", "zoom", "Zoom pane", show=False),
        Binding("g", "games_like_this", "Games like this", show=False),
        Binding("backspace", "back", "Back", show=False),
        Binding("ctrl+z", "undo", "Undo edit", show=False),
        Binding("ctrl+y", "redo", "Redo edit", show=False),
        Binding("f12", "screenshot", "Screenshot", show=False),
        *(Binding(str(n), f"play({n})", f"Play {n}", show=False) for n in range(1, 10)),
    ]

    state: reactive[AppState] = reactive(AppState)
    """The store's current state, mirrored so panes can bind to it."""
    ready: reactive[bool] = reactive(False)
    """True once the engine's tables are ready: read back before the first paint, or built in a worker."""
    library_status: reactive[str] = reactive("opening")
    """``"opening"`` until the library worker is done, then ``"open"`` or ``"unavailable"``."""

    def __init__(
        self,
        state: AppState | None = None,
        *,
        path: str | None = None,
        name: str | None = None,
        db: str | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        self.store = Store(state if state is not None else AppState())
        self.study_path = path
        """The JSON file the study came from or was saved to, if any."""
        self.study_name = name
        """The study's name in the library, if it came from or went there."""
        self.db_path = db
        self.library = None
        """The open library, or None while opening or when it cannot be used."""
        self.library_has_games = False
        self._layout: tuple[bool, ...] | None = None
        self._rng = random.Random(seed)
        self.store.subscribe(self._store_changed)
        self.set_reactive(WorkbenchApp.state, self.store.state)

    # --- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # laid out for the starting size here: restyling after mount is the dearest thing at start-up
        too_small, wide, tall, with_header = self._layout = _layout_for(self.size.width, self.size.height)
        header = Header(id="header")
        header.display = with_header
        yield header
        with Container(id="panes", classes=" ".join(name for name, on in (("-wide", wide), ("-tall", tall)) if on)) as panes:
            panes.display = not too_small
            with Container(id="left"):
                yield BoardPane(id="board").data_bind(WorkbenchApp.state, WorkbenchApp.ready)
                yield HistoryPane(id="history").data_bind(WorkbenchApp.state, WorkbenchApp.ready)
            with Container(id="right"):
                yield EvaluationPane(id="evaluation").data_bind(WorkbenchApp.state, WorkbenchApp.ready)
                yield SymmetryPane(id="symmetry").data_bind(WorkbenchApp.state, WorkbenchApp.ready)
        message = Static(self._too_small_text(*self.size), id="too-small")
        message.display = too_small
        yield message
        yield Footer()

    def on_load(self) -> None:
        from ..cache import ready_tables

        # Tables read back from the cache (≈ 10 ms) are there for the first paint;
        # building them (≈ 50 ms: the first run, or after an engine change) is a worker's
        # job, with the panes saying so meanwhile. A worker for the cheap case would only
        # delay the first paint: it competes for the GIL with the screen being set up.
        # (The command starts on them before importing the app: they are usually
        # ready here; if that thread is still busy, the worker waits for it.)
        if ready_tables(self.store.state.geometry) is not None:
            self._tables_ready()
        else:
            self.run_worker(self._build_tables, thread=True, name="build-tables", exit_on_error=False)

    def _open_library(self):
        from ..library import Library, LibraryError
        from ..library.games import has_games

        try:
            library = Library.open(self.db_path)
            return library, has_games(library)
        except LibraryError as error:
            return str(error)

    def on_mount(self) -> None:
        self._update_title()
        self.query_one(BoardGrid).focus()
        # the first paint never needs the library: open it after, not competing for the GIL
        self.call_after_refresh(
            self.run_worker, self._open_library, thread=True, name="open-library", exit_on_error=False
        )

    def on_unmount(self) -> None:
        if self.library is not None:
            self.library.close()

    def on_resize(self, event) -> None:
        self._apply_size(event.size.width, event.size.height)

    @staticmethod
    def _too_small_text(width: int, height: int) -> str:
        return f"The terminal is {width}×{height}.\nworkbench needs at least {MIN_WIDTH}×{MIN_HEIGHT}."

    def _apply_size(self, width: int, height: int) -> None:
        layout = _layout_for(width, height)
        too_small = layout[0]
        message = self.query_one("#too-small", Static)
        if too_small:
            message.update(self._too_small_text(width, height))
        if layout == self._layout:
            return  # restyling the whole screen for nothing is the dearest thing at start-up
        self._layout = layout
        panes = self.query_one("#panes")
        panes.display = not too_small
        message.display = too_small
        panes.set_class(layout[1], "-wide")
        panes.set_class(layout[2], "-tall")
        self.query_one("#header").display = layout[3]

    # --- the store ----------------------------------------------------------------------

    def _build_tables(self) -> None:
        from ..cache import build_and_cache_tables

        build_and_cache_tables(self.store.state.geometry)
        analyze(Position.empty(self.store.state.geometry))

    def _tables_ready(self) -> None:
        # The tables live as long as the app: keep the collector from rescanning
        # them on every full collection, which would stall keypresses.
        gc.freeze()
        self.ready = True
        self._maybe_engine_move()

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
            self._tables_ready()
        elif worker.name == "open-library":
            if isinstance(worker.result, str):
                self.notify(f"{worker.result}; studies save to .json files instead.", title="No library", severity="warning", timeout=8)
                self.library_status = "unavailable"
            else:
                self.library, self.library_has_games = worker.result
                self.library_status = "open"
                self._library_games()
        elif worker.name == "library-games" and worker.result is not None:
            self.query_one(EvaluationView).library_games = worker.result
        elif worker.name == "engine" and worker.result is not None:
            cursor, cell = worker.result
            if cell is not None and self.store.state.cursor == cursor:
                self.store.dispatch(PlayCell(cell=cell))

    def on_dispatch(self, message: Dispatch) -> None:
        message.stop()
        self.store.dispatch(message.action)

    def _store_changed(self, old: AppState, new: AppState) -> None:
        self.state = new
        if old.modified != new.modified:
            self._update_title()
        if new.cursor != old.cursor or new.engine != old.engine:
            self._maybe_engine_move()
        if new.position != old.position:
            self._library_games()

    def _library_games(self) -> None:
        """Ask the library for the games through this position (a worker: it is I/O)."""
        if self.library is None or not self.library_has_games:
            return
        from ..library.games import games_after
        from ..library.games import games_through as library_through

        state = self.store.state
        library, position = self.library, state.position
        line = some_move_order(state.tree.root_position) + state.tree.moves_to(state.cursor)

        def query():
            # the position's games from the start, and each move's games after the line played
            per_move = {cell: games_after(library, line + (cell,)) for cell in position.legal_moves()}
            return position.key, library_through(library, position), per_move

        self.run_worker(query, thread=True, name="library-games", group="library", exclusive=True, exit_on_error=False)

    def _maybe_engine_move(self) -> None:
        state = self.store.state
        if self.ready and state.engine_to_move:
            self.run_worker(lambda: self._pick_engine_move(state), thread=True, name="engine", group="engine",
                            exclusive=True, exit_on_error=False)  # fmt: skip

    def _pick_engine_move(self, state: AppState) -> tuple[int, int | None]:
        return state.cursor, choose_move(state.analysis, state.engine.mode, self._rng)

    def _update_title(self) -> None:
        name = Path(self.study_path).name if self.study_path else self.study_name or "untitled study"
        self.sub_title = name + (" •" if self.store.state.modified else "")

    MODAL_SAFE_ACTIONS: ClassVar[frozenset[str]] = frozenset({"request_quit", "screenshot"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While a dialog is open, the workbench's own keys must not act underneath it
        (Textual's, such as tab between a dialog's buttons, still work)."""
        if isinstance(self.screen, ModalScreen) and action in _OWN_ACTIONS and action not in self.MODAL_SAFE_ACTIONS:
            return False
        return True

    # --- actions ------------------------------------------------------------------------

    def action_play(self, cell: int) -> None:
        self.store.dispatch(PlayCell(cell=cell))

    def action_back(self) -> None:
        self.store.dispatch(Back())

    def action_new_game(self) -> None:
        self.store.dispatch(NewGame())
        self.notify("New game (ctrl+z brings the old tree back).", timeout=3)

    def action_toggle_values(self) -> None:
        overlay = "none" if self.store.state.view.overlay == "values" else "values"
        self.store.dispatch(SetOverlay(overlay=overlay))

    def action_cycle_mask(self) -> None:
        current = self.store.state.view.overlay
        index = MASK_CYCLE.index(current) if current in MASK_CYCLE else 0
        self.store.dispatch(SetOverlay(overlay=MASK_CYCLE[(index + 1) % len(MASK_CYCLE)]))

    def action_cycle_engine(self) -> None:
        engine = self.store.state.engine
        mode = ENGINE_CYCLE[(ENGINE_CYCLE.index(engine.mode) + 1) % len(ENGINE_CYCLE)]
        self.store.dispatch(SetEngine(mode=mode))
        self.notify(f"Engine: {mode.value}" + ("" if mode is EngineMode.OFF else f", playing {engine.side.value}"), timeout=2)

    def action_swap_engine_side(self) -> None:
        engine = self.store.state.engine
        self.store.dispatch(SetEngine(mode=engine.mode, side=engine.side.other))
        self.notify(f"Engine plays {engine.side.other.value}", timeout=2)

    def action_undo(self) -> None:
        if self.store.can_undo:
            self.store.undo()

    def action_redo(self) -> None:
        if self.store.can_redo:
            self.store.redo()

    def action_set_up(self) -> None:
        from .dialogs import SetUpDialog

        def done(action) -> None:
            if action is not None:
                self.store.dispatch(action)

        self.push_screen(SetUpDialog(), done)

    def action_comment(self) -> None:
        from .dialogs import CommentDialog

        state = self.store.state

        def done(text: str | None) -> None:
            if text is not None:
                self.store.dispatch(SetComment(text=text))

        self.push_screen(CommentDialog(state.tree.node(state.cursor).comment), done)

    def action_export(self) -> None:
        from .dialogs import MoveTextScreen

        text = export_movetext(self.store.state.tree) or "(no moves yet)"
        self.copy_to_clipboard(text)
        self.push_screen(MoveTextScreen(text))

    def _save_to(self, path: str) -> str | None:
        try:
            save_study(self.store.state, path)
        except StudyError as error:
            return str(error)
        self.study_path = path
        self.store.dispatch(MarkSaved())
        self._update_title()
        self.notify(f"Saved {path}", timeout=2)
        return None

    def _is_file(self, text: str) -> bool:
        """A path (``….json`` or with a folder) rather than a library name."""
        return self.library is None or text.endswith(".json") or "/" in text or "\\" in text

    def _save_named(self, text: str) -> str | None:
        """Save to the library under ``text``, or to the file ``text``; an error line or None."""
        if self._is_file(text):
            problem = self._save_to(text)
            if problem is None:
                self.study_name = None
            return problem
        from ..library import LibraryError
        from ..library.studies import save_study as save_to_library

        try:
            save_to_library(self.library, text, self.store.state, replace=True)
        except LibraryError as error:
            return str(error)
        self.study_name, self.study_path = text.strip(), None
        self.store.dispatch(MarkSaved())
        self._update_title()
        self.notify(f"Saved {self.study_name!r} in the library", timeout=2)
        return None

    def _save_dialog(self, after=None) -> None:
        from .dialogs import PathDialog

        if self.library is not None:
            title, default = "Save study as (a name in the library, or a path ending in .json)", self.study_name or "my study"
        else:
            title, default = "Save study as (a .json file)", self.study_path or "study.json"
        self.push_screen(PathDialog(title, default, self._save_named), after)

    def _save_then(self, proceed=None) -> None:
        """Save where the study came from (its file or library name), or ask where; then ``proceed``."""

        def after(saved: str | None) -> None:
            if saved is not None and proceed is not None:
                proceed()

        target = self.study_path or (self.study_name if self.library is not None else None)
        if target:
            problem = self._save_named(target)
            if problem is None:
                after(target)
                return
            self.notify(problem, title="Not saved", severity="error")
        self._save_dialog(after)

    def action_save(self) -> None:
        self._save_then()

    def action_save_as(self) -> None:
        self._save_dialog()

    def action_open(self) -> None:
        from ..library import LibraryError
        from ..library import studies as library_studies
        from .library_dialogs import OpenDialog

        def attempt(text: str) -> str | None:
            try:
                if self._is_file(text):
                    loaded, path, name = load_study(text), text, None
                else:
                    loaded, path, name = library_studies.open_study(self.library, text), None, text
            except (StudyError, LibraryError) as error:
                return str(error)
            self.store.dispatch(LoadState(state=loaded))
            self.study_path, self.study_name = path, name
            self._update_title()
            return None

        def guarded(action):
            def run(*names: str) -> str | None:
                try:
                    action(self.library, *names)
                except LibraryError as error:
                    return str(error)
                return None

            return run

        def ask() -> None:
            names = []
            if self.library is not None:
                try:
                    names = [(r.name, f"{r.moves} moves · {r.updated}") for r in library_studies.list_studies(self.library)]
                except LibraryError as error:
                    self.notify(str(error), title="Library", severity="warning")
            rename = guarded(library_studies.rename_study) if self.library is not None else None
            delete = guarded(library_studies.delete_study) if self.library is not None else None
            self.push_screen(OpenDialog(names, attempt, rename, delete))

        self._unless_unsaved(ask)

    def action_games_like_this(self) -> None:
        """Counts of the games through this position and a few of them: from the library when it has them."""
        from .library_dialogs import GamesLikeThis

        position = self.store.state.position
        if self.library is not None and self.library_has_games:
            from ..library.games import games_through as library_through
            from ..library.games import sample_games

            counts = library_through(self.library, position)
            samples = sample_games(self.library, position)
            source = f"from the library ({self.library.path})"
        else:
            counts = tables(position.geometry).games_through(position.key).as_dict()
            state = self.store.state
            played = some_move_order(state.tree.root_position) + state.tree.moves_to(state.cursor)
            samples = _first_games(position, played, 10)
            source = "computed (run `workbench games` to serve these from the library)"
        lines = [
            f"{counts['total']:,} complete games pass through {position}",
            f"X wins {counts['x']:,} · O wins {counts['o']:,} · draws {counts['draw']:,}",
            f"source: {source}",
            "",
            "some of them (moves from the empty board → result):",
        ]
        lines += [f"  {' '.join(map(str, moves)):<20} → {winner or 'draw'}" for moves, winner in samples]
        self.push_screen(GamesLikeThis("Games like this", "\n".join(lines)))

    def _unless_unsaved(self, proceed) -> None:
        """Run ``proceed`` now, or after the user saves or discards unsaved changes."""
        if not self.store.state.modified:
            proceed()
            return
        from .dialogs import ConfirmQuit

        def decided(choice: str) -> None:
            if choice == "discard":
                proceed()
            elif choice == "save":
                self._save_then(proceed)

        self.push_screen(ConfirmQuit(), decided)

    def action_request_quit(self) -> None:
        from .dialogs import ConfirmQuit

        if isinstance(self.screen, ConfirmQuit):
            return
        self._unless_unsaved(lambda: self.exit(0))

    def action_help(self) -> None:
        from .dialogs import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(help_sections()))

    def action_zoom(self) -> None:
        """Maximize the focused pane, or restore the four-pane layout."""
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
        elif screen.focused is not None:
            screen.maximize(screen.focused)

    def action_screenshot(self) -> None:
        path = self.save_screenshot()
        self.notify(f"Screenshot saved to {Path(path).resolve()}", timeout=3)

    def action_set_engine(self, mode: str, side: str) -> None:
        self.store.dispatch(SetEngine(mode=EngineMode(mode), side=Player(side)))

    def action_set_overlay(self, overlay: str) -> None:
        self.store.dispatch(SetOverlay(overlay=overlay))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New game", "Start again from the empty board", self.action_new_game)
        yield SystemCommand("Set up position", "Type a position or a move list", self.action_set_up)
        yield SystemCommand("Open study", "Open a saved study file", self.action_open)
        yield SystemCommand("Save study", "Save the study (tree, comments, settings)", self.action_save)
        yield SystemCommand("Save study as", "Save under a new name in the library, or to a .json file", self.action_save_as)
        yield SystemCommand("Games like this", "The complete games through this position, from the library when it has them", self.action_games_like_this)
        yield SystemCommand("Export move text", "Show and copy the moves with variations", self.action_export)
        yield SystemCommand("Comment", "Comment on the current move", self.action_comment)
        yield SystemCommand("Undo tree edit", "Bring back the tree before the last edit", self.action_undo)
        yield SystemCommand("Redo tree edit", "Re-apply an undone edit", self.action_redo)
        yield SystemCommand("Toggle value overlay", "Colour empty cells by their exact value", self.action_toggle_values)
        for overlay in OVERLAYS:
            yield SystemCommand(f"Overlay: {overlay.replace('_', '-')}", "Paint the board with this", lambda o=overlay: self.action_set_overlay(o))
        for mode in EngineMode:
            for side in Player:
                if mode is EngineMode.OFF and side is Player.X:
                    continue
                title = "Engine off" if mode is EngineMode.OFF else f"Play vs engine: {mode.value} as {side.value}"
                yield SystemCommand(title, "Who the engine plays, and how", lambda m=mode, s=side: self.action_set_engine(m.value, s.value))
        yield SystemCommand("Screenshot", "Save an SVG screenshot in the current folder", self.action_screenshot)
        yield SystemCommand("Help: keys", "Every key of every pane", self.action_help)


_OWN_ACTIONS = frozenset(
    binding.action.split("(")[0] for binding in WorkbenchApp.BINDINGS if isinstance(binding, Binding)
)


def help_sections() -> list[tuple[str, list[tuple[str, str]]]]:
    """Key tables from the BINDINGS of the app and its panes, so help never goes stale."""

    def rows(bindings) -> list[tuple[str, str]]:
        result = []
        for binding in bindings:
            if isinstance(binding, Binding) and binding.description:
                keys = binding.key.replace("question_mark", "?").replace(",", " / ")
                result.append((keys, binding.description))
        return result

    def not_a_digit(row: tuple[str, str]) -> bool:
        return not row[0].isdigit()

    app_rows = [row for row in rows(WorkbenchApp.BINDINGS) if not_a_digit(row)]
    return [
        ("Everywhere", app_rows + [("1 … 9", "Play that cell"), ("tab", "Next pane"), ("ctrl+p", "Command palette")]),
        ("Board", [row for row in rows(BoardGrid.BINDINGS) if not_a_digit(row)] + [("click", "Play the cell")]),
        ("History", rows(VariationTree.BINDINGS) + [("click", "Jump to a move, or a ply on the value strip")]),
    ]


def _first_games(position: Position, prefix: tuple[int, ...], limit: int) -> list[tuple[tuple[int, ...], str | None]]:
    """The first ``limit`` complete games that continue ``prefix`` (the moves reaching ``position``), in cell order."""
    found: list[tuple[tuple[int, ...], str | None]] = []
    stack = [(position, prefix)]
    while stack and len(found) < limit:
        current, moves = stack.pop()
        status = current.status
        if status is not Status.IN_PLAY:
            found.append((moves, {Status.X_WON: "X", Status.O_WON: "O"}.get(status)))
            continue
        for cell in reversed(current.legal_moves()):
            stack.append((current.play(cell), moves + (cell,)))
    return found


def run(state: AppState | None = None, path: str | None = None, name: str | None = None, db: str | None = None) -> int:
    """Run the app (on a study from the file ``path`` or the library study ``name``); 0 on a normal quit,
    1 on a crash (Textual prints the traceback)."""
    app = WorkbenchApp(state, path=path, name=name, db=db)
    app.run()
    if app.return_code not in (None, 0):
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
