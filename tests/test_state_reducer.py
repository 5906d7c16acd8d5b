"""Reducer, tree and store: every action and its edges."""

import pytest
from hypothesis import given, strategies as st

from workbench.engine import Geometry, Player, Position, parse_position
from workbench.state import (
    ROOT,
    AppState,
    EngineMode,
    GameTree,
    Store,
    annotation,
    choose_move,
    export_movetext,
    reduce,
    symmetric_twins,
    transpositions,
)
from workbench.state.actions import (
    AddLine,
    Back,
    DeleteVariation,
    Forward,
    Highlight,
    JumpTo,
    MarkSaved,
    NewGame,
    NextVariation,
    PlayCell,
    PreviousVariation,
    PromoteToMainLine,
    PromoteVariation,
    ReplaceTree,
    SetComment,
    SetEngine,
    SetOverlay,
    SetUpPosition,
    ToEnd,
    ToStart,
)


def play(state, *cells):
    for cell in cells:
        state = reduce(state, PlayCell(cell=cell))
    return state


@pytest.fixture
def branched():
    """5 1 9 with variations (3 …) at ply 2 and (2) at ply 3."""
    state = play(AppState(), 5, 1, 9)
    state = reduce(reduce(state, Back()), Back())
    state = play(state, 3, 7)
    state = reduce(reduce(state, ToStart()), Forward())
    state = reduce(state, Forward())
    state = play(state, 2)
    return state


def test_play_adds_then_reuses_a_child():
    state = play(AppState(), 5)
    assert state.position == Position.empty().play(5)
    again = play(reduce(state, Back()), 5)
    assert again.tree is state.tree and again.cursor == state.cursor


@pytest.mark.parametrize("cell", [0, 10, 5, "5", None])
def test_illegal_play_returns_the_same_state(cell):
    state = play(AppState(), 5)
    assert reduce(state, PlayCell(cell=cell)) is state


def test_add_line_adds_a_variation_and_keeps_the_cursor():
    state = reduce(play(AppState(), 5, 1, 9), ToStart())
    state = reduce(reduce(state, Forward()), MarkSaved())  # after 5, the study just saved
    added = reduce(state, AddLine(cells=(3, 7, 1)))  # 7 after 5 3 would be new, and so would 1
    assert added.cursor == state.cursor and added.modified  # a new line is an unsaved change
    main, variation = added.tree.node(state.cursor).children
    assert added.tree.moves_to(main) == (5, 1)
    assert added.tree.moves_to(added.tree.main_line(variation)[-1]) == (5, 3, 7, 1)
    assert reduce(added, AddLine(cells=(3, 7))) is added  # already there: nothing changes
    assert reduce(state, AddLine(cells=(1, 9))) is state  # the main line itself


@pytest.mark.parametrize("cells", [(3, 3), (3, 0), (3, 10), ("3",), (1, 4, 2, 7, 3, 9), [3, 7]])
def test_add_line_with_an_illegal_move_adds_nothing(cells):
    state = play(AppState(), 5)
    assert reduce(state, AddLine(cells=cells)) is state


def test_no_play_after_the_end():
    state = play(AppState(), 1, 4, 2, 5, 3)
    assert state.position.is_over
    assert reduce(state, PlayCell(cell=9)) is state


def test_stepping_past_either_end_changes_nothing(branched):
    start = reduce(branched, ToStart())
    assert start.cursor == ROOT
    assert reduce(start, Back()) is start
    assert reduce(start, ToStart()) is start
    end = reduce(start, ToEnd())
    assert export_movetext(end.tree).startswith("5 1")
    assert end.tree.node(end.cursor).children == ()
    assert reduce(end, Forward()) is end
    assert reduce(end, ToEnd()) is end


def test_empty_tree_edges():
    state = AppState()
    for action in (
        Back(),
        Forward(),
        ToStart(),
        ToEnd(),
        NextVariation(),
        PreviousVariation(),
        PromoteVariation(),
        PromoteToMainLine(),
        DeleteVariation(),
        NewGame(),
        MarkSaved(),
    ):
        assert reduce(state, action) is state, action


