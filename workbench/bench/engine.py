"""``workbench bench``: the engine's figures beside the seeds' direct methods, in one run.

Each timing is the best of a few repeats (the least disturbed run), every
engine timing from cold caches. The full analysis runs in a fresh Python
process, as a user's first ``workbench analyze --all`` would.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial

from ..engine import TIC_TAC_TOE, analyze, analyze_all, clear_caches, first_move_table, ledger_counts, parse_position
from ..engine.solver import solve
from . import baselines

_FRESH_PROCESS = """
import json, time
start = time.perf_counter()
from workbench.engine import analyze_all
imported = time.perf_counter()
analyses = analyze_all()
done = time.perf_counter()
print(json.dumps({"import": imported - start, "analysis": done - imported, "positions": len(analyses)}))
"""


def best_of(repeats: int, function: Callable[[], object], *, cold: bool = True) -> float:
    """Smallest wall time of ``repeats`` calls, clearing engine caches before each when ``cold``."""
    best = float("inf")
    for _ in range(repeats):
        if cold:
            clear_caches()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def fresh_process_analysis(repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        output = subprocess.run(
            [sys.executable, "-c", _FRESH_PROCESS], capture_output=True, text=True, check=True
        ).stdout
        record = json.loads(output)
        record["process"] = time.perf_counter() - started
        runs.append(record)
    return min(runs, key=lambda run: run["analysis"])


def run_engine_bench(*, quick: bool = False) -> dict:
    """Measure everything issue #2 sets a target for; returns plain data."""
    repeats = 1 if quick else 3
    fresh = fresh_process_analysis(repeats)

    seed_table = best_of(repeats, baselines.seed_first_move_table, cold=False)
    engine_table = best_of(repeats * 3, lambda: first_move_table(TIC_TAC_TOE))

    brute = best_of(1, baselines.brute_force_ledger, cold=False)
    engine_ledger = best_of(repeats * 3, lambda: ledger_counts(TIC_TAC_TOE))

    minimax = best_of(1, baselines.plain_minimax, cold=False)
    engine_solve = best_of(repeats * 3, lambda: solve(TIC_TAC_TOE))

    clear_caches()
    analyze_all()  # warm the tables
    samples = [parse_position(text) for text in (".../.../...", "X../.O./...", "XO./.X./..O", "XOX/.O./...")]
    rounds = 200
    start = time.perf_counter()
    for _ in range(rounds):
        for position in samples:
            analyze(position)
    warm_single = (time.perf_counter() - start) / (rounds * len(samples))

    explained = explain_times(quick=quick)

    return {
        "explain": explained,
        "repeats": repeats,  # each figure is the best of this many runs (three times as many for the quick ones)
        "full_analysis_fresh_process": {
            "positions": fresh["positions"],
            "analysis_s": fresh["analysis"],
            "import_s": fresh["import"],
            "process_s": fresh["process"],
            "target_s": 0.25,
        },
        "first_move_table": {
            "engine_s": engine_table,
            "seed001_port_s": seed_table,
            "speedup": seed_table / engine_table,
            "target_speedup": 50,
        },
        "ledger": {
            "engine_s": engine_ledger,
            "brute_force_s": brute,
            "speedup": brute / engine_ledger,
            "target_speedup": 300,
        },
        "solve_from_empty": {"engine_s": engine_solve, "plain_minimax_s": minimax, "speedup": minimax / engine_solve},
        "single_analysis_warm": {"seconds": warm_single, "target_s": 0.001},
    }


def explain_times(*, quick: bool = False) -> dict:
    """``explain`` on every move of random games, once the values are in memory (tables, or a strong solution
    read back from the cache): the slowest and the mean per move, per board. 4x4k4 is measured where its solution
    is kept (``workbench solve --game 4x4k4``), and said to be missing otherwise, never solved here."""
    import random

    from ..engine import Geometry, Position
    from ..engine.analysis import answers_of
    from ..engine.answers import Answers, SolutionAnswers
    from ..engine.explain import explain
    from ..kept.tables import load_strong

    boards: dict[str, dict] = {}
    # --quick: the classic board alone (the others' tables take seconds to build) and the 4×4 where it is kept
    wanted = (
        (TIC_TAC_TOE, Geometry(4, 4, 4))
        if quick
        else (TIC_TAC_TOE, Geometry(3, 4, 3), Geometry(misere=True), Geometry(4, 4, 4))
    )
    for geometry in wanted:
        answers: Answers
        if geometry.size > 12:
            solution = load_strong(geometry)
            if solution is None:
                boards[str(geometry)] = {"missing": "no kept solution: workbench solve --game " + str(geometry)}
                continue
            answers = SolutionAnswers(solution)
        else:
            answers = answers_of(geometry)
        rng = random.Random(41)
        times = []
        for _ in range(5 if quick else 40):
            position = Position.empty(geometry)
            while not position.is_over:
                cell = rng.choice(position.legal_moves())
                start = time.perf_counter()
                explain(position, cell, answers)
                times.append(time.perf_counter() - start)
                position = position.play(cell)
        boards[str(geometry)] = {"moves": len(times), "max_s": max(times), "mean_s": sum(times) / len(times)}
    return {"boards": boards, "target_s": 0.05}


