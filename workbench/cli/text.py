"""Rich renderings of engine results, for the command line (and nothing else: it lives in the command line's room).

Kept out of the engine (which imports no Rich) and out of the TUI (which has
its own widgets), so ``workbench analyze`` prints the same facts the panes show.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from ..engine import MASK_NAMES, Analysis, Bitboard, Position, Value, cell_bit, cells_of
from ..engine.geometry import cell_name, cell_names, uses_cell_numbers
from ..engine.results import SEARCHED_MASKS, mask_title, win_proven_within

# Styles as values, not names: Rich reads a style's name in any case ("BOLD" is "bold"), so a
# name's case can change nothing, and a test could not tell
BOLD = Style(bold=True)
DIM = Style(dim=True)
REVERSE = Style(reverse=True)

VALUE_STYLES = {Value.WIN: "bold green", Value.DRAW: "yellow", Value.LOSS: "bold red"}
MARK_STYLES = {"X": "bold cyan", "O": "bold magenta"}


GRID_SIDE = 7
"""Boards up to this many rows and columns are drawn as a grid with their cells named; bigger ones compact."""


def board_text(position: Position, highlight: Bitboard, width: int | None = None) -> Text:
    """The board as text, the marks of ``highlight`` reversed. 3×3 names its empty cells 1-9; any other board has
    its coordinates on its edges (row numbers from the bottom, column letters under it) and its cells' names in
    them, or, where that grid is wider than ``width``, is drawn compact: a mark or a dot a cell."""
    geometry = position.geometry
    if uses_cell_numbers(geometry):
        return _grid(position, highlight, len(str(geometry.size)), "")
    label = len(str(geometry.rows))
    name_width = max(len(cell_name(cell, geometry)) for cell in (1, geometry.size))
    grid_width = label + 1 + geometry.cols * (name_width + 2) + geometry.cols - 1
    # a grid with every cell named reads well up to 7×7; beyond, it runs to 29 lines for 15×15: compact
    if max(geometry.rows, geometry.cols) <= GRID_SIDE and (width is None or grid_width <= width):
        text = _grid(position, highlight, name_width, " " * (label + 1), label)
        letters = "│".join(f" {chr(ord('a') + col):^{name_width}} " for col in range(geometry.cols))
    else:
        text = Text()
        for row in range(geometry.rows):
            if row:
                text.append("\n")
            text.append(f"{geometry.rows - row:>{label}} ", style=DIM)
            for col in range(geometry.cols):
                cell = geometry.cell(row, col)
                mark = position.mark_at(cell)
                if col:
                    text.append(" ")
                if mark is None:
                    text.append("·", style=DIM)
                else:
                    text.append(
                        mark.value,
                        style=Style.parse(MARK_STYLES[mark.value])
                        + (REVERSE if highlight & cell_bit(cell) else Style()),
                    )
        letters = " ".join(chr(ord("a") + col) for col in range(geometry.cols))
    text.append("\n" + " " * (label + 1) + letters, style=DIM)
    return text


def _grid(position: Position, highlight: Bitboard, width: int, margin: str, label: int = 0) -> Text:
    """The board with grid lines, each cell ``width`` wide inside a space either side; ``label`` columns of row
    numbers (from the bottom) left of it, ``margin`` wide with their space."""
    geometry = position.geometry
    text = Text()
    for row in range(geometry.rows):
        if row:
            text.append("\n" + margin + "┼".join(["─" * (width + 2)] * geometry.cols) + "\n", style=DIM)
        if label:
            text.append(f"{geometry.rows - row:>{label}} ", style=DIM)
        for col in range(geometry.cols):
            cell = geometry.cell(row, col)
            if col:
                text.append("│", style=DIM)
            mark = position.mark_at(cell)
            if mark is None:
                text.append(f" {cell_name(cell, geometry):^{width}} ", style=DIM)
            else:
                style = Style.parse(MARK_STYLES[mark.value]) + (REVERSE if highlight & cell_bit(cell) else Style())
                text.append(f" {mark.value:^{width}} ", style=style)
    return text


def mask_board(position: Position, mask: Bitboard) -> Text:
    """A small board: ● on the mask's cells, the marks elsewhere."""
    geometry = position.geometry
    text = Text()
    for row in range(geometry.rows):
        if row:
            text.append("\n")
        for col in range(geometry.cols):
            cell = geometry.cell(row, col)
            mark = position.mark_at(cell)
            if mask & cell_bit(cell):
                text.append("● ", style="bold green")  # pragma: no mutate - Rich reads style names in any case
            elif mark:
                text.append(mark.value.lower() + " ", style=DIM)
            else:
                text.append("· ", style=DIM)
    return text