def test_forward_follows_the_main_line(branched):
    state = reduce(branched, ToStart())
    cells = []
    while (nxt := reduce(state, Forward())) is not state:
        state = nxt
        cells.append(state.tree.node(state.cursor).move)
    assert cells == [5, 1, 9]


def test_switching_variations_at_the_nearest_branch(branched):
    # cursor on the "2" variation after 5 1: siblings are 9 (main) and 2
    assert branched.tree.moves_to(branched.cursor) == (5, 1, 2)
    previous = reduce(branched, PreviousVariation())
    assert previous.tree.moves_to(previous.cursor) == (5, 1, 9)
    assert reduce(previous, PreviousVariation()) is previous
    back = reduce(previous, NextVariation())
    assert back.cursor == branched.cursor
    assert reduce(back, NextVariation()) is back


def test_switching_from_deep_inside_a_line_uses_the_branch_above(branched):
    state = reduce(branched, JumpTo(node=branched.tree.child_with_move(ROOT, 5)))
    state = play(state, 3, 7)  # deep in the (3 7) variation
    switched = reduce(state, PreviousVariation())
    assert switched.tree.moves_to(switched.cursor) == (5, 1)


def test_jump_to_unknown_node_is_ignored(branched):
    assert reduce(branched, JumpTo(node=999)) is branched
    assert reduce(branched, JumpTo(node=ROOT)).cursor == ROOT


def test_promote_one_step_and_to_main_from_deep_inside():
    state = play(AppState(), 5, 1)
    state = reduce(state, Back())
    state = play(state, 2)
    state = reduce(state, Back())
    state = play(state, 3, 7, 9)  # third variation at ply 1, three moves deep
    assert export_movetext(state.tree) == "5 1 (2) (3 7 9)"
    one = reduce(state, PromoteVariation())
    assert export_movetext(one.tree) == "5 1 (3 7 9) (2)"
    assert one.cursor == state.cursor and one.modified
    main = reduce(state, PromoteToMainLine())
    assert export_movetext(main.tree) == "5 3 (1) (2) 7 9"
    assert main.tree.is_main_line(main.cursor)
    assert reduce(main, PromoteToMainLine()) is main
    assert reduce(main, PromoteVariation()) is main


def test_promote_to_main_fixes_every_branch_on_the_path():
    state = play(AppState(), 5, 1)
    state = reduce(reduce(state, Back()), Back())
    state = play(state, 1, 5)  # variation at the root
    state = reduce(state, Back())
    state = play(state, 9)  # variation inside the variation
    assert export_movetext(state.tree) == "5 (1 5 (9)) 1"
    main = reduce(state, PromoteToMainLine())
    assert export_movetext(main.tree) == "1 (5 1) 9 (5)"
    assert main.tree.main_line()[-1] == main.cursor


def test_delete_variation_moves_the_cursor_to_the_parent(branched):
    parent = branched.tree.node(branched.cursor).parent
    state = reduce(branched, DeleteVariation())
    assert state.cursor == parent
    assert export_movetext(state.tree) == "5 1 (3 7) 9"


def test_deleting_the_current_main_line(branched):
    state = reduce(branched, JumpTo(node=branched.tree.child_with_move(ROOT, 5)))
    state = reduce(state, DeleteVariation())
    assert state.cursor == ROOT and state.tree.node(ROOT).children == ()
    assert len(state.tree.nodes) == 1


def test_set_up_position_starts_a_new_tree_from_it():
    position = parse_position("X../.O./...")
    state = reduce(play(AppState(), 5), SetUpPosition(position=position))
    assert state.tree.root_position == position and state.cursor == ROOT
    assert state.position.to_move is Player.X
    state = play(state, 9)
    assert state.tree.ply(state.cursor) == 3
    illegal = Position(0b111, 0b111000)
    assert reduce(state, SetUpPosition(position=illegal)) is state


def test_new_game_and_comments(branched):
    commented = reduce(branched, SetComment(text="  the edge reply  "))
    assert commented.tree.node(commented.cursor).comment == "the edge reply"
    assert reduce(commented, SetComment(text="the edge reply")) is commented
    assert reduce(commented, SetComment(text="x", node=12345)) is commented
    fresh = reduce(commented, NewGame())
    assert fresh.cursor == ROOT and len(fresh.tree.nodes) == 1 and fresh.modified


