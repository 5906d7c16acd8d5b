"""Tier 2: exact search of single positions, checked against the strong solutions, under budgets."""

import random

import pytest
from hypothesis import given, strategies as st

from workbench.engine import Position, Value, parse_moves
from workbench.engine.analysis import analyze_strong
from workbench.engine.geometry import cell_name, parse_variant
from workbench.engine.search import WIN, Searcher, _lower, lift, search, search_record

from .solved import solved

scores = st.one_of(
    st.just(0), st.builds(lambda r, sign: sign * (WIN - r), st.integers(1, 225), st.sampled_from((1, -1)))
)
"""Every score a search can return: a draw, or a win or loss within the 225 plies of the largest board."""


@given(scores)
def test_a_bound_passed_down_lifts_back_to_itself(score):
    assert lift(_lower(score)) == score and _lower(lift(score)) == score


def test_lift_moves_an_outcome_one_ply_further():
    assert lift(WIN - 1) == -(WIN - 2)  # the child wins now: we lose in 2
    assert lift(-(WIN - 3)) == WIN - 4  # the child loses in 3: we win in 4
    assert lift(0) == 0


def _random_positions(geometry, plies, count, seed):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position.empty(geometry)
        for _ in range(plies):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over:
            found.append(position)
    return found


@pytest.mark.parametrize(
    "name, plies, count",
    [
        pytest.param("4x4k4", 5, 6, marks=pytest.mark.slow),
        pytest.param("4x4k3", 3, 6, marks=pytest.mark.slow),
        pytest.param("4x4k4-misere", 6, 6, marks=pytest.mark.slow),
        ("3x4k3-misere", 2, 12),
        ("3x3k3", 0, 1),
        ("3x3k3-misere", 3, 30),
        ("2x5k3-misere", 4, 30),
        ("3x4k3", 4, 20),
    ],
)
def test_search_equals_the_strong_solution_move_by_move(name, plies, count):
    # under misère a win may end on either side's move: the quick depth-limited proofs once assumed it could not
    geometry = parse_variant(name)
    strong = solved(geometry)
    searcher = Searcher(geometry)
    for position in _random_positions(geometry, plies, count, seed=len(name) + plies):
        expected = analyze_strong(strong, position)
        result = search(position, max_nodes=10**8, searcher=searcher)
        assert result.complete and result.nodes > 0
        assert [(m.cell, m.value, m.remoteness) for m in result.moves] == [
            (m.cell, m.value, m.remoteness) for m in expected.moves
        ]
        assert (result.value, result.remoteness) == (expected.value, expected.remoteness)


@pytest.mark.slow
def test_a_small_budget_proves_less_but_never_wrongly():
    geometry = parse_variant("4x4k4")
    strong = solved(geometry)
    position = Position.empty(geometry).play_all([6, 11])
    truth = {m.cell: (m.value, m.remoteness) for m in analyze_strong(strong, position).moves}
    result = search(position, max_nodes=3_000)
    assert not result.complete and result.value is None and result.remoteness is None
    assert any(not move.proven for move in result.moves)
    for move in result.moves:
        if move.proven:
            assert (move.value, move.remoteness) == truth[move.cell]
        else:
            assert move.value is None and move.remoteness is None
    assert sum(move.nodes for move in result.moves) == result.nodes <= 3_000  # every node counted, none beyond


def test_a_search_asked_to_stop_stops_at_once():
    geometry = parse_variant("7x7k5")
    position = Position.empty(geometry).play(25)
    asked = []

    def should_stop():
        asked.append(True)
        return True

    result = search(position, should_stop=should_stop)
    assert asked and result.nodes == 0 and not any(move.proven for move in result.moves)
    assert len(result.moves) == 48


def test_a_search_stopped_midway_keeps_what_it_proved():
    geometry = parse_variant("5x5k4")
    position = Position.empty(geometry).play_all(parse_moves("c3,b2,d4,b4", Position.empty(geometry)))
    calls = [0]

    def should_stop():
        calls[0] += 1
        return calls[0] > 40

    proven = []
    result = search(position, should_stop=should_stop, progress=lambda move, nodes: proven.append(move.cell))
    assert not result.complete and calls[0] > 40
    assert proven and sorted(proven) == [move.cell for move in result.moves if move.proven]  # each told once


