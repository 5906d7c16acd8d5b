"""The gates (workbench.tui.textual_ext, workbench.web.serve_ext): every private name of Textual, Rich and
textual-serve is used inside them and nowhere else; the mode is decided as their docstrings say; and the app,
its panes and ``serve`` pass their tests on stock Textual and textual-serve too."""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import os
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

import pytest

from workbench.framework_mode import (
    CHECKED_TEXTUAL,
    CHECKED_TEXTUAL_SERVE,
    STOCK_VARIABLE,
    decide,
    release,
    stock_requested,
)

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "workbench"
GATES = (PACKAGE / "tui" / "textual_ext", PACKAGE / "web" / "serve_ext")
FRAMEWORKS = ("textual", "rich", "textual_serve")
STDLIB_MODULES = frozenset({"os", "sys", "atexit", "socket", "signal", "asyncio", "threading", "subprocess"})
"""Names of the standard library's modules, whose own private names (``os._exit``) are not the frameworks'."""


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _outside_gates() -> list[Path]:
    return [path for path in sorted(PACKAGE.rglob("*.py")) if not any(gate in path.parents for gate in GATES)]


@cache
def _framework_private_names() -> frozenset[str]:
    """Every private name the frameworks define anywhere (a function, a class, an attribute set, a variable)."""
    names: set[str] = set()
    for package in FRAMEWORKS:
        folder = Path(importlib.util.find_spec(package).origin).parent
        for path in folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
    return frozenset(name for name in names if _private(name))


def test_no_module_outside_the_gates_imports_a_private_module_or_name_of_the_frameworks():
    found = []
    for path in _outside_gates():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in FRAMEWORKS:
                if any(_private(part) for part in node.module.split(".")) or any(_private(a.name) for a in node.names):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module} import …")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if parts[0] in FRAMEWORKS and any(_private(part) for part in parts):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: import {alias.name}")
    assert not found, "a private module of Textual, Rich or textual-serve outside the gates:\n" + "\n".join(found)


def test_no_module_outside_the_gates_reads_a_private_name_of_the_frameworks():
    """``something._name`` where ``_name`` is one of the frameworks' private names: read through anything but
    ``self`` (whose type is not known here), always a defect, whatever names of the workbench's own are spelled so
    (the workbench's own names do not excuse a framework's)."""
    theirs = _framework_private_names()
    found = []
    for path in _outside_gates():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Attribute) and _private(node.attr) and node.attr in theirs):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in STDLIB_MODULES | {"self", "cls"}:
                continue
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "a private name of Textual, Rich or textual-serve read outside the gates:\n" + "\n".join(found)


def _reads_through_self() -> dict[tuple[str, str], set[tuple[str, str]]]:
    """For each class outside the gates (module, name): the private names its methods read on ``self``, each with
    where."""
    reads: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for path in _outside_gates():
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for klass in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(klass, ast.ClassDef):
                continue
            for node in ast.walk(klass):
                if (
                    isinstance(node, ast.Attribute)
                    and _private(node.attr)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "self"
                ):
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    reads.setdefault((module, klass.name), set()).add((node.attr, where))
    return reads


def _classes_made_of_the_frameworks():
    """Each class of the workbench outside the gates that derives from a framework class: (its module's name, the
    class, the framework classes among its bases, the private names those define or set)."""
    for module_name in _modules_outside_the_gates():
        module = importlib.import_module(module_name)
        for klass in vars(module).values():
            if not isinstance(klass, type) or klass.__module__ != module.__name__:
                continue
            bases = [base for base in klass.__mro__[1:] if base.__module__.split(".")[0] in FRAMEWORKS]
            if not bases:
                continue
            yield module_name, klass, bases, set().union(*(_privates_set_by(base) for base in bases))


