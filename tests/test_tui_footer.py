"""The key footer, one widget drawing what Textual's compact Footer draws with a widget a key: the same line in
every theme, a click presses the key, a key that cannot act now is dim and rings the bell, the key under the
mouse is lit with its tooltip, and a zoomed pane keeps it."""

import tempfile

import pytest
from textual.widgets import Footer

from workbench.tui.app import WorkbenchApp
from workbench.tui.panes.bars import KeysFooter
from workbench.tui.panes.variation_tree import VariationTree

from .tui_helpers import text_of, wait_ready

TEXTUALS_FOOTER_CSS = """
Footer { background: $panel; }
Footer FooterKey .footer-key--key { color: $text; background: transparent; }
Footer FooterKey .footer-key--description { color: $text; background: transparent; }
Footer FooterKey.-command-palette { border-left: vkey $foreground; }
"""
"""How the app styled Textual's Footer before it drew its own."""


class WithTextualsFooter(WorkbenchApp):
    CSS = TEXTUALS_FOOTER_CSS

    def compose(self):
        for widget in super().compose():
            yield Footer(compact=True) if isinstance(widget, KeysFooter) else widget


def _app(cls=WorkbenchApp) -> WorkbenchApp:
    return cls(db=tempfile.mkdtemp() + "/library.sqlite3")


async def _footer_lines(cls, theme: str) -> list[list[tuple[str, object]]]:
    """The screen's last line, cell by cell (character, style without its mouse data), with the board focused,
    then with the mouse on the key "n New", then with the history tree focused (it has keys of its own)."""
    lines = []
    app = _app(cls)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        app.theme = theme
        for step in ("hover", "tab", "done"):
            await pilot.pause()
            strip = app.screen._compositor.render_strips()[-1]
            lines.append([(char, segment.style.clear_meta_and_links()) for segment in strip for char in segment.text])
            if step == "hover":
                await pilot.hover(cls.__mro__[0] is WithTextualsFooter and Footer or KeysFooter, offset=(17, 0))
            elif step == "tab":
                await pilot.hover("#board")
                await pilot.press("tab")
    return lines


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "solarized-light"])
async def test_the_footer_draws_the_line_textual_s_compact_footer_draws(theme):
    ours, textuals = await _footer_lines(WorkbenchApp, theme), await _footer_lines(WithTextualsFooter, theme)
    for mine, theirs in zip(ours, textuals):
        text = "".join(char for char, _ in mine)
        bar = text.rindex("▏")
        # keys that do not all fit: Textual's cuts the first that does not fit, and the next ones under the palette
        # key; ours draws those that fit whole and "…" after them
        keys_end = text.index("…") if "…" in text else bar
        assert text[keys_end:bar].strip() in ("", "…") and "".join(c for c, _ in theirs).startswith(text[:keys_end])
        assert mine[:keys_end] == theirs[:keys_end] and mine[bar:-1] == theirs[bar:-1]
        # the last cell is the palette key's margin: Textual's shows the key's colour there (or a letter of the
        # keys cut under it), ours the footer's background alone
        assert mine[-1][0] == " " and mine[-1][1].bgcolor == theirs[-1][1].bgcolor
    assert ["…" in "".join(char for char, _ in line) for line in ours] == [False, False, True]


def _column_of(footer: KeysFooter, description: str) -> int:
    index = next(i for i, key in enumerate(footer.keys) if key.description == description)
    return next(first for first, _, key in footer._spans if key == index)


async def test_a_click_on_a_key_presses_it():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        footer = app.query_one(KeysFooter)
        await pilot.click(KeysFooter, offset=(_column_of(footer, "Values") + 3, 0))
        await pilot.pause()
        assert app.store.state.view.overlay == "values"
        await pilot.click(KeysFooter, offset=(2, 0))  # "^q Quit": a fresh game quits without asking
        await pilot.pause()
        assert app.return_code == 0 or not app.is_running


async def test_a_click_on_the_space_after_a_key_presses_nothing():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        footer = app.query_one(KeysFooter)
        column = _column_of(footer, "Values")
        after = text_of(footer).index("Values", column) + len("Values")  # the space after the key
        assert text_of(footer)[after] == " " and footer._key_at(after + 1) is not None  # and another key after it
        await pilot.click(KeysFooter, offset=(after, 0))
        await pilot.pause()
        assert app.store.state.view.overlay == "none"
        assert footer.hovered is None and footer.tooltip is None  # the space between keys is no key's
        await pilot.click(KeysFooter, offset=(after - 1, 0))  # its last letter is the key's
        await pilot.pause()
        assert app.store.state.view.overlay == "values"


