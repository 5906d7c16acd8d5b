"""Exact solver, threat masks, symmetry, counts: checked against each other and known facts."""

import json
import re

import pytest

from workbench.bench import baselines
from workbench.engine import (
    MASK_NAMES,
    TIC_TAC_TOE,
    IllegalPositionError,
    Player,
    Position,
    Value,
    analysis_record,
    analyze,
    cell_bit,
    census,
    first_move_table,
    ledger_counts,
    parse_position,
    principal_variation,
)
from workbench.engine.analysis import exact_masks
from workbench.engine.graph import class_index, state_graph
from workbench.engine.symmetry import canonical, images, move_classes, orbit_size, stabilizer, transforms

SYMMETRIES = transforms(TIC_TAC_TOE)


def test_census_matches_the_known_figures():
    data = census(TIC_TAC_TOE)
    assert data["positions"] == 5478
    assert data["terminal_positions"] == 958
    assert data["classes"] == 765
    assert data["terminal_classes"] == 138
    assert data["classes_by_ply"] == [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]  # seed 002's table
    assert data["games"] == {"total": 255168, "x": 131184, "o": 77904, "draw": 46080}
    assert data["games_by_length"] == {"5": 1440, "6": 5328, "7": 47952, "8": 72576, "9": 127872}
    assert data["ledger"] == {"total": 362880, "x": 212256, "o": 104544, "draw": 46080}
    assert sum(data["positions_by_value"].values()) == 5478 - 958


def test_ledger_dp_equals_brute_force_over_all_fill_orders():
    assert ledger_counts(TIC_TAC_TOE).as_dict() == baselines.brute_force_ledger()


def test_empty_board_is_a_draw_that_runs_to_a_full_board():
    analysis = analyze(Position.empty())
    assert (analysis.value, analysis.remoteness) == (Value.DRAW, 9)
    assert analysis.masks.best == TIC_TAC_TOE.full
    assert baselines.plain_minimax() == 0


@pytest.mark.parametrize(
    "text, value, remoteness",
    [
        ("XX./OO./...", Value.WIN, 1),  # X completes the top row now
        ("X../.O./..X", Value.DRAW, 6),  # O must take an edge
        ("XO./.../...", Value.WIN, 5),  # O's edge reply to a corner loses
        ("X.O/.X./...", Value.DRAW, 6),  # O to move must block at 9
        ("XX./XO./..O", Value.LOSS, 2),  # O to move cannot block both 3 and 7
    ],
)
def test_known_values(text, value, remoteness):
    analysis = analyze(parse_position(text))
    assert (analysis.value, analysis.remoteness) == (value, remoteness)


def test_losing_side_delays_and_winning_side_hurries(all_analyses):
    for analysis in all_analyses:
        if analysis.to_move is None:
            continue
        values = [move.value for move in analysis.moves]
        assert analysis.value == max(values)
        same = [move.remoteness for move in analysis.moves if move.value == analysis.value]
        if analysis.value is Value.WIN:
            assert analysis.remoteness == min(same)
        elif analysis.value is Value.LOSS:
            assert analysis.remoteness == max(same)
        else:
            assert analysis.remoteness == bin(analysis.position.empties).count("1")


def test_planner_equals_the_solver_on_every_position(all_analyses):
    """The threat planner's perfect-win and perfect-lose masks (seed 001's, read ahead through its plans) equal
    the exact ones on every 3×3 position; the analysis shows the exact ones, so both are checked here."""
    from workbench.engine.threats import Planner

    planner = Planner(TIC_TAC_TOE)  # its own memo: not one an earlier test filled
    checked = 0
    for analysis in all_analyses:
        if analysis.to_move is None:
            continue
        position = analysis.position
        me, opp = (position.x, position.o) if analysis.to_move is Player.X else (position.o, position.x)
        plan = planner.masks(me, opp)
        exact = exact_masks(analysis)
        assert (
            (plan.perfect_winning, plan.perfect_losing)
            == exact
            == (analysis.masks.perfect_win, analysis.masks.perfect_lose)
        ), position
        checked += 1
    assert checked == 5478 - 958


