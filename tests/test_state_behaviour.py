"""What the user sees of the state: the unsaved mark, the engine's choices, the order of variations."""

import json
import random

import pytest

from workbench.engine import Geometry, analyze, parse_position
from workbench.state import AppState, EngineMode, Store, StudyError, choose_move, export_movetext, load_study, reduce
from workbench.state.actions import (
    Back,
    DeleteVariation,
    LoadState,
    MarkSaved,
    NewGame,
    PlayCell,
    PromoteToMainLine,
    PromoteVariation,
    ReplaceTree,
    SetComment,
    SetUpPosition,
)
from workbench.state.study import dumps_study, save_study, study_from_data
from workbench.state.tree import ROOT, GameTree, MoveTextError, annotation, import_movetext

from .child_process import run_child
from .states import played


def saved(state):
    return reduce(state, MarkSaved())


@pytest.mark.parametrize(
    "action",
    [PlayCell(cell=9), NewGame(), SetComment(text="hm"), SetUpPosition(position=parse_position("X../.../..."))],
)
def test_every_edit_marks_the_study_unsaved(action):
    state = saved(played(5, 1))
    assert not state.modified
    assert reduce(state, action).modified


def test_promoting_and_deleting_mark_the_study_unsaved():
    state = saved(reduce(reduce(played(5, 1), Back()), PlayCell(cell=3)))
    assert reduce(state, PromoteVariation()).modified
    assert reduce(state, PromoteToMainLine()).modified
    assert reduce(state, DeleteVariation()).modified


def test_stepping_back_is_not_an_edit():
    state = saved(played(5, 1))
    assert not reduce(state, Back()).modified


def test_undo_and_redo_bring_back_an_unsaved_tree():
    store = Store(saved(played(5, 1)))
    store.dispatch(NewGame())
    store.dispatch(MarkSaved())
    store.undo()
    assert store.state.modified and store.state.tree.moves_to(store.state.cursor) == (5, 1)
    store.dispatch(MarkSaved())
    store.redo()
    assert store.state.modified and store.state.tree.moves_to(store.state.cursor) == ()


def test_a_store_starts_from_the_state_it_is_given_or_a_new_game():
    given = played(5)
    assert Store(given).state is given
    fresh = Store().state
    assert fresh.tree.moves_to(fresh.cursor) == () and not fresh.modified


def four_variations_at_the_root():
    state = AppState()
    for cell in (1, 2, 3, 4):
        state = reduce(reduce(state, PlayCell(cell=cell)), Back())
    return state


def test_promoting_moves_a_variation_one_step_up_and_to_the_main_line():
    state = reduce(four_variations_at_the_root(), PlayCell(cell=3))  # reuses the 3 variation
    assert export_movetext(state.tree) == "1 (2) (3) (4)"
    once = reduce(state, PromoteVariation())
    assert export_movetext(once.tree) == "1 (3) (2) (4)"
    assert export_movetext(reduce(once, PromoteVariation()).tree) == "3 (1) (2) (4)"
    assert export_movetext(reduce(state, PromoteToMainLine()).tree) == "3 (1) (2) (4)"


def test_the_main_line_is_first_children_all_the_way_down():
    tree = import_movetext("5 (1 9 (7) 3) 2")
    for moves, main in [
        ((5,), True),
        ((5, 2), True),
        ((1,), False),
        ((1, 9), False),
        ((1, 7), False),
        ((1, 9, 3), False),
    ]:
        node = ROOT
        for cell in moves:
            node = next(child for child in tree.node(node).children if tree.node(child).move == cell)
        assert tree.is_main_line(node) is main, moves


def test_comments_with_braces_survive_export_and_import():
    state = reduce(AppState(), SetComment(text="about the {start}"))
    state = reduce(played(5, state=state), SetComment(text="centre}"))
    text = export_movetext(state.tree)
    assert text == "{about the {start}}} 5 {centre}}}"  # a closing brace written twice, not made a ")"
    assert import_movetext(text) == state.tree and export_movetext(import_movetext(text)) == text


def analysis_of(text):
    return analyze(parse_position(text))


