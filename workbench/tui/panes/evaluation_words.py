"""The Evaluation pane's words for a learner: how to begin and what is due on the first screen, the best line, the
selected move explained, and the game's mistakes at its end. Each is written into the pane's lines by the pane
(:class:`~workbench.tui.panes.evaluation.EvaluationView`), in its component styles (``part``).

Imports the engine, the state and the pane's line writer; no widget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.style import Style

from ...engine.explain import explained
from ...engine.geometry import (
    Geometry,
    cell_name,
    describe_variant,
    format_variant,
    parse_variant,
    uses_cell_numbers,
)
from ...state import AppState, selected_line, selected_move
from ...state.practice import mistake_summary
from .lines import LineWriter

Part = Callable[[str], Style]
"""A component class's style, by name (:meth:`~workbench.tui.panes.lines.LinesView.part`)."""


def how_to_begin(geometry: Geometry) -> str:
    """The first screen's line: how to play, step back, see a mistake and learn from it, and find every key."""
    play = "press 1–9 or click a cell" if uses_cell_numbers(geometry) else "click a cell, or h j k l and enter"
    return (
        f"{play} to play; ← steps back; ?? marks a mistake, and L learns from it; u gives puzzles; f1 shows every key."
    )


def write_first_screen(
    writer: LineWriter, state: AppState, part: Part, *, welcome: bool, due: tuple[tuple[str, int], ...]
) -> None:
    """On the first screen, nothing played yet: how to begin (the first run), and the practice due today, by board,
    with where to practise it: on this board by its keys, on another by opening that board first."""
    if welcome:
        writer.newline(2).write("How to begin: ", part("evaluation--heading"))
        writer.write_wrapped(how_to_begin(state.geometry).split(), indent=2)
    if due:
        writer.newline(2).write("Due today: ", part("evaluation--heading"))
        writer.write_wrapped(f"{due_words(due)} ({_where_to_practise(due, state.geometry)})".split(), indent=2)


def due_words(due: Iterable[tuple[str, int]]) -> str:
    """``3 on 3×3, 1 on 3×4``: the due counts, by variant, in words."""
    return ", ".join(f"{count} on {describe_variant(parse_variant(variant), short=True)}" for variant, count in due)


def _where_to_practise(due: tuple[tuple[str, int], ...], geometry: Geometry) -> str:
    # L asks the open study's mistakes only: the palette's command asks every study's, where they are kept
    here = dict(due).get(format_variant(geometry), 0)
    keys = 'u for puzzles, ctrl+p "Learn from all your mistakes" for mistakes'
    if here and len(due) == 1:
        return keys
    if here:
        return f"the {here} here: {keys}; the others on their own boards"
    return f'on their own boards: ctrl+p "New game: …", then {keys}'


def write_best_line(writer: LineWriter, state: AppState, part: Part) -> None:
    """Perfect play after the selected move, the "why" of its value; ``b`` adds it."""
    style = part
    line = [cell_name(cell, state.geometry) for cell in selected_line(state)]
    if selected_move(state) is None:
        heading, rest = "best line: ", line
    else:  # the move itself starts the row; what follows is both sides' best replies
        heading, rest = f"after {line[0]}: ", line[1:] or ["the game is over"]
    writer.write(heading, style("evaluation--heading"))
    # the whole line, wrapped under itself where the pane is narrow (3×5's runs to 15 moves)
    writer.write_wrapped(rest, indent=len(heading))
    if writer.used() + len("  b adds it") <= writer.width:
        writer.write("  b adds it", style("evaluation--dim"))
    else:
        writer.newline().write("b adds it", style("evaluation--dim"))


def write_game_mistakes(writer: LineWriter, state: AppState, part: Part) -> None:
    """At the game's end: the mistakes that decided it, each a line, and the key that practises them."""
    if state.searched:
        return
    mistakes = mistake_summary(state.tree, state.tree.path(state.cursor), state.board_answers)
    writer.newline(2)
    if not mistakes:
        # wrapped, never cut: the pane is narrower than the sentence at 120 columns, zoomed or not
        writer.write_wrapped("No mistakes in this game: both sides kept their value.".split(), part("evaluation--dim"))
        return
    writer.write("Mistakes in this game:", part("evaluation--heading"))
    for line in mistakes:
        writer.newline().write_wrapped(line.split(), part("evaluation--loss"), indent=2)
    writer.newline().write_wrapped(
        "L learns from them: each asked again, find a better move".split(), part("evaluation--dim")
    )


def write_in_words(writer: LineWriter, state: AppState, part: Part) -> None:
    """The selected move explained in words (``engine.explain``): its verdict and the line that proves it;
    where no move is selected, the move that led here (after a mistake: how it is punished)."""
    cell = selected_move(state)
    if cell is not None:
        heading, position = "why: ", state.position
    else:
        node = state.tree.node(state.cursor)
        if node.move is None or node.parent is None:  # the start
            return
        heading, position, cell = "last move: ", state.tree.position(node.parent), node.move
    writer.newline(2).write(heading, part("evaluation--heading"))
    writer.write_wrapped(explained(position, cell, state.board_answers).text.split(), indent=len(heading))
