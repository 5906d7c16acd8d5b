"""The analysis commands: ``analyze``, ``review``, ``census``, ``solve``, ``first-moves``, ``verify``."""

from __future__ import annotations

import argparse
import sys

from ..engine import (
    TIC_TAC_TOE,
    Player,
    Position,
    analysis_record,
    census,
    first_move_table,
    format_position,
    parse_moves,
)
from .common import (
    UsageError,
    analyze_any,
    console,
    game_of,
    install_kept,
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
    from ..engine.analysis import MAX_STRONG_CELLS  # not from engine.strong: that imports numpy

    seconds = parse_budget(args.budget)
    position = position_from(args)
    if position.geometry.size > MAX_STRONG_CELLS and not install_kept(geometry):  # unsolved: search this position
        return _search(args, position, seconds)
    analysis = analyze_any(position)
    if args.json:
        print_json(analysis_record(analysis))
    else:
        from ..text import analysis_view

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
            print(f"\rsearching {position.geometry}: {done[0]}/{moves} moves proven, {nodes:,} nodes", end="", file=sys.stderr, flush=True)

    def out_of_time() -> bool:
        return time.monotonic() > deadline  # pragma: no mutate - > or >= at a float deadline: the same

    result = search(position, max_nodes=args.nodes, should_stop=out_of_time, progress=progress)
    if show and done[0]:
        print(file=sys.stderr)
    record = search_record(result)
    if args.json:
        print_json(record)
    else:
        from ..text import search_view

        out = console()
        out.print(search_view(record, position, out.width, all_moves=args.all_moves))
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from ..engine.analysis import MAX_STRONG_CELLS, MAX_TABLE_CELLS, is_searched
    from ..engine.geometry import cell_name, cell_names
    from ..engine.review import review_line, score

    start, cells = _review_line(args)
    geometry = start.geometry
    install_kept(geometry)
    if is_searched(geometry):
        reviews = _review_searched(args, start, cells)
    else:
        if MAX_TABLE_CELLS < geometry.size <= MAX_STRONG_CELLS:  # 13-16 cells: the strong solution, read back or made (with progress)
            from ..engine.analysis import install_strong

            install_strong(solved_with_progress(geometry, bar=not args.json)[0])
        reviews = review_line(start, cells)
    scores = [(player, score(reviews, player)) for player in (Player.X, Player.O)]
    words = _words(start, cells) if not is_searched(geometry) else {}
    if args.json:
        print_json({
            "variant": str(geometry),
            "start": format_position(start),
            "moves": [
                {"ply": r.ply, "player": r.player.value, "cell": r.cell, "name": cell_name(r.cell, geometry),
                 "rating": r.rating.value,
                 "before": {"value": _label(r.value_before), "remoteness": r.remoteness_before, "exact": r.exact_before},
                 "after": {"value": _label(r.value_after), "remoteness": r.remoteness_after},
                 "best": list(r.best_cells), "best_names": [cell_name(cell, geometry) for cell in r.best_cells],
                 "text": words.get(r.ply)}
                for r in reviews
            ],
            "sides": {player.value: {"moves": side.moves, "best": side.best, "inaccurate": side.inaccurate,
                                     "mistakes": side.mistakes, "not_proven": side.not_proven,
                                     "accuracy": side.accuracy} for player, side in scores},
        })  # fmt: skip
        return 0
    from ..text import review_lines

    origin = "the empty board" if start == Position.empty(geometry) else format_position(start)
    board = "" if geometry == TIC_TAC_TOE else f" on {geometry}"
    print(f"review of {cell_names(cells, geometry) or '(no moves)'} from {origin}{board}")
    print("\n".join(review_lines(reviews, scores, geometry, words)))
    return 0


def _words(start: Position, cells) -> dict[int, str]:
    """Each move of the line explained in words (``explain``), by its ply in the line."""
    from ..engine.explain import explain

    words, position = {}, start
    for ply, cell in enumerate(cells, 1):
        words[ply] = explain(position, cell).text
        position = position.play(cell)
    return words


def cmd_explain(args: argparse.Namespace) -> int:
    from ..engine.analysis import MAX_STRONG_CELLS, MAX_TABLE_CELLS, install_strong
    from ..engine.explain import explain, explanation_record
    from ..engine.geometry import cell_names, parse_cell_name

    geometry = game_of(args)
    if args.all:
        if args.moves is not None or args.position is not None or args.move is not None:
            raise UsageError("explain --all explains every move of every position: it takes no position or move")
        from .every_position import explain_every_move

        return explain_every_move(args, geometry)
    if args.moves is not None:
        if args.position is not None or args.move is not None:
            raise UsageError("explain takes --moves LIST, or POSITION --move CELL, not both")
        cells = parse_moves(args.moves, Position.empty(geometry))
        if not cells:
            raise UsageError("explain --moves needs at least one move: its last is explained")
        position, cell = Position.empty(geometry).play_all(cells[:-1]), cells[-1]
    elif args.position is not None and args.move is not None:
        from ..engine import parse_position

        position = parse_position(args.position, geometry)
        cell = parse_cell_name(args.move, geometry)
    else:
        raise UsageError("explain needs --moves LIST, or POSITION --move CELL")
    from ..engine.analysis import is_searched

    install_kept(geometry)
    if is_searched(geometry):  # above 16 cells, unsolved: the verdict as far as a search of the position proves it
        return _explain_searched(args, position, cell)
    if MAX_TABLE_CELLS < geometry.size <= MAX_STRONG_CELLS:  # 13-16 cells: the strong solution (past 16: kept)
        install_strong(solved_with_progress(geometry, bar=not args.json)[0])
    explanation = explain(position, cell)
    if args.json:
        print_json(explanation_record(explanation))
        return 0
    record = explanation_record(explanation)
    before, after = record["value_before"], record["value_after"]
    print(f"{record['name']}: {explanation.verdict} ({before['value']} in {before['remoteness']} → {after['value']} in {after['remoteness']}"
          f"; best: {', '.join(record['best_names'])})")  # fmt: skip
    print(" ".join(f"{step['name']} {step['role']}" + (f" ({cell_names(step['threatens'], geometry, ',')})" if step["threatens"] else "")
                   for step in record["line"]))  # fmt: skip
    print(explanation.text)
    return 0


def _label(value) -> str | None:
    return None if value is None else value.label


def _review_line(args: argparse.Namespace):
    """(start, cells) of the line ``review`` was given: a study file's or a library study's current line (from
    its start), or a move list (``--moves`` or the one argument) on ``--game``'s board."""
    from ..engine.geometry import parse_variant
    from .common import is_study_path, library_study

    if args.source is not None and args.moves is not None:
        raise UsageError("review takes one line: a study file, a library study's name or a move list, not two")
    if args.source is None and args.moves is None:
        raise UsageError("review needs a line: a study file, a library study's name, or --moves LIST")
    geometry = parse_variant(args.game) if args.game is not None else None
    state = None
    if args.source is not None:
        if is_study_path(args.source):
            from ..state import load_study

            state = load_study(args.source)
        else:
            state, library_path = library_study(args, args.source.strip())
            if state is None:
                start = Position.empty(geometry or TIC_TAC_TOE)
                try:
                    return start, list(parse_moves(args.source, start))
                except ValueError:  # neither a study nor a move list: say both
                    raise UsageError(
                        f"no study file or library study called {args.source.strip()!r} (library {str(library_path)!r}), "
                        f"and it is no move list on {start.geometry}"
                    ) from None
    if state is not None:
        if geometry is not None and geometry != state.geometry:
            raise UsageError(f"the study is of {state.geometry}, not --game {geometry}: leave --game out")
        tree = state.tree
        return tree.root_position, [tree.node(node).move for node in tree.current_line(state.cursor)[1:]]
    start = Position.empty(geometry or TIC_TAC_TOE)
    return start, list(parse_moves(args.moves, start))


def _explain_searched(args: argparse.Namespace, position: Position, cell) -> int:
    """``explain`` above 16 cells: the position searched within the budget, the move rated where the search settles
    it (as ``review`` rates it), with the move's role; no line is told (a search proves values, not lines)."""
    from ..engine.explain import ExplainError, role_of, value_words
    from ..engine.geometry import cell_bit, cell_name
    from ..engine.review import searched_headline

    if position.is_over:
        raise ExplainError(f"the game is over in {format_position(position)}: no move to explain")
    if not position.geometry.contains(cell) or position.occupied & cell_bit(cell):
        raise ExplainError(f"{cell_name(cell, position.geometry) if position.geometry.contains(cell) else cell}: not a move here (a taken cell, or off the board)")
    review = _review_searched(args, position, (cell,))[0]
    geometry = position.geometry
    proven = review.best_cells
    words = searched_headline(review, position)
    if words is None:
        words = (f"{cell_name(cell, geometry)}: not proven within the budget (--budget {args.budget}, --nodes {args.nodes:,}); "
                 "a bigger budget may settle it")  # fmt: skip
    role, threatens = role_of(position, cell)

    def value(found, remoteness, exact=True):
        return None if found is None else {"value": found.label, "remoteness": remoteness, "exact": exact}

    if args.json:
        print_json({
            "position": format_position(position), "cell": cell, "name": cell_name(cell, geometry),
            "verdict": review.rating.value,
            "value_before": value(review.value_before, review.remoteness_before, review.exact_before),
            "value_after": value(review.value_after, review.remoteness_after),
            "best": list(proven), "best_names": [cell_name(best, geometry) for best in proven],
            "line": [{"ply": position.ply + 1, "player": position.turn.value, "cell": cell, "name": cell_name(cell, geometry),
                      "role": role, "threatens": list(threatens)}],
            "text": words,
        })  # fmt: skip
        return 0
    after = "not proven" if review.value_after is None else value_words(review.value_after, review.remoteness_after)
    print(f"{cell_name(cell, geometry)}: {review.rating.value} (after it: {after}; searched, not solved: {geometry.size} cells)")
    print(words)
    return 0


def _review_searched(args: argparse.Namespace, start: Position, cells):
    """The review of a line on a board beyond 16 cells: each position before a move searched within the budget
    (progress on stderr on a terminal), its moves rated where the search settles them."""
    import time

    from ..engine.review import review_searched
    from ..engine.search import Searcher, search

    seconds = parse_budget(args.budget)
    show = sys.stderr.isatty() and not args.json
    searcher = Searcher(start.geometry)  # one transposition table for the whole line: later plies reuse it
    done = [0]

    def searched(position: Position):
        deadline = time.monotonic() + seconds
        done[0] += 1
        if show:
            print(f"\rsearching {position.geometry}: position {done[0]}/{len(cells)}", end="", file=sys.stderr, flush=True)
        return search(position, max_nodes=args.nodes, should_stop=lambda: time.monotonic() > deadline, searcher=searcher)

    try:
        return review_searched(start, cells, searched)
    finally:
        if show and done[0]:
            print(file=sys.stderr)


def cmd_census(args: argparse.Namespace) -> int:
    from ..engine.analysis import MAX_TABLE_CELLS

    geometry = game_of(args)
    # the strong solution counts the same things, key for key: at MAX_TABLE_CELLS either way gives the same census
    if geometry.size > MAX_TABLE_CELLS:  # pragma: no mutate
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
        + ", ".join(f"{k} {v:,} ({data['classes_by_value'][k]:,} classes)" for k, v in data["positions_by_value"].items()),
        "games            {total:,}: X {x:,}, O {o:,}, draw {draw:,}".format(**data["games"]),
        "games by length  " + ", ".join(f"{k}: {v:,}" for k, v in data["games_by_length"].items()),
        f"ledger ({geometry.size}! fill orders) " + "{total:,}: X {x:,}, O {o:,}, draw {draw:,}".format(**data["ledger"]),
    ]
    print("\n".join(lines))
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    import time

    from ..cache import strong_cache_path
    from ..engine.analysis import MAX_STRONG_CELLS
    from ..engine.strong_records import strong_census

    geometry = game_of(args)
    if geometry.size > MAX_STRONG_CELLS:
        return _solve_kept(args, geometry)
    if args.workers is not None or args.scheduler is not None:
        raise UsageError(f"--workers and --scheduler solve boards of 17-20 cells on Dask ({geometry} has {geometry.size}: solved here at once)")
    started = time.perf_counter()
    solution, where = solved_with_progress(geometry, bar=not args.json)
    seconds = time.perf_counter() - started
    path = strong_cache_path(geometry)
    kept = path.exists()
    data = strong_census(solution) | {"source": where, "seconds": round(seconds, 3), "cache": str(path) if kept else None}
    if args.json:
        print_json(data)
        return 0
    value = data["value"]
    outcome = {1: "first player wins", 0: "a draw", -1: "first player loses"}[value["value"]]
    print(f"{geometry}: {data['positions']:,} positions, {outcome} (in {value['remoteness']} plies); "
          f"{'read back' if where == 'cache' else 'solved'} in {seconds:.2f} s")  # fmt: skip
    print(f"kept in {path}" if kept else "not kept: the cache folder cannot be written (or WORKBENCH_NO_TABLES_CACHE is set)")
    return 0


