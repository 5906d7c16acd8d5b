"""What an analysis says: the result types of :mod:`.analysis` (a move's value, the masks, the symmetry, the whole
analysis, its JSON record) and the per-board tables it reads."""

from __future__ import annotations

from dataclasses import dataclass

from .census import GameCounts
from .geometry import Bitboard, Cell, Geometry, cell_name, cells_of, parse_cell_name
from .position import Player, Position, Status, format_position
from .solver import Value, preference
from .symmetry import Transform
from .threats import Plans

MASK_NAMES = ("win", "block", "fork", "perfect_win", "perfect_lose", "best")

SEARCHED_MASKS = ("perfect_win", "perfect_lose", "best")
"""The masks of the exact values: on a board searched move by move, only the moves proven so far are in them."""

_MASK_TITLES = {
    "win": ("win", "win"),
    "block": ("block", "block"),
    "fork": ("fork", "fork"),
    "perfect_win": ("p-win", "perfect-win"),
    "perfect_lose": ("p-lose", "perfect-lose"),
    "best": ("best", "best"),
}
_MISERE_MASK_TITLES = {
    # the same cell sets under the rule where a line loses (docs/family.md): your line's cell loses at once, the
    # opponent's is a cell to leave open for them, and a "fork" leaves them only replies that complete a line
    **_MASK_TITLES,
    "win": ("loses", "loses"),
    "block": ("leave", "leave"),
    "fork": ("force", "force"),
}


def mask_title(name: str, geometry: Geometry, *, short: bool = True) -> str:
    """What a mask is called on ``geometry``: its name, or under misère what its cells do there (the mask ``win``,
    cells that complete your own line, is "loses"). ``short`` where six labels share a line (``p-win``).

    :raises KeyError: ``name`` is not one of :data:`MASK_NAMES`."""
    titles = (_MISERE_MASK_TITLES if geometry.misere else _MASK_TITLES)[name]
    return titles[0] if short else titles[1]


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One legal move, judged for the side making it."""

    cell: Cell
    value: Value | None
    """None where it is not proven (a board beyond the strong solutions, searched only so far)."""
    remoteness: int | None
    trap: float | None
    """Fraction of the opponent's replies that lose; None when the move ends the game, or is not proven."""
    games: GameCounts | None
    """Complete games that continue through this move; None where they are not counted (above 16 cells)."""

    @property
    def outcome(self) -> tuple[int, int]:
        """:func:`~.solver.preference` of the move's value and remoteness, for its mover: higher is better. Only
        for a proven move (an exact analysis's every move)."""
        assert self.value is not None and self.remoteness is not None, "an unproven move has no outcome"
        return preference(self.value, self.remoteness)


@dataclass(frozen=True, slots=True)
class Masks:
    """Cell sets for the side to move (see :mod:`workbench.engine.threats`)."""

    win: Bitboard = 0
    block: Bitboard = 0
    fork: Bitboard = 0
    perfect_win: Bitboard = 0
    perfect_lose: Bitboard = 0
    best: Bitboard = 0

    def get(self, name: str) -> Bitboard:
        if name not in MASK_NAMES:
            raise KeyError(name)
        return getattr(self, name)


@dataclass(frozen=True, slots=True)
class SymmetryInfo:
    canonical: Position
    class_id: int | None
    """None on boards beyond the strong solutions: their classes are not numbered (the canonical form names one)."""
    class_count: int | None
    orbit_size: int
    stabilizer: tuple[Transform, ...]
    move_classes: tuple[tuple[Cell, ...], ...]


def win_proven_within(moves) -> int | None:
    """Where a search has proven some moves but not the position: the fewest plies of a win proven for the side to
    move (the position is then won, in at most that many: a quicker win may be among the moves not proven); None
    where no move is proven to win. ``moves`` are :class:`MoveAnalysis`, or ``(value, remoteness)`` pairs."""
    plies = [
        remoteness
        for value, remoteness in ((m.value, m.remoteness) if isinstance(m, MoveAnalysis) else m for m in moves)
        if value is Value.WIN and remoteness is not None
    ]
    return min(plies, default=None)


