"""``workbench screenshots``: SVG screenshots of the main views, for the README."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from .app import WorkbenchApp

VIEWS: tuple[tuple[str, tuple[int, int], tuple[str, ...]], ...] = (
    ("start-80x24", (80, 24), ()),
    ("midgame-values-120x36", (120, 36), ("5", "1", "9", "v")),
    ("variations-150x45", (150, 45), ("1", "4", "backspace", "5", "backspace", "4", "2", "5", "3")),
    ("masks-perfect-lose-120x36", (120, 36), ("5", "2", "m", "m", "m", "m", "m")),
    ("help-100x36", (100, 36), ("f1",)),
)


async def _shoot(folder: Path, name: str, size: tuple[int, int], keys: tuple[str, ...]) -> Path:
    # a library of its own: the user's would gain studies to restore from these sessions, and offer
    # the user's own unsaved work back in the middle of a screenshot
    with tempfile.TemporaryDirectory() as scratch:
        return await _shoot_with(str(Path(scratch) / "library.sqlite3"), folder, name, size, keys)


async def _shoot_with(db: str, folder: Path, name: str, size: tuple[int, int], keys: tuple[str, ...]) -> Path:
    app = WorkbenchApp(db=db)
    async with app.run_test(size=size) as pilot:
        while not app.ready:
            await pilot.pause(0.01)
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        return Path(app.save_screenshot(f"{name}.svg", str(folder)))


def take_screenshots(folder: str | Path = "screenshots") -> list[Path]:
    """Write one SVG per view into ``folder`` (created if missing); returns the paths."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    return [asyncio.run(_shoot(target, name, size, keys)) for name, size, keys in VIEWS]