def cell_list(mask: Bitboard, geometry) -> str:
    return cell_names(cells_of(mask), geometry, ", ") or "—"


def value_text(value: Value | None, remoteness: int | None) -> Text:
    if value is None:
        return Text("—", style=DIM)
    return Text(f"{value.label} in {remoteness}", style=VALUE_STYLES[value])


def moves_table(analysis: Analysis) -> Table:
    """Every move's value, remoteness, trap and games; a caption tells the ★ best moves (the quickest win, else a
    draw, else the slowest loss) from the moves that keep the value, however slowly: two things, two names."""
    keeping = [move.cell for move in analysis.moves if move.value == analysis.value]
    caption = "★ best: the quickest win, else a draw, else the slowest loss" + (
        f" · keep the {analysis.value.label}: {cell_names(keeping, analysis.position.geometry, ', ')}"
        if analysis.value in (Value.WIN, Value.DRAW)
        else ""
    )
    table = Table(title="Moves (for the side to move)", title_justify="left", caption=caption, caption_justify="left")
    table.add_column("cell", justify="right")
    table.add_column("value")
    table.add_column("plies", justify="right")
    table.add_column("trap", justify="right")
    table.add_column("games", justify="right")
    table.add_column("X wins", justify="right")
    table.add_column("O wins", justify="right")
    table.add_column("draws", justify="right")
    best = analysis.masks.best
    geometry = analysis.position.geometry
    for move in analysis.moves:
        assert move.value is not None  # pragma: no mutate - the view of an exact analysis (a search has its own)
        trap = "—" if move.trap is None else f"{move.trap:.3f}"
        marker = " ★" if best & cell_bit(move.cell) else ""
        table.add_row(
            f"{cell_name(move.cell, geometry)}{marker}",
            Text(move.value.label, style=VALUE_STYLES[move.value]),
            str(move.remoteness),
            trap,
            *(
                (f"{move.games.total:,}", f"{move.games.x:,}", f"{move.games.o:,}", f"{move.games.draw:,}")
                if move.games is not None
                else ("not counted", "—", "—", "—")
            ),
        )
    return table


