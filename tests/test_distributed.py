"""The sweep on Dask (workbench.distributed.sweep): the store it keeps holds, byte for byte, what the numpy sweep in
one process gives, on one, two or four workers, with a worker killed part way; each ply read block by block (at
most two and a half times the next ply's bytes in all, a worker keeping at most the largest block of it); and what
it says when it cannot run.

One local cluster of two worker processes serves the module (starting one takes seconds); some tests start their
own, of one worker or four, as ``workbench solve --workers N`` would."""

import logging
import os
import random
import signal
import socket
import sys

import numpy as np
import pytest

from workbench.distributed import sweep as distributed_sweep
from workbench.distributed.plan import Task, cut_ply, home_of, share_out
from workbench.distributed.sweep import CLUSTER_EXTRA, dask_sweep, solve_task, task_length
from workbench.engine import Geometry
from workbench.engine.ranked import numbering
from workbench.engine.strong import unpack
from workbench.engine.sweep import HeldRows, rows_needed, solve_range, sweep
from workbench.errors import StoreError, UsageError
from workbench.kept.solutions import (
    CHUNK as STORE_CHUNK,
    SolutionWriter,
    open_solution,
    ply_summary,
    read_stretch,
    write_solution,
)

from .conftest import shared_unless_mapping

distributed = pytest.importorskip("distributed")

FINGERPRINT = "test-engine"
BIG = Geometry(2, 9, 4)
"""The cheapest board past 16 cells with two rows or more: 86.6 million positions with its plies' marks, 17.2
million at the widest ply (the numpy sweep: 5–7 s of CPU here, 2×9 k=3 and 3×6 a fifth and two thirds more)."""
ROW = Geometry(1, 17, 4)
"""The cheapest board past 16 cells: 29.6 million positions with its plies' marks (a third of :data:`BIG`)."""


@pytest.fixture(scope=shared_unless_mapping("module"))
def cluster():
    """(cluster, client) of two single-threaded worker processes, shared by the module's tests. The workers are not
    measured by coverage (as :func:`tests.conftest.untraced_children`; a worker the nanny starts again after a kill
    neither): traced, the module took 133 s of CI's time rather than ~55; what a task runs is measured here, in
    :func:`test_a_task_reads_the_next_ply_once_per_process`."""
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if name.startswith(("COV_CORE_", "COVERAGE_")):
                patch.delenv(name)
        local = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        )
        with local, distributed.Client(local, set_as_default=False) as client:
            yield local, client


def _assert_same_as_numpy(geometry, path, plies) -> None:
    """The store at ``path`` opens, holds every ply's bytes, and counts them as the numpy sweep's store does."""
    solution = open_solution(geometry, path, FINGERPRINT)
    assert solution is not None
    assert solution.attributes["solver"] == "dask"
    for ply, values in plies.items():
        assert np.array_equal(solution.ply(ply), values), f"ply {ply}"
    summaries = [ply_summary(plies[ply]) for ply in range(geometry.size + 1)]
    assert list(solution.positions_by_ply) == [summary["positions"] for summary in summaries]
    assert list(solution.terminal_by_ply) == [summary["terminal"] for summary in summaries]
    assert [list(counts) for counts in solution.values_by_ply] == [summary["values"] for summary in summaries]
    assert not list(path.rglob("*.partial"))


def _assert_read_block_by_block(geometry, attributes, workers) -> None:
    """Each ply read at most two and a half times the next ply's bytes in all, by workers named ``0``…, and a block
    more for each task Dask ran away from its worker (work stealing: its block read again where it ran); each worker
    keeping at most the largest block of the next ply whole, with its peak memory said."""
    numbered = numbering(geometry)
    for ply in range(geometry.size):
        size = numbered.ply_size(ply + 1)
        largest = max(block.rows * block.cols for block in numbered.blocks[ply + 1])
        stolen = attributes["tasks_elsewhere_by_ply"][ply]
        assert attributes["read_bytes_by_ply"][ply] <= 2.5 * size + stolen * largest, ply
        by_worker = attributes["worker_read_bytes_by_ply"][ply]
        assert set(by_worker) <= {str(worker) for worker in range(workers)}
        assert sum(by_worker.values()) == attributes["read_bytes_by_ply"][ply]
        assert max(attributes["worker_held_bytes_by_ply"][ply].values()) <= largest, ply
        assert set(attributes["worker_peak_bytes_by_ply"][ply]) == set(by_worker)
        assert all(peak > 0 for peak in attributes["worker_peak_bytes_by_ply"][ply].values())
    assert attributes["read_bytes_by_ply"][geometry.size] == 0


