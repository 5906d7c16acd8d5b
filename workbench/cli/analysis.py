"""The analysis commands: ``analyze``, ``census``, ``solve``, ``first-moves``, ``verify``."""

from __future__ import annotations

import argparse
import sys

from ..engine import (
    TIC_TAC_TOE,
    Position,
    analysis_record,
    census,
    first_move_table,
    format_position,
)
from .common import (
    UsageError,
    answers_with_progress,
    console,
    game_of,
    parse_budget,
    position_from,
    print_json,
    solved_with_progress,
)


def cmd_analyze(args: argparse.Namespace) -> int:
    geometry = game_of(args)
    if args.all:
        from .every_position import analyze_every_position

        return analyze_every_position(args, geometry)
    seconds = parse_budget(args.budget)
    position = position_from(args)
    answers = answers_with_progress(position.geometry)  # a study's own board, whatever --game says
    if not answers.exact:  # past 16 cells and not solved: search this position
        return _search(args, position, seconds)
    analysis = answers.analyze(position)
    if args.json:
        print_json(analysis_record(analysis))
    else:
        from .text import analysis_view

        out = console()
        out.print(analysis_view(analysis, out.width))
    return 0


def _search(args: argparse.Namespace, position: Position, seconds: float) -> int:
    """Tier 2: each move searched exactly within the budget; what it did not prove is said to be unknown."""
    import time

    from ..engine.search import search, search_record

    deadline = time.monotonic() + seconds
    show = sys.stderr.isatty() and not args.json
    moves = len(position.legal_moves())
    done = [0]

    def progress(move, nodes: int) -> None:
        done[0] += 1
        if show:
            print(
                f"\rsearching {position.geometry}: {done[0]}/{moves} moves proven, {nodes:,} nodes",
                end="",
                file=sys.stderr,
                flush=True,
            )

    def out_of_time() -> bool:
        return time.monotonic() > deadline  # pragma: no mutate - > or >= at a float deadline: the same

    result = search(position, max_nodes=args.nodes, should_stop=out_of_time, progress=progress)
    if show and done[0]:
        print(file=sys.stderr)
    record = search_record(result)
    if args.json:
        print_json(record)
    else:
        from .text import search_view

        out = console()
        out.print(search_view(record, position, out.width, all_moves=args.all_moves))
    return 0


def cmd_census(args: argparse.Namespace) -> int:
    from ..engine.analysis import MAX_TABLE_CELLS

    geometry = game_of(args)
    # the strong solution counts the same things, key for key: at MAX_TABLE_CELLS either way gives the same census
    if geometry.size > MAX_TABLE_CELLS:  # pragma: no mutate - the same at the bound (above)
        from ..engine.strong_records import strong_census

        data = strong_census(solved_with_progress(geometry)[0])
    else:
        data = census(geometry)
    if args.json:
        print_json(data)
        return 0
    lines = [f"variant          {geometry}"] if geometry != TIC_TAC_TOE else []
    lines += [
        f"positions        {data['positions']:,} ({data['terminal_positions']:,} terminal)",
        f"classes          {data['classes']:,} ({data['terminal_classes']:,} terminal)",
        "positions by ply " + " ".join(map(str, data["positions_by_ply"])),
        "classes by ply   " + " ".join(map(str, data["classes_by_ply"])),
        "by value (side to move, positions in play): "
        + ", ".join(
            f"{k} {v:,} ({data['classes_by_value'][k]:,} classes)" for k, v in data["positions_by_value"].items()
        ),
        "games            {total:,}: X {x:,}, O {o:,}, draw {draw:,}".format(**data["games"]),
        "games by length  " + ", ".join(f"{k}: {v:,}" for k, v in data["games_by_length"].items()),
        f"ledger ({geometry.size}! fill orders) "
        + "{total:,}: X {x:,}, O {o:,}, draw {draw:,}".format(**data["ledger"]),
    ]
    print("\n".join(lines))
    return 0


