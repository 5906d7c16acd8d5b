"""`workbench serve` in a real browser: headless Chromium (Debian's package) driven by Playwright.

The page's terminal (xterm.js) draws on a canvas, so there is no text in the page to read: the screen is
rebuilt from what the app sends over the page's websocket, with a terminal emulator (pyte) of the size the
page asked for. Keys are typed into the page as a user types them.

Without Chromium the test is skipped, unless WORKBENCH_BROWSER_TESTS=required (CI sets it, having installed
Chromium), where a missing browser fails the run instead of skipping the one test that proves the browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pyte
import pytest

from .test_cli_serve import PANE_TITLES, server  # noqa: F401 - a fixture

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("WORKBENCH_BROWSER_TESTS") == "required"
# the flags a closed network needs (no background connections, no updates), and none for a sandbox as root
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]  # fmt: skip


def _chromium():
    if CHROMIUM is None:
        if REQUIRED:
            pytest.fail("Chromium is not installed, and the browser test is required (WORKBENCH_BROWSER_TESTS)")
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium)")
    return pytest.importorskip("playwright.sync_api") if not REQUIRED else __import__("playwright.sync_api").sync_api


class PageScreen:
    """The screen the page's terminal shows, rebuilt from the websocket's frames: the page's own size
    messages resize it, the app's output is fed to it."""

    def __init__(self) -> None:
        self.screen: pyte.Screen | None = None
        self.stream: pyte.ByteStream | None = None
        self.sockets = 0

    def attach(self, socket) -> None:
        """A new websocket: a new app (a loaded or reloaded page), its size in the address."""
        self.sockets += 1
        size = re.search(r"width=(\d+)&height=(\d+)", socket.url)
        columns, rows = (int(size.group(1)), int(size.group(2))) if size else (80, 24)
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        socket.on("framereceived", self._received)
        socket.on("framesent", self._sent)

    def _received(self, payload) -> None:
        if isinstance(payload, bytes):
            self.stream.feed(payload)

    def _sent(self, payload) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = json.loads(payload)[1]
            self.screen.resize(size["height"], size["width"])

    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen is not None else ""

    @property
    def size(self) -> tuple[int, int]:
        return (self.screen.columns, self.screen.lines) if self.screen is not None else (0, 0)


def until(page, screen: PageScreen, condition, what: str, seconds: float = 60) -> None:
    """Let the page run until ``condition(text)`` holds (the bound turns a hang into a failure)."""
    deadline = time.monotonic() + seconds
    while not condition(screen.text()):
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}\n{screen.text()}")
        page.wait_for_timeout(50)  # the page's events (frames) are handled while it waits


def after_5_1_9(text: str) -> bool:
    return "O to move: draw in 6" in text and all(re.search(rf"│\s+{cell} loss\s", text) for cell in (2, 4, 6, 8))


def test_the_workbench_in_chromium_plays_downloads_follows_a_resize_and_offers_the_study_back_after_a_reload(server, tmp_path):  # noqa: F811
    sync_api = _chromium()
    process, url = server
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            screen = PageScreen()
            page.on("websocket", screen.attach)
            started = time.monotonic()
            page.goto(url, wait_until="domcontentloaded")
            until(page, screen, lambda text: all(title in text for title in PANE_TITLES), "the four pane titles")
            loaded = time.monotonic() - started
            columns, rows = screen.size
            assert columns >= 100 and rows >= 30, screen.size  # the page's terminal fills the viewport
            page.focus(".xterm-helper-textarea")  # typing goes to the terminal; a click would reach the app
            for key in "519":
                page.keyboard.press(key)
            until(page, screen, after_5_1_9, "the evaluation after 5 1 9: O to move, a draw, the edges losing")
            page.screenshot(path=str(tmp_path / "browser.png"))
            # f12: the screenshot, as the browser's download: the page opens the download's address in a new tab,
            # whose response is recorded on its way (headless Chromium reports no download event for it)
            downloads: list = []

            def record(route) -> None:
                response = route.fetch()
                downloads.append((response.headers.get("content-disposition", ""), response.body()))
                route.fulfill(response=response)

            page.context.route("**/download/**", record)
            page.keyboard.press("F12")
            deadline = time.monotonic() + 30
            while not downloads and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            assert downloads, "no download within 30 s"
            disposition, body = downloads[0]
            assert re.fullmatch(r"attachment; filename=.*\.svg", disposition), disposition
            assert body.startswith(b"<svg") and b"draw" in body

            # narrower than 120 columns: two columns of panes, the history beside the symmetry pane
            assert not any("History" in line and "Symmetry" in line for line in screen.text().splitlines())
            page.set_viewport_size({"width": 960, "height": 600})
            until(page, screen, lambda text: screen.size[0] < columns, "the page's terminal resized")
            assert 80 <= screen.size[0] < 120 and screen.size[1] >= 24, screen.size
            until(page, screen, lambda text: any("History" in line and "Symmetry" in line for line in text.splitlines()), "two columns")
            page.set_viewport_size({"width": 480, "height": 320})  # below 80×24: the app says so, and draws nothing else
            until(page, screen, lambda text: "workbench needs at least" in text, "the too-small message")

            page.set_viewport_size({"width": 1280, "height": 800})
            page.reload(wait_until="domcontentloaded")
            until(page, screen, lambda text: screen.sockets == 2 and "Restore the unsaved study" in text, "the study offered back")
            assert "(an untitled study, 3" in screen.text()
        finally:
            browser.close()
    assert loaded < 30  # a bound on a hang, not a speed figure: the bench measures the load time


def take_browser_screenshot(path: Path) -> None:  # pragma: no cover - run by hand for the README's picture
    """`python -m tests.test_cli_browser`: the workbench in Chromium after 5 1 9, as a PNG."""
    import subprocess
    import sys
    import tempfile

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "XDG_DATA_HOME": folder, "XDG_CONFIG_HOME": folder}
        serving = subprocess.Popen([sys.executable, "-m", "workbench", "serve", "--port", "0", "--db", f"{folder}/l.sqlite3"],
                                   stdout=subprocess.PIPE, text=True, env=env)  # fmt: skip
        url = re.search(r"http://[\d.]+:\d+", serving.stdout.readline()).group(0)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
                page = browser.new_page(viewport={"width": 1280, "height": 720})
                screen = PageScreen()
                page.on("websocket", screen.attach)
                page.goto(url, wait_until="domcontentloaded")
                until(page, screen, lambda text: all(title in text for title in PANE_TITLES), "the four pane titles")
                page.focus(".xterm-helper-textarea")  # typing goes to the terminal; a click would reach the app
                for key in "519":
                    page.keyboard.press(key)
                until(page, screen, after_5_1_9, "the position after 5 1 9")
                page.wait_for_timeout(500)
                page.screenshot(path=str(path))
                browser.close()
        finally:
            serving.terminate()
            serving.wait()


if __name__ == "__main__":  # pragma: no cover
    take_browser_screenshot(Path("screenshots/browser-5-1-9.png"))
