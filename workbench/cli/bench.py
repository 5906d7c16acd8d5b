"""``workbench bench``: which benchmarks run, and their report (the benchmarks are :mod:`workbench.bench`'s)."""

from __future__ import annotations

import argparse
import importlib

from ..engine import (
    TIC_TAC_TOE,
)
from .common import UsageError, game_of, print_json


def _bench_extra(args: argparse.Namespace) -> None:
    """The bench extra is installed where this run of ``bench`` needs it: pyte for the app's figures (its screen
    read as a terminal would), Playwright for the browser's. :raises UsageError: naming the extra."""
    needed = [
        name for name, wanted in (("pyte", not args.no_tui or args.browser), ("playwright", args.browser)) if wanted
    ]
    for module in needed:
        try:
            importlib.import_module(module)
        except ImportError:
            skip = " (or --no-tui for the engine's figures alone)" if module == "pyte" else ""
            raise UsageError(
                f"bench: the {'browser' if module == 'playwright' else 'app'}'s figures need {module}, which the bench "
                f"extra installs: pip install 'mnk-workbench[bench]'{skip}"
            ) from None


def _no_keys_timed(args: argparse.Namespace, why: str) -> None:
    """``--keys`` asks for the app's keys in a terminal, which this run of ``bench`` does not time.
    :raises UsageError: saying why."""
    if args.keys is not None:
        raise UsageError(f"bench: --keys times the app's keys in a terminal, and {why}")


def cmd_bench(args: argparse.Namespace) -> int:
    from ..bench.engine import format_report, run_engine_bench, run_library_bench

    if args.no_tui:
        _no_keys_timed(args, "--no-tui leaves them out")
    _bench_extra(args)
    geometry = game_of(args)
    if geometry != TIC_TAC_TOE:
        return _family_bench(args, geometry)
    from ..bench.startup import run_startup_bench

    report = run_engine_bench(quick=args.quick)
    report.update(run_startup_bench(quick=args.quick))
    report.update(run_library_bench(quick=args.quick))
    if not args.no_tui:
        from ..bench.app import run_tui_bench

        report.update(run_tui_bench(quick=args.quick, terminal_keys=args.keys))
    if args.browser:
        from ..bench.browser import run_browser_bench

        report["browser"] = run_browser_bench(keys=6 if args.quick else 20)
    if args.json:
        print_json(report)
    else:
        print(format_report(report))
        if args.browser:
            from ..bench.browser import format_browser_report

            print("\n".join(format_browser_report(report["browser"])))
    return 0


def _searched_board_bench(args: argparse.Namespace, geometry) -> int:
    """A board searched position by position (above 16 cells) has no strong solve to time: its figures are the
    app's, in a real terminal, on a game of thirty moves where the board is 15×15."""
    from ..bench.terminal import format_terminal_report, run_terminal_bench

    if args.no_tui:
        raise UsageError(
            f"bench --game {geometry}: a board above 16 cells is searched, not solved, and its figures are the app's; "
            "drop --no-tui"
        )
    report = {"tui_terminal": run_terminal_bench(quick=args.quick, game=str(geometry), keys=args.keys)}
    if args.json:
        print_json(report)
    else:
        print("\n".join(format_terminal_report(report["tui_terminal"])))
    return 0


def _kept_bench(args: argparse.Namespace, geometry) -> int:
    """17–20 cells: the ranked sweep's solve, its kept size and the analysis read back from it, in fresh processes
    (the app's figures in a terminal are the searched boards', `--game 15x15k5`)."""
    from ..bench.kept import format_kept_report, run_kept_bench

    _no_keys_timed(args, f"{geometry}'s figures are its solve's (the app's are timed on a searched board, 15x15k5)")
    report = {"kept": run_kept_bench(str(geometry), games=2 if args.quick else 4)}
    if args.json:
        print_json(report)
    else:
        print("\n".join(format_kept_report(report["kept"])))
    return 0


def _family_bench(args: argparse.Namespace, geometry) -> int:
    """The family's figures: the strong solve of ``--game`` (at most 16 cells), tier 2 on 5×5k4 and the 3×3
    sweep, each beside OpenSpiel where it is installed."""
    from ..bench.family import format_family_report, run_family_bench
    from ..engine.geometry import MAX_STRONG_CELLS, is_keepable
    from ..engine.strong import check_strongly_solvable

    if is_keepable(geometry):  # solved by the ranked sweep and kept
        return _kept_bench(args, geometry)
    if geometry.size > MAX_STRONG_CELLS:  # not kept (above): searched position by position
        return _searched_board_bench(args, geometry)
    check_strongly_solvable(geometry)
    app_timed = geometry.size >= 9  # the app on this board in a real terminal (its keys play 1, 3, 5, 9)
    if not app_timed:
        _no_keys_timed(args, f"the app's keys are timed on boards of 9 cells or more, not on {geometry}")
    report = run_family_bench(str(geometry), quick=args.quick)
    if app_timed and not args.no_tui:
        from ..bench.terminal import format_terminal_report, run_terminal_bench

        report["tui_terminal"] = run_terminal_bench(quick=args.quick, game=str(geometry), keys=args.keys)
    if args.json:
        print_json(report)
    else:
        lines = format_family_report(report)
        if "tui_terminal" in report:
            lines += format_terminal_report(report["tui_terminal"])
        print("\n".join(lines))
    return 0
