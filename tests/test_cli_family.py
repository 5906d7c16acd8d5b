"""The family on the command line: --game, solve, census and analyze of boards other than 3×3."""

import io
import json
import os
import re

import pytest

from workbench.cli import main
from workbench.engine.geometry import parse_variant
from workbench.kept import tables as cache


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_keeps_the_solution_and_reads_it_back(capsys):
    code, out, err = run(capsys, "solve", "--game", "2x7k3", "--json")
    first = json.loads(out)
    assert code == 0 and err == "" and first["source"] == "solved"
    path = first["cache"]
    assert path == str(cache.strong_cache_path(parse_variant("2x7k3"))) and os.path.getsize(path) > 3**14
    code, out, _ = run(capsys, "solve", "--game", "2x7k3", "--json")
    second = json.loads(out)
    assert (
        second["source"] == "cache" and second["positions"] == first["positions"] and second["value"] == first["value"]
    )
    code, out, _ = run(capsys, "solve", "--game", "2x7k3")
    lines = out.splitlines()
    assert (
        code == 0 and lines[0].startswith(f"2x7k3: {first['positions']:,} positions, ") and "read back in" in lines[0]
    )
    assert lines[1] == f"kept in {path}"


def test_a_damaged_cache_file_is_never_believed(capsys):
    geometry = parse_variant("3x4k3-misere")
    solution, where = cache.strong_solution(geometry)
    assert where == "solved"
    path = cache.strong_cache_path(geometry)
    content = bytearray(path.read_bytes())
    content[-100] ^= 0xFF  # one flipped byte of the values
    path.write_bytes(bytes(content))
    assert cache.load_strong(geometry) is None
    again, where = cache.strong_solution(geometry)
    assert where == "solved" and (again.packed == solution.packed).all()
    assert cache.load_strong(geometry) is not None  # written afresh
    path.write_bytes(path.read_bytes()[:1000])  # truncated
    assert cache.load_strong(geometry) is None


def test_the_misere_board_s_files_and_the_classic_one_s_live_side_by_side():
    normal, misere = parse_variant("3x4k3"), parse_variant("3x4k3-misere")
    cache.strong_solution(misere)
    cache.strong_solution(normal)
    assert cache.load_strong(misere) is not None and cache.load_strong(normal) is not None
    assert cache.strong_cache_path(normal) != cache.strong_cache_path(misere)


def test_no_cache_folder_still_solves(monkeypatch, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a regular file where the folder would be
    code, out, _ = run(capsys, "solve", "--game", "3x4k3")
    assert code == 0 and out.splitlines()[1].startswith("not kept: the cache folder cannot be written")


def test_census_of_a_larger_board(capsys):
    code, out, _ = run(capsys, "census", "--game", "2x7k3", "--json")
    data = json.loads(out)
    assert code == 0 and data["variant"] == "2x7k3"
    assert data["positions"] == sum(data["positions_by_ply"]) and data["positions_by_ply"][0] == 1
    assert data["positions_by_ply"][1] == 14 and data["positions_by_ply"][2] == 14 * 13
    assert sum(data["positions_by_value"].values()) == data["positions"] - data["terminal_positions"]
    assert data["classes_by_ply"][:2] == [1, 4] and data["classes"] == sum(data["classes_by_ply"])  # 4 shapes of 2×7
    assert data["games"]["total"] == data["games"]["x"] + data["games"]["o"] + data["games"]["draw"]
    code, out, _ = run(capsys, "census", "--game", "2x7k3")
    assert code == 0 and out.startswith("variant          2x7k3\n")
    assert f"classes          {data['classes']:,} ({data['terminal_classes']:,} terminal)\n" in out
    assert (
        f"games            {data['games']['total']:,}: X" in out and "ledger (14! fill orders) 87,178,291,200: X" in out
    )


def test_census_of_a_small_misere_board_counts_everything(capsys):
    code, out, _ = run(capsys, "census", "--game", "3x3k3-misere", "--json")
    data = json.loads(out)
    assert code == 0 and data["positions"] == 5478 and data["classes"] == 765
    # the same positions end the game as in the classic one, but whoever made the line lost
    classic = json.loads(run(capsys, "census", "--json")[1])
    assert data["games"]["x"] == classic["games"]["o"] and data["games"]["o"] == classic["games"]["x"]
    assert data["ledger"]["x"] == classic["ledger"]["o"]


def test_analyze_a_misere_position_by_coordinates(capsys):
    code, out, _ = run(capsys, "analyze", "--game", "3x3k3-misere", "--moves", "b2,a3", "--json")
    record = json.loads(out)
    assert code == 0 and record["position"] == "O../.X./..." and record["to_move"] == "X"
    assert record["value"] == "draw"
    # one mark each: no line can be completed yet, by either side
    assert record["masks"]["win"] == [] and record["masks"]["block"] == []


def test_analyze_of_fourteen_cells_from_the_strong_solution(capsys):
    code, out, _ = run(capsys, "analyze", "--game", "2x7k3", "--moves", "d1", "--json")
    record = json.loads(out)
    assert code == 0 and record["position"] == "......./...X..." and record["to_move"] == "O"
    assert record["symmetry"]["orbit_size"] == 2 and record["symmetry"]["class_id"] >= 2
    games = record["games"]
    assert (
        games["total"]
        == games["x"] + games["o"] + games["draw"]
        == sum(move["games"]["total"] for move in record["moves"])
    )
    code, out, _ = run(capsys, "analyze", "--game", "2x7k3", "--moves", "d1")
    census = json.loads(run(capsys, "census", "--game", "2x7k3", "--json")[1])
    assert code == 0 and f"class      {record['symmetry']['class_id']} of {census['classes']}, orbit 2" in out
    assert f"games      {games['total']:,}" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["analyze", "--game", "4x4k7", "...."], "unknown variant '4x4k7': 7 in a row does not fit on a 4x4 board"),
        (["census", "--game", "chess"], "unknown variant 'chess'"),
        (["solve", "--game", "5x5k4"], "board 5x5k4: solutions are kept for boards of 17 to 20 cells (25 here)"),
        (
            ["analyze", "--game", "5x5k4", "--moves", "c3", "--budget", "soon"],
            "--budget 'soon': write a time such as 5s, 500ms or 2m",
        ),
        (
            ["analyze", "--game", "5x5k4", "--moves", "c3", "--budget", "0s"],
            "--budget '0s': a time above zero and at most a day",
        ),
        (
            ["analyze", "--game", "5x5k4", "--moves", "c3", "--nodes", "-5"],
            "argument --nodes: '-5' is not a positive whole number",
        ),
        (["analyze", "--game", "3x3k3", "--moves", "z9"], "token 1 'z' is not a cell number or coordinate"),
        (["analyze", "--game", "3x3k3", "--moves", "d1"], "token 1 'd1' is not a cell (1-9 or a1-c3)"),
        (["verify", "--game", "3x3k3-misere"], "verify checks the threat planner, which reads a line as a win"),
        (
            ["verify", "--game", "4x4k4"],
            "verify runs the threat planner on every position: boards of at most 12 cells (4x4k4 has 16)",
        ),
        (["analyze", "--all", "--game", "5x5k4"], "analyze --all covers boards of at most 16 cells (5x5k4 has 25)"),
    ],
)
def test_bad_variants_and_moves_are_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "") and err.startswith("workbench: error: ") and message in err and err.count("\n") == 1


