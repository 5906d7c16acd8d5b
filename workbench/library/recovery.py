"""Unsaved work kept safe: each running app keeps its study in the library after every change.

A row per app session (``recovery``) holds the study as JSON with where it came from.
A clean quit deletes the row; a killed terminal, a lost SSH connection or a crash leaves
it, and the next start offers it back. Rows of apps that are still running (another
terminal) are never offered, and an app takes the rows it offers over (:func:`claim`), so
that no two apps started at once (two browser tabs after a server's restart) offer the same
study. :class:`RecoveryKeeper` does the writing on a thread and a
connection of its own, so a keypress never waits for the disk or for a busy library.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

from ..lifeline import is_running
from ..state import AppState, parse_study, study_to_data
from .db import Library, LibraryError


@dataclass(frozen=True, slots=True)
class Recovered:
    """An unsaved study left by an app that did not quit cleanly."""

    session: str
    state: AppState
    path: str | None
    name: str | None
    updated: str
    """UTC, as SQLite writes it: ``YYYY-MM-DD HH:MM:SS``."""
    pid: int = 0
    """The process the row was found under (gone, or :data:`NO_APP`)."""


def keep(library: Library, session: str, state: AppState, *, path: str | None, name: str | None) -> None:
    """Write (or replace) this session's row, in a transaction of its own."""
    data = json.dumps(study_to_data(state))
    with library.transaction() as connection:
        connection.execute(
            "INSERT INTO recovery (session, pid, data, path, name) VALUES (?, ?, ?, ?, ?) "  # pragma: no mutate - SQL
            "ON CONFLICT(session) DO UPDATE "  # pragma: no mutate - SQL
            "SET data = excluded.data, path = excluded.path, name = excluded.name, "  # pragma: no mutate - SQL
            "updated = datetime('now')",  # pragma: no mutate - SQL
            (session, os.getpid(), data, path, name),
        )


def forget(library: Library, session: str) -> None:
    """Delete a session's row (after a clean quit, a save, or once it was offered)."""
    with library.transaction() as connection:
        connection.execute(
            "DELETE FROM recovery WHERE session = ?",  # pragma: no mutate - SQL
            (session,),
        )


NO_APP = 0
"""The pid of an unsaved study that no running app is keeping: one copied by a salvage, or one whose question was
put off (:func:`release`)."""


def left_behind(library: Library, *, own_session: str | None = None) -> list[Recovered]:
    """The studies of apps that are no longer running, newest first; damaged rows are dropped.

    (An app of this very process other than ``own_session`` counts as gone: that is how a
    test stands for a killed app.)"""
    found, damaged = [], []
    sql = "SELECT session, pid, data, path, name, updated FROM recovery "  # pragma: no mutate - SQL
    rows = library.query(sql + "ORDER BY updated DESC, session")  # pragma: no mutate - SQL
    for session, pid, data, path, name, updated in rows:
        if session == own_session or (pid != os.getpid() and is_running(pid)):
            continue
        try:
            state = parse_study(data)
        except (ValueError, TypeError):  # TypeError: a cell that is not text
            damaged.append(session)
            continue
        found.append(Recovered(session, state, path, name, updated, pid))
    for session in damaged:
        try:
            forget(library, session)
        except LibraryError:
            pass
    return found


def held_elsewhere(library: Library) -> bool:
    """Whether another process that still runs keeps a study here: an app open in another tab or terminal, or one
    that is ending (a reloaded tab's, whose app the server has asked to quit), whose study is left behind once it
    has ended."""
    rows = library.query("SELECT pid FROM recovery")  # pragma: no mutate - SQL
    return any(pid != os.getpid() and is_running(pid) for (pid,) in rows)


def claim(library: Library, found: list[Recovered]) -> list[Recovered]:
    """Those of ``found`` (:func:`left_behind`'s) that this app takes over to offer: each row marked with this
    process, as long as it is still under the process it was found under. An app started meanwhile then passes
    them by (this one runs), and one that took a row first, or dropped it, leaves it out of this one's. An app that
    ends before its question is answered leaves the row to the next start (its process gone)."""
    if not found:
        return []  # (no write at all: a start with nothing left behind never waits for a busy library)
    claimed = []
    with library.transaction() as connection:
        for recovered in found:
            cursor = connection.execute(
                "UPDATE recovery SET pid = ? WHERE session = ? AND pid = ?",  # pragma: no mutate - SQL
                (os.getpid(), recovered.session, recovered.pid),
            )
            if cursor.rowcount == 1:
                claimed.append(recovered)
    return claimed


def release(library: Library, session: str) -> None:
    """Leave a claimed row for the next start (its question was put off): under no app."""
    with library.transaction() as connection:
        connection.execute(
            "UPDATE recovery SET pid = ? WHERE session = ?",  # pragma: no mutate - SQL
            (NO_APP, session),
        )


