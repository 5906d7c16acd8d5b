"""The command line's grammar: every command, option and check of an option's value, and ``--version``."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from .common import (
    DEFAULT_ATLAS_CELLS,
    DEFAULT_BUDGET,
    DEFAULT_GAME,
    DEFAULT_MAX_TABS,
    DEFAULT_NODES,
    DEFAULT_PUZZLES,
    DEFAULT_REVIEW_BUDGET,
    DEFAULT_SCREENSHOTS,
    DEFAULT_SERVE_HOST,
    DEFAULT_SERVE_PORT,
    VARIANT_FORM,
    UsageError,
    positive_int,
    quoted,
)

PUZZLE_THEMES = ("win", "block", "fork", "only move", "hold out", "misère squeeze")
"""``workbench.engine.puzzles.THEMES``, written out: the grammar loads no engine (a test holds them equal)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        raise UsageError(message)


def version_text() -> str:
    """``workbench --version``: the version, and the mode of the app and of ``serve`` (fast path or stock) and why:
    as decided from the environment and the installed releases, without importing Textual or textual-serve; a
    gate already loaded in this process (whose pieces may have failed to load) says its own."""
    from .. import __version__
    from ..framework_mode import APP_PACKAGES, SERVE_PACKAGES, mode_for

    loaded_app, loaded_serve = (sys.modules.get(f"workbench.{name}") for name in ("tui.textual_ext", "web.serve_ext"))
    app = loaded_app.MODE if loaded_app is not None else mode_for(*APP_PACKAGES)
    serve = loaded_serve.MODE if loaded_serve is not None else mode_for(*SERVE_PACKAGES)
    return f"workbench {__version__}\napp:   {app}\nserve: {serve}"