def test_verify_finds_where_the_planner_is_not_exact_beyond_three_by_three(capsys, monkeypatch):
    from workbench.engine import verification

    checked, real = [], verification.check_planner
    monkeypatch.setattr(
        verification, "check_planner", lambda *args, **options: checked.append(real(*args, **options)) or checked[-1]
    )
    code, out, _ = run(capsys, "verify", "--game", "3x4k3", "--json")
    report = json.loads(out)
    assert code == 1 and sorted(report) == ["checked", "disagreements", "variant"] and report["variant"] == "3x4k3"
    assert report["checked"] == 79563 and len(report["disagreements"]) == 597
    first = report["disagreements"][0]
    assert sorted(first) == ["planner", "position", "solver"] and sorted(first["planner"]) == [
        "perfect_lose",
        "perfect_win",
    ]
    # the solver's side is the exact analysis that `analyze` prints for that position
    exact = json.loads(run(capsys, "analyze", "--game", "3x4k3", first["position"], "--json")[1])["masks"]
    bits = {name: sum(1 << (cell - 1) for cell in exact[name]) for name in ("perfect_win", "perfect_lose")}
    assert first["solver"] == bits and first["planner"] != bits
    # the text form of the same report (not a second run over 79,563 positions: CI's time)
    from workbench.engine import verification

    monkeypatch.setattr(verification, "check_planner", lambda *args, **options: checked[0])
    code, out, _ = run(capsys, "verify", "--game", "3x4k3")
    lines = out.splitlines()
    assert code == 1 and lines[0] == "checked 79563 positions in play: 597 disagreements between planner and solver"
    assert (
        len(lines) == 598 and lines[1] == f"  {first['position']}: planner {first['planner']} solver {first['solver']}"
    )
    monkeypatch.setattr(verification, "check_planner", real)
    assert run(capsys, "verify", "--json")[0] == 0


def test_analyze_of_a_large_board_searches_within_the_budget(capsys):
    code, out, _ = run(
        capsys, "analyze", "--game", "5x5k4", "--moves", "c3,b2,d4,b4,a1,e5,c1,c4", "--json", "--budget", "60s"
    )
    record = json.loads(out)
    assert code == 0 and record["proven"] is True and record["value"] in ("win", "draw", "loss")
    assert all(move["proven"] and move["value"] is not None for move in record["moves"]) and len(record["moves"]) == 17
    code, out, _ = run(capsys, "analyze", "--game", "5x5k4", "--moves", "c3", "--nodes", "3000")
    assert code == 0 and "unknown (" in out and "moves proven)" in out
    assert "perfect-win" in out and "a5" in out and " 13 " not in out  # coordinates, not cell numbers
    # the masks of the values hold the moves proven so far, and say so: "—" read as "no winning move"
    code, out, _ = run(capsys, "analyze", "--game", "15x15k5", "--moves", "h8,a1,h9,a2,h10,a3,h11,b1", "--nodes", "1")
    rows = {line.split()[0]: " ".join(line.split()[1:]) for line in out.splitlines() if line.strip()}
    assert code == 0 and rows["win"] == "h12, h7"
    assert rows["perfect-win"] in ("h12, h7 (so far)", "none proven yet") and rows["best"] == "none proven yet"


