"""The README and the guides in docs/ cannot go stale silently: each command of a block they mark as runnable runs
and exits 0, and every file they link to (screenshots, CONTRIBUTING.md, docs/) exists.

A line of such a block marked ``# not run: REASON`` (one of :data:`NOT_RUN`: it starts the app or a server, or it
takes minutes) is not run; the command line's parser reads it instead, so that a renamed command or option still
fails here. A command that appears on several pages runs once."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.cli.parser import build_parser

from .child_process import PACKAGE_ROOT

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
# docs/atlas.md is `workbench atlas`'s output, not a guide: it has no commands to run
GUIDES = sorted(path for path in (ROOT / "docs").glob("*.md") if path.name != "atlas.md")
MARK = "<!-- runnable"
NOT_RUN_MARK = "# not run: "
# why a documented command may be left unrun: the app and the server never exit by themselves; the rest take minutes
NOT_RUN = {
    "starts the app": {None, "open"},
    "starts a server": {"serve"},
    "needs a saved study": {"export", "open", "review", "analyze"},
    "solves a board of 13-20 cells": {"solve", "analyze", "explain", "atlas"},
    "searches for long": {"analyze", "review", "explain"},
}


def marked_lines(text: str) -> list[str]:
    """The lines of each ```sh block right after a ``<!-- runnable … -->`` comment, without their own comments
    (a ``# not run: REASON`` comment kept)."""
    lines = []
    for block in re.findall(r"^<!-- runnable[^\n]*-->\n```sh\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        for line in block.splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            command, _, comment = line.partition("  #")
            lines.append(command.strip() + ("  #" + comment if comment.startswith(NOT_RUN_MARK[1:]) else ""))
    return lines


def runnable_commands(text: str) -> list[str]:
    return [line for line in marked_lines(text) if NOT_RUN_MARK not in line]


def unrun_commands(text: str) -> list[tuple[str, str]]:
    """``(command, reason)`` of each line marked ``# not run: REASON``."""
    return [
        (line.split("  #")[0], line.split(NOT_RUN_MARK)[1].strip())
        for line in marked_lines(text)
        if NOT_RUN_MARK in line
    ]


DOCUMENTS = {"README.md": README} | {f"docs/{path.name}": path.read_text(encoding="utf-8") for path in GUIDES}
COMMANDS = sorted({command for text in DOCUMENTS.values() for command in runnable_commands(text)})
UNRUN = sorted({pair for text in DOCUMENTS.values() for pair in unrun_commands(text)})


def test_the_readme_marks_commands_to_run_and_each_is_a_workbench_command():
    assert README.count(MARK) >= 1 and len(runnable_commands(README)) >= 4
    assert all(command.startswith("workbench ") for command in COMMANDS), COMMANDS
    assert runnable_commands(
        "<!-- runnable -->\n```sh\nworkbench a  # why\n\nworkbench b\nworkbench c  # not run: starts the app\n```\n"
        "```sh\nworkbench d\n```\n"
    ) == ["workbench a", "workbench b"]
    assert unrun_commands("<!-- runnable -->\n```sh\nworkbench  # not run: starts the app\n```\n") == [
        ("workbench", "starts the app")
    ]


def test_every_guide_marks_its_commands_and_every_shell_block_of_a_guide_is_checked():
    for name, text in DOCUMENTS.items():
        if name in ("README.md", "docs/benchmarks.md", "docs/scaling.md", "docs/serving.md"):
            continue  # the README's install and test commands; figures and how things are made, not a guide
        assert MARK in text, name
        blocks = re.findall(r"^(.*)\n```sh\n", text, flags=re.MULTILINE)
        unmarked = [line for line in blocks if not line.startswith(MARK)]
        assert unmarked == [], (name, unmarked)


@pytest.mark.parametrize("command, reason", UNRUN)
def test_each_command_left_unrun_says_why_and_still_parses(command, reason):
    """A command left unrun is one of the kinds :data:`NOT_RUN` allows, and the parser still reads it."""
    assert reason in NOT_RUN, (command, reason)
    words = shlex.split(command)
    assert words[0] == "workbench"
    arguments = build_parser().parse_args(words[1:])
    assert arguments.command in NOT_RUN[reason], (command, reason)


@pytest.mark.parametrize("command", COMMANDS)
def test_each_runnable_command_of_the_readme_and_the_guides_exits_0(command, tmp_path):
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


def test_every_file_the_readme_the_guides_and_the_contributors_notes_link_to_exists():
    for document in ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", *(f"docs/{path.name}" for path in GUIDES)):
        text = (ROOT / document).read_text(encoding="utf-8")
        links = [link for link in re.findall(r"\]\(([^)#\s]+)", text) if "://" not in link]
        assert links or document not in ("README.md", "docs/app.md"), document
        for link in links:
            assert ((ROOT / document).parent / link).exists(), (document, link)