def _wins_now(geometry, marks, position):
    return any(geometry.has_line(marks | cell_bit(cell)) for cell in position.legal_moves())


def test_win_block_and_fork_follow_their_definitions(all_analyses):
    for analysis in all_analyses:
        if analysis.to_move is None:
            continue
        position = analysis.position
        geometry = position.geometry
        mine, theirs = (position.x, position.o) if analysis.to_move.value == "X" else (position.o, position.x)
        win = block = fork = 0
        for cell in position.legal_moves():
            bit = cell_bit(cell)
            if geometry.has_line(theirs | bit):
                block |= bit  # the opponent would complete a line here, whether or not we win on it too
            if geometry.has_line(mine | bit):
                win |= bit
                continue
            after = position.play(cell)
            replies = [after.play(reply) for reply in after.legal_moves()]
            if replies and all(not reply.is_over and _wins_now(geometry, mine | bit, reply) for reply in replies):
                fork |= bit
        assert analysis.masks.win == win
        assert analysis.masks.block == block
        assert analysis.masks.fork == fork, position


def test_a_classic_fork_is_found():
    # O threatens 3-5-7; X's block at 7 also opens 1-4-7 and 7-8-9
    masks = analyze(parse_position("X.O/.O./..X")).masks
    assert (masks.win, masks.block, masks.fork) == (0, cell_bit(7), cell_bit(7))
    assert masks.perfect_win == masks.best == cell_bit(7)


def test_best_moves_keep_the_value(all_analyses):
    for analysis in all_analyses:
        for move in analysis.moves:
            in_best = bool(analysis.masks.best & cell_bit(move.cell))
            keeps = (move.value, move.remoteness) == (analysis.value, analysis.remoteness)
            assert in_best == keeps


def test_principal_variation_plays_a_best_move_the_words_tell_to_the_end(all_analyses):
    """Every move of the line is a best move; among equally good ones the one whose story the words tell
    (engine.line_choice: a win, a fork, a threat for the winner, a block for the other side), then the lowest."""
    from workbench.engine.line_choice import story_rank

    winner_for = {Value.WIN: "mover", Value.LOSS: "other", Value.DRAW: None}
    for analysis in all_analyses:
        line = principal_variation(analysis.position)
        if analysis.to_move is None:
            assert line == ()
            continue
        assert len(line) == analysis.remoteness
        best_cells = [move.cell for move in analysis.moves if analysis.masks.best & cell_bit(move.cell)]
        winning = analysis.value is Value.WIN
        assert line[0] == min(best_cells, key=lambda cell: (story_rank(analysis.position, cell, winning), cell))
        after = analysis.position.play(line[0])
        assert line[1:] == principal_variation(after)  # so every later move is chosen so too
        end = analysis.position
        for cell in line:
            end = end.play(cell)
        expected = winner_for[analysis.value]
        if expected is None:
            assert end.status.value == "draw"
        else:
            mover = analysis.to_move if expected == "mover" else analysis.to_move.other
            assert end.status.value == f"{mover.value.lower()}_won"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("XX./OO./...", (3,)),  # X wins at once
        ("XX./O../...", (3, 5, 8, 9)),  # O blocks, X forks (8 and 9), O blocks one of them, X wins at the other
        ("X../.O./..X", (2, 8, 7, 3, 6, 4)),  # O on an edge holds the draw; every move forced after
        ("XOX/XOO/OXX", ()),
    ],
)
def test_known_principal_variations(text, line):
    assert principal_variation(parse_position(text)) == line


def test_principal_variation_refuses_an_unreachable_position():
    with pytest.raises(IllegalPositionError):
        principal_variation(Position(0b111, 0b111000))


def test_trap_is_the_share_of_replies_that_lose():
    analysis = analyze(Position.empty())
    by_cell = {move.cell: move.trap for move in analysis.moves}
    assert by_cell[1] == 7 / 8 and by_cell[5] == 4 / 8 and by_cell[2] == 4 / 8
    finishing = analyze(parse_position("XX./OO./..."))
    assert finishing.move(3).trap is None


