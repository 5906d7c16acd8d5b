"""The whole family: m,n,k boards and misère, checked against independent methods and published figures."""

from functools import cache

import pytest
from hypothesis import given, strategies as st

from workbench.engine import (
    MASK_NAMES,
    Geometry,
    Player,
    Position,
    Status,
    Value,
    analyze,
    cells_of,
    parse_moves,
    principal_variation,
)
from workbench.engine.analysis import analyze_strong
from workbench.engine.geometry import (
    GeometryError,
    VariantError,
    format_coordinate,
    format_variant,
    parse_coordinate,
    parse_variant,
)
from workbench.engine.graph import state_graph
from workbench.engine.solver import solve
from workbench.engine.strong import BoardTooLargeForStrongSolveError, strong_solve
from workbench.engine.strong_records import strong_census
from workbench.engine.symmetry import transforms

from .solved import solved

variants = st.builds(
    lambda rows, cols, k_share, misere: Geometry(rows, cols, max(1, round(k_share * max(rows, cols))), misere),
    st.integers(1, 15),
    st.integers(1, 15),
    st.floats(0, 1),
    st.booleans(),
)


@given(variants)
def test_a_variant_reads_back_from_its_name(geometry):
    assert parse_variant(format_variant(geometry)) == geometry
    assert str(geometry) == format_variant(geometry)


@pytest.mark.parametrize(
    "text, rules",
    [
        ("3x3k3", (3, 3, 3, False)),
        ("4x4k4-misere", (4, 4, 4, True)),
        (" 15X15k5 ", (15, 15, 5, False)),
        ("3×3k3-misère", (3, 3, 3, True)),
        ("1x1k1", (1, 1, 1, False)),
        ("2x7k3", (2, 7, 3, False)),
    ],
)
def test_variant_names(text, rules):
    geometry = parse_variant(text)
    assert (geometry.rows, geometry.cols, geometry.k, geometry.misere) == rules


@pytest.mark.parametrize(
    "text, reason",
    [
        ("4x4k7", "7 in a row does not fit on a 4x4 board"),
        ("0x3k3", "boards have 1 to 15 rows and columns"),
        ("16x16k5", "boards have 1 to 15 rows and columns"),
        ("3x3k0", "at least 1 in a row"),
        ("99999999999x3k3", "boards have 1 to 15 rows and columns"),  # (a number too long: too big, not a misspelling)
        ("3x3k12345", "so many in a row does not fit on a 3x3 board"),  # (not a number the user never wrote)
        ("chess", "write rows x columns k in a row"),
        ("3x3k3-normal", "write rows x columns"),
        ("", "write rows"),
    ],
)
def test_nonsense_variants_name_the_text_and_the_reason(text, reason):
    with pytest.raises(VariantError, match=reason) as caught:
        parse_variant(text)
    assert repr(text) in str(caught.value) and isinstance(caught.value, ValueError)


@given(variants, st.data())
def test_coordinates_read_back_on_every_board(geometry, data):
    cell = data.draw(st.integers(1, geometry.size))
    assert parse_coordinate(format_coordinate(cell, geometry), geometry) == cell


def test_coordinates_are_gomoku_s():
    gomoku = parse_variant("15x15k5")
    assert parse_coordinate("h8", gomoku) == 113 and format_coordinate(113, gomoku) == "h8"  # the centre
    assert format_coordinate(1, Geometry()) == "a3" and format_coordinate(9, Geometry()) == "c1"
    assert parse_moves("b2,a3") == (5, 1) == parse_moves("b2a3") == parse_moves("5 a3")
    with pytest.raises(GeometryError, match=r"no cell 'd1' on a 3x3 board \(1-9 or a1-c3\)$"):
        parse_coordinate("d1", Geometry())
    with pytest.raises(
        GeometryError, match=r"no cell 'E9' on a 8x4 board \(a1-d8 or 1-32\)$"
    ):  # the range says the last
        parse_coordinate(" E9", parse_variant("8x4k3"))


def test_misere_status_names_the_winner_by_the_rule():
    misere = parse_variant("3x3k3-misere")
    line = Position.empty(misere).play_all([1, 4, 2, 5, 3])  # X completes the top row
    assert line.status is Status.O_WON and line.is_over
    assert Position.empty(Geometry()).play_all([1, 4, 2, 5, 3]).status is Status.X_WON


