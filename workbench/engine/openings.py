"""Seed 001's first-move table, by a threat-pruned forced-win search.

For each opening X move, the table gives the share of O's replies after
which X can force a win. The search answers only "can the side to move force
a win?" and prunes with threats: take a win now; with two enemy threats,
lose; with one, the block is the only move; a double threat of ours wins.
Results are memoised per position.
"""

from __future__ import annotations

from .census import completing_cells
from .geometry import Bitboard, Geometry


class ForcedWinSearch:
    """Memoised "can the side to move force a win" over one geometry."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self._completing = completing_cells(geometry)
        self._memo: dict[tuple[Bitboard, Bitboard], bool] = {}

    def can_force_win(self, me: Bitboard, opp: Bitboard) -> bool:
        """True when ``me``, to move in a game still in play, can force a win."""
        key = (me, opp)
        known = self._memo.get(key)  # pragma: no mutate (a memo: without it the same answer, slower)
        if known is None:
            known = self._memo[key] = self._search(me, opp)
        return known

    def _search(self, me: Bitboard, opp: Bitboard) -> bool:
        completing = self._completing
        empties = self.geometry.full & ~(me | opp)
        if completing[me] & empties:
            return True
        threats = completing[opp] & empties
        if threats & (threats - 1):
            return False  # two threats: only one can be blocked
        candidates = threats or empties
        while candidates:
            move = candidates & -candidates
            candidates ^= move
            if self._forces(me | move, opp, empties ^ move):
                return True
        return False

    def _forces(self, me: Bitboard, opp: Bitboard, empties: Bitboard) -> bool:
        """After our (non-winning) move: does every reply leave us a forced win?"""
        completing = self._completing
        if not empties or completing[opp] & empties:
            return False  # a drawn full board, or they win now
        ours = completing[me] & empties
        if ours & (ours - 1):
            return True  # a fork: they block one line, we complete the other
        replies = ours or empties
        while replies:
            reply = replies & -replies
            replies ^= reply
            if empties == reply or not self.can_force_win(me, opp | reply):
                return False
        return True


def first_move_table(geometry: Geometry) -> tuple[tuple[float, ...], ...]:
    """Rows of the board, each cell the share of O's replies to X there that lose."""
    search = ForcedWinSearch(geometry)
    full = geometry.full
    shares = []
    for index in range(geometry.size):
        x = 1 << index
        replies = full ^ x
        losing = 0
        reply_bits = replies
        while reply_bits:
            reply = reply_bits & -reply_bits
            reply_bits ^= reply
            if search.can_force_win(x, reply):
                losing += 1
        shares.append(losing / replies.bit_count() if replies else 0.0)
    return tuple(tuple(shares[row * geometry.cols : (row + 1) * geometry.cols]) for row in range(geometry.rows))


def first_move_table_from_values(geometry: Geometry, value_of) -> tuple[tuple[float, ...], ...]:
    """The same table from exact values, for any rule: ``value_of(x, o)`` is the value (1, 0, -1) of a reachable
    position for the side to move. A reply loses when X, to move after it, wins (under misère that includes a
    reply that completes a line of O's)."""
    shares = []
    for index in range(geometry.size):
        x = 1 << index
        replies = [1 << cell for cell in range(geometry.size) if not x >> cell & 1]
        losing = sum(1 for reply in replies if value_of(x, reply) > 0)
        shares.append(losing / len(replies) if replies else 0.0)
    return tuple(tuple(shares[row * geometry.cols : (row + 1) * geometry.cols]) for row in range(geometry.rows))
