"""``workbench puzzles``: positions with exactly one right move, found from the exact values, kept in the library
and printed (the answers only when asked: a list to solve, not a list of solutions)."""

from __future__ import annotations

import argparse

from .common import answers_with_progress, game_of, library_is_missing, open_library, print_json


def cmd_puzzles(args: argparse.Namespace) -> int:
    from ..engine.geometry import MAX_STRONG_CELLS
    from ..engine.puzzles import find_puzzles, puzzle_record
    from ..library.practice import keep_puzzles

    geometry = game_of(args)
    if geometry.size > MAX_STRONG_CELLS:  # not every value known, or not enumerated: one line, before any work
        find_puzzles(geometry)
    # the tables, or 13-16 cells the strong solution, read back from the cache or made (with progress) and kept
    answers = answers_with_progress(geometry, bar=not args.json)
    if args.theme is None:
        puzzles = find_puzzles(geometry, args.count, answers=answers)
    else:  # the theme's own, spread over their difficulty as the count spreads them all
        from ..state.progress import sitting

        puzzles = tuple(sitting(find_puzzles(geometry, answers=answers), [], set(), args.count, args.theme))
    with open_library(args) as library:
        new = keep_puzzles(library, geometry, puzzles)
    records = [puzzle_record(puzzle) for puzzle in puzzles]
    if args.json:
        print_json(records)
        return 0
    what = "puzzles" if args.theme is None else f"{args.theme} puzzles"
    if not records:  # as the app says it, rather than a table of no rows
        from ..engine.geometry import describe_variant

        print(
            f"No {what} on {describe_variant(geometry)}: no position there has a single move that keeps its value"
            + (" with that theme." if args.theme else ".")
        )
        return 0
    print("\n".join(puzzle_lines(records, answers=args.answers)))
    print(
        f"{len(records)} {what} of {geometry}, easiest first; {new} new in the library {library.path}"
        + ("" if args.answers else " (--answers shows the answers)")
    )
    return 0


def puzzle_lines(records: list[dict], *, answers: bool) -> list[str]:
    """The puzzles as a table: the position, who moves, what to find (a win and how soon, the draw, or the slowest
    loss), the difficulty, and with ``answers`` the answer by name."""
    width = max((len(record["position"]) for record in records), default=8)
    header = f"{'#':>3}  {'position':<{width}}  to move  {'find':<18} difficulty" + ("  answer" if answers else "")
    lines = [header]
    for number, record in enumerate(records, 1):
        goal = {
            "win": f"win in {record['remoteness']}",
            "draw": "draw",
            "loss": f"slowest loss ({record['remoteness']})",
        }[record["value"]]
        line = (
            f"{number:>3}  {record['position']:<{width}}  {record['to_move']:<7}  {goal:<18} "
            f"{record['difficulty']:>10.3f}"
        )
        lines.append(line + (f"  {record['name']}" if answers else ""))
    return lines


def cmd_progress(args: argparse.Namespace) -> int:
    """``workbench progress``: practice kept in the library, per board (puzzles, then mistakes): attempts, solved on
    the first try, the streak, what is due today, by theme, and a bar a week."""
    from datetime import date

    from ..engine.geometry import format_variant, parse_variant
    from ..library.practice import progress

    geometry = parse_variant(args.game) if args.game is not None else None
    if library_is_missing(args):  # no practice kept, and no library made to say so
        from ..library import default_path

        rows, shown = [], args.db or default_path()
    else:
        with open_library(args, create=False) as library:
            rows, shown = progress(library, geometry), library.path
    if args.json:
        print_json([row.as_dict() for row in rows])
        return 0
    if rows:
        print("\n".join(progress_lines(rows, date.today())))
    elif geometry is not None:  # (the library may hold other boards' practice)
        board = format_variant(geometry)
        print(f"No practice on {board} kept in the library {shown} yet: u in the app opens puzzles there.")
    else:
        print(f"No practice kept in the library {shown} yet: u in the app opens puzzles.")
    return 0


def progress_lines(rows, today) -> list[str]:
    """Each board's practice in a few lines, for a person."""
    from ..state.progress import week_bars

    lines = []
    for row in rows:
        what = "puzzles" if row.kind == "puzzle" else "mistakes"
        rate = f" ({row.solved / row.attempts:.0%})" if row.attempts else ""
        lines.append(
            f"{row.variant} {what}: {row.attempts} tried · {row.solved} solved on the first try{rate} · "
            f"streak {row.streak} · {row.due} due today"
        )
        if row.themes:
            lines.append(
                "  by theme: " + " · ".join(f"{theme} {right}/{tried}" for theme, (tried, right) in row.themes.items())
            )
        lines.append(f"  solved a week, the last 8: {week_bars(row.weeks, today)}")
    return lines
