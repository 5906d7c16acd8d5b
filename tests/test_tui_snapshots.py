"""Snapshots of each pane (zoomed) in a few positions, and of the whole app at two sizes.

Update only after looking at the report: pytest --snapshot-update, then open snapshot_report.html.
"""

import pytest
from textual.widgets._toast import ToastRack

from workbench.tui.app import WorkbenchApp

from .tui_helpers import wait_library, wait_ready

POSITIONS = {
    "start": [],
    "midgame": ["5", "1", "9"],
    "won_with_variations": ["1", "4", "backspace", "5", "backspace", "4", "2", "5", "3"],
}
PANES = ["board", "evaluation", "symmetry", "history"]


def preparing(keys, pane=None):
    async def run_before(pilot):
        app = pilot.app
        await wait_ready(pilot, app)
        for key in keys:
            await pilot.press(key)
        if pane is not None:
            app.screen.maximize(app.query_one(f"#{pane}"), container=False)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("pane", PANES)
@pytest.mark.parametrize("position", list(POSITIONS))
def test_pane(snap_compare, pane, position):
    assert snap_compare(WorkbenchApp(), run_before=preparing(POSITIONS[position], pane), terminal_size=(90, 30))


@pytest.mark.parametrize("size", [(80, 24), (150, 45)])
def test_whole_app(snap_compare, size):
    assert snap_compare(WorkbenchApp(), run_before=preparing(POSITIONS["won_with_variations"]), terminal_size=size)


def test_value_overlay_on_the_board(snap_compare):
    keys = ["5", "2", "v"]
    assert snap_compare(WorkbenchApp(), run_before=preparing(keys, "board"), terminal_size=(90, 30))


@pytest.mark.parametrize("pane", PANES)
def test_a_3x4_board_in_each_pane(snap_compare, pane):
    """A board above 3×3: coordinates on its edges, twelve cells, its own classes and masks."""
    from workbench.engine import Geometry

    keys = ["6", "colon", *"a1", "enter", "v"]
    assert snap_compare(WorkbenchApp(game=Geometry(3, 4, 3)), run_before=preparing(keys, pane), terminal_size=(90, 30))


def test_a_4x4_board_with_its_values(snap_compare, kept_solution):
    """4×4, four in a row (its strong solution behind it, kept): sixteen cells with coordinates on the edges, the
    last move marked, each move's exact value on the overlay."""
    from workbench.engine import Geometry

    kept_solution(Geometry(4, 4, 4))
    keys = ["6", "colon", *"11", "enter", "7", "v"]
    assert snap_compare(
        WorkbenchApp(game=Geometry(4, 4, 4)), run_before=preparing(keys, "board"), terminal_size=(90, 30)
    )


@pytest.mark.parametrize("pane", ["board", "evaluation", "symmetry"])
def test_a_15x15_board_in_each_pane(snap_compare, monkeypatch, pane):
    """Gomoku: the board compact at 80×24 (a character a cell), masks as coordinates, the stabiliser named. The
    search is held off (its node count would differ from run to run): every move shows as not proven yet."""
    from workbench.engine import Geometry

    monkeypatch.setattr(WorkbenchApp, "_start_search", lambda self, position: None)
    keys = ["colon", *"h8", "enter", "colon", *"h9", "enter", "colon", *"g8", "enter", "colon", *"i8", "enter", "v"]
    assert snap_compare(
        WorkbenchApp(game=Geometry(15, 15, 5)), run_before=preparing(keys, pane), terminal_size=(80, 24)
    )


DIALOGS = {
    "set-up-with-an-error": ["i", "5", ",", "5"],
    "save-as": ["5", "ctrl+s"],
    "unsaved-changes": ["5", "q"],
    "help": ["f1"],
    "new-game-with-an-error": ["5", "n", "tab", *"16x16k5", "enter"],
    "games-like-this": ["5", "1", "9", "g"],
    "replace-a-study": ["5", "ctrl+s", *"corner", "enter", "n", "enter", "1", "ctrl+s", *"corner", "enter"],
    "open-with-a-study": ["5", "ctrl+s", *"corner", "enter", "fix the clock", "ctrl+o", "down"],
}


@pytest.mark.parametrize("dialog", list(DIALOGS))
def test_dialog(snap_compare, dialog):
    """Each dialog as the user sees it: its title, fields, buttons, hints and errors."""

    async def run_before(pilot):
        await wait_library(pilot, pilot.app)  # the save and open dialogs say where they save and open
        for key in DIALOGS[dialog]:
            if key == "fix the clock":  # the list shows when each study was saved: the same time every run
                pilot.app.library.connection.execute("UPDATE studies SET updated = '2026-11-23 12:00:00'")
                continue
            await pilot.press(key)
        # a toast ("Saved 'corner' in the library") lives two seconds: whether it is still up when
        # the picture is taken depends on the machine's speed, so none is in the picture
        pilot.app.clear_notifications()  # (this refreshes the top screen's toasts only:)
        for screen in pilot.app.screen_stack:  # the main screen shows through a dialog's dimmed backdrop
            for rack in screen.query(ToastRack):
                rack.show(pilot.app._notifications)
        await pilot.pause()

    assert snap_compare(WorkbenchApp(), run_before=run_before, terminal_size=(100, 34))
