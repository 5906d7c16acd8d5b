"""Boards drawn as SVG for notebooks, web pages and papers, in the app's colours (its default dark theme).

:func:`board` draws a position: the grid, the marks (X in the app's primary text colour, O in its accent), the last
move underlined as the app underlines it, a completed line on the green the app lays under it, and on request
every legal move's value (win green, draw amber, loss red, each with its remoteness: ``W3``, ``D9``, ``L4``;
``?`` where a search has not proven it) and a numbered line (``X1``, ``O2``, … in the cells where each move falls).
Cells are named on the board's edges as the app names them: numbers on 3×3, column letters and row numbers (from
the bottom) elsewhere.

Pure string building: no Rich, no Textual, nothing but the engine. A position is the library's
:class:`workbench.Position` (anything with ``engine_position``, ``last_move``, ``analysis()`` and ``best_line()``)
or the engine's own position.

Rooms it may import: ``engine``, ``errors``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from .engine import Analysis, Player, Position, Value, format_position
from .engine.geometry import format_coordinate, uses_cell_numbers
from .errors import InputError

# the app's colours, Textual's default dark theme: the variables app.tcss names, as the screenshots show them
BACKGROUND = "#121212"  # $background
FOREGROUND = "#e0e0e0"  # $foreground: the values' text
MUTED = "#a0a0a0"  # $text-muted: the grid, the cells' names
X_COLOUR = "#57a5e2"  # $text-primary: .board--x
O_COLOUR = "#ffc473"  # $text-accent: .board--o
LINE_BACKGROUND = "#24462e"  # $success-muted: .board--line, a completed line
VALUE_BACKGROUNDS = {
    Value.WIN: "#24462e",  # $success-muted: .board--win
    Value.DRAW: "#593e19",  # $warning-muted: .board--draw
    Value.LOSS: "#441e27",  # $error-muted: .board--loss
}
UNKNOWN_BACKGROUND = "#2b2b2b"  # $foreground 12%: .board--unknown, a move not proven
FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
STROKE = 'stroke-width="2" stroke-linecap="round"'
MARGIN = 22
"""Room on the left and below the grid for the cells' names (column letters and row numbers)."""
RULE_BAND = 18
"""Under a misère board, the band that says so."""


class Drawable(Protocol):
    """What :func:`board` asks of a library position (:class:`workbench.Position`)."""

    @property
    def engine_position(self) -> Position: ...

    @property
    def last_move(self) -> int | None: ...

    def analysis(self) -> Analysis: ...

    def best_line(self) -> tuple[int, ...]: ...


Values = Mapping[int, tuple[Value | None, int | None]]
"""Each cell's value and remoteness for the side to move there; None for a value not proven."""


