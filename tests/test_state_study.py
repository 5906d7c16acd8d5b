"""Study files and move text: round trips, atomic saves, and every way a file can be bad."""

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from workbench.engine import Geometry, Player, parse_position
from workbench.engine.geometry import cell_names, parse_variant
from workbench.state import (
    AppState,
    EngineMode,
    MoveTextError,
    StudyError,
    dumps_study,
    export_movetext,
    import_movetext,
    load_study,
    reduce,
    save_study,
)
from workbench.state.actions import Back, NewGame, PlayCell, SetComment, SetEngine, SetOverlay, SetUpPosition

from .child_process import assert_killed_mid_write, run_child


def sample_state():
    state = AppState()
    for cell in (5, 1, 9):
        state = reduce(state, PlayCell(cell=cell))
    state = reduce(reduce(state, Back()), PlayCell(cell=3))
    state = reduce(state, SetComment(text="a quieter try"))
    state = reduce(state, SetEngine(mode=EngineMode.TRAP, side=Player.X))
    return reduce(state, SetOverlay(overlay="perfect_win"))


def test_save_open_round_trip(tmp_path):
    state = sample_state()
    path = tmp_path / "study.json"
    save_study(state, path)
    loaded = load_study(path)
    assert loaded.tree == state.tree
    assert (loaded.cursor, loaded.engine, loaded.view.overlay) == (state.cursor, state.engine, state.view.overlay)
    assert not loaded.modified
    assert [p.name for p in tmp_path.iterdir()] == ["study.json"]  # no temp file left behind


def test_a_save_through_a_link_writes_the_file_it_names_and_keeps_the_link(tmp_path):
    (tmp_path / "dotfiles").mkdir()
    real, link = tmp_path / "dotfiles" / "study.json", tmp_path / "study.json"
    real.write_text("old")
    link.symlink_to(real)
    save_study(sample_state(), link)
    assert link.is_symlink() and real.read_text() == dumps_study(sample_state())
    assert sorted(os.listdir(tmp_path)) == ["dotfiles", "study.json"] and os.listdir(real.parent) == ["study.json"]
    dangling = tmp_path / "new.json"
    dangling.symlink_to(tmp_path / "dotfiles" / "new.json")  # a link made for a file still to come
    save_study(sample_state(), dangling)
    assert dangling.is_symlink() and load_study(dangling).tree == sample_state().tree


def test_a_save_told_not_to_replace_keeps_a_file_there(tmp_path, monkeypatch):
    from workbench.state.study import StudyFileExistsError

    target = tmp_path / "study.json"
    target.write_text("precious")
    with pytest.raises(StudyFileExistsError, match="exists already"):
        save_study(sample_state(), target, replace=False)
    assert target.read_text() == "precious" and os.listdir(tmp_path) == ["study.json"]
    target.unlink()
    real_fsync = os.fsync

    def another_program_writes_it(descriptor):  # between the check and the rename
        real_fsync(descriptor)
        if not target.exists():
            target.write_text("made meanwhile")

    monkeypatch.setattr(os, "fsync", another_program_writes_it)
    with pytest.raises(StudyFileExistsError, match="made while this was written"):
        save_study(sample_state(), target, replace=False)
    assert target.read_text() == "made meanwhile" and os.listdir(tmp_path) == ["study.json"]
    dangling = tmp_path / "to-come.json"
    dangling.symlink_to(tmp_path / "later" / "study.json")  # a link to nothing yet is something there all the same
    with pytest.raises(StudyFileExistsError, match="'.*to-come.json' exists already"):
        save_study(sample_state(), dangling, replace=False)
    assert not (tmp_path / "later").exists()


@pytest.mark.parametrize("there", [False, True])
def test_without_hard_links_the_file_is_checked_just_before_the_rename(tmp_path, monkeypatch, there):
    from workbench.state.study import put_in_place

    def no_hard_links(*args, **kwargs):
        raise PermissionError(1, "Operation not permitted")  # what FAT says

    monkeypatch.setattr(os, "link", no_hard_links)
    temporary, target = tmp_path / "t.tmp", tmp_path / "f.txt"
    temporary.write_text("new")
    if there:
        target.write_text("old")
        with pytest.raises(FileExistsError):
            put_in_place(temporary, target, replace=False)
        assert target.read_text() == "old" and temporary.exists()
    else:
        put_in_place(temporary, target, replace=False)
        assert target.read_text() == "new" and not temporary.exists()


