"""What the main screen's frames left on the terminal, and the cells of a chop that differ from it.

A key changes a few cells of each pane it touches (a mark, an underline, a number), and Textual writes every cell of
each chop those changes meet: a step through the game wrote several times the cells that changed, in more bytes than
a pty hands its reader in one piece, and the rest came later (figures: docs/benchmarks.md). Here a chop already on
the terminal is compared with the one to be written, segment by segment, and only the runs of segments that differ
(in text or in style) are written; equal segments a few cells wide between two changed runs are written with them,
as a cursor move to skip them costs about as much.

The record (:class:`ShownChops`) holds, for each row, by chop start, the column a chop's writing stopped at and the
strip written there. Chops partition each row between the compositor's cuts and a frame writes a chop from its
start, so the record stays true while the cuts are the same and nothing else draws on the terminal: it is emptied
when the cuts change, and when another screen draws over this one; a full update writes every chop and records
them all. A chop with no record, or with one of another extent, is written whole.

Of Textual, one private name is read: a strip's segments (``Strip._segments``), as Textual's own code reads them.
May import Rich, Textual and :mod:`.sgr`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cached_cell_len
from rich.segment import Segment
from textual.strip import Strip

from .sgr import StyleWriter

GAP = 8
"""The most equal cells between two changed runs of a chop that are written rather than skipped: a cursor move to
skip them takes about as many bytes (``ESC[row;colH``)."""

Run = tuple[int, int, int, int]
"""Cells ``[start, end)`` of a chop, and the segments ``[first, last)`` that draw them."""


class ShownChops:
    """What this screen's frames left on the terminal, chop by chop, while nothing else has drawn there (see the
    module's docstring)."""

    def __init__(self) -> None:
        self.cuts: list[list[int]] | None = None
        self.rows: dict[int, dict[int, tuple[int, Strip]]] = {}
        """Row → chop start → (the column its writing stopped at, the strip written)."""

    def forget(self) -> None:
        """Nothing on the terminal is known (another screen drew over it)."""
        self.cuts = None
        self.rows = {}

    def rows_for(self, cuts: list[list[int]]) -> dict[int, dict[int, tuple[int, Strip]]]:
        """The record, emptied first if it was made for other cuts."""
        if cuts is not self.cuts:
            self.cuts, self.rows = cuts, {}
        return self.rows


def changed_runs(before: Sequence[Segment], after: Sequence[Segment]) -> list[Run]:
    """The runs of ``after``'s segments that differ from ``before``'s (strips of the same cells): where both have
    segments of the same widths, each that differs, runs at most :data:`GAP` equal cells apart joined; otherwise
    everything between the segments equal at both ends. A segment compares whole (its text, its style, meta and
    all), so a run may hold equal cells, never leave out a changed one."""
    runs: list[Run] = []
    if len(before) == len(after):
        position = 0
        for index, new in enumerate(after):
            old = before[index]
            text = new[0]
            width = len(text) if text.isascii() else cached_cell_len(text)
            if old is not new and old != new:
                old_text = old[0]
                if (len(old_text) if old_text.isascii() else cached_cell_len(old_text)) != width:
                    break  # the cells part ways: the ends alone
                if runs and position - runs[-1][1] <= GAP:
                    runs[-1] = (runs[-1][0], position + width, runs[-1][2], index + 1)
                else:
                    runs.append((position, position + width, index, index + 1))
            position += width
        else:
            return runs
    shorter = min(len(before), len(after))
    front = start = 0
    while front < shorter and before[front] == after[front]:
        start += cached_cell_len(after[front][0])
        front += 1
    back, end = 0, sum(cached_cell_len(segment[0]) for segment in after)
    while back < shorter - front and before[-1 - back] == after[-1 - back]:
        end -= cached_cell_len(after[-1 - back][0])
        back += 1
    return [(start, end, front, len(after) - back)] if start < end else []


def write_chop(
    writer: StyleWriter,
    append: Callable[[str], None],
    row: int,
    x: int,
    strip: Strip,
    before: Strip | None,
) -> None:
    """Write ``strip`` at column ``x`` of ``row`` (1-based) over ``before`` (the strip the terminal shows there, of
    the same cells, or None when that is not known): only the runs of segments that differ."""
    if before is not None:
        segments = strip._segments
        runs = changed_runs(before._segments, segments)
        if len(runs) != 1 or runs[0][2] != 0 or runs[0][3] != len(segments):
            for start, _, first, last in runs:
                append(f"\x1b[{row};{x + start + 1}H")  # Control.move_to
                writer.write(segments[first:last], append)
            return
    append(f"\x1b[{row};{x + 1}H")  # Control.move_to
    writer.write_strip(strip, append)
