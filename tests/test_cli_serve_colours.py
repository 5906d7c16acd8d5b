"""`workbench serve`: the page's terminal takes the app's theme's colours, so the pixels of the page that no row
covers (under the last row, beside the last column) are the theme's background, and an ANSI theme's default
colours are those of a terminal of its kind (the browser's own look at them is in ``test_cli_browser.py``)."""

import json
import re

import pytest
from textual.app import App
from textual.color import Color
from textual.theme import BUILTIN_THEMES

from workbench.bench.browser import all_panes
from workbench.tui.served_driver import ANSI_LIGHT_PAGE, page_colours

from .test_cli_serve import Tab, browser_session, serving_again

OSC = re.compile(r"\x1b\](\d+)(?:;([^\x1b\x07]*))?\x1b\\")


def said(codes: str) -> dict[str, str | None]:
    """What ``codes`` set, by OSC number: a colour (``rgb:rr/gg/bb``), None where it restores one."""
    found = OSC.findall(codes)
    assert "".join(f"\x1b]{number}{';' + value if value else ''}\x1b\\" for number, value in found) == codes
    return {number: value or None for number, value in found}


def xterm(colour: str) -> str:
    red, green, blue = Color.parse(colour).rgb
    return f"rgb:{red:02x}/{green:02x}/{blue:02x}"


@pytest.mark.parametrize("name", sorted(BUILTIN_THEMES))
def test_every_theme_gives_the_page_s_terminal_its_background_and_an_ansi_theme_a_terminal_s_defaults(name):
    theme = BUILTIN_THEMES[name]
    app = App()
    app.theme = name
    codes = said(page_colours(theme, app.get_css_variables()["background"]))
    if not theme.ansi:
        assert codes == {"110": None, "11": xterm(app.get_css_variables()["background"])}
        assert theme.background is None or codes["11"] == xterm(theme.background)  # (textual-dark names none)
    elif theme.dark:
        assert codes == {"110": None, "111": None}  # the page's own light on dark
    else:
        assert codes == {"10": xterm(ANSI_LIGHT_PAGE[0]), "11": xterm(ANSI_LIGHT_PAGE[1])}


def test_a_background_that_is_no_colour_restores_the_page_s():
    assert said(page_colours(BUILTIN_THEMES["nord"], "not a colour")) == {"110": None, "111": None}


async def test_a_served_app_tells_its_page_s_terminal_the_theme_s_background_at_its_start_and_at_each_change(
    tmp_path,
):
    settings = tmp_path / "config" / "workbench" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"theme": "solarized-light"}))
    with serving_again(tmp_path) as (process, url):
        async with browser_session() as session, Tab(session, url) as tab:
            written = bytearray()
            feed = tab.stream.feed
            tab.stream.feed = lambda data: (written.extend(data), feed(data))
            await tab.until(all_panes, "the four panes")
            told = written.find(b"\x1b]110\x1b\\\x1b]11;rgb:fd/f6/e3\x1b\\")
            assert told in range(0, written.find(b"History"))  # solarized-light's, before the panes show
            await tab.press("\x10")  # ctrl+p: the command palette, then its theme picker
            await tab.until(lambda text: "Search for commands" in text, "the command palette")
            await tab.press(*"theme", "\r")
            await tab.until(lambda text: "nord" in text, "the theme picker")
            await tab.press(*"nord", "\r")
            nord = b"\x1b]110\x1b\\\x1b]11;rgb:2e/34/40\x1b\\"
            await tab.until(lambda text: nord in written, "the page told nord's background")
            await tab.press("\x10")
            await tab.until(lambda text: "Search for commands" in text, "the command palette again")
            await tab.press(*"theme", "\r")
            await tab.until(lambda text: "ansi-light" in text, "the theme picker again")
            await tab.press(*"ansi-light", "\r")
            await tab.until(
                lambda text: b"\x1b]10;rgb:00/00/00\x1b\\\x1b]11;rgb:ff/ff/ff\x1b\\" in written,
                "a light terminal's colours for ansi-light",
            )