@pytest.mark.usefixtures("untraced_children")
def test_the_bench_of_a_searched_board_times_the_app_in_a_terminal(capsys, monkeypatch):
    """`workbench bench --game 15x15k5`: no strong solve to time (one line, exit 2, asked for that alone), but the
    app in a real terminal on that board, against a first paint of 2× the bare app's."""
    from workbench.bench import terminal as terminal_bench

    asked, made = [], []
    real = terminal_bench.run_terminal_bench

    def without_sizes(*, quick, game, keys):
        asked.append((quick, game, keys))
        if not made:  # the start and the warm-up, once, but no size timed
            made.append(real(quick=quick, game=game, sizes=(), keys=keys))
        return made[0]

    monkeypatch.setattr(terminal_bench, "run_terminal_bench", without_sizes)
    code, out, _ = run(capsys, "bench", "--game", "15x15k5", "--quick", "--json")
    report = json.loads(out)["tui_terminal"]
    assert code == 0 and asked == [(True, "15x15k5", None)]
    assert (report["game"], report["target_ratio"], report["target_first_paint_ratio"], report["sizes"]) == (
        "15x15k5",
        2.0,
        2.0,
        {},
    )
    code, out, _ = run(capsys, "bench", "--game", "15x15k5", "--quick")
    assert code == 0 and asked[-1] == (True, "15x15k5", None)
    assert (
        out.startswith("keypress to settled screen, in a terminal, 15x15k5 (10 keys a scenario; ")
        and "first paint ≤ 2.0×" in out
    )
    code, out, err = run(capsys, "bench", "--game", "15x15k5", "--no-tui")
    assert (code, out) == (2, "") and err.count("\n") == 1 and "searched, not solved" in err
    code, out, _ = run(capsys, "bench", "--game", "15x15k5", "--keys", "3", "--json")
    assert code == 0 and asked[-1] == (False, "15x15k5", 3)  # --keys: that many a scenario, asked for as given
    classic = real(quick=True, sizes=(), keys=7)
    assert classic["target_first_paint_ratio"] == 1.5  # the classic board keeps its 1.5×
    assert classic["keys_per_scenario"] == 7 and real.__kwdefaults__["keys"] is None  # 40 (10 quick) unless asked


@pytest.mark.usefixtures("untraced_children")
def test_the_family_bench_reports_every_figure_and_says_when_the_peer_is_missing(capsys, monkeypatch):
    from workbench.bench import family as bench_family

    monkeypatch.setattr(bench_family, "openspiel_python", lambda: None)
    two = bench_family.tier2_set()[:2]
    monkeypatch.setattr(bench_family, "tier2_set", lambda geometry=None: two)
    code, out, _ = run(capsys, "bench", "--game", "2x3k2", "--quick", "--json")
    report = json.loads(out)
    assert code == 0 and report["openspiel"] is None
    assert (
        report["strong"]["solve"]["positions"]
        == json.loads(run(capsys, "census", "--game", "2x3k2", "--json")[1])["positions"]
    )
    assert 0 < report["strong"]["cache_mb"] < 1 and report["strong"]["warm_analyze_s"] > 0
    assert len(report["tier2"]["positions"]) == 2 and all(
        row["proven_moves"] == row["legal_moves"] for row in report["tier2"]["positions"]
    )
    assert "openspiel_s" not in report["tier2"] and report["sweep_3x3"]["ours_s"] > 0
    assert report["tier2"]["budget_s"] == 60.0  # --quick: a minute a position, not five
    lines = bench_family.format_family_report(report)
    assert lines[0].startswith("strong solve 2x3k2, cold, fresh process") and "OpenSpiel not installed" in "\n".join(
        lines
    )
    assert "tier 2, 5x5k4, 2 positions (8-15 marks), whole processes, 60 s budget each:" in lines
    code, out, _ = run(capsys, "bench", "--game", "2x3k2", "--quick")  # the same report, as text
    shown = out.splitlines()
    assert code == 0 and shown[0].startswith("strong solve 2x3k2, cold, fresh process") and len(shown) == len(lines)
    assert shown[2] == lines[2] and shown[-1].startswith("3x3 every position, whole commands: `analyze --all --json` ")
    assert shown[-1].endswith(" s (OpenSpiel not installed)")


def test_tier2_positions_are_the_same_every_run_ten_early_and_four_late():
    from workbench.bench.family import LATE_POSITION, tier2_set
    from workbench.engine import Position

    first, second = tier2_set(), tier2_set()
    assert first == second and len(first) == len(set(first)) == 14 and LATE_POSITION in first
    geometry = parse_variant("5x5k4")
    marks = [Position.empty(geometry).play_all(moves).ply for moves in first]
    assert all(not Position.empty(geometry).play_all(moves).is_over for moves in first)
    assert all(8 <= ply <= 12 for ply in marks[:10]) and all(13 <= ply <= 15 for ply in marks[10:])


def test_the_family_report_names_its_peers_and_rates_only_what_the_peer_finished():
    """A stopped peer's time is a bound, not its time: the tier-2 ratio is over the positions it finished; the 3×3
    ratio is against the faster of OpenSpiel's two sweeps, each named, one that could not run said so."""
    from workbench.bench.family import format_family_report

    rows = [
        {
            "moves": "1,2",
            "ours_s": 0.2,
            "proven_moves": 5,
            "legal_moves": 5,
            "openspiel_s": 10.0,
            "openspiel_finished": True,
        },
        {
            "moves": "3,4",
            "ours_s": 0.3,
            "proven_moves": 5,
            "legal_moves": 5,
            "openspiel_s": 120.0,
            "openspiel_finished": False,
        },
    ]
    report = {
        "openspiel": "/peer/python",
        "openspiel_version": "2.0.2",
        "strong": {"variant": "2x3k2", "solve": None, "cache_mb": 0.1, "warm_analyze_s": 0.1},
        "tier2": {
            "positions": rows,
            "ours_s": 0.5,
            "budget_s": 60.0,
            "target_ratio": 0.08,
            "openspiel_s": 130.0,
            "finished": 1,
            "ratio": 0.02,
        },
        "sweep_3x3": {
            "ours_s": 0.3,
            "target_ratio": 0.15,
            "fastest_peer": "value iteration over every state",
            "openspiel_s": 3.0,
            "ratio": 0.1,
            "peers": {"alpha-beta on each state": 13.0, "value iteration over every state": 3.0},
        },
    }
    text = "\n".join(format_family_report(report))
    assert "peer: OpenSpiel 2.0.2's C++ `mnk` game, its Python alpha_beta_search (one value each):" in text
    assert "OpenSpiel  120.00 s (stopped)" in text
    assert "over the 1 positions it finished: 0.020× (target ≤ 0.08×)" in text
    assert (
        "OpenSpiel 2.0.2's C++ `tic_tac_toe`: alpha-beta on each state 13.00 s, value iteration over every state "
        "3.00 s; against the fastest (value iteration over every state) 0.100× (target ≤ 0.15×)"
    ) in text
    report["sweep_3x3"]["peers"]["value iteration over every state"] = None
    assert "value iteration over every state not run (missing a module)" in "\n".join(format_family_report(report))


