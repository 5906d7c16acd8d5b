"""Dialogs over the library: open (list, rename, delete) and games like this."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option


class OpenDialog(ModalScreen[None]):
    """Open a study from the library (or a .json file); rename or delete library studies.

    ``attempt(text, listed)`` opens a name or a path (a library name for certain when ``listed``: picked
    from the list, whatever its characters) and returns an error line or None.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("f2", "rename", "Rename"),
        Binding("delete", "delete", "Delete"),
    ]

    HINT = "enter opens · f2 renames · delete removes\nor type a study name or a .json path below"

    def __init__(
        self,
        names: list[tuple[str, str]],
        attempt: Callable[[str, bool], str | None],
        rename: Callable[[str, str], str | None] | None,
        delete: Callable[[str], str | None] | None,
        unlisted: str | None = None,
    ) -> None:
        super().__init__()
        self._names = names
        self._unlisted = unlisted
        """Why the library's studies could not be listed (a damaged file), if they could not."""
        self._attempt = attempt
        self._rename = rename
        self._delete = delete
        self._renaming: str | None = None
        """The study whose new name the box holds, between f2 and enter."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Open a study", classes="dialog-title")
            if self._names:
                # Text, not markup: a study's name is whatever its author typed, "[/]" included
                yield OptionList(
                    *(Option(Text.assemble(name, ("  " + detail, "dim")), id=name) for name, detail in self._names)
                )
                yield Label(
                    self.HINT, classes="dialog-hint", id="open-hint", markup=False
                )  # a rename's hint quotes the name
            elif self._unlisted is not None:  # not "no studies": some may open by name all the same
                yield Label(
                    f"The library's studies cannot be listed ({self._unlisted}): type a study's name or a .json path.",
                    classes="dialog-hint",
                    id="open-unlisted",
                    markup=False,
                )
            else:
                yield Label("The library has no studies yet: type a .json path.", classes="dialog-hint")
            # no select-all on focus: after f2 the cursor sits at the end of the name, to edit it
            yield Input(placeholder="study name or path/to/study.json", id="open-input", select_on_focus=False)
            yield Static("", id="open-error", classes="dialog-error", markup=False)  # errors quote names and paths

    def _error(self, text: str | None) -> None:
        self.query_one("#open-error", Static).update(text or "")

    def _open(self, text: str, *, listed: bool = False) -> None:
        problem = self._attempt(text if listed else text.strip(), listed)
        if problem:
            self._error(problem)
        else:
            self.dismiss(None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._open(event.option.id or "", listed=True)

    def on_key(self, event: events.Key) -> None:
        """A character typed while the list has the focus goes into the box below, as the hint invites: it was lost,
        and Enter then opened the highlighted study instead of the name typed."""
        if event.is_printable and event.character and isinstance(self.focused, OptionList):
            box = self._box()
            box.focus()
            box.insert_text_at_cursor(event.character)
            event.stop()
            event.prevent_default()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self._renaming is not None:
            self._finish_rename(self._renaming, event.value.strip())
        elif event.value.strip():
            self._open(event.value)

    def action_cancel(self) -> None:
        """Escape leaves a rename in progress, else the dialog."""
        if self._renaming is None:
            self.dismiss(None)
            return
        self._end_rename()
        self._box().value = ""
        self.query_one(OptionList).focus()
        self._error("")

    def _box(self) -> Input:
        # the dialog's one Input: query_one(Input), or query_one(selector, None), finds the same widget
        return self.query_one("#open-input", Input)  # pragma: no mutate - the type only narrows

    def _end_rename(self) -> None:
        self._renaming = None
        self.query_one("#open-hint", Label).update(self.HINT)

    def _highlighted(self) -> str | None:
        lists = self.query(OptionList)
        if not lists:
            return None
        option_list = lists.first()
        if option_list.highlighted is None:
            return None
        return option_list.get_option_at_index(option_list.highlighted).id

    def action_rename(self) -> None:
        """f2: the highlighted study's name goes into the box, with the cursor there to edit it;
        enter (or f2 again) renames. A name already typed in the box renames at once."""
        name = self._highlighted()
        if name is None or self._rename is None:
            return
        box = self._box()
        new = box.value.strip()
        if self._renaming is None and not new:
            self._renaming = name
            box.value = name
            box.focus()
            box.cursor_position = len(name)
            self.query_one("#open-hint", Label).update(f"new name for '{name}': enter renames · escape cancels")
            self._error("")
            return
        self._finish_rename(self._renaming or name, new)

    def _finish_rename(self, name: str, new: str) -> None:
        if not new:
            self._error("type the new name in the box")
            return
        if new == name:
            self._error(f"'{name}' already has that name")
            return
        problem = self._rename(name, new) if self._rename is not None else None
        if problem:
            self._error(problem)
        else:
            self.dismiss(None)

    def action_delete(self) -> None:
        """Delete the highlighted study, once the user has said yes (the default keeps it)."""
        from .dialogs import Confirm

        name, remove = self._highlighted(), self._delete
        if name is None or remove is None:
            return

        def answered(delete: bool | None) -> None:
            if not delete:
                self._error(f"kept '{name}'")
                return
            problem = remove(name)
            if problem:
                self._error(problem)
            else:
                option_list = self.query_one(OptionList)
                option_list.remove_option(name)
                self._error(f"deleted '{name}'")

        self.app.push_screen(
            Confirm(f"Delete '{name}' from the library? This cannot be undone.", yes="Delete", no="Keep it"), answered
        )


class GamesLikeThis(ModalScreen[None]):
    """Counts of the complete games through the position, and some of them."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "dismiss(None)", "Close")]

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self._title = title
        self._body = body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title")
            with VerticalScroll(id="games-like-this-scroll"):  # the Close button in view on a small terminal too
                yield Static(self._body, id="games-like-this", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Close", id="close")

    def on_button_pressed(self) -> None:
        self.dismiss(None)
