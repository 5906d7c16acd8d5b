"""Run Python in a child process that sees the same ``workbench`` as the tests, from any folder."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import workbench

# the folder that holds the package under test (the checkout, or mutmut's copy of it)
PACKAGE_ROOT = str(Path(workbench.__file__).resolve().parents[1])


def run_child(script: str, cwd: Path, **variables: str) -> subprocess.CompletedProcess:
    """Run ``script`` with ``python -c`` in ``cwd`` (and these environment variables), importing workbench
    from where the tests import it."""
    env = dict(os.environ, **variables, PYTHONPATH=PACKAGE_ROOT)
    if "MUTANT_UNDER_TEST" in os.environ:
        cwd = Path(PACKAGE_ROOT)  # mutmut's trampolines find their configuration in the current folder
    return subprocess.run([sys.executable, "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def assert_killed_mid_write(result: subprocess.CompletedProcess, marker: Path) -> str:
    """The child died of SIGKILL, and only after it wrote ``marker`` (so the write had begun); returns the marker."""
    assert result.returncode == -signal.SIGKILL, (result.returncode, result.stderr)
    assert marker.exists(), "the child was killed before the write began"
    return marker.read_text()
