"""Exact search of single positions on boards too large to solve whole (tier 2).

Negamax with alpha-beta over scores that carry the remoteness: a win in ``r``
plies scores ``WIN - r``, a loss in ``r`` scores ``r - WIN``, a draw 0; so the
winner hurries and the loser delays, as in the strong solutions. A score one ply
up is :func:`lift` of the child's. What makes it fast enough:

- a transposition table on canonical forms (the board's symmetry group), holding
  exact scores and bounds;
- immediate wins (a line to complete now ends the search of the node), forced
  blocks (one opponent threat leaves one move worth searching; two lose in 2),
  and dead draws (no line can be completed any more) cut at once;
- move ordering by the lines a cell still serves, the side's own first.

Misère is searched by the same code with its own immediate rule: a move that
completes one's own line loses at once, so it is searched only when nothing else
is left.

The search runs under a budget of nodes and a ``should_stop`` callable (time,
cancellation); each root move is searched on its own, so every move the budget
allowed is *proven* (value and remoteness) and the rest are reported unproven,
never guessed. Pure computation: the caller owns the clock and the thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .geometry import Bitboard, Cell, Geometry, cell_bit, cell_name, cells_of
from .position import Player, Position, Status, check_legal, no_line_left
from .solver import Value, preference
from .symmetry import transforms
from .threats import completions

WIN = 1000
"""The score of a win now; a win in ``r`` plies scores ``WIN - r``."""
_INFINITY = WIN + 1
QUICK_PLIES = 7
"""Iterative deepening on remoteness: each move is first tried for a win or loss within 1, 2, … 7 plies."""
CANONICAL_MARKS = 6
"""Positions with at most this many marks are keyed by their canonical form (see :meth:`Searcher.key`)."""


class SearchAborted(Exception):
    """The budget ran out, or the caller asked the search to stop."""


def lift(score: int) -> int:
    """The score one ply up of a child's score: the sign flips and the outcome is one ply further."""
    if score > 0:
        return -score + 1
    if score < 0:
        return -score - 1
    return 0


def _lower(bound: int) -> int:
    """The child's bound whose :func:`lift` is ``bound`` (lift is decreasing: bounds swap sides)."""
    if bound > 0:
        return -bound - 1
    if bound < 0:
        return -bound + 1
    return 0


def outcome(score: int, empties: int) -> tuple[Value, int]:
    """(value, remoteness) of a score at a position with ``empties`` empty cells (a draw fills the board)."""
    if score > 0:
        return Value.WIN, WIN - score
    if score < 0:
        return Value.LOSS, WIN + score
    return Value.DRAW, empties


@dataclass(frozen=True, slots=True)
class MoveResult:
    """One root move: its value and remoteness for the side making it where proven, else None."""

    cell: Cell
    value: Value | None
    remoteness: int | None
    nodes: int
    """Nodes searched for this move (all of them, when it was not proven)."""

    def __reduce__(self):
        # pickled as its fields: a report crosses the search's pipe with every root move in it, and the slots
        # dataclass's own state took a call to fields() per move each way
        return (MoveResult, (self.cell, self.value, self.remoteness, self.nodes))

    @property
    def proven(self) -> bool:
        return self.value is not None

    @property
    def outcome(self) -> tuple[int, int]:
        """:func:`~.solver.preference` of a proven move's value and remoteness, for its mover: higher is better."""
        assert self.value is not None and self.remoteness is not None, "an unproven move has no outcome"
        return preference(self.value, self.remoteness)


@dataclass(frozen=True, slots=True)
class SearchResult:
    position: Position
    moves: tuple[MoveResult, ...]
    nodes: int
    complete: bool
    """Every move proven (then ``value`` and ``remoteness`` are the position's)."""

    def __reduce__(self):
        return (SearchResult, (self.position, self.moves, self.nodes, self.complete))

    def __eq__(self, other: object) -> bool:
        # the dataclass's own, cheapest field first: two reports of a running search differ in their node count,
        # while their moves compare one by one (a pane's kept drawings are looked up by them at every step)
        if self is other:
            return True
        if other.__class__ is not SearchResult:
            return NotImplemented
        return (
            self.nodes == other.nodes
            and self.complete == other.complete
            and self.position == other.position
            and self.moves == other.moves
        )

    @property
    def value(self) -> Value | None:
        if not self.complete or not self.moves:
            return None
        return max(self.moves, key=lambda move: _rank(move)).value

    @property
    def remoteness(self) -> int | None:
        if not self.complete or not self.moves:
            return None
        return max(self.moves, key=lambda move: _rank(move)).remoteness


