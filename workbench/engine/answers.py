"""Each variant's answers: one object per board that is its tier (how its positions are answered) and holds what
answers them, with its own caches.

- :class:`TableAnswers` — every reachable position's value, class and game counts in tables (up to 12 cells);
- :class:`SolutionAnswers` — a solution read a position at a time: a strong one (13–16 cells, ``"strong"``, with
  classes and game counts) or one kept past 16 cells (``"kept"``: values alone);
- :class:`SearchedAnswers` — nothing held: each position searched, a value known only where a search proved it.

Which object a board gets is decided where the data is (:func:`workbench.kept.answers_for` reads it back, solves
or opens it), and handed to what asks (the engine's functions take it as ``answers``; the app's state holds it);
nothing is installed anywhere. Pure: a solution that reads lazily from a file does so behind ``lookup_many``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, ClassVar, cast

from ..errors import InputError
from .census import GameCounts
from .geometry import MAX_STRONG_CELLS, MAX_TABLE_CELLS, Cell, Geometry
from .line_choice import story_first
from .position import Position, Status, check_legal, format_position
from .results import Analysis, Masks, MoveAnalysis, SymmetryInfo, Tables
from .searched_analysis import best_moves, exact_masks_of, searched_analysis, threat_masks
from .solver import Value, preference
from .symmetry import group_moves, stabilizer, transforms
from .threats import planner_for, squeezes

if TYPE_CHECKING:
    from .strong import StrongSolution

VALUES = {int(value): value for value in Value}

TIERS = ("tables", "strong", "kept", "search")
"""Every way a board is answered, as :attr:`Answers.tier` names it."""

MoveValues = tuple[Value, int, tuple[MoveAnalysis, ...]]
"""A position's value and remoteness, and each of its moves' (:meth:`Answers.move_values`)."""

ANALYSES_KEPT = 4096
"""Analyses a solution's answers keep, the latest first out: a pane redrawn, a move stepped back to."""


class BoardTooLargeError(InputError):
    """A board with more cells than the exact tables (or solutions) can hold."""


def check_analysable(geometry: Geometry) -> None:
    """:raises BoardTooLargeError: naming the board, when its tables cannot be built."""
    if geometry.size > MAX_TABLE_CELLS:
        raise BoardTooLargeError(
            f"board {geometry}: exact analysis covers boards of at most {MAX_TABLE_CELLS} cells so far "
            f"({geometry.size} here)"
        )


class Answers:
    """How the positions of one board are answered. Subclasses answer :meth:`analyze` always, and the questions of
    every position's value (:meth:`principal_variation`, :meth:`class_id`, :meth:`classes_by_ply`) where they hold
    the values; elsewhere those raise :class:`BoardTooLargeError`, naming the board."""

    tier: ClassVar[str]
    exact: ClassVar[bool] = True
    """Whether every position's value is known (not for a searched board)."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry

    def analyze(self, position: Position) -> Analysis:
        """The analysis of a legal ``position`` of this board.

        :raises IllegalPositionError: no game reaches ``position``."""
        raise NotImplementedError

    def move_values(self, position: Position) -> MoveValues:
        """(value, remoteness, each move's value and remoteness) of a position in play: what a verdict needs,
        without the masks, symmetry and counts of :meth:`analyze` (its traps and games None).

        :raises IllegalPositionError: the position is not reachable.
        :raises BoardTooLargeError: where the values are not all known."""
        raise NotImplementedError

    def principal_variation(self, position: Position) -> tuple[Cell, ...]:
        """The rest of the game under perfect play (:func:`workbench.engine.analysis.principal_variation`).

        :raises IllegalPositionError: the position is not reachable.
        :raises BoardTooLargeError: where the values are not all known."""
        raise NotImplementedError

    def class_id(self, position: Position) -> int:
        """The position's symmetry class id (1-based, by ply then canonical key).

        :raises IllegalPositionError: the position is not reachable.
        :raises BoardTooLargeError: where classes are not numbered (past 16 cells)."""
        raise NotImplementedError

    def classes_by_ply(self) -> tuple[int, ...]:
        """How many symmetry classes have 0, 1, 2, … marks.

        :raises BoardTooLargeError: where classes are not counted (past 16 cells)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.geometry} ({self.tier})>"


