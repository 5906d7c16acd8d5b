"""A board past 16 cells solved by `workbench solve` and kept: the command, then analyze, explain, review and the
app answering exactly from it (values checked against the search, which proves late positions on its own)."""

import contextlib
import io
import json
import os
import random
import tempfile

import pytest

from workbench.cli import main
from workbench.engine import Geometry, Position
from workbench.engine.search import search
from workbench.engine.solver import Value

GAME = "2x9k4"
BOARD = Geometry(2, 9, 4)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def solved_home(tmp_path_factory):
    """A cache folder holding 2×9k4's kept solution (86.6 million ranks: 10-25 s), solved once for the module;
    with the first solve's JSON."""
    home = tmp_path_factory.mktemp("kept-cache")
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out):
        patch.setenv("XDG_CACHE_HOME", str(home))
        assert main(["solve", "--game", GAME, "--json"]) == 0
    return home, json.loads(out.getvalue())


@pytest.fixture
def kept(solved_home, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(solved_home[0]))
    from workbench.kept.held import let_go

    let_go(BOARD)  # each test opens it itself, as a new process would
    yield solved_home[1]
    let_go(BOARD)


def test_solve_keeps_an_eighteen_cell_board_and_reads_it_back(kept, capsys):
    assert kept["source"] == "solved" and kept["solver"] == "numpy"
    assert kept["value"] == {"value": "draw", "remoteness": 18}  # a draw: X's four on a 2×9 strip is stopped
    assert kept["positions"] == sum(kept["positions_by_ply"]) and kept["positions_by_ply"][:3] == [1, 18, 306]
    assert kept["cache"].endswith(".zarr") and f"solution-{GAME.replace('k', '-k')}-" in kept["cache"]
    code, out, err = run(capsys, "solve", "--game", GAME, "--json")
    again = json.loads(out)
    assert code == 0 and err == "" and again["source"] == "cache" and again["positions"] == kept["positions"]
    code, out, _ = run(capsys, "solve", "--game", GAME)
    assert out.splitlines() == [
        f"{GAME}: {kept['positions']:,} positions, a draw (in 18 plies); read back in 0.00 s",
        f"kept in {kept['cache']}",
    ]


def test_analyze_answers_exactly_from_the_kept_solution_as_the_search_proves(kept, capsys):
    """Positions of random games from ply 8 on: every move's value and remoteness is what the search proves."""
    rng = random.Random(9)
    checked = 0
    for _ in range(4):
        position = Position(geometry=BOARD)
        while not position.is_over:
            if position.ply >= 8:
                code, out, _ = run(capsys, "analyze", "--game", GAME, _text(position), "--json")
                record = json.loads(out)
                assert code == 0 and record["games"] is None and record["symmetry"]["class_id"] is None
                proven = search(position, max_nodes=5_000_000)
                assert proven.complete
                expected = {m.cell: (m.value.label, m.remoteness) for m in proven.moves}
                assert {m["cell"]: (m["value"], m["remoteness"]) for m in record["moves"]} == expected
                checked += 1
            position = position.play(rng.choice(position.legal_moves()))
    assert checked >= 10


def _text(position: Position) -> str:
    from workbench.engine import format_position

    return format_position(position)


def test_explain_and_review_read_the_kept_solution(kept, capsys):
    # X e2, O a1 (far away): X d2 then threatens both ends of c2-f2, and O cannot stop both
    code, out, _ = run(capsys, "explain", "--game", GAME, "--moves", "e2,a1,d2,i1", "--json")
    record = json.loads(out)
    assert code == 0 and record["verdict"] in ("mistake", "inaccuracy", "best", "only move")
    assert record["value_before"]["value"] in ("win", "draw", "loss") and record["line"]
    code, out, _ = run(capsys, "review", "--game", GAME, "--moves", "e2,a1,d2,i1", "--json")
    review = json.loads(out)
    assert code == 0 and all(move["rating"] != "not proven" for move in review["moves"])
    assert all(move["text"] for move in review["moves"])


def test_analyze_of_a_kept_board_loads_the_store_and_nothing_of_the_app_or_the_library(kept, untraced_children):
    """Issue 50: the kept solution's code and numpy, which it reads with; not the app's frameworks, nor the
    library, nor Dask (a solve's, not a lookup's)."""
    from .test_imports_by_need import FRAMEWORKS, LIBRARY, loaded

    modules = loaded("analyze", "--game", GAME, "--moves", "e2,a1,d2", "--json")
    assert {"workbench.kept.solving", "numpy"} <= modules
    assert not modules & (FRAMEWORKS | LIBRARY | {"dask"}), sorted(modules & (FRAMEWORKS | LIBRARY | {"dask"}))


def test_what_solve_cannot_do_past_sixteen_cells_is_one_line(kept, capsys):
    code, _, err = run(capsys, "solve", "--game", "5x5k4")
    assert (
        code == 2
        and err.strip() == "workbench: error: board 5x5k4: solutions are kept for boards of 17 to 20 cells (25 here)"
    )
    code, _, err = run(capsys, "solve", "--game", "3x3k3", "--workers", "2")
    assert code == 2 and "--workers and --scheduler solve boards of 17-20 cells" in err
    code, _, err = run(capsys, "solve", "--game", GAME, "--workers", "0")
    assert code == 2 and "--workers takes 1 or more (not 0)" in err
    code, out, _ = run(capsys, "puzzles", "--game", GAME)
    assert code == 2