def run_library_bench(*, quick: bool = False) -> dict:
    """Write every game into a temporary library, then time "games through this position"."""
    import tempfile
    from pathlib import Path

    from ..library import Library
    from ..library.games import games_through, write_games

    with tempfile.TemporaryDirectory() as folder:
        library = Library.open(Path(folder) / "bench.sqlite3")
        try:
            start = time.perf_counter()
            write_games(library)
            written = time.perf_counter() - start
            probes = [
                parse_position(text)
                for text in (
                    ".../.../...",
                    ".../.X./...",
                    "X../.../...",
                    "X../.O./...",
                    "XO./.X./...",
                    "XO./XX./..O",
                    "XO./.XX/O.O",
                    "XOX/.XO/.XO",
                    "XOX/OXX/.OO",
                    "XOX/XOO/OXX",
                )
            ]
            slowest, probe_repeats = 0.0, 3 if quick else 20
            for position in probes:
                best = min(_timed(partial(games_through, library, position)) for _ in range(probe_repeats))
                slowest = max(slowest, best)
        finally:
            library.close()
    return {
        "library_games": {
            "write_s": written,
            "target_write_s": 3.0,
            "through_query_s": slowest,
            "probe_repeats": probe_repeats,
            "target_query_s": 0.005,
            "line": f"library: write all games        {written:8.2f} s  (target ≤ 3 s)   games through a position, "
            "slowest probe "
            f"{slowest * 1000:.2f} ms (target ≤ 5 ms)",
        }
    }


def _timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def format_report(report: dict) -> str:
    """The report as aligned lines of text."""
    full = report["full_analysis_fresh_process"]
    lines = [
        f"full analysis, fresh process   {full['analysis_s'] * 1000:8.1f} ms for {full['positions']} positions "
        f"(target ≤ {full['target_s'] * 1000:.0f} ms; import {full['import_s'] * 1000:.1f} ms, whole process "
        f"{full['process_s'] * 1000:.0f} ms)",
    ]
    for name, label, baseline, baseline_key in (
        ("first_move_table", "first-move table", "seed 001 port", "seed001_port_s"),
        ("ledger", "ledger of 9! fill orders", "brute force", "brute_force_s"),
        ("solve_from_empty", "exact solve from empty", "plain minimax", "plain_minimax_s"),
    ):
        entry = report[name]
        target = f" (target ≥ {entry['target_speedup']}×)" if "target_speedup" in entry else ""
        lines.append(
            f"{label:<31}{entry['engine_s'] * 1000:8.2f} ms   {baseline} {entry[baseline_key] * 1000:9.1f} ms   "
            f"{entry['speedup']:7.0f}×{target}"
        )
    single = report["single_analysis_warm"]
    lines.append(
        f"one position, warm tables      {single['seconds'] * 1e6:8.1f} µs (target ≤ {single['target_s'] * 1e6:.0f} µs)"
    )
    explained = report.get("explain") or {}
    for board, entry in explained.get("boards", {}).items():
        if "missing" in entry:
            lines.append(f"explain a move, {board:<14} {entry['missing']}")
        else:
            lines.append(
                f"explain a move, {board:<14} {entry['max_s'] * 1000:8.2f} ms at most, {entry['mean_s'] * 1000:.2f} ms "
                "mean "
                f"over {entry['moves']} moves (target ≤ {explained['target_s'] * 1000:.0f} ms)"
            )
    lines.extend(report.get("startup", {}).get("lines", []))
    for name, entry in report.items():
        if name.startswith(("tui_", "library_")):
            lines.append(entry["line"])
    return "\n".join(lines)
