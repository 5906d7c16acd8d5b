"""The pure reducer: ``reduce(state, action) -> state``.

It never raises and never does I/O; when an action changes nothing (an
illegal move, a step past the end) it returns the very same state object.
"""

from __future__ import annotations

from dataclasses import replace

from ..engine import Position, PositionError, check_legal
from ..engine.search import SearchResult
from .actions import (
    Action,
    AddLine,
    Back,
    DeleteVariation,
    Forward,
    Highlight,
    JumpTo,
    LoadState,
    MarkSaved,
    NewGame,
    NextVariation,
    PlayCell,
    PreviousVariation,
    PromoteToMainLine,
    PromoteVariation,
    ReplaceTree,
    SearchFound,
    SetComment,
    SetEngine,
    SetOverlay,
    SetUpPosition,
    ToEnd,
    ToStart,
    UseAnswers,
)
from .app_state import KEPT_SEARCHES, OVERLAYS, AppState
from .tree import ROOT, GameTree, NodeId


def reduce(state: AppState, action: Action) -> AppState:
    match action:
        case PlayCell(cell=cell):
            return _play(state, cell)
        case AddLine(cells=cells):
            return _add_line(state, cells)
        case Back():
            parent = state.tree.node(state.cursor).parent
            return state if parent is None else _move_cursor(state, parent)
        case Forward():
            children = state.tree.node(state.cursor).children
            return _move_cursor(state, children[0]) if children else state
        case ToStart():
            return _move_cursor(state, ROOT)
        case ToEnd():
            return _move_cursor(state, state.tree.main_line(state.cursor)[-1])
        case NextVariation():
            return _switch_variation(state, +1)
        case PreviousVariation():
            return _switch_variation(state, -1)
        case JumpTo(node=node):
            return _move_cursor(state, node) if node in state.tree else state
        case PromoteVariation():
            return _promote(state, to_main=False)
        case PromoteToMainLine():
            return _promote(state, to_main=True)
        case DeleteVariation():
            deleted = state.tree.node(state.cursor)
            if deleted.parent is None:
                return state
            return replace(state, tree=state.tree.without_subtree(deleted.id), cursor=deleted.parent, modified=True)
        case SetUpPosition(position=position):
            try:
                check_legal(position)
            except PositionError:
                return state
            if position.geometry != state.geometry:
                return state
            return _new_tree(state, GameTree.new(position))
        case NewGame(geometry=geometry):
            geometry = geometry or state.geometry
            if geometry == state.geometry and state.tree.root_position.ply == 0 and len(state.tree.nodes) == 1:
                return state
            # the panes' highlighted cell may not exist on the new board
            view = state.view if geometry == state.geometry else replace(state.view, highlighted=None)
            new = replace(_new_tree(state, GameTree.new(Position.empty(geometry))), geometry=geometry, view=view)
            return new if geometry == state.geometry else replace(new, searches=(), searching=None, answers=None)
        case SetComment(text=text, node=node):
            target = state.cursor if node is None else node
            if target not in state.tree:
                return state
            tree = state.tree.with_comment(target, text.strip())
            return state if tree is state.tree else replace(state, tree=tree, modified=True)
        case SetEngine(mode=mode, side=side):
            engine = replace(state.engine, mode=mode, side=side if side is not None else state.engine.side)
            return state if engine == state.engine else replace(state, engine=engine)
        case SetOverlay(overlay=overlay):
            if overlay not in OVERLAYS or overlay == state.view.overlay:
                return state
            return replace(state, view=replace(state.view, overlay=overlay))
        case Highlight(cell=cell):
            if cell == state.view.highlighted or (cell is not None and not state.geometry.contains(cell)):
                return state
            return replace(state, view=replace(state.view, highlighted=cell))
        case ReplaceTree(tree=tree, cursor=cursor):
            if cursor not in tree or tree.root_position.geometry != state.geometry:
                return state
            return replace(state, tree=tree, cursor=cursor, modified=True)
        case LoadState(state=loaded, unsaved=unsaved):
            # a study of the same board goes on with the answers in use; another board's are made ready anew
            same_board = loaded.answers is None and loaded.geometry == state.geometry
            return replace(loaded, modified=unsaved, answers=state.answers if same_board else loaded.answers)
        case MarkSaved():
            return replace(state, modified=False) if state.modified else state
        case SearchFound(result=result, running=running):
            return _search_found(state, result, running)
        case UseAnswers(answers=answers):
            if answers is state.answers or answers.geometry != state.geometry:
                return state
            return replace(state, answers=answers)
    return state


def _search_found(state: AppState, result: SearchResult, running: bool) -> AppState:
    position = result.position
    if position.geometry != state.geometry:  # a search of a game no longer on
        return state
    searching = position if running else (None if state.searching == position else state.searching)
    if state.search_of(position) == result and searching == state.searching:
        return state
    kept = tuple(earlier for earlier in state.searches if earlier.position != position)
    return replace(state, searches=(*kept, result)[-KEPT_SEARCHES:], searching=searching)


def _move_cursor(state: AppState, node: NodeId) -> AppState:
    return state if node == state.cursor else replace(state, cursor=node)


def _play(state: AppState, cell: object) -> AppState:
    if not isinstance(cell, int):
        return state
    try:
        tree, node = state.tree.add_move(state.cursor, cell)
    except PositionError:
        return state
    if tree is state.tree:
        return _move_cursor(state, node)
    return replace(state, tree=tree, cursor=node, modified=True)


def _add_line(state: AppState, cells: object) -> AppState:
    if not isinstance(cells, tuple) or not all(isinstance(cell, int) for cell in cells):
        return state
    tree, node = state.tree, state.cursor
    try:
        for cell in cells:
            tree, node = tree.add_move(node, cell)
    except PositionError:
        return state
    return state if tree is state.tree else replace(state, tree=tree, modified=True)


def _new_tree(state: AppState, tree: GameTree) -> AppState:
    return replace(state, tree=tree, cursor=ROOT, modified=True)


def _branch_child(tree: GameTree, node: NodeId) -> NodeId | None:
    """The nearest node at or above ``node`` whose parent has several children."""
    current: NodeId | None = node
    while current is not None:
        parent = tree.node(current).parent
        if parent is not None and len(tree.node(parent).children) > 1:
            return current
        current = parent
    return None


def _switch_variation(state: AppState, step: int) -> AppState:
    tree = state.tree
    child = _branch_child(tree, state.cursor)
    if child is None:
        return state
    parent = tree.node(child).parent
    assert parent is not None  # pragma: no mutate - a branch's child is below the root
    siblings = tree.node(parent).children
    index = siblings.index(child) + step
    if not 0 <= index < len(siblings):
        return state
    return _move_cursor(state, siblings[index])


def _promote(state: AppState, *, to_main: bool) -> AppState:
    tree = state.tree
    path = tree.path(state.cursor)
    for parent, child in reversed(list(zip(path, path[1:]))):
        children = tree.node(parent).children
        index = children.index(child)
        if index == 0:
            continue
        if to_main:
            tree = tree.with_children_order(parent, (child,) + children[:index] + children[index + 1 :])
            continue
        reordered = children[: index - 1] + (child, children[index - 1]) + children[index + 1 :]
        tree = tree.with_children_order(parent, reordered)
        break
    return state if tree is state.tree else replace(state, tree=tree, modified=True)