class RecoveryKeeper:
    """Keeps the latest study of one app in the library, from a thread of its own.

    :meth:`offer` only hands over the (immutable) state and returns; the thread writes
    the newest state it was offered, skipping any it was too slow to see.

    The thread waits ``settle`` seconds after being woken before it writes: its Python work
    (the study's JSON) would otherwise take the interpreter from the app while the app draws
    the very change that woke it, and keys pressed meanwhile are written once. A quit writes
    at once.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        settle: float = 0.05,  # pragma: no mutate - a pace: only timing could tell a mutant's from it
    ) -> None:
        self.path = Path(path)
        self.settle = settle
        self.session = uuid.uuid4().hex
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._pending: tuple[AppState, str | None, str | None] | None = None
        self._clear = False  # pragma: no mutate - None is as false; True would only delete a row not yet written
        self._others: list[tuple[str, bool]] = []
        """Other sessions' rows to change, in turn: (session, True) dropped, (session, False) released."""
        self._stopping = False  # pragma: no mutate - None is as false
        self._idle = threading.Event()
        self._idle.set()
        self._stop = threading.Event()  # ends a settling wait: a quit does not wait for it
        self.error: str | None = None  # pragma: no mutate - "" is as false for every reader
        """The last write's failure, if any (the app says so once)."""
        self._thread = threading.Thread(
            target=self._run,
            name="recovery",  # pragma: no mutate - for a debugger's list of threads only
            daemon=True,  # the app's exit never waits for a write stuck on a locked library
        )
        self._thread.start()

    def offer(self, state: AppState, *, path: str | None, name: str | None) -> None:
        """Keep ``state`` (when it has unsaved changes; otherwise nothing needs keeping)."""
        with self._lock:
            if state.modified:
                # a pending study is written before a clear is looked at: True here would change nothing
                self._pending, self._clear = (state, path, name), False  # pragma: no mutate - equivalent (above)
            else:
                self._pending, self._clear = None, True
            self._idle.clear()
        self._wake.set()

    def drop(self, session: str) -> None:
        """Delete another session's row (its study was restored or declined)."""
        self._change_other(session, True)

    def release(self, session: str) -> None:
        """Leave another session's row, claimed to be offered, for the next start (its question was put off)."""
        self._change_other(session, False)

    def _change_other(self, session: str, dropped: bool) -> None:
        with self._lock:
            self._others.append((session, dropped))
            self._idle.clear()
        self._wake.set()

    def flush(self, timeout: float = 5.0) -> bool:  # pragma: no mutate - the default wait is a guard, not a pace
        """Wait until everything offered is written; False if that took longer than ``timeout``."""
        return self._idle.wait(timeout)

    def close(self, *, clean: bool) -> None:
        """Stop the thread; a clean quit also deletes this session's row."""
        with self._lock:
            if clean:
                self._pending, self._clear = None, True
            self._stopping = True
            self._idle.clear()
        self._stop.set()
        self._wake.set()
        self._thread.join(10)  # pragma: no mutate - a guard against a write stuck on a locked library, not a pace

    def _run(self) -> None:
        library = None
        failed = False  # pragma: no mutate - None is as false; True only makes the first wait end after a second
        while True:
            # after a failed write (a busy or full disk), try again within a second even if nothing new comes
            self._wake.wait(1.0 if failed else None)  # pragma: no mutate - the retry's pace: only timing could tell
            self._stop.wait(self.settle)  # at once when close has set it
            with self._lock:
                self._wake.clear()
                pending, clear, others, stopping = self._pending, self._clear, self._others, self._stopping
                self._pending, self._clear, self._others = None, False, []
            try:
                if pending is not None or clear or others:
                    if library is None:
                        library = Library.open(self.path)
                    if pending is not None:  # this session's study first: a restored one is never in no row
                        state, path, name = pending
                        keep(library, self.session, state, path=path, name=name)
                    elif clear:
                        forget(library, self.session)
                    for session, dropped in others:
                        (forget if dropped else release)(library, session)
                    # True would only end the next wait after a second, with nothing to write: only timing could tell
                    self.error, failed = None, False  # pragma: no mutate - only timing could tell (above)
            except (LibraryError, sqlite3.Error) as error:
                self.error, failed = str(error), True
                with self._lock:  # keep what failed unless something newer came meanwhile
                    if self._pending is None and not self._clear:
                        self._pending, self._clear = pending, clear
                    self._others = others + self._others
            with self._lock:
                if self._pending is None and not self._clear and not self._others:
                    self._idle.set()
            if stopping:
                if library is not None:
                    library.close()
                return
