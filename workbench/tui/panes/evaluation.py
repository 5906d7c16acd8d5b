"""The Evaluation pane: masks, the exact value, and every move's numbers."""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

from rich.style import Style
from textual import events
from textual.app import ComposeResult
from textual.reactive import reactive

from ...engine import MASK_NAMES, Analysis, Bitboard, Cell, GameCounts, Geometry, Position, Value, cell_bit, cells_of
from ...engine.analysis import MAX_TABLE_CELLS
from ...engine.answers import Answers, TableAnswers
from ...engine.geometry import cell_name, describe_variant
from ...engine.results import SEARCHED_MASKS, mask_title, win_proven_within
from ...engine.solver import preference
from ...state import AppState
from ...state.actions import PlayCell
from ..messages import dispatch
from .evaluation_words import (
    how_to_begin as how_to_begin,
    write_best_line,
    write_first_screen,
    write_game_mistakes,
    write_in_words,
)
from .lines import LinesView, LineWriter, ViewPane, ellipsis, longest_that_fits

MASK_COLUMN = 7
"""Cells per mask column: a 3-wide mini board is 5 cells, plus room for the label."""
MOVES_LEGEND = ("★ best · plies: to the end, both at their best", "trap: share of the replies that lose")
"""Under the moves table, in the narrowest evaluation (44 cells); help says it at length."""
VALUE_CLASS = {Value.WIN: "evaluation--win", Value.DRAW: "evaluation--draw", Value.LOSS: "evaluation--loss"}


def _column_width(column) -> int:
    """A column of the moves table, ``(header, entries, align)``: as wide as its longest text."""
    header, entries, _ = column
    return max(len(header), *(len(entry) for entry in entries))


def _table_width(columns) -> int:
    return sum(_column_width(column) + 1 for column in columns) - 1


def best_first(moves):
    """The moves whose value is known, best first for the side to move (quickest win, then draws, then the
    slowest loss), the lower cell first among equals."""
    known = (move for move in moves if move.value is not None)
    return sorted(known, key=lambda move: (preference(move.value, move.remoteness), -move.cell), reverse=True)


@lru_cache(maxsize=256)
def _names_of(mask: Bitboard, geometry: Geometry) -> tuple[str, ...]:
    """The cells of ``mask`` named as the board names them, ``h8 g9``: the same masks come back at every report
    of a search."""
    return tuple(cell_name(cell, geometry) for cell in cells_of(mask))


def preparing_text(geometry: Geometry) -> str:
    """What a pane says while the exact analysis of ``geometry`` is being made."""
    if geometry.size <= MAX_TABLE_CELLS:
        return "Building the engine's tables…"
    return f"Solving {describe_variant(geometry)} exactly: every position, once (kept after)…"


