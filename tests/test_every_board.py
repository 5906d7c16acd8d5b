"""Issue 40, engine and command line: one notation a board, review and analyze on every board, a solve's one
progress. (The app's side is tests/test_tui_every_board.py.)"""

import io
import json
from dataclasses import replace

import pytest
from hypothesis import given, strategies as st
from rich.console import Console

from workbench.cli import main
from workbench.engine import Geometry, Position, format_moves, parse_moves
from workbench.engine.geometry import (
    GeometryError,
    cell_name,
    cell_names,
    cell_range,
    format_coordinate,
    parse_cell_name,
    uses_cell_numbers,
)
from workbench.state import export_movetext, import_movetext

BOARDS = [
    Geometry(),
    Geometry(misere=True),
    Geometry(3, 3, 2),
    Geometry(3, 4, 3),
    Geometry(4, 4, 4, misere=True),
    Geometry(2, 7, 3),
    Geometry(5, 5, 4),
    Geometry(15, 15, 5),
    Geometry(1, 15, 3),
]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- one notation -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("geometry", BOARDS, ids=str)
def test_every_cell_has_one_name_and_reads_back_from_it_or_its_number(geometry):
    names = [cell_name(cell, geometry) for cell in range(1, geometry.size + 1)]
    assert len(set(names)) == geometry.size
    if uses_cell_numbers(geometry):
        assert names == [str(cell) for cell in range(1, 10)]  # 3×3, either rule: the numbers players know
    else:
        assert names == [format_coordinate(cell, geometry) for cell in range(1, geometry.size + 1)]
    for cell, name in enumerate(names, 1):
        assert parse_cell_name(name, geometry) == cell == parse_cell_name(str(cell), geometry)
        assert parse_cell_name(format_coordinate(cell, geometry).upper(), geometry) == cell


def test_only_three_by_three_is_numbered():
    assert [uses_cell_numbers(geometry) for geometry in BOARDS] == [
        True,
        True,
        True,
        False,
        False,
        False,
        False,
        False,
        False,
    ]
    assert cell_names((1, 5, 9), Geometry(4, 4, 4)) == "a4 a3 a2" and cell_names((1, 5, 9), Geometry(), ",") == "1,5,9"


@pytest.mark.parametrize(
    "text, geometry, message",
    [
        ("0", Geometry(4, 4, 4), "no cell 0 on a 4x4 board (a1-d4 or 1-16)"),
        ("10", Geometry(), "no cell 10 on a 3x3 board (1-9 or a1-c3)"),
        ("e1", Geometry(4, 4, 4), "no cell 'e1' on a 4x4 board (a1-d4 or 1-16)"),
        ("x", Geometry(), "not a cell: 'x' (a number, or a column letter and a row number, as b2)"),
        ("9" * 500, Geometry(15, 15, 5), f"no cell {'9' * 20} on a 15x15 board (a1-o15 or 1-225)"),
    ],
)
def test_a_name_that_is_no_cell_says_the_board_s_range_in_its_own_notation_first(text, geometry, message):
    with pytest.raises(GeometryError) as caught:
        parse_cell_name(text, geometry)
    assert str(caught.value) == message
    assert cell_range(geometry).startswith("1-9" if uses_cell_numbers(geometry) else "a1-")


@given(st.sampled_from(BOARDS), st.randoms(use_true_random=False), st.booleans())
def test_a_move_list_and_the_move_text_read_back_from_the_names_they_write(geometry, rng, numbers):
    position, cells = Position.empty(geometry), []
    while not position.is_over and len(cells) < 12:
        cell = rng.choice(position.legal_moves())
        cells.append(cell)
        position = position.play(cell)
    text = format_moves(cells, geometry)
    assert text == ",".join(cell_name(cell, geometry) for cell in cells)
    assert parse_moves(text, Position.empty(geometry)) == tuple(cells)
    if numbers:  # typed by number on any board: the same moves
        assert parse_moves(",".join(map(str, cells)), Position.empty(geometry)) == tuple(cells)
    tree = import_movetext(
        f'[Variant "{geometry}"] ' + " ".join(map(str, cells))
        if numbers
        else f'[Variant "{geometry}"] ' + " ".join(cell_name(cell, geometry) for cell in cells)
    )
    assert tree.moves_to(tree.main_line()[-1]) == tuple(cells)
    assert import_movetext(export_movetext(tree)) == tree


