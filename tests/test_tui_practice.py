"""Issues 41 and 48 in the app: explanations in the evaluation, the verdict in the history, the best line numbered
on the board, learning from mistakes (a wrong answer's own story, graded hints, the solution, a skip and stop),
puzzles kept in the library and scored honestly, answers by coordinate on 4×4, what is due on the first screen,
the game-over pane's mistakes and the first screen's words."""

import io
import tempfile
from datetime import date

import pytest
from rich.console import Console
from textual.widgets import Button, Label, Static

from workbench.engine import Geometry, Position
from workbench.library import Library
from workbench.library.practice import attempt_stats
from workbench.state import ROOT
from workbench.state.actions import PlayCell
from workbench.state.practice import solution
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs import ConfirmQuit
from workbench.tui.panes.board import BoardGrid
from workbench.tui.panes.evaluation import EvaluationView
from workbench.tui.panes.history import LineScore, MoveVerdict
from workbench.tui.practice import PracticeScreen, SideDialog

from .tui_helpers import cell_offset, cell_texts, moves, plain_text, text_of, until, wait_library, wait_ready


def _app(**options) -> WorkbenchApp:
    return WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3", **options)


def _words(widget) -> str:
    return " ".join(text_of(widget).split())


async def test_the_evaluation_says_the_last_move_in_words_and_the_history_its_verdict():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.click(BoardGrid, offset=(5, 2))  # a click plays cell 1 and leaves the cursor on it (taken)
        await pilot.press("2")
        await pilot.pause()
        evaluation = _words(app.query_one(EvaluationView))
        assert "last move: 2?? loses in 6: X plays 4 (threatens 7); O must block at 7" in evaluation
        assert "5 is the only move that draws." in evaluation
        assert _words(app.query_one(MoveVerdict)) == "O 2?? Mistake: draw → loss in 6. Best was 5."  # tall: two lines
        await pilot.press("shift+down")  # the cursor on an empty cell (4): that move is explained instead
        await pilot.pause()
        assert "why: 4 wins in 5: it threatens 7. O must block at 7" in _words(app.query_one(EvaluationView))


