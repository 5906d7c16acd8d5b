"""``workbench bench --game``: the family's figures, each beside a peer in the same run.

- The strong solve of a board of at most 16 cells, cold, in a fresh process: seconds and peak memory;
  the size of the kept solution; a whole ``workbench analyze`` with the solution kept (warm start).
- Tier 2 against OpenSpiel's ``alpha_beta_search`` on its C++ ``mnk`` game: the same fourteen positions of
  5×5, four in a row, ten with 8–12 marks and four with 13–15, both as whole processes.
- 3×3: the whole ``workbench analyze --all --json`` against OpenSpiel's C++ ``tic_tac_toe`` game, every state
  valued by alpha-beta from each and by value iteration over them all, the faster being the peer.

OpenSpiel is not a dependency: it is looked for in this Python (``pip install open_spiel``) or in the
one ``WORKBENCH_OPENSPIEL_PYTHON`` names; without it the peer's figures are reported missing.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from typing import Any

from ..engine import Position, format_moves
from ..engine.geometry import Geometry, parse_variant

PEER_TIMEOUT_S = 120.0
"""A peer's run on one position is stopped after this long (and counted at this time, as at least)."""

_SOLVE = """
import json, resource, time
from workbench.engine.geometry import parse_variant
from workbench.engine.strong import strong_solve
started = time.perf_counter()
solution = strong_solve(parse_variant({variant!r}))
seconds = time.perf_counter() - started
print(json.dumps({{"seconds": seconds, "positions": solution.positions,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

_OPENSPIEL_POSITION = """
import sys, time
import pyspiel
from open_spiel.python.algorithms import minimax
game = pyspiel.load_game("mnk", {{"m": {cols}, "n": {rows}, "k": {k}}})
state = game.new_initial_state()
for action in {actions}:
    state.apply_action(action)
value, action = minimax.alpha_beta_search(game, state=state, maximum_depth=1000)
print(value, action)
"""

_OPENSPIEL_SWEEPS = {
    "alpha-beta on each state": """
import pyspiel
from open_spiel.python.algorithms import get_all_states, minimax
game = pyspiel.load_game("tic_tac_toe")
states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=False)
for state in states.values():
    if not state.is_terminal():
        minimax.alpha_beta_search(game, state=state.clone())
print(len(states))
""",
    "value iteration over every state": """
import pyspiel
from open_spiel.python.algorithms import value_iteration
game = pyspiel.load_game("tic_tac_toe")
print(len(value_iteration.value_iteration(game, depth_limit=-1, threshold=0.0)))
""",
}
"""OpenSpiel's two ways to every 3×3 state's value, both on its C++ ``tic_tac_toe`` game (the algorithms are its
Python ones: the 2.0 wheels expose no C++ search): alpha-beta from each live state, and value iteration over the
whole state set (which needs cvxpy, imported by its module: reported missing without it). The faster is the peer."""

_OPENSPIEL_VERSION = "import importlib.metadata as m; print(m.version('open_spiel'))"


def openspiel_python() -> str | None:
    """A Python that imports pyspiel: this one, or ``$WORKBENCH_OPENSPIEL_PYTHON``; None when neither does."""
    for candidate in (sys.executable, os.environ.get("WORKBENCH_OPENSPIEL_PYTHON")):
        if (
            candidate
            and subprocess.run([candidate, "-c", "import pyspiel"], capture_output=True, check=False).returncode == 0
        ):
            return candidate
    return None


LATE_POSITION = (15, 14, 19, 12, 23, 13, 16, 21, 6, 20, 18, 22, 9)
"""The 5×5k4 position of 13 marks the issue of this bench's late positions measured (issue 50)."""


def tier2_positions(
    geometry: Geometry | None = None, count: int = 10, seed: int = 12, marks: tuple[int, int] = (8, 12)
) -> list[tuple[int, ...]]:
    """``count`` move lists reaching positions in play with ``marks`` marks (from, to; 8–12 by default) on
    5×5k4 by default, drawn from ``seed``: the same on every run."""
    geometry = geometry or parse_variant("5x5k4")
    rng = random.Random(seed)
    found: list[tuple[int, ...]] = []
    while len(found) < count:
        position, moves = Position.empty(geometry), []
        for _ in range(rng.randint(*marks)):
            if position.is_over:
                break
            cell = rng.choice(position.legal_moves())
            moves.append(cell)
            position = position.play(cell)
        if not position.is_over and len(moves) >= marks[0]:
            found.append(tuple(moves))
    return found