def test_coordinates_may_run_together_in_a_move_list_and_in_move_text():
    geometry = Geometry(15, 15, 5)
    assert parse_moves("h8h9g8", Position.empty(geometry)) == (113, 98, 112)
    assert import_movetext("h8h9 (g8)", geometry).moves_to(2) == (113, 98)
    assert export_movetext(import_movetext("h8h9 (g8)", geometry)) == '[Variant "15x15k5"] h8 h9 (g8)'


# --- analyze and review on every board -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, moves, names",
    [
        ("3x4k3", "1,2", ["c3", "d3", "a2", "b2", "c2", "d2", "a1", "b1", "c1", "d1"]),
        ("3x3k3", "1,2", ["3", "4", "5", "6", "7", "8", "9"]),
    ],
)
def test_analyze_json_carries_each_move_s_number_and_name(capsys, variant, moves, names):
    code, out, _ = run(capsys, "analyze", "--game", variant, "--moves", moves, "--json")
    record = json.loads(out)
    assert code == 0 and [move["name"] for move in record["moves"]] == names
    assert all(
        move["cell"] == parse_cell_name(move["name"], Geometry(*map(int, variant.replace("x", "k").split("k"))))
        for move in record["moves"]
    )


def test_analyze_of_gomoku_at_120_columns_is_a_compact_board_with_coordinates_beside_its_facts(capsys, monkeypatch):
    """Was: the board wrapped across lines (` 1  │  2 … │ 10` / `│ 11 … │ 15`) and the table had 223 rows, 221
    of them "unknown (0 nodes searched)"."""
    monkeypatch.setenv("COLUMNS", "120")
    code, out, _ = run(capsys, "analyze", "--game", "15x15k5", "--moves", "h8,h9", "--nodes", "3000")
    lines = out.splitlines()
    assert code == 0 and max(len(line) for line in lines) <= 120
    assert lines[0].startswith("15 · · ·") and "X h8 · O h9" in lines[0]  # the marks' names beside the board
    assert lines[6].startswith(" 9 · · · · · · · O ") and lines[7].startswith(" 8 · · · · · · · X ")  # O on h9, X on h8
    assert lines[15].startswith("   a b c d e f g h i j k l m n o")
    table_rows = [line for line in lines if line.startswith("│ ")]
    assert 0 < len(table_rows) < 50 and "not searched: unknown (--all-moves lists every one)" in out
    code, out, _ = run(capsys, "analyze", "--game", "15x15k5", "--moves", "h8,h9", "--nodes", "3000", "--all-moves")
    assert code == 0 and len([line for line in out.splitlines() if line.startswith("│ ")]) == 223


def test_a_narrow_terminal_has_the_facts_under_the_board():
    from workbench.cli.text import search_view
    from workbench.engine.search import search, search_record

    geometry = Geometry(15, 15, 5)
    position = Position.empty(geometry).play_all((113, 98))
    record = search_record(search(position, max_nodes=500))
    console = Console(file=io.StringIO(), width=40, color_system=None)
    console.print(search_view(record, position, 40))
    lines = console.file.getvalue().splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 40
    assert lines[15].strip() == "a b c d e f g h i j k l m n o" and lines[17].startswith("X h8 · O h9")


@pytest.mark.parametrize(
    "argv",
    [
        ["review", "--game", "3x4k3", "--moves", "1,2,3"],
        ["review", "--game", "3x4k3", "a3,b3,c3"],  # the one argument: a move list, by coordinate
        ["review", "--game", "3x4k3", "1,b3,3"],  # both notations in one list
    ],
)
def test_review_takes_game_and_a_move_list_on_another_board(capsys, argv):
    """Was: "argument --moves: not allowed with argument study"."""
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "review of a3 b3 c3 from the empty board on 3x4k3",
        "  1. X a3  inaccurate: win in 7 → win in 9 (best: b3, c3, b2, c2, b1, c1)",
        "         a3?! wins in 9: O plays b2; X plays a1 (threatens a2); O must block at a2 (and threatens c2); X must "
        "block at c2; and so on. Best: b3, c3, b2, c2, b1 or c1, winning in 7.",
        "  1… O b3  inaccurate: loss in 8 → loss in 6 (best: b2)",
        "         b3?! loses in 6: X plays a2 (threatens a1); O must block at a1; X plays b2, threatening c2 and c1, "
        "and O can stop only one. Best: b2, losing in 8.",
        "  2. X c3  mistake: win in 5 → loss in 6 (best: a2, b2, a1, c1)",
        "         c3?? loses in 6: O plays b2 (threatens b1); X must block at b1; O plays c2, threatening a2, d2 and "
        "d1, "
        "and X can stop only one. a2, b2, a1, c1 are the moves that win.",  # the words of `explain`, under each
        "X: 2 moves · 0 best · 1 inaccurate · 1 mistake · accuracy 0%",
        "O: 1 move · 0 best · 1 inaccurate · 0 mistakes · accuracy 0%",
    ]