@dataclass(frozen=True, slots=True)
class Analysis:
    position: Position
    status: Status
    to_move: Player | None
    value: Value | None
    """For the side to move; None when the game is over, or not proven yet (above 16 cells)."""
    remoteness: int | None
    moves: tuple[MoveAnalysis, ...]
    masks: Masks
    symmetry: SymmetryInfo
    games: GameCounts | None
    """Complete games from this position; None above 16 cells, where they are not counted."""

    @property
    def proven(self) -> bool:
        """Every value here is exact: the game is over, or the position's value is known (tables, a strong
        solution, or a search that proved every move)."""
        return self.to_move is None or self.value is not None

    def _repr_markdown_(self) -> str:
        """What a notebook shows: the position's value, then every move's as a table, by the cells' names."""
        geometry = self.position.geometry
        if self.to_move is None:
            ended = {Status.X_WON: "X won", Status.O_WON: "O won"}.get(self.status, "a draw")
            return f"`{format_position(self.position)}` {geometry}: the game is over, {ended}"
        within = win_proven_within(self.moves) if self.value is None else None
        told = (
            (f"a win in at most {within} (not every move proven)" if within is not None else "not proven")
            if self.value is None
            else f"{self.value.label} in {self.remoteness}"
        )
        rows = [
            f"| {cell_name(move.cell, geometry)} | {'not proven' if move.value is None else move.value.label} | "
            f"{'' if move.remoteness is None else move.remoteness} |"
            for move in self.moves
        ]
        head = f"`{format_position(self.position)}` {geometry}: {self.to_move.value} to move, {told}"
        return "\n".join((head, "", "| move | value | plies |", "| :- | :- | -: |", *rows))

    def move(self, cell: Cell | str) -> MoveAnalysis | None:
        """The analysis of the move at ``cell`` (its number, or its name: ``"5"``, ``"b2"``); None where no move
        is (a taken cell, the game over, a number that is no cell).

        :raises InputError: a name that is no cell of the board."""
        if isinstance(cell, str):
            cell = parse_cell_name(cell, self.position.geometry)
        for move in self.moves:
            if move.cell == cell:
                return move
        return None


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything :func:`analyze` needs, computed once per geometry."""

    geometry: Geometry
    children: dict[int, tuple[tuple[Cell, int], ...]]
    terminal: dict[int, Status]
    value: dict[int, int]
    remoteness: dict[int, int]
    trap: dict[int, float]
    games: dict[int, GameCounts]
    paths: dict[int, int]
    """Move orders from the empty board that reach each position."""
    class_of: dict[int, int]
    canonical_keys: tuple[int, ...]
    plans: Plans
    """The threat planner's six masks of every position it reaches from the empty board, by its own key
    (:meth:`~workbench.engine.threats.Planner.known`): an analysis reads them instead of planning."""

    def games_through(self, key: int) -> GameCounts:
        """Complete games from the empty board through the position ``key``: the move
        orders reaching it times the games continuing from it."""
        orders = self.paths[key]
        return GameCounts(*(orders * part for part in self.games[key]))

    def classes_by_ply(self) -> tuple[int, ...]:
        """How many symmetry classes have 0, 1, 2, … marks (seed 002's table)."""
        plies = [key.bit_count() for key in self.canonical_keys]
        counts = [0] * (max(plies) + 1)
        for ply in plies:
            counts[ply] += 1
        return tuple(counts)


def analysis_record(analysis: Analysis) -> dict:
    """The analysis as plain JSON-ready data (the ``workbench analyze --json`` record). Games are None where
    they are not counted (past 16 cells), and so are the values a search has not proven."""
    symmetry = analysis.symmetry
    return {
        "variant": str(analysis.position.geometry),
        "position": format_position(analysis.position),
        "to_move": analysis.to_move.value if analysis.to_move else None,
        "status": analysis.status.value,
        "dead_draw": analysis.position.dead_draw,
        "value": analysis.value.label if analysis.value is not None else None,
        "remoteness": analysis.remoteness,
        "games": analysis.games.as_dict() if analysis.games is not None else None,
        "moves": [
            {
                "cell": move.cell,
                "name": cell_name(move.cell, analysis.position.geometry),
                "value": move.value.label if move.value is not None else None,
                "remoteness": move.remoteness,
                "trap": move.trap,
                "games": move.games.as_dict() if move.games is not None else None,
            }
            for move in analysis.moves
        ],
        "masks": {name: list(cells_of(analysis.masks.get(name))) for name in MASK_NAMES},
        "symmetry": {
            "canonical": format_position(symmetry.canonical),
            "class_id": symmetry.class_id,
            "class_count": symmetry.class_count,
            "orbit_size": symmetry.orbit_size,
            "stabilizer": [transform.name for transform in symmetry.stabilizer],
            "move_classes": [list(group) for group in symmetry.move_classes],
        },
    }
