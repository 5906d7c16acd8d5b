"""Practice, judged exactly: "learn from your mistakes" (each mistake and inaccuracy of a side, asked again as
"find a better move") and puzzles (a position with one move that keeps its value).

A session is a frozen :class:`Practice`; answering, a hint, the solution and moving on each return a new one
(:func:`answer`, :func:`with_hint`, :func:`with_solution`, :func:`moved_on`), as the reducer does for the study.
An answer is judged by the exact values (:func:`judge`): ``best`` keeps the value the quickest way, ``good`` keeps
it more slowly (a slower win or a quicker loss: "you can do better"), ``mistake`` drops it, with the explanation in
words of :mod:`workbench.engine.explain`.

Imports only the engine, as the rest of the state does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine import Cell, Player, Position, Value, analyze, cell_bit
from ..engine.explain import explain, value_words
from ..engine.geometry import cell_name, cell_names
from .tree import GameTree, NodeId

KINDS = ("mistake", "puzzle")
GRADES = ("best", "good", "mistake")
RESULTS = ("solved", "solved with a hint", "shown", "missed", "skipped")
"""How an exercise ended: found (with no hint, or after one), the solution shown, only wrong answers, none."""


@dataclass(frozen=True, slots=True)
class Exercise:
    """One position to find a move in."""

    position: Position
    played: Cell | None = None
    """The move that was played there (the mistake to do better than); None for a puzzle."""
    where: str = ""
    """Where it comes from, in words: ``ply 2 of the main line``, ``study 'club game', ply 4``, ``puzzle 3``."""
    node: NodeId | None = None
    """The study's node the mistake was played from (its position), when it comes from the open study."""
    study: str | None = None
    """The library study it comes from, if any."""


@dataclass(frozen=True, slots=True)
class Judgement:
    cell: Cell
    grade: str
    """One of :data:`GRADES`."""
    text: str
    """What the player is told: "Good move", "You can do better" or "Still a mistake", and why."""


@dataclass(frozen=True, slots=True)
class Practice:
    """A practice session: the exercises, the one being asked, and how each ended."""

    kind: str
    """One of :data:`KINDS`."""
    exercises: tuple[Exercise, ...]
    side: Player | None = None
    """The side whose mistakes are practised (None: both, or puzzles)."""
    index: int = 0
    tries: tuple[Judgement, ...] = ()
    """The current exercise's answers so far."""
    hint_at: int | None = None
    """How many answers the current exercise had when a hint was last asked for (None: no hint asked)."""
    shown: bool = False
    """The solution is shown for the current exercise."""
    results: tuple[str, ...] = ()
    """How each exercise before the current one ended (one of :data:`RESULTS`)."""

    @property
    def hint(self) -> bool:
        """A hint was asked for on the current exercise."""
        return self.hint_at is not None

    @property
    def hint_showing(self) -> bool:
        """The hint is the latest thing asked: no answer has come since (the board lights its mask)."""
        return self.hint_at == len(self.tries) and not self.settled

    @property
    def finished(self) -> bool:
        return self.index >= len(self.exercises)

    @property
    def current(self) -> Exercise | None:
        return None if self.finished else self.exercises[self.index]

    @property
    def found(self) -> bool:
        """The current exercise has been answered with a move that keeps the value."""
        return any(judgement.grade != "mistake" for judgement in self.tries)

    @property
    def settled(self) -> bool:
        """Nothing more to answer here: the best move found, or the solution shown."""
        return self.shown or any(judgement.grade == "best" for judgement in self.tries)

    @property
    def result(self) -> str:
        """How the current exercise ends if the player moves on now."""
        if self.found:
            return "solved with a hint" if self.hint else "solved"
        if self.shown:
            return "shown"
        return "missed" if self.tries else "skipped"


def judge(position: Position, cell: Cell) -> Judgement:
    """``cell`` played in ``position``, judged by the exact values.

    :raises ExplainError: the cell is taken or off the board, or the game is over.
    """
    explanation = explain(position, cell)
    geometry = position.geometry
    name = cell_name(cell, geometry)
    if explanation.verdict in ("best", "only move"):
        return Judgement(cell, "best", f"Good move! {name} is best: {value_words(explanation.value_after, explanation.remoteness_after)}.")
    if explanation.verdict == "inaccurate":
        pace = "wins more slowly" if explanation.value_after is Value.WIN else "loses sooner"
        return Judgement(cell, "good", f"You can do better: {name} keeps the {explanation.value_after.label} but {pace} "
                                       f"({explanation.remoteness_after} plies to the end, not {explanation.remoteness_before}).")  # fmt: skip
    return Judgement(cell, "mistake", f"Still a mistake. {explanation.text}")


def answer(practice: Practice, cell: Cell) -> Practice:
    """The player answers ``cell``; the same session where nothing is asked (finished, or settled)."""
    exercise = practice.current
    if exercise is None or practice.settled:
        return practice
    position = exercise.position
    if not is_empty_cell(position, cell):
        return practice
    return replace(practice, tries=(*practice.tries, judge(position, cell)))


