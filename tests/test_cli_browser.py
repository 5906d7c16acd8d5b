"""`workbench serve` in a real browser: headless Chromium (Debian's package) driven by Playwright.

The page's terminal (xterm.js) draws on a canvas, so there is no text in the page to read: the screen is
rebuilt from what the app sends over the page's websocket, with a terminal emulator (pyte) of the size the
page asked for. Keys are typed into the page as a user types them.

Without Chromium the test is skipped, unless WORKBENCH_BROWSER_TESTS=required (CI sets it, having installed
Chromium), where a missing browser fails the run instead of skipping the one test that proves the browser."""

from __future__ import annotations

import base64
import contextlib
import http.server
import os
import re
import signal
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from workbench.bench.browser import (
    CHROMIUM_FLAGS,
    VIEWPORT,
    PageScreen,
    all_panes,
    find_chromium,
    format_browser_report,
    run_browser_bench,
    serving,
    until as wait_until,
)

from .test_cli_serve import _apps, base_of, server, serving_again  # noqa: F401 - a fixture

CHROMIUM = find_chromium()
REQUIRED = os.environ.get("WORKBENCH_BROWSER_TESTS") == "required"


def _chromium():
    if CHROMIUM is None:
        if REQUIRED:
            pytest.fail("Chromium is not installed, and the browser test is required (WORKBENCH_BROWSER_TESTS)")
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium)")
    return pytest.importorskip("playwright.sync_api") if not REQUIRED else __import__("playwright.sync_api").sync_api


def until(page, screen: PageScreen, condition, what: str, seconds: float = 60) -> None:
    """Let the page run until ``condition(text)`` holds; the screen is in the message if it never does."""
    try:
        wait_until(page, lambda: condition(screen.text()), what, seconds)
    except AssertionError as error:
        raise AssertionError(f"{error}\n{screen.text()}") from None


def open_panes(page, url: str, what: str) -> PageScreen:
    """``page`` sent to ``url`` (answered 200) until the app's four panes show: its screen, read from its websocket."""
    screen = PageScreen()
    page.on("websocket", screen.attach)
    response = page.goto(url, wait_until="domcontentloaded")
    assert response.status == 200, (url, response.status)
    until(page, screen, all_panes, what)
    return screen


def intro(page) -> str:
    """What the page's own words say (before its app's first bytes: starting, or why it has no key)."""
    return page.evaluate("document.querySelector('.intro div').textContent")


def after_5_1_9(text: str) -> bool:
    return "O to move: draw in 6" in text and all(re.search(rf"│\s+{cell} loss\s", text) for cell in (2, 4, 6, 8))


def test_the_workbench_in_chromium_plays_downloads_follows_a_resize_and_offers_the_study_back_after_a_reload(
    server, tmp_path
):  # noqa: F811
    sync_api = _chromium()
    process, url = server
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            screen = open_panes(page, url, "the four pane titles")
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
            seen: list[str] = []  # what each routed request came to, for the failure's message

            def record(route) -> None:
                try:
                    response = route.fetch()
                except sync_api.Error as error:  # Chromium, seeing an attachment, at times drops what it was routing
                    seen.append(f"dropped ({str(error).splitlines()[0][:80]})")
                    route.abort()
                    return
                body = response.body()
                seen.append(f"{response.status}, {len(body)} bytes")
                if body:  # (the request Chromium makes again, after dropping one, gets the whole file too)
                    downloads.append((response.headers.get("content-disposition", ""), body))
                route.fulfill(response=response)

            page.context.route("**/download/**", record)
            for _ in range(3):  # a dropped request is asked for again, as a user presses f12 again
                page.keyboard.press("F12")
                deadline = time.monotonic() + 30
                while not downloads and time.monotonic() < deadline:
                    page.wait_for_timeout(50)
                if downloads:
                    break
            assert downloads, f"no download within 30 s of each of three f12s; the requests routed: {seen}"
            disposition, body = downloads[0]
            assert re.fullmatch(r"attachment; filename=\"[^\"]*\.svg\"; filename\*=UTF-8''\S*\.svg", disposition), (
                disposition
            )
            assert body.startswith(b"<svg") and b"draw" in body

            # narrower than 120 columns: two columns of panes, the history beside the symmetry pane
            assert not any("History" in line and "Symmetry" in line for line in screen.text().splitlines())
            page.set_viewport_size({"width": 960, "height": 600})
            until(page, screen, lambda text: screen.size[0] < columns, "the page's terminal resized")
            assert 80 <= screen.size[0] < 120 and screen.size[1] >= 24, screen.size
            until(
                page,
                screen,
                lambda text: any("History" in line and "Symmetry" in line for line in text.splitlines()),
                "two columns",
            )
            page.set_viewport_size(
                {"width": 480, "height": 320}
            )  # below 80×24: the app says so, and draws nothing else
            until(page, screen, lambda text: "workbench needs at least" in text, "the too-small message")

            page.set_viewport_size({"width": 1280, "height": 800})
            page.reload(wait_until="domcontentloaded")
            until(
                page,
                screen,
                lambda text: screen.sockets == 2 and "Restore the unsaved study" in text,
                "the study offered back",
            )
            assert "(an untitled study, 3" in screen.text()
        finally:
            browser.close()