def _assert_lookups(geometry, path, plies, count=300) -> None:
    """Positions drawn at random from every ply read back as the numpy sweep's (value, remoteness)."""
    solution = open_solution(geometry, path, FINGERPRINT)
    numbered = numbering(geometry)
    chooser = random.Random(42)
    for _ in range(count):
        ply = chooser.randrange(geometry.size + 1)
        rank = chooser.randrange(numbered.ply_size(ply))
        assert solution.lookup(*numbered.position(ply, rank)) == unpack(int(plies[ply][rank]))


@pytest.mark.parametrize("geometry", [Geometry(3, 4, 3), Geometry(3, 4, 3, misere=True), Geometry(4, 4, 4)], ids=str)
def test_the_dask_sweep_keeps_the_numpy_sweep_s_store(cluster, tmp_path, geometry):
    """Chunk for chunk the files the one-process sweep's writer leaves (the attributes apart: who solved it, how
    long it took)."""
    local, _ = cluster
    shares = []
    kept = dask_sweep(
        geometry,
        tmp_path / "dask.zarr",
        fingerprint=FINGERPRINT,
        scheduler=local.scheduler_address,
        progress=shares.append,
    )
    plies = dict(sweep(geometry))
    _assert_same_as_numpy(geometry, kept, plies)
    numpy_store = write_solution(geometry, tmp_path / "numpy.zarr", FINGERPRINT, sorted(plies.items(), reverse=True))
    for ply in plies:
        ours = {path.relative_to(kept): path.read_bytes() for path in (kept / str(ply)).rglob("*") if path.is_file()}
        theirs = {
            path.relative_to(numpy_store): path.read_bytes()
            for path in (numpy_store / str(ply)).rglob("*")
            if path.is_file()
        }
        assert ours == theirs, f"ply {ply}"
    assert shares == sorted(shares) and shares[-1] == pytest.approx(1.0)
    assert len(shares) == sum(open_solution(geometry, kept).attributes["tasks_by_ply"])


def test_a_dask_sweep_carries_on_a_solve_cut_short(cluster, tmp_path):
    """A sweep cut short after four plies (ctrl+c): the Dask sweep of the same target checks them, solves only the
    plies below, and keeps the numpy sweep's bytes (issue 50)."""
    local, _ = cluster
    geometry = Geometry(3, 4, 3)
    target = tmp_path / "dask.zarr"

    def cut(below, later):
        for count, pair in enumerate(sweep(geometry, below=below, later=later)):
            if count == 4:
                raise KeyboardInterrupt
            yield pair

    with pytest.raises(KeyboardInterrupt):
        write_solution(geometry, target, FINGERPRINT, cut, resume=True)
    shares = []
    kept = dask_sweep(
        geometry, target, fingerprint=FINGERPRINT, scheduler=local.scheduler_address, progress=shares.append
    )
    _assert_same_as_numpy(geometry, kept, dict(sweep(geometry)))
    tasks = open_solution(geometry, kept).attributes["tasks_by_ply"]
    assert tasks[-4:] == [0, 0, 0, 0] and all(tasks[: geometry.size + 1 - 4])  # the four plies done were not solved
    assert shares[0] > 0.0 and shares[-1] == pytest.approx(1.0)