async def test_a_view_hidden_while_moves_are_played_shows_the_last_of_them_when_it_comes_into_sight():
    """At 80×24 the verdict's two lines are not laid out, and a state change builds nothing for them; grown to
    120×40 they say the verdict of the move played while they were hidden, not the legend they last drew."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        verdict = app.query_one(MoveVerdict)
        assert "mistake" in _words(verdict)  # the legend, before a move
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not verdict.size.height
        await pilot.press("1", "2")
        await pilot.pause()
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: verdict.size.height > 0, "the verdict laid out again")
        await pilot.pause()
        assert _words(verdict) == "O 2?? Mistake: draw → loss in 6. Best was 5."


async def test_at_80_by_24_the_history_s_one_line_is_the_verdict_of_a_marked_move():
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("1", "2")
        await pilot.pause()
        score = text_of(app.query_one(LineScore)).strip()
        assert score.startswith("O 2?? Mistake") and score.endswith("…")
        await pilot.press("left")  # X's 1 is best: the accuracy comes back
        await pilot.pause()
        assert text_of(app.query_one(LineScore)).startswith("accuracy")
        await pilot.press("shift+down")  # finding 12: the words come before the masks and the table, in sight
        await pilot.pause()
        shown = text_of(app.query_one(EvaluationView))
        assert "why: " in shown and shown.index("why: ") < shown.index("block")
        await pilot.press("right", "3", "4", "5", "6", "8", "7")  # one cell left, no line (finding 15)
        await pilot.pause()
        assert "1 goes on from here: X 1" in text_of(app.query_one(EvaluationView))  # not "1 go on", nor "1 games"


async def test_r_numbers_the_refutation_on_the_board():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.click(BoardGrid, offset=(5, 2))
        await pilot.press("2", "r")
        await pilot.pause()
        texts = cell_texts(app.query_one(BoardGrid))
        assert texts[3] == "X1" and texts[6] == "O2" and texts[4] == "X3"  # 4, then 7, then 5: the fork
        await pilot.press("r")
        await pilot.pause()
        assert cell_texts(app.query_one(BoardGrid))[3] == "4"


async def test_a_solution_of_several_moves_names_them_all_and_which_one_the_board_numbers_the_line_of():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        await pilot.press("5", "2")  # O's edge: each corner keeps the draw
        await pilot.pause()
        await pilot.press("L", "o")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen")
        screen = app.screen
        await pilot.press("space")
        await pilot.pause()
        assert "Solution: 1, 3, 7, 9: any of them. The line from 1 is numbered on the board." in plain_text(
            screen.query_one("#practice-panel")
        )
        assert cell_texts(screen.query_one(BoardGrid))[0] == "O1"


async def test_learning_from_mistakes_a_wrong_answer_graded_hints_the_solution_and_the_study_noted():
    """A wrong answer says why it fails and names no right move; the cursor then previews nothing; the hints come
    in grades (words, then a region with the answer among others); the solution; the study noted; the attempt kept."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        await pilot.press("1", "2", "4", "7", "5", "3", "6")
        await pilot.pause()
        assert "Mistakes in this game: O 1… 2??: draw → loss in 6 L learns from them" in _words(
            app.query_one(EvaluationView)
        )
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, SideDialog)
        assert [str(button.label) for button in app.screen.query(Button)] == ["X (0)", "O (1)", "Both"]
        assert app.screen.focused.id == "O"  # the side with the mistakes is offered first
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PracticeScreen)
        panel = lambda: plain_text(screen.query_one("#practice-panel"))  # noqa: E731
        assert "O played 2 here. Find a move that keeps the draw for O." in panel() and "1 of 1" in panel()
        board = screen.query_one(BoardGrid)
        assert cell_texts(board)[:2] == ["X", "2"]  # the position before the mistake
        await pilot.press("3")  # a corner: still loses
        await pilot.pause()
        words = panel().split("\n\n")[-1]
        assert words.startswith("Not this one. 3 loses in ") and "only move" not in words and "draw" not in words
        assert "O1" in cell_texts(board) and "X2" in cell_texts(board)  # the answer and how it is met, in order
        await pilot.press("l", "j")  # the cursor on other cells: no line previewed there
        await pilot.pause()
        assert board.state.view.overlay == "none" and not any(
            text[:1] in "XO" and text[1:].isdigit() for text in cell_texts(board)
        )
        await pilot.press("m")  # the first hint: a fact in words, nothing lit
        await pilot.pause()
        assert "Hint: One move keeps the draw; the other 7 moves lose." in panel() and board.lit == 0
        await pilot.press("m")  # the second: the answer among the lit cells
        await pilot.pause()
        assert "The answer is one of the lit cells." in panel()
        assert board.lit & (1 << 4) and board.lit != 1 << 4
        await pilot.press("space")  # the solution
        await pilot.pause()
        assert "Solution: 5." in panel() and "n: next" in plain_text(screen.query_one("#practice-keys"))
        assert cell_texts(board)[4] == "O1" and board.lit == 0
        await pilot.press("n")
        await pilot.pause()
        assert "Done. 0 of 1 solved · 1 shown" in panel()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PracticeScreen)
        state = app.store.state
        node = state.tree.child_with_move(state.tree.path(state.cursor)[1], 2)
        assert (
            state.tree.node(node).comment == f"practised {date.today().isoformat()}: shown (best: 5)" and state.modified
        )
        assert moves(app) == (1, 2, 4, 7, 5, 3, 6)  # the study's game is where it was
        [notice] = [note for note in app._notifications if note.message.startswith("Practice:")]
        assert notice.message == (
            "Practice: 0 of 1 solved · 1 shown. Each move practised is noted in the study."
            " Kept in the library, to come back when due."
        )
        await until(
            pilot,
            lambda: attempt_stats(app.library, "mistake", state.geometry).attempts == 1,
            "the attempt kept",
            seconds=8,
        )