class _VersionAction(argparse.Action):
    """``--version``: the text, then exit 0 (argparse's own wants the text before the parser is built)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="workbench",
        description="A terminal analysis workbench for Tic-Tac-Toe and its family: any board up to 15x15, k in a row, "
        "normal or misère.",
    )
    parser.add_argument("--db", metavar="PATH", help="the library file (default: your data folder)")
    parser.add_argument(
        "--version",
        action=_VersionAction,
        help="the version, and whether the app and serve run on their fast path or on stock Textual, and why",
    )
    parser.add_argument(
        "--game",
        metavar="VARIANT",
        dest="app_game",
        help=f"the app starts a new game of this variant, {VARIANT_FORM} (default: the last one played)",
    )
    # subparsers are made of the parser's own class (one-line errors) by argparse's default
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    db_option = _Parser(add_help=False)  # pragma: no mutate - argparse reads None as False
    db_option.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help="the library file")
    game_option = _Parser(add_help=False)  # pragma: no mutate - argparse reads None as False
    game_option.add_argument(
        "--game",
        metavar="VARIANT",
        default=DEFAULT_GAME,
        help=f"the board and rule, {VARIANT_FORM} (default: {DEFAULT_GAME})",
    )

    analyze_cmd = commands.add_parser(
        "analyze", parents=[db_option, game_option], help="analyse a position, a move list, or every position"
    )
    source = analyze_cmd.add_mutually_exclusive_group()
    source.add_argument(
        "position",
        nargs="?",
        help="a position such as X.O/.X./..O (one starting with '-': after `--`, or --position=…; none: the empty "
        "board)",
    )
    source.add_argument(
        "--position", dest="position_option", metavar="POSITION", help="the same, as an option: --position=-X-/---/---"
    )
    source.add_argument("--moves", help="a move list from the empty board, such as 5,1,9 or 519")
    source.add_argument("--all", action="store_true", help="every reachable position (JSON Lines with --json)")
    source.add_argument(
        "--study",
        metavar="STUDY",
        help="the current node of a saved study: a study file (.json), or a library study's name",
    )
    analyze_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    analyze_cmd.add_argument(
        "--budget",
        default=DEFAULT_BUDGET,
        help=f"time for the search of a board above 16 cells (5s, 500ms, 2m; default {DEFAULT_BUDGET})",
    )
    analyze_cmd.add_argument(
        "--nodes", type=positive_int, default=DEFAULT_NODES, help=f"nodes for that search (default {DEFAULT_NODES:,})"
    )
    analyze_cmd.add_argument(
        "--all-moves",
        action="store_true",
        help="above 16 cells: a row for every move, those the search did not reach too",
    )

    review_cmd = commands.add_parser(
        "review", parents=[db_option], help="rate every move of a line: best, inaccurate, mistake"
    )
    review_cmd.add_argument(
        "source",
        nargs="?",
        help="a study file (.json) or a library study's name (its current line, from its start), or a move list",
    )
    review_cmd.add_argument(
        "--moves",
        help="a move list from the empty board, such as 1,2,4,7 or 1247 (on other boards h8,h9 or cell numbers)",
    )
    review_cmd.add_argument(
        "--game",
        metavar="VARIANT",
        help=f"the board and rule of a move list, {VARIANT_FORM} (default: {DEFAULT_GAME}; a study names its own)",
    )
    review_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    review_cmd.add_argument(
        "--budget",
        default=DEFAULT_REVIEW_BUDGET,
        help=f"above 16 cells: time for the search of each position (default {DEFAULT_REVIEW_BUDGET})",
    )
    review_cmd.add_argument(
        "--nodes",
        type=positive_int,
        default=DEFAULT_NODES,
        help=f"nodes for each of those searches (default {DEFAULT_NODES:,})",
    )

    explain_cmd = commands.add_parser(
        "explain",
        parents=[db_option, game_option],
        help="a move explained in words: its verdict and the line that proves it",
    )
    explained = explain_cmd.add_mutually_exclusive_group()
    explained.add_argument(
        "position",
        nargs="?",
        help="a position such as X.O/.X./..O, with --move (one starting with '-': after `--`, or --position=…)",
    )
    explained.add_argument(
        "--position", dest="position_option", metavar="POSITION", help="the same, as an option: --position=-X-/---/---"
    )
    explain_cmd.add_argument("--move", metavar="CELL", help="the move to explain in POSITION (5, or b2)")
    explain_cmd.add_argument(
        "--moves", help="a move list from the empty board: its last move is explained (1,2 explains O's 2)"
    )
    explain_cmd.add_argument(
        "--budget",
        default=DEFAULT_REVIEW_BUDGET,
        help=f"above 16 cells: time for the search of the position (default {DEFAULT_REVIEW_BUDGET})",
    )
    explain_cmd.add_argument(
        "--nodes", type=positive_int, default=DEFAULT_NODES, help=f"nodes for that search (default {DEFAULT_NODES:,})"
    )
    explain_cmd.add_argument(
        "--all",
        action="store_true",
        help="every move of every position of a board of at most 12 cells (JSON Lines with --json)",
    )
    explain_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    puzzles_cmd = commands.add_parser(
        "puzzles",
        parents=[db_option, game_option],
        help="positions with exactly one right move, from the exact values; kept in the library",
    )
    puzzles_cmd.add_argument(
        "--count",
        metavar="N",
        type=positive_int,
        default=DEFAULT_PUZZLES,
        help=f"how many, spread from the easiest to the hardest (default {DEFAULT_PUZZLES})",
    )
    puzzles_cmd.add_argument(
        "--answers", action="store_true", help="show each puzzle's answer (the JSON always holds it)"
    )
    puzzles_cmd.add_argument(
        "--theme",
        metavar="THEME",
        choices=PUZZLE_THEMES,
        help="only puzzles of this theme, a fact of the answer: win, block, fork, 'only move', 'hold out' or 'misère "
        "squeeze'",
    )
    puzzles_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    progress_cmd = commands.add_parser(
        "progress",
        parents=[db_option],
        help=(
            "practice kept in the library: per board, solved on the first try, streak, due today, by theme and by week"
        ),
    )
    progress_cmd.add_argument(
        "--game", metavar="VARIANT", help=f"only this board and rule, {VARIANT_FORM} (default: every board practised)"
    )
    progress_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    atlas_cmd = commands.add_parser(
        "atlas", help="solve every board of at most N cells under both rules: a table of their values"
    )
    atlas_cmd.add_argument(
        "--max-cells",
        metavar="N",
        type=_atlas_cells,
        default=DEFAULT_ATLAS_CELLS,
        help="every m×n board with m ≤ n and m·n ≤ N, k from 3 to n (3 to 20; past 16 for minutes each; default "
        f"{DEFAULT_ATLAS_CELLS})",
    )
    atlas_cmd.add_argument(
        "--json", action="store_true", help="one JSON record per board (JSON Lines) instead of the table"
    )
    atlas_cmd.add_argument("--csv", metavar="PATH", help="also write the table as CSV to PATH")
    atlas_cmd.add_argument(
        "--markdown",
        metavar="PATH",
        help="also write it as Markdown to PATH, with the date and this command (docs/atlas.md)",
    )
    atlas_cmd.add_argument(
        "--replace", action="store_true", help="replace the --csv and --markdown files if they exist"
    )

    for name, help_text in (
        ("census", "counts over the whole game: positions, classes, games, the 9! ledger"),
        ("first-moves", "seed 001's table: share of O replies that lose, per X opening"),
    ):
        command = commands.add_parser(name, parents=[db_option, game_option], help=help_text)
        command.add_argument("--json", action="store_true", help="machine-readable output only")

    solve_cmd = commands.add_parser(
        "solve",
        parents=[db_option, game_option],
        help="solve every position of a board of at most 20 cells, and keep the solution",
    )
    solve_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    solve_cmd.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="17-20 cells: sweep on a local Dask cluster of N worker processes (the cluster extra)",
    )
    solve_cmd.add_argument(
        "--scheduler", metavar="ADDRESS", help="17-20 cells: sweep on the Dask cluster at ADDRESS (tcp://host:8786)"
    )

    verify_cmd = commands.add_parser(
        "verify", parents=[db_option, game_option], help="check the threat planner against the exact solver"
    )
    verify_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    verify_cmd.add_argument(
        "--seed-port", action="store_true", help="also check seed 001's code as written (reported, not failed)"
    )

    games_cmd = commands.add_parser("games", parents=[db_option], help="write every complete game into the library")
    games_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    graph_cmd = commands.add_parser(
        "graph", parents=[db_option], help="the 765-class DAG: library tables, or Graphviz DOT"
    )
    graph_cmd.add_argument(
        "--dot", metavar="FILE", help="write DOT to FILE ('-' for stdout) and, with Graphviz, FILE.svg"
    )
    graph_cmd.add_argument("--replace", action="store_true", help="replace FILE (and its SVG) if they exist")

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

    library_cmd = commands.add_parser(
        "library", parents=[db_option], help="check the library file, or salvage its studies"
    )
    library_sub = library_cmd.add_subparsers(dest="library_command", metavar="ACTION", required=True)
    check_cmd = library_sub.add_parser(
        "check", parents=[db_option], help="integrity, schema and every study (read-only)"
    )
    check_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    salvage_cmd = library_sub.add_parser(
        "salvage", parents=[db_option], help="copy every readable study into a new library"
    )
    salvage_cmd.add_argument("out", metavar="OUT", help="the new library file (must not exist)")
    salvage_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    open_cmd = commands.add_parser("open", parents=[db_option], help="open the app on a saved study")
    open_cmd.add_argument("study", help="a study file (.json), or the name of a study in the library")

    export_cmd = commands.add_parser(
        "export", parents=[db_option], help="print a saved study's move text (variations in parentheses)"
    )
    export_cmd.add_argument("file", metavar="STUDY", help="a study file (.json), or a library study's name")
    export_cmd.add_argument("--json", action="store_true", help="machine-readable output only")

    serve_cmd = commands.add_parser("serve", parents=[db_option], help="serve the app to browser tabs, one app per tab")
    serve_cmd.add_argument(
        "--host",
        default=DEFAULT_SERVE_HOST,
        help=f"the address to listen on (default: {DEFAULT_SERVE_HOST}, this machine only)",
    )
    serve_cmd.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_SERVE_PORT,
        help=f"the port (default: {DEFAULT_SERVE_PORT}; 0 for any free one)",
    )
    serve_cmd.add_argument(
        "--game", metavar="VARIANT", help="each tab starts a new game of this variant (default: the last one played)"
    )
    serve_cmd.add_argument("--debug", action="store_true", help="let Textual's devtools attach to each tab's app")
    key = serve_cmd.add_mutually_exclusive_group()
    key.add_argument(
        "--token",
        metavar="VALUE",
        type=_serve_option("check_token"),
        help="the key the printed address carries (default: $WORKBENCH_SERVE_TOKEN, else a new random one at each "
        "start; other users see a command's arguments)",
    )
    key.add_argument("--token-file", metavar="PATH", help="read the key from this file (its first line)")
    key.add_argument(
        "--no-token",
        action="store_true",
        help="let requests in without a key (any program on this machine can then use the app and the library)",
    )
    serve_cmd.add_argument(
        "--keep-token",
        action="store_true",
        help="keep the printed address a key while the server runs (by default the first page loaded with it "
        "spends it: a second browser, or a script, needs this; stock mode keeps it anyway)",
    )
    serve_cmd.add_argument(
        "--allow-origin",
        metavar="ORIGIN",
        action="append",
        type=_serve_option("check_origin"),
        help="let pages of this origin (scheme://host:port) use the server too; repeat for more",
    )
    serve_cmd.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        type=_serve_option("check_allowed_host"),
        help="answer requests that name this host too (NAME at any port, NAME:PORT at that one); repeat for more",
    )
    serve_cmd.add_argument(
        "--max-tabs",
        metavar="N",
        type=_tab_count,
        default=DEFAULT_MAX_TABS,
        help=f"at most this many tabs' apps at once (default: {DEFAULT_MAX_TABS})",
    )

    shots_cmd = commands.add_parser("screenshots", help="write SVG screenshots of the main views")
    shots_cmd.add_argument(
        "folder", nargs="?", default=DEFAULT_SCREENSHOTS, help=f"where to write them (default: {DEFAULT_SCREENSHOTS})"
    )

    bench_cmd = commands.add_parser(
        "bench", parents=[game_option], help="time the engine against the seeds' direct methods"
    )
    bench_cmd.add_argument("--json", action="store_true", help="machine-readable output only")
    bench_cmd.add_argument("--quick", action="store_true", help="fewer repeats of each timing")
    bench_cmd.add_argument("--no-tui", action="store_true", help="skip the app's launch and keypress timings")
    bench_cmd.add_argument(
        "--keys",
        type=_bench_keys,
        metavar="N",
        help="keys timed a scenario in the terminal (40 by default, 10 with --quick): more make a steadier p95",
    )
    bench_cmd.add_argument(
        "--browser",
        action="store_true",
        help="also serve the app to 8 tabs of headless Chromium at once and time them (needs chromium and playwright)",
    )
    return parser


def _port(text: str) -> int:
    if not (text.isdigit() and text.isascii()) or len(text) > 5 or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{quoted(text, 20)} is not a port (0 to 65535)")
    return int(text)


def _serve_option(check_name: str):
    """An argument type from one of :mod:`workbench.web.access`'s checks: the value as it gave it back."""

    def checked(text: str):
        from ..web import access

        try:
            getattr(access, check_name)(text)
        except access.AccessError as error:  # its message names the option; argparse names it again
            raise argparse.ArgumentTypeError(str(error).split(" ", 1)[1]) from None
        return text

    checked.__name__ = check_name.removeprefix("check_").replace("_", " ")
    return checked


