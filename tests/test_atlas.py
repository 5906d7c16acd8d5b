"""`workbench atlas`: every board of at most N cells under both rules, each read off its strong solution. The
committed docs/atlas.md is recomputed row by row (every board of up to 12 cells, and two larger ones), its values
checked against the literature's and against the dictionary solver, and the command's outputs, files, progress
line and one-line errors checked as a user meets them."""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.cli.atlas import CSV_FIELDS, csv_text, markdown_row
from workbench.engine import Geometry
from workbench.engine.analysis import MAX_TABLE_CELLS
from workbench.engine.atlas import (
    AtlasRecord,
    atlas_boards,
    atlas_record,
    board_weight,
    dead_draws,
    describe_run,
    duration,
    record_data,
    run_fraction,
)
from workbench.engine.census import counts
from workbench.engine.geometry import parse_variant
from workbench.engine.graph import class_index, state_graph
from workbench.engine.solver import preference, solve
from workbench.engine.strong import strong_solve

from .solved import solved

ATLAS = Path(__file__).parent.parent / "docs" / "atlas.md"
CSV = ATLAS.with_suffix(".csv")
ROW = re.compile(r"^\| (\d+)×(\d+) k(\d+) \| (normal|misère) \|")


def committed_rows() -> dict[str, str]:
    """The committed table's rows of every board, by variant (``3x3k3-misere``)."""
    rows = {}
    for line in ATLAS.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found:
            rows_, cols, k, rule = found.groups()
            rows[f"{rows_}x{cols}k{k}" + ("-misere" if rule == "misère" else "")] = line
    return rows


def record_of(variant: str) -> AtlasRecord:
    return atlas_record(solved(parse_variant(variant)))


