"""A move explained in words, from the exact values: its verdict, the values before and after, the best moves, and
the line that proves it, each step named by its role on the board.

Roles under the normal rule (:func:`role_of`): ``win`` completes a line; ``fork`` leaves the mover two or more
cells that complete a line next (the opponent can stop only one); ``block`` takes a cell where the opponent would
have completed a line; ``threat`` leaves the mover one such cell (the opponent must answer it); ``quiet`` is
anything else. A move that is several is named by the first of win, fork, block, threat.

Under misère completing a line loses, so the roles are turned round (:data:`MISERE_ROLES`): ``loses`` completes a
line of the mover's own (the mover loses; ``forced`` in the words where every move left did so); ``squeeze`` leaves
the opponent only cells that complete a line of theirs (they lose on their next move: misère's fork); ``quiet`` is
anything else. A step's ``threatens`` keeps its meaning under both rules, the cells where its player would complete
a line next: under misère the cells that player must keep away from.

Up to 16 cells (exact values everywhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..errors import InputError
from .analysis import analyze, best_moves, check_exact, principal_variation, strong_if_installed
from .geometry import MAX_TABLE_CELLS, Bitboard, Cell, cell_bit, cell_name, cell_names, cells_of
from .position import Player, Position, check_legal, format_position
from .results import MoveAnalysis
from .solver import Value
from .threats import completions, squeezes

ROLES = ("win", "fork", "block", "threat", "quiet")
"""Every role a step can have under the normal rule, in the order that names a move that is several."""
MISERE_ROLES = ("loses", "squeeze", "quiet")
"""Every role a step can have under misère, in the same order."""
VERDICTS = ("best", "only move", "inaccurate", "mistake")


class ExplainError(InputError):
    """A move that cannot be explained here: the game over, or an illegal move."""


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the line: who played where, its role, and the cells where that player would complete a line
    on their next move (empty for a ``quiet`` or ``block`` that makes no threat)."""

    ply: int
    """The game's ply the move makes: 1 for the first mark on the board."""
    player: Player
    cell: Cell
    role: str
    threatens: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Explanation:
    position: Position
    """Where the move is played."""
    cell: Cell
    verdict: str
    """One of :data:`VERDICTS`, for the side that moved."""
    value_before: Value
    remoteness_before: int
    value_after: Value
    """What the mover is left with after the move (exact, best play from there)."""
    remoteness_after: int
    best: tuple[Cell, ...]
    line: tuple[Step, ...]
    """The move, then best play to the end: the line that proves the verdict."""
    text: str
    """One or two plain sentences."""
    story: str
    """Why the move has its value, told along its line, naming no other move of the position: the words for a
    student who must not be given the answer (a wrong answer in practice)."""


@dataclass(frozen=True, slots=True)
class ExactMoves:
    """A position's exact value and every move's, without the rest of an :class:`Analysis` (game counts, traps,
    symmetry): what a verdict needs, quick on a strong solution, where counting the games below a position of
    4×4 takes tens of milliseconds."""

    position: Position
    value: Value
    remoteness: int
    moves: tuple[MoveAnalysis, ...]
    best: Bitboard

    def move(self, cell: Cell) -> MoveAnalysis | None:
        return next((move for move in self.moves if move.cell == cell), None)


def exact_moves(position: Position) -> ExactMoves:
    """The value of ``position`` (in play) and of each of its moves, from a strong solution where one is
    installed, else from :func:`analyze`."""
    solution = strong_if_installed(position.geometry) if position.geometry.size > MAX_TABLE_CELLS else None
    if solution is None:
        analysis = analyze(position)
        assert analysis.value is not None and analysis.remoteness is not None  # pragma: no mutate
        return ExactMoves(position, analysis.value, analysis.remoteness, analysis.moves, analysis.masks.best)
    check_legal(position)
    cells = position.legal_moves()
    children = [position.play(cell) for cell in cells]
    (value, remoteness), *read = solution.lookup_many([position.x, *(c.x for c in children)], [position.o, *(c.o for c in children)])
    moves = []
    for cell, (child_value, child_remoteness) in zip(cells, read):
        moves.append(MoveAnalysis(cell, Value(-child_value), child_remoteness + 1, None, None))
    moves = tuple(moves)
    return ExactMoves(position, Value(value), remoteness, moves, best_moves(moves))


def role_of(position: Position, cell: Cell) -> tuple[str, tuple[Cell, ...]]:
    """(the role of ``cell`` played in ``position``, the cells it leaves its player threatening)."""
    geometry = position.geometry
    own, other = position.sides
    after = own | cell_bit(cell)
    threatens = cells_of(completions(geometry, after, other))
    if geometry.misere:
        if geometry.has_line(after):
            return "loses", ()
        return ("squeeze" if squeezes(geometry, own, other) & cell_bit(cell) else "quiet"), threatens
    if geometry.has_line(after):
        return "win", ()
    if len(threatens) >= 2:
        return "fork", threatens
    if completions(geometry, other, own) & cell_bit(cell):
        return "block", threatens
    return ("threat" if threatens else "quiet"), threatens


