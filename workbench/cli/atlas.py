"""``workbench atlas``: every board of the family of at most N cells solved, under both rules, and what each one's
strong solution says of the whole game, as a table (text, JSON Lines, CSV, Markdown).

The engine reads each record off a solution (:mod:`workbench.engine.atlas`); this edge reads the solutions back
from the cache or has them made, shows one progress line for the whole run, and writes the files: each to a
temporary file beside its target, renamed into place only once the whole run is done, so an interrupted or failed
run leaves no half-written file, and a target that cannot be written is said before any board is solved.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import shlex
import signal
import sys
import tempfile
import time
from typing import TYPE_CHECKING

from .common import UsageError, print_json, refuse_to_replace

if TYPE_CHECKING:  # (engine.atlas imports numpy, which every other command's start would pay for)
    from ..engine.atlas import AtlasRecord

CSV_FIELDS = (
    "variant",
    "rows",
    "cols",
    "k",
    "misere",
    "value",
    "remoteness",
    "keeping_first_moves",
    "best_first_moves",
    "first_move_classes",
    "positions",
    "classes",
    "games",
    "x_wins",
    "o_wins",
    "draws",
    "dead_draws",
    "dead_draw_share",
)
"""The CSV's columns, in order (its header line)."""
MARKDOWN_COLUMNS = (
    "board",
    "rule",
    "value",
    "first moves that keep it",
    "best first moves ★",
    "first moves",
    "positions",
    "classes",
    "games",
    "X wins",
    "O wins",
    "draws",
    "dead draws",
)


def cmd_atlas(args: argparse.Namespace) -> int:
    from ..engine.atlas import atlas_boards

    targets = [(option, path) for option, path in (("--csv", args.csv), ("--markdown", args.markdown)) if path]
    if args.csv and args.markdown and os.path.realpath(args.csv) == os.path.realpath(args.markdown):
        raise UsageError(f"--csv and --markdown name the same file {args.csv!r}: give each its own")
    if not args.replace:
        for option, path in targets:
            refuse_to_replace(path, option)
    pending: list[_Pending] = []
    previous = _stop_on_sigterm()
    try:
        for option, path in targets:  # each target checked before any work (and discarded if a later one fails)
            pending.append(_Pending(option, path, args.replace))
        started = time.monotonic()
        records, sources = _solve_all(atlas_boards(args.max_cells), started, streamed=args.json)
        seconds = time.monotonic() - started
        texts = {
            "--csv": lambda: csv_text(records),
            "--markdown": lambda: markdown_text(records, time.strftime("%Y-%m-%d", time.gmtime()), command_of(args)),
        }
        for target in pending:
            target.commit(texts[target.option]())
    finally:
        for target in pending:
            target.discard()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    if args.json:  # each record was written as its board was done
        return 0
    print("\n".join(text_lines(records)))
    solved = sum(source == "solved" for source, _ in sources)
    print(
        f"{len(records)} boards of at most {args.max_cells} cells, both rules: {solved} solved, "
        f"{len(records) - solved} read back, in {seconds:.1f} s"
        + "".join(f"; {option[2:]} written to {path}" for option, path in targets)
    )
    return 0


def _stop_on_sigterm():
    """A run takes minutes: SIGTERM (a ``kill``, a closed session) stops it as ctrl+c does, so that its temporary
    files are removed on the way out. The handler it replaces, or None where none can be set (not the main thread)."""

    def stop(signum, frame):
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:
        return None


