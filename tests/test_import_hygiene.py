"""Engine and state are the inner rooms: they never import the UI libraries."""

import os
import subprocess
import sys

import pytest


# the search process imports only the engine: it must start quickly, and never draw on the terminal
@pytest.mark.parametrize("package", ["workbench.engine", "workbench.state", "workbench.library", "workbench.cache", "workbench.settings",
                                     "workbench.search_service"])
def test_core_never_imports_textual_or_rich(package):
    code = (
        f"import importlib, pkgutil, sys, {package} as root\n"
        "for info in pkgutil.walk_packages(getattr(root, '__path__', []), root.__name__ + '.'):\n"
        "    importlib.import_module(info.name)\n"
        "bad = sorted(name for name in sys.modules if name.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_the_app_imports_neither_the_library_nor_the_search_s_service_before_it_is_drawn():
    """What the command line and the app import before the first paint is part of every start (each module is a
    file to open and code to run): the library (and sqlite3) opens after it, the search's service (and
    multiprocessing) with the first board searched."""
    code = (
        "import sys\n"
        "from workbench import cli\n"
        "from workbench.tui import app\n"
        "late = ('sqlite3', 'multiprocessing', 'workbench.library', 'workbench.search_service')\n"
        "print(','.join(sorted(name for name in sys.modules if name.startswith(late))))\n"
    )
    # without the coverage start-up hook, which measures the child with coverage (sqlite3, multiprocessing)
    environment = {name: value for name, value in os.environ.items() if not name.startswith(("COV_CORE_", "COVERAGE_"))}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment)
    assert result.stdout.strip() == ""
