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

from workbench.framework_mode import CHECKED_TEXTUAL, CHECKED_TEXTUAL_SERVE, STOCK_VARIABLE

ROOT = Path(__file__).parent.parent
PAIRS = (
    (CHECKED_TEXTUAL.oldest, CHECKED_TEXTUAL_SERVE.oldest),
    (CHECKED_TEXTUAL.newest, CHECKED_TEXTUAL_SERVE.newest),
)
"""(Textual, textual-serve): the oldest and the newest releases the gates name as checked
(``workbench/framework_mode.py``). The project pins the newest (what CI runs); moving the pins or widening the
checked span means running this on the new end first."""
TOOLS = (
    "pytest",
    "pytest-asyncio",
    "pytest-cov",
    "pytest-xdist",
    "pytest-timeout",
    "pytest-textual-snapshot",
    "hypothesis",
    "pyte",
)
COMPARISONS = (
    "tests/test_tui_speed.py",
    "tests/test_tui_footer.py",
    "tests/test_tui_terminal_driver.py",
    "tests/test_tui_key_routing.py",
    "tests/test_tui_variation_tree.py",
    "tests/test_tui_app.py",
    "tests/test_cli_serve.py",
    "tests/test_cli_serve_access.py",
    "tests/test_cli_warm_start.py",
    "tests/test_gate.py",
)
"""The tests that hold our overrides of Textual and textual-serve against their own output, the app's Pilot
tests, and the gates' own (no private name outside them, with this release's private names). The snapshot tests
are left out: they compare with pictures made by the pinned Textual."""
STOCK = ("tests/test_tui_app.py", "tests/test_tui_footer.py", "tests/test_cli_serve.py")
"""Run again with the gates' pieces off (``WORKBENCH_STOCK_TEXTUAL=1``): the app and ``serve`` on this release's
stock classes."""


def check(textual: str, textual_serve: str) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        python = Path(folder) / "bin" / "python"
        subprocess.run([sys.executable, "-m", "venv", folder], check=True)
        install = [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "-e",
            str(ROOT),
            f"textual=={textual}",
            f"textual-serve=={textual_serve}",
            *TOOLS,
        ]
        subprocess.run(install, check=True)
        versions = subprocess.run(
            [
                str(python),
                "-c",
                "from importlib.metadata import version as v; print(v('textual'), v('textual-serve'), v('rich'))",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        print(f"== Textual {versions[0]}, textual-serve {versions[1]}, Rich {versions[2]}", flush=True)
        pytest = [str(python), "-m", "pytest", "-p", "no:cacheprovider", "--no-cov", "-q", "-n", "2"]
        env = {**{k: v for k, v in os.environ.items() if k != STOCK_VARIABLE}, "PYTHONPATH": str(ROOT)}
        # the gate's own stock run holds snapshots made by the pinned Textual: the stock leg below is this one's
        fast = [*pytest, *COMPARISONS, "-k", "not pass_their_tests_on_stock"]
        passed = subprocess.run(fast, cwd=ROOT, env=env).returncode == 0
        print(f"== stock: Textual {textual}, textual-serve {textual_serve}", flush=True)
        passed &= subprocess.run([*pytest, *STOCK], cwd=ROOT, env={**env, STOCK_VARIABLE: "1"}).returncode == 0
        print(f"== {'passed' if passed else 'FAILED'}: Textual {textual}, textual-serve {textual_serve}", flush=True)
        return passed


def main(argv: list[str]) -> int:
    pairs = [tuple(argv[:2])] if len(argv) >= 2 else list(PAIRS)
    results = [check(*pair) for pair in pairs]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
