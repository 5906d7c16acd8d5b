"""Which way the app and ``serve`` run: on the gates' pieces (the fast path) or on stock Textual, Rich and
textual-serve.

Decided from the environment and the installed releases alone, importing none of those packages (``workbench
--version`` says it without loading them): the gates (:mod:`workbench.tui.textual_ext`,
:mod:`workbench.web.serve_ext`) then try their pieces, and a piece that cannot be loaded turns its gate to stock
as well, saying why. The one module both gates and the command line read the decision from.

Imports only the standard library.

Rooms it may import: none.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import util
from pathlib import Path

STOCK_VARIABLE = "WORKBENCH_STOCK_TEXTUAL"
"""Set to anything but empty or ``0``: the app and ``serve`` run on stock Textual and textual-serve."""

Version = tuple[int, ...]


@dataclass(frozen=True)
class Checked:
    """A package, and the oldest and newest of its releases the gate's pieces were checked against (by
    ``tests/versions.py``; every release between counts as checked)."""

    package: str
    oldest: str
    newest: str


CHECKED_TEXTUAL = Checked("textual", "8.0.0", "8.2.8")
CHECKED_RICH = Checked("rich", "15.0.0", "15.0.0")
"""Rich, whose segments and styles the app's pieces build (the release CI runs)."""
CHECKED_TEXTUAL_SERVE = Checked("textual-serve", "1.1.0", "1.1.3")
APP_PACKAGES = (CHECKED_TEXTUAL, CHECKED_RICH)
"""What the app's fast path reads the private parts of."""
SERVE_PACKAGES = (CHECKED_TEXTUAL_SERVE,)


@dataclass(frozen=True)
class Mode:
    """The fast path or stock, and why, in words a user reads (``workbench --version``)."""

    fast: bool
    reason: str

    def __str__(self) -> str:
        return f"{'fast path' if self.fast else 'stock (complete, slower)'}: {self.reason}"


def release(text: str) -> Version | None:
    """``8.2.8`` → (8, 2, 8); None for anything but a plain release (a pre-release or a local build is not
    what was checked)."""
    parts = text.strip().split(".")
    if not parts or not all(part.isdigit() for part in parts):
        return None
    return tuple(int(part) for part in parts)


def installed(package: str) -> str | None:
    """``package``'s installed version: read from its distribution's folder beside it (``name-version.dist-info``,
    as installers name it), which costs a listing of one folder; else from ``importlib.metadata``, whose import and
    search would be a noticeable part of the app's start."""
    name = package.replace("-", "_")
    spec = util.find_spec(name)
    if spec is not None and spec.origin is not None:
        found = list(Path(spec.origin).parent.parent.glob(f"{name}-*.dist-info"))
        if len(found) == 1:
            return found[0].name[len(name) + 1 : -len(".dist-info")]
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def stock_requested(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get(STOCK_VARIABLE, "").strip() not in ("", "0")


def decide(checked: Checked, version: str | None, requested_stock: bool) -> Mode:
    """The mode for ``checked``'s package at ``version`` (None: not installed as a distribution)."""
    if requested_stock:
        return Mode(False, f"{STOCK_VARIABLE} is set")
    span = f"{checked.oldest} to {checked.newest}"
    number = release(version) if version is not None else None
    if number is None:
        return Mode(False, f"{checked.package} {version or '(version unknown)'} is not a release checked ({span})")
    if not release(checked.oldest) <= number <= release(checked.newest):  # type: ignore[operator]
        return Mode(False, f"{checked.package} {version} is not one the fast path was checked against ({span})")
    return Mode(True, f"{checked.package} {version}, one of the releases checked ({span})")


def mode_for(*packages: Checked) -> Mode:
    """The mode for ``packages`` as installed, under this process's environment: the fast path only where each is
    a release checked."""
    requested = stock_requested()
    modes = [decide(checked, installed(checked.package), requested) for checked in packages]
    for mode in modes:
        if not mode.fast:
            return mode
    return Mode(True, "; ".join(mode.reason for mode in modes))
