"""The History pane: the tree of variations and a value strip of the current line."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive

from ...engine import Player, Status
from ...engine.explain import explained, headline
from ...engine.geometry import cell_name
from ...engine.review import review_line, review_searched, score, searched_headline
from ...state import AppState, NodeId
from ...state.actions import JumpTo
from ..messages import dispatch
from .lines import LinesView, LineWriter, ellipsis, longest_that_fits
from .variation_tree import VariationTree


def outcome_for_x(state: AppState, node_id: NodeId) -> int | None:
    """+1 when X wins with best play from this node, 0 for a draw, -1 when O wins; None where it is not proven
    (a board searched move by move, where no search has proved every move of this position)."""
    position = state.tree.position(node_id)
    status = position.status
    if status is Status.X_WON:
        return 1
    if status is Status.O_WON:
        return -1
    if status is Status.DRAW:
        return 0
    if state.searched:
        found = state.search_of(position)
        value = found.value if found is not None else None
    else:
        value = state.board_answers.analyze(position).value
    if value is None:
        return None
    return int(value) if position.turn is Player.X else -int(value)


class ValueStrip(LinesView):
    """One cell per ply of the current line, coloured by the exact outcome; click to jump."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "strip--x",
        "strip--o",
        "strip--draw",
        "strip--unknown",
        "strip--current",
        "strip--future",
    }
    DEFAULT_CSS = """
    ValueStrip { height: 1; }
    """
    CELL_WIDTH = 3
    """Each ply's cell at least, a space wider than its longest name (``h10``: 4); narrowed by one when the
    whole line would not fit so (ten cells of 3×3 in 28 columns), the names then touching."""

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    def view_slice(self, state: AppState) -> object:
        # a ply's colour is its position's value, known once a search proved every move: not the node counts
        return state.tree, state.cursor, tuple((found.position, found.value) for found in state.searches)

    def _line(self) -> tuple[NodeId, ...]:
        return self.state.tree.current_line(self.state.cursor) if self.state is not None else ()

    def build(self, writer: LineWriter) -> None:
        if self.state is None or not self.ready:
            return

        def style(name: str):
            return self.get_component_rich_style(name) + self.part(name)

        tree = self.state.tree
        path_length = len(tree.path(self.state.cursor))
        cell_width, first, count = self._layout()
        for index, node_id in enumerate(self._line()[first : first + count], first):
            node = tree.node(node_id)
            outcome = outcome_for_x(self.state, node_id)
            cell_style = style({1: "strip--x", 0: "strip--draw", -1: "strip--o", None: "strip--unknown"}[outcome])
            if node_id == self.state.cursor:
                cell_style += self.get_component_rich_style("strip--current", partial=True)
            elif index >= path_length:
                cell_style += self.get_component_rich_style("strip--future", partial=True)
            writer.write(self._label(node.move).center(cell_width), cell_style)

    def _label(self, move: int | None) -> str:
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        return "·" if move is None else cell_name(move, self.state.geometry)

    def _layout(self) -> tuple[int, int, int]:
        """(each ply's width, the first ply shown, how many): the whole line where it fits, narrowed where the
        names then still have a space between them, else as many plies as fit around the board's."""
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        line = self._line()
        tree = self.state.tree
        longest = max(len(self._label(tree.node(node_id).move)) for node_id in line) if line else 1
        wide = max(self.CELL_WIDTH, longest + 1)
        width = self.size.width
        if len(line) * wide <= width:
            return wide, 0, len(line)
        narrow = wide - 1 if wide - 1 > longest else wide  # names that would touch read as one (``i9g10``)
        fit = max(1, width // narrow)
        if len(line) <= fit:
            return narrow, 0, len(line)
        here = line.index(self.state.cursor) if self.state.cursor in line else len(line) - 1
        first = max(0, min(here - fit // 2, len(line) - fit))
        return narrow, first, fit

    def on_click(self, event: events.Click) -> None:
        cell_width, first, count = self._layout()
        index = event.x // cell_width
        line = self._line()
        if 0 <= index < count and first + index < len(line):
            dispatch(self, JumpTo(node=line[first + index]))


def move_verdict(state: AppState) -> str | None:
    """The verdict on the move that led to the current position, as an analysis board writes it beside the move
    (``O 2?? Mistake: draw → loss in 6. Best was 5.``); beyond 16 cells, as far as the search of the position
    before proved it; None at the start, and where nothing is proven about the move."""
    node = state.tree.node(state.cursor)
    if node.move is None or node.parent is None:  # the start
        return None
    before = state.tree.position(node.parent)
    if state.searched:  # as far as a search of the position before proved it
        found = state.search_of(before)
        if found is None:
            return None
        words = searched_headline(review_searched(before, (node.move,), lambda position: found)[0], before)
        return None if words is None else f"{before.turn.value} {words}"
    return f"{before.turn.value} {headline(explained(before, node.move, state.board_answers))}"


def verdict_slice(state: AppState) -> object:
    """What the verdict on a searched board's move rests on: the moves a search of the position before it proved."""
    node = state.tree.node(state.cursor)
    if node.move is None or node.parent is None or not state.searched:
        return None
    return state.proven_in(state.tree.position(node.parent))


class LineScore(LinesView):
    """Each side's accuracy over the current line: the share of its moves that were best. Where the layout is
    short (no :class:`MoveVerdict` under it), the verdict of a move marked ``??``, ``?!`` or ``!`` takes its
    place while that move is the current one: what matters there."""

    DEFAULT_CSS = """
    LineScore { height: 1; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"line-score--mistake", "line-score--inaccurate", "line-score--only"}

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)
    verdict_below: reactive[bool] = reactive(False, repaint=False)
    """The layout shows the :class:`MoveVerdict` (tall layouts): the verdict is said there."""

    def watch_verdict_below(self) -> None:
        self.invalidate()

    def view_slice(self, state: AppState) -> object:
        return state.tree, state.tree.current_line(state.cursor), state.cursor, verdict_slice(state)

    def build_key(self) -> object:
        return super().build_key(), self.verdict_below

    def build(self, writer: LineWriter) -> None:
        if self.state is None or not self.ready:
            return
        verdict = None if self.verdict_below else move_verdict(self.state)
        marked = verdict_mark(verdict)
        if marked and verdict is not None:
            writer.write(ellipsis(verdict, writer.width), self.part(f"line-score--{marked}"))
            return
        self._accuracy(writer)

    def _accuracy(self, writer: LineWriter) -> None:
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        tree = self.state.tree
        if self.state.searched:  # a move is rated against the position's exact values
            forms = ("accuracy: exact values up to 16 cells only", "accuracy: up to 16 cells", "accuracy: ≤ 16 cells")
            writer.write(ellipsis(longest_that_fits(writer.width, forms), writer.width))
            return
        cells = tree.moves_to(tree.current_line(self.state.cursor)[-1])  # the line's moves, past the cursor too
        reviews = review_line(tree.root_position, cells, self.state.board_answers)
        parts = []
        for player in (Player.X, Player.O):
            side = score(reviews, player)
            parts.append(f"{player.value} —" if side.accuracy is None else f"{player.value} {side.accuracy:.0%}")
        writer.write(ellipsis("accuracy " + " · ".join(parts), writer.width))


_MARKS = (("??", "mistake"), ("?!", "inaccurate"), ("!", "only"))


def verdict_mark(verdict: str | None) -> str | None:
    """``mistake``, ``inaccurate`` or ``only`` for a verdict on a marked move (its second word ends in the mark),
    None for a plain best move or none."""
    if not verdict:
        return None
    move = verdict.split(" ", 2)[1]
    return next((name for mark, name in _MARKS if move.endswith(mark)), None)


class MoveVerdict(LinesView):
    """Under the score in tall layouts: the verdict on the move that led here, as an analysis board writes it
    (``O 2?? Mistake: draw → loss in 6. Best was 5.``), in two lines; the marks' legend at the start."""

    DEFAULT_CSS = """
    MoveVerdict { height: 2; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "line-score--mistake",
        "line-score--inaccurate",
        "line-score--only",
        "move-verdict--legend",
    }

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    def view_slice(self, state: AppState) -> object:
        return state.tree, state.cursor, verdict_slice(state)

    def build(self, writer: LineWriter) -> None:
        verdict = move_verdict(self.state) if self.state is not None and self.ready else None
        if verdict is None:
            legend = self.part("move-verdict--legend")
            first, second = HISTORY_LEGEND.splitlines()
            writer.write(ellipsis(first, writer.width), legend).newline().write(ellipsis(second, writer.width), legend)
            return
        marked = verdict_mark(verdict)
        writer.write_wrapped(verdict.split(), self.part(f"line-score--{marked}") if marked else None)


HISTORY_LEGEND = "?? mistake · ?! inaccuracy\n! only move · ≡ ≈ twins"


class HistoryPane(Vertical):
    """History: the variation tree, and below it the value of every ply of the current line."""

    ALLOW_MAXIMIZE = True

    # passed down to the views; the container itself draws nothing from them
    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    tall: reactive[bool] = reactive(False, repaint=False)
    """The layout is tall: the verdict on the move has the legend's two lines (else the score's one)."""

    def compose(self) -> ComposeResult:
        yield VariationTree().data_bind(HistoryPane.state, HistoryPane.ready)
        yield ValueStrip(id="value-strip").data_bind(HistoryPane.state, HistoryPane.ready)
        yield LineScore(id="line-score").data_bind(HistoryPane.state, HistoryPane.ready, verdict_below=HistoryPane.tall)
        yield MoveVerdict(id="history-legend").data_bind(HistoryPane.state, HistoryPane.ready)

    def on_mount(self) -> None:
        self.border_title = "History"
