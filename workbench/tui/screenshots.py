"""``workbench screenshots``: SVG screenshots of the main views, for the README."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path

from ..engine import TIC_TAC_TOE, Geometry
from ..state.played import GOMOKU_OPENING, game_state
from .app import WorkbenchApp

FOUR_BY_FOUR = Geometry(4, 4, 4)
GOMOKU = Geometry(15, 15, 5)
GOMOKU_OPENING_16 = GOMOKU_OPENING[:16]
"""The bench's opening, its first sixteen moves (h8 h9 g8 i8 …): a position the search has to work on."""

VIEWS: tuple[tuple[str, tuple[int, int], tuple[str, ...], Geometry], ...] = (
    ("start-80x24", (80, 24), (), TIC_TAC_TOE),
    ("midgame-values-120x36", (120, 36), ("5", "1", "9", "v"), TIC_TAC_TOE),
    ("variations-150x45", (150, 45), ("1", "4", "backspace", "5", "backspace", "4", "2", "5", "3"), TIC_TAC_TOE),
    ("masks-perfect-lose-120x36", (120, 36), ("5", "2", "m", "m", "m", "m", "m"), TIC_TAC_TOE),
    ("help-100x36", (100, 36), ("f1",), TIC_TAC_TOE),
    # O's 2 explained in words, its verdict in the history and its refutation numbered on the board (r): the
    # cursor on a taken cell, so that the evaluation speaks of the move played
    ("explanation-120x36", (120, 36), ("1", "2", "shift+up", "r"), TIC_TAC_TOE),
    # learning from that mistake: a wrong answer (3) judged by its own story, then two hints (words, then the cells
    # the answer is among, lit)
    ("practice-120x36", (120, 36), ("1", "2", "4", "7", "5", "3", "6", "L", "o", "3", "m", "m"), TIC_TAC_TOE),
    # puzzles: nine solved and one skipped, then the eleventh (halfway up in difficulty), with the figures kept
    ("puzzle-120x36", (120, 36), ("u", *("answer", "n") * 5, "n", *("answer", "n") * 4), TIC_TAC_TOE),
    # solved once (the longest shot to make), then read back from the cache
    ("4x4k4-values-120x36", (120, 36), ("6", "11", "7", "v"), FOUR_BY_FOUR),
    # opened on the game (typed in, each move's search would slow the next), searched while it is shot: the
    # figures of the search's progress differ from run to run
    ("15x15k5-game-120x40", (120, 40), ("m",), GOMOKU),
)
READY_WITHIN_S = 600.0
"""A 4×4 strong solve takes 10-20 s; ten minutes is a failure, not a slow machine."""
OPENINGS = {"15x15k5-game-120x40": GOMOKU_OPENING_16}
"""Views that start on a game already played: its moves."""


async def _shoot(folder: Path, name: str, size: tuple[int, int], keys: tuple[str, ...], game: Geometry) -> Path:
    # a library of its own: the user's would gain studies to restore from these sessions, and offer
    # the user's own unsaved work back in the middle of a screenshot; and remembered settings of its own: the
    # user's overlay or theme would show in the shots, and a shot's keys (m, v) would become the user's, and
    # the next shot's
    with tempfile.TemporaryDirectory() as scratch:
        remembered = os.environ.get("XDG_CONFIG_HOME")
        os.environ["XDG_CONFIG_HOME"] = str(Path(scratch) / "config")
        try:
            return await _shoot_with(str(Path(scratch) / "library.sqlite3"), folder, name, size, keys, game)
        finally:
            if remembered is None:
                del os.environ["XDG_CONFIG_HOME"]
            else:
                os.environ["XDG_CONFIG_HOME"] = remembered


async def _shoot_with(
    db: str, folder: Path, name: str, size: tuple[int, int], keys: tuple[str, ...], game: Geometry
) -> Path:
    # the variant named, not the one the user last played
    state = game_state(game, OPENINGS[name]) if name in OPENINGS else None
    app = WorkbenchApp(state, db=db, game=game)
    async with app.run_test(size=size) as pilot:
        deadline = time.monotonic() + READY_WITHIN_S
        while not app.ready:  # a worker that failed leaves it False: say so rather than wait for ever
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name}: the analysis of {game} was not ready within {READY_WITHIN_S:.0f} s")
            await pilot.pause(0.01)
        for key in keys:
            if len(key) > 1 and key.isdigit():  # a cell past 9: typed at the ':' prompt
                await pilot.press("colon", *key, "enter")
            elif key == "answer":  # the exercise's answer, as a player who found it would type it
                from ..state.practice import solution
                from .practice import PracticeScreen

                screen = app.screen
                # (no mutate on the next line: it narrows types)
                assert isinstance(screen, PracticeScreen) and screen.practice.current is not None  # pragma: no mutate
                await pilot.press(str(solution(screen.practice.current.position)[0]))
            else:
                await pilot.press(key)
            if key == "u":  # the puzzles are gathered in a worker
                from .practice import PracticeScreen

                while not isinstance(app.screen, PracticeScreen):
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"{name}: no puzzles within {READY_WITHIN_S:.0f} s")
                    await pilot.pause(0.01)
        if app.store.state.searched:  # shown searching, with what it has proven in its first second
            while app.store.state.search_of(app.store.state.position) is None:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name}: the search of {game} reported nothing within {READY_WITHIN_S:.0f} s")
                await pilot.pause(0.01)
            await pilot.pause(1.0)
        await pilot.pause()
        from ..state.study import write_text_atomically

        path = folder / f"{name}.svg"
        write_text_atomically(path, app.export_screenshot())  # whole or not at all: no empty file on a full disk
        return path


def take_screenshots(folder: str | Path = "screenshots") -> list[Path]:
    """Write one SVG per view into ``folder`` (created if missing); returns the paths."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    return [asyncio.run(_shoot(target, name, size, keys, game)) for name, size, keys, game in VIEWS]
