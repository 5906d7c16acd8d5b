"""What every command shares: the exit codes and defaults, one-line text for the user's input, JSON output, the
variant and position a command was given, the library it opens, the progress of a strong solve."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .. import errors

if TYPE_CHECKING:
    from ..engine import Position

EXIT_BAD_INPUT = 2
DEFAULT_GAME = "3x3k3"  # the rules of every command that takes --game, when it is not given
DEFAULT_BUDGET = "5s"  # the search of a board above 16 cells: its time, and its nodes
DEFAULT_NODES = 20_000_000
DEFAULT_ATLAS_CELLS = 16  # `workbench atlas`: every board of at most this many cells, the largest solved strongly
DEFAULT_PUZZLES = 12  # `workbench puzzles`: how many, spread from the easiest to the hardest
DEFAULT_REVIEW_BUDGET = "2s"  # `review` above 16 cells: the search of each position before a move
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


def printable(text: str) -> str:
    """``text`` with control characters written as escapes (``\\x1b``, ``\\n``), so that a message
    that quotes the user's input stays one line and cannot steer the terminal."""
    return "".join(character if character.isprintable() else _escape(character) for character in text)


def quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut after ``limit`` characters with a mark that it was cut (a huge argument
    made an error line as long; a silent cut shows another value than the one given)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def _escape(character: str) -> str:
    # repr escapes exactly the characters that isprintable() refuses, so it always has a form for them
    return repr(character)[1:-1]


class OutputError(errors.WorkbenchError):
    """Standard output cannot be written (closed, a full disk, a device that refuses): the user's redirection, not
    the workbench's fault."""


