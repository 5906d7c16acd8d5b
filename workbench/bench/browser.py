"""``workbench bench --browser``: the served app under load, in a real browser.

Several tabs of one headless Chromium (Debian's ``chromium``, driven by Playwright's Python API; both are needed,
neither comes with the workbench) open ``workbench serve`` at once, then each plays the same keys in turn. The
page's terminal draws on a canvas, so each tab's screen is rebuilt from what its app sends over the page's
websocket (:class:`~.page_reader.PageScreen`, a pyte terminal of the size the page asked for; the processes'
CPU and memory are read by :mod:`.processes`).

* Page load: from asking for the page to the first screen that shows the four pane titles. The tabs are one
  browser's tabs, in one profile, as a user opens them.
* The same load in as many browser profiles (as private windows): each tab with a network context and caches of
  its own, as that many people would have on machines of their own, on this one machine. Chromium spends more
  CPU a tab this way. The bench's first versions timed the page load so; the target is the tabs'.
* The same load without a browser: the tabs' page and websocket asked for at once from the bench, as their
  browsers would from machines of their own; the server's part of a page load.
* Key to screen: from pressing a key in the page to the first frame after it that changes the tab's screen.
* CPU while the tabs load: the server's side (the server, its warm process, the tabs' apps) and the browser's
  (Chromium, Playwright's driver). On one machine they share the cores: a page load is the sum of both.
* Memory: each tab's app on the server (its proportional set size, from /proc: the apps are forked from one
  warm process and share its pages), and the page's JavaScript heap.

An edge and a tool: it starts processes and a browser. A missing browser or Playwright is one line.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit, urlunsplit

from ..errors import UsageError
from .page_reader import PANE_TITLES as PANE_TITLES, PageScreen as PageScreen, Replay, all_panes as all_panes
from .processes import (
    children as children,
    cpu_by_side,
    cpu_spent,
    descendants as descendants,
    memory_mb,
    tab_apps as tab_apps,
)

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
"""What a closed network needs (no background connections, no updates), and no sandbox (CI runs as root)."""
VIEWPORT = {"width": 1280, "height": 800}
"""Each tab's page: a laptop's browser window, a terminal of about 142×44."""
KEYS = ("9", "left")
"""Each tab's keys after 5 1: play 9, step back, and again (each key changes the screen)."""


class BrowserMissing(UsageError):
    """Chromium or Playwright is not installed: the browser bench cannot run."""


