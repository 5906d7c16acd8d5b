"""Opening the library: location, versioned schema, migrations, and clear failures."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .. import errors

SCHEMA_VERSION = 5
"""``PRAGMA user_version`` of the schema this code writes."""
READABLE_FROM = 2
"""The oldest schema a read-only library can be read at (version 3 only adds the writers' recovery table, version 4
the practice tables, which a library without them reads as empty, version 5 the attempts' results and review boxes,
which a library without them reads as the solved column says: :mod:`.practice`)."""
PAGE_SIZE = 16384
LOCK_WAIT_SECONDS = 2.0  # pragma: no mutate - a pace: only timing could tell
"""How long a library locked by another process is waited for before a write, or a step of its opening, fails."""

FILL_OPENINGS = (
    "INSERT INTO openings (a1, b1, games, x_wins, o_wins) "
    "SELECT a1, b1, count(*), sum(winner = 'X'), sum(winner = 'O') FROM games GROUP BY a1, b1"
)
"""Sums the games tables' outcomes per first two moves (run whenever games are written)."""

_MIGRATIONS: dict[int, str] = {
    # version reached -> the SQL that reaches it from the one before
    1: """
    CREATE TABLE studies (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        data TEXT NOT NULL,
        created TEXT NOT NULL DEFAULT (datetime('now')),
        updated TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE games (
        game_id INTEGER PRIMARY KEY,
        a1 INTEGER NOT NULL, b1 INTEGER NOT NULL, a2 INTEGER NOT NULL, b2 INTEGER NOT NULL,
        a3 INTEGER NOT NULL, b3 INTEGER, a4 INTEGER, b4 INTEGER, a5 INTEGER,
        winner TEXT CHECK (winner IN ('X', 'O')),
        length INTEGER NOT NULL CHECK (length BETWEEN 5 AND 9)
    );
    CREATE TABLE ledger (
        game_id INTEGER NOT NULL REFERENCES games(game_id),
        turn INTEGER NOT NULL CHECK (turn BETWEEN 1 AND 9),
        player TEXT NOT NULL CHECK (player IN ('X', 'O')),
        cell INTEGER NOT NULL CHECK (cell BETWEEN 1 AND 9),
        PRIMARY KEY (game_id, turn)
    ) WITHOUT ROWID;
    CREATE TABLE classes (
        class_id INTEGER PRIMARY KEY,
        ply INTEGER NOT NULL,
        canonical TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        value TEXT,
        remoteness INTEGER,
        orbit_size INTEGER NOT NULL
    );
    CREATE TABLE class_edges (
        parent INTEGER NOT NULL REFERENCES classes(class_id),
        child INTEGER NOT NULL REFERENCES classes(class_id),
        PRIMARY KEY (parent, child)
    ) WITHOUT ROWID;
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # outcome totals per first two moves: "games through" the early positions
    # without reading tens of thousands of games (filled here if games exist)
    2: """
    CREATE TABLE openings (
        a1 INTEGER NOT NULL,
        b1 INTEGER NOT NULL,
        games INTEGER NOT NULL,
        x_wins INTEGER NOT NULL,
        o_wins INTEGER NOT NULL,
        PRIMARY KEY (a1, b1)
    ) WITHOUT ROWID;
    """
    + FILL_OPENINGS,
    # the study being edited in each running app, kept after every change so that a killed
    # terminal loses nothing; a clean quit deletes its row
    3: """
    CREATE TABLE recovery (
        session TEXT PRIMARY KEY,
        pid INTEGER NOT NULL,
        data TEXT NOT NULL,
        path TEXT,
        name TEXT,
        updated TEXT NOT NULL DEFAULT (datetime('now'))
    );
    """,
    # practice: puzzles found from the exact values (one a position and variant), and every attempt at a puzzle or
    # at a study's mistake played again, for the streaks and the positions missed
    4: """
    CREATE TABLE puzzles (
        variant TEXT NOT NULL,
        position TEXT NOT NULL,
        answer INTEGER NOT NULL,
        value TEXT NOT NULL CHECK (value IN ('win', 'draw', 'loss')),
        remoteness INTEGER NOT NULL,
        difficulty REAL NOT NULL,
        moves INTEGER NOT NULL,
        losing INTEGER NOT NULL,
        natural INTEGER NOT NULL,
        PRIMARY KEY (variant, position)
    ) WITHOUT ROWID;
    CREATE INDEX puzzles_by_difficulty ON puzzles (variant, difficulty, position);
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('mistake', 'puzzle')),
        variant TEXT NOT NULL,
        position TEXT NOT NULL,
        answer INTEGER,
        solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
        study TEXT,
        at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE INDEX attempts_by_position ON attempts (kind, variant, position, id);
    CREATE INDEX attempts_by_solved ON attempts (kind, variant, solved, id);
    """,
    # spaced repetition (Leitner boxes) kept in the attempts: each attempt's result in words, the puzzle's theme, the
    # box the position went to and the day it is due again; the attempts kept before are read as their solved column
    # said (a solved one in box 2, due the day after; a missed one in box 1, due at once)
    5: """
    ALTER TABLE attempts ADD COLUMN result TEXT
        CHECK (result IN ('solved', 'helped', 'found later', 'shown', 'missed', 'skipped'));
    ALTER TABLE attempts ADD COLUMN theme TEXT;
    ALTER TABLE attempts ADD COLUMN box INTEGER NOT NULL DEFAULT 1 CHECK (box BETWEEN 1 AND 5);
    ALTER TABLE attempts ADD COLUMN due TEXT;
    UPDATE attempts SET result = CASE solved WHEN 1 THEN 'solved' ELSE 'missed' END,
        box = CASE solved WHEN 1 THEN 2 ELSE 1 END,
        due = CASE solved WHEN 1 THEN date(at, '+1 day') ELSE date(at) END;
    CREATE INDEX attempts_by_due ON attempts (kind, variant, due)
    """,
}


class LibraryError(errors.LibraryError):
    """The library cannot be used; the message names the file and the reason."""


def default_path() -> Path:
    """``$XDG_DATA_HOME/workbench/library.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "workbench" / "library.sqlite3"