def tier2_set(geometry: Geometry | None = None) -> list[tuple[int, ...]]:
    """The bench's positions: ten of 8–12 marks and four of 13–15 (:data:`LATE_POSITION` and three drawn), where a
    search meets more forced lines and the peer fewer moves."""
    return [*tier2_positions(geometry), LATE_POSITION, *tier2_positions(geometry, count=3, seed=13, marks=(13, 15))]


def _whole(
    argv: list[str], env: dict[str, str] | None = None, timeout: float = PEER_TIMEOUT_S
) -> tuple[float, str | None]:
    """Seconds a whole process took, and its output (None when it timed out or failed)."""
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return timeout, None
    return time.perf_counter() - started, done.stdout if done.returncode == 0 else None


def strong_bench(variant: str = "4x4k4") -> dict:
    """The cold solve in a fresh process, the kept file's size, and a warm whole ``analyze``."""
    _, output = _whole([sys.executable, "-c", _SOLVE.format(variant=variant)], timeout=600)
    solve = json.loads(output) if output else None
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, XDG_CACHE_HOME=folder)
        env.pop("WORKBENCH_NO_TABLES_CACHE", None)
        _whole([sys.executable, "-m", "workbench", "solve", "--game", variant, "--json"], env, timeout=600)
        kept = [os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(folder) for name in names]
        warm = min(
            _whole([sys.executable, "-m", "workbench", "analyze", "--game", variant, "--moves", "6", "--json"], env)[0]
            for _ in range(3)
        )
    return {
        "variant": variant,
        "solve": solve,
        "cache_mb": sum(kept) / 1e6,
        "warm_analyze_s": warm,
        "targets": {"solve_s": 10, "cache_mb": 64, "warm_analyze_s": 0.5, "peak_mb": 2048},
    }


def tier2_bench(peer: str | None, budget_s: float = 300.0) -> dict:
    """Each position as two whole processes: ``workbench analyze`` (every move) and OpenSpiel (one value)."""
    geometry = parse_variant("5x5k4")
    rows: list[dict[str, Any]] = []
    for moves in tier2_set(geometry):
        text = format_moves(moves)
        ours_s, output = _whole(
            [
                sys.executable,
                "-m",
                "workbench",
                "analyze",
                "--game",
                str(geometry),
                "--moves",
                text,
                "--json",
                "--budget",
                f"{budget_s}s",
            ],
            timeout=budget_s + 60,
        )
        record = json.loads(output) if output else None
        row = {
            "moves": text,
            "ours_s": ours_s,
            "proven_moves": sum(m["proven"] for m in record["moves"]) if record else 0,
            "legal_moves": len(record["moves"]) if record else None,
            "value": record["value"] if record else None,
        }
        if peer is not None:
            script = _OPENSPIEL_POSITION.format(
                rows=geometry.rows, cols=geometry.cols, k=geometry.k, actions=[m - 1 for m in moves]
            )
            peer_s, peer_output = _whole([peer, "-c", script])
            row |= {"openspiel_s": peer_s, "openspiel_finished": peer_output is not None}
        rows.append(row)
    ours = sum(row["ours_s"] for row in rows)
    result = {"positions": rows, "ours_s": ours, "budget_s": budget_s, "target_ratio": 0.08}
    if peer is not None:
        theirs = sum(row["openspiel_s"] for row in rows)
        # the ratio over the positions the peer finished: a stopped run's time is a bound, not its time
        finished = [row for row in rows if row["openspiel_finished"]]
        result |= {
            "openspiel_s": theirs,
            "finished": len(finished),
            "ratio": sum(row["ours_s"] for row in finished) / sum(row["openspiel_s"] for row in finished)
            if finished
            else None,
        }
    return result


