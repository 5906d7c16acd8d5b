"""What is read out of a strong solution for the command line: its census (positions, classes and games by
value) and every position's record, streamed in blocks."""

from __future__ import annotations

import numpy as np

from .solver import Value
from .strong import UNREACHED, StrongSolution


def strong_census(solution: StrongSolution) -> dict:
    """Counts over every reachable position, keyed as :func:`workbench.engine.census` keys them for 3×3."""
    in_play = solution.values_by_ply
    games = solution.games(0, 0)
    start = solution.lookup(0, 0)
    assert start is not None  # pragma: no mutate - the empty board is reached by every game
    geometry = solution.geometry
    return {
        "variant": str(geometry),
        "geometry": {"rows": geometry.rows, "cols": geometry.cols, "k": geometry.k, "misere": geometry.misere},
        "positions": solution.positions,
        "terminal_positions": sum(solution.terminal_by_ply),
        "positions_by_ply": list(solution.positions_by_ply),
        "terminal_by_ply": list(solution.terminal_by_ply),
        "positions_by_value": {
            "win": sum(c[0] for c in in_play),
            "draw": sum(c[1] for c in in_play),
            "loss": sum(c[2] for c in in_play),
        },
        "classes": sum(solution.classes_by_ply),
        "terminal_classes": solution.terminal_classes,
        "classes_by_ply": list(solution.classes_by_ply),
        "classes_by_value": dict(zip(("win", "draw", "loss"), solution.classes_by_value)),
        "games": dict(zip(("total", "x", "o", "draw"), (sum(games), *games))),
        "games_by_length": {str(length): count for length, count in enumerate(solution.games_by_length) if count},
        "ledger": dict(zip(("total", "x", "o", "draw"), (sum(solution.ledger), *solution.ledger))),
        "value": {"value": Value(start[0]).label, "remoteness": start[1]},
    }


def every_position(solution: StrongSolution, chunk: int = 65_536):
    """Every reachable position, by ply then index, in chunks of rows
    ``(position text, side to move or None, status, value label or None, remoteness or None)``:
    what ``workbench analyze --all`` streams for a strongly solved board (9.7 million rows on 4×4)."""
    geometry = solution.geometry
    size, cols = geometry.size, geometry.cols
    reached = np.flatnonzero(solution.packed != UNREACHED)
    digits = np.empty((reached.size, size), dtype=np.uint8)
    rest = reached.copy()
    for cell in range(size):
        rest, digits[:, cell] = np.divmod(rest, 3)
    plies = (digits != 0).sum(axis=1)
    # stable: by ply, then by index; numpy reads the kind's name in any case ("STABLE" is the same sort)
    order = np.argsort(plies, kind="stable")  # pragma: no mutate - numpy reads the kind in any case
    symbols = np.frombuffer(b".XO", dtype=np.uint8)
    labels = {1: "win", 0: "draw", -1: "loss"}
    for start in range(0, order.size, chunk):
        rows = order[start : start + chunk]
        marks = symbols[digits[rows]]
        bytes_ = solution.packed[reached[rows]]
        x_count = (digits[rows] == 1).sum(axis=1)
        o_count = (digits[rows] == 2).sum(axis=1)
        texts = [bytes(row).decode() for row in marks]
        block: list[tuple[str, str | None, str, str | None, int | None]] = []
        for text, byte, xs, os_ in zip(texts, bytes_.tolist(), x_count.tolist(), o_count.tolist()):
            value, remoteness = (byte >> 5) - 1, byte & 31
            shown = "/".join(text[i : i + cols] for i in range(0, size, cols))
            x_to_move = xs == os_
            if remoteness == 0:  # the game is over: a draw, or a line made by the side that just moved
                if value == 0:
                    status = "draw"
                else:
                    mover_won = value > 0
                    status = "x_won" if mover_won == x_to_move else "o_won"
                block.append((shown, None, status, None, None))
            else:
                block.append((shown, "X" if x_to_move else "O", "in_play", labels[value], remoteness))
        yield block
