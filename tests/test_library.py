"""The library against real SQLite files in temp folders."""

import os
import sqlite3
import threading
import time

import pytest

from workbench.engine import TIC_TAC_TOE, Position, Status, census, parse_position
from workbench.engine.census import games_through as computed_through
from workbench.library import SCHEMA_VERSION, Library, LibraryError
from workbench.library.db import PAGE_SIZE
from workbench.library.games import (
    complete_games,
    games_summary,
    games_through,
    has_games,
    sample_games,
    write_games,
)
from workbench.library.graph import graph_dot, write_graph
from workbench.library.studies import (
    StudyExistsError,
    delete_study,
    list_studies,
    open_study,
    rename_study,
    save_study,
    study_exists,
)
from workbench.state import AppState, reduce
from workbench.state.actions import Back, PlayCell, SetComment

from .child_process import assert_killed_mid_write, run_child
from .conftest import shared_unless_mapping
from .fuzz import old_library


@pytest.fixture(scope=shared_unless_mapping("module"))
def games_library(tmp_path_factory):
    path = tmp_path_factory.mktemp("lib") / "games.sqlite3"
    library = Library.open(path)
    library.progress = []  # what the progress bar was told while writing
    write_games(library, lambda *call: library.progress.append(call))
    write_graph(library)
    yield library
    library.close()


def study():
    state = AppState()
    for cell in (5, 1, 9):
        state = reduce(state, PlayCell(cell=cell))
    state = reduce(reduce(state, Back()), PlayCell(cell=3))
    return reduce(state, SetComment(text="quiet"))


def test_new_library_has_the_current_schema_in_wal_mode(tmp_path):
    with Library.open(tmp_path / "new" / "lib.sqlite3") as library:
        assert library.query("PRAGMA user_version")[0][0] == SCHEMA_VERSION
        assert library.query("PRAGMA journal_mode")[0][0] == "wal"
        assert library.query("PRAGMA page_size")[0][0] == PAGE_SIZE
        assert library.integrity() == "ok"


def test_default_path_is_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with Library.open() as library:
        assert library.path == tmp_path / "workbench" / "library.sqlite3"


def test_studies_round_trip_rename_and_delete(tmp_path):
    state = study()
    with Library.open(tmp_path / "lib.sqlite3") as library:
        save_study(library, "centre", state)
        loaded = open_study(library, "centre")
        assert loaded.tree == state.tree and loaded.cursor == state.cursor
        longer = reduce(state, PlayCell(cell=7))
        with pytest.raises(StudyExistsError) as caught:
            save_study(library, " centre ", longer)  # the same name: kept unless told otherwise
        assert str(caught.value) == f"library {str(library.path)!r}: a study called 'centre' exists already"
        assert open_study(library, "centre").tree == state.tree and study_exists(library, "centre ")
        save_study(library, "centre", longer, replace=True)
        assert [r.name for r in list_studies(library)] == ["centre"]
        assert list_studies(library)[0].moves == 5 and open_study(library, "centre").tree == longer.tree
        assert not study_exists(library, "elsewhere")
        rename_study(library, "centre", "the centre")
        with pytest.raises(LibraryError, match="no study called 'centre'"):
            open_study(library, "centre")
        save_study(library, "other", state)
        with pytest.raises(LibraryError, match="exists already"):
            rename_study(library, "other", "the centre")
        delete_study(library, "other")
        with pytest.raises(LibraryError, match="no study called 'other'"):
            delete_study(library, "other")
        with pytest.raises(LibraryError, match="needs a name"):
            save_study(library, "  ", state)


def test_a_library_without_games_sums_up_as_none_of_each(tmp_path):
    """Before `workbench games` has written them, the summary counts no game of any outcome (not a missing key)."""
    with Library.open(tmp_path / "lib.sqlite3") as library:
        assert games_summary(library) == {"ledger_rows": 0, "x": 0, "o": 0, "draw": 0}


def test_the_list_of_studies_names_each_study_s_board_and_rule(tmp_path):
    """The open dialog and `workbench studies list` show each study's variant: a 4×4 misère study is not listed
    as the classic board."""
    from workbench.engine import Geometry
    from workbench.state.actions import NewGame

    four = reduce(reduce(AppState(), NewGame(geometry=Geometry(4, 4, 4, misere=True))), PlayCell(cell=6))
    with Library.open(tmp_path / "lib.sqlite3") as library:
        save_study(library, "classic", study())
        save_study(library, "four", four)
        variants = {record.name: (record.variant, record.moves) for record in list_studies(library)}
    assert variants == {"classic": ("3x3k3", 4), "four": ("4x4k4-misere", 1)}


def test_games_tables_match_the_census(games_library):
    data = census(TIC_TAC_TOE)
    split = dict(games_library.query("SELECT coalesce(winner, 'draw'), count(*) FROM games GROUP BY winner"))
    assert (split["X"], split["O"], split["draw"]) == (data["games"]["x"], data["games"]["o"], data["games"]["draw"])
    ledger_rows = sum(int(length) * count for length, count in data["games_by_length"].items())
    assert games_library.query("SELECT count(*) FROM ledger")[0][0] == ledger_rows
    # the summary `workbench games` prints (its X wins, O wins and draws) is the census's too
    assert games_summary(games_library) == {
        "ledger_rows": ledger_rows,
        "x": data["games"]["x"],
        "o": data["games"]["o"],
        "draw": data["games"]["draw"],
    }
    by_length = dict(games_library.query("SELECT length, count(*) FROM games GROUP BY length"))
    assert {str(k): v for k, v in by_length.items()} == data["games_by_length"]
    # the ledger and the flat table tell the same games
    assert (
        games_library.query(
            "SELECT count(*) FROM ledger AS l JOIN games AS g USING (game_id) WHERE l.cell != CASE l.turn "
            "WHEN 1 THEN g.a1 WHEN 2 THEN g.b1 WHEN 3 THEN g.a2 WHEN 4 THEN g.b2 WHEN 5 THEN g.a3 "
            "WHEN 6 THEN g.b3 WHEN 7 THEN g.a4 WHEN 8 THEN g.b4 WHEN 9 THEN g.a5 END"
        )[0][0]
        == 0
    )
    assert games_library.query("SELECT DISTINCT player FROM ledger WHERE turn % 2 = 1") == [("X",)]
    assert has_games(games_library)
    assert games_library.integrity() == "ok"