async def test_two_mistakes_from_one_position_are_asked_once_and_both_noted():
    """O's 2 after X's corner, then a variation's O's 4 from the same position: one question (the same answer),
    and each move gets the note of its practice."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        await pilot.press("1", "2", "left", "4")
        await pilot.pause()
        await pilot.press("L")
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PracticeScreen) and len(screen.practice.exercises) == 1
        await pilot.press("space", "n", "escape")
        await pilot.pause()
        tree = app.store.state.tree
        after_1 = tree.child_with_move(ROOT, 1)
        note = f"practised {date.today().isoformat()}: shown (best: 5)"
        assert [tree.node(tree.child_with_move(after_1, cell)).comment for cell in (2, 4)] == [note, note]


async def test_at_80_by_24_three_wrong_answers_then_the_right_one_stay_in_sight_and_a_skip_then_stop_keeps_the_rest():
    """Finding 12: the panel overflowed after three answers (the keys and border cut off)."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("1", "2", "4", "7", "5", "3", "8")  # O's mistake, then X's slower win
        await pilot.press("L", "b")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PracticeScreen) and len(screen.practice.exercises) == 2
        await pilot.press("3", "6", "9", "5")
        await pilot.pause()
        panel = plain_text(screen.query_one("#practice-panel"))
        assert "Tried: 3 ✗, 6 ✗, 9 ✗" in panel and panel.endswith("Right! 5 keeps the draw.")
        scroll, keys = screen.query_one("#practice-scroll"), screen.query_one("#practice-keys")
        assert (
            scroll.scroll_y == scroll.max_scroll_y
            and keys.region.bottom <= screen.query_one("#practice-side").region.bottom - 1
        )
        await pilot.press("n", "n", "escape")  # the second (X's 8?!) skipped unanswered: no note on its move
        await pilot.pause()
        assert screen.practice.results == ("found later", "skipped")
        comments = [node.comment for node in app.store.state.tree.nodes.values() if node.comment]
        assert comments == [f"practised {date.today().isoformat()}: found later (best: 5)"]


async def test_learn_finds_a_mistake_in_a_variation_from_the_main_line():
    """Finding 13: L looked only at the line under the cursor."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "L")
        await pilot.pause()
        assert not isinstance(app.screen, SideDialog)
        assert any("No mistakes or inaccuracies in this study" in note.message for note in app._notifications)
        await pilot.press("left", "2", "left")  # O's 2?? as a variation; the cursor back on the main line's 5
        await pilot.pause()
        assert (
            moves(app) == (5,)
            and app.store.state.tree.main_line()[-1] != app.store.state.tree.path(app.store.state.cursor)[-1]
        )
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, SideDialog)
        assert [str(button.label) for button in app.screen.query(Button)] == ["X (0)", "O (1)", "Both"]


async def test_puzzles_honest_scores_a_skip_a_wrong_then_right_answer_a_graded_hint_and_a_solve():
    """As Lichess keeps them: a skip ends the streak; a wrong first try then the right move is not solved; a hint
    then the right move is helped, not solved; only a right first try counts. Each attempt kept, with its box."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen", seconds=8)
        screen = app.screen
        panel = lambda: plain_text(screen.query_one("#practice-panel"))  # noqa: E731
        await until(
            pilot, lambda: "to move: " in panel(), "the first puzzle shown"
        )  # drawn after the screen: under load, later
        assert "first puzzles on this board" in panel() and panel().startswith("1 of ")
        stats = lambda: attempt_stats(app.library, "puzzle", Geometry())  # noqa: E731
        results = lambda: [row[0] for row in app.library.query("SELECT result FROM attempts ORDER BY id")]  # noqa: E731
        await pilot.press("n")  # skipped unanswered: kept, and a streak ends
        await until(pilot, lambda: stats().attempts == 1, "the skip kept", seconds=8)
        assert panel().startswith("2 of ") and screen.practice.results == ("skipped",) and stats().streak == 0
        board = screen.query_one(BoardGrid)

        async def answer(cell):
            await pilot.click(BoardGrid, offset=cell_offset(board, cell))
            await pilot.pause()

        position: Position = screen.practice.current.position
        await until(pilot, lambda: "streak 0 · solved on the first try 0 of 1 (0%)" in panel(), "the skip's figures")
        await answer(next(cell for cell in position.legal_moves() if cell not in solution(position)))
        assert "Not this one." in panel() and "Still" not in panel()
        # no solve now, however it ends: the figures count it at once, and the library keeps it at once, as missed
        # (a kill now cannot make the next first try at it a solve), counted once
        assert "streak 0 · solved on the first try 0 of 2 (0%)" in panel()
        await until(pilot, lambda: stats().attempts == 2, "the lost first try kept", seconds=8)
        assert results() == ["skipped", "missed"]
        await until(pilot, lambda: "streak 0 · solved on the first try 0 of 2 (0%)" in panel(), "its figures")
        await answer(solution(position)[0])
        assert "Right!" in panel()
        await pilot.press("n")  # found on a second try: not solved; the attempt kept settled, not a second one
        await until(pilot, lambda: results()[-1] == "found later", "settled", seconds=8)
        assert stats().attempts == 2 and stats().solved == 0 and screen.practice.results[-1] == "found later"
        assert "solved on the first try 0 of 2 (0%)" in panel()  # kept: the library's figures, the same
        position = screen.practice.current.position
        await pilot.press("m")
        await pilot.pause()
        assert "Hint: " in panel()
        await until(pilot, lambda: stats().attempts == 3, "the hinted one kept at once", seconds=8)
        await answer(solution(position)[0])
        await pilot.press("n")  # helped: not solved either
        await until(pilot, lambda: results()[-1] == "helped", "settled", seconds=8)
        assert stats().attempts == 3 and stats().solved == 0 and screen.practice.results[-1] == "helped"
        await answer(solution(screen.practice.current.position)[0])  # kept as it is found: the figures beside it
        await until(pilot, lambda: "streak 1 · solved on the first try 1 of 4 (25%)" in panel(), "the figures")
        assert "Right!" in panel() and (stats().attempts, stats().solved, stats().streak) == (4, 1, 1)
        await pilot.press("n")  # kept once only
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert stats().attempts == 4 and "streak 1 · solved on the first try 1 of 4 (25%)" in panel()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PracticeScreen) and moves(app) == ()
        assert app.library.query("SELECT result, box FROM attempts ORDER BY id") == [
            ("skipped", 1),
            ("found later", 1),
            ("helped", 1),
            ("solved", 2),
        ]


