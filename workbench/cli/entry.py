"""``workbench``'s entry: the arguments parsed and handed to their command; every error of the user's
(:mod:`workbench.errors`) one line and exit 2, anything else a bug report and exit 1."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .. import errors
from .common import EXIT_BAD_INPUT, EXIT_BUG, EXIT_INTERRUPTED, UsageError, guarded_output, printable
from .parser import build_parser

if TYPE_CHECKING:
    import sqlite3


def _sqlite_error() -> type[sqlite3.Error] | tuple[()]:
    """SQLite's error class, or nothing to catch where SQLite was never loaded (a command that opens no library
    raises none of its errors, and does not load it to find out)."""
    sqlite3 = sys.modules.get("sqlite3")
    return () if sqlite3 is None else sqlite3.Error


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = None  # pragma: no mutate - read only by the sqlite3 net below, which parse_args never reaches
    try:
        args = parser.parse_args(argv)
        _refuse_empty_values(args)
        if args.command is None:
            return run_app(db=args.db, app_game=args.app_game)
        if args.app_game is not None:
            raise UsageError(
                "argument --game: before a command it names the app's variant; write it after the command (workbench "
                f"{args.command} --game VARIANT)"
            )
        if args.command in UNGUARDED:
            return COMMANDS[args.command](args)
        with guarded_output():
            return COMMANDS[args.command](args)
    # the library's modules (and sqlite3's) only once an error is to be told: the app's first paint needs neither
    except errors.WorkbenchError as error:  # the user's input, usage or library: one line (workbench.errors)
        print(f"workbench: error: {printable(str(error))}{_dash_hint(error, argv)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except _sqlite_error() as error:  # the library's own code turns these into LibraryError; this is the last net
        from ..library import default_path
        from ..library.db import describe

        assert args is not None  # pragma: no mutate - parse_args raises no SQLite error
        path = args.db or default_path()
        print(f"workbench: error: library {printable(repr(str(path)))}: {printable(describe(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. `workbench analyze --all --json | head`
        sys.stderr.close()
        return 0
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
        if value == "" and dest in _NAMING_OPTIONS:  # `--dot ""` wrote the library's tables; `--db ""` read '.'
            as_option = args.command == "analyze" or getattr(args, "studies_command", None) == "import"
            positional = dest in ("name", "study") and not as_option
            option = dest.upper() if positional else _NAMING_OPTIONS[dest]
            raise UsageError(f"argument {option}: empty; it names {_NAMED[dest]}")
        if value == []:
            # --position=-- is the only option whose name is not its dest; no other option taking a value
            # has an underscore in its dest to turn back into a dash
            option = "--position" if dest == "position_option" else "--" + dest
            raise UsageError(f"argument {option}: '--' is not a value it can take")


UNGUARDED = ("serve", "open")
"""Commands that run a server or the app: they may run detached, standard output closed, as they always could
(the app and Textual write to the terminal itself); every other command's output is guarded."""

_NAMING_OPTIONS = {
    "db": "--db",
    "dot": "--dot",
    "csv": "--csv",
    "markdown": "--markdown",
    "study": "--study",
    "token_file": "--token-file",
    "name": "--as",
}
"""Options whose value names a file or a study, by their dest: an empty value is a mistake, never "the default"."""
_NAMED = {"name": "a study in the library", "study": "a study"}
_NAMED.update((dest, "a file") for dest in _NAMING_OPTIONS if dest not in _NAMED)


def _dash_hint(error: Exception, argv: Sequence[str] | None) -> str:
    """How to pass a position that argparse took for an option (it starts with '-'), or options it took for the
    position (they came after ``--``), in the command's own words."""
    if not isinstance(error, UsageError):
        return ""
    arguments = sys.argv[1:] if argv is None else list(argv)
    # a time below zero after `--budget`: argparse takes a word that starts with '-' (and is not a plain negative
    # number) for an option
    option = re.match(r"argument (--[\w-]+)(?:/-\w)?: expected one argument$", str(error))
    if option is not None:
        for before, word in zip(arguments, arguments[1:], strict=False):
            # a number or a time below zero, not another option (`--budget --json` lacks its value)
            if before == option.group(1) and re.match(r"-[\d.]", word):
                return f" (a value that starts with '-' is written {before}={word})"
    command = next((word for word in arguments if word in _POSITION_COMMANDS), "analyze")
    example = _POSITION_COMMANDS[command]
    if "--" in arguments and any(word.startswith("--") for word in arguments[arguments.index("--") + 1 :]):
        return f" (after `--` every word is the position: options go before it, as in `{example}`)"
    # (a word that starts with "-" and holds a "/" is two characters at least: no length check needed)
    if any(word.startswith("-") and not word.startswith("--") and "/" in word for word in arguments):
        return f" (a position that starts with '-' goes after `--`, as in `{example}`, or as --position=-X-/---/---)"
    return ""


_POSITION_COMMANDS = {
    "analyze": "workbench analyze --json -- -X-/---/---",
    "explain": "workbench explain --move 5 -- -X-/---/---",
}
"""The commands that take a position, with how one starting with '-' is given to each."""


class _Command:
    """A command's function, its module imported when the command runs: ``--version`` and ``--help`` load none of
    them, nor what they import (the engine among it)."""

    def __init__(self, module: str, function: str) -> None:
        self.module, self.function = module, function

    def __call__(self, args: argparse.Namespace) -> int:
        from importlib import import_module

        return getattr(import_module(f".{self.module}", __package__), self.function)(args)


def run_app(**options) -> int:
    """:func:`workbench.cli.app.run_app`, its module imported when the app is to run."""
    from .app import run_app as run

    return run(**options)


COMMANDS = {
    name: _Command(module, function)
    for name, module, function in (
        ("serve", "app", "cmd_serve"),
        ("library", "library", "cmd_library"),
        ("games", "library", "cmd_games"),
        ("graph", "library", "cmd_graph"),
        ("studies", "library", "cmd_studies"),
        ("screenshots", "app", "cmd_screenshots"),
        ("open", "app", "cmd_open"),
        ("export", "library", "cmd_export"),
        ("analyze", "analysis", "cmd_analyze"),
        ("review", "review", "cmd_review"),
        ("explain", "review", "cmd_explain"),
        ("census", "analysis", "cmd_census"),
        ("first-moves", "analysis", "cmd_first_moves"),
        ("verify", "analysis", "cmd_verify"),
        ("bench", "bench", "cmd_bench"),
        ("solve", "analysis", "cmd_solve"),
        ("puzzles", "puzzles", "cmd_puzzles"),
        ("progress", "puzzles", "cmd_progress"),
        ("atlas", "atlas", "cmd_atlas"),
    )
}
"""Each command's function by its name, loaded as it runs."""