def _rank(move: MoveResult) -> tuple[int, int]:
    assert move.value is not None and move.remoteness is not None  # pragma: no mutate - ranks proven moves only
    value = int(move.value)
    return value, -move.remoteness if value > 0 else move.remoteness


class Searcher:
    """Exact search on one board; its transposition table is kept between searches of that board."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.size = geometry.size
        self.misere = geometry.misere
        self.lines_through = tuple(
            tuple(line for line in geometry.lines if line & cell_bit(cell)) for cell in range(1, geometry.size + 1)
        )
        self.group = transforms(geometry)
        self.canonical_marks = CANONICAL_MARKS
        self.table: dict[int, tuple[int, int]] = {}
        self.shallow: dict[tuple[int, int, int, bool], bool] = {}
        """(own, other, depth, wins?) → proven: the depth-limited proofs of :meth:`wins_within`/:meth:`loses_within`."""
        """canonical key → (kind, score): kind 0 exact, 1 lower bound, 2 upper bound."""
        self.nodes = 0
        self.limit = 0
        self.should_stop: Callable[[], bool] = lambda: False
        self.stop_check = 1023
        """``should_stop`` is asked when the node count has none of these bits set: every 1,024 nodes by default;
        fewer where nodes are dear (on 15×15 a node costs about a millisecond, and a cancel must come quickly)."""

    # --- the position's threats ---------------------------------------------------------------

    def completing(self, own: Bitboard, other: Bitboard) -> Bitboard:
        """Empty cells where ``own`` would complete a line now."""
        return completions(self.geometry, own, other)

    def key(self, own: Bitboard, other: Bitboard) -> int:
        """The transposition table's key: the least image under the symmetry group, where the position has
        few marks (its twins have big subtrees); the position itself deeper down, where eight images cost
        more than the twins they find."""
        size = self.size
        if (own | other).bit_count() > self.canonical_marks:
            return (own << size) | other
        return min((t.apply(own) << size) | t.apply(other) for t in self.group)

    def ordered(self, own: Bitboard, other: Bitboard, moves: Bitboard) -> list[Bitboard]:
        """``moves`` as bits, the cells that serve most live lines (weighted by the marks in them) first."""
        scored = []
        for cell in cells_of(moves):
            weight = 0
            # threats.open_line_weight, inlined: a call per line here costs the search a sixth of its speed
            for line in self.lines_through[cell - 1]:
                if not line & other:
                    weight += 1 + 4 * (line & own).bit_count() ** 2
                if not line & own:
                    weight += 1 + 3 * (line & other).bit_count() ** 2
            scored.append((-weight, cell))
        scored.sort()
        return [cell_bit(cell) for _, cell in scored]

    # --- the search ---------------------------------------------------------------------------

    def score(self, own: Bitboard, other: Bitboard, alpha: int, beta: int) -> int:
        """The exact score of the side to move (``own``) if it lies in (alpha, beta), else a bound beyond it."""
        if self.nodes >= self.limit or (self.nodes & self.stop_check == 0 and self.should_stop()):
            raise SearchAborted
        self.nodes += 1
        full = self.geometry.full
        empty = full & ~(own | other)
        if not empty:
            return 0
        x, o = (own, other) if own.bit_count() == other.bit_count() else (other, own)
        mine = self.completing(own, other)
        if self.misere:
            safe = empty & ~mine
            if not safe:
                return -(WIN - 1)  # every move completes a line of ours
            moves_bits = safe
        else:
            if mine:
                return WIN - 1
            theirs = self.completing(other, own)
            if theirs:
                if theirs & (theirs - 1):
                    return -(WIN - 2)  # two threats: one is blocked, the other completed
                moves_bits = theirs  # the only move that does not lose in 2
            else:
                moves_bits = empty
        if no_line_left(self.geometry, x, o):
            return 0
        key = self.key(own, other)
        stored = self.table.get(key)
        if stored is not None:
            kind, value = stored
            if kind == 0:
                return value
            if kind == 1 and value >= beta:
                return value
            if kind == 2 and value <= alpha:
                return value
        original_alpha = alpha
        best = -_INFINITY
        for bit in self.ordered(own, other, moves_bits):
            child = lift(self.score(other, own | bit, _lower(beta), _lower(alpha)))
            if child > best:  # pragma: no mutate - a child equal to the best changes neither best nor alpha
                best = child
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        if best <= original_alpha:
            self.table[key] = (2, best)
        elif best >= beta:
            self.table[key] = (1, best)
        else:
            self.table[key] = (0, best)
        return best

    # --- iterative deepening on remoteness: quick wins and losses, proven by depth-limited AND/OR search ---

    def wins_within(self, own: Bitboard, other: Bitboard, depth: int) -> bool:
        """The side to move (``own``) can force a win within ``depth`` plies."""
        if depth < 1:
            return False
        key = (own, other, depth, True)
        known = self.shallow.get(key)
        if known is not None:
            return known
        self._count()
        empty = self.geometry.full & ~(own | other)
        mine = self.completing(own, other)
        if self.misere:
            candidates = empty & ~mine  # completing our own line loses
            found = any(self.loses_within(other, own | bit, depth - 1) for bit in self.ordered(own, other, candidates))
        elif mine:
            found = True
        else:
            theirs = self.completing(other, own)
            if theirs & (theirs - 1):
                found = False
            else:
                candidates = theirs or empty
                found = depth >= 3 and any(
                    self.loses_within(other, own | bit, depth - 1) for bit in self.ordered(own, other, candidates)
                )
        self.shallow[key] = found
        return found

    def loses_within(self, own: Bitboard, other: Bitboard, depth: int) -> bool:
        """Whatever the side to move (``own``) plays, it loses within ``depth`` plies."""
        if depth < 1:
            return False
        key = (own, other, depth, False)
        known = self.shallow.get(key)
        if known is not None:
            return known
        self._count()
        empty = self.geometry.full & ~(own | other)
        mine = self.completing(own, other)
        if not empty:
            found = False  # a full board: a draw
        elif self.misere:
            # a move completing our own line loses now; every other move must leave them a win within reach
            found = all(
                bool(mine & bit) or self.wins_within(other, own | bit, depth - 1)
                for bit in self.ordered(own, other, empty)
            )
        elif mine:
            found = False
        else:
            theirs = self.completing(other, own)
            if theirs & (theirs - 1):
                found = depth >= 2
            else:
                candidates = theirs or empty  # beside a block, every move loses in 2
                found = (not theirs or depth >= 2) and all(
                    self.wins_within(other, own | bit, depth - 1) for bit in self.ordered(own, other, candidates)
                )
        self.shallow[key] = found
        return found

    def _count(self) -> None:
        if self.nodes >= self.limit or (self.nodes & self.stop_check == 0 and self.should_stop()):
            raise SearchAborted
        self.nodes += 1

    def quick_move_score(self, position: Position, cell: Cell, depth: int) -> int | None:
        """The move's exact score where it wins or loses within ``depth`` plies, else None (not known yet)."""
        child = position.play(cell)
        status = child.status
        if status is not Status.IN_PLAY:
            return self.move_score(position, cell)
        own, other = (child.x, child.o) if child.turn is Player.X else (child.o, child.x)
        # a win of ours in r plies is the child's loss within r - 1, a loss ours its win: the first depth that
        # proves either is exact (under misère either can end on either side's move, so every depth is tried)
        for plies in range(2, depth + 1):
            if self.loses_within(own, other, plies - 1):
                return WIN - plies
            if self.wins_within(own, other, plies - 1):
                return -(WIN - plies)
        return None

    def move_score(self, position: Position, cell: Cell) -> int:
        """The exact score, for the side making it, of playing ``cell``."""
        child = position.play(cell)
        status = child.status
        if status is Status.DRAW:
            return 0
        if status is not Status.IN_PLAY:
            mover_won = (status is Status.X_WON) == (position.turn is Player.X)
            return WIN - 1 if mover_won else -(WIN - 1)
        own, other = (child.x, child.o) if child.turn is Player.X else (child.o, child.x)
        return lift(self.score(own, other, -_INFINITY, _INFINITY))


