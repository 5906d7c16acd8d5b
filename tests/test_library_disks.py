"""A library on a disk that is read-only, full, or named oddly: said as the disk's trouble, never as damage."""

from __future__ import annotations

import os
import sqlite3
from types import SimpleNamespace

import pytest

from workbench.cli import main
from workbench.library import Library
from workbench.library.db import disk_trouble, sqlite_uri
from workbench.library.studies import list_studies, save_study
from workbench.state import AppState

pytestmark = pytest.mark.cli


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def a_disk(monkeypatch, *, read_only: bool = False, free: int = 10**9) -> None:
    """``os.statvfs`` as on a disk mounted read-only, or with ``free`` bytes left."""
    monkeypatch.setattr(
        os,
        "statvfs",
        lambda path: SimpleNamespace(f_flag=os.ST_RDONLY if read_only else 0, f_bavail=free // 4096, f_frsize=4096),
    )


@pytest.mark.parametrize("name", ["we#ird?x.sqlite3", "100%.sqlite3", "a b&mode=ro.sqlite3", "//lib.sqlite3"])
def test_a_library_whose_name_has_a_uri_s_characters_is_that_very_file(capsys, tmp_path, name):
    """`--db 'we#ird?x.sqlite3'` wrote a library called 'we' and then listed 'no studies' in the one named."""
    source = tmp_path / "one.json"
    from workbench.state import save_study as save_file

    save_file(AppState(), source)
    # "//lib.sqlite3": the folder written with a leading "//" (SQLite read the first folder's name as a host)
    db = "/" + str(tmp_path / name.lstrip("/")) if name.startswith("//") else str(tmp_path / name)
    assert run(capsys, "studies", "import", str(source), "--db", db)[0] == 0
    assert sorted(os.listdir(tmp_path)) == sorted(["one.json", name.lstrip("/")])
    code, out, _ = run(capsys, "studies", "list", "--db", db)
    assert code == 0 and out.startswith("one ")
    assert run(capsys, "library", "check", "--db", db)[1].endswith("healthy\n")


def test_a_library_on_a_read_only_file_system_is_read_as_immutable_unless_its_wal_holds_changes(tmp_path, monkeypatch):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        save_study(library, "mine", AppState())
    assert sqlite_uri(path, read_only=True) == f"file://{path}?mode=ro"
    a_disk(monkeypatch, read_only=True)
    # SQLite cannot make the -shm file a library in WAL mode is read through there; nothing can change the file
    assert sqlite_uri(path, read_only=True) == f"file://{path}?mode=ro&immutable=1"
    connection = sqlite3.connect(sqlite_uri(path, read_only=True), uri=True)
    assert connection.execute("SELECT name FROM studies").fetchall() == [("mine",)]
    connection.close()
    (tmp_path / "lib.sqlite3-wal").write_bytes(b"\0" * 32)  # changes an immutable read would not see
    assert sqlite_uri(path, read_only=True) == f"file://{path}?mode=ro"
    assert sqlite_uri(path, read_only=False) == f"file://{path}"


@pytest.mark.parametrize(
    ("read_only", "free", "exists", "said"),
    [
        (False, 0, True, "cannot be opened: the disk it is on is full (SQLite needs room for its -shm and -wal "),
        (True, 10**9, False, "cannot be made: the file system is read-only (disk I/O error)"),
        (True, 10**9, True, "cannot be opened: on a read-only file system, with changes in its -wal file that "),
        (False, 10**9, True, None),  # room, and writable: the trouble is the file's, not the disk's
    ],
)
def test_the_disk_s_trouble_is_named(tmp_path, monkeypatch, read_only, free, exists, said):
    path = tmp_path / "lib.sqlite3"
    if exists:
        path.write_bytes(b"")
    a_disk(monkeypatch, read_only=read_only, free=free)
    found = disk_trouble(sqlite3.OperationalError("disk I/O error"), path)
    assert found == said if said is None or said.endswith(")") else found.startswith(said)
    assert disk_trouble(sqlite3.DatabaseError("database disk image is malformed"), path) is None
    assert disk_trouble(sqlite3.OperationalError("disk I/O error"), None) is None


@pytest.mark.parametrize("said", ["unable to open database file", "attempt to write a readonly database"])
def test_a_folder_or_a_file_this_user_may_not_use_is_named_as_the_trouble(tmp_path, monkeypatch, said):
    """Another user's library in a folder of theirs: SQLite, unable to make its -shm file there, says "attempt to
    write a readonly database" (a review ran it as nobody: `check` called the library damaged)."""
    path = tmp_path / "lib.sqlite3"
    path.write_bytes(b"")
    a_disk(monkeypatch)
    real_access = os.access
    denied = {str(tmp_path): os.W_OK}

    def access(where, mode):
        return False if denied.get(str(where)) == mode else real_access(where, mode)

    monkeypatch.setattr(os, "access", access)
    assert disk_trouble(sqlite3.OperationalError(said), path) == (
        "cannot be opened: its folder cannot be written, and SQLite reads a library in WAL mode through a -shm file "
        f"beside it (copy it to a folder of yours) ({said})"
    )
    denied[str(path)] = os.R_OK
    assert disk_trouble(sqlite3.OperationalError(said), path) == (
        f"cannot be opened: this user may not read the file (its permissions) ({said})"
    )
    denied.clear()  # a read-only file in a folder that can be written: said as read-only, not as the disk's
    assert disk_trouble(sqlite3.OperationalError("attempt to write a readonly database"), path) is None


def test_a_full_disk_is_one_line_for_every_command_never_damage(capsys, tmp_path, monkeypatch):
    """On a full tmpfs, `library check` said "not a workbench library (disk I/O error)", then "damaged: salvage"."""
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        save_study(library, "mine", AppState())
    real_connect = sqlite3.connect

    def no_room(*args, **kwargs):  # opening a library in WAL mode makes its -shm file: no room for it
        connection = real_connect(*args, **kwargs)
        connection.close()
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(sqlite3, "connect", no_room)
    a_disk(monkeypatch, free=0)
    full = "cannot be opened: the disk it is on is full (SQLite needs room for its -shm and -wal files beside it)"
    for argv in (
        ["studies", "list", "--db", str(path)],
        ["library", "check", "--db", str(path)],
        ["library", "salvage", str(tmp_path / "new.sqlite3"), "--db", str(path)],
    ):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, "") and err == f"workbench: error: library {str(path)!r}: {full} (disk I/O error)\n"
    monkeypatch.setattr(sqlite3, "connect", real_connect)
    with Library.open(path) as library:
        assert [record.name for record in list_studies(library)] == ["mine"]
