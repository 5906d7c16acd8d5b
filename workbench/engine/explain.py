"""A move explained in words, from the exact values: its verdict, the values before and after, the best moves, and
the line that proves it, each step named by its role on the board.

Roles under the normal rule (:func:`role_of`), each naming what the move itself does (a threat standing before it is
not the move's): ``win`` completes a line; ``fork`` makes two or more threats, cells where the mover would complete a
line next, while the opponent has none of its own to complete first (it can stop only one); ``block`` takes a cell
where the opponent would have completed a line; ``threat`` makes one threat (the opponent must answer it); ``quiet``
is anything else. A move that is several is named by the first of win, fork, block, threat.

Under misère completing a line loses, so the roles are turned round (:data:`MISERE_ROLES`): ``loses`` completes a
line of the mover's own (the mover loses; ``forced`` in the words where every move left did so); ``squeeze`` leaves
the opponent only cells that complete a line of theirs (they lose on their next move: misère's fork); ``quiet`` is
anything else. A step's ``threatens`` keeps its meaning under both rules, the cells where its player would complete
a line next and could not before the move: under misère cells that player must now keep away from.

The words are told from facts (:mod:`workbench.engine.facts`, :mod:`workbench.engine.telling`), each a claim about
a position of the line that the exact solution confirms; the line itself chooses among equally good moves the one
the words tell (:mod:`workbench.engine.line_choice`).

Up to 16 cells where the tables or a strong solution know every value, and past 16 where a kept solution does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..errors import InputError
from .analysis import answers_given, best_moves, check_exact
from .answers import Answers
from .facts import DECISIVE, Fact, after_move, board_of, move_facts
from .geometry import Bitboard, Cell, cell_bit, cell_name, cell_names, cells_of
from .position import Player, Position, format_position
from .results import MoveAnalysis
from .solver import Value
from .telling import tell, tell_line

ROLES = ("win", "fork", "block", "threat", "quiet")
"""Every role a step can have under the normal rule, in the order that names a move that is several."""
MISERE_ROLES = ("loses", "squeeze", "quiet")
"""Every role a step can have under misère, in the same order."""
VERDICTS = ("best", "only move", "inaccurate", "mistake")


class ExplainError(InputError):
    """A move that cannot be explained here: the game over, or an illegal move."""


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the line: who played where, its role, and the threats it makes, the cells where that player
    would complete a line on their next move and could not before it (empty for a ``quiet`` or ``block`` that
    makes none)."""

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
    """A few plain sentences, told from :attr:`facts` alone: the story, then the verdict's sentence."""
    story: str
    """Why the move has its value, told along its line, naming no other move of the position: the words for a
    student who must not be given the answer (a wrong answer in practice)."""
    facts: tuple[Fact, ...]
    """Every claim the words make (:mod:`workbench.engine.facts`), each about a position of :attr:`line`."""

    def __str__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:
        """What a notebook shows: the words, not the facts' records."""
        return self.text


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
    best_cells: tuple[Cell, ...] = ()
    """The cells of :attr:`best`, in order."""
    keeping: tuple[Cell, ...] = ()
    """The moves that keep the value, however slowly."""

    def move(self, cell: Cell) -> MoveAnalysis | None:
        return next((move for move in self.moves if move.cell == cell), None)


def _exact(position: Position, value: Value, remoteness: int, moves: tuple[MoveAnalysis, ...]) -> ExactMoves:
    best = best_moves(moves)
    return ExactMoves(
        position,
        value,
        remoteness,
        moves,
        best,
        tuple(move.cell for move in moves if best & cell_bit(move.cell)),
        tuple(move.cell for move in moves if move.value == value),
    )


def exact_moves(position: Position, answers: Answers | None = None) -> ExactMoves:
    """The value of ``position`` (in play) and of each of its moves, from its board's ``answers`` (the tables, a
    strong or kept solution: :func:`workbench.kept.answers_for`; by default the engine's own,
    :func:`~workbench.engine.analysis.answers_of`): kept for the last few positions, as each of a position's moves
    is explained in turn.

    :raises BoardTooLargeError: the board's values are not all known (searched, or 13-16 cells and no ``answers``)."""
    return _exact_moves(position, answers_given(position.geometry, answers))


@lru_cache(maxsize=64)
def _exact_moves(position: Position, answers: Answers) -> ExactMoves:
    return _exact(position, *answers.move_values(position))