async def test_a_coordinate_answer_on_4x4_is_judged_once(kept_solution):
    """Finding 10: on boards past 3×3 the practice screen had no `:`, digits answered cells the board never names,
    and Enter answered again: `:c3⏎` was judged as c4, twice."""
    from workbench.state.practice import Exercise, Practice

    four = Geometry(4, 4, 4)
    kept_solution(four)
    app = _app(game=four)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        position = Position.empty(four).play_all((6, 11))
        practice = Practice("mistake", (Exercise(position, 1),), answers=app.store.state.answers)
        screen = PracticeScreen(practice, "on 4×4")
        app.push_screen(screen)
        await pilot.pause()
        assert "click a cell or type : and its name" in plain_text(screen.query_one("#practice-keys"))
        await pilot.press("3")  # a digit: no answer on a board named by coordinates
        await pilot.pause()
        assert screen.practice.tries == ()
        await pilot.press("colon", "c", "3", "enter")
        await pilot.pause()
        await pilot.press("enter")  # the cursor's cell: answered already, not judged again
        await pilot.pause()
        assert [judgement.cell for judgement in screen.practice.tries] == [four.cell(1, 2)]
        assert "c3" in plain_text(screen.query_one("#practice-panel")).split("\n\n")[-1]


async def test_the_first_run_says_how_to_begin_and_help_starts_there():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        assert (
            "How to begin: press 1–9 or click a cell to play; ← steps back; ?? marks a mistake, and L learns from it"
            in _words(app.query_one(EvaluationView))
        )
        await pilot.press("5")
        await pilot.pause()
        assert "How to begin" not in _words(app.query_one(EvaluationView))
        await pilot.press("f1")
        await pilot.pause()
        console = Console(width=100, file=io.StringIO())
        console.print(app.screen.query_one("#help-text", Static).content)
        help_text = console.file.getvalue()
        assert help_text.index("Start here") < help_text.index("Everywhere") and "misère" in help_text
        assert "Learn from your mistakes: each one asked again, find a better move" in " ".join(help_text.split())


