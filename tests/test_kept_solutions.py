"""Solutions past 16 cells: the ranked numbering of each ply, the sweep over it (byte for byte the strong solve's
values wherever both can solve), the Zarr store it is kept in, and the analysis read from it."""

import json
import os
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from workbench.engine import Geometry
from workbench.engine.analysis import analyze_strong
from workbench.engine.answers import SolutionAnswers
from workbench.engine.position import Position
from workbench.engine.ranked import numbering, positions_with_marks
from workbench.engine.strong import UNREACHED
from workbench.engine.sweep import solve_range, sweep
from workbench.errors import StoreError
from workbench.kept.solutions import CHUNK, SolutionWriter, open_solution, write_solution

from .solved import solved

BOARDS = [
    Geometry(3, 3, 3),
    Geometry(3, 3, 3, misere=True),
    Geometry(2, 2, 2),
    Geometry(1, 4, 3),
    Geometry(3, 4, 3),
    Geometry(3, 4, 3, misere=True),
    Geometry(3, 4, 4),
    Geometry(2, 5, 3, misere=True),
    Geometry(2, 6, 3),
    Geometry(1, 7, 3, misere=True),
]


@pytest.mark.parametrize("geometry", BOARDS, ids=str)
def test_the_sweep_gives_the_strong_solve_s_byte_at_every_position(geometry):
    """Every rank of every ply holds the strong solution's byte at that position's ternary index (unreached
    ones included), and the two reach the same number of positions."""
    strong = solved(geometry)
    numbered = numbering(geometry)
    reached = 0
    for ply, values in sweep(geometry):
        assert values.size == numbered.ply_size(ply) == positions_with_marks(geometry.size, ply)
        assert np.array_equal(strong.packed[numbered.ternary_indices(ply)], values)
        reached += int((values != UNREACHED).sum())
    assert reached == strong.positions


def test_the_sweep_and_the_strong_solve_agree_on_four_by_four():
    """The largest board both solve: 9.7 million positions (misère 4×4 agreed too, checked by hand: its strong
    solve is another 15 s of CI's time)."""
    geometry = Geometry(4, 4, 4)
    strong = solved(geometry)
    numbered = numbering(geometry)
    for ply, values in sweep(geometry):
        assert np.array_equal(strong.packed[numbered.ternary_indices(ply)], values), ply


@given(data=st.data())
@settings(max_examples=60)
def test_a_rank_and_its_position_go_both_ways(data):
    geometry = data.draw(st.sampled_from([Geometry(3, 4, 3), Geometry(4, 5, 4), Geometry(2, 9, 3), Geometry(1, 17, 4)]))
    numbered = numbering(geometry)
    ply = data.draw(st.integers(0, geometry.size))
    ranks = data.draw(st.lists(st.integers(0, numbered.ply_size(ply) - 1), min_size=1, max_size=8))
    positions = [numbered.position(ply, rank) for rank in ranks]
    assert [numbered.rank(x, o) for x, o in positions] == [(ply, rank) for rank in ranks]
    plies, found = numbered.ranks(np.array([x for x, _ in positions]), np.array([o for _, o in positions]))
    assert plies.tolist() == [ply] * len(ranks) and found.tolist() == ranks
    for x, o in positions:
        assert (x & o) == 0 and x.bit_count() == (ply + 1) // 2 and o.bit_count() == ply // 2


def test_a_rank_outside_its_ply_is_refused():
    numbered = numbering(Geometry(3, 3, 3))
    with pytest.raises(IndexError, match="outside ply 1"):
        numbered.position(1, 9)


@given(data=st.data())
@settings(max_examples=40)
def test_any_range_of_a_ply_is_solved_on_its_own(data):
    """A range cut anywhere (through a block's rows, across blocks) gives the same bytes as the whole ply:
    what a task on a cluster solves."""
    geometry = Geometry(3, 4, 3, misere=data.draw(st.booleans()))
    plies = _plies(geometry)
    ply = data.draw(st.integers(0, geometry.size))
    size = plies[ply].size
    start = data.draw(st.integers(0, size - 1))
    stop = data.draw(st.integers(start + 1, size))
    later = plies.get(ply + 1)
    assert np.array_equal(solve_range(geometry, ply, start, stop, later), plies[ply][start:stop])


_PLIES = {}


def _plies(geometry):
    if geometry not in _PLIES:
        _PLIES[geometry] = dict(sweep(geometry))
    return _PLIES[geometry]


@pytest.fixture(scope="module")
def store_3x4(tmp_path_factory):
    geometry = Geometry(3, 4, 3)
    path = tmp_path_factory.mktemp("store") / "solution.zarr"
    write_solution(geometry, path, "test", sweep(geometry), solver="numpy")
    return geometry, path