def role_of(position: Position, cell: Cell) -> tuple[str, tuple[Cell, ...]]:
    """(the role of ``cell`` played in ``position``, the threats it makes: cells where its player would complete a
    line next and could not before it)."""
    board = board_of(position)
    bit = cell_bit(cell)
    completes, mine, theirs = after_move(board, bit)
    made = cells_of(mine & ~board.mine)
    if position.geometry.misere:
        if completes:
            return "loses", ()
        return ("squeeze" if board.squeezes & bit else "quiet"), made
    if completes:
        return "win", ()
    # two threats are a fork only where the other side has no line to complete first
    if len(made) >= 2 and not theirs:
        return "fork", made
    if board.theirs & bit:
        return "block", made
    return ("threat" if made else "quiet"), made


def line_steps(position: Position, cells) -> tuple[Step, ...]:
    """Each move of ``cells`` played from ``position``, with its role."""
    steps = []
    for index, cell in enumerate(cells):
        if index:
            position = position.play(cells[index - 1])
        role, threatens = role_of(position, cell)
        steps.append(Step(position.ply + 1, position.turn, cell, role, threatens))
    return tuple(steps)


def check_explainable(position: Position, cell: Cell) -> None:
    """:raises ExplainError: the game is over in ``position``, ``cell`` is no cell of its board, or it is taken."""
    geometry = position.geometry
    if position.is_over:
        raise ExplainError(f"the game is over in {format_position(position)}: no move to explain")
    if not geometry.contains(cell):
        raise ExplainError(f"{cell}: not a move here (no such cell on {geometry}, 1-{geometry.size})")
    if position.occupied & cell_bit(cell):
        raise ExplainError(f"{cell_name(cell, geometry)}: not a move here (the cell is taken)")


def explain(position: Position, cell: Cell, answers: Answers | None = None) -> Explanation:
    """The move ``cell`` in ``position``, explained from the board's exact values: its ``answers``
    (:func:`workbench.kept.answers_for`), by default the engine's own (its tables up to 12 cells).

    :raises ExplainError: the game is over, or the move is illegal.
    :raises BoardTooLargeError: where the values a verdict needs are not known (a searched board; 13 to 16 cells
        with no ``answers`` given).
    """
    geometry = position.geometry
    answers = answers_given(geometry, answers)
    check_exact(answers)
    check_explainable(position, cell)
    # the values alone: counting the games below is most of an analyze on 4×4
    analysis = _exact_moves(position, answers)
    played = analysis.move(cell)
    assert played is not None and played.value is not None  # pragma: no mutate - narrows types
    assert played.remoteness is not None  # pragma: no mutate - narrows types
    best, keeping = analysis.best_cells, analysis.keeping
    if played.value < analysis.value:
        verdict = "mistake"
    elif cell in best:
        verdict = "only move" if keeping == (cell,) and len(analysis.moves) > 1 else "best"
    else:
        verdict = "inaccurate"
    after, told, line_words, more = _told_after(position.play(cell), answers)
    line = (*line_steps(position, (cell,)), *after)
    own = (
        Fact("value", 0, position.turn, cell, value=played.value, remoteness=played.remoteness),
        *move_facts(position, cell, 0, best=False),
    )
    if any(fact.kind in DECISIVE for fact in own):  # the move decides by itself: the rest of the line follows
        told, line_words = (), ""
    verdict_facts = _verdict_facts(analysis, played, verdict, best, keeping)
    # a mistake's story is what practice tells a wrong answer: it names none of the right ones, in the move's own
    # words or along its line (the cell a block puzzle asks for is often where the refutation completes its line)
    hidden = frozenset(keeping or best) if verdict == "mistake" else frozenset()
    story_line_words = tell_line(told, geometry, position.ply + 1, more=more, hidden=hidden) if hidden else None
    text, story = tell(
        own, line_words, verdict_facts, geometry, mark=_MARKS[verdict], hidden=hidden, story_line_words=story_line_words
    )
    return Explanation(
        position,
        cell,
        verdict,
        analysis.value,
        analysis.remoteness,
        played.value,
        played.remoteness,
        best,
        line,
        text,
        story,
        (*own, *told, *verdict_facts),
    )


explained = lru_cache(maxsize=256)(explain)
""":func:`explain`, kept for the positions seen lately: the app's panes explain the same few moves at every
rebuild."""

_MARKS = {"mistake": "??", "inaccurate": "?!", "only move": "!", "best": ""}
_TOLD_STEPS = 4
"""The moves of the line told after the explained one, at most, under the normal rule."""