class TableAnswers(Answers):
    """A board of at most 12 cells, answered from its :class:`~workbench.engine.results.Tables`."""

    tier = "tables"

    def __init__(self, table: Tables) -> None:
        super().__init__(table.geometry)
        self.table = table
        # tables read back from a file teach the board's planner the masks they hold (a memo warmed: the same masks
        # it would plan), so the first analyses do not plan them again
        planner_for(table.geometry).learn(table.plans)

    def analyze(self, position: Position) -> Analysis:
        return analyze_key(self.table, position, reachable_key(self.table, position))

    def move_values(self, position: Position) -> MoveValues:
        table = self.table
        key = reachable_key(table, position)
        assert key not in table.terminal  # pragma: no mutate - an invariant, never false
        value, remoteness = table.value, table.remoteness
        moves = tuple(
            MoveAnalysis(cell, VALUES[-value[child]], remoteness[child] + 1, None, None)
            for cell, child in table.children[key]
        )
        return VALUES[value[key]], remoteness[key], moves

    def principal_variation(self, position: Position) -> tuple[Cell, ...]:
        table = self.table
        key = reachable_key(table, position)
        line: list[Cell] = []
        while key not in table.terminal:
            moves = table.children[key]
            # a child's own remoteness orders the moves as well as the plies after the move would
            scored = [(preference(-table.value[child], table.remoteness[child]), cell, child) for cell, child in moves]
            best = max(score for score, _, _ in scored)
            tied = {cell: child for score, cell, child in scored if score == best}
            cell = story_first(position, sorted(tied), best[0] > 0)
            line.append(cell)
            key = tied[cell]
            position = position.play(cell)
        return tuple(line)

    def class_id(self, position: Position) -> int:
        return self.table.class_of[reachable_key(self.table, position)]

    def classes_by_ply(self) -> tuple[int, ...]:
        return self.table.classes_by_ply()


class SolutionAnswers(Answers):
    """A board answered from a solution read a position at a time: a strong solution (``"strong"``), or past 16
    cells a kept one (``"kept"``: any object with ``geometry``, ``lookup_many`` and ``positions_by_ply``, as
    :class:`workbench.kept.solutions.KeptSolution`), which numbers no classes and counts no games."""

    def __init__(self, solution: StrongSolution) -> None:
        super().__init__(solution.geometry)
        self.solution = solution
        self.counted = hasattr(solution, "class_id")
        # not functools.lru_cache of a bound method: that cycle would keep a forgotten solution (a byte a position)
        # until a collection, and the app freezes the collector's view once its analysis is ready
        self._analyses: OrderedDict[Position, Analysis] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def tier(self) -> str:  # type: ignore[override]  # a property here: the solution says which
        return "strong" if self.counted else "kept"

    def analyze(self, position: Position) -> Analysis:
        with self._lock:
            found = self._analyses.get(position)
            if found is not None:
                self._analyses.move_to_end(position)
                return found
        found = analyze_solution(self.solution, position)
        with self._lock:
            self._analyses[position] = found
            if len(self._analyses) > ANALYSES_KEPT:
                self._analyses.popitem(last=False)
        return found

    def move_values(self, position: Position) -> MoveValues:
        check_legal(position)
        cells = position.legal_moves()
        children = [position.play(cell) for cell in cells]
        (value, remoteness), *read = cast(
            "list[tuple[int, int]]",
            self.solution.lookup_many([position.x, *(c.x for c in children)], [position.o, *(c.o for c in children)]),
        )
        moves = tuple(
            MoveAnalysis(cell, Value(-child_value), child_remoteness + 1, None, None)
            for cell, (child_value, child_remoteness) in zip(cells, read)
        )
        return Value(value), remoteness, moves

    def principal_variation(self, position: Position) -> tuple[Cell, ...]:
        check_legal(position)
        line: list[Cell] = []
        while not position.is_over:
            cells = position.legal_moves()
            children = [position.play(cell) for cell in cells]
            # every child of a legal position is solved (analyze_solution asserts it)
            read = cast(
                "list[tuple[int, int]]",
                self.solution.lookup_many([child.x for child in children], [child.o for child in children]),
            )
            scored = [(preference(-value, remoteness), cell) for cell, (value, remoteness) in zip(cells, read)]
            best = max(score for score, _ in scored)
            cell = story_first(position, sorted(cell for score, cell in scored if score == best), best[0] > 0)
            line.append(cell)
            position = position.play(cell)
        return tuple(line)

    def class_id(self, position: Position) -> int:
        if not self.counted:
            raise BoardTooLargeError(
                f"board {self.geometry}: symmetry classes are numbered on boards of at most {MAX_STRONG_CELLS} cells"
            )
        check_legal(position)
        return self.solution.class_id(position)

    def classes_by_ply(self) -> tuple[int, ...]:
        if not self.counted:
            raise BoardTooLargeError(
                f"board {self.geometry}: symmetry classes are counted on boards of at most {MAX_STRONG_CELLS} cells"
            )
        return tuple(self.solution.classes_by_ply)