def test_perfect_play_takes_the_first_best_move():
    # after 5 1 X has two best moves (3 and 7 would not win fastest): the lowest best cell is played
    analysis = analysis_of("O../.X./...")
    best = [move.cell for move in analysis.moves if analysis.masks.best >> (move.cell - 1) & 1]
    assert choose_move(analysis, EngineMode.PERFECT) == best[0] and len(best) > 1


def test_the_trap_setter_picks_the_best_move_whose_replies_most_often_lose():
    analysis = analysis_of(".../.X./...")  # O to move after the centre: four corners draw, edges lose
    best = [move for move in analysis.moves if analysis.masks.best >> (move.cell - 1) & 1]
    top = max(move.trap for move in best)
    expected = min(move.cell for move in best if move.trap == top)
    assert choose_move(analysis, EngineMode.TRAP) == expected
    assert {move.cell for move in best} == {1, 3, 7, 9}


def test_the_trap_setter_plays_a_win_at_once():
    analysis = analysis_of("XX./OO./...")  # X wins on 3 now; the trap score of a finishing move is moot
    assert choose_move(analysis, EngineMode.TRAP) == 3


def test_random_play_uses_the_given_generator_and_any_legal_move():
    analysis = analysis_of("X../.O./...")
    legal = [move.cell for move in analysis.moves]
    picks = [choose_move(analysis, EngineMode.RANDOM, random.Random(seed)) for seed in range(40)]
    assert set(picks) == set(legal)  # worse moves too, not only the best
    assert picks == [choose_move(analysis, EngineMode.RANDOM, random.Random(seed)) for seed in range(40)]
    assert choose_move(analysis, EngineMode.RANDOM) in legal  # and without one
    assert choose_move(analysis, EngineMode.OFF) is None
    assert choose_move(analysis_of("XXX/OO./..."), EngineMode.PERFECT) is None  # the game is over


def good_data():
    state = reduce(played(5, 1, 9), SetComment(text="x"))
    return json.loads(dumps_study(state))


def test_settings_missing_from_a_file_take_their_defaults():
    data = good_data()
    for key in ("engine", "view"):
        data.pop(key, None)
    for node in data["nodes"]:
        node.pop("comment", None)
    state = study_from_data(data)
    assert (state.engine.mode, state.engine.side.value, state.view.overlay) == (EngineMode.OFF, "O", "none")
    assert all(state.tree.node(node_id).comment == "" for node_id in state.tree.walk())


def test_the_board_shape_comes_from_the_file(tmp_path):
    data = good_data()
    data["geometry"] = {"rows": 3, "cols": 4, "k": 3, "misere": False}
    data["root"] = "..../..../...."
    state = study_from_data(data)
    assert state.geometry == Geometry(3, 4, 3) and state.tree.root_position.geometry == Geometry(3, 4, 3)
    data["geometry"] = {"rows": 3, "cols": 3, "k": 2, "misere": False}
    data["root"] = "XX./OO./..."  # both sides have two in a row: no game with k=2 gets here
    with pytest.raises(StudyError, match="both sides have a line"):
        study_from_data(data)


@pytest.mark.parametrize(
    "field, value, reason",
    [
        ("id", "one", 'node 2 of "nodes": "id" must be an integer, not a string \'one\''),
        ("parent", 0.5, 'node 1: "parent" must be an integer or null, not a number 0.5'),
        ("children", ["2"], "node 1: \"children\" holds a string '2', not a node id"),
    ],
)
def test_a_node_field_of_the_wrong_type_is_named(tmp_path, field, value, reason):
    data = good_data()
    data["nodes"][1][field] = value
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    with pytest.raises(StudyError) as caught:
        load_study(path)
    assert str(caught.value) == f"cannot open {str(path)!r}: {reason}"


def test_next_id_must_exceed_every_node():
    data = good_data()
    data["next_id"] = max(node["id"] for node in data["nodes"])
    with pytest.raises(StudyError, match=f'"next_id" {data["next_id"]} must exceed every node id'):
        study_from_data(data)