@lru_cache(maxsize=1 << 17)
def _told_after(position: Position, answers: Answers) -> tuple[tuple[Step, ...], tuple[Fact, ...], str, bool]:
    """The best line from ``position`` (a move just played) with its roles, the facts told of it (step 1 its first
    move, as the explained move before it is step 0), their words, and whether the line goes on past them: kept, as
    every move into ``position`` tells the same line."""
    cells = answers.principal_variation(position) if not position.is_over else ()
    steps = line_steps(position, cells)
    geometry, first_ply = position.geometry, position.ply + 1
    told: list[Fact] = []
    more = False
    for index, cell in enumerate(cells):
        facts = move_facts(position, cell, index, best=True)
        decisive = any(fact.kind in DECISIVE for fact in facts)
        if not geometry.misere:
            told.extend(facts)
        elif decisive:  # misère: only the point, the move that leaves the other side nothing but its own lines
            told.extend(fact for fact in facts if fact.kind in DECISIVE or fact.kind == "plays")
        if decisive:
            break
        if not geometry.misere and index + 1 == _TOLD_STEPS:
            more = index + 1 < len(cells)
            break
        position = position.play(cell)
    return steps, tuple(fact.later(1) for fact in told), tell_line(told, geometry, first_ply, more=more), more


def _verdict_facts(analysis: ExactMoves, played: MoveAnalysis, verdict: str, best, keeping) -> tuple[Fact, ...]:
    player = analysis.position.turn
    if verdict == "mistake":
        return (Fact("keepers", 0, player, cells=keeping or best, value=analysis.value),)
    if verdict == "inaccurate":
        return (Fact("best", 0, player, cells=best, value=analysis.value, remoteness=analysis.remoteness),)
    if verdict == "only move":
        others = [move for move in analysis.moves if move.cell != played.cell]
        worst = min(others, key=lambda move: move.outcome)
        as_bad = tuple(move.cell for move in others if move.outcome == worst.outcome)  # (in the board's order)
        return (
            Fact(
                "only move",
                0,
                player,
                played.cell,
                tuple(move.cell for move in others),
                value=max(move.value for move in others if move.value is not None),
            ),
            Fact("worst other", 0, player, worst.cell, as_bad, value=worst.value, remoteness=worst.remoteness),
        )
    return ()


_VERDICT_WORDS = {
    "mistake": ("??", "Mistake"),
    "inaccurate": ("?!", "Inaccuracy"),
    "only move": ("!", "Only move"),
    "best": ("", "Best move"),
}


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
        # no other move wins at all (one winning slower would keep the value too): "in N" is this move's alone
        keeps = {Value.WIN: "wins; this wins in {}", Value.DRAW: "draws", Value.LOSS: "loses slowest, in {}"}[
            explanation.value_after
        ]
        return f"{name}{mark} {word}: nothing else {keeps.format(explanation.remoteness_after)}."
    return f"{name} {word}: {after}."


def explanation_record(explanation: Explanation) -> dict:
    """The explanation as JSON-ready data (``workbench explain --json``)."""
    geometry = explanation.position.geometry
    return {
        "variant": str(geometry),
        "position": format_position(explanation.position),
        "cell": explanation.cell,
        "name": cell_name(explanation.cell, geometry),
        "verdict": explanation.verdict,
        "value_before": {"value": explanation.value_before.label, "remoteness": explanation.remoteness_before},
        "value_after": {"value": explanation.value_after.label, "remoteness": explanation.remoteness_after},
        "best": list(explanation.best),
        "best_names": [cell_name(cell, geometry) for cell in explanation.best],
        "line": [
            {
                "ply": step.ply,
                "player": step.player.value,
                "cell": step.cell,
                "name": cell_name(step.cell, geometry),
                "role": step.role,
                "threatens": list(step.threatens),
            }
            for step in explanation.line
        ],
        "text": explanation.text,
        "story": explanation.story,
        "facts": [fact_record(fact, geometry) for fact in explanation.facts],
    }


def fact_record(fact: Fact, geometry) -> dict:
    """A fact as JSON-ready data: its kind, the line's step it is about, and only the fields it uses."""
    record: dict = {"kind": fact.kind, "step": fact.step, "player": fact.player.value}
    if fact.cell is not None:
        record["cell"], record["name"] = fact.cell, cell_name(fact.cell, geometry)
    if fact.cells:
        record["cells"], record["names"] = list(fact.cells), [cell_name(cell, geometry) for cell in fact.cells]
    if fact.value is not None:
        record["value"] = fact.value.label
    if fact.remoteness is not None:
        record["remoteness"] = fact.remoteness
    return record


__all__ = [
    "MISERE_ROLES",
    "ROLES",
    "VERDICTS",
    "ExactMoves",
    "ExplainError",
    "Explanation",
    "Step",
    "exact_moves",
    "explain",
    "explained",
    "explanation_record",
    "fact_record",
    "headline",
    "line_steps",
    "role_of",
    "value_words",
]