@pytest.mark.parametrize(
    "text",
    [
        ".../.../...",
        ".../.X./...",
        "X../.../...",
        "X../.O./...",
        "O../.X./..X",
        "XO./XO./...",
        "XO./.X./..O",
        "XXX/OO./...",
        "XOX/.O./X..",
        "XO./.XX/O.O",
        "XOX/OXX/.OO",
        "XOX/.XO/.XO",
        "XOX/XOO/OX.",
        "XOX/XOO/OXX",
    ],
)
def test_games_through_a_position_equal_the_engine(games_library, text):
    position = parse_position(text)
    assert games_through(games_library, position) == computed_through(TIC_TAC_TOE, position.key).as_dict()
    samples = sample_games(games_library, position, 5)
    expected_count = min(5, computed_through(TIC_TAC_TOE, position.key).total)
    assert len(samples) == expected_count
    winners = {Status.X_WON: "X", Status.O_WON: "O", Status.DRAW: None}
    for moves, winner in samples:
        assert Position.empty().play_all(moves[: position.ply]) == position
        final = Position.empty().play_all(moves)
        assert final.is_over and winner == winners[final.status]


@pytest.mark.parametrize("sequence", [(), (5,), (5, 1), (1, 5, 9), (1, 2, 3, 4, 5, 6)])
def test_games_after_a_move_sequence_equal_the_engine(games_library, sequence):
    from workbench.engine import analyze
    from workbench.library.games import games_after

    position = Position.empty().play_all(sequence)
    assert games_after(games_library, sequence) == analyze(position).games.as_dict()


def test_the_games_lookup_uses_an_index(games_library):
    from workbench.library.games import RANGED_PLIES, _through_filter

    for ply in range(RANGED_PLIES + 1, 10):
        plan = games_library.query(
            f"EXPLAIN QUERY PLAN SELECT winner, count(*) FROM games WHERE {_through_filter(ply)} GROUP BY winner", (5,)
        )
        assert any(f"INDEX games_k{ply} " in row[3] for row in plan), plan
    names = {
        name
        for (name,) in games_library.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'games_k%'"
        )
    }
    assert names == {f"games_k{ply}" for ply in range(RANGED_PLIES + 1, 10)}


@pytest.mark.parametrize("text", ["X../.../...", "XO./XX./..O", "XO./.XX/O.O"])
def test_early_plies_read_ranges_of_the_primary_key(games_library, text):
    from workbench.library.games import game_id_ranges

    ranges = game_id_ranges(parse_position(text))
    where = " OR ".join("game_id BETWEEN ? AND ?" for _ in ranges)
    plan = games_library.query(
        f"EXPLAIN QUERY PLAN SELECT count(*) FROM games WHERE {where}", [bound for pair in ranges for bound in pair]
    )
    assert all("SCAN" not in row[3] for row in plan) and any("PRIMARY KEY" in row[3] for row in plan), plan


def test_complete_games_generator_is_every_game_once():
    seen = set()
    for moves, _ in complete_games():
        assert moves not in seen
        seen.add(moves)
    assert len(seen) == 255168


def test_graph_tables_and_dot(games_library):
    assert games_library.query("SELECT count(*) FROM classes")[0][0] == 765
    assert games_library.query("SELECT count(*) FROM classes WHERE status != 'in_play'")[0][0] == 138
    by_ply = [count for _, count in games_library.query("SELECT ply, count(*) FROM classes GROUP BY ply ORDER BY ply")]
    assert by_ply == [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]
    assert (
        games_library.query(
            "SELECT count(*) FROM class_edges AS e JOIN classes AS p ON p.class_id = e.parent "
            "JOIN classes AS c ON c.class_id = e.child WHERE c.ply != p.ply + 1"
        )[0][0]
        == 0
    )
    dot = graph_dot()
    assert (
        dot.startswith("digraph") and dot.count("->") == games_library.query("SELECT count(*) FROM class_edges")[0][0]
    )
    assert dot.count("rank=same") == 10 and 'fillcolor="#b7e4c7"' in dot
    rows = games_library.query("SELECT * FROM classes WHERE class_id IN (1, 163, 757) ORDER BY class_id")
    assert rows == [
        (1, 0, ".../.../...", "in_play", "draw", 9, 1),
        (163, 5, "XXX/OO./...", "x_won", None, None, 8),
        (757, 9, "XXO/OXX/XOO", "draw", None, None, 8),
    ]


def test_the_dot_file_word_for_word_where_it_matters():
    lines = graph_dot().split("\n")
    assert lines[:8] == [
        "digraph tictactoe {",
        '  graph [rankdir=TB, ranksep=1.2, nodesep=0.08, fontname="monospace",',
        '         label="Tic-Tac-Toe: the 765 classes by ply. Fill: value for the side to move (green win, yellow draw,'
        ' red loss); blue X won, purple O won, grey drawn.", labelloc=t];',
        '  node [shape=box, style="filled,rounded", fontname="monospace", fontsize=9, margin="0.04,0.02"];',
        '  edge [arrowsize=0.3, color="#00000030"];',
        '  c1 [label="···\\n···\\n···\\ndraw 9", fillcolor="#ffe8a3", tooltip="class 1"];',
        '  c2 [label="X··\\n···\\n···\\ndraw 8", fillcolor="#ffe8a3", tooltip="class 2"];',
        '  c3 [label="·X·\\n···\\n···\\ndraw 8", fillcolor="#ffe8a3", tooltip="class 3"];',
    ]
    assert (
        '  c163 [label="XXX\\nOO·\\n···", fillcolor="#9ecbff", tooltip="class 163"];' in lines
    )  # X won: blue, no value
    assert '  c757 [label="XXO\\nOXX\\nXOO", fillcolor="#e0e0e0", tooltip="class 757"];' in lines  # drawn: grey
    ranks = [line for line in lines if "rank=same" in line]
    assert ranks[0] == "  { rank=same; c1 }" and ranks[1] == "  { rank=same; c2 c3 c4 }"
    assert lines[-2:] == ["}", ""]