async def test_the_palette_key_at_the_right_opens_the_command_palette():
    from textual.command import CommandPalette

    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.click(KeysFooter, offset=(117, 0))
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


async def test_the_keys_stay_as_they_were_while_the_terminal_has_lost_focus():
    """As Textual's footer: the terminal's window left for another (Textual blurs the focused pane then), the
    keys do not change under the user's eyes; the focus comes back to the pane that had it."""
    from textual import events

    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("tab")  # the history's tree, which has keys of its own
        await pilot.pause()
        footer = app.query_one(KeysFooter)
        before = text_of(footer)
        assert "p Promote" in before
        app.post_message(events.AppBlur())
        await pilot.pause()
        assert not app.app_focus and app.focused is None
        assert text_of(footer) == before
        app.post_message(events.AppFocus())
        await pilot.pause()
        assert isinstance(app.focused, VariationTree) and text_of(footer) == before


async def test_a_key_that_cannot_act_now_is_dim_and_a_click_on_it_rings_the_bell(monkeypatch):
    app = _app()
    rings = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        monkeypatch.setattr(app, "bell", lambda: rings.append(1))
        checked = WorkbenchApp.check_action
        monkeypatch.setattr(
            WorkbenchApp,
            "check_action",
            lambda self, action, parameters: None if action == "toggle_values" else checked(self, action, parameters),
        )
        app.screen.refresh_bindings()
        await pilot.pause()
        footer = app.query_one(KeysFooter)
        column = _column_of(footer, "Values")
        assert footer.render_line(0).crop(column, column + 1)._segments[0].style.dim
        assert not footer.render_line(0).crop(0, 1)._segments[0].style.dim  # "^q Quit" can act
        await pilot.click(KeysFooter, offset=(column, 0))
        await pilot.pause()
        assert rings == [1] and app.store.state.view.overlay != "values"


async def test_the_key_under_the_mouse_is_lit_with_its_tooltip_and_unlit_when_the_mouse_leaves():
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        footer = app.query_one(KeysFooter)
        column = _column_of(footer, "Values")
        before = footer.render_line(0)
        await pilot.hover(KeysFooter, offset=(column, 0))
        await pilot.pause()
        assert footer.keys[footer.hovered].description == "Values" and footer.has_class("-on-key")
        lit = footer.render_line(0)
        assert lit.text == before.text
        assert lit.crop(column, column + 1) != before.crop(column, column + 1)
        assert lit.crop(0, 1) == before.crop(0, 1)  # the other keys as they were
        await pilot.hover(KeysFooter, offset=(117, 0))
        await pilot.pause()
        assert footer.hovered == -1 and footer.tooltip == footer.palette.tooltip == "Open the command palette"
        await pilot.hover("#board")
        await pilot.pause()
        assert footer.hovered is None and footer.tooltip is None and footer.render_line(0) == before


async def test_a_zoomed_pane_keeps_the_keys_and_a_narrow_terminal_shows_those_that_fit_whole_then_an_ellipsis():
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("z")
        await pilot.pause()
        footer = app.query_one(KeysFooter)
        assert footer.region.y == 23 and footer.display
        line = text_of(footer)
        assert len(line) == 80 and line.startswith("^q Quit f1 Help") and line.endswith("▏^p palette ")
        assert line == "^q Quit f1 Help n New i Set up ^s Save ^o Open x Export v Values …  ▏^p palette "
        # a click on the ellipsis presses nothing; the last key shown is whole and pressed by a click on its end
        assert [index for first, after, index in footer._spans if first <= line.index("…") < after] == []
        assert footer._key_at(line.index("Values") + 5) == 7


@pytest.mark.parametrize("width", [80, 90, 100, 110, 120, 130])
async def test_at_every_width_the_footer_shows_whole_keys_in_order_and_says_when_some_are_left_out(width):
    app = _app()
    async with app.run_test(size=(width, 30)) as pilot:
        await wait_ready(pilot, app)
        footer = app.query_one(KeysFooter)
        line = text_of(footer)
        keys_part, palette_part = line.rsplit("▏", 1)
        assert palette_part.strip() == "^p palette" and len(line) == width
        items = [f"{entry.display} {entry.description}" for entry in footer.keys]
        fitted = max(n for n in range(len(items) + 1) if keys_part.startswith(" ".join(items[:n])))
        assert keys_part[len(" ".join(items[:fitted])) :].strip() == ("…" if fitted < len(items) else "")
        assert fitted >= 8 and (fitted == len(items)) is (width >= 120)