def analysis_view(analysis: Analysis, width: int | None = None) -> RenderableType:
    """Everything ``workbench analyze`` prints for one position, laid out for ``width`` columns."""
    from ..engine import format_position

    position = analysis.position
    symmetry = analysis.symmetry
    facts = Text()
    facts.append(format_position(position), style=BOLD)
    facts.append("\nstatus     ")
    facts.append(analysis.status.value)
    if position.dead_draw:
        facts.append(" (dead draw: no line left)", style="yellow")  # pragma: no mutate - Rich reads any case
    facts.append("\nto move    ")
    facts.append(analysis.to_move.value if analysis.to_move else "—")
    facts.append("\nvalue      ")
    facts.append_text(value_text(analysis.value, analysis.remoteness))
    if symmetry.class_id is None:  # past 16 cells the classes are not numbered
        facts.append(f"\nclass      not numbered past 16 cells, orbit {symmetry.orbit_size}")
    else:
        facts.append(f"\nclass      {symmetry.class_id} of {symmetry.class_count}, orbit {symmetry.orbit_size}")
    facts.append(f"\ncanonical  {format_position(symmetry.canonical)}")
    facts.append(f"\nstabiliser {', '.join(t.name for t in symmetry.stabilizer)}")
    groups = " ".join("{" + cell_names(group, position.geometry, ",") + "}" for group in symmetry.move_classes) or "—"
    facts.append(f"\nmove classes {groups}")
    games = analysis.games
    if games is None:
        facts.append("\ngames      not counted past 16 cells")
    else:
        facts.append(f"\ngames      {games.total:,} (X {games.x:,} · O {games.o:,} · draw {games.draw:,})")
    header = _board_beside(position, facts, width)
    if analysis.to_move is None:
        return header
    masks = Table(title="Masks", title_justify="left", box=None, padding=(0, 2))
    for name in MASK_NAMES:
        masks.add_column(mask_title(name, position.geometry, short=False))
    masks.add_row(*(mask_board(position, analysis.masks.get(name)) for name in MASK_NAMES))
    masks.add_row(*(cell_list(analysis.masks.get(name), position.geometry) for name in MASK_NAMES))
    return Group(header, Text(), masks, Text(), moves_table(analysis))


def _board_beside(position: Position, facts: Text, width: int | None = None) -> RenderableType:
    """The board, its winning lines reversed, with ``facts`` to its right where both fit ``width``, else above
    them: the head of both analysis views. Nothing wraps: a board too wide for a grid is drawn compact."""
    board = board_text(position, highlight=_last_line(position), width=width)
    board_width = max(len(line) for line in board.plain.split("\n"))
    facts_width = max(len(line) for line in facts.plain.split("\n"))
    if width is not None and board_width + 3 + facts_width > width:
        return Group(board, Text(), facts)
    header = Table.grid(padding=(0, 3))  # pragma: no mutate - one row: its vertical padding never shows
    header.add_column()
    header.add_column()
    header.add_row(board, facts)
    return header


def _last_line(position: Position) -> Bitboard:
    lines = position.winning_lines()
    result = 0
    for line in lines:
        result |= line
    return result


def outcome_label(value: Value, remoteness: int) -> str:
    """``win in 3``, ``loss in 4``, ``draw``: a value with its remoteness where that matters."""
    return "draw" if value is Value.DRAW else f"{value.label} in {remoteness}"


def review_lines(reviews, scores, geometry=None, words=None) -> list[str]:
    """The scorecard as plain lines: one per move (why a move was not best, or that it is not proven), then one
    per side. Cells named as ``geometry``'s board names them (3×3 by default). ``words`` (ply → the move's
    explanation in words) adds a line under each move that was not best."""
    from ..engine.geometry import TIC_TAC_TOE, cell_name, cell_names
    from ..engine.review import Rating

    geometry = geometry or TIC_TAC_TOE
    lines = []
    for review in reviews:
        number = f"{(review.ply + 1) // 2}{'.' if review.ply % 2 else '…'}"
        line = f"{number:>4} {review.player.value} {cell_name(review.cell, geometry)}  {review.rating.value}"
        best = cell_names(review.best_cells, geometry, ", ")
        if review.rating is Rating.NOT_PROVEN:
            if review.value_after is not None:  # the move proven, the rest not: its value, never a verdict
                line += f": {outcome_label(review.value_after, review.remoteness_after)} (not every move proven)"
            else:
                line += " (the search did not prove this move)"
        elif review.rating is not Rating.BEST:
            after = outcome_label(review.value_after, review.remoteness_after)
            if review.exact_before:
                line += f": {outcome_label(review.value_before, review.remoteness_before)} → {after} (best: {best})"
            else:  # a proven better move; the best of all may be better still (but no value is above a win)
                at_least = "" if review.value_before is Value.WIN else " at least"
                line += f": {review.value_before.label}{at_least} → {after} (proven better: {best})"
        lines.append(line)
        if words and review.rating in (Rating.MISTAKE, Rating.INACCURATE) and review.ply in words:
            lines.append(f"         {words[review.ply]}")
    for player, side in scores:
        accuracy = "-" if side.accuracy is None else f"{side.accuracy:.0%}"
        unproven = f" · {side.not_proven} not proven" if side.not_proven else ""
        moves = f"{side.moves} {'move' if side.moves == 1 else 'moves'}"
        lines.append(
            f"{player.value}: {moves} · {side.best} best · {side.inaccurate} inaccurate · "
            f"{side.mistakes} {'mistake' if side.mistakes == 1 else 'mistakes'}{unproven} · accuracy {accuracy}"
        )
    return lines


