"""Checking a library file and saving what can be read from a damaged one.

:func:`check_library` opens the file read-only and never changes it: SQLite's integrity
check, the schema against the one this workbench writes, and every study and unsaved
study parsed. :func:`salvage_library` copies each study (and each unsaved study) that
can still be read into a new library: a user's studies matter more than the enumerated
games, which ``workbench games`` rebuilds.

Rows are read one by one when a table cannot be read whole, so a damaged page costs the
rows on it and not the rest.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..state import parse_study
from .db import (
    _MIGRATIONS,
    SCHEMA_VERSION,
    Library,
    LibraryError,
    _statements,
    disk_trouble,
    is_empty_file,
    library_exists,
    not_a_library,
    schema_objects,
    sqlite_uri,
)
from .recovery import NO_APP
from .studies import cell_text

MAX_PROBED_ROWS = 100_000
"""How far past the last readable row id a damaged table is probed, one id at a time."""
MAX_INTEGRITY_MESSAGES = 20


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing wrong with the library: where, and what."""

    part: str
    problem: str

    def __str__(self) -> str:
        return f"{self.part}: {self.problem}"


@dataclass(frozen=True, slots=True)
class CheckReport:
    path: str
    schema_version: int | None
    studies: tuple[str, ...] = ()
    """The names of the studies that open."""
    damaged_studies: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = ()
    foreign: bool = False
    """Another program's SQLite database (not damaged, and not a library: nothing to salvage)."""

    @property
    def healthy(self) -> bool:
        return not self.findings

    @property
    def newer(self) -> bool:
        """Made by a newer workbench: one this workbench can neither judge past SQLite's own check, nor open."""
        return self.schema_version is not None and self.schema_version > SCHEMA_VERSION

    @property
    def damaged(self) -> bool:
        """Something is wrong with the file (a newer library with nothing else found is not damaged)."""
        if self.foreign:
            return False
        return bool(self.findings) and not (self.newer and all(f.part == "schema" for f in self.findings))

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "healthy": self.healthy,
            "newer": self.newer,
            "foreign": self.foreign,
            "schema_version": self.schema_version,
            # a newer library's studies are not read, and another program's database has none
            "studies": None if self.newer or self.foreign else len(self.studies),
            "damaged_studies": list(self.damaged_studies),
            "findings": [{"part": finding.part, "problem": finding.problem} for finding in self.findings],
        }


@dataclass(frozen=True, slots=True)
class SalvageReport:
    source: str
    target: str
    saved: tuple[str, ...]
    """Studies copied, by name."""
    recovered: int
    """Unsaved studies (of apps that did not quit cleanly) copied."""
    lost: tuple[str, ...] = field(default=())
    """What could not be read, one line each."""

    def as_dict(self) -> dict:
        return {
            "source": self.source,
            "target": self.target,
            "saved": list(self.saved),
            "recovered": self.recovered,
            "lost": list(self.lost),
        }


SCHEMA_CHECKS_OFF = "damaged: read with SQLite's own schema checks off"
"""The finding of a library whose schema SQLite refused to read, read all the same (its studies may survive)."""


def _connect_for_reading(path: Path) -> tuple[sqlite3.Connection, bool]:
    """A read-only connection to ``path``, and whether SQLite's checks of the schema had to be turned off to read it.

    A library cut short (half its pages gone) can fail every read with "malformed" because one index's pages are
    lost, while its tables read whole: ``writable_schema`` lets SQLite go past a schema entry it cannot use (the
    connection is read-only, so nothing can be written through it either way)."""
    connection = _connect_read_only(path)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()  # pragma: no mutate - SQL
        return connection, False
    except sqlite3.DatabaseError as error:
        if "malformed" not in str(error):  # not a database at all, say: nothing more to try
            return connection, False
    tolerant = _connect_read_only(path)
    try:
        tolerant.execute("PRAGMA writable_schema = ON")  # pragma: no mutate - SQL
        tolerant.execute("SELECT count(*) FROM sqlite_master").fetchone()  # pragma: no mutate - SQL
    except sqlite3.DatabaseError:
        tolerant.close()
        return connection, False
    connection.close()
    return tolerant, True