def sweep_bench(peer: str | None) -> dict:
    """3×3: every position analysed, as whole commands, beside each of OpenSpiel's ways that runs here; the
    ratio is against the fastest."""
    ours = min(_whole([sys.executable, "-m", "workbench", "analyze", "--all", "--json"])[0] for _ in range(3))
    result: dict[str, Any] = {"ours_s": ours, "target_ratio": 0.15, "peers": {}}
    if peer is not None:
        for name, script in _OPENSPIEL_SWEEPS.items():
            theirs, output = _whole([peer, "-c", script], timeout=600)
            result["peers"][name] = theirs if output is not None else None
        ran = {name: seconds for name, seconds in result["peers"].items() if seconds is not None}
        if ran:
            fastest = min(ran, key=ran.__getitem__)
            result |= {"fastest_peer": fastest, "openspiel_s": ran[fastest], "ratio": ours / ran[fastest]}
    return result


def peer_version(peer: str) -> str | None:
    """The OpenSpiel release ``peer`` (a Python) imports, or None where it cannot say."""
    _, output = _whole([peer, "-c", _OPENSPIEL_VERSION])
    return output.strip() if output else None


def run_family_bench(variant: str = "4x4k4", *, quick: bool = False) -> dict:
    """Every figure above; ``quick`` gives each tier-2 position a minute instead of five."""
    peer = openspiel_python()
    report = {
        "openspiel": peer,
        "openspiel_version": peer_version(peer) if peer else None,
        "strong": strong_bench(variant),
    }
    report["tier2"] = tier2_bench(peer, budget_s=60.0 if quick else 300.0)
    report["sweep_3x3"] = sweep_bench(peer)
    return report


def format_family_report(report: dict) -> list[str]:
    strong, lines = report["strong"], []
    solve = strong["solve"]
    if solve:
        lines.append(
            f"strong solve {strong['variant']}, cold, fresh process  {solve['seconds']:6.2f} s (target ≤ 10 s), "
            f"{solve['positions']:,} positions, peak {solve['peak_mb']:.0f} MB (target < 2048 MB)"
        )
    lines.append(
        f"kept solution {strong['cache_mb']:.1f} MB (target ≤ 64 MB); warm `analyze --game {strong['variant']}`, "
        f"whole process {strong['warm_analyze_s'] * 1000:.0f} ms (target ≤ 500 ms)"
    )
    tier2 = report["tier2"]
    peer = report["openspiel"] is not None
    named = f"OpenSpiel {report.get('openspiel_version') or '(release unknown)'}"
    lines.append(
        f"tier 2, 5x5k4, {len(tier2['positions'])} positions (8-15 marks), whole processes, {tier2['budget_s']:.0f} s "
        "budget each"
        + (f"; peer: {named}'s C++ `mnk` game, its Python alpha_beta_search (one value each):" if peer else ":")
    )
    for row in tier2["positions"]:
        theirs = (
            f"OpenSpiel {row['openspiel_s']:7.2f} s{'' if row['openspiel_finished'] else ' (stopped)'}" if peer else ""
        )
        lines.append(
            f"  {row['moves']:<44} ours {row['ours_s']:6.2f} s, {row['proven_moves']}/{row['legal_moves']} moves "
            f"proven  {theirs}"
        )
    if peer and tier2["ratio"] is not None:
        lines.append(
            f"  sum: ours {tier2['ours_s']:.2f} s, OpenSpiel {tier2['openspiel_s']:.2f} s; over the "
            f"{tier2['finished']} positions it finished: {tier2['ratio']:.3f}× (target ≤ {tier2['target_ratio']}×)"
        )
    elif peer:
        lines.append(f"  sum: ours {tier2['ours_s']:.2f} s; OpenSpiel finished none of them")
    else:
        lines.append(
            f"  sum: ours {tier2['ours_s']:.2f} s; OpenSpiel not installed (pip install open_spiel, or "
            "WORKBENCH_OPENSPIEL_PYTHON)"
        )
    sweep = report["sweep_3x3"]
    line = f"3x3 every position, whole commands: `analyze --all --json` {sweep['ours_s']:.2f} s"
    if "ratio" in sweep:
        peers = ", ".join(
            f"{name} {'not run (missing a module)' if seconds is None else f'{seconds:.2f} s'}"
            for name, seconds in sweep["peers"].items()
        )
        line += (
            f"; {named}'s C++ `tic_tac_toe`: {peers}; against the fastest ({sweep['fastest_peer']}) "
            f"{sweep['ratio']:.3f}× (target ≤ {sweep['target_ratio']}×)"
        )
    elif peer:
        line += f"; none of {named}'s sweeps ran"
    else:
        line += " (OpenSpiel not installed)"
    lines.append(line)
    return lines