FIRST_PLAYER_OUTCOME = {"win": "first player wins", "draw": "a draw", "loss": "first player loses"}
"""A board's value from the empty board (the first player's), in the words ``solve`` says it."""


def cmd_solve(args: argparse.Namespace) -> int:
    import time

    from ..engine.analysis import MAX_STRONG_CELLS
    from ..engine.strong_records import strong_census
    from ..kept.tables import strong_cache_path

    geometry = game_of(args)
    if geometry.size > MAX_STRONG_CELLS:
        return _solve_kept(args, geometry)
    if args.workers is not None or args.scheduler is not None:
        raise UsageError(
            f"--workers and --scheduler solve boards of 17-20 cells on Dask ({geometry} has {geometry.size}: solved "
            "here at once)"
        )
    started = time.perf_counter()
    solution, where = solved_with_progress(geometry, bar=not args.json)
    seconds = time.perf_counter() - started
    path = strong_cache_path(geometry)
    kept = path.exists()
    data = strong_census(solution) | {
        "source": where,
        "seconds": round(seconds, 3),
        "cache": str(path) if kept else None,
    }
    if args.json:
        print_json(data)
        return 0
    value = data["value"]
    outcome = FIRST_PLAYER_OUTCOME[value["value"]]
    print(
        f"{geometry}: {data['positions']:,} positions, {outcome} (in {value['remoteness']} plies); "
        f"{'read back' if where == 'cache' else 'solved'} in {seconds:.2f} s"
    )
    print(
        f"kept in {path}"
        if kept
        else "not kept: the cache folder cannot be written (or WORKBENCH_NO_TABLES_CACHE is set)"
    )
    return 0


def _solve_kept(args: argparse.Namespace, geometry) -> int:
    """17–20 cells: the ranked sweep (here, or on Dask with --workers / --scheduler), kept in Zarr."""
    import time

    from ..engine.solve_progress import duration
    from ..engine.solver import Value
    from ..kept.solving import check_keepable, kept_path, solve_and_keep

    check_keepable(geometry)
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers takes 1 or more (not {args.workers})")
    sweeper = None
    if args.workers is not None or args.scheduler is not None:
        from ..distributed.sweep import dask_sweep

        def sweeper(geometry, target, fingerprint, progress):
            dask_sweep(
                geometry,
                target,
                fingerprint=fingerprint,
                workers=args.workers,
                scheduler=args.scheduler,
                progress=progress,
            )

    show = not args.json and sys.stderr.isatty()
    began = time.monotonic()

    def progress(fraction: float) -> None:
        width = 30
        filled = round(width * fraction)
        left = ""
        elapsed = time.monotonic() - began
        if 0.05 <= fraction < 1 and elapsed >= 1:
            left = f" · about {duration(elapsed * (1 - fraction) / fraction)} left"
        line = (
            f"solving {geometry} [{'#' * filled}{'.' * (width - filled)}] values, ply by ply back · "
            f"{fraction:.0%}{left}"
        )
        print(f"\r{line:<100}", end="", file=sys.stderr, flush=True)

    try:
        solution, where, seconds = solve_and_keep(geometry, progress if show else None, sweeper)
    finally:
        if show:
            print(file=sys.stderr)
    path = kept_path(geometry)
    data = {
        "variant": str(geometry),
        "source": where,
        "seconds": round(seconds, 3),
        "cache": str(path) if solution is not None else None,
    }
    if solution is not None:
        start = solution.lookup(0, 0)
        assert start is not None  # pragma: no mutate - every game reaches the empty board
        value, remoteness = start
        data |= {
            "positions": solution.positions,
            "positions_by_ply": list(solution.positions_by_ply),
            "terminal_positions": sum(solution.terminal_by_ply),
            "positions_by_value": dict(zip(("win", "draw", "loss"), map(sum, zip(*solution.values_by_ply)))),
            "value": {"value": Value(value).label, "remoteness": remoteness},
            "solver": solution.attributes.get("solver"),
        }
    if args.json:
        print_json(data)
        return 0
    if solution is None:
        print(
            f"{geometry}: solved in {seconds:.2f} s, not kept: the cache folder is turned off "
            "(WORKBENCH_NO_TABLES_CACHE)"
        )
        return 0
    outcome = FIRST_PLAYER_OUTCOME[Value(value).label]
    print(
        f"{geometry}: {solution.positions:,} positions, {outcome} (in {remoteness} plies); "
        f"{'read back' if where == 'cache' else 'solved'} in {seconds:.2f} s"
    )
    print(f"kept in {path}")
    return 0


