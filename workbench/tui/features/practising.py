"""Learning from mistakes and solving puzzles: the exercises are gathered here (from the study, the library's
studies, or the library's puzzles) and asked in a :class:`~workbench.tui.practice.PracticeScreen`; each attempt is
kept in the library, and each practised mistake of the open study is noted on its move.

Mixed into :class:`~workbench.tui.app.WorkbenchApp`; the library is read and written in workers (it is I/O).
"""

from __future__ import annotations

from ...engine import Player
from ...engine.analysis import MAX_TABLE_CELLS, analysis_ready, is_searched
from ...engine.geometry import describe_variant, format_variant
from ...errors import WorkbenchError
from ...state.actions import SetComment
from ...state.practice import Exercise, Practice, mistakes_of_line, practised_comment

PRACTICE_AT_ONCE = 20
"""Exercises in one run over the library's studies, and puzzles in one sitting."""


class Practising:
    """``L`` learns from the study's mistakes; the palette learns from every study kept, and opens puzzles (``u``)."""

    def _can_practise(self) -> bool:
        state = self.store.state
        if is_searched(state.geometry):
            self.notify("Practice needs exact values: boards of up to 16 cells.", severity="warning")
            return False
        if not analysis_ready(state.geometry):
            self.notify(f"The exact values of {describe_variant(state.geometry)} are still being made: a moment.", severity="warning")
            return False
        return True

    # --- the open study -------------------------------------------------------------------------------------

    def action_learn(self) -> None:
        """Every mistake and inaccuracy of a side on the line shown (the main line, or the variation the board is
        in), asked again: "find a better move"."""
        if not self._can_practise():
            return
        from ..practice import SideDialog

        state = self.store.state
        line = state.tree.current_line(state.cursor)
        every = mistakes_of_line(state.tree, line, None)
        if not every:
            self.notify("No mistakes or inaccuracies on this line: nothing to learn from here.")
            return
        counts = {side.value: sum(exercise.position.turn is side for exercise in every) for side in Player}

        def chosen(side: Player | str | None) -> None:
            if side is None:
                return
            player = None if side == "both" else Player(side)
            exercises = tuple(exercise for exercise in every if player is None or exercise.position.turn is player)
            if not exercises:
                self.notify(f"{side} made no mistakes or inaccuracies on this line.")
                return
            whose = "both sides" if player is None else player.value
            self._practise(Practice("mistake", exercises, player), f"Learn from your mistakes · {whose}")

        self.push_screen(SideDialog(counts), chosen)

    def _practised(self, practice: Practice) -> None:
        """Each practised mistake of the open study gets a note on its move (the move played there); one skipped
        unanswered was not practised, and gets none."""
        state = self.store.state
        for index, exercise in enumerate(practice.exercises[: len(practice.results)]):
            if exercise.node is None or exercise.study is not None or exercise.node not in state.tree:
                continue
            if practice.results[index] == "skipped":
                continue
            child = state.tree.child_with_move(exercise.node, exercise.played)
            if child is None:
                continue
            note = practised_comment(practice, index)
            comment = state.tree.node(child).comment
            kept = [part for part in comment.split(" · ") if part and not part.startswith("practised: ")]
            self.store.dispatch(SetComment(text=" · ".join([*kept, note]), node=child))
            state = self.store.state
        if practice.results:
            from ...state.practice import score

            self.notify(f"Practice: {score(practice)}. Each move practised is noted in the study.", timeout=6)

    # --- the library's studies ------------------------------------------------------------------------------

    def action_learn_all(self) -> None:
        """The mistakes of every study kept in the library on this board, the latest studies first, those missed
        before first of all, up to :data:`PRACTICE_AT_ONCE` at a time."""
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
        geometry, library = self.store.state.geometry, self.library

        def gather():
            from ...library.practice import missed_positions
            from ...library.studies import list_studies, open_study

            variant = format_variant(geometry)
            exercises: list[Exercise] = []
            for record in list_studies(library):  # the latest first
                if record.variant != variant or record.damaged:
                    continue
                state = open_study(library, record.name)
                exercises.extend(mistakes_of_line(state.tree, state.tree.main_line(), player, study=record.name))
            missed = set(missed_positions(library, "mistake", geometry))
            exercises.sort(key=lambda exercise: exercise.position not in missed)  # stable: the latest first within each
            return tuple(exercises[:PRACTICE_AT_ONCE])

        def done(exercises) -> None:
            if not exercises:
                self.notify(f"No mistakes in the library's {describe_variant(geometry)} studies.")
                return
            whose = "both sides" if player is None else player.value
            self._practise(Practice("mistake", exercises, player), f"Learn from all your mistakes · {whose}")

        self._library_job(gather, done, "gathering the library's mistakes")

    # --- puzzles ----------------------------------------------------------------------------------------------

    def action_puzzles(self) -> None:
        """Puzzles of this board from the library (found and kept there the first time), those missed before
        first; a streak and a solve rate kept per board."""
        if not self._can_practise():
            return
        geometry, library = self.store.state.geometry, self.library
        if geometry.size > MAX_TABLE_CELLS:  # all of a 4×4's positions are read: seconds, once (then kept)
            self.notify(f"Finding the puzzles of {describe_variant(geometry)}: about ten seconds, the first time.", timeout=8)

        def gather():
            from ...engine.puzzles import find_puzzles  # (it reads the installed strong solution of 13-16 cells)

            if library is None:  # spread over the difficulty by the engine, as the command's --count is
                found = find_puzzles(geometry, PRACTICE_AT_ONCE)
                return tuple(Exercise(puzzle.position, where=f"puzzle · difficulty {puzzle.difficulty:.1f}") for puzzle in found), None
            from ...library.practice import keep_puzzles, kept_puzzles, missed_positions

            kept = kept_puzzles(library, geometry)
            if not kept:
                keep_puzzles(library, geometry, find_puzzles(geometry))
                kept = kept_puzzles(library, geometry)
            missed = set(missed_positions(library, "puzzle", geometry))
            again = [puzzle for puzzle in kept if puzzle.position in missed]
            chosen = again[:PRACTICE_AT_ONCE] + spread([puzzle for puzzle in kept if puzzle.position not in missed], PRACTICE_AT_ONCE - len(again))
            exercises = tuple(Exercise(puzzle.position, where=f"puzzle · difficulty {puzzle.difficulty:.1f}") for puzzle in chosen)
            return exercises, puzzle_figures(library, geometry)

        def done(found) -> None:
            exercises, figures = found
            if not exercises:
                self.notify(f"No puzzles on {describe_variant(geometry)}: no position there has a single move that keeps its value.")
                return
            self._practise(Practice("puzzle", exercises), f"Puzzles · {describe_variant(geometry, short=True)}", figures=figures)

        self._library_job(gather, done, "finding puzzles")

    # --- shared -------------------------------------------------------------------------------------------------

    def _practise(self, practice: Practice, title: str, *, figures: str | None = None) -> None:
        from ..practice import PracticeScreen

        def ended(result: Practice | None) -> None:
            if result is not None and practice.kind == "mistake":
                self._practised(result)
            elif result is not None and result.results:
                from ...state.practice import score

                self.notify(f"Puzzles: {score(result)}.", timeout=6)

        self.push_screen(PracticeScreen(practice, title, on_result=self._keep_attempt, figures=figures), ended)

    def _keep_attempt(self, practice: Practice) -> None:
        """The current exercise of ``practice`` ends: its attempt (the last answer, and whether a move keeping the
        value was found) goes into the library in a worker, unless it was skipped unseen."""
        result, exercise = practice.result, practice.current
        if self.library is None or result == "skipped" or exercise is None:
            return
        answer = practice.tries[-1].cell if practice.tries else None
        library, geometry, kind = self.library, exercise.position.geometry, practice.kind

        def keep() -> None:
            from ...library.practice import record_attempt

            record_attempt(library, kind=kind, geometry=geometry, position=exercise.position, answer=answer,
                           solved=result.startswith("solved"), study=exercise.study)  # fmt: skip
            if kind == "puzzle":  # the streak and the rate, read here rather than on the UI thread
                self.from_worker(self._figures_changed, puzzle_figures(library, geometry))

        self.run_worker(keep, thread=True, name="practice-attempt", group="practice", exit_on_error=False)  # pragma: no mutate

    def _figures_changed(self, figures: str) -> None:
        """The puzzle figures kept have changed: the practice screen shows them anew."""
        from ..practice import PracticeScreen

        if isinstance(self.screen, PracticeScreen):
            self.screen.show_figures(figures)

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

        self.run_worker(job, thread=True, name=doing, group="practice", exit_on_error=False)  # pragma: no mutate



def spread(puzzles, count: int) -> list:
    """``count`` of ``puzzles`` kept in the library (easiest first) spread over their range of difficulty, easiest
    first, by the engine's own rule (``find_puzzles(geometry, count)`` picks so): a sitting that begins gently and
    ends hard, not the twenty easiest (on 3×3, wins in one)."""
    import numpy as np

    from ...engine.puzzle_finder import spread as places

    puzzles = list(puzzles)
    if len(puzzles) <= count:
        return puzzles if count > 0 else []
    return [puzzles[place] for place in places(np.array([puzzle.difficulty for puzzle in puzzles]), count)]


def puzzle_figures(library, geometry) -> str:
    """The puzzle figures kept for ``geometry`` in a line: the streak and the solve rate (read in a worker)."""
    from ...library.practice import attempt_stats

    try:
        stats = attempt_stats(library, "puzzle", geometry)
    except WorkbenchError as error:  # a figure not shown is no reason to stop the puzzles
        return f"(figures unavailable: {error})"
    if not stats.attempts:
        return "first puzzles on this board"
    return f"streak {stats.streak} · solved {stats.solved} of {stats.attempts} ({stats.solve_rate:.0%})"