def test_set_up_root_round_trips(tmp_path):
    state = reduce(AppState(), SetUpPosition(position=parse_position("X.O/.X./...")))
    state = reduce(state, PlayCell(cell=9))
    save_study(state, tmp_path / "s.json")
    assert load_study(tmp_path / "s.json").tree == state.tree


@pytest.mark.parametrize("variant", ["3x3k3-misere", "3x4k3", "3x4k3-misere", "2x5k3"])
def test_a_study_keeps_its_variant(tmp_path, variant):
    geometry = parse_variant(variant)
    state = reduce(reduce(AppState(), NewGame(geometry=geometry)), PlayCell(cell=geometry.size))
    save_study(state, tmp_path / "s.json")
    loaded = load_study(tmp_path / "s.json")
    assert loaded.geometry == geometry and loaded.tree == state.tree
    assert json.loads((tmp_path / "s.json").read_text())["version"] == 2


def test_a_version_1_study_opens_under_the_normal_rule(tmp_path):
    """Version 1 had no misère: its files are read as they were written, under the normal rule."""
    data = good_data()
    data["version"] = 1
    del data["geometry"]["misere"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    loaded = load_study(path)
    assert loaded.geometry == Geometry() and loaded.tree == sample_state().tree


def corrupt(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    return path


def good_data():
    return json.loads(dumps_study(sample_state()))


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda d: d.update(version=99), "unsupported study version 99"),
        (lambda d: d.update(version=True), "unsupported study version true"),
        (lambda d: d["geometry"].pop("misere"), 'geometry: missing "misere"'),
        (lambda d: d["geometry"].update(misere=1), 'geometry: "misere" must be true or false, not a number 1'),
        (lambda d: d.update(format="other"), "not a workbench study"),
        (lambda d: d["nodes"][1].update(move=5) or d["nodes"][2].update(move=5), "node"),
        (lambda d: d["nodes"][2].update(move=12), "no such cell"),
        (lambda d: d.update(cursor=999), "cursor 999"),
        (lambda d: d.update(root="OO./.../..."), "O has more marks than X"),
        (lambda d: d["nodes"][0]["children"].append(42), "child 42"),
        (lambda d: d["nodes"][1].pop("children"), 'node 1: missing "children"'),
        (lambda d: d.update(next_id=1), "next_id"),
        (lambda d: d["engine"].update(mode="psychic"), "engine settings"),
        (lambda d: d.update(nodes=[]), "non-empty"),
    ],
)
def test_hand_edited_files_are_refused_with_the_reason(tmp_path, mutate, fragment):
    data = good_data()
    mutate(data)
    path = corrupt(tmp_path, json.dumps(data))
    with pytest.raises(StudyError) as caught:
        load_study(path)
    assert str(path) in str(caught.value) and fragment in str(caught.value)


def _nodes(data):
    return {node["id"]: node for node in data["nodes"]}


