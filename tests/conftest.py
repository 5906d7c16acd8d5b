import os

import pytest
from hypothesis import settings

from workbench.engine import TIC_TAC_TOE, analyze_all
from workbench.engine.symmetry import transforms

# no deadline for any example: a deadline is a timing assertion, and a stall of the machine (a collection, a busy
# neighbour under xdist) failed a reducer test whose example took 1.4 ms when run again (speed is the bench's)
settings.register_profile("workbench", deadline=None)
settings.load_profile("workbench")


def shared_unless_mapping(scope: str):
    """A fixture scope: ``scope`` normally; "function" while mutmut maps tests to functions ("stats"), since a
    fixture built once would count only the first test that used it as reaching the functions it calls."""

    def determine(fixture_name, config) -> str:
        return "function" if os.environ.get("MUTANT_UNDER_TEST") == "stats" else scope

    return determine


@pytest.fixture
def untraced_children(monkeypatch):
    """Child processes this test starts are not measured by coverage: benchmarks that time the app in a terminal
    or a browser (their children run code the in-process tests measure; traced, each child ran at half speed or
    less, and these tests were CI's longest)."""
    for name in list(os.environ):
        if name.startswith(("COV_CORE_", "COVERAGE_")):
            monkeypatch.delenv(name)


@pytest.fixture
def kept_solution():
    """``keep(geometry)`` puts the strong solution of ``geometry`` in this test's own cache, as a first run of
    ``workbench solve`` would: made once per test process (tests/solved.py), so that the tests of the app on a
    4×4 board read it back rather than each solving it again (10–20 s a time, more under coverage). Tests of the
    solving itself do not use it."""
    from workbench.kept.tables import save_strong

    from .solved import solved

    def keep(geometry) -> None:
        assert save_strong(solved(geometry))

    return keep


@pytest.fixture(scope=shared_unless_mapping("session"))
def all_analyses():
    return analyze_all(TIC_TAC_TOE)


SYMMETRIES = transforms(TIC_TAC_TOE)


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path_factory, monkeypatch):
    """No test may touch the user's real library, cache or settings: they live in temp folders. Nor may a test
    write into the folder pytest starts in (an f12 screenshot there once got committed): each runs in a temp
    folder of its own, except under mutmut, whose trampolines read their configuration from the current folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    if "MUTANT_UNDER_TEST" not in os.environ:
        monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


ROOMS = {
    "test_engine_": "engine",
    "test_state_": "state",
    "test_library": "library",
    "test_kept": "kept",
    "test_cli": "cli",
    "test_settings": "settings",
    "test_tui_": "app",
}
"""Test modules by the room whose behaviour they check, as their name says."""


UNTRACED = (
    "test_engine_search.py::test_the_threat_player_never_misses_a_win_nor_hands_one_over_in_one[3x4k3",
    "test_engine_search.py::test_search_equals_the_strong_solution_move_by_move[3x4k3-misere",
    "test_engine_search.py::test_search_equals_the_strong_solution_move_by_move[4x4",
    "test_teaching_facts.py::test_every_fact_of_every_move_of_every_position_is_true[3x",  # test_engine_explain traces
    "test_teaching_facts.py::test_every_fact_of_a_sample_of_four_by_four_is_true",
    "test_engine_family.py::test_every_position_streams_each_reachable_position_once_with_its_status_and_value[3x4",
    "test_engine_analysis.py::test_ledger_dp_equals_brute_force_over_all_fill_orders",
    "test_puzzles.py::test_every_small_board_s_puzzles_hold[2x6",
    "test_puzzles.py::test_every_small_board_s_puzzles_hold[4x3",
    "test_puzzles.py::test_every_wide_puzzle_has_one_answer_and_a_class_of_its_own[3x4k3-misere",
    "test_puzzles.py::test_four_by_four_k4_puzzles_from_its_strong_solution",
    "test_cli_family.py::test_analyze_all_gives_the_full_record_up_to_twelve_cells",
    "test_cli_family.py::test_verify_finds_where_the_planner_is_not_exact_beyond_three_by_three",
    "test_distributed.py::test_a_board_past_sixteen_cells_on_two_workers_and_on_one",  # the 3x4 runs trace the driver
    "test_atlas.py::test_the_literature_s_values_on_four_by_four[4x4k4",
    "test_atlas.py::test_the_literature_s_values_on_four_by_four[4x4k3-misere",
    "test_atlas.py::test_each_record_agrees_with_the_dictionary_solver_and_the_positions_own_dead_draw[3x4k3-misere",
    "test_engine_family.py::test_the_strong_sweep_equals_the_dictionary_solver_on_every_position[4x3k4",
    "test_engine_answers.py::test_the_tables_and_a_strong_solution_of_one_board_answer_alike[3x4k3",
    "test_state_practice.py::test_every_puzzle_s_theme_and_hints_are_facts_of_the_exact_solution[3x4",
    # every theme's colours: the panes they are read from are drawn traced by the test of a theme change beside it
    "test_tui_contrast.py::test_every_text_is_readable_in_every_theme[",
    "test_suite.py::test_a_test_run_untraced_runs_under_no_tracer_at_all",  # the untraced run's own check
)
"""Tests run without coverage's tracer (pytest-cov's ``no_cover``): the larger boards of checks that loop over
every position in Python, whose code the smaller boards' runs of the same test (or a test beside it) trace
already. Traced, each ran several times slower, minutes of CI's twenty together (docs/benchmarks.md, "The suite's
time")."""


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item):
    """A ``no_cover`` test runs with no coverage at all. pytest-cov's pause stops only its own: in an xdist worker
    another is running beneath it (pytest-cov starts one as the workers' master too, and ``patch = ["subprocess"]``
    starts one in each child), and the pause handed the tracing to that one: the tests of :data:`UNTRACED` ran
    traced all the same (docs/benchmarks.md, "The suite's time"). This hook runs inside pytest-cov's pause."""
    paused = []
    if item.get_closest_marker("no_cover"):
        import coverage

        while (running := coverage.Coverage.current()) is not None:
            running.stop()
            paused.append(running)
    try:
        yield
    finally:
        for coverage_run in reversed(paused):  # the stack as it was: the last stopped, the lowest, first
            coverage_run.start()


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the cores this process may run on. A fifth of the suite's time is waiting
    (apps and servers to settle, browsers to draw, processes to end): a worker more runs tests in those gaps.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides where it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # (xdist's own reads it)
    return len(os.sched_getaffinity(0)) + 1


