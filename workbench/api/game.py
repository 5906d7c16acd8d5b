"""A variant and a position, as a user of the library holds them: :class:`Variant` and :class:`Position`.

A :class:`Position` is immutable and hashable: :meth:`Position.play` gives a new one. It wraps the engine's
position (:attr:`Position.engine_position`) and remembers the moves that reached it, so that a notebook draws the
last move; two positions are equal when their marks and rules are, however they were reached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..engine import (
    Analysis,
    Geometry,
    Player,
    Position as EnginePosition,
    Status,
    Value,
    format_moves,
    format_position,
    parse_moves,
)
from ..engine.geometry import cell_name, format_variant, parse_cell_name, parse_variant
from ..engine.position import parse_position
from ..errors import InputError
from ..kept import answers_for
from .tiers import analysis_of, tier_of

if TYPE_CHECKING:
    from ..engine.explain import Explanation

Move = int | str
"""A move as a user writes it: a cell number (``5``, 1-based, row by row) or its name (``"5"``, ``"b2"``)."""


@dataclass(frozen=True)  # (no slots: with them, Python 3.11 says TypeError, not FrozenInstanceError, to v.k = 4)
class Variant:
    """The rules of one game: ``rows`` × ``cols`` cells, ``k`` in a row, normal or misère (completing a line loses).

    Make one with :func:`variant`. Immutable and hashable."""

    geometry: Geometry
    """The engine's rules, which every engine function takes."""

    @property
    def name(self) -> str:
        """The variant's name, as :func:`variant` reads it: ``"3x4k3"``, ``"3x3k3-misere"``."""
        return format_variant(self.geometry)

    @property
    def rows(self) -> int:
        """Rows of the board, numbered from the bottom in a coordinate (``b2``: row 2)."""
        return self.geometry.rows

    @property
    def cols(self) -> int:
        """Columns of the board, lettered from the left in a coordinate (``b2``: column b)."""
        return self.geometry.cols

    @property
    def k(self) -> int:
        """Marks in a line that end the game."""
        return self.geometry.k

    @property
    def misere(self) -> bool:
        """True where completing a line loses."""
        return self.geometry.misere

    @property
    def cells(self) -> int:
        """Cells on the board (``rows * cols``), numbered 1 to ``cells`` row by row from the top left."""
        return self.geometry.size

    @property
    def tier(self) -> str:
        """How this board is answered now: ``"tables"`` (up to 12 cells), ``"strong"`` (13–16, solved on first
        use), ``"kept"`` (17–20, where a solution is kept) or ``"search"`` (one position at a time, within a
        budget). Reads the cache folder for a 17–20-cell board; never solves."""
        return tier_of(self.geometry)

    def start(self) -> Position:
        """The empty board, X to move."""
        return Position(EnginePosition.empty(self.geometry))

    def position(self, text: str = "") -> Position:
        """:func:`position` on this variant."""
        return position(text, self)

    def cell_name(self, cell: int) -> str:
        """The name a user sees for ``cell``: its number on 3×3 boards (``"5"``), else its coordinate
        (``"b2"``: column letter from the left, row number from the bottom).

        :raises InputError: ``cell`` is not a cell of the board, named in the message."""
        return cell_name(_cell(self.geometry, cell), self.geometry)

    def parse_cell(self, move: Move) -> int:
        """The cell number of ``move`` (a number or a name in either notation).

        :raises InputError: naming ``move``, where it is no cell of the board."""
        return _cell(self.geometry, move)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"variant({self.name!r})"


def variant(name: str | Variant = "3x3k3") -> Variant:
    """The variant called ``name``: ``"3x3k3"`` (Tic-Tac-Toe, the default), ``"3x4k3"``, ``"4x4k4-misere"``,
    ``"15x15k5"``; any case, ``×`` for ``x``. Boards have 1 to 15 rows and columns. A :class:`Variant` is returned
    as it is.

    :raises InputError: naming ``name`` and what is wrong with it (a :class:`~workbench.engine.geometry.VariantError`).
    """
    if isinstance(name, Variant):
        return name
    if not isinstance(name, str):
        raise InputError(f"variant {name!r}: a variant is named by text, as '3x3k3'")
    return Variant(parse_variant(name))


_as_variant = variant  # (position's argument is called variant too)


