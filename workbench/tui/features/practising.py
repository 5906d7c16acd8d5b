"""Learning from mistakes and solving puzzles: the exercises are gathered here (from the study, the library's
studies, or the library's puzzles) and asked in a :class:`~workbench.tui.practice.PracticeScreen`; each attempt is
kept in the library, and each practised mistake of the open study is noted on its move.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`; the library is read and written in workers (it is I/O).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from ...engine import Player
from ...engine.analysis import MAX_TABLE_CELLS
from ...engine.geometry import describe_variant, format_variant
from ...errors import WorkbenchError
from ...state.actions import SetComment
from ...state.practice import (
    PRACTISED_NOTE,
    Exercise,
    Practice,
    mistakes_of_tree,
    once_each,
    practised_comment,
)
from ...state.progress import PuzzleFigures

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object

PRACTICE_AT_ONCE = 20
"""Exercises in one run over the library's studies, and puzzles in one sitting."""
ATTEMPT_WRITE_WAIT_SECONDS = 10.0
"""How long an exercise's ending waits for the write of its attempt kept as its first try was lost (a worker of its
own), before it writes an attempt of its own instead (a library held by another writer, say)."""


@dataclass
class OpenAttempt:
    """An exercise's attempt written when its first try was lost, to be settled when it ends."""

    exercise: Exercise
    written: threading.Event = field(default_factory=threading.Event)
    """Set once the write is done, or has failed."""
    row: int | None = None
    """The attempt's number in the library, once written."""