def cmd_first_moves(args: argparse.Namespace) -> int:
    from ..engine.strong import MAX_STRONG_CELLS

    geometry = game_of(args)
    if geometry.k == 1:  # every cell is a line: X's first move ends the game, and O has no reply to count
        raise UsageError(f"first-moves counts O's replies to X's first move: on {geometry} that move ends the game")
    if geometry.size > MAX_STRONG_CELLS:  # (the search's tables grow with every cell: 4x5k4 ran out of memory)
        raise UsageError(
            f"first-moves searches every reply to every first move: boards of at most {MAX_STRONG_CELLS} cells "
            f"({geometry} has {geometry.size})"
        )
    if geometry.misere:  # seed 001's forced-win search reads a line as a win: under misère, the exact values
        table = [list(row) for row in _first_moves_from_values(geometry)]
    else:
        table = [list(row) for row in first_move_table(geometry)]
    if args.json:
        print_json({"variant": str(geometry), "table": table})
        return 0
    rows = [" | ".join(f"{share:.3f}" for share in row) for row in table]
    print(("\n" + "-" * len(rows[0]) + "\n").join(rows))
    return 0


def _first_moves_from_values(geometry):
    from ..engine.analysis import MAX_TABLE_CELLS
    from ..engine.openings import first_move_table_from_values

    # at MAX_TABLE_CELLS both ways read the same exact values: the dictionary solver keeps no file
    if geometry.size <= MAX_TABLE_CELLS:  # pragma: no mutate - the same at the bound (above)
        from ..engine.solver import solve

        values = solve(geometry).value
        return first_move_table_from_values(geometry, lambda x, o: values[x | o << geometry.size])
    solution, _ = solved_with_progress(geometry)
    return first_move_table_from_values(geometry, lambda x, o: solution.lookup(x, o)[0])


def cmd_verify(args: argparse.Namespace) -> int:
    from ..engine.analysis import MAX_TABLE_CELLS

    geometry = game_of(args)
    if geometry.misere:
        raise UsageError(f"verify checks the threat planner, which reads a line as a win: {geometry} is misère")
    if geometry.size > MAX_TABLE_CELLS:  # the planner's memo of every subtree would not fit: 9.7 million on 4×4
        raise UsageError(
            f"verify runs the threat planner on every position: boards of at most {MAX_TABLE_CELLS} cells ({geometry} "
            f"has {geometry.size})"
        )
    from ..engine.verification import check_planner

    result = check_planner(geometry)
    checked = result.checked
    disagreements = [
        {
            "position": format_position(found.position),
            "planner": {"perfect_win": found.planner[0], "perfect_lose": found.planner[1]},
            "solver": {"perfect_win": found.solver[0], "perfect_lose": found.solver[1]},
        }
        for found in result.disagreements
    ]
    report: dict = {"variant": str(geometry), "checked": checked, "disagreements": disagreements}
    if args.seed_port:
        from ..bench.baselines import seed_port_disagreements

        report["seed_port"] = seed_port_disagreements()
    if args.json:
        print_json(report)
    else:
        print(f"checked {checked} positions in play: {len(disagreements)} disagreements between planner and solver")
        for item in disagreements:
            print(f"  {item['position']}: planner {item['planner']} solver {item['solver']}")
        if args.seed_port:
            seed = report["seed_port"]
            print(
                f"seed 001's code as written: perfect-win differs on {seed['perfect_win']} positions, "
                f"perfect-lose on {seed['perfect_lose']} (a drawn last move counts as forcing)"
            )
    return 1 if disagreements else 0