def test_no_class_outside_the_gates_reads_a_private_name_of_the_framework_classes_it_is_made_of():
    """``self._name`` in a class of the workbench (or a mixin of one), where ``_name`` is a private name of a
    framework class the class derives from: checked per class, against those classes' own names (``_layout`` of
    the app's own is fine where no framework class of the app has one)."""
    reads = _reads_through_self()
    found = set()
    for _, klass, _, theirs in _classes_made_of_the_frameworks():
        for part in klass.__mro__:  # the class and its mixins of the workbench's
            for name, where in reads.get((part.__module__, part.__name__), ()):
                if name in theirs:
                    found.add(f"{where}: self.{name} ({klass.__qualname__} derives from a framework class with it)")
    assert not found, "a framework class's private name read outside the gates:\n" + "\n".join(sorted(found))


def _modules_outside_the_gates() -> list[str]:
    names = []
    for path in _outside_gates():
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


@functools.cache
def _privates_set_by(klass: type) -> frozenset[str]:
    """The private names a class defines itself, or sets on ``self`` in its own methods (kept: Textual's App and
    Widget are thousands of lines, read again for each of the workbench's classes derived from them)."""
    names = {name for name in vars(klass) if _private(name)}
    try:
        source = textwrap.dedent(inspect.getsource(klass))
    except (OSError, TypeError):
        return frozenset(names)
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            names.add(node.attr)
    return frozenset(names)


def test_no_class_outside_the_gates_overrides_or_sets_a_private_name_of_a_framework_class_it_derives_from():
    """A method or attribute of a framework's class, by a private name, replaced by a subclass of the workbench's
    (``_on_idle``, ``_scroll_update``, ``_loop``): names every subclass gets from the framework's own machinery (a
    metaclass, ``__init_subclass__``) are not the subclass's doing."""
    found = []
    for module_name, klass, bases, theirs in _classes_made_of_the_frameworks():
        given = {name for name in vars(type("Probe", (bases[0],), {})) if _private(name)}
        for name in sorted((_privates_set_by(klass) & theirs) - given):
            found.append(f"{module_name}.{klass.__qualname__}: {name}")
    assert not found, "a framework's private name overridden outside the gates:\n" + "\n".join(found)


# --- the mode ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("checked", [CHECKED_TEXTUAL, CHECKED_TEXTUAL_SERVE], ids=lambda checked: checked.package)
def test_the_fast_path_runs_on_the_releases_checked_and_stock_on_any_other(checked):
    oldest, newest = release(checked.oldest), release(checked.newest)
    assert decide(checked, checked.oldest, False).fast and decide(checked, checked.newest, False).fast
    after = ".".join(map(str, (*newest[:-1], newest[-1] + 1)))
    major = f"{newest[0] + 1}.0.0"
    before = f"{oldest[0] - 1}.99.0"
    for version in (after, major, before, f"{checked.newest}rc1", f"{checked.newest}.dev3", "", None):
        mode = decide(checked, version, False)
        assert not mode.fast and checked.package in mode.reason and checked.oldest in mode.reason, version
    asked = decide(checked, checked.newest, True)
    assert not asked.fast and STOCK_VARIABLE in asked.reason and str(asked).startswith("stock")


@pytest.mark.parametrize(
    "value, stock", [("1", True), ("yes", True), ("0", False), ("", False), (" ", False), (None, False)]
)
def test_stock_is_asked_for_by_any_value_but_empty_or_0(value, stock):
    assert stock_requested({} if value is None else {STOCK_VARIABLE: value}) is stock


