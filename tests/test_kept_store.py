"""docs/kept-store.md is enough to read a kept solution without the workbench (issue 51): its rank functions, run
as the page gives them, with zarr alone, decode the values ``workbench analyze`` gives, on the 2×9k4 store that
test_kept_boards's fixture solves and keeps."""

import json
import random
import re
from pathlib import Path, PurePosixPath

import pytest

from .test_kept_boards import solved_home  # noqa: F401 - the module's fixture: 2×9k4 solved and kept once

PAGE = Path(__file__).parent.parent / "docs" / "kept-store.md"
BOARD, CELLS = "2x9k4", 18


def page_functions() -> dict:
    """The page's Python block that defines ``ply_and_rank``, run in a namespace of its own."""
    blocks = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    source = next(block for block in blocks if "def ply_and_rank" in block)
    assert "workbench" not in source
    namespace: dict = {}
    exec(compile(source, str(PAGE), "exec"), namespace)  # the page's own code, as a reader would paste it
    return namespace


def test_the_page_s_ranks_are_the_engine_s_numbering():
    """Every board of two small plies and a sample of a wide one: the page's rank equals the engine's."""
    from workbench.engine import Geometry
    from workbench.engine.ranked import numbering

    ply_and_rank = page_functions()["ply_and_rank"]
    numbered = numbering(Geometry(2, 9, 4))
    rng = random.Random(51)
    for ply in (0, 1, 2, 9, 17):
        size = numbered.ply_size(ply)
        for rank in sorted(rng.sample(range(size), min(size, 300))):
            x, o = numbered.position(ply, rank)
            board = "".join("X" if x >> c & 1 else "O" if o >> c & 1 else "." for c in range(CELLS))
            assert ply_and_rank(board, CELLS) == (ply, rank)
    with pytest.raises(ValueError, match="not the marks of a ply"):
        ply_and_rank("XX" + "." * 16, CELLS)


def test_zarr_alone_decodes_the_values_workbench_analyze_gives(solved_home, monkeypatch, capsys):  # noqa: F811
    import zarr

    from workbench.cli import main
    from workbench.engine import Geometry
    from workbench.kept.held import let_go

    home, _ = solved_home
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    (path,) = (Path(home) / "workbench").glob("solution-2x9-k4-*.zarr")
    store = zarr.open_group(str(path), mode="r")
    assert store.attrs["complete"] is True and store.attrs["variant"] == BOARD and store.attrs["format"] == 1
    assert [store[str(ply)].shape[0] >= count for ply, count in enumerate(store.attrs["positions_by_ply"])] == [
        True
    ] * (CELLS + 1)
    ply_and_rank = page_functions()["ply_and_rank"]
    rng = random.Random(7)
    checked = 0
    try:
        for _ in range(3):
            board, moves = ["."] * CELLS, []
            while len(moves) < 14:
                cell = rng.choice([c for c in range(CELLS) if board[c] == "."])
                board[cell] = "X" if len(moves) % 2 == 0 else "O"
                moves.append(cell + 1)
                assert main(["analyze", "--game", BOARD, "--moves", ",".join(map(str, moves)), "--json"]) == 0
                record = json.loads(capsys.readouterr().out)
                ply, rank = ply_and_rank("".join(board), CELLS)
                byte = int(store[str(ply)][rank])
                if record["status"] != "in_play":
                    assert byte != 255 and byte & 31 == 0
                    break
                value, remoteness = (byte >> 5) - 1, byte & 31
                assert ({1: "win", 0: "draw", -1: "loss"}[value], remoteness) == (
                    record["value"],
                    record["remoteness"],
                )
                checked += 1
        whole = store["4"][:]
        assert int((whole != 255).sum()) == store.attrs["positions_by_ply"][4]
    finally:
        let_go(Geometry(2, 9, 4))
    assert checked >= 20


def test_the_api_reads_the_kept_solution_as_zarr_does(solved_home, monkeypatch, tmp_path):  # noqa: F811
    """``workbench.kept_solution`` and ``open_solution`` on the kept 2×9k4: a ply's values as the store's bytes
    decode them, ranks and positions both ways, and a position's value from the kept tier."""
    import numpy as np
    import zarr

    import workbench
    from workbench.engine import Geometry
    from workbench.kept.held import let_go

    home, _ = solved_home
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    let_go(Geometry(2, 9, 4))
    try:
        assert workbench.variant(BOARD).tier == "kept"
        solution = workbench.kept_solution(BOARD)
        assert solution is not None and solution.kind == "kept" and solution.plies == CELLS + 1
        opened = workbench.open_solution(solution.path)
        assert workbench.solve(BOARD).path == solution.path  # read back, never solved again
        raw = zarr.open_group(str(solution.path), mode="r")["6"][:]
        for found in (solution, opened):
            assert np.array_equal(found.packed(6), raw)
            assert np.array_equal(found.values(6), np.where(raw == 255, -2, (raw >> 5).astype(np.int8) - 1))
            assert np.array_equal(found.remoteness(6), np.where(raw == 255, 0, raw & 31))
        position = workbench.position("b1 a2 c1 e2 f1", BOARD)
        ply, rank = solution.rank(position)
        assert solution.position(ply, rank) == position
        assert solution.lookup(position) == (position.value, position.remoteness)
        assert int(solution.values(ply)[rank]) == int(position.value) and position.variant.tier == "kept"
        assert workbench.atlas_record(BOARD).positions == sum(solution.positions_by_ply)
    finally:
        let_go(Geometry(2, 9, 4))
    with pytest.raises(workbench.StoreError, match="no kept solution at .*: a folder with no zarr.json"):
        workbench.open_solution(tmp_path)
    with pytest.raises(workbench.StoreError, match="no kept solution at .*: no such folder$"):
        workbench.open_solution(tmp_path / "gone")  # (it said "[Errno 2] No such file or directory: …/zarr.json")
    with pytest.raises(workbench.StoreError, match="no such folder"):  # any path-like object is a path
        workbench.open_solution(PurePosixPath(tmp_path / "gone"))
    with pytest.raises(workbench.InputError, match="path None: the folder of a kept solution"):
        workbench.open_solution(None)  # type: ignore[arg-type] - the point of the test
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert workbench.kept_solution(BOARD) is None
    with pytest.raises(workbench.InputError, match="atlas record reads a kept solution"):
        workbench.atlas_record(BOARD)
