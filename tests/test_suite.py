"""The suite's own lists stay true to the tests they name, and its untraced tests run untraced."""

import sys
import threading
from pathlib import Path

from .conftest import UNTRACED


def test_each_test_run_untraced_exists():
    """A name that matched no test any more would leave the list stale (and trace nothing less)."""
    for name in UNTRACED:
        module, test = name.split("::")
        source = (Path(__file__).parent / module).read_text(encoding="utf-8")
        assert f"def {test.split('[')[0]}(" in source, name


def test_a_test_run_untraced_runs_under_no_tracer_at_all():
    """One of :data:`UNTRACED`. Under coverage, in a worker of the suite's or in one process: no trace function on
    this thread, nor one set for the threads it starts (a ``no_cover`` test ran traced, in a worker, by the coverage
    beneath pytest-cov's)."""
    assert sys.gettrace() is None
    assert threading.gettrace() is None


def test_a_traced_test_is_traced_when_coverage_runs():
    """Whenever coverage runs, a traced test runs under its tracer: what an untraced test run before it in the same
    process stopped was started again."""
    import coverage

    running = coverage.Coverage.current()
    assert running is None or sys.gettrace() is not None
