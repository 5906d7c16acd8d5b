"""The Evaluation pane: masks, the exact value, and every move's numbers."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from textual.reactive import reactive

from ..engine import MASK_NAMES, Analysis, Bitboard, GameCounts, Value, cell_bit
from ..engine.analysis import tables
from ..state import AppState
from .lines import LinesView, LineWriter, ViewPane

MASK_LABELS = {
    "win": "win",
    "block": "block",
    "fork": "fork",
    "perfect_win": "p-win",
    "perfect_lose": "p-lose",
    "best": "best",
}
MASK_COLUMN = 7
"""Cells per mask column: a 3-wide mini board is 5 cells, plus room for the label."""
WIDE_TABLE = 60
"""Below this width the X / O / draw split shares one column."""
VALUE_CLASS = {Value.WIN: "evaluation--win", Value.DRAW: "evaluation--draw", Value.LOSS: "evaluation--loss"}


class EvaluationView(LinesView):
    """The analysis of the current position, for the side to move."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "evaluation--win", "evaluation--draw", "evaluation--loss", "evaluation--mask",
        "evaluation--dim", "evaluation--heading", "evaluation--highlight",
    }  # fmt: skip

    DEFAULT_CSS = """
    EvaluationView { height: 23; }
    """
    # A fixed height (the most this view needs) keeps a state change to a
    # repaint: with height auto, every change would lay out the screen again.

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)
    library_games: reactive[tuple[int, dict, dict] | None] = reactive(None, repaint=False)
    """(position key, games through it, {cell: games after the move}) from the library's games
    tables, when it has them; None otherwise (the figures are then computed)."""

    def watch_library_games(self) -> None:
        self.invalidate()

    def view_slice(self, state: AppState) -> object:
        return state.position, state.view.highlighted

    def build(self, writer: LineWriter) -> None:
        state = self.state
        if state is None:
            return
        style = self.part
        if not self.ready:
            writer.write("Building the engine's tables…", style("evaluation--dim"))
            return
        analysis = state.analysis
        self._summary(writer, analysis)
        if analysis.to_move is None:
            return  # no side to move: no masks and no moves
        writer.newline(2)
        self._masks(writer, analysis)
        writer.newline(2)
        self._moves(writer, analysis)

    def _summary(self, writer: LineWriter, analysis: Analysis) -> None:
        style = self.part
        if analysis.to_move is None:
            outcome = {"x_won": "X won", "o_won": "O won", "draw": "a draw"}[analysis.status.value]
            writer.write(f"Game over: {outcome}", style("evaluation--heading"))
        else:
            writer.write(f"{analysis.to_move.value} to move: ", style("evaluation--heading"))
            writer.write(f"{analysis.value.label} in {analysis.remoteness}", style(VALUE_CLASS[analysis.value]))
        games = analysis.games
        wide = self.size.width >= WIDE_TABLE
        if analysis.to_move is not None:
            # two different counts: the ways to finish from here, and the games from the empty
            # board that reach this position by any move order (the `g` dialog's figure)
            if wide:
                games_line = f"{games.total:,} games go on from here: X {games.x:,} · O {games.o:,} · draw {games.draw:,}"
            else:  # the moves table's compact form, so it fits 80 columns
                games_line = f"{games.total:,} go on: X/O/draw {games.x}/{games.o}/{games.draw}"
            writer.newline().write(games_line, style("evaluation--dim"))
        through = tables(analysis.position.geometry).games_through(analysis.position.key).total
        served = self._served(analysis)
        if served is None:
            source = ""
        elif served[1]["total"] == through:
            source = " · library ✓" if wide else " · lib ✓"  # the games table agrees with the engine
        else:
            source = f" · library says {served[1]['total']:,}!"
        if wide:  # at most 60 columns, as wide as the view is then
            line = f"{through:,} from the start pass through, any order{source}"
        else:
            line = f"{through:,} pass through, any order{source}"
        writer.newline().write(line, style("evaluation--dim"))

    def _served(self, analysis: Analysis) -> tuple[int, dict, dict] | None:
        served = self.library_games
        return served if served is not None and served[0] == analysis.position.key else None

    def _masks(self, writer: LineWriter, analysis: Analysis) -> None:
        style = self.part
        position = analysis.position
        geometry = position.geometry
        for name in MASK_NAMES:
            writer.write(MASK_LABELS[name].ljust(MASK_COLUMN), style("evaluation--heading"))
        for row in range(geometry.rows):
            writer.newline()
            for name in MASK_NAMES:
                mask: Bitboard = analysis.masks.get(name)
                for col in range(geometry.cols):
                    cell = geometry.cell(row, col)
                    mark = position.mark_at(cell)
                    if mask & cell_bit(cell):
                        writer.write("●", style("evaluation--mask"))
                    else:
                        writer.write(mark.value.lower() if mark else "·", style("evaluation--dim"))
                    writer.write(" ")
                writer.write(" " * (MASK_COLUMN - 2 * geometry.cols))
        writer.newline().write("● mask cells (side to move) · p-: perfect", style("evaluation--dim"))

    def _moves(self, writer: LineWriter, analysis: Analysis) -> None:
        style = self.part
        if not analysis.moves:
            writer.write("No moves: the game is over.", style("evaluation--dim"))
            return
        source = "the library" if self._served(analysis) is not None else "computed"
        writer.write(f"games after each move: {source}", style("evaluation--dim")).newline()
        wide = self.size.width >= WIDE_TABLE
        heading = style("evaluation--heading") + Style(underline=True)
        if wide:
            writer.write(f"{'cell':>4} {'value':<5} {'plies':>5} {'trap':>4} {'games':>6} {'X':>6} {'O':>6} {'draw':>5}", heading)
        else:
            writer.write(f"{'cell':>4} {'value':<5} {'ply':>3} {'trap':>4} {'games':>5} {'X/O/draw':>15}", heading)
        highlighted = self.state.view.highlighted
        served = self._served(analysis)
        for move in analysis.moves:
            writer.newline()
            row_style = style("evaluation--highlight") if move.cell == highlighted else None
            best = "★" if analysis.masks.best & cell_bit(move.cell) else " "
            trap = "   —" if move.trap is None else f"{move.trap:4.2f}"
            games = move.games
            if served is not None and move.cell in served[2]:
                library = served[2][move.cell]  # the same figure, read from the games table
                games = GameCounts(library["x"], library["o"], library["draw"])
            writer.write(f"{best:>3}{move.cell} ", row_style)
            value_style = style(VALUE_CLASS[move.value])
            writer.write(f"{move.value.label:<5}", value_style + row_style if row_style else value_style)
            if wide:
                writer.write(f" {move.remoteness:>5} {trap} {games.total:>6,} {games.x:>6,} {games.o:>6,} {games.draw:>5,}", row_style)
            else:
                split = f"{games.x}/{games.o}/{games.draw}"
                writer.write(f" {move.remoteness:>3} {trap} {games.total:>5} {split:>15}", row_style)


class EvaluationPane(ViewPane):
    """Evaluation: masks, value and remoteness, and a table of moves, live with the cursor."""

    PANE_TITLE = "Evaluation"
    VIEW = EvaluationView