def _python(*arguments: str, stock: bool) -> subprocess.CompletedProcess:
    """This Python run with ``arguments``, in stock mode or not whatever this run's own mode is."""
    env = {key: value for key, value in os.environ.items() if key != STOCK_VARIABLE}
    if stock:
        env[STOCK_VARIABLE] = "1"
    return subprocess.run([sys.executable, *arguments], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def test_stock_mode_loads_no_piece_of_the_fast_path():
    """With the variable set, the app, the command line and the server import none of the gates' pieces: a
    Textual or textual-serve that renamed what they use cannot break a start."""
    code = (
        "import sys, workbench.cli, workbench.tui.app, workbench.web.serve\n"
        "from workbench.tui.app import WorkbenchApp\n"
        "WorkbenchApp().get_default_screen()\n"
        "print(sorted(m for m in sys.modules if m.startswith(('workbench.tui.textual_ext.', "
        "'workbench.web.serve_ext.'))))\n"
    )
    stock = _python("-c", code, stock=True)
    assert stock.returncode == 0, stock.stderr
    assert stock.stdout.strip() == "[]"
    fast = _python("-c", code, stock=False)
    assert "workbench.tui.textual_ext.compositor" in fast.stdout and "workbench.web.serve_ext.page" in fast.stdout


def test_a_fast_path_that_cannot_be_loaded_is_stock_and_says_why():
    """A Textual that moved a private module (here its writer thread's) runs the app stock, and ``--version`` names
    the module."""
    code = (
        "import sys\n"
        "sys.modules['textual.drivers._writer_thread'] = None\n"  # what an import of a module that is gone meets
        "from workbench.tui import textual_ext\n"
        "from workbench.cli import version_text\n"
        "print(textual_ext.MODE.fast)\n"
        "print(version_text())\n"
    )
    result = _python("-c", code, stock=False)
    assert result.returncode == 0, result.stderr
    fast, _, app, serve = result.stdout.splitlines()
    assert fast == "False"
    assert app.startswith("app:   stock") and "could not be loaded" in app and "_writer_thread" in app
    assert serve.startswith("serve: fast path")


@pytest.mark.parametrize("stock", [False, True], ids=["fast", "stock"])
def test_version_says_the_mode_of_the_app_and_of_serve_and_why(stock):
    result = _python("-m", "workbench", "--version", stock=stock)
    assert result.returncode == 0 and not result.stderr
    first, app, serve = result.stdout.splitlines()
    import workbench

    assert first == f"workbench {workbench.__version__}"
    if stock:
        assert app == f"app:   stock (complete, slower): {STOCK_VARIABLE} is set"
        assert serve == f"serve: stock (complete, slower): {STOCK_VARIABLE} is set"
    else:
        assert app.startswith("app:   fast path: textual ") and CHECKED_TEXTUAL.newest in app
        assert serve.startswith("serve: fast path: textual-serve ") and CHECKED_TEXTUAL_SERVE.newest in serve


STOCK_SUITE = ("tests/test_tui_snapshots.py", "tests/test_tui_app.py", "tests/test_cli_serve.py")
"""Run again on stock Textual and textual-serve: a snapshot of every pane, a Pilot test of every binding, the
server. (The key footer is the same widget in both modes, held to Textual's own by tests/test_tui_footer.py.)"""
NOT_OF_THE_FRAMEWORK = (
    "first_run_builds_the_tables",
    "later_runs_read_the_tables_back",
    "failed_table_build",
    "a_crash_exits",
    "remembered_for_the_next_run",
    "broken_settings_file",
    "settings_that_cannot_be_written",
    "run_opens_the_app",
    "undo_back_through_many_new_games",
    "library_worker_that_crashes",
    "set_up_reads_letters_alone",
    "help_lists_the_keys_that_are_not_bindings",
)
"""Tests of test_tui_app.py left out of the stock run: the tables' cache, the settings file, the exit code, the
library's worker and pure functions, which no part of Textual behind the gate touches (undo through many new games
is ctrl+z, whose binding the undo test covers): CI's time, where the rest already runs twice."""


@pytest.mark.app
@pytest.mark.skipif(os.environ.get(STOCK_VARIABLE, "").strip() not in ("", "0"), reason="this run is the stock one")
@pytest.mark.parametrize("tests", STOCK_SUITE)
def test_the_panes_bindings_and_serve_pass_their_tests_on_stock_textual_and_textual_serve(tests):
    """The snapshot of every pane, the Pilot test of every binding and the server's tests, in a run of their own
    with :data:`STOCK_VARIABLE` set (the mode is decided once, at import), a file at a time so that the suite's
    workers share them out. The snapshots are the same files: the stock screens are the fast path's, cell for cell.
    Coverage is not measured in these runs (it would double their time; the fast path's runs measure it)."""
    # nor the options of the run that started it (mutmut's `-m app` would select none of the file's tests)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("COV_CORE_", "COVERAGE_")) and key != "PYTEST_ADDOPTS"
    }
    env[STOCK_VARIABLE] = "1"
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--no-cov",
        "-n",
        "0",
        "-q",
        "-p",
        "no:randomly",
        tests,
    ]
    if tests.endswith("test_tui_app.py"):
        command += ["-k", " and ".join(f"not {name}" for name in NOT_OF_THE_FRAMEWORK)]
    elif tests.endswith("test_tui_snapshots.py"):  # every pane, both sizes and every dialog; the other boards once
        command += ["-k", "test_pane or test_whole_app or test_value_overlay or test_dialog"]
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
    tail = "\n".join(result.stdout.splitlines()[-40:])
    assert result.returncode == 0, f"the stock run failed:\n{tail}\n{result.stderr[-2000:]}"
    last = tail.splitlines()[-1]
    assert " passed" in last and "failed" not in last and "error" not in last, tail
    if "snapshots" in tests:
        assert "snapshots passed" in tail and "snapshot" not in last and "deselected" in last, tail


