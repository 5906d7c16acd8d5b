"""One position's full analysis: exact values, threat masks, symmetry, counts.

:func:`analyze` reads warm per-geometry tables (built once, on first use);
:func:`analyze_all` analyses every reachable position.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, cast

from ..errors import InputError
from .census import GameCounts, counts
from .geometry import MAX_STRONG_CELLS, MAX_TABLE_CELLS, TIC_TAC_TOE, Cell, Geometry
from .graph import class_index, state_graph
from .line_choice import story_first
from .position import Position, Status, check_legal, format_position
from .results import MASK_NAMES, Analysis, Masks, MoveAnalysis, SymmetryInfo, Tables, analysis_record  # noqa: F401 - re-exported
from .searched_analysis import (
    best_moves as best_moves,
    exact_masks as exact_masks,
    exact_masks_of as exact_masks_of,
    searched_analysis as searched_analysis,
    threat_masks as threat_masks,
)
from .solver import Value, preference, solve
from .symmetry import group_moves, stabilizer, transforms
from .threats import planner_for, squeezes

_VALUES = {int(value): value for value in Value}

if TYPE_CHECKING:
    from .strong import StrongSolution


_TABLES: dict[Geometry, Tables] = {}


class BoardTooLargeError(InputError):
    """A board with more cells than the exact tables can hold."""


def check_analysable(geometry: Geometry) -> None:
    """:raises BoardTooLargeError: naming the board, when its tables cannot be built."""
    if geometry.size > MAX_TABLE_CELLS:
        raise BoardTooLargeError(
            f"board {geometry}: exact analysis covers boards of at most {MAX_TABLE_CELLS} cells so far "
            f"({geometry.size} here)"
        )


def tables(geometry: Geometry = TIC_TAC_TOE) -> Tables:
    """The geometry's tables: built on first use, or as installed by :func:`install_tables`.

    :raises BoardTooLargeError: the board has more than :data:`MAX_TABLE_CELLS` cells.
    """
    table = _TABLES.get(geometry)
    if table is None:
        check_analysable(geometry)
        table = _TABLES[geometry] = build_tables(geometry)
    return table


def tables_if_built(geometry: Geometry) -> Tables | None:
    """The geometry's tables if this process has them already; never builds."""
    return _TABLES.get(geometry)


def install_tables(table: Tables) -> None:
    """Use ``table`` for its geometry from now on (e.g. tables read back by :func:`parse_tables`), and its
    planner's masks."""
    planner_for(table.geometry).learn(table.plans)
    _TABLES[table.geometry] = table


def forget_tables() -> None:
    _TABLES.clear()
    _STRONG.clear()
    _analyze_strong.cache_clear()


# --- boards of 13 to 16 cells: a strong solution (engine.strong) stands where the tables cannot; past 16, a
# solution kept by `workbench solve` (workbench.kept), read lazily, where one has been made ----------------

_STRONG: dict[Geometry, StrongSolution] = {}
"""Each board's installed solution: a strong one, or past 16 cells a kept one, read through the same methods (it
lacks the class and game counts, which the readers look for with ``hasattr``)."""


def forget_analysis(geometry: Geometry) -> None:
    """Drop ``geometry``'s tables or strong solution from this process (read back for a variant looked at and not
    chosen: a 4×4 solution holds a byte per position); the next :func:`analyze` there needs them made ready again."""
    _TABLES.pop(geometry, None)
    if _STRONG.pop(geometry, None) is not None:
        _analyze_strong.cache_clear()


def install_strong(solution) -> None:
    """Answer :func:`analyze`, :func:`class_id` and :func:`principal_variation` on ``solution``'s board (13–16
    cells, beyond the tables) from it from now on. Past 16 cells, a kept solution (any object with
    ``geometry``, ``lookup_many`` and ``positions_by_ply``, :class:`workbench.kept.solutions.KeptSolution`)
    makes the board exact as well: no longer searched, its values read, its classes and games not counted."""
    _STRONG[solution.geometry] = solution
    _analyze_strong.cache_clear()


def strong_if_installed(geometry: Geometry):
    """The strong solution installed for ``geometry``, or None."""
    return _STRONG.get(geometry)


