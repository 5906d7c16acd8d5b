"""The engine as a library (issue 51): the names at the top of ``workbench``, what ``docs/api.md`` shows (run as
doctests), values equal to ``workbench analyze``'s on each exact tier, positions immutable and hashable, errors
naming the input, "not proven" beyond the exact tiers, whole solutions by ply against the tables, and boards drawn
as SVG."""

import dataclasses
import doctest
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import workbench
from workbench.cli import main

from .child_process import PACKAGE_ROOT

pytestmark = pytest.mark.engine

DOCS = Path(__file__).parent.parent / "docs" / "api.md"


def test_every_example_of_the_api_page_runs_as_written():
    """docs/api.md's examples, run as doctests: a changed value, name or message fails here."""
    result = doctest.testfile(str(DOCS), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0
    assert result.attempted >= 40  # the page's examples were found (a broken fence would hide them all)


def test_every_public_name_is_there_documented_and_listed_in_dir():
    missing = [name for name in workbench.__all__ if not hasattr(workbench, name)]
    assert missing == []
    assert set(workbench.__all__) <= set(dir(workbench))
    own = [
        name
        for name in workbench.__all__
        if getattr(getattr(workbench, name), "__module__", "").startswith(("workbench.api", "workbench.svg"))
    ]
    assert {"variant", "position", "solve", "Position", "Variant", "Solution"} <= set(own)
    undocumented = [name for name in own if not getattr(workbench, name).__doc__]
    for cls in (workbench.Variant, workbench.Position, workbench.Solution):
        for name, member in vars(cls).items():
            code = member.fget if isinstance(member, property) else member
            if not name.startswith("_") and callable(code) and not code.__doc__:
                undocumented.append(f"{cls.__name__}.{name}")
    assert undocumented == []
    page = DOCS.read_text(encoding="utf-8")
    assert [name for name in workbench.__all__ if f"`{name}" not in page and name != "__version__"] == []
    with pytest.raises(AttributeError, match="no attribute 'analyse'"):
        workbench.analyse  # noqa: B018 - asked for its error


def test_the_api_s_names_load_no_numpy_until_a_solution_is_asked_for(untraced_children):
    """A position's values on a small board need no numpy, zarr, Rich, Textual or sqlite3; a solution needs
    numpy (and no more than numpy). The child is not traced: coverage imports sqlite3 itself."""
    code = (
        "import sys, workbench\n"
        "p = workbench.position('5,1,9')\n"
        "assert p.value is not None and p.explain(2).text and p.svg(values=True, line=True)\n"
        "heavy = ('numpy', 'zarr', 'rich', 'textual', 'sqlite3')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
        "workbench.solve('3x3k3').values(4)\n"
        "print(','.join(sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] in heavy})))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE_ROOT, check=True)
    assert result.stdout.splitlines() == ["", "numpy"]


def _analyze_json(capsys, game: str, moves: str) -> dict:
    assert main(["analyze", "--game", game, "--moves", moves, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("game", "moves"),
    [
        ("3x3k3", "5,1,9"),
        ("3x3k3", ""),
        ("3x3k3-misere", "5,1"),
        ("3x4k3", "b2 a1"),
        ("2x7k3", "b1 a2"),  # 14 cells: the strong solution's tier
    ],
)
def test_values_equal_workbench_analyze_s(capsys, game, moves):
    position = workbench.position(moves, game)
    record = _analyze_json(capsys, game, moves.replace(" ", ",") or "")
    analysis = position.analysis()
    assert position.variant.tier == ("strong" if position.variant.cells > 12 else "tables")
    assert record["value"] == position.value.label and record["remoteness"] == position.remoteness
    assert [(m["cell"], m["value"], m["remoteness"]) for m in record["moves"]] == [
        (m.cell, m.value.label, m.remoteness) for m in analysis.moves
    ]
    assert record["position"] == position.board


def test_a_position_is_immutable_hashable_and_equal_to_its_transpositions():
    start = workbench.variant("3x4k3").start()
    one = start.play("b2").play(1).play("c2")
    other = workbench.position("c2,a3,b2", "3x4k3")
    board = workbench.position("O.../.XX./....", "3x4k3")
    assert one == other == board and len({one, other, board}) == 1
    assert {one: "seen"}[board] == "seen"
    assert one.moves == (6, 1, 7) and other.moves == (7, 1, 6) and board.moves == ()
    assert one.last_move == 7 and board.last_move is None
    assert start.ply == 0 and start.moves == ()  # play gave new positions, the start is unchanged
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.moves = ()  # type: ignore[misc] - the point of the test
    for thing, name in ((one, "ply"), (one, "colour"), (workbench.variant(), "k")):  # a property, no name, a field's
        with pytest.raises(dataclasses.FrozenInstanceError):  # (with slots, Python 3.11 raised TypeError for some)
            setattr(thing, name, 4)
    assert one != workbench.position("c2,a3,b2", "3x4k3-misere")  # the same marks under another rule
    assert board.play("a1").move_text == "a1" and repr(board.play("a1")).endswith("board='O.../.XX./O...'>")


def test_positions_read_moves_in_either_notation_and_boards():
    assert workbench.position("519").board == workbench.position("5,1,9").board == "O../.X./..X"
    assert workbench.position("b2 a1 c3", "4x4k3") == workbench.position("b2,a1,c3", "4x4k3")
    assert workbench.position("x.o/.x./..o").board == "X.O/.X./..O"
    assert workbench.position("X.O.X...O").board == "X.O/.X./..O"
    assert workbench.position("") == workbench.variant().start()
    assert workbench.position(" ", "3x4k3").board == "..../..../...."
    assert workbench.position("5").play_all([1, "9"]).move_text == "5,1,9"
    assert workbench.position(one := workbench.position("b2", "3x4k3")) is one  # a position, as it is
    assert workbench.position(one, "3x4k3") is one and workbench.position(one.engine_position).variant.name == "3x4k3"
    assert workbench.position("c2").analysis().move("c2") is None  # a name, not only a number: a taken cell
    assert workbench.position("b2", "3x4k3").analysis().move("c2") == workbench.position("b2", "3x4k3").analysis().move(
        7
    )


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: workbench.variant("4x4k7"), "4x4k7"),
        (lambda: workbench.variant("chess"), "chess"),
        (lambda: workbench.variant(33), "33"),
        (lambda: workbench.position("5,z9"), "z9"),
        (lambda: workbench.position("5,5"), "'5,5'"),
        (lambda: workbench.position("XX./.../..."), "XX./.../..."),
        (lambda: workbench.position("X.O/.X."), "X.O/.X."),
        (lambda: workbench.position("X.O/.X./..Q"), "unknown character 'Q' at cell 9"),  # (not "token 1 'X'")
        (lambda: workbench.position("X"), "1 cell instead of 9"),
        (lambda: workbench.position(workbench.position("b2", "3x4k3"), "4x4k4"), "a position of 3x4k3, not of 4x4k4"),
        (lambda: workbench.position(workbench.position("5").engine_position, "3x4k3"), "not of 3x4k3"),
        (lambda: workbench.position("5").analysis().move("z9"), "z9"),
        (lambda: workbench.position("5", "9x9k9x"), "9x9k9x"),
        (lambda: workbench.position(519), "519"),
        (lambda: workbench.position("5").play(5), "illegal move 5"),
        (lambda: workbench.position("5").play(10), "move 10"),
        (lambda: workbench.position("5").play("d4"), "d4"),
        (lambda: workbench.position("5").play(None), "move None"),
        (lambda: workbench.position("1,4,2,5,3").play(9), "the game is over"),
        (lambda: workbench.position("5").explain(5), "5: not a move here (the cell is taken)"),  # as play says
        (lambda: workbench.position("5").analysis(seconds=0), "seconds=0"),
        (lambda: workbench.position("5").analysis(nodes=0), "nodes=0"),
        (lambda: workbench.puzzles("3x3k3", 0), "0"),
        (lambda: workbench.solve("5x5k4"), "5x5k4"),
        (lambda: workbench.kept_solution("4x4k4"), "4x4k4"),
        (lambda: workbench.position("5,5,5", "5x5k4").explain(1), "5,5,5"),
    ],
)
def test_errors_are_input_errors_naming_the_input(call, named):
    with pytest.raises(workbench.InputError) as raised:
        call()
    assert isinstance(raised.value, ValueError) and named in str(raised.value)
    assert "\n" not in str(raised.value)


