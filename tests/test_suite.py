"""The suite's own lists stay true to the tests they name."""

from pathlib import Path

from .conftest import UNTRACED


def test_each_test_run_untraced_exists():
    """A name that matched no test any more would leave the list stale (and trace nothing less)."""
    for name in UNTRACED:
        module, test = name.split("::")
        source = (Path(__file__).parent / module).read_text(encoding="utf-8")
        assert f"def {test.split('[')[0]}(" in source, name
