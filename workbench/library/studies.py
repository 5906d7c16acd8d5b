"""Studies kept in the library by name: save, list, open, rename, delete.

Lines of SQL text are marked ``no mutate`` here and in the other library modules: SQL
keywords and names are case-insensitive, so mutmut's case changes of them cannot change
behaviour, and its other change (``XX…XX``) is a syntax error every test reports.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from ..state import AppState, study_from_data, study_to_data
from .db import Library, LibraryError


@dataclass(frozen=True, kw_only=True, slots=True)
class StudyRecord:
    name: str
    moves: int
    """Nodes in the study's tree, less the root."""
    updated: str


class StudyExistsError(LibraryError):
    """A save that would replace a study of the same name without being told to."""


def save_study(library: Library, name: str, state: AppState, *, replace: bool = False) -> None:
    """Save the study called ``name``; an existing one is replaced only when ``replace`` says so.

    :raises StudyExistsError: ``name`` is taken and ``replace`` is false.
    """
    name = name.strip()
    if not name:
        raise LibraryError("a study needs a name")
    data = json.dumps(study_to_data(state))
    with library.transaction() as connection:
        if replace:
            connection.execute(
                "INSERT INTO studies (name, data) VALUES (?, ?) "  # pragma: no mutate
                "ON CONFLICT(name) DO UPDATE SET data = excluded.data, updated = datetime('now')",  # pragma: no mutate
                (name, data),
            )
            return
        try:
            connection.execute(
                "INSERT INTO studies (name, data) VALUES (?, ?)",  # pragma: no mutate
                (name, data),
            )
        except sqlite3.IntegrityError:
            raise StudyExistsError(f"library {str(library.path)!r}: a study called {name!r} exists already") from None


def study_exists(library: Library, name: str) -> bool:
    return bool(library.query(
        "SELECT 1 FROM studies WHERE name = ?",  # pragma: no mutate
        (name.strip(),),
    ))  # fmt: skip


def list_studies(library: Library) -> list[StudyRecord]:
    rows = library.query("SELECT name, data, updated FROM studies ORDER BY updated DESC, name")  # pragma: no mutate
    return [StudyRecord(name=name, moves=len(json.loads(data).get("nodes", [])) - 1, updated=updated) for name, data, updated in rows]


def open_study(library: Library, name: str) -> AppState:
    """The study called ``name``; raises :class:`LibraryError` naming the study and the problem."""
    rows = library.query(
        "SELECT data FROM studies WHERE name = ?",  # pragma: no mutate
        (name,),
    )
    if not rows:
        raise LibraryError(f"library {str(library.path)!r}: no study called {name!r}")
    try:
        return study_from_data(json.loads(rows[0][0]))
    except ValueError as error:
        raise LibraryError(f"library {str(library.path)!r}: study {name!r} is damaged ({error})") from None


def rename_study(library: Library, old: str, new: str) -> None:
    new = new.strip()
    if not new:
        raise LibraryError("a study needs a name")
    with library.transaction() as connection:
        try:
            changed = connection.execute(
                "UPDATE studies SET name = ?, updated = datetime('now') WHERE name = ?",  # pragma: no mutate
                (new, old),
            ).rowcount
        except sqlite3.IntegrityError:
            raise LibraryError(f"library {str(library.path)!r}: a study called {new!r} exists already") from None
    if not changed:
        raise LibraryError(f"library {str(library.path)!r}: no study called {old!r}")


def delete_study(library: Library, name: str) -> None:
    with library.transaction() as connection:
        changed = connection.execute(
            "DELETE FROM studies WHERE name = ?",  # pragma: no mutate
            (name,),
        ).rowcount
    if not changed:
        raise LibraryError(f"library {str(library.path)!r}: no study called {name!r}")