def _negamax(geometry):
    """An independent solver: plain memoised negamax over positions, the winner hurrying, the loser delaying."""

    @cache
    def solve_position(x, o):
        position = Position(x, o, geometry)
        status = position.status
        if status is Status.DRAW:
            return 0, 0
        if status is not Status.IN_PLAY:
            return (1 if (status is Status.X_WON) == (position.turn is Player.X) else -1), 0
        best = None
        for cell in position.legal_moves():
            child = position.play(cell)
            value, remoteness = solve_position(child.x, child.o)
            value, remoteness = -value, remoteness + 1
            rank = (value, -remoteness if value > 0 else remoteness)
            if best is None or rank > best[0]:
                best = (rank, (value, remoteness))
        return best[1]

    return solve_position


@pytest.mark.parametrize("name", ["3x3k3", "3x3k3-misere", "2x4k3-misere", "2x2k2", "1x1k1", "2x3k2-misere"])
def test_both_solvers_equal_an_independent_negamax_on_every_position(name):
    geometry = parse_variant(name)
    negamax = _negamax(geometry)
    solution, strong = solve(geometry), solved(geometry)
    keys = list(state_graph(geometry).keys())
    for key in keys:
        x, o = key & geometry.full, key >> geometry.size
        expected = negamax(x, o)
        assert (solution.value[key], solution.remoteness[key]) == expected
        assert strong.lookup(x, o) == expected
    assert strong.positions == len(keys)


@pytest.mark.parametrize("name", ["3x4k3", "3x4k3-misere", "2x5k3-misere", "4x3k4"])
def test_the_strong_sweep_equals_the_dictionary_solver_on_every_position(name):
    geometry = parse_variant(name)
    solution, strong = solve(geometry), solved(geometry)
    graph = state_graph(geometry)
    for key in graph.keys():
        assert strong.lookup(key & geometry.full, key >> geometry.size) == (
            solution.value[key],
            solution.remoteness[key],
        )
    assert strong.positions == len(graph)
    assert sum(strong.terminal_by_ply) == len(graph.terminal)


def test_misere_terminal_positions_are_won_by_the_side_to_move():
    geometry = parse_variant("3x3k3-misere")
    strong = solved(geometry)
    for key, status in state_graph(geometry).terminal.items():
        x, o = key & geometry.full, key >> geometry.size
        expected = 0 if status is Status.DRAW else 1  # the other side just completed a line, and lost
        assert strong.lookup(x, o) == (expected, 0)
        assert status is Status.DRAW or (status is Status.X_WON) == (Position(x, o, geometry).turn is Player.X)


def test_unreached_positions_have_no_value():
    strong = solved(Geometry())
    assert strong.lookup(0b111, 0b111000) is None  # both sides have a line
    assert strong.lookup(0, 1) is None  # O moved first


@pytest.mark.parametrize(
    "name, positions, value",
    [
        ("3x3k3", 5_478, "draw"),
        ("3x4k3", 111_973, "win"),
        pytest.param("4x4k3", 6_036_001, "win", marks=pytest.mark.slow),
        pytest.param("4x4k4", 9_722_011, "draw", marks=pytest.mark.slow),
    ],
)
def test_published_figures(name, positions, value):
    strong = solved(parse_variant(name))
    census = strong_census(strong)
    geometry = parse_variant(name)
    assert census["geometry"] == {"rows": geometry.rows, "cols": geometry.cols, "k": geometry.k, "misere": False}
    assert census["positions"] == positions and census["value"]["value"] == value
    assert sum(census["positions_by_ply"]) == positions
    in_play = positions - census["terminal_positions"]
    assert sum(census["positions_by_value"].values()) == in_play


@pytest.mark.parametrize("name", ["3x4k3", "3x4k3-misere", "3x3k3-misere"])
def test_values_are_the_same_on_every_image_of_a_position(name):
    geometry = parse_variant(name)
    strong = solved(geometry)
    group = transforms(geometry)
    assert len(group) == (8 if geometry.is_square else 4)
    for key in list(state_graph(geometry).keys())[::7]:
        x, o = key & geometry.full, key >> geometry.size
        assert {strong.lookup(t.apply(x), t.apply(o)) for t in group} == {strong.lookup(x, o)}


