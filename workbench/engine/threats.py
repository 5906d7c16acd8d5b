"""Seed 001's threat planner: two plies of look-ahead over bitmasks.

For the side to move (``me``) against ``opp``, as cell sets:

==================  ====================  =============================================
field               seed 001 function     meaning
==================  ====================  =============================================
``winning``         ``winningMoves``      complete a line now
``giveaways``       ``losingMoves``       after it, ``opp`` completes a line now
``plan_winning``    ``planWinningMoves``  a win now, or every reply leaves us a win now
``plan_losing``     ``planLosingMoves``   giveaways, and moves handing ``opp`` a plan
``perfect_winning`` ``perfWinningMoves``  a win now, or every reply is ``plan_losing``
``perfect_losing``  ``perfLosingMoves``   giveaways, and moves handing ``opp`` a
                                          perfect win
==================  ====================  =============================================

Every function at (me, opp) looks only at the pairs (opp, me | move), so all
six are computed together in one memoised pass per pair.

One correction to the article's code, found by checking it against the exact
solver (``workbench verify``): a move that fills the board without winning
leaves the opponent no moves, so the article's test "every reply is losing"
(``losingMoves == validMoves``, both 0) counted a drawn last move as a forced
win. Here a move that ends the game never counts as forcing. With that fix,
``perfect_winning``/``perfect_losing`` equal the solver's verdict on every
reachable 3×3 position; the article's code as written disagrees on 560 and
676 positions (see :mod:`workbench.bench.baselines`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from typing import NamedTuple

from .geometry import Bitboard, Geometry


class PlanMasks(NamedTuple):
    winning: Bitboard = 0
    giveaways: Bitboard = 0
    plan_winning: Bitboard = 0
    plan_losing: Bitboard = 0
    perfect_winning: Bitboard = 0
    perfect_losing: Bitboard = 0


_NOTHING = (0, 0, 0, 0, 0, 0)

Plans = tuple[array, array]
"""A planner's answers as two arrays: its keys of the two sides' marks (``me | opp << cells``), ascending
(``"Q"``), and each key's six masks in turn (``"H"``: boards of up to 16 cells)."""