def line_steps(position: Position, cells) -> tuple[Step, ...]:
    """Each move of ``cells`` played from ``position``, with its role."""
    steps = []
    for cell in cells:
        role, threatens = role_of(position, cell)
        steps.append(Step(position.ply + 1, position.turn, cell, role, threatens))
        position = position.play(cell)
    return tuple(steps)


def explain(position: Position, cell: Cell) -> Explanation:
    """The move ``cell`` in ``position``, explained.

    :raises ExplainError: the game is over, or the move is illegal.
    :raises BoardTooLargeError: above 16 cells, where the values a verdict needs are not known.
    """
    geometry = position.geometry
    check_exact(geometry)
    if position.is_over:
        raise ExplainError(f"the game is over in {format_position(position)}: no move to explain")
    if not geometry.contains(cell) or position.occupied & cell_bit(cell):
        raise ExplainError(f"{cell_name(cell, geometry) if geometry.contains(cell) else cell}: not a move here (a taken cell, or off the board)")
    analysis = exact_moves(position)  # the values alone: counting the games below is most of an analyze on 4×4
    played = analysis.move(cell)
    assert played is not None  # pragma: no mutate
    best = tuple(move.cell for move in analysis.moves if analysis.best & cell_bit(move.cell))
    keeping = [move.cell for move in analysis.moves if move.value == analysis.value]
    if played.value < analysis.value:
        verdict = "mistake"
    elif cell in best:
        verdict = "only move" if keeping == [cell] and len(analysis.moves) > 1 else "best"
    else:
        verdict = "inaccurate"
    line = line_steps(position, (cell, *principal_variation(position.play(cell))))
    text = _sentences(position, analysis, played, verdict, best, keeping, line)
    story = _story(position, played, line)
    return Explanation(position, cell, verdict, analysis.value, analysis.remoteness, played.value, played.remoteness,
                       best, line, text, story)  # fmt: skip


explained = lru_cache(maxsize=256)(explain)
""":func:`explain`, kept for the positions seen lately: the app's panes explain the same few moves at every
rebuild."""


_KEEPS = {Value.WIN: "wins", Value.DRAW: "draws", Value.LOSS: "loses slowest"}
_KEEP = {Value.WIN: "win", Value.DRAW: "draw", Value.LOSS: "lose slowest"}
_OUTCOME = {Value.WIN: "wins", Value.DRAW: "draws", Value.LOSS: "loses"}


def _sentences(position, analysis, played, verdict, best, keeping, line) -> str:
    geometry = position.geometry
    name = cell_name(played.cell, geometry)
    mark = {"mistake": "??", "inaccurate": "?!", "only move": "!", "best": ""}[verdict]
    after = f"{_OUTCOME[played.value]}" + ("" if played.value is Value.DRAW else f" in {played.remoteness}")
    if verdict == "mistake":
        keepers = keeping or best
        only = f"was the only move that {_KEEPS[analysis.value]}" if len(keepers) == 1 else f"were the moves that {_KEEP[analysis.value]}"
        if line[0].role == "loses":  # misère: a line of one's own, completed by choice
            return (f"{name}{mark} completes a line of {line[0].player.value}'s own, which loses under misère. "
                    f"{cell_names(keepers, geometry, ', ')} {only}.")  # fmt: skip
        return f"{name}{mark} {after}: {_narrative(line[1:], geometry, line[0].threatens)}. {cell_names(keepers, geometry, ', ')} {only}."
    if verdict == "inaccurate":
        pace = "wins more slowly" if played.value is Value.WIN else "loses sooner"
        return (f"{name}{mark} keeps the {played.value.label} but {pace}: {played.remoteness} plies to the end "
                f"instead of {analysis.remoteness}. Best: {cell_names(best, geometry, ', ')}.")  # fmt: skip
    first = f"{name}{mark} {after}" + (f": {_narrative(line[1:], geometry, line[0].threatens)}." if line[1:] else ".")
    if verdict != "only move":
        return first
    # why every other move falls short: the quickest refutation among them
    others = [move for move in analysis.moves if move.cell != played.cell]
    worst = min(others, key=lambda move: (move.value, move.remoteness if move.value is Value.LOSS else -move.remoteness))
    reply = line_steps(position, (worst.cell,))[0]
    others_do = "loses" if all(move.value is Value.LOSS for move in others) else "does worse"
    if reply.role == "loses":  # misère: the worst of them completes a line of the mover's own
        return f"{first} Every other move {others_do}; {cell_name(worst.cell, geometry)} even completes a line of {reply.player.value}'s own."
    refutation = line_steps(position.play(worst.cell), principal_variation(position.play(worst.cell)))
    outcome = _OUTCOME[worst.value] + ("" if worst.value is Value.DRAW else f" in {worst.remoteness}")
    return (f"{first} Every other move {others_do}; the quickest refutation is of {cell_name(worst.cell, geometry)}, "
            f"which {outcome}: {_narrative(refutation, geometry, reply.threatens)}.")  # fmt: skip


