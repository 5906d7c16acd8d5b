"""The command line: JSON shapes, exit codes, one-line errors."""

import json
import subprocess
import sys

import pytest

from workbench.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_position_json(capsys):
    code, out, err = run(capsys, "analyze", "X.O/.X./...", "--json")
    assert code == 0 and err == ""
    record = json.loads(out)
    assert record["position"] == "X.O/.X./..."
    assert record["to_move"] == "O" and record["value"] == "draw"
    assert record["masks"]["block"] == [9] and record["masks"]["best"] == [9]


def test_analyze_moves_equals_position(capsys):
    _, by_moves, _ = run(capsys, "analyze", "--moves", "5,1,9", "--json")
    _, by_position, _ = run(capsys, "analyze", "O../.X./..X", "--json")
    assert json.loads(by_moves) == json.loads(by_position)


def test_analyze_all_is_json_lines(capsys):
    code, out, _ = run(capsys, "analyze", "--all", "--json")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 5478
    statuses = {json.loads(line)["status"] for line in lines}
    assert statuses == {"in_play", "x_won", "o_won", "draw"}


def test_analyze_all_writes_each_position_s_record_and_line_as_before(capsys, all_analyses):
    """The records are read off the tables (engine.table_records) rather than made from each analysis: the same
    text, byte for byte, for every position of 3×3, with --json and without."""
    from workbench.engine import analysis_record

    records = [analysis_record(analysis) for analysis in all_analyses]
    code, out, _ = run(capsys, "analyze", "--all", "--json")
    assert code == 0 and out == "".join(json.dumps(record) + "\n" for record in records)
    code, out, _ = run(capsys, "analyze", "--all")
    assert code == 0 and out == "".join(
        f"{r['position']}  {r['status']:<7} {r['value'] or '-':<5} "
        f"{r['remoteness'] if r['remoteness'] is not None else '-'}\n"
        for r in records
    )


def test_analyze_all_reads_the_kept_tables_and_keeps_them_where_it_built_them(capsys, monkeypatch, classic_let_go):
    from workbench.engine import TIC_TAC_TOE
    from workbench.kept import tables as cache

    _, expected, _ = run(capsys, "analyze", "--all", "--json")
    classic_let_go()
    cache.cache_path(TIC_TAC_TOE).unlink(missing_ok=True)  # (kept by the first run if nothing held them before)
    assert run(capsys, "analyze", "--all", "--json")[1] == expected  # built, and kept
    assert cache.cache_path(TIC_TAC_TOE).exists()
    classic_let_go()
    monkeypatch.setattr(cache, "build_tables", lambda geometry: pytest.fail("built although they were kept"))
    assert run(capsys, "analyze", "--all", "--json")[1] == expected


def test_analyze_rich_view_shows_board_masks_and_moves(capsys):
    code, out, _ = run(capsys, "analyze", "X.O/.O./..X")
    assert code == 0
    for word in ("perfect-win", "fork", "Moves", "class", "7 ★"):
        assert word in out


def test_census_and_first_moves(capsys):
    _, out, _ = run(capsys, "census", "--json")
    assert json.loads(out)["classes"] == 765
    _, out, _ = run(capsys, "first-moves", "--json")
    assert json.loads(out) == {"variant": "3x3k3", "table": [[0.875, 0.5, 0.875], [0.5, 0.5, 0.5], [0.875, 0.5, 0.875]]}
    _, out, _ = run(capsys, "first-moves")
    assert "0.875 | 0.500 | 0.875" in out


def test_verify_reports_no_disagreement(capsys):
    code, out, _ = run(capsys, "verify", "--json")
    assert code == 0
    assert json.loads(out) == {"variant": "3x3k3", "checked": 4520, "disagreements": []}


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["analyze", "X.Q/.../..."], "unknown character 'Q'"),
        (["analyze", "OO./.../..."], "O has more marks than X"),
        (["analyze", "--moves", "5,5"], "token 2 '5'"),
        (["frobnicate"], "invalid choice"),
        (["analyze", "--all", "--moves", "5"], "not allowed with"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and err.startswith("workbench: error:")


def test_installed_command_runs_without_traceback():
    result = subprocess.run([sys.executable, "-m", "workbench", "analyze", "nonsense"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_export_and_analyze_a_study(capsys, tmp_path):
    from workbench.state import AppState, reduce, save_study
    from workbench.state.actions import Back, PlayCell

    state = AppState()
    for cell in (5, 1, 9):
        state = reduce(state, PlayCell(cell=cell))
    state = reduce(reduce(state, Back()), PlayCell(cell=3))
    path = tmp_path / "s.json"
    save_study(state, path)
    code, out, _ = run(capsys, "export", str(path))
    assert code == 0 and out == "5 1 9 (3)\n"
    code, out, _ = run(capsys, "analyze", "--study", str(path), "--json")
    assert json.loads(out)["position"] == "O.X/.X./..."
    db = str(tmp_path / "lib.sqlite3")  # a library study's name, as export, review and open read it
    assert run(capsys, "studies", "import", str(path), "--as", "centre", "--db", db)[0] == 0
    assert run(capsys, "export", "centre", "--db", db)[:2] == (0, "5 1 9 (3)\n")
    code, out, _ = run(capsys, "analyze", "--study", "centre", "--json", "--db", db)
    assert code == 0 and json.loads(out)["position"] == "O.X/.X./..."
    code, out, err = run(capsys, "analyze", "--study", "opening", "--db", db)
    assert (code, out) == (2, "") and err == (
        f"workbench: error: no study file or library study called 'opening' (library {db!r})\n"
    )


@pytest.mark.parametrize("command", ["export", "open"])
def test_bad_study_files_exit_2_with_one_line(capsys, tmp_path, command):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "workbench-study", "version": 1, "nodes": [')
    code, out, err = run(capsys, command, str(path))
    assert code == 2 and err.count("\n") == 1 and "broken.json" in err and "not valid JSON" in err
    code, _, err = run(capsys, command, str(tmp_path / "absent.json"))
    assert code == 2 and "no such file" in err


def test_no_command_starts_the_app_with_the_tables_warming(monkeypatch, tmp_path, classic_let_go):
    from workbench.engine import TIC_TAC_TOE
    from workbench.kept import tables as cache
    from workbench.kept.held import held
    from workbench.state import AppState, save_study
    from workbench.tui import app as app_module

    launched, started = [], []
    real_warm = cache.warm_in_background

    def recorded_warm(geometry):
        thread = real_warm(geometry)
        started.append((geometry, thread))
        return thread

    def fake_run(**options):
        launched.append((options, list(started)))
        for _, thread in started:
            thread.join(60)
        return 0

    monkeypatch.setattr(cache, "warm_in_background", recorded_warm)
    monkeypatch.setattr(app_module, "run", fake_run)
    classic_let_go()
    assert main([]) == 0
    options, warming = launched[-1]
    assert options == {"db": None, "game": TIC_TAC_TOE}
    # exactly one thread, for the classic board, started before the app ran
    assert [(geometry, thread.name) for geometry, thread in warming] == [(TIC_TAC_TOE, "warm-tables")]
    assert held(TIC_TAC_TOE) is not None  # made ready by the command, not the app
    study = tmp_path / "s.json"
    save_study(AppState(), study)
    assert main(["--db", str(tmp_path / "lib.sqlite3"), "open", str(study)]) == 0
    assert launched[-1][0]["path"] == str(study) and launched[-1][0]["db"] == str(tmp_path / "lib.sqlite3")
