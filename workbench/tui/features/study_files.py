"""Saving, opening and exporting studies, and the unsaved-changes question: the app's file flows.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`; it works on the app's ``store``,
``library``, ``study_path`` and ``study_name``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ...state import StudyError, dumps_study, export_movetext, load_study, save_study
from ...state.actions import LoadState, MarkSaved

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object


def download_stem(path: str | None, name: str | None) -> str:
    """A download's file name without its extension: the study's file or library name, with every character a
    file system or a browser could balk at made ``_``; ``study`` for an untitled one."""
    stem = Path(path).stem if path else (name or "")
    return re.sub(r"[^\w.-]+", "_", stem).strip("._") or "study"


class StudyFiles(AppHost):
    """Save to the library or a file, open, export, and ask before unsaved work is dropped."""

    def action_export(self) -> None:
        from ..dialogs import MoveTextScreen

        text = export_movetext(self.store.state.tree)
        if text:  # (no moves: nothing to copy, the clipboard keeps what it held)
            self.copy_to_clipboard(text)
        self.push_screen(MoveTextScreen(text, downloads=self.is_web))

    def on_move_text_screen_download_requested(self, event) -> None:
        """In a browser tab: the move text or the study file, as a download of the browser's."""
        stem = download_stem(self.study_path, self.study_name)
        if event.kind == "txt":
            text, filename, mime = export_movetext(self.store.state.tree) + "\n", f"{stem}.txt", "text/plain"
        else:
            text, filename, mime = dumps_study(self.store.state), f"{stem}.json", "application/json"
        self.deliver_text(io.StringIO(text), save_filename=filename, mime_type=mime)
        self.notify(f"Downloading {filename}", timeout=3)

    def _target_of(self, path: str | None, name: str | None) -> tuple[str, str] | None:
        """Where a study is kept: its file (resolved), else its library name."""
        if path:
            return ("file", str(Path(path).resolve()))
        return ("library", name.strip()) if name else None

    def _own_target(self) -> tuple[str, str] | None:
        """Where the open study is kept: :meth:`_target_of` its file or library name."""
        return self._target_of(self.study_path, self.study_name)

    def _stored_copy(self, target: tuple[str, str] | None) -> str | None:
        """The study as it is kept at ``target`` now (a file's text, a library row's data), or None where nothing
        is kept there or it cannot be read (the save itself then says why)."""
        if target is None:
            return None
        kind, where = target
        if kind == "file":
            try:
                return Path(where).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return None
        if self.library is None:
            return None
        from ...library import LibraryError
        from ...library.studies import stored_text

        try:
            data = stored_text(self.library, where)
        except LibraryError:
            return None
        return None if data is None else str(data)

    def _remember_stored(self) -> None:
        """The open study's kept copy as this app last read or wrote it: a save over a copy that has changed since
        (another window's save, a command's export) asks first."""
        target = self._own_target()
        if target is not None:
            self._stored_copies[target] = self._stored_copy(target)

    def _forget_stored(self) -> None:
        """The open study's kept copy is not one this app read for it (a study restored after a crash): a save
        there asks first wherever the kept copy differs from the study."""
        target = self._own_target()
        if target is not None:
            self._stored_copies.pop(target, None)

    def _changed_elsewhere(self) -> str | None:
        """The question to ask before ``ctrl+s`` writes over the open study's kept copy, where that copy is not the
        one this app last read or wrote; None when it is (or nothing is kept there)."""
        target = self._own_target()
        now = self._stored_copy(target)
        if target is None or now is None:
            return None
        where = repr(self.study_path) if target[0] == "file" else f"'{target[1]}' in the library"
        if target not in self._stored_copies:  # restored after a crash, say: which copy is newer is not known
            if now == self._copy_of_this_study(target[0]):
                return None
            return (
                f"{where} is not the copy this study was opened from here, and may have been saved since by another "
                "window or program. Replace it with this study?"
            )
        if now == self._stored_copies[target]:
            return None
        return f"{where} was changed by another window or program since it was opened here. Replace it with this study?"

    def _copy_of_this_study(self, kind: str) -> str:
        """This study as a save would write it there: a file's text, or a library row's data."""
        if kind == "file":
            return dumps_study(self.store.state)
        from ...library.studies import stored_form

        return stored_form(self.store.state)

    def _save_to(self, path: str) -> str | None:
        try:
            save_study(self.store.state, path)
        except StudyError as error:
            return str(error)
        self.study_path = path
        self._remember_stored()
        self.store.dispatch(MarkSaved())
        self._update_title()
        if self.is_web:  # a browser's user looks in its downloads: say where the file is, and how to get one
            where = Path(path).resolve()
            self.notify(f"Saved {where} on the server's machine (x: Download study for a copy here)", timeout=6)
        else:
            self.notify(f"Saved {path}", timeout=2)
        return None

    def _is_file(self, text: str) -> bool:
        """A path (``….json`` or with a folder) rather than a library name."""
        return self.library is None or text.endswith(".json") or "/" in text or "\\" in text

    def _save_named(self, text: str) -> str | None:
        """Save to the library under ``text``, or to the file ``text``; an error line or None."""
        library = self.library
        if library is None or self._is_file(text):
            problem = self._save_to(text)
            if problem is None:
                self.study_name = (
                    None  # pragma: no mutate - "" would do the same: every reader takes a falsy name as none
                )
            return problem
        from ...library import LibraryError
        from ...library.studies import save_study as save_to_library

        try:
            save_to_library(library, text, self.store.state, replace=True)
        except LibraryError as error:
            return str(error)
        self.study_name, self.study_path = text.strip(), None
        self._remember_stored()
        self.store.dispatch(MarkSaved())
        self._update_title()
        self.notify(f"Saved '{self.study_name}' in the library", timeout=2)
        return None

    def _replacing(self, text: str) -> str | None:
        """The question to ask before saving as ``text`` would replace something other than this study's own file
        or library entry, or its own where that was changed elsewhere since this app read or wrote it; None when
        nothing would be replaced."""
        library = self.library
        own = self._own_target()
        is_file = library is None or self._is_file(text)
        if own is not None and own == self._target_of(text if is_file else None, None if is_file else text):
            return self._changed_elsewhere()  # its own copy: asked about only where it changed elsewhere
        if library is None or is_file:
            target = Path(text)
            if target.is_dir():  # nothing to replace: the save says at once that it cannot write a folder
                return None
            if target.exists() and not (self.study_path and Path(self.study_path).resolve() == target.resolve()):
                return f"{text} exists — replace it?"
            return None
        from ...library import LibraryError
        from ...library.studies import study_exists

        name = text.strip()
        try:
            exists = study_exists(library, name)
        except LibraryError:
            return None  # the save itself will say what is wrong with the library
        if exists and name != self.study_name:
            return f"'{name}' exists in the library — replace it?"
        return None

    def _save_dialog(self, after=None) -> None:
        from ..dialogs import PathDialog

        if self.library is not None:
            title, default = (
                "Save as (a library name, or a file: .json or a path with /)",
                self.study_name or "my study",
            )
        else:
            title, default = "Save study as (a .json file)", self.study_path or "study.json"
        self.push_screen(PathDialog(title, default, self._save_named, question=self._replacing), after)

    def _save_then(self, proceed=None, otherwise=None) -> None:
        """Save where the study came from (its file or library name), or ask where; then ``proceed``, or
        ``otherwise`` if the user cancelled the question where."""

        def after(saved: str | None) -> None:
            if saved is not None and proceed is not None:
                proceed()
            elif saved is None and otherwise is not None:
                otherwise()

        # its own file, whatever its name looks like (never taken for a library name), else its library name
        target: str | None
        save: Callable[[str], str | None]
        if self.study_path:
            target, save = self.study_path, self._save_to
        else:
            target, save = (self.study_name if self.library is not None else None), self._save_named
        if not target:
            self._save_dialog(after)
            return

        def save_there() -> None:
            problem = save(target)
            if problem is None:
                after(target)
                return
            self.notify(problem, title="Not saved", severity="error")
            self._save_dialog(after)

        question = self._changed_elsewhere()
        if question is None:
            save_there()
            return
        from ..dialogs import Confirm

        def decided(replace: bool | None) -> None:
            if replace:
                save_there()
            else:  # kept: the save-as dialog, for another name or file (escape there: not saved)
                self._save_dialog(after)

        self.push_screen(Confirm(question, "Replace it", "Save as another"), decided)

    def action_save(self) -> None:
        self._save_then()

    def action_save_as(self) -> None:
        self._save_dialog()

    def action_open(self) -> None:
        from ...library import LibraryError, studies as library_studies
        from ..library_dialogs import OpenDialog

        def attempt(text: str, listed: bool) -> str | None:
            try:
                library = self.library
                if library is None or (not listed and self._is_file(text)):
                    loaded, path, name = load_study(text), text, None
                else:
                    loaded, path, name = library_studies.open_study(library, text), None, text
            except (StudyError, LibraryError) as error:
                return str(error)
            self.store.dispatch(LoadState(state=loaded))
            self.study_path, self.study_name = path, name
            self._remember_stored()
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
            names, unlisted = [], None
            if self.library is not None:
                try:
                    names = [(r.name, _record_detail(r)) for r in library_studies.list_studies(self.library)]
                except LibraryError as error:
                    unlisted = str(error).removeprefix(f"library {str(self.library.path)!r}: ")
                    self.notify(str(error), title="Library", severity="warning")
            rename = delete = None
            if self.library is not None:
                rename, delete = (
                    self._renaming(guarded(library_studies.rename_study)),
                    self._deleting(guarded(library_studies.delete_study)),
                )
            self.push_screen(OpenDialog(names, attempt, rename, delete, unlisted))

        self._unless_unsaved(ask)

    def _is_open_study(self, name: str) -> bool:
        return self.study_path is None and self.study_name == name

    def _renaming(self, rename):
        """Rename in the library; the open study follows its new name (the next ctrl+s saves there)."""

        def run(old: str, new: str) -> str | None:
            problem = rename(old, new)
            if problem is None:
                if self._is_open_study(old):
                    if ("library", old) in self._stored_copies:  # the same row, under its new name
                        self._stored_copies[("library", new.strip())] = self._stored_copies.pop(("library", old))
                    self.study_name = new
                    self._update_title()
                self.notify(f"Renamed '{old}' to '{new}'", timeout=3)
            return problem

        return run

    def _deleting(self, delete):
        """Delete from the library; deleting the open study leaves it untitled and unsaved, so it is
        still offered to be saved and kept safe by recovery."""

        def run(name: str) -> str | None:
            problem = delete(name)
            if problem is None and self._is_open_study(name):
                self.study_name = None
                self.store.dispatch(LoadState(state=self.store.state, unsaved=True))
                self._update_title()
            return problem

        return run

    def _unless_unsaved(self, proceed, *, why: str | None = None, otherwise=None) -> None:
        """Run ``proceed`` now, or after the user saves or discards unsaved changes (an empty new game has none);
        ``otherwise`` (if given) when the user goes back instead. ``why`` says what asks, where the user did not."""
        if not self.store.state.unsaved_work:
            proceed()
            return
        from ..dialogs import ConfirmQuit

        def decided(choice: str | None) -> None:
            if choice == "discard":
                proceed()
            elif choice == "save":
                self._save_then(proceed, otherwise)
            elif otherwise is not None:
                otherwise()

        self.push_screen(ConfirmQuit(why), decided)

    def action_request_quit(self) -> None:
        from ..dialogs import ConfirmQuit
        from ..practice import PracticeScreen

        if isinstance(self.screen, ConfirmQuit):
            return
        practising = [screen for screen in self.screen_stack if isinstance(screen, PracticeScreen)]
        if practising:  # stopped as escape stops it: what was answered is kept, and noted in the study first
            while self.screen is not practising[0]:  # a cell's name being typed, say
                self.pop_screen()
            practising[0].action_stop()
            self.call_after_refresh(self.action_request_quit)
            return
        self._unless_unsaved(self._quit_cleanly)

    async def action_quit(self) -> None:
        """Textual's own quit (the palette's "Quit") asks about unsaved changes like every other way out."""
        self.action_request_quit()

    def _quit_cleanly(self) -> None:
        self._end_recovery(clean=True)  # saved or discarded on purpose: nothing left to offer back
        self.exit(0)


def _record_detail(record) -> str:
    """What the open dialog shows beside a study's name."""
    if record.damaged is not None:
        return f"damaged: {record.damaged} · {record.updated}"
    return f"{record.variant} · {record.moves} move{'' if record.moves == 1 else 's'} · {record.updated}"