def _story(position, played, line) -> str:
    geometry = position.geometry
    name = cell_name(played.cell, geometry)
    if line[0].role == "loses":
        return f"{name} completes a line of {line[0].player.value}'s own, which loses under misère."
    after = f"{_OUTCOME[played.value]}" + ("" if played.value is Value.DRAW else f" in {played.remoteness}")
    return f"{name} {after}" + (f": {_narrative(line[1:], geometry, line[0].threatens)}." if line[1:] else ".")


def _narrative(steps, geometry, threatened: tuple[Cell, ...] = (), limit: int = 6) -> str:
    """The line told as a player would tell it, up to a fork (the rest follows) or ``limit`` moves; ``threatened``
    are the cells the move before the line threatens (a block of one is forced)."""
    parts: list[str] = []
    for step in steps[:limit]:
        who, where = step.player.value, cell_name(step.cell, geometry)
        if step.role == "win":
            parts.append(f"{who} completes a line at {where}")
            break
        if step.role == "fork":
            targets = " and ".join(cell_names(step.threatens, geometry, ", ").rsplit(", ", 1))
            parts.append(f"{who} plays {where}, threatening {targets}; {step.player.other.value} can stop only one")
            break
        if step.role == "loses":  # in a best line, only where every cell left completes a line
            parts.append(f"{who} must complete a line at {where}")
            break
        if step.role == "squeeze":
            parts.append(f"{who} plays {where}, leaving {step.player.other.value} only cells that complete a line")
            break
        if geometry.misere:
            parts.append(f"{who} plays {where}" + (f" (and must keep off {cell_names(step.threatens, geometry)})" if step.threatens else ""))
        elif step.role == "block":
            forced = "must block" if step.cell in threatened else "blocks"
            parts.append(f"{who} {forced} at {where}" + (f" (and threatens {cell_names(step.threatens, geometry)})" if step.threatens else ""))
        elif step.role == "threat":
            parts.append(f"{who} plays {where} (threatens {cell_names(step.threatens, geometry)})")
        else:
            parts.append(f"{who} plays {where}")
        threatened = step.threatens
    else:
        if len(steps) > limit:  # the line goes on past what is told
            parts.append("and so on")
    return "; ".join(parts) if parts else "the game is over"


_VERDICT_WORDS = {"mistake": ("??", "Mistake"), "inaccurate": ("?!", "Inaccuracy"), "only move": ("!", "Only move"), "best": ("", "Best move")}


def value_words(value: Value, remoteness: int) -> str:
    """``draw``, ``win in 3``, ``loss in 6``: a value as the verdicts say it."""
    return value.label if value is Value.DRAW else f"{value.label} in {remoteness}"


def headline(explanation: Explanation) -> str:
    """The verdict in one line, as an analysis board writes it beside the move:
    ``2?? Mistake: draw → loss in 6. Best was 5.``"""
    geometry = explanation.position.geometry
    mark, word = _VERDICT_WORDS[explanation.verdict]
    name = cell_name(explanation.cell, geometry)
    after = value_words(explanation.value_after, explanation.remoteness_after)
    if explanation.verdict in ("mistake", "inaccurate"):
        before = value_words(explanation.value_before, explanation.remoteness_before)
        return f"{name}{mark} {word}: {before} → {after}. Best was {cell_names(explanation.best, geometry, ', ')}."
    if explanation.verdict == "only move":
        keeps = {Value.WIN: "wins in {}", Value.DRAW: "draws", Value.LOSS: "loses slowest, in {}"}[explanation.value_after]
        return f"{name}{mark} {word}: nothing else {keeps.format(explanation.remoteness_after)}."
    return f"{name} {word}: {after}."


def explanation_record(explanation: Explanation) -> dict:
    """The explanation as JSON-ready data (``workbench explain --json``)."""
    geometry = explanation.position.geometry
    return {
        "position": format_position(explanation.position),
        "cell": explanation.cell,
        "name": cell_name(explanation.cell, geometry),
        "verdict": explanation.verdict,
        "value_before": {"value": explanation.value_before.label, "remoteness": explanation.remoteness_before},
        "value_after": {"value": explanation.value_after.label, "remoteness": explanation.remoteness_after},
        "best": list(explanation.best),
        "best_names": [cell_name(cell, geometry) for cell in explanation.best],
        "line": [
            {"ply": step.ply, "player": step.player.value, "cell": step.cell, "name": cell_name(step.cell, geometry),
             "role": step.role, "threatens": list(step.threatens)}
            for step in explanation.line
        ],  # fmt: skip
        "text": explanation.text,
    }


__all__ = [
    "MISERE_ROLES", "ROLES", "VERDICTS", "ExplainError", "Explanation", "Step", "explain", "explained", "explanation_record", "headline",
    "line_steps", "role_of", "value_words",
]  # fmt: skip