def search_view(record: dict, position: Position, width: int | None = None, all_moves: bool = False) -> RenderableType:
    """What ``workbench analyze`` prints for a board searched position by position (above 16 cells): every
    proven move's value, the moves searched without a proof with their nodes, and one line counting the rest
    (``all_moves``: a row for every move) — never a guess."""
    geometry = position.geometry
    facts = Text()
    from ..engine.position import format_marks

    facts.append(
        format_marks(position) or "the empty board", style=BOLD
    )  # its 15 rows of dots as one string would say less
    facts.append(f"\nvariant    {geometry}")
    facts.append(f"\nstatus     {record['status']}")
    if record["dead_draw"]:
        facts.append(" (dead draw: no line left)", style="yellow")  # pragma: no mutate - Rich reads any case
    facts.append(f"\nto move    {record['to_move'] or '—'}")
    facts.append("\nvalue      ")
    if record["value"] is not None:
        facts.append_text(value_text(Value[record["value"].upper()], record["remoteness"]))
    else:
        proven = sum(move["proven"] for move in record["moves"])
        within = win_proven_within(
            (Value[move["value"].upper()] if move["value"] else None, move["remoteness"]) for move in record["moves"]
        )
        if within is not None:  # a winning move proven: the position is won, perhaps more quickly
            facts.append(f"win in at most {within} ", style=VALUE_STYLES[Value.WIN])
        facts.append(
            f"{'' if within is not None else 'unknown '}({proven} of {len(record['moves'])} moves proven)", style=DIM
        )
    facts.append(f"\nsearched   {record['nodes']:,} nodes")
    facts.append(f"\norbit      {record['symmetry']['orbit_size']}")
    header = _board_beside(position, facts, width)
    if record["to_move"] is None:
        return header
    masks = Table(title="Masks", title_justify="left", box=None, padding=(0, 2))
    masks.add_column("mask")
    masks.add_column("cells")
    complete = all(move["proven"] for move in record["moves"])
    for name in MASK_NAMES:
        cells = cell_names(record["masks"][name], geometry, ", ")
        if name in SEARCHED_MASKS and not complete:  # moves not proven yet may belong to these too
            cells = f"{cells} (so far)" if cells else "none proven yet"
        masks.add_row(mask_title(name, geometry, short=False), cells or "—")
    table = Table(title="Moves (for the side to move)", title_justify="left")
    table.add_column("cell")
    table.add_column("value")
    table.add_column("plies", justify="right")
    table.add_column("nodes", justify="right")
    shown = [move for move in record["moves"] if all_moves or move["proven"] or move["nodes"]]
    for move in shown:
        if move["proven"]:
            value = Value[move["value"].upper()]
            cell_value, plies = Text(value.label, style=VALUE_STYLES[value]), str(move["remoteness"])
        else:
            cell_value, plies = Text("unknown", style=DIM), "—"
        table.add_row(cell_name(move["cell"], geometry), cell_value, plies, f"{move['nodes']:,}")
    rest = len(record["moves"]) - len(shown)
    parts: list[RenderableType] = [header, Text(), masks, Text()]
    if shown:
        parts.append(table)
    if rest:
        parts.append(Text(f"{rest} more moves not searched: unknown (--all-moves lists every one)", style=DIM))
    return Group(*parts)