@pytest.fixture(scope="module")
def small_records() -> dict[str, AtlasRecord]:
    """Every board of up to 12 cells, solved (about 6 s in all; once per test process)."""
    return {str(board): atlas_record(solved(board)) for board in atlas_boards(MAX_TABLE_CELLS)}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["atlas", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- the committed table ----------------------------------------------------------------------------------------


def test_the_committed_table_has_a_row_for_every_board_of_up_to_20_cells_under_both_rules():
    rows = committed_rows()
    assert list(rows) == [str(board) for board in atlas_boards(20)] and len(rows) == 312


def test_every_committed_row_of_up_to_12_cells_is_what_the_engine_computes(small_records):
    rows = committed_rows()
    assert len(small_records) == 136
    differing = [variant for variant, record in small_records.items() if rows[variant] != markdown_row(record)]
    assert not differing, differing[:5]


@pytest.mark.parametrize("variant", ["2x7k3", "3x5k3-misere"])
def test_committed_rows_of_larger_boards_are_what_the_engine_computes(variant):
    assert committed_rows()[variant] == markdown_row(record_of(variant))


def test_the_committed_markdown_says_when_and_by_what_command_it_was_made():
    lines = ATLAS.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# The m,n,k atlas"
    assert re.fullmatch(
        r"Made on \d{4}-\d{2}-\d{2} by `(.+)`: every board of at most 20 cells \(m×n with m ≤ n, k from 3 to n\),",
        lines[2],
    )
    assert (
        lines[2].split("`")[1] == "workbench atlas --max-cells 20 --json --csv docs/atlas.csv --markdown docs/atlas.md"
    )


def test_the_committed_csv_has_its_header_and_the_rows_of_the_same_run(small_records):
    rows = CSV.read_text(encoding="utf-8").splitlines()
    assert tuple(rows[0].split(",")) == CSV_FIELDS and len(rows) == 313
    assert rows[: 1 + len(small_records)] == csv_text(list(small_records.values())).splitlines()


def test_the_committed_summary_has_the_literature_s_normal_play_values():
    text = ATLAS.read_text(encoding="utf-8")
    for board, normal in (("3×3 k3", "draw"), ("3×4 k3", "X wins in 7"), ("4×4 k3", "X wins in 5"), ("4×4 k4", "draw")):
        assert re.search(rf"^\| {board} \| {normal} \| [^|]+ \|$", text, flags=re.MULTILINE), board


# --- the values, against the literature and the dictionary solver ----------------------------------------------


def test_the_literature_s_values_on_small_boards(small_records):
    # Tic-Tac-Toe is a draw; on 3×4 three in a row the first player wins (m,n,k-games: k = 3 on any board larger
    # than 3×3); on 2×n only the rows hold a line of three (no column or diagonal fits), and each is a draw
    assert small_records["3x3k3"].value == 0 and small_records["3x3k3"].remoteness == 9
    assert small_records["3x4k3"].value == 1
    assert all(small_records[f"2x{n}k3"].value == 0 for n in range(3, 7))
    # misère Tic-Tac-Toe is a draw, and X keeps it only by the centre
    assert small_records["3x3k3-misere"].value == 0 and small_records["3x3k3-misere"].keeping_first_moves == (5,)
    assert (
        small_records["3x3k3"].keeping_first_moves == small_records["3x3k3"].best_first_moves == (1, 2, 5)
    )  # every opening draws


def test_the_first_moves_that_keep_the_value_and_the_best_ones_are_two_columns():
    """Issue 48, finding 14: on 4×5k3 the atlas listed a4 and b4 as "best", though only the six central cells win
    in 5 (the other edges win in 7, the corners in 11); under misère c4 and c3 lose in 17 where the rest hold out
    to 19. The one word named two things: now the moves that keep the value and the ★ best are apart."""
    rows = committed_rows()
    keeping, best = rows["4x5k3"].split(" | ")[3:5]
    assert (keeping, best) == ("a4 b4 c4 a3 b3 c3", "b3 c3")
    keeping, best = rows["4x5k3-misere"].split(" | ")[3:5]
    assert set(best.split()) < set(keeping.split()) and not {"c4", "c3"} & set(best.split())


def test_the_misere_values_a_published_table_has(small_records):
    # D. Friedman, "Optimal mnk-games" (2020, dfriedman.org): misère 3×4 three in a row is the second player's, on
    # their 5th move (X must complete a line at ply 11); misère 3×3, 2×3…2×5 (k 3 to n) and 3×4k4 are draws
    assert (small_records["3x4k3-misere"].value, small_records["3x4k3-misere"].remoteness) == (-1, 11)
    draws = ["3x3k3", "3x4k4"] + [f"2x{n}k{k}" for n in range(3, 6) for k in range(3, n + 1)]
    assert all(small_records[f"{variant}-misere"].value == 0 for variant in draws)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "value", "remoteness"), [("4x4k3", 1, 5), ("4x4k4", 0, 16), ("4x4k3-misere", -1, 15)]
)
def test_the_literature_s_values_on_four_by_four(variant, value, remoteness):
    record = record_of(variant)
    assert (record.value, record.remoteness) == (value, remoteness)
    assert committed_rows()[variant] == markdown_row(record)


@pytest.mark.parametrize(
    "variant", ["3x3k3", "3x3k3-misere", "2x4k3", "2x4k3-misere", "1x7k3", "1x7k4-misere", "3x4k3-misere"]
)
def test_each_record_agrees_with_the_dictionary_solver_and_the_positions_own_dead_draw(variant, small_records):
    geometry = parse_variant(variant)
    record = small_records[variant]
    graph = state_graph(geometry)
    solution = solve(geometry)
    assert record.value == solution.value[0] and record.remoteness == solution.remoteness[0]
    assert record.positions == len(graph) and record.classes == class_index(geometry).count
    assert tuple(record.games) == tuple(counts(geometry).games[0])
    assert record.dead_draws == sum(graph.position(key).dead_draw for key in graph.keys())
    keeping = {cell for cell, child in graph.children[0] if -solution.value[child] == solution.value[0]}
    assert set(record.keeping_first_moves) <= keeping and record.keeping_first_moves  # one of each class that keeps it
    top = max(preference(-solution.value[child], solution.remoteness[child]) for _, child in graph.children[0])
    best = {
        cell
        for cell, child in graph.children[0]
        if preference(-solution.value[child], solution.remoteness[child]) == top
    }
    assert set(record.best_first_moves) <= best <= keeping and record.best_first_moves  # one of each ★ class


