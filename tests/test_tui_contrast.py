"""Every text on screen meets WCAG AA contrast in every built-in theme, measured on the app's own
SVG screenshot: 4.5:1 for text, 3:1 for bold text and for lines and borders."""

import pytest
from textual.app import App
from textual.color import Color

from workbench.tui.app import WorkbenchApp
from workbench.tui.lines import contrast_ratio

from .contrast import contrast, failures
from .tui_helpers import wait_ready

# The ANSI themes draw in the terminal's own 16 colours, which the screenshot can only guess
# (Rich's default palette): what a user sees depends on their terminal, not on us.
THEMES = sorted(name for name in App().available_themes if not name.startswith("ansi-"))
SIZE = (120, 36)


def test_the_contrast_formula_matches_wcag():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#123456", "#123456") == pytest.approx(1.0)


def test_the_app_s_own_contrast_formula_matches_wcag():
    """The app picks black or white for ``auto`` text by this figure (Textual's own pick can be the worse)."""
    assert contrast_ratio(Color(0, 0, 0), Color(255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio(Color(0x77, 0x77, 0x77), Color(255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio(Color(0, 0x80, 0), Color(0, 0, 0)) == pytest.approx(contrast("#008000", "#000000"))
    assert contrast_ratio(Color(0x12, 0x34, 0x56), Color(0x12, 0x34, 0x56)) == pytest.approx(1.0)
    # the darkest channels (up to 10 of 255) are linear in WCAG's formula: a near-black on white
    assert contrast_ratio(Color(10, 10, 10), Color(255, 255, 255)) == pytest.approx(contrast("#0a0a0a", "#ffffff"))
    assert contrast_ratio(Color(10, 10, 10), Color(255, 255, 255)) == pytest.approx(19.80, abs=0.01)


def test_a_faint_text_is_found():
    svg = (
        '<style>.terminal-1-r1 { fill: #e8e8e8 }\n.terminal-1-r2 { fill: #000000;font-weight: bold }</style>'
        '<rect fill="#ffffff" x="0" y="1.5" width="24.4" height="24.65" shape-rendering="crispEdges"/>'
        '<text class="terminal-1-r1" x="0" y="20" textLength="12.2" clip-path="url(#terminal-1-line-0)">a</text>'
        '<text class="terminal-1-r2" x="12.2" y="20" textLength="12.2" clip-path="url(#terminal-1-line-0)">b</text>'
    )
    [faint] = failures(svg)
    assert (faint.text, faint.foreground, faint.background, faint.needed) == ("a", "#e8e8e8", "#ffffff", 4.5)


def describe(found) -> str:
    return "; ".join(f"{f.text!r} at {f.row},{f.column}: {f.foreground} on {f.background} is {f.ratio}:1" for f in found[:8])


@pytest.mark.parametrize("theme", THEMES)
async def test_every_text_is_readable_in_every_theme(theme):
    app = WorkbenchApp()
    app.theme = theme
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("4", "1", "5", "2", "3", "backspace", "v")  # marks ?? and ?!, the values overlay, the cursor
        await pilot.pause()
        found = failures(app.export_screenshot())
        assert not found, describe(found)
        for keys in (("v", *["m"] * 6), ("6",)):  # the best-move mask; then 6 wins, and the line is marked
            await pilot.press(*keys)
            await pilot.pause()
            found = failures(app.export_screenshot())
            assert not found, describe(found)
        assert app.store.state.position.is_over


async def test_after_a_theme_change_every_pane_is_readable_at_once():
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("4", "1", "5", "2", "v")
        app.theme = "textual-light"
        await pilot.pause()
        await pilot.pause()
        found = failures(app.export_screenshot())
        assert not found, describe(found)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "solarized-light"])
@pytest.mark.parametrize(
    "keys",
    [("f1",), ("5", "ctrl+s", "!"), ("i", *"5,5"), ("n",), ("n", "tab", *"16x16k5", "enter"), ("colon", *"17", "enter")],
    ids=["help", "save-as", "set-up-error", "new-game", "new-game-error", "play-a-cell-error"],
)
async def test_dialogs_are_readable_over_the_dimmed_screen(theme, keys):
    """The screen behind a dialog is dimmed on purpose; the dialog itself must read well."""
    app = WorkbenchApp()
    app.theme = theme
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press(*keys)
        await pilot.pause()
        box = app.screen.query_one(".dialog").region
        found = [f for f in failures(app.export_screenshot()) if box.contains(f.column, f.row)]
        assert not found, describe(found)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize(
    "keys, error",
    [
        (("colon", *"17", "enter"), "#cell-error"),
        (("i", *"5,5", "enter"), "#setup-error"),
        (("n", "tab", *"16x16k5", "enter"), "#variant-error"),
        (("ctrl+s", "ctrl+u", "enter"), "#path-error"),
        (("ctrl+o", *"no such study", "enter"), "#open-error"),
    ],
    ids=["play-a-cell", "set-up", "new-game", "save-as", "open"],
)
async def test_a_dialog_s_complaint_is_drawn_in_the_theme_s_error_colour(theme, keys, error, tmp_path):
    from textual.color import Color
    from textual.widgets import Static

    app = WorkbenchApp(db=str(tmp_path / "library.sqlite3"))
    app.theme = theme
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await pilot.press(*keys)
        await pilot.pause()
        complaint = app.screen.query_one(error, Static)
        drawn = [segment for segment in complaint.render_line(0) if segment.text.strip()]
        assert drawn, "no complaint shown"
        expected = Color.parse(app.theme_variables["text-error"]).rich_color
        assert all(segment.style.color == expected for segment in drawn), (theme, drawn)
