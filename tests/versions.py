"""Run the tests that compare the workbench with Textual's and textual-serve's own output against the oldest and
the newest releases that ``pyproject.toml`` allows, each in a scratch virtual environment.

    python -m tests.versions            # both ends; minutes each (an install, then the tests)
    python -m tests.versions 8.1.0 1.1.2  # one pair: Textual, textual-serve

Run it before widening or narrowing the allowed ranges, when a new Textual or textual-serve is released, and after
changing anything that reads or overrides their private parts (CONTRIBUTING.md, "House rules"). It is not part of
CI: CI runs on the versions the test extra pins. Exit 0 when every pair passed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).parent.parent
PAIRS = (("8.0.0", "1.1.0"), ("8.2.8", "1.1.3"))
"""(Textual, textual-serve): the oldest and the newest releases the project's ranges allow (``textual>=8.0,<9``,
``textual-serve>=1.1,<2``) that the registry had when this was written."""
TOOLS = ("pytest", "pytest-asyncio", "pytest-cov", "pytest-xdist", "pytest-timeout", "pytest-textual-snapshot", "hypothesis", "pyte")
COMPARISONS = (
    "tests/test_tui_speed.py", "tests/test_tui_footer.py", "tests/test_tui_terminal_driver.py",
    "tests/test_tui_key_routing.py", "tests/test_tui_variation_tree.py", "tests/test_tui_app.py",
    "tests/test_cli_serve.py", "tests/test_cli_serve_access.py", "tests/test_cli_warm_start.py",
)  # fmt: skip
"""The tests that hold our overrides of Textual and textual-serve against their own output, and the app's Pilot
tests. (The snapshot tests are left out: they compare with pictures made by the pinned Textual.)"""


def check(textual: str, textual_serve: str) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        python = Path(folder) / "bin" / "python"
        subprocess.run([sys.executable, "-m", "venv", folder], check=True)
        install = [str(python), "-m", "pip", "install", "--quiet", "-e", str(ROOT), f"textual=={textual}", f"textual-serve=={textual_serve}", *TOOLS]
        subprocess.run(install, check=True)
        versions = subprocess.run(
            [str(python), "-c", "from importlib.metadata import version as v; print(v('textual'), v('textual-serve'), v('rich'))"],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        print(f"== Textual {versions[0]}, textual-serve {versions[1]}, Rich {versions[2]}", flush=True)
        tests = [str(python), "-m", "pytest", "-p", "no:cacheprovider", "--no-cov", "-q", "-n", "2", *COMPARISONS]
        passed = subprocess.run(tests, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}).returncode == 0
        print(f"== {'passed' if passed else 'FAILED'}: Textual {textual}, textual-serve {textual_serve}", flush=True)
        return passed


def main(argv: list[str]) -> int:
    pairs = [tuple(argv[:2])] if len(argv) >= 2 else list(PAIRS)
    results = [check(*pair) for pair in pairs]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
