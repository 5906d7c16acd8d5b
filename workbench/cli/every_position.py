"""``workbench analyze --all`` and ``workbench explain --all``: every reachable position of a board (every move of
every position in play), streamed to standard output in chunks (one write each, never the whole at once).

Up to 12 cells, from the board's tables (read back from the cache, or built and kept there): with ``--json`` each
position's full record (:mod:`workbench.engine.table_records`, the text of ``analyze --json`` of it), else a
line of its value and remoteness. From 13 to 16 cells, from the strong solution: the value and remoteness alone,
both ways (the full record of one position, with every move, is ``analyze`` of it).

Imports what it uses when it runs: on 3×3 the whole command is raced against OpenSpiel's sweep
(``workbench bench --game``), and the interpreter's start and the engine's import are about half of it.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..engine import Geometry
from .common import UsageError, solved_with_progress

if TYPE_CHECKING:
    from ..engine.answers import Answers
    from ..engine.results import Tables


def analyze_every_position(args: argparse.Namespace, geometry: Geometry) -> int:
    """``analyze --all`` of ``geometry``.

    :raises UsageError: above 16 cells, where positions are searched one by one."""
    from ..engine.geometry import MAX_STRONG_CELLS, MAX_TABLE_CELLS

    if geometry.size > MAX_STRONG_CELLS:
        raise UsageError(
            f"analyze --all covers boards of at most {MAX_STRONG_CELLS} cells ({geometry} has {geometry.size})"
        )
    if geometry.size > MAX_TABLE_CELLS:
        from ..engine.strong_records import every_position

        solution, _ = solved_with_progress(geometry)
        blocks = every_position(solution)
        if args.json:
            _write_rows_as_json(blocks)
        else:
            _write_rows(blocks)
        return 0
    from ..engine.table_records import every_row, record_lines

    table = _tables(geometry)
    if args.json:
        write = sys.stdout.write
        for chunk in record_lines(table):
            write(chunk)
    else:
        _write_rows(every_row(table))
    return 0


def _tables(geometry: Geometry, answers: Answers | None = None) -> Tables:
    """The tables of a board of at most 12 cells: its answers' (:func:`workbench.kept.answers_for`: read back from
    the cache, or built and kept)."""
    from ..engine.answers import TableAnswers
    from ..kept import answers_for

    answers = answers or answers_for(geometry)
    assert isinstance(answers, TableAnswers)  # pragma: no mutate - narrows types: 12 cells or fewer
    return answers.table


_EXPLAINED_A_WRITE = 2000
"""Explanations gathered before each write of ``explain --all``."""


def explain_every_move(args: argparse.Namespace, geometry: Geometry) -> int:
    """``explain --all`` of ``geometry``: each position in play, by the number of marks and then its key, and each
    of its moves, explained; with ``--json`` the record ``explain --json`` prints, one a line, else the position,
    the move and the words.

    :raises UsageError: above 12 cells (hundreds of millions of moves on 4×4)."""
    from json import dumps

    from ..engine.explain import explain, explanation_record
    from ..engine.geometry import MAX_TABLE_CELLS, cell_name
    from ..engine.position import Position, format_position

    if geometry.size > MAX_TABLE_CELLS:
        raise UsageError(
            f"explain --all covers boards of at most {MAX_TABLE_CELLS} cells ({geometry} has {geometry.size})"
        )
    from ..kept import answers_for

    answers = answers_for(geometry)
    table = _tables(geometry, answers)
    full, size = geometry.full, geometry.size
    write = sys.stdout.write
    lines: list[str] = []
    for key in sorted(table.children, key=lambda key: (key.bit_count(), key)):
        if key in table.terminal:
            continue
        position = Position(key & full, key >> size, geometry)
        text = format_position(position)
        for cell, _ in table.children[key]:
            explanation = explain(position, cell, answers)
            if args.json:
                lines.append(dumps(explanation_record(explanation)) + "\n")
            else:
                lines.append(f"{text}  {cell_name(cell, geometry)}  {explanation.verdict}  {explanation.text}\n")
        if len(lines) >= _EXPLAINED_A_WRITE:
            write("".join(lines))
            lines.clear()
    write("".join(lines))
    return 0


def _write_rows(blocks) -> None:
    """Rows ``(text, side, status, value, remoteness)`` as aligned text, one position a line."""
    write = sys.stdout.write
    for block in blocks:
        write(
            "".join(
                f"{text}  {status:<7} {value or '-':<5} {remoteness if remoteness is not None else '-'}\n"
                for text, _, status, value, remoteness in block
            )
        )


def _write_rows_as_json(blocks) -> None:
    """The same rows as JSON documents, one a line: a strongly solved board's record of each position."""
    from json import dumps

    write = sys.stdout.write
    for block in blocks:
        write(
            "".join(
                f'{{"position": "{text}", "to_move": {dumps(side)}, "status": "{status}", '
                f'"value": {dumps(value)}, "remoteness": {dumps(remoteness)}}}\n'
                for text, side, status, value, remoteness in block
            )
        )
