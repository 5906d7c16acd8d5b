"""The History pane: the tree of variations and a value strip of the current line."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar, Self

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Region
from textual.reactive import reactive
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from ..engine import Player, Status, analyze
from ..engine.analysis import class_id
from ..engine.review import review_line, score
from ..state import ROOT, AppState, GameTree, NodeId, annotation
from ..state.actions import (
    Back,
    DeleteVariation,
    Forward,
    JumpTo,
    PromoteToMainLine,
    PromoteVariation,
)
from .lines import LinesView, LineWriter, ResolvedParts, ellipsis
from .messages import dispatch


def move_label(tree: GameTree, node_id: NodeId) -> str:
    """``3. 5`` for X's move, ``3… 1`` for O's, numbered like chess."""
    node = tree.node(node_id)
    ply = tree.ply(node_id)  # marks after the move
    number = (ply + 1) // 2
    mover = tree.position(node.parent).turn if node.parent is not None else Player.X
    return f"{number}. {node.move}" if mover is Player.X else f"{number}… {node.move}"


def outcome_for_x(tree: GameTree, node_id: NodeId) -> int:
    """+1 when X wins with best play from this node, 0 for a draw, -1 when O wins."""
    position = tree.position(node_id)
    status = position.status
    if status is Status.X_WON:
        return 1
    if status is Status.O_WON:
        return -1
    if status is Status.DRAW:
        return 0
    value = analyze(position).value
    return int(value) if position.turn is Player.X else -int(value)


class VariationTree(ResolvedParts, Tree[NodeId]):
    """The variation tree: main line flat, alternatives nested under the move they replace.

    `??` marks a mistake, `?!` an inaccuracy, `!` the only move that keeps the value; `≡` a position
    that occurs elsewhere in the tree, `≈` one that occurs up to symmetry.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = Tree.COMPONENT_CLASSES | {
        "history--mistake", "history--inaccurate", "history--only", "history--current",
    }  # fmt: skip

    # ← → Home End ↑ ↓ step through the game from every pane: they are the app's bindings
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "cursor_up", "Up a line of the tree", show=False),
        Binding("j", "cursor_down", "Down a line of the tree", show=False),
        Binding("p", "promote", "Promote"),
        Binding("P", "promote_main", "To main line"),
        Binding("delete,d", "delete_variation", "Delete"),
        Binding("t", "twin", "Jump to twin", show=False),
    ]

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("Start"), data=ROOT, id=id)  # a Text: no markup parser at start-up
        self.auto_expand = False
        self.show_root = True
        # not ``_tree_nodes``: Textual's Tree keeps its own dict by that name
        self._view_nodes: dict[NodeId, TreeNode[NodeId]] = {}
        self._twins: dict[NodeId, tuple[NodeId, ...]] = {}
        self._shown_tree: GameTree | None = None
        self._shown_ready = False
        self._updating_scrollbars = False

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        """Textual's Tree asks for a layout of the whole screen whenever its nodes change. Its box is
        set by the CSS, not by its lines, so only a scrollbar that comes or goes needs one; a shown
        scrollbar's thumb is set here directly (a layout of the whole screen costs 10–20 ms a key)."""
        if layout and self.is_mounted and not self._updating_scrollbars:
            shown = (self.show_horizontal_scrollbar, self.show_vertical_scrollbar)
            self._updating_scrollbars = True
            try:
                # Textual's own update after a layout: visibility (asking for the layout itself when it
                # changes), the thumbs' sizes, and the scroll offset kept within the new lines
                self._scroll_update(self.virtual_size)
            finally:
                self._updating_scrollbars = False
            layout = shown != (self.show_horizontal_scrollbar, self.show_vertical_scrollbar)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def watch_state(self, old: AppState | None, new: AppState | None) -> None:
        if new is None:
            return
        if new.tree is not self._shown_tree or self.ready != self._shown_ready:
            if self.ready != self._shown_ready or not self._update_one_leaf(new.tree):
                self._rebuild(new.tree)
        elif old is not None and old.cursor != new.cursor:
            # the current node is drawn in its own colours: both lines change, and Tree caches lines per node
            for node_id in (old.cursor, new.cursor):
                if node_id in self._view_nodes:
                    self._view_nodes[node_id].refresh()
        if old is None or old.cursor != new.cursor or old.tree is not new.tree:
            self._follow_cursor()

    def watch_ready(self) -> None:
        self.repaint_labels()  # the marks need the engine's tables

    def repaint_labels(self) -> None:
        """Build every label again: they hold their marks, and the colours of the theme they were built in."""
        if self.state is not None:
            self._rebuild(self.state.tree)
            self._follow_cursor()

    def _rebuild(self, tree: GameTree) -> None:
        self._shown_tree = tree
        self._shown_ready = self.ready
        self._twins = self._find_twins(tree)
        self.clear()
        self.root.label = self._label(tree, ROOT)
        self.root.data = ROOT
        self._view_nodes = {ROOT: self.root}
        self._add_line(tree, self.root, ROOT)
        self.root.expand_all()

    def _update_one_leaf(self, tree: GameTree) -> bool:
        """A move played, or taken back by an undo, is one leaf more or less: change that line of the view
        and the labels whose twin marks it changes, instead of building every line again. False when the
        trees differ otherwise; the caller then rebuilds."""
        shown = self._shown_tree
        if shown is None:
            return False
        added = _one_leaf_more(shown, tree)
        removed = None if added is not None else _one_leaf_more(tree, shown)
        if added is None and removed is None:
            return False
        self._shown_tree = tree
        if added is not None:
            self._add_leaf(tree, added)
        else:
            self._remove_leaf(shown, removed)  # type: ignore[arg-type]
        twins, self._twins = self._twins, self._find_twins(tree)
        for node_id in twins.keys() | self._twins.keys():
            if node_id in tree and twins.get(node_id) != self._twins.get(node_id):
                self._relabel(tree, node_id)
        if added is not None:
            self._relabel(tree, added)
        return True

    def _add_leaf(self, tree: GameTree, leaf: NodeId) -> None:
        parent = tree.node(leaf).parent
        assert parent is not None
        main = tree.node(parent).children[0]
        # the line going on follows its parent in the same list of lines; a new variation nests under the
        # move it replaces
        holder = self._line_holder(tree, parent) if main == leaf else self._view_nodes[main]
        self._view_nodes[leaf] = holder.add_leaf(Text(), data=leaf)  # labelled with the twins' relabelling
        if not holder.allow_expand:
            holder.allow_expand = True
            holder.expand()

    def _remove_leaf(self, shown: GameTree, leaf: NodeId) -> None:
        parent = shown.node(leaf).parent
        assert parent is not None
        main = shown.node(parent).children[0]
        holder = self._line_holder(shown, parent) if main == leaf else self._view_nodes[main]
        self._view_nodes.pop(leaf).remove()
        if holder is not self.root and not holder.children:
            holder.allow_expand = False

    def _line_holder(self, tree: GameTree, node_id: NodeId) -> TreeNode[NodeId]:
        """The view node whose children are the rest of ``node_id``'s line: the root's and a variation's
        own node, and for a main move the holder of the move it follows (lines are drawn flat)."""
        parent = tree.node(node_id).parent
        while parent is not None and tree.node(parent).children[0] == node_id:
            node_id, parent = parent, tree.node(parent).parent
        return self._view_nodes[node_id]

    def _relabel(self, tree: GameTree, node_id: NodeId) -> None:
        label = self._label(tree, node_id)
        parent = tree.node(node_id).parent
        if parent is not None and tree.node(parent).children[0] != node_id:
            label = Text("( ") + label
        self._view_nodes[node_id].set_label(label)

    def _find_twins(self, tree: GameTree) -> dict[NodeId, tuple[NodeId, ...]]:
        """Nodes sharing a position (≡) or, once tables are ready, a symmetry class (≈)."""
        groups: dict[object, list[NodeId]] = {}
        for node_id in tree.walk():
            position = tree.position(node_id)
            key = ("class", class_id(position)) if self.ready else ("key", position.key)
            groups.setdefault(key, []).append(node_id)
        return {node_id: tuple(n for n in group if n != node_id) for group in groups.values() for node_id in group if len(group) > 1}

    def _label(self, tree: GameTree, node_id: NodeId) -> Text:
        node = tree.node(node_id)
        text = Text("Start" if node_id == ROOT else move_label(tree, node_id))
        if node_id != ROOT and self.ready:
            mark = annotation(tree, node_id)
            if mark:
                part = {"??": "history--mistake", "?!": "history--inaccurate", "!": "history--only"}[mark]
                text.append(mark, style=self.part(part))
        twins = self._twins.get(node_id, ())
        if twins:
            position = tree.position(node_id)
            same = any(tree.position(t) == position for t in twins)
            text.append(" ≡" if same else " ≈", style="bold")
        if node.comment:
            text.append(f"  {node.comment}", style="italic dim")
        return text

    def _add_line(self, tree: GameTree, parent: TreeNode[NodeId], start: NodeId) -> None:
        current = start
        while tree.node(current).children:
            main, *alternatives = tree.node(current).children
            has_alternatives = bool(alternatives)
            branch = parent.add(self._label(tree, main), data=main, expand=True, allow_expand=has_alternatives) if has_alternatives else parent.add_leaf(self._label(tree, main), data=main)
            self._view_nodes[main] = branch
            for alternative in alternatives:
                label = Text("( ") + self._label(tree, alternative)
                if tree.node(alternative).children:
                    alt_node = branch.add(label, data=alternative, expand=True)
                else:
                    alt_node = branch.add_leaf(label, data=alternative)
                self._view_nodes[alternative] = alt_node
                self._add_line(tree, alt_node, alternative)
            current = main

    def _follow_cursor(self) -> None:
        """Put the tree's cursor on the state's node now, not a frame later."""
        if self.state is None:
            return
        node = self._view_nodes.get(self.state.cursor)
        if node is None:
            return
        self._tree_lines  # noqa: B018 - builds the lines, so the node knows its line
        if self.cursor_node is not node:
            self.move_cursor(node)

    def render_label(self, node: TreeNode[NodeId], base_style, style):  # type: ignore[override]
        label = super().render_label(node, base_style, style)
        if self.state is not None and node.data == self.state.cursor:
            label.stylize(self.part("history--current"))
        return label

    def action_cursor_up(self) -> None:
        """The board goes to the line above: the tree never lights a node the board is not on."""
        self._jump_to_line(self.cursor_line - 1)

    def action_cursor_down(self) -> None:
        self._jump_to_line(self.cursor_line + 1)

    def _jump_to_line(self, line: int) -> None:
        lines = self._tree_lines
        if 0 <= line < len(lines) and lines[line].node.data is not None:
            dispatch(self, JumpTo(node=lines[line].node.data))

    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeId]) -> None:
        event.stop()
        if event.node.data is not None:
            dispatch(self, JumpTo(node=event.node.data))

    def _on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()  # the wheel steps through the game, as on an analysis board
        event.prevent_default()
        dispatch(self, Forward())

    def _on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        event.prevent_default()
        dispatch(self, Back())

    def action_promote(self) -> None:
        dispatch(self, PromoteVariation())

    def action_promote_main(self) -> None:
        dispatch(self, PromoteToMainLine())

    def action_delete_variation(self) -> None:
        dispatch(self, DeleteVariation())

    def action_twin(self) -> None:
        """Jump to the next node holding the same position (or its mirror image)."""
        if self.state is None:
            return
        twins = self._twins.get(self.state.cursor, ())
        if twins:
            later = [t for t in twins if t > self.state.cursor]
            dispatch(self, JumpTo(node=(later or list(twins))[0]))
        else:
            self.notify("No transposition of this position in the tree.", timeout=2)


