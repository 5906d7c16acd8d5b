"""``workbench bench --browser``: the served app under load, in a real browser.

Several tabs of headless Chromium (Debian's ``chromium``, driven by Playwright's Python API; both are needed,
neither comes with the workbench) open ``workbench serve`` at once, then each plays the same keys in turn. The
page's terminal draws on a canvas, so each tab's screen is rebuilt from what its app sends over the page's
websocket (:class:`PageScreen`, a pyte terminal of the size the page asked for).

* Page load: from asking for the page to the first screen that shows the four pane titles.
* Key to screen: from pressing a key in the page to the first frame after it that changes the tab's screen.
* Memory: each tab's processes on the server (its app and the shell textual-serve starts it with: resident
  set, from /proc), and the page's JavaScript heap.

An edge and a tool: it starts processes and a browser. A missing browser or Playwright is one line.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator

import pyte

PANE_TITLES = ("Board", "Evaluation", "Symmetry", "History")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]  # fmt: skip
"""What a closed network needs (no background connections, no updates), and no sandbox (CI runs as root)."""
KEYS = ("9", "left")
"""Each tab's keys after 5 1: play 9, step back, and again (each key changes the screen)."""


class BrowserMissing(ValueError):
    """Chromium or Playwright is not installed: the browser bench cannot run."""


def find_chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class PageScreen:
    """The screen a page's terminal shows, rebuilt from its websocket's frames: the page's own size messages
    resize it, the app's output is fed to it, the moment of each change kept."""

    def __init__(self) -> None:
        self.screen: pyte.Screen | None = None
        self.stream: pyte.ByteStream | None = None
        self.sockets = 0
        self.changed_at = 0.0
        """perf_counter() when a frame last changed the screen."""

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
            before = self.screen.display
            self.stream.feed(payload)
            if self.screen.display != before:
                self.changed_at = time.perf_counter()

    def _sent(self, payload) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = json.loads(payload)[1]
            self.screen.resize(size["height"], size["width"])

    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen is not None else ""

    @property
    def size(self) -> tuple[int, int]:
        return (self.screen.columns, self.screen.lines) if self.screen is not None else (0, 0)


def all_panes(text: str) -> bool:
    return all(title in text for title in PANE_TITLES)


