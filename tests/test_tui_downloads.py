"""In a browser tab (`workbench serve`), what a terminal user gets as files or the clipboard comes as the
browser's downloads: the move text, the study file, the f12 screenshot. In a terminal nothing changes."""

import os
import re
import tempfile

import pytest
from textual.widgets import Button

from workbench.state import parse_study
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs import MoveTextScreen
from workbench.tui.features.study_files import download_stem

from .tui_helpers import wait_ready


@pytest.fixture
def in_a_browser(monkeypatch) -> list:
    """The app believes it runs in a browser tab (Textual's web driver); what it delivers is listed as
    (method, file name, text) instead of sent."""
    delivered: list = []
    monkeypatch.setattr(WorkbenchApp, "is_web", property(lambda self: True))

    def deliver_text(self, path_or_file, *, save_filename=None, mime_type=None, **options):
        delivered.append((save_filename, mime_type, path_or_file.read()))
        return "key"

    monkeypatch.setattr(WorkbenchApp, "deliver_text", deliver_text)
    return delivered


async def test_a_study_without_moves_has_no_move_text_to_download_or_copy(in_a_browser, monkeypatch):
    """A review in a browser: the download was a file holding one line break, and the clipboard got the words
    "(no moves yet)"."""
    copied: list[str] = []
    monkeypatch.setattr(WorkbenchApp, "copy_to_clipboard", lambda self, text: copied.append(text))
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("x")
        await pilot.pause()
        assert str(app.screen.query_one(".dialog-title").render()) == "Move text (no moves yet: nothing copied)"
        assert app.screen.query_one("#download-txt").disabled and not app.screen.query_one("#download-json").disabled
        await pilot.click("#download-txt")
        await pilot.click("#download-json")
        await pilot.pause()
        assert [name for name, _, _ in in_a_browser] == ["study.json"] and copied == []
        await pilot.press("escape", "5", "x")
        await pilot.pause()
        assert copied == ["5"] and not app.screen.query_one("#download-txt").disabled


async def test_the_move_text_and_the_study_download_from_the_export_dialog(in_a_browser, tmp_path):
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "1", "9", "x")
        await pilot.pause()
        assert isinstance(app.screen, MoveTextScreen)
        await pilot.click("#download-txt")
        await pilot.click("#download-json")
        await pilot.pause()
        assert [(name, mime) for name, mime, _ in in_a_browser] == [
            ("study.txt", "text/plain"),
            ("study.json", "application/json"),
        ]
        assert in_a_browser[0][2] == "5 1 9\n"
        downloaded = parse_study(in_a_browser[1][2])
        assert downloaded.tree.moves_to(downloaded.cursor) == (5, 1, 9)
        assert isinstance(app.screen, MoveTextScreen)  # still open: both can be had
        await pilot.click("#movetext-close")
        assert not isinstance(app.screen, MoveTextScreen)
        # f12: the screenshot is the browser's download, not a file on the server
        await pilot.press("f12")
        await pilot.pause()
        name, mime, svg = in_a_browser[2]
        assert re.fullmatch(r"study \d{4}-\d\d-\d\d \d\d-\d\d-\d\d\.svg", name) and mime == "image/svg+xml"
        assert svg.startswith("<svg") and not any(name.endswith(".svg") for name in os.listdir("."))


async def test_in_a_terminal_the_export_dialog_offers_no_downloads():
    app = WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "x")
        await pilot.pause()
        assert [button.id for button in app.screen.query(Button)] == ["movetext-close"]


@pytest.mark.parametrize(
    "path, name, stem",
    [
        (None, None, "study"),
        ("/home/me/corner opening.json", None, "corner_opening"),
        (None, "corner opening", "corner_opening"),
        (None, "../../etc/passwd", "etc_passwd"),
        (None, "…", "study"),
        ("/tmp/x/.hidden.json", None, "hidden"),
        (None, "ruy lópez 2", "ruy_lópez_2"),
    ],
)
def test_a_download_is_named_after_the_study_in_characters_any_file_system_takes(path, name, stem):
    assert download_stem(path, name) == stem


async def test_in_a_browser_a_study_saved_to_a_file_says_where_on_the_server_it_is(in_a_browser, tmp_path, monkeypatch):
    """A review in a browser: "Saved fromweb.json", and the user looked in the browser's downloads."""
    from textual.widgets import Input

    monkeypatch.chdir(tmp_path)
    app = WorkbenchApp(db=str(tmp_path / "library.sqlite3"))
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "ctrl+s")
        app.screen.query_one(Input).value = "fromweb.json"
        await pilot.press("enter")
        await pilot.pause()
        assert (tmp_path / "fromweb.json").is_file() and in_a_browser == []
        said = [n.message for n in app._notifications if n.message.startswith("Saved")]
        where = (tmp_path / "fromweb.json").resolve()
        assert said == [f"Saved {where} on the server's machine (x: Download study for a copy here)"]