def test_immediate_wins_and_forced_blocks_on_a_large_board():
    gomoku = parse_variant("15x15k5")
    # X has four in a row on the eighth row with both ends open: a win now
    position = Position.empty(gomoku).play_all(parse_moves("f8,f9,g8,g9,h8,h9,i8,a1", Position.empty(gomoku)))
    result = search(position, max_nodes=100_000)
    by_cell = {move.cell: move for move in result.moves}
    for end in ("e8", "j8"):
        cell = parse_moves(end, Position.empty(gomoku))[0]
        assert (by_cell[cell].value, by_cell[cell].remoteness) == (Value.WIN, 1)
    record = search_record(result)
    assert sorted(record["masks"]["win"]) == sorted(parse_moves("e8,j8", Position.empty(gomoku)))


def test_misere_search_avoids_completing_its_own_line():
    geometry = parse_variant("3x3k3-misere")
    strong = solved(geometry)
    position = Position.empty(geometry).play_all([1, 5, 2])  # O to move; X threatens nothing it would want
    expected = analyze_strong(strong, position)
    result = search(position)
    assert [(m.cell, m.value, m.remoteness) for m in result.moves] == [
        (m.cell, m.value, m.remoteness) for m in expected.moves
    ]


def test_the_record_says_what_was_proven():
    geometry = parse_variant("5x5k4")
    position = Position.empty(geometry).play(13)
    record = search_record(search(position, max_nodes=2_000))
    assert record["proven"] is False and record["value"] is None and record["remoteness"] is None
    assert record["to_move"] == "O" and record["games"] is None and record["symmetry"]["orbit_size"] == 1
    assert {key for key in record["moves"][0]} == {
        "cell",
        "name",
        "proven",
        "value",
        "remoteness",
        "nodes",
        "trap",
        "games",
    }
    unproven = [move for move in record["moves"] if not move["proven"]]
    assert unproven and all(move["value"] is None and move["remoteness"] is None for move in unproven)


@pytest.mark.parametrize("name", ["3x4k3", "3x4k3-misere"])
def test_the_search_record_says_what_the_strong_analysis_says(name):
    """``analyze --json``'s record of a searched position: every field named as 3×3's record names it, and
    each the strong solution's answer (masks, values, symmetry) where the search proved the position."""
    from workbench.engine import format_position
    from workbench.engine.geometry import cells_of

    geometry = parse_variant(name)
    strong = solved(geometry)
    checked_fork = False
    openings, endings = _random_positions(geometry, 3, 12, seed=7), _random_positions(geometry, 9, 12, seed=1)
    for position in openings + endings:  # squeezes come late
        result = search(position, max_nodes=10**8)
        record = search_record(result)
        expected = analyze_strong(strong, position)
        assert record["variant"] == name and list(record) == [
            "variant",
            "position",
            "to_move",
            "status",
            "dead_draw",
            "proven",
            "value",
            "remoteness",
            "nodes",
            "games",
            "moves",
            "masks",
            "symmetry",
        ]
        assert record["position"] == format_position(position) and record["to_move"] == position.turn.value
        assert record["status"] == "in_play" and record["dead_draw"] is position.dead_draw
        assert record["proven"] is True and record["nodes"] == result.nodes and record["games"] is None
        assert result.nodes > 0 or position in endings  # an ending can be proven by its immediate wins alone
        assert (record["value"], record["remoteness"]) == (expected.value.label, expected.remoteness)
        assert record["moves"] == [
            {
                "cell": m.cell,
                "name": cell_name(m.cell, geometry),
                "proven": True,
                "value": m.value.label,
                "remoteness": m.remoteness,
                "nodes": searched.nodes,
                "trap": None,
                "games": None,
            }
            for m, searched in zip(expected.moves, result.moves, strict=True)
        ]
        masks = expected.masks
        assert record["masks"] == {
            name: list(cells_of(masks.get(name)))
            for name in ("win", "block", "fork", "perfect_win", "perfect_lose", "best")
        }
        checked_fork |= bool(masks.fork)
        symmetry = expected.symmetry
        assert record["symmetry"] == {
            "canonical": format_position(symmetry.canonical),
            "class_id": None,
            "class_count": None,
            "orbit_size": symmetry.orbit_size,
            "stabilizer": [t.name for t in symmetry.stabilizer],
            "move_classes": [list(group) for group in symmetry.move_classes],
        }
    assert checked_fork  # a position with a fork (or, under misère, a squeeze) was among them


