"""``workbench bench --game``: the family's figures, each beside a peer in the same run.

- The strong solve of a board of at most 16 cells, cold, in a fresh process: seconds and peak memory;
  the size of the kept solution; a whole ``workbench analyze`` with the solution kept (warm start).
- Tier 2 against OpenSpiel's ``alpha_beta_search`` on its ``mnk`` game: the same ten positions of
  5×5, four in a row, with 8–12 marks, both as whole processes.
- 3×3: the whole ``workbench analyze --all --json`` against OpenSpiel enumerating every state and
  searching each with alpha-beta.

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

_OPENSPIEL_SWEEP = """
import pyspiel
from open_spiel.python.algorithms import get_all_states, minimax
game = pyspiel.load_game("tic_tac_toe")
states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=False)
for state in states.values():
    if not state.is_terminal():
        minimax.alpha_beta_search(game, state=state.clone())
print(len(states))
"""


def openspiel_python() -> str | None:
    """A Python that imports pyspiel: this one, or ``$WORKBENCH_OPENSPIEL_PYTHON``; None when neither does."""
    for candidate in (sys.executable, os.environ.get("WORKBENCH_OPENSPIEL_PYTHON")):
        if (
            candidate
            and subprocess.run([candidate, "-c", "import pyspiel"], capture_output=True, check=False).returncode == 0
        ):
            return candidate
    return None


def tier2_positions(geometry: Geometry | None = None, count: int = 10, seed: int = 12) -> list[tuple[int, ...]]:
    """``count`` move lists reaching positions in play with 8–12 marks (5×5k4 by default), the same on every run."""
    geometry = geometry or parse_variant("5x5k4")
    rng = random.Random(seed)
    found: list[tuple[int, ...]] = []
    while len(found) < count:
        position, moves = Position.empty(geometry), []
        for _ in range(rng.randint(8, 12)):
            if position.is_over:
                break
            cell = rng.choice(position.legal_moves())
            moves.append(cell)
            position = position.play(cell)
        if not position.is_over:
            found.append(tuple(moves))
    return found


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
    for moves in tier2_positions(geometry):
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
    result = {"positions": rows, "ours_s": ours, "budget_s": budget_s, "target_speedup": 10}
    if peer is not None:
        theirs = sum(row["openspiel_s"] for row in rows)
        result |= {"openspiel_s": theirs, "speedup": theirs / ours}
    return result


def sweep_bench(peer: str | None) -> dict:
    """3×3: every position analysed, as whole commands."""
    ours = min(_whole([sys.executable, "-m", "workbench", "analyze", "--all", "--json"])[0] for _ in range(3))
    result = {"ours_s": ours, "target_ratio": 0.25}
    if peer is not None:
        theirs, _ = _whole([peer, "-c", _OPENSPIEL_SWEEP], timeout=600)
        result |= {"openspiel_s": theirs, "ratio": ours / theirs}
    return result


def run_family_bench(variant: str = "4x4k4", *, quick: bool = False) -> dict:
    """Every figure above; ``quick`` gives each tier-2 position a minute instead of five."""
    peer = openspiel_python()
    report = {"openspiel": peer, "strong": strong_bench(variant)}
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
    lines.append(
        f"tier 2, 5x5k4, {len(tier2['positions'])} positions of 8-12 marks, whole processes, {tier2['budget_s']:.0f} s "
        "budget each:"
    )
    for row in tier2["positions"]:
        theirs = (
            f"OpenSpiel {row['openspiel_s']:7.2f} s{'' if row['openspiel_finished'] else ' (stopped)'}" if peer else ""
        )
        lines.append(
            f"  {row['moves']:<32} ours {row['ours_s']:6.2f} s, {row['proven_moves']}/{row['legal_moves']} moves "
            f"proven  {theirs}"
        )
    if peer:
        lines.append(
            f"  sum: ours {tier2['ours_s']:.2f} s, OpenSpiel {tier2['openspiel_s']:.2f} s (one value each): "
            f"{tier2['speedup']:.1f}× (target ≥ 10×)"
        )
    else:
        lines.append(
            f"  sum: ours {tier2['ours_s']:.2f} s; OpenSpiel not installed (pip install open_spiel, or "
            "WORKBENCH_OPENSPIEL_PYTHON)"
        )
    sweep = report["sweep_3x3"]
    if peer:
        lines.append(
            f"3x3 every position, whole commands: `analyze --all --json` {sweep['ours_s']:.2f} s, OpenSpiel "
            f"{sweep['openspiel_s']:.2f} s: {sweep['ratio']:.2f}× (target ≤ 0.25×)"
        )
    else:
        lines.append(f"3x3 every position: `analyze --all --json` {sweep['ours_s']:.2f} s (OpenSpiel not installed)")
    return lines
