"""A damaged library: one line for every command, `library check` says what is wrong, `library salvage`
keeps every study that can still be read."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.fuzz import make_template_library, old_library, run_sql as execute
from workbench.cli import main
from workbench.library import Library, LibraryError
from workbench.library.check import check_library, salvage_library
from workbench.library.db import SCHEMA_VERSION
from workbench.library.recovery import left_behind
from workbench.library.studies import list_studies, open_study, save_study
from workbench.state import AppState, import_movetext

# the library's room by name; its `workbench library check|salvage` runs are the command line's too
pytestmark = pytest.mark.cli


@pytest.fixture
def library_file(tmp_path):
    path = tmp_path / "lib.sqlite3"
    make_template_library(path, studies=12)
    return path


def page_size(path) -> int:
    return int.from_bytes(path.read_bytes()[16:18], "big")


def damage_page_holding(path, needle: bytes) -> int:
    """Overwrite, with garbage, the page that holds ``needle``; returns that page's number (1-based)."""
    raw = bytearray(path.read_bytes())
    size = page_size(path)
    page = raw.index(needle) // size
    raw[page * size : (page + 1) * size] = bytes((7 * i + 3) % 251 for i in range(size))
    path.write_bytes(bytes(raw))
    return page + 1


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_healthy_library_checks_healthy(library_file, capsys):
    report = check_library(library_file)
    assert report.healthy and report.schema_version == SCHEMA_VERSION and len(report.studies) == 12
    code, out, err = run(capsys, "library", "check", "--db", str(library_file))
    assert code == 0 and err == ""
    assert out.splitlines() == [f"library {library_file}: schema {SCHEMA_VERSION}, 12 studies open", "healthy"]
    code, out, _ = run(capsys, "library", "check", "--json", "--db", str(library_file))
    assert json.loads(out) == {
        "path": str(library_file),
        "healthy": True,
        "newer": False,
        "foreign": False,
        "schema_version": SCHEMA_VERSION,
        "studies": 12,
        "damaged_studies": [],
        "findings": [],
    }


def test_a_damaged_page_of_studies_costs_only_the_studies_on_it(tmp_path, capsys):
    # studies of 5 KB each: twelve of them fill several leaf pages of the studies table
    library_file = tmp_path / "lib.sqlite3"
    make_template_library(library_file, studies=12, comment=5000)
    execute(library_file, "PRAGMA journal_mode = DELETE")  # the pages are in the file itself, not in a WAL
    lost_page = damage_page_holding(library_file, b"study 5 xxxx")
    code, out, err = run(capsys, "studies", "list", "--db", str(library_file))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(
        f"workbench: error: library {str(library_file)!r}: damaged (database disk image is malformed)"
    )
    assert err.rstrip().endswith("run `workbench library check`")

    report = check_library(library_file)
    assert not report.healthy and any(f.part == "integrity" for f in report.findings)
    assert "study 5" not in report.studies and "study 0" in report.studies and "study 11" in report.studies
    code, out, _ = run(capsys, "library", "check", "--db", str(library_file))
    assert code == 1 and out.splitlines()[-1].startswith("damaged: `workbench library salvage NEW.sqlite3`")

    salvaged = tmp_path / "salvaged.sqlite3"
    code, out, err = run(capsys, "library", "salvage", str(salvaged), "--db", str(library_file))
    assert code == 1 and err == ""
    saved = set(report.studies)
    assert out.splitlines()[0] == f"salvaged {len(saved)} studies and 1 unsaved ones into {salvaged}"
    assert any(line.startswith("  lost: studies:") for line in out.splitlines()[1:])
    with Library.open(salvaged) as library:
        assert {record.name for record in list_studies(library)} == saved
        assert open_study(library, "study 0").tree == open_study_from_template("study 0", 5000)
        assert [found.name for found in left_behind(library)] == ["unsaved"]
    assert check_library(salvaged).healthy, lost_page


def open_study_from_template(name: str, comment: int):
    number = int(name.split()[1])
    text = ["5 1 9 (3 7) 2", "1 5 9 (2) 3", "7 3 5"][number % 3] + f" {{study {number} " + "x" * comment + "}"
    return import_movetext(text)