def test_analysis_from_the_strong_solution_equals_the_tables():
    geometry = parse_variant("3x4k3-misere")
    strong = solved(geometry)
    # the last two: a game over (X's 2-3-4 loses under misère), and a board filled with no line
    for moves in (
        [],
        [6],
        [6, 7],
        [1, 2, 3],
        [6, 7, 2, 11, 5],
        [2, 1, 3, 5, 4],
        [4, 3, 11, 10, 2, 1, 7, 12, 9, 5, 8, 6],
    ):
        position = Position.empty(geometry).play_all(moves)
        from_tables, from_strong = analyze(position), analyze_strong(strong, position)
        assert (from_strong.value, from_strong.remoteness, from_strong.masks) == (
            from_tables.value,
            from_tables.remoteness,
            from_tables.masks,
        )
        assert [(m.cell, m.value, m.remoteness, m.trap) for m in from_strong.moves] == [
            (m.cell, m.value, m.remoteness, m.trap) for m in from_tables.moves
        ]
        assert from_strong.symmetry == from_tables.symmetry  # the class numbered as the tables number it
        assert from_strong.games == from_tables.games and [m.games for m in from_strong.moves] == [
            m.games for m in from_tables.moves
        ]


def test_normal_masks_from_the_strong_solution_equal_the_planner_s():
    geometry = parse_variant("3x4k3")
    strong = solved(geometry)
    for key in list(state_graph(geometry).keys())[::97]:
        position = Position(key & geometry.full, key >> geometry.size, geometry)
        if not position.is_over:
            assert analyze_strong(strong, position).masks == analyze(position).masks


def test_boards_above_sixteen_cells_are_refused_before_any_array_is_made():
    from workbench.engine.strong import check_strongly_solvable

    with pytest.raises(
        BoardTooLargeForStrongSolveError, match="board 5x5k4: strong solutions cover boards of at most 16 cells"
    ):
        strong_solve(parse_variant("5x5k4"))
    with pytest.raises(BoardTooLargeForStrongSolveError, match=r"at most 16 cells \(18 here\)"):
        check_strongly_solvable(parse_variant("2x9k3"))
    for name in ("4x4k4", "2x8k3", "8x2k3"):  # sixteen cells: solved (the tests marked slow solve 4x4)
        check_strongly_solvable(parse_variant(name))


@pytest.mark.parametrize("name, plies", [("3x3k3", 10), ("2x2k2", 5), ("3x4k3-misere", 13)])
def test_a_strong_solve_reports_each_stage_from_its_first_step_to_its_last(name, plies):
    """What `workbench solve` draws its progress bars from: each stage in turn, every step counted once, and
    every bar ending full, even when every game ends before the board fills (2x2, two in a row)."""
    seen = []
    strong_solve(parse_variant(name), progress=lambda stage, done, total: seen.append((stage, done, total)))
    stages = list(dict.fromkeys(stage for stage, _, _ in seen))
    assert stages == ["forward", "games", "back", "classes"]
    assert [(done, total) for stage, done, total in seen if stage == "forward"][-1] == (plies, plies)
    for stage in stages:
        steps = [(done, total) for seen_stage, done, total in seen if seen_stage == stage]
        total = steps[0][1]
        assert all(step_total == total for _, step_total in steps) and steps[-1][0] == total
        assert [done for done, _ in steps] == sorted({done for done, _ in steps})  # each step once, in order


def _some_line_still_possible(position):
    """An independent check: some sequence of legal moves from here completes a line (either side's)."""
    if position.status in (Status.X_WON, Status.O_WON):
        return True
    return any(_some_line_still_possible(position.play(cell)) for cell in position.legal_moves())


@pytest.mark.parametrize("name", ["3x3k3", "2x4k3", "3x3k3-misere"])
def test_dead_draw_is_exactly_no_line_left_to_complete(name):
    geometry = parse_variant(name)
    dead = 0
    for key in state_graph(geometry).keys():
        position = Position(key & geometry.full, key >> geometry.size, geometry)
        expected = not position.is_over and not _some_line_still_possible(position)
        assert position.dead_draw is expected, position
        dead += expected
    assert dead > 0