def test_each_test_left_out_of_the_stock_run_exists():
    """A name that matched no test any more would leave the list stale, and could some day leave out a new test."""
    source = (ROOT / "tests" / "test_tui_app.py").read_text()
    for name in NOT_OF_THE_FRAMEWORK:
        assert f"def test_{name}" in source or f"_{name}" in source, name


APP_GATE, WEB_GATE = "workbench.tui.textual_ext", "workbench.web.serve_ext"
OPEN_TO_ALL = {APP_GATE}
"""What of a gate any module may import: the app's gate's choices (its package). Its pieces are loaded by the gate
itself, only on the fast path (the benchmarks, which measure them, excepted). The decision between the fast path
and stock is neither gate's: ``workbench.framework_mode``, which the app's gate may import."""


def test_the_gates_pieces_are_imported_by_their_gate_alone():
    from .test_import_hygiene import _imports_of_every_module

    graph = _imports_of_every_module()
    found = []
    for name, targets in graph.items():
        for target in targets:
            if (
                name.startswith(APP_GATE)
                and target.startswith("workbench")
                and not target.startswith(APP_GATE)
                and target not in ("workbench", "workbench.framework_mode")
            ):
                found.append(f"{name} -> {target} (the app's gate imports nothing of the workbench but itself)")
            for gate in (APP_GATE, WEB_GATE):
                if target.startswith(gate + ".") and not name.startswith(gate) and target not in OPEN_TO_ALL:
                    if not name.startswith("workbench.bench."):  # (what they measure, and the probes)
                        found.append(f"{name} -> {target} (a piece of a gate, loaded by the gate alone)")
    assert found == []


def test_the_guide_to_the_app_names_the_releases_the_gates_were_checked_against():
    readme = (ROOT / "docs" / "app.md").read_text(encoding="utf-8")
    assert f"Textual {CHECKED_TEXTUAL.oldest} to {CHECKED_TEXTUAL.newest}" in readme
    assert f"textual-serve {CHECKED_TEXTUAL_SERVE.oldest} to {CHECKED_TEXTUAL_SERVE.newest}" in readme


@pytest.mark.parametrize("package", ["textual", "textual-serve", "rich"])
def test_the_version_read_beside_the_package_is_the_one_importlib_metadata_reads(package):
    from importlib import metadata

    from workbench.framework_mode import installed

    assert installed(package) == metadata.version(package)
    assert installed("no-such-package-here") is None
