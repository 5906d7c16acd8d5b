"""The variation tree of the History pane, drawn from the store's tree with the line API.

How the lines hang is :mod:`.tree_layout`'s (the layout, pure); this module draws them.

A line wider than the box is cut with "…" (a long comment, a deep branch in a narrow pane), never scrolled
sideways: a horizontal scrollbar took the last row of the box, and the board's line with it.

Each line is a key (its guides, its label's runs of text and styles, whether it is the board's node) and its strip
is kept per key and width, so a step through the game redraws the two lines whose colours change and nothing else,
and a move played redraws the lines it adds or moves.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...engine import Position
from ...engine.answers import Answers
from ...engine.position import move_label
from ...state import AppState, GameTree, NodeId, annotation
from ...state.actions import (
    DeleteVariation,
    JumpTo,
    PromoteToMainLine,
    PromoteVariation,
)
from ..messages import WheelStepsThroughGame, dispatch
from ..textual_ext import LinesWithoutLayout, OwnScrollBars
from .lines import PaneScrollBar, ResolvedParts, fitted_strip, render_kept_lines
from .tree_layout import (
    TreeLine as TreeLine,
    cut_to as cut_to,
    find_twins as find_twins,
    is_variation as is_variation,
    line_head as line_head,
    tree_lines as tree_lines,
    tree_positions as tree_positions,
    view_children as view_children,
    view_parent as view_parent,
)

MARK_PARTS = {"??": "history--mistake", "?!": "history--inaccurate", "!": "history--only"}
COMMENT_STYLE = Style(italic=True, dim=True)
TWIN_STYLE = Style(bold=True)


Run = tuple[str, str | None]
"""A run of a label's text and the name of its style: a component class, "twin" or "comment"."""


