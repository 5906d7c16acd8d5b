"""Baselines that ``workbench bench`` and ``workbench verify`` measure the engine against.

These are deliberately the slow, direct methods of the seed articles, kept
faithful so the comparison is honest:

* :func:`seed_first_move_table` — seed 001's recursive C++ functions, ported
  line by line (no memo, and with the article's drawn-last-move bug intact);
* :func:`brute_force_ledger` — seed 000's "every game": all 9! fill orders of
  the board, the first line deciding the winner;
* :func:`plain_minimax` — memo-free minimax from the empty board.

They know only the classic 3×3 board.
"""

from __future__ import annotations

import inspect
import types
from functools import cache
from itertools import permutations

# seed 001's board: bit 8 is the top-left corner, bit 0 the bottom-right
_FULL = 0b111111111
_UPPER_LEFT = 0b100000000
_SEED_LINES = (
    0b111000000,
    0b000111000,
    0b000000111,
    0b100100100,
    0b010010010,
    0b001001001,
    0b100010001,
    0b001010100,
)


def _did_player_win(moves: int) -> bool:
    for line in _SEED_LINES:
        if moves & line == line:
            return True
    return False


def _valid_moves(x_moves: int, o_moves: int) -> int:
    return ~(x_moves | o_moves) & _FULL


def _game_over(x_moves: int, o_moves: int) -> bool:
    if _valid_moves(x_moves, o_moves) & _FULL == 0:
        return True
    return _did_player_win(x_moves) or _did_player_win(o_moves)


def _selections():
    sel = 1 << 8
    while sel:
        yield sel
        sel >>= 1


def winning_moves(thinking: int, idle: int) -> int:
    if _game_over(thinking, idle):
        return 0
    moves = _valid_moves(thinking, idle)
    winning = 0
    for sel in _selections():
        if moves & sel and _did_player_win(thinking | sel):
            winning |= sel
    return winning


def losing_moves(thinking: int, idle: int) -> int:
    if _game_over(thinking, idle):
        return 0
    moves = _valid_moves(thinking, idle)
    trapping = 0
    for sel in _selections():
        if moves & sel and winning_moves(idle, thinking | sel):
            trapping |= sel
    return trapping


def plan_winning_moves(thinking: int, idle: int) -> int:
    if _game_over(thinking, idle):
        return 0
    moves = _valid_moves(thinking, idle)
    winning = winning_moves(thinking, idle)
    for sel in _selections():
        if moves & sel:
            opponent_moves = _valid_moves(idle, thinking | sel)
            if losing_moves(idle, thinking | sel) == opponent_moves:
                winning |= sel
    return winning


def plan_losing_moves(thinking: int, idle: int) -> int:
    if _game_over(thinking, idle):
        return 0
    moves = _valid_moves(thinking, idle)
    trapping = losing_moves(thinking, idle)
    for sel in _selections():
        if moves & sel and plan_winning_moves(idle, thinking | sel):
            trapping |= sel
    return trapping


def perf_winning_moves(thinking: int, idle: int) -> int:
    if _game_over(thinking, idle):
        return 0
    moves = _valid_moves(thinking, idle)
    winning = winning_moves(thinking, idle)
    for sel in _selections():
        if moves & sel and plan_losing_moves(idle, thinking | sel) == _valid_moves(idle, thinking | sel):
            winning |= sel
    return winning


def perf_losing_moves(thinking: int, idle: int) -> int:
    if _game_over(thinking, idle):
        return 0
    moves = _valid_moves(thinking, idle)
    trapping = losing_moves(thinking, idle)
    for sel in _selections():
        if moves & sel and perf_winning_moves(idle, thinking | sel):
            trapping |= sel
    return trapping


_SEED_FUNCTIONS = (
    "winning_moves",
    "losing_moves",
    "plan_winning_moves",
    "plan_losing_moves",
    "perf_winning_moves",
    "perf_losing_moves",
)


