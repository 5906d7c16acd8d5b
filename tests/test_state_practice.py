"""Issue 41, part 2 (the state): practice sessions judged by the exact values, the mistakes of a line, hints,
solutions, results and the notes a practised mistake leaves."""

import random
from datetime import date

import pytest
from hypothesis import given, settings, strategies as st

from workbench.engine import Geometry, Player, Position, Value, analyze, cell_bit
from workbench.engine.analysis import answers_of
from workbench.engine.explain import ExplainError, exact_moves, explain
from workbench.engine.geometry import bitboard_of
from workbench.engine.puzzles import THEMES, find_puzzles, puzzle_theme
from workbench.engine.threats import completions
from workbench.state import AppState, reduce
from workbench.state.actions import Back, NewGame, PlayCell
from workbench.state.practice import (
    PRACTISED_NOTE,
    RESULTS,
    Exercise,
    Practice,
    answer,
    hint_region,
    hint_text,
    hint_words,
    judge,
    mistake_summary,
    mistakes_of_line,
    mistakes_of_tree,
    moved_on,
    practised_comment,
    prompt,
    ruled_out,
    score,
    solution,
    told_line,
    with_hint,
    with_solution,
)
from workbench.state.progress import sitting


def _line(cells, geometry=None):
    state = reduce(AppState(), NewGame(geometry=geometry or Geometry()))
    for cell in cells:
        state = reduce(state, PlayCell(cell=cell))
    return state.tree, state.tree.path(state.cursor)


def test_the_corner_then_edge_game_has_o_s_one_mistake_and_x_s_none():
    tree, line = _line((1, 2, 4, 7, 5, 3, 6))
    o_mistakes = mistakes_of_line(tree, line, Player.O)
    assert [(exercise.position.ply, exercise.played) for exercise in o_mistakes] == [(1, 2)]
    assert mistakes_of_line(tree, line, Player.X) == ()
    assert mistakes_of_line(tree, line, None) == o_mistakes
    assert o_mistakes[0].where == "move 1… 2" and o_mistakes[0].node == line[1]
    assert mistake_summary(tree, line) == ("O 1… 2??: draw → loss in 6",)


def test_an_inaccuracy_is_practised_too_but_is_not_a_mistake_of_the_summary():
    tree, line = _line((1, 2, 4, 7, 5, 3, 8))  # 8 wins in 3 where 6 or 9 won at once
    exercises = mistakes_of_line(tree, line, Player.X)
    assert [exercise.played for exercise in exercises] == [8]
    assert mistake_summary(tree, line) == ("O 1… 2??: draw → loss in 6",)


@pytest.mark.parametrize("cell, grade", [(5, "best"), (3, "mistake"), (9, "mistake")])
def test_answers_are_judged_by_the_exact_values(cell, grade):
    judgement = judge(Position.empty().play(1), cell)
    assert judgement.grade == grade
    words = {"best": "Right! 5 keeps the draw.", "mistake": "Not this one. "}[grade]
    assert judgement.text.startswith(words)


def test_a_slower_win_can_be_done_better():
    judgement = judge(Position.empty().play_all((1, 2, 4, 7, 5, 3)), 8)
    assert judgement.grade == "good"
    assert judgement.text == "Not quite: 8 wins too, but only in 3 plies; a quicker win takes 1 ply."


def test_a_session_goes_wrong_answer_hint_solution_next_and_keeps_each_result():
    tree, line = _line((1, 2, 4, 7, 5, 3, 6))
    practice = Practice("mistake", mistakes_of_line(tree, line, Player.O), Player.O)
    assert prompt(practice) == "O played 2 here. Find a move that keeps the draw for O."
    practice = answer(practice, 3)
    assert [j.grade for j in practice.tries] == ["mistake"] and not practice.found and practice.result == "missed"
    assert answer(practice, 1) is practice  # a taken cell asks nothing
    assert answer(practice, 3) is practice  # nor a cell answered already (the cursor's Enter after a click)
    practice = with_hint(practice)
    assert practice.hint and practice.hint_level == 1
    practice = with_solution(practice)
    assert practice.settled and answer(practice, 5) is practice  # nothing more to answer once the solution is shown
    assert practice.result == "shown"
    practice = moved_on(practice)
    assert practice.finished and practice.results == ("shown",) and practice.current is None
    assert moved_on(practice) is practice and answer(practice, 5) is practice
    assert score(practice) == "0 of 1 solved · 1 shown"
    assert practised_comment(practice, 0, date(2026, 11, 29)) == "practised 2026-11-29: shown (best: 5)"
    for older in ("practised: shown (best: 5)", "practised 2026-11-29: solved (best: 5)"):  # what a new note replaces
        assert PRACTISED_NOTE.match(older)
    assert not PRACTISED_NOTE.match("practised it: no") and not PRACTISED_NOTE.match("a note practised: 2")