@pytest.mark.parametrize(
    "statement, finding",
    [
        ("DROP TABLE openings", "schema: table openings is missing"),
        ("DROP TABLE ledger", "schema: table ledger is missing"),
        ("ALTER TABLE studies DROP COLUMN updated", "schema: table studies lacks column updated"),
        # the newest migrations' parts are checked too: practice (version 4), spaced repetition (version 5)
        ("DROP TABLE puzzles", "schema: table puzzles is missing"),
        ("ALTER TABLE attempts DROP COLUMN theme", "schema: table attempts lacks column theme"),
        ("PRAGMA user_version = -1", f"schema: version -1 is not one this workbench knows (1-{SCHEMA_VERSION})"),
        ("UPDATE studies SET data = '5' WHERE name = 'study 3'", "study 'study 3': not a workbench study"),
        ("UPDATE studies SET data = '{\"nodes\": 5}' WHERE name = 'study 3'", "study 'study 3': not a workbench study"),
        (
            f"UPDATE studies SET data = '{'[' * 100_000}' WHERE name = 'study 3'",
            "study 'study 3': not a study: JSON nested too deeply",
        ),
        ("UPDATE studies SET data = x'FF' WHERE name = 'study 3'", "study 'study 3': not UTF-8 text"),
        ("UPDATE recovery SET data = 'nope'", "unsaved study of session ffffffff: not valid JSON"),
    ],
)
def test_check_names_each_kind_of_damage(library_file, capsys, statement, finding):
    execute(library_file, statement)
    code, out, err = run(capsys, "library", "check", "--db", str(library_file))
    assert code == 1 and err == ""
    assert any(line.startswith(f"  {finding}") for line in out.splitlines()), out


@pytest.mark.parametrize(
    "statement, argv, message",
    [
        ("PRAGMA user_version = -1", ["studies", "list"], "damaged (schema version -1); run `workbench library check`"),
        ("DROP TABLE studies", ["studies", "list"], "damaged (no such table: studies); run `workbench library check`"),
        (
            "DROP TABLE studies",
            ["studies", "import", "{study}"],
            "damaged (no such table: studies); run `workbench library check`",
        ),
        ("DROP TABLE ledger", ["games"], "ledger); run `workbench library check`"),
        ("DROP TABLE classes", ["graph"], "classes); run `workbench library check`"),
        ("ALTER TABLE studies DROP COLUMN updated", ["studies", "list"], "damaged (no such column: updated)"),
    ],
)
def test_every_command_on_a_damaged_library_says_one_line(library_file, tmp_path, capsys, statement, argv, message):
    study = tmp_path / "one.json"
    study.write_text(json.dumps(json.loads(open_study_json())))
    execute(library_file, statement)
    argv = [part.replace("{study}", str(study)) for part in argv]
    code, out, err = run(capsys, *argv, "--db", str(library_file))
    assert code == 2 and err.count("\n") == 1 and message in err, err


def open_study_json() -> str:
    from workbench.state import dumps_study

    return dumps_study(AppState(tree=import_movetext("5 1"), cursor=2))


def test_a_bad_study_row_is_listed_as_damaged_and_hides_nothing(library_file, capsys):
    execute(
        library_file,
        "UPDATE studies SET data = '[]' WHERE name = 'study 4'",
        "UPDATE studies SET name = '[/]' || char(27) || '[2J' WHERE name = 'study 6'",
    )
    code, out, err = run(capsys, "studies", "list", "--db", str(library_file))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 12 and "\x1b" not in out
    assert any(line.startswith("study 4 ") and "damaged (not a workbench study" in line for line in lines)
    assert any(line.startswith("[/]\\x1b[2J ") for line in lines)
    code, out, _ = run(capsys, "studies", "list", "--json", "--db", str(library_file))
    damaged = [row for row in json.loads(out) if row["damaged"]]
    assert [(row["name"], row["moves"]) for row in damaged] == [("study 4", None)]


