"""Studies kept in the library by name: save, list, open, rename, delete.

Lines of SQL text are marked ``no mutate`` here and in the other library modules: SQL
keywords and names are case-insensitive, so mutmut's case changes of them cannot change
behaviour, and its other change (``XX…XX``) is a syntax error every test reports.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from ..engine.geometry import format_variant
from ..state import AppState, parse_study, study_to_data
from .db import Library, LibraryError


@dataclass(frozen=True, kw_only=True, slots=True)
class StudyRecord:
    name: str
    moves: int
    """Nodes in the study's tree, less the root."""
    updated: str
    damaged: str | None = None
    """Why the study cannot be opened, for a row whose data is not a study any more."""
    variant: str = "3x3k3"
    """The board and rule it is played under (``4x4k4-misere``)."""


class StudyExistsError(LibraryError):
    """A save that would replace a study of the same name without being told to."""


def stored_form(state: AppState) -> str:
    """A study as the library keeps it, in a row's data."""
    return json.dumps(study_to_data(state))


def save_study(library: Library, name: str, state: AppState, *, replace: bool = False) -> None:
    """Save the study called ``name``; an existing one is replaced only when ``replace`` says so.

    :raises StudyExistsError: ``name`` is taken and ``replace`` is false.
    """
    name = name.strip()
    if not name:
        raise LibraryError("a study needs a name")
    data = stored_form(state)
    with library.transaction() as connection:
        if replace:
            connection.execute(
                "INSERT INTO studies (name, data) VALUES (?, ?) "  # pragma: no mutate - SQL
                "ON CONFLICT(name) DO UPDATE "  # pragma: no mutate - SQL
                "SET data = excluded.data, updated = datetime('now')",  # pragma: no mutate - SQL
                (name, data),
            )
            return
        try:
            connection.execute(
                "INSERT INTO studies (name, data) VALUES (?, ?)",  # pragma: no mutate - SQL
                (name, data),
            )
        except sqlite3.IntegrityError:
            raise StudyExistsError(f"library {str(library.path)!r}: a study called {name!r} exists already") from None


def study_exists(library: Library, name: str) -> bool:
    return bool(
        library.query(
            "SELECT 1 FROM studies WHERE name = ?",  # pragma: no mutate - SQL
            (name.strip(),),
        )
    )


def list_studies(library: Library) -> list[StudyRecord]:
    """Every study, newest first; a row whose data is damaged is listed as such, not left out."""
    rows = library.query(
        "SELECT name, data, updated FROM studies ORDER BY updated DESC, name"  # pragma: no mutate - SQL
    )
    records = []
    for name, data, updated in rows:
        try:
            state = _parse(data)
        except ValueError as error:
            records.append(StudyRecord(name=str(name), moves=0, updated=str(updated), damaged=str(error)))
            continue
        records.append(
            StudyRecord(
                name=str(name),
                moves=len(state.tree.nodes) - 1,
                updated=str(updated),
                variant=format_variant(state.geometry),
            )
        )
    return records


def open_study(library: Library, name: str) -> AppState:
    """The study called ``name``; raises :class:`LibraryError` naming the study and the problem."""
    data = stored_text(library, name)
    if data is None:
        raise LibraryError(f"library {str(library.path)!r}: no study called {name!r}")
    try:
        return _parse(data)
    except ValueError as error:
        raise LibraryError(f"library {str(library.path)!r}: study {name!r} is damaged ({error})") from None


def stored_text(library: Library, name: str) -> object:
    """The study called ``name`` as the library holds it (its data cell, unparsed: text, or whatever another program
    wrote there), or None where there is none: what another window's save would change."""
    rows = library.query(
        "SELECT data FROM studies WHERE name = ?",  # pragma: no mutate - SQL
        (name,),
    )
    return None if not rows else rows[0][0]


def cell_text(data: object) -> str:
    """The text of a ``data`` cell; ``ValueError`` when it holds something else (a blob that is not
    UTF-8, or a number). SQLite keeps whatever another program wrote there."""
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8")  # pragma: no mutate - "UTF-8" is the same codec
        except UnicodeDecodeError:
            raise ValueError("not UTF-8 text") from None
    if not isinstance(data, str):
        raise ValueError(f"not a study's text (a {type(data).__name__})")
    return data


def _parse(data: object) -> AppState:
    return parse_study(cell_text(data))


def rename_study(library: Library, old: str, new: str) -> None:
    new = new.strip()
    if not new:
        raise LibraryError("a study needs a name")
    with library.transaction() as connection:
        try:
            changed = connection.execute(
                "UPDATE studies SET name = ?, updated = datetime('now') WHERE name = ?",  # pragma: no mutate - SQL
                (new, old),
            ).rowcount
        except sqlite3.IntegrityError:
            raise LibraryError(f"library {str(library.path)!r}: a study called {new!r} exists already") from None
    if not changed:
        raise LibraryError(f"library {str(library.path)!r}: no study called {old!r}")


def delete_study(library: Library, name: str) -> None:
    with library.transaction() as connection:
        changed = connection.execute(
            "DELETE FROM studies WHERE name = ?",  # pragma: no mutate - SQL
            (name,),
        ).rowcount
    if not changed:
        raise LibraryError(f"library {str(library.path)!r}: no study called {name!r}")
