"""Rich renderings of engine results, for the command line.

Kept out of the engine (which imports no Rich) and out of the TUI (which has
its own widgets), so ``workbench analyze`` prints the same facts the panes show.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from .engine import MASK_NAMES, Analysis, Bitboard, Position, Value, cell_bit, cells_of

# Styles as values, not names: Rich reads a style's name in any case ("BOLD" is "bold"), so a
# name's case can change nothing, and a test could not tell
BOLD = Style(bold=True)
DIM = Style(dim=True)
REVERSE = Style(reverse=True)

VALUE_STYLES = {Value.WIN: "bold green", Value.DRAW: "yellow", Value.LOSS: "bold red"}
MARK_STYLES = {"X": "bold cyan", "O": "bold magenta"}


def board_text(position: Position, highlight: Bitboard) -> Text:
    """The board as text: marks, dim cell numbers on empty cells, the marks of ``highlight`` reversed."""
    geometry = position.geometry
    width = len(str(geometry.size))
    text = Text()
    for row in range(geometry.rows):
        if row:
            text.append("\n" + "┼".join(["─" * (width + 2)] * geometry.cols) + "\n", style=DIM)
        for col in range(geometry.cols):
            cell = geometry.cell(row, col)
            if col:
                text.append("│", style=DIM)
            mark = position.mark_at(cell)
            if mark is None:
                text.append(f" {cell:^{width}} ", style=DIM)
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


def cell_list(mask: Bitboard) -> str:
    cells = cells_of(mask)
    return ", ".join(map(str, cells)) if cells else "—"


def value_text(value: Value | None, remoteness: int | None) -> Text:
    if value is None:
        return Text("—", style=DIM)
    return Text(f"{value.label} in {remoteness}", style=VALUE_STYLES[value])


def moves_table(analysis: Analysis) -> Table:
    table = Table(title="Moves (for the side to move)", title_justify="left")
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
    coordinates = geometry.size > 9  # beside the number, as Gomoku programs write the cell (h8)
    if coordinates:
        from .engine.geometry import format_coordinate

        table.columns[0].header = "cell coord"
    for move in analysis.moves:
        trap = "—" if move.trap is None else f"{move.trap:.3f}"
        marker = " ★" if best & cell_bit(move.cell) else ""
        shown = f"{move.cell} {format_coordinate(move.cell, geometry)}" if coordinates else str(move.cell)
        table.add_row(
            f"{shown}{marker}",
            Text(move.value.label, style=VALUE_STYLES[move.value]),
            str(move.remoteness),
            trap,
            f"{move.games.total:,}",
            f"{move.games.x:,}",
            f"{move.games.o:,}",
            f"{move.games.draw:,}",
        )
    return table


def analysis_view(analysis: Analysis) -> RenderableType:
    """Everything ``workbench analyze`` prints for one position."""
    from .engine import format_position

    position = analysis.position
    symmetry = analysis.symmetry
    facts = Text()
    facts.append(format_position(position), style=BOLD)
    facts.append("\nstatus     ")
    facts.append(analysis.status.value)
    if position.dead_draw:
        facts.append(" (dead draw: no line left)", style="yellow")  # pragma: no mutate - Rich reads colour names in any case
    facts.append("\nto move    ")
    facts.append(analysis.to_move.value if analysis.to_move else "—")
    facts.append("\nvalue      ")
    facts.append_text(value_text(analysis.value, analysis.remoteness))
    facts.append(f"\nclass      {symmetry.class_id} of {symmetry.class_count}, orbit {symmetry.orbit_size}")
    facts.append(f"\ncanonical  {format_position(symmetry.canonical)}")
    facts.append(f"\nstabiliser {', '.join(t.name for t in symmetry.stabilizer)}")
    groups = " ".join("{" + ",".join(map(str, group)) + "}" for group in symmetry.move_classes) or "—"
    facts.append(f"\nmove classes {groups}")
    games = analysis.games
    facts.append(f"\ngames      {games.total:,} (X {games.x:,} · O {games.o:,} · draw {games.draw:,})")
    header = _board_beside(position, facts)
    if analysis.to_move is None:
        return header
    masks = Table(title="Masks", title_justify="left", box=None, padding=(0, 2))
    for name in MASK_NAMES:
        masks.add_column(name.replace("_", "-"))
    masks.add_row(*(mask_board(position, analysis.masks.get(name)) for name in MASK_NAMES))
    masks.add_row(*(cell_list(analysis.masks.get(name)) for name in MASK_NAMES))
    return Group(header, Text(), masks, Text(), moves_table(analysis))


def _board_beside(position: Position, facts: Text) -> Table:
    """The board, its winning lines reversed, with ``facts`` to its right: the head of both analysis views."""
    header = Table.grid(padding=(0, 3))  # pragma: no mutate - one row: a grid pads no edge, so its vertical padding never shows
    header.add_column()
    header.add_column()
    header.add_row(board_text(position, highlight=_last_line(position)), facts)
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


def review_lines(reviews, scores) -> list[str]:
    """The scorecard as plain lines: one per move (why a move was not best), then one per side."""
    from .engine.review import Rating

    lines = []
    for review in reviews:
        number = f"{(review.ply + 1) // 2}{'.' if review.ply % 2 else '…'}"
        line = f"{number:>4} {review.player.value} {review.cell}  {review.rating.value}"
        if review.rating is not Rating.BEST:
            before = outcome_label(review.value_before, review.remoteness_before)
            after = outcome_label(review.value_after, review.remoteness_after)
            line += f": {before} → {after} (best: {', '.join(map(str, review.best_cells))})"
        lines.append(line)
    for player, side in scores:
        accuracy = "-" if side.accuracy is None else f"{side.accuracy:.0%}"
        lines.append(
            f"{player.value}: {side.moves} moves · {side.best} best · {side.inaccurate} inaccurate · "
            f"{side.mistakes} {'mistake' if side.mistakes == 1 else 'mistakes'} · accuracy {accuracy}"
        )
    return lines


def search_view(record: dict, position: Position) -> RenderableType:
    """What ``workbench analyze`` prints for a board searched position by position (above 16 cells): every
    proven move's value, and "unknown (N nodes searched)" for the rest — never a guess."""
    from .engine.geometry import format_coordinate

    geometry = position.geometry
    facts = Text()
    facts.append(record["position"], style=BOLD)
    facts.append(f"\nvariant    {geometry}")
    facts.append(f"\nstatus     {record['status']}")
    if record["dead_draw"]:
        facts.append(" (dead draw: no line left)", style="yellow")  # pragma: no mutate - Rich reads colour names in any case
    facts.append(f"\nto move    {record['to_move'] or '—'}")
    facts.append("\nvalue      ")
    if record["value"] is not None:
        facts.append_text(value_text(Value[record["value"].upper()], record["remoteness"]))
    else:
        proven = sum(move["proven"] for move in record["moves"])
        facts.append(f"unknown ({proven} of {len(record['moves'])} moves proven)", style=DIM)
    facts.append(f"\nsearched   {record['nodes']:,} nodes")
    facts.append(f"\norbit      {record['symmetry']['orbit_size']}, canonical {record['symmetry']['canonical']}")
    header = _board_beside(position, facts)
    if record["to_move"] is None:
        return header
    masks = Table(title="Masks", title_justify="left", box=None, padding=(0, 2))
    masks.add_column("mask")
    masks.add_column("cells")
    for name in MASK_NAMES:
        cells = record["masks"][name]
        masks.add_row(name.replace("_", "-"), ", ".join(f"{cell} {format_coordinate(cell, geometry)}" for cell in cells) or "—")
    table = Table(title="Moves (for the side to move)", title_justify="left")
    table.add_column("cell", justify="right")
    table.add_column("coordinate")
    table.add_column("value")
    table.add_column("plies", justify="right")
    table.add_column("nodes", justify="right")
    for move in record["moves"]:
        if move["proven"]:
            value = Value[move["value"].upper()]
            shown, plies = Text(value.label, style=VALUE_STYLES[value]), str(move["remoteness"])
        else:
            shown, plies = Text(f"unknown ({move['nodes']:,} nodes searched)", style=DIM), "—"
        table.add_row(str(move["cell"]), format_coordinate(move["cell"], geometry), shown, plies, f"{move['nodes']:,}")
    return Group(header, Text(), masks, Text(), table)