STREAMED = "2x7k2"
"""A strongly solved board (14 cells) with few positions (46,009; 2x7k3 has a million): each test here reads
every line the command writes."""


def test_analyze_all_streams_every_position_of_a_strongly_solved_board(capsys):
    code, out, _ = run(capsys, "analyze", "--all", "--json", "--game", STREAMED)
    lines = out.splitlines()
    census = json.loads(run(capsys, "census", "--game", STREAMED, "--json")[1])
    assert code == 0 and len(lines) == census["positions"]
    first, last = json.loads(lines[0]), json.loads(lines[-1])
    value = census["value"]["value"]
    assert first == {
        "position": "......./.......",
        "to_move": "X",
        "status": "in_play",
        "value": value,
        "remoteness": census["value"]["remoteness"],
    }
    assert last["to_move"] is None and last["value"] is None and last["status"] in ("x_won", "o_won", "draw")
    terminal = sum(1 for line in lines if '"to_move": null' in line)
    assert terminal == census["terminal_positions"]


def test_first_moves_of_a_misere_board_come_from_its_exact_values(capsys):
    code, out, _ = run(capsys, "first-moves", "--game", "3x3k3-misere", "--json")
    assert code == 0 and json.loads(out)["table"] == [[0.0, 0.125, 0.0], [0.125, 0.0, 0.125], [0.0, 0.125, 0.0]]
    code, out, _ = run(capsys, "first-moves", "--game", "2x7k3-misere", "--json")
    assert code == 0 and len(json.loads(out)["table"]) == 2 and len(json.loads(out)["table"][0]) == 7
    code, _, err = run(capsys, "first-moves", "--game", "5x5k4-misere")
    assert code == 2 and "boards of at most 16 cells (5x5k4-misere has 25)" in err


@pytest.mark.parametrize(
    "variant, said",
    [
        ("15x15k5", "boards of at most 16 cells (15x15k5 has 225)"),  # a traceback (OverflowError)
        ("3x3k1-misere", "on 3x3k1-misere that move ends the game"),  # a traceback (KeyError)
        ("1x2k1-misere", "on 1x2k1-misere that move ends the game"),
        ("3x3k1", "on 3x3k1 that move ends the game"),  # shares of replies that cannot be
    ],
)
def test_first_moves_where_it_has_nothing_to_count_or_cannot_is_one_line(capsys, variant, said):
    """A new user's review: `first-moves` under the normal rule had no bound on the board (the README's 15×15
    ended in a traceback, 4×5 ran out of memory), and a board of one in a row, where X's first move ends the game,
    failed or showed shares of replies no game has."""
    code, out, err = run(capsys, "first-moves", "--game", variant)
    assert (code, out) == (2, "") and err.count("\n") == 1 and said in err


def test_a_dead_draw_is_said_in_text_and_json(capsys):
    code, out, _ = run(capsys, "analyze", "--moves", "5,1,9,3,2,8,4,6", "--json")
    assert code == 0 and json.loads(out)["dead_draw"] is True and json.loads(out)["status"] == "in_play"
    code, out, _ = run(capsys, "analyze", "--moves", "5,1,9,3,2,8,4,6")
    assert "status     in_play (dead draw: no line left)\n" in out
    assert json.loads(run(capsys, "analyze", "--moves", "5", "--json")[1])["dead_draw"] is False


def test_four_by_four_four_in_a_row_solved_kept_and_analysed(capsys):
    code, out, _ = run(capsys, "solve", "--game", "4x4k4")
    assert code == 0 and out.startswith("4x4k4: 9,722,011 positions, a draw (in 16 plies); solved in ")
    code, out, _ = run(capsys, "analyze", "--game", "4x4k4", "--moves", "a4,b3", "--json")
    record = json.loads(out)
    assert code == 0 and record["position"] == "X.../.O../..../...."  # a4 is the top-left corner, b3 below-right of it
    assert record["to_move"] == "X" and record["value"] == "draw" and record["remoteness"] == 14
    assert record["symmetry"]["class_count"] == 1_217_977
    assert record["games"]["total"] == sum(move["games"]["total"] for move in record["moves"])
    # O to move: X threatens to fork at b2 (the b file and the long diagonal); b2 alone holds the draw
    code, out, _ = run(capsys, "explain", "--game", "4x4k4", ".X.X/O..O/O.../XX..", "--move", "b2", "--json")
    record = json.loads(out)
    assert code == 0 and (record["verdict"], record["line"][0]["role"], record["value_after"]["value"]) == (
        "only move",
        "quiet",
        "draw",
    )
    assert record["text"].endswith("Every other move loses, a4, c4, c2, d2, c1 and d1 soonest (in 4).")