@pytest.mark.parametrize(
    "mutate, reason",
    [
        (lambda d: d["nodes"].append(dict(d["nodes"][3])), "node id 3 appears twice"),
        (lambda d: _nodes(d)[0].update(parent=1), "node 0 must be the root (no parent, no move)"),
        (lambda d: _nodes(d)[0].update(id=7), "node 0 must be the root (no parent, no move)"),
        (lambda d: _nodes(d)[3].update(move=None), "node 3 has no parent or no move"),
        (lambda d: _nodes(d)[2]["children"].remove(4), "node 4 is missing from its parent's children"),
        (lambda d: _nodes(d)[3].update(parent=1), "node 2 lists child 3, which is not its child"),
        (
            lambda d: (_nodes(d)[1]["children"].append(3), _nodes(d)[3].update(parent=1)),
            "node 2 lists child 3, which is not its child",
        ),
        (
            lambda d: (
                _nodes(d)[3]["children"].append(1),
                _nodes(d)[1].update(parent=3),
                _nodes(d)[0]["children"].clear(),
            ),
            "nodes [1, 2, 3, 4] do not hang from the root",
        ),
        (lambda d: d["nodes"][2].update(move=True), 'node 2: "move" must be an integer or null, not true'),
        (lambda d: d.update(geometry={"rows": 0, "cols": 3, "k": 3}), "0x3"),
        (lambda d: d.update(geometry={"rows": 3}), 'geometry: missing "cols"'),
        (lambda d: d.update(next_id="5"), "\"next_id\" must be an integer, not a string '5'"),
        (lambda d: d.update(cursor="4"), "\"cursor\" must be an integer, not a string '4'"),
        (lambda d: d["view"].update(overlay="sparkles"), "unknown overlay 'sparkles'"),
        (lambda d: d["engine"].update(side="Z"), "engine settings: 'Z' is not a valid Player"),
        (lambda d: _nodes(d)[4].update(move=5), "node 4: illegal move 5 in O../.X./...: cell is occupied"),
        (lambda d: _nodes(d)[4].update(move=9), "node 2 has two children that play 9"),
    ],
)
def test_broken_trees_are_refused_naming_the_node_and_the_reason(tmp_path, mutate, reason):
    data = good_data()
    mutate(data)
    path = corrupt(tmp_path, json.dumps(data))
    with pytest.raises(StudyError) as caught:
        load_study(path)
    message = str(caught.value)
    assert message.startswith(f"cannot open {str(path)!r}: ") and reason in message and "\n" not in message


def test_nodes_that_do_not_hang_from_the_root_are_refused(tmp_path):
    data = good_data()
    # a separate little tree 7 -> 8 whose links agree with each other but not with the root
    data["nodes"] += [
        {"id": 7, "parent": 8, "move": 1, "children": [8]},
        {"id": 8, "parent": 7, "move": 2, "children": [7]},
    ]
    data["next_id"] = 9
    with pytest.raises(StudyError, match=r"node 7 is reached twice|nodes \[7, 8\] do not hang from the root"):
        load_study(corrupt(tmp_path, json.dumps(data)))