BIG = "15,14,19,12,23,13,16,21,6,20,18,22,9"


def test_beyond_the_exact_tiers_a_value_is_not_proven_never_guessed():
    """5×5k4 is searched: no budget searches nothing and claims nothing; a budget of one node proves what it can
    (a win in one) and leaves the rest None; a budget enough to prove every move agrees with the search."""
    big = workbench.position(BIG, "5x5k4")
    assert big.variant.tier == "search" and big.value is None and big.remoteness is None
    nothing = big.analysis()
    assert not nothing.proven and all(move.value is None for move in nothing.moves)
    little = big.analysis(nodes=1)
    whole = big.analysis(nodes=2_000_000)
    assert not little.proven and little.value is None
    assert any(move.value is None for move in little.moves)
    assert whole.proven and all(move.value is not None for move in whole.moves)
    proven_little = {move.cell: (move.value, move.remoteness) for move in little.moves if move.value is not None}
    assert proven_little.items() <= {move.cell: (move.value, move.remoteness) for move in whole.moves}.items()
    assert big.analysis(seconds=0.001).moves  # a time alone is a budget too
    with pytest.raises(workbench.InputError, match="5x5k4"):
        big.best_line()
    with pytest.raises(workbench.InputError, match="5x5k4"):
        big.explain(1)


