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

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Literal

from ..engine import Cell, Player, Position, Value, cell_bit
from ..engine.analysis import answers_given
from ..engine.answers import Answers
from ..engine.explain import exact_moves, explain, value_words
from ..engine.geometry import bitboard_of, cell_name, cell_names
from ..engine.position import move_label
from ..engine.threats import completions, forks
from .tree import ROOT, GameTree, NodeId

Kind = Literal["mistake", "puzzle"]
KINDS: tuple[Kind, ...] = ("mistake", "puzzle")
GRADES = ("best", "good", "mistake")
RESULTS = ("solved", "helped", "found later", "shown", "missed", "skipped")
"""How an exercise ended, as Lichess keeps puzzles: solved (the first move tried was right, with no hint), helped (right
after a hint), found later (right after a wrong try), shown (the solution), missed (only wrong tries), skipped. Only
``solved`` counts as solved: everything else ends a streak."""
HINT_LEVELS = 2
"""Hints before the solution: first a fact in words, then a region of the board the answer is in."""


@dataclass(frozen=True, slots=True)
class Exercise:
    """One position to find a move in."""

    position: Position
    played: Cell | None = None
    """The move that was played there (the mistake to do better than); None for a puzzle."""
    where: str = ""
    """Where it comes from, in words: ``move 1… 2 of the main line``, ``study 'club game', move 2. 4`` (numbered as the
    History pane numbers it), ``puzzle · difficulty 0.3``."""
    node: NodeId | None = None
    """The study's node the mistake was played from (its position), when it comes from the open study."""
    study: str | None = None
    """The library study it comes from, if any."""
    theme: str | None = None
    """A puzzle's theme (:data:`~workbench.engine.puzzles.THEMES`), when it has one."""
    also: tuple[tuple[NodeId, Cell], ...] = ()
    """The open study's other mistakes from this same position (their nodes and moves): asked once, as this one,
    and noted with it."""


@dataclass(frozen=True, slots=True)
class Judgement:
    cell: Cell
    grade: str
    """One of :data:`GRADES`: ``best`` is as good as the best move (value and how soon), ``good`` keeps the value
    more slowly, ``mistake`` drops it."""
    text: str
    """What the player is told: right, not quite or not this one, and why; never which move is right."""


@dataclass(frozen=True, slots=True)
class Practice:
    """A practice session: the exercises, the one being asked, and how each ended."""

    kind: Kind
    """One of :data:`KINDS`."""
    exercises: tuple[Exercise, ...]
    side: Player | None = None
    """The side whose mistakes are practised (None: both, or puzzles)."""
    index: int = 0
    tries: tuple[Judgement, ...] = ()
    """The current exercise's answers so far."""
    hint_level: int = 0
    """How many hints the current exercise has had (up to :data:`HINT_LEVELS`)."""
    hint_at: int | None = None
    """How many answers the current exercise had when a hint was last asked for (None: no hint asked)."""
    shown: bool = False
    """The solution is shown for the current exercise."""
    results: tuple[str, ...] = ()
    """How each exercise before the current one ended (one of :data:`RESULTS`)."""
    answers: Answers | None = field(default=None, compare=False, repr=False)
    """The board's answers the exercises are judged by (:func:`workbench.kept.answers_for`); the engine's own where
    None (the tables, up to 12 cells)."""

    @property
    def hint(self) -> bool:
        """A hint was asked for on the current exercise."""
        return self.hint_level > 0

    @property
    def hint_showing(self) -> bool:
        """The hint is the latest thing asked: no answer has come since (the board lights its region)."""
        return self.hint_at == len(self.tries) and not self.settled

    @property
    def finished(self) -> bool:
        return self.index >= len(self.exercises)

    @property
    def current(self) -> Exercise | None:
        return None if self.finished else self.exercises[self.index]

    @property
    def found(self) -> bool:
        """The current exercise has been answered with a move as good as the best (by value and how soon)."""
        return any(judgement.grade == "best" for judgement in self.tries)

    @property
    def settled(self) -> bool:
        """Nothing more to answer here: the best move found, or the solution shown."""
        return self.shown or self.found

    @property
    def result(self) -> str:
        """How the current exercise ends if the player moves on now."""
        if self.found:
            if self.tries[0].grade != "best":
                return "found later"
            return "helped" if self.hint else "solved"
        if self.shown:
            return "shown"
        return "missed" if self.tries else "skipped"