@pytest.mark.usefixtures("untraced_children")
def test_a_board_past_sixteen_cells_on_two_workers_and_on_one(cluster, tmp_path):
    """On the module's two workers, then on a local cluster of one worker started and closed by the sweep itself
    (no scheduler given: ``workbench solve --workers 1``). One test, so that the numpy sweep it is checked against
    is run once however the test processes share the module out."""
    plies = dict(sweep(BIG))
    local, _ = cluster
    kept = dask_sweep(BIG, tmp_path / "two.zarr", fingerprint=FINGERPRINT, scheduler=local.scheduler_address)
    _assert_same_as_numpy(BIG, kept, plies)
    _assert_lookups(BIG, kept, plies)
    attributes = open_solution(BIG, kept).attributes
    assert attributes["workers"] == 2
    _assert_read_block_by_block(BIG, attributes, 2)

    kept = dask_sweep(BIG, tmp_path / "one.zarr", fingerprint=FINGERPRINT, workers=1)
    _assert_same_as_numpy(BIG, kept, plies)
    attributes = open_solution(BIG, kept).attributes
    assert attributes["workers"] == 1
    _assert_read_block_by_block(BIG, attributes, 1)


@pytest.mark.usefixtures("untraced_children")
def test_four_workers_read_block_by_block(tmp_path):
    """Four workers (on however few cores: it proves the reading, not the speed) keep the numpy sweep's bytes, and
    read each ply at most two and a half times the next ply's bytes in all, where each reading the whole next ply
    would be four times."""
    kept = dask_sweep(ROW, tmp_path / "four.zarr", fingerprint=FINGERPRINT, workers=4)
    _assert_same_as_numpy(ROW, kept, dict(sweep(ROW)))
    attributes = open_solution(ROW, kept).attributes
    assert attributes["workers"] == 4
    _assert_read_block_by_block(ROW, attributes, 4)
    assert len(set().union(*attributes["worker_read_bytes_by_ply"])) == 4  # every worker had a share


def test_a_worker_killed_mid_ply_is_survived(cluster, tmp_path):
    """A worker process killed (SIGKILL, as the kernel's out-of-memory killer would) while tasks of the sweep are
    assigned to it: Dask runs them again on the other, the nanny starts a new worker, and the store is whole and
    right. Killed from outside, in the middle of the widest plies; tasks of one store chunk, so that each ply
    has dozens."""
    local, client = cluster
    geometry = Geometry(4, 4, 4)
    killed = []

    def kill_a_busy_worker(share: float) -> None:
        if killed or share < 0.3:
            return
        processing = client.processing()
        busy = [worker for worker, keys in processing.items() if any("workbench-sweep" in str(key) for key in keys)]
        if busy:
            pid = client.run(os.getpid, workers=busy[:1])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append((pid, processing[busy[0]]))

    kept = dask_sweep(
        geometry,
        tmp_path / "dask.zarr",
        fingerprint=FINGERPRINT,
        scheduler=local.scheduler_address,
        progress=kill_a_busy_worker,
        chunk=STORE_CHUNK,
    )
    assert killed
    pid, keys = killed[0]

    def runs(key) -> int:  # a task held by the dead worker, running or done but not yet fetched, is run again
        return sum(finish == "processing" for _, _, finish, *_ in local.scheduler.story(key))

    assert max(runs(key) for key in keys) >= 2
    _assert_same_as_numpy(geometry, kept, dict(sweep(geometry)))
    client.wait_for_workers(2, timeout=60)  # the nanny's new worker, for the module's other tests
    assert pid not in client.run(os.getpid).values()


def test_nothing_kept_leaves_nothing_behind(cluster, tmp_path, monkeypatch):
    """``target`` None (the cache turned off): solved in a temporary folder, removed after."""
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    local, _ = cluster
    assert dask_sweep(Geometry(3, 4, 3), None, fingerprint=FINGERPRINT, scheduler=local.scheduler_address) is None
    assert list(tmp_path.iterdir()) == []