def test_first_move_table_equals_seed_001_and_the_solver():
    table = first_move_table(TIC_TAC_TOE)
    assert [list(row) for row in table] == baselines.seed_first_move_table()
    assert table == ((0.875, 0.5, 0.875), (0.5, 0.5, 0.5), (0.875, 0.5, 0.875))
    traps = {move.cell: move.trap for move in analyze(Position.empty()).moves}
    assert [traps[cell] for cell in range(1, 10)] == [share for row in table for share in row]


def test_games_per_move_add_up(all_analyses):
    for analysis in all_analyses:
        if analysis.moves:
            total = [sum(part) for part in zip(*(move.games for move in analysis.moves))]
            assert tuple(total) == tuple(analysis.games)
    first = {move.cell: move.games.total for move in analyze(Position.empty()).moves}
    assert (first[1], first[2], first[5]) == (27732, 29592, 25872)


def test_seed_port_bug_is_real():
    """Regression: seed 001's planner counts a drawn last move as a forced win."""
    position = parse_position("XO./XXO/OX.")  # O to move... a late position the port misjudges
    analysis = analyze(position)
    me, opp = (position.o, position.x) if analysis.to_move.value == "O" else (position.x, position.o)
    seed = baselines.from_seed_bitboard(
        baselines.perf_losing_moves(baselines.seed_bitboard(me), baselines.seed_bitboard(opp))
    )
    assert seed != exact_masks(analysis)[1]
    assert analysis.masks.perfect_lose == exact_masks(analysis)[1]