def analysis_ready(geometry: Geometry) -> bool:
    """Whether :func:`analyze` answers on ``geometry`` without building anything: its tables or strong solution
    are at hand, or it is beyond them (above 16 cells), where nothing is built and the moves are searched."""
    return geometry in _TABLES or geometry in _STRONG or is_searched(geometry)


def check_exact(geometry: Geometry) -> None:
    """:raises BoardTooLargeError: naming the board, where the values of every position are not known (above 16
    cells: what needs them, a review or the best line, cannot be had there)."""
    if is_searched(geometry):
        raise BoardTooLargeError(
            f"board {geometry}: exact values of every position cover boards of at most {MAX_STRONG_CELLS} cells "
            f"({geometry.size} here); `workbench analyze --game {geometry}` searches one position"
        )


def is_searched(geometry: Geometry) -> bool:
    """The board is beyond the strong solutions (above 16 cells, and no kept solution installed): its positions
    are searched one by one, and a value is known only where a search proved it (:func:`searched_analysis`)."""
    return geometry.size > MAX_STRONG_CELLS and geometry not in _STRONG


@lru_cache(maxsize=4096)
def _analyze_strong(position: Position) -> Analysis:
    return analyze_strong(_STRONG[position.geometry], position)


def analyze_strong(solution: StrongSolution, position: Position) -> Analysis:
    """The analysis of a legal ``position`` from a strong solution: the value and remoteness of the position and
    of every move, each move's trap share, the threat masks, and its symmetry (orbit, stabiliser, canonical form).
    Everything the tables give a small board, from the solution: the class and the game counts too.

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


def _strong_for(geometry: Geometry):
    return _STRONG.get(geometry) if geometry not in _TABLES else None


def classes_by_ply(geometry: Geometry) -> tuple[int, ...]:
    """How many symmetry classes have 0, 1, 2, … marks, from the tables or the strong solution."""
    strong = _strong_for(geometry)
    if strong is not None and not hasattr(strong, "classes_by_ply"):
        raise BoardTooLargeError(
            f"board {geometry}: symmetry classes are counted on boards of at most {MAX_STRONG_CELLS} cells"
        )
    return tuple(strong.classes_by_ply) if strong is not None else tables(geometry).classes_by_ply()


def build_tables(geometry: Geometry) -> Tables:
    """Compute every table from scratch (quick for 3×3; the cache keeps them for the next run)."""
    graph = state_graph(geometry)
    solution = solve(geometry)
    classes = class_index(geometry)
    value = solution.value
    tallies = counts(geometry)
    trap: dict[int, float] = {}
    for key, replies in graph.children.items():
        # value[grandchild] is for the side that made the move before the reply
        trap[key] = sum(1 for _, reply in replies if value[reply] > 0) / len(replies)
    planner = planner_for(geometry)
    planner.masks(0, 0)  # every position the game reaches from the empty board, planned once here
    return Tables(
        geometry,
        graph.children,
        graph.terminal,
        value,
        solution.remoteness,
        trap,
        tallies.games,
        tallies.paths,
        classes.class_of,
        classes.canonical_keys,
        planner.known(),
    )


def analyze(position: Position) -> Analysis:
    """Analyse a legal position.

    :raises IllegalPositionError: the position is not reachable.
    """
    if is_searched(position.geometry):
        return searched_analysis(position)
    if _strong_for(position.geometry) is not None:
        return _analyze_strong(position)
    table = tables(position.geometry)
    return _analyze_key(table, position, _reachable_key(table, position))


def class_id(position: Position) -> int:
    """The position's symmetry class id: ``analyze(position).symmetry.class_id``, without the rest.

    :raises IllegalPositionError: the position is not reachable.
    :raises BoardTooLargeError: above 16 cells, where classes are not numbered (:func:`class_key` is).
    """
    check_exact(position.geometry)
    strong = _strong_for(position.geometry)
    if strong is not None:
        if not hasattr(strong, "class_id"):
            raise BoardTooLargeError(
                f"board {position.geometry}: symmetry classes are numbered on boards of at most {MAX_STRONG_CELLS} "
                "cells"
            )
        check_legal(position)
        return strong.class_id(position)
    table = tables(position.geometry)
    return table.class_of[_reachable_key(table, position)]


def class_key(position: Position) -> int:
    """A key shared by exactly the positions of one symmetry class: the class id where the classes are numbered
    (up to 16 cells), else the canonical form's key (above them).

    :raises IllegalPositionError: the position is not reachable.
    """
    if position.geometry.size > MAX_STRONG_CELLS:  # searched, or solved and kept: classes not numbered
        return _canonical_key(position)
    return class_id(position)


@lru_cache(maxsize=4096)
def _canonical_key(position: Position) -> int:
    # kept: the history marks twins by it, asking again for every node of the tree at every edit (on 15×15 a
    # large part of a move played in a long game)
    from .symmetry import canonical

    check_legal(position)
    return canonical(position).key


def principal_variation(position: Position) -> tuple[Cell, ...]:
    """The rest of the game under perfect play: at every ply the side to move plays its best
    move (the winner hurrying, the loser delaying); among equally good ones, the move whose story the words
    tell (:func:`workbench.engine.line_choice.story_first`: a win, a fork or a threat for the winner, a block for
    the other side), then the lowest cell.

    Empty when the game is over; as long as the position's remoteness otherwise.

    :raises IllegalPositionError: the position is not reachable.
    :raises BoardTooLargeError: above 16 cells, where the values are not all known.
    """
    check_exact(position.geometry)
    strong = _strong_for(position.geometry)
    if strong is not None:
        return _strong_line(strong, position)
    table = tables(position.geometry)
    key = _reachable_key(table, position)
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


def _strong_line(strong, position: Position) -> tuple[Cell, ...]:
    """:func:`principal_variation` read from a strong solution: the same preference, the same choice among
    equals."""
    check_legal(position)
    line: list[Cell] = []
    while not position.is_over:
        cells = position.legal_moves()
        children = [position.play(cell) for cell in cells]
        read = strong.lookup_many([child.x for child in children], [child.o for child in children])
        scored = [(preference(-value, remoteness), cell) for cell, (value, remoteness) in zip(cells, read)]
        best = max(score for score, _ in scored)
        cell = story_first(position, sorted(cell for score, cell in scored if score == best), best[0] > 0)
        line.append(cell)
        position = position.play(cell)
    return tuple(line)


def table_move_values(position: Position) -> tuple[Value, int, tuple[MoveAnalysis, ...]]:
    """(value, remoteness, each move's value and remoteness) of a position in play, read from the tables alone:
    what a verdict needs, without the masks, symmetry and counts of :func:`analyze` (its traps and games None).

    :raises BoardTooLargeError: the board has more than :data:`MAX_TABLE_CELLS` cells.
    :raises IllegalPositionError: the position is not reachable.
    """
    table = tables(position.geometry)
    key = _reachable_key(table, position)
    assert key not in table.terminal  # pragma: no mutate - an invariant, never false
    value, remoteness = table.value, table.remoteness
    moves = tuple(
        MoveAnalysis(cell, _VALUES[-value[child]], remoteness[child] + 1, None, None)
        for cell, child in table.children[key]
    )
    return _VALUES[value[key]], remoteness[key], moves


def _reachable_key(table: Tables, position: Position) -> int:
    key = position.key
    if key not in table.class_of:
        check_legal(position)  # raises with the reason
        raise AssertionError(f"legal position {format_position(position)} missing from the state graph")
    return key


def _analyze_key(table: Tables, position: Position, key: int) -> Analysis:
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
        MoveAnalysis(cell, _VALUES[-value[child]], remoteness[child] + 1, trap.get(child), table.games[child])
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
        position, Status.IN_PLAY, to_move, _VALUES[value[key]], remoteness[key], moves, masks, symmetry, games
    )


def analyze_all(geometry: Geometry = TIC_TAC_TOE) -> list[Analysis]:
    """Analyses of every reachable position, by ply then key."""
    table = tables(geometry)
    graph = state_graph(geometry)
    return [_analyze_key(table, graph.position(key), key) for key in graph.keys()]