def test_the_progress_bar_hears_of_every_stage_and_the_ids_count_from_1(games_library):
    total = 255168
    assert games_library.progress == [
        *(("games", done, total) for done in range(25_000, total, 25_000)),
        ("games", total, total),
        ("ledger", 0, 1),
        ("ledger", 1, 1),
        ("indexes", 1, 3),
        ("indexes", 2, 3),
        ("indexes", 3, 3),
    ]
    assert games_library.query("SELECT min(game_id), max(game_id), count(*) FROM games") == [(1, total, total)]
    assert games_library.query("SELECT a1, b1, a2, b2, a3 FROM games WHERE game_id = 1") == [(1, 2, 3, 4, 5)]
    # the checks turned off for the bulk write are on again afterwards
    assert games_library.query("PRAGMA foreign_keys") == [(1,)]
    assert games_library.query("PRAGMA ignore_check_constraints") == [(0,)]


def test_only_the_3x3_game_has_games_tables(tmp_path):
    from workbench.engine import Geometry

    with Library.open(tmp_path / "lib.sqlite3") as library, pytest.raises(LibraryError) as caught:
        write_games(library, geometry=Geometry(4, 4, 4))
    assert str(caught.value) == "the games tables hold the 3×3 game (nine turn columns)"


def test_the_first_two_plies_are_answered_from_the_openings_table(games_library):
    from workbench.library.games import games_after

    # without the games (inside a transaction undone at the end), only the openings table can answer
    connection = games_library.connection
    connection.execute("BEGIN")
    try:
        connection.execute("DELETE FROM ledger")
        connection.execute("DELETE FROM games")
        assert (
            games_through(games_library, parse_position("X../.O./..."))
            == computed_through(TIC_TAC_TOE, parse_position("X../.O./...").key).as_dict()
        )
        assert (
            games_after(games_library, (1, 5))
            == computed_through(TIC_TAC_TOE, parse_position("X../.O./...").key).as_dict()
        )
        assert games_through(games_library, parse_position("X../.O./..X"))["total"] == 0  # ply 3 reads the games
    finally:
        connection.execute("ROLLBACK")


def test_study_errors_name_the_library_and_the_study(tmp_path):
    with Library.open(tmp_path / "lib.sqlite3") as library:
        where = f"library {str(library.path)!r}"
        for action, expected in [
            (lambda: open_study(library, "nope"), f"{where}: no study called 'nope'"),
            (lambda: delete_study(library, "nope"), f"{where}: no study called 'nope'"),
            (lambda: rename_study(library, "nope", "other"), f"{where}: no study called 'nope'"),
            (lambda: rename_study(library, "nope", "  "), "a study needs a name"),
            (lambda: save_study(library, "", AppState()), "a study needs a name"),
        ]:
            with pytest.raises(LibraryError) as caught:
                action()
            assert str(caught.value) == expected
        save_study(library, "a", AppState())
        save_study(library, "b", AppState())
        with pytest.raises(LibraryError) as caught:
            rename_study(library, "a", "b")
        assert str(caught.value) == f"{where}: a study called 'b' exists already"
        library.connection.execute("UPDATE studies SET data = '{\"format\": 5}' WHERE name = 'a'")
        with pytest.raises(LibraryError) as caught:
            open_study(library, "a")
        assert str(caught.value) == (
            f'{where}: study \'a\' is damaged (not a workbench study (no "format": "workbench-study"))'
        )
        assert library.integrity() == "ok"


def test_the_default_library_follows_xdg_and_falls_back_to_home(tmp_path, monkeypatch):
    from workbench.library import default_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "workbench" / "library.sqlite3"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == tmp_path / "home" / ".local" / "share" / "workbench" / "library.sqlite3"


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "future.sqlite3"
    Library.open(path).close()
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.commit()
    connection.close()
    with pytest.raises(LibraryError, match="newer workbench"):
        Library.open(path)


def test_an_old_schema_is_migrated(tmp_path):
    path = tmp_path / "old.sqlite3"
    sqlite3.connect(path).close()  # an empty database: schema version 0
    with Library.open(path) as library:
        assert library.query("PRAGMA user_version")[0][0] == SCHEMA_VERSION
        save_study(library, "s", AppState())


def test_a_version_1_library_with_games_gains_its_openings_on_open(games_library, tmp_path):
    import shutil

    copy = tmp_path / "v1.sqlite3"
    games_library.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(games_library.path, copy)
    connection = sqlite3.connect(copy)
    expected = connection.execute("SELECT * FROM openings ORDER BY a1, b1").fetchall()
    connection.execute("DROP TABLE openings")
    connection.execute("DROP TABLE recovery")
    connection.execute("DROP TABLE puzzles")
    connection.execute("DROP TABLE attempts")
    connection.execute("PRAGMA user_version = 1")
    connection.commit()
    connection.close()
    with Library.open(copy) as library:
        assert library.query("PRAGMA user_version")[0][0] == SCHEMA_VERSION == 5
        assert (
            library.query("SELECT count(*) FROM recovery") == library.query("SELECT count(*) FROM attempts") == [(0,)]
        )
        assert library.query("SELECT * FROM openings ORDER BY a1, b1") == expected
        assert len(expected) == 72 and sum(row[2] for row in expected) == 255168
        assert games_through(library, Position.empty()) == computed_through(TIC_TAC_TOE, 0).as_dict()


def test_corrupted_and_foreign_files_are_refused(tmp_path):
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(LibraryError, match=r"not a workbench library \(file is not a database\)$"):
        Library.open(garbage)
    with pytest.raises(LibraryError, match="no such file"):
        Library.open(tmp_path / "absent.sqlite3", create=False)


