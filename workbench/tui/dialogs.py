"""Modal dialogs: new game, set-up, save/open, comment, move text, quit with unsaved changes, help."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from ..engine import Cell, Geometry, Position, PositionError, parse_position
from ..engine.geometry import (
    NAMED_VARIANTS,
    TIC_TAC_TOE,
    cell_name,
    cell_names,
    cell_range,
    describe_variant,
    format_variant,
    parse_cell_name,
    parse_variant,
)
from ..state import Action, MoveTextError, import_movetext
from ..state.actions import ReplaceTree, SetUpPosition


def parse_setup(text: str, geometry: Geometry | None = None) -> Action:
    """A position (``X.O/.X./...``) or move text (``5 1 9 (3)``) typed by the user, on ``geometry``'s
    board (the classic one when None).

    :raises ValueError: naming what is wrong with the text.
    """
    body = text.strip()
    if not body:
        raise ValueError(
            f"type a position such as X.O/.X./... or moves such as {setup_example(geometry or TIC_TAC_TOE)}"
        )
    # a position is marks and empties alone (``o5`` is a cell of 15×15, not an O)
    if all(char in "XO/.-_ " for char in body.upper()) and not body.startswith("["):
        try:
            return SetUpPosition(position=parse_position(body) if geometry is None else parse_position(body, geometry))
        except PositionError as error:
            raise ValueError(str(error)) from None
    try:
        tree = import_movetext(body, geometry)
    except MoveTextError as error:
        raise ValueError(str(error)) from None
    return ReplaceTree(tree=tree, cursor=tree.main_line()[-1])


def setup_example(geometry: Geometry) -> str:
    """A move list on ``geometry``'s board in its own notation: the centre, the cell above it, the cell left of it
    (``5 2 4`` on 3×3, ``h8 h9 g8`` on 15×15)."""
    centre = geometry.cell(geometry.rows // 2, geometry.cols // 2)
    cells = [centre, *(cell for cell in (centre - geometry.cols, centre - 1) if geometry.contains(cell))]
    return cell_names(cells, geometry)


def playable_variants(current: Geometry) -> list[Geometry]:
    """The named variants, with ``current`` among them."""
    variants = [geometry for _, geometry in NAMED_VARIANTS]
    return variants if current in variants else [*variants, current]


def solved_label(geometry: Geometry) -> str:
    """What a board of 17–20 cells is here: ``solved`` (its solution kept: exact), or ``unsolved`` and how long
    `workbench solve` would take (searched until then; the hint under the list names the command); nothing for
    other boards."""
    from ..engine.geometry import is_keepable

    if not is_keepable(geometry):
        return ""
    from ..kept.solving import is_kept, solving_estimate

    return "solved" if is_kept(geometry) else f"unsolved, {solving_estimate(geometry)}"


class NewGameDialog(ModalScreen[Geometry | None]):
    """A new game: pick a variant by name (the one being played is lit, so Enter starts it again), or type
    rows × columns, k in a row, and the rule."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    class Considered(Message):
        """A variant lit in the list: the one chosen next, maybe (the app reads its analysis back meanwhile)."""

        def __init__(self, geometry: Geometry) -> None:
            super().__init__()
            self.geometry = geometry

    def __init__(self, current: Geometry) -> None:
        super().__init__()
        self.current = current
        self.variants = playable_variants(current)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("New game", classes="dialog-title")
            options = [
                Option(
                    f"{describe_variant(geometry):<30} {format_variant(geometry):<8} {solved_label(geometry)}".rstrip()
                )
                for geometry in self.variants
            ]
            yield OptionList(*options, id="variant-list")
            yield Input(placeholder="or type one: 2x5k3, 3x4k3-misere", id="variant-input")
            yield Static("", id="variant-error", classes="dialog-error", markup=False)
            yield Static(
                "up to 16 cells solved exactly (above 12: once, some seconds, kept after); 17-20 cells exact "
                "once `workbench solve --game …` has solved them (the time it takes beside each); bigger boards "
                "searched move by move, as far as the search gets",
                classes="dialog-hint",
                markup=False,
            )

    def on_mount(self) -> None:
        if not self.is_attached:  # the app ended before the dialog mounted: it has no parts
            return
        variants = self.query_one("#variant-list", OptionList)
        variants.highlighted = self.variants.index(self.current)
        variants.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.post_message(self.Considered(self.variants[event.option_index]))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.variants[event.option_index])

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#variant-error", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            geometry = parse_variant(event.value)
        except ValueError as problem:
            self.query_one("#variant-error", Static).update(str(problem))
            return
        self.dismiss(geometry)


