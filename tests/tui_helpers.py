"""Shared helpers for the app tests."""

import asyncio
import io

from rich.console import Console

from workbench.library import Library
from workbench.library.games import write_games
from workbench.tui.app import WorkbenchApp

# Only a guard against a hang, never a pace: every wait below ends on the event itself.
HANG_GUARD_SECONDS = 120


async def wait_for_reactive(app, name: str, predicate) -> None:
    """Wait until the app's reactive ``name`` holds a value ``predicate`` accepts (at once if it does now)."""
    arrived = asyncio.Event()
    app.watch(app, name, lambda value: arrived.set() if predicate(value) else None)
    await asyncio.wait_for(arrived.wait(), HANG_GUARD_SECONDS)


async def wait_ready(pilot, app: WorkbenchApp) -> None:
    """Wait until the engine's tables are ready and every pane has painted with them."""
    await wait_for_reactive(app, "ready", bool)
    await pilot.pause()
    assert app.ready
    await wait_settled(pilot, app)


async def wait_settled(pilot, app: WorkbenchApp) -> None:
    """Wait until the screen has no layout or repaint waiting for Textual's next refresh tick (a view
    that grew with the tables asks for one; a slow run would otherwise meet it in the test's keys)."""
    screen = app.screen
    for _ in range(1000):  # a bound so that a screen that never settles fails instead of hanging
        if not (
            screen._layout_required or screen._scroll_required or screen._repaint_required or screen._dirty_widgets
        ):
            return
        await pilot.pause()
    raise AssertionError("the screen never settled")


async def wait_library(pilot, app: WorkbenchApp) -> str:
    """Wait until the library worker is done; its outcome, ``"open"`` or ``"unavailable"``."""
    await wait_ready(pilot, app)
    await wait_for_reactive(app, "library_status", lambda status: status != "opening")
    await pilot.pause()
    return app.library_status


def library_with_games(db) -> None:
    """Make the library at ``db`` (a path) hold every game of the classic board, as ``workbench games`` does."""
    with Library.open(db) as library:
        write_games(library)


def moves(app: WorkbenchApp) -> tuple[int, ...]:
    state = app.store.state
    return state.tree.moves_to(state.cursor)


def cell_offset(grid, cell: int) -> tuple[int, int]:
    """Widget-relative coordinates of the middle of ``cell`` on the board grid."""
    width, height = grid._cell_size()
    gap = grid._gap()  # a grid line between cells, or none on a compact board
    row, col = grid.state.geometry.row_col(cell)
    origin_x, origin_y = grid._origin()
    return origin_x + col * (width + gap) + width // 2, origin_y + row * (height + gap) + height // 2


def cell_texts(grid) -> list[str]:
    """What the board shows on the middle line of each cell, cell 1 to the last (a mark, a number,
    or an overlay's words), read from the screen by the grid's own geometry."""
    lines = text_of(grid).splitlines()
    width, height = grid._cell_size()
    gap = grid._gap()
    origin_x, origin_y = grid._origin()
    geometry = grid.state.geometry
    texts = []
    for cell in range(1, geometry.size + 1):
        row, col = geometry.row_col(cell)
        y = origin_y + row * (height + gap) + height // 2
        x = origin_x + col * (width + gap)
        texts.append(lines[y][x : x + width].strip())
    return texts


def plain_text(widget) -> str:
    """The text a Static holds, unwrapped (text_of shows what fits its width)."""
    return str(widget.render())


def text_of(widget) -> str:
    """The plain text a widget renders now (no colour codes)."""
    from workbench.tui.panes.bars import KeysFooter
    from workbench.tui.panes.lines import LinesView

    if isinstance(widget, (LinesView, KeysFooter)):
        return "\n".join(widget.render_line(y).text for y in range(widget.size.height))
    console = Console(width=max(widget.size.width, 20), file=io.StringIO(), color_system=None, legacy_windows=False)
    console.print(widget.render())
    return console.file.getvalue()


async def until(pilot, condition, what: str, seconds: float = 200.0) -> None:
    """Let the app run until ``condition()`` holds (each turn of the loop hands it the event loop); the bound
    (``seconds``) only turns a hang into a failure."""
    for _ in range(round(seconds / 0.01)):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"never: {what}")


async def discard_changes(pilot, app) -> None:
    """A new game or set-up over a study with unsaved changes asks first: Discard them."""
    from workbench.tui.dialogs import ConfirmQuit

    await until(pilot, lambda: isinstance(app.screen, ConfirmQuit), "the unsaved-changes question")
    await pilot.click("#discard")
    await pilot.pause()