@pytest.mark.parametrize("tables", [["notes"], ["a", "b", "c", "d", "e"], ["VIEW seen"]])
def test_another_program_s_database_is_refused_and_left_as_it_is(tmp_path, tables):
    """A new user's review: `workbench export x --db other.sqlite3` on another program's database failed, but had
    added the library's 18 tables, set its version and switched it to WAL."""
    path = tmp_path / "other.sqlite3"
    connection = sqlite3.connect(path)
    for table in tables:  # (a view alone was given the library's tables by a reading command, a review found)
        connection.execute("CREATE VIEW seen AS SELECT 1" if table == "VIEW seen" else f"CREATE TABLE {table} (x)")
    connection.execute("INSERT INTO notes VALUES ('mine')") if tables == ["notes"] else None
    connection.commit()
    connection.close()
    before = path.read_bytes()
    shown = {"notes": "notes", "a": "a, b, c and 2 more", "VIEW seen": "seen"}[tables[0]]
    with pytest.raises(LibraryError) as raised:
        Library.open(path)
    assert str(raised.value) == (
        f"library {str(path)!r}: not a workbench library (another program's database, holding {shown}); "
        "left as it is: give --db another file"
    )
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite3"]


def make_read_only(path, monkeypatch):
    """chmod 444, and for root (whom the mode bits do not stop) the same answer from ``os.access``."""
    path.chmod(0o444)
    real_access = os.access

    def access(target, mode, *args, **kwargs):
        if os.fspath(target) == os.fspath(path) and mode & os.W_OK:
            return False
        return real_access(target, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)


def test_a_read_only_library_reads_but_never_writes(tmp_path, monkeypatch):
    path = tmp_path / "ro.sqlite3"
    with Library.open(path) as library:
        save_study(library, "s", AppState())
    make_read_only(path, monkeypatch)
    with Library.open(path) as library:
        assert library.read_only
        assert [r.name for r in list_studies(library)] == ["s"]
        with pytest.raises(LibraryError, match=r"^library '.*ro\.sqlite3': read-only, nothing can be written$"):
            save_study(library, "t", AppState())
        # and SQLite itself refuses, should a write get past the check
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            library.connection.execute("DELETE FROM studies")
    with Library.open(path) as library:
        assert [r.name for r in list_studies(library)] == ["s"]


def test_a_read_only_library_that_needs_a_migration_is_refused_untouched(tmp_path, monkeypatch):
    path = tmp_path / "old.sqlite3"
    old_library(path, 1)
    before = path.read_bytes()
    make_read_only(path, monkeypatch)
    with pytest.raises(LibraryError, match=r"read-only, and its schema 1 needs upgrading"):
        Library.open(path)
    assert path.read_bytes() == before


def test_read_only_flag_refuses_writes(tmp_path):
    path = tmp_path / "lib.sqlite3"
    Library.open(path).close()
    library = Library(path, sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None), read_only=True)
    with pytest.raises(LibraryError, match="read-only"):
        save_study(library, "t", AppState())
    library.close()


def test_a_locked_library_gives_a_clear_message(tmp_path):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as first, Library.open(path) as second:
        second.connection.execute("PRAGMA busy_timeout = 50")
        first.connection.execute("BEGIN IMMEDIATE")
        with pytest.raises(LibraryError, match="locked by another program"):
            save_study(second, "s", AppState())
        first.connection.execute("ROLLBACK")
        save_study(second, "s", AppState(), replace=True)


def _open_at_once(path, barrier, answers) -> None:  # in a child process
    barrier.wait(timeout=60)
    try:
        with Library.open(path) as library:
            library.query("SELECT count(*) FROM recovery")
        answers.put("opened")
    except LibraryError as error:
        answers.put(str(error))