def test_salvage_never_writes_over_a_file(library_file, tmp_path, capsys):
    existing = tmp_path / "taken.sqlite3"
    existing.write_text("mine")
    code, out, err = run(capsys, "library", "salvage", str(existing), "--db", str(library_file))
    assert code == 2 and existing.read_text() == "mine"
    assert err == f"workbench: error: library {str(existing)!r}: exists already; salvage writes a new library only\n"
    with pytest.raises(LibraryError, match="no such file"):
        salvage_library(tmp_path / "absent.sqlite3", tmp_path / "new.sqlite3")
    assert not (tmp_path / "new.sqlite3").exists()


def test_salvage_of_a_whole_library_copies_everything(library_file, tmp_path):
    report = salvage_library(library_file, tmp_path / "copy.sqlite3")
    assert report.lost == () and len(report.saved) == 12 and report.recovered == 1
    with Library.open(tmp_path / "copy.sqlite3") as copy, Library.open(library_file) as original:
        assert copy.query("SELECT name, data, created, updated FROM studies ORDER BY name") == original.query(
            "SELECT name, data, created, updated FROM studies ORDER BY name"
        )


def test_a_file_that_is_no_database_is_checked_in_one_finding(tmp_path, capsys):
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database " * 1000)
    code, out, _ = run(capsys, "library", "check", "--db", str(garbage))
    assert code == 1 and "file: not a workbench library (file is not a database)" in out
    code, _, err = run(capsys, "library", "check", "--db", str(tmp_path / "absent.sqlite3"))
    assert code == 2 and err.endswith("no such file\n")


def test_a_save_into_a_damaged_library_is_a_library_error_and_writes_nothing(library_file):
    execute(library_file, "DROP TABLE studies")
    with Library.open(library_file) as library:
        with pytest.raises(LibraryError, match=r"damaged \(no such table: studies\)"):
            save_study(library, "new", AppState())
        assert not library.connection.in_transaction


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "folder", "fifo"])
def test_a_library_that_is_no_regular_file_is_refused_at_once(tmp_path, capsys, device):
    import os

    if device == "folder":
        device = str(tmp_path)
    elif device == "fifo":
        device = str(tmp_path / "fifo")
        os.mkfifo(device)
    for argv in (["studies", "list"], ["library", "check"], ["games"]):
        code, out, err = run(capsys, *argv, "--db", device)
        assert (code, out, err) == (2, "", f"workbench: error: library {device!r}: not a regular file\n")


def test_check_and_salvage_as_text_count_the_damaged_and_exit_by_what_was_lost(library_file, tmp_path, capsys):
    code, out, _ = run(capsys, "library", "salvage", str(tmp_path / "whole.sqlite3"), "--db", str(library_file))
    assert code == 0 and out == f"salvaged 12 studies and 1 unsaved ones into {tmp_path / 'whole.sqlite3'}\n"
    execute(library_file, "UPDATE studies SET data = '5' WHERE name = 'study 3'")
    code, out, _ = run(capsys, "library", "check", "--db", str(library_file))
    assert (
        code == 1
        and out.splitlines()[0] == f"library {library_file}: schema {SCHEMA_VERSION}, 11 studies open, 1 damaged"
    )
    code, out, _ = run(capsys, "library", "salvage", str(tmp_path / "part.sqlite3"), "--db", str(library_file))
    assert code == 1 and out.splitlines() == [
        f"salvaged 11 studies and 1 unsaved ones into {tmp_path / 'part.sqlite3'}",
        """  lost: study 'study 3': not a workbench study (no "format": "workbench-study")""",
    ]


def test_check_and_salvage_in_json(library_file, tmp_path, capsys):
    execute(library_file, "UPDATE studies SET data = '5' WHERE name = 'study 3'")
    code, out, _ = run(capsys, "library", "check", "--json", "--db", str(library_file))
    report = json.loads(out)
    assert (
        code == 1
        and report["healthy"] is False
        and report["damaged_studies"] == ["study 3"]
        and report["studies"] == 11
    )
    assert report["findings"] == [
        {"part": "study 'study 3'", "problem": 'not a workbench study (no "format": "workbench-study")'}
    ]
    target = tmp_path / "new.sqlite3"
    code, out, _ = run(capsys, "library", "salvage", str(target), "--json", "--db", str(library_file))
    salvaged = json.loads(out)
    assert code == 1 and sorted(salvaged) == ["lost", "recovered", "saved", "source", "target"]
    assert (salvaged["source"], salvaged["target"], salvaged["recovered"]) == (str(library_file), str(target), 1)
    assert sorted(salvaged["saved"]) == sorted(f"study {n}" for n in range(12) if n != 3)
    assert salvaged["lost"] == ['study \'study 3\': not a workbench study (no "format": "workbench-study")']