def test_dead_draws_are_counted_in_chunks_as_in_one():
    solution = strong_solve(Geometry(2, 5, 3))
    assert dead_draws(solution, chunk=7) == dead_draws(solution) > 0


# --- the boards and the progress line ---------------------------------------------------------------------------


def test_the_boards_are_every_m_by_n_with_m_at_most_n_and_every_k_from_3_to_n_under_both_rules():
    boards = atlas_boards(16)
    assert len(boards) == len(set(boards)) == 268
    assert all(b.rows <= b.cols and 3 <= b.k <= b.cols and b.size <= 16 for b in boards)
    assert [b.size for b in boards] == sorted(b.size for b in boards)
    assert sum(b.misere for b in boards) == 134 and boards[:2] == (Geometry(1, 3, 3), Geometry(1, 3, 3, True))
    assert {(b.rows, b.cols) for b in boards if b.size == 16} == {(1, 16), (2, 8), (4, 4)}
    assert atlas_boards(9)[-2:] == (Geometry(3, 3, 3), Geometry(3, 3, 3, True)) and len(atlas_boards(3)) == 2


def test_the_run_s_share_weighs_boards_by_their_size_and_a_kept_solution_less():
    small, large = Geometry(1, 3, 3), Geometry(4, 4, 4)
    assert board_weight(large) > 1000 * board_weight(small)
    assert board_weight(large, kept=True) == pytest.approx(0.25 * board_weight(large))
    weights = (1.0, 3.0)
    assert run_fraction(weights, 0, 0.0) == 0 and run_fraction(weights, 0, 1.0) == 0.25
    assert run_fraction(weights, 1, 0.5) == pytest.approx(0.625) and run_fraction(weights, 1, 1.0) == 1


def test_the_progress_text_names_the_board_its_stage_and_the_time_left():
    line = describe_run(130, 268, "4x4k4-misere", "back", 0.5, 120.0)
    assert (
        line
        == "board 131 of 268 · 4x4k4-misere · stage 3 of 4, values, back from the last ply · 50% · about 2 min 00 s "
        "left"
    )
    assert (
        describe_run(0, 2, "1x3k3", "solving", 0.01, 5.0) == "board 1 of 2 · 1x3k3 · solving · 1%"
    )  # too early to say
    assert describe_run(0, 2, "1x3k3", "solving", 0.5, 0.5).endswith("· 50%")  # too soon to say
    assert describe_run(1, 2, "1x3k3", "solving", 1.0, 9.0).endswith("· 100%")
    assert [duration(s) for s in (0.2, 12.4, 185, 900)] == ["1 s", "12 s", "3 min 05 s", "15 min"]


def test_one_progress_line_for_the_whole_run_on_a_terminal_only(capsys, monkeypatch):
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    code, _, err = run(capsys, "--max-cells", "6")
    assert code == 0 and err.count("\n") == 1 and err.endswith("\n")
    shown = re.findall(r"\ratlas \[[#.]{30}\] board (\d+) of 22 · (\S+) · (.+?) · (\d+)%", err)
    assert [int(board) for board, *_ in shown] == sorted(int(board) for board, *_ in shown)
    assert {variant for _, variant, _, _ in shown} == {str(board) for board in atlas_boards(6)}
    assert "stage 3 of 4, values, back from the last ply" in {stage for _, _, stage, _ in shown}  # solved now
    assert shown[0][1:] == ("1x3k3", "solving", "0") and shown[-1][1:] == ("2x3k3-misere", "counting dead draws", "100")
    code, _, err = run(capsys, "--max-cells", "6", "--json")  # kept now: read back, no stage; on stderr with --json
    assert code == 0 and err.count("\n") == 1 and "stage" not in err and "board 22 of 22" in err
    assert "· 1x3k3 · reading the kept solution · 0%" in err
    monkeypatch.setattr("sys.stderr.isatty", lambda: False)
    assert run(capsys, "--max-cells", "6")[2] == ""


