"""The ``workbench`` command: thin wiring from arguments to the engine, state and app."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import Sequence

from . import errors
from .engine import (
    TIC_TAC_TOE,
    Player,
    Position,
    analysis_record,
    analyze,
    analyze_all,
    census,
    first_move_table,
    format_position,
    parse_moves,
    parse_position,
)

EXIT_BAD_INPUT = 2
DEFAULT_GAME = "3x3k3"  # the rules of every command that takes --game, when it is not given
DEFAULT_BUDGET = "5s"  # the search of a board above 16 cells: its time, and its nodes
DEFAULT_NODES = 20_000_000
DEFAULT_SCREENSHOTS = "screenshots"  # the folder `workbench screenshots` writes into
DEFAULT_SERVE_HOST = "127.0.0.1"  # `workbench serve`: this machine only, unless --host says otherwise
DEFAULT_SERVE_PORT = 8000
DEFAULT_MAX_TABS = 16  # workbench.web.access's, not imported for every command's start (a test holds them equal)
EXIT_INTERRUPTED = 130
VARIANT_FORM = (
    "written RxCkK[-misere]: R rows and C columns (1 to 15 each), K in a row (at most the longer side), -misere "
    "for the rule where completing a line loses; e.g. 3x3k3, 3x4k3, 4x4k4, 3x3k3-misere, 15x15k5"
)
EXIT_BUG = 1  # an exception outside workbench.errors: a bug, never "bad input"


class UsageError(errors.UsageError):
    """Bad command-line input: one line on stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + message
        raise UsageError(message)


def version_text() -> str:
    """``workbench --version``: the version, and the mode of the app and of ``serve`` (fast path or stock) and why."""
    from . import __version__
    from .tui.textual_ext import MODE as APP_MODE
    from .web.serve_ext import MODE as SERVE_MODE

    return f"workbench {__version__}\napp:   {APP_MODE}\nserve: {SERVE_MODE}"