class EvaluationView(LinesView):
    """The analysis of the current position, for the side to move."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "evaluation--win",
        "evaluation--draw",
        "evaluation--loss",
        "evaluation--mask",
        "evaluation--dim",
        "evaluation--heading",
        "evaluation--highlight",
    }

    FIT_HEIGHT = True  # the moves table has a row a move (4×4: 16; a searched 15×15: every proven move), and scrolls

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)
    library_games: reactive[tuple[Position, dict, dict] | None] = reactive(None, repaint=False)
    """(the position, games through it, {cell: games after the move}) from the library's games
    tables, when it has them; None otherwise (the figures are then computed)."""
    welcome: reactive[bool] = reactive(False, repaint=False)
    """The first run (no settings yet): an empty study says how to begin."""
    preparing: reactive[str] = reactive("", repaint=False)
    """While a strong solution is being made: its step and how far it is, as the solver reports it."""
    due: reactive[tuple[tuple[str, int], ...]] = reactive((), repaint=False)
    """What practice is due today, by variant (``(("3x3k3", 3),)``), said on an empty study; empty: nothing due."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._row_cells: dict[int, Cell] = {}
        """Line number of each row of the moves table → its cell, as last built."""
        self._rows: dict[tuple, tuple] = {}
        """A searched board's moves table: the segments of each row drawn (see :meth:`_searched_row`)."""
        self._rows_for: Geometry | None = None
        self._tables: list[tuple[tuple, Bitboard, Cell | None, tuple]] = []
        """The moves tables of the analyses drawn lately, newest first (see :meth:`_table_of`)."""

    TABLES_KEPT: ClassVar[int] = 8

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._rows.clear()
        self._tables = []

    def watch_library_games(self) -> None:
        self.invalidate()

    def watch_welcome(self) -> None:
        self.invalidate()

    def watch_due(self) -> None:
        self.invalidate()

    def watch_preparing(self) -> None:
        if not self.ready:
            self.invalidate()

    def on_click(self, event: events.Click) -> None:
        """A click on a row of the moves table plays that move."""
        self._ensure_strips()
        cell = self._row_cells.get(event.y)
        if cell is not None:
            event.stop()
            dispatch(self, PlayCell(cell=cell))

    def view_slice(self, state: AppState) -> object:
        last_move = state.tree.node(state.cursor).move  # said in words when no move is selected
        game = state.tree.moves_to(state.cursor) if state.position.is_over else None  # its mistakes, at its end
        return state.position, state.view.highlighted, state.search_of(state.position), state.searching, last_move, game

    def fit_scope(self) -> object:
        return None if self.state is None else self.state.geometry

    def build_key(self) -> object:
        return (
            super().build_key(),
            self.library_games,
            (self.preparing if not self.ready else ""),
            self.welcome,
            self.due,
        )

    def kept_with_lines(self) -> object:
        return self._row_cells

    def restore_with_lines(self, kept: object) -> None:
        assert isinstance(kept, dict)  # pragma: no mutate - what kept_with_lines gave
        self._row_cells = kept

    def build(self, writer: LineWriter) -> None:
        state = self.state
        self._row_cells = {}
        if state is None:
            return
        style = self.part
        if not self.ready:
            writer.write(preparing_text(state.geometry), style("evaluation--dim"))
            for line in self.preparing.splitlines():  # the stage and the time left, then one bar for the whole solve
                writer.newline().write(ellipsis(line, writer.width), style("evaluation--dim"))
            return
        analysis = state.analysis
        self._summary(writer, analysis, state.answers)
        if len(state.tree.nodes) == 1:  # the first screen: how to begin, and practice that is due
            write_first_screen(writer, state, self.part, welcome=self.welcome, due=self.due)
        if analysis.to_move is None:  # no side to move: no masks and no moves, but the game's mistakes
            write_game_mistakes(writer, state, self.part)
            return
        if state.searched:
            writer.newline(2)
            self._searched(writer, state, analysis)
            return
        # the words first: below the masks and the table they were out of sight
        write_in_words(writer, state, self.part)
        writer.newline(2)
        self._masks(writer, analysis)
        writer.newline(2)
        self._moves(writer, analysis)
        writer.newline()
        write_best_line(writer, state, self.part)
        for line in MOVES_LEGEND:  # wrapped where the pane is narrower than the legend: nothing cut
            writer.newline().write_wrapped(line.split(), style("evaluation--dim"))

    def _summary(self, writer: LineWriter, analysis: Analysis, answers: Answers | None) -> None:
        style = self.part
        if analysis.to_move is None:
            outcome = {"x_won": "X won", "o_won": "O won", "draw": "a draw"}[analysis.status.value]
            writer.write(f"Game over: {outcome}", style("evaluation--heading"))
        else:
            writer.write(f"{analysis.to_move.value} to move: ", style("evaluation--heading"))
            within = win_proven_within(analysis.moves) if analysis.value is None else None
            if within is not None:  # a winning move proven: the position is won, perhaps more quickly
                writer.write(f"win in at most {within}", style(VALUE_CLASS[Value.WIN]))
                writer.write(" (not every move proven)", style("evaluation--dim"))
            elif analysis.value is None:
                writer.write("not proven yet", style("evaluation--dim"))
            else:
                writer.write(f"{analysis.value.label} in {analysis.remoteness}", style(VALUE_CLASS[analysis.value]))
        games = analysis.games
        width = writer.width
        if analysis.to_move is not None and games is not None:
            # two different counts: the ways to finish from here, and the games from the empty
            # board that reach this position by any move order (the `g` dialog's figure)
            total, x, o, draw = games.total, games.x, games.o, games.draw
            games_go, go = ("game goes", "goes") if total == 1 else ("games go", "go")
            games_line = longest_that_fits(
                width,
                (
                    f"{total:,} {games_go} on from here: X {x:,} · O {o:,} · draw {draw:,}",
                    f"{total:,} {go} on from here: X {x:,} · O {o:,} · draw {draw:,}",
                    f"{total:,} {go} on: X {x:,} · O {o:,} · draw {draw:,}",
                    f"{total:,} {go} on: X/O/draw {x}/{o}/{draw}",
                    f"{total:,} {games_go} on from here",  # 3×4's counts: seven digits each
                ),
            )
            writer.newline().write(games_line, style("evaluation--dim"))
        if not isinstance(answers, TableAnswers):  # a strong solution counts the games from a position, not through it
            return
        through = answers.table.games_through(analysis.position.key).total
        served = self._served(analysis)
        sources: tuple[str, ...]
        if served is None:
            sources = ("",)
        elif served[1]["total"] == through:
            sources = (" · library ✓", " · lib ✓")  # the games table agrees with the engine
        else:
            sources = (f" · library says {served[1]['total']:,}!",)
        line = longest_that_fits(
            width,
            [
                f"{through:,} {words}{source}"
                for words in ("from the start pass through, any order", "pass through, any order")
                for source in sources
            ],
        )
        writer.newline().write(line, style("evaluation--dim"))

    def _searched(self, writer: LineWriter, state: AppState, analysis: Analysis) -> None:
        """A board searched move by move: how far the search is, the masks as coordinates (six boards of 15×15
        would not fit), and every proven move best first (the pane scrolls), the rest counted."""
        style = self.part
        found = state.search_of(state.position)
        moves = analysis.moves
        table = self._table_of(analysis, state.view.highlighted)
        proven = len(table)
        nodes = found.nodes if found is not None else 0
        if state.searching == state.position:
            status = f"searching · {nodes:,} nodes · {proven}/{len(moves)} proven · s stops"
        elif found is None:
            status = "not searched yet · s searches it"
        elif proven == len(moves):
            status = f"searched: every move proven ({nodes:,} nodes)"
        else:
            status = f"search stopped · {proven}/{len(moves)} proven · s searches on"
        writer.write(ellipsis(status, writer.width), style("evaluation--dim"))
        writer.newline(2)
        self._mask_names(writer, analysis, complete=proven == len(moves))
        writer.newline()
        heading = style("evaluation--heading") + Style(underline=True)
        if proven:
            writer.write(f"{'':>2}{'cell':<6} {'value':<5} {'plies':>5}", heading)
        for cell, segments in table:  # every one: the pane scrolls
            writer.newline()
            self._row_cells[len(writer.lines) - 1] = cell
            writer.extend(segments)
        if len(moves) > proven:
            if proven:
                writer.newline()
            unproven = f"{len(moves) - proven} not proven (? on the values overlay)"
            writer.write(ellipsis(unproven, writer.width), style("evaluation--dim"))
        writer.newline().write("plies: to the end, both at their best", style("evaluation--dim"))

    def _table_of(self, analysis: Analysis, highlighted: Cell | None) -> tuple[tuple[Cell, tuple], ...]:
        """A searched board's moves table, (cell, segments) a row, best first: kept for the analyses drawn
        lately (the same object comes back for a report that proved nothing new, and a step back to a position),
        and its rows kept one by one (a report proves one move more, and the other rows are the same)."""
        moves, best_mask, geometry = analysis.moves, analysis.masks.best, analysis.position.geometry
        for kept_moves, kept_best, kept_highlighted, kept_table in self._tables:
            if kept_moves is moves and kept_best == best_mask and kept_highlighted == highlighted:
                return kept_table
        if self._rows_for != geometry:
            self._rows.clear()
            self._rows_for = geometry
        rows, table = self._rows, []
        for move in best_first(moves):
            key = (
                move.cell,
                move.value,
                move.remoteness,
                bool(best_mask & cell_bit(move.cell)),
                move.cell == highlighted,
            )
            segments = rows.get(key)
            if segments is None:
                segments = rows[key] = self._searched_row(*key, geometry)
            table.append((move.cell, segments))
        self._tables = [(moves, best_mask, highlighted, tuple(table)), *self._tables[: self.TABLES_KEPT - 1]]
        return self._tables[0][3]

    def _searched_row(
        self, cell: Cell, value: Value, remoteness: int, best: bool, highlighted: bool, geometry: Geometry
    ):
        """The segments of a row of a searched board's moves table (kept: the table is drawn again for every
        report of a search, and its rows are mostly the same)."""
        writer = LineWriter(0)
        style = self.part
        row_style = style("evaluation--highlight") if highlighted else None
        writer.write(f"{'★' if best else ' ':>2}{cell_name(cell, geometry):<6} ", row_style)
        value_style = style(VALUE_CLASS[value])
        writer.write(f"{value.label:<5}", value_style + row_style if row_style else value_style)
        writer.write(f" {remoteness:>5}", row_style)
        return tuple(writer.lines[0])

    def _served(self, analysis: Analysis) -> tuple[Position, dict, dict] | None:
        """The library's counts where they are this position's: the same position, of the same board (the classic
        board's answer for a key was shown on 3×4 and under misère, whose positions have the same keys)."""
        served = self.library_games
        return served if served is not None and served[0] == analysis.position else None

    def _mask_names(self, writer: LineWriter, analysis: Analysis, *, complete: bool = True) -> None:
        """The six masks a line each (more where one is long: nothing is cut), their cells named as the board
        names them (where six small boards do not fit). Not ``complete`` (a search has not proven every move):
        the masks of the exact values hold the moves proven so far, and say so."""
        style = self.part
        geometry = analysis.position.geometry
        for name in MASK_NAMES:
            cells = _names_of(analysis.masks.get(name), geometry)
            so_far = not complete and name in SEARCHED_MASKS
            writer.write(mask_title(name, geometry).ljust(MASK_COLUMN), style("evaluation--heading"))
            if cells:
                words = [*cells, ("(so far)", style("evaluation--dim"))] if so_far else cells
                writer.write_wrapped(words, style("evaluation--mask"), indent=MASK_COLUMN)
            else:
                writer.write("(none proven yet)" if so_far else "(none)", style("evaluation--dim"))
            writer.newline()

    def _masks(self, writer: LineWriter, analysis: Analysis) -> None:
        style = self.part
        position = analysis.position
        geometry = position.geometry
        column = max(MASK_COLUMN, 2 * geometry.cols + 1)  # a small board, a space, its label above it
        if len(MASK_NAMES) * column - 1 > writer.width:
            self._mask_names(writer, analysis)
            writer.write("p-win/p-lose: perfect play", style("evaluation--dim"))
            return
        for name in MASK_NAMES:
            writer.write(mask_title(name, geometry).ljust(column), style("evaluation--heading"))
        for row in range(geometry.rows):
            writer.newline()
            for name in MASK_NAMES:
                mask: Bitboard = analysis.masks.get(name)
                for col in range(geometry.cols):
                    cell = geometry.cell(row, col)
                    mark = position.mark_at(cell)
                    # the blank after a cell (and after the last, up to the next board) in the cell's own style: a
                    # blank shows no colour, and a row then changes style only where the mask does (written as
                    # changes, a style for every blank was most of a step's bytes)
                    blank = " " if col < geometry.cols - 1 else " " * (column - 2 * geometry.cols + 1)
                    if mask & cell_bit(cell):
                        writer.write("●" + blank, style("evaluation--mask"))
                    else:
                        writer.write((mark.value.lower() if mark else "·") + blank, style("evaluation--dim"))
        writer.newline().write("● in the mask · p-win/p-lose: perfect play", style("evaluation--dim"))

    def _moves(self, writer: LineWriter, analysis: Analysis) -> None:
        assert self.state is not None  # pragma: no mutate - bound before the first paint
        style = self.part
        if not analysis.moves:
            writer.write("No moves: the game is over.", style("evaluation--dim"))
            return
        served = self._served(analysis)
        if served is not None:
            source = "the library"
        elif any(move.games is None for move in analysis.moves):
            source = "not counted past 16 cells"
        else:
            source = "computed"
        writer.write(f"games after each move: {source}", style("evaluation--dim")).newline()
        moves = best_first(analysis.moves)
        counts = []
        for move in moves:
            games = move.games
            if served is not None and move.cell in served[2]:
                library = served[2][move.cell]  # the same figure, read from the games table
                games = GameCounts(library["x"], library["o"], library["draw"])
            counts.append(games)
        geometry = analysis.position.geometry
        cells = [
            ("★" if analysis.masks.best & cell_bit(move.cell) else "") + cell_name(move.cell, geometry)
            for move in moves
        ]
        # each column as wide as its longest entry: 3×4's counts run to seven digits, its cells to two
        wide_columns = [
            ("cell", cells, ">"),
            ("value", [move.value.label for move in moves], "<"),
            ("plies", [str(move.remoteness) for move in moves], ">"),
            ("trap", ["—" if move.trap is None else f"{move.trap:4.2f}" for move in moves], ">"),
        ]
        if all(games is not None for games in counts):
            wide_columns += [
                (name, [f"{getattr(games, field):,}" for games in counts], ">")
                for name, field in (("games", "total"), ("X", "x"), ("O", "o"), ("draw", "draw"))
            ]
        layouts = [wide_columns]
        if len(wide_columns) > 4:  # narrower: the X / O / draw split in one column, then without it
            compact = [*wide_columns[:2], ("ply", wide_columns[2][1], ">"), wide_columns[3], wide_columns[4]]
            layouts.append([*compact, ("X/O/draw", [f"{games.x}/{games.o}/{games.draw}" for games in counts], ">")])
            layouts.append(compact)
        columns = next((layout for layout in layouts if _table_width(layout) <= writer.width), layouts[-1])
        widths = [_column_width(column) for column in columns]
        heading = style("evaluation--heading") + Style(underline=True)
        writer.write(
            " ".join(f"{header:{align}{width}}" for (header, _, align), width in zip(columns, widths)), heading
        )
        highlighted = self.state.view.highlighted
        for row, move in enumerate(moves):
            writer.newline()
            self._row_cells[len(writer.lines) - 1] = move.cell
            row_style = style("evaluation--highlight") if move.cell == highlighted else None
            for index, ((_, entries, align), width) in enumerate(zip(columns, widths)):
                text = f"{entries[row]:{align}{width}}"
                if index == 1:  # the value, in its colour
                    value_style = style(VALUE_CLASS[move.value])
                    writer.write(" " + text, value_style + row_style if row_style else value_style)
                else:
                    writer.write(text if index == 0 else " " + text, row_style)


class EvaluationPane(ViewPane):
    """Evaluation: masks, value and remoteness, and a table of moves, live with the cursor."""

    PANE_TITLE = "Evaluation"
    VIEW = EvaluationView

    def __init__(self, *, welcome: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self._welcome = welcome
        """The first run: given to the view as it is made, so that its first layout has the lines it adds."""

    def compose(self) -> ComposeResult:
        view = EvaluationView()
        view.set_reactive(EvaluationView.welcome, self._welcome)
        yield view.data_bind(state=ViewPane.state, ready=ViewPane.ready)