def test_salvage_keeps_two_studies_that_a_damaged_index_let_share_a_name(library_file, tmp_path):
    # the unique index on name gone (as a damaged page can make it), two rows hold one name
    execute(
        library_file,
        "PRAGMA writable_schema = ON",
        "UPDATE sqlite_master SET sql = replace(sql, 'name TEXT NOT NULL UNIQUE', 'name TEXT NOT NULL') WHERE name = "
        "'studies'",
        "DELETE FROM sqlite_master WHERE name = 'sqlite_autoindex_studies_1'",
    )
    execute(library_file, "UPDATE studies SET name = 'twin' WHERE name IN ('study 1', 'study 2', 'study 4')")
    report = salvage_library(library_file, tmp_path / "new.sqlite3")
    assert sorted(report.saved) == sorted(
        ["twin", "twin (2)", "twin (3)"] + [f"study {n}" for n in (0, 3, 5, 6, 7, 8, 9, 10, 11)]
    )
    with Library.open(tmp_path / "new.sqlite3") as library:
        assert {record.name for record in list_studies(library)} == set(report.saved)


def test_a_library_cut_short_gives_back_the_studies_its_pages_still_hold(tmp_path, capsys):
    """A small library cut to its first pages (a copy stopped half-way): its schema names tables whose pages are gone,
    so SQLite refused every read; the studies on the pages that are left come back."""
    source = tmp_path / "lib.sqlite3"
    make_template_library(source, studies=3, comment=10)
    execute(source, "PRAGMA journal_mode = DELETE")  # everything in the file itself
    originals = {name: open_study(Library.open(source, create=False), name).tree for name in ("study 0", "study 2")}
    raw = source.read_bytes()
    source.write_bytes(raw[: 3 * page_size(source)])  # the header's page, the studies' and one more
    report = check_library(source)
    assert report.damaged and report.studies == ("study 0", "study 1", "study 2")
    assert str(report.findings[0]) == "schema: damaged: read with SQLite's own schema checks off"
    salvaged = salvage_library(source, tmp_path / "new.sqlite3")
    assert salvaged.saved == ("study 0", "study 1", "study 2") and salvaged.lost  # the unsaved study's page is gone
    with Library.open(tmp_path / "new.sqlite3") as copy:
        assert {name: open_study(copy, name).tree for name in originals} == originals
    code, out, _ = run(capsys, "library", "check", "--db", str(source))
    assert code == 1 and out.splitlines()[0] == f"library {source}: schema {SCHEMA_VERSION}, 3 studies open"


def test_another_program_s_database_is_not_called_damaged_nor_salvaged(tmp_path, capsys):
    theirs = tmp_path / "theirs.sqlite3"
    execute(theirs, "CREATE TABLE notes (x)")
    for table in ("b", "c", "d"):
        execute(theirs, f"CREATE TABLE {table} (x)")
    before = theirs.read_bytes()
    report = check_library(theirs)
    assert report.foreign and not report.damaged and not report.healthy
    code, out, _ = run(capsys, "library", "check", "--db", str(theirs))
    assert code == 1 and out.splitlines() == [
        f"library {theirs}: schema 0, no studies",
        "  file: not a workbench library (another program's database, holding b, c, d and 1 more)",
        "not damaged, and not a library: give --db a workbench library",
    ]
    code, out, _ = run(capsys, "library", "check", "--json", "--db", str(theirs))
    assert json.loads(out)["foreign"] is True and json.loads(out)["studies"] is None
    code, out, err = run(capsys, "library", "salvage", str(tmp_path / "new.sqlite3"), "--db", str(theirs))
    assert (code, out) == (2, "") and err == (
        f"workbench: error: library {str(theirs)!r}: not a workbench library (another program's database, holding "
        "b, c, d and 1 more); nothing to salvage\n"
    )
    assert theirs.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["theirs.sqlite3"]