def test_the_page_s_script_draws_the_same_pixels_as_textual_serve_s(server):  # noqa: F811
    """The page's script draws a frame's glyphs after putting them all in its atlas (workbench.web.serve_ext.page): the
    same pixels as textual-serve's own script draws, at the start (the glyphs all new) and after keys (some new)."""
    sync_api = _chromium()
    from workbench.web.serve_ext.page import SCRIPT_PATH, textual_serve_script, without_webgl_renderer

    _, url = server
    theirs = without_webgl_renderer(textual_serve_script().read_text(encoding="utf-8"))
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            tabs = []
            context = browser.new_context(viewport=VIEWPORT)  # one browser's: the second tab has the first's key
            for script in ("ours", "theirs"):  # open side by side: neither tab is offered the other's study
                page = context.new_page()
                if script == "theirs":
                    page.route(
                        "**" + SCRIPT_PATH,
                        lambda route: route.fulfill(body=theirs, content_type="application/javascript"),
                    )
                screen = PageScreen()
                page.on("websocket", screen.attach)
                page.goto(url if not tabs else base_of(url) + "/", wait_until="domcontentloaded")
                tabs.append((page, screen))

            def same_pictures(condition, what: str) -> bool:
                for page, screen in tabs:
                    until(page, screen, condition, what)
                deadline = time.monotonic() + 20  # each page draws at its next animation frames, when it has a core
                while time.monotonic() < deadline:
                    ours, theirs_drawn = (page.screenshot() for page, _ in tabs)
                    if ours == theirs_drawn:
                        return True
                    tabs[0][0].wait_for_timeout(200)
                return False

            assert same_pictures(all_panes, "the four panes")
            for page, _ in tabs:
                page.focus(".xterm-helper-textarea")
                for key in "519":
                    page.keyboard.press(key)
            assert same_pictures(after_5_1_9, "the evaluation after 5 1 9")
        finally:
            browser.close()


FOREIGN_PAGE = """<!DOCTYPE html><html><body><script>
// any site the user has open while the server runs: it knows where the server listens, not its token
const target = new URLSearchParams(location.search).get("target");
window.results = {stored: JSON.stringify(Object.entries(localStorage).concat(Object.entries(sessionStorage)))};
fetch(target, {credentials: "include", mode: "no-cors"})
  .then(() => { window.results.fetch = "answered"; }, () => { window.results.fetch = "failed"; });
const socket = new WebSocket(target.replace("http", "ws").replace(/\\/(\\?.*)?$/, "/ws$1"));
socket.onopen = () => { window.results.socket = "open"; socket.send(JSON.stringify(["stdin", "5"])); };
socket.onclose = () => { window.results.socket = window.results.socket || "refused"; };
</script></body></html>"""


