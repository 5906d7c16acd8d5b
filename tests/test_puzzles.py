"""Puzzles from the exact solutions (issue 41, part 3): the engine's finder, the library's practice tables, and
`workbench puzzles`."""

import json
import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from workbench.engine import (
    TIC_TAC_TOE,
    Geometry,
    Position,
    Value,
    analyze,
    analyze_all,
    format_position,
    parse_position,
)
from workbench.engine.analysis import BoardTooLargeError, class_key
from workbench.engine.answers import SolutionAnswers
from workbench.engine.puzzles import Puzzle, PuzzleError, find_puzzles, is_unique, puzzle_record
from workbench.library import Library, LibraryError
from workbench.library.practice import (
    AttemptStats,
    attempt_stats,
    keep_puzzles,
    kept_puzzles,
    missed_positions,
    record_attempt,
)
from workbench.library.studies import list_studies, open_study
from workbench.state import AppState, study_to_data

from .fuzz import old_library
from .solved import solved as strong_solved

MISERE = Geometry(misere=True)
WIDE = Geometry(3, 4, 3)


def puzzle_classes_by_definition(geometry: Geometry) -> dict[int, Value]:
    """Every class of ``geometry`` that is a puzzle, read off :func:`analyze_all` one position at a time (the slow
    road, against the finder's arrays): its value, by class."""
    found = {}
    for analysis in analyze_all(geometry):
        if analysis.value is None or len(analysis.moves) < 2:
            continue
        if analysis.value is Value.LOSS:
            slowest = max(move.remoteness for move in analysis.moves)
            right = [move.cell for move in analysis.moves if move.remoteness == slowest]
        else:
            right = [move.cell for move in analysis.moves if move.value == analysis.value]
        if len(right) == 1:
            found[analysis.symmetry.class_id] = analysis.value
    return found


@pytest.mark.parametrize("geometry", [TIC_TAC_TOE, MISERE], ids=str)
def test_the_puzzles_are_exactly_the_classes_with_one_right_move(geometry):
    puzzles = find_puzzles(geometry)
    expected = puzzle_classes_by_definition(geometry)
    assert {class_key(puzzle.position): puzzle.value for puzzle in puzzles} == expected
    assert len(puzzles) == len(expected)  # one a class: no two are symmetric images of each other
    assert all(is_unique(puzzle) for puzzle in puzzles)


def test_the_classic_board_s_counts_by_value():
    puzzles = find_puzzles(TIC_TAC_TOE)
    assert len(puzzles) == 310
    assert [sum(p.value is value for p in puzzles) for value in Value] == [16, 85, 209]  # loss, draw, win
    assert len(find_puzzles(MISERE)) == 269


@pytest.mark.parametrize("geometry", [WIDE, Geometry(3, 4, 3, misere=True)], ids=str)
def test_every_wide_puzzle_has_one_answer_and_a_class_of_its_own(geometry):
    puzzles = find_puzzles(geometry)
    assert len(puzzles) > 7000
    assert all(is_unique(puzzle) for puzzle in puzzles)
    assert len({class_key(puzzle.position) for puzzle in puzzles}) == len(puzzles)


@pytest.mark.parametrize("geometry", [TIC_TAC_TOE, MISERE, WIDE], ids=str)
def test_a_strong_solution_gives_the_same_puzzles_as_the_tables(geometry):
    assert find_puzzles(geometry, answers=SolutionAnswers(strong_solved(geometry))) == find_puzzles(geometry)


@pytest.mark.parametrize("variant", ["1x1k1", "2x2k2", "1x5k3", "3x3k2", "2x5k3-misere", "4x3k3", "3x3k1", "2x6k4"])
def test_every_small_board_s_puzzles_hold(variant):
    from workbench.engine.geometry import parse_variant

    geometry = parse_variant(variant)
    puzzles = find_puzzles(geometry)
    assert all(is_unique(puzzle) and puzzle.position.geometry == geometry for puzzle in puzzles)
    assert len({class_key(puzzle.position) for puzzle in puzzles}) == len(puzzles)