class SearchedAnswers(Answers):
    """A board beyond the solutions at hand (above 16 cells, none kept): each position searched, and a value known
    only where a search proved it (:func:`~workbench.engine.searched_analysis.searched_analysis`)."""

    tier = "search"
    exact = False

    def analyze(self, position: Position) -> Analysis:
        return searched_analysis(position)

    def _not_exact(self, asked: str) -> BoardTooLargeError:
        return BoardTooLargeError(
            f"board {self.geometry}: {asked} cover boards of at most {MAX_STRONG_CELLS} cells "
            f"({self.geometry.size} here); a search answers one position at a time (`workbench analyze --game "
            f"{self.geometry}`; in Python, `position.analysis(seconds=…)`)"
        )

    def move_values(self, position: Position) -> MoveValues:
        raise self._not_exact("exact values of every position")

    def principal_variation(self, position: Position) -> tuple[Cell, ...]:
        raise self._not_exact("exact values of every position")

    def class_id(self, position: Position) -> int:
        raise self._not_exact("exact values of every position")

    def classes_by_ply(self) -> tuple[int, ...]:
        raise BoardTooLargeError(
            f"board {self.geometry}: symmetry classes are counted on boards of at most {MAX_STRONG_CELLS} cells"
        )


def reachable_key(table: Tables, position: Position) -> int:
    """``position``'s key in ``table``. :raises IllegalPositionError: no game reaches it."""
    key = position.key
    if key not in table.class_of:
        check_legal(position)  # raises with the reason
        raise AssertionError(f"legal position {format_position(position)} missing from the state graph")
    return key


def analyze_key(table: Tables, position: Position, key: int) -> Analysis:
    """The analysis of ``position`` (whose key in ``table`` is ``key``) from the tables: values, traps, counts, the
    planner's masks beside the exact ones, and its symmetry."""
    geometry = table.geometry
    class_id = table.class_of[key]
    canonical_key = table.canonical_keys[class_id - 1]
    group = stabilizer(position)
    legal = () if key in table.terminal else tuple(cell for cell, _ in table.children[key])
    symmetry = SymmetryInfo(
        canonical=Position(canonical_key & geometry.full, canonical_key >> geometry.size, geometry),
        class_id=class_id,
        class_count=len(table.canonical_keys),
        orbit_size=len(transforms(geometry)) // len(group),
        stabilizer=group,
        move_classes=group_moves(legal, group),
    )
    games = table.games[key]
    status = table.terminal.get(key)
    if status is not None:
        return Analysis(position, status, None, None, None, (), Masks(), symmetry, games)
    to_move = position.turn
    value, remoteness, trap = table.value, table.remoteness, table.trap
    moves = tuple(
        MoveAnalysis(cell, VALUES[-value[child]], remoteness[child] + 1, trap.get(child), table.games[child])
        for cell, child in table.children[key]
    )
    me, opp = position.sides
    planner = planner_for(geometry)
    best = best_moves(moves)
    plan = planner.masks(me, opp)
    # perfect-win and perfect-lose from the exact values: the planner's equal them on 3×3 only (`workbench
    # verify`); on 3×4 it misses forced wins deeper than its look-ahead, and it reads a line as a win (misère)
    exact_win, exact_lose = exact_masks_of(moves)
    masks = Masks(
        win=plan.winning,
        block=planner.block(me, opp),
        fork=squeezes(geometry, me, opp) if geometry.misere else plan.plan_winning & ~plan.winning,
        perfect_win=exact_win,
        perfect_lose=exact_lose,
        best=best,
    )
    return Analysis(
        position, Status.IN_PLAY, to_move, VALUES[value[key]], remoteness[key], moves, masks, symmetry, games
    )