def _foreign_tables(connection: sqlite3.Connection, version: int) -> list[str]:
    """What another program's database holds (schema 0 with tables or views, no library's studies among them: every
    library has a version from its first table on); none for a library, or for one whose version was lost."""
    if version != 0:
        return []
    try:
        objects = schema_objects(connection)
    except sqlite3.DatabaseError:
        return []
    return [] if "studies" in objects else objects


def _connect_read_only(path: Path) -> sqlite3.Connection:
    if not library_exists(path, "cannot open"):
        raise LibraryError(f"library {str(path)!r}: no such file")
    if not path.is_file():
        raise LibraryError(f"library {str(path)!r}: not a regular file")
    if is_empty_file(path):  # an empty database to SQLite: nothing damaged, nothing to salvage
        raise LibraryError(f"library {str(path)!r}: an empty file, no library yet")
    try:
        # uri=True: SQLite builds without SQLITE_USE_URI need it (Debian's has it on, which makes the flag's
        # mutants equivalent here); the timeout is a pace, not a behaviour a test could pin without timing;
        # autocommit changes nothing for a connection that only reads
        # (so no mutate on the next line)
        uri = sqlite_uri(path, read_only=True)
        return sqlite3.connect(uri, uri=True, timeout=2.0, isolation_level=None)  # pragma: no mutate
    except sqlite3.Error as error:
        raise LibraryError(f"library {str(path)!r}: {disk_trouble(error, path) or f'cannot open ({error})'}") from None


def _expected_schema(version: int) -> dict[str, list[str]]:
    """Table -> columns of a library made by this workbench and migrated up to ``version``."""
    memory = sqlite3.connect(":memory:")
    try:
        for step in range(1, version + 1):
            for statement in _statements(_MIGRATIONS[step]):
                memory.execute(statement)
        return _schema(memory)
    finally:
        memory.close()