def _one_leaf_more(fewer: GameTree, more: GameTree) -> NodeId | None:
    """The node ``more`` has as its parent's last child beyond ``fewer``, when that is all that differs."""
    if len(more.nodes) != len(fewer.nodes) + 1 or more.root_position != fewer.root_position:
        return None
    extra = more.nodes.keys() - fewer.nodes.keys()
    if len(extra) != 1:
        return None
    (leaf,) = extra
    parent = more.nodes[leaf].parent
    if parent is None or more.nodes[leaf].children:
        return None
    before = fewer.nodes[parent]
    if more.nodes[parent] != replace(before, children=before.children + (leaf,)):
        return None
    for node_id, node in fewer.nodes.items():  # an edit shares every node it leaves alone
        if node_id != parent and more.nodes[node_id] is not node and more.nodes[node_id] != node:
            return None
    return leaf


class ValueStrip(LinesView):
    """One cell per ply of the current line, coloured by the exact outcome; click to jump."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"strip--x", "strip--o", "strip--draw", "strip--current", "strip--future"}
    DEFAULT_CSS = """
    ValueStrip { height: 1; }
    """
    CELL_WIDTH = 3
    """Each ply's cell, narrowed to 2 when the whole line would not fit so (ten cells in 28 columns)."""

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    def view_slice(self, state: AppState) -> object:
        return state.tree, state.cursor

    def _line(self) -> tuple[NodeId, ...]:
        return self.state.tree.current_line(self.state.cursor) if self.state is not None else ()

    def build(self, writer: LineWriter) -> None:
        if self.state is None or not self.ready:
            return

        def style(name: str):
            return self.get_component_rich_style(name) + self.part(name)

        tree = self.state.tree
        path_length = len(tree.path(self.state.cursor))
        cell_width = self._cell_width()
        for index, node_id in enumerate(self._line()):
            node = tree.node(node_id)
            outcome = outcome_for_x(tree, node_id)
            cell_style = style({1: "strip--x", 0: "strip--draw", -1: "strip--o"}[outcome])
            if node_id == self.state.cursor:
                cell_style += self.get_component_rich_style("strip--current", partial=True)
            elif index >= path_length:
                cell_style += self.get_component_rich_style("strip--future", partial=True)
            label = "·" if node.move is None else str(node.move)
            writer.write(label.center(cell_width), cell_style)

    def _cell_width(self) -> int:
        return self.CELL_WIDTH if len(self._line()) * self.CELL_WIDTH <= self.size.width else self.CELL_WIDTH - 1

    def on_click(self, event: events.Click) -> None:
        index = event.x // self._cell_width()
        line = self._line()
        if 0 <= index < len(line):
            dispatch(self, JumpTo(node=line[index]))