def until(page, condition: Callable[[], object], what: str, seconds: float = 60) -> None:
    """Let the browser run until ``condition()`` holds (the bound turns a hang into a failure)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        page.wait_for_timeout(5)  # the pages' events (frames) are handled while it waits


@contextlib.contextmanager
def serving(folder: str, *extra: str) -> Iterator[tuple[subprocess.Popen, str]]:
    """`workbench serve` on a free port, with a library and data folders of its own in ``folder``."""
    env = {**os.environ, "XDG_DATA_HOME": f"{folder}/data", "XDG_CONFIG_HOME": f"{folder}/config",
           "XDG_CACHE_HOME": f"{folder}/cache"}  # fmt: skip
    env.pop("COLUMNS", None), env.pop("LINES", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "workbench", "serve", "--port", "0", "--db", f"{folder}/library.sqlite3", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=folder,
    )  # fmt: skip
    try:
        first = process.stdout.readline()
        match = re.search(r"serving the app at (http://\S+) ", first)
        if match is None:
            raise RuntimeError(f"workbench serve did not start: {first or process.stderr.read()}")
        yield process, match.group(1)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run (the tabs' apps)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(child) for child in listing.read().split()]
    except FileNotFoundError:
        return []


def descendants(pid: int) -> set[int]:
    """Every process under ``pid`` that still runs: its children, theirs, and so on."""
    found = set(children(pid))
    for child in list(found):
        found |= descendants(child)
    return found


def resident_mb(pid: int) -> float:
    """The resident memory of ``pid`` and every process under it (a tab's app runs under a shell, and may
    have a search process of its own); a process that ended meanwhile counts nothing."""
    total = 0.0
    for process in (pid, *descendants(pid)):
        try:
            with open(f"/proc/{process}/status") as status:
                total += next((int(line.split()[1]) / 1024 for line in status if line.startswith("VmRSS:")), 0.0)
        except FileNotFoundError:
            pass
    return total


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_browser_bench(*, tabs: int = 8, keys: int = 20) -> dict:
    """``tabs`` tabs opened at once on one server, then ``keys`` keys each, round-robin; plain data."""
    chromium = find_chromium()
    if chromium is None:
        raise BrowserMissing("the browser bench needs Chromium (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise BrowserMissing("the browser bench needs Playwright (pip install playwright; no browser download)") from None
    loads: list[float] = []
    latencies: list[float] = []
    misses = 0
    with tempfile.TemporaryDirectory() as folder, serving(folder) as (server, url), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        try:
            pages, screens, asked = [], [], []
            for _ in range(tabs):  # every tab asked for before any has loaded: the server meets them at once
                page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                screen = PageScreen()
                page.on("websocket", screen.attach)
                asked.append(time.perf_counter())
                page.goto(url, wait_until="commit")
                pages.append(page)
                screens.append(screen)
            loaded: dict[int, float] = {}
            until(pages[0], lambda: _note_loaded(screens, loaded) == tabs, f"{tabs} tabs showing the four panes", 120)
            loads = [loaded[index] - asked[index] for index in range(tabs)]
            for page in pages:
                page.focus(".xterm-helper-textarea")
                for key in "51":
                    page.keyboard.press(key)
            until(pages[0], lambda: all("O" in screen.text() and "ply 2" in screen.text() for screen in screens), "5 1 everywhere", 60)
            for step in range(keys):
                key = KEYS[step % 2]
                pressed = []
                for page, screen in zip(pages, screens):
                    before = screen.changed_at
                    pressed.append((time.perf_counter(), before))
                    page.keyboard.press("ArrowLeft" if key == "left" else key)
                try:
                    until(pages[0], lambda: all(screen.changed_at > before for screen, (_, before) in zip(screens, pressed)), "every tab's answer", 10)
                except AssertionError:
                    misses += sum(screen.changed_at <= before for screen, (_, before) in zip(screens, pressed))
                for screen, (start, before) in zip(screens, pressed):
                    if screen.changed_at > before:
                        latencies.append(screen.changed_at - start)
                pages[0].wait_for_timeout(100)  # let each screen settle before the next key
            apps = children(server.pid)
            memory = [resident_mb(pid) for pid in apps]
            heaps = [page.evaluate("performance.memory ? performance.memory.usedJSHeapSize : 0") / 2**20 for page in pages]
        finally:
            browser.close()
    return {
        "tabs": tabs, "keys_per_tab": keys, "cores": os.cpu_count(),
        "page_load_p95_s": _percentile(loads, 0.95), "page_load_median_s": statistics.median(loads),
        "key_to_screen_p95_s": _percentile(latencies, 0.95), "key_to_screen_median_s": statistics.median(latencies),
        "keys_without_answer": misses,
        "app_rss_mb": memory, "page_js_heap_mb": heaps,
        "targets": {"page_load_p95_s": 3.0, "key_to_screen_p95_s": 0.150},
    }  # fmt: skip


def _note_loaded(screens: list[PageScreen], loaded: dict[int, float]) -> int:
    for index, screen in enumerate(screens):
        if index not in loaded and all_panes(screen.text()):
            loaded[index] = time.perf_counter()
    return len(loaded)


def format_browser_report(report: dict) -> list[str]:
    rss, heap = report["app_rss_mb"], report["page_js_heap_mb"]
    return [
        f"workbench serve in headless Chromium: {report['tabs']} tabs at once, {report['keys_per_tab']} keys each, {report['cores']} cores",
        f"  page load to four panes    p95 {report['page_load_p95_s']:6.2f} s   median {report['page_load_median_s']:5.2f} s   (target p95 ≤ 3 s)",
        f"  key to screen change       p95 {report['key_to_screen_p95_s'] * 1000:6.0f} ms  median {report['key_to_screen_median_s'] * 1000:5.0f} ms  (target p95 ≤ 150 ms)"
        + (f"  {report['keys_without_answer']} keys unanswered in 10 s" if report["keys_without_answer"] else ""),
        f"  memory per tab             its processes {statistics.mean(rss):.0f} MB (RSS, {min(rss):.0f}–{max(rss):.0f}), page script heap {statistics.mean(heap):.1f} MB",
    ]