@pytest.mark.parametrize(
    "variant, outcome",
    [
        ("3x3k3", "a draw (in 9 plies)"),
        ("3x4k3", "first player wins (in 7 plies)"),
        ("3x4k3-misere", "first player loses (in 11 plies)"),
    ],
)
def test_solve_says_who_wins_and_whether_it_solved_or_read_back(capsys, variant, outcome):
    code, out, _ = run(capsys, "solve", "--game", variant)
    first = out.splitlines()[0]
    assert code == 0 and first.startswith(f"{variant}: ") and f", {outcome}; solved in " in first
    assert first.endswith(" s") and float(first.rsplit(" ", 2)[1]) < 60
    code, out, _ = run(capsys, "solve", "--game", variant, "--json")
    data = json.loads(out)
    assert data["source"] == "cache" and 0 <= data["seconds"] < 5 and data["seconds"] == round(data["seconds"], 3)


def test_solve_without_a_cache_says_so_in_json_too(capsys, monkeypatch):
    monkeypatch.setenv("WORKBENCH_NO_TABLES_CACHE", "1")
    code, out, _ = run(capsys, "solve", "--game", "2x3k2", "--json")
    data = json.loads(out)
    assert code == 0 and data["source"] == "solved" and data["cache"] is None
    code, out, _ = run(capsys, "solve", "--game", "2x3k2")
    assert out.splitlines()[1] == "not kept: the cache folder cannot be written (or WORKBENCH_NO_TABLES_CACHE is set)"


def test_a_progress_bar_on_a_terminal_only(capsys, monkeypatch):
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    code, _, err = run(capsys, "solve", "--game", "2x6k3")
    stages = re.findall(r"\rsolving 2x6k3 \[[#.]{30}\] stage \d of 4, (.+?) · ", err)
    assert code == 0 and list(dict.fromkeys(stages)) == [
        "enumerating positions",
        "counting games",
        "values, back from the last ply",
        "symmetry classes",
    ]
    assert err.rstrip().endswith("] stage 4 of 4, symmetry classes · 100%") and err.count("\n") == 1
    code, _, err = run(capsys, "solve", "--game", "2x6k3-misere", "--json")
    assert code == 0 and err == ""  # JSON is for programs: no bar
    code, _, err = run(capsys, "census", "--game", "2x7k3")  # any command that solves a board shows it
    assert code == 0 and err.startswith("\rsolving 2x7k3 [") and err.endswith("\n") and err.count("\n") == 1
    code, _, err = run(capsys, "census", "--game", "2x7k3")  # read back from the cache: no solve, no line
    assert code == 0 and err == ""
    monkeypatch.setattr("sys.stderr.isatty", lambda: False)
    code, _, err = run(capsys, "census", "--game", "2x7k3-misere")
    assert code == 0 and err == ""


def test_analyze_all_as_text_of_a_strongly_solved_board(capsys):
    code, out, _ = run(capsys, "analyze", "--all", "--game", STREAMED)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "......./.......  in_play win   3"
    row = re.compile(r"[.XO]{7}/[.XO]{7}  (in_play|x_won|o_won|draw) +(win|draw|loss|-) +(\d+|-)")
    assert all(row.fullmatch(line) for line in lines)  # one position a line, nothing between them
    over = [line for line in lines if " in_play " not in line]
    assert over and all(line.endswith(" -     -") for line in over)
    assert len(lines) == json.loads(run(capsys, "census", "--game", STREAMED, "--json")[1])["positions"]


def test_first_moves_of_a_larger_misere_board_read_the_strong_solution(capsys):
    from workbench.engine.openings import first_move_table_from_values
    from workbench.kept.tables import strong_solution

    geometry = parse_variant("2x7k3-misere")
    solution, _ = strong_solution(geometry)
    expected = first_move_table_from_values(geometry, lambda x, o: solution.lookup(x, o)[0])
    code, out, _ = run(capsys, "first-moves", "--game", "2x7k3-misere", "--json")
    assert code == 0 and json.loads(out)["table"] == [list(row) for row in expected]
    assert any(share not in (0.0, 1.0) for row in expected for share in row)  # a table that says something


def test_the_moves_table_names_cells_as_the_board_does(capsys):
    """One notation a board: coordinates on every board but 3×3, whose cells are numbered 1-9 (either rule)."""
    out = run(capsys, "analyze", "--game", "2x5k3", "--moves", "1")[1]
    table = out.split("Moves (for the side to move)")[1].splitlines()
    assert [cell.strip() for cell in table[2].split("┃")[1:-1]] == [
        "cell",
        "value",
        "plies",
        "trap",
        "games",
        "X wins",
        "O wins",
        "draws",
    ]
    rows = {
        cells[0].rstrip(" ★"): cells
        for line in table[4:-1]
        if len(cells := [cell.strip() for cell in line.split("│")[1:-1]]) == 8
    }
    assert sorted(rows) == ["a1", "b1", "b2", "c1", "c2", "d1", "d2", "e1", "e2"]  # cell 1, a2, is taken
    for argv in (["analyze", "--moves", "1"], ["analyze", "--game", "3x3k3-misere", "--moves", "1"]):
        table = run(capsys, *argv)[1].split("Moves (for the side to move)")[1].splitlines()
        rows = [
            cells[0].rstrip(" ★")
            for line in table[4:-1]
            if len(cells := [cell.strip() for cell in line.split("│")[1:-1]]) == 8
        ]
        assert rows == [str(cell) for cell in range(2, 10)]


def _dead_draw_on_five_by_five():
    import random

    from workbench.engine import Position

    geometry = parse_variant("5x5k4")
    rng = random.Random(0)
    while True:
        position, moves = Position.empty(geometry), []
        while not position.is_over and not position.dead_draw:
            cell = rng.choice(position.legal_moves())
            moves.append(cell)
            position = position.play(cell)
        if position.dead_draw:
            return ",".join(map(str, moves)), position