def test_a_board_of_thirteen_to_sixteen_cells_reads_the_strong_solution_it_is_handed():
    geometry = Geometry(1, 13, 4)
    with pytest.raises(
        PuzzleError,
        match=r"^board 1x13k4: puzzles read its strong solution, not made here yet \(`workbench solve --game "
        r"1x13k4`\)$",
    ):
        find_puzzles(geometry)
    answers = SolutionAnswers(strong_solved(geometry))
    puzzles = find_puzzles(geometry, 300, answers=answers)  # (analysing all its 65,789 would count games for minutes)
    assert len(puzzles) == 300 and all(is_unique(puzzle, answers) for puzzle in puzzles[::10])
    assert len({class_key(puzzle.position, answers) for puzzle in puzzles}) == len(puzzles)


def test_the_order_is_easiest_first_then_by_position_text():
    puzzles = find_puzzles(WIDE)
    keys = [(puzzle.difficulty, format_position(puzzle.position)) for puzzle in puzzles]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_a_win_in_one_is_graded_easiest_and_a_wrong_natural_move_costs_two():
    puzzles = find_puzzles(TIC_TAC_TOE)
    in_one = [p for p in puzzles if p.value is Value.WIN and p.remoteness == 1]
    assert in_one and all(p.difficulty < 1 and not p.natural_is_wrong for p in in_one)
    assert all(p.difficulty >= 1 for p in puzzles if p not in in_one)
    assert all(p.difficulty >= 2 for p in puzzles if p.natural_is_wrong)
    assert any(p.natural_is_wrong for p in puzzles)
    # the hardest: X's only win after X took an edge and O a far corner, a win in 5 the threats would miss
    hardest = puzzles[-1]
    assert (format_position(hardest.position), hardest.answer) == ("O../..X/...", 3)
    assert (hardest.value, hardest.remoteness, hardest.natural, hardest.moves) == (Value.WIN, 5, 5, 7)
    assert hardest.difficulty == 5 // 2 + 2 + (7 - 2) / 8


def test_the_difficulty_is_made_as_the_docstring_says():
    # O to move; X threatens 3 (1-2-3): O's only draw is the block at 3, every other move loses in 2
    puzzle = next(p for p in find_puzzles(TIC_TAC_TOE) if format_position(p.position) == "XX./.O./...")
    assert (puzzle.answer, puzzle.value, puzzle.moves, puzzle.losing, puzzle.natural) == (3, Value.DRAW, 6, 5, 3)
    # plies // 2 of the slowest other loss, 0 for a right natural move, (6 - 2) / (9 - 1) for the choice
    slowest = max(move.remoteness for move in analyze(puzzle.position).moves if move.cell != 3)
    assert puzzle.difficulty == slowest // 2 + 0 + 0.5


def test_a_count_picks_a_spread_over_the_difficulties_the_same_every_time():
    everything = find_puzzles(TIC_TAC_TOE)
    five = find_puzzles(TIC_TAC_TOE, 5)
    assert len(five) == 5 and five == find_puzzles(TIC_TAC_TOE, 5)
    places = [everything.index(puzzle) for puzzle in five]
    assert places == sorted(set(places)) and five[0] == everything[0]
    assert five[-1].difficulty == everything[-1].difficulty
    # each the first at or above its quarter of the way from 0 to 4.625: not mostly the 108 wins in 1
    grades = [puzzle.difficulty for puzzle in everything]
    assert [puzzle.difficulty for puzzle in five] == [min(g for g in grades if g >= 4.625 * i / 4) for i in range(5)]
    assert find_puzzles(TIC_TAC_TOE, 1000) == everything
    assert find_puzzles(TIC_TAC_TOE, 1) == everything[:1]


@given(st.lists(st.integers(0, 20), min_size=2, max_size=40), st.data())
def test_a_spread_is_distinct_places_in_order_from_the_first(grades, data):
    from workbench.engine.puzzle_finder import spread

    ordered = np.array(sorted(grades), dtype=float)
    count = data.draw(st.integers(1, len(grades) - 1))
    places = spread(ordered, count)
    assert len(places) == count and places == sorted(set(places)) and places[0] == 0 and places[-1] < len(grades)


def test_what_cannot_be_made_is_said_in_one_line():
    with pytest.raises(PuzzleError, match=r"^a count of puzzles is 1 or more \(not 0\)$"):
        find_puzzles(TIC_TAC_TOE, 0)
    with pytest.raises(BoardTooLargeError, match="^board 5x5k4: exact values"):
        find_puzzles(Geometry(5, 5, 4))
    with pytest.raises(PuzzleError, match="^the answers of 3x3k3 say nothing of 3x3k3-misere$"):
        find_puzzles(MISERE, answers=SolutionAnswers(strong_solved(TIC_TAC_TOE)))