class Library:
    """An open library file. Use :meth:`open`; close with :meth:`close` or ``with``."""

    def __init__(self, path: Path, connection: sqlite3.Connection, *, read_only: bool) -> None:
        self.path = path
        self.connection = connection
        self.read_only = read_only
        self._in_use = threading.RLock()
        """Held through each read, transaction and the close: the app uses one library from its worker threads,
        and a connection closed while another thread read from it crashed the process (SQLite's memory freed under
        the read); two threads' transactions on one connection would also run into each other."""

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, create: bool = True) -> Library:
        """Open (and create or migrate) the library at ``path``.

        :raises LibraryError: locked, read-only when a migration is needed,
            corrupted, not a database, or from a newer workbench.
        """
        target = Path(path) if path is not None else default_path()
        shown = str(target)
        exists = library_exists(target, "cannot open")
        if not exists:
            if not create:
                raise LibraryError(f"library {shown!r}: no such file")
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise LibraryError(f"library {shown!r}: cannot create its folder ({error.strerror})") from None
        if exists and not target.is_file():  # a folder, a FIFO, a device: SQLite would fail oddly or block
            raise LibraryError(f"library {shown!r}: not a regular file")
        if exists and not create and is_empty_file(target):  # a reading command does not make it a library
            raise LibraryError(f"library {shown!r}: an empty file, no library yet")
        read_only = exists and not os.access(target, os.W_OK)
        uri = sqlite_uri(target, read_only=read_only)
        try:
            connection = sqlite3.connect(
                uri,
                uri=True,  # pragma: no mutate - builds without SQLITE_USE_URI need it; Debian's reads URIs either way
                timeout=LOCK_WAIT_SECONDS,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as error:
            raise LibraryError(
                f"library {shown!r}: {disk_trouble(error, target) or f'cannot open ({error})'}"
            ) from None
        library = cls(target, connection, read_only=read_only)
        try:
            library._prepare()
        except sqlite3.DatabaseError as error:
            connection.close()
            raise LibraryError(f"library {shown!r}: {describe(error, target)}") from None
        except LibraryError:
            connection.close()
            raise
        return library

    def _schema_version(self) -> int:
        """The library's schema version. :raises LibraryError: one this workbench cannot read."""
        version = self.connection.execute(
            "PRAGMA user_version"  # pragma: no mutate - SQL
        ).fetchone()[0]
        if version < 0:
            raise LibraryError(
                f"library {str(self.path)!r}: damaged (schema version {version}); run `workbench library check`"
            )
        if version > SCHEMA_VERSION:
            raise LibraryError(
                f"library {str(self.path)!r}: made by a newer workbench (schema {version}, this one knows "
                f"{SCHEMA_VERSION})"
            )
        return version

    def _prepare(self) -> None:
        connection = self.connection
        connection.execute("PRAGMA foreign_keys = ON")  # pragma: no mutate - SQL
        version = self._schema_version()
        if version == 0:
            self._refuse_a_foreign_database()
        if version < SCHEMA_VERSION and not (self.read_only and version >= READABLE_FROM):
            if self.read_only:
                raise LibraryError(f"library {str(self.path)!r}: read-only, and its schema {version} needs upgrading")
            if version == 0:
                # only takes on a new file; bigger pages make writing all games about 10 % faster
                connection.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            with self.transaction():
                # read again under the write lock: another process may have made or upgraded the library since
                # (processes starting at once on a new library did: the later ones ran the migration again, and failed)
                version = self._schema_version()
                for step in range(version + 1, SCHEMA_VERSION + 1):
                    for statement in _statements(_MIGRATIONS[step]):
                        connection.execute(statement)
                if version < SCHEMA_VERSION:
                    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        if not self.read_only:
            mode = self._switch_to_wal()
            if mode.lower() != "wal":  # pragma: no cover - filesystems without shared memory
                raise LibraryError(f"library {str(self.path)!r}: cannot switch to WAL mode (got {mode})")
            connection.execute("PRAGMA synchronous = NORMAL")  # pragma: no mutate - SQL
        # a cheap read that fails on a file that is not a database
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()  # pragma: no mutate - SQL

    def _refuse_a_foreign_database(self) -> None:
        """A database of schema 0 that already holds tables is some other program's (every library has a schema
        version from its first table on): it is never given the library's tables, nor switched to WAL.

        :raises LibraryError: naming a few of its tables."""
        tables = schema_objects(self.connection)
        # read again after the tables: another process making this library at the same moment (tabs of `serve`
        # starting at once) commits its tables and its version together
        if tables and self._schema_version() == 0:
            raise LibraryError(
                f"library {str(self.path)!r}: {not_a_library(tables)}; left as it is: give --db another file"
            )

    def _switch_to_wal(self) -> str:
        """Write-ahead logging (a reader never waits for the writer), which a library keeps once it has it; the
        journal mode it is in after. SQLite refuses the switch at once, without waiting, while another connection
        writes: the first openers of a new library (tabs of `workbench serve` starting at once, one of them making
        its tables) try again until it is made, or for as long as a locked library is waited for."""
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                return self.connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]  # pragma: no mutate - SQL
            except sqlite3.OperationalError as error:  # (only "busy" or "locked" is tried again: not a full disk, say)
                busy = (error.sqlite_errorcode & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
                if not busy or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)  # pragma: no mutate - a pace

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error: nothing is written half.

        :raises LibraryError: the library is read-only or another writer holds it.
        """
        if self.read_only:
            raise LibraryError(f"library {str(self.path)!r}: read-only, nothing can be written")
        with self._in_use:
            try:
                self.connection.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as error:  # busy; or closed (the app ending)
                raise LibraryError(f"library {str(self.path)!r}: {describe(error)}") from None
            try:
                yield self.connection
            except sqlite3.DatabaseError as error:
                self._rollback()
                raise LibraryError(f"library {str(self.path)!r}: {describe(error)}") from None
            except BaseException:
                self._rollback()
                raise
            else:
                try:
                    self.connection.execute("COMMIT")
                except sqlite3.DatabaseError as error:  # busy, full disk, or a deferred constraint
                    self._rollback()
                    raise LibraryError(f"library {str(self.path)!r}: {describe(error)}") from None

    def _rollback(self) -> None:
        # SQLite may have rolled back already (a damaged page, a full disk): then there is nothing to undo
        if self.connection.in_transaction:
            try:
                self.connection.execute("ROLLBACK")  # pragma: no mutate - SQL
            except sqlite3.DatabaseError:
                pass

    def query(self, sql: str, parameters: tuple = ()) -> list[tuple]:
        """Run a read; database errors become :class:`LibraryError`."""
        try:
            with self._in_use:
                return self.connection.execute(sql, parameters).fetchall()
        except sqlite3.DatabaseError as error:
            raise LibraryError(f"library {str(self.path)!r}: {describe(error)}") from None

    def integrity(self) -> str:
        return self.query(
            "PRAGMA integrity_check"  # pragma: no mutate - SQL
        )[0][0]

    def close(self) -> None:
        """Close the connection, once no thread is using it (a read or transaction after this fails as a
        :class:`LibraryError`)."""
        with self._in_use:
            self.connection.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def schema_objects(connection: sqlite3.Connection) -> list[str]:
    """The names of everything a database's schema holds but SQLite's own (tables, views, indexes, triggers), sorted:
    a database of schema 0 that holds any is another program's, never made a library."""
    sql = "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"  # pragma: no mutate - SQL
    return [name for (name,) in connection.execute(sql)]


