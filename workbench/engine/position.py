"""Immutable positions, their legality, and the text notation.

Notation: rows top to bottom, ``X``/``O`` in any case, ``.`` ``-`` ``_`` for an
empty cell, ``/`` between rows optional: ``X.O/.X./..O``. :func:`format_position`
always writes upper case with ``/``. A move list is cells ``5,1,9`` or ``519``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from ..errors import InputError
from .geometry import (
    TIC_TAC_TOE,
    Bitboard,
    Cell,
    Geometry,
    GeometryError,
    cell_bit,
    cell_name,
    cell_names,
    cell_range,
    cells_of,
    parse_cell_name,
)

EMPTY_CHARS = frozenset(".-_")


def _quoted(text: str, width: int = 60) -> str:
    """``repr(text)`` for a message: control characters escaped by repr, cut to ``width``."""
    shown = repr(text)
    return shown if len(shown) <= width else shown[: width - 2] + "…" + shown[0]


class PositionError(InputError):
    """Base class of every error about a position or a move."""


class NotationError(PositionError):
    """Text that is not a position: wrong length or an unknown character."""


class IllegalPositionError(PositionError):
    """A well-formed position that no game could reach.

    ``reason`` is one of :data:`ILLEGAL_REASONS`.
    """

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


ILLEGAL_REASONS = ("counts", "both_won", "moved_after_win", "impossible_lines")


class IllegalMoveError(PositionError):
    """A move that cannot be played here: off the board, occupied, or after the end; ``reason`` says which."""

    def __init__(self, cell: object, position: Position, reason: str) -> None:
        super().__init__(f"illegal move {cell!r} in {format_position(position)}: {reason}")
        self.reason = reason


class MoveListError(PositionError):
    """A move list with a bad token; ``token`` and 1-based ``index`` name it."""

    def __init__(self, message: str, *, token: str, index: int) -> None:
        super().__init__(message)
        self.token = token
        self.index = index


class Status(str, Enum):
    IN_PLAY = "in_play"
    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"


class Player(str, Enum):
    X = "X"
    O = "O"  # noqa: E741 - the game's name for the second player

    @property
    def other(self) -> Player:
        return Player.O if self is Player.X else Player.X


@dataclass(frozen=True, slots=True)
class Position:
    """X's and O's marks as bitboards on a geometry. X always moves first.

    Construct with :meth:`empty`, :func:`parse_position` or :meth:`play`; the
    constructor itself does not check legality (see :func:`check_legal`).
    """

    x: Bitboard = 0
    o: Bitboard = 0
    geometry: Geometry = TIC_TAC_TOE

    def __reduce__(self):
        # as its fields, not the slots dataclass's state (a search's reports and requests carry positions)
        return (Position, (self.x, self.o, self.geometry))

    @classmethod
    def empty(cls, geometry: Geometry = TIC_TAC_TOE) -> Position:
        return cls(0, 0, geometry)

    @property
    def occupied(self) -> Bitboard:
        return self.x | self.o

    @property
    def empties(self) -> Bitboard:
        return self.geometry.full & ~(self.x | self.o)

    @property
    def ply(self) -> int:
        """Number of marks on the board."""
        return (self.x | self.o).bit_count()

    @property
    def key(self) -> int:
        """One integer naming the position on its geometry."""
        return self.x | (self.o << self.geometry.size)

    @property
    def turn(self) -> Player:
        """Who moves next by the counts (even when the game is over)."""
        return Player.X if self.x.bit_count() == self.o.bit_count() else Player.O

    @property
    def sides(self) -> tuple[Bitboard, Bitboard]:
        """(the marks of the side to move, the other side's marks), as the threat functions take them."""
        return (self.x, self.o) if self.turn is Player.X else (self.o, self.x)

    @property
    def status(self) -> Status:
        """Who won, by the rules: a line wins, or under misère loses."""
        geometry = self.geometry
        if geometry.has_line(self.x):
            return Status.O_WON if geometry.misere else Status.X_WON
        if geometry.has_line(self.o):
            return Status.X_WON if geometry.misere else Status.O_WON
        if self.occupied == geometry.full:
            return Status.DRAW
        return Status.IN_PLAY

    @property
    def dead_draw(self) -> bool:
        """In play, yet no line can be completed any more by either side (seed 003's early draw): every line
        holds a mark of each side, or needs more marks than its side has moves left before the board is full."""
        return not self.is_over and no_line_left(self.geometry, self.x, self.o)

    @property
    def is_over(self) -> bool:
        return self.status is not Status.IN_PLAY

    @property
    def to_move(self) -> Player | None:
        """The side to move, or None when the game is over."""
        return None if self.is_over else self.turn

    def legal_moves(self) -> tuple[Cell, ...]:
        """Empty cells, or none when the game is over."""
        return () if self.is_over else cells_of(self.empties)

    def winning_lines(self) -> tuple[Bitboard, ...]:
        """Completed lines of either side."""
        return self.geometry.lines_in(self.x) + self.geometry.lines_in(self.o)

    def mark_at(self, cell: Cell) -> Player | None:
        bit = cell_bit(cell)
        if self.x & bit:
            return Player.X
        if self.o & bit:
            return Player.O
        return None

    def play(self, cell: Cell) -> Position:
        """The position after the side to move marks ``cell``.

        :raises IllegalMoveError: off the board, occupied, or the game is over.
        """
        if not isinstance(cell, int) or not self.geometry.contains(cell):
            raise IllegalMoveError(cell, self, f"no such cell (1-{self.geometry.size})")
        bit = cell_bit(cell)
        if self.occupied & bit:
            raise IllegalMoveError(cell, self, "cell is occupied")
        if self.is_over:
            raise IllegalMoveError(cell, self, "the game is over")
        if self.turn is Player.X:
            return Position(self.x | bit, self.o, self.geometry)
        return Position(self.x, self.o | bit, self.geometry)

    def play_all(self, cells: Iterable[Cell]) -> Position:
        position = self
        for cell in cells:
            position = position.play(cell)
        return position

    def __str__(self) -> str:
        return format_position(self)


def no_line_left(geometry: Geometry, x: Bitboard, o: Bitboard) -> bool:
    """No line can be completed any more, whatever either side plays: each line holds a mark of both sides, or
    needs more marks than its side has moves left before the board is full (X moves when the counts are equal)."""
    empties = (geometry.full & ~(x | o)).bit_count()
    x_moves = (empties + 1) // 2 if x.bit_count() == o.bit_count() else empties // 2
    o_moves = empties - x_moves
    for line in geometry.lines:
        if not line & o and (line & ~x).bit_count() <= x_moves:
            return False
        if not line & x and (line & ~o).bit_count() <= o_moves:
            return False
    return True


def parse_position(text: str, geometry: Geometry = TIC_TAC_TOE) -> Position:
    """Parse notation like ``X.O/.X./..O`` and check that the position is legal.

    :raises NotationError: an unknown character, or the wrong length (spaces are left out; the message quotes
        ``text`` as given).
    :raises IllegalPositionError: a position no game reaches.
    """
    cells = 0
    for char in text:  # a character that is no mark first: "classic" is no board, whatever its length
        if char == "/" or char.isspace():
            continue
        cells += 1
        if char.upper() not in "XO" and char not in EMPTY_CHARS:
            raise NotationError(f"invalid position {_quoted(text)}: unknown character {char!r} at cell {cells}")
    body = "".join(text.split())
    if "/" in body:
        rows = body.split("/")
        if len(rows) != geometry.rows:
            raise NotationError(
                f"invalid position {_quoted(text)}: wrong length, {len(rows)} rows instead of {geometry.rows}"
            )
        for number, row in enumerate(rows, 1):
            if len(row) != geometry.cols:
                raise NotationError(
                    f"invalid position {_quoted(text)}: wrong length, row {number} has {len(row)} cells instead of "
                    f"{geometry.cols}"
                )
        body = "".join(rows)
    elif len(body) != geometry.size:
        raise NotationError(
            f"invalid position {_quoted(text)}: wrong length, {len(body)} cell{'s' if len(body) != 1 else ''} "
            f"instead of {geometry.size}"
        )
    x = o = 0
    for index, char in enumerate(body):
        upper = char.upper()
        if upper == "X":
            x |= 1 << index
        elif upper == "O":
            o |= 1 << index
    position = Position(x, o, geometry)
    check_legal(position)
    return position


def format_position(position: Position) -> str:
    """Notation for ``position``: upper case, ``.`` for empty, ``/`` between rows."""
    geometry = position.geometry
    chars = []
    for index in range(geometry.size):
        bit = 1 << index
        chars.append("X" if position.x & bit else "O" if position.o & bit else ".")
    return "/".join("".join(chars[r * geometry.cols : (r + 1) * geometry.cols]) for r in range(geometry.rows))


def move_label(before: Position, move: Cell) -> str:
    """``3. 5`` for X's move, ``3… 1`` for O's, numbered like chess (a numbered move is X's ply and O's), the cell
    named as its board names it (``3. h8`` on 15×15); ``before`` is the position it is played in."""
    number = (before.ply + 2) // 2  # the move makes ply + 1 marks
    name = cell_name(move, before.geometry)
    return f"{number}. {name}" if before.turn is Player.X else f"{number}… {name}"


def check_legal(position: Position) -> None:
    """Raise unless some game from the empty board reaches ``position``.

    :raises IllegalPositionError: with ``reason`` one of ``counts``, ``both_won``,
        ``moved_after_win`` or ``impossible_lines``.
    """
    geometry = position.geometry
    shown = format_position(position)
    if position.x & position.o:
        raise IllegalPositionError(f"illegal position {shown}: a cell holds both marks", reason="counts")
    x_count, o_count = position.x.bit_count(), position.o.bit_count()
    if o_count > x_count:
        raise IllegalPositionError(
            f"illegal position {shown}: O has more marks than X ({o_count} > {x_count})", reason="counts"
        )
    if x_count > o_count + 1:
        raise IllegalPositionError(
            f"illegal position {shown}: X is more than one mark ahead ({x_count} vs {o_count})", reason="counts"
        )
    x_lines, o_lines = geometry.lines_in(position.x), geometry.lines_in(position.o)
    if x_lines and o_lines:
        raise IllegalPositionError(f"illegal position {shown}: both sides have a line", reason="both_won")
    if x_lines and x_count == o_count:
        raise IllegalPositionError(
            f"illegal position {shown}: X has a line but O moved after it", reason="moved_after_win"
        )
    if o_lines and x_count > o_count:
        raise IllegalPositionError(
            f"illegal position {shown}: O has a line but X moved after it", reason="moved_after_win"
        )
    winner_marks, lines = (position.x, x_lines) if x_lines else (position.o, o_lines)
    if lines and not _one_move_made_all(geometry, winner_marks, lines):
        raise IllegalPositionError(
            f"illegal position {shown}: no single last move could have made all its lines",
            reason="impossible_lines",
        )


def _one_move_made_all(geometry: Geometry, marks: Bitboard, lines: tuple[Bitboard, ...]) -> bool:
    """True when some cell lies on every line and, taken back, leaves no line."""
    common = marks
    for line in lines:
        common &= line
    for cell in cells_of(common):
        if not geometry.has_line(marks & ~cell_bit(cell)):
            return True
    return False


def some_move_order(position: Position) -> tuple[Cell, ...]:
    """A move order reaching a legal ``position``: X's and O's cells alternate, each in cell order."""
    xs, os_ = cells_of(position.x), cells_of(position.o)
    order: list[Cell] = []
    for index, cell in enumerate(xs):
        order.append(cell)
        if index < len(os_):
            order.append(os_[index])
    return tuple(order)


_SEPARATORS = re.compile(r"[\s,]+")


_COORDINATES = re.compile(r"(?:[a-oA-O]\d{1,2})+")
_ONE_COORDINATE = re.compile(r"[a-oA-O]\d{1,2}")


def format_marks(position: Position) -> str:
    """A position as its marks' names, ``X h8 i9 · O g7``, for a board too big to read as rows; "" when empty."""
    geometry = position.geometry
    sides = (("X", position.x), ("O", position.o))
    return " · ".join(f"{side} {cell_names(cells_of(marks), geometry)}" for side, marks in sides if marks)


def split_cell_tokens(word: str, geometry: Geometry) -> list[tuple[int, str]]:
    """A word of cells without spaces, with each token's offset in it: ``5,1,9`` and ``519`` (on a board of
    at most nine cells, every digit a cell), ``h8,h9`` and ``h8h9`` (coordinates run together)."""
    if "," in word:
        return [(part.start(), part.group()) for part in re.finditer(r"[^,]+", word)]
    if _COORDINATES.fullmatch(word):
        return [(part.start(), part.group()) for part in _ONE_COORDINATE.finditer(word)]
    if geometry.size <= 9 and word.isdigit() and word.isascii():
        return list(enumerate(word))
    return [(0, word)]


def _cell_of_token(token: str, geometry: Geometry) -> Cell | None:
    """The cell a token names, by number (``5``) or by coordinate (``b2``); None when it names none."""
    try:
        return parse_cell_name(token, geometry)
    except GeometryError:
        return None


def parse_moves(text: str, start: Position | None = None) -> tuple[Cell, ...]:
    """Parse a move list (``5,1,9`` or ``519``, or coordinates: ``b2,a3`` or ``b2a3``) and check it plays
    from ``start``.

    :raises MoveListError: naming the first bad token and its 1-based index.
    """
    position = start if start is not None else Position.empty()
    geometry = position.geometry
    body = text.strip()
    if not body:
        return ()
    if _SEPARATORS.search(body):
        tokens = [token for token in _SEPARATORS.split(body) if token]
    elif _COORDINATES.fullmatch(body):
        tokens = _ONE_COORDINATE.findall(body)
    elif geometry.size > 9:
        tokens = [body]
    else:
        tokens = list(body)
    cells = []
    for index, token in enumerate(tokens, 1):
        is_number = token.isdigit() and token.isascii()
        if not is_number and not _ONE_COORDINATE.fullmatch(token):
            raise MoveListError(
                f"invalid move list {_quoted(text)}: token {index} {_quoted(token)} is not a cell number or coordinate",
                token=token,
                index=index,
            )
        cell = _cell_of_token(token, geometry)
        if cell is None:
            raise MoveListError(
                f"invalid move list {_quoted(text)}: token {index} {_quoted(token)} is not a cell "
                f"({cell_range(geometry)})",
                token=token,
                index=index,
            )
        if position.occupied & cell_bit(cell):
            raise MoveListError(
                f"invalid move list {_quoted(text)}: token {index} {_quoted(token)} plays an occupied cell",
                token=token,
                index=index,
            )
        if position.is_over:
            raise MoveListError(
                f"invalid move list {_quoted(text)}: token {index} {_quoted(token)} plays after the game is over",
                token=token,
                index=index,
            )
        position = position.play(cell)
        cells.append(cell)
    return tuple(cells)


def format_moves(cells: Iterable[Cell], geometry: Geometry = TIC_TAC_TOE) -> str:
    """``5,1,9`` on 3×3, ``h8,h9,g8`` on other boards (:func:`~.geometry.cell_name`): comma-separated always,
    so it parses back on any board."""
    return ",".join(cell_name(cell, geometry) for cell in cells)
