"""The tables cache: read back only what is whole and current; never in the way."""

import threading
from dataclasses import dataclass

import pytest

from workbench.engine import TIC_TAC_TOE
from workbench.engine.analysis import tables
from workbench.engine.answers import TableAnswers
from workbench.kept import held as held_module, tables as cache
from workbench.kept.held import held, let_go, let_go_of_all


def held_tables(geometry):
    """The tables held for ``geometry`` (read back, or built and kept), or None."""
    answers = held(geometry)
    return answers.table if isinstance(answers, TableAnswers) else None


@pytest.fixture
def built():
    """The tables, held (as the app or a command has them once made ready), and afterwards the answers held as
    they were (other tests rely on them)."""
    before = dict(held_module._HELD)
    table = tables(TIC_TAC_TOE)
    held_module._HELD[TIC_TAC_TOE] = TableAnswers(table)
    yield table
    held_module._HELD.clear()
    held_module._HELD.update(before)


def test_saved_tables_read_back_equal(built):
    assert cache.save_tables(built)
    assert cache.cache_path(TIC_TAC_TOE).parent == cache.cache_folder()
    assert cache.load_tables(TIC_TAC_TOE) == built


def test_warm_tables_says_where_they_came_from(built):
    assert cache.warm_tables(TIC_TAC_TOE) == "memory"
    let_go_of_all()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"
    assert cache.cache_path(TIC_TAC_TOE).exists()
    let_go_of_all()
    assert cache.ready_tables(TIC_TAC_TOE) == "cache"
    assert held_tables(TIC_TAC_TOE) == built


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
    let_go_of_all()
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
    let_go_of_all()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"
    assert held_tables(TIC_TAC_TOE) == built
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
    let_go_of_all()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"


def test_files_of_other_engines_are_cleared_and_no_temporary_is_left(built):
    folder = cache.cache_folder()
    folder.mkdir(parents=True, exist_ok=True)
    stale = folder / "tables-3x3-k3-0123456789abcdef.bin"
    stale.write_bytes(b"old")
    other_board = folder / "tables-4x4-k4-0123456789abcdef.bin"
    other_board.write_bytes(b"other")
    cache.save_tables(built)
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        [cache.cache_path(TIC_TAC_TOE).name, other_board.name]
    )


def test_the_cache_can_be_turned_off(built, monkeypatch):
    monkeypatch.setenv(cache.DISABLE_VARIABLE, "1")
    let_go_of_all()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"
    assert not cache.cache_path(TIC_TAC_TOE).exists()
    let_go_of_all()
    assert cache.ready_tables(TIC_TAC_TOE) is None


def test_the_file_name_tracks_the_engine_and_python():
    name = cache.cache_path(TIC_TAC_TOE).name
    assert name.startswith("tables-3x3-k3-") and name.endswith(f"-{cache.engine_fingerprint()}.bin")
    assert len(cache.engine_fingerprint()) == 16


@dataclass
class HeldBuild:
    """A first build, started by warm_in_background, that waits until ``release`` is set."""

    thread: threading.Thread
    release: threading.Event
    builds: list


@pytest.fixture
def held_first_build(built, monkeypatch):
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
    let_go_of_all()
    first = cache.warm_in_background(TIC_TAC_TOE)
    assert started.wait(5)
    return HeldBuild(first, release, builds)


def test_a_second_thread_waits_for_the_first_instead_of_building_again(held_first_build):
    assert cache.ready_tables(TIC_TAC_TOE) is None  # busy elsewhere: says so at once, never waits
    outcome = []
    second = threading.Thread(target=lambda: outcome.append(cache.build_and_cache_tables(TIC_TAC_TOE)))
    second.start()
    held_first_build.release.set()
    held_first_build.thread.join(5)
    second.join(5)
    assert outcome == [False] and len(held_first_build.builds) == 1
    assert cache.ready_tables(TIC_TAC_TOE) == "memory"