def test_a_kept_solution_reads_back_every_position_s_value_and_its_counts(store_3x4):
    geometry, path = store_3x4
    kept = open_solution(geometry, path, "test")
    strong = solved(geometry)
    assert kept.positions_by_ply == strong.positions_by_ply
    assert kept.terminal_by_ply == strong.terminal_by_ply
    assert kept.values_by_ply == strong.values_by_ply
    everything = np.flatnonzero(strong.packed != UNREACHED)
    digits = [(everything // 3**cell) % 3 for cell in range(geometry.size)]
    x = sum((digit == 1).astype(np.int64) << cell for cell, digit in enumerate(digits))
    o = sum((digit == 2).astype(np.int64) << cell for cell, digit in enumerate(digits))
    assert kept.lookup_many(x, o) == strong.lookup_many(x, o)
    assert kept.lookup(0, 0) == strong.lookup(0, 0) and kept.lookup(1, 2) == strong.lookup(1, 2)
    assert kept.lookup(0b11, 0) is None  # two X marks and no O: no game reaches it
    assert json.loads((path / "zarr.json").read_text())["attributes"]["solver"] == "numpy"


def test_the_quick_chunk_reader_reads_what_zarr_reads(store_3x4):
    """A chunk read straight from its file equals zarr's own reading of it, chunk by chunk."""
    geometry, path = store_3x4
    kept = open_solution(geometry, path, "test")
    for ply in range(geometry.size + 1):
        size = kept.numbered.ply_size(ply)
        assert kept._plain_layout(ply)
        length = min(CHUNK, size)
        for start in range(0, size, length):
            assert np.array_equal(kept._read_chunk(ply, start, length), kept._read(ply, slice(start, start + length)))


def test_another_layout_is_read_through_zarr(tmp_path):
    """An array laid out otherwise (here: another codec) is not read by hand but through zarr, rightly."""
    import zarr
    from zarr.codecs import GzipCodec

    geometry = Geometry(2, 2, 2)
    plies = dict(sweep(geometry))
    writer = SolutionWriter(geometry, tmp_path / "s.zarr", "test")
    summaries = {}
    for ply, values in plies.items():
        array = writer.group.create_array(
            str(ply),
            shape=values.shape,
            dtype="uint8",
            chunks=(values.size,),
            compressors=(GzipCodec(),),
            fill_value=255,
        )
        array[:] = values
        from workbench.kept.solutions import ply_summary

        summaries[ply] = ply_summary(values)
    kept = open_solution(geometry, writer.finish(summaries), "test")
    assert not kept._plain_layout(2)
    assert kept.lookup(1, 2) == solved(geometry).lookup(1, 2)
    assert isinstance(zarr.open_group(str(kept.path), mode="r")["2"], zarr.Array)


def test_a_damaged_chunk_is_refused_in_one_line(tmp_path):
    geometry = Geometry(3, 4, 3)
    path = write_solution(geometry, tmp_path / "s.zarr", "test", sweep(geometry))
    chunk = path / "6" / "c" / "0"
    raw = bytearray(chunk.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    chunk.write_bytes(bytes(raw))
    kept = open_solution(geometry, path, "test")
    x, o = numbering(geometry).position(6, 0)
    with pytest.raises(StoreError, match=r"s\.zarr is damaged \(ply 6"):
        kept.lookup(x, o)


def test_only_a_whole_store_of_this_board_and_engine_is_believed(tmp_path):
    geometry = Geometry(2, 2, 2)
    assert open_solution(geometry, tmp_path / "none.zarr") is None
    path = write_solution(geometry, tmp_path / "s.zarr", "engine-a", sweep(geometry))
    assert open_solution(geometry, path, "engine-a") is not None
    assert open_solution(geometry, path, "engine-b") is None  # another engine's
    assert open_solution(Geometry(2, 2, 2, misere=True), path, "engine-a") is None  # another board's
    # a writer stopped part way leaves nothing at the target, and its partial store is never read
    writer = SolutionWriter(geometry, tmp_path / "t.zarr", "engine-a")
    writer.write(2, dict(sweep(geometry))[2])
    assert not (tmp_path / "t.zarr").exists()
    assert open_solution(geometry, writer.partial, "engine-a") is None
    writer.abandon()
    assert not writer.partial.exists()


def test_a_partial_store_of_a_writer_that_is_gone_is_removed(tmp_path):
    geometry = Geometry(2, 2, 2)
    gone = tmp_path / "s.zarr.partial-999999999"
    gone.mkdir()
    alive = tmp_path / f"s.zarr.partial-{os.getppid()}"
    alive.mkdir()
    SolutionWriter(geometry, tmp_path / "s.zarr", "test").abandon()
    assert not gone.exists() and alive.exists()


def test_an_unwritable_place_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StoreError, match="cannot write a solution at"):
        SolutionWriter(Geometry(2, 2, 2), blocker / "s.zarr", "test")


def test_the_analysis_from_a_kept_solution_is_the_strong_solution_s_without_the_counts(store_3x4):
    """Values, remoteness, traps, masks, symmetry and the best line equal the strong solution's on random games;
    classes and games are not counted (None)."""
    geometry, path = store_3x4
    kept = open_solution(geometry, path, "test")
    strong = solved(geometry)
    rng = random.Random(4)
    for _ in range(12):
        position = Position(geometry=geometry)
        while True:
            ours, theirs = analyze_strong(kept, position), analyze_strong(strong, position)
            assert ours.games is None and ours.symmetry.class_id is None and ours.symmetry.class_count is None
            assert (ours.value, ours.remoteness, ours.masks, ours.status) == (
                theirs.value,
                theirs.remoteness,
                theirs.masks,
                theirs.status,
            )
            assert [(m.cell, m.value, m.remoteness, m.trap, m.games) for m in ours.moves] == [
                (m.cell, m.value, m.remoteness, m.trap, None) for m in theirs.moves
            ]
            assert ours.symmetry.canonical == theirs.symmetry.canonical
            if position.is_over:
                break
            assert SolutionAnswers(kept).principal_variation(position) == SolutionAnswers(strong).principal_variation(
                position
            )
            position = position.play(rng.choice(position.legal_moves()))


# --- a solve cut short, carried on (issue 50) ----------------------------------------------------------------------


def _cut_short(geometry, path, plies_before_the_cut: int) -> None:
    """A resumable write of ``geometry``'s sweep interrupted (ctrl+c) after ``plies_before_the_cut`` plies."""

    def plies(below, later):
        for count, pair in enumerate(sweep(geometry, below=below, later=later)):
            if count == plies_before_the_cut:
                raise KeyboardInterrupt
            yield pair

    with pytest.raises(KeyboardInterrupt):
        write_solution(geometry, path, "test", plies, resume=True, solver="numpy")


def _bytes_by_ply(path, geometry) -> list[bytes]:
    import zarr

    group = zarr.open_group(str(path), mode="r")
    return [np.asarray(group[str(ply)][:]).tobytes() for ply in range(numbering(geometry).plies)]


def test_a_solve_cut_short_is_carried_on_from_its_last_whole_ply_and_gives_the_same_store(store_3x4, tmp_path):
    geometry, whole = store_3x4
    path = tmp_path / "solution.zarr"
    _cut_short(geometry, path, 5)
    (partial,) = tmp_path.glob("solution.zarr.partial-*")  # left for the next run: five plies whole
    said, carried_on = [], []

    def plies(below, later):
        carried_on.append(below)
        return sweep(geometry, below=below, later=later)

    write_solution(geometry, path, "test", plies, resume=True, say=said.append, solver="numpy")
    assert carried_on == [geometry.size - 4]  # plies 12 to 8 were done: on from 7
    assert said == [
        f"workbench: carrying on an earlier solve of {geometry} that was cut short: plies 12 to 8 were done "
        "(checked); going on from ply 7"
    ]
    assert not partial.exists() and not list(tmp_path.glob("*.partial-*"))
    assert _bytes_by_ply(path, geometry) == _bytes_by_ply(whole, geometry)
    kept = open_solution(geometry, path, "test")
    assert kept is not None and kept.values_by_ply == open_solution(geometry, whole, "test").values_by_ply
    assert "plies_done" not in kept.attributes


@pytest.mark.parametrize(
    "damage, reason",
    [
        ("digest", "ply 10 is not the one recorded"),
        ("engine", "an older engine wrote it"),
        ("board", "it is of another board or layout"),
        ("chunk", "ply 12 cannot be read"),
    ],
)
def test_a_damaged_or_foreign_partial_store_is_set_aside_in_one_line_and_never_trusted(
    store_3x4, tmp_path, damage, reason
):
    geometry, whole = store_3x4
    path = tmp_path / "solution.zarr"
    _cut_short(geometry, path, 3)
    (partial,) = tmp_path.glob("solution.zarr.partial-*")
    metadata = partial / "zarr.json"
    meta = json.loads(metadata.read_text())
    attributes = meta["attributes"]
    if damage == "digest":
        attributes["plies_done"]["10"]["sha256"] = "0" * 64
    elif damage == "engine":
        attributes["engine"] = "another"
    elif damage == "board":
        attributes["variant"] = "3x4k4"
    if damage == "chunk":
        (chunk,) = (partial / "12" / "c").iterdir()
        chunk.write_bytes(b"not zstd")
    else:
        metadata.write_text(json.dumps(meta))
    said, carried_on = [], []

    def plies(below, later):
        carried_on.append(below)
        return sweep(geometry, below=below, later=later)

    write_solution(geometry, path, "test", plies, resume=True, say=said.append, solver="numpy")
    assert carried_on == [None]  # from the full board
    aside = tmp_path / "solution.zarr.set-aside"
    assert len(said) == 1 and said[0].startswith(f"workbench: the partial solve at {partial} was set aside (")
    assert reason in said[0] and said[0].endswith(f"), as {aside}") and aside.exists()
    assert _bytes_by_ply(path, geometry) == _bytes_by_ply(whole, geometry)


def test_an_error_that_is_no_interruption_leaves_no_partial_store(tmp_path):
    geometry = Geometry(3, 3, 3)

    def plies(below, later):
        yield from list(sweep(geometry))[:2]
        raise StoreError("disk full")

    with pytest.raises(StoreError):
        write_solution(geometry, tmp_path / "s.zarr", "test", plies, resume=True)
    assert not list(tmp_path.iterdir())