async def test_learning_from_all_the_library_s_studies_asks_the_missed_first():
    """Two studies of 3×3 and one of 3×4 kept: O's mistakes of the two 3×3 ones, the one missed before first."""
    from workbench.engine import Geometry
    from workbench.library import Library
    from workbench.library.practice import record_attempt
    from workbench.library.studies import save_study
    from workbench.state import AppState, reduce
    from workbench.state.actions import NewGame, PlayCell

    def game(cells, geometry=Geometry()):
        state = reduce(AppState(), NewGame(geometry=geometry))
        for cell in cells:
            state = reduce(state, PlayCell(cell=cell))
        return state

    path = tempfile.mkdtemp() + "/library.sqlite3"
    with Library.open(path) as library:
        # the same mistake in an older study: its position is asked once (its question and answer are the same)
        save_study(library, "centre again", game((5, 2)))
        save_study(library, "corner", game((1, 2, 4, 7, 5, 3, 6)))  # O's 2 after the corner
        save_study(library, "centre", game((5, 2, 1, 9, 4, 6, 7)))  # O's 2 after the centre
        save_study(library, "wide", game((1, 2, 3), Geometry(3, 4, 3)))  # another board: not asked
        missed = Position.empty().play(5)
        record_attempt(
            library, kind="mistake", geometry=Geometry(), position=missed, answer=2, solved=False, study="centre"
        )
    app = WorkbenchApp(db=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        # the first screen says so, and where the mistakes of every study are asked (L asks the open study's)
        due = 'Due today: 1 on classic (u for puzzles, ctrl+p "Learn from all your mistakes" for mistakes)'
        await until(pilot, lambda: due in _words(app.query_one(EvaluationView)), "the due count")
        await pilot.press("f1")
        await pilot.pause()
        console = Console(width=100, file=io.StringIO())
        console.print(app.screen.query_one("#help-text", Static).content)
        help_text = " ".join(console.file.getvalue().split())
        assert "1 on classic" in help_text and "misère squeeze" in help_text  # f1: what is due, and the words
        await pilot.press("escape")
        app.action_learn_all()
        await pilot.pause()
        assert isinstance(app.screen, SideDialog)
        assert "(n)" not in " ".join(str(label.render()) for label in app.screen.query(Label))  # no counts, no legend
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen", seconds=8)
        practice = app.screen.practice
        assert [(exercise.position, exercise.played, exercise.study) for exercise in practice.exercises] == [
            (missed, 2, "centre"),
            (Position.empty().play(1), 2, "corner"),
        ]
        assert "study 'centre', move 1… 2" in plain_text(app.screen.query_one("#practice-panel"))
        await pilot.press("5", "n", "escape")  # the centre's mistake found; the study open is untouched
        await pilot.pause()
        assert not any(node.comment for node in app.store.state.tree.nodes.values())
        notes = [note.message for note in app._notifications if note.message.startswith("Practice:")]
        assert notes and "noted in the study" not in notes[-1] and "Kept in the library" in notes[-1]  # finding 7


async def test_learning_from_all_the_library_s_studies_without_a_library_warns_and_asks_nothing():
    from textual.command import CommandList

    app = WorkbenchApp(db="/dev/null/library.sqlite3")  # not a folder: the library is unavailable
    async with app.run_test(size=(120, 40)) as pilot:
        assert await wait_library(pilot, app) == "unavailable"
        await pilot.press("ctrl+p", *"Learn from all your mistakes")
        await app.workers.wait_for_complete()  # the palette gathers its matches in a worker
        await pilot.pause()
        matches = app.screen.query_one(CommandList)
        assert str(matches.get_option_at_index(matches.highlighted).prompt).startswith("Learn from all your mistakes\n")
        await pilot.press("enter")
        notices = lambda: [note for note in app._notifications if note.message.startswith("No library")]  # noqa: E731
        await until(pilot, notices, "the notice")
        [notice] = notices()
        assert (notice.message, notice.severity) == (
            "No library is open: save studies in it to learn from all of them.",
            "warning",
        )
        assert not isinstance(app.screen, (SideDialog, PracticeScreen))


async def test_puzzles_without_a_library_are_found_spread_over_their_difficulty_and_kept_nowhere():
    from workbench.engine.puzzles import find_puzzles

    app = WorkbenchApp(db="/dev/null/library.sqlite3")  # not a folder: the library is unavailable
    async with app.run_test(size=(120, 40)) as pilot:
        assert await wait_library(pilot, app) == "unavailable"
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen", seconds=8)
        practice = app.screen.practice
        assert [exercise.position for exercise in practice.exercises] == [
            puzzle.position for puzzle in find_puzzles(Geometry(), 20)
        ]
        panel = plain_text(app.screen.query_one("#practice-panel"))
        assert (
            panel.startswith("1 of 20 · puzzle · difficulty ")
            and "streak" not in panel
            and "first puzzles" not in panel
        )


async def test_puzzles_kept_by_the_command_s_count_are_not_the_board_s_every_puzzle():
    """A new user's review: after `workbench puzzles --count 2` the app's `u` asked only those two, and "Puzzles:
    fork" said there were none on 3×3 (there are dozens): the app keeps the board's every puzzle before asking."""
    from workbench.engine.puzzles import find_puzzles, puzzle_theme
    from workbench.library import Library
    from workbench.library.practice import every_puzzle_kept, keep_puzzles

    db = tempfile.mkdtemp() + "/library.sqlite3"
    with Library.open(db) as library:  # as `workbench puzzles --count 2` leaves it
        keep_puzzles(library, Geometry(), find_puzzles(Geometry(), 2))
        assert not every_puzzle_kept(library, Geometry())
    forks = sum(puzzle_theme(puzzle) == "fork" for puzzle in find_puzzles(Geometry()))
    app = WorkbenchApp(db=db)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen", seconds=8)
        assert len(app.screen.practice.exercises) == 20
        assert every_puzzle_kept(app.library, Geometry())
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, PracticeScreen), "the practice screen closed")
        app.action_puzzles("fork")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the fork puzzles", seconds=8)
        exercises = app.screen.practice.exercises
        assert len(exercises) == min(forks, 20) and {exercise.theme for exercise in exercises} == {"fork"}
        screen = app.screen  # shown before the app ends (an app ended as the screen mounted found no panel to fill)
        await until(
            pilot, lambda: any("to move" in plain_text(panel) for panel in screen.query("#practice-panel")), "a fork"
        )