def _solve_all(boards, started: float, *, streamed: bool) -> tuple[list[AtlasRecord], list[tuple[str, float]]]:
    """Each board's record and (where its solution came from, seconds), with one progress line on a terminal; with
    ``streamed``, each record's JSON line written as soon as its board is done (a program reads them as they come)."""
    from ..engine.atlas import atlas_record, board_weight, describe_run, record_data, run_fraction
    from ..engine.geometry import MAX_STRONG_CELLS
    from ..engine.solve_progress import solve_fraction
    from ..kept.solving import is_kept, solve_and_keep
    from ..kept.tables import strong_cache_path, strong_solution

    show = sys.stderr.isatty()
    kept = [strong_cache_path(board).exists() if board.size <= MAX_STRONG_CELLS else is_kept(board) for board in boards]
    weights = tuple(board_weight(board, kept=was_kept) for board, was_kept in zip(boards, kept))
    records, sources = [], []

    def draw(number: int, board, stage: str, within: float) -> None:
        fraction = run_fraction(weights, number, within)
        line = (
            f"atlas [{_bar(fraction)}] "
            f"{describe_run(number, len(boards), str(board), stage, fraction, time.monotonic() - started)}"
        )
        print(f"\r{line:<130}", end="", file=sys.stderr, flush=True)  # padded: a shorter line covers a longer one

    try:
        for number, board in enumerate(boards):
            if show:
                draw(number, board, "reading the kept solution" if kept[number] else "solving", 0.0)

            def progress(stage: str, done: int, total: int, number=number, board=board) -> None:
                if show:
                    draw(number, board, stage, solve_fraction(board, stage, done, total))

            began = time.monotonic()
            if board.size <= MAX_STRONG_CELLS:
                solution, source = strong_solution(board, progress)
            else:  # the ranked sweep, kept in Zarr: its games and dead draws are not counted

                def swept(fraction: float, number=number, board=board) -> None:
                    if show:
                        draw(number, board, "values, ply by ply back", fraction)

                solution, source, _ = solve_and_keep(board, swept)
                if solution is None:
                    raise UsageError(
                        f"atlas past {MAX_STRONG_CELLS} cells reads the solutions it keeps: the cache is turned off "
                        "(WORKBENCH_NO_TABLES_CACHE)"
                    )
            if show:
                draw(
                    number, board, "counting dead draws" if board.size <= MAX_STRONG_CELLS else "counting classes", 1.0
                )
            records.append(atlas_record(solution))
            sources.append((source, time.monotonic() - began))
            if streamed:
                print_json(record_data(records[-1]) | {"source": source, "seconds": round(sources[-1][1], 3)})
                sys.stdout.flush()
            del solution  # a 16-cell board's holds a byte per ternary index: one at a time
    finally:
        if show:
            print(file=sys.stderr)
    return records, sources


def _bar(fraction: float, width: int = 30) -> str:
    filled = round(width * fraction)
    return "#" * filled + "." * (width - filled)


class _Pending:
    """A file to be written at the end of the run: a temporary file beside ``path`` (or beside the file a link at
    ``path`` names), made now (so a path that cannot be written is one line before the run), put in place by
    :meth:`commit`: over ``path`` only with ``replace``, so a file made there during the run is kept."""

    def __init__(self, option: str, path: str, replace: bool) -> None:
        from ..state.study import write_target

        self.option, self.path, self.replace = option, path, replace
        self.target = write_target(path)
        self.temporary: str | None
        """The temporary file, until it is renamed over ``path`` or removed."""
        folder = os.path.dirname(os.path.abspath(self.target))
        try:
            if os.path.isdir(path):
                raise IsADirectoryError(21, "a folder")  # (os.replace would fail only at the end)
            handle, self.temporary = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".tmp", dir=folder)
        except OSError as error:
            raise UsageError(f"{option} {path!r}: cannot write there ({error.strerror or error})") from None
        os.close(handle)

    def commit(self, text: str) -> None:
        from ..state.study import mode_for, put_in_place

        assert self.temporary is not None  # pragma: no mutate - committed once
        try:
            with open(self.temporary, "w", encoding="utf-8", newline="") as stream:
                stream.write(text)
            os.chmod(self.temporary, mode_for(self.target))  # the replaced file's, else a new file's: not private
            put_in_place(self.temporary, self.target, replace=self.replace)
        except FileExistsError:
            raise UsageError(
                f"{self.option} {self.path!r} was made by something else during the run, and is kept (write to "
                "another file, or --replace it)"
            ) from None
        except OSError as error:
            raise UsageError(f"{self.option} {self.path!r}: cannot write there ({error.strerror or error})") from None
        self.temporary = None

    def discard(self) -> None:
        if self.temporary is not None:
            try:
                os.unlink(self.temporary)
            except OSError:
                pass
            self.temporary = None


def command_of(args: argparse.Namespace) -> str:
    """The command that makes the Markdown, as it was given: every option of ``atlas`` in one order."""
    words = ["workbench", "atlas", "--max-cells", str(args.max_cells)]
    if args.json:
        words.append("--json")
    for option, path in (("--csv", args.csv), ("--markdown", args.markdown)):
        if path:
            words += [option, path]
    if args.replace:
        words.append("--replace")
    return shlex.join(words)


def csv_text(records: list[AtlasRecord]) -> str:
    """The records as CSV, a header line first; the first moves by name, separated by spaces."""
    from ..engine.atlas import record_data

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for record in records:
        data = record_data(record)
        games = data["games"] or dict.fromkeys(("total", "x", "o", "draw"), "")  # not counted: empty fields
        writer.writerow(
            [
                data["variant"],
                data["rows"],
                data["cols"],
                data["k"],
                int(data["misere"]),
                data["value"],
                data["remoteness"],
                " ".join(data["keeping_first_moves"]),
                " ".join(data["best_first_moves"]),
                data["first_move_classes"],
                data["positions"],
                data["classes"],
                games["total"],
                games["x"],
                games["o"],
                games["draw"],
                _blank(data["dead_draws"]),
                _blank(data["dead_draw_share"]),
            ]
        )
    return out.getvalue()