def test_dead_draw_examples():
    assert Position.empty().play_all([5, 1, 9, 3, 2, 8, 4, 6]).dead_draw  # one cell left, every line blocked
    assert not Position.empty().play_all([5, 1, 2, 8, 4, 6]).dead_draw  # X's 3-5-7 is still open
    assert not Position.empty().dead_draw


@pytest.mark.parametrize("name", ["3x4k3-misere", "3x3k3"])
def test_every_position_streams_each_reachable_position_once_with_its_status_and_value(name):
    from workbench.engine import format_position
    from workbench.engine.strong_records import every_position

    geometry = parse_variant(name)
    solution, tables = solved(geometry), solve(geometry)
    expected = {}
    for key in state_graph(geometry).keys():
        position = Position(key & geometry.full, key >> geometry.size, geometry)
        over = position.is_over
        value = None if over else {1: "win", 0: "draw", -1: "loss"}[tables.value[key]]
        expected[format_position(position)] = (
            None if over else position.turn.value,
            position.status.value,
            value,
            None if over else tables.remoteness[key],
        )
    rows = [row for block in every_position(solution, chunk=1000) for row in block]
    assert len(rows) == len(expected) == solution.positions
    assert {row[0]: row[1:] for row in rows} == expected

    def ply_then_index(text):  # the index counts the cells in base 3, the first cell the lowest digit
        cells = text.replace("/", "")
        return sum(c != "." for c in cells), sum(".XO".index(c) * 3**i for i, c in enumerate(cells))

    order = [ply_then_index(row[0]) for row in rows]
    assert order == sorted(order)  # by ply, then index, as documented


@given(st.text(max_size=30))
def test_any_text_is_a_variant_or_a_variant_error(text):
    try:
        geometry = parse_variant(text)
    except VariantError as error:
        assert "\n" not in str(error) and str(error).startswith("unknown variant")
    else:
        assert (
            1 <= geometry.rows <= 15
            and 1 <= geometry.cols <= 15
            and 1 <= geometry.k <= max(geometry.rows, geometry.cols)
        )


@pytest.mark.parametrize("geometry", [Geometry(), Geometry(3, 4, 3), Geometry(2, 5, 3)])
def test_the_first_move_table_from_exact_values_equals_seed_001_s_search(geometry):
    from workbench.engine import first_move_table
    from workbench.engine.openings import first_move_table_from_values

    values = solve(geometry).value
    assert first_move_table_from_values(geometry, lambda x, o: values[x | o << geometry.size]) == first_move_table(
        geometry
    )


def test_the_misere_first_move_table():
    from workbench.engine.openings import first_move_table_from_values

    geometry = parse_variant("3x3k3-misere")
    values = solve(geometry).value
    table = first_move_table_from_values(geometry, lambda x, o: values[x | o << geometry.size])
    # under misère no reply of O's to X's centre or corner loses; to an edge, one reply in eight does
    assert table == ((0.0, 0.125, 0.0), (0.125, 0.0, 0.125), (0.0, 0.125, 0.0))


@pytest.mark.parametrize(
    "name", ["3x3k3", "3x3k3-misere", "3x4k3", "3x4k3-misere", "2x2k2", "1x1k1", "2x2k1-misere", "1x4k2-misere"]
)
def test_the_strong_census_equals_the_dictionary_census_key_for_key(name):
    from workbench.engine import census

    geometry = parse_variant(name)
    small, strong = census(geometry), strong_census(solved(geometry))
    for key, value in small.items():
        if key != "geometry":
            assert strong[key] == value, key
    assert sum(strong["games_by_length"].values()) == strong["games"]["total"]


@pytest.mark.parametrize("name", ["3x3k3-misere", "2x4k3-misere", "3x4k3-misere"])
def test_the_misere_fork_mask_is_every_move_that_leaves_only_losing_replies(name):
    """Under misère the ``fork`` mask holds the squeezes: moves that do not lose at once, after which the
    opponent has replies and every one of them completes a line of theirs (so loses). Checked by playing
    every move and every reply, on every reachable position."""
    from workbench.engine.threats import squeezes

    geometry = parse_variant(name)
    squeezed = 0
    for key in list(state_graph(geometry).keys())[:: 1 if geometry.size <= 9 else 7]:
        position = Position(key & geometry.full, key >> geometry.size, geometry)
        if position.is_over:
            continue
        mover_wins = Status.X_WON if position.turn is Player.X else Status.O_WON
        expected = 0
        for cell in position.legal_moves():
            after = position.play(cell)
            replies = after.legal_moves() if after.status is Status.IN_PLAY else ()
            if replies and all(after.play(reply).status is mover_wins for reply in replies):
                expected |= 1 << (cell - 1)
        me, opp = (position.x, position.o) if position.turn is Player.X else (position.o, position.x)
        assert squeezes(geometry, me, opp) == expected, position
        squeezed += expected != 0
    assert squeezed > 0