THREE_BY_FOUR = Geometry(3, 4, 3)


@pytest.mark.parametrize("geometry", [THREE_BY_FOUR, Geometry(misere=True), Geometry(2, 5, 3, misere=True)])
def test_a_new_game_of_another_variant_starts_its_empty_board(geometry):
    state = reduce(play(AppState(), 5, 1), Highlight(cell=9))
    fresh = reduce(state, NewGame(geometry=geometry))
    assert fresh.geometry == geometry and fresh.position == Position.empty(geometry)
    assert fresh.cursor == ROOT and len(fresh.tree.nodes) == 1 and fresh.modified
    assert fresh.view.highlighted is None  # cell 9 of 3x3 is no cell of every other board
    assert play(fresh, geometry.size).position.x == 1 << (geometry.size - 1)  # its last cell is playable
    # the same variant again, on its untouched board: nothing to change
    assert reduce(fresh, NewGame(geometry=geometry)) is fresh
    assert reduce(fresh, NewGame()) is fresh


def test_a_new_game_keeps_the_variant_being_played():
    """n on a 3x4 game starts a 3x4 game (it used to start a 3x3 tree under the 3x4 rules)."""
    state = play(AppState(geometry=THREE_BY_FOUR, tree=GameTree.new(Position.empty(THREE_BY_FOUR))), 6, 7)
    highlighted = reduce(state, Highlight(cell=11))
    fresh = reduce(highlighted, NewGame())
    assert fresh.geometry == THREE_BY_FOUR and fresh.position == Position.empty(THREE_BY_FOUR)
    assert fresh.view.highlighted == 11  # the same board: the cursor stays where it was
    assert reduce(fresh, NewGame(geometry=THREE_BY_FOUR)) is fresh


def test_undo_after_a_new_variant_brings_the_old_variant_back():
    store = Store(play(AppState(), 5))
    store.dispatch(NewGame(geometry=THREE_BY_FOUR))
    assert store.state.geometry == THREE_BY_FOUR
    store.undo()
    assert store.state.geometry == Geometry() and store.state.position.x == 1 << 4


def test_settings_actions():
    state = AppState()
    engine = reduce(state, SetEngine(mode=EngineMode.TRAP, side=Player.X))
    assert engine.engine.mode is EngineMode.TRAP and engine.engine.side is Player.X
    assert engine.engine_to_move
    assert reduce(engine, SetEngine(mode=EngineMode.TRAP)) is engine
    overlay = reduce(state, SetOverlay(overlay="values"))
    assert overlay.view.overlay == "values"
    assert reduce(overlay, SetOverlay(overlay="nonsense")) is overlay
    lit = reduce(state, Highlight(cell=5))
    assert lit.view.highlighted == 5
    assert reduce(lit, Highlight(cell=10)) is lit
    assert not lit.modified


def test_replace_tree_and_mark_saved():
    tree, node = GameTree.new().add_move(ROOT, 5)
    state = reduce(AppState(), ReplaceTree(tree=tree, cursor=node))
    assert state.cursor == node and state.modified
    saved = reduce(state, MarkSaved())
    assert not saved.modified and reduce(saved, MarkSaved()) is saved
    assert reduce(state, ReplaceTree(tree=tree, cursor=77)) is state


def test_annotations_mark_blunders_and_only_moves():
    state = play(AppState(), 5, 2)  # O's edge reply to the centre loses
    assert annotation(state.tree, state.cursor) == "??"
    state = play(AppState(), 1, 5, 9, 3)  # O's only good reply is an edge? 3 allows 7: a blunder
    assert annotation(state.tree, state.cursor) == "??"
    state = play(AppState(), 1)
    state = play(state, 5)  # the centre is O's only drawing reply to a corner
    assert annotation(state.tree, state.cursor) == "!"
    assert annotation(state.tree, ROOT) == ""
    state = play(AppState(), 4, 1, 5, 2)  # X wins at once with 6; 3 (a block) still wins, later
    assert annotation(play(state, 3).tree, play(state, 3).cursor) == "?!"
    assert annotation(play(state, 6).tree, play(state, 6).cursor) == ""  # best, but not the only win
    state = play(AppState(), 1, 4, 2, 5)  # X wins at 3; blocking at 6 instead only draws
    assert annotation(play(state, 6).tree, play(state, 6).cursor) == "??"