def markdown_row(record: AtlasRecord) -> str:
    """One board's row of the Markdown table."""
    from ..engine.atlas import outcome_words

    geometry, games, share = record.geometry, record.games, record.dead_draw_share
    counted = (
        (
            f"{games.total:,}",
            _share(games.x, games.total),
            _share(games.o, games.total),
            _share(games.draw, games.total),
            f"{record.dead_draws:,} ({100 * share:.2f}%)",
        )
        if games is not None and share is not None  # (dead draws are counted where games are)
        else ("not counted", "—", "—", "—", "not counted")
    )
    cells = (
        f"{geometry.rows}×{geometry.cols} k{geometry.k}",
        "misère" if geometry.misere else "normal",
        outcome_words(record),
        " ".join(record.keeping_first_names),
        " ".join(record.best_first_names),
        str(record.first_move_classes),
        f"{record.positions:,}",
        f"{record.classes:,}",
        *counted,
    )
    return "| " + " | ".join(cells) + " |"


def _blank(value) -> object:
    return "" if value is None else value


def _share(part: int, total: int) -> str:
    return f"{100 * part / total:.1f}%"


def markdown_text(records: list[AtlasRecord], date: str, command: str) -> str:
    """The atlas as Markdown: the date and the command that made it at the top, a summary of the values under
    both rules side by side, then a row for every board and rule."""
    from ..engine.atlas import outcome_words

    largest = max(record.geometry.size for record in records)
    lines = [
        "# The m,n,k atlas",
        "",
        f"Made on {date} by `{command}`: every board of at most {largest} cells (m×n with m ≤ n, k from 3 to n),",
        "under the normal rule (a line wins) and the misère rule (a line loses), each solved strongly. Generated:",
        "do not edit by hand.",
        "",
        "*value*: the empty board's under perfect play, for X who moves first (the winner hurrying, the loser",
        "delaying; a draw runs to the full board). *first moves that keep it*: every first move that keeps that value,",
        "however slowly, one per symmetry class. *best first moves ★*: of those, the ones the app marks ★, that win",
        "soonest or lose slowest (where the board is drawn, the same). *first moves*: how many there are up to",
        "symmetry. *positions*, *classes*: reachable",
        "positions, and their classes up to symmetry. *games*: complete games, each ending at the first line, and",
        "how they end (X wins, O wins, draws, by the rule). *dead draws*: positions still in play where neither",
        "side can complete a line any more, and their share of the positions. Past 16 cells the boards are solved",
        "by the ranked sweep (`workbench solve`), which keeps values only: games and dead draws are not counted there.",
        "",
        "## Values, both rules",
        "",
        "| board | normal | misère |",
        "| --- | --- | --- |",
    ]
    by_board: dict[tuple[int, int, int], dict[bool, AtlasRecord]] = {}
    for record in records:
        geometry = record.geometry
        by_board.setdefault((geometry.rows, geometry.cols, geometry.k), {})[geometry.misere] = record
    for (rows, cols, k), rules in by_board.items():
        words = [outcome_words(rules[misere]) if misere in rules else "" for misere in (False, True)]
        lines.append(f"| {rows}×{cols} k{k} | {words[0]} | {words[1]} |")
    lines += [
        "",
        "## Every board",
        "",
        "| " + " | ".join(MARKDOWN_COLUMNS) + " |",
        "| " + " | ".join("---" for _ in MARKDOWN_COLUMNS) + " |",
    ]
    lines += [markdown_row(record) for record in records]
    return "\n".join(lines) + "\n"


def text_lines(records: list[AtlasRecord]) -> list[str]:
    """The atlas as a plain table for the terminal: a line per board."""
    from ..engine.atlas import outcome_words

    lines = [
        f"{'variant':<16} {'value':<12} {'first moves keeping it':<24} {'best first moves ★':<24} {'positions':>12} "
        f"{'classes':>11} {'games':>22} {'dead draws':>10}"
    ]
    for record in records:
        moves = f"{' '.join(record.keeping_first_names):<24} {' '.join(record.best_first_names)}"
        games = f"{record.games.total:>22,}" if record.games is not None else f"{'not counted':>22}"
        share = record.dead_draw_share
        dead = f"{100 * share:>9.2f}%" if share is not None else f"{'—':>10}"
        lines.append(
            f"{record.variant:<16} {outcome_words(record):<12} {moves:<49} {record.positions:>12,} "
            f"{record.classes:>11,} {games} {dead}"
        )
    return lines