class _VersionAction(argparse.Action):
    """``--version``: the text, then exit 0 (argparse's own wants the text before the parser is built)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="workbench", description="A terminal analysis workbench for Tic-Tac-Toe and its family: any board up to 15x15, k in a row, normal or misère.")
    parser.add_argument("--db", metavar="PATH", help="the library file (default: your data folder)")
    parser.add_argument(
        "--version", action=_VersionAction,
        help="the version, and whether the app and serve run on their fast path or on stock Textual, and why",
    )  # fmt: skip
    parser.add_argument(
        "--game", metavar="VARIANT", dest="app_game",
        help=f"the app starts a new game of this variant, {VARIANT_FORM} (default: the last one played)",
    )  # fmt: skip
    # subparsers are made of the parser's own class (one-line errors) by argparse's default
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    db_option = _Parser(add_help=False)  # pragma: no mutate - argparse reads None as False
    db_option.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help="the library file")
    game_option = _Parser(add_help=False)  # pragma: no mutate - argparse reads None as False
    game_option.add_argument(
        "--game", metavar="VARIANT", default=DEFAULT_GAME,
        help=f"the board and rule, {VARIANT_FORM} (default: {DEFAULT_GAME})",
    )  # fmt: skip

    analyze_cmd = commands.add_parser("analyze", parents=[db_option, game_option], help="analyse a position, a move list, or every position")
    source = analyze_cmd.add_mutually_exclusive_group()
    source.add_argument("position", nargs="?", help="a position such as X.O/.X./..O (one starting with '-': after `--`, or --position=…)")
    source.add_argument("--position", dest="position_option", metavar="POSITION", help="the same, as an option: --position=-X-/---/---")
    source.add_argument("--moves", help="a move list from the empty board, such as 5,1,9 or 519")
    source.add_argument("--all", action="store_true", help="every reachable position (JSON Lines with --json)")
    source.add_argument("--study", metavar="FILE", help="the current node of a saved study")
    analyze_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    analyze_cmd.add_argument("--budget", default=DEFAULT_BUDGET, help=f"time for the search of a board above 16 cells (5s, 500ms, 2m; default {DEFAULT_BUDGET})")
    analyze_cmd.add_argument("--nodes", type=_positive_int, default=DEFAULT_NODES, help=f"nodes for that search (default {DEFAULT_NODES:,})")

    review_cmd = commands.add_parser("review", parents=[db_option], help="rate every move of a line: best, inaccurate, mistake")
    line = review_cmd.add_mutually_exclusive_group(required=True)
    line.add_argument("study", nargs="?", help="a study file (.json): its current line, from its start")
    line.add_argument("--moves", help="a move list from the empty board, such as 1,2,4,7 or 1247")
    review_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    for name, help_text in (
        ("census", "counts over the whole game: positions, classes, games, the 9! ledger"),
        ("first-moves", "seed 001's table: share of O replies that lose, per X opening"),
    ):
        command = commands.add_parser(name, parents=[db_option, game_option], help=help_text)
        command.add_argument("--json", action="store_true", help="machine-readable output only")

    solve_cmd = commands.add_parser("solve", parents=[db_option, game_option], help="solve every position of a board of at most 16 cells, and keep the solution")
    solve_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    verify_cmd = commands.add_parser("verify", parents=[db_option, game_option], help="check the threat planner against the exact solver")
    verify_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    verify_cmd.add_argument(
        "--seed-port", action="store_true", help="also check seed 001's code as written (reported, not failed)"
    )

    games_cmd = commands.add_parser("games", parents=[db_option], help="write every complete game into the library")
    games_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    graph_cmd = commands.add_parser("graph", parents=[db_option], help="the 765-class DAG: library tables, or Graphviz DOT")
    graph_cmd.add_argument("--dot", metavar="FILE", help="write DOT to FILE ('-' for stdout) and, with Graphviz, FILE.svg")

    studies_cmd = commands.add_parser("studies", parents=[db_option], help="studies kept in the library")
    studies_sub = studies_cmd.add_subparsers(dest="studies_command", metavar="ACTION", required=True)
    studies_sub.add_parser("list", parents=[db_option], help="names, sizes and dates").add_argument(
        "--json", action="store_true", help="machine-readable output only"
    )
    rename_cmd = studies_sub.add_parser("rename", parents=[db_option], help="rename a study")
    rename_cmd.add_argument("old", help="the study's name now")
    rename_cmd.add_argument("new", help="its new name")
    studies_sub.add_parser("delete", parents=[db_option], help="delete a study").add_argument(
        "name", help="the study to delete"
    )
    import_cmd = studies_sub.add_parser("import", parents=[db_option], help="copy a JSON study file into the library")
    import_cmd.add_argument("file", help="a study file (.json)")
    import_cmd.add_argument("--as", "--name", dest="name", help="the name in the library (default: the file's name)")
    import_cmd.add_argument("--replace", action="store_true", help="replace a library study of the same name")
    export_cmd2 = studies_sub.add_parser("export", parents=[db_option], help="write a library study to a JSON file")
    export_cmd2.add_argument("name", help="the library study")
    export_cmd2.add_argument("file", help="the study file (.json) to write")
    export_cmd2.add_argument("--replace", action="store_true", help="replace the file if it exists")

    library_cmd = commands.add_parser("library", parents=[db_option], help="check the library file, or salvage its studies")
    library_sub = library_cmd.add_subparsers(dest="library_command", metavar="ACTION", required=True)
    check_cmd = library_sub.add_parser("check", parents=[db_option], help="integrity, schema and every study (read-only)")
    check_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    salvage_cmd = library_sub.add_parser("salvage", parents=[db_option], help="copy every readable study into a new library")
    salvage_cmd.add_argument("out", metavar="OUT", help="the new library file (must not exist)")
    salvage_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    open_cmd = commands.add_parser("open", parents=[db_option], help="open the app on a saved study")
    open_cmd.add_argument("study", help="a study file (.json), or the name of a study in the library")

    export_cmd = commands.add_parser("export", parents=[db_option], help="print a saved study's move text (variations in parentheses)")
    export_cmd.add_argument("file", help="a study file (.json)")
    export_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    serve_cmd = commands.add_parser("serve", parents=[db_option], help="serve the app to browser tabs, one app per tab")
    serve_cmd.add_argument("--host", default=DEFAULT_SERVE_HOST, help=f"the address to listen on (default: {DEFAULT_SERVE_HOST}, this machine only)")
    serve_cmd.add_argument("--port", type=_port, default=DEFAULT_SERVE_PORT, help=f"the port (default: {DEFAULT_SERVE_PORT}; 0 for any free one)")
    serve_cmd.add_argument("--game", metavar="VARIANT", help="each tab starts a new game of this variant (default: the last one played)")
    serve_cmd.add_argument("--debug", action="store_true", help="let Textual's devtools attach to each tab's app")
    key = serve_cmd.add_mutually_exclusive_group()
    key.add_argument("--token", metavar="VALUE", type=_serve_option("check_token"), help="the key every request needs (default: a new random one at each start, printed in the address)")
    key.add_argument("--no-token", action="store_true", help="let requests in without a key (any program on this machine can then use the app and the library)")
    serve_cmd.add_argument("--allow-origin", metavar="ORIGIN", action="append", type=_serve_option("check_origin"),
                           help="let pages of this origin (scheme://host:port) use the server too; repeat for more")  # fmt: skip
    serve_cmd.add_argument("--allow-host", metavar="NAME", action="append", type=_serve_option("check_allowed_host"),
                           help="answer requests that name this host too (NAME at any port, NAME:PORT at that one); repeat for more")  # fmt: skip
    serve_cmd.add_argument("--max-tabs", metavar="N", type=_tab_count, default=DEFAULT_MAX_TABS, help=f"at most this many tabs' apps at once (default: {DEFAULT_MAX_TABS})")

    shots_cmd = commands.add_parser("screenshots", help="write SVG screenshots of the main views")
    shots_cmd.add_argument("folder", nargs="?", default=DEFAULT_SCREENSHOTS, help=f"where to write them (default: {DEFAULT_SCREENSHOTS})")

    bench_cmd = commands.add_parser("bench", parents=[game_option], help="time the engine against the seeds' direct methods")
    bench_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    bench_cmd.add_argument("--quick", action="store_true", help="fewer repeats of each timing")
    bench_cmd.add_argument("--no-tui", action="store_true", help="skip the app's launch and keypress timings")
    bench_cmd.add_argument("--browser", action="store_true", help="also serve the app to 8 tabs of headless Chromium at once and time them (needs chromium and playwright)")
    return parser


def _sqlite_error() -> type[Exception]:
    import sqlite3

    return sqlite3.Error


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = None  # pragma: no mutate - read only by the sqlite3 net below, which parse_args never reaches
    try:
        args = parser.parse_args(argv)
        _refuse_empty_values(args)
        if args.command is None:
            from .settings import app_variant  # (not loaded for the other commands)

            return run_app(db=args.db, game=app_variant(args.app_game))
        if args.app_game is not None:
            raise UsageError(f"argument --game: before a command it names the app's variant; write it after the command (workbench {args.command} --game VARIANT)")
        return COMMANDS[args.command](args)
    # the library's modules (and sqlite3's) only once an error is to be told: the app's first paint needs neither
    except errors.WorkbenchError as error:  # the user's input, usage or library: one line (workbench.errors)
        print(f"workbench: error: {printable(str(error))}{_dash_hint(error, argv)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except _sqlite_error() as error:  # the library's own code turns these into LibraryError; this is the last net
        from .library import default_path
        from .library.db import describe

        path = args.db or default_path()  # (args is set: parse_args raises no SQLite error)
        print(f"workbench: error: library {printable(repr(str(path)))}: {printable(describe(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. `workbench analyze --all --json | head`
        sys.stderr.close()
        return 0
    except OSError as error:  # the edges turn file errors into their own words; this is the last net
        where = f"{printable(repr(str(error.filename)))}: " if error.filename is not None else ""
        print(f"workbench: error: {where}{printable(error.strerror or str(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # ctrl+c while a command runs: the shell's convention, no traceback
        print("workbench: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # none of the above: the workbench's own fault, and it must look like one
        print(f"workbench: bug: {printable(describe_bug(error))}", file=sys.stderr)
        return EXIT_BUG


def describe_bug(error: Exception) -> str:
    """One line for an exception that is a bug, not the user's input: what it was, and where its traceback was
    written (a file in the temporary folder; else the traceback follows on standard error)."""
    import tempfile
    import traceback

    what = f"{type(error).__name__}: {str(error)[:200]}".rstrip(": ")
    try:
        with tempfile.NamedTemporaryFile("w", prefix="workbench-bug-", suffix=".txt", delete=False) as report:
            traceback.print_exception(error, file=report)
    except OSError:
        traceback.print_exception(error, file=sys.stderr)
        return f"{what} (not your input; please report it with the traceback above)"
    return f"{what} (not your input; please report it with the traceback in {report.name})"


def _refuse_empty_values(args: argparse.Namespace) -> None:
    """argparse drops a value of ``--`` (``--position=--``) and leaves an empty list: say so."""
    for dest, value in vars(args).items():
        if value == []:
            # --position=-- is the only option whose name is not its dest; no other option taking a value
            # has an underscore in its dest to turn back into a dash
            option = "--position" if dest == "position_option" else "--" + dest
            raise UsageError(f"argument {option}: '--' is not a value it can take")


def _dash_hint(error: Exception, argv: Sequence[str] | None) -> str:
    """How to pass a position that argparse took for an option (it starts with '-')."""
    if not isinstance(error, UsageError):
        return ""
    arguments = sys.argv[1:] if argv is None else list(argv)
    # (a word that starts with "-" and holds a "/" is two characters at least: no length check needed)
    if any(word.startswith("-") and not word.startswith("--") and "/" in word for word in arguments):
        return " (a position that starts with '-' goes after `--`, as in `workbench analyze -- -X-/---/---`, or as --position=-X-/---/---)"
    return ""


def printable(text: str) -> str:
    """``text`` with control characters written as escapes (``\\x1b``, ``\\n``), so that a message
    that quotes the user's input stays one line and cannot steer the terminal."""
    return "".join(character if character.isprintable() else _escape(character) for character in text)