def test_the_record_names_the_answer_both_ways():
    puzzle = find_puzzles(WIDE, 3)[1]
    record = puzzle_record(puzzle)
    assert json.loads(json.dumps(record)) == record
    assert set(record) == {
        "variant",
        "position",
        "to_move",
        "answer",
        "name",
        "value",
        "remoteness",
        "difficulty",
        "moves",
        "losing",
        "natural",
        "natural_name",
        "natural_is_wrong",
        "theme",
    }
    assert record["variant"] == "3x4k3" and parse_position(record["position"], WIDE) == puzzle.position
    assert record["to_move"] == puzzle.position.turn.value and record["answer"] == puzzle.answer
    from workbench.engine.geometry import parse_cell_name

    assert parse_cell_name(record["name"], WIDE) == puzzle.answer and record["name"][0].isalpha()
    assert record["value"] == puzzle.value.label and record["difficulty"] == puzzle.difficulty


def test_is_unique_refuses_a_wrong_answer_or_value():
    puzzle = find_puzzles(TIC_TAC_TOE)[100]
    from dataclasses import replace

    wrong = next(cell for cell in puzzle.position.legal_moves() if cell != puzzle.answer)
    assert is_unique(puzzle) and not is_unique(replace(puzzle, answer=wrong))
    assert not is_unique(replace(puzzle, remoteness=puzzle.remoteness + 2))
    # two winning moves (3 and 7): no puzzle, whichever answer is named
    two_wins = parse_position("XX./XO./.OO")
    assert not is_unique(Puzzle(two_wins, 3, Value.WIN, 1, 0.0, 3, 0, 3))
    assert not is_unique(Puzzle(two_wins, 7, Value.WIN, 1, 0.0, 3, 0, 3))


@pytest.mark.slow
def test_four_by_four_k4_puzzles_from_its_strong_solution(tmp_path, capsys, kept_solution):
    geometry = Geometry(4, 4, 4)
    from workbench.kept.tables import strong_solution

    kept_solution(geometry)  # solved once per test process, read back from this test's cache below

    answers = SolutionAnswers(strong_solution(geometry)[0])
    puzzles = find_puzzles(geometry, 12, answers=answers)
    assert len(puzzles) == 12 and all(is_unique(puzzle, answers) for puzzle in puzzles)
    assert len({class_key(puzzle.position, answers) for puzzle in puzzles}) == 12
    assert puzzles[0].difficulty < 1 and puzzles[-1].difficulty > 4
    assert [p.difficulty for p in puzzles] == sorted(p.difficulty for p in puzzles)
    # the command line reads a 13-16-cell board's kept solution back from the cache: 2x7k4's (a search of 4x4's
    # 490,004 again was 10-20 s of CI's time), the same twelve as the engine finds
    small = Geometry(2, 7, 4)
    kept_solution(small)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr.isatty", lambda: False, raising=False)
        from workbench.cli import main

        assert (
            main(["puzzles", "--game", "2x7k4", "--count", "12", "--json", "--db", str(tmp_path / "lib.sqlite3")]) == 0
        )
    records = json.loads(capsys.readouterr().out)
    expected = find_puzzles(small, 12, answers=SolutionAnswers(strong_solution(small)[0]))
    assert [record["position"] for record in records] == [format_position(p.position) for p in expected] and records


# --- the library -------------------------------------------------------------------------------------------------


LIBRARY = pytest.mark.library
"""The practice kept in the library: the library's room too (``-m library``), as its mutation run needs."""


@pytest.fixture
def library(tmp_path):
    with Library.open(tmp_path / "lib.sqlite3") as opened:
        yield opened


@LIBRARY
def test_puzzles_kept_come_back_in_the_finder_s_order(library):
    puzzles = find_puzzles(TIC_TAC_TOE)
    assert keep_puzzles(library, TIC_TAC_TOE, puzzles[:100]) == 100
    assert keep_puzzles(library, TIC_TAC_TOE, puzzles) == len(puzzles) - 100  # the first hundred were kept already
    assert kept_puzzles(library, TIC_TAC_TOE) == list(puzzles)
    assert kept_puzzles(library, TIC_TAC_TOE, limit=3) == list(puzzles[:3])
    assert kept_puzzles(library, MISERE) == []
    misere = find_puzzles(MISERE, 4)
    assert keep_puzzles(library, MISERE, misere) == 4 and kept_puzzles(library, MISERE) == list(misere)
    assert len(kept_puzzles(library, TIC_TAC_TOE)) == len(puzzles)


