"""Shared helpers for the app tests."""

import io

from rich.console import Console

from workbench.tui.app import WorkbenchApp


async def wait_ready(pilot, app: WorkbenchApp) -> None:
    """Wait until the engine's tables are built and every pane has painted with them."""
    for _ in range(400):
        if app.ready:
            break
        await pilot.pause(0.01)
    assert app.ready
    await pilot.pause()


def moves(app: WorkbenchApp) -> tuple[int, ...]:
    state = app.store.state
    return state.tree.moves_to(state.cursor)


def cell_offset(grid, cell: int) -> tuple[int, int]:
    """Widget-relative coordinates of the middle of ``cell`` on the board grid."""
    width, height = grid._cell_size()
    row, col = grid.state.geometry.row_col(cell)
    origin_x, origin_y = grid._origin()
    return origin_x + col * (width + 1) + width // 2, origin_y + row * (height + 1) + height // 2


def text_of(widget) -> str:
    """The plain text a widget renders now (no colour codes)."""
    from workbench.tui.lines import LinesView

    if isinstance(widget, LinesView):
        return "\n".join(widget.render_line(y).text for y in range(widget.size.height))
    console = Console(width=max(widget.size.width, 20), file=io.StringIO(), color_system=None, legacy_windows=False)
    console.print(widget.render())
    return console.file.getvalue()