def test_review_reads_a_library_study_by_name_as_open_does(capsys, tmp_path):
    """Was: `workbench review "blunder at 7"` said "no such file" while `open` opened it."""
    from workbench.library import Library, studies
    from workbench.state import AppState, reduce
    from workbench.state.actions import NewGame, PlayCell

    state = reduce(AppState(), NewGame(geometry=Geometry(3, 4, 3)))
    for cell in (1, 2, 3):
        state = reduce(state, PlayCell(cell=cell))
    db = str(tmp_path / "library.sqlite3")
    with Library.open(db) as library:
        studies.save_study(library, "blunder at 7", state)
    code, out, err = run(capsys, "review", "--db", db, "blunder at 7", "--json")
    review = json.loads(out)
    assert (code, err) == (0, "") and review["variant"] == "3x4k3"
    assert [(move["name"], move["rating"]) for move in review["moves"]] == [
        ("a3", "inaccurate"),
        ("b3", "inaccurate"),
        ("c3", "mistake"),
    ]
    code, _, err = run(capsys, "review", "--db", db, "blunder at 7", "--game", "4x4k4")
    assert code == 2 and err == "workbench: error: the study is of 3x4k3, not --game 4x4k4: leave --game out\n"
    code, _, err = run(capsys, "review", "--db", db, "no such study")
    assert (
        code == 2 and "no study file or library study called 'no such study'" in err and "no move list on 3x3k3" in err
    )


def test_review_beyond_sixteen_cells_rates_what_the_search_proves_and_nothing_else(capsys):
    """5×5k4: after b2 c2 d2 X has an open three (a2 and e2 both make four): every reply of O's loses in 2, so
    O's e4 is rated best, exactly, and X's a2, a win in 1, is best (no win is quicker). The opening moves, which
    no search of 20,000 nodes settles, are "not proven", never best or a mistake."""
    code, out, err = run(
        capsys, "review", "--game", "5x5k4", "--moves", "b2,a5,c2,e5,d2,e4,a2", "--nodes", "20000", "--json"
    )
    review = json.loads(out)
    assert (code, err) == (0, "")
    ratings = [move["rating"] for move in review["moves"]]
    assert ratings[:2] == ["not proven", "not proven"] and ratings[-2:] == ["best", "best"]
    o_reply, x_win = review["moves"][-2:]
    assert (o_reply["name"], o_reply["before"], o_reply["after"]) == (
        "e4",
        {"value": "loss", "remoteness": 2, "exact": True},
        {"value": "loss", "remoteness": 2},
    )
    assert (x_win["name"], x_win["after"]) == ("a2", {"value": "win", "remoteness": 1})
    for move in review["moves"]:
        if move["rating"] == "not proven":
            assert move["before"]["exact"] is False
    x_side, o_side = review["sides"]["X"], review["sides"]["O"]
    assert o_side["not_proven"] == ratings[1::2].count("not proven") and x_side["not_proven"] == ratings[0::2].count(
        "not proven"
    )
    assert x_side["accuracy"] == o_side["accuracy"] == 1.0  # of the moves rated: not proven ones count for nothing
    code, out, _ = run(capsys, "review", "--game", "5x5k4", "--moves", "b2,a5,c2,e5,d2,e4,a2", "--nodes", "20000")
    assert "  1. X b2  not proven (the search did not prove this move)" in out.splitlines()
    assert out.splitlines()[-1] == "O: 3 moves · 1 best · 0 inaccurate · 0 mistakes · 2 not proven · accuracy 100%"