@LIBRARY
def test_a_puzzle_of_another_board_is_not_kept_as_this_one_s(library):
    with pytest.raises(ValueError, match="^a puzzle of 3x3k3-misere kept as one of 3x3k3$"):
        keep_puzzles(library, TIC_TAC_TOE, find_puzzles(MISERE, 1))
    assert kept_puzzles(library, TIC_TAC_TOE) == []


@LIBRARY
def test_a_damaged_puzzle_row_is_one_line(library):
    keep_puzzles(library, TIC_TAC_TOE, find_puzzles(TIC_TAC_TOE, 2))
    library.connection.execute("UPDATE puzzles SET position = 'XXX/XXX/XXX' WHERE difficulty = 0")
    with pytest.raises(LibraryError, match=r"puzzle 'XXX/XXX/XXX' is damaged \(") as raised:
        kept_puzzles(library, TIC_TAC_TOE)
    assert "\n" not in str(raised.value)


@LIBRARY
def test_attempt_stats_count_and_the_streak_counts_back_from_the_latest(library):
    position = find_puzzles(TIC_TAC_TOE, 1)[0].position
    assert attempt_stats(library, "puzzle", TIC_TAC_TOE) == AttemptStats(0, 0, 0)
    assert attempt_stats(library, "puzzle", TIC_TAC_TOE).solve_rate is None
    for solved in (True, False, True, True, True):
        record_attempt(library, kind="puzzle", geometry=TIC_TAC_TOE, position=position, answer=5, solved=solved)
    stats = attempt_stats(library, "puzzle", TIC_TAC_TOE)
    assert stats == AttemptStats(attempts=5, solved=4, streak=3) and stats.solve_rate == 0.8
    record_attempt(library, kind="puzzle", geometry=TIC_TAC_TOE, position=position, answer=None, solved=False)
    assert attempt_stats(library, "puzzle", TIC_TAC_TOE) == AttemptStats(6, 4, 0)
    # each kind and variant counts its own
    assert attempt_stats(library, "mistake", TIC_TAC_TOE) == AttemptStats(0, 0, 0)
    assert attempt_stats(library, "puzzle", MISERE) == AttemptStats(0, 0, 0)


@LIBRARY
@settings(max_examples=40)
@given(st.lists(st.booleans(), max_size=12))
def test_the_stats_are_those_of_the_attempts_in_order(tmp_path_factory, results):
    with Library.open(tmp_path_factory.mktemp("lib") / "lib.sqlite3") as library:
        for solved in results:
            record_attempt(
                library,
                kind="mistake",
                geometry=TIC_TAC_TOE,
                position=Position.empty(),
                answer=5,
                solved=solved,
                study="s",
            )
        streak = len(results) - (
            max(i for i, solved in enumerate(results) if not solved) + 1 if False in results else 0
        )
        assert attempt_stats(library, "mistake", TIC_TAC_TOE) == AttemptStats(len(results), sum(results), streak)


@LIBRARY
def test_missed_positions_are_those_whose_latest_attempt_failed_latest_first(library):
    first, second, third = (parse_position(text) for text in ("X../.../...", "X../.O./...", "XO./.X./..."))
    for position, solved in ((first, False), (second, False), (first, True), (third, False), (second, False)):
        record_attempt(
            library, kind="mistake", geometry=TIC_TAC_TOE, position=position, answer=None, solved=solved, study="corner"
        )
    assert missed_positions(library, "mistake", TIC_TAC_TOE) == [second, third]
    assert missed_positions(library, "puzzle", TIC_TAC_TOE) == []
    assert library.query("SELECT DISTINCT study, answer FROM attempts") == [("corner", None)]
    assert all(isinstance(position, Position) for position in missed_positions(library, "mistake", TIC_TAC_TOE))


@LIBRARY
def test_an_attempt_is_checked_before_it_is_written(library):
    with pytest.raises(ValueError, match="^an attempt is at a mistake or a puzzle, not 'game'$"):
        record_attempt(library, kind="game", geometry=TIC_TAC_TOE, position=Position.empty(), answer=1, solved=True)
    with pytest.raises(ValueError, match="^a position of 3x3k3 recorded as one of 3x4k3$"):
        record_attempt(library, kind="puzzle", geometry=WIDE, position=Position.empty(), answer=1, solved=True)
    with pytest.raises(ValueError, match="^no cell 10 on 3x3k3$"):
        record_attempt(library, kind="puzzle", geometry=TIC_TAC_TOE, position=Position.empty(), answer=10, solved=True)
    with pytest.raises(ValueError):
        attempt_stats(library, "games", TIC_TAC_TOE)
    assert library.query("SELECT count(*) FROM attempts") == [(0,)]