def test_a_failed_save_removes_its_temporary_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    path = tmp_path / "study.json"
    save_study(AppState(), path)
    before = path.read_text()

    def refuse(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(StudyError, match=r"^cannot save '.*study\.json': No space left on device$"):
        save_study(sample_state(), path)
    assert [p.name for p in tmp_path.iterdir()] == ["study.json"] and path.read_text() == before


def test_truncated_and_garbage_files(tmp_path):
    text = dumps_study(sample_state())
    for bad in (text[: len(text) // 2], "", "\x00\x01garbage", "[1, 2]"):
        with pytest.raises(StudyError, match="cannot open"):
            load_study(corrupt(tmp_path, bad))
    with pytest.raises(StudyError, match="no such file"):
        load_study(tmp_path / "missing.json")


def test_saving_into_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(StudyError, match="cannot save"):
        save_study(sample_state(), tmp_path / "nowhere" / "s.json")


def test_a_killed_save_leaves_the_old_file_whole(tmp_path):
    path = tmp_path / "study.json"
    save_study(AppState(), path)
    before = path.read_text()
    source = tmp_path / "source.json"
    source.write_text(dumps_study(sample_state()))
    marker = tmp_path / "write-began"
    # a child saves a larger study and is killed after the new text is written to the temporary file,
    # before it is synced and moved into place; it runs from another folder than the tests
    script = (
        "import os, signal\n"
        "from workbench.state import study\n"
        "def die(fd):\n"
        f"    open({str(marker)!r}, 'w').write(str(os.fstat(fd).st_size))\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "os.fsync = die\n"
        f"study.save_study(study.load_study({str(source)!r}), {str(path)!r})\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run_child(script, elsewhere)
    written = assert_killed_mid_write(result, marker)
    assert int(written) == len(source.read_text().encode())  # the whole new text was in the temporary file
    assert path.read_text() == before
    assert load_study(path).tree == AppState().tree
    # the killed save left its temporary; the next save of the same file clears it
    assert len(list(tmp_path.glob(".study.json.*.tmp"))) == 1
    save_study(sample_state(), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "source.json", "study.json", "write-began"]


def test_stale_temporaries_go_and_live_ones_stay(tmp_path):
    path = tmp_path / "s.json"
    dead_writer = tmp_path / ".s.json.999999999.abcd1234.tmp"  # no process has such a pid
    live_writer = tmp_path / f".s.json.{os.getppid()}.abcd1234.tmp"  # the test runner's parent: alive
    old_style = tmp_path / ".s.json.k2j4h5g6.tmp"  # an older workbench's name, with no pid
    fresh_old_style = tmp_path / ".s.json.zz99yy88.tmp"
    other_file = tmp_path / ".other.json.999999999.abcd1234.tmp"  # another study's: not ours to judge
    for temporary in (dead_writer, live_writer, old_style, fresh_old_style, other_file):
        temporary.write_text("{")
    two_hours_ago = os.stat(old_style).st_mtime - 7200
    os.utime(old_style, (two_hours_ago, two_hours_ago))
    save_study(sample_state(), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["s.json", live_writer.name, fresh_old_style.name, other_file.name]
    )


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_without_reading_them(device):
    with pytest.raises(StudyError, match=f"^cannot open '{device}': not a regular file$"):
        load_study(device)


def test_a_fifo_nobody_writes_to_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(StudyError, match="not a regular file$"):
        load_study(fifo)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    from workbench.state.study import MAX_STUDY_BYTES

    huge = tmp_path / "huge.json"
    with open(huge, "wb") as stream:
        stream.truncate(MAX_STUDY_BYTES + 1)  # sparse: no time spent writing it
    with pytest.raises(StudyError, match=rf"too large \({MAX_STUDY_BYTES + 1:,} bytes; at most {MAX_STUDY_BYTES:,}\)$"):
        load_study(huge)
    at_limit = tmp_path / "limit.json"
    at_limit.write_text(dumps_study(sample_state()).ljust(MAX_STUDY_BYTES - 1) + "\n")  # white space after the JSON
    assert load_study(at_limit).tree == sample_state().tree


@pytest.mark.parametrize(
    "text, reason",
    [
        ("[" * 100_000 + "]" * 100_000, "not a study: JSON nested too deeply"),
        (
            '{"format": "workbench-study", "version": 1, "geometry": {"rows": 1e999, "cols": 3, "k": 3}}',
            '"rows" must be an integer, not a number inf',
        ),
        (
            '{"format": "workbench-study", "version": 1, "geometry": {"rows": ' + "9" * 5000 + "}}",
            "not valid JSON (Exceeds the limit",
        ),
        (
            '{"format": "workbench-study", "version": 1, "geometry": {"rows": NaN}}',
            "not valid JSON (NaN is not a number a study can hold)",
        ),
        ("[1, 2]", 'not a workbench study (no "format": "workbench-study")'),
        ('"study"', 'not a workbench study (no "format": "workbench-study")'),
    ],
)
def test_attacker_sized_json_is_refused_in_one_line(tmp_path, text, reason):
    path = corrupt(tmp_path, text)
    with pytest.raises(StudyError) as caught:
        load_study(path)
    assert reason in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "mutate, reason",
    [
        (lambda d: d.update(nodes=[5]), 'node 1 of "nodes": expected an object, found a number 5'),
        (lambda d: d.update(engine="x"), "\"engine\" must be an object, not a string 'x'"),
        (lambda d: d.update(view=3), '"view" must be an object, not a number 3'),
        (lambda d: d.update(geometry=[3, 3, 3]), '"geometry" must be an object, not a list'),
        (
            lambda d: d.update(geometry={"rows": 10**9, "cols": 3, "k": 3}),
            "geometry 1000000000x3: a board has 1 to 15 rows and columns",
        ),
        (
            lambda d: d.update(geometry={"rows": 2**63, "cols": 2**63, "k": 3}),
            "geometry 9223372036854775808x9223372036854775808",
        ),
        (
            lambda d: d.update(geometry={"rows": 16, "cols": 3, "k": 3}),
            "geometry 16x3: a board has 1 to 15 rows and columns",
        ),
        (lambda d: d["nodes"][1].update(move=10**40), "node 1: move (a huge number): no such cell (1-9)"),
        (lambda d: d["nodes"][1].update(id=-1), 'node 2 of "nodes": "id" -1 is not between 0 and'),
        (lambda d: d["nodes"][1].update(comment="\ud800"), 'node 1: "comment" is not valid Unicode (a lone surrogate)'),
        (lambda d: d["nodes"][1].update(comment=5), 'node 1: "comment" must be a string, not a number 5'),
        (lambda d: d.update(root="-X\x1b[2J"), "invalid position '-X\\x1b[2J'"),
    ],
)
def test_a_value_of_the_wrong_type_is_named_with_its_key(tmp_path, mutate, reason):
    data = good_data()
    mutate(data)
    path = corrupt(tmp_path, json.dumps(data))
    with pytest.raises(StudyError) as caught:
        load_study(path)
    message = str(caught.value)
    assert reason in message and "\n" not in message and "\x1b" not in message


def test_a_wide_tree_opens_in_linear_time_and_repeated_moves_are_refused(tmp_path):
    data = good_data()
    width = 40_000  # quadratic checks took 12 s here
    data["nodes"] = [{"id": 0, "parent": None, "move": None, "children": list(range(1, width + 1))}] + [
        {"id": i, "parent": 0, "move": 1 + (i - 1) % 9, "children": []} for i in range(1, width + 1)
    ]
    data.update(next_id=width + 1, cursor=0)
    with pytest.raises(StudyError, match=r"node 0 has two children that play 1$"):
        load_study(corrupt(tmp_path, json.dumps(data)))
    data["nodes"][0]["children"] = data["nodes"][0]["children"] + [1]
    with pytest.raises(StudyError, match=r"node 0 lists a child twice$"):
        load_study(corrupt(tmp_path, json.dumps(data)))


def test_move_text_refuses_a_variation_that_repeats_a_line():
    with pytest.raises(MoveTextError, match=r"^invalid move text: '5' at column 4: this move is already a line here$"):
        import_movetext("5 (5 {dup})")
    with pytest.raises(MoveTextError, match=r"at column 10: this move is already a line here$"):
        import_movetext("5 1 (2) (2)")
    with pytest.raises(
        MoveTextError, match=r"^invalid move text: '1{38}…' at column 3: no such cell \(1-9 or a1-c3\)$"
    ):
        import_movetext("5," + "1" * 5000)


def test_move_text_round_trip_with_comments_and_set_up():
    state = sample_state()
    text = export_movetext(state.tree)
    assert text == "5 1 9 (3 {a quieter try})"
    assert import_movetext(text) == state.tree
    setup = reduce(AppState(), SetUpPosition(position=parse_position("X../.../...")))
    setup = reduce(setup, PlayCell(cell=5))
    exported = export_movetext(setup.tree)
    assert exported == '[Setup "X../.../..."] 5'
    assert import_movetext(exported) == setup.tree


@pytest.mark.parametrize(
    "text, token, column",
    [("5 1 x", "x", 5), ("5 1 1", "1", 5), ("5 )", ")", 3), ("(5)", "(", 1), ("5 ; 1", ";", 3)],
)
def test_bad_move_text_names_the_first_bad_token(text, token, column):
    with pytest.raises(MoveTextError) as caught:
        import_movetext(text)
    assert (caught.value.token, caught.value.column) == (token, column)
    assert f"column {column}" in str(caught.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ("5 1 x", "'x' at column 5: not a cell (1-9 or a1-c3)"),
        ("5 ١", "'١' at column 3: not a cell (1-9 or a1-c3)"),
        ("5 1 1", "'1' at column 5: cell is occupied"),
        ("10", "'0' at column 2: no such cell (1-9 or a1-c3)"),  # digits run together are one move each
        ("5,5", "'5' at column 3: cell is occupied"),  # the move itself, not the list it is in
        ("515", "'5' at column 3: cell is occupied"),
        ("5,x", "'x' at column 3: not a cell (1-9 or a1-c3)"),
        ("5,,1, 1", "'1' at column 7: cell is occupied"),
        ("5 0", "'0' at column 3: no such cell (1-9 or a1-c3)"),
        ("5 1 9 2 3 4 7 8", "'8' at column 15: the game is over"),
        ("5 )", "')' at column 3: no variation to close"),
        ("(5)", "'(' at column 1: a variation needs a move before it"),
        ("{c} (5)", "'(' at column 5: a variation needs a move before it"),
        ("5 (1 (2", "'(' at column 6: a variation is not closed"),
        ("5 (1", "'(' at column 3: a variation is not closed"),
        ("5 } 1", "'}' at column 3: unexpected character"),
        ("5 {unclosed", "'{' at column 3: unexpected character"),
        ('5 [Setup "X../.../..."]', "'[Setup \"X../.../...\"]' at column 3: a set-up must come first"),
        (
            '[Setup "XX/..."] 5',
            "'[Setup \"XX/...\"]' at column 1: invalid position 'XX/...': wrong length, 2 rows instead of 3",
        ),
        (
            '[Setup "OO./.../..."]',
            "'[Setup \"OO./.../...\"]' at column 1: illegal position OO./.../...: O has more marks than X (2 > 0)",
        ),
    ],
)
def test_bad_move_text_says_what_where_and_why(text, message):
    with pytest.raises(MoveTextError) as caught:
        import_movetext(text)
    assert str(caught.value) == f"invalid move text: {message}"


@pytest.mark.parametrize(
    "text, exported, cursor_moves",
    [
        ("", "", ()),
        ("   ", "", ()),
        ("5  1\t9 ", "5 1 9", (5, 1, 9)),
        ("519", "5 1 9", (5, 1, 9)),
        ("5,1,9", "5 1 9", (5, 1, 9)),
        ("5 1 (2 {edge}) 9", "5 1 (2 {edge}) 9", (5, 1, 9)),
        ("{first} 5", "{first} 5", (5,)),
        ("5 (1 (3) 7) 9", "5 (1 7) (3) 9", (5, 9)),  # 1 and 3 are alternatives to 5; 7 follows 1
        ('[Setup "X../.../..."]', '[Setup "X../.../..."]', ()),
        ('[Setup "X../.../..."] 5 {centre}', '[Setup "X../.../..."] 5 {centre}', (5,)),
    ],
)
def test_move_text_imports_to_the_tree_it_describes(text, exported, cursor_moves):
    tree = import_movetext(text)
    assert export_movetext(tree) == exported
    main_line = tree.main_line()
    assert tree.moves_to(main_line[-1]) == cursor_moves


def test_compact_and_comma_move_lists_import():
    assert export_movetext(import_movetext("519")) == "5 1 9"
    assert export_movetext(import_movetext("5,1,9")) == "5 1 9"


@pytest.fixture
def umask():
    """Set the process umask for one test, and put the old one back."""
    previous = os.umask(0o022)
    yield os.umask
    os.umask(previous)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_a_new_study_file_gets_the_users_umask(tmp_path, umask, mask, mode):
    umask(mask)
    path = tmp_path / "shared.json"
    save_study(sample_state(), path)
    assert path.stat().st_mode & 0o777 == mode
    assert os.umask(mask) == mask  # and the umask is as it was


@pytest.mark.parametrize("mode", [0o600, 0o664, 0o640])
def test_saving_over_a_file_keeps_its_mode(tmp_path, umask, mode):
    path = tmp_path / "kept.json"
    save_study(AppState(), path)
    path.chmod(mode)
    save_study(sample_state(), path)
    assert path.stat().st_mode & 0o777 == mode
    assert load_study(path).tree == sample_state().tree


@pytest.mark.parametrize(
    "target, reason", [("/dev/null", "not a regular file"), ("folder", "a folder"), ("fifo", "not a regular file")]
)
def test_saving_over_a_device_a_fifo_or_a_folder_is_refused_and_leaves_it_be(tmp_path, target, reason):
    if target == "folder":
        target = str(tmp_path)
    elif target == "fifo":
        target = str(tmp_path / "fifo")
        os.mkfifo(target)
    kind = os.stat(target).st_mode
    with pytest.raises(StudyError, match=f"^cannot save '{target}': {reason}$"):
        save_study(sample_state(), target)
    assert os.stat(target).st_mode == kind and not list(Path(target).parent.glob(f".{Path(target).name}.*.tmp"))


@pytest.mark.parametrize("variant", ["3x3k3-misere", "3x4k3", "4x4k4-misere", "2x7k4"])
def test_move_text_names_its_variant_and_reads_back_on_that_board(variant):
    geometry = parse_variant(variant)
    state = reduce(AppState(), NewGame(geometry=geometry))
    for cell in (geometry.size, 1, 2):
        state = reduce(state, PlayCell(cell=cell))
    state = reduce(reduce(state, Back()), PlayCell(cell=3))
    text = export_movetext(state.tree)
    names = cell_names((geometry.size, 1, 2, 3), geometry).split()
    assert text.startswith(f'[Variant "{variant}"] {names[0]} {names[1]} {names[2]} ({names[3]})')  # coordinates
    assert import_movetext(text) == state.tree
    assert import_movetext(text, geometry) == state.tree  # the set-up dialog, on that board
    assert export_movetext(reduce(AppState(), PlayCell(cell=5)).tree) == "5"  # the classic board needs no name


def test_a_set_up_root_follows_the_variant():
    geometry = parse_variant("3x4k3")
    tree = import_movetext('[Variant "3x4k3"] [Setup "X.../..../...."] 12 {far}')
    assert tree.root_position == parse_position("X.../..../....", geometry) and export_movetext(tree) == (
        '[Variant "3x4k3"] [Setup "X.../..../...."] d1 {far}'
    )
    tree = import_movetext('[Variant "3x4k3"] 11,12 10')  # past nine cells a number is one move, not its digits
    assert tree.root_position.geometry == geometry and tree.moves_to(tree.main_line()[-1]) == (11, 12, 10)


@pytest.mark.parametrize(
    "text, geometry, message",
    [
        ('5 [Variant "3x4k3"]', None, "'[Variant \"3x4k3\"]' at column 3: the variant must come first"),
        ('[Setup "X../.../..."] [Variant "3x4k3"]', None, "at column 23: the variant must come first"),
        ('[Variant "3x4k3"] [Variant "3x4k3"]', None, "at column 19: the variant must come first"),
        ('[Variant "chess"] 5', None, "at column 1: unknown variant 'chess'"),
        ('[Variant "3x4k3"] 5', "3x3k3", "at column 1: this board is 3x3k3: start a game of 3x4k3 first"),
        ('[Variant "3x4k3"] 13', None, "'13' at column 19: no such cell (a1-d3 or 1-12)"),
    ],
)
def test_a_bad_variant_header_is_named(text, geometry, message):
    with pytest.raises(MoveTextError) as caught:
        import_movetext(text, None if geometry is None else parse_variant(geometry))
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"format": "workbench-st', "not valid JSON (Unterminated string at line 1, column 12)"),
        ('{"format": ', "not valid JSON (Expecting value at line 1, column 12)"),
    ],
)
def test_a_cut_study_file_says_where_in_plain_words(text, said):
    """A new user's review: a truncated file said "Unterminated string starting at at line 11"."""
    from workbench.state import parse_study

    with pytest.raises(StudyError) as raised:
        parse_study(text)
    assert str(raised.value) == said