def not_a_library(objects: list[str]) -> str:
    """What another program's database is, naming the first few things it holds (:func:`schema_objects`)."""
    shown = ", ".join(objects[:3]) + (f" and {len(objects) - 3} more" if len(objects) > 3 else "")
    return f"not a workbench library (another program's database, holding {shown})"


def is_empty_file(path: Path) -> bool:
    """Whether ``path`` is a file of no bytes (an empty database to SQLite, not yet a library)."""
    try:
        return path.is_file() and path.stat().st_size == 0
    except OSError:
        return False


def library_exists(path: Path, doing: str) -> bool:
    """Whether ``path`` exists. A name the file system refuses (too long, say) is an OSError from
    ``Path.exists``, not False: a :class:`LibraryError` here, saying what could not be done."""
    try:
        return path.exists()
    except OSError as error:
        raise LibraryError(f"library {str(path)!r}: {doing} ({error.strerror})") from None


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


CHECK_HINT = "run `workbench library check`"


def sqlite_uri(path: Path, *, read_only: bool) -> str:
    """The URI SQLite opens ``path`` by: the path quoted (a ``#`` or ``?`` in a name would end it, and SQLite would
    open another file), read-only where asked, and immutable on a read-only file system, where nothing can change
    it and SQLite could not make the shared-memory file a library in WAL mode is read through."""
    from urllib.parse import quote

    uri = f"file://{quote(os.path.abspath(path))}"  # an empty authority: a path of its own starting "//" stays a path
    if not read_only:
        return uri
    return uri + (
        "?mode=ro&immutable=1" if on_read_only_file_system(path) and not _has_changes_in_wal(path) else "?mode=ro"
    )