@pytest.mark.parametrize("name", ["3x3k3", "3x4k3", "3x4k3-misere", "2x5k3-misere"])
def test_the_full_search_of_each_move_alone_is_exact(name):
    """Without the quick proofs that usually come first (a search's later rounds go straight to the full
    search), every move's score is still the exact value and remoteness, short wins and forks included."""
    from workbench.engine.search import outcome

    geometry = parse_variant(name)
    strong = solved(geometry)
    for position in _random_positions(geometry, 2, 6, seed=3) + _random_positions(geometry, 5, 10, seed=4):
        empties = position.empties.bit_count()
        expected = {m.cell: (m.value, m.remoteness) for m in analyze_strong(strong, position).moves}
        searcher = Searcher(geometry)
        searcher.limit = 10**9
        assert {
            cell: outcome(searcher.move_score(position, cell), empties) for cell in position.legal_moves()
        } == expected


def test_the_search_s_effort_is_pinned_node_for_node():
    """Every move's node count is shown to the user, and the counts are the same on every machine: they are
    pinned here, so that a change to the search's pruning, move ordering, quick proofs, transposition table
    or node accounting shows. Update them only for a deliberate change, saying in the commit what it bought."""
    from workbench.engine import parse_position

    board = parse_variant("5x5k4")
    won = search(parse_position("...../..OO./..X../.X.X./.....", board), max_nodes=10**6)
    assert won.complete and won.nodes == 177
    assert [(m.value.label[0], m.remoteness) for m in won.moves] == [("l", 4)] * 6 + [("w", 3)] + [("l", 4)] * 13
    assert [m.nodes for m in won.moves] == [11] + [9] * 5 + [3] + [9] * 12 + [10]
    budget = search(parse_position("...../..O../.XX../...../.....", board), max_nodes=20_000)
    assert not budget.complete and budget.nodes == 20_000
    assert [m.remoteness for m in budget.moves] == [4] * 9 + [6, None, 6] + [4] * 10
    assert [m.nodes for m in budget.moves] == [9] * 9 + [215, 19_407, 207] + [9] * 10
    misere = parse_variant("3x4k3-misere")
    shared = Searcher(misere)  # what one search leaves in the table, the next reads
    counts = [
        search(Position.empty(misere).play_all(moves), max_nodes=10**7, searcher=shared) for moves in ([6], [6, 7], [1])
    ]
    assert [result.nodes for result in counts] == [51_122, 4_512, 57_910]
    assert [m.nodes for m in counts[1].moves] == [549, 422, 547, 330, 520, 625, 443, 507, 264, 305]
    assert all(sum(m.nodes for m in result.moves) == result.nodes for result in counts)


# --- boards above 16 cells in the app: the analysis of what a search proved, the threat player -----------------


@pytest.mark.parametrize("name, plies", [("5x5k4", 6), ("6x6k4", 10), ("7x7k5", 12), ("4x5k3", 5)])
def test_the_fork_mask_is_every_move_leaving_two_completions_on_big_boards(name, plies):
    """``forks`` looks only at cells on lines that can make a threat: checked against its definition (play the
    cell; it completes nothing, leaves the opponent nothing to complete, and leaves us two completions)."""
    from workbench.engine.geometry import cell_bit
    from workbench.engine.threats import completions, forks

    geometry = parse_variant(name)
    found = 0
    for position in _random_positions(geometry, plies, 40, seed=3) + _random_positions(
        geometry, plies // 2, 20, seed=4
    ):
        me, opp = (position.x, position.o) if position.ply % 2 == 0 else (position.o, position.x)
        expected = 0
        for cell in position.legal_moves():
            after = me | cell_bit(cell)
            threats = completions(geometry, after, opp)
            if (
                position.empties != cell_bit(cell)
                and not geometry.has_line(after)
                and not completions(geometry, opp, after)
                and threats & (threats - 1)
            ):
                expected |= cell_bit(cell)
        assert forks(geometry, me, opp) == expected, position
        found += expected != 0
    assert found > 0


