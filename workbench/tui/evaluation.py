"""The Evaluation pane: masks, the exact value, and every move's numbers."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget

from ..engine import MASK_NAMES, Analysis, Bitboard, Value, cell_bit
from ..state import AppState

MASK_LABELS = {
    "win": "win",
    "block": "block",
    "fork": "fork",
    "perfect_win": "p-win",
    "perfect_lose": "p-lose",
    "best": "best",
}
WIDE_TABLE = 60
"""Below this width the X / O / draw split shares one column."""
VALUE_CLASS = {Value.WIN: "evaluation--win", Value.DRAW: "evaluation--draw", Value.LOSS: "evaluation--loss"}


class EvaluationView(Widget):
    """Renders the analysis of the current position for the side to move."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "evaluation--win", "evaluation--draw", "evaluation--loss", "evaluation--mask",
        "evaluation--dim", "evaluation--heading", "evaluation--highlight",
    }  # fmt: skip

    DEFAULT_CSS = """
    EvaluationView { height: auto; }
    """

    state: reactive[AppState | None] = reactive(None, layout=True)
    ready: reactive[bool] = reactive(False, layout=True)

    def render(self) -> RenderableType:
        state = self.state
        if state is None:
            return Text("")
        if not self.ready:
            return Text("Building the engine's tables…", style=self.get_component_rich_style("evaluation--dim"))
        analysis = state.analysis
        return Group(self._summary(analysis), Text(""), self._masks(analysis), Text(""), self._moves(analysis))

    def _summary(self, analysis: Analysis) -> Text:
        style = self.get_component_rich_style
        text = Text()
        games = analysis.games
        if analysis.to_move is None:
            text.append(f"Game over: {analysis.status.value.replace('_', ' ')}", style("evaluation--heading"))
        else:
            text.append(f"{analysis.to_move.value} to move: ", style("evaluation--heading"))
            text.append(f"{analysis.value.label} in {analysis.remoteness}", style(VALUE_CLASS[analysis.value]))
        text.append(f"\n{games.total:,} games on: X {games.x:,} · O {games.o:,} · draw {games.draw:,}", style("evaluation--dim"))
        return text

    def _mini_board(self, analysis: Analysis, mask: Bitboard) -> Text:
        style = self.get_component_rich_style
        position = analysis.position
        geometry = position.geometry
        text = Text(no_wrap=True)
        for row in range(geometry.rows):
            if row:
                text.append("\n")
            for col in range(geometry.cols):
                cell = geometry.cell(row, col)
                mark = position.mark_at(cell)
                if mask & cell_bit(cell):
                    text.append("●", style("evaluation--mask"))
                elif mark is not None:
                    text.append(mark.value.lower(), style("evaluation--dim"))
                else:
                    text.append("·", style("evaluation--dim"))
                if col < geometry.cols - 1:
                    text.append(" ")
        return text

    def _masks(self, analysis: Analysis) -> Group:
        table = Table(box=None, padding=(0, 2, 0, 0), pad_edge=False, show_edge=False, header_style=self.get_component_rich_style("evaluation--heading"))
        for name in MASK_NAMES:
            table.add_column(MASK_LABELS[name], no_wrap=True)
        table.add_row(*(self._mini_board(analysis, analysis.masks.get(name)) for name in MASK_NAMES))
        legend = Text("● cells of each mask for the side to move · p- perfect", style=self.get_component_rich_style("evaluation--dim"))
        return Group(table, legend)

    def _moves(self, analysis: Analysis) -> RenderableType:
        style = self.get_component_rich_style
        if not analysis.moves:
            return Text("No moves: the game is over.", style("evaluation--dim"))
        wide = self.size.width >= WIDE_TABLE
        table = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False, show_edge=False, header_style=style("evaluation--heading") + Style(underline=True))
        columns = [("cell", "right"), ("value", "left"), ("plies" if wide else "ply", "right"), ("trap", "right"), ("games", "right")]
        columns += [("X", "right"), ("O", "right"), ("draw", "right")] if wide else [("X/O/draw", "right")]
        for header, justify in columns:
            table.add_column(header, justify=justify, no_wrap=True)
        highlighted = self.state.view.highlighted
        for move in analysis.moves:
            best = "★" if analysis.masks.best & cell_bit(move.cell) else " "
            games = move.games
            split = [f"{games.x:,}", f"{games.o:,}", f"{games.draw:,}"] if wide else [f"{games.x}/{games.o}/{games.draw}"]
            table.add_row(
                f"{best}{move.cell}",
                Text(move.value.label, style(VALUE_CLASS[move.value])),
                str(move.remoteness),
                "—" if move.trap is None else f"{move.trap:.2f}",
                f"{games.total:,}" if wide else str(games.total),
                *split,
                style=style("evaluation--highlight") if move.cell == highlighted else None,
            )
        return table


class EvaluationPane(VerticalScroll):
    """Evaluation: masks, value and remoteness, and a table of moves, live with the cursor."""

    state: reactive[AppState | None] = reactive(None)
    ready: reactive[bool] = reactive(False)

    def compose(self):
        yield EvaluationView(id="evaluation-view").data_bind(EvaluationPane.state, EvaluationPane.ready)

    def on_mount(self) -> None:
        self.border_title = "Evaluation"