def is_empty_cell(position: Position, cell: Cell) -> bool:
    """``cell`` is an empty cell of the board (a move that can be judged)."""
    return position.geometry.contains(cell) and not position.occupied & cell_bit(cell) and not position.is_over


def with_hint(practice: Practice) -> Practice:
    """The hint lit again (its mask on the board), unless it is showing already or nothing is asked."""
    if practice.finished or practice.settled or practice.hint_showing:
        return practice
    return replace(practice, hint_at=len(practice.tries))


def with_solution(practice: Practice) -> Practice:
    return practice if practice.finished or practice.shown else replace(practice, shown=True)


def moved_on(practice: Practice) -> Practice:
    """On to the next exercise (the current one skipped where it was not answered)."""
    if practice.finished:
        return practice
    return replace(practice, index=practice.index + 1, tries=(), hint_at=None, shown=False, results=(*practice.results, practice.result))


def solution(position: Position) -> tuple[Cell, ...]:
    """The best moves: those that keep the value the quickest way."""
    analysis = analyze(position)
    return tuple(move.cell for move in analysis.moves if analysis.masks.best & cell_bit(move.cell))


def hint_mask(position: Position) -> str:
    """The mask that matters here, lit as a hint: a win to take, a line to block, a fork to make, else the moves
    that keep the value (``perfect_win`` where there is a win, else ``best``)."""
    masks = analyze(position).masks
    for name in ("win", "block", "fork"):
        if masks.get(name) & masks.best:
            return name
    return "perfect_win" if masks.perfect_win else "best"


def prompt(practice: Practice) -> str:
    """What the player is asked."""
    exercise = practice.current
    if exercise is None:
        return ""
    side = exercise.position.turn.value
    value = analyze(exercise.position).value
    if practice.kind == "puzzle":
        goal = {Value.WIN: "find the win", Value.DRAW: "find the only move that holds the draw",
                Value.LOSS: "find the move that holds out longest"}[value]  # fmt: skip
        return f"{side} to move: {goal}."
    played = cell_name(exercise.played, exercise.position.geometry) if exercise.played is not None else "?"
    keep = {Value.WIN: "wins", Value.DRAW: "draws", Value.LOSS: "loses more slowly"}[value]
    return f"{side} played {played} here. Find a better move for {side}: one that {keep}."


def score(practice: Practice) -> str:
    """The session so far, in words: ``3 of 4 found (1 with a hint) · 1 missed``."""
    results = practice.results
    found = sum(result.startswith("solved") for result in results)
    hinted = results.count("solved with a hint")
    parts = [f"{found} of {len(results)} found" + (f" ({hinted} with a hint)" if hinted else "")]
    for result, word in (("missed", "missed"), ("shown", "shown"), ("skipped", "skipped")):
        if results.count(result):
            parts.append(f"{results.count(result)} {word}")
    return " · ".join(parts)


def mistakes_of_line(tree: GameTree, line: tuple[NodeId, ...], side: Player | None, *, study: str | None = None) -> tuple[Exercise, ...]:
    """Every mistake and inaccuracy of ``side`` (None: both) along ``line`` (node ids from the root), in order,
    each asked from the position before it; positions whose values are not exact are left out."""
    exercises = []
    for node_id in line[1:]:
        node = tree.node(node_id)
        before = tree.position(node.parent)
        if side is not None and before.turn is not side:
            continue
        analysis = analyze(before)
        played = analysis.move(node.move)
        if played is None or analysis.value is None:
            continue
        if played.value < analysis.value or not analysis.masks.best & cell_bit(node.move):
            where = f"study {study!r}, ply {before.ply + 1}" if study else f"ply {before.ply + 1}"
            exercises.append(Exercise(before, node.move, where, node.parent, study))
    return tuple(exercises)


def mistake_summary(tree: GameTree, line: tuple[NodeId, ...]) -> tuple[str, ...]:
    """The line's mistakes (a value given away) in one line each: ``O 2?? at ply 2: draw → loss in 6``."""
    lines = []
    for exercise in mistakes_of_line(tree, line, None):
        before = analyze(exercise.position)
        played = before.move(exercise.played)
        if played.value < before.value:
            name = cell_name(exercise.played, exercise.position.geometry)
            lines.append(f"{exercise.position.turn.value} {name}?? at ply {exercise.position.ply + 1}: "
                         f"{value_words(before.value, before.remoteness)} → {value_words(played.value, played.remoteness)}")  # fmt: skip
    return tuple(lines)


def practised_comment(practice: Practice, index: int) -> str:
    """The note a practised mistake leaves on its move in the study: ``practised: found`` and the best moves."""
    exercise = practice.exercises[index]
    result = practice.results[index]
    best = cell_names(solution(exercise.position), exercise.position.geometry, ", ")
    return f"practised: {result} (best: {best})"


__all__ = [
    "GRADES", "KINDS", "RESULTS", "Exercise", "Judgement", "Practice", "answer", "hint_mask", "judge", "mistake_summary",
    "mistakes_of_line", "moved_on", "practised_comment", "prompt", "score", "solution", "with_hint", "with_solution",
]  # fmt: skip