def test_a_task_reads_only_the_blocks_it_needs(tmp_path):
    """The tasks themselves, run here in the plan's order: the first task of a home reads its child block whole
    and keeps it, the home's next tasks only their own rows of the other block; in all at most two and a half
    times the next ply, never more than the largest block kept; what a task hands back is the bincount of what it
    wrote, never the bytes."""
    geometry = Geometry(3, 4, 3)
    numbered = numbering(geometry)
    plies = dict(sweep(geometry))
    writer = SolutionWriter(geometry, tmp_path / "s.zarr", FINGERPRINT)
    writer.write(7, plies[7])
    writer.create(6)
    store = str(writer.partial)
    largest = max(block.rows * block.cols for block in numbered.blocks[7])
    tasks = [task for task, _ in share_out(cut_ply(numbered, 6, 1024, 256), {"one": 1})]
    try:
        results = [solve_task(store, geometry, 6, task.start, task.stop) for task in tasks]
        assert len({task.home for task in tasks}) < len(tasks)  # homes of several tasks, read once each
        first_of_home = {}
        for task, result in zip(tasks, results):
            first_of_home.setdefault(task.home, result)
            assert result["held"] <= largest and result["peak"] > 0
        for (ax, ao), result in first_of_home.items():
            if ax + ao < numbered.a.size:  # its child block by a mark in half A (X moves at ply 6), read whole
                block = numbered.block(7, ax + 1, ao)
                assert result["read"] >= block.rows * block.cols and result["held"] >= block.rows * block.cols
        assert plies[7].size < sum(result["read"] for result in results) <= 2.5 * plies[7].size
        counts = sum(result["counts"] for result in results)
        assert np.array_equal(counts, np.bincount(plies[6], minlength=256))
        again = solve_task(store, geometry, 6, tasks[0].start, tasks[0].stop)  # run twice: the same bytes
        assert np.array_equal(again["counts"], results[0]["counts"])
        import zarr

        assert np.array_equal(zarr.open_array(f"{store}/6", mode="r")[:], plies[6])
        distributed_sweep.forget(store)
        assert solve_task(store, geometry, 6, tasks[0].start, tasks[0].stop)["read"] == results[0]["read"]
    finally:
        distributed_sweep.forget(store)
        writer.abandon()


@pytest.mark.parametrize("geometry", [Geometry(3, 4, 3), Geometry(3, 4, 3, misere=True), Geometry(3, 5, 3)], ids=str)
def test_a_range_solved_from_the_rows_it_needs_alone(geometry):
    """Given only the rows of the next ply's blocks that rows_needed names (every other byte unread), any range
    gives the bytes the whole next ply gives; a row missing is refused, never read from elsewhere."""
    numbered = numbering(geometry)
    plies = dict(sweep(geometry))
    chooser = random.Random(7)
    for _ in range(60):
        ply = chooser.randrange(geometry.size)
        size = numbered.ply_size(ply)
        start = chooser.randrange(size)
        stop = chooser.randrange(start + 1, size + 1)
        held = {}
        for key, rows in rows_needed(geometry, ply, start, stop).items():
            block = numbered.block(ply + 1, *key)
            data = plies[ply + 1][block.offset : block.stop].reshape(block.rows, block.cols)[rows].ravel()
            held[key] = HeldRows(data, block.cols, rows=rows)
        assert np.array_equal(solve_range(geometry, ply, start, stop, held), plies[ply][start:stop])
    key, rows = max(rows_needed(geometry, 4, 0, numbered.ply_size(4)).items(), key=lambda item: item[1].size)
    block = numbered.block(5, *key)
    short = HeldRows(np.zeros((rows.size - 1) * block.cols, dtype=np.uint8), block.cols, rows=rows[1:])
    with pytest.raises(ValueError, match="not every one of rows"):
        short.terms(rows)
    stretch = HeldRows(np.zeros(block.cols, dtype=np.uint8), block.cols, first=int(rows[0]))
    with pytest.raises(ValueError, match="are held, not all of"):
        stretch.terms(rows)