@LIBRARY
def test_a_schema_3_library_gains_the_practice_tables_and_keeps_its_studies(tmp_path):
    path = tmp_path / "v3.sqlite3"
    old_library(path, 3)
    connection = sqlite3.connect(path)
    connection.execute("INSERT INTO studies (name, data) VALUES ('kept', ?)", (json.dumps(study_to_data(AppState())),))
    connection.commit()
    connection.close()
    with Library.open(path) as library:
        assert library.query("PRAGMA user_version") == [(5,)]
        assert [record.name for record in list_studies(library)] == ["kept"]
        assert open_study(library, "kept").tree == AppState().tree
        record_attempt(library, kind="puzzle", geometry=TIC_TAC_TOE, position=Position.empty(), answer=5, solved=True)
        assert attempt_stats(library, "puzzle", TIC_TAC_TOE) == AttemptStats(1, 1, 1)
    from workbench.library.check import check_library

    assert check_library(path).healthy


@LIBRARY
def test_a_schema_4_library_keeps_its_attempts_and_puts_each_in_a_box(tmp_path):
    """The migration to spaced repetition loses no attempt: each is read as its solved column said (a solve in box 2,
    due the day after; a miss in box 1, due at once)."""
    from datetime import date

    from workbench.library.practice import due_counts, due_positions, progress

    path = tmp_path / "v4.sqlite3"
    old_library(path, 4)
    connection = sqlite3.connect(path)
    rows = [
        ("puzzle", "3x3k3", format_position(Position.empty().play(1)), 5, 1, "2026-03-02 10:00:00"),
        ("puzzle", "3x3k3", format_position(Position.empty().play(5)), 2, 0, "2026-03-02 10:01:00"),
        ("mistake", "3x3k3", format_position(Position.empty().play(1)), 2, 0, "2026-03-03 09:00:00"),
    ]
    connection.executemany(
        "INSERT INTO attempts (kind, variant, position, answer, solved, at) VALUES (?, ?, ?, ?, ?, ?)", rows
    )
    connection.commit()
    connection.close()
    with Library.open(path) as library:
        assert library.query(
            "SELECT kind, position, answer, solved, at, result, box, due FROM attempts ORDER BY id"
        ) == [
            ("puzzle", rows[0][2], 5, 1, rows[0][5], "solved", 2, "2026-03-03"),
            ("puzzle", rows[1][2], 2, 0, rows[1][5], "missed", 1, "2026-03-02"),
            ("mistake", rows[2][2], 2, 0, rows[2][5], "missed", 1, "2026-03-03"),
        ]
        assert due_positions(library, "puzzle", TIC_TAC_TOE, today=date(2026, 3, 2)) == [Position.empty().play(5)]
        assert due_counts(library, today=date(2026, 3, 3)) == {"3x3k3": 3}
        [puzzles, mistakes] = progress(library, today=date(2026, 3, 3))
        assert (puzzles.kind, puzzles.attempts, puzzles.solved, puzzles.streak, puzzles.due) == ("puzzle", 2, 1, 0, 2)
        assert puzzles.weeks == (("2026-03-02", 2, 1),) and mistakes.weeks == (("2026-03-02", 1, 0),)
    from workbench.library.check import check_library

    assert check_library(path).healthy


