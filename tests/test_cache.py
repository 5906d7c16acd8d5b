"""The tables cache: read back only what is whole and current; never in the way."""

import pytest

from workbench import cache
from workbench.engine import TIC_TAC_TOE
from workbench.engine.analysis import forget_tables, install_tables, tables, tables_if_built


@pytest.fixture
def built():
    """The tables, and afterwards the process memo as it was (other tests rely on it)."""
    table = tables(TIC_TAC_TOE)
    yield table
    install_tables(table)


def test_saved_tables_read_back_equal(built):
    assert cache.save_tables(built)
    assert cache.cache_path(TIC_TAC_TOE).parent == cache.cache_folder()
    assert cache.load_tables(TIC_TAC_TOE) == built


def test_warm_tables_says_where_they_came_from(built):
    assert cache.warm_tables(TIC_TAC_TOE) == "memory"
    forget_tables()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"
    assert cache.cache_path(TIC_TAC_TOE).exists()
    forget_tables()
    assert cache.ready_tables(TIC_TAC_TOE) == "cache"
    assert tables_if_built(TIC_TAC_TOE) == built


@pytest.mark.parametrize(
    "damage",
    [
        lambda content: content[: len(content) // 2],  # truncated
        lambda content: content[:-10] + bytes(10),  # payload overwritten: digest no longer matches
        lambda content: b"something else entirely\n" + content,  # not ours
        lambda content: b"",
    ],
)
def test_a_damaged_cache_is_never_believed(built, damage):
    cache.save_tables(built)
    path = cache.cache_path(TIC_TAC_TOE)
    path.write_bytes(damage(path.read_bytes()))
    assert cache.load_tables(TIC_TAC_TOE) is None
    forget_tables()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"
    assert cache.load_tables(TIC_TAC_TOE) == built  # and rewritten whole


def test_a_digest_that_matches_data_of_the_wrong_shape_is_refused(built):
    import hashlib
    import marshal

    payload = marshal.dumps(("not", "tables"))
    path = cache.cache_path(TIC_TAC_TOE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(cache.MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    assert cache.load_tables(TIC_TAC_TOE) is None


def test_an_unwritable_cache_folder_only_costs_time(built, monkeypatch):
    # the folder refuses new files (as a read-only folder does; injected so that it holds as root too)
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cache.tempfile, "mkstemp", refuse)
    forget_tables()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"
    assert tables_if_built(TIC_TAC_TOE) == built
    assert not cache.save_tables(built)
    assert not cache.cache_folder().exists() or list(cache.cache_folder().iterdir()) == []


def test_a_failed_replace_leaves_no_temporary_and_keeps_the_old_file(built, monkeypatch):
    assert cache.save_tables(built)
    path = cache.cache_path(TIC_TAC_TOE)
    before = path.read_bytes()

    def refuse(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache.os, "replace", refuse)
    assert not cache.save_tables(built)
    assert list(cache.cache_folder().iterdir()) == [path]  # the temporary file is gone
    assert path.read_bytes() == before


def test_a_cache_folder_that_is_a_file_only_costs_time(built, tmp_path, monkeypatch):
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert not cache.save_tables(built)
    assert cache.load_tables(TIC_TAC_TOE) is None
    forget_tables()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"


def test_files_of_other_engines_are_cleared_and_no_temporary_is_left(built):
    folder = cache.cache_folder()
    folder.mkdir(parents=True, exist_ok=True)
    stale = folder / "tables-3x3-k3-0123456789abcdef.bin"
    stale.write_bytes(b"old")
    other_board = folder / "tables-4x4-k4-0123456789abcdef.bin"
    other_board.write_bytes(b"other")
    cache.save_tables(built)
    assert sorted(path.name for path in folder.iterdir()) == sorted([cache.cache_path(TIC_TAC_TOE).name, other_board.name])


def test_the_cache_can_be_turned_off(built, monkeypatch):
    monkeypatch.setenv(cache.DISABLE_VARIABLE, "1")
    forget_tables()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"
    assert not cache.cache_path(TIC_TAC_TOE).exists()
    forget_tables()
    assert cache.ready_tables(TIC_TAC_TOE) is None


def test_the_file_name_tracks_the_engine_and_python():
    name = cache.cache_path(TIC_TAC_TOE).name
    assert name.startswith("tables-3x3-k3-") and name.endswith(f"-{cache.engine_fingerprint()}.bin")
    assert len(cache.engine_fingerprint()) == 16


def test_a_second_thread_waits_for_the_first_instead_of_building_again(built, monkeypatch):
    import threading

    started, release = threading.Event(), threading.Event()
    real_build = cache.build_tables
    builds = []

    def slow_build(geometry):
        builds.append(geometry)
        started.set()
        release.wait(5)
        return real_build(geometry)

    monkeypatch.setattr(cache, "build_tables", slow_build)
    monkeypatch.setenv(cache.DISABLE_VARIABLE, "1")
    forget_tables()
    first = cache.warm_in_background(TIC_TAC_TOE)
    assert started.wait(5)
    assert cache.ready_tables(TIC_TAC_TOE) is None  # busy elsewhere: says so at once, never waits
    outcome = []
    second = threading.Thread(target=lambda: outcome.append(cache.build_and_cache_tables(TIC_TAC_TOE)))
    second.start()
    release.set()
    first.join(5)
    second.join(5)
    assert outcome == [False] and len(builds) == 1
    assert cache.ready_tables(TIC_TAC_TOE) == "memory"