# --- the command's outputs -------------------------------------------------------------------------------------


def test_json_lines_one_record_per_board_with_its_source(capsys):
    code, out, err = run(capsys, "--max-cells", "9", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and err == "" and [r["variant"] for r in records] == [str(b) for b in atlas_boards(9)]
    tic_tac_toe = records[-2]
    for field in (
        "rows",
        "cols",
        "k",
        "misere",
        "value",
        "remoteness",
        "positions",
        "classes",
        "keeping_first_moves",
        "best_first_moves",
    ):
        assert field in tic_tac_toe
    assert tic_tac_toe | {"seconds": 0} == {
        "variant": "3x3k3",
        "rows": 3,
        "cols": 3,
        "k": 3,
        "misere": False,
        "value": "draw",
        "remoteness": 9,
        "keeping_first_moves": ["1", "2", "5"],
        "keeping_first_cells": [1, 2, 5],
        "best_first_moves": ["1", "2", "5"],
        "best_first_cells": [1, 2, 5],
        "first_move_classes": 3,
        "positions": 5478,
        "classes": 765,
        "games": {"total": 255168, "x": 131184, "o": 77904, "draw": 46080},
        "dead_draws": 120,
        "dead_draw_share": 0.021906,
        "source": "solved",
        "seconds": 0,
    }
    assert records[-1]["misere"] is True and records[-1]["keeping_first_moves"] == records[-1]["best_first_moves"] == [
        "5"
    ]
    assert records[-1]["games"]["x"] == 77904  # under misère X wins the games O completes a line in
    code, out, _ = run(capsys, "--max-cells", "9", "--json")
    assert {json.loads(line)["source"] for line in out.splitlines()} == {"cache"}  # kept: read back


def test_the_text_table_and_the_files_it_writes(capsys, tmp_path):
    markdown, table = tmp_path / "atlas.md", tmp_path / "atlas.csv"
    code, out, err = run(capsys, "--max-cells", "5", "--csv", str(table), "--markdown", str(markdown))
    lines = out.splitlines()
    assert (
        code == 0
        and err == ""
        and lines[0].split()[:7] == ["variant", "value", "first", "moves", "keeping", "it", "best"]
    )
    assert lines[1].split() == ["1x3k3", "draw", "a1", "b1", "a1", "b1", "13", "8", "6", "76.92%"]
    assert lines[-1].startswith("12 boards of at most 5 cells, both rules: 12 solved, 0 read back, in ")
    assert lines[-1].endswith(f"; csv written to {table}; markdown written to {markdown}")
    rows = list(csv.reader(table.read_text(encoding="utf-8").splitlines()))
    assert tuple(rows[0]) == CSV_FIELDS and len(rows) == 13
    assert rows[1] == [
        "1x3k3",
        "1",
        "3",
        "3",
        "0",
        "draw",
        "3",
        "a1 b1",
        "a1 b1",
        "2",
        "13",
        "8",
        "6",
        "0",
        "0",
        "6",
        "10",
        "0.769231",
    ]
    text = markdown.read_text(encoding="utf-8").splitlines()
    assert re.fullmatch(
        rf"Made on \d{{4}}-\d{{2}}-\d{{2}} by `workbench atlas --max-cells 5 --csv {table} --markdown {markdown}`: "
        r"every board of at most 5 cells \(m×n with m ≤ n, k from 3 to n\),",
        text[2],
    )
    assert "| 1×5 k3 | draw | draw |" in text and text[-1] == markdown_row(record_of("1x5k5-misere"))
    assert sorted(os.listdir(tmp_path)) == ["atlas.csv", "atlas.md"]  # no temporary file left


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", "'0' is not a positive whole number"),
        ("abc", "'abc' is not a positive whole number"),
        ("-3", "'-3' is not a positive whole number"),
        ("2", "'2': the smallest board of the atlas, 1x3k3, has 3 cells"),
        (
            "21",
            "'21': at most 20, the largest boards solved here (past them 5x5 alone has 1.6 x 10^11 positions: a "
            "cluster's work)",
        ),
        ("400", "'400': at most 20"),
    ],
)
def test_a_bad_number_of_cells_is_one_line_that_says_why(capsys, value, message):
    code, out, err = run(capsys, "--max-cells", value)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("workbench: error: argument --max-cells: ") and message in err


