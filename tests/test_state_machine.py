"""Random action sequences: the reducer never raises and the invariants hold."""

import tempfile
from pathlib import Path

from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from workbench.engine import Geometry, Player, Position, check_legal
from workbench.state import OVERLAYS, AppState, EngineMode, Store, load_study, reduce, save_study
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
    SearchFound,
    SetComment,
    SetEngine,
    SetOverlay,
    SetUpPosition,
    ToEnd,
    ToStart,
)
from workbench.state.app_state import KEPT_SEARCHES

simple_actions = st.sampled_from(
    [
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
    ]
)


class ReducerMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.store = Store(AppState())
        self.folder = Path(tempfile.mkdtemp())

    def apply(self, action):
        before = self.store.state
        after = reduce(before, action)  # must never raise
        assert reduce(before, action) == after  # pure: same input, same output
        self.store.dispatch(action)

    @rule(cell=st.integers(min_value=-1, max_value=11))
    def play(self, cell):
        self.apply(PlayCell(cell=cell))

    @rule(cells=st.lists(st.integers(min_value=-1, max_value=11), max_size=6))
    def add_line(self, cells):
        before = self.store.state
        self.apply(AddLine(cells=tuple(cells)))
        after = self.store.state
        assert after.cursor == before.cursor
        if after is not before:  # all of it was added: the line now runs from the cursor
            node = after.cursor
            for cell in cells:
                node = after.tree.child_with_move(node, cell)
                assert node is not None

    @rule(action=simple_actions)
    def step(self, action):
        self.apply(action)

    @rule(node=st.integers(min_value=-1, max_value=40))
    def jump(self, node):
        self.apply(JumpTo(node=node))

    @rule(text=st.text(max_size=12))
    def comment(self, text):
        self.apply(SetComment(text=text))

    @rule(x=st.integers(0, 511), o=st.integers(0, 511))
    def set_up(self, x, o):
        self.apply(SetUpPosition(position=Position(x, o)))

    @rule(mode=st.sampled_from(list(EngineMode)), side=st.sampled_from([Player.X, Player.O, None]))
    def engine(self, mode, side):
        self.apply(SetEngine(mode=mode, side=side))

    @rule(overlay=st.sampled_from([*OVERLAYS, "bogus"]), cell=st.none() | st.integers(-1, 11))
    def view(self, overlay, cell):
        self.apply(SetOverlay(overlay=overlay))
        self.apply(Highlight(cell=cell))

    @rule(
        geometry=st.sampled_from(
            [Geometry(), Geometry(misere=True), Geometry(3, 4, 3), Geometry(2, 2, 2), Geometry(5, 5, 4)]
        )
    )
    def new_variant(self, geometry):
        self.apply(NewGame(geometry=geometry))
        assert self.store.state.geometry == geometry

    @rule(nodes=st.integers(1, 400), running=st.booleans())
    def search_found(self, nodes, running):
        """What a search (on a board above 16 cells: 5×5 here) reports; on the other boards it is ignored."""
        from workbench.engine.search import search

        position = self.store.state.position
        if position.is_over:
            return
        result = search(position, max_nodes=nodes)
        before = self.store.state
        self.apply(SearchFound(result=result, running=running))
        after = self.store.state
        assert after.search_of(position) == result and after.tree is before.tree and after.cursor == before.cursor
        # a search that ends clears the flag of its own position only: one of another position started since
        assert after.searching == (
            position if running else (None if before.searching == position else before.searching)
        )

    @rule()
    def undo_redo(self):
        self.store.undo()
        self.store.redo()
        self.store.undo()

    @rule()
    def save_and_open(self):
        state = self.store.state
        path = self.folder / "study.json"
        save_study(state, path)
        loaded = load_study(path)
        assert loaded.tree == state.tree
        assert (loaded.cursor, loaded.engine, loaded.view.overlay) == (state.cursor, state.engine, state.view.overlay)

    @invariant()
    def the_analysis_claims_only_what_was_proven(self):
        state = self.store.state
        analysis = state.analysis
        assert len(state.searches) <= KEPT_SEARCHES
        # what was searched is of the board on (a new board, or undo back to another, forgets the rest)
        assert all(found.position.geometry == state.geometry for found in state.searches)
        assert state.searching is None or state.searching.geometry == state.geometry
        found = state.search_of(state.position)
        if state.searched and analysis.to_move is not None:
            proven = {m.cell: m.value for m in found.moves if m.proven} if found is not None else {}
            assert {m.cell: m.value for m in analysis.moves if m.value is not None} == proven
            assert (analysis.value is not None) == (found is not None and found.complete)

    @invariant()
    def cursor_is_a_node(self):
        state = self.store.state
        assert state.cursor in state.tree.nodes

    @invariant()
    def the_tree_is_played_under_the_state_s_rules(self):
        state = self.store.state
        assert state.tree.root_position.geometry == state.geometry
        assert state.view.highlighted is None or state.geometry.contains(state.view.highlighted)

    @invariant()
    def every_node_is_legal_and_reached_by_its_moves(self):
        tree = self.store.state.tree
        check_legal(tree.root_position)
        for node_id in tree.walk():
            node = tree.node(node_id)
            position = tree.position(node_id)  # replays the moves from the root: raises if illegal
            check_legal(position)
            for child in node.children:
                assert tree.node(child).parent == node_id
            moves = [tree.node(child).move for child in node.children]
            assert len(moves) == len(set(moves))
        assert set(tree.walk()) == set(tree.nodes)


ReducerMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=30)
TestReducerMachine = ReducerMachine.TestCase
