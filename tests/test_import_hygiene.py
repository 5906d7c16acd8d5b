"""Engine and state are the inner rooms: they never import the UI libraries."""

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