def test_review_searched_rates_a_mistake_only_against_a_proven_better_move():
    from workbench.engine.review import Rating, review_searched
    from workbench.engine.search import MoveResult, SearchResult
    from workbench.engine.solver import Value

    geometry = Geometry(5, 5, 4)
    start = Position.empty(geometry)
    legal = start.legal_moves()

    def found(proven: dict, complete=False):
        moves = tuple(MoveResult(cell, *proven.get(cell, (None, None)), 10) for cell in legal)
        return lambda position: SearchResult(position, moves, 100, complete)

    [review] = review_searched(start, [1], found({1: (Value.LOSS, 4), 2: (Value.DRAW, 20)}))
    assert review.rating is Rating.MISTAKE and review.best_cells == (2,) and not review.exact_before
    [review] = review_searched(start, [1], found({1: (Value.DRAW, 4), 2: (Value.DRAW, 20)}))
    assert review.rating is Rating.NOT_PROVEN  # a better move may be among those not proven
    [review] = review_searched(start, [3], found({1: (Value.DRAW, 4)}))
    assert review.rating is Rating.NOT_PROVEN and review.value_after is None
    every = {cell: (Value.DRAW, 20) for cell in legal} | {5: (Value.WIN, 9)}
    assert review_searched(start, [5], found(every, complete=True))[0].rating is Rating.BEST
    assert review_searched(start, [4], found(every, complete=True))[0].rating is Rating.MISTAKE


# --- a solve's one progress ------------------------------------------------------------------------------------