def test_found_after_a_hint_and_skipped_are_results_of_their_own():
    exercises = (
        Exercise(Position.empty().play(1), 2),
        Exercise(Position.empty().play(5), 2),
        Exercise(Position.empty().play(1), 9),
    )
    practice = Practice("mistake", exercises)
    practice = moved_on(answer(with_hint(practice), 5))  # found after a hint
    practice = moved_on(answer(practice, 1))  # a corner keeps the draw against the centre: found
    practice = moved_on(practice)  # skipped
    assert practice.results == ("helped", "solved", "skipped")
    assert score(practice) == "1 of 3 solved · 1 with a hint · 1 skipped"
    assert set(practice.results) <= set(RESULTS)


def test_a_puzzle_asks_for_the_win_the_draw_or_the_longest_defence():
    win = Practice("puzzle", (Exercise(Position.empty().play_all((1, 2, 4, 7, 5))),))  # O to move, X forks: lost
    assert prompt(win) == "O to move: every move loses. Find the one that holds out longest."
    draw = Practice("puzzle", (Exercise(Position.empty().play(1)),))
    assert prompt(draw) == "O to move: find the one move that does not lose."
    win = next(puzzle for puzzle in find_puzzles(Geometry()) if puzzle.value is Value.WIN)
    side = win.position.turn.value
    assert prompt(Practice("puzzle", (Exercise(win.position),))) == f"{side} to move: find the one move that wins."


def test_judging_a_taken_cell_or_a_finished_game_is_refused():
    with pytest.raises(ExplainError):
        judge(Position.empty().play(5), 5)


@settings(max_examples=60)
@given(
    st.lists(st.integers(1, 12), max_size=12), st.sampled_from([Geometry(), Geometry(3, 4, 3), Geometry(misere=True)])
)
def test_every_mistake_found_on_a_line_loses_value_or_time_and_its_solution_keeps_both(cells, geometry):
    position = Position.empty(geometry)
    played = []
    for cell in cells:
        if position.is_over:
            break
        legal = position.legal_moves()
        move = legal[cell % len(legal)]
        played.append(move)
        position = position.play(move)
    tree, line = _line(played, geometry)
    for exercise in mistakes_of_line(tree, line, None):
        before = analyze(exercise.position)
        move = before.move(exercise.played)
        assert move.value < before.value or not before.masks.best & cell_bit(exercise.played)
        for best in solution(exercise.position):
            assert judge(exercise.position, best).grade == "best"


def test_random_sessions_never_lose_a_result():
    rng = random.Random(41)
    tree, line = _line((5, 2, 1, 9, 3, 7, 4, 6, 8))
    practice = Practice("mistake", mistakes_of_line(tree, line, None))
    steps = 0
    while not practice.finished:
        step = rng.choice(("answer", "hint", "solution", "next"))
        if step == "answer":
            practice = answer(practice, rng.randint(1, 9))
        elif step == "hint":
            practice = with_hint(practice)
        elif step == "solution":
            practice = with_solution(practice)
        else:
            practice = moved_on(practice)
        steps += 1
    assert len(practice.results) == len(practice.exercises) and steps >= len(practice.exercises)


def test_hints_are_graded_words_then_a_region_then_the_solution():
    practice = Practice("mistake", (Exercise(Position.empty().play(1), 2),))
    practice = with_hint(practice)
    assert practice.hint_showing and practice.hint_level == 1
    assert hint_text(practice) == "Hint: One move keeps the draw; the other 7 moves lose."
    practice = answer(practice, 3)
    assert practice.hint and not practice.hint_showing  # the answer and its refutation are shown now
    practice = with_hint(practice)
    assert practice.hint_showing and practice.hint_at == 1 and practice.hint_level == 2
    assert hint_text(practice).endswith("The answer is one of the lit cells.")
    assert not practice.shown and with_hint(practice).shown  # the third: the solution
    practice = answer(practice, 5)
    assert practice.settled and not practice.hint_showing and with_hint(practice) is practice
    assert moved_on(practice).results == ("found later",)