def memoized_seed_port() -> tuple:
    """(perf_winning_moves, perf_losing_moves) as ported, each of the six functions given a memo: the same
    answers (they are pure functions of the two bitboards), in a second over every position instead of
    about forty. For ``workbench verify --seed-port``, which wants the answers; the bench times the port as
    written. Each copy runs the ported code itself, its calls to the others going to the memoized copies."""
    namespace = dict(globals())
    for name in _SEED_FUNCTIONS:
        # the function's own code, not a wrapper's (mutmut's trampolines wrap every function)
        ported = inspect.unwrap(globals()[name])
        namespace[name] = cache(types.FunctionType(ported.__code__, namespace, name))
    return namespace["perf_winning_moves"], namespace["perf_losing_moves"]


def seed_first_move_table() -> list[list[float]]:
    """Seed 001's ``printFirstMoveTable``: for each X opening, the share of O replies that lose."""
    table = []
    for row in range(3):
        values = []
        for col in range(3):
            move = _UPPER_LEFT >> (col + row * 3)
            available = _valid_moves(0, move)
            bad = perf_losing_moves(0, move)
            values.append(bad.bit_count() / available.bit_count())
        table.append(values)
    return table


def seed_bitboard(bb: int) -> int:
    """Our bitboard (bit 0 = cell 1) in seed 001's layout (bit 8 = cell 1)."""
    return int(f"{bb:09b}"[::-1], 2)


def from_seed_bitboard(bb: int) -> int:
    return seed_bitboard(bb)  # reversing nine bits is its own inverse


# seed 000: cells 0..8, the first line in play order decides
_LINES = tuple(
    sum(1 << c for c in line)
    for line in ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
)


def brute_force_ledger() -> dict[str, int]:
    """Winner of every one of the 9! fill orders, by playing each one out."""
    x_wins = o_wins = draws = 0
    for order in permutations(range(9)):
        x = o = 0
        winner = None
        for turn, cell in enumerate(order):
            if turn % 2 == 0:
                x |= 1 << cell
                if turn >= 4 and any(x & line == line for line in _LINES):
                    winner = "x"
                    break
            else:
                o |= 1 << cell
                if turn >= 5 and any(o & line == line for line in _LINES):
                    winner = "o"
                    break
        if winner == "x":
            x_wins += 1
        elif winner == "o":
            o_wins += 1
        else:
            draws += 1
    return {"total": x_wins + o_wins + draws, "x": x_wins, "o": o_wins, "draw": draws}


def plain_minimax(x: int = 0, o: int = 0, x_to_move: bool = True) -> int:
    """Value for X (+1 win, 0 draw, -1 loss) by full-tree minimax with no memo."""
    if any(x & line == line for line in _LINES):
        return 1
    if any(o & line == line for line in _LINES):
        return -1
    empties = 0b111111111 & ~(x | o)
    if not empties:
        return 0
    best = -2 if x_to_move else 2
    while empties:
        bit = empties & -empties
        empties ^= bit
        if x_to_move:
            best = max(best, plain_minimax(x | bit, o, False))
            if best == 1:
                pass  # no pruning: the baseline visits the whole tree
        else:
            best = min(best, plain_minimax(x, o | bit, True))
    return best


def seed_port_disagreements() -> dict:
    """How many positions in play of 3×3 seed 001's code as written gets wrong, perfect-win and perfect-lose
    apart (``verify --seed-port``)."""
    from ..engine import TIC_TAC_TOE, analyze_all
    from ..engine.analysis import exact_masks

    perf_winning_moves, perf_losing_moves = memoized_seed_port()
    win_diffs = lose_diffs = 0
    for analysis in analyze_all(TIC_TAC_TOE):
        if analysis.to_move is None:
            continue
        position = analysis.position
        me, opp = (position.x, position.o) if analysis.to_move.value == "X" else (position.o, position.x)
        seed_me, seed_opp = seed_bitboard(me), seed_bitboard(opp)
        seed_win = from_seed_bitboard(perf_winning_moves(seed_me, seed_opp))
        seed_lose = from_seed_bitboard(perf_losing_moves(seed_me, seed_opp))
        exact_win, exact_lose = exact_masks(analysis)
        win_diffs += seed_win != exact_win
        lose_diffs += seed_lose != exact_lose
    return {"perfect_win": win_diffs, "perfect_lose": lose_diffs}