def _escape(character: str) -> str:
    # repr escapes exactly the characters that isprintable() refuses, so it always has a form for them
    return repr(character)[1:-1]


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data) + "\n")


def _console():
    from rich.console import Console

    return Console()


def _position_from(args: argparse.Namespace) -> Position:
    geometry = _game(args)
    if args.study is not None:
        from .state import load_study

        return load_study(args.study).position
    if args.moves is not None:
        start = Position.empty(geometry)
        return start.play_all(parse_moves(args.moves, start))
    text = args.position if args.position is not None else args.position_option
    if text is None:
        raise UsageError("analyze needs a POSITION, --moves or --all")
    return parse_position(text, geometry)


def _port(text: str) -> int:
    if not (text.isdigit() and text.isascii()) or len(text) > 5 or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a port (0 to 65535)")
    return int(text)


def _serve_option(check_name: str):
    """An argument type from one of :mod:`workbench.web.access`'s checks: the value as it gave it back."""

    def checked(text: str):
        from .web import access

        try:
            getattr(access, check_name)(text)
        except access.AccessError as error:  # its message names the option; argparse names it again
            raise argparse.ArgumentTypeError(str(error).split(" ", 1)[1]) from None
        return text

    checked.__name__ = check_name.removeprefix("check_").replace("_", " ")
    return checked