def test_the_search_view_says_a_dead_draw_and_a_finished_game(capsys):
    moves, position = _dead_draw_on_five_by_five()
    code, out, _ = run(capsys, "analyze", "--game", "5x5k4", "--moves", moves, "--budget", "30s")
    assert code == 0 and "status     in_play (dead draw: no line left)" in out
    assert f"to move    {position.turn.value}" in out and "value      draw in " in out
    record = json.loads(run(capsys, "analyze", "--game", "5x5k4", "--moves", moves, "--json", "--budget", "30s")[1])
    assert record["dead_draw"] is True and record["proven"] is True and record["value"] == "draw"
    assert all(move["value"] == "draw" for move in record["moves"])
    finished = "c3,a1,c4,a2,c2,a5,c1"  # X's c-file from c1 to c4: four in a row
    code, out, _ = run(capsys, "analyze", "--game", "5x5k4", "--moves", finished)
    assert code == 0 and "status     x_won" in out and "to move    —" in out and "Moves" not in out


def test_a_dead_draw_is_marked_in_colour_on_a_colour_terminal():
    import io

    from rich.console import Console

    from workbench.cli.text import analysis_view, search_view
    from workbench.engine import Position, analyze
    from workbench.engine.search import search, search_record

    def coloured(renderable) -> str:
        console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", width=120)
        console.print(renderable)
        return console.file.getvalue()

    dead = Position.empty().play_all([5, 1, 9, 3, 2, 8, 4, 6])
    assert "\x1b[33m (dead draw: no line left)" in coloured(analysis_view(analyze(dead)))
    _, big = _dead_draw_on_five_by_five()
    assert "\x1b[33m (dead draw: no line left)" in coloured(search_view(search_record(search(big)), big))


def test_the_search_view_shows_every_fact_mask_and_move_of_the_record():
    import io

    from rich.console import Console

    from workbench.cli.text import search_view
    from workbench.engine import Position, parse_moves
    from workbench.engine.geometry import format_coordinate
    from workbench.engine.search import search, search_record

    geometry = parse_variant("5x5k4")
    position = Position.empty(geometry).play_all(parse_moves("c3,b2,d4,b4,a1,e5,c1,c4", Position.empty(geometry)))
    partial = search_record(search(position, max_nodes=4_000))
    full = search_record(search(position, max_nodes=10**7))
    for record in (partial, full):
        for all_moves in (False, True):
            console = Console(file=io.StringIO(), width=140, color_system=None)
            console.print(search_view(record, position, 140, all_moves=all_moves))
            lines = [
                " ".join(line.replace("│", " ").replace("┃", " ").split())
                for line in console.file.getvalue().splitlines()
            ]
            text = "\n".join(lines)
            assert "X d4 c3 a1 c1 · O e5 b4 c4 b2" in lines[0] and "variant 5x5k4" in text and "to move X" in text
            assert f"searched {record['nodes']:,} nodes" in text and f"orbit {record['symmetry']['orbit_size']}" in text
            complete = all(move["proven"] for move in record["moves"])
            for name, cells in record["masks"].items():
                shown = ", ".join(format_coordinate(cell, geometry) for cell in cells) or "—"
                if name in ("perfect_win", "perfect_lose", "best") and not complete:  # the moves proven so far
                    shown = f"{shown} (so far)" if cells else "none proven yet"
                assert f"{name.replace('_', '-')} {shown}" in lines
            listed = 0
            for move in record["moves"]:
                where = format_coordinate(move["cell"], geometry)
                if move["proven"]:
                    row = f"{where} {move['value']} {move['remoteness']} {move['nodes']:,}"
                else:
                    row = f"{where} unknown — {move['nodes']:,}"
                if all_moves or move["proven"] or move["nodes"]:  # the rest counted in one line
                    listed += 1
                    assert row in lines, row
                else:
                    assert row not in lines, row
            rest = len(record["moves"]) - listed
            assert (f"{rest} more moves not searched: unknown (--all-moves lists every one)" in lines) is bool(rest)
    assert not partial["proven"] and full["proven"] and full["value"] in ("win", "draw", "loss")


def test_the_search_view_s_value_line():
    import io

    from rich.console import Console

    from workbench.cli.text import search_view
    from workbench.engine import Position, parse_moves
    from workbench.engine.search import search, search_record

    geometry = parse_variant("5x5k4")
    position = Position.empty(geometry).play_all(parse_moves("c3,b2", Position.empty(geometry)))

    def shown(record):
        console = Console(file=io.StringIO(), width=140, color_system=None)
        console.print(search_view(record, position))
        return console.file.getvalue()

    partial = search_record(search(position, max_nodes=3_000))
    proven = sum(move["proven"] for move in partial["moves"])
    assert f"value      unknown ({proven} of 23 moves proven)" in shown(partial)
    quick = Position.empty(geometry).play_all(parse_moves("c3,a1,c4,a2,c2,a5", Position.empty(geometry)))
    record = search_record(search(quick))
    console = Console(file=io.StringIO(), width=140, color_system=None)
    console.print(search_view(record, quick))
    assert "value      win in 1" in console.file.getvalue()


@pytest.mark.parametrize(
    "text, ok",
    [
        ("1", True),
        ("999999999999", True),
        ("0", False),
        ("1000000000000", False),
        ("١٢", False),
        ("2.5", False),
        ("", False),
    ],
)
def test_nodes_takes_a_positive_whole_number_of_at_most_twelve_digits(capsys, text, ok):
    code, out, err = run(
        capsys, "analyze", "--game", "5x5k4", "--moves", "c3,a1,c4,a2,c2,a5", "--nodes", text, "--json"
    )
    if ok:
        assert code == 0 and json.loads(out)["moves"]
    else:  # a number too large is said to be one (it was "not a positive whole number")
        too_large = text.isascii() and text.isdigit() and int(text) > 0
        said = "is too large (at most 12 digits)" if too_large else "is not a positive whole number"
        assert (code, out) == (2, "") and err == f"workbench: error: argument --nodes: {text[:20]!r} {said}\n"