def test_explain_and_the_best_line_on_a_strong_board_are_workbench_explain_s(capsys):
    """2×7k3 (14 cells) is answered from its strong solution, made ready by the API as the command line makes it."""
    position = workbench.position("b1 a2", "2x7k3")
    assert main(["explain", "--game", "2x7k3", "--moves", "b1,a2,c1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    explained = position.explain("c1")
    assert (explained.verdict, explained.text) == (record["verdict"], record["text"])
    assert [step.cell for step in explained.line] == [step["cell"] for step in record["line"]]
    assert position.play("c1").best_line() == tuple(step["cell"] for step in record["line"][1:])
    assert workbench.variant("2x7k3").tier == "strong" and workbench.variant("5x5k4").tier == "search"
    assert workbench.variant("4x5k4").tier == "search"  # 20 cells, nothing kept in this test's cache
    assert workbench.variant("4x5k4").parse_cell("e4") == 5 and workbench.variant("3x3k3").cell_name(5) == "5"
    assert repr(workbench.variant("3x3k3-misere")) == "variant('3x3k3-misere')"
    assert workbench.variant(workbench.variant("3x4k3")).name == str(workbench.variant("3x4k3")) == "3x4k3"


def test_explain_and_the_best_line_are_the_engine_s():
    position = workbench.position("b2 a1", "3x4k3")
    explained = position.explain("c2")
    assert explained.verdict == "best" and explained.cell == 7 and explained.value_after == workbench.Value.WIN
    assert [step.cell for step in explained.line] == [7, *position.play("c2").best_line()]
    line = position.best_line()
    assert len(line) == position.remoteness and position.play_all(list(line)).status is workbench.Status.X_WON
    assert workbench.position("1,4,2,5,3").best_line() == ()


def test_a_notebook_shows_an_analysis_as_a_table_and_an_explanation_as_its_words():
    p = workbench.position("b2 a1", "3x4k3")
    table = p.analysis()._repr_markdown_().splitlines()
    assert table[0] == "`..../.X../O...` 3x4k3: X to move, win in 3" and table[2] == "| move | value | plies |"
    assert "| c2 | win | 3 |" in table and "| b3 | draw | 10 |" in table and len(table) == 4 + len(p.legal_moves)
    assert workbench.position("1,4,2,5,3").analysis()._repr_markdown_().endswith("the game is over, X won")
    assert "O to move, not proven" in workbench.position("h8", "15x15k5").analysis()._repr_markdown_()
    why = p.explain("c2")
    assert (
        str(why)
        == why._repr_markdown_()
        == why.text
        == "c2 wins in 3: it threatens a2 and d2, and O can stop only one."
    )


def test_puzzles_hold_by_the_exact_values():
    found = workbench.puzzles("3x3k3")
    assert len(found) > 10 and [p.difficulty for p in found] == sorted(p.difficulty for p in found)
    for puzzle in found:
        position = workbench.position(puzzle.position)
        keeping = [m.cell for m in position.analysis().moves if m.value == puzzle.value]
        if puzzle.value is not workbench.Value.LOSS:
            assert keeping == [puzzle.answer]


def test_the_atlas_record_is_the_atlas_s():
    record = workbench.atlas_record("3x3k3-misere")
    line = next(row for row in (DOCS.parent / "atlas.csv").read_text().splitlines() if row.startswith("3x3k3-misere,"))
    fields = line.split(",")
    words = {1: "win", 0: "draw", -1: "loss"}
    assert (words[record.value], str(record.remoteness), str(record.positions)) == (fields[5], fields[6], fields[10])
    assert record.best_first_names == tuple(fields[8].split())


def test_a_solution_s_values_by_ply_are_the_tables_on_every_position():
    """3×4k3's strong solution, read by ply and rank, against the dictionary tables ``analyze`` reads: every
    reachable rank holds its position's value and remoteness, every other rank is unreached; a sample of ranks maps
    to its position and back, and agrees with the position's own analysis."""
    from workbench.engine.analysis import tables

    game = workbench.variant("3x4k3")
    solution = workbench.solve(game)
    table = tables(game.geometry)
    by_key = {key: (value, table.remoteness[key]) for key, value in table.value.items()}
    rng = random.Random(51)
    for ply in range(solution.plies):
        values, remoteness, reached = solution.values(ply), solution.remoteness(ply), solution.reached(ply)
        assert len(values) == solution.size(ply) and int(reached.sum()) == solution.positions_by_ply[ply]
        assert set((values[~reached]).tolist()) <= {workbench.NOT_REACHED}
        for rank in rng.sample(range(solution.size(ply)), min(40, solution.size(ply))):
            position = solution.position(ply, rank)
            assert solution.rank(position) == (ply, rank)
            key = position.engine_position.key
            assert bool(reached[rank]) == (key in by_key)
            if key in by_key:
                assert (int(values[rank]), int(remoteness[rank])) == by_key[key]
    keys_of = {}
    for key, found in by_key.items():  # every reachable position, by its rank
        position = workbench.position(_board(key, game), game)
        keys_of[solution.rank(position)] = found
    for ply in range(solution.plies):
        values, remoteness = solution.values(ply), solution.remoteness(ply)
        mine = {
            (ply, int(rank)): (int(values[rank]), int(remoteness[rank])) for rank in solution.reached(ply).nonzero()[0]
        }
        assert mine == {where: found for where, found in keys_of.items() if where[0] == ply}
    every = np.arange(solution.size(5))
    x, o = solution.bitboards(5, every)
    sample = rng.sample(range(every.size), 50)
    assert [(int(x[r]), int(o[r])) for r in sample] == [
        (solution.position(5, r).engine_position.x, solution.position(5, r).engine_position.o) for r in sample
    ]
    assert len(set(zip(x.tolist(), o.tolist()))) == every.size  # one board a rank
    with pytest.raises(workbench.InputError, match="ranks of ply 5"):
        solution.bitboards(5, [every.size])
    for text in ("b2 a1", "", "b2 a1 c2 a2"):
        position = workbench.position(text, game)
        assert solution.lookup(position) == (position.value, position.remoteness) or position.is_over


def _board(key: int, game) -> str:
    cells = game.cells
    return "".join("X" if key >> i & 1 else "O" if key >> (i + cells) & 1 else "." for i in range(cells))


def test_solving_a_strong_board_reports_its_progress_and_holds_it():
    from workbench.kept import answers_for
    from workbench.kept.held import let_go

    let_go(workbench.variant("2x7k3").geometry)  # as a fresh process: not held from an earlier test
    shares: list[float] = []
    solution = workbench.solve("2x7k3", progress=shares.append)
    assert solution.kind == "strong" and solution.path is None and "2x7k3 strong" in repr(solution)
    assert shares and shares == sorted(shares) and 0 <= shares[0] and shares[-1] <= 1
    assert answers_for(workbench.variant("2x7k3").geometry).solution is solution.source  # the board's, from now on


def test_values_for_a_player_turn_round_on_o_s_plies():
    solution = workbench.solve("3x3k3")
    for ply in (3, 4):
        mover, x, o = solution.values(ply), solution.values(ply, player="X"), solution.values(ply, player="O")
        reached = solution.reached(ply)
        assert ((x == mover) if ply % 2 == 0 else (x == -mover))[reached].all()
        assert (x == -o)[reached].all()
    with pytest.raises(workbench.InputError, match="'Z'"):
        solution.values(2, player="Z")
    with pytest.raises(workbench.InputError, match="ply 10"):
        solution.values(10)
    with pytest.raises(workbench.InputError, match="rank 9"):
        solution.position(1, 9)
    with pytest.raises(workbench.InputError, match="not a position of 3x3k3"):
        solution.rank(workbench.position("5", "3x4k3"))
    looked = workbench.position("X.O/.X./...")
    assert solution.lookup("X.O/.X./...") == (looked.value, looked.remoteness) == (workbench.Value.DRAW, 6)
    assert solution.lookup(workbench.position("1,2,3,4,5,6,7")) == (workbench.Value.LOSS, 0)


def test_a_board_draws_itself_with_its_marks_last_move_values_and_line():
    position = workbench.position("5,1,9")
    drawn = position._repr_svg_()
    assert drawn.startswith("<svg") and drawn.rstrip().endswith("</svg>")
    assert drawn.count(">X</text>") == 2 and drawn.count(">O</text>") == 1
    assert drawn.count("<line") == 4 + 1  # the grid's four, and the last move's underline
    assert workbench.position("X.O/.X./...").svg().count("<line") == 4  # no moves known: nothing underlined
    valued = position.svg(values=True, line=True)
    analysis = position.analysis()
    assert valued.count("#441e27") == sum(m.value == workbench.Value.LOSS for m in analysis.moves)
    assert ">O1</text>" in valued and ">X2</text>" in valued
    assert workbench.svg.board(position, line=[2, 3]).count("italic") == 2
    won = workbench.position("1,4,2,5,3").svg()
    assert won.count("#24462e") == 3  # the completed line
    coordinates = workbench.position("b2", "4x5k4").svg()
    assert ">a</text>" in coordinates and ">e</text>" in coordinates and ">4</text>" in coordinates
    engine = position.engine_position
    assert workbench.svg.board(engine).count("<line") == 4
    with pytest.raises(workbench.InputError, match="values=True"):
        workbench.svg.board(engine, values=True)
    with pytest.raises(workbench.InputError, match="line cell 12"):
        position.svg(line=(12,))
    big = workbench.position("h8 h9 g8 i9 j8 g7 i7", "15x15k5")  # an analysis made with a budget: its values drawn
    searched = big.analysis(nodes=20_000)
    proven = [move for move in searched.moves if move.value is not None]
    assert proven and big.svg(values=searched).count(">?</text>") == len(searched.moves) - len(proven)
    assert big.svg(values=True).count(">?</text>") == len(searched.moves)  # (values=True asks no search)
    with pytest.raises(workbench.InputError, match="values: an analysis of"):
        position.svg(values=searched)
    for size in (0, -5, True, 2.5):
        with pytest.raises(workbench.InputError, match=f"size {size!r}: a cell's side in pixels"):
            position.svg(size=size)
    # misère says so under the board (it looked like the normal game), in short where the board is narrow
    assert ">misère: a line loses</text>" in workbench.position("5", "3x3k3-misere").svg()
    assert ">misère</text>" in workbench.position("", "1x2k2-misere").svg()
    assert "misère" not in workbench.position("5").svg().split("</title>")[1]


PICTURES = {
    "api-board-3x4k3-values-line.svg": lambda: workbench.position("b2 a1", "3x4k3").svg(values=True, line=True),
    "api-board-3x3k3-won.svg": lambda: workbench.position("5,1,9,3,2,4,8").svg(),
    "api-board-3x3k3-misere-values.svg": lambda: workbench.position("5,1", "3x3k3-misere").svg(values=True),
    "api-board-15x15k5.svg": lambda: workbench.position("h8 h9 g8 i9 j8 g7 i7", "15x15k5").svg(line=(116, 111)),
}
"""The boards kept under screenshots/ (looked at as PNGs in headless Chromium), as the code draws them."""


def test_the_kept_board_pictures_are_what_the_code_draws():
    """A change to the drawing is looked at again: ``python -m tests.test_api`` writes them anew."""
    folder = Path(__file__).parent.parent / "screenshots"
    assert {name: (folder / name).read_text(encoding="utf-8") for name in PICTURES} == {
        name: draw() + "\n" for name, draw in PICTURES.items()
    }


if __name__ == "__main__":  # pragma: no cover - writes the pictures after a meant change
    for name, draw in PICTURES.items():
        (Path(__file__).parent.parent / "screenshots" / name).write_text(draw() + "\n", encoding="utf-8")


@settings(max_examples=300)
@given(
    text=st.text(alphabet="xXoO.-_/ ,0123456789abcdefghijklmnopz\n\t\x1b", max_size=30),
    game=st.sampled_from(["3x3k3", "3x4k3", "3x3k3-misere", "15x15k5"]),
)
def test_any_text_is_a_position_or_one_line_naming_it(text, game):
    """What a user types: a position (whose board reads back to itself) or an InputError of one line."""
    try:
        found = workbench.position(text, game)
    except workbench.InputError as error:
        message = str(error)
        assert "\n" not in message and "\x1b" not in message
        return
    assert workbench.position(found.board, game) == found
    if found.moves:
        assert workbench.position(found.move_text, game) == found
