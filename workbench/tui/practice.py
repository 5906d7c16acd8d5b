"""Practice screens: "learn from your mistakes" and puzzles, judged exactly (:mod:`workbench.state.practice`), and
the dialog that asks whose mistakes to practise.

The practice screen has a board of its own (the app's :class:`~.panes.board.BoardGrid`, bound to a state the
screen makes for the exercise) and never touches the study: its board's moves come to the screen, not to the store,
and are judged rather than played. What was practised goes back to the app when the screen closes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ..engine import Cell, Player
from ..engine.geometry import cell_name, cell_names, describe_variant
from ..state import AppState, GameTree, ViewSettings
from ..state.actions import Highlight, PlayCell
from ..state.practice import (
    Practice,
    answer,
    first_try_lost,
    hint_region,
    hint_text,
    moved_on,
    prompt,
    ruled_out,
    score,
    solution,
    told_line,
    with_hint,
    with_solution,
)
from ..state.progress import PuzzleFigures
from .panes.bars import KeysFooter
from .panes.board import BoardGrid
from .panes.lines import resolved_part


class SideDialog(ModalScreen[Player | str | None]):
    """Whose mistakes to practise: X, O or both (escape: none)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("x", "dismiss('X')", "X's mistakes", show=False),
        Binding("o", "dismiss('O')", "O's mistakes", show=False),
        Binding("b", "dismiss('both')", "Both sides'", show=False),
    ]
    AUTO_FOCUS = ".first"
    """The side offered first, focused once the buttons are mounted (see :class:`~.dialogs.Confirm`)."""

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
                    first = side == self._first
                    yield Button(
                        label, variant="primary" if first else "default", id=side, classes="first" if first else ""
                    )
                yield Button("Both", id="both")
            legend = " · (n): mistakes and inaccuracies" if self._counts else ""  # no counts shown, no legend
            yield Label(f"x, o or b · escape cancels{legend}", classes="dialog-hint")

    @property
    def _first(self) -> str:
        """The side offered first: the one with more to practise (X on a tie, or with no counts)."""
        return "O" if self._counts.get("O", 0) > self._counts.get("X", 0) else "X"

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)


class PracticeBoard(BoardGrid):
    """The practice screen's board: a region lit as a hint, and on boards past 3×3 no answers by digit (its cells
    are named by coordinates there: ``:`` asks for one)."""

    lit: reactive[int] = reactive(0, repaint=False)
    """Cells lit by the second hint (a bitboard): the answer is among them."""
    told: reactive[tuple[Cell, ...] | None] = reactive(None, repaint=False)
    """The line the ``line`` overlay numbers where it must not show the answer (after an answer that is not the
    best: :func:`~workbench.state.practice.told_line`); None: the best line, in full."""

    def watch_lit(self) -> None:
        self.invalidate()

    def watch_told(self) -> None:
        self.invalidate()

    def build_key(self) -> object:
        return super().build_key(), self.lit, self.told

    def numbered_line(self, state: AppState) -> tuple[Cell, ...]:
        return super().numbered_line(state) if self.told is None else self.told

    def _cell_line(self, position, cell, line_index, width, height, last, line_cells, values, mask, steps):
        return super()._cell_line(
            position, cell, line_index, width, height, last, line_cells, values, mask | self.lit, steps
        )

    def action_play(self, cell: int) -> None:
        if self.state is not None and self.state.geometry.size > 9:  # the board shows coordinates, not numbers
            self.notify("On this board, type : and a cell's name (b2), or click it.", timeout=3)
            return
        super().action_play(cell)