def _solve_kept(args: argparse.Namespace, geometry) -> int:
    """17–20 cells: the ranked sweep (here, or on Dask with --workers / --scheduler), kept in Zarr."""
    import time

    from ..engine.solve_progress import duration
    from ..store.kept import check_keepable, kept_path, solve_and_keep

    check_keepable(geometry)
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers takes 1 or more (not {args.workers})")
    sweeper = None
    if args.workers is not None or args.scheduler is not None:
        from ..distributed.sweep import dask_sweep

        def sweeper(geometry, target, fingerprint, progress):
            dask_sweep(geometry, target, fingerprint=fingerprint, workers=args.workers, scheduler=args.scheduler, progress=progress)

    show = not args.json and sys.stderr.isatty()
    began = time.monotonic()

    def progress(fraction: float) -> None:
        width = 30
        filled = round(width * fraction)
        left = ""
        elapsed = time.monotonic() - began
        if 0.05 <= fraction < 1 and elapsed >= 1:
            left = f" · about {duration(elapsed * (1 - fraction) / fraction)} left"
        line = f"solving {geometry} [{'#' * filled}{'.' * (width - filled)}] values, ply by ply back · {fraction:.0%}{left}"
        print(f"\r{line:<100}", end="", file=sys.stderr, flush=True)

    try:
        solution, where, seconds = solve_and_keep(geometry, progress if show else None, sweeper)
    finally:
        if show:
            print(file=sys.stderr)
    path = kept_path(geometry)
    data = {"variant": str(geometry), "source": where, "seconds": round(seconds, 3),
            "cache": str(path) if solution is not None else None}  # fmt: skip
    if solution is not None:
        value, remoteness = solution.lookup(0, 0)
        data |= {
            "positions": solution.positions,
            "positions_by_ply": list(solution.positions_by_ply),
            "terminal_positions": sum(solution.terminal_by_ply),
            "positions_by_value": dict(zip(("win", "draw", "loss"), map(sum, zip(*solution.values_by_ply)))),
            "value": {"value": value, "remoteness": remoteness},
            "solver": solution.attributes.get("solver"),
        }
    if args.json:
        print_json(data)
        return 0
    if solution is None:
        print(f"{geometry}: solved in {seconds:.2f} s, not kept: the cache folder is turned off (WORKBENCH_NO_TABLES_CACHE)")
        return 0
    outcome = {1: "first player wins", 0: "a draw", -1: "first player loses"}[value]
    print(f"{geometry}: {solution.positions:,} positions, {outcome} (in {remoteness} plies); "
          f"{'read back' if where == 'cache' else 'solved'} in {seconds:.2f} s")  # fmt: skip
    print(f"kept in {path}")
    return 0