@dataclass(frozen=True)  # (no slots: as Variant)
class Position:
    """A position of a game: the marks on the board and whose turn it is, with the moves that reached it.

    Immutable and hashable; equal to another position with the same marks on the same variant, whatever the moves
    that reached each. Make one with :func:`position`, :meth:`Variant.start` or :meth:`play`."""

    engine_position: EnginePosition
    """The engine's position (X's and O's bitboards on the rules), which every engine function takes."""
    moves: tuple[int, ...] = field(default=(), compare=False)
    """The cells played from :attr:`start` to here, in order; empty for a position read from a board string."""
    start: EnginePosition | None = field(default=None, compare=False, repr=False)
    """Where :attr:`moves` start: the empty board unless given."""

    @property
    def variant(self) -> Variant:
        """The rules the position is played under."""
        return Variant(self.engine_position.geometry)

    @property
    def ply(self) -> int:
        """Marks on the board."""
        return self.engine_position.ply

    @property
    def turn(self) -> Player | None:
        """The side to move (``Player.X`` or ``Player.O``), or None when the game is over."""
        return self.engine_position.to_move

    @property
    def status(self) -> Status:
        """``Status.IN_PLAY``, ``X_WON``, ``O_WON`` or ``DRAW``, by the variant's rule."""
        return self.engine_position.status

    @property
    def is_over(self) -> bool:
        """True once a line is completed or the board is full."""
        return self.engine_position.is_over

    @property
    def legal_moves(self) -> tuple[int, ...]:
        """The empty cells, by number (none once the game is over)."""
        return self.engine_position.legal_moves()

    @property
    def last_move(self) -> int | None:
        """The cell played last, where the moves are known (None at the start or for a board string)."""
        return self.moves[-1] if self.moves else None

    @property
    def board(self) -> str:
        """The board as text, rows top to bottom: ``X.O/.X./..O``; :func:`position` reads it back."""
        return format_position(self.engine_position)

    @property
    def move_text(self) -> str:
        """:attr:`moves` as a move list (``"5,1,9"``, ``"b2,a1"``); :func:`position` reads it back."""
        return format_moves(self.moves, self.engine_position.geometry)

    def cell_name(self, cell: int) -> str:
        """:meth:`Variant.cell_name` of this position's variant."""
        return self.variant.cell_name(cell)

    def play(self, move: Move) -> Position:
        """The position after the side to move plays ``move`` (a cell number or name: ``5``, ``"5"``, ``"b2"``).

        :raises InputError: naming the move: no such cell, the cell is taken, or the game is over
            (:class:`~workbench.engine.position.IllegalMoveError` for the last two)."""
        cell = _cell(self.engine_position.geometry, move)
        return Position(self.engine_position.play(cell), (*self.moves, cell), self.start)

    def play_all(self, moves: str | tuple[Move, ...] | list[Move]) -> Position:
        """The position after each of ``moves`` in turn: a move list (``"5,1,9"``, ``"b2 a1"``) or a sequence.

        :raises InputError: naming the first move that cannot be played (a
            :class:`~workbench.engine.position.MoveListError` for a move list)."""
        if isinstance(moves, str):
            moves = parse_moves(moves, self.engine_position)
        played = self
        for move in moves:
            played = played.play(move)
        return played

    def analysis(self, *, seconds: float | None = None, nodes: int | None = None) -> Analysis:
        """The analysis of the position and of every legal move: value and remoteness for the side to move
        (:attr:`Analysis.value`, :attr:`Analysis.moves`), the threat masks, the symmetry and the game counts, as
        ``workbench analyze`` reports them. Exact from the variant's tables, its strong solution (solved on first
        use, then kept in the cache) or a kept solution. On a board the search answers (:attr:`Variant.tier` is
        ``"search"``), the position is searched within ``seconds`` and ``nodes`` if either is given, else not at
        all: every value the search did not prove is None (``analysis.proven`` is False), never a guess.

        :raises InputError: ``seconds`` or ``nodes`` not above zero."""
        return analysis_of(self.engine_position, seconds=seconds, nodes=nodes)

    @property
    def value(self) -> Value | None:
        """The exact value for the side to move (``Value.WIN``, ``DRAW`` or ``LOSS``); None when the game is over
        or on a searched board, where no value is proven without a search (ask :meth:`analysis` with a budget)."""
        return self.analysis().value

    @property
    def remoteness(self) -> int | None:
        """Plies to the end under best play (the winner hurrying, the loser delaying); None where :attr:`value`
        is."""
        return self.analysis().remoteness

    def explain(self, move: Move) -> Explanation:
        """``move`` played here, explained in words from the exact values: its verdict (``"best"``, ``"only
        move"``, ``"inaccurate"``, ``"mistake"``), the values before and after, the best moves, the line that
        proves it (:attr:`Explanation.line`) and :attr:`Explanation.text`. The engine's
        :func:`workbench.engine.explain.explain`.

        :raises InputError: naming the move (no such cell, a taken cell, the game over), or the board where its
            values are not all known (a searched board: ``BoardTooLargeError``)."""
        from ..engine.explain import explain

        cell = _cell(self.engine_position.geometry, move)
        return explain(self.engine_position, cell, answers_for(self.engine_position.geometry))

    def best_line(self) -> tuple[int, ...]:
        """The rest of the game under best play, as cells: the winner hurrying, the loser delaying, among equals
        the move the explanation's words tell. Empty when the game is over.

        :raises InputError: on a searched board, where not every value is known (``BoardTooLargeError``)."""
        return answers_for(self.engine_position.geometry).principal_variation(self.engine_position)

    def svg(
        self, *, values: bool | Analysis = False, line: bool | tuple[int, ...] = False, size: int | None = None
    ) -> str:
        """The board drawn as SVG (:func:`workbench.svg.board`): the marks, the last move, and on request every
        move's value (``values=True``, or an :meth:`analysis` already made: one searched with a budget on a big
        board) and a numbered line (``line=True`` for :meth:`best_line`, or cells)."""
        from ..svg import board

        return board(self, values=values, line=line, size=size)

    def _repr_svg_(self) -> str:
        """What a notebook shows: the board with its marks and the last move."""
        return self.svg()

    def __str__(self) -> str:
        return self.board

    def __repr__(self) -> str:
        shown = f"moves={self.move_text!r}" if self.moves and self.start is None else f"board={self.board!r}"
        return f"<Position {self.variant.name} {shown}>"


