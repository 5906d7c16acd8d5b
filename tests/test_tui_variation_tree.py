"""The variation tree's layout (``tree_lines``), a pure function of the store's tree: what it draws where; and the
tree in the History pane as drawn, cut to its width, in the rows the layout gives it."""

from hypothesis import given, settings, strategies as st
from rich.segment import Segment
from rich.style import Style

from workbench.state import ROOT, AppState, reduce
from workbench.state.actions import (
    Back,
    DeleteVariation,
    Forward,
    JumpTo,
    PlayCell,
    PromoteToMainLine,
    PromoteVariation,
    SetComment,
    ToStart,
)
from workbench.tui.app import WorkbenchApp
from workbench.tui.panes.variation_tree import (
    VariationTree,
    cut_to,
    is_variation,
    line_head,
    tree_lines,
    view_children,
    view_parent,
)

from .tui_helpers import moves, wait_ready

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
    """Each line as drawn, a move by its cell (``( `` before a variation's first move, as the pane labels it)."""
    opening = {node: "( " if is_variation(tree, node) else "" for node in tree.nodes}
    labels = {node: opening[node] + str(tree.node(node).move or "start") for node in tree.nodes}
    return [line.guides + line.expander + labels[line.node] for line in tree_lines(tree, folded)]


NESTED = ([5, 1, 9, 3], [5, 1, 7], [5, 2, 8, 4], [5, 2, 8, 6], [1], [5, 3, 2])
"""Main line 5 1 9 3; 5 1 7 replaces 9; 5 2 8 4 and 5 3 2 replace 1, and 5 2 8 6 replaces 5 2 8 4; 1 replaces 5."""


def test_the_main_line_runs_down_a_column_and_each_variation_branches_from_the_move_it_replaces():
    assert _drawn(_tree(*NESTED)) == [
        "  start",  # the main line: one column, no guides
        "▼ 5",
        "└── ( 1",  # the variation 1 replaces 5: a branch from 5's first cell, right after it
        "▼ 1",
        "├── ( 2",  # two variations replace 1: the first ├──, the last └──
        "│     8",  # its own line runs on down a column inside the branch, the next branch's guide beside it
        "│   ▼ 4",
        "│   └── ( 6",  # a variation of the variation hangs from its move in the same way
        "└── ( 3",
        "      2",
        "▼ 9",
        "└── ( 7",
        "  3",  # the main line goes on below the branches of the move before
    ]


def test_a_fold_hides_the_branches_under_its_move_and_nothing_else():
    tree = _tree(*NESTED)
    one = tree.child_with_move(tree.child_with_move(ROOT, 5), 1)
    four = tree.child_with_move(tree.child_with_move(tree.child_with_move(tree.child_with_move(ROOT, 5), 2), 8), 4)
    assert _drawn(tree, frozenset({one})) == ["  start", "▼ 5", "└── ( 1", "▶ 1", "▼ 9", "└── ( 7", "  3"]
    assert _drawn(tree, frozenset({four}))[4:9] == ["├── ( 2", "│     8", "│   ▶ 4", "└── ( 3", "      2"]
    assert _drawn(tree, frozenset({ROOT})) == _drawn(tree)  # no branch hangs from the start: nothing to fold
    leaf = tree.main_line()[-1]
    assert _drawn(tree, frozenset({leaf})) == _drawn(tree)  # nothing nests under a leaf: no expander
    assert _drawn(_tree()) == ["  start"]
    assert _drawn(_tree([5, 1])) == ["  start", "  5", "  1"]


def test_a_line_s_moves_hang_from_the_move_their_variation_replaces():
    tree = _tree(*NESTED)
    five = tree.child_with_move(ROOT, 5)
    two = tree.child_with_move(five, 2)
    eight = tree.child_with_move(two, 8)
    one = tree.child_with_move(five, 1)
    assert line_head(tree, eight) == two and line_head(tree, tree.main_line()[-1]) == ROOT
    assert view_parent(tree, two) == view_parent(tree, eight) == one  # its fold hides them
    assert view_children(tree, one) == (two, tree.child_with_move(five, 3))
    assert view_parent(tree, one) is None and view_parent(tree, ROOT) is None
    assert view_children(tree, two) == () and view_children(tree, ROOT) == ()