async def test_a_hint_then_stop_is_kept_so_the_next_try_is_not_a_first_one():
    """A new user's review: a hint seen, then escape, kept nothing, and the same puzzle asked again counted as
    solved on the first try. Stopping after a hint keeps the exercise as not solved (box 1)."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        position = await _first_puzzle(pilot, app)
        await pilot.press("m", "escape")
        await until(pilot, lambda: attempt_stats(app.library, "puzzle", Geometry()).attempts == 1, "kept", seconds=8)
        assert app.library.query("SELECT position, result, box FROM attempts") == [(_text(position), "skipped", 1)]


async def test_a_puzzle_solved_then_stopped_is_kept_once():
    """Kept as it is solved (the figures beside it up to date), and not again when escape stops the practice."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        position = await _first_puzzle(pilot, app)
        screen = app.screen
        await until(pilot, lambda: screen.query_one(BoardGrid).state is not None, "the puzzle drawn")
        board = screen.query_one(BoardGrid)
        await pilot.click(BoardGrid, offset=cell_offset(board, solution(position)[0]))
        await until(pilot, lambda: attempt_stats(app.library, "puzzle", Geometry()).attempts == 1, "kept", seconds=8)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, PracticeScreen), "the practice stopped")
        await app.workers.wait_for_complete()
        assert app.library.query("SELECT position, result, box FROM attempts") == [(_text(position), "solved", 2)]


async def _first_puzzle(pilot, app) -> Position:
    """``u`` pressed once the library is open: the first puzzle's position."""
    await wait_library(pilot, app)
    await pilot.press("u")
    await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen", seconds=8)
    return app.screen.practice.current.position


def _text(position) -> str:
    from workbench.engine.position import format_position

    return format_position(position)


async def test_quitting_from_a_puzzle_keeps_its_answer():
    """A new user's review: ctrl+q from a practice screen dropped the exercise answered there (a miss never kept,
    the streak left as it was). It is stopped as escape stops it, then the app quits."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        position = await _first_puzzle(pilot, app)
        wrong = next(cell for cell in position.legal_moves() if cell not in solution(position))
        app.screen.take_action(PlayCell(cell=wrong))
        await pilot.press("ctrl+q")
        await until(pilot, lambda: not app.is_running, "the app quit", seconds=8)
    with Library.open(app.library.path) as library:
        assert library.query("SELECT position, answer, result FROM attempts") == [(_text(position), wrong, "missed")]


async def test_quitting_from_a_mistake_s_practice_notes_it_in_the_study_before_asking_to_save():
    """ctrl+q from learning from mistakes, after an answer: the move gets its "practised:" note, and the study
    (changed by it) is offered to be saved, as escape then ctrl+q would."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        await pilot.press("1", "2", "4", "7", "5", "3", "6", "L", "o")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen", seconds=8)
        await pilot.press("colon")  # a cell's name being typed when ctrl+q comes
        await pilot.pause()
        practice = app.screen_stack[-2]
        practice.take_action(PlayCell(cell=solution(practice.practice.current.position)[0]))  # by the board's path
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmQuit), "asked to save", seconds=8)
        comments = [node.comment for node in app.store.state.tree.nodes.values() if node.comment]
        assert comments == [f"practised {date.today().isoformat()}: solved (best: 5)"]
        await until(
            pilot,
            lambda: attempt_stats(app.library, "mistake", Geometry()).attempts == 1,
            "the attempt kept",
            seconds=8,
        )