def parse_cell(text: str, position: Position) -> Cell:
    """A cell of ``position``'s board typed by number (``14``) or coordinate (``b2``, the column letter from
    the left, the row number from the bottom), free to play.

    :raises ValueError: naming what is wrong: no such cell, or a cell already taken, or the game over.
    """
    geometry = position.geometry
    cell = parse_cell_name(text, geometry)
    if position.is_over:
        raise ValueError("the game is over: step back (←) to play another move")
    if cell not in position.legal_moves():
        raise ValueError(f"{cell_name(cell, geometry)} is taken")
    return cell


class PlayCellDialog(ModalScreen[Cell | None]):
    """Type a cell to play: its number, or its coordinate as on the board's edges (``b2``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, position: Position) -> None:
        super().__init__()
        self.position = position

    def compose(self) -> ComposeResult:
        geometry = self.position.geometry
        with Vertical(classes="dialog"):
            yield Label("Play a cell", classes="dialog-title")
            yield Input(placeholder=f"a cell: {cell_range(geometry)}")
            yield Static("", id="cell-error", classes="dialog-error", markup=False)

    def _error_line(self) -> Static:
        # the type only narrows what query_one returns: query_one(selector, None) finds the same widget
        return self.query_one("#cell-error", Static)  # pragma: no mutate - the type only narrows

    def on_input_changed(self) -> None:
        self._error_line().update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            cell = parse_cell(event.value, self.position)
        except ValueError as problem:
            self._error_line().update(str(problem))
            return
        self.dismiss(cell)


class SetUpDialog(ModalScreen[Action | None]):
    """Type a position or a move list on the board being played; the parse error shows as you type."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, geometry: Geometry | None = None) -> None:
        super().__init__()
        self.geometry = geometry

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Set up a position or a move list", classes="dialog-title")
            example = setup_example(self.geometry or TIC_TAC_TOE)
            yield Input(placeholder=f"X.O/.X./...  or  {example}", id="setup-input")
            yield Static("", id="setup-error", classes="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Set up", variant="primary", id="setup-ok")
                yield Button("Cancel", id="setup-cancel")

    def _error_line(self) -> Static:
        # the type only narrows what query_one returns: query_one(selector, None) finds the same widget
        return self.query_one("#setup-error", Static)  # pragma: no mutate - the type only narrows

    def _check(self, text: str) -> Action | None:
        error = self._error_line()
        try:
            action = parse_setup(text, self.geometry)
        except ValueError as problem:
            error.update(str(problem))
            return None
        error.update("")
        return action

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.value.strip():
            self._check(event.value)
        else:
            self._error_line().update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        action = self._check(event.value)
        if action is not None:
            self.dismiss(action)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "setup-ok":
            action = self._check(self.query_one("#setup-input", Input).value)
            if action is not None:
                self.dismiss(action)
        else:
            self.dismiss(None)


class PathDialog(ModalScreen[str | None]):
    """Ask for a file path; ``attempt`` runs on submit and returns an error line or None.

    When ``question`` has one for the path (the file exists, say), it is asked first, and
    only a yes goes on: the default answer keeps what is there.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(
        self,
        title: str,
        default: str,
        attempt: Callable[[str], str | None],
        question: Callable[[str], str | None] | None = None,
    ) -> None:
        super().__init__()
        self._title = title
        self._default = default
        self._attempt = attempt
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title")
            yield Input(value=self._default, id="path-input")
            yield Static("", id="path-error", classes="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("OK", variant="primary", id="path-ok")
                yield Button("Cancel", id="path-cancel")

    def _error_line(self) -> Static:
        # the type only narrows what query_one returns: query_one(selector, None) finds the same widget
        return self.query_one("#path-error", Static)  # pragma: no mutate - the type only narrows

    def _submit(self) -> None:
        path = self.query_one("#path-input", Input).value.strip()
        if not path:
            self._error_line().update("type a file name")
            return
        target = str(Path(path).expanduser())
        question = self._question(target) if self._question is not None else None
        if question is None:
            self._finish(path, target)
            return

        def answered(replace: bool | None) -> None:
            if replace:
                self._finish(path, target)
            else:
                self._error_line().update("kept as it was: type another name")
                self.query_one("#path-input", Input).focus()

        self.app.push_screen(Confirm(question, yes="Replace", no="Keep it"), answered)

    def _finish(self, path: str, target: str) -> None:
        problem = self._attempt(target)
        if problem:
            self._error_line().update(problem)
        else:
            self.dismiss(path)

    def on_input_submitted(self) -> None:
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "path-ok":
            self._submit()
        else:
            self.dismiss(None)


class CommentDialog(ModalScreen[str | None]):
    """Edit the comment of the current node (empty to remove it)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, comment: str) -> None:
        super().__init__()
        self._comment = comment

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Comment on this move", classes="dialog-title")
            yield Input(value=self._comment)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)


