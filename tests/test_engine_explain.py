"""A move explained in words, from the exact values, on hand-checked positions (issue 41), and the false or
misleading words issue 48 found, each on the position it names. Every fact of every move of whole boards is
checked in test_teaching_facts."""

import json
import random

import pytest

from workbench.cli import main
from workbench.engine import TIC_TAC_TOE, Geometry, Position, parse_position, principal_variation
from workbench.engine.explain import ExplainError, explain, explanation_record, headline
from workbench.engine.geometry import parse_cell_name


def _played(moves, geometry=None):
    position = Position.empty(geometry) if geometry else Position.empty()
    return position.play_all(moves[:-1]), moves[-1]


def test_corner_then_edge_is_the_trap_the_issue_spells_out():
    explanation = explain(*_played((1, 2)))
    assert (explanation.verdict, explanation.best) == ("mistake", (5,))
    assert [(step.cell, step.role, step.threatens) for step in explanation.line] == [
        (2, "quiet", ()),
        (4, "threat", (7,)),
        (7, "block", ()),
        (5, "fork", (6, 9)),
        (6, "block", ()),
        (9, "win", ()),
    ]
    assert explanation.text == (
        "2?? loses in 6: X plays 4 (threatens 7); O must block at 7; X plays 5, threatening 6 "
        "and 9, and O can stop only one. 5 is the only move that draws."
    )
    # practice's words for a wrong answer stop before X's 5: the fork's cell is the one move that draws
    assert explanation.story == "2 loses in 6: X plays 4 (threatens 7); O must block at 7; and so on."


def test_centre_then_edge_loses_to_a_corner_and_a_fork():
    explanation = explain(*_played((5, 2)))
    assert explanation.verdict == "mistake" and explanation.best == (1, 3, 7, 9)
    assert explanation.text == (
        "2?? loses in 6: X plays 1 (threatens 9); O must block at 9; X plays 4, threatening 6 "
        "and 7, and O can stop only one. 1, 3, 7, 9 are the moves that draw."
    )
    assert "1, 3, 7, 9" not in explanation.story  # practice's words give no answer away


def test_a_fork_is_the_explained_move_s_own_when_the_defender_would_only_block_into_a_lost_position():
    """Issue 48, finding 1: after 1 2 3 4, X's 9 threatens 5 and 6. The words once said "O plays 5, threatening
    6 and 8; X can stop only one", though X simply completes 3-6-9."""
    explanation = explain(*_played((1, 2, 3, 4, 9)))
    assert explanation.text == "9 wins in 3: it threatens 5 and 6, and O can stop only one."
    assert [(step.cell, step.role) for step in explanation.line] == [(9, "fork"), (5, "block"), (6, "win")]
    geometry = Geometry(3, 4, 3)
    c1 = explain(parse_position("X.../..X./.O..", geometry), 11)  # O to move: O's c1 is the fork
    assert c1.text == "c1! wins in 3: it threatens a1 and d1, and X can stop only one. Every other move loses in 4."


def test_two_threats_are_said_as_two_and_not_as_a_block_that_must_be_made():
    """Issue 48, finding 2: XOX/..O/... and X 7 once read "O must block at 4 (and threatens 5)"."""
    explanation = explain(parse_position("XOX/..O/..."), 7)
    assert explanation.text == "7 wins in 3: it threatens 4 and 5, and O can stop only one."
    assert "must block" not in explanation.text


def test_the_line_shown_blocks_a_threat_where_every_defence_loses_as_fast():
    """Issue 48, finding 3: after 1 2 the line was 2 4 7 5 3 6 (O's 3 blocks nothing); among equally good moves
    the defender now blocks, and the best line everywhere is the same."""
    assert principal_variation(Position.empty().play_all((1, 2))) == (4, 7, 5, 6, 9)
    assert tuple(step.cell for step in explain(*_played((1, 2))).line) == (2, 4, 7, 5, 6, 9)


@pytest.mark.parametrize(
    "reply, verdict", [(2, "best"), (4, "best"), (6, "best"), (8, "best"), (3, "mistake"), (7, "mistake")]
)
def test_after_the_opposite_corners_o_must_take_an_edge(reply, verdict):
    explanation = explain(*_played((1, 5, 9, reply)))
    assert explanation.verdict == verdict and explanation.best == (2, 4, 6, 8)
    if verdict == "mistake":  # a corner: X takes the other corner and forks
        fork = next(step for step in explanation.line if step.role == "fork")
        assert fork.player.value == "X" and len(fork.threatens) == 2 and "can stop only one" in explanation.text


