"""The library's contract holds still unless the CHANGELOG says it moved (issue 51): every public name of
``workbench`` and its signature are recorded in ``tests/data/api-signatures.txt``, and the record's digest is
written in ``CHANGELOG.md`` (``API <digest>``) by the entry that changed it. A changed signature fails here twice:
the record differs, and once written again (``python -m tests.test_api_stability``), its new digest is in no
CHANGELOG entry until one says what changed."""

import dataclasses
import enum
import hashlib
import inspect
import re
import types
from pathlib import Path

import pytest

import workbench

pytestmark = pytest.mark.engine

ROOT = Path(__file__).parent.parent
RECORD = ROOT / "tests" / "data" / "api-signatures.txt"
CHANGELOG = ROOT / "CHANGELOG.md"


def _members(cls: type) -> list[str]:
    lines = []
    if issubclass(cls, enum.Enum):
        return [f"    {member.name} = {member.value!r}" for member in cls]
    if dataclasses.is_dataclass(cls):
        lines += [f"    {field.name}: {field.type}" for field in dataclasses.fields(cls)]
    for name, member in sorted(vars(cls).items()):
        if name.startswith("_") and name not in ("__init__", "_repr_svg_"):
            continue
        if isinstance(member, property):
            hint = inspect.signature(member.fget).return_annotation
            lines.append(f"    {name}: property -> {hint}")
        elif isinstance(member, staticmethod | classmethod) or inspect.isfunction(member):
            function = member.__func__ if isinstance(member, staticmethod | classmethod) else member
            if name == "__init__" and dataclasses.is_dataclass(cls):
                continue
            lines.append(f"    {name}{inspect.signature(function)}")
    return lines


def signatures() -> list[str]:
    """One line per public name (and per public member of a public class), sorted by name."""
    lines = []
    for name in sorted(workbench.__all__):
        value = getattr(workbench, name)
        if isinstance(value, types.ModuleType):
            lines.append(f"module {name}")
            lines += [
                f"    {function}{inspect.signature(getattr(value, function))}"
                for function in sorted(vars(value))
                if not function.startswith("_")
                and inspect.isfunction(getattr(value, function))
                and getattr(value, function).__module__ == value.__name__
            ]
        elif inspect.isclass(value):
            bases = ", ".join(base.__name__ for base in value.__bases__)
            lines.append(f"class {name}({bases})")
            lines += _members(value)
        elif inspect.isfunction(value):
            lines.append(f"def {name}{inspect.signature(value)}")
        else:
            lines.append(f"{name} = {value!r}")
    return lines


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:12]


def test_the_public_names_and_signatures_are_the_recorded_ones():
    recorded = RECORD.read_text(encoding="utf-8").splitlines()
    assert signatures() == recorded, (
        "the library's public names changed: say so in CHANGELOG.md's Unreleased section, then write the record "
        "again (python -m tests.test_api_stability) and put its digest in that entry"
    )


def test_the_record_s_digest_is_written_in_the_changelog():
    found = re.findall(r"API ([0-9a-f]{12})", CHANGELOG.read_text(encoding="utf-8"))
    assert digest(RECORD.read_text(encoding="utf-8").splitlines()) in found, (
        "tests/data/api-signatures.txt changed with no CHANGELOG entry naming its digest (API <digest>)"
    )


def test_a_changed_signature_changes_the_digest():
    lines = signatures()
    assert any(line.startswith("def position(") for line in lines)
    assert any(line.startswith("    play(self, move") for line in lines)
    changed = [line.replace("    play(self, move", "    play(self, cell") for line in lines]
    assert changed != lines and digest(changed) != digest(lines)


if __name__ == "__main__":  # pragma: no cover - writes the record after a meant change
    RECORD.write_text("\n".join(signatures()) + "\n", encoding="utf-8")
    print(f"API {digest(signatures())}: name this digest in the CHANGELOG entry that says what changed")