def test_the_search_reports_its_progress_on_a_terminal_and_keeps_to_its_budgets(capsys, monkeypatch):
    moves = "c3,b2,d4,b4,a1,e5,c1,c4"
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    code, out, err = run(capsys, "analyze", "--game", "5x5k4", "--moves", moves, "--budget", "60s")
    assert code == 0 and err.startswith("\rsearching 5x5k4: 1/17 moves proven, ") and err.endswith(" nodes\n")
    assert err.count("\r") == 17 and "\rsearching 5x5k4: 17/17 moves proven, " in err and err.count("\n") == 1
    code, out, err = run(capsys, "analyze", "--game", "5x5k4", "--moves", moves, "--json")
    assert code == 0 and err == ""  # JSON is for programs: no progress line
    record = json.loads(run(capsys, "analyze", "--game", "5x5k4", "--moves", moves, "--json", "--nodes", "700")[1])
    assert record["nodes"] <= 700 and not record["proven"]
    # a time budget alone stops a search that its nodes would let run for minutes
    record = json.loads(
        run(
            capsys,
            "analyze",
            "--game",
            "7x7k5",
            "--moves",
            "d4",
            "--json",
            "--budget",
            "300ms",
            "--nodes",
            "999999999999",
        )[1]
    )
    assert not record["proven"] and record["nodes"] < 5_000_000


class FlushRecordingTerminal(io.StringIO):
    """A terminal's stderr that keeps what it had been given at each flush."""

    def __init__(self) -> None:
        super().__init__()
        self.seen_at_flush: list[str] = []

    def isatty(self) -> bool:
        return True

    def flush(self) -> None:
        self.seen_at_flush.append(self.getvalue())


def test_each_progress_line_reaches_the_terminal_while_the_search_runs(monkeypatch):
    """The line has no newline, so a line-buffered stderr would keep it until the search ended: each one
    must be flushed as it is written."""
    terminal = FlushRecordingTerminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["analyze", "--game", "5x5k4", "--moves", "c3,b2,d4,b4,a1,e5,c1,c4", "--json"]) == 0
    assert terminal.getvalue() == ""  # JSON: no progress line
    assert main(["analyze", "--game", "5x5k4", "--moves", "c3,b2,d4,b4,a1,e5,c1,c4"]) == 0
    lines = terminal.getvalue().split("\r")[1:]
    assert len(lines) == 17
    flushed = {seen.count("\r") for seen in terminal.seen_at_flush}
    assert set(range(1, 18)) <= flushed  # after each of the 17 lines, the terminal had it


def test_the_search_view_draws_the_board_with_its_winning_line_in_colour():
    import io

    from rich.console import Console

    from workbench.cli.text import search_view
    from workbench.engine import Position, parse_moves
    from workbench.engine.search import search, search_record

    geometry = parse_variant("5x5k4")
    won = Position.empty(geometry).play_all(parse_moves("c3,a1,c4,a2,c2,a5,c1", Position.empty(geometry)))
    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", width=120)
    console.print(search_view(search_record(search(won)), won))
    shown = console.file.getvalue()
    assert shown.count("\x1b[1;7;36m X ") == 4  # the c-file's four X, reversed: the winning line
    assert "\x1b[1mX c4 c3 c2 c1 · O a5 a2 a1\x1b[0m" in shown  # the position's marks, bold
    position = Position.empty(geometry).play_all(parse_moves("c3,b2", Position.empty(geometry)))
    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", width=120)
    console.print(search_view(search_record(search(position, max_nodes=500)), position))
    assert "\x1b[2munknown (" in console.file.getvalue()  # dim: not a value


def test_sixteen_cells_is_the_last_board_streamed_whole_and_read_for_misere_first_moves(capsys):
    """2x8k2 (16 cells, solved in about a second) is in: every position, one JSON document a line, and
    the misère first moves read from its exact values."""
    code, out, err = run(capsys, "analyze", "--all", "--game", "2x8k2", "--json")
    lines = out.splitlines()
    assert (code, err) == (0, "") and len(lines) == 189_437
    first, second = json.loads(lines[0]), json.loads(lines[1])
    assert first == {
        "position": "......../........",
        "to_move": "X",
        "status": "in_play",
        "value": "win",
        "remoteness": 3,
    }
    assert second["position"] == "X......./........" and second["to_move"] == "O"
    code, out, _ = run(capsys, "first-moves", "--game", "2x8k2-misere", "--json")
    assert code == 0 and len(json.loads(out)["table"]) == 2


@pytest.mark.parametrize(
    "name, moves, nodes", [("partial", "c3,b2,d4,b4,a1,e5", 20_000), ("won", "c3,c4,b2,d4,d2", 3_000)]
)
def test_a_searched_position_in_a_colour_terminal_looks_as_recorded(name, moves, nodes):
    """What `workbench analyze --game 5x5k4` shows, colours and layout included, against a recorded screen
    (tests/data/analyze-5x5k4-*.ansi, checked by eye when recorded: X must take the b-file's gap or lose in
    4, three moves unproven; O's fork at b4 wins in 3). The search is capped by nodes alone, so it is
    the same search on every machine."""
    from pathlib import Path

    from rich.console import Console

    from workbench.cli.text import search_view
    from workbench.engine import Position, parse_moves
    from workbench.engine.search import search, search_record

    geometry = parse_variant("5x5k4")
    position = Position.empty(geometry).play_all(parse_moves(moves, Position.empty(geometry)))
    console = Console(width=100, color_system="truecolor", force_terminal=True, record=True, file=open(os.devnull, "w"))
    console.print(search_view(search_record(search(position, max_nodes=nodes)), position, 100))
    recorded = (Path(__file__).parent / "data" / f"analyze-5x5k4-{name}.ansi").read_text()
    assert console.export_text(styles=True) == recorded