def find_chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def until(page, condition: Callable[[], object], what: str, seconds: float = 60) -> None:
    """Let the browser run until ``condition()`` holds (the bound turns a hang into a failure)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        # the pages' events (frames) are handled, and timed, as they come while it waits; each wait is a round trip
        # to Playwright's driver, whose CPU is taken from the machine being measured (a wait of a few
        # milliseconds made a page load measurably slower)
        page.wait_for_timeout(40)


@contextlib.contextmanager
def serving(folder: str, *extra: str) -> Iterator[tuple[subprocess.Popen, str]]:
    """`workbench serve` on a free port, with a library and data folders of its own in ``folder``; its address
    kept a key (``--keep-token``: the bench opens it in several browser profiles, and a program's websocket)."""
    env = {
        **os.environ,
        "XDG_DATA_HOME": f"{folder}/data",
        "XDG_CONFIG_HOME": f"{folder}/config",
        "XDG_CACHE_HOME": f"{folder}/cache",
    }
    env.pop("COLUMNS", None), env.pop("LINES", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "workbench",
            "serve",
            "--port",
            "0",
            "--keep-token",
            "--db",
            f"{folder}/library.sqlite3",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=folder,
    )
    try:
        assert process.stdout is not None and process.stderr is not None  # pragma: no mutate - both piped
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


def websocket_address(url: str, columns: int, rows: int) -> str:
    """The websocket of a tab of ``columns`` × ``rows`` on the server of the printed address ``url``, as the page
    opens it, with the address's token (a program keeps no cookie)."""
    parts = urlsplit(url)
    return urlunsplit(("ws", parts.netloc, "/ws", f"{parts.query}&width={columns}&height={rows}".lstrip("&"), ""))


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_browser_bench(*, tabs: int = 8, keys: int = 20) -> dict:
    """``tabs`` tabs of one browser opened at once on one server, then ``keys`` keys each, round-robin; then the
    same load in ``tabs`` browser profiles, and with no browser; plain data."""
    chromium = find_chromium()
    if chromium is None:
        raise BrowserMissing("the browser bench needs Chromium (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise BrowserMissing(
            "the browser bench needs Playwright, which the bench extra installs: pip install 'mnk-workbench[bench]' "
            "(no browser download)"
        ) from None
    latencies: list[float] = []
    misses = 0
    with tempfile.TemporaryDirectory() as folder, serving(folder) as (_, url):
        server_loads = run_server_load(url, tabs)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        try:
            with (
                tempfile.TemporaryDirectory() as folder,
                serving(folder) as (server, url),
                browser_contexts(browser, 1) as (context,),
            ):
                pages = [context.new_page() for _ in range(tabs)]
                loads, screens, load_cpu = load_at_once(pages, url, server.pid)
                for page in pages:
                    page.focus(".xterm-helper-textarea")
                    for key in "51":
                        page.keyboard.press(key)
                until(
                    pages[0],
                    lambda: all("O" in screen.text() and "ply 2" in screen.text() for screen in screens),
                    "5 1 everywhere",
                    60,
                )
                pressed: list[list[float]] = [[] for _ in pages]
                for step in range(keys):
                    key = KEYS[step % 2]
                    for page, times in zip(pages, pressed):
                        times.append(time.perf_counter())
                        page.keyboard.press("ArrowLeft" if key == "left" else key)
                    with contextlib.suppress(AssertionError):  # a key unanswered is counted from the screens below
                        until(
                            pages[0],
                            lambda: all(screen.arrived_at > times[-1] for screen, times in zip(screens, pressed)),
                            "every tab's answer",
                            10,
                        )
                    pages[0].wait_for_timeout(100)  # let each screen settle before the next key
                for screen, times in zip(screens, pressed):
                    answers = key_answers(list(screen.screens()), times)  # the emulator run once a tab
                    latencies += [answer for answer in answers if answer is not None]
                    misses += answers.count(None)
                memory = [memory_mb(pid) for pid in tab_apps(server.pid)]
                heaps = [
                    page.evaluate("performance.memory ? performance.memory.usedJSHeapSize : 0") / 2**20
                    for page in pages
                ]
            # (after the tabs of one browser, on a browser that has run: the order of the two flatters this one)
            with (
                tempfile.TemporaryDirectory() as folder,
                serving(folder) as (server, url),
                browser_contexts(browser, tabs) as contexts,
            ):
                pages = [context.new_page() for context in contexts]
                profile_loads, _, profile_cpu = load_at_once(pages, url, server.pid)
        finally:
            browser.close()
    return {
        "tabs": tabs,
        "keys_per_tab": keys,
        "cores": os.cpu_count(),
        "page_load_p95_s": _percentile(loads, 0.95),
        "page_load_median_s": statistics.median(loads),
        "profiles_load_p95_s": _percentile(profile_loads, 0.95),
        "profiles_load_median_s": statistics.median(profile_loads),
        "server_load_p95_s": _percentile(server_loads, 0.95),
        "server_load_median_s": statistics.median(server_loads),
        "key_to_screen_p95_s": _percentile(latencies, 0.95),
        "key_to_screen_median_s": statistics.median(latencies),
        "keys_without_answer": misses,
        "load_cpu_s": load_cpu,
        "profiles_load_cpu_s": profile_cpu,
        "app_memory_mb": memory,
        "page_js_heap_mb": heaps,
        "targets": {"page_load_p95_s": 3.0, "key_to_screen_p95_s": 0.150},
    }


@contextlib.contextmanager
def browser_contexts(browser, count: int) -> Iterator[list]:
    """``count`` browser contexts (profiles, as private windows) of a laptop's window each, closed after, before the
    server they were served by stops (a page left open would try to reconnect to it)."""
    contexts = []
    try:
        for _ in range(count):
            contexts.append(browser.new_context(viewport=VIEWPORT))
        yield contexts
    finally:
        for context in contexts:
            context.close()


def load_at_once(pages: list, url: str, server: int) -> tuple[list[float], list[PageScreen], dict[str, float]]:
    """Every page (empty, made before: making one costs Chromium a while) sent to ``url`` at once, a navigation
    begun and not waited for; when each showed the four panes (seconds from its asking), the pages' screens, and
    the CPU each side used until every app had sent its panes."""
    screens, asked = [], []
    for page in pages:
        screens.append(PageScreen())
        page.on("websocket", screens[-1].attach)
    before = cpu_by_side(server)
    for page in pages:
        asked.append(time.perf_counter())
        page.evaluate("url => { location.href = url; }", url)
    # the apps' frames are only noted while they are timed; the screens are rebuilt from them afterwards
    until(
        pages[0],
        lambda: all(screen.titles_sent() for screen in screens),
        f"{len(pages)} tabs sending the four panes",
        120,
    )
    cpu = cpu_spent(before, cpu_by_side(server))
    until(
        pages[0],
        lambda: all(all_panes(screen.text()) for screen in screens),
        f"{len(pages)} tabs showing the four panes",
        60,
    )
    loads = [first_time(list(screen.screens()), all_panes) - at for screen, at in zip(screens, asked)]
    return loads, screens, cpu


def run_server_load(url: str, tabs: int, columns: int = 142, rows: int = 44) -> list[float]:
    """``tabs`` tabs' worth of the server's work at once, with no browser: each asks for the page, then opens
    its websocket as the page's script does; seconds from asking to the four panes, per tab. What the server
    gives tabs whose browsers run on machines of their own (a class), apart from each browser's own work."""
    import asyncio

    import aiohttp

    async def tab(session: aiohttp.ClientSession) -> float:
        asked = time.perf_counter()
        async with session.get(url) as page:  # (the printed address: the token in it)
            await page.read()
        screen = Replay()
        screen.apply((0.0, "open", (columns, rows)))
        async with session.ws_connect(websocket_address(url, columns, rows)) as socket:
            titles: set[str] = set()
            async for message in socket:
                if message.type == aiohttp.WSMsgType.BINARY:
                    arrived = (
                        time.perf_counter()
                    )  # (the emulator runs after: its time is the bench's, not the server's)
                    screen.apply((arrived, "out", message.data))
                    titles.update(title for title in PANE_TITLES if title.encode() in message.data)
                    if len(titles) == len(PANE_TITLES) and all_panes(screen.text()):
                        return arrived - asked
        raise AssertionError("a tab's websocket closed before the four panes showed")

    async def all_tabs() -> list[float]:
        async with aiohttp.ClientSession() as session:
            return await asyncio.wait_for(asyncio.gather(*(tab(session) for _ in range(tabs))), 120)

    return asyncio.run(all_tabs())


def first_time(shown: list[tuple[float, str]], condition: Callable[[str], bool]) -> float:
    """When the frame arrived that first drew a screen meeting ``condition`` (``shown``: a page's screens)."""
    return next(arrived for arrived, text in shown if condition(text))


def key_answers(shown: list[tuple[float, str]], pressed: list[float]) -> list[float | None]:
    """For each key pressed at the given times: the seconds to the first frame that changed the screen
    (``shown``: a page's screens), before the next key; None if none did."""
    answers: list[float | None] = []
    for index, at in enumerate(pressed):
        until_next = pressed[index + 1] if index + 1 < len(pressed) else float("inf")
        before = next((text for arrived, text in reversed(shown) if arrived <= at), "")
        answers.append(
            next((arrived - at for arrived, text in shown if at < arrived < until_next and text != before), None)
        )
    return answers


def format_browser_report(report: dict) -> list[str]:
    memory, heap = report["app_memory_mb"], report["page_js_heap_mb"]
    cpu, tabs = report["load_cpu_s"], report["tabs"]
    return [
        f"workbench serve in headless Chromium: {report['tabs']} tabs of one browser at once, {report['keys_per_tab']} "
        f"keys each, {report['cores']} cores",
        f"  page load to four panes    p95 {report['page_load_p95_s']:6.2f} s   median "
        f"{report['page_load_median_s']:5.2f} s   (target p95 ≤ 3 s)",
        (
            f"  {f'in {tabs} browser profiles':27s}p95 {report['profiles_load_p95_s']:6.2f} s   median "
            f"{report['profiles_load_median_s']:5.2f} s   "
            f"(each tab a profile of its own, as {tabs} private windows: no cache or network context shared)"
        ),
        f"  without a browser          p95 {report['server_load_p95_s']:6.2f} s   median "
        f"{report['server_load_median_s']:5.2f} s   "
        "(the same tabs' page and websocket asked for at once, no browser on this machine)",
        f"  key to screen change       p95 {report['key_to_screen_p95_s'] * 1000:6.0f} ms  median "
        f"{report['key_to_screen_median_s'] * 1000:5.0f} ms  (target p95 ≤ 150 ms)"
        + (f"  {report['keys_without_answer']} keys unanswered in 10 s" if report["keys_without_answer"] else ""),
        f"  CPU while they load        server and apps {cpu['server']:.1f} s ({cpu['server'] / tabs:.2f} s a tab), "
        f"browser {cpu['browser']:.1f} s ({cpu['browser'] / tabs:.2f} s a tab; "
        f"in profiles {report['profiles_load_cpu_s']['browser'] / tabs:.2f} s a tab)",
        f"  memory per tab             its app {statistics.mean(memory):.0f} MB (PSS, "
        f"{min(memory):.0f}–{max(memory):.0f}), page script heap {statistics.mean(heap):.1f} MB",
    ]