@LIBRARY
def test_leitner_boxes_send_a_solve_up_and_anything_else_back_to_the_first(library):
    """Finding 5 and 6 in the library: a skip ends the streak and comes back at once; a solve goes up a box and is
    not due until its days have passed."""
    from datetime import date

    from workbench.library.practice import due_positions, progress

    position = Position.empty().play(1)
    day = date(2026, 5, 4)

    def attempt(result, on, theme="block"):
        record_attempt(
            library,
            kind="puzzle",
            geometry=TIC_TAC_TOE,
            position=position,
            answer=None if result == "skipped" else 5,
            result=result,
            theme=theme,
            today=on,
        )

    attempt("solved", day)
    assert due_positions(library, "puzzle", TIC_TAC_TOE, today=day) == []
    assert due_positions(library, "puzzle", TIC_TAC_TOE, today=date(2026, 5, 5)) == [position]
    attempt("solved", date(2026, 5, 5))  # box 3: three days
    assert due_positions(library, "puzzle", TIC_TAC_TOE, today=date(2026, 5, 7)) == []
    assert due_positions(library, "puzzle", TIC_TAC_TOE, today=date(2026, 5, 8)) == [position]
    assert attempt_stats(library, "puzzle", TIC_TAC_TOE).streak == 2
    attempt("skipped", date(2026, 5, 8))
    assert attempt_stats(library, "puzzle", TIC_TAC_TOE) == AttemptStats(3, 2, 0)
    assert due_positions(library, "puzzle", TIC_TAC_TOE, today=date(2026, 5, 8)) == [position]
    assert library.query("SELECT box FROM attempts ORDER BY id") == [(2,), (3,), (1,)]
    for result in ("helped", "found later", "shown", "missed"):
        attempt(result, date(2026, 5, 8), theme="fork")
    [row] = progress(library, TIC_TAC_TOE)
    assert row.themes == {"block": (3, 2), "fork": (4, 0)} and row.attempts == 7 and row.solved == 2
    with pytest.raises(ValueError, match="not 'won'"):
        attempt("won", day)


@LIBRARY
def test_a_read_only_schema_3_library_reads_as_one_without_practice(tmp_path, monkeypatch):
    from .test_library import make_read_only

    path = tmp_path / "v3.sqlite3"
    old_library(path, 3)
    make_read_only(path, monkeypatch)
    with Library.open(path) as library:
        assert library.read_only
        assert kept_puzzles(library, TIC_TAC_TOE) == [] and missed_positions(library, "puzzle", TIC_TAC_TOE) == []
        assert attempt_stats(library, "puzzle", TIC_TAC_TOE) == AttemptStats(0, 0, 0)
        with pytest.raises(LibraryError, match="read-only, nothing can be written$"):
            record_attempt(
                library, kind="puzzle", geometry=TIC_TAC_TOE, position=Position.empty(), answer=5, solved=True
            )


# --- the command line --------------------------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    from workbench.cli import main

    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.cli