@pytest.mark.parametrize("geometry", [Geometry(2, 9, 4), Geometry(4, 5, 4)], ids=str)
@pytest.mark.parametrize("workers", [1, 2, 4, 64])
def test_a_ply_is_cut_at_its_blocks_and_shared_out_by_block(geometry, workers):
    """Every ply's tasks cover it once in whole store chunks, none longer than a task may be; each task's home
    holds most of its ranks; a home's tasks go to one worker unless it is larger than a worker's share; and no
    worker is given more than its share and the largest run."""
    numbered = numbering(geometry)
    addresses = {f"tcp://worker-{index}": 1 for index in range(workers)}
    for ply in range(geometry.size + 1):
        size = numbered.ply_size(ply)
        chunk = min(size, STORE_CHUNK)
        length = task_length(size, workers)
        tasks = cut_ply(numbered, ply, length, chunk)
        assert [task.start for task in tasks] == [0] + [task.stop for task in tasks[:-1]]
        assert tasks[-1].stop == size
        assert all(task.start % chunk == 0 and 0 < task.ranks <= length for task in tasks)
        assert all(task.home == home_of(numbered, ply, task.start, task.stop) for task in tasks)
        planned = share_out(tasks, addresses)
        assert sorted(task.start for task, _ in planned) == [task.start for task in tasks]
        share = size / workers
        load: dict[str, int] = {}
        for home in {task.home for task in tasks}:
            ranks = sum(task.ranks for task in tasks if task.home == home)
            meant = {worker for task, worker in planned if task.home == home}
            assert len(meant) == 1 or ranks > share, (ply, home)
        for task, worker in planned:
            load[worker] = load.get(worker, 0) + task.ranks
        assert max(load.values()) <= share + max(max(task.ranks for task in tasks), share), ply


def test_no_worker_no_plan():
    numbered = numbering(Geometry(3, 4, 3))
    tasks = cut_ply(numbered, 5, 1024, 256)
    assert share_out(tasks, {}) == [(task, None) for task in tasks]
    with pytest.raises(ValueError, match="hold no position of ply 5"):
        home_of(numbered, 5, numbered.ply_size(5), numbered.ply_size(5) + 10)
    assert Task(0, 10, (0, 0)).ranks == 10


def test_rows_far_apart_are_read_as_stretches_apart():
    """Rows of a block with a whole chunk of the store between them are read as separate stretches and held
    alone; rows closer than that as one stretch, the rows between held too."""
    from workbench.distributed.task import _read_rows
    from workbench.engine.ranked import Block

    ply = np.random.default_rng(2).integers(0, 256, 500_000, dtype=np.uint8)
    block = Block(0, 0, 0, 0, offset=100, rows=100, cols=4096)
    asked = []

    def stretch(start, stop):
        asked.append((start, stop))
        return ply[start:stop].copy()

    def row(index):
        return ply[block.offset + index * block.cols : block.offset + (index + 1) * block.cols]

    rows = np.array([0, 1, 2, 40, 41, 90])
    held, read = _read_rows(stretch, block, rows)
    assert len(asked) == 3 and read == (3 + 2 + 1) * block.cols
    for index, start in zip(rows, held.terms(rows)):
        assert np.array_equal(held.data[start : start + block.cols], row(index))
    asked.clear()
    held, read = _read_rows(stretch, block, np.array([5, 9, 20]))  # 10 rows apart: less than a chunk
    assert len(asked) == 1 and read == 16 * block.cols and held.rows is None
    assert np.array_equal(held.data[held.terms(np.array([12]))[0] :][: block.cols], row(12))


def test_a_stretch_is_read_straight_from_the_chunk_files(tmp_path):
    """What a task reads of the next ply: zarr's bytes, a chunk never written being the fill value; a damaged chunk
    is refused; an array laid out otherwise is read through zarr; no array is FileNotFoundError."""
    import zarr

    geometry = Geometry(4, 4, 4)
    size = numbering(geometry).ply_size(8)  # fourteen chunks
    writer = SolutionWriter(geometry, tmp_path / "s.zarr", FINGERPRINT)
    writer.write(8, np.random.default_rng(5).integers(0, 256, size, dtype=np.uint8))
    store = writer.partial
    (store / "8" / "c" / "1").unlink()  # as zarr leaves a chunk of the fill value alone
    expected = zarr.open_array(str(store / "8"), mode="r")[:]
    chooser = random.Random(3)
    for _ in range(30):
        start = chooser.randrange(size)
        stop = chooser.randrange(start + 1, size + 1)
        assert np.array_equal(read_stretch(store, 8, size, start, stop), expected[start:stop])
    assert np.array_equal(
        read_stretch(store, 8, size, STORE_CHUNK, 2 * STORE_CHUNK), np.full(STORE_CHUNK, 255, dtype=np.uint8)
    )
    (store / "8" / "c" / "0").write_bytes(b"not zstd")
    with pytest.raises(StoreError, match="damaged"):
        read_stretch(store, 8, size, 0, 10)
    with pytest.raises(FileNotFoundError):
        read_stretch(store, 7, numbering(geometry).ply_size(7), 0, 10)
    other = zarr.create_array(str(store / "9"), shape=(5000,), dtype="uint8", chunks=(1000,))
    other[:] = np.arange(5000) % 251
    assert np.array_equal(read_stretch(store, 9, 5000, 10, 2500), np.arange(10, 2500) % 251)
    writer.abandon()