LONG_FIRST = (
    "test_teaching_facts.py::test_every_fact_of_every_move_of_every_position_is_true[3x4",
    "test_gate.py::test_the_panes_bindings_and_serve_pass_their_tests_on_stock_textual_and_textual_serve",
    "test_tui_speed.py::test_each_scenario_of_ours_moves_between_two_different_screens",
    "test_tui_speed.py::test_the_bench_times_a_variant_chosen_in_the_new_game_dialog_until_its_analysis_shows",
    "test_fuzz.py::test_hostile_variants_and_their_moves_give_one_line",
    "test_distributed.py::test_a_board_past_sixteen_cells_on_two_workers_and_on_one",
    "test_puzzles.py::test_four_by_four_k4_puzzles_from_its_strong_solution",
    "test_cli_outputs.py::test_bench_quick_reports_every_target",
)
"""The longest tests, run first (after the shuffle, keeping its order otherwise): one of them drawn last would leave
a core idle for minutes at the end of a run while the other finishes it."""


def pytest_collection_modifyitems(config, items):
    """Mark each test with its room (``-m engine`` runs the engine's own tests); tests that drive the whole
    app (Pilot, snapshots) are marked ``app``, so ``-m "not app"`` runs the fast rest; and the tests of
    :data:`UNTRACED` ``no_cover``."""
    traced = bool(config.getoption("cov_source", None)) and not config.getoption("no_cov", False)
    for item in items:
        if traced and any(name in item.nodeid for name in UNTRACED):  # (pytest-cov fails on it under --no-cov)
            item.add_marker("no_cover")
        module = item.module.__name__.rsplit(".", 1)[-1]
        for prefix, room in ROOMS.items():
            if module.startswith(prefix):
                item.add_marker(room)
        if module.startswith("test_tui_"):
            item.add_marker("app")
    items.sort(key=lambda item: not any(name in item.nodeid for name in LONG_FIRST))  # stable: the shuffle stays


@pytest.fixture(autouse=True)
def no_app_unless_the_test_starts_one(request, monkeypatch):
    """A command-line test that reaches the app by mistake would wait for keys that never come (a mutant of
    ``main`` that ran the app for every command did, forever: waiting costs no CPU time, so mutmut's limit
    never struck). The app's entry point fails at once instead; a test that means to start it patches it, or
    is marked ``app``."""
    if request.node.get_closest_marker("cli") is None or request.node.get_closest_marker("app") is not None:
        return
    import workbench.tui.app as app_module

    def started(**options):
        raise AssertionError(f"the app was started ({options})")

    monkeypatch.setattr(app_module, "run", started)


@pytest.fixture
def classic_let_go():
    """A function that lets go of the classic board's answers (``workbench.kept.held``), as a process that has not
    made them ready yet; those held at its first call are held again afterwards (other tests read them)."""
    from workbench.engine import TIC_TAC_TOE
    from workbench.kept.held import held, hold, let_go

    before = []

    def let_go_of_classic() -> None:
        if not before:
            before.append(held(TIC_TAC_TOE))
        let_go(TIC_TAC_TOE)

    yield let_go_of_classic
    let_go(TIC_TAC_TOE)
    if before and before[0] is not None:
        hold(before[0])


@pytest.fixture
def only_tables_held(monkeypatch):
    """No strong or kept solution held, as in a process that has read or solved none; the tables held so far stay
    held (they take seconds to make again)."""
    from workbench.engine.answers import TableAnswers
    from workbench.kept import held

    monkeypatch.setattr(
        held, "_HELD", {board: used for board, used in held._HELD.items() if isinstance(used, TableAnswers)}
    )


@pytest.fixture(autouse=True, scope="session")
def engine_tables_computed_by_the_code_under_test():
    """Under mutmut each test session is forked from one that already filled the engine's memo tables with
    the unmutated code's results: forget them, so that the mutant computes what the tests read."""
    if "MUTANT_UNDER_TEST" in os.environ:
        from workbench.engine import clear_caches
        from workbench.kept.held import let_go_of_all

        clear_caches()
        let_go_of_all()


@pytest.fixture(autouse=True)
def engine_tables_built_by_each_test_while_mutmut_maps_tests():
    """mutmut first runs the suite once to learn which tests reach each function ("stats"), then runs only
    those tests against that function's mutants. With the memo tables kept between tests, only the first
    test would be seen building them, and each mutant of the engine's core would be judged by that one
    test: forget them before every test of that run, so every test that reads them is counted."""
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        from workbench.engine import clear_caches
        from workbench.kept.held import let_go_of_all

        clear_caches()
        let_go_of_all()