def board(
    position: Drawable | Position,
    *,
    values: bool | Analysis | Values = False,
    line: bool | Sequence[int] = False,
    last_move: int | None = None,
    size: int | None = None,
) -> str:
    """The SVG of ``position``'s board, as text.

    :param position: a :class:`workbench.Position`, or an engine position (which has no last move).
    :param values: True for every legal move's value from ``position.analysis()`` (a library position's); an
        analysis of it (one searched with a budget, on a big board); or a mapping of cells to ``(value,
        remoteness)``.
    :param line: True for ``position.best_line()`` (a library position's); or the cells of a line played from
        here, drawn ``X1``, ``O2``, … in order.
    :param last_move: the cell to underline; a library position's own last move unless given.
    :param size: the side of a cell in pixels (by default 56 on small boards, down to 24 on 15×15).
    :returns: a standalone ``<svg>`` element, with a ``<title>`` naming the position.
    :raises InputError: ``values=True`` or ``line=True`` for an engine position, which cannot analyse itself; a
        cell of ``line`` that is not on the board; a ``size`` below 1.
    """
    engine = getattr(position, "engine_position", position)
    if not isinstance(engine, Position):
        raise InputError(f"board of {position!r}: a workbench.Position or an engine Position")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
        raise InputError(f"size {size!r}: a cell's side in pixels, a whole number from 1")
    geometry = engine.geometry
    if last_move is None:
        last_move = getattr(position, "last_move", None)
    shown = _values(position, engine, values)
    steps = _steps(position, engine, line)
    cell = size or max(24, min(56, 480 // max(geometry.rows, geometry.cols)))
    named_edges = not uses_cell_numbers(geometry)
    left = MARGIN if named_edges else 4
    top = 4
    width = left + geometry.cols * cell + 4
    height = top + geometry.rows * cell + (MARGIN if named_edges else 4)
    board_bottom = height
    if geometry.misere:  # the rule under the board: without it a misère board looks like the normal one
        height += RULE_BAND
    winning = 0
    for found in engine.winning_lines():
        winning |= found
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="{FONT}">',
        f"<title>{_title(engine)}</title>",
        f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>',
    ]
    for index in range(geometry.size):
        number = index + 1
        row, col = divmod(index, geometry.cols)
        x, y = left + col * cell, top + row * cell
        middle_x, middle_y = x + cell / 2, y + cell / 2
        mark = engine.mark_at(number)
        fill = None
        if winning >> index & 1:
            fill = LINE_BACKGROUND
        elif mark is None and number in shown:
            told = shown[number][0]
            fill = UNKNOWN_BACKGROUND if told is None else VALUE_BACKGROUNDS[told]
        if fill is not None:
            parts.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}" fill="{fill}"/>')
        if mark is not None:
            colour = X_COLOUR if mark is Player.X else O_COLOUR
            parts.append(_text(middle_x, middle_y, mark.value, colour, cell * 0.62, bold=True))
            if number == last_move:
                half = cell * 0.2
                parts.append(
                    f'<line x1="{middle_x - half:g}" y1="{y + cell * 0.8:g}" x2="{middle_x + half:g}" '
                    f'y2="{y + cell * 0.8:g}" stroke="{colour}" stroke-width="{max(2, cell // 18)}"/>'
                )
        elif number in steps:
            player, order = steps[number]
            colour = X_COLOUR if player is Player.X else O_COLOUR
            parts.append(_text(middle_x, middle_y, f"{player.value}{order}", colour, cell * 0.36, italic=True))
        elif number in shown:
            value, remoteness = shown[number]
            colour = MUTED if value is None else FOREGROUND
            parts.append(_text(middle_x, middle_y, _value_text(value, remoteness), colour, cell * 0.34))
        elif not named_edges:
            parts.append(_text(middle_x, middle_y, str(number), MUTED, cell * 0.3))
    parts.extend(_grid(geometry.rows, geometry.cols, left, top, cell))
    if named_edges:
        for col in range(geometry.cols):
            letter = format_coordinate(geometry.cell(0, col), geometry)[0]
            parts.append(
                _text(left + col * cell + cell / 2, top + geometry.rows * cell + MARGIN / 2, letter, MUTED, 12)
            )
        for row in range(geometry.rows):
            parts.append(_text(left / 2, top + row * cell + cell / 2, str(geometry.rows - row), MUTED, 12))
    if geometry.misere:
        rule = "misère: a line loses" if width >= 160 else "misère"  # (some 7 pixels a character)
        parts.append(_text(width / 2, board_bottom + RULE_BAND / 2, rule, MUTED, 12, italic=True))
    parts.append("</svg>")
    return "\n".join(parts)


def _values(position: Drawable | Position, engine: Position, values: bool | Analysis | Values) -> Values:
    if values is False:
        return {}
    if isinstance(values, Analysis):
        if values.position != engine:
            raise InputError(f"values: an analysis of {format_position(values.position)}, not of this position")
        return {move.cell: (move.value, move.remoteness) for move in values.moves}
    if values is True:
        analyse = getattr(position, "analysis", None)
        if analyse is None:
            raise InputError("values=True: an engine position cannot analyse itself (give workbench.position's)")
        return {move.cell: (move.value, move.remoteness) for move in analyse().moves}
    return dict(values)


def _steps(
    position: Drawable | Position, engine: Position, line: bool | Sequence[int]
) -> dict[int, tuple[Player, int]]:
    if line is False:
        return {}
    cells: Sequence[int]
    if line is True:
        best = getattr(position, "best_line", None)
        if best is None:
            raise InputError("line=True: an engine position has no best line of its own (give the cells)")
        cells = best()
    else:
        cells = line
    steps, mover = {}, engine.turn
    for order, cell in enumerate(cells, 1):
        if not (isinstance(cell, int) and engine.geometry.contains(cell)):
            raise InputError(f"line cell {cell!r}: not a cell of {engine.geometry} (1-{engine.geometry.size})")
        steps[cell] = (mover, order)
        mover = mover.other
    return steps


def _value_text(value: Value | None, remoteness: int | None) -> str:
    if value is None:
        return "?"
    return f"{value.label[0].upper()}{'' if remoteness is None else remoteness}"


def _grid(rows: int, cols: int, left: int, top: int, cell: int) -> list[str]:
    lines = []
    for row in range(1, rows):
        y = top + row * cell
        lines.append(
            f'<line x1="{left}" y1="{y}" x2="{left + cols * cell}" y2="{y}" stroke="{MUTED}" stroke-width="2"/>'
        )
    for col in range(1, cols):
        x = left + col * cell
        lines.append(f'<line x1="{x}" y1="{top}" x2="{x}" y2="{top + rows * cell}" stroke="{MUTED}" {STROKE}/>')
    return lines


def _text(x: float, y: float, text: str, colour: str, size: float, *, bold: bool = False, italic: bool = False) -> str:
    style = (' font-weight="bold"' if bold else "") + (' font-style="italic"' if italic else "")
    return (
        f'<text x="{x:g}" y="{y:g}" fill="{colour}" font-size="{size:.0f}" text-anchor="middle" '
        f'dominant-baseline="central"{style}>{text}</text>'
    )


def _title(position: Position) -> str:
    return f"{position.geometry} {format_position(position)}"