class Planner:
    """Memoised threat planner for one geometry."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self._shift = geometry.size
        self._lines = geometry.lines
        self._full = geometry.full
        # "holds a line" for every bitboard, where the board is small enough: _won's own answers,
        # looked up instead of computed (speed only, so its mutants cannot be seen: no mutate)
        self._line_table = (  # pragma: no mutate - speed only (above)
            tuple(any(bb & line == line for line in self._lines) for bb in range(1 << geometry.size))
            if geometry.size <= 16  # pragma: no mutate - speed only (above)
            else None  # pragma: no mutate - speed only (above)
        )
        self._cache: dict[int, tuple[Bitboard, ...]] = {}
        self._learned: Plans | None = None

    def _won(self, marks: Bitboard) -> bool:
        if self._line_table is not None:  # pragma: no mutate (either way the same answer)
            return self._line_table[marks]
        return any(marks & line == line for line in self._lines)

    def _over(self, me: Bitboard, opp: Bitboard) -> bool:
        return (me | opp) == self._full or self._won(me) or self._won(opp)

    def known(self) -> Plans:
        """What the planner has worked out so far (:data:`Plans`): kept with the tables."""
        keys = array("Q", sorted(self._cache))
        return keys, array("H", [mask for key in keys for mask in self._cache[key]])

    def learn(self, plans: Plans) -> None:
        """Answer from :meth:`known`'s plans, read back with the tables, rather than working them out again (on
        3×3 the first position's masks go through 4,520 positions, a large part of the app's first paint)."""
        self._learned = plans

    def masks(self, me: Bitboard, opp: Bitboard) -> PlanMasks:
        """All six planner masks for ``me`` to move against ``opp``."""
        key = me | (opp << self._shift)
        known = self._cache.get(key)
        if known is None and self._learned is not None:
            keys, masks = self._learned
            index = bisect_left(keys, key)
            if index < len(keys) and keys[index] == key:
                known = self._cache[key] = tuple(masks[6 * index : 6 * index + 6])
        return PlanMasks._make(known if known is not None else self._raw(me, opp))

    def _raw(self, me: Bitboard, opp: Bitboard) -> tuple[Bitboard, ...]:
        # plain tuples inside the recursion: index access beats NamedTuple properties
        key = me | (opp << self._shift)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._compute(me, opp)
        return cached

    def _compute(self, me: Bitboard, opp: Bitboard) -> tuple[Bitboard, ...]:
        if self._over(me, opp):
            return _NOTHING
        full = self._full
        winning = giveaways = plan_winning = plan_losing = perfect_winning = perfect_losing = 0
        empties = full & ~(me | opp)
        moves = empties
        while moves:
            move = moves & -moves
            moves ^= move
            after = me | move
            if self._won(after):
                winning |= move
                continue  # the game ends: the opponent has no replies to judge
            replies = empties ^ move
            if not replies:
                continue  # a drawn last move forces nothing (the article's bug)
            # child: the opponent's (winning, giveaways, plan_winning, plan_losing, perfect_winning, …)
            child_winning, child_giveaways, child_plan_winning, child_plan_losing, child_perfect_winning, _ = self._raw(
                opp, after
            )
            if child_winning:
                giveaways |= move
            if child_giveaways == replies:
                plan_winning |= move
            if child_plan_winning:
                plan_losing |= move
            if child_plan_losing == replies:
                perfect_winning |= move
            if child_perfect_winning:
                perfect_losing |= move
        return (
            winning,
            giveaways,
            winning | plan_winning,
            giveaways | plan_losing,
            winning | perfect_winning,
            giveaways | perfect_losing,
        )

    def winning(self, me: Bitboard, opp: Bitboard) -> Bitboard:
        """Moves that complete a line now (no turn check: used for blocks too)."""
        if self._over(me, opp):
            return 0
        result = 0
        moves = self._full & ~(me | opp)
        while moves:
            move = moves & -moves
            moves ^= move
            if self._won(me | move):
                result |= move
        return result

    def block(self, me: Bitboard, opp: Bitboard) -> Bitboard:
        """Cells where the opponent would complete a line now."""
        return self.winning(opp, me)


_PLANNERS: dict[Geometry, Planner] = {}


def planner_for(geometry: Geometry) -> Planner:
    """The shared memoised planner of ``geometry``."""
    planner = _PLANNERS.get(geometry)
    if planner is None:
        planner = _PLANNERS[geometry] = Planner(geometry)
    return planner


# --- the masks on any board, from the lines alone (no memo of the tree below) ---------------------------


def completions(geometry: Geometry, own: Bitboard, other: Bitboard) -> Bitboard:
    """Empty cells where ``own`` would complete a line now: the ``win`` mask (``block`` with the sides
    swapped), by one pass over the lines, for boards of any size."""
    cells = 0
    need = geometry.k - 1
    for line in geometry.lines:
        if not line & other and (line & own).bit_count() == need:
            cells |= line & ~own
    return cells


def forks(geometry: Geometry, own: Bitboard, other: Bitboard) -> Bitboard:
    """The ``fork`` mask: moves that complete no line, leave the opponent no line to complete, and leave us
    two or more cells that complete one (a single one could be blocked). The same set as the planner's
    ``plan_winning & ~winning``, without its memo of the whole tree below."""
    empty = geometry.full & ~(own | other)
    found = 0
    for cell in cells_of_bits(empty & _fork_candidates(geometry, own, other)):
        after = own | cell
        if empty == cell or geometry.has_line(after) or completions(geometry, other, after):
            continue
        threats = completions(geometry, after, other)
        if threats & (threats - 1):
            found |= cell
    return found


def _fork_candidates(geometry: Geometry, own: Bitboard, other: Bitboard) -> Bitboard:
    """Cells that can make a fork: a move adds at most one threat per line through it, each from a line it
    brings to ``k - 1`` of our marks, so it needs two such lines, or one beside a threat we hold already, or
    none beside two (a 15×15 board has 572 lines: checking only these cells is what makes the mask quick)."""
    held = completions(geometry, own, other)
    if held & (held - 1):
        return geometry.full
    need = geometry.k - 2
    once = twice = 0
    for line in geometry.lines:
        if not line & other and (line & own).bit_count() == need:
            cells = line & ~own
            twice |= once & cells
            once |= cells
    return once if held else twice


def squeezes(geometry: Geometry, own: Bitboard, other: Bitboard) -> Bitboard:
    """Under misère, the ``fork`` mask: moves that complete none of our lines and leave the opponent only
    replies that complete one of theirs (they lose on their next move)."""
    empty = geometry.full & ~(own | other)
    # our move only takes cells from their completions: fewer of those than the replies left squeezes nothing
    if completions(geometry, other, own).bit_count() < empty.bit_count() - 1:
        return 0
    found = 0
    for cell in cells_of_bits(empty):
        after = own | cell
        replies = empty ^ cell
        if replies and not geometry.has_line(after) and completions(geometry, other, after) == replies:
            found |= cell
    return found


def cells_of_bits(bb: Bitboard):
    """Each cell of ``bb`` as a one-cell bitboard, lowest first."""
    while bb:
        low = bb & -bb
        yield low
        bb ^= low


# --- the threat player: a move on any board, from the lines alone -------------------------------------------


def threat_move(geometry: Geometry, own: Bitboard, other: Bitboard, *, avoid: Bitboard = 0) -> Bitboard:
    """A move for ``own`` (as a one-cell bitboard; 0 when the board is full) by the threats alone, for positions
    whose values are not known: win now, else block, else fork, else the cell serving the most open lines
    (each weighted by the marks already in it), nearer the centre on a tie, then the lowest. Cells in ``avoid``
    (moves proven to lose) are taken only when nothing else is left. Under misère the same, turned round: never
    complete a line of our own while another move is left, squeeze where we can, else the cell serving the
    fewest lines of ours.
    """
    empty = geometry.full & ~(own | other)
    choices = empty & ~avoid or empty
    if not choices:
        return 0
    if geometry.misere:
        safe = choices & ~completions(geometry, own, other) or choices
        squeeze = squeezes(geometry, own, other) & safe
        return _lowest(squeeze) if squeeze else _by_lines(geometry, own, other, safe, fewest=True)
    for urgent in (completions(geometry, own, other), completions(geometry, other, own)):
        if urgent & choices:
            return _lowest(urgent & choices)
    fork = forks(geometry, own, other) & choices
    if fork:
        return _lowest(fork)
    return _by_lines(geometry, own, other, choices, fewest=False)


def _lowest(cells: Bitboard) -> Bitboard:
    return cells & -cells


def open_line_weight(line: Bitboard, own: Bitboard, other: Bitboard) -> int:
    """What a cell of ``line`` is worth to ``own`` to play: a line still open to us the more the more marks of ours
    it has, one still open to them (for the block) the more the more of theirs; 0 for a dead line. The search
    orders its moves by it, the threat player picks by it."""
    weight = 0
    if not line & other:
        weight += 1 + 4 * (line & own).bit_count() ** 2
    if not line & own:
        weight += 1 + 3 * (line & other).bit_count() ** 2
    return weight


def _by_lines(geometry: Geometry, own: Bitboard, other: Bitboard, cells: Bitboard, *, fewest: bool) -> Bitboard:
    weight = dict.fromkeys(cells_of_bits(cells), 0)
    for line in geometry.lines:
        if not line & cells:
            continue
        value = open_line_weight(line, own, other)
        if value:
            for cell in cells_of_bits(line & cells):
                weight[cell] += value
    centre_row, centre_col = (geometry.rows - 1) / 2, (geometry.cols - 1) / 2

    def rank(cell: Bitboard) -> tuple[float, float, int]:
        row, col = divmod(cell.bit_length() - 1, geometry.cols)
        spread = abs(row - centre_row) + abs(col - centre_col)
        return (weight[cell] if fewest else -weight[cell]), spread, cell

    return min(weight, key=rank)