def _tab_count(text: str) -> int:
    count = _positive_int(text)
    if count > 10_000:
        raise argparse.ArgumentTypeError(f"{text[:20]!r}: at most 10000 tabs")
    return count


def _positive_int(text: str) -> int:
    if not (text.isdigit() and text.isascii()) or len(text) > 12 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a positive whole number")
    return int(text)


def parse_budget(text: str) -> float:
    """Seconds from ``5s``, ``500ms``, ``2m`` or a plain number of seconds (at most a day).

    :raises UsageError: naming the text."""
    import re

    match = re.fullmatch(r"\s*(\d{1,6}(?:\.\d{1,3})?)\s*(ms|s|m)?\s*", text)
    if match is None:
        raise UsageError(f"--budget {text[:20]!r}: write a time such as 5s, 500ms or 2m")
    seconds = float(match.group(1)) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[match.group(2)]
    if not 0 < seconds <= 86_400:
        raise UsageError(f"--budget {text[:20]!r}: a time above zero and at most a day")
    return seconds


def _game(args: argparse.Namespace):
    """The rules that ``--game`` names (every command that reads rules has the option; 3x3k3 by default)."""
    from .engine.geometry import parse_variant

    return parse_variant(args.game)


def _analyze_any(position: Position):
    """The exact analysis of ``position`` on its own board: the tables up to 12 cells, the strong solution
    (read back, or solved now and kept) up to 16."""
    from .engine.analysis import MAX_TABLE_CELLS

    geometry = position.geometry
    # at MAX_TABLE_CELLS both ways give the same exact analysis: the tables keep no file
    if geometry.size <= MAX_TABLE_CELLS:  # pragma: no mutate
        return analyze(position)
    from .engine.analysis import analyze_strong

    # boards above 16 cells never come here: cmd_analyze searches them
    solution, _ = _solved(geometry)
    return analyze_strong(solution, position)


