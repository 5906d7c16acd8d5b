"""The scorecard of a line, against a plain negamax written here."""

from functools import cache

import pytest
from hypothesis import given, settings, strategies as st

from workbench.engine import IllegalMoveError, Player, Position, parse_position
from workbench.engine.review import Rating, review_line, score

from .conftest import SYMMETRIES


@cache
def outcome(position: Position) -> tuple[int, int]:
    """(value, remoteness) for the side to move: +1 win, 0 draw, -1 loss; the winner hurries, the loser delays."""
    if position.is_over:
        return (-1 if position.status.name.endswith("WON") else 0), 0
    results = []
    for cell in position.legal_moves():
        value, remoteness = outcome(position.play(cell))
        results.append((-value, remoteness + 1))
    return max(results, key=lambda result: (result[0], -result[1] if result[0] > 0 else result[1]))


def expected_rating(position: Position, cell: int) -> Rating:
    value, remoteness = outcome(position)
    child_value, child_remoteness = outcome(position.play(cell))
    if -child_value < value:
        return Rating.MISTAKE
    return Rating.BEST if child_remoteness + 1 == remoteness else Rating.INACCURATE


@st.composite
def lines(draw):
    position, cells = Position.empty(), []
    for _ in range(draw(st.integers(0, 9))):
        if position.is_over:
            break
        cell = draw(st.sampled_from(position.legal_moves()))
        cells.append(cell)
        position = position.play(cell)
    return cells


@settings(max_examples=300)
@given(lines())
def test_every_rating_agrees_with_a_plain_negamax(cells):
    position = Position.empty()
    reviews = review_line(position, cells)
    assert [review.cell for review in reviews] == cells
    for ply, (review, cell) in enumerate(zip(reviews, cells), start=1):
        assert review.ply == ply and review.player is position.turn
        assert review.rating is expected_rating(position, cell)
        assert (int(review.value_before), review.remoteness_before) == outcome(position)
        after_value, after_remoteness = outcome(position.play(cell))
        assert (int(review.value_after), review.remoteness_after) == (-after_value, after_remoteness + 1)
        assert set(review.best_cells) == {
            c for c in position.legal_moves() if expected_rating(position, c) is Rating.BEST
        }
        position = position.play(cell)


@pytest.mark.parametrize("transform", SYMMETRIES, ids=lambda t: t.name)
def test_a_line_and_its_mirror_image_score_alike(transform):
    cells = [1, 2, 4, 7, 5, 3, 8]  # best, mistake and inaccurate moves all in one line
    mirrored = [transform.cell(cell) for cell in cells]
    original, image = review_line(Position.empty(), cells), review_line(Position.empty(), mirrored)
    assert [r.rating for r in original] == [r.rating for r in image]
    assert [sorted(transform.cell(c) for c in r.best_cells) for r in original] == [sorted(r.best_cells) for r in image]


def test_a_known_game_rated_move_by_move():
    # O's edge reply 2 loses; X forks with 5; with 9 or 6 X could win at once, 8 wins two plies later
    reviews = review_line(Position.empty(), [1, 2, 4, 7, 5, 3, 8])
    assert [r.rating.value for r in reviews] == ["best", "mistake", "best", "best", "best", "best", "inaccurate"]
    assert reviews[1].value_before.label == "draw" and reviews[1].value_after.label == "loss"
    assert (reviews[6].remoteness_before, reviews[6].remoteness_after, reviews[6].best_cells) == (1, 3, (6, 9))
    [slower_loss] = review_line(parse_position("XO./X../..."), [3])  # O must block 7 (lost in 4) but loses in 2
    assert slower_loss.rating is Rating.INACCURATE and (
        slower_loss.remoteness_before,
        slower_loss.remoteness_after,
    ) == (4, 2)
    x, o = score(reviews, Player.X), score(reviews, Player.O)
    assert (x.moves, x.best, x.inaccurate, x.mistakes, x.accuracy) == (4, 3, 1, 0, 0.75)
    assert (o.moves, o.best, o.inaccurate, o.mistakes) == (3, 2, 0, 1) and o.accuracy == pytest.approx(2 / 3)
    assert score((), Player.X).accuracy is None


def test_a_line_from_a_set_up_position_and_an_illegal_line():
    start = parse_position("XX./OO./...")
    [review] = review_line(start, [3])
    assert review.player is Player.X and review.rating is Rating.BEST and review.best_cells == (3,)
    [review] = review_line(start, [7])
    assert review.rating is Rating.MISTAKE  # O wins on 6 next
    with pytest.raises(IllegalMoveError, match="cell is occupied"):
        review_line(start, [9, 9])


def test_the_census_counts_values_as_a_plain_negamax_does():
    from workbench.engine import TIC_TAC_TOE, analyze, census
    from workbench.engine.strong_records import strong_census

    from .solved import solved

    data = census(TIC_TAC_TOE)
    strong = strong_census(solved(TIC_TAC_TOE))  # one census, whichever solver made it: the same keys and counts
    assert list(data) == list(strong) and data == strong
    assert data["geometry"] == {"rows": 3, "cols": 3, "k": 3, "misere": False} and data["variant"] == "3x3k3"
    assert data["value"] == {"value": "draw", "remoteness": 9}
    seen, frontier, by_value, classes = set(), [Position.empty()], {"win": 0, "draw": 0, "loss": 0}, {}
    while frontier:
        position = frontier.pop()
        if position in seen:
            continue
        seen.add(position)
        if position.is_over:
            continue
        label = ("loss", "draw", "win")[outcome(position)[0] + 1]
        by_value[label] += 1
        classes.setdefault(label, set()).add(analyze(position).symmetry.class_id)
        frontier.extend(position.play(cell) for cell in position.legal_moves())
    assert data["positions_by_value"] == by_value == {"win": 2836, "draw": 1052, "loss": 632}
    assert (
        data["classes_by_value"]
        == {label: len(ids) for label, ids in classes.items()}
        == {"win": 390, "draw": 148, "loss": 89}
    )
    assert data["positions_by_ply"] == [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