@pytest.mark.parametrize("name", ["3x4k3", "3x4k3-misere"])
def test_a_search_that_proved_every_move_gives_the_strong_solution_s_analysis(name):
    """``searched_analysis`` of a finished search equals the strong solution's analysis in all it claims:
    value, remoteness, each move's value and remoteness, the six masks; it numbers no class and counts no game."""
    from workbench.engine.analysis import searched_analysis

    geometry = parse_variant(name)
    strong = solved(geometry)
    for position in _random_positions(geometry, 2, 6, seed=5) + _random_positions(geometry, 7, 6, seed=6):
        analysis = searched_analysis(position, search(position, max_nodes=10**8))
        expected = analyze_strong(strong, position)
        assert analysis.proven and (analysis.value, analysis.remoteness) == (expected.value, expected.remoteness)
        assert [(m.cell, m.value, m.remoteness) for m in analysis.moves] == [
            (m.cell, m.value, m.remoteness) for m in expected.moves
        ]
        assert analysis.masks == expected.masks
        assert (
            analysis.symmetry.canonical == expected.symmetry.canonical
            and analysis.symmetry.stabilizer == expected.symmetry.stabilizer
        )
        assert (
            analysis.symmetry.class_id is None
            and analysis.games is None
            and all(m.games is None for m in analysis.moves)
        )


def test_an_unfinished_search_claims_only_the_moves_it_proved():
    from workbench.engine.analysis import analyze, searched_analysis
    from workbench.engine.geometry import cell_bit

    geometry = parse_variant("5x5k4")
    position = Position.empty(geometry).play_all((13, 7, 8, 9))
    result = search(position, max_nodes=3_000)
    proven = {move.cell: move for move in result.moves if move.proven}
    assert 0 < len(proven) < len(result.moves)  # the budget proved some moves, not all
    analysis = searched_analysis(position, result)
    assert not analysis.proven and analysis.value is None and analysis.remoteness is None
    for move in analysis.moves:
        assert (move.value, move.remoteness) == (
            (proven[move.cell].value, proven[move.cell].remoteness) if move.cell in proven else (None, None)
        )
    assert analysis.masks.perfect_win == sum(cell_bit(c) for c, m in proven.items() if m.value is Value.WIN)
    assert analysis.masks.perfect_lose == sum(cell_bit(c) for c, m in proven.items() if m.value is Value.LOSS)
    assert analysis.masks.best == 0  # the best move is not known while a move is unproven
    unsearched = analyze(position)  # what the app shows before any search: the threats, no value
    assert unsearched.masks.win == analysis.masks.win and all(move.value is None for move in unsearched.moves)
    with pytest.raises(ValueError, match="says nothing of"):
        searched_analysis(position.play(1), result)


def _played(text: str, geometry) -> Position:
    empty = Position.empty(geometry)
    return empty.play_all(parse_moves(text, empty)) if text else empty


def test_the_threat_player_wins_blocks_forks_and_else_takes_the_most_open_lines():
    from workbench.engine.geometry import cell_bit, format_coordinate, parse_coordinate
    from workbench.engine.threats import threat_move

    geometry = parse_variant("15x15k5")

    def move(text: str, avoid: str = "", board=geometry) -> str:
        position = _played(text, board)
        own, other = (position.x, position.o) if position.ply % 2 == 0 else (position.o, position.x)
        avoided = sum(cell_bit(parse_coordinate(c, board)) for c in avoid.split())
        return format_coordinate(threat_move(board, own, other, avoid=avoided).bit_length(), board)

    assert move("") == "h8"  # the centre serves the most lines
    assert move("h8,a1,h9,a2,h10,a3,h11,a15") in ("h7", "h12")  # X completes five
    assert move("h8,a1,h9,a2,h10,a3,h11,a15") == "h12"  # the lowest cell number of the two: the higher row
    assert move("h8,a1,h9,a2,h10,a3,h11") in ("h7", "h12")  # O blocks one end (the other end wins for X anyway)
    # a fork: X's lines of three through h10 (h8 h9 on the file, f10 g10 on the rank) make two fours at once
    assert move("h8,a1,h9,a2,f10,a3,g10,a15") == "h10"
    assert move("", avoid="h8") != "h8"  # a cell proven to lose is left while another is free
    assert move("", avoid=" ".join(format_coordinate(c, geometry) for c in range(1, 226) if c != 7)) == "g15"
    assert threat_move(geometry, geometry.full, 0) == 0  # a full board: nothing to play