@pytest.mark.parametrize(
    "text, seconds",
    [
        ("5s", 5.0),
        ("5", 5.0),
        ("500ms", 0.5),
        ("2m", 120.0),
        (" 1.5 s ", 1.5),
        ("86400", 86_400.0),
        ("1440m", 86_400.0),
        ("0.001", 0.001),
    ],
)
def test_a_budget_is_read_in_seconds_milliseconds_or_minutes(text, seconds):
    from workbench.cli import parse_budget

    assert parse_budget(text) == pytest.approx(seconds)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("86401s", "a time above zero and at most a day"),
        ("1441m", "a time above zero and at most a day"),
        ("0s", "a time above zero and at most a day"),
        ("5h", "write a time such as 5s, 500ms or 2m"),
        ("999999m" + " " * 20, "a time above zero and at most a day"),  # read, too long, named by its first 20
        ("a budget far too long to show", "write a time such as 5s, 500ms or 2m"),
    ],
)
def test_a_budget_out_of_range_or_unreadable_is_one_line_naming_it(capsys, text, reason):
    code, out, err = run(capsys, "analyze", "--game", "5x5k4", "--moves", "c3", "--budget", text)
    shown = repr(text) if len(text) <= 20 else f"{text[:20]!r}… ({len(text)} characters)"
    assert (code, out) == (2, "") and err == f"workbench: error: --budget {shown}: {reason}\n"


def test_a_position_is_read_on_the_board_of_its_game(capsys):
    code, out, _ = run(capsys, "analyze", "--game", "3x4k3", "X.../..../....", "--json")
    assert code == 0 and json.loads(out)["position"] == "X.../..../...." and json.loads(out)["to_move"] == "O"
    # no position: the game's empty board (issue 48, finding 15: it was an error)
    code, out, _ = run(capsys, "analyze", "--game", "3x4k3", "--json")
    assert code == 0 and json.loads(out)["position"] == "..../..../...." and json.loads(out)["to_move"] == "X"


def test_solve_says_the_seconds_it_took_to_the_millisecond(capsys):
    data = json.loads(run(capsys, "solve", "--game", "2x4k3", "--json")[1])
    assert isinstance(data["seconds"], float) and data["seconds"] == round(data["seconds"], 3)


def test_the_solve_progress_line_is_one_bar_of_thirty_for_the_whole_solve_with_its_stage(monkeypatch):
    """One bar, filled once across the four stages (it was four bars, each from empty), with the stage
    (n of 4) and the share done; the lines are padded so that a shorter one covers a longer."""
    terminal = FlushRecordingTerminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("WORKBENCH_NO_TABLES_CACHE", "1")
    assert main(["solve", "--game", "2x6k3"]) == 0
    lines = terminal.getvalue().split("\r")[1:]
    assert lines and lines[-1].endswith("\n")
    filled_before, shares = 0, []
    for line in lines:
        shape = re.fullmatch(
            r"solving 2x6k3 \[(#*)(\.*)\] stage (\d) of 4, ([a-z, ]+) · (\d+)%( · about \d+ s left)? *\n?", line
        )
        assert shape, line
        filled, empty, number, stage, share, _ = shape.groups()
        assert len(filled) + len(empty) == 30 and len(filled) >= filled_before and len(line.rstrip("\n")) == 100
        filled_before = len(filled)
        shares.append(int(share))
    assert shares == sorted(shares) and shares[-1] == 100 and filled_before == 30
    assert {re.search(r"stage \d of 4, ([a-z, ]+) ·", line).group(1) for line in lines} == {
        "enumerating positions",
        "counting games",
        "values, back from the last ply",
        "symmetry classes",
    }
    flushed = {seen.count("\r") for seen in terminal.seen_at_flush}
    assert set(range(1, len(lines) + 1)) <= flushed  # each line reached the terminal as it was written


def test_analyze_all_gives_the_full_record_up_to_twelve_cells(capsys):
    # beyond twelve cells, the value and remoteness only:
    # test_analyze_all_streams_every_position_of_a_strongly_solved_board
    code, out, _ = run(capsys, "analyze", "--all", "--game", "3x4k3", "--json")
    first = json.loads(out.splitlines()[0])
    assert code == 0 and len(out.splitlines()) == 111_973 and {"masks", "moves", "symmetry"} <= first.keys()


def test_a_searched_position_with_a_win_proven_is_said_won_in_at_most_its_plies(capsys):
    """A new user's review: "not proven yet" beside a move proven to win in 3: the position is won, in 3 at most."""
    argv = ("analyze", "--game", "5x5k4", "--moves", "c3,a1,b3,a2", "--nodes", "20000", "--budget", "60s")
    code, out, _ = run(capsys, *argv)
    record = json.loads(run(capsys, *argv, "--json")[1])
    assert code == 0 and record["value"] is None  # the position itself not proven: some moves are
    proven = sum(move["proven"] for move in record["moves"])
    fastest = min(m["remoteness"] for m in record["moves"] if m["value"] == "win")
    assert f"value      win in at most {fastest} ({proven} of 21 moves proven)" in out