def search(
    position: Position,
    *,
    max_nodes: int = 2_000_000,
    should_stop: Callable[[], bool] = lambda: False,
    progress: Callable[[MoveResult, int], None] | None = None,
    searcher: Searcher | None = None,
) -> SearchResult:
    """Every move of ``position`` searched exactly, within ``max_nodes`` in all and until ``should_stop()``
    says so; ``progress(move_result, nodes_so_far)`` after each move is proven.

    The budget is shared out in rounds: each unproven move gets a share of nodes, four times the last
    round's, so the quick proofs all come in before one hard move takes everything (the transposition
    table keeps what an unfinished round learnt). In the first round each move is tried by iterative
    deepening on remoteness first: a win or loss within 1, 2, … :data:`QUICK_PLIES` plies, proven by a
    depth-limited AND/OR search, is exact at the first depth that proves it.

    :raises IllegalPositionError: no game reaches ``position``.
    """
    check_legal(position)
    searcher = (
        searcher if searcher is not None and searcher.geometry == position.geometry else Searcher(position.geometry)
    )
    searcher.should_stop = should_stop
    searcher.nodes = 0
    empties = position.empties.bit_count()
    legal = position.legal_moves()
    own, other = position.sides
    order = {bit.bit_length(): rank for rank, bit in enumerate(searcher.ordered(own, other, position.empties))}
    remaining = sorted(legal, key=lambda c: order[c])
    spent = dict.fromkeys(legal, 0)
    proven: dict[Cell, MoveResult] = {}
    share = 2_000
    first_round = True
    while remaining and searcher.nodes < max_nodes and not should_stop():
        unproven = []
        for cell in remaining:
            before = searcher.nodes
            searcher.limit = min(max_nodes, before + share)
            try:
                if should_stop() or before >= max_nodes:
                    raise SearchAborted
                # first the quick wins and losses, by depth (exact where found), then the whole tree
                score = searcher.quick_move_score(position, cell, QUICK_PLIES) if first_round else None
                if score is None:
                    score = searcher.move_score(position, cell)
                value, remoteness = outcome(score, empties)
            except SearchAborted:
                unproven.append(cell)
                spent[cell] += searcher.nodes - before
                continue
            spent[cell] += searcher.nodes - before
            proven[cell] = MoveResult(cell, value, remoteness, spent[cell])
            if progress is not None:
                progress(proven[cell], searcher.nodes)
        remaining = unproven
        share *= 4
        first_round = False
    moves = tuple(proven.get(cell) or MoveResult(cell, None, None, spent[cell]) for cell in legal)
    return SearchResult(position, moves, searcher.nodes, len(proven) == len(legal))


