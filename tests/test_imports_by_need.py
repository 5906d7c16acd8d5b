"""No command imports what it does not use (issue 50): numpy, zarr and Dask only where the board needs them, the
app's and the server's frameworks only where they run, the library only where it is opened. Each command runs in
a process of its own, which then names every module it loaded."""

import subprocess
import sys

import pytest

from .child_process import PACKAGE_ROOT

LOADS = (
    "import sys\n"
    "from workbench.cli import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "except SystemExit as stop:\n"
    "    code = stop.code\n"
    "print('MODULES', *sorted(sys.modules), code, file=sys.stderr)\n"
)
NUMERIC = {"numpy", "zarr", "dask", "workbench.kept.solving", "workbench.engine.ranked"}
FRAMEWORKS = {"textual", "textual_serve", "aiohttp", "rich", "workbench.tui", "workbench.web"}
LIBRARY = {"sqlite3", "workbench.library"}


def loaded(*argv: str, env: dict | None = None) -> set[str]:
    """The top packages and the workbench's modules ``workbench ARGV`` loaded (it must succeed)."""
    result = subprocess.run(
        [sys.executable, "-c", LOADS, *argv], capture_output=True, text=True, timeout=300, cwd=PACKAGE_ROOT, env=env
    )
    line = next(line for line in result.stderr.splitlines() if line.startswith("MODULES "))
    *modules, code = line.split()[1:]
    assert code in ("0", "None"), result.stderr
    return {module.split(".")[0] for module in modules} | {m for m in modules if m.startswith("workbench.")}


@pytest.mark.parametrize(
    "argv",
    [
        ("--version",),
        ("--help",),
        ("analyze", "--json"),
        ("analyze", "--game", "5x5k4", "--moves", "15,14,19,12,23,13,16,21,6,20,18,22,9", "--json"),
    ],
    ids=["version", "help", "analyze 3x3", "analyze 5x5k4"],
)
def test_a_command_loads_only_what_it_uses(argv, untraced_children):
    """(Untraced: coverage's tracer in the child would load its own, SQLite among them.)"""
    modules = loaded(*argv)
    assert not modules & (NUMERIC | FRAMEWORKS | LIBRARY), sorted(modules & (NUMERIC | FRAMEWORKS | LIBRARY))
    if argv[0] in ("--version", "--help"):  # nor the engine, nor any command's module
        assert not {module for module in modules if module.startswith(("workbench.engine", "workbench.kept"))}
        assert {module for module in modules if module.startswith("workbench.cli.")} <= {
            "workbench.cli.common",
            "workbench.cli.entry",
            "workbench.cli.parser",
        }


def test_the_grammar_s_puzzle_themes_are_the_engine_s():
    """The parser writes the themes out rather than load the engine for them."""
    from workbench.cli.parser import PUZZLE_THEMES
    from workbench.engine.puzzles import THEMES

    assert PUZZLE_THEMES == THEMES