@contextlib.contextmanager
def foreign_site(heard: list | None = None):
    """Another site, served by the test on a port of its own: its address (``http://127.0.0.1:PORT``). The headers
    of every request it gets are put in ``heard``."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if heard is not None:
                heard.append(str(self.headers))
            body = FOREIGN_PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}"
    finally:
        site.shutdown()
        site.server_close()


def _attempt(page, address: str) -> dict:
    """What the foreign page at ``address`` got of the workbench: its fetch's and its websocket's fate, and the
    status of every answer the browser saw from the workbench's port."""
    statuses: list = []
    page.on("response", lambda response: statuses.append((urlsplit(response.url).port, response.status)))
    page.goto(address, wait_until="domcontentloaded")
    wait_until(
        page, lambda: page.evaluate("Object.keys(window.results).length") == 3, "the foreign page's attempts", 30
    )
    return {**page.evaluate("window.results"), "statuses": statuses}


def test_only_the_printed_address_opens_the_workbench_no_other_page_and_no_other_host_name(server, tmp_path):  # noqa: F811
    """The printed address works, and a reload and a second tab at the bare address (the session key, kept in the
    storage of the page's origin); a page on another port of 127.0.0.1 receives no key (the token's cookie went to
    every port of the host) and reads none, and can neither fetch from the server nor open its websocket; a wrong
    token and a name rebound to 127.0.0.1 (DNS rebinding, as Chromium's resolver rule makes it) get 403."""
    sync_api = _chromium()
    process, url = server
    base = base_of(url)
    port, token = urlsplit(base).port, url.rsplit("=", 1)[1]
    heard: list[str] = []
    with sync_api.sync_playwright() as playwright, foreign_site(heard) as site:
        site_port = urlsplit(site).port
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_FLAGS, "--host-resolver-rules=MAP evil.example 127.0.0.1"]
        )
        try:
            context = browser.new_context(viewport=VIEWPORT)
            page = context.new_page()
            screen = open_panes(page, url, "the four panes")
            assert page.url == base + "/"  # the token out of the address bar: the page has the session key for it
            assert context.cookies() == []
            session = page.evaluate("localStorage.getItem('workbench-session')")
            assert session and token not in session
            page.reload(wait_until="domcontentloaded")
            until(page, screen, lambda text: screen.sockets == 2 and all_panes(text), "the panes after a reload")
            second = context.new_page()  # a tab opened from it, at the address without the token
            open_panes(second, base + "/", "the panes in a second tab")
            apps = _apps(process.pid)
            assert len(apps) == 2

            # another site, in the same browser, on another port of 127.0.0.1 (the same *site*, which got the cookie)
            foreign = context.new_page()
            attempt = _attempt(foreign, f"{site}/?target={base}/")
            assert attempt["socket"] == "refused" and (port, 403) in attempt["statuses"], attempt
            assert (port, 200) not in attempt["statuses"], attempt
            assert attempt["stored"] == "[]"  # the session key is the storage of the server's origin, not this one's
            assert heard and not any(
                token in headers or session in headers or "Cookie" in headers for headers in heard
            ), heard
            # a rebound name, even with the token: the page, and from a page of that name, a fetch and the socket
            rebound = f"http://evil.example:{port}/?token={token}"
            assert foreign.goto(rebound).status == 403
            assert "not allowed" in foreign.content() and "--allow-host" in foreign.content()
            attempt = _attempt(foreign, f"http://evil.example:{site_port}/?target={rebound}")
            assert attempt["socket"] == "refused" and (port, 403) in attempt["statuses"], attempt
            assert (port, 200) not in attempt["statuses"], attempt
            foreign.wait_for_timeout(500)  # (an app would be starting by now)
            assert _apps(process.pid) == apps  # nothing was started for them

            # a wrong token, and no token in a browser without the session key: the page says how to get one
            assert foreign.goto(f"{base}/?token=x{token}").status == 403
            stranger = browser.new_context().new_page()
            response = stranger.goto(base + "/")
            assert response.status == 200 and intro(stranger).startswith("This page has no key. Open the address")
            # the printed address, spent by the first page it opened: another browser (or the address in this
            # one's history, its session files or cache) gets the page without a key, and starts no app
            response = browser.new_context().new_page().goto(url)
            assert response.status == 200 and response.headers["cache-control"] == "no-store"
            assert intro(response.frame.page).startswith("This page has no key: the address's token was spent")
            stranger.wait_for_timeout(500)  # (an app would be starting by now)
            assert _apps(process.pid) == apps
        finally:
            browser.close()
    process.send_signal(signal.SIGTERM)
    process.wait(30)
    said = process.stderr.read()
    # the first refusal of each kind is said (the later ones of a kind within a minute are counted)
    assert "refused GET '/': a page of another site may not use this server (Sec-Fetch-Site: 'same-site')" in said
    assert f"refused GET '/ws': a page of 'http://127.0.0.1:{site_port}' may not use this server" in said
    assert f"refused GET '/': 'evil.example:{port}' is not a name of this server" in said, said