@settings(max_examples=60)
@given(st.lists(edits, max_size=40))
def test_every_node_is_drawn_once_in_its_line_or_in_a_branch_under_the_move_it_replaces(actions):
    state = AppState()
    for action in actions:
        state = reduce(state, action)
    tree = state.tree
    lines = tree_lines(tree)
    assert sorted(line.node for line in lines) == sorted(tree.nodes)
    row = {line.node: y for y, line in enumerate(lines)}
    blocks = {"├── ", "└── ", "│   ", "    "}
    for y, line in enumerate(lines):
        parent = view_parent(tree, line.node)
        if parent is None:  # the main line: one column, no guides
            assert line.depth == 0 and line.node in tree.main_line() and not line.guides.strip()
        else:
            assert line_head(tree, line.node) in view_children(tree, parent)
            assert row[parent] < y and line.depth == lines[row[parent]].depth + 1  # below the move, a level in
        guides = line.guides[: 4 * line.depth]
        assert all(guides[i : i + 4] in blocks for i in range(0, len(guides), 4))
        assert (guides[-4:] in ("├── ", "└── ")) == is_variation(tree, line.node)  # only a variation opens a branch
        # every label of a line in one column: the expander's cells, or a blank gutter, or the variation's "( "
        assert len(line.guides + line.expander) == 4 * line.depth + (0 if is_variation(tree, line.node) else 2)
        children = tree.node(line.node).children
        if children:
            assert row[children[0]] > y  # the line goes on below, after the branches
    main = [line.node for line in lines if line.node in tree.main_line()]
    assert main == list(tree.main_line())  # the main line in order, top to bottom


def test_a_promoted_variation_changes_places_with_the_move_it_replaced():
    state = AppState()
    for action in (PlayCell(cell=5), PlayCell(cell=1), Back(), PlayCell(cell=3), PromoteVariation()):
        state = reduce(state, action)
    assert _drawn(state.tree) == ["  start", "  5", "▼ 3", "└── ( 1"]


def test_a_line_wider_than_the_box_is_cut_with_an_ellipsis_in_the_style_of_the_text_cut():
    comment = Style(italic=True)
    line = [Segment("└── ", None), Segment("( 1… 5!", None), Segment("  the centre holds", comment)]
    assert cut_to(line, 29) == line  # 29 cells: it fits
    assert cut_to(line, 28) == line[:2] + [Segment("  the centre hol…", comment)]
    assert cut_to(line, 12) == line[:2] + [Segment("…", comment)]  # the move whole, the comment a "…"
    assert cut_to(line, 6) == line[:1] + [Segment("(…", None)]
    assert cut_to(line, 0) == []


# --- in the app --------------------------------------------------------------------------------

COMMENT = "the centre holds and O draws from here"
STUDY = ["1", "2", "4", "7", "5", "9", "6", "home", "right", "5"]
"""Issue 40's study: the main line 1 2 4 7 5 9 6 (X wins), and 1… 5 a variation of 1… 2, which the comment is on."""


async def _play_the_study(pilot, app):
    await wait_ready(pilot, app)
    await pilot.press(*STUDY)
    app.store.dispatch(SetComment(text=COMMENT))
    await pilot.pause()
    return app.query_one(VariationTree)


def _shown(tree) -> list[str]:
    """The tree's rows as the screen shows them (scrolled), without trailing blanks."""
    box = tree.scrollable_content_region
    return [tree.render_line(y).text[: box.width].rstrip() for y in range(box.height)]


async def test_the_main_line_reads_as_a_line_and_the_last_move_shows_under_a_long_comment():
    """120×40: the comment is wider than the pane; it ends in "…" where it once brought a horizontal scrollbar over
    the last move, 4. 6 (with a blank row under it). Zoomed, the pane has the width for it whole."""
    app = WorkbenchApp()
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await _play_the_study(pilot, app)
        assert not tree.show_horizontal_scrollbar and tree.scrollable_content_region.width == 27
        assert _shown(tree) == [
            "  Start",
            "  1. 1",
            "▼ 1… 2??",
            "└── ( 1… 5!  the centre ho…",
            "  2. 4",
            "  2… 7",
            "  3. 5!",
            "  3… 9",
            "  4. 6!",
        ]
        assert tree.label(app.store.state.cursor) == f"( 1… 5!  {COMMENT}"  # the label itself is whole
        app.screen.maximize(app.query_one("#history"), container=False)  # `z`
        await pilot.pause()
        assert _shown(tree)[3] == f"└── ( 1… 5!  {COMMENT}"


