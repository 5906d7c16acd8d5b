"""Issue 41, part 2 (the state): practice sessions judged by the exact values, the mistakes of a line, hints,
solutions, results and the notes a practised mistake leaves."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.engine import Geometry, Player, Position, analyze, cell_bit
from workbench.engine.explain import ExplainError
from workbench.state import AppState, reduce
from workbench.state.actions import NewGame, PlayCell
from workbench.state.practice import (
    RESULTS,
    Exercise,
    Practice,
    answer,
    hint_mask,
    judge,
    mistake_summary,
    mistakes_of_line,
    moved_on,
    practised_comment,
    prompt,
    score,
    solution,
    with_hint,
    with_solution,
)


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
    assert o_mistakes[0].where == "ply 2" and o_mistakes[0].node == line[1]
    assert mistake_summary(tree, line) == ("O 2?? at ply 2: draw → loss in 6",)


def test_an_inaccuracy_is_practised_too_but_is_not_a_mistake_of_the_summary():
    tree, line = _line((1, 2, 4, 7, 5, 3, 8))  # 8 wins in 3 where 6 or 9 won at once
    exercises = mistakes_of_line(tree, line, Player.X)
    assert [exercise.played for exercise in exercises] == [8]
    assert mistake_summary(tree, line) == ("O 2?? at ply 2: draw → loss in 6",)


@pytest.mark.parametrize("cell, grade", [(5, "best"), (3, "mistake"), (9, "mistake")])
def test_answers_are_judged_by_the_exact_values(cell, grade):
    judgement = judge(Position.empty().play(1), cell)
    assert judgement.grade == grade
    words = {"best": "Good move! 5 is best: draw.", "mistake": "Still a mistake. "}[grade]
    assert judgement.text.startswith(words)


def test_a_slower_win_can_be_done_better():
    judgement = judge(Position.empty().play_all((1, 2, 4, 7, 5, 3)), 8)
    assert judgement.grade == "good"
    assert judgement.text == "You can do better: 8 keeps the win but wins more slowly (3 plies to the end, not 1)."


def test_a_session_goes_wrong_answer_hint_solution_next_and_keeps_each_result():
    tree, line = _line((1, 2, 4, 7, 5, 3, 6))
    practice = Practice("mistake", mistakes_of_line(tree, line, Player.O), Player.O)
    assert prompt(practice) == "O played 2 here. Find a better move for O: one that draws."
    practice = answer(practice, 3)
    assert [j.grade for j in practice.tries] == ["mistake"] and not practice.found and practice.result == "missed"
    assert answer(practice, 1) is practice  # a taken cell asks nothing
    practice = with_hint(practice)
    assert practice.hint and with_hint(practice) is practice and hint_mask(practice.current.position) == "best"
    practice = with_solution(practice)
    assert practice.settled and answer(practice, 5) is practice  # nothing more to answer once the solution is shown
    assert practice.result == "shown"
    practice = moved_on(practice)
    assert practice.finished and practice.results == ("shown",) and practice.current is None
    assert moved_on(practice) is practice and answer(practice, 5) is practice
    assert score(practice) == "0 of 1 found · 1 shown"
    assert practised_comment(practice, 0) == "practised: shown (best: 5)"


def test_found_after_a_hint_and_skipped_are_results_of_their_own():
    exercises = (Exercise(Position.empty().play(1), 2), Exercise(Position.empty().play(5), 2), Exercise(Position.empty().play(1), 9))
    practice = Practice("mistake", exercises)
    practice = moved_on(answer(with_hint(practice), 5))  # found after a hint
    practice = moved_on(answer(practice, 1))  # a corner keeps the draw against the centre: found
    practice = moved_on(practice)  # skipped
    assert practice.results == ("solved with a hint", "solved", "skipped")
    assert score(practice) == "2 of 3 found (1 with a hint) · 1 skipped"
    assert set(practice.results) <= set(RESULTS)


@pytest.mark.parametrize(
    "moves, mask", [((1, 5, 9), "best"), ((1, 2, 4), "block"), ((1, 4, 2, 5), "win"), ((1, 2, 5, 9), "fork"), ((1, 2), "perfect_win")]
)
def test_the_hint_lights_the_mask_that_matters(moves, mask):
    position = Position.empty().play_all(moves)
    assert hint_mask(position) == mask
    lit = analyze(position).masks.get(hint_mask(position))
    assert lit & analyze(position).masks.best  # the hint always lights a move that keeps the value


def test_a_puzzle_asks_for_the_win_the_draw_or_the_longest_defence():
    win = Practice("puzzle", (Exercise(Position.empty().play_all((1, 2, 4, 7, 5))),))  # O to move, X forks: lost
    assert prompt(win) == "O to move: find the move that holds out longest."
    draw = Practice("puzzle", (Exercise(Position.empty().play(1)),))
    assert prompt(draw) == "O to move: find the only move that holds the draw."


def test_judging_a_taken_cell_or_a_finished_game_is_refused():
    with pytest.raises(ExplainError):
        judge(Position.empty().play(5), 5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 12), max_size=12), st.sampled_from([Geometry(), Geometry(3, 4, 3), Geometry(misere=True)]))
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


def test_a_hint_shows_until_the_next_answer_and_can_be_asked_again():
    practice = Practice("mistake", (Exercise(Position.empty().play(1), 2),))
    practice = with_hint(practice)
    assert practice.hint_showing and with_hint(practice) is practice
    practice = answer(practice, 3)
    assert practice.hint and not practice.hint_showing  # the answer and its refutation are shown now
    practice = with_hint(practice)
    assert practice.hint_showing and practice.hint_at == 1
    practice = answer(practice, 5)
    assert practice.settled and not practice.hint_showing and with_hint(practice) is practice
    assert moved_on(practice).results == ("solved with a hint",)
