"""Practice screens: "learn from your mistakes" and puzzles, judged exactly (:mod:`workbench.state.practice`), and
the dialog that asks whose mistakes to practise.

The practice screen has a board of its own (the app's :class:`~.panes.board.BoardGrid`, bound to a state the
screen makes for the exercise) and never touches the study: its board's moves come to the screen, not to the store,
and are judged rather than played. What was practised goes back to the app when the screen closes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Label, Static

from ..engine import Player
from ..engine.geometry import cell_name, describe_variant
from ..state import AppState, GameTree, ViewSettings
from ..state.actions import Highlight, PlayCell
from ..state.practice import Practice, answer, hint_mask, moved_on, prompt, score, solution, with_hint, with_solution
from .panes.board import BoardGrid

class SideDialog(ModalScreen[Player | str | None]):
    """Whose mistakes to practise: X, O or both (escape: none)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("x", "dismiss('X')", "X's mistakes", show=False),
        Binding("o", "dismiss('O')", "O's mistakes", show=False),
        Binding("b", "dismiss('both')", "Both sides'", show=False),
    ]

    def __init__(self, counts: dict[str, int]) -> None:
        super().__init__()
        self._counts = counts
        """Mistakes and inaccuracies per side (``X``, ``O``): shown on the buttons."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Learn from your mistakes: whose?", classes="dialog-title")
            with Horizontal(classes="dialog-buttons"):
                for side in ("X", "O"):
                    label = f"{side} ({self._counts[side]})" if side in self._counts else side
                    yield Button(label, variant="primary" if side == self._first else "default", id=side)
                yield Button("Both", id="both")
            yield Label("x, o or b · escape cancels · (n): mistakes and inaccuracies", classes="dialog-hint")

    @property
    def _first(self) -> str:
        """The side offered first: the one with more to practise (X on a tie, or with no counts)."""
        return "O" if self._counts.get("O", 0) > self._counts.get("X", 0) else "X"

    def on_mount(self) -> None:
        self.query_one(f"#{self._first}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)


class PracticeScreen(ModalScreen[Practice]):
    """One exercise at a time: the position on a board, the question, and the answers judged exactly.

    | Key | Does |
    | :- | :- |
    | 1–9, click, h j k l + enter | answer that cell (on boards above 3×3, the cursor or a click) |
    | m | hint: light the mask that matters (the win, the block, the fork) |
    | space | show the solution (the best move and the line after it, numbered on the board) |
    | n | next exercise (skips one not answered) |
    | escape | stop: back to the study, with what was practised |
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "hint", "Hint"),
        Binding("space", "solution", "Solution"),
        Binding("n", "next", "Next"),
        Binding("escape,q", "stop", "Stop"),
    ]

    def __init__(self, practice: Practice, title: str, *, on_result: Callable[[Practice], None] | None = None,
                 figures: str | None = None) -> None:  # fmt: skip
        super().__init__()
        self.practice = practice
        self._title = title
        self._on_result = on_result
        """Called with the session as each exercise ends, before it moves on (the app keeps the attempt)."""
        self._figures = figures
        """A line of figures kept in the library (a puzzle streak and solve rate), or None."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="practice"):
            with Vertical(id="practice-board"):
                yield BoardGrid()
            yield Static(id="practice-panel")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#practice-panel").border_title = self._title
        board = self.query_one(BoardGrid)
        if self.practice.exercises:
            self.query_one("#practice-board").border_title = describe_variant(self.practice.exercises[0].position.geometry, short=True)
        board.ready = True
        self.show()
        board.focus()

    # --- what the board's keys and clicks ask for -------------------------------------------------------------

    def take_action(self, action) -> None:
        """The board's :func:`~.messages.dispatch` comes here (not to the study's store): a move is an answer."""
        if isinstance(action, PlayCell):
            self._set(answer(self.practice, action.cell))
        elif isinstance(action, Highlight):
            board = self.query_one(BoardGrid)
            board.state = AppState(geometry=board.state.geometry, tree=board.state.tree, cursor=board.state.cursor,
                                   view=ViewSettings(highlighted=action.cell, overlay=board.state.view.overlay))  # fmt: skip

    def action_hint(self) -> None:
        self._set(with_hint(self.practice))

    def action_solution(self) -> None:
        self._set(with_solution(self.practice))

    def action_next(self) -> None:
        if self.practice.finished:
            self.dismiss(self.practice)
            return
        if self._on_result is not None:
            self._on_result(self.practice)
        self._set(moved_on(self.practice))

    def action_stop(self) -> None:
        practice = self.practice
        if not practice.finished and (practice.tries or practice.shown):  # answered: it counts
            self.action_next()
        self.dismiss(self.practice)

    def show_figures(self, figures: str) -> None:
        """New figures from the library (an attempt kept): shown at once."""
        self._figures = figures
        self.show()

    def _set(self, practice: Practice) -> None:
        if practice is not self.practice:
            self.practice = practice
            self.show()

    # --- drawing ------------------------------------------------------------------------------------------------

    def show(self) -> None:
        """Draw the board and the panel for the session as it is now."""
        practice = self.practice
        board = self.query_one(BoardGrid)
        panel = self.query_one("#practice-panel", Static)
        exercise = practice.current
        if exercise is None:
            panel.update(Text.assemble(("Done. ", "bold"), score(practice), "\n\n", ("n or escape: back to the study", "dim")))
            return
        position = exercise.position
        highlighted, overlay = board.state.view.highlighted if board.state is not None else None, "none"
        if practice.settled:  # the best move, and the line after it in order
            cell = next((judgement.cell for judgement in practice.tries if judgement.grade == "best"), solution(position)[0])
            highlighted, overlay = cell, "line"
        elif practice.hint_showing:  # asked for last: its mask
            overlay = hint_mask(position)
        elif practice.tries:  # the last answer and how it is met, numbered on the board
            highlighted, overlay = practice.tries[-1].cell, "line"
        if highlighted is None or not position.geometry.contains(highlighted):
            highlighted = (position.geometry.size + 1) // 2
        board.state = AppState(geometry=position.geometry, tree=GameTree.new(position), view=ViewSettings(highlighted=highlighted, overlay=overlay))
        panel.update(self._panel_text(practice))

    def _panel_text(self, practice: Practice) -> Text:
        exercise = practice.current
        geometry = exercise.position.geometry
        text = Text()
        text.append(f"{practice.index + 1} of {len(practice.exercises)}", "bold")
        text.append(f" · {exercise.where or describe_variant(geometry)}")
        if self._figures is not None:
            text.append(f"\n{self._figures}", "dim")
        text.append("\n\n" + prompt(practice), "bold")
        if practice.hint:
            text.append(f"\nHint: the {hint_mask(exercise.position).replace('_', '-')} mask is lit.", "italic")
        for judgement in practice.tries:
            head, _, rest = judgement.text.partition(". " if judgement.grade == "mistake" else ": ")
            text.append("\n\n" + head + (". " if judgement.grade == "mistake" else ": "), self._style(judgement.grade))
            text.append(rest)
        if practice.shown:
            best = ", ".join(cell_name(cell, geometry) for cell in solution(exercise.position))
            text.append(f"\n\nSolution: {best}. The line after it is numbered on the board.", "bold")
        keys = "n: next" if practice.settled else "answer on the board · m hint · space solution · n skip"
        text.append(f"\n\n{keys} · escape stops", "dim")
        return text

    def _style(self, grade: str) -> str:
        """The grade's colour from the theme (its text-success, -warning or -error: readable on its background)."""
        variable = {"best": "text-success", "good": "text-warning", "mistake": "text-error"}[grade]
        return f"bold {self.app.get_css_variables().get(variable, '')}".strip()