def test_annotations_agree_with_the_review_of_every_move_of_a_game():
    from workbench.engine.review import Rating, review_line

    for cells in [(5, 2, 1, 9, 3, 7, 4, 6, 8), (4, 1, 5, 2, 3, 6, 7), (1, 5, 9, 3, 7, 4, 8)]:
        state = play(AppState(), *cells)
        nodes = state.tree.path(state.cursor)[1:]
        for node_id, review in zip(nodes, review_line(state.tree.root_position, cells), strict=True):
            mark = annotation(state.tree, node_id)
            expected = {Rating.MISTAKE: ("??",), Rating.INACCURATE: ("?!",), Rating.BEST: ("", "!")}[review.rating]
            assert mark in expected, (cells, review)


def test_transpositions_and_symmetric_twins():
    state = play(AppState(), 1, 5, 9)
    first = state.cursor
    state = play(reduce(state, ToStart()), 9, 5, 1)
    second = state.cursor
    assert transpositions(state.tree, second) == (first,)
    assert symmetric_twins(state.tree, second) == ()
    state = play(reduce(state, ToStart()), 3, 5, 7)  # X on the other diagonal: a mirror image
    assert set(symmetric_twins(state.tree, state.cursor)) == {first, second}
    assert transpositions(state.tree, state.cursor) == ()


def test_engine_player_modes():
    state = play(AppState(), 5, 2)
    analysis = state.analysis
    assert choose_move(analysis, EngineMode.OFF) is None
    perfect = choose_move(analysis, EngineMode.PERFECT)
    assert analysis.move(perfect).value.label == "win"
    trap = choose_move(AppState().analysis, EngineMode.TRAP)
    assert trap == 1  # a corner: 7 of 8 replies lose
    import random

    assert choose_move(analysis, EngineMode.RANDOM, random.Random(3)) in state.position.legal_moves()


def test_store_notifies_once_per_change_and_undoes_tree_edits():
    store = Store()
    seen = []
    unsubscribe = store.subscribe(lambda old, new: seen.append((old, new)))
    store.dispatch(PlayCell(cell=5))
    store.dispatch(PlayCell(cell=10))  # illegal: no change, no call
    store.dispatch(Back())
    assert len(seen) == 2 and seen[0][1] is seen[1][0]
    store.dispatch(Forward())
    store.dispatch(PlayCell(cell=1))
    assert store.state.tree.moves_to(store.state.cursor) == (5, 1)
    store.undo()
    assert store.state.tree.moves_to(store.state.cursor) == (5,)
    assert len(store.state.tree.nodes) == 2
    store.redo()
    assert store.state.tree.moves_to(store.state.cursor) == (5, 1)
    unsubscribe()
    store.dispatch(Back())
    assert len(seen) == 6
    assert not Store().can_undo


# --- a board searched move by move (above 16 cells): what the searches found lives in the state ------------------

GOMOKU = Geometry(15, 15, 5)


def _searched_state(*cells):
    from workbench.state.actions import PlayCell as Play

    state = reduce(AppState(), NewGame(geometry=Geometry(5, 5, 4)))
    for cell in cells:
        state = reduce(state, Play(cell=cell))
    return state


def test_a_search_s_finds_are_kept_per_position_and_read_by_the_analysis():
    from workbench.engine.search import search
    from workbench.state.actions import SearchFound

    state = _searched_state(13, 7, 8, 9, 12)
    assert state.analysis.value is None and all(move.value is None for move in state.analysis.moves)
    partial = search(state.position, max_nodes=100)
    assert 0 < sum(move.proven for move in partial.moves) < len(partial.moves)
    running = reduce(state, SearchFound(result=partial, running=True))
    assert running.searching == state.position and running.search_of(state.position) is partial
    assert {m.cell: m.value for m in running.analysis.moves} == {m.cell: m.value for m in partial.moves}
    assert reduce(running, SearchFound(result=partial, running=True)) is running  # nothing new: the same state
    stopped = reduce(running, SearchFound(result=partial, running=False))
    assert stopped.searching is None and stopped.search_of(state.position) is partial
    whole = search(state.position, max_nodes=10**8)
    done = reduce(stopped, SearchFound(result=whole, running=False))
    assert done.analysis.proven and done.analysis.value == whole.value and len(done.searches) == 1
    back = reduce(done, Back())  # stepping away keeps the finds: coming back shows them at once
    assert back.search_of(state.position) is whole and reduce(back, Forward()).analysis.value == whole.value