def _has_changes_in_wal(path: Path) -> bool:
    """Whether a -wal file beside ``path`` holds anything (an immutable read would not see it)."""
    try:
        return os.path.getsize(f"{path}-wal") > 0
    except OSError:
        return False


def on_read_only_file_system(path: Path) -> bool:
    """Whether ``path``'s folder is on a file system mounted read-only."""
    try:
        return bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except OSError:  # pragma: no cover - a folder that cannot be asked: taken as writable, and SQLite says the rest
        return False


def disk_trouble(error: sqlite3.Error, path: Path | None) -> str | None:
    """Where SQLite failed to open or read the library at ``path`` with an error that does not say why, the why when
    it is the disk's or the file's permissions (a read-only file system, a folder or a file this user may not use, a
    full disk) rather than damage; None otherwise."""
    text = str(error)
    opening = "disk I/O" in text or "unable to open" in text or "readonly database" in text
    if path is None or not opening:
        return None
    exists = path.exists()
    if on_read_only_file_system(path):
        if not exists:
            return f"cannot be made: the file system is read-only ({text})"
        trouble = (
            "on a read-only file system, with changes in its -wal file that SQLite cannot read there (copy the "
            "library and its -wal file to a folder that can be written)"
        )
    elif exists and not os.access(path, os.R_OK):
        trouble = "this user may not read the file (its permissions)"
    elif exists and not os.access(path.parent, os.W_OK):  # another user's folder, say
        # (SQLite says "attempt to write a readonly database" when it cannot make the -shm file there)
        trouble = (
            "its folder cannot be written, and SQLite reads a library in WAL mode through a -shm file beside it "
            "(copy it to a folder of yours)"
        )
    elif "readonly database" in text:  # a read-only file in a folder that can be written: said as such
        return None
    else:
        try:
            stats = os.statvfs(path.parent)
        except OSError:  # pragma: no cover - as above
            return None
        if stats.f_bavail * stats.f_frsize >= FULL_DISK_BYTES:
            return None
        trouble = "the disk it is on is full (SQLite needs room for its -shm and -wal files beside it)"
    return f"cannot be opened: {trouble} ({text})"


FULL_DISK_BYTES = 256 * 1024
"""Less room than this beside a library, and an unexplained SQLite failure is put down to a full disk: the -shm file
SQLite makes to open a library in WAL mode is 32 KiB, and a write's journal more."""


def describe(error: sqlite3.Error, path: Path | None = None) -> str:
    """What an SQLite error means to the library's user, in a few words; ``path``, the library's, lets a failure to
    open or write that SQLite does not explain be put down to its disk (read-only, or full) rather than to damage."""
    trouble = disk_trouble(error, path)
    if trouble is not None:
        return trouble
    text = str(error)
    if "locked" in text or "busy" in text:
        return "locked by another program (try again when it is done)"
    if "not a database" in text:  # also "file is encrypted or is not a database"
        return f"not a workbench library ({text})"
    if "readonly" in text or "read-only" in text:
        return "read-only, nothing can be written"
    if "disk is full" in text or "disk I/O" in text or isinstance(error, sqlite3.IntegrityError):
        return text
    # malformed pages, a dropped table or column, a broken index: the file is damaged
    return f"damaged ({text}); {CHECK_HINT}"
