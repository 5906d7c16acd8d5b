"""The Board pane: the grid, played by keys (1–9, arrows + Enter) and by mouse."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import reactive

from ...engine import Bitboard, Cell, Player, Position, Status, Value, cell_bit
from ...engine.geometry import cell_name, describe_variant
from ...engine.results import mask_title
from ...state import AppState, engine_basis, selected_line
from ...state.actions import Highlight, PlayCell
from ..messages import WheelStepsThroughGame, dispatch
from .lines import LinesView, LineWriter, ellipsis, longest_that_fits

VALUE_WORDS = {Value.WIN: "win", Value.DRAW: "draw", Value.LOSS: "loss"}


def value_in_cell(value: Value | None, remoteness: int | None, width: int) -> str:
    """A move's value in a cell ``width`` wide, whole: ``loss 5`` where it fits, else ``L5``, else ``L``, and the
    colour says the rest; unproven: ``?`` in every size."""
    if value is None:
        return "?"
    word = VALUE_WORDS[value]
    forms = (f"{word} {remoteness}", f"{word[0].upper()}{remoteness}", word[0].upper())
    return next((form for form in forms if len(form) <= width), "")


COORDINATE_MARGINS = (3, 1)
"""Row numbers take two columns and a space left of the grid; column letters a line under it."""


class BoardGrid(WheelStepsThroughGame, LinesView, can_focus=True):
    """The board itself: marks, cell names (1-9 on 3×3, coordinates elsewhere), the last move, the winning line,
    overlays.

    | Key | Does |
    | :- | :- |
    | 1–9 | play that cell |
    | h j k l, shift+arrows | move the cell cursor (the arrows step through the game) |
    | wheel | step back and forward through the game |
    | enter | play the cell under the cursor |
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"play({n})", f"Play {n}", show=False) for n in range(1, 10)),
        # the arrows step through the game (the app's); the cell cursor has vi's keys and shift+arrows
        Binding("k,shift+up", "move_cursor(-1, 0)", "Cursor up", show=False),
        Binding("j,shift+down", "move_cursor(1, 0)", "Cursor down", show=False),
        Binding("h,shift+left", "move_cursor(0, -1)", "Cursor left", show=False),
        Binding("l,shift+right", "move_cursor(0, 1)", "Cursor right", show=False),
        Binding("enter", "play_cursor", "Play cursor cell", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--grid",
        "board--number",
        "board--x",
        "board--o",
        "board--last",
        "board--line",
        "board--cursor",
        "board--win",
        "board--draw",
        "board--loss",
        "board--mask",
        "board--unknown",
        "board--step",
    }

    state: reactive[AppState | None] = reactive(None, repaint=False)
    """The app state (bound from the app)."""
    ready: reactive[bool] = reactive(False, repaint=False)
    """True once the engine's tables are built (values need them)."""

    @property
    def compact(self) -> bool:
        """No grid lines between the cells, each a mark wide: where a grid with lines would not fit (15×15 in
        a pane of 28 columns, or 20 lines)."""
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        geometry = self.state.geometry
        width, height = self.content_region.size
        return width < 3 * geometry.cols + geometry.cols - 1 or height < 2 * geometry.rows - 1

    def _gap(self) -> int:
        """Columns and lines between cells: a grid line, or none when compact."""
        return 0 if self.compact else 1

    def _margins(self) -> tuple[int, int]:
        """Columns left of the grid (row numbers) and lines under it (column letters): a board above 3×3 has
        its coordinates on its edges, as the ``:`` prompt reads them (``b2``), where the cells keep their
        smallest size beside them (else the cells have the room: they are numbered too)."""
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        geometry = self.state.geometry
        if geometry.size <= 9:
            return 0, 0
        width, height = self.content_region.size
        left, below = COORDINATE_MARGINS
        gap = self._gap()
        across = width - left - gap * (geometry.cols - 1) >= (3 if gap else 1) * geometry.cols
        down = height - below - gap * (geometry.rows - 1) >= geometry.rows
        return (left if across else 0), (below if down else 0)

    def _cell_size(self) -> tuple[int, int]:
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        geometry = self.state.geometry
        width, height = self.content_region.size
        left, below = self._margins()
        if self.compact:  # a mark and a space where they fit, else the mark alone
            return (2 if width - left >= 2 * geometry.cols else 1), 1
        cell_width = max(3, min(13, (width - left - (geometry.cols - 1)) // geometry.cols))
        cell_height = max(1, min(5, (height - below - (geometry.rows - 1)) // geometry.rows))
        return cell_width, cell_height

    def _origin(self) -> tuple[int, int]:
        """Top-left of the grid, which is centred in the widget with its coordinates."""
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        geometry = self.state.geometry
        cell_width, cell_height = self._cell_size()
        left, below = self._margins()
        gap = self._gap()
        grid_width = geometry.cols * cell_width + gap * (geometry.cols - 1)
        grid_height = geometry.rows * cell_height + gap * (geometry.rows - 1)
        width, height = self.content_region.size
        return max(0, (width - left - grid_width) // 2) + left, max(0, (height - below - grid_height) // 2)

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell under widget-relative (x, y), or None on a grid line or outside."""
        if self.state is None:
            return None
        geometry = self.state.geometry
        cell_width, cell_height = self._cell_size()
        origin_x, origin_y = self._origin()
        gap = self._gap()
        x -= self.styles.gutter.left + origin_x
        y -= self.styles.gutter.top + origin_y
        col, x_in = divmod(x, cell_width + gap)
        row, y_in = divmod(y, cell_height + gap)
        if x_in == cell_width or y_in == cell_height:  # a grid line
            return None
        if not (
            0 <= row < geometry.rows and 0 <= col < geometry.cols
        ):  # outside (left or above: a negative row or column)
            return None
        return geometry.cell(row, col)

    def numbered_line(self, state: AppState) -> tuple[Cell, ...]:
        """The moves the ``line`` overlay numbers, in order: the best line the evaluation shows."""
        return selected_line(state)

    def build(self, writer: LineWriter) -> None:
        state = self.state
        if state is None:
            return
        position = state.position
        geometry = state.geometry
        cell_width, cell_height = self._cell_size()
        style = self.part
        grid_style = style("board--grid")
        node = state.tree.node(state.cursor)
        last = cell_bit(node.move) if node.move is not None else 0
        line_cells = 0
        for line in position.winning_lines():
            line_cells |= line
        overlay = state.view.overlay
        values: dict[Cell, tuple[Value | None, int | None]] = {}
        mask: Bitboard = 0
        steps: dict[Cell, tuple[Player, int]] = {}
        if self.ready and not position.is_over and overlay != "none":
            analysis = state.analysis
            if overlay == "line":  # the best line in order: after a mistake, how it is punished
                turn = position.turn
                for order, cell in enumerate(self.numbered_line(state), 1):
                    steps[cell] = (turn, order)
                    turn = turn.other
            elif overlay == "values":
                values = {move.cell: (move.value, move.remoteness) for move in analysis.moves}
            else:
                mask = analysis.masks.get(overlay)
        gap = self._gap()
        separator = "┼".join(["─" * cell_width] * geometry.cols)
        origin_x, origin_y = self._origin()
        indent = " " * origin_x
        left, below = self._margins()
        writer.newline(origin_y)
        for row in range(geometry.rows):
            if row and gap:
                writer.newline().write(indent + separator, grid_style).newline()
            elif row:
                writer.newline()
            for line_index in range(cell_height):
                if line_index:
                    writer.newline()
                if left and line_index == cell_height // 2:  # the row's number, counted from the bottom
                    writer.write(" " * (origin_x - left)).write(
                        f"{geometry.rows - row:>{left - 1}} ", style("board--number")
                    )
                else:
                    writer.write(indent)
                for col in range(geometry.cols):
                    if col and gap:
                        writer.write("│", grid_style)
                    cell = geometry.cell(row, col)
                    text, cell_style = self._cell_line(
                        position, cell, line_index, cell_width, cell_height, last, line_cells, values, mask, steps
                    )
                    writer.write(text, cell_style)
        if below:
            letters = (" " * gap).join(chr(ord("a") + col).center(cell_width) for col in range(geometry.cols))
            writer.newline().write(indent).write(letters, style("board--number"))

    def _cell_line(
        self,
        position: Position,
        cell: Cell,
        line_index: int,
        width: int,
        height: int,
        last: Bitboard,
        line_cells: Bitboard,
        values: dict[Cell, tuple[Value | None, int | None]],
        mask: Bitboard,
        steps: dict[Cell, tuple[Player, int]],
    ) -> tuple[str, Style]:
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        style = self.part
        bit = cell_bit(cell)
        mark = position.mark_at(cell)
        middle = height // 2
        base = Style()
        if cell in values:
            value = values[cell][0]
            base = style("board--unknown" if value is None else f"board--{VALUE_WORDS[value]}")
        elif mask & bit:
            base = style("board--mask")
        if line_cells & bit:
            base = base + style("board--line")
        elif last & bit:
            base = base + style("board--last")
        if self.state.view.highlighted == cell and self.has_focus:
            base = base + style("board--cursor")
        number = style("board--number")
        if base.bgcolor is not None:
            # on a coloured cell the text takes that colour's own contrasting one: an X, an O or a
            # number in its usual colour can vanish on it in some themes
            number = Style()
        if mark is not None:
            content = mark.value if line_index == middle else ""
            mark_style = style(f"board--{mark.value.lower()}")
            if base.bgcolor is not None:
                mark_style = Style(bold=mark_style.bold)
            return content.center(width), base + mark_style
        if cell in steps and line_index == middle:  # X1, O2, X3…: who plays there, and when
            player, order = steps[cell]
            forms = (f"{player.value}{order}", str(order), str(order)[-1])
            text = next(form for form in forms if len(form) <= width)
            return text.center(width), base + style(f"board--{player.value.lower()}") + style("board--step")
        if cell in values:
            value, remoteness = values[cell]
            if line_index == middle:
                return value_in_cell(value, remoteness, width).center(width), base
            if line_index == 0 and height > 2:
                return cell_name(cell, position.geometry).ljust(width)[:width], base + number
            return " " * width, base
        name = cell_name(cell, position.geometry)
        if width < max(3, len(name)):  # compact: an empty cell is a dot (its name would not fit)
            return "·".center(width), base + number
        if (height == 1 and line_index == 0) or (height > 1 and line_index == middle):
            return name.center(width), base + number
        return " " * width, base

    def view_slice(self, state: AppState) -> object:
        # a search's finds colour the overlays as they come in; its node counts are not drawn here
        proven = state.proven_in(state.position) if state.view.overlay != "none" else None
        return state.position, state.tree.node(state.cursor).move, state.view, proven

    def build_key(self) -> object:
        return super().build_key(), self.has_focus  # the cell cursor shows only with focus

    def on_focus(self) -> None:
        if self.state is not None and self.state.view.highlighted is None:
            dispatch(self, Highlight(cell=(self.state.geometry.size + 1) // 2))
        self.invalidate()

    def on_blur(self) -> None:
        self.invalidate()

    def on_click(self, event: events.Click) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            dispatch(self, Highlight(cell=cell))
            dispatch(self, PlayCell(cell=cell))

    def action_play(self, cell: int) -> None:
        dispatch(self, PlayCell(cell=cell))

    def action_move_cursor(self, d_row: int, d_col: int) -> None:
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        geometry = self.state.geometry
        current = self.state.view.highlighted or (geometry.size + 1) // 2
        row, col = geometry.row_col(current)
        row = (row + d_row) % geometry.rows
        col = (col + d_col) % geometry.cols
        dispatch(self, Highlight(cell=geometry.cell(row, col)))

    def action_play_cursor(self) -> None:
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        if self.state.view.highlighted is not None:
            dispatch(self, PlayCell(cell=self.state.view.highlighted))


class BoardStatus(LinesView):
    """Side to move and exact value; ply and overlay; the engine when it plays (two lines, three with the
    engine on: each fits the board's 28 columns). A move refused (a taken cell, the game over) is said in place of
    the ply's line until the position changes."""

    DEFAULT_CSS = """
    BoardStatus { height: 2; }
    BoardStatus.-engine { height: 3; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"board-status--notice"}

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)
    notice: reactive[tuple[Position, str] | None] = reactive(None, repaint=False, always_update=True)
    """(the position, why a move there was refused): shown while that position is the current one."""

    def watch_notice(self) -> None:
        self.invalidate()

    def view_slice(self, state: AppState) -> object:
        searched = state.search_of(state.position) is not None
        return (
            state.position,
            state.view.overlay,
            state.engine,
            state.proven_in(state.position),
            searched,
            state.searching,
        )

    def build_key(self) -> object:
        return super().build_key(), self.notice

    def build(self, writer: LineWriter) -> None:
        state = self.state
        if state is None:
            return
        width = writer.width
        position = state.position
        status = position.status
        if status is Status.IN_PLAY:
            side = position.turn.value
            forms: list[str] | tuple[str, ...] = [f"{side} to move"]
            if self.ready:
                analysis = state.analysis
                if analysis.value is not None:
                    forms = [f"{side} to move: {analysis.value.label} in {analysis.remoteness}"]
                else:  # a board searched move by move: how far the search has got, shortened to fit whole
                    proven = f"{sum(move.value is not None for move in analysis.moves)}/{len(analysis.moves)}"
                    if state.searching == position:
                        forms = [
                            f"{side} to move: ? (searching, {proven} proven)",
                            f"{side} to move: ? searching {proven}",
                            f"{side}: ? searching {proven}",
                        ]
                    elif state.search_of(position) is None:
                        forms = [f"{side} to move: ? (not searched)", f"{side}: ? (not searched)"]
                    else:
                        forms = [f"{side} to move: ? ({proven} proven)", f"{side}: ? ({proven} proven)"]
            line = longest_that_fits(width, forms)
        else:
            line = {Status.X_WON: "X won", Status.O_WON: "O won", Status.DRAW: "Draw"}[status]
        writer.write(ellipsis(line, width))
        notice = self.notice
        if notice is not None and notice[0] == position:
            writer.newline().write(ellipsis(notice[1], width), self.part("board-status--notice"))
        else:
            overlay = state.view.overlay
            shown = {"none": "v values, m masks", "line": "showing best line", "values": "showing values"}.get(overlay)
            if shown is None:  # a mask, by the name it has on this board
                shown = "showing " + mask_title(overlay, position.geometry, short=False)
            if (
                overlay not in ("none", "values", "line")
                and self.ready
                and not position.is_over
                and not state.analysis.masks.get(overlay)
            ):
                shown += " (none)"  # an empty mask lights nothing: said, so that it does not look broken
            writer.newline().write(ellipsis(f"ply {position.ply} · {shown}", width))
        engine = state.engine
        if engine.mode.value != "off":
            basis = (
                engine_basis(state.analysis, engine.mode) if self.ready and not position.is_over else engine.mode.value
            )
            side = engine.side.value
            forms = (
                f"engine plays {side} ({basis})",
                f"engine {side}: {basis}",
                f"engine {side}: {basis.split(':')[0]}",
            )
            writer.newline().write(ellipsis(longest_that_fits(width, forms), width))


class BoardPane(Vertical):
    """Board: the grid and a status line (side to move, result, exact value); its frame names the variant."""

    ALLOW_MAXIMIZE = True

    # passed down to the views; the container itself draws nothing from them
    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    def compose(self) -> ComposeResult:
        yield BoardGrid().data_bind(BoardPane.state, BoardPane.ready)
        yield BoardStatus(id="board-status").data_bind(BoardPane.state, BoardPane.ready)

    def watch_state(self, old: AppState | None, state: AppState | None) -> None:
        # what this reads changes with the engine's mode or the variant, not at a move or a step: a query of the
        # status line at every key cost each key a walk of the pane
        if (
            old is not None
            and state is not None
            and old.engine.mode == state.engine.mode
            and old.geometry == state.geometry
        ):
            return
        if state is not None:  # the engine's line takes a row from the grid only while the engine plays
            self.query_one(BoardStatus).set_class(state.engine.mode.value != "off", "-engine")
        title = "Board" if state is None else f"Board · {describe_variant(state.geometry, short=True)}"
        if title != self.border_title:  # a new title repaints the frame: only when the variant changes
            self.border_title = title