def _atlas_cells(text: str) -> int:
    from ..engine.atlas import MAX_ATLAS_CELLS, MIN_ATLAS_CELLS

    cells = positive_int(text)
    if cells < MIN_ATLAS_CELLS:
        raise argparse.ArgumentTypeError(
            f"{text!r}: the smallest board of the atlas, 1x3k3, has {MIN_ATLAS_CELLS} cells"
        )
    if cells > MAX_ATLAS_CELLS:
        raise argparse.ArgumentTypeError(
            f"{quoted(text, 20)}: at most {MAX_ATLAS_CELLS}, the largest boards solved here "
            f"(past them 5x5 alone has 1.6 x 10^11 positions: a cluster's work)"
        )
    return cells


MAX_BENCH_KEYS = 1000
"""The most keys a scenario of the terminal bench takes (each waits a quarter of a second of quiet: 1,000 keys of
both apps over every scenario and size is over an hour)."""


def _bench_keys(text: str) -> int:
    keys = positive_int(text)
    if keys > MAX_BENCH_KEYS:
        raise argparse.ArgumentTypeError(f"{quoted(text, 20)}: at most {MAX_BENCH_KEYS} keys a scenario")
    return keys


def _tab_count(text: str) -> int:
    count = positive_int(text)
    if count > 10_000:
        raise argparse.ArgumentTypeError(f"{quoted(text, 20)}: at most 10000 tabs")
    return count