class GuardedOutput:
    """Standard output, whose write errors (but a broken pipe, which means the reader has all it wanted) are an
    :class:`OutputError`: ``workbench analyze > /dev/full`` is one line and exit 2, not a bug report."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(f"cannot write the output: {error.strerror or error}") from error

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(f"cannot write the output: {error.strerror or error}") from error

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextmanager
def guarded_output() -> Iterator[None]:
    """Standard output guarded while a command runs, and flushed before it ends (a full disk shows at the flush);
    a closed standard output (``>&-``) is an :class:`OutputError` at once."""
    stream = sys.stdout
    if stream is None:
        raise OutputError("cannot write the output: standard output is closed")
    sys.stdout = GuardedOutput(stream)
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout = stream


def refuse_to_replace(path: str, option: str = "") -> None:
    """A file the user made is never silently replaced: one line naming ``path`` (after its ``option``) where it
    exists and ``--replace`` was not given. A folder is left to the writer, which says it cannot write there.

    :raises UsageError: ``path`` exists."""
    import os

    if os.path.lexists(path) and not os.path.isdir(path):
        raise already_there(path, option)


def already_there(path: str, option: str = "") -> UsageError:
    """The one line for a file that exists where ``--replace`` was not given (:func:`refuse_to_replace`)."""
    named = f"{option} {path!r}" if option else repr(path)
    return UsageError(f"{named} exists already (write to another file, or --replace it)")


def print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data) + "\n")


def console():
    from rich.console import Console

    return Console()


def position_from(args: argparse.Namespace) -> Position:
    from ..engine import Position, parse_moves, parse_position

    geometry = game_of(args)
    if args.study is not None:
        return study_named(args, args.study).position
    if args.moves is not None:
        start = Position.empty(geometry)
        return start.play_all(parse_moves(args.moves, start))
    text = position_text(args)
    if text is None:  # nothing named: the game's empty board, as the app starts
        return Position.empty(geometry)
    return parse_position(text, geometry)


def position_text(args: argparse.Namespace) -> str | None:
    """The position named, as the argument or as ``--position=…`` (for one that starts with '-'); None: neither."""
    return args.position if args.position is not None else args.position_option


def is_study_path(target: str) -> bool:
    """``open`` and ``review`` read this as a file's path, never a library name: a ``.json`` name, a folder in
    it (either separator on Windows), or a file that exists."""
    import os

    return target.endswith(".json") or os.path.basename(target) != target or os.path.exists(target)


def study_named(args: argparse.Namespace, target: str):
    """The study that ``target`` names, as ``open``, ``review`` and ``export`` read it: a study file
    (:func:`is_study_path`), else a study in the library of ``--db``.

    :raises UsageError: neither is there."""
    from ..state import load_study

    if is_study_path(target):
        return load_study(target)
    state, library_path = library_study(args, target.strip())
    if state is None:
        raise UsageError(
            f"no study file or library study called {quoted(target.strip())} (library {str(library_path)!r})"
        )
    return state


def library_study(args: argparse.Namespace, name: str):
    """(the library's study called ``name``, its state, or None where the library has none of that name;
    the library's path)."""
    from ..library import default_path, studies

    if library_is_missing(args):
        return None, args.db or default_path()
    with open_library(args, create=False) as library:
        if not studies.study_exists(library, name):
            return None, library.path
        return studies.open_study(library, name), library.path


POSITIVE_INT_DIGITS = 12
"""The most digits a count, a node budget or a board's cells may have (more is no count any command could reach)."""


def positive_int(text: str) -> int:
    digits = text.lstrip("0")
    if not (text.isdigit() and text.isascii()) or not digits:
        raise argparse.ArgumentTypeError(f"{quoted(text, 20)} is not a positive whole number")
    if len(digits) > POSITIVE_INT_DIGITS:  # (before int(): Python refuses to read thousands of digits)
        raise argparse.ArgumentTypeError(f"{quoted(text, 20)} is too large (at most {POSITIVE_INT_DIGITS} digits)")
    return int(digits)


def parse_budget(text: str) -> float:
    """Seconds from ``5s``, ``500ms``, ``2m`` or a plain number of seconds (at most a day).

    :raises UsageError: naming the text."""
    import re

    match = re.fullmatch(r"\s*(\d{1,6}(?:\.\d{1,3})?)\s*(ms|s|m)?\s*", text)
    if match is None:
        raise UsageError(f"--budget {quoted(text, 20)}: write a time such as 5s, 500ms or 2m")
    seconds = float(match.group(1)) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[match.group(2)]
    if not 0 < seconds <= 86_400:
        raise UsageError(f"--budget {quoted(text, 20)}: a time above zero and at most a day")
    return seconds


def game_of(args: argparse.Namespace):
    """The rules that ``--game`` names (every command that reads rules has the option; 3x3k3 by default)."""
    from ..engine.geometry import parse_variant

    return parse_variant(args.game)


def answers_with_progress(geometry, *, bar: bool = True):
    """:func:`workbench.kept.answers_for` of ``geometry``, with a progress line on stderr while its strong solution
    is made (when stderr is a terminal, and ``bar``)."""
    from ..kept import answers_for

    with solving_line(geometry, bar=bar) as show:
        return answers_for(geometry, show)


def solved_with_progress(geometry, *, bar: bool = True):
    """(solution, where) of :func:`workbench.kept.tables.strong_solution`, with a progress line on stderr while the
    board is solved when stderr is a terminal (and ``bar``)."""
    from ..kept.tables import strong_solution

    with solving_line(geometry, bar=bar) as show:
        return strong_solution(geometry, show)


@contextmanager
def solving_line(geometry, *, bar: bool = True) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress callback (stage, done, total) that draws one line on stderr while ``geometry`` is solved, ended
    when the block is, whatever stage came last; None where stderr is not a terminal (or not ``bar``)."""
    if not (bar and sys.stderr.isatty()):
        yield None
        return
    import time

    from ..engine.solve_progress import describe_progress, solve_fraction

    started = False  # pragma: no mutate - None would be as false
    began = time.monotonic()

    def show(stage: str, done: int, total: int) -> None:
        nonlocal started
        started = True
        width = 30
        fraction = solve_fraction(geometry, stage, done, total)
        filled = round(width * fraction)
        line = (
            f"solving {geometry} [{'#' * filled}{'.' * (width - filled)}] "
            f"{describe_progress(stage, fraction, time.monotonic() - began)}"
        )
        print(f"\r{line:<100}", end="", file=sys.stderr, flush=True)  # padded: a shorter line covers a longer one

    try:
        yield show
    finally:
        if started:  # end the line, whatever stage came last
            print(file=sys.stderr)


def open_library(args: argparse.Namespace, *, create: bool = True):
    """The library of ``--db`` (every command that opens the library has it), else the user's. A command that only
    reads gives ``create=False``: a library that is not there is an error, not a new file (with its folders) at a
    mistyped path."""
    from ..library import Library

    return Library.open(args.db, create=create)


def library_is_missing(args: argparse.Namespace) -> bool:
    """Whether the library of ``--db`` (else the user's) is not there, or is an empty file: a reading command then
    has nothing to read."""
    from pathlib import Path

    from ..library import default_path
    from ..library.db import is_empty_file, library_exists

    path = Path(args.db) if args.db else default_path()
    return not library_exists(path, "cannot open") or is_empty_file(path)