def judge(position: Position, cell: Cell, answers: Answers | None = None) -> Judgement:
    """``cell`` played in ``position``, judged by the exact values (the board's ``answers``, by default the engine's
    own); the words say why that move has its value, and never name another move.

    :raises ExplainError: the cell is taken or off the board, or the game is over.
    """
    explanation = explain(position, cell, answers)
    name = cell_name(cell, position.geometry)
    after, moves = explanation.value_after, explanation.remoteness_after
    if explanation.verdict in ("best", "only move"):
        words = {
            Value.WIN: f"{name} wins in {_plies(moves)}",
            Value.DRAW: f"{name} keeps the draw",
            Value.LOSS: f"{name} holds out longest: {_plies(moves)} to the end",
        }[after]
        return Judgement(cell, "best", f"Right! {words}.")
    if explanation.verdict == "inaccurate":
        best = _plies(explanation.remoteness_before)
        words = (
            f"{name} wins too, but only in {_plies(moves)}; a quicker win takes {best}"
            if after is Value.WIN
            else f"{name} loses in {_plies(moves)}; another move holds out for {best}"
        )
        return Judgement(cell, "good", f"Not quite: {words}.")
    return Judgement(cell, "mistake", f"Not this one. {explanation.story}")


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _plies(count: int) -> str:
    """A remoteness in words: single moves of either side, as the app's "win in 3" counts them (a numbered move of
    the history is two of them)."""
    return f"{count} ply" if count == 1 else f"{count} plies"


def answer(practice: Practice, cell: Cell) -> Practice:
    """The player answers ``cell``; the same session where nothing is asked (finished, or settled), or where the
    cell was answered already (the cursor's Enter after a click is no second answer)."""
    exercise = practice.current
    if exercise is None or practice.settled:
        return practice
    position = exercise.position
    if not is_empty_cell(position, cell) or any(judgement.cell == cell for judgement in practice.tries):
        return practice
    return replace(practice, tries=(*practice.tries, judge(position, cell, practice.answers)))


def is_empty_cell(position: Position, cell: Cell) -> bool:
    """``cell`` is an empty cell of the board (a move that can be judged)."""
    return position.geometry.contains(cell) and not position.occupied & cell_bit(cell) and not position.is_over


def with_hint(practice: Practice) -> Practice:
    """The next hint: a fact in words (:func:`hint_words`), then the region the answer is in (:func:`hint_region`),
    then the solution; the same session where nothing is asked (finished, or settled)."""
    if practice.finished or practice.settled:
        return practice
    if practice.hint_level >= HINT_LEVELS:
        return with_solution(practice)
    return replace(practice, hint_level=practice.hint_level + 1, hint_at=len(practice.tries))


def with_solution(practice: Practice) -> Practice:
    return practice if practice.finished or practice.shown else replace(practice, shown=True)


def moved_on(practice: Practice) -> Practice:
    """On to the next exercise (the current one skipped where it was not answered)."""
    if practice.finished:
        return practice
    return replace(
        practice,
        index=practice.index + 1,
        tries=(),
        hint_level=0,
        hint_at=None,
        shown=False,
        results=(*practice.results, practice.result),
    )


def solution(position: Position, answers: Answers | None = None) -> tuple[Cell, ...]:
    """The best moves: those that keep the value the quickest way (by the board's ``answers``, by default the
    engine's own)."""
    analysis = exact_moves(position, answers)
    return tuple(move.cell for move in analysis.moves if analysis.best & cell_bit(move.cell))


def hint_words(position: Position, answers: Answers | None = None) -> str:
    """The first hint: one fact of the position, true by the exact values (the board's ``answers``, by default the
    engine's own) or the lines on the board, that points the way without naming a cell."""
    geometry = position.geometry
    own, other = position.sides
    me, them = position.turn.value, position.turn.other.value
    analysis = exact_moves(position, answers)
    mine, theirs = completions(geometry, own, other), completions(geometry, other, own)
    if analysis.value is Value.LOSS:
        return f"Every move loses here. Look for the one that makes {them} take the longest to win."
    if geometry.misere:
        if mine:
            count = mine.bit_count()
            cells = "One empty cell" if count == 1 else f"{count} empty cells"
            return f"Careful: {cells} would complete a line of {me}'s own, and under misère that loses."
        return f"Under misère a line of your own loses. Think about the cells {them} will be left with."
    if mine:
        return f"{me} can complete a line right now."
    if theirs:
        return f"{them} has a threat to meet: a line {them} would complete next move."
    if forks(geometry, own, other):
        return "There is a move that makes two threats at once."
    keeping = sum(move.value == analysis.value for move in analysis.moves)
    if analysis.value is Value.WIN:
        return f"{me} can force a win in {_plies(analysis.remoteness)}, counting both sides' moves."
    keep = "One move keeps" if keeping == 1 else f"{keeping} moves keep"
    return f"{keep} the draw; the other {_moves(len(analysis.moves) - keeping)} lose."