def position(text: str | Position | EnginePosition = "", variant: str | Variant | None = None) -> Position:
    """A position of ``variant`` (3x3k3 unless given) from ``text``: a move list in either notation (``"5,1,9"``,
    ``"519"``, ``"b2 a1"``, ``"b2,a1"``), or a board string (``"X.O/.X./..O"``, ``.`` ``-`` or ``_`` for an
    empty cell, ``/`` between rows optional; text with no digit is read as a board). Empty text is the empty
    board. A :class:`Position` is returned as it is, and an engine position (a puzzle's, an explanation's) is
    taken as it is: on its own rules, which ``variant``, if given, must be.

    :raises InputError: naming the text: a bad token and its place in a move list, a board of the wrong length or
        with a character that is no mark, a position no game reaches, an unknown variant, a position of another
        variant than the one given."""
    if isinstance(text, Position | EnginePosition):
        found = text if isinstance(text, Position) else Position(text)
        if variant is not None and _as_variant(variant).geometry != found.variant.geometry:
            raise InputError(f"position {found!r}: a position of {found.variant}, not of {_as_variant(variant)}")
        return found
    rules = _as_variant("3x3k3" if variant is None else variant).geometry
    if not isinstance(text, str):
        raise InputError(f"position {text!r}: give a move list ('5,1,9', 'b2 a1') or a board ('X.O/.X./..O')")
    empty = EnginePosition.empty(rules)
    body = text.strip()
    # every move list holds a digit (a cell's number, or a coordinate's row): text without one is a board, and a
    # character in it that is no mark is named as such, not as a move list's bad token
    if body and not any(char.isdigit() for char in body):
        read = parse_position(text, rules)
        return Position(read, (), read)
    return Position(empty.play_all(cells := parse_moves(body, empty)), cells)


def _cell(geometry: Geometry, move: object) -> int:
    if isinstance(move, bool) or not isinstance(move, int | str):
        raise InputError(f"move {move!r}: a cell number or a cell's name, as 5 or 'b2'")
    if isinstance(move, str):
        return parse_cell_name(move, geometry)
    if not geometry.contains(move):
        raise InputError(f"move {move!r}: no such cell on {format_variant(geometry)} (1-{geometry.size})")
    return move
