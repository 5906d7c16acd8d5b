"""`workbench bench --game 4x5k4`: a board of 17–20 cells solved by the ranked sweep and kept, as a user meets it.

Each figure is a whole fresh process on an empty cache folder: the solve (its seconds and its peak memory, against
the goals in ``TARGETS``), the kept store's size on disk, and then, in another fresh
process, the analysis of positions of seeded random games read from the kept solution (each chunk read from
disk the first time: what the app meets when it opens the board), against its goal; and one whole
``workbench analyze`` command from it.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile

from .family import _whole

TARGETS = {"solve_s": 15 * 60, "peak_mb": 12 * 1024, "analysis_ms": 50}

_SOLVE = """
import json, resource, time
from workbench.engine.geometry import parse_variant
from workbench.kept.solving import solve_and_keep
started = time.perf_counter()
solution, where, seconds = solve_and_keep(parse_variant({variant!r}))
print(json.dumps({{"seconds": time.perf_counter() - started, "positions": solution.positions, "source": where,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

_ANALYSES = """
import json, random, time
from workbench.engine import Position
from workbench.engine.geometry import parse_variant
from workbench.kept import open_kept
geometry = parse_variant({variant!r})
started = time.perf_counter()
answers = open_kept(geometry)
assert answers is not None
opened = time.perf_counter() - started
rng, analyses, lines = random.Random({seed}), [], []
for _ in range({games}):
    position = Position(geometry=geometry)
    while not position.is_over:
        began = time.perf_counter()
        answers.analyze(position)
        analyses.append(time.perf_counter() - began)
        began = time.perf_counter()
        answers.principal_variation(position)
        lines.append(time.perf_counter() - began)
        position = position.play(rng.choice(position.legal_moves()))
print(json.dumps({{"open_s": opened, "analyses_s": analyses, "lines_s": lines}}))
"""


def run_kept_bench(variant: str = "4x5k4", *, games: int = 4, seed: int = 7) -> dict:
    """Every figure of the module docstring, for ``variant`` (17–20 cells)."""
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, XDG_CACHE_HOME=folder)
        env.pop("WORKBENCH_NO_TABLES_CACHE", None)
        _, output = _whole([sys.executable, "-c", _SOLVE.format(variant=variant)], env, timeout=3600)
        solve = json.loads(output) if output else None
        kept_mb = (
            sum(os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(folder) for name in names) / 1e6
        )
        _, output = _whole(
            [sys.executable, "-c", _ANALYSES.format(variant=variant, seed=seed, games=games)], env, timeout=600
        )
        reads = json.loads(output) if output else None
        whole = min(
            _whole([sys.executable, "-m", "workbench", "analyze", "--game", variant, "--moves", "1", "--json"], env)[0]
            for _ in range(3)
        )
    result = {"variant": variant, "solve": solve, "kept_mb": kept_mb, "whole_analyze_s": whole, "targets": TARGETS}
    if reads is not None:
        first, *analyses = reads["analyses_s"]
        lines = reads["lines_s"]
        result["reads"] = {
            "open_ms": reads["open_s"] * 1000,
            "positions": len(analyses) + 1,
            "first_ms": first * 1000,
            "analysis_ms": {"median": statistics.median(analyses) * 1000, "max": max(analyses) * 1000},
            "best_line_ms": {"median": statistics.median(lines) * 1000, "max": max(lines) * 1000},
        }
    return result


def format_kept_report(report: dict) -> list[str]:
    variant, solve, lines = report["variant"], report["solve"], []
    if solve:
        lines.append(
            f"solve {variant}, cold, fresh process  {solve['seconds']:7.1f} s (target ≤ 900 s), "
            f"{solve['positions']:,} positions, peak {solve['peak_mb']:,.0f} MB (target ≤ 12,288 MB)"
        )
    else:
        lines.append(f"solve {variant}: failed or timed out")
    lines.append(
        f"kept {report['kept_mb']:.0f} MB (Zarr, Zstandard); whole `analyze --game {variant} --moves 1 --json` "
        f"from it {report['whole_analyze_s'] * 1000:.0f} ms"
    )
    reads = report.get("reads")
    if reads:
        analysis, best = reads["analysis_ms"], reads["best_line_ms"]
        lines.append(
            f"from the kept solution, a fresh process ({reads['positions']} positions of random games; opened in "
            f"{reads['open_ms']:.0f} ms; the first analysis {reads['first_ms']:.0f} ms, the codec's import with it): "
            f"then analysis median {analysis['median']:.1f} ms, max {analysis['max']:.1f} ms (target ≤ 50 ms); "
            f"best line median {best['median']:.1f} ms, max {best['max']:.1f} ms"
        )
    return lines
