"""What `workbench … --help` tells a user, command by command, against the reviewed text in
tests/data/cli-help.txt. A changed word in a help line, a lost option or a changed default shows here as
a diff; when the change is meant, write the file again with `python -m tests.test_cli_help` and review it.

The text is compared with its whitespace collapsed and argparse's section titles made one, so that a
Python whose argparse wraps or titles sections differently reads the same words as the same help."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from workbench.cli import main

HELP_FILE = Path(__file__).parent / "data" / "cli-help.txt"

COMMANDS = (
    (),
    ("analyze",),
    ("review",),
    ("census",),
    ("first-moves",),
    ("solve",),
    ("verify",),
    ("games",),
    ("graph",),
    ("studies",),
    ("studies", "list"),
    ("studies", "rename"),
    ("studies", "delete"),
    ("studies", "import"),
    ("studies", "export"),
    ("library",),
    ("library", "check"),
    ("library", "salvage"),
    ("open",),
    ("export",),
    ("serve",),
    ("screenshots",),
    ("bench",),
    ("puzzles",),
    ("progress",),
    ("atlas",),
)
"""Every command and action a user can ask for help on."""


def help_of(command: tuple[str, ...], capsys, monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--help"])
    out, err = capsys.readouterr()
    assert stopped.value.code == 0 and err == ""
    return out


def comparable(text: str) -> str:
    """The words of a help text, one space between them, with 'optional arguments:' (Python < 3.10) read
    as 'options:'."""
    return " ".join(text.replace("optional arguments:", "options:").split())


def sections(text: str) -> dict[str, str]:
    """The help file's texts by command: each starts with a line `== workbench COMMAND --help`."""
    parts = re.split(r"^== (.*) --help$", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def title(command: tuple[str, ...]) -> str:
    return " ".join(("workbench", *command))


def test_the_help_file_covers_every_command_and_nothing_else():
    assert list(sections(HELP_FILE.read_text())) == [title(command) for command in COMMANDS]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: " ".join(command) or "workbench")
def test_help_says_what_the_reviewed_text_says(command, capsys, monkeypatch):
    expected = sections(HELP_FILE.read_text())[title(command)]
    shown = help_of(command, capsys, monkeypatch)
    if comparable(shown) != comparable(expected):
        diff = "\n".join(difflib.unified_diff(expected.strip().splitlines(), shown.strip().splitlines(), lineterm=""))
        pytest.fail(f"`{title(command)} --help` differs from tests/data/cli-help.txt:\n{diff}")


def test_the_top_level_help_lists_every_command():
    listed = sections(HELP_FILE.read_text())["workbench"]
    for command in {command[0] for command in COMMANDS if command}:
        assert re.search(rf"^    {re.escape(command)}\s", listed, flags=re.MULTILINE), command


if __name__ == "__main__":  # write the file from the current code, to be reviewed before committing
    import contextlib
    import io
    import os

    os.environ.update(COLUMNS="100", NO_COLOR="1")
    texts = []
    for command in COMMANDS:
        shown = io.StringIO()
        with contextlib.redirect_stdout(shown), contextlib.suppress(SystemExit):
            main([*command, "--help"])
        texts.append(f"== {title(command)} --help\n{shown.getvalue()}")
    HELP_FILE.write_text("\n".join(texts))
    print(f"wrote {HELP_FILE}")