def hint_region(position: Position, answers: Answers | None = None, *, ruled_out: int = 0) -> int:
    """The second hint: the cells the answer is among (a bitboard): every best move and, with them, the other moves
    that come closest to it (by the board's ``answers``, by default the engine's own), about half of the moves not
    ``ruled_out``, so that the answer is narrowed down but not given. ``ruled_out`` (a bitboard) holds the moves the
    player knows are not the answer (the move once played, the answers tried): lit among the answers, they would
    leave the answer itself the only cells lit that the player does not know already."""
    analysis = exact_moves(position, answers)
    best = analysis.best
    open_moves = [move for move in analysis.moves if best & cell_bit(move.cell) or not ruled_out & cell_bit(move.cell)]
    others = sorted(
        (move for move in open_moves if not best & cell_bit(move.cell)),
        # the best outcome first (the quickest win, the slowest loss): the outcome's order, reversed
        key=lambda move: (-move.outcome[0], -move.outcome[1], move.cell),
    )
    size = min(len(open_moves), max(best.bit_count() + 1, (len(open_moves) + 1) // 2))
    return best | bitboard_of([move.cell for move in others[: size - best.bit_count()]])


def ruled_out(practice: Practice) -> int:
    """The moves of the open exercise the player knows are not the answer (a bitboard): the move once played there,
    which the question names, and every answer tried."""
    exercise = practice.current
    if exercise is None:
        return 0
    cells = [judgement.cell for judgement in practice.tries]
    if exercise.played is not None:
        cells.append(exercise.played)
    return bitboard_of(cells)


def told_line(position: Position, cell: Cell, answers: Answers | None = None) -> tuple[Cell, ...]:
    """The moves numbered on the board after ``cell``, an answer that is not the best, in ``position``: ``cell``
    and the best line after it (by the board's ``answers``, by default the engine's own), up to the first move onto a
    right answer's cell, which would show it (the words stop before naming one too)."""
    right = set(solution(position, answers))
    line = (cell, *answers_given(position.geometry, answers).principal_variation(position.play(cell)))
    for index, step in enumerate(line):
        if step in right:
            return line[:index]
    return line


def hint_text(practice: Practice) -> str:
    """The hints given so far on the current exercise, in words."""
    exercise = practice.current
    if exercise is None or not practice.hint:
        return ""
    words = f"Hint: {hint_words(exercise.position, practice.answers)}"
    if practice.hint_level >= 2:
        words += " The answer is one of the lit cells."
    return words


def prompt(practice: Practice) -> str:
    """What the player is asked, saying what is judged."""
    exercise = practice.current
    if exercise is None:
        return ""
    side = exercise.position.turn.value
    value = exact_moves(exercise.position, practice.answers).value
    if practice.kind == "puzzle":
        goal = {
            Value.WIN: "find the one move that wins.",
            Value.DRAW: "find the one move that does not lose.",
            Value.LOSS: "every move loses. Find the one that holds out longest.",
        }[value]
        return f"{side} to move: {goal}"
    goal = {
        Value.WIN: f"Find the quickest win for {side}.",
        Value.DRAW: f"Find a move that keeps the draw for {side}.",
        Value.LOSS: "Every move loses now: find the one that holds out longest.",
    }[value]
    if exercise.played is None:  # due from a game never saved: the move once played is not kept
        return f"{side} went wrong here before. {goal}"
    return f"{side} played {cell_name(exercise.played, exercise.position.geometry)} here. {goal}"


def score(practice: Practice) -> str:
    """The session so far, in words: ``2 of 4 solved · 1 with a hint · 1 missed``."""
    results = practice.results
    parts = [f"{results.count('solved')} of {len(results)} solved"]
    for result, word in (
        ("helped", "with a hint"),
        ("found later", "found after a miss"),
        ("missed", "missed"),
        ("shown", "shown"),
        ("skipped", "skipped"),
    ):
        if results.count(result):
            parts.append(f"{results.count(result)} {word}")
    return " · ".join(parts)


def mistakes_of_line(
    tree: GameTree,
    line: tuple[NodeId, ...],
    side: Player | None,
    *,
    study: str | None = None,
    answers: Answers | None = None,
) -> tuple[Exercise, ...]:
    """Every mistake and inaccuracy of ``side`` (None: both) along ``line`` (node ids from the root), in order,
    each asked from the position before it, by the board's ``answers`` (by default the engine's own); positions
    whose values are not exact are left out."""
    answers = answers_given(tree.root_position.geometry, answers)
    return tuple(
        exercise
        for node_id in line[1:]
        if (exercise := _mistake_at(tree, node_id, side, study, "", answers)) is not None
    )


def mistakes_of_tree(
    tree: GameTree, side: Player | None, *, study: str | None = None, answers: Answers | None = None
) -> tuple[Exercise, ...]:
    """Every mistake and inaccuracy of ``side`` (None: both) anywhere in the study (the library's ``study``, if it
    comes from there), by the board's ``answers`` (by default the engine's own): the main line's first, in order,
    then each variation's (a mistake in a side line is practised wherever the cursor stands); a position once,
    however many mistakes were played there (its question and its answer are the same)."""
    answers = answers_given(tree.root_position.geometry, answers)
    main = set(tree.main_line())
    exercises = []
    for node_id in tree.walk():
        if node_id == ROOT:
            continue
        exercise = _mistake_at(tree, node_id, side, study, "" if node_id in main else " of a variation", answers)
        if exercise is not None:
            exercises.append((node_id not in main, exercise))
    return once_each(exercise for _, exercise in sorted(exercises, key=lambda pair: pair[0]))


def once_each(exercises: Iterable[Exercise]) -> tuple[Exercise, ...]:
    """``exercises`` in order, each position only the first time it comes; a later one of the open study is kept
    in the first's :attr:`~Exercise.also`, to be noted with it."""
    kept: dict[Position, Exercise] = {}
    for exercise in exercises:
        first = kept.setdefault(exercise.position, exercise)
        if first is not exercise and exercise.study is None and exercise.node is not None and exercise.played:
            kept[exercise.position] = replace(first, also=(*first.also, (exercise.node, exercise.played)))
    return tuple(kept.values())


def _mistake_at(
    tree: GameTree, node_id: NodeId, side: Player | None, study: str | None, line: str, answers: Answers
) -> Exercise | None:
    node = tree.node(node_id)
    # a mistake is a move: never the root
    assert node.parent is not None and node.move is not None  # pragma: no mutate - narrows types
    before = tree.position(node.parent)
    if side is not None and before.turn is not side:
        return None
    analysis = answers.analyze(before)
    played = analysis.move(node.move)
    if played is None or played.value is None or analysis.value is None:
        return None
    if played.value < analysis.value or not analysis.masks.best & cell_bit(node.move):
        # numbered as the History pane numbers it (``4. 8``), to be found there
        label = move_label(before, node.move)
        where = f"study '{study}', move {label}{line}" if study else f"move {label}{line}"
        return Exercise(before, node.move, where, node.parent, study)
    return None


def first_try_lost(practice: Practice) -> bool:
    """The open exercise can no longer be solved on the first try (a wrong or slower first answer, a hint, the
    solution shown): its attempt is not a solve, whatever comes next."""
    return practice.current is not None and bool(
        practice.hint or practice.shown or (practice.tries and practice.tries[0].grade != "best")
    )


def mistake_summary(tree: GameTree, line: tuple[NodeId, ...], answers: Answers | None = None) -> tuple[str, ...]:
    """The line's mistakes (a value given away) in one line each, by the board's ``answers`` (by default the
    engine's own), numbered as the History pane numbers them: ``O 1… 2??: draw → loss in 6``."""
    answers = answers_given(tree.root_position.geometry, answers)
    lines = []
    for exercise in mistakes_of_line(tree, line, None, answers=answers):
        assert exercise.played is not None  # pragma: no mutate - a mistake's exercise has the move played
        before = answers.analyze(exercise.position)
        played = before.move(exercise.played)
        # an exercise is a mistake of an exact analysis: both have their values
        assert played is not None and played.value is not None  # pragma: no mutate - narrows types
        assert played.remoteness is not None  # pragma: no mutate - narrows types
        assert before.value is not None and before.remoteness is not None  # pragma: no mutate - narrows types
        if played.value < before.value:
            lines.append(
                f"{exercise.position.turn.value} {move_label(exercise.position, exercise.played)}??: "
                f"{value_words(before.value, before.remoteness)} → {value_words(played.value, played.remoteness)}"
            )
    return tuple(lines)


def practised_comment(practice: Practice, index: int, day: date) -> str:
    """The note a practised mistake leaves on its move in the study, dated (a study practised again elsewhere, from
    the library, keeps its older note: the date says how old): ``practised 2026-11-29: solved (best: 5)``."""
    exercise = practice.exercises[index]
    result = practice.results[index]
    best = cell_names(solution(exercise.position, practice.answers), exercise.position.geometry, ", ")
    return f"practised {day.isoformat()}: {result} (best: {best})"


PRACTISED_NOTE = re.compile(r"practised( \d{4}-\d{2}-\d{2})?: ")
"""How a practised note begins (the undated ``practised: `` of older studies too): the note a new one replaces."""


__all__ = [
    "GRADES",
    "HINT_LEVELS",
    "KINDS",
    "PRACTISED_NOTE",
    "RESULTS",
    "Exercise",
    "Judgement",
    "Practice",
    "answer",
    "hint_region",
    "hint_text",
    "hint_words",
    "judge",
    "mistake_summary",
    "mistakes_of_line",
    "mistakes_of_tree",
    "moved_on",
    "practised_comment",
    "prompt",
    "ruled_out",
    "score",
    "solution",
    "told_line",
    "with_hint",
    "with_solution",
]