class LineScore(LinesView):
    """Each side's accuracy over the current line: the share of its moves that were best."""

    DEFAULT_CSS = """
    LineScore { height: 1; }
    """

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    def view_slice(self, state: AppState) -> object:
        return state.tree, state.tree.current_line(state.cursor)

    def build(self, writer: LineWriter) -> None:
        if self.state is None or not self.ready:
            return
        tree = self.state.tree
        cells = [tree.node(node_id).move for node_id in tree.current_line(self.state.cursor)[1:]]
        reviews = review_line(tree.root_position, cells)  # type: ignore[arg-type]
        parts = []
        for player in (Player.X, Player.O):
            side = score(reviews, player)
            parts.append(f"{player.value} —" if side.accuracy is None else f"{player.value} {side.accuracy:.0%}")
        writer.write(ellipsis("accuracy " + " · ".join(parts), self.size.width))


HISTORY_LEGEND = "?? mistake · ?! inaccuracy\n! only move · ≡ ≈ twins"


class HistoryPane(Vertical):
    """History: the variation tree, and below it the value of every ply of the current line."""

    ALLOW_MAXIMIZE = True

    # passed down to the views; the container itself draws nothing from them
    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    def compose(self) -> ComposeResult:
        yield VariationTree(id="variation-tree").data_bind(HistoryPane.state, HistoryPane.ready)
        yield ValueStrip(id="value-strip").data_bind(HistoryPane.state, HistoryPane.ready)
        yield LineScore(id="line-score").data_bind(HistoryPane.state, HistoryPane.ready)
        yield Static(HISTORY_LEGEND, id="history-legend", markup=False)

    def on_mount(self) -> None:
        self.border_title = "History"