async def test_due_today_on_another_board_says_where_it_is_practised():
    """A new user's review: on misère 3×3 the first screen said "Due today: 1 on classic (u: puzzles; …)", where u
    asks misère puzzles, none of them due. The keys are given for this board; another board's are to be opened."""
    from workbench.library.practice import record_attempt

    path = tempfile.mkdtemp() + "/library.sqlite3"
    with Library.open(path) as library:
        record_attempt(library, kind="puzzle", geometry=Geometry(), position=Position.empty(), answer=5, solved=False)
    keys = 'u for puzzles, ctrl+p "Learn from all your mistakes" for mistakes'
    for geometry, said in (
        (Geometry(misere=True), f'Due today: 1 on classic (on their own boards: ctrl+p "New game: …", then {keys})'),
        (Geometry(), f"Due today: 1 on classic ({keys})"),
    ):
        app = WorkbenchApp(db=path, game=geometry)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_library(pilot, app)
            await until(pilot, lambda: "Due today" in _words(app.query_one(EvaluationView)), "the due count")
            assert said in _words(app.query_one(EvaluationView))
    wide = Geometry(3, 4, 3)  # due on two boards: this one's keys, and the other's board to open
    with Library.open(path) as library:
        record_attempt(library, kind="puzzle", geometry=wide, position=Position.empty(wide), answer=5, solved=False)
    app = WorkbenchApp(db=path, game=Geometry())
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        await until(pilot, lambda: "Due today" in _words(app.query_one(EvaluationView)), "the due count")
        assert f"(the 1 here: {keys}; the others on their own boards)" in _words(app.query_one(EvaluationView))