@pytest.mark.parametrize("name", ["3x3k3", "3x3k3-misere", "3x4k3", "3x4k3-misere"])
def test_the_threat_player_never_misses_a_win_nor_hands_one_over_in_one(name):
    """On every position in play: under the normal rule it completes a line when it can, else blocks a single
    threat; under misère it never completes its own line while another move is left."""
    from workbench.engine.graph import state_graph
    from workbench.engine.threats import completions, threat_move

    geometry = parse_variant(name)
    for key in state_graph(geometry).keys():
        position = Position(key & geometry.full, key >> geometry.size, geometry)
        if position.is_over:
            continue
        own, other = (position.x, position.o) if position.ply % 2 == 0 else (position.o, position.x)
        bit = threat_move(geometry, own, other)
        assert bit & position.empties and bit & (bit - 1) == 0
        mine, theirs = completions(geometry, own, other), completions(geometry, other, own)
        if geometry.misere:
            assert not bit & mine or not position.empties & ~mine, position
        elif mine:
            assert bit & mine, position
        elif theirs:
            assert bit & theirs, position


def test_the_class_key_is_shared_by_the_images_of_a_big_board_s_position():
    from workbench.engine.analysis import class_key
    from workbench.engine.symmetry import images

    geometry = parse_variant("15x15k5")
    position = _played("h8,i9,j9", geometry)
    keys = {class_key(image) for _, image in images(position)}
    assert len(keys) == 1
    assert class_key(_played("h8,i9,j10", geometry)) not in keys


def test_a_big_board_s_class_key_is_its_canonical_form_s_and_an_unreachable_position_is_refused_every_time():
    """The key is kept per position (the history asks for it at every node after every edit): what it keeps is the
    canonical form's key, and a refusal is never kept as an answer."""
    from workbench.engine.analysis import class_key
    from workbench.engine.position import IllegalPositionError
    from workbench.engine.symmetry import canonical

    geometry = parse_variant("15x15k5")
    position = _played("h8,i9,j9,a1", geometry)
    assert class_key(position) == class_key(position) == canonical(position).key
    two_xs = Position(x=0b11, o=0, geometry=geometry)  # X twice, O never: no game reaches it
    for _ in range(2):
        with pytest.raises(IllegalPositionError):
            class_key(two_xs)


@pytest.mark.parametrize("name", ["3x4k3", "3x4k3-misere"])
def test_a_win_proven_within_n_plies_is_a_win_in_at_most_n(name):
    """A new user's review: a searched board said "not proven yet" while a move was proven to win in 3. Where some
    moves are proven and the position is not, a proven winning move makes the position a win in at most its
    plies: held to the strong solution on searches stopped early, over many positions."""
    from workbench.engine.results import win_proven_within

    geometry = parse_variant(name)
    strong = solved(geometry)
    said = 0
    for position in _random_positions(geometry, 2, 40, seed=3) + _random_positions(geometry, 5, 40, seed=4):
        for nodes in (50, 400, 3000):
            record = search_record(search(position, max_nodes=nodes))
            moves = [(Value[m["value"].upper()] if m["value"] else None, m["remoteness"]) for m in record["moves"]]
            within = win_proven_within(moves)
            exact = analyze_strong(strong, position)
            if within is not None:
                said += record["value"] is None  # the case the words are for: the position itself not proven
                assert exact.value is Value.WIN and exact.remoteness <= within
            if record["value"] is not None:  # proven: the bound, where there is one, is the exact figure
                assert within is None or record["value"] != "win" or within == record["remoteness"]
    assert said > 5  # the bound was said of unproven positions often enough to mean something