class Practising(AppHost):
    """``L`` learns from the study's mistakes; the palette learns from every study kept, and opens puzzles (``u``)."""

    practice_due: dict[str, int] = {}  # noqa: RUF012 - replaced whole, never changed in place
    """Positions due again today by spaced repetition, by variant (read from the library in a worker)."""
    _open_attempt: OpenAttempt | None = None
    """The open exercise's attempt, kept as its first try was lost (until it ends)."""

    def _can_practise(self) -> bool:
        state = self.store.state
        if state.searched:
            self.notify("Practice needs exact values: boards of up to 16 cells.", severity="warning")
            return False
        return not self._values_not_ready()

    # --- the open study -------------------------------------------------------------------------------------

    def action_learn(self) -> None:
        """Every mistake and inaccuracy of a side anywhere in the study (the main line's first, then the
        variations'), asked again: "find a better move"."""
        if not self._can_practise():
            return
        from ..practice import SideDialog

        state = self.store.state
        answers = state.answers
        every = mistakes_of_tree(state.tree, None, answers=answers)
        if not every:
            self.notify("No mistakes or inaccuracies in this study: nothing to learn from here.")
            return
        counts = {side.value: sum(exercise.position.turn is side for exercise in every) for side in Player}

        def chosen(side: Player | str | None) -> None:
            if side is None:
                return
            player = None if side == "both" else Player(side)
            exercises = tuple(exercise for exercise in every if player is None or exercise.position.turn is player)
            if not exercises:
                self.notify(f"{side} made no mistakes or inaccuracies in this study.")
                return
            whose = "both sides" if player is None else player.value
            self._practise(
                Practice("mistake", exercises, player, answers=answers), f"Learn from your mistakes · {whose}"
            )

        self.push_screen(SideDialog(counts), chosen)

    def _practised(self, practice: Practice) -> None:
        """Each practised mistake of the open study gets a note on its move (the move played there); one skipped
        unanswered was not practised, and gets none."""
        state = self.store.state
        noted = 0
        for index, exercise in enumerate(practice.exercises[: len(practice.results)]):
            if exercise.node is None or exercise.played is None or exercise.study is not None:
                continue
            if practice.results[index] == "skipped":
                continue
            note = practised_comment(practice, index, date.today())
            # every mistake played from the position practised (asked once: see state.practice.once_each)
            for node, played in ((exercise.node, exercise.played), *exercise.also):
                child = state.tree.child_with_move(node, played) if node in state.tree else None
                if child is None:
                    continue
                comment = state.tree.node(child).comment
                kept = [part for part in comment.split(" · ") if part and not PRACTISED_NOTE.match(part)]
                self.store.dispatch(SetComment(text=" · ".join([*kept, note]), node=child))
                state = self.store.state
                noted += 1
        if practice.results:
            from ...state.practice import score

            where = [
                " Each move practised is noted in the study." if noted else "",
                " Kept in the library, to come back when due." if self.library is not None else "",
            ]
            self.notify(f"Practice: {score(practice)}." + "".join(where), timeout=6)

    # --- the library's studies ------------------------------------------------------------------------------

    def action_learn_all(self) -> None:
        """The mistakes of every study kept in the library on this board, the latest studies first, those due again
        first of all (with those due from games never saved), up to :data:`PRACTICE_AT_ONCE` at a time."""
        if not self._can_practise():
            return
        if self.library is None:
            self.notify("No library is open: save studies in it to learn from all of them.", severity="warning")
            return
        from ..practice import SideDialog

        self.push_screen(SideDialog({}), self._learn_all_of)

    def _learn_all_of(self, side: Player | str | None) -> None:
        if side is None:
            return
        player = None if side == "both" else Player(side)
        geometry, library, answers = self.store.state.geometry, self.library, self.store.state.answers
        assert library is not None  # pragma: no mutate - asked only with a library open

        def gather():
            from ...library.practice import due_positions
            from ...library.studies import list_studies, open_study

            variant = format_variant(geometry)
            exercises: list[Exercise] = []
            for record in list_studies(library):  # the latest first
                if record.variant != variant or record.damaged:
                    continue
                state = open_study(library, record.name)
                exercises.extend(mistakes_of_tree(state.tree, player, study=record.name, answers=answers))
            due = due_positions(library, "mistake", geometry)
            # a mistake practised in a game never saved (or a study deleted since, or changed) is due all the same:
            # asked from its position alone
            found = {exercise.position for exercise in exercises}
            exercises.extend(
                Exercise(position, where="a mistake practised before, in no study kept now")
                for position in due
                if position not in found and (player is None or position.turn is player)
            )
            due_now = set(due)
            exercises.sort(key=lambda exercise: exercise.position not in due_now)  # stable: the latest first in each
            return once_each(exercises)[:PRACTICE_AT_ONCE]  # (a position in two studies is asked once)

        def done(exercises) -> None:
            if not exercises:
                self.notify(f"No mistakes in the library's {describe_variant(geometry)} studies.")
                return
            whose = "both sides" if player is None else player.value
            self._practise(
                Practice("mistake", exercises, player, answers=answers), f"Learn from all your mistakes · {whose}"
            )

        self._library_job(gather, done, "gathering the library's mistakes")

    # --- puzzles ----------------------------------------------------------------------------------------------

    def action_puzzles(self, theme: str | None = None) -> None:
        """Puzzles of this board (of ``theme`` if given) from the library, found and kept there the first time:
        those due again first, then new ones; a streak and a solve rate kept per board."""
        if not self._can_practise():
            return
        geometry, library, answers = self.store.state.geometry, self.library, self.store.state.answers
        if geometry.size > MAX_TABLE_CELLS:  # all of a 4×4's positions are read: seconds, once (then kept)
            self.notify(
                f"Finding the puzzles of {describe_variant(geometry)}: about ten seconds, the first time.", timeout=8
            )

        def gather():
            from ...engine.puzzles import find_puzzles, puzzle_theme
            from ...state.progress import sitting

            if library is None:  # spread over the difficulty by the engine, as the command's --count is
                found = sitting(find_puzzles(geometry, answers=answers), [], set(), PRACTICE_AT_ONCE, theme)
                return tuple(_exercise(puzzle, puzzle_theme(puzzle)) for puzzle in found), None
            from ...library.practice import (
                attempted_positions,
                due_positions,
                every_puzzle_kept,
                keep_puzzles,
                kept_puzzles,
            )

            # the board's every puzzle, not the few a `workbench puzzles --count` kept
            if every_puzzle_kept(library, geometry):
                kept = kept_puzzles(library, geometry)
            elif library.read_only:  # asked, not kept: its attempts cannot be kept either
                kept = list(find_puzzles(geometry, answers=answers))
            else:
                keep_puzzles(library, geometry, find_puzzles(geometry, answers=answers), every=True)
                kept = kept_puzzles(library, geometry)
            chosen = sitting(
                kept,
                due_positions(library, "puzzle", geometry),
                attempted_positions(library, "puzzle", geometry),
                PRACTICE_AT_ONCE,
                theme,
            )
            return tuple(_exercise(puzzle, puzzle_theme(puzzle)) for puzzle in chosen), puzzle_figures(
                library, geometry
            )

        def done(found) -> None:
            exercises, figures = found
            if not exercises:
                what = f"{theme} puzzles" if theme else "puzzles"
                self.notify(
                    f"No {what} on {describe_variant(geometry)}: no position there has a single move that keeps its "
                    "value" + (" with that theme." if theme else ".")
                )
                return
            title = f"Puzzles · {describe_variant(geometry, short=True)}" + (f" · {theme}" if theme else "")
            self._practise(Practice("puzzle", exercises, answers=answers), title, figures=figures)

        self._library_job(gather, done, "finding puzzles")

    # --- shared -------------------------------------------------------------------------------------------------

    def _practise(self, practice: Practice, title: str, *, figures: PuzzleFigures | str | None = None) -> None:
        from ..practice import PracticeScreen

        def ended(result: Practice | None) -> None:
            if result is not None and practice.kind == "mistake":
                self._practised(result)
            elif result is not None and result.results:
                from ...state.practice import score

                self.notify(f"Puzzles: {score(result)}.", timeout=6)

        self.push_screen(PracticeScreen(practice, title, on_result=self._keep_attempt, figures=figures), ended)

    def _keep_attempt(self, practice: Practice, ended: bool) -> None:
        """The current exercise of ``practice`` ends (``ended``: its attempt, the last answer and how it ended, a
        skip too, which ends a streak), or its first try is lost (the attempt as it stands, not solved, settled as it
        ends: a crash or a kill in between cannot make the next first try at it a solve). Written in a worker, with
        the box it goes to."""
        result, exercise = practice.result, practice.current
        if self.library is None or exercise is None:
            return
        if not ended and self.library.read_only:  # (nothing can be written: the ending's write says so, once)
            return
        answer = practice.tries[-1].cell if practice.tries else None
        library, geometry, kind, index = self.library, exercise.position.geometry, practice.kind, practice.index
        opened = self._open_attempt
        if opened is not None and opened.exercise is not exercise:  # another exercise's, or another sitting's
            opened = None
        if not ended:
            opened = self._open_attempt = OpenAttempt(exercise)
        elif opened is not None:
            self._open_attempt = None

        def keep() -> None:
            from ...library.practice import record_attempt, settle_attempt

            try:
                kept_row = None
                if ended and opened is not None and opened.written.wait(ATTEMPT_WRITE_WAIT_SECONDS):
                    kept_row = opened.row
                if kept_row is not None:
                    settle_attempt(library, kept_row, answer=answer, result=result)
                else:
                    row = record_attempt(
                        library,
                        kind=kind,
                        geometry=geometry,
                        position=exercise.position,
                        answer=answer,
                        result=result,
                        theme=exercise.theme,
                        study=exercise.study,
                    )
                    if not ended and opened is not None:
                        opened.row = row
            finally:
                if not ended and opened is not None:
                    opened.written.set()
            if kind == "puzzle":  # the streak and the rate, read here rather than on the UI thread
                self.from_worker(self._figures_changed, puzzle_figures(library, geometry), index)
            self._read_due_now(library)

        name, group = "practice-attempt", "practice"  # pragma: no mutate - a worker's labels: any names do
        self.run_worker(keep, thread=True, name=name, group=group, exit_on_error=False)

    def _read_due(self) -> None:
        """How many positions are due again today, by board, read in a worker once the library is open (the first
        screen says so, and f1)."""
        library = self.library
        if library is None:
            return
        name, group = "practice-due", "practice"  # pragma: no mutate - a worker's labels: any names do
        self.run_worker(lambda: self._read_due_now(library), thread=True, name=name, group=group, exit_on_error=False)

    def _read_due_now(self, library) -> None:
        """(in a worker) The due counts read, and handed to the UI thread."""
        from ...library.practice import due_counts

        try:
            due = due_counts(library)
        except WorkbenchError:  # a count not shown is no reason to stop anything
            return
        self.from_worker(self._due_read, due)

    def _due_read(self, due: dict[str, int]) -> None:
        from ..panes.evaluation import EvaluationView

        self.practice_due = due
        for view in self.screen_stack[0].query(EvaluationView):  # the main screen's, under the practice screen too
            view.due = tuple(due.items())

    def _figures_changed(self, figures: PuzzleFigures | str, covers: int) -> None:
        """The puzzle figures kept have changed, after the attempt at exercise ``covers`` was kept: the practice
        screen shows them anew."""
        from ..practice import PracticeScreen

        if isinstance(self.screen, PracticeScreen):
            self.screen.show_figures(figures, covers)

    def _library_job(self, work, done, doing: str) -> None:
        """``work`` in a worker, then ``done(its result)`` on the UI thread; a failure is one line saying what
        failed (the library's errors are one line each), and the study goes on. Anything else is a bug, and the
        app's worker handler shows it as one."""

        def job() -> None:
            try:
                result = work()
            except WorkbenchError as error:  # the library's and the engine's own: one line, and the app goes on
                self.from_worker(self.notify, f"Practice: {doing} failed: {error}", severity="error")
            else:
                self.from_worker(done, result)

        group = "practice"  # pragma: no mutate - a worker's label: any name does
        self.run_worker(job, thread=True, name=doing, group=group, exit_on_error=False)


def _exercise(puzzle, theme: str) -> Exercise:
    return Exercise(puzzle.position, where=f"puzzle · difficulty {puzzle.difficulty:.1f}", theme=theme)


def puzzle_figures(library, geometry) -> PuzzleFigures | str:
    """The puzzle figures kept for ``geometry`` (read in a worker), or why they cannot be read."""
    from datetime import date

    from ...library.practice import progress
    from ...state.progress import week_bars

    try:
        found = [row for row in progress(library, geometry) if row.kind == "puzzle"]
    except WorkbenchError as error:  # a figure not shown is no reason to stop the puzzles
        return f"(figures unavailable: {error})"
    if not found:
        return PuzzleFigures(0, 0, 0, week_bars((), date.today()), 0)
    row = found[0]
    return PuzzleFigures(row.streak, row.solved, row.attempts, week_bars(row.weeks, date.today()), row.due)
