"""The variation tree's layout (``tree_lines``), a pure function of the store's tree: what it draws where."""

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.state import ROOT, AppState, reduce
from workbench.state.actions import (
    Back,
    DeleteVariation,
    Forward,
    JumpTo,
    PlayCell,
    PromoteToMainLine,
    PromoteVariation,
    ToStart,
)  # fmt: skip
from workbench.tui.panes.variation_tree import tree_lines, view_children, view_parent

edits = st.one_of(
    st.integers(1, 9).map(lambda cell: PlayCell(cell=cell)),
    st.sampled_from([Back(), Back(), Forward(), ToStart(), PromoteVariation(), PromoteToMainLine(), DeleteVariation()]),
)
"""Moves, steps back and edits: random trees of variations nested in variations."""


def _tree(*lines):
    """A tree holding each line of moves from the start, the first the main line."""
    state = AppState()
    for line in lines:
        state = reduce(state, JumpTo(node=ROOT))
        for cell in line:
            state = reduce(state, PlayCell(cell=cell))
    return state.tree


def _drawn(tree, folded=frozenset()):
    labels = {node_id: str(tree.node(node_id).move or "start") for node_id in tree.nodes}
    return [line.guides + line.expander + labels[line.node] for line in tree_lines(tree, folded)]


def test_the_main_line_runs_flat_and_each_variation_nests_under_the_move_it_replaces():
    # main 5 1 9 3; 5 1 7 replaces 9; 5 2 replaces 1, and 5 2 8 6 replaces 5 2 8 4; 1 replaces the opening 5
    tree = _tree([5, 1, 9, 3], [5, 1, 7], [5, 2, 8, 4], [5, 2, 8, 6], [1])
    assert _drawn(tree) == [
        "▼ start",
        "├── ▼ 5",
        "│   └── 1",  # the variation 1 hangs under 5, its own line flat below it
        "├── ▼ 1",
        "│   └── ▼ 2",
        "│       ├── 8",
        "│       └── ▼ 4",
        "│           └── 6",
        "├── ▼ 9",
        "│   └── 7",
        "└── 3",
    ]


def test_a_fold_hides_what_nests_under_it_and_nothing_else():
    tree = _tree([5, 1, 9, 3], [5, 1, 7], [5, 2, 8, 4], [5, 2, 8, 6], [1])
    one = tree.child_with_move(tree.child_with_move(ROOT, 5), 1)
    assert _drawn(tree, frozenset({one})) == ["▼ start", "├── ▼ 5", "│   └── 1", "├── ▶ 1", "├── ▼ 9", "│   └── 7", "└── 3"]
    assert _drawn(tree, frozenset({ROOT})) == ["▶ start"]
    leaf = tree.main_line()[-1]
    assert _drawn(tree, frozenset({leaf})) == _drawn(tree)  # nothing nests under a leaf: no expander
    assert _drawn(_tree()) == ["start"]


@settings(max_examples=60, deadline=None)
@given(st.lists(edits, max_size=40))
def test_every_node_is_drawn_once_under_its_view_parent(actions):
    state = AppState()
    for action in actions:
        state = reduce(state, action)
    tree = state.tree
    lines = tree_lines(tree)
    assert sorted(line.node for line in lines) == sorted(tree.nodes)
    depth = {line.node: line.depth for line in lines}
    for y, line in enumerate(lines):
        parent = view_parent(tree, line.node)
        if parent is None:
            assert line.node == ROOT and y == 0 and line.guides == ""
            continue
        assert line.node in view_children(tree, parent) and depth[line.node] == depth[parent] + 1
        assert len(line.guides) == 4 * line.depth
        above = [other.node for other in lines[:y]]
        assert parent in above  # drawn below its parent
    main = [line.node for line in lines if line.node in tree.main_line()]
    assert main == list(tree.main_line())  # the main line in order, top to bottom


def test_a_promoted_variation_changes_places_with_the_move_it_replaced():
    state = AppState()
    for action in (PlayCell(cell=5), PlayCell(cell=1), Back(), PlayCell(cell=3), PromoteVariation()):
        state = reduce(state, action)
    assert _drawn(state.tree) == ["▼ start", "├── 5", "└── ▼ 3", "    └── 1"]


def test_a_tree_given_no_study_yet_labels_nothing():
    from workbench.tui.panes.variation_tree import VariationTree

    tree = VariationTree()
    assert tree.lines == () and tree.label(0) == "" and tree.line_of(0) is None