# --- issue 48: honest scores, nothing given away, themes and hints that are facts ------------------------------------


def _hold_out_puzzle():
    """A 3×3 puzzle where every move loses and one loses slowest, with a move that loses sooner."""
    for puzzle in find_puzzles(Geometry()):
        if puzzle.value is Value.LOSS:
            sooner = [move.cell for move in analyze(puzzle.position).moves if move.remoteness < puzzle.remoteness]
            if sooner:
                return puzzle, sooner[0]
    raise AssertionError("3×3 has hold-out puzzles")


def test_a_quicker_loss_in_a_hold_out_puzzle_is_not_solved():
    """Finding 4: "You can do better" was stored as solved."""
    puzzle, sooner = _hold_out_puzzle()
    practice = answer(Practice("puzzle", (Exercise(puzzle.position),)), sooner)
    assert practice.tries[0].grade == "good" and not practice.found and not practice.settled
    assert (
        practice.tries[0].text.startswith(f"Not quite: {sooner} loses in ")
        and "another move holds out for" in practice.tries[0].text
    )
    assert moved_on(practice).results == ("missed",)
    assert moved_on(answer(practice, puzzle.answer)).results == ("found later",)


def test_in_learn_a_move_as_bad_as_the_mistake_is_not_found():
    """Finding 4, in L: X's 8 won in 3 where 6 or 9 won at once; answering it again (as slow) is not found."""
    tree, line = _line((1, 2, 4, 7, 5, 3, 8))
    [exercise] = mistakes_of_line(tree, line, Player.X)
    practice = answer(Practice("mistake", (exercise,)), 8)
    assert practice.tries[0].grade == "good"
    assert not practice.found and moved_on(practice).results == ("missed",)


def test_a_wrong_first_try_then_the_right_move_is_not_solved():
    """Finding 5: only the first move tried counts, as Lichess keeps puzzles."""
    practice = Practice("mistake", (Exercise(Position.empty().play(1), 2),))
    practice = answer(answer(practice, 3), 5)
    assert practice.found and practice.result == "found later"
    assert score(moved_on(practice)) == "0 of 1 solved · 1 found after a miss"


def test_the_prompt_says_what_is_judged_the_quickest_win():
    """Finding 8: "one that wins" was asked, and a slower win then told "You can do better"."""
    tree, line = _line((1, 2, 4, 7, 5, 3, 8))
    practice = Practice("mistake", mistakes_of_line(tree, line, Player.X))
    assert prompt(practice) == "X played 8 here. Find the quickest win for X."


@pytest.mark.parametrize("geometry", [Geometry(), Geometry(misere=True)], ids=str)
def test_a_wrong_answer_says_why_it_fails_and_never_which_moves_are_right(geometry):
    """Finding 9, over every puzzle of the board: the words are the move's own story (its refutation), and name no
    move of the position as the one to play; and the first try is no "Still a mistake" (finding 15)."""
    for puzzle in find_puzzles(geometry):
        for cell in puzzle.position.legal_moves():
            judgement = judge(puzzle.position, cell)
            if judgement.grade == "mistake":
                assert judgement.text == f"Not this one. {explain(puzzle.position, cell).story}"
                assert (
                    "Still" not in judgement.text and "Best" not in judgement.text and " the move" not in judgement.text
                )
            elif judgement.grade == "good":
                assert puzzle.value is Value.LOSS and judgement.text.startswith("Not quite: ")


