"""One exception tree (workbench.errors): every error the workbench means for the user is a WorkbenchError, and
the command line turns only those into one line and exit 2; anything else is a bug, and says so (exit 1) with
its traceback kept in a file, never "bad input"."""

import importlib
import inspect
import pkgutil
import re

import pytest

import workbench
from workbench import errors
from workbench.cli import main


def _workbench_modules():
    for info in pkgutil.walk_packages(workbench.__path__, "workbench."):
        if info.name.endswith("__main__") or ".tui" in info.name:  # (the app's modules: its dialogs say their own)
            continue
        yield importlib.import_module(info.name)


def test_every_error_the_workbench_defines_is_in_the_one_tree():
    defined = {
        cls
        for module in _workbench_modules()
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, Exception) and cls.__module__.startswith("workbench") and cls.__name__.endswith("Error")
    }
    assert len(defined) >= 15
    assert not [cls.__qualname__ for cls in defined if not issubclass(cls, errors.WorkbenchError)]
    from workbench.engine.analysis import BoardTooLargeError
    from workbench.engine.strong import BoardTooLargeForStrongSolveError

    assert issubclass(BoardTooLargeError, errors.InputError) and issubclass(
        BoardTooLargeForStrongSolveError, errors.InputError
    )
    assert issubclass(errors.InputError, ValueError)  # parse errors are ValueErrors, as python-chess's are


def _failing(monkeypatch, error: BaseException) -> None:
    import workbench.cli as cli

    def command(args):
        raise error

    monkeypatch.setitem(cli.COMMANDS, "census", command)


@pytest.mark.parametrize(
    "error",
    [
        errors.InputError("bad move 'z9'"),
        errors.UsageError("--a with --b"),
        errors.LibraryError("library 'x': damaged"),
    ],
    ids=["input", "usage", "library"],
)
def test_each_kind_of_workbench_error_is_one_line_and_exit_2(capsys, monkeypatch, error):
    _failing(monkeypatch, error)
    assert main(["census"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"workbench: error: {error}\n"


@pytest.mark.parametrize(
    "error",
    [
        ValueError("invalid literal for int()"),
        KeyError("cell"),
        AssertionError(),
        RuntimeError("x\ny"),
        FileNotFoundError(2, "No such file or directory", "/nowhere/tables.bin"),
    ],
    ids=["a ValueError", "a KeyError", "an assertion", "a message of two lines", "a file error no edge said"],
)
def test_any_other_exception_is_a_bug_said_in_one_line_with_its_traceback_in_a_file(
    capsys, monkeypatch, tmp_path, error
):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # (read again from TMPDIR)
    _failing(monkeypatch, error)
    assert main(["census"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "error:" not in captured.err
    match = re.fullmatch(
        rf"workbench: bug: {type(error).__name__}(: .+)? \(not your input; please report it with the traceback in "
        r"(\S+)\)\n",
        captured.err,
    )
    assert match, captured.err
    report = open(match.group(2)).read()
    assert match.group(2).startswith(str(tmp_path)) and "Traceback (most recent call last)" in report
    assert "in command" in report and type(error).__name__ in report


def test_a_bug_whose_traceback_cannot_be_written_prints_it(capsys, monkeypatch, tmp_path):
    import tempfile

    def unwritable(*args, **options):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", unwritable)
    _failing(monkeypatch, ZeroDivisionError("division by zero"))
    assert main(["census"]) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "in command" in err
    assert err.endswith(
        "workbench: bug: ZeroDivisionError: division by zero (not your input; please report it with the traceback "
        "above)\n"
    )


@pytest.mark.parametrize(
    "missing, arguments, line",
    [
        (
            "pyte",
            [],
            "bench: the app's figures need pyte, which the bench extra installs: pip install 'mnk-workbench[bench]' "
            "(or "
            "--no-tui for the engine's figures alone)",
        ),
        (
            "pyte",
            ["--game", "15x15k5"],
            "bench: the app's figures need pyte, which the bench extra installs: pip install 'mnk-workbench[bench]' "
            "(or "
            "--no-tui for the engine's figures alone)",
        ),
        (
            "playwright",
            ["--no-tui", "--browser"],
            "bench: the browser's figures need playwright, which the bench extra installs: pip install "
            "'mnk-workbench[bench]'",
        ),
    ],
)
def test_bench_without_the_bench_extra_names_it_in_one_line(capsys, monkeypatch, missing, arguments, line):
    """What only the benchmarks need is the bench extra; a user's install has none of it."""
    import sys

    import workbench.bench.engine

    def never(**options):
        raise AssertionError("a benchmark ran")

    monkeypatch.setattr(workbench.bench.engine, "run_engine_bench", never)
    monkeypatch.setitem(sys.modules, missing, None)  # as if it were not installed
    assert main(["bench", *arguments]) == 2
    assert capsys.readouterr().err == f"workbench: error: {line}\n"


@pytest.mark.parametrize(
    "arguments, line",
    [
        (["--keys", "0"], "argument --keys: '0' is not a positive whole number"),
        (["--keys", "many"], "argument --keys: 'many' is not a positive whole number"),
        (["--keys", "1001"], "argument --keys: '1001': at most 1000 keys a scenario"),
        (["--no-tui", "--keys", "5"], "bench: --keys times the app's keys in a terminal, and --no-tui leaves them out"),
        (
            ["--game", "4x5k4", "--keys", "5"],
            "bench: --keys times the app's keys in a terminal, and 4x5k4's figures are its solve's (the app's are "
            "timed on a searched board, 15x15k5)",
        ),
        (
            ["--game", "2x3k3", "--keys", "5"],
            "bench: --keys times the app's keys in a terminal, and the app's keys are timed on boards of 9 cells or "
            "more, not on 2x3k3",
        ),
    ],
)
def test_bench_keys_it_cannot_time_are_one_line_before_any_benchmark(capsys, monkeypatch, arguments, line):
    """`--keys` sets how many keys a scenario the terminal bench times: a count out of range, or a run of ``bench``
    that times no keys, says so before anything is timed."""
    import workbench.bench.engine
    import workbench.bench.family
    import workbench.bench.kept

    def never(*args, **options):
        raise AssertionError("a benchmark ran")

    for module, name in (
        (workbench.bench.engine, "run_engine_bench"),
        (workbench.bench.family, "run_family_bench"),
        (workbench.bench.kept, "run_kept_bench"),
    ):
        monkeypatch.setattr(module, name, never)
    assert main(["bench", *arguments]) == 2
    assert capsys.readouterr().err == f"workbench: error: {line}\n"


def test_a_user_s_install_asks_only_for_what_the_app_the_command_line_and_serve_use():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]
    needed = {re.split(r"[<>=\[]", requirement)[0] for requirement in project["dependencies"]}
    assert needed == {"textual", "rich", "numpy", "zarr", "textual-serve"}  # zarr: the solutions past 16 cells, read
    assert {re.split(r"[<>=]", requirement)[0] for requirement in project["optional-dependencies"]["bench"]} == {
        "pyte",
        "playwright",
    }
    # the Dask sweep is the cluster extra's, asked for by name
    assert project["optional-dependencies"]["cluster"] == ["dask[distributed]>=2025.1"]