class MoveTextScreen(ModalScreen[None]):
    """The study's move text, selectable, with variations in parentheses. In a browser tab (``workbench
    serve``), where the clipboard and files are the browser's, it also offers the move text and the study as
    downloads."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "dismiss(None)", "Close")]

    class DownloadRequested(Message):
        """The user asked for the move text (``"txt"``) or the study file (``"json"``) as a download."""

        def __init__(self, kind: str) -> None:
            super().__init__()
            self.kind = kind

    def __init__(self, text: str, *, downloads: bool = False) -> None:
        """``text``: the move text, copied to the clipboard already; empty where the study has no moves (nothing
        was copied, and there is no move text to download)."""
        super().__init__()
        self._text = text
        self._downloads = downloads

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            title = "Move text (copied to the clipboard)" if self._text else "Move text (no moves yet: nothing copied)"
            yield Label(title, classes="dialog-title")
            yield TextArea(self._text or "(no moves yet)", read_only=True, id="movetext", soft_wrap=True)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Close", id="movetext-close")
                if self._downloads:
                    yield Button("Download move text", id="download-txt", disabled=not self._text)
                    yield Button("Download study (.json)", id="download-json")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id in ("download-txt", "download-json"):
            self.post_message(self.DownloadRequested(event.button.id.removeprefix("download-")))
            return
        self.dismiss(None)


class ConfirmQuit(ModalScreen[str]):
    """Unsaved changes, before quitting, or before a new game, a set-up or a restored study replaces the study:
    save, discard, or go back (s, d, escape); with a reason of its own where the user did not ask (a restore)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "dismiss('save')", "Save"),
        Binding("d", "dismiss('discard')", "Discard"),
        Binding("escape", "dismiss('cancel')", "Cancel"),
    ]

    def __init__(self, why: str | None = None) -> None:
        super().__init__()
        self._why = why

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                self._why or "The study has unsaved changes.",
                classes="dialog-title",
                id="unsaved-question",
                markup=False,
            )
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save (s)", variant="primary", id="save")
                yield Button("Discard (d)", variant="error", id="discard")
                yield Button("Cancel (esc)", id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "cancel")


class Confirm(ModalScreen[bool]):
    """A yes/no question whose safe answer (``no``) is the default: escape and enter on it keep things as they are."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(False)", "Keep")]
    AUTO_FOCUS = "#no"
    """Focused once its parts are mounted; a screen that looked them up as it mounted failed when the app ended
    first (a key that asks and a quit read in one go)."""

    def __init__(self, question: str, yes: str, no: str) -> None:
        super().__init__()
        self._question, self._yes, self._no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                self._question, classes="dialog-title", id="confirm-question", markup=False
            )  # it may quote a name
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self._no} (esc)", variant="primary", id="no")  # the safe answer, as escape gives
                yield Button(self._yes, variant="error", id="yes")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class HelpScreen(ModalScreen[None]):
    """Every key of the app and of each pane, from their BINDINGS."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f1,question_mark", "dismiss(None)", "Close")]

    def __init__(self, sections: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self._sections = sections

    def compose(self) -> ComposeResult:
        from rich.console import Group, RenderableType
        from rich.table import Table
        from rich.text import Text

        parts: list[RenderableType] = []
        for title, keys in self._sections:
            parts.append(Text(title, style="bold"))
            table = Table.grid(padding=(0, 1))  # a long description wraps under itself, not under the key
            table.add_column(width=1)
            table.add_column(width=18, no_wrap=True, style="bold")
            table.add_column(ratio=1)
            for key, description in keys:
                table.add_row("", key, description)
            parts.extend([table, Text("")])
        with Vertical(classes="dialog help"):
            yield Label("Keys, and what the panes show", classes="dialog-title")
            with VerticalScroll():
                yield Static(Group(*parts), id="help-text")
            yield Label("escape closes · ctrl+p opens the command palette", classes="dialog-hint")