def _facts_of_hint(position: Position) -> None:
    """The first hint's words are facts of the position, checked from the values and the board's lines."""
    geometry, words = position.geometry, hint_words(position)
    analysis = exact_moves(position)
    own, other = position.sides
    me, them = position.turn, position.turn.other
    completes = [cell for cell in position.legal_moves() if geometry.has_line(own | cell_bit(cell))]
    if words.startswith("Every move loses"):
        assert all(move.value is Value.LOSS for move in analysis.moves)
    elif words.startswith("Careful:"):
        assert (
            geometry.misere
            and f"{len(completes)} empty cells" in words
            or (len(completes) == 1 and "One empty cell" in words)
        )
    elif words.startswith("Under misère"):
        assert geometry.misere and not completes
    elif words == f"{me.value} can complete a line right now.":
        assert completes and not geometry.misere
    elif words.startswith(f"{them.value} has a threat to meet"):
        assert any(geometry.has_line(other | cell_bit(cell)) for cell in position.legal_moves())
    elif words == "There is a move that makes two threats at once.":
        assert any(
            completions(geometry, own | cell_bit(cell), other).bit_count() >= 2 for cell in position.legal_moves()
        )
    elif "can force a win in" in words:
        plies = f"{analysis.remoteness} {'ply' if analysis.remoteness == 1 else 'plies'}"  # the app's "win in N"
        assert analysis.value is Value.WIN and f"in {plies}," in words
    else:
        keeping = sum(move.value is Value.DRAW for move in analysis.moves)
        assert analysis.value is Value.DRAW and words.startswith(
            "One move keeps" if keeping == 1 else f"{keeping} moves keep"
        )
        assert f"the other {len(analysis.moves) - keeping} move" in words


@pytest.mark.parametrize(
    "geometry", [Geometry(), Geometry(misere=True), Geometry(3, 4, 3), Geometry(3, 4, 3, misere=True)], ids=str
)
def test_every_puzzle_s_theme_and_hints_are_facts_of_the_exact_solution(geometry):
    """Every puzzle of the board: its theme is what its answer does, checked on the board after it; the first hint
    is true; the second lights the answer among other moves, never the answer alone."""
    for puzzle in find_puzzles(geometry):
        position, answer_cell, theme = puzzle.position, puzzle.answer, puzzle_theme(puzzle)
        assert theme in THEMES
        own, other = position.sides
        after = position.play(answer_cell)
        if theme == "win":
            assert after.status.value == f"{position.turn.value.lower()}_won" and not geometry.misere
        elif theme == "block":
            assert geometry.has_line(other | cell_bit(answer_cell))  # the other side would have completed a line there
        elif theme == "fork":  # two threats, and no reply stops both or wins first
            assert completions(geometry, own | cell_bit(answer_cell), other).bit_count() >= 2
            for reply in after.legal_moves():
                assert not after.play(reply).is_over and completions(
                    geometry, own | cell_bit(answer_cell), other | cell_bit(reply)
                )
        elif theme == "hold out":
            assert all(move.value is Value.LOSS for move in exact_moves(position).moves)
        elif theme == "misère squeeze":  # every reply completes a line of the other side's own
            assert geometry.misere and puzzle.value is Value.WIN
            assert all(geometry.has_line(other | cell_bit(reply)) for reply in after.legal_moves())
        _facts_of_hint(position)
        region = hint_region(position)
        assert region & cell_bit(answer_cell) and not region & position.occupied
        if len(position.legal_moves()) > 2:
            assert region != cell_bit(answer_cell)


def test_a_sitting_asks_what_is_due_then_new_puzzles_and_not_one_solved_lately():
    """Finding 6: a puzzle solved came back first in the next sitting; now the due ones come first, then the new."""
    puzzles = list(find_puzzles(Geometry()))
    solved, missed = puzzles[0], puzzles[5]
    chosen = sitting(puzzles, [missed.position], {solved.position, missed.position}, 10)
    assert chosen[0] == missed and solved not in chosen and len(chosen) == 10
    assert all(puzzle_theme(puzzle) == "fork" for puzzle in sitting(puzzles, [], set(), 10, "fork"))
    assert (
        sitting(puzzles[:3], [], {puzzle.position for puzzle in puzzles[:3]}, 10) == puzzles[:3]
    )  # all tried: asked again


def test_a_mistake_in_a_variation_is_found_from_the_main_line():
    """Finding 13: L looked only at the line under the cursor."""
    state = reduce(AppState(), NewGame(geometry=Geometry()))
    for cell in (5, 1):
        state = reduce(state, PlayCell(cell=cell))
    state = reduce(state, Back())  # back to 5, then a variation: O's 2
    state = reduce(state, PlayCell(cell=2))
    exercises = mistakes_of_tree(state.tree, None)
    assert [(exercise.played, exercise.where) for exercise in exercises] == [(2, "move 1… 2 of a variation")]
    # two mistakes from one position (the main line's 2, then a variation's 4): the position is asked once, its
    # question and answer being the same (a review saw it twice in a row)
    for cell in (4,):
        state = reduce(state, Back())
        state = reduce(state, PlayCell(cell=cell))
    both = mistakes_of_tree(state.tree, Player.O)
    assert [(exercise.position, exercise.played) for exercise in both] == [(Position.empty().play(5), 2)]
    assert both[0].also == ((both[0].node, 4),)  # noted with it
    # a study's name as its owner wrote it, quotes and all (Python's repr showed it escaped: 'Tom\'s')
    (exercise,) = mistakes_of_tree(state.tree, None, study='Tom\'s "corner"')
    assert exercise.where == "study 'Tom's \"corner\"', move 1… 2 of a variation"