def test_the_first_repeated_sibling_move_is_named():
    data = good_data()
    nodes = {node["id"]: node for node in data["nodes"]}
    nodes[2]["children"] = [3, 10, 11]
    data["nodes"] += [
        {"id": 10, "parent": 2, "move": 4, "children": []},
        {"id": 11, "parent": 2, "move": 4, "children": []},
    ]
    data["next_id"] = 12
    with pytest.raises(StudyError, match="^node 2 has two children that play 4$"):
        study_from_data(data)


def test_nodes_cut_off_from_the_root_are_listed_up_to_five():
    data = good_data()
    data["nodes"] += [
        {"id": i, "parent": i - 1 if i > 20 else None, "move": 2, "children": [i + 1] if i < 26 else []}
        for i in range(20, 27)
    ]
    data["nodes"][-7]["parent"] = 26  # 20 hangs from 26: a loop of seven, cut off from the root
    data["nodes"][-1]["children"] = [20]
    data["next_id"] = 30
    with pytest.raises(StudyError, match=r"^nodes \[20, 21, 22, 23, 24\] do not hang from the root$"):
        study_from_data(data)


def test_a_save_writes_a_hidden_temporary_beside_the_file_first(tmp_path, monkeypatch):
    import os

    seen = []
    real_fsync = os.fsync

    def look(fd):
        seen.extend(sorted(path.name for path in tmp_path.iterdir()))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", look)
    save_study(played(5), tmp_path / "study.json")
    temporary = [name for name in seen if name != "study.json"]
    assert len(temporary) == 1 and temporary[0].startswith(".study.json.") and temporary[0].endswith(".tmp")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["study.json"]


def test_a_study_saved_by_a_bare_file_name_lands_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_study(played(5), "bare.json")
    assert load_study(tmp_path / "bare.json").tree.moves_to(1) == (5,)


def test_loading_a_state_replaces_the_study():
    other = played(1, 2)
    state = reduce(played(5), LoadState(state=other))
    assert state.tree == other.tree


def test_perfect_play_answers_a_corner_with_the_centre():
    # the lowest free cell (2) loses: only the best-move mask may pick
    assert choose_move(analysis_of("X../.../..."), EngineMode.PERFECT) == 5


def test_the_trap_setter_prefers_the_draw_whose_replies_most_often_lose():
    analysis = analysis_of(".../.../.X.")  # O's drawing replies 2, 5, 7, 9 leave X 0, 1/7, 3/7, 3/7 losing replies
    assert choose_move(analysis, EngineMode.TRAP) == 7
    assert choose_move(analysis, EngineMode.PERFECT) == 2


def test_replacing_the_tree_shows_the_new_one_unsaved():
    tree, node = GameTree.new().add_move(ROOT, 5)
    tree, node = tree.add_move(node, 1)
    state = reduce(played(9), ReplaceTree(tree=tree, cursor=node))
    assert state.tree is tree and state.cursor == node and state.modified
    assert state.position == parse_position("O../.X./...")


def test_a_loaded_study_opens_without_the_unsaved_mark():
    edited = played(1, 2)
    assert edited.modified
    state = reduce(played(5), LoadState(state=edited))
    assert state.modified is False and state.tree == edited.tree


def test_the_current_line_runs_from_the_root_through_the_cursor_to_the_end_of_its_variation():
    state = played(5, 1, 9)
    state = reduce(reduce(state, Back()), Back())  # at 5
    state = played(3, 7, state=state)  # a variation 5 3 7
    tree = state.tree
    variation_nodes = tree.path(state.cursor)  # root, 5, 3, 7
    at_three = variation_nodes[2]
    assert tree.current_line(at_three) == variation_nodes
    assert [tree.node(n).move for n in tree.current_line(variation_nodes[1])] == [None, 5, 1, 9]  # main line below 5
    assert tree.current_line(ROOT) == tree.main_line(ROOT)


def test_an_ordinary_move_has_no_annotation():
    state = played(5, 1)  # O's corner keeps the draw, and three other corners do too
    assert annotation(state.tree, state.cursor) == ""
    assert annotation(state.tree, ROOT) == ""