def test_the_only_move_that_holds_says_why_every_other_loses():
    """3×4: X on a1 and c1, O on d3: O must take b1 (then O threatens c2 and X must answer)."""
    geometry = Geometry(3, 4, 3)
    position = parse_position("...O/..../X.X.", geometry)
    explanation = explain(position, 10)
    assert explanation.verdict == "only move" and explanation.value_after.label == "draw"
    assert explanation.text.startswith(
        "b1! draws: it blocks a line of X's and threatens c2. X must block at c2 (and threatens c3);"
    )
    assert explanation.text.endswith("; and so on. Every other move loses in 2.")


def test_a_slower_win_is_inaccurate_and_says_by_how_much():
    explanation = explain(*_played((1, 2, 4, 7, 5, 3, 8)))
    assert explanation.verdict == "inaccurate"
    assert explanation.text == (
        "8?! wins in 3: it passes up a win at 6 or 9, and O can stop only one of 6 and 9. Best: 6 or 9, winning in 1."
    )


@pytest.mark.parametrize(
    ("cell", "words", "role", "threatens"),
    [
        (8, "8?? draws: it passes up a win at 7. O must block at 7 (and threatens 4);", "quiet", ()),
        (
            4,
            "4?! wins in 3: it passes up a win at 7 and threatens 6, and O can stop only one of 6 and 7.",
            "threat",
            (6,),
        ),
        (
            6,
            "6?! wins in 3: it passes up a win at 7 and threatens 4 and 9, and O can stop only one of 4, 7 and 9.",
            "fork",
            (4, 9),
        ),
    ],
)
def test_a_threat_standing_before_the_move_is_not_the_moves(cell, words, role, threatens):
    """A new user's review: with X threatening 7 already, 8 was said to threaten 7 and 4 to threaten 6 and 7."""
    position = parse_position("OOX/.X./...")
    explanation = explain(position, parse_cell_name(str(cell), position.geometry))
    assert explanation.text.startswith(words)
    step = explanation.line[0]
    assert (step.role, step.threatens) == (role, tuple(parse_cell_name(str(c), position.geometry) for c in threatens))


def test_misere_a_side_that_must_complete_a_line_loses_and_the_words_say_so():
    """Misère 3×3, X 5 9 2 and O 1 3 8, X to move with 4, 6 and 7 left: 4 or 6 lets O squeeze with 7 (X must then
    complete 4-5-6); 7 alone holds the draw. O's 7 is move 4 (``4… 7`` in the History pane; the words once said
    "move 8", its ply)."""
    position = Position.empty(Geometry(misere=True)).play_all((5, 1, 9, 3, 2, 8))
    for cell in (4, 6):
        explanation = explain(position, cell)
        assert explanation.verdict == "mistake" and explanation.best == (7,)
        assert [(step.cell, step.role) for step in explanation.line] == [
            (cell, "quiet"),
            (7, "squeeze"),
            (10 - cell, "loses"),
        ]
        assert explanation.text == (
            f"{cell}?? loses in 3: O plays 7, its 4th move, leaving X only cells that complete a line "
            "of X's own. 7 is the only move that draws."
        )
    only = explain(position, 7)
    assert only.verdict == "only move" and [step.role for step in only.line] == ["quiet", "quiet", "quiet"]
    assert only.text == "7! draws. Every other move loses in 3."


def test_misere_a_line_completed_by_choice_is_named_so():
    """Misère 3×3, X 1 3 and O 5 4, X to move: X 2 completes the top row and loses at once; 7 alone draws."""
    losing = explain(Position.empty(Geometry(misere=True)).play_all((1, 5, 3, 4)), 2)
    assert losing.verdict == "mistake" and losing.line[0].role == "loses" and losing.line[1:] == ()
    assert (
        losing.text
        == "2?? loses: it completes a line of X's own, which loses under misère. 7 is the only move that draws."
    )