def test_finds_of_another_board_are_ignored_and_a_new_board_forgets_them():
    from workbench.engine.search import search
    from workbench.state.actions import SearchFound

    state = _searched_state(13)
    other = Position.empty(GOMOKU).play(113)
    assert reduce(state, SearchFound(result=search(other, max_nodes=50), running=True)) is state
    found = reduce(state, SearchFound(result=search(state.position, max_nodes=50), running=True))
    same_board = reduce(found, NewGame())
    assert same_board.searches == found.searches  # the same board: what was proven stays true
    fresh = reduce(found, NewGame(geometry=GOMOKU))
    assert fresh.searches == () and fresh.searching is None
    store = Store(state)  # undo back to another board forgets them too: nothing searching on the board shown
    store.dispatch(NewGame(geometry=GOMOKU))
    store.dispatch(SearchFound(result=search(store.state.position, max_nodes=50), running=True))
    assert store.state.searching == Position.empty(GOMOKU)
    store.undo()
    assert store.state.geometry == state.geometry and store.state.searches == () and store.state.searching is None


def test_the_end_of_an_older_search_leaves_a_newer_one_shown_running():
    """A search of one position ends (stopped, because the user stepped on) after the search of the next has
    started: that one is still running, and the state still says so."""
    from workbench.engine.search import SearchResult
    from workbench.state.actions import SearchFound

    state = reduce(AppState(), NewGame(geometry=GOMOKU))
    older, newer = Position.empty(GOMOKU), Position.empty(GOMOKU).play(113)
    state = reduce(state, SearchFound(result=SearchResult(newer, (), 10, False), running=True))
    ended = reduce(state, SearchFound(result=SearchResult(older, (), 99, False), running=False))
    assert ended.searching == newer and ended.search_of(older).nodes == 99
    assert reduce(ended, SearchFound(result=SearchResult(newer, (), 20, False), running=False)).searching is None


def test_the_state_keeps_the_latest_searches_only():
    from workbench.engine.search import SearchResult
    from workbench.state.actions import SearchFound
    from workbench.state.app_state import KEPT_SEARCHES

    state = reduce(AppState(), NewGame(geometry=GOMOKU))
    positions = [Position.empty(GOMOKU).play(cell) for cell in range(1, KEPT_SEARCHES + 6)]
    for position in positions:
        state = reduce(state, SearchFound(result=SearchResult(position, (), 1, False), running=False))
    assert len(state.searches) == KEPT_SEARCHES
    assert state.search_of(positions[0]) is None and state.search_of(positions[-1]) is not None