def _schema(connection: sqlite3.Connection) -> dict[str, list[str]]:
    sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"  # pragma: no mutate - SQL
    tables = [row[0] for row in connection.execute(sql)]
    return {table: [row[1] for row in connection.execute(f"PRAGMA table_info({_quote(table)})")] for table in tables}


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def readable_rows(connection: sqlite3.Connection, table: str, columns: str) -> tuple[list[tuple], list[str]]:
    """The rows of ``table`` (``rowid`` first, then ``columns``) that can be read, and what could not.

    A whole-table read first; when a damaged page stops it, the row ids read so far and then
    each id up to the table's largest (or :data:`MAX_PROBED_ROWS` past the last one read).
    """
    sql = f"SELECT rowid, {columns} FROM {_quote(table)}"
    rows: list[tuple] = []
    try:
        for row in connection.execute(sql):  # one by one: the rows before a damaged page are kept
            rows.append(row)  # noqa: PERF402
        return rows, []
    except sqlite3.DatabaseError as error:
        if not rows and str(error).startswith("no such"):  # a table or column gone: no page to read past
            raise
        problems = [f"{error} (read row by row)"]
    seen = {row[0] for row in rows}
    try:
        # (NULL only for an empty table, which a whole-table read never fails on)
        # (so no mutate on the next line: its SQL reads any case, and 0 or 1 for an empty table read no row)
        last = connection.execute(f"SELECT max(rowid) FROM {_quote(table)}").fetchone()[0] or 0  # pragma: no mutate
    except sqlite3.DatabaseError:  # the last page is damaged too: probe past the rows read so far
        last = max(seen, default=0) + MAX_PROBED_ROWS
    lost_some = False  # pragma: no mutate - None is as false
    for rowid in _ids(1, last, seen):  # pragma: no mutate - id 1 is read by the scan unless its page is the damaged one
        try:
            found = connection.execute(f"{sql} WHERE rowid = ?", (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            lost_some = True
            continue
        if found is not None:
            rows.append(found)
    if lost_some:
        problems.append("the rows on damaged pages could not be read")
    rows.sort()
    return rows, problems


def _remove(library: Path) -> None:
    """Delete a library file with its WAL and shared-memory files, whichever exist."""
    for path in (library, Path(f"{library}-wal"), Path(f"{library}-shm")):
        path.unlink(missing_ok=True)


def _names(name: str) -> Iterator[str]:
    yield name
    number = 2
    while True:
        yield f"{name} ({number})"
        number += 1


def _ids(first: int, last: int, skip: set[int]) -> Iterator[int]:
    # equivalent mutants: probing an id that has no row finds nothing, so starting at 0 (our ids
    # start at 1) or ending one id later reads the same rows
    return (rowid for rowid in range(first, last + 1) if rowid not in skip)  # pragma: no mutate - equivalent (above)


def _study_rows(connection: sqlite3.Connection, findings: list[Finding]) -> list[tuple]:
    try:
        columns = "name, data, created, updated"  # pragma: no mutate - SQL names
        rows, problems = readable_rows(connection, "studies", columns)  # pragma: no mutate - SQL names
    except sqlite3.DatabaseError as error:  # no such table, or its very root unreadable
        findings.append(Finding("studies", str(error)))
        return []
    findings += [Finding("studies", problem) for problem in problems]
    return rows


def _study_text(data: object) -> str:
    """The study text in a ``data`` cell, checked to open; ``ValueError`` naming what is wrong."""
    text = cell_text(data)
    parse_study(text)
    return text


def check_library(path: str | os.PathLike[str]) -> CheckReport:
    """Everything wrong with the library at ``path``; the file is opened read-only.

    :raises LibraryError: there is no such file.
    """
    target = Path(path)
    connection, schema_checks_off = _connect_for_reading(target)
    findings: list[Finding] = [Finding("schema", SCHEMA_CHECKS_OFF)] if schema_checks_off else []
    try:
        try:
            version = connection.execute("PRAGMA user_version").fetchone()[0]  # pragma: no mutate - SQL
        except sqlite3.DatabaseError as error:
            trouble = disk_trouble(error, target)
            if trouble is not None:  # the disk's trouble, not the file's: nothing here to judge it by
                raise LibraryError(f"library {str(target)!r}: {trouble}") from None
            return CheckReport(str(target), None, findings=(Finding("file", f"not a workbench library ({error})"),))
        foreign = _foreign_tables(connection, version)
        if foreign:
            finding = Finding("file", not_a_library(foreign))
            return CheckReport(str(target), version, findings=(finding,), foreign=True)
        known = 0 < version <= SCHEMA_VERSION
        if version > SCHEMA_VERSION:
            problem = f"made by a newer workbench (schema {version}; this one knows 1-{SCHEMA_VERSION})"
            findings.append(Finding("schema", problem))
        elif not known:
            findings.append(
                Finding("schema", f"version {version} is not one this workbench knows (1-{SCHEMA_VERSION})")
            )
        try:
            messages = [row[0] for row in connection.execute(f"PRAGMA integrity_check({MAX_INTEGRITY_MESSAGES})")]
        except sqlite3.DatabaseError as error:
            messages = [str(error)]
        if messages != ["ok"]:
            findings += [Finding("integrity", message) for message in messages]
        if version > SCHEMA_VERSION:  # its tables are its own version's: only SQLite's own check judges them here
            return CheckReport(str(target), version, findings=tuple(findings))
        try:
            schema = _schema(connection)
        except sqlite3.DatabaseError as error:
            schema = {}
            findings.append(Finding("schema", f"unreadable ({error})"))
        # an older library is judged by its own version's schema: opening it with write access upgrades it
        for table, columns in _expected_schema(version if known else SCHEMA_VERSION).items():
            if table not in schema:
                findings.append(Finding("schema", f"table {table} is missing"))
                continue
            missing = [column for column in columns if column not in schema[table]]
            if missing:
                findings.append(Finding("schema", f"table {table} lacks column {', '.join(missing)}"))
        good, damaged = [], []
        if "studies" in schema:
            for _, name, data, _, _ in _study_rows(connection, findings):
                try:
                    _study_text(data)
                except ValueError as error:
                    damaged.append(str(name))
                    findings.append(Finding(f"study {str(name)!r}", str(error)))
                    continue
                good.append(str(name))
        if "recovery" in schema:
            try:
                rows, problems = readable_rows(connection, "recovery", "session, data")  # pragma: no mutate - SQL names
            except sqlite3.DatabaseError as error:
                rows, problems = [], [str(error)]
            findings += [Finding("unsaved studies", problem) for problem in problems]
            for _, session, data in rows:
                try:
                    _study_text(data)
                except ValueError as error:
                    findings.append(Finding(f"unsaved study of session {str(session)[:8]}", str(error)))
        return CheckReport(str(target), version, tuple(good), tuple(damaged), tuple(findings))
    finally:
        connection.close()


def salvage_library(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> SalvageReport:
    """Copy every study that can be read from ``source`` into a new library at ``target``.

    The new library appears whole or not at all (written beside ``target``, then renamed).

    :raises LibraryError: ``source`` is missing, ``target`` exists, or it cannot be written.
    """
    origin, destination = Path(source), Path(target)
    if library_exists(destination, "cannot be written"):
        raise LibraryError(f"library {str(destination)!r}: exists already; salvage writes a new library only")
    connection, _ = _connect_for_reading(origin)
    lost: list[str] = []
    saved: list[str] = []
    unsaved: list[tuple] = []
    try:
        findings: list[Finding] = []
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()  # pragma: no mutate - SQL
            version = connection.execute("PRAGMA user_version").fetchone()[0]  # pragma: no mutate - SQL
        except sqlite3.DatabaseError as error:
            trouble = disk_trouble(error, origin)
            raise LibraryError(f"library {str(origin)!r}: {trouble or f'nothing can be read ({error})'}") from None
        foreign = _foreign_tables(connection, version)
        if foreign:
            raise LibraryError(f"library {str(origin)!r}: {not_a_library(foreign)}; nothing to salvage")
        studies = []
        for _, name, data, created, updated in _study_rows(connection, findings):
            try:
                studies.append((str(name), _study_text(data), created, updated))
            except ValueError as error:
                lost.append(f"study {str(name)!r}: {error}")
        lost += [str(finding) for finding in findings]
        try:
            columns = "session, data, path, name, updated"  # pragma: no mutate - SQL names
            rows, problems = readable_rows(connection, "recovery", columns)  # pragma: no mutate - SQL names
        except sqlite3.DatabaseError:
            rows, problems = [], []  # no recovery table: a library from before version 3
        lost += [f"unsaved studies: {problem}" for problem in problems]
        sessions: set[str] = set()
        for _, session, data, path, name, updated in rows:
            if str(session) in sessions:  # a damaged index let a session appear twice: the first is kept
                continue
            sessions.add(str(session))
            try:
                # where the study came from is text or nothing; anything else is damage, and dropped
                origin_path, origin_name = (value if isinstance(value, str) else None for value in (path, name))
                unsaved.append((str(session), _study_text(data), origin_path, origin_name, updated))
            except ValueError as error:
                lost.append(f"unsaved study of session {str(session)[:8]}: {error}")
    finally:
        connection.close()
    partial = destination.with_name(f".{destination.name}.salvage")
    _remove(partial)  # a salvage killed before its end may have left one
    library = Library.open(partial)
    try:
        with library.transaction() as writer:
            taken: set[str] = set()
            for name, data, created, updated in studies:
                # a damaged unique index may have let two studies share a name: keep both, told apart
                name = next(candidate for candidate in _names(name) if candidate not in taken)
                taken.add(name)
                writer.execute(
                    "INSERT INTO studies (name, data, created, updated) "  # pragma: no mutate - SQL
                    # (no mutate on the next line: SQL reads any case)
                    "VALUES (?, ?, coalesce(?, datetime('now')), coalesce(?, datetime('now')))",  # pragma: no mutate
                    (name, data, created, updated),
                )
                saved.append(name)
            for session, data, path, name, updated in unsaved:
                writer.execute(
                    "INSERT INTO recovery (session, pid, data, path, name, updated) "  # pragma: no mutate - SQL
                    "VALUES (?, ?, ?, ?, ?, coalesce(?, datetime('now')))",  # pragma: no mutate - SQL
                    # no app writes to the new file: each unsaved study is offered when it is first opened
                    (session, NO_APP, data, path, name, updated),
                )
    except BaseException:
        library.close()
        _remove(partial)
        raise
    library.close()  # the last connection: SQLite folds the WAL back into the file
    try:
        os.replace(partial, destination)
    except OSError as error:
        _remove(partial)
        raise LibraryError(f"library {str(destination)!r}: cannot be written ({error.strerror or error})") from None
    return SalvageReport(str(origin), str(destination), tuple(saved), len(unsaved), tuple(lost))
