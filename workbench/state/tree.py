"""The history: an immutable tree of variations, like a chess analysis board.

Nodes are keyed by id. Each holds its move (the cell played from its parent),
its parent, its children in order (the first child is the main line) and an
optional comment. The root holds any legal position (a set-up), not only the
empty board. Every edit returns a new tree; the old one is unchanged.

Costs: a node's position replays at most ``depth`` moves; edits copy the node
map (trees here hold hundreds of nodes, not millions).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from ..engine import (
    TIC_TAC_TOE,
    Cell,
    IllegalMoveError,
    IllegalPositionError,
    MoveListError,
    NotationError,
    Position,
    Value,
    format_position,
    parse_position,
)
from ..engine.analysis import answers_given, class_key
from ..engine.answers import Answers
from ..engine.geometry import (
    GeometryError,
    VariantError,
    cell_name,
    cell_range,
    format_variant,
    parse_cell_name,
    parse_variant,
)
from ..engine.position import split_cell_tokens
from ..errors import InputError

NodeId = int
ROOT: NodeId = 0


@dataclass(frozen=True, kw_only=True, slots=True)
class Node:
    id: NodeId
    parent: NodeId | None
    move: Cell | None
    """The cell played from the parent; None at the root."""
    children: tuple[NodeId, ...] = ()
    comment: str = ""


def _freeze(nodes: dict[NodeId, Node]) -> Mapping[NodeId, Node]:
    return MappingProxyType(nodes)


@dataclass(frozen=True, kw_only=True)
class GameTree:
    """An immutable variation tree over a root position."""

    root_position: Position
    nodes: Mapping[NodeId, Node] = field(default_factory=lambda: _freeze({ROOT: Node(id=ROOT, parent=None, move=None)}))
    next_id: NodeId = 1
    _positions: dict[NodeId, Position] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Each node's position once asked for: a node's never changes in a tree that never changes, and every state
    a step makes asks for its cursor's (replaying the whole path took 0.8 ms on 15×15 with thirty moves)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameTree):
            return NotImplemented
        return (self.root_position, dict(self.nodes), self.next_id) == (
            other.root_position,
            dict(other.nodes),
            other.next_id,
        )

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def new(cls, root_position: Position | None = None) -> GameTree:
        return cls(root_position=root_position if root_position is not None else Position.empty())

    # --- reading -----------------------------------------------------------------

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.nodes

    @property
    def is_empty(self) -> bool:
        """Nothing in it to keep: the empty board, no move and no comment."""
        return len(self.nodes) == 1 and self.root_position.ply == 0 and not self.nodes[ROOT].comment

    def node(self, node_id: NodeId) -> Node:
        return self.nodes[node_id]

    def path(self, node_id: NodeId) -> tuple[NodeId, ...]:
        """Ids from the root down to ``node_id``, both included."""
        path = []
        current: NodeId | None = node_id
        while current is not None:
            path.append(current)
            current = self.nodes[current].parent
        return tuple(reversed(path))

    def moves_to(self, node_id: NodeId) -> tuple[Cell, ...]:
        # (every node below the root has its move)
        return tuple(move for n in self.path(node_id)[1:] if (move := self.nodes[n].move) is not None)

    def position(self, node_id: NodeId) -> Position:
        known = self._positions
        unknown = []  # from node_id up to the nearest node whose position is known
        current: NodeId | None = node_id
        while current is not None and current not in known:
            unknown.append(current)
            current = self.nodes[current].parent
        position = self.root_position if current is None else known[current]
        for node in reversed(unknown):
            move = self.nodes[node].move
            if move is not None:
                position = position.play(move)
            known[node] = position
        return position

    def depth(self, node_id: NodeId) -> int:
        return len(self.path(node_id)) - 1

    def ply(self, node_id: NodeId) -> int:
        """Marks on the board at ``node_id`` (the root may be a set-up position)."""
        return self.root_position.ply + self.depth(node_id)

    def child_with_move(self, node_id: NodeId, cell: Cell) -> NodeId | None:
        for child in self.nodes[node_id].children:
            if self.nodes[child].move == cell:
                return child
        return None

    def main_line(self, node_id: NodeId = ROOT) -> tuple[NodeId, ...]:
        """``node_id`` and the first children below it, to the end."""
        line = [node_id]
        while self.nodes[line[-1]].children:
            line.append(self.nodes[line[-1]].children[0])
        return tuple(line)

    def current_line(self, node_id: NodeId) -> tuple[NodeId, ...]:
        """The path to ``node_id`` and the main line onwards from it."""
        return self.path(node_id)[:-1] + self.main_line(node_id)

    def is_main_line(self, node_id: NodeId) -> bool:
        return all(self.nodes[p].children[0] == c for p, c in zip(self.path(node_id), self.path(node_id)[1:]))

    def walk(self, node_id: NodeId = ROOT) -> Iterator[NodeId]:
        """Pre-order, main line first."""
        stack = [node_id]
        while stack:
            current = stack.pop()
            yield current
            stack.extend(reversed(self.nodes[current].children))

    def subtree(self, node_id: NodeId) -> frozenset[NodeId]:
        return frozenset(self.walk(node_id))

    # --- editing -----------------------------------------------------------------

    def add_move(self, node_id: NodeId, cell: Cell) -> tuple[GameTree, NodeId]:
        """The child of ``node_id`` playing ``cell``: reused if present, else a new last variation.

        :raises IllegalMoveError: the move is not legal at ``node_id``.
        """
        existing = self.child_with_move(node_id, cell)
        if existing is not None:
            return self, existing
        self.position(node_id).play(cell)  # raises when illegal
        new_id = self.next_id
        nodes = dict(self.nodes)
        parent = nodes[node_id]
        nodes[node_id] = replace(parent, children=parent.children + (new_id,))
        nodes[new_id] = Node(id=new_id, parent=node_id, move=cell)
        return self._edited(nodes, next_id=new_id + 1), new_id

    def with_comment(self, node_id: NodeId, comment: str) -> GameTree:
        if self.nodes[node_id].comment == comment:
            return self
        nodes = dict(self.nodes)
        nodes[node_id] = replace(nodes[node_id], comment=comment)
        return self._edited(nodes)

    def with_children_order(self, node_id: NodeId, children: tuple[NodeId, ...]) -> GameTree:
        if self.nodes[node_id].children == children:
            return self
        nodes = dict(self.nodes)
        nodes[node_id] = replace(nodes[node_id], children=children)
        return self._edited(nodes)

    def without_subtree(self, node_id: NodeId) -> GameTree:
        """The tree less ``node_id`` and everything below it (the root cannot go)."""
        parent_id = self.nodes[node_id].parent
        if parent_id is None:
            return self
        gone = self.subtree(node_id)
        nodes = {key: node for key, node in self.nodes.items() if key not in gone}
        parent = nodes[parent_id]
        nodes[parent_id] = replace(parent, children=tuple(c for c in parent.children if c != node_id))
        return self._edited(nodes, gone=gone)

    def _edited(
        self, nodes: dict[NodeId, Node], *, next_id: NodeId | None = None, gone: frozenset[NodeId] = frozenset()
    ) -> GameTree:
        """This tree with ``nodes``, knowing the positions this one knew: an edit never changes the position of
        a node it keeps (ids are never reused), and a move played or undone on 15×15 replayed each one."""
        tree = replace(self, nodes=_freeze(nodes), next_id=self.next_id if next_id is None else next_id)
        tree._positions.update((node, position) for node, position in self._positions.items() if node not in gone)
        return tree


# --- derived views ---------------------------------------------------------------


def annotation(tree: GameTree, node_id: NodeId, answers: Answers | None = None) -> str:
    """The move's mark, from the exact values of the board's ``answers`` (by default the engine's own): ``??`` a
    mistake (the mover's value drops), ``?!`` an inaccuracy (the value kept, but a slower win or a quicker loss),
    ``!`` the only move keeping a win or a draw where there was a choice; empty for any other best move (the marks
    of ``engine.explain``'s verdicts), and on a searched board.

    :raises BoardTooLargeError: 13 to 16 cells with no ``answers`` given."""
    node = tree.node(node_id)
    if node.parent is None:
        return ""
    answers = answers_given(tree.root_position.geometry, answers)
    if not answers.exact:  # no exact values to judge it by
        return ""
    assert node.move is not None  # pragma: no mutate - a node with a parent has its move
    before = answers.analyze(tree.position(node.parent))
    if before.value is None:
        return ""
    played = before.move(node.move)
    if played is None or played.value is None:
        return ""
    if played.value < before.value:
        return "??"
    if played.remoteness != before.remoteness:
        return "?!"
    if (
        before.value is not Value.LOSS
        and len(before.moves) > 1
        and sum(1 for m in before.moves if m.value == before.value) == 1
    ):
        return "!"
    return ""


def transpositions(tree: GameTree, node_id: NodeId) -> tuple[NodeId, ...]:
    """Other nodes whose position equals this node's."""
    target = tree.position(node_id)
    return tuple(other for other in tree.walk() if other != node_id and tree.position(other) == target)


def symmetric_twins(tree: GameTree, node_id: NodeId, answers: Answers | None = None) -> tuple[NodeId, ...]:
    """Other nodes whose position is this one's up to symmetry, but not equal to it (classes numbered by the board's
    ``answers`` up to 16 cells: :func:`~workbench.engine.analysis.class_key`).

    :raises BoardTooLargeError: 13 to 16 cells with no ``answers`` given."""
    target = tree.position(node_id)
    target_class = class_key(target, answers)
    twins = []
    for other in tree.walk():
        position = tree.position(other)
        if other != node_id and position != target and position.ply == target.ply:
            if class_key(position, answers) == target_class:
                twins.append(other)
    return tuple(twins)


# --- move text -------------------------------------------------------------------


class MoveTextError(InputError):
    """Move text that does not import; names the first bad token and where it stands."""

    def __init__(self, message: str, *, token: str, column: int) -> None:
        super().__init__(message)
        self.token = token
        self.column = column


def export_movetext(tree: GameTree) -> str:
    """Moves named as the board names them (``5`` on 3×3, ``h8`` elsewhere:
    :func:`~workbench.engine.geometry.cell_name`), the main line first, variations in parentheses like PGN.

    A board other than the classic one is named first, as ``[Variant "4x4k4-misere"]``; a set-up root
    next, as ``[Setup "X../.../..."]``; comments as ``{…}``.
    """
    parts: list[str] = []
    geometry = tree.root_position.geometry
    if geometry != TIC_TAC_TOE:
        parts.append(f'[Variant "{format_variant(geometry)}"]')
    if tree.root_position != Position.empty(tree.root_position.geometry):
        parts.append(f'[Setup "{format_position(tree.root_position)}"]')
    root_comment = tree.node(ROOT).comment
    if root_comment:
        parts.append(_comment_token(root_comment))
    parts.extend(_export_line(tree, ROOT))
    return " ".join(parts)


def _comment_token(comment: str) -> str:
    """A comment as ``{…}``, a ``}`` in it written twice, so that it reads back as it was (PGN's own comments cannot
    hold a ``}`` at all). A doubled ``}`` never stood in valid move text before (a comment then a stray brace), so
    text written before reads as it did, backslashes and all."""
    return "{" + comment.replace("}", "}}") + "}"


def _comment_text(token: str) -> str:
    """The comment a ``{…}`` token holds: :func:`_comment_token` undone."""
    return token[1:-1].replace("}}", "}")


def _move_tokens(tree: GameTree, node_id: NodeId) -> list[str]:
    node = tree.node(node_id)
    tokens = [cell_name(node.move, tree.root_position.geometry)]
    if node.comment:
        tokens.append(_comment_token(node.comment))
    return tokens


def _export_line(tree: GameTree, node_id: NodeId) -> list[str]:
    parts: list[str] = []
    current = tree.node(node_id)
    while current.children:
        main, *alternatives = current.children
        parts.extend(_move_tokens(tree, main))
        for alternative in alternatives:
            inner = _move_tokens(tree, alternative) + _export_line(tree, alternative)
            parts.append("(" + " ".join(inner) + ")")
        current = tree.node(main)
    return parts


_TOKEN = re.compile(r'\s*(?:(\[(?:Setup|Variant)\s+"[^"]*"\])|(\{(?:[^}]|\}\})*\})|([()])|([^\s(){}\[\]]+)|(\S))')


def _bad_token(token: str, column: int, reason: str) -> MoveTextError:
    shown = (
        repr(token) if len(token) <= 40 else repr(token[:38])[:-1] + "…'"
    )  # a 5,000-digit "move" is not echoed whole
    return MoveTextError(f"invalid move text: {shown} at column {column}: {reason}", token=token, column=column)


def import_movetext(text: str, geometry=None) -> GameTree:
    """Parse :func:`export_movetext` output (and hand-written move lists) into a tree.

    Cells are numbers or coordinates on any board, separated by spaces or commas; on a board of at most nine
    cells ``519`` is three moves, and coordinates may run together (``h8h9``).
    A ``[Variant "…"]`` header names the board (the classic one without it); where ``geometry`` is given,
    the text must be of that board.

    :raises MoveTextError: naming the first bad token and its 1-based column.
    """
    root_position = Position.empty() if geometry is None else Position.empty(geometry)
    tree: GameTree | None = None
    headers = 0
    current = ROOT
    stack: list[tuple[NodeId, int]] = []  # where each open variation returns to, and its column
    index = 0
    # a match is always of exactly one alternative; None once only white space is left
    while (match := _TOKEN.match(text, index)) is not None:
        setup, comment, paren, word, stray = match.groups()
        alternative = match.lastindex
        assert alternative is not None  # pragma: no mutate - each alternative is one group
        column = match.start(alternative) + 1
        token = match.group(alternative)
        index = match.end()

        if setup and setup.startswith("[Variant"):
            if tree is not None or headers:
                raise _bad_token(token, column, "the variant must come first")
            headers += 1
            try:
                named = parse_variant(setup[setup.index('"') + 1 : -2])
            except VariantError as error:
                raise _bad_token(token, column, str(error)) from None
            if geometry is not None and named != geometry:
                raise _bad_token(
                    token,
                    column,
                    f"this board is {format_variant(geometry)}: start a game of {format_variant(named)} first",
                )
            root_position = Position.empty(named)
            continue
        if setup:
            if tree is not None:
                raise _bad_token(token, column, "a set-up must come first")
            headers += 1
            body = setup[setup.index('"') + 1 : -2]
            try:
                root_position = parse_position(body, root_position.geometry)
            except (NotationError, IllegalPositionError) as error:
                raise _bad_token(token, column, str(error)) from None
            continue
        if tree is None:
            tree = GameTree.new(root_position)
        if comment:
            tree = tree.with_comment(current, _comment_text(comment).strip())
        elif paren == "(":
            parent = tree.node(current).parent
            if parent is None:
                raise _bad_token(token, column, "a variation needs a move before it")
            stack.append((current, column))
            current = parent
        elif paren == ")":
            if not stack:
                raise _bad_token(token, column, "no variation to close")
            current = stack.pop()[0]
        elif word:
            # each move with its own column, so that an error points at the move in ``5,5``, ``515`` or ``h8h8``
            geometry = root_position.geometry
            for offset, cell_text in split_cell_tokens(word, geometry):
                cell_column = column + offset
                try:
                    cell = parse_cell_name(cell_text, geometry)
                except GeometryError:
                    what = "no such cell" if cell_text.isdigit() and cell_text.isascii() else "not a cell"
                    raise _bad_token(cell_text, cell_column, f"{what} ({cell_range(geometry)})") from None
                if tree.child_with_move(current, cell) is not None:
                    # a second variation with the same move would merge into the first and lose its comment
                    raise _bad_token(cell_text, cell_column, "this move is already a line here")
                try:
                    tree, current = tree.add_move(current, cell)
                except IllegalMoveError as error:
                    raise _bad_token(cell_text, cell_column, error.reason) from None
        else:
            raise _bad_token(token, column, "unexpected character")
    if stack:
        raise _bad_token("(", stack[-1][1], "a variation is not closed")
    return tree if tree is not None else GameTree.new(root_position)


__all__ = [
    "GameTree",
    "MoveListError",
    "MoveTextError",
    "Node",
    "NodeId",
    "ROOT",
    "annotation",
    "export_movetext",
    "import_movetext",
    "symmetric_twins",
    "transpositions",
]
