"""The README cannot go stale silently: each command of a block it marks as runnable runs and exits 0, and every
file it links to (screenshots, CONTRIBUTING.md, docs/) exists."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .child_process import PACKAGE_ROOT

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
MARK = "<!-- runnable"


def runnable_commands(text: str) -> list[str]:
    """The lines of each ```sh block right after a ``<!-- runnable … -->`` comment."""
    commands = []
    for block in re.findall(r"^<!-- runnable[^\n]*-->\n```sh\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        commands += [
            line.split("  #")[0].strip() for line in block.splitlines() if line.strip() and not line.startswith("#")
        ]
    return commands


COMMANDS = runnable_commands(README)


def test_the_readme_marks_commands_to_run_and_each_is_a_workbench_command():
    assert README.count(MARK) >= 1 and len(COMMANDS) >= 4
    assert all(command.startswith("workbench ") for command in COMMANDS), COMMANDS
    assert runnable_commands(
        "<!-- runnable -->\n```sh\nworkbench a  # why\n\nworkbench b\n```\n```sh\nworkbench c\n```\n"
    ) == ["workbench a", "workbench b"]


@pytest.mark.parametrize("command", COMMANDS)
def test_each_runnable_command_of_the_readme_exits_0(command, tmp_path):
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "PYTHONPATH": PACKAGE_ROOT,
    }
    words = shlex.split(command)[1:]
    result = subprocess.run(
        [sys.executable, "-m", "workbench", *words], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
    )
    assert result.returncode == 0, (command, result.stderr[-2000:])
    assert result.stdout.strip()


def test_every_file_the_readme_and_the_contributors_notes_link_to_exists():
    for document in ("README.md", "CONTRIBUTING.md", "docs/benchmarks.md", "docs/serving.md"):
        text = (ROOT / document).read_text(encoding="utf-8")
        links = [link for link in re.findall(r"\]\(([^)#\s]+)", text) if "://" not in link]
        assert links or document != "README.md"
        for link in links:
            assert ((ROOT / document).parent / link).exists(), (document, link)