def test_a_new_empty_game_has_nothing_to_save():
    """Finding 15: quitting asked to save an empty new study (the app asks only where the tree is not empty)."""
    from workbench.state.actions import SetComment, SetUpPosition

    state = reduce(reduce(reduce(AppState(), PlayCell(cell=5)), NewGame(geometry=Geometry(3, 4, 3))), PlayCell(cell=6))
    assert not state.tree.is_empty
    state = reduce(state, NewGame(geometry=Geometry()))
    assert state.modified and state.tree.is_empty
    assert not reduce(state, SetUpPosition(position=Position.empty().play(5))).tree.is_empty  # a set-up is work
    assert not reduce(state, SetComment(text="openings to try")).tree.is_empty


def _live_positions(geometry: Geometry) -> list[Position]:
    """Every position of the board reachable in play with a move to make."""
    seen, frontier = {Position.empty(geometry)}, [Position.empty(geometry)]
    while frontier:
        after = []
        for position in frontier:
            for cell in position.legal_moves():
                child = position.play(cell)
                if child not in seen:
                    seen.add(child)
                    after.append(child)
        frontier = after
    return [position for position in seen if not position.is_over]


@pytest.mark.parametrize("geometry", [Geometry(), Geometry(misere=True)], ids=str)
def test_the_line_numbered_after_a_wrong_answer_never_plays_a_right_one(geometry):
    """Review 45, finding 2: after a wrong answer the board numbered the best line after it, and its reply was
    most often the answer itself. Over every position and every move that is not a best one: the line numbered is
    the best line after it up to the first move onto a right answer, and no further."""
    answers = answers_of(geometry)
    for position in _live_positions(geometry):
        right = set(solution(position))
        for cell in position.legal_moves():
            if cell in right:
                continue
            line = told_line(position, cell)
            full = (cell, *answers.principal_variation(position.play(cell)))
            assert line and line == full[: len(line)] and not right & set(line), (position, cell)
            assert len(line) == len(full) or full[len(line)] in right, (position, cell)


@pytest.mark.parametrize("geometry", [Geometry(), Geometry(misere=True)], ids=str)
def test_the_lit_cells_always_hold_a_move_not_ruled_out_beside_the_answers(geometry):
    """Review 45, finding 3: the second hint's decoys were the moves closest to the best, the move the question
    names and the answers tried among them, so the lit cells the player did not know to be wrong were often exactly
    the answers. Over every position, each move that is not a best one as the move played, with and without a try
    of another: the answers lit, nothing ruled out lit, and a move not ruled out beside them wherever there is
    one."""
    for position in _live_positions(geometry):
        best = bitboard_of(solution(position))
        others = [cell for cell in position.legal_moves() if not best & cell_bit(cell)]
        for played in others:
            for tried in (None, *[cell for cell in others if cell != played][:1]):
                ruled = cell_bit(played) | (cell_bit(tried) if tried else 0)
                region = hint_region(position, ruled_out=ruled)
                assert region & best == best and not region & ruled, (position, played, tried)
                if any(not ruled & cell_bit(cell) for cell in others):
                    assert region & ~best, (position, played, tried)


def test_what_is_ruled_out_is_the_move_the_question_names_and_every_answer_tried():
    position = Position.empty().play_all((1,))
    practice = Practice("mistake", (Exercise(position, 2),))
    assert ruled_out(practice) == cell_bit(2)
    practice = answer(answer(practice, 3), 9)
    assert ruled_out(practice) == cell_bit(2) | cell_bit(3) | cell_bit(9)
    assert ruled_out(Practice("puzzle", (Exercise(position),))) == 0
    assert ruled_out(moved_on(practice)) == 0  # none open