def test_the_command_prints_keeps_and_gives_json(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite3")
    code, out, err = run(capsys, "puzzles", "--count", "4", "--json", "--db", db)
    assert code == 0 and err == ""
    records = json.loads(out)
    assert records == [puzzle_record(puzzle) for puzzle in find_puzzles(TIC_TAC_TOE, 4)]
    with Library.open(db) as library:
        assert [puzzle_record(p) for p in kept_puzzles(library, TIC_TAC_TOE)] == records
    code, out, _ = run(capsys, "puzzles", "--count", "4", "--db", db)
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["#", "position", "to", "move", "find", "difficulty"]
    assert lines[1].split() == ["1", records[0]["position"], records[0]["to_move"], "win", "in", "1", "0.000"]
    assert lines[-1] == f"4 puzzles of 3x3k3, easiest first; 0 new in the library {db} (--answers shows the answers)"
    code, out, _ = run(capsys, "puzzles", "--count", "4", "--answers", "--game", "3x4k3", "--db", db)
    lines = out.splitlines()
    assert lines[0].split()[-1] == "answer"
    assert [line.split()[-1] for line in lines[1:5]] == [
        record["name"] for record in map(puzzle_record, find_puzzles(WIDE, 4))
    ]
    assert lines[-1] == f"4 puzzles of 3x4k3, easiest first; 4 new in the library {db}"
    code, out, _ = run(capsys, "puzzles", "--count", "3", "--theme", "hold out", "--json", "--db", db)
    records = json.loads(out)
    assert code == 0 and len(records) == 3 and {record["theme"] for record in records} == {"hold out"}
    assert {record["value"] for record in records} == {"loss"}


@pytest.mark.cli
@pytest.mark.parametrize(
    "argv, message",
    [
        (["--count", "0"], "argument --count: '0' is not a positive whole number"),
        (["--count", "many"], "argument --count: 'many' is not a positive whole number"),
        (["--game", "chess"], "unknown variant 'chess': write rows x columns k in a row, as 3x3k3 or 4x4k4-misere"),
        (
            ["--game", "5x5k4"],
            (
                "board 5x5k4: exact values of every position cover boards of at most 16 cells (25 here); "
                "a search answers one position at a time (`workbench analyze --game 5x5k4`; in Python, "
                "`position.analysis(seconds=…)`)"
            ),
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message):
    code, out, err = run(capsys, "puzzles", *argv, "--db", str(tmp_path / "lib.sqlite3"))
    assert (code, out, err) == (2, "", f"workbench: error: {message}\n")


@pytest.mark.cli
@settings(max_examples=60)
@given(st.text(max_size=12))
def test_any_count_is_a_number_of_puzzles_or_one_line(tmp_path_factory, text):
    import contextlib
    import io

    from workbench.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(
            ["puzzles", f"--count={text}", "--json", "--db", str(tmp_path_factory.mktemp("lib") / "lib.sqlite3")]
        )
    if code == 0:
        assert len(json.loads(out.getvalue())) == min(int(text), 310) and err.getvalue() == ""
    else:
        assert code == 2 and out.getvalue() == "" and err.getvalue().count("\n") == 1


@LIBRARY
def test_progress_says_per_board_what_was_solved_on_the_first_try_what_is_due_and_by_theme(tmp_path, capsys):
    from datetime import date

    from workbench.cli.entry import main
    from workbench.cli.puzzles import progress_lines
    from workbench.library.practice import progress

    path = tmp_path / "lib.sqlite3"
    assert main(["progress", "--db", str(path)]) == 0
    assert capsys.readouterr().out.startswith("No practice kept in the library ")
    with Library.open(path) as library:
        for cell, result, theme in (
            (1, "solved", "win"),
            (2, "solved", "block"),
            (3, "missed", "block"),
            (4, "solved", "win"),
        ):
            record_attempt(
                library,
                kind="puzzle",
                geometry=TIC_TAC_TOE,
                position=Position.empty().play(cell),
                answer=5,
                result=result,
                theme=theme,
            )
        record_attempt(
            library, kind="mistake", geometry=WIDE, position=Position.empty(WIDE).play(1), answer=2, result="helped"
        )
        rows = progress(library)
    assert main(["progress", "--db", str(path), "--json", "--game", "3x3k3"]) == 0
    [record] = json.loads(capsys.readouterr().out)
    assert {key: record[key] for key in ("variant", "kind", "attempts", "solved", "streak", "due")} == {
        "variant": "3x3k3",
        "kind": "puzzle",
        "attempts": 4,
        "solved": 3,
        "streak": 1,
        "due": 1,
    }
    assert record["themes"] == {"block": {"attempts": 2, "solved": 1}, "win": {"attempts": 2, "solved": 2}}
    assert [week["solved"] for week in record["weeks"]] == [3]
    monday = record["weeks"][0]["week"]
    assert progress_lines(rows, date.fromisoformat(monday)) == [
        "3x3k3 puzzles: 4 tried · 3 solved on the first try (75%) · streak 1 · 1 due today",
        "  by theme: block 1/2 · win 2/2",
        "  solved a week, the last 8: ·······█",
        "3x4k3 mistakes: 1 tried · 0 solved on the first try (0%) · streak 0 · 1 due today",
        "  solved a week, the last 8: ········",
    ]
    # a board with none, where others have some: said of that board (it said the library had none at all)
    capsys.readouterr()
    assert main(["progress", "--db", str(path), "--game", "4x4k4"]) == 0
    assert capsys.readouterr().out == (
        f"No practice on 4x4k4 kept in the library {path} yet: u in the app opens puzzles there.\n"
    )
    assert main(["progress", "--db", str(path), "--game", "3x3"]) == 2  # a variant it cannot read: one line


@LIBRARY
@pytest.mark.parametrize(
    "arguments, said",
    [
        (
            ["--theme", "misère squeeze"],
            "No misère squeeze puzzles on classic: no position there has a single move "
            "that keeps its value with that theme.\n",
        ),
        (
            ["--game", "1x1k1"],
            "No puzzles on 1×1, one in a row: no position there has a single move that keeps its value.\n",
        ),
    ],
)
def test_puzzles_where_there_are_none_say_so_in_a_line_as_the_app_does(tmp_path, capsys, arguments, said):
    """A second review of the teacher: a table of no rows, then "0 puzzles"; the app says why there are none."""
    from workbench.cli.entry import main

    assert main(["puzzles", "--db", str(tmp_path / "lib.sqlite3"), *arguments]) == 0
    assert capsys.readouterr().out == said