async def test_the_app_plays_a_kept_board_exactly_and_the_new_game_dialog_says_it_is_solved(kept):
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.dialogs import NewGameDialog, solved_label
    from workbench.tui.panes.evaluation import EvaluationView

    from .tui_helpers import text_of, until, wait_ready

    assert solved_label(BOARD) == "solved" and solved_label(Geometry(3, 6, 4)) == "unsolved, 8–19 s"
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", game=BOARD)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("colon", "1", "3", "enter")
        await pilot.pause()
        state = app.store.state
        assert state.searching is None  # exact: nothing to search
        analysis = state.analysis
        assert analysis.value is Value.DRAW and all(move.value is not None for move in analysis.moves)
        view = app.query_one(EvaluationView)
        await until(pilot, lambda: "draw" in text_of(view), "the exact value shown")
        assert "searching" not in text_of(view)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewGameDialog), "the new-game dialog")


def test_the_atlas_row_of_a_kept_board(kept):
    """Its values and classes (counted by Burnside's lemma); its games and dead draws said to be not counted."""
    from workbench.cli.atlas import csv_text, markdown_row
    from workbench.engine.atlas import atlas_record, record_data
    from workbench.kept.solving import load_kept

    record = atlas_record(load_kept(BOARD))
    assert (record.value, record.remoteness, record.positions) == (0, 18, kept["positions"])
    assert record.games is None and record.dead_draws is None and record.dead_draw_share is None
    assert record.first_move_classes == 5 and record.positions // 4 < record.classes < record.positions // 2
    data = record_data(record)
    assert data["games"] is None and data["dead_draw_share"] is None and data["best_first_moves"]
    assert markdown_row(record).endswith("| not counted | — | — | — | not counted |")
    from .test_atlas import committed_rows

    assert committed_rows()[GAME] == markdown_row(record)  # the committed atlas's row, made by `atlas --max-cells 20`
    assert csv_text([record]).splitlines()[1].endswith(f",{record.classes},,,,,,")


def test_the_bench_of_a_kept_board_reports_each_figure_beside_its_target(monkeypatch, capsys):
    """`bench --game 2x9k4` runs fresh processes (the solve, the reads, a whole analyze): here they are stood in
    for, and what comes back is reported beside the issue's targets."""
    from workbench.bench import kept as kept_bench

    outputs = iter(
        [
            '{"seconds": 71.5, "positions": 674794169, "source": "solved", "peak_mb": 1302.0}',
            '{"open_s": 0.014, "analyses_s": [0.114, 0.002, 0.004, 0.009], "lines_s": [0.001, 0.002, 0.012, 0.003]}',
        ]
    )
    monkeypatch.setattr(kept_bench, "_whole", lambda argv, env=None, timeout=0: (0.25, next(outputs, "{}")))
    code, out, _ = run(capsys, "bench", "--game", GAME, "--quick")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(
        f"solve {GAME}, cold, fresh process     71.5 s (target ≤ 900 s), 674,794,169 positions"
    )
    assert "whole `analyze --game 2x9k4 --moves 1 --json` from it 250 ms" in lines[1]
    assert (
        "the first analysis 114 ms" in lines[2]
        and "then analysis median 4.0 ms, max 9.0 ms (target ≤ 50 ms)" in lines[2]
    )


def test_a_solve_killed_mid_ply_is_carried_on_by_the_next_and_keeps_what_an_uninterrupted_one_keeps(
    solved_home, tmp_path, untraced_children
):
    """Issue 50: `workbench solve` killed outright (SIGKILL) part way through a ply, then run again: the second run
    checks the plies the first finished, goes on below them, and keeps the same bytes as a solve never cut short."""
    import signal
    import subprocess
    import sys
    import time

    import numpy as np
    import zarr

    from .child_process import PACKAGE_ROOT

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": PACKAGE_ROOT}
    command = [sys.executable, "-m", "workbench", "solve", "--game", GAME, "--json"]
    first = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and first.poll() is None:
            done = {}
            for metadata in tmp_path.rglob("*.partial-*/zarr.json"):
                try:
                    done = json.loads(metadata.read_text())["attributes"].get("plies_done", {})
                except (OSError, ValueError):  # (being written)
                    continue
            if len(done) >= 8:  # past the narrow plies near the full board: the next ones take a while each
                break
            time.sleep(0.02)
        assert first.poll() is None, "the first solve ended before it could be killed"
        first.send_signal(signal.SIGKILL)
        first.wait()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    finished = len(done)
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    (line,) = again.stderr.splitlines()
    assert line.startswith(f"workbench: carrying on an earlier solve of {GAME} that was cut short: plies 18 to ")
    last = int(line.split(" were done")[0].rsplit(" ", 1)[1])
    assert 18 - last + 1 >= finished  # (a ply or more may have been marked after the look above)
    assert json.loads(again.stdout)["positions_by_ply"] == solved_home[1]["positions_by_ply"]
    (ours,) = tmp_path.rglob("*.zarr")
    (theirs,) = solved_home[0].rglob("*.zarr")
    assert not list(tmp_path.rglob("*.partial-*"))
    mine, reference = zarr.open_group(str(ours), mode="r"), zarr.open_group(str(theirs), mode="r")
    for ply in range(BOARD.size + 1):
        assert np.array_equal(mine[str(ply)][:], reference[str(ply)][:]), ply


def test_answers_for_a_kept_board_read_its_solution_and_a_board_not_kept_is_searched(kept, monkeypatch, tmp_path):
    """Past 16 cells the tier is the kept solution where `workbench solve` made one, else the search."""
    from workbench.engine.answers import SearchedAnswers, SolutionAnswers
    from workbench.kept import answers_for
    from workbench.kept.held import let_go

    answers = answers_for(BOARD)
    assert isinstance(answers, SolutionAnswers) and answers.tier == "kept" and answers.exact
    assert answers.analyze(Position.empty(BOARD)).value == Value.DRAW
    let_go(BOARD)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # another machine's cache: nothing kept there
    assert isinstance(answers_for(BOARD), SearchedAnswers)
