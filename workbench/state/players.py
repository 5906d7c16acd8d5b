"""How the engine picks its move: pure functions of an analysis (randomness passed in)."""

from __future__ import annotations

import random

from ..engine import Analysis, Cell, Position, Value, cell_bit
from ..engine.geometry import cell_name
from ..engine.threats import threat_move
from .app_state import EngineMode


def choose_move(analysis: Analysis, mode: EngineMode, rng: random.Random | None = None) -> Cell | None:
    """The engine's move in ``mode``, or None when there is nothing to play.

    * perfect: a best move (keeps the exact value, quickest win, slowest loss);
    * trap: among the best moves, the one whose replies most often lose (seed 001 step 5);
    * random: any legal move.

    Where the values are not all proven (a board searched move by move), perfect and trap play a proven win
    if there is one (the quickest proven), else the threat player's move (win, block, fork, most open lines)
    among the moves not proven to lose.

    Ties go to the lowest cell, so perfect and trap play are repeatable.
    """
    if not analysis.moves or mode is EngineMode.OFF:
        return None
    if mode is EngineMode.RANDOM:
        return (rng or random.Random()).choice([move.cell for move in analysis.moves])
    if not analysis.proven:
        return _unproven_choice(analysis)
    best = [move for move in analysis.moves if analysis.masks.best & cell_bit(move.cell)]
    # a move that ends the game has no trap score; when one is best, all best moves end the game
    if mode is EngineMode.TRAP and best[0].trap is not None:
        return max(best, key=lambda move: (move.trap, -move.cell)).cell
    return best[0].cell


def _unproven_choice(analysis: Analysis) -> Cell:
    wins = [move for move in analysis.moves if move.value is Value.WIN]
    if wins:
        return min(wins, key=lambda move: (move.remoteness, move.cell)).cell
    position = analysis.position
    own, other = position.sides
    losing = sum(cell_bit(move.cell) for move in analysis.moves if move.value is Value.LOSS)
    return threat_move(position.geometry, own, other, avoid=losing).bit_length()


def engine_basis(analysis: Analysis, mode: EngineMode) -> str:
    """What the engine's pick in ``mode`` rests on in this position, as the board's status says it:
    ``perfect``, ``trap`` and ``random`` where every value is exact; where they are not (a board searched move
    by move), perfect and trap play a proven win if the search found one, else the threat player's move."""
    if mode in (EngineMode.PERFECT, EngineMode.TRAP) and not analysis.proven:
        wins = any(move.value is Value.WIN for move in analysis.moves)
        return "a proven win" if wins else "threat player: not proven"
    return mode.value


def describe_choice(analysis: Analysis, cell: Cell) -> str:
    """Why ``cell`` is the move played for "best": exact, a proven win, or the threat player's guess on a board
    not proven here (never presented as more than it is)."""
    name = cell_name(cell, analysis.position.geometry)
    move = analysis.move(cell)
    if move is not None and move.value is not None:
        proven = "best, exact" if analysis.proven else "proven"
        return f"Played {name}: {move.value.label} in {move.remoteness} ({proven})."
    known = sum(move.value is not None for move in analysis.moves)
    return f"Played {name}: the threat player's move, not proven ({known} of {len(analysis.moves)} moves proven here)."


def refusal(position: Position, cell: Cell) -> str:
    """Why ``cell`` cannot be played in ``position`` (a key or click that changed nothing), in one line."""
    geometry = position.geometry
    if not geometry.contains(cell):
        return f"No cell {cell} on this board (it has {geometry.size})."
    if position.is_over:
        outcome = {"x_won": "X won", "o_won": "O won", "draw": "a draw"}[position.status.value]
        return f"Game over ({outcome}): ← steps back to play on."
    return f"{cell_name(cell, geometry)} is taken."
