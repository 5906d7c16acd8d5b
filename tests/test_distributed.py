"""The sweep on Dask (workbench.distributed.sweep): the store it keeps holds, byte for byte, what the numpy sweep in
one process gives, on one worker or two, with a worker killed part way; and what it says when it cannot run.

One local cluster of two worker processes serves the module (starting one takes seconds); one test starts its own,
of one worker, as ``workbench solve --workers 1`` would."""

import logging
import os
import random
import signal
import socket
import sys

import numpy as np
import pytest

from workbench.distributed import sweep as distributed_sweep
from workbench.distributed.sweep import CLUSTER_EXTRA, dask_sweep, solve_task, task_length
from workbench.engine import Geometry
from workbench.engine.ranked import numbering
from workbench.engine.strong import unpack
from workbench.engine.sweep import sweep
from workbench.errors import StoreError, UsageError
from workbench.kept.solutions import CHUNK as STORE_CHUNK, SolutionWriter, open_solution, ply_summary, write_solution

from .conftest import shared_unless_mapping

distributed = pytest.importorskip("distributed")

FINGERPRINT = "test-engine"
BIG = Geometry(2, 9, 4)
"""The cheapest board past 16 cells with two rows or more: 86.6 million positions with its plies' marks, 17.2
million at the widest ply (the numpy sweep: 5–7 s of CPU here, 2×9 k=3 and 3×6 a fifth and two thirds more)."""


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
    sizes = [numbering(BIG).ply_size(ply) for ply in range(BIG.size + 1)]
    local, _ = cluster
    kept = dask_sweep(BIG, tmp_path / "two.zarr", fingerprint=FINGERPRINT, scheduler=local.scheduler_address)
    _assert_same_as_numpy(BIG, kept, plies)
    _assert_lookups(BIG, kept, plies)
    attributes = open_solution(BIG, kept).attributes
    assert attributes["workers"] == 2
    # each worker reads the next ply once a ply, however many of the ply's tasks it runs
    for ply in range(BIG.size):
        assert attributes["read_bytes_by_ply"][ply] in (sizes[ply + 1], 2 * sizes[ply + 1]), ply

    kept = dask_sweep(BIG, tmp_path / "one.zarr", fingerprint=FINGERPRINT, workers=1)
    _assert_same_as_numpy(BIG, kept, plies)
    attributes = open_solution(BIG, kept).attributes
    assert attributes["workers"] == 1
    assert attributes["read_bytes_by_ply"] == sizes[1:] + [0]


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


def test_a_task_reads_the_next_ply_once_per_process(tmp_path):
    """The task itself, run here: the first task of a ply reads the whole next ply from the store, the next ones
    reuse it; what it hands back is the bincount of what it wrote, never the bytes."""
    geometry = Geometry(3, 4, 3)
    plies = dict(sweep(geometry))
    writer = SolutionWriter(geometry, tmp_path / "s.zarr", FINGERPRINT)
    writer.write(9, plies[9])
    writer.create(8)
    store, size = str(writer.partial), plies[8].size
    try:
        first = solve_task(store, geometry, 8, 0, STORE_CHUNK // 2)
        second = solve_task(store, geometry, 8, STORE_CHUNK // 2, size)
        assert (first["read"], second["read"]) == (plies[9].size, 0)
        assert np.array_equal(first["counts"] + second["counts"], np.bincount(plies[8], minlength=256))
        again = solve_task(store, geometry, 8, 0, STORE_CHUNK // 2)  # a task run twice writes the same bytes
        assert np.array_equal(again["counts"], first["counts"])
        import zarr

        assert np.array_equal(zarr.open_array(f"{store}/8", mode="r")[:], plies[8])
        distributed_sweep.forget(store)
        assert solve_task(store, geometry, 8, 0, size)["read"] == plies[9].size
    finally:
        distributed_sweep.forget(store)
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