def search_record(result: SearchResult) -> dict:
    """The search's answer as the ``workbench analyze --json`` record of 3×3, with ``proven`` said of the
    position and of each move, and ``null`` for every value the budget did not prove."""
    from .position import format_position
    from .symmetry import canonical, group_moves, stabilizer
    from .threats import completions, forks, squeezes

    position = result.position
    geometry = position.geometry
    group = stabilizer(position)
    to_move = position.to_move
    me, opp = position.sides
    win = lose = best = 0
    for move in result.moves:
        if move.value is Value.WIN:
            win |= cell_bit(move.cell)
        elif move.value is Value.LOSS:
            lose |= cell_bit(move.cell)
    if result.complete and result.moves:
        top = max(_rank(move) for move in result.moves)
        best = sum(cell_bit(move.cell) for move in result.moves if _rank(move) == top)
    masks = {
        "win": completions(geometry, me, opp),
        "block": completions(geometry, opp, me),
        "fork": squeezes(geometry, me, opp) if geometry.misere else forks(geometry, me, opp),
        "perfect_win": win,
        "perfect_lose": lose,
        "best": best,
    }
    return {
        "variant": str(geometry),
        "position": format_position(position),
        "to_move": to_move.value if to_move else None,
        "status": position.status.value,
        "dead_draw": position.dead_draw,
        "proven": result.complete,
        "value": result.value.label if result.value is not None else None,
        "remoteness": result.remoteness,
        "nodes": result.nodes,
        "games": None,
        "moves": [
            {
                "cell": move.cell,
                "name": cell_name(move.cell, geometry),
                "proven": move.proven,
                "value": move.value.label if move.value is not None else None,
                "remoteness": move.remoteness,
                "nodes": move.nodes,
                "trap": None,
                "games": None,
            }
            for move in result.moves
        ],
        "masks": {name: list(cells_of(mask)) for name, mask in masks.items()},
        "symmetry": {
            "canonical": format_position(canonical(position)),
            "class_id": None,
            "class_count": None,
            "orbit_size": len(transforms(geometry)) // len(group),
            "stabilizer": [transform.name for transform in group],
            "move_classes": [list(g) for g in group_moves(position.legal_moves(), group)],
        },
    }