def test_a_tab_of_a_server_started_again_says_so_and_a_server_with_no_token_needs_no_key(tmp_path):
    """A tab kept open while its server is started again holds a key of the earlier start, which the new one
    refuses: its reload says what happened and what to open (not a bare "Session ended" whose Restart fails again),
    and the address the new start printed opens the app in it. A server started with --no-token asks no page for a
    key: its page opens the app."""
    sync_api = _chromium()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_context(viewport=VIEWPORT).new_page()
            with serving_again(tmp_path) as (process, url):
                open_panes(page, url, "the panes")
                port = urlsplit(url).port
                process.send_signal(signal.SIGTERM)
                process.wait(30)
            with serving_again(tmp_path, "--port", str(port)) as (process, url):
                assert urlsplit(url).port == port
                page.reload(wait_until="domcontentloaded")
                said = intro(page)
                assert said.startswith("This server was started again since this browser opened it"), said
                assert f"http://127.0.0.1:{port}/?token=..." in said
                assert page.evaluate("localStorage.getItem('workbench-session')") is None  # (the stale key, gone)
                page.wait_for_timeout(500)  # (an app would be starting by now)
                assert _apps(process.pid) == set()
                screen = open_panes(page, url, "the panes from the address printed this time")
                page.reload(wait_until="domcontentloaded")  # and its new key is kept for reloads, as before
                until(page, screen, lambda text: screen.sockets == 2 and all_panes(text), "the panes after a reload")
                assert intro(page) == "workbench: starting…" and len(_apps(process.pid)) == 1
                process.send_signal(signal.SIGTERM)
                process.wait(30)
            with serving_again(tmp_path, "--no-token", reach="this machine only, with no key") as (process, url):
                open_panes(browser.new_context(viewport=VIEWPORT).new_page(), url, "the panes with no token")
        finally:
            browser.close()


PIXELS = """async ([shot, points]) => {
    const image = new Image();
    image.src = "data:image/png;base64," + shot;
    await image.decode();
    const canvas = document.createElement("canvas");
    [canvas.width, canvas.height] = [image.width, image.height];
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    return points.map(([x, y]) => Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3)));
}"""
"""The colours of a screenshot's pixels at ``points``, read by the page (no image library needed here)."""


def test_under_a_light_theme_the_page_s_edges_under_the_last_row_and_beside_the_last_column_are_light(tmp_path):
    """The window is rarely a whole number of rows and columns: the pixels no row or column covers were the page's
    dark blue under a light theme (a dark line under the footer). They are the theme's background now."""
    sync_api = _chromium()
    settings = tmp_path / "config" / "workbench" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"theme": "solarized-light"}')
    with serving_again(tmp_path) as (process, url), sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1283, "height": 805})
            open_panes(page, url, "the panes")
            screen = page.evaluate(
                "(({width, height}) => [width, height])(document.querySelector('.xterm-screen')"
                ".getBoundingClientRect())"
            )
            assert screen[0] < 1283 - 1 and screen[1] < 805 - 1, screen  # pixels to spare on both edges
            below = [(x, 804) for x in (0, 400, 1282)]
            beside = [(1282, y) for y in (0, 400, 804)]
            light = [[253, 246, 227]] * 6  # solarized-light's background, #fdf6e3
            deadline = time.monotonic() + 20  # (the terminal draws what it was sent on its own time)
            while True:
                colours = page.evaluate(PIXELS, [base64.b64encode(page.screenshot()).decode(), below + beside])
                if colours == light or time.monotonic() > deadline:
                    break
                page.wait_for_timeout(100)
            assert colours == light, colours
        finally:
            browser.close()


