"""No docstring or comment of ``workbench/`` carries a measurement: a timing, a measured size, a machine's cores.

Figures rot where nobody measures them again; they live in ``docs/benchmarks.md``, dated, and ``workbench bench``
measures them anew. Code says what holds and why (see CONTRIBUTING.md). Left alone: text between double backticks
(a literal, as ``about 12 s left`` or ``--budget 5s`` is an example of what the program reads or writes) and sizes
in binary units (``16 MiB``, ``64 KiB``: limits and settings, never measured)."""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "workbench"
NUMBER = r"(?<![\w.])\d[\d,.]*(?:\s?[–-]\s?\d[\d,.]*)?"
FIGURE = re.compile(
    rf"{NUMBER}\s?(?:ms|µs|us|ns|s|secs?|seconds?|mins?|minutes?|hours?|KB|MB|GB|TB)\b"
    r"|\b\d+(?:\.\d+)?\s?[×x]\s(?:faster|slower|quicker)\b"
    r"|\b(?:\d+|one|two|four)-core\b"
)
LITERAL = re.compile(r"``.*?``")


def figures(text: str) -> list[str]:
    return [match.group(0) for match in FIGURE.finditer(LITERAL.sub("", text))]


def words_of(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of each comment and each docstring (of the module, a class or a function) in ``path``."""
    source = path.read_text(encoding="utf-8")
    found = [
        (token.start[0], token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            docstring = ast.get_docstring(node, clean=False)
            if docstring is not None:
                found.append((node.body[0].lineno, docstring))
    return found


def test_the_pattern_finds_timings_and_leaves_contracts_and_literals():
    assert figures("a key took 2-3 ms") == ["2-3 ms"]
    assert figures("(44 µs against 2.4)") == ["44 µs"]
    assert figures("solved in 1.5 s, 58 MB kept; 3× slower") == ["1.5 s", "58 MB", "3× slower"]
    assert figures("on a 2-core box, 12 min 39 s") == ["2-core", "12 min", "39 s"]
    assert figures("``about 12 s left``, ``--budget 5s``; at most 16 MiB; X's 3 moves; 8 symmetries; 15×15") == []


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_comment_or_docstring_carries_a_figure(path):
    found = [(line, figure) for line, text in words_of(path) for figure in figures(text)]
    assert found == [], f"{path.relative_to(ROOT)}: {found}: move each to docs/benchmarks.md, say the reason instead"