def _solved(geometry, *, bar: bool = True):
    """(solution, where) of :func:`workbench.cache.strong_solution`, with a progress line on stderr while the
    board is solved when stderr is a terminal (and ``bar``); the line is ended once the solve is."""
    from .cache import strong_solution

    if not (bar and sys.stderr.isatty()):
        return strong_solution(geometry)
    from .engine.strong import STAGE_NAMES as steps

    started = False  # pragma: no mutate - None would be as false

    def show(stage: str, done: int, total: int) -> None:
        nonlocal started
        started = True
        width = 30
        filled = width * done // total
        print(f"\rsolving {geometry}: {steps[stage]:<31} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True)

    try:
        return strong_solution(geometry, show)
    finally:
        if started:  # end the line, whatever stage came last
            print(file=sys.stderr)


def cmd_analyze(args: argparse.Namespace) -> int:
    geometry = _game(args)
    if args.all:
        from .engine.analysis import MAX_TABLE_CELLS

        if geometry.size > MAX_TABLE_CELLS:
            return _all_strong(args, geometry)
        analyses = analyze_all(geometry)
        if args.json:
            sys.stdout.writelines(json.dumps(analysis_record(analysis)) + "\n" for analysis in analyses)
        else:
            for analysis in analyses:
                record = analysis_record(analysis)
                print(f"{record['position']}  {record['status']:<7} {record['value'] or '-':<5} {record['remoteness'] if record['remoteness'] is not None else '-'}")
        return 0
    from .engine.analysis import MAX_STRONG_CELLS  # not from engine.strong: that imports numpy

    seconds = parse_budget(args.budget)
    position = _position_from(args)
    if position.geometry.size > MAX_STRONG_CELLS:  # beyond the strong solutions: search this position
        return _search(args, position, seconds)
    analysis = _analyze_any(position)
    if args.json:
        _print_json(analysis_record(analysis))
    else:
        from .text import analysis_view

        _console().print(analysis_view(analysis))
    return 0


def _search(args: argparse.Namespace, position: Position, seconds: float) -> int:
    """Tier 2: each move searched exactly within the budget; what it did not prove is said to be unknown."""
    import time

    from .engine.search import search, search_record

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
        _print_json(record)
    else:
        from .text import search_view

        _console().print(search_view(record, position))
    return 0


def _all_strong(args: argparse.Namespace, geometry) -> int:
    """Every reachable position of a strongly solved board, streamed: its value and remoteness (the full
    record of each, with every move, is ``analyze`` of that position)."""
    from .engine.strong import MAX_STRONG_CELLS, every_position

    if geometry.size > MAX_STRONG_CELLS:
        raise UsageError(f"analyze --all covers boards of at most {MAX_STRONG_CELLS} cells ({geometry} has {geometry.size})")
    solution, _ = _solved(geometry)
    write = sys.stdout.write
    for block in every_position(solution):
        if args.json:
            write("".join(
                f'{{"position": "{text}", "to_move": {json.dumps(side)}, "status": "{status}", '
                f'"value": {json.dumps(value)}, "remoteness": {json.dumps(remoteness)}}}\n'
                for text, side, status, value, remoteness in block
            ))  # fmt: skip
        else:
            write("".join(
                f"{text}  {status:<7} {value or '-':<5} {remoteness if remoteness is not None else '-'}\n"
                for text, _, status, value, remoteness in block
            ))  # fmt: skip
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from .engine.review import review_line, score

    if args.study is not None:
        from .state import load_study

        state = load_study(args.study)
        tree = state.tree
        start, cells = tree.root_position, [tree.node(node).move for node in tree.current_line(state.cursor)[1:]]
    else:
        start, cells = Position.empty(TIC_TAC_TOE), list(parse_moves(args.moves))
    reviews = review_line(start, cells)
    scores = [(player, score(reviews, player)) for player in (Player.X, Player.O)]
    if args.json:
        _print_json({
            "start": format_position(start),
            "moves": [
                {"ply": r.ply, "player": r.player.value, "cell": r.cell, "rating": r.rating.value,
                 "before": {"value": r.value_before.label, "remoteness": r.remoteness_before},
                 "after": {"value": r.value_after.label, "remoteness": r.remoteness_after},
                 "best": list(r.best_cells)}
                for r in reviews
            ],
            "sides": {player.value: {"moves": side.moves, "best": side.best, "inaccurate": side.inaccurate,
                                     "mistakes": side.mistakes, "accuracy": side.accuracy} for player, side in scores},
        })  # fmt: skip
        return 0
    from .text import review_lines

    origin = "the empty board" if start == Position.empty(start.geometry) else format_position(start)
    print(f"review of {' '.join(map(str, cells)) or '(no moves)'} from {origin}")
    print("\n".join(review_lines(reviews, scores)))
    return 0


def cmd_census(args: argparse.Namespace) -> int:
    from .engine.analysis import MAX_TABLE_CELLS

    geometry = _game(args)
    # the strong solution counts the same things, key for key: at MAX_TABLE_CELLS either way gives the same census
    if geometry.size > MAX_TABLE_CELLS:  # pragma: no mutate
        from .engine.strong import strong_census

        data = strong_census(_solved(geometry)[0])
    else:
        data = census(geometry)
    if args.json:
        _print_json(data)
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

    from .cache import strong_cache_path
    from .engine.strong import strong_census

    geometry = _game(args)
    started = time.perf_counter()
    solution, where = _solved(geometry, bar=not args.json)
    seconds = time.perf_counter() - started
    path = strong_cache_path(geometry)
    kept = path.exists()
    data = strong_census(solution) | {"source": where, "seconds": round(seconds, 3), "cache": str(path) if kept else None}
    if args.json:
        _print_json(data)
        return 0
    value = data["value"]
    outcome = {1: "first player wins", 0: "a draw", -1: "first player loses"}[value["value"]]
    print(f"{geometry}: {data['positions']:,} positions, {outcome} (in {value['remoteness']} plies); "
          f"{'read back' if where == 'cache' else 'solved'} in {seconds:.2f} s")  # fmt: skip
    print(f"kept in {path}" if kept else "not kept: the cache folder cannot be written (or WORKBENCH_NO_TABLES_CACHE is set)")
    return 0


def cmd_first_moves(args: argparse.Namespace) -> int:
    geometry = _game(args)
    if geometry.misere:  # seed 001's forced-win search reads a line as a win: under misère, the exact values
        table = [list(row) for row in _first_moves_from_values(geometry)]
    else:
        table = [list(row) for row in first_move_table(geometry)]
    if args.json:
        _print_json({"table": table})
        return 0
    rows = [" | ".join(f"{share:.3f}" for share in row) for row in table]
    print(("\n" + "-" * len(rows[0]) + "\n").join(rows))
    return 0


def _first_moves_from_values(geometry):
    from .engine.analysis import MAX_TABLE_CELLS
    from .engine.openings import first_move_table_from_values

    # at MAX_TABLE_CELLS both ways read the same exact values: the dictionary solver keeps no file
    if geometry.size <= MAX_TABLE_CELLS:  # pragma: no mutate
        from .engine.solver import solve

        values = solve(geometry).value
        return first_move_table_from_values(geometry, lambda x, o: values[x | o << geometry.size])
    from .engine.strong import MAX_STRONG_CELLS

    if geometry.size > MAX_STRONG_CELLS:
        raise UsageError(f"first-moves of a misère board reads its exact values: boards of at most {MAX_STRONG_CELLS} cells ({geometry} has {geometry.size})")
    solution, _ = _solved(geometry)
    return first_move_table_from_values(geometry, lambda x, o: solution.lookup(x, o)[0])


def cmd_verify(args: argparse.Namespace) -> int:
    from .engine.analysis import MAX_TABLE_CELLS, exact_masks

    geometry = _game(args)
    if geometry.misere:
        raise UsageError(f"verify checks the threat planner, which reads a line as a win: {geometry} is misère")
    if geometry.size > MAX_TABLE_CELLS:  # the planner's memo of every subtree would not fit: 9.7 million on 4×4
        raise UsageError(f"verify runs the threat planner on every position: boards of at most {MAX_TABLE_CELLS} cells ({geometry} has {geometry.size})")
    checked = 0
    disagreements = []
    from .engine.threats import planner_for

    planner = planner_for(geometry)
    for analysis in analyze_all(geometry):
        if analysis.to_move is None:
            continue
        checked += 1
        exact_win, exact_lose = exact_masks(analysis)
        position = analysis.position
        me, opp = (position.x, position.o) if analysis.to_move is Player.X else (position.o, position.x)
        masks = planner.masks(me, opp)
        if (masks.perfect_winning, masks.perfect_losing) != (exact_win, exact_lose):
            disagreements.append(
                {
                    "position": format_position(analysis.position),
                    "planner": {"perfect_win": masks.perfect_winning, "perfect_lose": masks.perfect_losing},
                    "solver": {"perfect_win": exact_win, "perfect_lose": exact_lose},
                }
            )
    report: dict = {"checked": checked, "disagreements": disagreements}
    if args.seed_port:
        report["seed_port"] = _seed_port_disagreements()
    if args.json:
        _print_json(report)
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


def _seed_port_disagreements() -> dict:
    from .bench import baselines
    from .engine.analysis import exact_masks

    perf_winning_moves, perf_losing_moves = baselines.memoized_seed_port()
    win_diffs = lose_diffs = 0
    for analysis in analyze_all(TIC_TAC_TOE):
        if analysis.to_move is None:
            continue
        position = analysis.position
        me, opp = (position.x, position.o) if analysis.to_move.value == "X" else (position.o, position.x)
        seed_me, seed_opp = baselines.seed_bitboard(me), baselines.seed_bitboard(opp)
        seed_win = baselines.from_seed_bitboard(perf_winning_moves(seed_me, seed_opp))
        seed_lose = baselines.from_seed_bitboard(perf_losing_moves(seed_me, seed_opp))
        exact_win, exact_lose = exact_masks(analysis)
        win_diffs += seed_win != exact_win
        lose_diffs += seed_lose != exact_lose
    return {"perfect_win": win_diffs, "perfect_lose": lose_diffs}


def _bench_extra(args: argparse.Namespace) -> None:
    """The bench extra is installed where this run of ``bench`` needs it: pyte for the app's figures (its screen
    read as a terminal would), Playwright for the browser's. :raises UsageError: naming the extra."""
    needed = [name for name, wanted in (("pyte", not args.no_tui or args.browser), ("playwright", args.browser)) if wanted]
    for module in needed:
        try:
            importlib.import_module(module)
        except ImportError:
            skip = " (or --no-tui for the engine's figures alone)" if module == "pyte" else ""
            raise UsageError(f"bench: the {'browser' if module == 'playwright' else 'app'}'s figures need {module}, which the bench extra installs: pip install 'workbench[bench]'{skip}") from None


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench.engine import format_report, run_engine_bench, run_library_bench

    _bench_extra(args)
    geometry = _game(args)
    if geometry != TIC_TAC_TOE:
        return _family_bench(args, geometry)
    report = run_engine_bench(quick=args.quick)
    report.update(run_library_bench(quick=args.quick))
    if not args.no_tui:
        from .bench.app import run_tui_bench

        report.update(run_tui_bench(quick=args.quick))
    if args.browser:
        from .bench.browser import run_browser_bench

        report["browser"] = run_browser_bench(keys=6 if args.quick else 20)
    if args.json:
        _print_json(report)
    else:
        print(format_report(report))
        if args.browser:
            from .bench.browser import format_browser_report

            print("\n".join(format_browser_report(report["browser"])))
    return 0


def _searched_board_bench(args: argparse.Namespace, geometry) -> int:
    """A board searched position by position (above 16 cells) has no strong solve to time: its figures are the
    app's, in a real terminal, on a game of thirty moves where the board is 15×15."""
    from .bench.terminal import format_terminal_report, run_terminal_bench

    if args.no_tui:
        raise UsageError(f"bench --game {geometry}: a board above 16 cells is searched, not solved, and its figures are the app's; drop --no-tui")
    report = {"tui_terminal": run_terminal_bench(quick=args.quick, game=str(geometry))}
    if args.json:
        _print_json(report)
    else:
        print("\n".join(format_terminal_report(report["tui_terminal"])))
    return 0


def _family_bench(args: argparse.Namespace, geometry) -> int:
    """The family's figures: the strong solve of ``--game`` (at most 16 cells), tier 2 on 5×5k4 and the 3×3
    sweep, each beside OpenSpiel where it is installed."""
    from .bench.family import format_family_report, run_family_bench
    from .engine.analysis import is_searched
    from .engine.strong import check_strongly_solvable

    if is_searched(geometry):
        return _searched_board_bench(args, geometry)
    check_strongly_solvable(geometry)
    report = run_family_bench(str(geometry), quick=args.quick)
    if not args.no_tui and geometry.size >= 9:  # the app on this board in a real terminal (its keys play 1, 3, 5, 9)
        from .bench.terminal import format_terminal_report, run_terminal_bench

        report["tui_terminal"] = run_terminal_bench(quick=args.quick, game=str(geometry))
    if args.json:
        _print_json(report)
    else:
        lines = format_family_report(report)
        if "tui_terminal" in report:
            lines += format_terminal_report(report["tui_terminal"])
        print("\n".join(lines))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .state import export_movetext, load_study

    state = load_study(args.file)
    text = export_movetext(state.tree)
    if args.json:
        _print_json({"movetext": text, "cursor_moves": list(state.tree.moves_to(state.cursor))})
    else:
        print(text)
    return 0


def cmd_open(args: argparse.Namespace) -> int:
    # a bad file or a missing study is a one-line error before any screen is drawn
    target = args.study
    # a folder in it (either separator on Windows) makes it a file's path, never a library name
    if target.endswith(".json") or os.path.basename(target) != target or os.path.exists(target):
        from .state import load_study

        state = load_study(target)
        return run_app(state=state, path=target, db=args.db)
    from .library import studies

    name = target.strip()
    with _open_library(args) as library:
        if not studies.study_exists(library, name):
            raise UsageError(f"no study file or library study called {name!r} (library {str(library.path)!r})")
        state = studies.open_study(library, name)
    return run_app(state=state, name=name, db=args.db)


def run_app(**options) -> int:
    from .cache import warm_in_background

    from .engine.analysis import MAX_TABLE_CELLS

    state, game = options.get("state"), options.get("game")
    geometry = state.geometry if state is not None else game or TIC_TAC_TOE
    if geometry.size <= MAX_TABLE_CELLS:  # a strong solution is the app's worker's: read back or made, with progress
        warm_in_background(geometry)  # overlaps the app's import
    try:
        from .tui.app import run
    except ImportError as error:  # Textual missing or broken: say so, no traceback
        print(f"workbench: the app is not available ({error}); see `workbench --help`", file=sys.stderr)
        return 1
    return run(**options)


def cmd_serve(args: argparse.Namespace) -> int:
    if args.game is not None:
        from .engine.geometry import parse_variant

        parse_variant(args.game)  # a bad variant is said here, once, not by every tab's app
    try:
        from .web.serve import serve
    except ImportError as error:  # textual-serve missing or broken: say so, no traceback
        print(f"workbench: serving is not available ({error})", file=sys.stderr)
        return 1
    return serve(
        host=args.host, port=args.port, db=args.db, game=args.game, debug=args.debug, token=args.token,
        no_token=args.no_token, allow_origins=tuple(args.allow_origin or ()), allow_hosts=tuple(args.allow_host or ()),
        max_tabs=args.max_tabs,
    )  # fmt: skip


def cmd_screenshots(args: argparse.Namespace) -> int:
    from .tui.screenshots import take_screenshots

    for path in take_screenshots(args.folder):
        print(path)
    return 0


def _open_library(args: argparse.Namespace):
    from .library import Library

    return Library.open(args.db)  # every command that opens the library has --db


def cmd_games(args: argparse.Namespace) -> int:
    from .library.games import write_games

    with _open_library(args) as library:
        if args.json:
            count = write_games(library)
        else:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            # the bars stay when done (Rich's default): what was written, and how long each stage took
            with Progress(TextColumn("{task.description:<8}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                          TimeElapsedColumn()) as bar:  # fmt: skip
                tasks: dict[str, int] = {}

                def progress(stage: str, done: int, total: int) -> None:
                    if stage not in tasks:  # a stage's total is fixed when it begins
                        tasks[stage] = bar.add_task(stage, total=total)
                    bar.update(tasks[stage], completed=done)

                count = write_games(library, progress)
        rows = library.query("SELECT count(*) FROM ledger")[0][0]  # pragma: no mutate - SQL ignores the case of keywords and names
        # every outcome is there: the table was just filled with every game of the board
        split = dict(library.query("SELECT coalesce(winner, 'draw'), count(*) FROM games GROUP BY winner"))  # pragma: no mutate - SQL ignores case
    record = {"db": str(library.path), "games": count, "ledger_rows": rows, "x": split["X"], "o": split["O"], "draw": split["draw"]}
    if args.json:
        _print_json(record)
    else:
        print(f"{count:,} games ({record['x']:,} X wins, {record['o']:,} O wins, {record['draw']:,} draws) and {rows:,} ledger rows in {library.path}")
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    from .library.graph import graph_dot, write_graph

    if args.dot:
        text = graph_dot()
        if args.dot == "-":
            sys.stdout.write(text)
            return 0
        from .state.study import write_text_atomically

        write_text_atomically(args.dot, text)
        svg = _render_svg(args.dot)
        print(f"wrote {args.dot}" + (f" and {svg}" if svg else " (install Graphviz's dot to render it as SVG)"))
        return 0
    with _open_library(args) as library:
        classes, edges = write_graph(library)
    print(f"{classes} classes and {edges} edges in {library.path}")
    return 0


def _render_svg(dot_path: str) -> str | None:
    import shutil
    import subprocess

    dot = shutil.which("dot")
    if dot is None:
        return None
    svg_path = dot_path + ".svg" if not dot_path.endswith(".dot") else dot_path[:-4] + ".svg"
    result = subprocess.run([dot, "-Tsvg", dot_path, "-o", svg_path], capture_output=True, text=True)
    if result.returncode != 0:
        raise UsageError(f"dot could not render {dot_path!r}: {result.stderr.strip().splitlines()[-1] if result.stderr.strip() else result.returncode}")
    return svg_path


def cmd_studies(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .library import studies
    from .state import load_study, save_study

    with _open_library(args) as library:
        action = args.studies_command
        if action == "list":
            records = studies.list_studies(library)
            if args.json:
                _print_json([{"name": r.name, "variant": None if r.damaged else r.variant, "moves": None if r.damaged else r.moves,
                              "updated": r.updated, "damaged": r.damaged} for r in records])  # fmt: skip
            else:
                for record in records:
                    if record.damaged is not None:
                        print(printable(f"{record.name:<30} damaged ({record.damaged})   {record.updated}"))
                    else:
                        print(printable(f"{record.name:<30} {record.variant:<13} {record.moves:>4} moves   {record.updated}"))
                if not records:
                    print(f"no studies in {library.path}")
        elif action == "rename":
            studies.rename_study(library, args.old, args.new)
        elif action == "delete":
            studies.delete_study(library, args.name)
        elif action == "import":
            name = args.name or Path(args.file).stem
            try:
                studies.save_study(library, name, load_study(args.file), replace=args.replace)
            except studies.StudyExistsError as error:
                raise UsageError(f"{error} (import it --as another name, or --replace it)") from None
            print(f"imported {args.file} as {name!r}")
        elif action == "export":
            study = studies.open_study(library, args.name)
            if os.path.lexists(args.file) and not args.replace:  # a file the user made is never silently replaced
                raise UsageError(f"{args.file!r} exists already (export to another file, or --replace it)")
            save_study(study, args.file)
            print(f"exported {args.name!r} to {args.file}")
    return 0


def cmd_library(args: argparse.Namespace) -> int:
    """``library check``: exit 0 when healthy, 1 when damaged. ``library salvage``: 0 when
    everything was copied, 1 when something could not be read (the new library is written)."""
    from .library import default_path
    from .library.check import check_library, salvage_library

    source = args.db or default_path()
    if args.library_command == "check":
        report = check_library(source)
        if args.json:
            _print_json(report.as_dict())
        else:
            print(printable(f"library {report.path}: schema {report.schema_version}, {len(report.studies)} studies open"
                            + (f", {len(report.damaged_studies)} damaged" if report.damaged_studies else "")))  # fmt: skip
            for finding in report.findings:
                print(printable(f"  {finding}"))
            print("healthy" if report.healthy else "damaged: `workbench library salvage NEW.sqlite3` copies every study that opens")
        return 0 if report.healthy else 1
    report = salvage_library(source, args.out)
    if args.json:
        _print_json(report.as_dict())
    else:
        print(printable(f"salvaged {len(report.saved)} studies and {report.recovered} unsaved ones into {report.target}"))
        for line in report.lost:
            print(printable(f"  lost: {line}"))
    return 1 if report.lost else 0


COMMANDS = {
    "serve": cmd_serve,
    "library": cmd_library,
    "games": cmd_games,
    "graph": cmd_graph,
    "studies": cmd_studies,
    "screenshots": cmd_screenshots,
    "open": cmd_open,
    "export": cmd_export,
    "analyze": cmd_analyze,
    "review": cmd_review,
    "census": cmd_census,
    "first-moves": cmd_first_moves,
    "verify": cmd_verify,
    "bench": cmd_bench,
    "solve": cmd_solve,
}