def test_a_path_that_cannot_be_written_is_one_line_before_any_board_is_solved(capsys, tmp_path, monkeypatch):
    def never(solution):
        raise AssertionError("solved before the paths were checked")

    monkeypatch.setattr("workbench.engine.atlas.atlas_record", never)
    kept = tmp_path / "kept.csv"
    for argv, said in (
        (["--markdown", str(tmp_path / "no" / "atlas.md")], "--markdown '"),
        (["--csv", str(tmp_path)], "--csv '"),
        (["--csv", str(kept), "--markdown", str(tmp_path / "no" / "x.md")], "--markdown '"),
        (["--csv", str(kept), "--markdown", str(kept)], "--csv and --markdown name the same file"),
    ):
        code, out, err = run(capsys, "--max-cells", "4", *argv)
        assert code == 2 and out == "" and err.count("\n") == 1 and said in err
        assert "cannot write there" in err or "the same file" in err
    assert os.listdir(tmp_path) == []  # the first target's temporary file, made before the second failed, is gone


def test_an_interrupted_run_leaves_the_old_file_whole_and_no_temporary(capsys, tmp_path, monkeypatch):
    target = tmp_path / "atlas.md"
    target.write_text("the old atlas\n")
    made = []

    def interrupted(solution):
        made.append(solution.geometry)
        if len(made) == 3:
            raise KeyboardInterrupt  # ctrl+c on the third board
        return atlas_record(solution)

    monkeypatch.setattr("workbench.engine.atlas.atlas_record", interrupted)
    code, out, err = run(capsys, "--max-cells", "5", "--markdown", str(target), "--replace")
    assert code == 130 and err == "workbench: interrupted\n" and out == ""
    assert target.read_text() == "the old atlas\n" and os.listdir(tmp_path) == ["atlas.md"]


def test_a_file_that_exists_is_replaced_only_with_replace_and_keeps_its_mode(capsys, tmp_path, monkeypatch):
    target, other = tmp_path / "notes.txt", tmp_path / "new.md"
    target.write_text("precious\n")
    target.chmod(0o600)

    def never(solution):
        raise AssertionError("solved before the paths were checked")

    with monkeypatch.context() as patched:
        patched.setattr("workbench.engine.atlas.atlas_record", never)
        for argv in (["--csv", str(target)], ["--markdown", str(other), "--csv", str(target)]):
            code, out, err = run(capsys, "--max-cells", "3", *argv)
            assert (code, out) == (2, "") and err == (
                f"workbench: error: --csv {str(target)!r} exists already (write to another file, or --replace it)\n"
            )
    assert target.read_text() == "precious\n" and sorted(os.listdir(tmp_path)) == ["notes.txt"]
    assert run(capsys, "--max-cells", "3", "--csv", str(target), "--replace")[0] == 0
    assert target.read_text().startswith("variant,rows,cols") and target.stat().st_mode & 0o777 == 0o600