def test_bad_moves_are_refused_in_one_line(capsys):
    with pytest.raises(ExplainError, match=r"^5: not a move here \(the cell is taken\)$"):
        explain(Position.empty().play(5), 5)
    with pytest.raises(ExplainError, match=r"^10: not a move here \(no such cell on 3x3k3, 1-9\)$"):
        explain(Position.empty().play(5), 10)
    with pytest.raises(ExplainError, match="the game is over"):
        explain(Position.empty().play_all((1, 4, 2, 5, 3)), 9)
    assert main(["explain", "--game", "3x3k3-misere", "--moves", "5,5"]) == 2
    assert main(["explain"]) == 2 and main(["explain", "--moves", "1", "X../.../...", "--move", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 3 and all(line.startswith("workbench: error: ") for line in err.splitlines())


def test_explain_on_the_command_line_and_its_json(capsys):
    assert main(["explain", "--moves", "1,2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2: mistake (draw → loss in 6; best: 5)"  # as `review` and the app say it
    assert out[1] == "2 quiet · 4 threat (7) · 7 block · 5 fork (6,9) · 6 block · 9 win"
    assert out[2].startswith("2?? loses in 6: ")
    assert main(["explain", "--game", "3x4k3", "...O/..../X.X.", "--move", "b1"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("b1 block, threatens c2 · c2 block, threatens c3 · ")
    assert main(["explain", "--game", "4x4k3-misere", "--moves", "a4,b3"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("b3 quiet · b4 quiet, own line at c4 · d4 quiet · ")
    assert main(["explain", "X../.O./...", "--move", "9", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert {"verdict", "value_before", "value_after", "best", "line", "text"} <= set(record)
    assert record == explanation_record(explain(parse_position("X../.O./..."), 9))
    assert set(record["line"][0]) == {"ply", "player", "cell", "name", "role", "threatens"}
    assert main(["explain", "--game", "3x4k3", "...O/..../X.X.", "--move", "b1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["verdict"], record["name"], record["cell"]) == ("only move", "b1", 10)


@pytest.mark.parametrize(
    "geometry, moves, words",
    [
        (TIC_TAC_TOE, (1, 2), "2?? Mistake: draw → loss in 6. Best was 5."),
        (TIC_TAC_TOE, (1, 5), "5! Only move: nothing else draws."),
        # no other move wins at all: "in 7" is this move's alone (another win, if slower, keeps the value too)
        (Geometry(3, 4, 3), (8, 4, 7), "c2! Only move: nothing else wins; this wins in 7."),
        (TIC_TAC_TOE, (1, 2, 4, 7, 5, 3, 8), "8?! Inaccuracy: win in 1 → win in 3. Best was 6, 9."),
        (TIC_TAC_TOE, (1, 5, 9, 2), "2 Best move: draw."),
        (TIC_TAC_TOE, (1, 2, 4, 7, 5, 3, 6), "6 Best move: win in 1."),
    ],
)
def test_the_headline_is_the_verdict_as_an_analysis_board_writes_it(geometry, moves, words):
    assert headline(explain(*_played(moves, geometry))) == words


def test_the_history_s_marks_are_the_verdicts_of_explain():
    """The tree's ``??``, ``?!`` and ``!`` and explain's verdicts agree on every move of random games."""
    from workbench.state import AppState, annotation, reduce
    from workbench.state.actions import PlayCell

    rng = random.Random(7)
    marks = {"mistake": "??", "inaccurate": "?!", "only move": "!", "best": ""}
    for _ in range(200):
        state = AppState()
        while not state.position.is_over:
            before, cell = state.position, rng.choice(state.position.legal_moves())
            state = reduce(state, PlayCell(cell=cell))
            assert annotation(state.tree, state.cursor) == marks[explain(before, cell).verdict]


def test_explain_all_streams_every_move_of_every_position_as_explain_json_records_it(capsys):
    """Issue 48: `explain --all --json`, one record a line, each the record `explain --json` prints; the text form
    a line each too; past 12 cells, and with a position or a move, one line and exit 2."""
    assert main(["explain", "--all", "--json", "--game", "3x3k3-misere"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 16_167  # every legal move of each of the 4,520 positions in play (test_teaching_facts)
    records = [json.loads(line) for line in lines]
    assert len({(record["position"], record["cell"]) for record in records}) == len(records)
    geometry = Geometry(misere=True)
    for record in random.Random(48).sample(records, 40):
        assert record == explanation_record(explain(parse_position(record["position"], geometry), record["cell"]))
    assert main(["explain", "--all", "--game", "2x2k2"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert len(text) == 4 + 4 * 3 + 12 * 2  # after three marks X holds a line: every pair of 2×2 is one
    assert text[0] == "../..  a2  best  a2 wins in 3: it threatens b2, a1 and b1, and O can stop only one."
    for args, words in ((["--game", "4x4k3"], "at most 12 cells"), (["--moves", "1"], "takes no position or move")):
        assert main(["explain", "--all", *args]) == 2
        assert words in capsys.readouterr().err


def test_a_wrong_answer_s_words_say_a_threat_without_its_cell_where_that_cell_is_a_right_answer():
    """X's 1 threatens 5, where X wins: practice says only that it makes a threat (and stops there: O's block
    at 5 would name it), the explanation says all."""
    position = parse_position(".../.../.OX", Geometry())
    explanation = explain(position, 1)
    assert explanation.story == "1 draws: it makes a threat."
    assert explanation.text.startswith("1?? draws: it threatens 5. O must block at 5 (and threatens 2);")
    assert explanation.text.endswith("3, 5, 6 are the moves that win.")