def test_the_engine_plays_a_proven_win_else_the_threat_player_s_move_avoiding_proven_losses():
    from workbench.engine import Value
    from workbench.engine.search import MoveResult, SearchResult
    from workbench.state.actions import SearchFound

    state = _searched_state(13, 1, 14, 2)  # X has c3 d3 (13, 14); O a5 b5
    position = state.position
    legal = position.legal_moves()

    def with_found(values: dict) -> AppState:
        moves = tuple(MoveResult(c, *values.get(c, (None, None)), 1) for c in legal)
        return reduce(state, SearchFound(result=SearchResult(position, moves, 9, False), running=False))

    threat = choose_move(state.analysis, EngineMode.PERFECT)
    assert threat in (12, 15)  # no proof yet: the threat player extends X's two into three, open at both ends
    assert choose_move(with_found({24: (Value.WIN, 9), 3: (Value.WIN, 5)}).analysis, EngineMode.PERFECT) == 3
    losing = {cell: (Value.LOSS, 4) for cell in (12, 15)}
    assert choose_move(with_found(losing).analysis, EngineMode.TRAP) not in (12, 15)
    assert choose_move(with_found(losing).analysis, EngineMode.RANDOM, __import__("random").Random(1)) in legal


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 16)), max_size=40), st.randoms(use_true_random=False))
def test_a_tree_keeps_each_node_s_position_as_replaying_its_moves_makes_it(edits, rng):
    """A tree keeps the positions it was asked for (a step asks for the cursor's): asked in any order, before or
    after edits, each is the root's position with the node's moves played; what it keeps changes no comparison."""
    from workbench.state import ROOT

    geometry = Geometry(4, 4, 4)
    tree = GameTree.new(Position.empty(geometry))
    for pick, cell in edits:
        node_ids = list(tree.walk())
        node_id = node_ids[pick % len(node_ids)]
        rng.choice([lambda: None, lambda: tree.position(rng.choice(node_ids))])()
        position = tree.position(node_id)
        if not position.is_over and cell in position.legal_moves():
            tree, _ = tree.add_move(node_id, cell)
        elif node_id != ROOT and rng.random() < 0.2:
            gone = tree.subtree(node_id)
            tree = tree.without_subtree(node_id)
            for removed in gone:
                with pytest.raises(KeyError):
                    tree.position(removed)  # known before, it is not kept: the node is gone
        elif rng.random() < 0.5:
            tree = tree.with_comment(node_id, str(cell))
        else:
            children = tree.node(node_id).children
            tree = tree.with_children_order(node_id, tuple(reversed(children)))
        if node_id in tree:  # an edit keeps the positions the tree knew (ids are never reused)
            assert tree.position(node_id) is position
    fresh = GameTree(root_position=tree.root_position, nodes=tree.nodes, next_id=tree.next_id)
    node_ids = list(tree.walk())
    rng.shuffle(node_ids)
    for node_id in node_ids:
        assert tree.position(node_id) == tree.root_position.play_all(tree.moves_to(node_id))
    assert fresh == tree and repr(fresh) == repr(tree)


# --- the board's answers travel with the state (issue 51: nothing installed anywhere) ------------------------------


def test_the_board_s_answers_go_with_the_state_and_leave_with_its_board():
    from workbench.engine.analysis import answers_of
    from workbench.state import AppState, reduce
    from workbench.state.actions import LoadState, NewGame, UseAnswers

    classic = answers_of(Geometry())
    state = reduce(AppState(), UseAnswers(answers=classic))
    assert state.answers is classic and state.board_answers is classic
    assert reduce(state, UseAnswers(answers=classic)) is state  # in use already
    assert reduce(state, UseAnswers(answers=answers_of(Geometry(misere=True)))) is state  # another board's
    played = reduce(state, PlayCell(cell=4))
    assert played.answers is classic  # a move keeps them
    other = reduce(played, NewGame(geometry=Geometry(misere=True)))
    assert other.answers is None and other.board_answers is answers_of(Geometry(misere=True))  # the engine's own
    assert reduce(played, NewGame()).answers is classic  # a new game of the same board
    assert reduce(played, LoadState(state=AppState())).answers is classic  # a study of the same board
    assert reduce(played, LoadState(state=AppState(geometry=Geometry(misere=True)))).answers is None


def test_the_store_gives_a_state_of_another_board_its_answers_where_they_are_at_hand_and_undo_takes_them_back():
    from workbench.engine.analysis import answers_of
    from workbench.state import Store
    from workbench.state.actions import NewGame, UseAnswers

    misere = Geometry(misere=True)
    asked = []

    def at_hand(geometry):
        asked.append(geometry)
        return answers_of(geometry) if geometry == misere else None

    store = Store(answers_at_hand=at_hand)
    classic = answers_of(Geometry())
    store.dispatch(UseAnswers(answers=classic))
    store.dispatch(PlayCell(cell=4))
    assert asked == []  # the same board: nothing asked
    seen = []
    store.subscribe(lambda old, new: seen.append(new.answers))
    store.dispatch(NewGame(geometry=misere))
    assert store.state.answers is answers_of(misere) and seen == [answers_of(misere)]  # with its first state
    store.undo()
    assert store.state.geometry == Geometry() and store.state.answers is classic  # the answers of then
    store.dispatch(NewGame(geometry=Geometry(3, 4, 3)))
    assert store.state.answers is None and asked == [misere, Geometry(3, 4, 3)]  # not at hand: the app makes them