@pytest.mark.parametrize("name", ["3x3k3-misere", "2x4k3-misere", "3x4k3-misere", "3x4k3"])
def test_under_misere_each_mask_s_title_says_what_its_cells_do_by_the_exact_values(name):
    """The titles the app and `analyze` give the masks under misère are facts of every position's exact values:
    "loses" holds exactly the moves that lose at once (a loss in 1 ply), "force" exactly those whose every reply
    loses at once (a win in 2), and the titles are the masks' own names on a normal board."""
    from workbench.engine.results import mask_title

    geometry = parse_variant(name)
    titles = [mask_title(mask, geometry) for mask in MASK_NAMES]
    if not geometry.misere:
        assert titles == ["win", "block", "fork", "p-win", "p-lose", "best"]
        return
    assert titles == ["loses", "leave", "force", "p-win", "p-lose", "best"]
    assert mask_title("win", geometry, short=False) == "loses"
    assert mask_title("perfect_win", geometry, short=False) == "perfect-win"
    checked = 0
    for key in state_graph(geometry).keys():
        position = Position(key & geometry.full, key >> geometry.size, geometry)
        if position.is_over:
            continue
        analysis = analyze(position)
        moves = {move.cell: (move.value, move.remoteness) for move in analysis.moves}
        loses_at_once = {cell for cell, outcome in moves.items() if outcome == (Value.LOSS, 1)}
        forces = {cell for cell, outcome in moves.items() if outcome == (Value.WIN, 2)}
        assert set(cells_of(analysis.masks.win)) == loses_at_once, position
        assert set(cells_of(analysis.masks.fork)) == forces, position
        checked += bool(loses_at_once) + bool(forces)
    assert checked > 100


def test_a_strong_solution_handed_over_answers_as_the_tables_do():
    """analyze, class_id, principal_variation and classes_by_ply handed a strong solution's answers read it, and
    build no tables: the same answers the tables give."""
    from workbench.engine import analysis, clear_caches
    from workbench.engine.analysis import class_id, classes_by_ply
    from workbench.engine.answers import SolutionAnswers

    geometry = parse_variant("3x4k3")
    lines = ([], [6], [6, 7], [1, 5, 2], [6, 7, 2, 11, 5], [2, 1, 3, 5, 9])
    clear_caches()
    answers = SolutionAnswers(solved(geometry))
    from_strong = [
        (analyze(p, answers), class_id(p, answers), principal_variation(p, answers))
        for p in (Position.empty(geometry).play_all(m) for m in lines)
    ]
    by_ply = classes_by_ply(geometry, answers)
    assert geometry not in analysis._BUILT  # none of it built the tables
    clear_caches()
    from_tables = [
        (analyze(p), class_id(p), principal_variation(p)) for p in (Position.empty(geometry).play_all(m) for m in lines)
    ]
    assert by_ply == classes_by_ply(geometry) and sum(by_ply) == 28275
    for (strong_analysis, strong_class, strong_line), (table_analysis, table_class, table_line) in zip(
        from_strong, from_tables
    ):
        assert (strong_analysis.value, strong_analysis.remoteness) == (table_analysis.value, table_analysis.remoteness)
        assert strong_class == table_class == table_analysis.symmetry.class_id
        assert strong_line == table_line and len(table_line) == (table_analysis.remoteness or 0)


def test_boards_above_sixteen_cells_are_searched_and_need_nothing_made():
    from workbench.engine.analysis import answers_of
    from workbench.state import AppState

    for variant in ("3x3k3", "3x4k3-misere", "4x4k4", "2x8k3"):
        assert not AppState(geometry=parse_variant(variant)).searched
    for variant in ("5x5k4", "3x6k3", "15x15k5-misere"):
        assert AppState(geometry=parse_variant(variant)).searched and not answers_of(parse_variant(variant)).exact