async def test_a_mistake_due_from_a_game_never_saved_is_asked_by_learning_from_all():
    """A new user's review: a mistake practised in a game never saved stayed due (the first screen counted it) but
    "Learn from all your mistakes" read only the saved studies, so it could never be practised again."""
    from workbench.library.practice import record_attempt

    path = tempfile.mkdtemp() + "/library.sqlite3"
    unsaved = Position.empty().play(1)  # O to move after the corner, practised in a game not kept
    with Library.open(path) as library:
        record_attempt(library, kind="mistake", geometry=Geometry(), position=unsaved, answer=2, solved=False)
    app = WorkbenchApp(db=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        app.action_learn_all()
        await pilot.pause()
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen", seconds=8)
        [exercise] = app.screen.practice.exercises
        assert (exercise.position, exercise.played, exercise.study) == (unsaved, None, None)
        panel = plain_text(app.screen.query_one("#practice-panel"))
        # (not "in a game not saved": a study deleted or changed since leaves its mistakes due the same way)
        assert "a mistake practised before, in no study kept now" in panel
        assert "O went wrong here before. Find a move that keeps the draw for O." in panel
        await pilot.press("5", "n")
        await until(pilot, lambda: attempt_stats(app.library, "mistake", Geometry()).solved == 1, "kept", seconds=8)


async def test_the_footer_shows_only_the_keys_that_do_something_now():
    """A new user's review: the "Done" screen's footer still offered m Hint, space Solution, n Next, esc Stop. Once
    an exercise is settled there is no hint or solution to give; once all are done, only "Back" (n or escape)."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("1", "2", "4", "7", "5", "3", "6", "L", "o")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen", seconds=8)
        screen = app.screen
        shown = lambda: {  # noqa: E731
            binding.binding.description for binding in app.active_bindings.values() if binding.binding.show
        }
        assert {"Hint", "Solution", "Next", "Stop"} <= shown() and "Back" not in shown()
        await pilot.press("5")  # right: settled
        await pilot.pause()
        assert {"Next", "Stop"} <= shown() and not shown() & {"Hint", "Solution", "Back"}
        await pilot.press("m", "space")  # nothing to give now: the panel stays as it was
        await pilot.pause()
        assert not screen.practice.hint and not screen.practice.shown
        await pilot.press("n")
        await pilot.pause()
        assert screen.practice.finished and "Back" in shown() and not shown() & {"Hint", "Solution", "Next", "Stop"}
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, PracticeScreen), "back to the study")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_game_s_end_is_said_whole_however_narrow_the_pane(size):
    """A new user's review: at 120×40 "No mistakes in this game: both sides kept their val" was cut at the pane's
    edge; a mistake's line was cut with an ellipsis too."""
    for keys, said in (
        (("5", "1", "2", "8", "4", "6", "3", "7", "9"), "No mistakes in this game: both sides kept their value."),
        (("1", "2", "4", "7", "5", "3", "6"), "Mistakes in this game: O 1… 2??: draw → loss in 6"),
    ):
        app = _app()
        async with app.run_test(size=size) as pilot:
            await wait_ready(pilot, app)
            await pilot.press(*keys)
            await pilot.pause()
            view = app.query_one(EvaluationView)
            assert app.store.state.position.is_over and said in _words(view)
            assert "…" not in text_of(view).replace("1…", "")  # nothing cut


async def test_after_a_wrong_answer_the_board_numbers_the_line_only_up_to_a_right_answer_s_cell():
    """Review 45, finding 2: a wrong answer's words named no right move, but the board numbered the line after it,
    whose first reply was the answer: O's 9 here, then X's 5."""
    from workbench.engine.position import parse_position
    from workbench.state.practice import Exercise, Practice

    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        position = parse_position("OXO/X.X/OX.")  # O to move: 5 wins, 9 loses
        screen = PracticeScreen(Practice("puzzle", (Exercise(position),)), "puzzles")
        app.push_screen(screen)
        await pilot.pause()
        board = screen.query_one(BoardGrid)
        await pilot.press("9")
        await pilot.pause()
        assert plain_text(screen.query_one("#practice-panel")).split("\n\n")[-1].startswith("Not this one. 9 loses")
        texts = cell_texts(board)
        assert texts[8] == "O1" and texts[4] == "5", texts  # O's 9 numbered; X's reply, on the answer, not
        await pilot.press("5")  # found: the best line numbered in full
        await pilot.pause()
        assert cell_texts(board)[4] == "O1"


async def test_the_lit_cells_leave_out_the_move_the_question_names_and_the_answers_tried():
    """Review 45, finding 3: after O's 2, 1 3 7 9 keep the draw; the lit cells were those and 2 itself, the move the
    question names: the answer set, given away."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        await pilot.press("5", "2", "L", "o")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen")
        screen = app.screen
        board = screen.query_one(BoardGrid)
        await pilot.press("8", "m", "m")  # a wrong answer, then the second hint
        await pilot.pause()
        corners = (1 << 0) | (1 << 2) | (1 << 6) | (1 << 8)
        assert board.lit & corners == corners and not board.lit & ((1 << 1) | (1 << 7))
        assert board.lit & ~corners  # a move not known to be wrong lit beside the answers


@pytest.mark.parametrize("theme", sorted(WorkbenchApp().available_themes))
async def test_an_answer_is_judged_in_the_theme_s_colours_in_every_theme(theme):
    """Review 45, finding 1: under ansi-light and ansi-dark the first answer ended the app (Rich read the theme's
    ``ansi_green`` as no colour it knew), and the attempt was lost."""
    from workbench.engine.position import parse_position
    from workbench.state.practice import Exercise, Practice

    app = _app()
    app.theme = theme
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        screen = PracticeScreen(Practice("puzzle", (Exercise(parse_position("OXO/X.X/OX.")),)), "puzzles")
        app.push_screen(screen)
        await pilot.pause()
        colours = app.get_css_variables()
        for key, words, variable in (("9", "Not this one. ", "text-error"), ("5", "Right! ", "text-success")):
            await pilot.press(key)
            await pilot.pause()
            text = screen._panel_text(screen.practice)  # the Rich text the panel shows
            [span] = [span for span in text.spans if text.plain[span.start : span.end].strip() == words.strip()]
            style = span.style
            expected = screen.get_component_rich_style(f"practice--{'best' if key == '5' else 'mistake'}")
            assert style.bold and style.color == expected.color and style.color is not None, (theme, colours[variable])


async def test_a_library_that_cannot_be_written_says_so_once_an_exercise():
    """The review of review 45's changes: a lost first try's attempt, kept at once, failed on a read-only library,
    and its ending failed again: two warnings for one exercise."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_library(pilot, app)
        app.library.read_only = True  # (as a library on a read-only disk opens)
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, PracticeScreen), "the practice screen", seconds=8)
        screen = app.screen
        await until(pilot, lambda: "to move: " in plain_text(screen.query_one("#practice-panel")), "a puzzle")
        position = screen.practice.current.position
        wrong = next(cell for cell in position.legal_moves() if cell not in solution(position))
        await pilot.press(str(wrong), str(solution(position)[0]), "n")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        said = [note.message for note in app._notifications if "read-only" in note.message]
        assert len(said) == 1, said
