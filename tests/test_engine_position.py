"""Notation, legality and move lists."""

import pytest
from hypothesis import given, settings, strategies as st

from workbench.engine import (
    TIC_TAC_TOE,
    Geometry,
    GeometryError,
    IllegalMoveError,
    IllegalPositionError,
    MoveListError,
    NotationError,
    Player,
    Position,
    PositionError,
    Status,
    format_moves,
    format_position,
    parse_moves,
    parse_position,
)
from workbench.engine.graph import state_graph


def test_lines_are_generated_from_the_geometry():
    assert len(TIC_TAC_TOE.lines) == 8
    assert Geometry(4, 4, 3).lines and len(Geometry(4, 4, 3).lines) == 24
    assert len(Geometry(3, 4, 3).lines) == 3 * 2 + 4 + 2 * 2
    assert len(Geometry(4, 4, 4).lines) == 10


@pytest.mark.parametrize("rows, cols, k", [(0, 3, 3), (3, 3, 4), (3, 3, 0)])
def test_impossible_geometry_is_rejected(rows, cols, k):
    with pytest.raises(GeometryError, match=f"{rows}x{cols}"):
        Geometry(rows, cols, k)


@pytest.mark.parametrize("text", ["X.O/.X./..O", "x.o/.x./..o", "X-O-X-__O", "x.o.x...o", "  X.O/.X./..O  "])
def test_notation_variants_parse_to_one_position(text):
    position = parse_position(text)
    assert format_position(position) == "X.O/.X./..O"
    assert position.turn is Player.X


def test_format_parse_round_trip_over_every_reachable_position():
    graph = state_graph(TIC_TAC_TOE)
    for key in graph.keys():
        position = graph.position(key)
        text = format_position(position)
        assert parse_position(text) == position
        assert parse_position(text.replace("/", "").lower()) == position


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("X.O/.X.", "2 rows instead of 3"),
        ("X.O/.X/..O", "row 2 has 2 cells"),
        ("X.O.X", "5 cells instead of 9"),
        ("X.O/.Q./..O", "unknown character 'Q' at cell 5"),
    ],
)
def test_notation_errors_name_the_input_and_the_reason(text, fragment):
    with pytest.raises(NotationError) as caught:
        parse_position(text)
    assert repr(text) in str(caught.value)
    assert fragment in str(caught.value)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    "text, reason, fragment",
    [
        ("OO./.../...", "counts", "O has more marks than X"),
        ("XXX/O../...", "counts", "X is more than one mark ahead"),
        ("XXX/OOO/...", "both_won", "both sides have a line"),
        ("XXX/OO./O..", "moved_after_win", "X has a line but O moved after it"),
        ("OOO/XX./X.X", "moved_after_win", "O has a line but X moved after it"),
    ],
)
def test_every_legality_error_is_named(text, reason, fragment):
    with pytest.raises(IllegalPositionError) as caught:
        parse_position(text)
    assert caught.value.reason == reason
    assert fragment in str(caught.value)


def test_lines_no_single_move_could_make_are_illegal():
    # 4×4, three in a row: X has two disjoint lines, so no one last move made both
    geometry = Geometry(4, 4, 3)
    with pytest.raises(IllegalPositionError) as caught:
        parse_position("XXX./OOO./XXX./OO..", geometry)
    assert caught.value.reason in {"both_won", "impossible_lines"}
    with pytest.raises(IllegalPositionError) as caught:
        parse_position("XXX./O.O./XXX./OO.O", geometry)
    assert caught.value.reason == "impossible_lines"


def test_two_lines_through_one_last_move_are_legal():
    position = parse_position("XXX/XOO/XOO")  # X's row and column meet at cell 1
    assert position.status is Status.X_WON


def test_status_and_moves():
    assert Position.empty().legal_moves() == tuple(range(1, 10))
    assert parse_position("XXX/OO./...").status is Status.X_WON
    assert parse_position("XXX/OO./...").legal_moves() == ()
    assert parse_position("XOX/XOO/OXX").status is Status.DRAW
    assert parse_position("XOX/XOO/OXX").to_move is None


@pytest.mark.parametrize("cell, fragment", [(0, "no such cell"), (10, "no such cell"), (5, "occupied")])
def test_illegal_moves_are_refused(cell, fragment):
    position = Position.empty().play(5)
    with pytest.raises(IllegalMoveError, match=fragment):
        position.play(cell)


def test_no_move_after_the_end():
    with pytest.raises(IllegalMoveError, match="game is over"):
        parse_position("XXX/OO./...").play(9)


def test_move_list_forms():
    assert parse_moves("5,1,9") == parse_moves("519") == parse_moves(" 5 1 9 ") == (5, 1, 9)
    assert parse_moves("") == ()
    assert parse_moves(format_moves((5, 1, 9))) == (5, 1, 9)


@pytest.mark.parametrize(
    "text, token, index",
    [("5,1,x", "x", 3), ("5,10", "10", 2), ("515", "5", 3), ("1,4,2,5,3,6", "6", 6), ("0", "0", 1)],
)
def test_move_list_errors_name_the_first_bad_token(text, token, index):
    with pytest.raises(MoveListError) as caught:
        parse_moves(text)
    assert (caught.value.token, caught.value.index) == (token, index)
    assert f"token {index} {token!r}" in str(caught.value)