class VariationTree(
    WheelStepsThroughGame, LinesWithoutLayout, ResolvedParts, OwnScrollBars, ScrollView, can_focus=True
):
    """The variation tree: the main line down a column, variations branching from the move they replace.

    `??` marks a mistake, `?!` an inaccuracy, `!` the only move that keeps the value; `≡` a position
    that occurs elsewhere in the tree, `≈` one that occurs up to symmetry. The board's node is always
    the lit line; a click on a line goes there, a click on ``▼`` folds the variations under it away.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "history--mistake",
        "history--inaccurate",
        "history--only",
        "history--current",
        "history--guides",
    }

    # ← → Home End ↑ ↓ step through the game from every pane: they are the app's bindings
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "cursor_up", "Up a line of the tree", show=False),
        Binding("j", "cursor_down", "Down a line of the tree", show=False),
        Binding("p", "promote", "Promote"),
        Binding("P", "promote_main", "To main line"),
        Binding("delete,d", "delete_variation", "Delete"),
        Binding("t", "twin", "Jump to twin", show=False),
        Binding("minus", "fold", "Fold or unfold the variations here", show=False, key_display="-"),
    ]

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    VERTICAL_SCROLLBAR = PaneScrollBar
    STRIPS_KEPT: ClassVar[int] = 4096
    """Drawn lines kept for reuse; a tree of a few hundred moves and its lit lines fit many times over."""
    TREES_KEPT: ClassVar[int] = 4
    """Trees whose labels are kept: a played move's tree, undone and redone, is labelled once."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: tuple[TreeLine, ...] = ()
        self._line_of: dict[NodeId, int] = {}
        self._keys: list[tuple] = []
        self._labels: dict[NodeId, tuple[Run, ...]] = {}
        self._twins: dict[NodeId, tuple[NodeId, ...]] = {}
        self._answers: Answers | None = None
        """The board's answers the marks and classes are read from, once ready."""
        self._shown: tuple[GameTree | None, bool] = (None, False)
        self._kept_labels: list[
            tuple[GameTree, bool, dict[NodeId, tuple[NodeId, ...]], dict[NodeId, tuple[Run, ...]]]
        ] = []
        """The twins and labels of the last few trees shown, newest first: an undone edit brings its tree back."""
        self._laid_out: tuple[GameTree | None, frozenset[NodeId]] = (None, frozenset())
        self._collapsed: frozenset[NodeId] = frozenset()
        self._marks: dict[tuple[Position, int | None], str] = {}
        self._strips: dict[tuple, Strip] = {}

    # --- what is drawn -------------------------------------------------------------------------

    @property
    def lines(self) -> tuple[TreeLine, ...]:
        """The lines drawn, top to bottom (scrolled or not)."""
        return self._lines

    def line_of(self, node_id: NodeId) -> int | None:
        """The line that draws ``node_id``; None when it is folded away."""
        return self._line_of.get(node_id)

    def label(self, node_id: NodeId) -> str:
        """``node_id``'s label as drawn: its move, marks and comment."""
        return "".join(text for text, _ in self._labels.get(node_id, ()))

    def watch_state(self, old: AppState | None, new: AppState | None) -> None:
        if new is not None:
            self._update(new)

    def watch_ready(self) -> None:
        if self.state is not None:
            self._update(self.state)

    def redraw_lines(self) -> None:
        """Draw every line again, in the colours of the CSS now in force."""
        self._strips.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def _update(self, state: AppState) -> None:
        """Lay out the lines again where the tree changed, then repaint only the rows whose lines differ."""
        tree = state.tree
        relabelled = self._shown[0] is not tree or self._shown[1] != self.ready  # trees compare node by node: is
        if relabelled:
            self._shown = (tree, self.ready)
            kept = next((k for k in self._kept_labels if k[0] is tree and k[1] == self.ready), None)
            if kept is None:  # an equal tree made again (a move played again after its undo): the same labels
                kept = next((k for k in self._kept_labels if k[1] == self.ready and k[0] == tree), None)
            if kept is not None:
                self._twins, self._labels = kept[2], kept[3]
            else:
                positions = tree_positions(tree)  # each once: the labels and the twins both read them
                self._answers = state.board_answers if self.ready else None
                self._twins = find_twins(tree, positions, self._answers)
                self._labels = {node_id: self._label(tree, positions, node_id) for node_id in tree.walk()}
                self._kept_labels = [
                    (tree, self.ready, self._twins, self._labels),
                    *self._kept_labels[: self.TREES_KEPT - 1],
                ]
        self._collapsed = frozenset(n for n in self._collapsed if n in tree) - self._folds_over(tree, state.cursor)
        relaid = self._laid_out[0] is not tree or self._laid_out[1] != self._collapsed
        if relaid:
            self._laid_out = (tree, self._collapsed)
            self._lines = tree_lines(tree, self._collapsed)
            self._line_of = {line.node: y for y, line in enumerate(self._lines)}
        if relabelled or relaid:  # a step through the game changes neither
            self.sizing_lines = True  # the rows that differ are repainted below, not the whole box (fast path)
            try:
                # no width: a line wider than the box is cut with "…" (_strip), never scrolled sideways
                self.virtual_size = Size(0, len(self._lines))
            finally:
                self.sizing_lines = False
            if not self.sizing_lines_is_quiet:
                # Textual's layout may bring the vertical thumb, or a new height: followed again once laid out
                self.call_after_refresh(self._follow_the_cursor)
        old_keys = self._keys
        self._keys = [self._key(line, state.cursor) for line in self._lines]
        self._follow_cursor(state.cursor)
        # the rows left of the vertical scrollbar: a row's repaint that took the bar's column in drew the bar again
        top, room = self.scroll_offset.y, self.size.width - self.scrollbar_size_vertical
        changed = [
            Region(0, y - top, room, 1)
            for y in range(top, top + self.size.height)
            if (old_keys[y] if y < len(old_keys) else None) != (self._keys[y] if y < len(self._keys) else None)
        ]
        if changed:  # one refresh for them all: each call costs Textual a walk of its own
            self.refresh(*changed)

    def _folds_over(self, tree: GameTree, node_id: NodeId) -> frozenset[NodeId]:
        """The nodes whose nested lines hold ``node_id``: unfolded, so that the board's node always shows."""
        above = set()
        current = view_parent(tree, node_id)
        while current is not None:
            above.add(current)
            current = view_parent(tree, current)
        return frozenset(above)

    def _key(self, line: TreeLine, cursor: NodeId) -> tuple:
        return line.guides, line.expander, self._labels[line.node], line.node == cursor

    def _label(self, tree: GameTree, positions: dict[NodeId, Position], node_id: NodeId) -> tuple[Run, ...]:
        node = tree.node(node_id)
        if node.parent is None or node.move is None:  # the start (which alone has neither)
            runs: list[Run] = [("Start", None)]
        else:
            label = move_label(positions[node.parent], node.move)
            runs = [(("( " if is_variation(tree, node_id) else "") + label, None)]
            if self.ready:
                mark = self._mark(tree, positions[node.parent], node_id)
                if mark:
                    runs.append((mark, MARK_PARTS[mark]))
        twins = self._twins.get(node_id, ())
        if twins:
            same = any(positions[t] == positions[node_id] for t in twins)
            runs.append((" ≡" if same else " ≈", "twin"))
        if node.comment:
            runs.append((f"  {node.comment}", "comment"))
        return tuple(runs)

    def _mark(self, tree: GameTree, before: Position, node_id: NodeId) -> str:
        """The move's annotation, kept per position and move: it reads the engine's values of both."""
        key = (before, tree.node(node_id).move)
        mark = self._marks.get(key)
        if mark is None:
            mark = self._marks[key] = annotation(tree, node_id, self._answers)
        return mark

    # --- drawing -------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        return self._strip(y + self.scroll_offset.y)

    def render_lines(self, crop: Region) -> list[Strip]:
        width, top = self.size.width, self.scroll_offset.y  # read once, not once a line: each is a walk to the screen
        room = width - self.scrollbar_size_vertical
        return render_kept_lines(self, crop, super().render_lines, lambda y: self._strip(y + top, width, room), width)

    def _strip(self, index: int, width: int | None = None, room: int | None = None) -> Strip:
        """The line ``index`` of the tree, ``width`` cells (the widget's), its text cut with "…" where it is wider
        than ``room`` (the cells left of the vertical scrollbar)."""
        if width is None or room is None:
            width = self.size.width
            room = width - self.scrollbar_size_vertical
        key = (self._keys[index] if index < len(self._keys) else None, width, room)
        strip = self._strips.get(key)
        if strip is None:
            if len(self._strips) >= self.STRIPS_KEPT:
                self._strips.clear()
            base = self.rich_style
            segments = [] if key[0] is None else cut_to(self._segments(*key[0]), room)
            strip = self._strips[key] = fitted_strip(segments, base, width)
        return strip

    def _segments(self, guides: str, expander: str, runs: tuple[Run, ...], lit: bool) -> list[Segment]:
        guide_style = self.part("history--guides")
        segments = [Segment(guides + expander, guide_style)] if guides or expander else []
        current = self.part("history--current") if lit else None
        for text, name in runs:
            style = self._run_style(name)
            if current is not None:
                style = current if style is None else style + current
            segments.append(Segment(text, style))
        return segments

    def _run_style(self, name: str | None) -> Style | None:
        if name is None:
            return None
        if name == "twin":
            return TWIN_STYLE
        if name == "comment":
            return COMMENT_STYLE
        return self.part(name)

    # --- scrolling -----------------------------------------------------------------------------

    def _follow_the_cursor(self) -> None:
        if self.state is not None:
            self._follow_cursor(self.state.cursor)

    def _follow_cursor(self, cursor: NodeId) -> None:
        """Scroll the least that shows the board's line, now rather than a frame later."""
        y = self._line_of.get(cursor)
        height = self.scrollable_content_region.height
        if y is None or height <= 0:
            return
        top = self.scroll_offset.y
        if y < top:
            self.scroll_to(y=y, animate=False, immediate=True)
        elif y >= top + height:
            self.scroll_to(y=y - height + 1, animate=False, immediate=True)

    def on_resize(self) -> None:
        if self.state is not None:
            self._follow_cursor(self.state.cursor)

    # --- input ---------------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        index = event.y + self.scroll_offset.y
        if not 0 <= index < len(self._lines):
            return
        line = self._lines[index]
        column = event.x  # never scrolled sideways
        start = cell_len(line.guides)
        if line.expander and start <= column < start + cell_len(line.expander):
            self._toggle_fold(line.node)
        else:
            dispatch(self, JumpTo(node=line.node))

    def _toggle_fold(self, node_id: NodeId) -> None:
        """Fold the variations under ``node_id`` away, or show them again. A fold over the board's node
        would hide the lit line: the board goes to the folded node first."""
        if self.state is None:
            return
        if node_id in self._collapsed:
            self._collapsed -= {node_id}
        else:
            self._collapsed |= {node_id}
            if node_id in self._folds_over(self.state.tree, self.state.cursor):
                dispatch(self, JumpTo(node=node_id))  # the new state draws the fold
                return
        self._update(self.state)

    def action_fold(self) -> None:
        """Fold or unfold the variations under the board's move, or else under the move whose branch holds it, as a
        click on its ``▼`` does; on the main line, a move with none says so."""
        if self.state is None:
            return
        node_id: NodeId | None = self.state.cursor
        while node_id is not None and not view_children(self.state.tree, node_id):
            node_id = view_parent(self.state.tree, node_id)
        if node_id is not None:
            self._toggle_fold(node_id)
        else:
            self.notify("No variation here to fold.", timeout=2)

    def action_cursor_up(self) -> None:
        """The board goes to the line above: the tree never lights a node the board is not on."""
        self._jump_by(-1)

    def action_cursor_down(self) -> None:
        self._jump_by(1)

    def _jump_by(self, step: int) -> None:
        if self.state is None:
            return
        y = self._line_of.get(self.state.cursor)
        if y is not None and 0 <= y + step < len(self._lines):
            dispatch(self, JumpTo(node=self._lines[y + step].node))

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