def test_a_file_made_during_the_run_is_kept_without_replace(capsys, tmp_path, monkeypatch):
    target = tmp_path / "atlas.csv"
    made = []

    def another_program_writes_the_file(solution):
        if not made:
            target.write_text("made meanwhile\n")
        made.append(solution.geometry)
        return atlas_record(solution)

    monkeypatch.setattr("workbench.engine.atlas.atlas_record", another_program_writes_the_file)
    code, out, err = run(capsys, "--max-cells", "3", "--csv", str(target))
    assert (code, out) == (2, "") and err == (
        f"workbench: error: --csv {str(target)!r} was made by something else during the run, and is kept (write to "
        "another file, or --replace it)\n"
    )
    assert target.read_text() == "made meanwhile\n" and os.listdir(tmp_path) == ["atlas.csv"]  # no temporary left
    target.unlink()
    made.clear()
    assert run(capsys, "--max-cells", "3", "--csv", str(target), "--replace")[0] == 0
    assert target.read_text().startswith("variant,rows,cols")


def test_a_link_is_written_through_and_stays_a_link(capsys, tmp_path):
    (tmp_path / "kept").mkdir()
    real, link = tmp_path / "kept" / "atlas.md", tmp_path / "atlas.md"
    real.write_text("old\n")
    link.symlink_to(real)
    assert run(capsys, "--max-cells", "3", "--markdown", str(link), "--replace")[0] == 0
    assert link.is_symlink() and real.read_text().startswith("# ")
    assert sorted(os.listdir(tmp_path)) == ["atlas.md", "kept"]
    assert os.listdir(tmp_path / "kept") == ["atlas.md"]


def test_a_written_file_gets_the_mode_a_new_file_gets(capsys, tmp_path):
    target = tmp_path / "atlas.md"
    old = os.umask(0o022)
    try:
        assert run(capsys, "--max-cells", "3", "--markdown", str(target))[0] == 0
    finally:
        os.umask(old)
    assert target.stat().st_mode & 0o777 == 0o644


def test_record_data_is_the_record(small_records):
    data = record_data(small_records["3x4k3"])
    assert (data["value"], data["remoteness"], data["keeping_first_moves"], data["first_move_classes"]) == (
        "win",
        7,
        ["a3", "b3", "b2"],
        4,
    )
    assert data["best_first_moves"] == ["b3", "b2"]  # a3 wins too, but more slowly
    assert data["positions"] == 111973 and data["classes"] == 28275 and data["games"]["total"] == 151188768
    assert record_data(small_records["2x3k3-misere"])["value"] == "draw"


def test_sigterm_stops_a_run_as_ctrl_c_does_and_the_handler_is_put_back(capsys, tmp_path, monkeypatch):
    import signal

    from workbench.cli import atlas

    before = signal.getsignal(signal.SIGTERM)
    previous = atlas._stop_on_sigterm()
    handler = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, previous)
    assert previous == before and handler != before
    with pytest.raises(KeyboardInterrupt):
        handler(signal.SIGTERM, None)
    assert run(capsys, "--max-cells", "3")[0] == 0 and signal.getsignal(signal.SIGTERM) == before


@pytest.mark.parametrize("variant", ["3x3k3", "3x3k3-misere", "1x5k3", "2x5k3", "3x4k3", "2x6k4-misere"])
def test_burnside_counts_the_classes_the_strong_solve_numbers(variant):
    """Past 16 cells the classes are counted by Burnside's lemma (the positions each symmetry leaves unchanged,
    looked up); where the strong solve numbers them one by one, the two agree."""
    from workbench.engine.atlas import classes_counted

    solution = solved(parse_variant(variant))
    assert classes_counted(solution) == sum(solution.classes_by_ply)


def test_past_sixteen_cells_the_atlas_has_the_boards_of_two_rows_or_more():
    past = [board for board in atlas_boards(20) if board.size > 16]
    assert {(b.rows, b.cols) for b in past} == {(2, 9), (3, 6), (2, 10), (4, 5)} and len(past) == 44