def test_move_text_on_another_board_reads_numbers_and_writes_coordinates():
    geometry = Geometry(4, 4, 4)
    tree = import_movetext('[Setup "..../..../..../...X"] 12 1 (2) 13', geometry)
    assert tree.root_position == parse_position("..../..../..../...X", geometry)
    assert [tree.node(n).move for n in tree.main_line(ROOT)] == [None, 12, 1, 13]  # 12 is one move, not 1 and 2
    assert export_movetext(tree) == '[Variant "4x4k4"] [Setup "..../..../..../...X"] d2 a4 (b4) a1'
    assert import_movetext(export_movetext(tree)) == tree  # the board named: read back without being told
    with pytest.raises(MoveTextError, match=r"^invalid move text: '17' at column 3: no such cell \(a1-d4 or 1-16\)$"):
        import_movetext("1 17", geometry)


@pytest.mark.parametrize(
    "text, moves",
    [("519", [5, 1, 9]), ("51 9", [5, 1, 9]), ("5,1,9", [5, 1, 9]), ("5, 1 ,9 ", [5, 1, 9]), ("  5  ", [5])],
)
def test_move_lists_in_any_spacing(text, moves):
    tree = import_movetext(text)
    assert [tree.node(n).move for n in tree.main_line(ROOT)][1:] == moves


def test_a_study_file_is_indented_json_one_field_to_a_line():
    state = reduce(played(5, 1), SetComment(text="corner"))
    assert dumps_study(state) == (
        '{\n "format": "workbench-study",\n "version": 2,\n "geometry": {\n  "rows": 3,\n  "cols": 3,\n  "k": 3,\n  '
        '"misere": false\n },\n'
        ' "root": ".../.../...",\n "nodes": [\n  {\n   "id": 0,\n   "parent": null,\n   "move": null,\n   "children": '
        "[\n    1\n   ],\n"
        '   "comment": ""\n  },\n  {\n   "id": 1,\n   "parent": 0,\n   "move": 5,\n   "children": [\n    2\n   ],\n   '
        '"comment": ""\n  },\n'
        '  {\n   "id": 2,\n   "parent": 1,\n   "move": 1,\n   "children": [],\n   "comment": "corner"\n  }\n ],\n '
        '"next_id": 3,\n'
        ' "cursor": 2,\n "engine": {\n  "mode": "off",\n  "side": "O"\n },\n "view": {\n  "overlay": "none"\n }\n}\n'
    )


def test_opening_problems_are_named_word_for_word(tmp_path):
    def message(path):
        with pytest.raises(StudyError) as caught:
            load_study(path)
        return str(caught.value)

    missing = tmp_path / "missing.json"
    assert message(missing) == f"cannot open {str(missing)!r}: no such file"
    assert message(tmp_path) == f"cannot open {str(tmp_path)!r}: a folder, not a file"
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"comment": "caf\xe9"}')
    assert message(latin) == (f"cannot open {str(latin)!r}: not UTF-8 text (byte 17)")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format":\n  }')
    assert message(broken) == f"cannot open {str(broken)!r}: not valid JSON (Expecting value at line 2, column 3)"
    empty_nodes = tmp_path / "empty.json"
    empty_nodes.write_text(json.dumps({**good_data(), "nodes": []}))
    assert message(empty_nodes) == f'cannot open {str(empty_nodes)!r}: "nodes" must be a non-empty list'


def test_saving_problems_name_the_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    target = blocker / "s.json"
    with pytest.raises(StudyError) as caught:
        save_study(played(5), target)
    assert str(caught.value) == f"cannot save {str(target)!r}: Not a directory"


def test_studies_are_utf8_whatever_the_locale(tmp_path):
    # a terminal reached over ssh with LANG=C: Python's default encoding is then ASCII
    path = tmp_path / "c.json"
    script = (
        "from workbench.state import AppState, reduce, save_study, load_study\n"
        "from workbench.state.actions import SetComment\n"
        f"save_study(reduce(AppState(), SetComment(text='caf\\u00e9 \\u00bd \\u2713')), {str(path)!r})\n"
        f"assert load_study({str(path)!r}).tree.node(0).comment == 'caf\\u00e9 \\u00bd \\u2713'\n"
    )
    result = run_child(script, tmp_path, LC_ALL="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0")
    assert result.returncode == 0, result.stderr
    assert '"comment": "caf\\u00e9 \\u00bd \\u2713"' in path.read_text(encoding="utf-8")