def cmd_first_moves(args: argparse.Namespace) -> int:
    geometry = game_of(args)
    if geometry.misere:  # seed 001's forced-win search reads a line as a win: under misère, the exact values
        table = [list(row) for row in _first_moves_from_values(geometry)]
    else:
        table = [list(row) for row in first_move_table(geometry)]
    if args.json:
        print_json({"table": table})
        return 0
    rows = [" | ".join(f"{share:.3f}" for share in row) for row in table]
    print(("\n" + "-" * len(rows[0]) + "\n").join(rows))
    return 0


def _first_moves_from_values(geometry):
    from ..engine.analysis import MAX_TABLE_CELLS
    from ..engine.openings import first_move_table_from_values

    # at MAX_TABLE_CELLS both ways read the same exact values: the dictionary solver keeps no file
    if geometry.size <= MAX_TABLE_CELLS:  # pragma: no mutate
        from ..engine.solver import solve

        values = solve(geometry).value
        return first_move_table_from_values(geometry, lambda x, o: values[x | o << geometry.size])
    from ..engine.strong import MAX_STRONG_CELLS

    if geometry.size > MAX_STRONG_CELLS:
        raise UsageError(f"first-moves of a misère board reads its exact values: boards of at most {MAX_STRONG_CELLS} cells ({geometry} has {geometry.size})")
    solution, _ = solved_with_progress(geometry)
    return first_move_table_from_values(geometry, lambda x, o: solution.lookup(x, o)[0])


def cmd_verify(args: argparse.Namespace) -> int:
    from ..engine.analysis import MAX_TABLE_CELLS

    geometry = game_of(args)
    if geometry.misere:
        raise UsageError(f"verify checks the threat planner, which reads a line as a win: {geometry} is misère")
    if geometry.size > MAX_TABLE_CELLS:  # the planner's memo of every subtree would not fit: 9.7 million on 4×4
        raise UsageError(f"verify runs the threat planner on every position: boards of at most {MAX_TABLE_CELLS} cells ({geometry} has {geometry.size})")
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
    report: dict = {"checked": checked, "disagreements": disagreements}
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
