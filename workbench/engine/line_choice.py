"""Which of several equally good moves a best line shows: the one whose story the words can tell.

A best line plays, at every move, one of the moves with the best value and remoteness for the side to move
(:func:`workbench.engine.solver.preference`). Where several are equally good, any would prove the value, but a
line where the defender blocks nothing, or the winner wanders, contradicts the sentences said about it. So among
equals:

- the side that wins takes a win now, then a fork (two or more threats the other side cannot all stop, and no
  line of theirs to complete first), then a move that makes a threat;
- any other side (holding a draw, or losing slowest) blocks a threat, then makes a threat of its own;
- under misère the side that wins leaves the other side only cells that complete a line of theirs (a squeeze);

and then the lowest cell. The evaluation's line, ``r``, ``b``, ``explain`` and the command line all read lines
from :func:`workbench.engine.analysis.principal_variation`, which chooses with :func:`story_first`.

Pure: imports only the engine's geometry, position and facts.
"""

from __future__ import annotations

from collections.abc import Sequence

from .facts import after_move, board_of
from .geometry import Cell, cell_bit
from .position import Position


def story_rank(position: Position, cell: Cell, winning: bool) -> int:
    """How well ``cell`` played in ``position`` tells its story: 0 first; ``winning`` says whether the side to
    move wins (the value all the compared moves share). Read from the same bitboards as the facts the words say
    (:func:`workbench.engine.facts.after_move`)."""
    board = board_of(position)
    bit = cell_bit(cell)
    if position.geometry.misere:
        return 0 if winning and board.squeezes & bit else 1
    completes, mine, theirs = after_move(board, bit)
    if winning:
        if completes:
            return 0
        if mine & (mine - 1) and not theirs:
            return 1
        return 2 if mine else 3
    if board.theirs & bit:
        return 0
    return 1 if mine else 2


def story_first(position: Position, cells: Sequence[Cell], winning: bool) -> Cell:
    """The cell of ``cells`` (equally good moves in ``position``) a best line plays: the best :func:`story_rank`,
    then the lowest cell."""
    if len(cells) == 1:
        return cells[0]
    return min(cells, key=lambda cell: (story_rank(position, cell, winning), cell))


__all__ = ["story_first", "story_rank"]