@settings(max_examples=400)
@given(st.text(alphabet="xXoO.-_/ 12Q", max_size=14))
def test_any_string_parses_or_raises_the_documented_error(text):
    try:
        position = parse_position(text)
    except NotationError as error:
        assert str(error).startswith(f"invalid position {text!r}: ")  # names the input as typed
    except IllegalPositionError as error:
        # names the board as the program writes it: upper case, '.' for empty, rows split by '/'
        # (whitespace anywhere is ignored, as between a board's rows)
        cells = "".join("." if char in ".-_" else char.upper() for char in "".join(text.split()).replace("/", ""))
        shown = "/".join(cells[row * 3 : row * 3 + 3] for row in range(3))
        assert str(error).startswith(f"illegal position {shown}: ")
    else:
        assert parse_position(format_position(position)) == position


@settings(max_examples=400)
@given(st.lists(st.integers(min_value=-1, max_value=11), max_size=10), st.sampled_from([",", ""]))
def test_any_move_list_parses_or_names_its_bad_token(cells, separator):
    text = separator.join(map(str, cells))
    try:
        moves = parse_moves(text)
    except MoveListError as error:
        assert 1 <= error.index
        assert isinstance(error, PositionError)
    else:
        position = Position.empty().play_all(moves)
        assert position.ply == len(moves)


@pytest.mark.parametrize(
    "text, cell, reason",
    [
        ("X../.../...", 1, "cell is occupied"),
        ("XXX/OO./...", 9, "the game is over"),
        (".../.../...", 10, "no such cell (1-9)"),
    ],
)
def test_an_illegal_move_says_which_rule_it_broke(text, cell, reason):
    with pytest.raises(IllegalMoveError) as caught:
        parse_position(text).play(cell)
    assert caught.value.reason == reason
    assert str(caught.value) == f"illegal move {cell} in {text}: {reason}"


def test_a_cell_with_both_marks_is_refused_by_name():
    from workbench.engine import check_legal

    with pytest.raises(IllegalPositionError) as caught:
        check_legal(Position(0b11, 0b10, TIC_TAC_TOE))
    assert (str(caught.value), caught.value.reason) == (
        "illegal position XX./.../...: a cell holds both marks",
        "counts",
    )


def test_two_lines_need_a_shared_last_move_on_any_board():
    four = Geometry(4, 4, 3)
    assert parse_position("XXXX/OO../O.../....", four).x == 0b1111  # 1-2-3 and 2-3-4: the last move was 2 or 3
    with pytest.raises(IllegalPositionError) as caught:
        parse_position("XXXO/.O.O/XXX./O..O", four)  # two rows with no cell in common
    assert caught.value.reason == "impossible_lines"
    assert (
        str(caught.value) == "illegal position XXXO/.O.O/XXX./O..O: no single last move could have made all its lines"
    )


def test_move_lists_from_a_start_and_on_boards_of_more_than_nine_cells():
    assert parse_moves("2", Position.empty().play(5)) == (2,)
    with pytest.raises(MoveListError, match="token 1 '5' plays an occupied cell"):
        parse_moves("5", Position.empty().play(5))
    assert parse_moves("10", Position.empty(Geometry(2, 5, 3))) == (10,)  # one number: cells above 9 exist
    with pytest.raises(MoveListError, match=r"token 2 '0' is not a cell \(1-9 or a1-c3\)"):
        parse_moves("10", Position.empty())  # on nine cells every digit is a move


def test_marks_lines_text_and_a_move_order_of_a_position():
    from workbench.engine.position import some_move_order

    position = parse_position("XXX/OO./...")
    assert [position.mark_at(cell) for cell in (1, 4, 6)] == [Player.X, Player.O, None]
    assert position.winning_lines() == (0b111,)
    assert parse_position("X../.O./...").winning_lines() == ()
    assert str(position) == "XXX/OO./..."
    assert some_move_order(position) == (1, 4, 2, 5, 3)
    assert Position.empty().play_all(some_move_order(parse_position("O.X/.X./..."))) == parse_position("O.X/.X./...")
    wide = Position.empty(Geometry(3, 4, 3))
    assert wide.play(12).play(1).geometry == Geometry(3, 4, 3)  # a move keeps the board's shape


def test_the_state_graph_and_the_tables_memo():
    from workbench.engine import analysis
    from workbench.engine.analysis import forget_tables, tables
    from workbench.engine.graph import state_graph

    graph = state_graph(TIC_TAC_TOE)
    assert (
        parse_position("X../.../...").key in graph and Position(0b111, 0b111000, TIC_TAC_TOE).key not in graph
    )  # both won: unreachable
    table = tables(TIC_TAC_TOE)
    assert tables(TIC_TAC_TOE) is table  # the memo
    forget_tables()
    assert TIC_TAC_TOE not in analysis._BUILT
    assert tables(TIC_TAC_TOE) == table  # built again, the same values