def test_salvage_of_a_file_that_is_no_database_names_it(tmp_path, capsys):
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database " * 1000)
    code, out, err = run(capsys, "library", "salvage", str(tmp_path / "new.sqlite3"), "--db", str(garbage))
    assert (code, out) == (2, "")
    assert err == f"workbench: error: library {str(garbage)!r}: nothing can be read (file is not a database)\n"
    assert not (tmp_path / "new.sqlite3").exists() and not list(tmp_path.glob(".new.sqlite3*"))


def test_salvage_reads_between_two_damaged_pages(tmp_path):
    library_file = tmp_path / "lib.sqlite3"
    make_template_library(library_file, studies=12, comment=5000)
    execute(library_file, "PRAGMA journal_mode = DELETE")
    damage_page_holding(library_file, b"study 2 xxxx")
    damage_page_holding(library_file, b"study 11 xxxx")  # the last page: max(rowid) cannot be read either
    report = salvage_library(library_file, tmp_path / "new.sqlite3")
    assert "study 2" not in report.saved and "study 11" not in report.saved
    assert {"study 0", "study 6", "study 7"} <= set(report.saved)  # study 6 and 7 lie between the two
    assert "studies: the rows on damaged pages could not be read" in report.lost
    assert report.lost[0].startswith("studies: database disk image is malformed (read row by row)")


def test_salvage_of_a_library_without_its_studies_or_recovery_table(library_file, tmp_path):
    execute(library_file, "DROP TABLE studies")
    report = salvage_library(library_file, tmp_path / "a.sqlite3")
    assert (report.saved, report.recovered, report.lost) == ((), 1, ("studies: no such table: studies",))
    execute(library_file, "DROP TABLE recovery")
    report = salvage_library(library_file, tmp_path / "b.sqlite3")
    assert (report.saved, report.recovered) == ((), 0)  # a library from before version 3 has none


def test_salvage_copies_text_stored_as_a_blob_as_text_and_offers_every_unsaved_study(library_file, tmp_path):
    execute(
        library_file,
        "UPDATE studies SET data = CAST(data AS BLOB) WHERE name = 'study 5'",
        "UPDATE recovery SET pid = 'x'",  # damaged: not a pid at all
        "INSERT INTO recovery (session, pid, data) VALUES ('a' || hex(randomblob(8)), 1, 'nope')",
    )
    report = salvage_library(library_file, tmp_path / "new.sqlite3")
    assert "study 5" in report.saved and report.recovered == 1
    [bad] = [line for line in report.lost if line.startswith("unsaved")]
    assert bad.startswith("unsaved study of session a") and bad[len("unsaved study of session ") :].index(":") == 8
    assert bad.endswith(": not valid JSON (Expecting value at line 1, column 1)")
    with Library.open(tmp_path / "new.sqlite3") as library:
        assert library.query("SELECT typeof(data) FROM studies WHERE name = 'study 5'") == [("text",)]
        [found] = left_behind(library)  # written by no running app: offered at once
        assert (found.session, found.name, found.state.tree) == ("f" * 32, "unsaved", import_movetext("5 1"))