async def test_at_80x24_the_tree_has_four_rows_and_the_other_panes_keep_theirs():
    app = WorkbenchApp()
    async with app.run_test(size=(80, 24)) as pilot:
        tree = await _play_the_study(pilot, app)
        assert not tree.show_horizontal_scrollbar and tree.scrollable_content_region.height == 4
        assert _shown(tree) == ["  Start", "  1. 1", "▼ 1… 2??", "└── ( 1… 5!  the centre ho…"]  # the lit line in view
        await pilot.press("home", "end")  # the main line's last move
        assert _shown(tree) == ["  2… 7", "  3. 5!", "  3… 9", "  4. 6!"]  # scrolled to the last move
        panes = ("board", "evaluation", "symmetry", "history")
        heights = {name: app.query_one(f"#{name}").outer_size.height for name in panes}
        assert heights == {"board": 15, "evaluation": 15, "symmetry": 8, "history": 8}


async def test_a_click_on_a_moves_expander_folds_its_branches_and_minus_unfolds_them():
    app = WorkbenchApp()
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await _play_the_study(pilot, app)
        tree.focus()
        await pilot.click(VariationTree, offset=(0, 2))  # 1… 2's ▼, in the first column
        await pilot.pause()
        assert moves(app) == (1, 2)  # the fold hid the board's line: the board goes to the folded move
        assert _shown(tree)[2:4] == ["▶ 1… 2??", "  2. 4"]
        await pilot.press("minus")
        assert _shown(tree)[2:4] == ["▼ 1… 2??", "└── ( 1… 5!  the centre ho…"]
        await pilot.click(VariationTree, offset=(6, 3))  # a label: a jump
        await pilot.pause()
        assert moves(app) == (1, 5)
        await pilot.press("minus")  # from inside a branch: the move it hangs from folds
        assert moves(app) == (1, 2) and _shown(tree)[2] == "▶ 1… 2??"
        await pilot.press("minus", "end", "minus")  # a move of the main line with no variation: nothing to fold
        await pilot.pause()
        assert moves(app) == (1, 2, 4, 7, 5, 9, 6) and len(tree.lines) == 9
        assert [(n.message, n.timeout) for n in app._notifications][-1] == ("No variation here to fold.", 2)


def test_a_tree_given_no_study_yet_labels_nothing():
    from workbench.tui.panes.variation_tree import VariationTree

    tree = VariationTree()
    assert tree.lines == () and tree.label(0) == "" and tree.line_of(0) is None


async def test_a_move_played_again_after_its_undo_reuses_the_labels_of_the_equal_tree_and_another_does_not():
    """Playing 9, undoing it and playing 9 again makes an equal tree, not the same object: its labels are the ones
    made for the first (no second making), and they are what a fresh making gives. Another move is labelled anew."""
    import tempfile

    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        tree_view = app.query_one(VariationTree)
        await pilot.press("5", "1", "9")
        await pilot.pause()
        first_tree, first_labels = app.store.state.tree, tree_view._labels
        await pilot.press("ctrl+z", "9")
        await pilot.pause()
        again = app.store.state.tree
        assert again is not first_tree and again == first_tree
        assert tree_view._labels is first_labels
        tree_view._kept_labels, tree_view._shown = [], (None, None)  # made afresh
        tree_view._update(app.store.state)
        assert tree_view._labels is not first_labels and tree_view._labels == first_labels
        made = tree_view._labels
        await pilot.press("ctrl+z", "3")
        await pilot.pause()
        assert tree_view._labels is not made and tree_view._labels is not first_labels
        assert any(tree_view.label(node).endswith("3") for node in app.store.state.tree.walk())
