"""The variation tree's layout, pure: which line each node is drawn on, and behind which guides (no widget, no
styles; a move's label is :func:`workbench.engine.position.move_label`).

The main line is drawn as one line, as an analysis board writes it: its moves one under another down a column,
with no guides. A variation hangs as a branch right under the move it replaces, ``├── `` or ``└── `` from that
move's first cell, and its own moves run on down a column inside the branch (``│   `` down the left while another
branch at that level is still to come); a variation of a variation hangs from its move in the same way, and the
line it left goes on below its branches. The two cells before a move's label hold ``▼ `` over the branches under
it (``▶ `` when they are folded away), where the branches' guides start; a variation's first move has the ``( ``
that opens it there (no branch hangs from it: its rivals hang beside it, from the move they all replace). A study
in 28 columns, its comment cut::

      Start
      1. 1
    ▼ 1… 2??
    └── ( 1… 5!  the centre hol…
      2. 4
    ▼ 2… 7
    ├── ( 2… 3?!
    │     3. 9?!
    ├── ( 2… 5?!
    │     3. 6??
    │   ▼ 3… 3??
    │   └── ( 3… 8
    └── ( 2… 9?!
      3. 5!
      3… 9
      4. 6!
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment

from ...engine import Position
from ...engine.analysis import class_key
from ...engine.answers import Answers
from ...state import ROOT, GameTree, NodeId

EXPANDED, COLLAPSED = "▼ ", "▶ "
GUTTER = "  "
"""The expander's two cells on a move with no branches under it: the labels of a line stand in one column."""
BRANCH, LAST_BRANCH, ONGOING, ENDED = "├── ", "└── ", "│   ", "    "


@dataclass(frozen=True, slots=True)
class TreeLine:
    """One drawn line: the node, the cells in front of its expander (the branches' guides, and the blank gutter
    of a move with no expander), its expander (``▼ ``, ``▶ `` or none) and how many branches deep it hangs (0 on
    the main line)."""

    node: NodeId
    guides: str
    expander: str
    depth: int


def view_children(tree: GameTree, node_id: NodeId) -> tuple[NodeId, ...]:
    """The variations that hang as branches under ``node_id``: its parent's other moves when it is the parent's
    first choice, the move they replace; none under the start or under a variation's first move (its rivals hang
    beside it, under the move they all replace). Each branch draws its variation's whole line."""
    parent = tree.node(node_id).parent
    if parent is None:
        return ()
    siblings = tree.node(parent).children
    return siblings[1:] if siblings[0] == node_id else ()


def is_variation(tree: GameTree, node_id: NodeId) -> bool:
    """A move that is not its parent's first choice: a variation's first move, drawn as ``( move``."""
    parent = tree.node(node_id).parent
    return parent is not None and tree.node(parent).children[0] != node_id


def line_head(tree: GameTree, node_id: NodeId) -> NodeId:
    """The first node of the line ``node_id`` is drawn in: the start for the main line, else its variation's first
    move."""
    while True:
        parent = tree.node(node_id).parent
        if parent is None or tree.node(parent).children[0] != node_id:
            return node_id
        node_id = parent


def view_parent(tree: GameTree, node_id: NodeId) -> NodeId | None:
    """The move whose branch holds ``node_id``'s line (its fold hides it); None on the main line. The inverse of
    :func:`view_children` for a variation's first move, and the same move for the rest of its line."""
    parent = tree.node(line_head(tree, node_id)).parent
    return None if parent is None else tree.node(parent).children[0]


def tree_lines(tree: GameTree, collapsed: frozenset[NodeId] = frozenset()) -> tuple[TreeLine, ...]:
    """Every drawn line, top to bottom: each line of moves down a column, each move followed by the branches that
    hang under it and then by the rest of its line. A branch starts ``├── `` when another follows it at its level
    and ``└── `` when it is the last, and its lines are drawn behind ``│   `` or ``    `` accordingly. A node in
    ``collapsed`` is drawn ``▶ `` and its branches are not drawn."""
    lines: list[TreeLine] = []
    # (node, the guides before it, the guides before the rest of its line, depth)
    stack: list[tuple[NodeId, str, str, int]] = [(ROOT, "", "", 0)]
    while stack:
        node_id, guides, rest, depth = stack.pop()
        branches = view_children(tree, node_id)
        expander = "" if not branches else COLLAPSED if node_id in collapsed else EXPANDED
        gutter = "" if expander or is_variation(tree, node_id) else GUTTER  # a variation's "( " stands there
        lines.append(TreeLine(node_id, guides + gutter, expander, depth))
        children = tree.node(node_id).children
        if children:
            stack.append((children[0], rest, rest, depth))  # drawn after the branches, pushed before them
        if branches and node_id not in collapsed:
            for index in reversed(range(len(branches))):
                first, then = (LAST_BRANCH, ENDED) if index == len(branches) - 1 else (BRANCH, ONGOING)
                stack.append((branches[index], rest + first, rest + then, depth + 1))
    return tuple(lines)


def cut_to(segments: list[Segment], width: int) -> list[Segment]:
    """``segments`` cut to ``width`` cells, the last of them "…" (in the style of the text cut) where any was cut."""
    if sum(cell_len(segment.text) for segment in segments) <= width:
        return segments
    if width <= 0:
        return []
    cut: list[Segment] = []
    room = width - 1
    for segment in segments:
        length = cell_len(segment.text)
        if length <= room:
            cut.append(segment)
            room -= length
            continue
        cut.append(Segment(set_cell_size(segment.text, room) + "…", segment.style))
        break
    return cut


def find_twins(
    tree: GameTree, positions: dict[NodeId, Position], answers: Answers | None
) -> dict[NodeId, tuple[NodeId, ...]]:
    """Nodes sharing a position (≡), or given the board's ``answers`` (made ready) a symmetry class (≈);
    ``positions`` are :func:`tree_positions`."""
    groups: dict[object, list[NodeId]] = {}
    for node_id in tree.walk():
        position = positions[node_id]
        key = ("class", class_key(position, answers)) if answers is not None else ("key", position.key)
        groups.setdefault(key, []).append(node_id)
    return {
        node_id: tuple(n for n in group if n != node_id)
        for group in groups.values()
        for node_id in group
        if len(group) > 1
    }


def tree_positions(tree: GameTree) -> dict[NodeId, Position]:
    """Every node's position (the tree keeps each, played from its parent's)."""
    return {node_id: tree.position(node_id) for node_id in tree.walk()}