def test_the_memoized_seed_port_answers_as_the_port_as_written(all_analyses):
    """`verify --seed-port` uses the memoized copy: on positions from every ply, the same masks as the
    port itself, and the port itself left without a memo (the bench times it as written)."""
    perf_winning, perf_losing = baselines.memoized_seed_port()
    by_ply: dict[int, list] = {}
    for analysis in all_analyses:
        if analysis.to_move is not None:
            by_ply.setdefault(analysis.position.ply, []).append(analysis)
    # the port as written is slow: thirty positions of each ply, the first of them and then spread out
    sample = [analysis for ply in sorted(by_ply) for analysis in by_ply[ply][:: max(1, len(by_ply[ply]) // 30)]]
    assert sorted(by_ply) == list(range(9))
    for analysis in sample:
        position = analysis.position
        me, opp = (position.x, position.o) if analysis.to_move.value == "X" else (position.o, position.x)
        me, opp = baselines.seed_bitboard(me), baselines.seed_bitboard(opp)
        assert perf_winning(me, opp) == baselines.perf_winning_moves(me, opp)
        assert perf_losing(me, opp) == baselines.perf_losing_moves(me, opp)
    assert not hasattr(baselines.perf_winning_moves, "cache_info") and perf_winning.cache_info().hits > 0


# --- symmetry ------------------------------------------------------------------------


def test_eight_transforms_on_a_square_four_on_a_rectangle():
    from workbench.engine import Geometry

    assert len(transforms(TIC_TAC_TOE)) == 8
    assert len(transforms(Geometry(3, 4, 3))) == 4
    for transform in transforms(TIC_TAC_TOE):
        assert sorted(transform.mapping) == list(range(9))
        for line in TIC_TAC_TOE.lines:
            assert transform.apply(line) in TIC_TAC_TOE.lines


@pytest.mark.parametrize("transform", SYMMETRIES, ids=lambda t: t.name)
def test_analysis_is_invariant_under_each_symmetry(transform, all_analyses):
    for analysis in all_analyses[::7]:
        image = analyze(transform.position(analysis.position))
        assert (image.value, image.remoteness, image.status) == (analysis.value, analysis.remoteness, analysis.status)
        assert image.symmetry.class_id == analysis.symmetry.class_id
        assert image.symmetry.canonical == analysis.symmetry.canonical
        assert image.games == analysis.games
        for name in MASK_NAMES:
            assert image.masks.get(name) == transform.apply(analysis.masks.get(name)), name
        for move in analysis.moves:
            twin = image.move(transform.cell(move.cell))
            assert (twin.value, twin.remoteness, twin.trap, twin.games) == (
                move.value,
                move.remoteness,
                move.trap,
                move.games,
            )


def test_class_ids_are_stable_and_dense():
    index = class_index(TIC_TAC_TOE)
    assert sorted(set(index.class_of.values())) == list(range(1, 766))
    assert list(index.plies) == sorted(index.plies)
    assert index.class_of[0] == 1
    assert index.class_of[parse_position("X../.../...").key] == 2  # corner reads smallest
    assert index.class_of[parse_position(".X./.../...").key] == 3
    assert index.class_of[parse_position(".../.X./...").key] == 4
    for parent, child in index.dag:
        assert index.plies[child - 1] == index.plies[parent - 1] + 1


def test_canonical_orbit_stabiliser_and_move_classes(all_analyses):
    graph = state_graph(TIC_TAC_TOE)
    for key in list(graph.keys())[::5]:
        position = graph.position(key)
        image_set = {image for _, image in images(position)}
        assert len(image_set) == orbit_size(position) == 8 // len(stabilizer(position))
        assert canonical(position) in image_set
        assert canonical(canonical(position)) == canonical(position)
        groups = move_classes(position)
        assert sorted(cell for group in groups for cell in group) == list(position.legal_moves())
        for group in groups:
            values = {analyze(position.play(cell)).value for cell in group}
            assert len(values) == 1
    assert move_classes(Position.empty()) == ((1, 3, 7, 9), (2, 4, 6, 8), (5,))


def test_illegal_position_is_refused_by_analyze():
    from workbench.engine.analysis import class_id

    with pytest.raises(IllegalPositionError):
        analyze(Position(0b111, 0b111000))
    with pytest.raises(IllegalPositionError):
        class_id(Position(0b111, 0b111000))


def test_class_id_alone_equals_the_full_analysis(all_analyses):
    from workbench.engine.analysis import class_id

    assert all(class_id(analysis.position) == analysis.symmetry.class_id for analysis in all_analyses)


def test_record_has_the_documented_shape():
    record = analysis_record(analyze(parse_position("X../.O./...")))
    assert set(record) >= {"position", "to_move", "status", "value", "remoteness", "moves", "masks", "symmetry"}
    assert set(record["moves"][0]) == {"cell", "name", "value", "remoteness", "trap", "games"}
    assert set(record["moves"][0]["games"]) == {"total", "x", "o", "draw"}
    assert set(record["masks"]) == set(MASK_NAMES)
    assert set(record["symmetry"]) >= {"canonical", "class_id", "orbit_size", "stabilizer", "move_classes"}
    json.dumps(record)
    over = analysis_record(analyze(parse_position("XXX/OO./...")))
    assert over["to_move"] is None and over["value"] is None and over["remoteness"] is None
    assert over["status"] == "x_won" and over["moves"] == []
    assert len(record["moves"]) == 7


def test_tables_survive_their_plain_data_form():
    from workbench.engine.analysis import tables
    from workbench.engine.tables_file import format_tables, parse_tables

    table = tables(TIC_TAC_TOE)
    assert parse_tables(TIC_TAC_TOE, format_tables(table)) == table


def test_tables_read_back_give_the_planner_its_masks_without_planning_again(monkeypatch):
    """The tables keep the planner's masks of every position it reaches from the empty board (4,520 on 3×3, each
    the planner's own answer); read back into answers, a fresh planner answers from them and plans nothing."""
    from workbench.engine import threats
    from workbench.engine.analysis import tables
    from workbench.engine.answers import TableAnswers
    from workbench.engine.position import parse_position
    from workbench.engine.tables_file import format_tables, parse_tables

    table = tables(TIC_TAC_TOE)
    fresh = threats.Planner(TIC_TAC_TOE)
    keys, masks = table.plans
    assert len(keys) == 4520 and all(
        fresh._raw(key & 511, key >> 9) == tuple(masks[6 * i : 6 * i + 6]) for i, key in enumerate(keys)
    )
    position = parse_position("X.O/.X./...")  # O to move
    expected = fresh.masks(position.o, position.x)
    monkeypatch.setattr(threats, "_PLANNERS", {})
    TableAnswers(parse_tables(TIC_TAC_TOE, format_tables(table)))
    monkeypatch.setattr(threats.Planner, "_compute", lambda *args: pytest.fail("planned again"))
    assert threats.planner_for(TIC_TAC_TOE).masks(position.o, position.x) == expected
    assert threats.planner_for(TIC_TAC_TOE).masks(0, 0) == fresh.masks(0, 0)


@pytest.mark.parametrize(
    ("mangle", "reason"),
    [
        (lambda data: data[:-1], "12-part tuple"),
        (lambda data: (*data[:11], (b"", b"")), "start from the empty board"),
        (lambda data: (*data[:11], (data[11][0], data[11][1][:-2])), "six a position"),
        (lambda data: (*data[:11], (data[11][0][8:], data[11][1][12:])), "start from the empty board"),
        (lambda data: (*data[:11], (data[11][0][:-8], data[11][1])), "six a position"),
        (lambda data: (*data[:11], (data[11][0][:8] * 2 + data[11][0][16:], data[11][1])), "six a position"),
        (lambda data: (*data[:11], (data[11][0][:-1], data[11][1])), "bytes length not a multiple"),
        (lambda data: (*data[:11], {}), "not two strings of bytes"),
        (lambda data: (99, *data[1:]), "format 99"),
        (lambda data: (data[0], (4, 4, 4), *data[2:]), "(4, 4, 4)"),
        (lambda data: (*data[:2], [], *data[3:]), "not a dict"),
        (lambda data: (*data[:4], {**data[4], 1 << 30: 0}, *data[5:]), "same positions"),
        (lambda data: (*data[:3], {key: "lost" for key in data[3]}, *data[4:]), "'lost' is not a valid Status"),
    ],
)
def test_tables_data_that_does_not_fit_is_refused_with_the_reason(mangle, reason):
    from workbench.engine.analysis import tables
    from workbench.engine.tables_file import TablesDataError, format_tables, parse_tables

    with pytest.raises(TablesDataError, match=re.escape(reason)):
        parse_tables(TIC_TAC_TOE, mangle(format_tables(tables(TIC_TAC_TOE))))


def test_tables_know_classes_by_ply_and_games_through_every_position():
    from workbench.engine.analysis import tables
    from workbench.engine.census import games_through
    from workbench.engine.graph import class_index

    table = tables(TIC_TAC_TOE)
    assert table.classes_by_ply() == class_index(TIC_TAC_TOE).by_ply() == (1, 3, 12, 38, 108, 174, 204, 153, 57, 15)
    assert all(table.games_through(key) == games_through(TIC_TAC_TOE, key) for key in table.class_of)


def test_the_planner_on_a_board_too_big_for_its_lookup_table():
    from workbench.engine import Geometry
    from workbench.engine.threats import Planner

    planner = Planner(Geometry(5, 5, 4))  # 25 cells: lines are checked one by one
    me, opp = 0b111, 0b11 << 5  # me on 1 2 3, the opponent on 6 7
    assert planner.winning(me, opp) == 1 << 3  # 4 completes 1-2-3-4 (5 would not be a line of four here)
    assert planner.block(opp, me) == 1 << 3
    assert planner.masks(0b1111, opp) == (0,) * 6  # a line of four already: the game is over


def test_the_planner_says_nothing_once_the_game_is_over():
    from workbench.engine.threats import Planner

    planner = Planner(TIC_TAC_TOE)
    assert planner.masks(0b000011000, 0b000000111) == (0,) * 6  # the opponent has a line
    assert planner.masks(0b000000111, 0b000011000) == (0,) * 6  # the mover has one
    assert planner.masks(0b101100110, 0b010011001) == (0,) * 6  # a full board
    assert planner.winning(0b000000011, 0b000011000) == 0b100  # in play: 3 wins


def test_an_analysis_record_word_for_word():
    import json

    record = analysis_record(analyze(parse_position("O../.X./..X")))
    text = json.dumps(record)
    assert text.startswith(
        '{"variant": "3x3k3", "position": "O../.X./..X", "to_move": "O", "status": "in_play", "dead_draw": false, '
        '"value": "draw", '
        '"remoteness": 6, '
        '"games": {"total": 536, "x": 248, "o": 144, "draw": 144}, "moves": [{"cell": 2, "name": "2", "value": "loss", '
        '"remoteness": 4, "trap": 0.8, "games": {"total": 80, "x": 40, "o": 28, "draw": 12}}'
    )
    assert text.endswith(
        '"masks": {"win": [], "block": [], "fork": [], "perfect_win": [], "perfect_lose": [2, 4, 6, 8], '
        '"best": [3, 7]}, "symmetry": {"canonical": "X../.X./..O", "class_id": 38, "class_count": 765, '
        '"orbit_size": 4, "stabilizer": ["identity", "flip_diag"], "move_classes": [[2, 4], [3, 7], [6, 8]]}}'
    )
    finished = analysis_record(analyze(parse_position("XXX/OO./...")))
    assert (finished["to_move"], finished["value"], finished["remoteness"], finished["moves"]) == (None, None, None, [])


def test_the_first_move_table_of_a_single_cell_board():
    from workbench.engine import Geometry

    assert first_move_table(Geometry(1, 1, 1)) == ((0.0,),)  # X's only move leaves O no reply to judge


def test_the_engine_builds_a_board_s_tables_once_and_answers_from_the_same_object():
    """The engine's own answers (no answers handed over) are built once a process: every later question of the
    board reads the same tables, never a second build."""
    from workbench.engine import analysis
    from workbench.engine.analysis import answers_of, tables

    first = answers_of(TIC_TAC_TOE)
    assert answers_of(TIC_TAC_TOE) is first and tables(TIC_TAC_TOE) is first.table and tables() is first.table
    real_build = analysis.build_tables
    builds = []
    analysis.forget_tables()
    try:
        analysis.build_tables = lambda geometry: builds.append(geometry) or real_build(geometry)
        assert answers_of(TIC_TAC_TOE) is answers_of(TIC_TAC_TOE) and builds == [TIC_TAC_TOE]
    finally:
        analysis.build_tables = real_build


def test_boards_above_twelve_cells_are_refused_before_any_table_is_built(monkeypatch):
    from workbench.engine import BoardTooLargeError, Geometry, analysis, check_analysable
    from workbench.engine.analysis import tables

    check_analysable(Geometry(3, 4, 3))  # 12 cells: fine
    with pytest.raises(
        BoardTooLargeError, match=r"^board 4x4k4: exact analysis covers boards of at most 12 cells so far \(16 here\)$"
    ):
        tables(Geometry(4, 4, 4))
    assert Geometry(4, 4, 4) not in analysis._BUILT
    with pytest.raises(BoardTooLargeError):  # 13-16 cells: the engine alone has no answers (none handed over)
        analyze(Position.empty(Geometry(2, 7, 3)))


def test_the_planner_s_masks_are_kept_little_endian_on_any_machine(monkeypatch):
    """Kept tables hold the planner's arrays as little-endian bytes: a big-endian machine writes the same bytes
    (its numbers swapped) and reads its own numbers back."""
    import sys

    from workbench.engine.analysis import tables
    from workbench.engine.tables_file import format_tables, parse_tables

    table = tables(TIC_TAC_TOE)
    little = format_tables(table)[11]
    assert little[0][8:16] == (table.plans[0][1]).to_bytes(8, "little")
    monkeypatch.setattr(sys, "byteorder", "big")  # the arrays are this machine's, so "big" swaps them
    swapped = format_tables(table)[11]
    assert swapped[0][8:16] == (table.plans[0][1]).to_bytes(8, "big") and swapped != little
    assert parse_tables(TIC_TAC_TOE, format_tables(table)).plans == table.plans