@given(st.lists(st.text(st.one_of(st.sampled_from("{}\\() "), st.characters()), max_size=30), min_size=1, max_size=4))
def test_comments_read_back_as_they_were_whatever_they_hold(comments):
    """`x` exported a comment's `}` as `)` (`${HOME}` came back `${HOME)`): braces and backslashes are escaped."""
    state = AppState()
    for cell, comment in zip((5, 1, 9, 3), comments, strict=False):
        state = reduce(reduce(state, PlayCell(cell=cell)), SetComment(text=comment))
    text = export_movetext(state.tree)
    assert import_movetext(text) == state.tree


@pytest.mark.parametrize(
    "text",
    [
        r"5 {C:\games\old}",
        "5 {a backslash at the end\\}",
        r"5 {a\} 1 {b}",
        r"5 {saved in C:\temp\} 1 (2 {alt}) 9",
        "5 {a\\\nb} 1",
        r"{\\server\share} 5",
    ],
)
def test_move_text_written_before_reads_as_it_did(text):
    """A review of the escape first tried (a backslash before a brace): old text with a comment ending in a
    backslash lost its next moves or failed. A doubled brace stood in no valid text before: old text is unchanged."""
    tree = import_movetext(text)
    assert export_movetext(tree) == text
    assert all("}" not in node.comment for node in tree.nodes.values())


def test_a_comment_s_closing_brace_is_written_twice():
    assert export_movetext(import_movetext("5 {${HOME}}}")) == "5 {${HOME}}}"
    assert import_movetext("5 {${HOME}}}").node(1).comment == "${HOME}"