def analyze_solution(solution: StrongSolution, position: Position) -> Analysis:
    """The analysis of a legal ``position`` from a strong solution: the value and remoteness of the position and
    of every move, each move's trap share, the threat masks, and its symmetry (orbit, stabiliser, canonical form).
    Everything the tables give a small board, from the solution: the class and the game counts too (not from a
    kept solution, which has neither).

    :raises IllegalPositionError: no game reaches ``position``.
    """
    from .symmetry import canonical

    check_legal(position)
    geometry = position.geometry
    group = stabilizer(position)
    legal = position.legal_moves()
    counted = hasattr(solution, "class_id")  # a kept solution past 16 cells numbers no classes, counts no games
    symmetry = SymmetryInfo(
        canonical=canonical(position),
        class_id=solution.class_id(position) if counted else None,
        class_count=sum(solution.classes_by_ply) if counted else None,
        orbit_size=len(transforms(geometry)) // len(group),
        stabilizer=group,
        move_classes=group_moves(legal, group),
    )
    games, games_after = solution.games_and_children(position.x, position.o) if counted else (None, {})
    if position.is_over:
        return Analysis(position, position.status, None, None, None, (), Masks(), symmetry, _counts_or_none(games))
    # the position, each child and each child's replies, read at once (a kept solution reads each chunk once)
    children = [position.play(cell) for cell in legal]
    replies = [[child.play(reply) for reply in child.legal_moves()] for child in children]
    asked = [position, *children, *(after for row in replies for after in row)]
    found, *read = solution.lookup_many([p.x for p in asked], [p.o for p in asked])
    assert found is not None, f"legal position {position} missing from the strong solution"
    assert None not in read, f"a position after {position} not solved"  # pragma: no mutate - an invariant, never false
    known = cast("list[tuple[int, int]]", read)
    child_values, reply_values = known[: len(children)], iter(known[len(children) :])
    made = []
    for cell, child, (child_value, child_remoteness), after in zip(legal, children, child_values, replies):
        # good for us, who move after the reply
        trap = sum(next(reply_values)[0] > 0 for _ in after) / len(after) if after else None
        child_games = games_after.get(solution.index(child.x, child.o)) if counted else None
        made.append(MoveAnalysis(cell, Value(-child_value), child_remoteness + 1, trap, _counts_or_none(child_games)))
    moves = tuple(made)
    best = best_moves(moves)
    perfect_win, perfect_lose = exact_masks_of(moves)
    # from the lines alone: the planner's masks read the whole game tree below (354,000 pairs on 4×4)
    masks = threat_masks(position, perfect_win=perfect_win, perfect_lose=perfect_lose, best=best)
    value, remoteness = found
    return Analysis(
        position,
        Status.IN_PLAY,
        position.turn,
        Value(value),
        remoteness,
        moves,
        masks,
        symmetry,
        _counts_or_none(games),
    )


def _counts_or_none(games: tuple[int, int, int] | None) -> GameCounts | None:
    return None if games is None else GameCounts(*games)