def test_the_seventeenth_tab_gets_a_page_saying_the_server_is_full_which_opens_the_app_once_there_is_room(server):  # noqa: F811
    """At most 16 apps at once (the default --max-tabs): the next tab gets a page that says so, and nothing is
    started for it; it asks again every 3 s, and opens the app once a tab has closed. A tab reloaded at the cap
    (its former app holds the place until the new page arrives) gets its app back the same way."""
    sync_api = _chromium()
    process, url = server
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            context = browser.new_context(viewport=VIEWPORT)
            first = context.new_page()
            first_screen = open_panes(first, url, "the first tab's panes")
            others = context.new_page()
            others.goto(url, wait_until="domcontentloaded")
            # fourteen more tabs' websockets, opened from the second tab's page (as fourteen tabs would open them)
            others.evaluate(
                """() => { window.extra = [];
                   const key = localStorage.getItem("workbench-session");
                   for (let i = 0; i < 14; i++)
                     window.extra.push(new WebSocket(`ws://${location.host}/ws/${key}?width=80&height=24`)); }"""
            )
            wait_until(others, lambda: len(_apps(process.pid)) == 16, "sixteen apps", 120)
            first.reload(wait_until="domcontentloaded")  # at the cap
            until(
                first,
                first_screen,
                lambda text: first_screen.sockets == 2 and all_panes(text),
                "the reloaded tab's panes",
                60,
            )
            assert len(_apps(process.pid)) == 16

            last, last_screen = context.new_page(), PageScreen()
            last.on("websocket", last_screen.attach)
            response = last.goto(url, wait_until="domcontentloaded")
            assert (
                response.status == 503 and "the server is full" in last.content() and "--max-tabs 16" in last.content()
            )
            last.wait_for_timeout(4000)  # (it has asked again meanwhile)
            assert len(_apps(process.pid)) == 16 and last_screen.sockets == 0 and "the server is full" in last.content()
            others.evaluate("() => window.extra[0].close()")
            until(last, last_screen, all_panes, "the panes, once a tab closed", 60)
            assert len(_apps(process.pid)) == 16
        finally:
            browser.close()


def take_browser_screenshot(path: Path) -> None:  # pragma: no cover - run by hand for the README's picture
    """`python -m tests.test_cli_browser`: the workbench in Chromium after 5 1 9, as a PNG."""
    import tempfile

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, serving(folder) as (_, url), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        screen = PageScreen()
        page.on("websocket", screen.attach)
        page.goto(url, wait_until="domcontentloaded")
        until(page, screen, all_panes, "the four pane titles")
        page.focus(".xterm-helper-textarea")  # typing goes to the terminal; a click would reach the app
        for key in "519":
            page.keyboard.press(key)
        until(page, screen, after_5_1_9, "the position after 5 1 9")
        page.wait_for_timeout(500)
        page.screenshot(path=str(path))
        browser.close()


if __name__ == "__main__":  # pragma: no cover
    take_browser_screenshot(Path("screenshots/browser-5-1-9.png"))


@pytest.mark.usefixtures("untraced_children")
def test_the_browser_bench_times_tabs_opened_at_once_and_their_keys():
    """A small run of `workbench bench --browser` (the figures are the bench's, not a test's): every tab loads,
    every key is answered, each tab's app has its memory counted."""
    _chromium()
    report = run_browser_bench(tabs=2, keys=4)
    assert report["tabs"] == 2 and len(report["app_memory_mb"]) == 2 and all(mb > 5 for mb in report["app_memory_mb"])
    assert report["keys_without_answer"] == 0 and 0 < report["key_to_screen_median_s"] <= report["key_to_screen_p95_s"]
    assert 0 < report["page_load_median_s"] <= report["page_load_p95_s"]
    assert 0 < report["server_load_median_s"] <= report["server_load_p95_s"]
    assert 0 < report["profiles_load_median_s"] <= report["profiles_load_p95_s"]
    assert report["profiles_load_cpu_s"]["server"] > 0 and report["profiles_load_cpu_s"]["browser"] > 0
    assert report["load_cpu_s"]["server"] > 0 and report["load_cpu_s"]["browser"] > 0
    lines = format_browser_report(report)
    assert lines[0].startswith("workbench serve in headless Chromium: 2 tabs of one browser at once, 4 keys each")
    assert lines[2].startswith("  in 2 browser profiles ")