def test_salvage_that_cannot_rename_its_result_leaves_nothing(library_file, tmp_path, monkeypatch):
    import os

    def refuse(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    target = tmp_path / "new.sqlite3"
    with pytest.raises(LibraryError, match=rf"^library '{target}': cannot be written \(No space left on device\)$"):
        salvage_library(library_file, target)
    assert not target.exists() and not list(tmp_path.glob(".new.sqlite3*"))


def test_salvage_clears_what_a_killed_salvage_left(library_file, tmp_path):
    for leftover in (".new.sqlite3.salvage", ".new.sqlite3.salvage-wal", ".new.sqlite3.salvage-shm"):
        (tmp_path / leftover).write_bytes(b"half")
    salvage_library(library_file, tmp_path / "new.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".new")) == []
    assert check_library(tmp_path / "new.sqlite3").healthy


def test_check_reads_a_library_with_odd_table_names_and_odd_cells(library_file, capsys):
    execute(library_file, 'CREATE TABLE "we""ird" (x)', "UPDATE studies SET data = 7 WHERE name = 'study 1'")
    report = check_library(library_file)
    # TEXT affinity stores the number as the text "7": valid JSON, not a study
    assert [str(finding) for finding in report.findings] == [
        'study \'study 1\': not a workbench study (no "format": "workbench-study")'
    ]
    garbage = library_file.with_name("garbage.sqlite3")
    garbage.write_bytes(b"not a database " * 1000)
    code, out, _ = run(capsys, "library", "check", "--json", "--db", str(garbage))
    assert json.loads(out)["path"] == str(garbage) and json.loads(out)["schema_version"] is None


def test_salvage_of_unsaved_studies_with_odd_cells(library_file, tmp_path):
    execute(library_file, "UPDATE recovery SET path = 5, name = x'00ff'")
    report = salvage_library(library_file, tmp_path / "new.sqlite3")
    assert report.recovered == 1
    with Library.open(tmp_path / "new.sqlite3") as library:
        [found] = left_behind(library)
        assert (found.path, found.name) == ("5", None)  # TEXT affinity keeps the number as text; the blob is dropped


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_an_older_library_is_healthy_by_its_own_schema(tmp_path, version):
    path = tmp_path / "old.sqlite3"
    old_library(path, version)
    report = check_library(path)
    assert report.healthy and report.schema_version == version, report.findings


@pytest.mark.parametrize("version", [0, -1])
def test_a_schema_version_no_workbench_wrote_is_a_finding(library_file, version):
    execute(library_file, f"PRAGMA user_version = {version}")
    findings = [str(finding) for finding in check_library(library_file).findings]
    assert findings == [f"schema: version {version} is not one this workbench knows (1-{SCHEMA_VERSION})"]


@pytest.mark.parametrize("version", [SCHEMA_VERSION + 1, 99])
def test_a_newer_library_is_said_to_be_newer_not_damaged(library_file, version, capsys):
    """A new user's review: a library from a newer workbench was called damaged, with salvage as the remedy."""
    execute(library_file, f"PRAGMA user_version = {version}")
    report = check_library(library_file)
    assert report.newer and not report.damaged and not report.healthy
    problem = f"made by a newer workbench (schema {version}; this one knows 1-{SCHEMA_VERSION})"
    assert [str(finding) for finding in report.findings] == [f"schema: {problem}"]
    code, out, _ = run(capsys, "library", "check", "--db", str(library_file))
    assert code == 1 and out.splitlines() == [
        f"library {library_file}: schema {version}, its studies not read",  # not "0 studies open"
        f"  schema: {problem}",
        "not damaged, as far as this workbench can tell: open it with the workbench that made it",
    ]


def test_check_names_every_missing_table_and_column(library_file):
    execute(
        library_file,
        "DROP TABLE openings",
        "DROP TABLE ledger",
        "ALTER TABLE studies DROP COLUMN created",
        "ALTER TABLE studies DROP COLUMN updated",
        "ALTER TABLE recovery DROP COLUMN data",
    )
    findings = [str(finding) for finding in check_library(library_file).findings]
    assert "schema: table ledger is missing" in findings and "schema: table openings is missing" in findings
    assert "schema: table studies lacks column created, updated" in findings
    assert "unsaved studies: no such column: data" in findings


def test_check_keeps_every_finding_and_says_what_each_is(tmp_path):
    library_file = tmp_path / "lib.sqlite3"
    make_template_library(library_file, studies=12, comment=5000)
    execute(library_file, "PRAGMA journal_mode = DELETE", "PRAGMA user_version = -7")
    damage_page_holding(library_file, b"study 0 xxxx")  # the first page of the table: the scan fails at once
    report = check_library(library_file)
    parts = [finding.part for finding in report.findings]
    assert parts[0] == "schema" and "integrity" in parts and all(finding.problem for finding in report.findings)
    assert "study 0" not in report.studies and {"study 5", "study 11"} <= set(report.studies)  # read by id past it


def test_salvage_of_a_table_whose_only_page_is_damaged_loses_its_rows_and_says_so(tmp_path):
    library_file = tmp_path / "lib.sqlite3"
    make_template_library(library_file, studies=3, comment=100)  # one page holds the whole table
    execute(library_file, "PRAGMA journal_mode = DELETE")
    damage_page_holding(library_file, b"study 1 xxxx")
    report = salvage_library(library_file, tmp_path / "new.sqlite3")
    assert report.saved == () and "studies: the rows on damaged pages could not be read" in report.lost


def test_a_salvage_that_fails_while_writing_leaves_no_file(library_file, tmp_path, monkeypatch):
    from workbench.library import check

    def broken(name):
        raise RuntimeError("disk gone")

    monkeypatch.setattr(check, "_names", broken)
    with pytest.raises(RuntimeError, match="disk gone"):
        salvage_library(library_file, tmp_path / "new.sqlite3")
    assert [p.name for p in tmp_path.iterdir() if "new" in p.name] == []


def test_studies_stored_as_blobs_are_read_or_named_as_damaged(library_file):
    execute(
        library_file,
        "UPDATE studies SET data = CAST(data AS BLOB) WHERE name = 'study 1'",
        "UPDATE studies SET data = x'FFFE' WHERE name = 'study 2'",
        "UPDATE studies SET updated = '2026-01-02 03:04:05' WHERE name = 'study 2'",
    )
    with Library.open(library_file) as library:
        records = {record.name: record for record in list_studies(library)}
        assert records["study 1"].damaged is None and records["study 1"].moves == 5
        assert open_study(library, "study 1").tree == open_study_from_template("study 1", 400)
        damaged = records["study 2"]
        assert (damaged.damaged, damaged.moves, damaged.updated) == ("not UTF-8 text", 0, "2026-01-02 03:04:05")
        with pytest.raises(LibraryError, match=r"study 'study 2' is damaged \(not UTF-8 text\)$"):
            open_study(library, "study 2")


def test_check_opens_read_only_and_leaves_the_folder_as_it_was(library_file):
    before = sorted(p.name for p in library_file.parent.iterdir())
    content = library_file.read_bytes()
    assert check_library(library_file).healthy
    # SQLite reads a WAL-mode file through its -wal and -shm companions, which it may leave; nothing else
    after = sorted(p.name for p in library_file.parent.iterdir() if not p.name.endswith(("-wal", "-shm")))
    assert (
        after == [name for name in before if not name.endswith(("-wal", "-shm"))]
        and library_file.read_bytes() == content
    )
    with pytest.raises(LibraryError, match=rf"^library '{library_file.parent / 'absent.sqlite3'}': no such file$"):
        check_library(library_file.parent / "absent.sqlite3")


def test_a_library_in_folders_not_made_yet_is_created_with_them(tmp_path):
    path = tmp_path / "a" / "b" / "lib.sqlite3"
    with Library.open(path) as library:
        save_study(library, "first", AppState())
    assert sorted(p.name for p in path.parent.iterdir())[0] == "lib.sqlite3" and check_library(path).healthy


def test_a_library_sqlite_cannot_open_is_one_line_naming_it_for_check_and_salvage(capsys, tmp_path, monkeypatch):
    """The error path of opening (a file SQLite refuses even read-only), injected at the boundary: as root,
    no file on disk can be made unreadable."""
    import workbench.library.check as check

    library_file = tmp_path / "lib.sqlite3"
    Library.open(library_file).close()

    def refuse(*arguments, **options):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(check.sqlite3, "connect", refuse)
    for argv in (["library", "check"], ["library", "salvage", str(tmp_path / "saved.sqlite3")]):
        code, out, err = run(capsys, *argv, "--db", str(library_file))
        assert (code, out) == (2, "")
        assert err == f"workbench: error: library {str(library_file)!r}: cannot open (unable to open database file)\n"
    assert not (tmp_path / "saved.sqlite3").exists()


@pytest.mark.parametrize("name, quoted", [("studies", '"studies"'), ('odd"name', '"odd""name"'), ('""', '""""""')])
def test_a_table_name_is_quoted_for_sql_with_its_quotes_doubled(name, quoted):
    from workbench.library.check import _quote

    assert _quote(name) == quoted
    connection = sqlite3.connect(":memory:")
    connection.execute(f"CREATE TABLE {quoted} (a)")  # SQLite reads it back as the very name
    assert connection.execute("SELECT name FROM sqlite_master").fetchone()[0] == name


def test_salvage_keeps_the_first_of_two_unsaved_studies_a_damaged_index_let_share_a_session(library_file, tmp_path):
    execute(
        library_file,
        "PRAGMA writable_schema = ON",
        "UPDATE sqlite_master SET sql = replace(sql, 'session TEXT PRIMARY KEY', 'session TEXT') WHERE name = "
        "'recovery'",
        "DELETE FROM sqlite_master WHERE name = 'sqlite_autoindex_recovery_1'",
    )
    study = "(SELECT data FROM studies WHERE name = 'study 3')"
    execute(
        library_file,
        f"INSERT INTO recovery (session, pid, data, name) VALUES ('{'f' * 32}', 1, {study}, 'twin')",
        f"INSERT INTO recovery (session, pid, data, name) VALUES ('{'e' * 32}', 1, {study}, 'after')",
    )
    report = salvage_library(library_file, tmp_path / "new.sqlite3")
    assert report.recovered == 2 and not [line for line in report.lost if line.startswith("unsaved")]
    with Library.open(tmp_path / "new.sqlite3") as library:
        found = {study.session: study for study in left_behind(library)}
    assert set(found) == {"f" * 32, "e" * 32}  # the study after the twin is kept too
    assert (found["f" * 32].name, found["f" * 32].state.tree) == ("unsaved", import_movetext("5 1"))  # the first row


def test_a_damaged_first_page_is_told_by_the_integrity_check_and_by_the_schema_it_hides(library_file):
    raw = bytearray(library_file.read_bytes())
    raw[100:140] = b"\xa5" * 40  # the first page's own header, right after the file's: the schema's table
    library_file.write_bytes(bytes(raw))
    findings = check_library(library_file).findings
    assert [(f.part, f.problem) for f in findings[:2]] == [
        ("integrity", "database disk image is malformed"),
        ("schema", "unreadable (database disk image is malformed)"),
    ]
    assert {"table studies is missing", "table recovery is missing"} <= {
        f.problem for f in findings[2:] if f.part == "schema"
    }


def test_check_and_salvage_name_a_path_too_long_for_the_file_system(library_file, tmp_path):
    import errno
    import os

    long = tmp_path / ("y" * 300)
    reason = os.strerror(errno.ENAMETOOLONG)
    with pytest.raises(LibraryError) as checked:
        check_library(long)
    assert str(checked.value) == f"library {str(long)!r}: cannot open ({reason})"
    with pytest.raises(LibraryError) as salvaged:
        salvage_library(library_file, long)
    assert str(salvaged.value) == f"library {str(long)!r}: cannot be written ({reason})"


def test_a_newer_library_s_studies_are_not_counted_in_the_json(library_file, capsys):
    execute(library_file, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    code, out, _ = run(capsys, "library", "check", "--json", "--db", str(library_file))
    report = json.loads(out)
    assert code == 1 and report["newer"] is True and report["studies"] is None and report["healthy"] is False


def test_an_empty_file_is_no_library_yet_for_check_and_salvage(tmp_path, capsys):
    """A review: `library check` on an empty --db file said "damaged: salvage", while every other command said it was
    no library yet."""
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    for argv in (["library", "check"], ["library", "salvage", str(tmp_path / "new.sqlite3")]):
        code, out, err = run(capsys, *argv, "--db", str(empty))
        assert (code, out, err) == (2, "", f"workbench: error: library {str(empty)!r}: an empty file, no library yet\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite3"] and empty.read_bytes() == b""