def test_the_cache_folder_follows_xdg_and_falls_back_to_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_folder() == tmp_path / "xdg" / "workbench"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for unset in (lambda: monkeypatch.setenv("XDG_CACHE_HOME", ""), lambda: monkeypatch.delenv("XDG_CACHE_HOME")):
        unset()
        assert cache.cache_folder() == tmp_path / "home" / ".cache" / "workbench"


def test_a_missing_cache_folder_is_made_with_its_parents(built, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not" / "yet" / "there"))
    assert cache.save_tables(built)
    assert cache.load_tables(TIC_TAC_TOE) == built
    assert cache.cache_path(TIC_TAC_TOE).parent == tmp_path / "not" / "yet" / "there" / "workbench"


def test_the_variable_set_to_0_leaves_the_cache_on(built, monkeypatch):
    monkeypatch.setenv(cache.DISABLE_VARIABLE, "0")
    let_go_of_all()
    assert cache.warm_tables(TIC_TAC_TOE) == "built"
    assert cache.cache_path(TIC_TAC_TOE).exists()


def test_the_temporary_is_a_hidden_file_beside_the_target(built, monkeypatch):
    # beside it, so the final rename cannot cross filesystems; hidden and not *.bin, so another
    # process clearing stale tables never takes a half-written file for one
    replaced = []
    real_replace = cache.os.replace
    monkeypatch.setattr(
        cache.os, "replace", lambda source, target: (replaced.append((source, target)), real_replace(source, target))
    )
    assert cache.save_tables(built)
    [(source, target)] = replaced
    source, target = cache.Path(source), cache.Path(target)
    assert target == cache.cache_path(TIC_TAC_TOE) and source.parent == target.parent
    assert source.name.startswith(f".{target.name}.") and source.name.endswith(".tmp")


def test_loading_leaves_the_garbage_collector_as_it_found_it(built):
    import gc

    cache.save_tables(built)
    assert gc.isenabled()
    assert cache.load_tables(TIC_TAC_TOE) == built
    assert gc.isenabled()
    gc.disable()
    try:
        assert cache.load_tables(TIC_TAC_TOE) == built
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_tables_of_other_boards_and_other_k_are_kept(built):
    folder = cache.cache_folder()
    folder.mkdir(parents=True, exist_ok=True)
    others = [folder / "tables-3x3-k4-0123456789abcdef.bin", folder / "tables-3x4-k3-0123456789abcdef.bin"]
    for other in others:
        other.write_bytes(b"other")
    cache.save_tables(built)
    assert sorted(folder.iterdir()) == sorted([*others, cache.cache_path(TIC_TAC_TOE)])


def test_tables_in_memory_are_reported_even_while_another_thread_holds_the_lock(built):
    with cache._BUSY:
        assert cache.ready_tables(TIC_TAC_TOE) == "memory"
        assert cache.warm_tables(TIC_TAC_TOE) == "memory"


def test_warm_tables_reads_the_cache_before_building(built, monkeypatch):
    cache.save_tables(built)
    let_go_of_all()
    monkeypatch.setattr(cache, "build_tables", lambda geometry: pytest.fail("built although the cache was whole"))
    assert cache.warm_tables(TIC_TAC_TOE) == "cache"
    assert held_tables(TIC_TAC_TOE) == built


def test_a_thread_that_waited_for_another_build_says_memory(held_first_build, monkeypatch):
    first = held_first_build.thread
    # a daemon thread, so quitting never waits for a build; named, so a thread dump says what it is
    assert first.daemon and first.name == "warm-tables"
    waiting, real_wait_or_build = threading.Event(), cache.build_and_cache_tables

    def wait_or_build(geometry):
        waiting.set()
        return real_wait_or_build(geometry)

    monkeypatch.setattr(cache, "build_and_cache_tables", wait_or_build)
    outcome = []
    second = threading.Thread(target=lambda: outcome.append(cache.warm_tables(TIC_TAC_TOE)))
    second.start()
    assert waiting.wait(5)  # the second found the lock taken and went to wait for the first
    held_first_build.release.set()
    first.join(5)
    second.join(5)
    assert outcome == ["memory"]


def test_read_back_analysis_reads_kept_tables_and_never_builds(built, monkeypatch):
    monkeypatch.setattr(cache, "build_tables", lambda geometry: pytest.fail("built"))
    let_go_of_all()
    assert not cache.read_back_analysis(TIC_TAC_TOE) and held_tables(TIC_TAC_TOE) is None  # nothing kept
    assert cache.save_tables(built)
    assert cache.read_back_analysis(TIC_TAC_TOE) and held_tables(TIC_TAC_TOE) == built
    assert cache.read_back_analysis(TIC_TAC_TOE)  # at hand already
    let_go_of_all()
    monkeypatch.setenv(cache.DISABLE_VARIABLE, "1")
    assert not cache.read_back_analysis(TIC_TAC_TOE) and held_tables(TIC_TAC_TOE) is None


def test_read_back_analysis_reads_a_kept_strong_solution_never_solves_and_never_waits(monkeypatch, only_tables_held):
    from workbench.engine import Geometry, Position, strong

    two_by_seven = Geometry(2, 7, 4)  # 14 cells: a strong solution in about a second
    solution = strong.strong_solve(two_by_seven)
    monkeypatch.setattr(strong, "strong_solve", lambda *args: pytest.fail("solved"))
    assert not cache.read_back_analysis(two_by_seven) and held(two_by_seven) is None  # nothing kept
    assert cache.save_strong(solution)
    with cache._SOLVING:  # another thread reading or solving it: no answer yet, and no wait
        assert not cache.read_back_analysis(two_by_seven) and held(two_by_seven) is None
    assert cache.read_back_analysis(two_by_seven)
    assert held(two_by_seven).solution.lookup(0, 0) == solution.lookup(0, 0)
    best = held(two_by_seven).analyze(Position.empty(two_by_seven))
    let_go(two_by_seven)  # dropped, and no analysis of it answered from before
    assert held(two_by_seven) is None
    assert cache.read_back_analysis(two_by_seven) and held(two_by_seven).analyze(Position.empty(two_by_seven)) == best


def test_letting_go_drops_one_board_s_answers_only(built):
    from workbench.engine import Geometry
    from workbench.kept import answers_for

    misere = Geometry(misere=True)
    classic = answers_for(TIC_TAC_TOE)
    answers_for(misere)
    let_go(misere)
    assert held(misere) is None and held(TIC_TAC_TOE) is classic


def test_answers_for_chooses_each_board_s_tier_and_answers_at_hand_never_makes_one(monkeypatch):
    """The one choice (issue 51): tables up to 12 cells, read back or built and kept; 13–16 the strong solution,
    solved once with the caller's progress and kept, then read back; past 16 with none kept, the search.
    ``answers_at_hand`` gives what costs no building or solving, and None (at once) where it would."""
    from workbench.engine import Geometry, Position, strong
    from workbench.engine.answers import SearchedAnswers, SolutionAnswers
    from workbench.kept import answers_at_hand, answers_for

    monkeypatch.setattr(held_module, "_HELD", {})
    small = answers_for(TIC_TAC_TOE)
    assert isinstance(small, TableAnswers) and cache.cache_path(TIC_TAC_TOE).exists()  # built, and kept
    fourteen = Geometry(2, 7, 4)
    assert answers_at_hand(fourteen) is None  # nothing kept: not solved here
    stages = []
    solved = answers_for(fourteen, lambda stage, done, total: stages.append(stage))
    assert isinstance(solved, SolutionAnswers) and solved.tier == "strong" and stages  # solved, with progress
    assert answers_for(fourteen) is solved and cache.strong_cache_path(fourteen).exists()  # once, and kept
    monkeypatch.setattr(held_module, "_HELD", {})  # a new process: read back, never solved again
    monkeypatch.setattr(strong, "strong_solve", lambda *args: pytest.fail("solved again"))
    again = answers_at_hand(fourteen)
    assert isinstance(again, SolutionAnswers) and again.analyze(Position.empty(fourteen)) == solved.analyze(
        Position.empty(fourteen)
    )
    big = Geometry(15, 15, 5)
    assert isinstance(answers_for(big), SearchedAnswers) and isinstance(answers_at_hand(big), SearchedAnswers)