def test_a_new_library_opened_by_several_processes_at_once_opens_in_each(tmp_path):
    """Tabs of `workbench serve` start at once on a library that does not exist yet: each makes it, or finds it
    made; none is told it is damaged (a table already there) or locked (the switch to WAL mode)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    for trial in range(4):
        path = tmp_path / f"lib{trial}.sqlite3"
        barrier, answers = context.Barrier(6), context.Queue()
        openers = [context.Process(target=_open_at_once, args=(path, barrier, answers), daemon=True) for _ in range(6)]
        try:
            for opener in openers:
                opener.start()
            got = [answers.get(timeout=60) for _ in openers]
        finally:
            for opener in openers:
                opener.join(10)
                if opener.is_alive():
                    opener.terminate()
        assert got == ["opened"] * 6
        with Library.open(path) as library:
            assert library.query("PRAGMA user_version")[0][0] == SCHEMA_VERSION and library.integrity() == "ok"
            assert library.query("PRAGMA journal_mode")[0][0] == "wal"


def test_the_switch_to_wal_mode_waits_for_a_writer_of_the_library(tmp_path):
    """SQLite refuses the switch at once, without waiting, while another connection is writing (another opener
    making the new library's tables); the opening waits for it, as for a locked library, rather than failing."""
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        library.connection.execute("PRAGMA journal_mode = DELETE")  # as a library is before its first opening ends
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")
    commit = threading.Timer(0.3, lambda: writer.execute("COMMIT"))
    commit.start()
    try:
        began = time.monotonic()
        with Library.open(path) as library:
            assert library.query("PRAGMA journal_mode")[0][0] == "wal"
        assert time.monotonic() - began >= 0.25  # it waited for the writer
    finally:
        commit.join()
        writer.close()


def test_the_switch_to_wal_mode_gives_up_on_a_writer_that_never_ends(tmp_path):
    """A writer that holds the library for longer than a locked library is waited for: the opening fails with
    the locked library's message once the wait is over, not waiting for ever (the app would hang at start)."""
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        library.connection.execute("PRAGMA journal_mode = DELETE")  # as a library is before its first opening ends
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")
    outcome: list[str] = []

    def open_it() -> None:
        try:
            Library.open(path).close()
            outcome.append("opened")
        except LibraryError as error:
            outcome.append(str(error))

    opener = threading.Thread(target=open_it, daemon=True)
    try:
        opener.start()
        opener.join(60)  # a guard against the hang this is about, not a pace
        assert outcome == [f"library {str(path)!r}: locked by another program (try again when it is done)"]
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_a_library_that_cannot_turn_to_wal_mode_says_so_naming_it(tmp_path, monkeypatch):
    """On a file system without shared memory SQLite stays in its old journal mode: the opening fails in one line
    that names the file and the mode it got (standing in for such a file system: the switch answers "delete")."""
    path = tmp_path / "lib.sqlite3"
    monkeypatch.setattr(Library, "_switch_to_wal", lambda self: "delete")
    with pytest.raises(LibraryError) as caught:
        Library.open(path)
    assert str(caught.value) == f"library {str(path)!r}: cannot switch to WAL mode (got delete)"


def test_a_library_sqlite_cannot_open_is_one_line_naming_it(tmp_path, monkeypatch):
    """The error of opening a file SQLite refuses, injected at the boundary (as root no file can be made
    unreadable): the message names the library and SQLite's reason."""
    import workbench.library.db as db

    path = tmp_path / "lib.sqlite3"

    def refuse(*arguments, **options):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(db.sqlite3, "connect", refuse)
    with pytest.raises(LibraryError) as caught:
        Library.open(path)
    assert str(caught.value) == f"library {str(path)!r}: cannot open (unable to open database file)"


def test_a_failed_write_leaves_nothing_half_written(tmp_path):
    with Library.open(tmp_path / "lib.sqlite3") as library:
        save_study(library, "kept", AppState())
        with pytest.raises(RuntimeError):
            with library.transaction() as connection:
                connection.execute("DELETE FROM studies")
                raise RuntimeError("crash in the middle")
        assert [r.name for r in list_studies(library)] == ["kept"]


def test_a_killed_writer_leaves_a_consistent_database(tmp_path):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        save_study(library, "before", AppState())
    marker = tmp_path / "write-began"
    # killed in the middle of the games write: every game row is in, the ledger is being written
    script = (
        "import os, signal\n"
        "from workbench.library import Library\n"
        "from workbench.library import games\n"
        f"library = Library.open({str(path)!r})\n"
        "def die(stage, done, total):\n"
        "    if stage == 'ledger':\n"
        "        count = library.query('SELECT count(*) FROM games')[0][0]\n"
        f"        open({str(marker)!r}, 'w').write(str(count))\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "games.write_games(library, die)\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    written = assert_killed_mid_write(run_child(script, elsewhere), marker)
    assert int(written) == 255_168  # the transaction had written every game before it was killed
    with Library.open(path) as library:
        assert library.integrity() == "ok"
        assert not has_games(library)  # the killed transaction left no games at all
        assert [r.name for r in list_studies(library)] == ["before"]


def test_a_reader_is_not_blocked_while_games_are_written(tmp_path):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        save_study(library, "s", AppState())
    mid_write, first_read_done = threading.Event(), threading.Event()

    def writer():
        with Library.open(path) as library:

            def progress(stage, done, total):
                if stage == "ledger" and not mid_write.is_set():
                    mid_write.set()  # the games are written, not committed: hold here until the reader has read
                    first_read_done.wait(60)

            write_games(library, progress)

    thread = threading.Thread(target=writer)
    thread.start()
    assert mid_write.wait(60)
    with Library.open(path) as reader:
        assert len(list_studies(reader)) == 1 and not has_games(reader)  # answered at once, from before the write
        first_read_done.set()
        while thread.is_alive():
            assert len(list_studies(reader)) == 1
    thread.join()
    with Library.open(path) as reader:
        assert has_games(reader)


def test_cli_games_graph_and_studies(tmp_path, capsys):
    from workbench.cli import main

    db = str(tmp_path / "cli.sqlite3")
    assert main(["games", "--db", db, "--json"]) == 0
    out = capsys.readouterr().out
    assert '"games": 255168' in out and '"ledger_rows": 2106288' in out
    assert main(["graph", "--db", db]) == 0
    assert "765 classes" in capsys.readouterr().out
    dot_file = tmp_path / "dag.dot"
    assert main(["graph", "--dot", str(dot_file)]) == 0
    assert dot_file.read_text().startswith("digraph")
    from workbench.state import save_study as save_file

    file = tmp_path / "s.json"
    save_file(study(), file)
    assert main(["studies", "--db", db, "import", str(file), "--name", "mine"]) == 0
    assert main(["studies", "--db", db, "list", "--json"]) == 0
    assert '"name": "mine"' in capsys.readouterr().out
    assert main(["studies", "--db", db, "rename", "mine", "ours"]) == 0
    out_file = tmp_path / "back.json"
    assert main(["studies", "--db", db, "export", "ours", str(out_file)]) == 0
    assert main(["export", str(out_file)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "5 1 9 (3 {quiet})"
    assert main(["studies", "--db", db, "delete", "ours"]) == 0
    capsys.readouterr()
    assert main(["studies", "--db", db, "delete", "ours"]) == 2
    assert "no study called 'ours'" in capsys.readouterr().err
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_text("nope" * 100)
    assert main(["games", "--db", str(garbage)]) == 2
    assert "not a workbench library (file is not a database)" in capsys.readouterr().err


def test_a_library_whose_folder_cannot_be_made_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(LibraryError) as caught:
        Library.open(blocker / "sub" / "lib.sqlite3")
    assert (
        str(caught.value)
        == f"library {str(blocker / 'sub' / 'lib.sqlite3')!r}: cannot create its folder (Not a directory)"
    )


def test_a_library_sqlite_cannot_open_is_one_line(tmp_path):
    folder = tmp_path / "a folder"
    folder.mkdir()
    with pytest.raises(LibraryError, match=r"^library '.*a folder': "):
        Library.open(folder)


def test_a_newer_library_is_refused(tmp_path):
    path = tmp_path / "new.sqlite3"
    Library.open(path).close()
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.commit()
    connection.close()
    with pytest.raises(LibraryError) as caught:
        Library.open(path)
    assert str(caught.value) == (
        f"library {str(path)!r}: made by a newer workbench (schema {SCHEMA_VERSION + 1}, this one knows "
        f"{SCHEMA_VERSION})"
    )


def test_a_failed_commit_rolls_back_and_says_why(tmp_path):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        save_study(library, "kept", AppState())
        # a deferred foreign key fails only at COMMIT: the whole transaction must go
        library.connection.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(LibraryError, match=r"^library '.*lib\.sqlite3': FOREIGN KEY constraint failed$"):
            with library.transaction() as connection:
                connection.execute("PRAGMA defer_foreign_keys = ON")
                connection.execute("INSERT INTO studies (name, data) VALUES ('new', '{}')")
                connection.execute("INSERT INTO ledger VALUES (999, 1, 'X', 5)")
        assert [r.name for r in list_studies(library)] == ["kept"]
        assert not library.connection.in_transaction


def test_a_bad_query_is_a_library_error_naming_the_file(tmp_path):
    with Library.open(tmp_path / "lib.sqlite3") as library:
        with pytest.raises(
            LibraryError,
            match=r"^library '.*lib\.sqlite3': damaged \(no such table: nowhere\); run `workbench library check`$",
        ):
            library.query("SELECT * FROM nowhere")


@pytest.mark.parametrize(
    "message, described",
    [
        ("database is locked", "locked by another program (try again when it is done)"),
        ("database table is busy", "locked by another program (try again when it is done)"),
        ("database table is locked: studies", "locked by another program (try again when it is done)"),
        ("file is not a database", "not a workbench library (file is not a database)"),
        (
            "database disk image is malformed",
            "damaged (database disk image is malformed); run `workbench library check`",
        ),
        ("file is encrypted or is not a database", "not a workbench library (file is encrypted or is not a database)"),
        ("no such table: studies", "damaged (no such table: studies); run `workbench library check`"),
        ("attempt to write a readonly database", "read-only, nothing can be written"),
        ("the file system is read-only", "read-only, nothing can be written"),
        ("disk I/O error", "disk I/O error"),
        ("database or disk is full", "database or disk is full"),
    ],
)
def test_sqlite_errors_are_told_in_words(message, described):
    from workbench.library.db import describe

    assert describe(sqlite3.OperationalError(message)) == described


def test_games_like_this_samples_ten_games_unless_told(games_library):
    assert len(sample_games(games_library, Position.empty())) == 10
    assert len(sample_games(games_library, Position.empty(), 3)) == 3


def test_refusals_at_opening_name_the_library_exactly(tmp_path, monkeypatch):
    damaged = tmp_path / "damaged.sqlite3"
    old_library(damaged, 0)
    connection = sqlite3.connect(damaged)
    connection.execute("PRAGMA user_version = -3")
    connection.commit()
    connection.close()
    with pytest.raises(LibraryError) as refused:
        Library.open(damaged)
    assert str(refused.value) == f"library {str(damaged)!r}: damaged (schema version -3); run `workbench library check`"
    old = tmp_path / "old.sqlite3"
    old_library(old, 1)
    make_read_only(old, monkeypatch)
    with pytest.raises(LibraryError) as refused:
        Library.open(old)
    assert str(refused.value) == f"library {str(old)!r}: read-only, and its schema 1 needs upgrading"


def test_a_read_only_library_of_the_oldest_readable_schema_opens_as_it_is(tmp_path, monkeypatch):
    from workbench.library.db import READABLE_FROM

    path = tmp_path / "readable.sqlite3"
    old_library(path, READABLE_FROM)
    before = path.read_bytes()
    make_read_only(path, monkeypatch)
    with Library.open(path) as library:
        assert library.read_only and list_studies(library) == []
    assert path.read_bytes() == before


def test_the_list_of_studies_gives_each_its_time_and_says_why_a_row_is_not_a_study(tmp_path):
    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        save_study(library, "kept", AppState())
        # another program rebuilt the table without column types: SQLite then keeps a number as a number
        library.connection.executescript(
            "ALTER TABLE studies RENAME TO typed;"
            "CREATE TABLE studies (id INTEGER PRIMARY KEY, name, data, created, updated);"
            "INSERT INTO studies SELECT * FROM typed; DROP TABLE typed;"
            "INSERT INTO studies (name, data, updated) VALUES ('number', 5, '2026-01-02 03:04:05');"
        )
        updated = library.query("SELECT updated FROM studies WHERE name = 'kept'")[0][0]
        records = {record.name: record for record in list_studies(library)}
    assert records["kept"].updated == updated and records["kept"].damaged is None and records["kept"].moves == 0
    assert (
        records["number"].damaged == "not a study's text (a int)" and records["number"].updated == "2026-01-02 03:04:05"
    )


def test_a_library_name_too_long_for_the_file_system_is_a_library_error(tmp_path):
    import errno
    import os

    long = tmp_path / ("y" * 300)
    with pytest.raises(LibraryError) as raised:
        Library.open(long)
    assert str(raised.value) == f"library {str(long)!r}: cannot open ({os.strerror(errno.ENAMETOOLONG)})"


def test_a_library_opened_on_one_thread_serves_another(tmp_path):
    """The app opens its library in a worker thread and reads it on the UI thread."""
    with Library.open(tmp_path / "lib.sqlite3") as library:
        save_study(library, "one", AppState())
        found, errors = [], []

        def read():
            try:
                found.append([record.name for record in list_studies(library)])
            except Exception as error:  # noqa: BLE001 - the test reports what went wrong
                errors.append(error)

        thread = threading.Thread(target=read)
        thread.start()
        thread.join()
    assert (found, errors) == ([["one"]], [])


# --- practice kept in the library (the survivors of issue 49's mutation run of practice.py) -----------------------


def _attempt(library, position, result, *, on, geometry=TIC_TAC_TOE, kind="puzzle"):
    from workbench.library.practice import record_attempt

    record_attempt(library, kind=kind, geometry=geometry, position=position, answer=None, result=result, today=on)


def test_the_count_due_is_of_the_day_asked_about_and_none_due_is_zero(tmp_path):
    """The start screen's "due today" and `workbench progress` count what is due on the day they are asked about
    (a solve is due again the day after, not at once), and a board with nothing due says 0."""
    from datetime import date

    from workbench.library.practice import due_counts, progress

    with Library.open(tmp_path / "lib.sqlite3") as library:
        _attempt(library, Position.empty().play(1), "solved", on=date(2026, 1, 5))
        assert due_counts(library, today=date(2026, 1, 5)) == {}
        assert due_counts(library, today=date(2026, 1, 6)) == {"3x3k3": 1}
        [row] = progress(library, today=date(2026, 1, 5))
        assert row.due == 0 and row.as_dict()["due"] == 0


def test_progress_of_one_board_skips_the_others_before_it(tmp_path):
    """`workbench progress --game 3x4k3` shows that board even when another board's practice sorts before it."""
    from datetime import date

    from workbench.engine import Geometry
    from workbench.library.practice import progress

    wide = Geometry(3, 4, 3)
    with Library.open(tmp_path / "lib.sqlite3") as library:
        _attempt(library, Position.empty().play(1), "missed", on=date(2026, 1, 5))
        _attempt(library, Position.empty(wide).play(2), "solved", on=date(2026, 1, 5), geometry=wide)
        [row] = progress(library, wide, today=date(2026, 1, 5))
    assert (row.variant, row.kind, row.attempts, row.solved) == ("3x4k3", "puzzle", 1, 1)
    [week] = row.as_dict()["weeks"]  # (the week of the attempt's own time: this week's Monday)
    assert week == {"week": week["week"], "attempts": 1, "solved": 1}


def test_the_positions_missed_on_a_wider_board_come_back_as_that_board_s(tmp_path):
    """A 3×4 board's missed and due positions are read as 3×4 positions (as the 3×3 board's were, they fail)."""
    from datetime import date

    from workbench.engine import Geometry
    from workbench.library.practice import due_positions, missed_positions

    wide = Geometry(3, 4, 3)
    position = Position.empty(wide).play(12)
    with Library.open(tmp_path / "lib.sqlite3") as library:
        _attempt(library, position, "missed", on=date(2026, 1, 5), geometry=wide, kind="mistake")
        assert missed_positions(library, "mistake", wide) == [position]
        assert due_positions(library, "mistake", wide, today=date(2026, 1, 5)) == [position]


def test_a_damaged_attempt_position_is_one_line_naming_the_library_and_the_position(tmp_path):
    """Whichever list reads it (missed, due), a position another program spoiled is a LibraryError naming the
    library and the position's first 40 characters."""
    from datetime import date

    from workbench.library.practice import due_positions, missed_positions

    path = tmp_path / "lib.sqlite3"
    spoiled = "X" * 50
    with Library.open(path) as library:
        _attempt(library, Position.empty().play(1), "missed", on=date(2026, 1, 5), kind="mistake")
        library.connection.execute("UPDATE attempts SET position = ?", (spoiled,))
        for read in (missed_positions, lambda *args: due_positions(*args, today=date(2026, 1, 5))):
            with pytest.raises(LibraryError) as caught:
                read(library, "mistake", TIC_TAC_TOE)
            message = str(caught.value)
            assert message.startswith(f"library {str(path)!r}: an attempt's position {'X' * 40!r} is damaged (")
            assert "\n" not in message


def test_a_puzzle_row_with_a_number_that_is_not_one_is_damaged(tmp_path):
    """A puzzle whose answer cell another program wrote as text is named as damaged, with why, not handed to the
    practice screen; its position is shown to 40 characters."""
    from workbench.engine.puzzles import find_puzzles
    from workbench.library.practice import keep_puzzles, kept_puzzles

    path = tmp_path / "lib.sqlite3"
    with Library.open(path) as library:
        keep_puzzles(library, TIC_TAC_TOE, find_puzzles(TIC_TAC_TOE, 1))
        [(position,)] = library.query("SELECT position FROM puzzles")
        library.connection.execute("UPDATE puzzles SET answer = 'five'")
        with pytest.raises(LibraryError) as caught:
            kept_puzzles(library, TIC_TAC_TOE)
        expected = f"library {str(path)!r}: puzzle {position[:40]!r} is damaged (a number that is not one)"
        assert str(caught.value) == expected
        long = "X" * 45
        library.connection.execute("UPDATE puzzles SET answer = 5, position = ?", (long,))
        with pytest.raises(LibraryError, match=f"^library .*: puzzle {'X' * 40!r} is damaged"):
            kept_puzzles(library, TIC_TAC_TOE)


def test_a_read_only_schema_4_library_shows_its_practice_and_its_missed_positions_as_due(tmp_path, monkeypatch):
    """A library of schema 4 (practice, no spaced repetition yet) that cannot be upgraded, being read-only: its
    puzzles and attempts are read, and the positions due are those whose latest attempt was missed."""
    from workbench.engine import format_position
    from workbench.library.practice import AttemptStats, attempt_stats, due_positions

    path = tmp_path / "v4.sqlite3"
    old_library(path, 4)
    missed, solved = Position.empty().play(1), Position.empty().play(5)
    connection = sqlite3.connect(path)
    connection.executemany(
        "INSERT INTO attempts (kind, variant, position, answer, solved) VALUES ('puzzle', '3x3k3', ?, 5, ?)",
        [(format_position(missed), 0), (format_position(solved), 1)],
    )
    connection.commit()
    connection.close()
    make_read_only(path, monkeypatch)
    with Library.open(path) as library:
        assert library.read_only
        assert attempt_stats(library, "puzzle", TIC_TAC_TOE) == AttemptStats(2, 1, 1)
        assert due_positions(library, "puzzle", TIC_TAC_TOE) == [missed]
        assert due_positions(library, "mistake", TIC_TAC_TOE) == []


def test_a_library_whose_schema_cannot_be_read_is_one_line_from_practice(tmp_path):
    """The version is asked before each practice read; when SQLite fails there (a damaged first page), the error
    names the library and what SQLite said, as every library error does."""
    from workbench.library.practice import attempt_stats

    path = tmp_path / "lib.sqlite3"

    class Failing:
        def execute(self, *arguments):
            raise sqlite3.DatabaseError("database disk image is malformed")

    with Library.open(path) as library:
        real, library.connection = library.connection, Failing()
        try:
            with pytest.raises(LibraryError) as caught:
                attempt_stats(library, "puzzle", TIC_TAC_TOE)
        finally:
            library.connection = real
    assert str(caught.value) == (
        f"library {str(path)!r}: damaged (database disk image is malformed); run `workbench library check`"
    )


def test_a_puzzle_solved_again_before_it_is_due_stays_in_its_box(tmp_path):
    """A new user's review: a solved puzzle asked again at once (every other one tried) went up a box each time,
    from 1 day to 21 in one sitting. Solved early it stays where it was, due on the same day; missed early it goes
    back to box 1, as a miss does whenever it comes."""
    from datetime import date

    position = Position.empty().play(1)
    with Library.open(tmp_path / "lib.sqlite3") as library:
        boxes = lambda: library.query("SELECT box, due FROM attempts ORDER BY id")  # noqa: E731
        _attempt(library, position, "solved", on=date(2026, 1, 5))
        _attempt(library, position, "solved", on=date(2026, 1, 5))
        assert boxes() == [(2, "2026-01-06"), (2, "2026-01-06")]
        _attempt(library, position, "solved", on=date(2026, 1, 6))  # due that day: up a box
        assert boxes()[-1] == (3, "2026-01-09")
        _attempt(library, position, "missed", on=date(2026, 1, 7))
        assert boxes()[-1] == (1, "2026-01-07")


def test_every_puzzle_of_a_board_is_kept_only_when_all_were_given(tmp_path):
    """`workbench puzzles --count` keeps the few it prints; the app keeps all of a board's (``every=True``), and
    the library says which it holds: a puzzle taken out since, or another board's, is not all of this one's."""
    from workbench.engine import Geometry
    from workbench.engine.puzzles import find_puzzles
    from workbench.library.practice import every_puzzle_kept, keep_puzzles

    every = find_puzzles(TIC_TAC_TOE)
    with Library.open(tmp_path / "lib.sqlite3") as library:
        assert not every_puzzle_kept(library, TIC_TAC_TOE)
        assert keep_puzzles(library, TIC_TAC_TOE, every[:3]) == 3
        assert not every_puzzle_kept(library, TIC_TAC_TOE)
        assert keep_puzzles(library, TIC_TAC_TOE, every, every=True) == len(every) - 3
        assert every_puzzle_kept(library, TIC_TAC_TOE)
        assert not every_puzzle_kept(library, Geometry(3, 4, 3))
        library.connection.execute("DELETE FROM puzzles WHERE position = (SELECT position FROM puzzles LIMIT 1)")
        assert not every_puzzle_kept(library, TIC_TAC_TOE)


CLOSED_WHILE_READ = """
import threading, time
from workbench.library import Library, LibraryError
outcomes, after_the_close = [], []
for attempt in range(40):
    library = Library.open(f"lib{attempt}.sqlite3")
    closed = threading.Event()

    def row(number):  # called for each row of the read, while it is under way
        if closed.is_set():
            after_the_close.append(number)
        return number

    library.connection.create_function("row", 1, row)
    def read():
        try:
            library.query(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT row(i) + 1 FROM n WHERE i < 100000) "
                "SELECT count(*) FROM n"
            )
            outcomes.append("read")
        except LibraryError:
            outcomes.append("refused")
    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(0.001 * (attempt % 20))
    library.close()
    closed.set()
    reader.join()
    try:
        library.query("SELECT 1")
    except LibraryError:
        outcomes.append("closed")
print(sorted(set(outcomes)), len(after_the_close))
"""


def test_a_library_closed_while_another_thread_reads_it_waits_for_the_read_and_crashes_nothing(tmp_path):
    """The app reads its library from worker threads and closes it as it ends: a read under way when it closed
    crashed the whole process (a segmentation fault in SQLite). The close now waits for the read; a read after it
    is one LibraryError."""
    from .child_process import run_child

    result = run_child(CLOSED_WHILE_READ, tmp_path)
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    assert result.stdout.strip() == "['closed', 'read'] 0"


def test_an_attempt_kept_as_its_first_try_is_lost_is_settled_in_place(tmp_path):
    """Review 45, finding 4: an attempt is kept at once, as missed, when its first try is lost, then settled as it
    ends: the same row, its box and day due as they were; it can never be settled as solved."""
    from datetime import date

    from workbench.library.practice import attempt_stats, record_attempt, settle_attempt

    position = Position.empty().play(1)
    with Library.open(tmp_path / "lib.sqlite3") as library:
        row = record_attempt(
            library,
            kind="puzzle",
            geometry=TIC_TAC_TOE,
            position=position,
            answer=3,
            result="missed",
            today=date(2026, 1, 5),
        )
        settle_attempt(library, row, answer=5, result="found later")
        assert library.query("SELECT id, answer, result, solved, box, due FROM attempts") == [
            (row, 5, "found later", 0, 1, "2026-01-05")
        ]
        for wrong in ("solved", "won"):
            with pytest.raises(ValueError, match=f"not '{wrong}'"):
                settle_attempt(library, row, answer=5, result=wrong)
        assert attempt_stats(library, "puzzle", TIC_TAC_TOE).attempts == 1


@pytest.mark.parametrize("zone, monday", [("UTC0", "2026-02-02"), ("UTC+8", "2026-01-26"), ("UTC-14", "2026-02-02")])
def test_an_attempt_counts_in_the_week_of_its_day_where_the_user_is(tmp_path, monkeypatch, zone, monday):
    """Review 45: the weeks of `workbench progress` and the puzzles' bars were UTC's, while "due" is the user's own
    day: a puzzle solved on a Sunday evening in America (Monday in UTC) counted in the next week's bar. Kept at
    Monday 2026-02-02 02:00 UTC: that Monday's week in London and in Kiribati (POSIX's UTC-14, 14 hours ahead),
    the week before in America (POSIX's UTC+8, 8 hours behind: Sunday evening)."""
    from datetime import date

    from workbench.library.practice import progress

    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        with Library.open(tmp_path / "lib.sqlite3") as library:
            _attempt(library, Position.empty().play(1), "solved", on=date(2026, 2, 2))
            with library.transaction() as connection:
                connection.execute("UPDATE attempts SET at = '2026-02-02 02:00:00'")
            [row] = progress(library, today=date(2026, 2, 2))
        assert row.weeks == ((monday, 1, 1),)
    finally:
        monkeypatch.undo()
        time.tzset()