class PracticeScreen(ModalScreen[Practice]):
    """One exercise at a time: the position on a board, the question, and the answers judged exactly.

    | Key | Does |
    | :- | :- |
    | 1–9 (3×3), click, h j k l + enter, : | answer that cell (``:`` takes a name, ``b2``, on any board) |
    | m | a hint: first a fact in words, then the region the answer is in, then the solution |
    | space | show the solution (the best move and the line after it, numbered on the board) |
    | n | next exercise (a skip, where it was not answered: it ends a streak) |
    | escape | stop: back to the study, with what was practised (an exercise answered, hinted or shown counts) |
    | n, escape (all done) | back to the study |
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"practice--dim", "practice--best", "practice--good", "practice--mistake"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("colon", "type_cell", "Answer a cell by name", show=False, key_display=":"),
        Binding("m", "hint", "Hint"),
        Binding("space", "solution", "Solution"),
        Binding("n", "next", "Next"),
        Binding("escape,q", "stop", "Stop"),
        Binding("n,escape,q", "back", "Back"),  # the same keys, once every exercise is done (check_action)
    ]

    def __init__(
        self,
        practice: Practice,
        title: str,
        *,
        on_result: Callable[[Practice, bool], None] | None = None,
        figures: PuzzleFigures | str | None = None,
    ) -> None:
        super().__init__()
        self.practice = practice
        self._title = title
        self._on_result = on_result
        """Called with the session and True as each exercise's ending is known: once it is settled (found, or the
        solution shown), or as it is skipped; before that with False as its first try is lost (a wrong or slower
        first answer, a hint), when it can no longer be solved. The app keeps the attempt: at once, as not solved,
        when its first try is lost, and as it ended when it ends."""
        self._figures = figures
        """The puzzle figures kept in the library (or why they cannot be read), or None."""
        self._figures_cover = -1
        """The last exercise whose attempt the figures count (the session's index)."""

    @property
    def _dim(self) -> Style:
        """The quieter lines (figures, earlier tries, the keys): the theme's muted text colour, which reads at AA in
        every theme, where Rich's "dim" halves the colour and does not; resolved over the screen's background, as
        Textual's partial style would pass a muted colour on as white on a light theme."""
        return resolved_part(self, "practice--dim")

    def compose(self) -> ComposeResult:
        with Horizontal(id="practice"):
            with Vertical(id="practice-board"):
                yield PracticeBoard()
            with Vertical(id="practice-side"):
                with VerticalScroll(id="practice-scroll"):
                    yield Static(id="practice-panel")
                yield Static(id="practice-keys")
        yield KeysFooter()  # the app's own, as on the main screen: Textual's keys are under AA in some themes

    def on_mount(self) -> None:
        if not self.is_attached:  # the app ended before the screen mounted: it has no parts
            return
        self.query_one("#practice-side").border_title = self._title
        board = self.query_one(BoardGrid)
        if self.practice.exercises:
            self.query_one("#practice-board").border_title = describe_variant(
                self.practice.exercises[0].position.geometry, short=True
            )
        board.ready = True
        self.show()
        board.focus()
        # the quieter lines carry the theme's muted colour as worked out when drawn: drawn again for a new theme
        self.app.theme_changed_signal.subscribe(self, lambda theme: self.call_after_refresh(self.show))

    def on_unmount(self) -> None:
        self.app.theme_changed_signal.unsubscribe(self)

    # --- what the board's keys and clicks ask for -------------------------------------------------------------

    def take_action(self, action) -> None:
        """The board's :func:`~.messages.dispatch` comes here (not to the study's store): a move is an answer. The
        cursor moves without showing a move's line while the exercise is open (that would preview every answer)."""
        if isinstance(action, PlayCell):
            self._set(answer(self.practice, action.cell))
        elif isinstance(action, Highlight):
            board = self.query_one(BoardGrid)
            shown = board.state
            assert shown is not None  # pragma: no mutate - the board has the exercise's state from the start
            overlay = shown.view.overlay if self.practice.settled else "none"
            board.state = AppState(
                geometry=shown.geometry,
                tree=shown.tree,
                cursor=shown.cursor,
                view=ViewSettings(highlighted=action.cell, overlay=overlay),
                answers=shown.answers,
            )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that do something now, in the footer too: no hint or solution once the exercise is settled;
        once every exercise is done, only back."""
        practice = self.practice
        if action == "back":
            return practice.finished
        if practice.finished:
            return action not in ("hint", "solution", "next", "stop", "type_cell")
        if practice.settled:
            return action not in ("hint", "solution", "type_cell")
        return True

    def action_back(self) -> None:
        self.dismiss(self.practice)

    def action_type_cell(self) -> None:
        exercise = self.practice.current
        if exercise is None or self.practice.settled:
            return
        from .dialogs import PlayCellDialog

        def typed(cell: int | None) -> None:
            if cell is not None:
                self._set(answer(self.practice, cell))

        self.app.push_screen(PlayCellDialog(exercise.position), typed)

    def action_hint(self) -> None:
        self._set(with_hint(self.practice))

    def action_solution(self) -> None:
        self._set(with_solution(self.practice))

    def action_next(self) -> None:
        if self._on_result is not None and not self.practice.settled:  # a skip (a settled one is kept already)
            self._on_result(self.practice, True)
        self._set(moved_on(self.practice))

    def action_stop(self) -> None:
        practice = self.practice
        # answered, helped or shown: it counts (a hint seen, then stop, must not make the next try a first one)
        if not practice.finished and (practice.tries or practice.shown or practice.hint):
            self.action_next()
        self.dismiss(self.practice)

    def show_figures(self, figures: PuzzleFigures | str, covers: int) -> None:
        """New figures from the library, read after the attempt at exercise ``covers`` (the session's index) was
        kept: shown at once."""
        self._figures = figures
        self._figures_cover = max(self._figures_cover, covers)
        self.show()

    def _set(self, practice: Practice) -> None:
        if practice is not self.practice:
            if self._on_result is not None:
                if practice.settled and not self.practice.settled:
                    # found or shown: how it ends is known now, and kept now, so the figures beside it are up to date
                    self._on_result(practice, True)
                elif first_try_lost(practice) and not first_try_lost(self.practice):
                    self._on_result(practice, False)  # no solve now, however it ends: kept so at once
            self.practice = practice
            self.refresh_bindings()
            self.show()

    # --- drawing ------------------------------------------------------------------------------------------------

    def show(self) -> None:
        """Draw the board and the panel for the session as it is now."""
        practice = self.practice
        board = self.query_one(PracticeBoard)
        panel = self.query_one("#practice-panel", Static)
        keys = self.query_one("#practice-keys", Static)
        exercise = practice.current
        if exercise is None:
            board.lit = 0
            panel.update(Text.assemble(("Done. ", "bold"), score(practice)))
            keys.update(Text("n or escape: back", self._dim))
            return
        position = exercise.position
        highlighted, overlay = board.state.view.highlighted if board.state is not None else None, "none"
        if practice.settled:  # the best move, and the line after it in order
            found = (judgement.cell for judgement in practice.tries if judgement.grade == "best")
            cell = next(found, solution(position, practice.answers)[0])
            highlighted, overlay = cell, "line"
        board.told = None
        if not practice.settled and practice.tries and not practice.hint_showing:
            # the last answer and how it is met, numbered on the board up to the first move onto a right answer's cell
            # (the line after a wrong answer often plays the answer)
            highlighted, overlay = practice.tries[-1].cell, "line"
            board.told = told_line(position, highlighted, practice.answers)
        board.lit = (
            hint_region(position, practice.answers, ruled_out=ruled_out(practice))
            if practice.hint_level >= 2 and practice.hint_showing
            else 0
        )
        if highlighted is None or not position.geometry.contains(highlighted):
            highlighted = (position.geometry.size + 1) // 2
        board.state = AppState(
            geometry=position.geometry,
            tree=GameTree.new(position),
            view=ViewSettings(highlighted=highlighted, overlay=overlay),
            answers=practice.answers,
        )
        panel.update(self._panel_text(practice))
        answer_by = "answer on the board" if position.geometry.size <= 9 else "click a cell or type : and its name"
        words = "n: next" if practice.settled else f"{answer_by} · m hint · space solution · n skip"
        keys.update(Text(f"{words} · escape stops", self._dim))
        self.query_one("#practice-scroll", VerticalScroll).scroll_end(animate=False)

    def _panel_text(self, practice: Practice) -> Text:
        exercise = practice.current
        assert exercise is not None  # pragma: no mutate - the panel tells of the exercise open
        geometry = exercise.position.geometry
        text = Text()
        text.append(f"{practice.index + 1} of {len(practice.exercises)}", "bold")
        text.append(f" · {exercise.where or describe_variant(geometry)}")
        if exercise.theme is not None and practice.settled:  # the theme after the answer: before, it would be a hint
            text.append(f" · {exercise.theme}")
        if isinstance(self._figures, PuzzleFigures):
            # a first try lost is no solve, whatever comes next: the figures say so at once, not when it is kept
            missed_now = first_try_lost(practice) and self._figures_cover < practice.index
            text.append(f"\n{self._figures.text(missed_now=missed_now)}", self._dim)
        elif self._figures is not None:
            text.append(f"\n{self._figures}", self._dim)
        text.append("\n\n" + prompt(practice), "bold")
        earlier, latest = practice.tries[:-1], practice.tries[-1:]
        if earlier:  # one word each: the latest answer's words are what matter
            tried = ", ".join(
                f"{cell_name(judgement.cell, geometry)} {'✗' if judgement.grade == 'mistake' else '~'}"
                for judgement in earlier
            )
            text.append(f"\n\nTried: {tried}", self._dim)
        for judgement in latest:
            said = re.match(r"[^!:.]*[!:.] ?", judgement.text)  # "Right! ", "Not quite: ", "Not this one. "
            assert said is not None  # pragma: no mutate - a judgement starts with its grade's words
            head = said.group()
            text.append("\n\n" + head, self._style(judgement.grade))
            text.append(judgement.text[len(head) :])
        if practice.hint and not practice.settled:  # after the answers: it was asked about them
            text.append("\n\n" + hint_text(practice), "italic")
        if practice.shown and not practice.found:
            cells = solution(exercise.position, practice.answers)
            if len(cells) == 1:
                solution_words = (
                    f"Solution: {cell_name(cells[0], geometry)}. The line from it is numbered on the board."
                )
            else:  # the board numbers the line from the first
                solution_words = (
                    f"Solution: {cell_names(cells, geometry, ', ')}: any of them. The line from "
                    f"{cell_name(cells[0], geometry)} is numbered on the board."
                )
            text.append("\n\n" + solution_words, "bold")
        return text

    def _style(self, grade: str) -> Style:
        """The grade's colour from the theme (its text-success, -warning or -error: readable on its background), as
        Textual works it out: an ANSI theme names its colours as CSS does (``ansi_green``), which Rich does not
        read."""
        return resolved_part(self, f"practice--{grade}")