def test_a_worker_that_cannot_see_the_store_says_so(tmp_path):
    """A cluster of several machines without a shared folder: each task fails in one line (then, after Dask's
    retries, the sweep with it), not with zarr's traceback."""
    store = str(tmp_path / "elsewhere.zarr.partial-1")
    with pytest.raises(
        StoreError, match=r"cannot read ply 9 at .*elsewhere.* must be shared by the driver and every worker"
    ):
        solve_task(store, Geometry(3, 4, 3), 8, 0, 100)


@pytest.mark.parametrize("size", [1, 148, STORE_CHUNK - 1, STORE_CHUNK, 17_153_136, 133_024_320])
@pytest.mark.parametrize("threads", [1, 2, 64])
def test_a_task_is_whole_store_chunks(size, threads):
    """Two tasks never write one chunk file; none is longer than the sweep's chunk; otherwise a task is the fewest
    whole chunks that still cut the ply into four tasks a thread."""
    store_chunk, longest = min(size, STORE_CHUNK), 1 << 22
    length = task_length(size, threads)
    assert length % store_chunk == 0 and store_chunk <= length <= max(store_chunk, longest)
    wanted = -(-size // (threads * 4))
    if store_chunk < length < longest:
        assert wanted <= length < wanted + store_chunk


def test_a_task_chunk_not_of_whole_store_chunks_is_refused():
    with pytest.raises(ValueError, match="multiple of 65536"):
        dask_sweep(Geometry(3, 4, 3), None, fingerprint=FINGERPRINT, chunk=1000)


def test_an_unreachable_scheduler_is_one_line(tmp_path):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    with pytest.raises(UsageError) as raised:
        dask_sweep(
            Geometry(3, 4, 3), tmp_path / "s.zarr", fingerprint=FINGERPRINT, scheduler=address, connect_timeout=0.5
        )
    assert str(raised.value) == f"cannot reach the Dask scheduler at {address}: no answer within 0.5 s"
    with pytest.raises(UsageError, match="^cannot reach the Dask scheduler at nowhere: missing port number"):
        dask_sweep(Geometry(3, 4, 3), tmp_path / "s.zarr", fingerprint=FINGERPRINT, scheduler="nowhere")
    assert not (tmp_path / "s.zarr").exists()


def test_without_dask_it_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    with pytest.raises(UsageError) as raised:
        dask_sweep(Geometry(3, 4, 3), None, fingerprint=FINGERPRINT, workers=1)
    assert (
        str(raised.value) == CLUSTER_EXTRA == "the Dask sweep needs the cluster extra: pip install "
        "'mnk-workbench[cluster]'"
    )


@pytest.mark.parametrize("geometry", [Geometry(3, 4, 3), Geometry(4, 4, 4)], ids=str)
def test_one_worker_keeps_the_numpy_sweep_s_values_too(tmp_path, geometry):
    """The small boards on a cluster of one worker as well (started and closed by the sweep: `--workers 1`)."""
    kept = dask_sweep(geometry, tmp_path / "one.zarr", fingerprint=FINGERPRINT, workers=1)
    _assert_same_as_numpy(geometry, kept, dict(sweep(geometry)))
    assert open_solution(geometry, kept).attributes["workers"] == 1