def test_a_solve_reports_one_progress_that_only_grows_through_its_four_stages():
    """Was: four runs one after another (positions, games, values, classes), each from zero."""
    from workbench.engine.solve_progress import STAGE_ORDER, describe_progress, solve_fraction
    from workbench.engine.strong import strong_solve

    geometry = Geometry(2, 6, 3)
    seen = []
    strong_solve(
        geometry, lambda stage, done, total: seen.append((stage, solve_fraction(geometry, stage, done, total)))
    )
    stages = [stage for stage, _ in seen]
    assert sorted(set(stages), key=STAGE_ORDER.index) == list(STAGE_ORDER) and stages == sorted(
        stages, key=STAGE_ORDER.index
    )
    fractions = [fraction for _, fraction in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and fractions[0] < 0.05
    assert describe_progress("games", 0.5, 10.0) == "stage 2 of 4, counting games · 50% · about 10 s left"
    assert describe_progress("forward", 0.01, 10.0) == "stage 1 of 4, enumerating positions · 1%"  # too early to say
    assert (
        describe_progress("back", 0.25, 120.0)
        == "stage 3 of 4, values, back from the last ply · 25% · about 6 min 00 s left"
    )


def test_a_mistake_beyond_sixteen_cells_says_what_was_proven_better():
    from workbench.cli.text import review_lines
    from workbench.engine import Player
    from workbench.engine.review import Rating, review_searched, score
    from workbench.engine.search import MoveResult, SearchResult
    from workbench.engine.solver import Value

    geometry = Geometry(5, 5, 4)
    start = Position.empty(geometry)

    def found(proven):
        return lambda position: SearchResult(
            position,
            tuple(MoveResult(cell, *proven.get(cell, (None, None)), 10) for cell in position.legal_moves()),
            100,
            False,
        )

    for better, words in (((Value.WIN, 7), "win → loss in 4"), ((Value.DRAW, 20), "draw at least → loss in 4")):
        reviews = review_searched(start, [1], found({1: (Value.LOSS, 4), 2: better}))
        assert reviews[0].rating is Rating.MISTAKE
        lines = review_lines(reviews, [(player, score(reviews, player)) for player in (Player.X, Player.O)], geometry)
        assert lines[0] == f"  1. X a5  mistake: {words} (proven better: b5)"


def test_beyond_16_cells_the_verdict_on_a_move_is_what_the_search_proved():
    """5×5k4 after c3 b2 d4 b4 a1 e5 c1 c4 (X to move): a search proves every move, and the history's verdict on
    each is the review's, in an analysis board's words; before a search, or where it proved nothing, none."""
    from workbench.engine.position import parse_moves
    from workbench.engine.review import review_searched, searched_headline
    from workbench.engine.search import search
    from workbench.state import AppState, reduce
    from workbench.state.actions import NewGame, PlayCell
    from workbench.tui.panes.history import move_verdict

    geometry = Geometry(5, 5, 4)
    start = Position.empty(geometry)
    cells = parse_moves("c3,b2,d4,b4,a1,e5,c1,c4", start)
    position = start.play_all(cells)
    found = search(position, max_nodes=200_000)
    assert found.complete
    headlines = {
        cell: searched_headline(review_searched(position, (cell,), lambda _: found)[0], position)
        for cell in position.legal_moves()
    }
    assert headlines[geometry.cell(0, 1)] == "b5 Best move: draw."
    assert headlines[geometry.cell(0, 0)] == "a5?? Mistake: draw → loss in 4. Best was b5, b3, b1, d1."
    state = reduce(AppState(), NewGame(geometry=geometry))
    for cell in (*cells, geometry.cell(0, 0)):
        state = reduce(state, PlayCell(cell=cell))
    assert move_verdict(state) is None  # not searched yet
    state = replace(state, searches=(found,))
    assert move_verdict(state) == "X a5?? Mistake: draw → loss in 4. Best was b5, b3, b1, d1."
    unproven = search(start.play_all(cells[:2]), max_nodes=500)
    assert all(
        searched_headline(review_searched(unproven.position, (cell,), lambda _: unproven)[0], unproven.position) is None
        for cell in unproven.position.legal_moves()
        if not any(move.cell == cell and move.proven for move in unproven.moves)
    )


def test_a_win_at_once_is_best_where_the_search_proved_little_else_and_the_words_say_that_much(capsys):
    """A check against a solver of its own (a helper, 4×5k4): "d2 Best move: win in 1 (every move proven)." of a
    search of 300 nodes that had not proven every move; the words were those of the search that had."""
    args = ["explain", "--game", "4x5k4", ".O.../..O../XXX.O/X..O.", "--move", "d2", "--nodes", "300"]
    assert main([*args, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert next(iter(record)) == "variant" and record["variant"] == "4x5k4"  # first, as every explain record's
    assert record["value_before"]["exact"] is False and record["verdict"] == "best"
    assert record["text"] == "d2 Best move: win in 1 (no win is quicker; not every move proven)."
    assert main(["explain", "--game", "4x5k4", ".O.../..O../XXX.O/X..O.", "--move", "d2", "--nodes", "200000"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "d2 Best move: win in 1."


def test_explain_beyond_16_cells_says_what_a_search_proved_and_no_more(capsys):
    moves = "c3,b2,d4,b4,a1,e5,c1,c4"
    assert main(["explain", "--game", "5x5k4", "--moves", f"{moves},a5", "--nodes", "200000", "--budget", "30s"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "a5: mistake (after it: loss in 4; searched, not solved: 25 cells)",
        "a5?? Mistake: draw → loss in 4. Best was b5, b3, b1, d1.",
    ]
    assert (
        main(["explain", "--game", "5x5k4", "--moves", f"{moves},b5", "--nodes", "200000", "--budget", "30s", "--json"])
        == 0
    )
    record = json.loads(capsys.readouterr().out)
    assert (record["verdict"], record["value_after"], record["text"]) == (
        "best",
        {"value": "draw", "remoteness": 17, "exact": True},
        "b5 Best move: draw.",
    )
    assert record["best_names"] == ["b5", "b3", "b1", "d1"] and record["value_before"]["exact"] is True
    assert record["line"] == [{"ply": 9, "player": "X", "cell": 2, "name": "b5", "role": "quiet", "threatens": []}]
    assert main(["explain", "--game", "5x5k4", "--moves", "c3,b2", "--nodes", "300", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["verdict"] == "not proven" and record["value_after"] is None and record["best"] == []
    assert record["text"].startswith("b2: not proven within the budget")
    assert main(["explain", "--game", "5x5k4", "X..../...../...../...../.....", "--move", "a5"]) == 2
    assert capsys.readouterr().err == "workbench: error: a5: not a move here (the cell is taken)\n"


def test_a_mistake_from_a_win_not_every_move_proven_says_win_without_its_count(capsys):
    """A check against a helper's solver: "c4?? Mistake: win in 3 at least → draw" reads as a win in three moves
    or more, where the proven move only shows a win in three or fewer."""
    args = ["explain", "--game", "4x5k4", ".O.../..XX./.O..X/...O.", "--move", "c4", "--nodes", "3000", "--json"]
    assert main(args) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["value_before"]["exact"] is False
    assert record["text"] == "c4?? Mistake: win → draw. Proven better: b3."
