"""Who may use `workbench serve` (workbench.web.access): the Host, Origin and fetch-metadata checks, the token
and the session key, the headers of every answer, the cap on apps; each check alone, then the middleware in an
aiohttp server of the test's own. And what a tab may send its app (workbench.web.messages)."""

import hashlib
import json
import re
import signal
import socket
import string
import subprocess

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import given, strategies as st

from workbench.bench.browser import websocket_address
from workbench.cli import main
from workbench.web.access import (
    DEFAULT_MAX_TABS,
    TOKEN_VARIABLE,
    Access,
    AccessError,
    Cap,
    RefusalLog,
    check_token,
    chosen_token,
    full_page,
    guard,
    new_token,
    target_refusal,
)
from workbench.web.headers import cache_control, content_disposition, secure_headers
from workbench.web.messages import MAX_SIZE, MIN_SIZE, BadMessage, Message, query_size, read_message
from workbench.web.names import split_host, split_origin

from .test_cli_serve import _apps, base_of, serving_again

PORT = 8799  # not the default 8000: nothing may assume it


@pytest.mark.parametrize(
    "header, found",
    [
        ("127.0.0.1:8799", ("127.0.0.1", 8799)),
        ("localhost", ("localhost", None)),
        ("LocalHost.:80", ("localhost", 80)),
        ("[::1]:8799", ("::1", 8799)),
        ("[::1]", ("::1", None)),
        ("[0:0:0:0:0:0:0:1]:8000", ("::1", 8000)),  # one written form of each address
        ("[::ffff:127.0.0.1]:8799", ("127.0.0.1", 8799)),  # IPv4 mapped into IPv6
        ("evil.example:8799", ("evil.example", 8799)),
        ("::1", None),  # an IPv6 address without its brackets
        ("[::1", None),
        ("[::1]8799", None),
        ("[evil.example]:8799", None),
        ("127.0.0.1:", None),
        ("127.0.0.1:65536", None),
        ("127.0.0.1:８０", None),  # digits, but not ASCII ones
        ("127.0.0.1:+80", None),
        ("", None),
        (":8799", None),
        ("evil example:8799", None),
        ("evil.example/x:8799", None),
        ("user@127.0.0.1:8799", None),
    ],
)
def test_a_host_header_is_read_as_a_name_and_a_port_or_is_no_host(header, found):
    assert split_host(header) == found


@pytest.mark.parametrize(
    "host, local, refused",
    [
        ("127.0.0.1:8799", "127.0.0.1", None),
        ("localhost:8799", "127.0.0.1", None),
        ("LOCALHOST.:8799", "127.0.0.1", None),
        ("[::1]:8799", "::1", None),
        ("[::1]:8799", "127.0.0.1", None),
        ("127.0.0.1:8000", "127.0.0.1", "'127.0.0.1:8000' is not this server's port (8799)"),
        ("127.0.0.1", "127.0.0.1", "'127.0.0.1' is not this server's port (8799)"),  # port 80, said or not
        ("[::1]:8000", "::1", "'[::1]:8000' is not this server's port (8799)"),
        ("evil.example:8799", "127.0.0.1", "'evil.example:8799' is not a name of this server"),
        ("127.0.0.2:8799", "127.0.0.1", "'127.0.0.2:8799' is not a name of this server"),
        # the address the connection reached is the server's own (a server on every address: any of the machine's)
        ("192.168.1.5:8799", "192.168.1.5", None),
        ("192.168.1.5:8799", "::ffff:192.168.1.5", None),
        ("192.168.1.5:8799", "192.168.1.6", "'192.168.1.5:8799' is not a name of this server"),
        ("192.168.1.5:8799", None, "'192.168.1.5:8799' is not a name of this server"),
        (None, "127.0.0.1", "the request names no host"),
        ("::1:8799", "::1", "the host '::1:8799' is no host name"),
    ],
)
def test_only_the_server_s_own_names_at_its_port_are_answered(host, local, refused):
    access = Access.make(token=None, host="127.0.0.1", port=PORT)
    assert access.host_refusal(host, local) == refused


def test_the_host_given_to_listen_on_is_one_of_its_names_and_a_server_on_every_address_answers_to_the_machine_s():
    import socket

    named = Access.make(token=None, host="Workbench.Lan", port=PORT)
    assert named.host_refusal("workbench.lan:8799", "10.0.0.7") is None
    assert named.host_refusal(f"{socket.gethostname()}:8799", "10.0.0.7") is not None
    everywhere = Access.make(token=None, host="0.0.0.0", port=PORT)
    assert everywhere.host_refusal(f"{socket.gethostname().upper()}:8799", "10.0.0.7") is None
    assert everywhere.host_refusal("evil.example:8799", "10.0.0.7") is not None
    assert Access.make(token=None, host="::", port=PORT).host_refusal(f"{socket.gethostname()}:8799", "::1") is None


def test_allow_host_names_more_names_at_any_port_or_at_the_one_it_says():
    access = Access.make(token=None, host="127.0.0.1", port=PORT, allow_hosts=("proxy.example", "[fd00::1]:443"))
    assert access.host_refusal("proxy.example", None) is None  # (port 80)
    assert access.host_refusal("Proxy.Example:8443", None) is None
    assert access.host_refusal("[fd00::1]:443", None) is None
    assert access.host_refusal("[fd00::1]:444", None) is not None
    assert access.host_refusal("evil.example:8799", "127.0.0.1") is not None


@pytest.mark.parametrize(
    "origin, host, refused",
    [
        (None, "127.0.0.1:8799", False),  # no Origin: not a script's of another page
        ("http://127.0.0.1:8799", "127.0.0.1:8799", False),
        ("http://localhost:8799", "localhost:8799", False),
        ("http://[::1]:8799", "[::1]:8799", False),
        ("http://127.0.0.1", "127.0.0.1:80", False),
        ("http://127.0.0.1:8799", "localhost:8799", True),  # another name is another origin
        ("http://127.0.0.1:9000", "127.0.0.1:8799", True),  # another port
        ("https://127.0.0.1:8799", "127.0.0.1:8799", True),  # another scheme
        ("http://evil.example", "127.0.0.1:8799", True),
        ("http://[::1]:9000", "[::1]:8799", True),
        ("null", "127.0.0.1:8799", True),  # a sandboxed frame, a file
        ("http://127.0.0.1:8799/x", "127.0.0.1:8799", True),
        ("http://127.0.0.1:99999", "127.0.0.1:8799", True),
        ("", "127.0.0.1:8799", True),
    ],
)
def test_a_page_of_another_origin_is_refused(origin, host, refused):
    access = Access.make(token=None, host="127.0.0.1", port=PORT)
    reason = access.origin_refusal(origin, host, "http")
    assert (reason is not None) == refused
    if refused:
        assert reason == f"a page of {origin!r} may not use this server"


def test_allow_origin_lets_the_pages_of_that_origin_in():
    access = Access.make(
        token=None, host="127.0.0.1", port=PORT, allow_origins=("http://Tools.Example:3000/", "https://[::1]")
    )
    assert access.origin_refusal("http://tools.example:3000", "127.0.0.1:8799", "http") is None
    assert access.origin_refusal("https://[::1]:443", "127.0.0.1:8799", "http") is None
    assert access.origin_refusal("http://tools.example:3001", "127.0.0.1:8799", "http") is not None
    # its requests without an Origin (no-cors) are another site's still; with it, they are let in
    assert access.fetch_refusal("cross-site", "no-cors", "empty", None) is not None
    assert access.fetch_refusal("cross-site", "cors", "empty", "http://tools.example:3000") is None


@pytest.mark.parametrize(
    "site, mode, destination, refused",
    [
        (None, None, None, False),  # a program that is no browser
        ("same-origin", "cors", "empty", False),
        ("same-origin", "websocket", "websocket", False),
        ("none", "navigate", "document", False),  # an address typed or pasted
        ("cross-site", "navigate", "document", False),  # a link followed: the other page cannot read it
        ("same-site", "navigate", "document", False),
        ("same-site", "no-cors", "empty", True),  # another port of 127.0.0.1: the same site, with the cookie
        ("cross-site", "no-cors", "image", True),
        ("same-site", "navigate", "iframe", True),
        ("same-site", "websocket", "websocket", True),
        ("cross-site", "cors", "empty", True),
    ],
)
def test_a_request_a_browser_says_another_site_s_page_sent_is_refused_unless_it_opens_a_tab(
    site, mode, destination, refused
):
    access = Access.make(token=None, host="127.0.0.1", port=PORT)
    assert (access.fetch_refusal(site, mode, destination, None) is not None) == refused


def test_a_token_is_random_url_and_cookie_safe_and_at_least_128_bits():
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100
    assert all(len(token) == 32 and set(token) <= set(string.ascii_letters + string.digits + "-_") for token in tokens)
    assert all(check_token(token) == token for token in tokens)  # 24 bytes, 192 bits


@pytest.mark.parametrize("token", ["", "a b", 'a"b', "a;b", "a,b", "a\\b", "é", "a" * 257, "a/b", "a=b"])
def test_a_token_a_cookie_would_have_to_quote_is_refused(token):
    with pytest.raises(AccessError, match=r"^--token "):
        check_token(token)


def test_only_the_token_is_accepted():
    access = Access.make(token="s3cret-Token", host="127.0.0.1", port=PORT)
    assert access.token_accepted("s3cret-Token")
    assert not any(
        access.token_accepted(given) for given in (None, "", "s3cret-token", "s3cret-Token ", "s3cret", "\udce9", "é")
    )
    assert Access.make(token=None, host="127.0.0.1", port=PORT).token_accepted(None)
    assert access.address("http://127.0.0.1:8799") == "http://127.0.0.1:8799/?token=s3cret-Token"
    assert (
        Access.make(token="a+b%c", host="::1", port=PORT).address("http://[::1]:8799")
        == "http://[::1]:8799/?token=a%2Bb%25c"
    )
    # the session key the page is given for it: another random key, which opens the websocket as the token does
    assert access.session and access.session != access.token and len(access.session) == 32
    assert access.key_accepted("s3cret-Token", None) and access.key_accepted(None, access.session)
    assert access.key_accepted("wrong", access.session) and access.key_accepted("s3cret-Token", "wrong")
    assert not any(
        access.key_accepted(*given)
        for given in ((None, None), ("s3cret", None), (None, access.session[:-1]), (access.session, None))
    )
    assert Access.make(token="s3cret-Token", host="127.0.0.1", port=PORT).session != access.session  # one a start
    assert Access.make(token=None, host="127.0.0.1", port=PORT).key_accepted(None, None)


def test_the_token_is_spent_by_its_first_exchange_unless_kept():
    """Issue 47, finding 3: the address in the browser's history opens nothing once a page has had the session key
    for it; ``--keep-token`` keeps it a key (several browsers, a script)."""
    access = Access.make(token="s3cret-Token", host="127.0.0.1", port=PORT)
    assert not access.exchange_token("wrong") and not access.exchange_token(None) and not access.token_spent
    assert access.key_accepted("s3cret-Token", None)  # a program's websocket, before any page: the token opens it
    assert access.exchange_token("s3cret-Token") and access.token_spent
    assert not access.exchange_token("s3cret-Token")  # the second page (history, another browser) gets no key
    assert not access.token_accepted("s3cret-Token") and access.is_token("s3cret-Token")
    assert not access.key_accepted("s3cret-Token", None) and access.key_accepted(None, access.session)
    kept = Access.make(token="s3cret-Token", host="127.0.0.1", port=PORT, keep_token=True)
    assert all(kept.exchange_token("s3cret-Token") for _ in range(3)) and not kept.token_spent
    assert kept.key_accepted("s3cret-Token", None)
    assert not Access.make(token=None, host="127.0.0.1", port=PORT).exchange_token(None)  # no token: no key to give


def test_the_session_mark_tells_one_start_s_key_from_another_s_and_gives_none_away():
    first, again = (Access.make(token="s3cret-Token", host="127.0.0.1", port=PORT) for _ in range(2))
    assert first.session != again.session and first.session_mark != again.session_mark  # the same token, restarted
    assert first.session is not None and first.session_mark == hashlib.sha256(first.session.encode()).hexdigest()[:16]
    assert Access.make(token=None, host="127.0.0.1", port=PORT).session_mark == ""  # no key asked for


async def test_a_spent_token_gets_the_page_without_a_key_and_no_websocket():
    client, access, said = await _client("s3cret")
    try:
        assert access.exchange_token("s3cret")
        response = await client.get("/?token=s3cret")  # the page, with no key (the server's page adds none)
        assert response.status == 200 and not said
        response = await client.get("/ws?token=s3cret&width=80&height=24")
        assert response.status == 403 and said == ["workbench: refused GET '/ws': its token has been exchanged already"]
        response = await client.get(f"/ws/{access.session}?token=s3cret")  # the page's key still opens it
        assert response.status == 200
    finally:
        await client.close()


@pytest.mark.parametrize(
    "options, message",
    [
        ({"allow_hosts": ("a b",)}, "--allow-host 'a b': not a host name"),
        ({"allow_origins": ("127.0.0.1:3000",)}, "--allow-origin '127.0.0.1:3000': not an origin"),
        ({"allow_origins": ("http://a.example/path",)}, "--allow-origin 'http://a.example/path': not an origin"),
        ({"allow_origins": ("*",)}, "--allow-origin '*': not an origin"),
        ({"token": "a b"}, "--token 'a b': a token is 1 to 256"),
    ],
)
def test_an_access_option_that_names_nothing_is_an_error_naming_it(options, message):
    with pytest.raises(AccessError) as raised:
        Access.make(**{"token": None, **options}, host="127.0.0.1", port=PORT)
    assert str(raised.value).startswith(message)


TEXT = st.text(st.characters(codec="utf-8"), max_size=60) | st.from_regex(
    r"\[?[0-9a-fA-F:.\]]{0,20}(:[0-9]{0,6})?", fullmatch=True
)


@given(host=TEXT, origin=TEXT, local=st.none() | TEXT)
def test_no_header_makes_a_check_fail_other_than_by_a_refusal(host, origin, local):
    access = Access.make(
        token="t" * 32, host="0.0.0.0", port=PORT, allow_hosts=("a.example",), allow_origins=("http://b.example",)
    )
    for refusal in (access.host_refusal(host, local), access.origin_refusal(origin, host, "http")):
        assert refusal is None or isinstance(refusal, str)
    refusal = access.fetch_refusal(origin, host, local, origin)
    assert refusal is None or isinstance(refusal, str)
    assert isinstance(access.token_accepted(host), bool)
    assert split_origin(origin) is None or isinstance(split_origin(origin)[2], int)


def test_the_cap_gives_places_until_it_is_full_and_takes_them_back():
    cap = Cap()
    from workbench.cli import common as cli

    assert cap.max_tabs == DEFAULT_MAX_TABS == cli.DEFAULT_MAX_TABS == 16
    assert all(cap.take() for _ in range(16)) and cap.full and not cap.take() and cap.taken == 16
    cap.give_back()
    assert not cap.full and cap.take() and not cap.take()
    assert "16 tabs open" in full_page(16) and "--max-tabs 16" in full_page(16) and "has 1 tab open" in full_page(1)
    assert '<meta http-equiv="refresh" content="3">' in full_page(16)  # it opens the app by itself, once there is room


def test_the_first_refusal_of_each_kind_is_said_and_a_flood_of_them_in_a_line_a_minute_with_its_count():
    said: list[str] = []
    now = [0.0]
    log = RefusalLog(said.append, clock=lambda: now[0])
    for second, kind, line in [
        (0, "host", "h1"),
        (1, "host", "h2"),
        (2, "origin", "o1"),
        (30, "host", "h3"),
        (59, "host", "h4"),
        (61, "host", "h5"),
        (62, "host", "h6"),
        (130, "host", "h7"),
        (131, "token", "t1"),
    ]:
        now[0] = second
        log(kind, line)
    assert said == [
        "h1",
        "o1",
        "h5 (and 3 more refused so since the last such line)",
        "h7 (and 1 more refused so since the last such line)",
        "t1",
    ]
    # many different lines of one kind silence nothing: the next of each kind a minute on is said
    many = RefusalLog(said.append, clock=lambda: now[0])
    said.clear()
    for index in range(100):
        many("host", f"h{index}")
    now[0] += 60
    many("host", "evil")
    many("origin", "o")
    assert said == ["h0", "evil (and 99 more refused so since the last such line)", "o"]


# the middleware, in a server of the test's own


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _client(token: str | None) -> tuple[TestClient, Access, list[str]]:
    """A server of the test's own on 127.0.0.1, behind the guard, with the headers of every answer: a client, the
    access, and what the server said of its refusals."""
    said: list[str] = []
    port = _free_port()
    access = Access.make(token=token, host="127.0.0.1", port=port)

    async def handler(request: web.Request) -> web.Response:
        return web.Response(text="the page")

    async def download(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Disposition": "attachment; filename=study 2026 «é».svg"})
        await response.prepare(request)
        await response.write(b"<svg/>")
        return response

    app = web.Application()
    app.router.add_get("/", handler)
    app.router.add_get("/ws", handler)
    app.router.add_get("/ws/{key}", handler)
    app.router.add_get("/download", download)
    app.middlewares.append(guard(access, lambda kind, line: said.append(line)))
    app.on_response_prepare.append(secure_headers)
    client = TestClient(TestServer(app, host="127.0.0.1", port=port), cookie_jar=aiohttp.CookieJar(unsafe=True))
    await client.start_server()
    return client, access, said


async def test_the_websocket_needs_the_token_or_the_session_key_and_no_cookie_is_set():
    client, access, said = await _client("s3cret")
    try:
        # the page itself is the same for everyone (it holds no key): a reload, which has none in its address, gets it
        response = await client.get("/")
        assert response.status == 200 and not response.cookies and not said
        response = await client.get("/ws")
        assert response.status == 403 and "the terminal where `workbench serve` runs" in await response.text()
        assert said == ["workbench: refused GET '/ws': its address has no key"]
        response = await client.get("/?token=s3cret")
        assert response.status == 200 and await response.text() == "the page" and not response.cookies
        for path in ("/ws?token=s3cret", f"/ws/{access.session}", f"/ws/{access.session}?width=80&height=24"):
            response = await client.get(path)
            assert response.status == 200, path
        response = await client.get("/ws")  # no cookie carries anything
        assert response.status == 403
        response = await client.get("/ws/s3cret")
        assert response.status == 403 and said[-1] == "workbench: refused GET '/ws/…': its key is not this server's"
        # the right key from a page of another origin: refused, and the key is not written on the server's terminal
        response = await client.get(f"/ws/{access.session}", headers={"Origin": "http://elsewhere.example"})
        assert response.status == 403 and said[-1].startswith("workbench: refused GET '/ws/…': ")
        assert not any(access.session in line for line in said)
        response = await client.get(f"/ws?session={access.session}")  # (the session key goes in the path)
        assert response.status == 403
        response = await client.get("/?token=s3cretx")  # a wrong token, even on the page: the user is told
        assert response.status == 403 and said[-1] == "workbench: refused GET '/': its token is not this server's"
        assert "its token is not this server&#x27;s" in await response.text()
        # the Host, Origin and fetch-metadata checks come first: the token does not open them
        response = await client.get("/?token=s3cret", headers={"Host": f"evil.example:{access.port}"})
        assert response.status == 403 and "--allow-host NAME" in await response.text()
        response = await client.get("/?token=s3cret", headers={"Origin": "http://evil.example"})
        assert response.status == 403 and "--allow-origin ORIGIN" in await response.text()
        response = await client.get(
            "/?token=s3cret", headers={"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "no-cors"}
        )
        assert response.status == 403
        response = await client.get(
            "/?token=s3cret", headers={"Host": f"[::1]:{access.port}", "Origin": f"http://[::1]:{access.port}"}
        )
        assert response.status == 200
    finally:
        await client.close()


async def test_without_a_token_every_request_of_the_server_s_own_is_answered():
    client, access, said = await _client(None)
    try:
        for path in ("/?token=anything", "/ws", "/ws/x"):
            response = await client.get(path)
            assert response.status == 200 and not response.cookies, path
        response = await client.get("/", headers={"Host": f"evil.example:{access.port}"})
        assert response.status == 403 and said == [
            f"workbench: refused GET '/': 'evil.example:{access.port}' is not a name of this server"
        ]
        # what a requester sends cannot reach the server's terminal as an escape sequence (a title, a cleared line)
        response = await client.get("/%1b]0;title%07%1b[2K", headers={"Host": f"[::1]:{access.port}x"})
        assert response.status == 403 and said[-1] == (
            f"workbench: refused GET '/\\x1b]0;title\\x07\\x1b[2K': the host '[::1]:{access.port}x' is no host name"
        )
    finally:
        await client.close()


async def test_every_answer_has_the_security_headers_and_is_not_kept_and_a_download_s_name_is_rfc_6266_s():
    client, access, said = await _client("s3cret")
    try:
        answers = {path: await client.get(path) for path in ("/", "/?token=s3cret", "/ws", "/nowhere", "/download")}
        answers["POST /"] = await client.post("/")
        for path, response in answers.items():
            assert response.status in (200, 403, 404, 405), path
            headers = response.headers
            assert headers["X-Content-Type-Options"] == "nosniff", path
            assert (
                headers["X-Frame-Options"] == "DENY" and headers["Content-Security-Policy"] == "frame-ancestors 'none'"
            ), path
            assert headers["Referrer-Policy"] == "no-referrer" and headers["Cache-Control"] == "no-store", path
        assert answers["/download"].headers["Content-Disposition"] == (
            "attachment; filename=\"study 2026 ___.svg\"; filename*=UTF-8''study%202026%20%C2%AB%C3%A9%C2%BB.svg"
        )
    finally:
        await client.close()


def test_the_static_files_are_asked_again_at_each_use_and_anything_else_is_never_kept():
    assert cache_control("/static/css/xterm.css") == "no-cache"
    assert all(
        cache_control(path) == "no-store" for path in ("/", "/ws", "/download/k", "/page/terminal.js", "/static")
    )


@pytest.mark.parametrize(
    "value, written",
    [
        ("attachment; filename=a.svg", "attachment; filename=\"a.svg\"; filename*=UTF-8''a.svg"),
        ('inline; filename=x"y\\z;.txt', "inline; filename=\"x_y_z;.txt\"; filename*=UTF-8''x%22y%5Cz%3B.txt"),
        ("attachment; filename=\x1b[2J.json", "attachment; filename=\"_[2J.json\"; filename*=UTF-8''%1B%5B2J.json"),
        ("form-data; name=x", "form-data; name=x"),
    ],
)
def test_a_download_s_name_is_quoted_as_rfc_6266_says(value, written):
    assert content_disposition(value) == written


@pytest.mark.parametrize(
    "target, host, refused",
    [
        ("/?token=T", "127.0.0.1:8000", False),
        ("http://127.0.0.1:8000/?token=T", "127.0.0.1:8000", False),
        ("http://evil.example/?token=T", "127.0.0.1:8000", True),
        ("http://127.0.0.1:9000/", "127.0.0.1:8000", True),
        ("*", "127.0.0.1:8000", True),
        ("http://[::1/", "127.0.0.1:8000", True),
    ],
)
def test_a_target_in_absolute_form_must_name_the_host_its_host_header_names(target, host, refused):
    assert (target_refusal(target, host) is not None) is refused


async def test_a_request_whose_target_names_another_host_or_that_names_two_hosts_is_refused():
    """The page's websocket address was built from the target's host: `GET http://evil.example/` with the
    server's own Host got a page whose websocket went to evil.example."""
    import asyncio

    client, access, said = await _client("s3cret")
    try:
        for request, answer in (
            (f"GET http://evil.example/?token=s3cret HTTP/1.1\r\nHost: 127.0.0.1:{access.port}\r\n\r\n", b"403"),
            (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{access.port}\r\nHost: evil.example\r\n\r\n", b"400"),  # (aiohttp's)
        ):
            reader, writer = await asyncio.open_connection("127.0.0.1", access.port)
            writer.write(request.encode())
            await writer.drain()
            status = await reader.readline()
            writer.close()
            assert status.split()[1] == answer, (request, status)
        assert said == ["workbench: refused GET '/': its target names another host ('evil.example') than its Host"]
    finally:
        await client.close()


def test_the_token_comes_from_the_option_the_file_or_the_environment_in_that_order(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("from-the-file-0123456789\nignored\n")
    environ = {TOKEN_VARIABLE: "from-the-environment-0123"}
    assert chosen_token(token="given-0123456789", token_file=None, environ=environ) == "given-0123456789"
    assert chosen_token(token=None, token_file=str(token_file), environ=environ) == "from-the-file-0123456789"
    assert chosen_token(token=None, token_file=None, environ=environ) == "from-the-environment-0123"
    assert chosen_token(token=None, token_file=None, environ={}) is None
    assert chosen_token(token=None, token_file=None, environ={TOKEN_VARIABLE: ""}) is None


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--token", "x", "--no-token"], "argument --no-token: not allowed with argument --token"),
        (["--token", "a;b"], "argument --token: 'a;b': a token is 1 to 256 letters, digits and characters of"),
        (["--token", ""], "argument --token: '': a token is 1 to 256"),
        (["--allow-origin", "evil.example"], "argument --allow-origin: 'evil.example': not an origin"),
        (["--allow-host", "a b"], "argument --allow-host: 'a b': not a host name"),
        (["--max-tabs", "0"], "argument --max-tabs: '0' is not a positive whole number"),
        (["--max-tabs", "10001"], "argument --max-tabs: '10001': at most 10000 tabs"),
        (["--token", "x", "--token-file", "f"], "argument --token-file: not allowed with argument --token"),
        (["--token-file", "/nonexistent/token"], "--token-file '/nonexistent/token': No such file or directory"),
        (["--token-file", "/"], "--token-file '/': Is a directory"),
    ],
)
def test_bad_access_options_are_one_line_and_exit_2(capsys, arguments, message):
    assert main(["serve", "--port", "0", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"workbench: error: {message}") and err.count("\n") == 1, err


def test_a_token_file_or_variable_that_holds_no_token_is_one_line_and_exit_2(capsys, tmp_path, monkeypatch):
    (tmp_path / "token").write_text("a b\n")
    assert main(["serve", "--port", "0", "--token-file", str(tmp_path / "token")]) == 2
    assert (
        capsys.readouterr().err
        == f"workbench: error: --token-file {str(tmp_path / 'token')!r}: a token is 1 to 256 letters, digits and "
        "characters of !#$%&'*+-.^_`|~:\n"
    )
    monkeypatch.setenv(TOKEN_VARIABLE, "a;b")
    assert main(["serve", "--port", "0"]) == 2
    assert capsys.readouterr().err.startswith(f"workbench: error: {TOKEN_VARIABLE}: a token is 1 to 256")


# the same checks, at a server's process (they are the same in both modes: not run again in stock mode)


def _stopped(process: subprocess.Popen) -> str:
    """What the server said on its standard error, once stopped."""
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == 0
    return process.stderr.read()


async def test_each_start_makes_a_new_random_token_and_token_sets_one(tmp_path):
    addresses = []
    for _ in range(2):
        with serving_again(tmp_path) as (process, url):
            addresses.append(url)
            assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{32}", url)
            assert _stopped(process) == ""  # no warning
    assert addresses[0].split("=")[1] != addresses[1].split("=")[1]
    with serving_again(tmp_path, "--token", "short+key") as (process, url):
        assert url.endswith("/?token=short%2Bkey")
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as page:
                assert page.status == 200
            async with session.get(base_of(url) + "/?token=short+key") as page:  # (a + in a query is a space)
                assert page.status == 403
        said = _stopped(process)
    assert said.startswith(
        "workbench: warning: a token of 9 characters can be guessed; leave --token out for a random one\n"
    )


async def test_no_token_lets_the_server_s_own_requests_in_says_so_at_the_start_and_still_checks_the_host(tmp_path):
    with serving_again(
        tmp_path, "--no-token", reach="this machine only, with no key: every program on it can use it"
    ) as (process, url):
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as page:
                assert page.status == 200 and not page.cookies
            async with session.get(url, headers={"Host": "evil.example"}) as page:
                assert page.status == 403
            async with session.get(url, headers={"Origin": "http://evil.example"}) as page:
                assert page.status == 403
            for forged in ({"Host": "evil.example"}, {"Origin": "http://evil.example"}):  # the socket too: no app
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(websocket_address(url, 80, 24), headers=forged)
                assert refused.value.status == 403
            assert _apps(process.pid) == set()
        said = _stopped(process)
    assert said.splitlines() == [
        "workbench: warning: --no-token: every program on this machine can use the app and your library through it",
        "workbench: refused GET '/': 'evil.example' is not a name of this server",
        "workbench: refused GET '/': a page of 'http://evil.example' may not use this server",
    ]


async def test_a_server_on_every_address_answers_to_the_machine_s_names_and_says_the_token_is_the_only_key(tmp_path):
    with serving_again(tmp_path, "--host", "0.0.0.0", reach="on every network this machine is on") as (process, url):
        port = int(re.search(r":(\d+)/", url).group(1))
        async with aiohttp.ClientSession() as session:
            for address in (url, url.replace("127.0.0.1", "localhost")):
                async with session.get(address) as page:
                    assert page.status == 200, address
            # the machine's name, as a browser elsewhere sends it (named in the Host: no resolver needed here)
            async with session.get(url, headers={"Host": f"{socket.gethostname()}:{port}"}) as page:
                assert page.status == 200
            async with session.get(url, headers={"Host": f"evil.example:{port}"}) as page:
                assert page.status == 403
            async with session.get(url.replace("127.0.0.1", "0.0.0.0")) as page:  # (a browser may go there)
                assert page.status == 200
        assert _stopped(process).splitlines() == [
            "workbench: warning: --host 0.0.0.0: the app and your library are open to the network, unencrypted",
            f"workbench: refused GET '/': 'evil.example:{port}' is not a name of this server",
        ]


def test_the_address_is_said_at_once_on_a_pipe_too(tmp_path):
    """`workbench serve | tee log` showed nothing until the output's buffer filled (the tests' environment sets
    PYTHONUNBUFFERED, which hid it)."""
    import os
    import select
    import sys

    from .child_process import PACKAGE_ROOT

    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(
        [sys.executable, "-m", "workbench", "serve", "--port", "0", "--db", str(tmp_path / "library.sqlite3")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**env, "PYTHONPATH": PACKAGE_ROOT},
        cwd=tmp_path,
    )
    try:
        readable, _, _ = select.select([process.stdout], [], [], 60)
        assert readable and process.stdout.readline().startswith(b"workbench: serving the app at http://127.0.0.1:")
    finally:
        process.kill()
        process.wait()


# what a tab may send its app


@pytest.mark.parametrize(
    "text, read",
    [
        ('["stdin", "5"]', Message("stdin", text="5")),
        ('["resize", {"width": 120, "height": 36}]', Message("resize", size=(120, 36))),
        ('["resize", {"width": 120.0, "height": 36}]', Message("resize", size=(120, 36))),
        ('["resize", {"width": 100000, "height": 100000}]', Message("resize", size=(1000, 1000), clamped=True)),
        ('["resize", {"width": -5, "height": 0}]', Message("resize", size=(10, 10), clamped=True)),
        (
            '["resize", {"width": 1e308, "height": 10000000000000000000000000000000000000000}]',
            Message("resize", size=(1000, 1000), clamped=True),
        ),
        ('["ping", "1700000000"]', Message("ping", data="1700000000")),
        ('["blur"]', Message("blur")),
        ('["focus"]', Message("focus")),
    ],
)
def test_a_tab_s_messages_are_read_with_their_sizes_within_a_screen_s(text, read):
    assert read_message(text) == read


@pytest.mark.parametrize(
    "keys, sent",
    [
        ("\x1b[200~x\x1b[31my\x1b[201~", "\x1b[200~x[31my\x1b[201~"),  # text copied with its colours: no keys
        ("\x1b[200~a\x1b[201~5\x1b[201~", "\x1b[200~a[201~5\x1b[201~"),  # a pasted end mark ends nothing
        ("\x1b[200~line one\r\nline\ttwo\x7f\x9b1~\x00\x1b[201~", "\x1b[200~line one\r\nline\ttwo1~\x1b[201~"),
        ("\x1b[200~cut short\x1b[B", "\x1b[200~cut short[B"),  # no end mark: the paste runs to the message's end
        ("\x1b[A\x1b[B\x1bOP59", "\x1b[A\x1b[B\x1bOP59"),  # keys typed, not pasted: as they are
        ("✓ 井 519", "✓ 井 519"),
    ],
)
def test_a_paste_s_control_characters_never_reach_the_app_as_keys(keys, sent):
    """A review in a browser: pasting text that held an escape sequence played moves (Textual reads one inside a
    bracketed paste as keys)."""
    assert read_message(json.dumps(["stdin", keys])) == Message("stdin", text=sent)


@given(st.text(max_size=60), st.text(max_size=60))
def test_whatever_is_pasted_only_its_own_marks_reach_the_app(before, pasted):
    keys = read_message(json.dumps(["stdin", "\x1b[200~" + pasted + "\x1b[201~"])).text
    inside = keys.removeprefix("\x1b[200~").removesuffix("\x1b[201~")
    assert "\x1b" not in inside and all(c in "\t\n\r" or c >= " " for c in inside)
    assert read_message(json.dumps(["stdin", before])).text == before or "\x1b[200~" in before


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[]",
        "{}",
        "5",
        '"stdin"',
        '[5, "a"]',
        '["stdin", 5]',
        '["stdin"]',
        '["stdin", "a", "b"]',
        '["stdin", "\\ud800"]',
        '["resize", {"width": "80", "height": 24}]',
        '["resize", {"width": true, "height": 24}]',
        '["resize", {"width": 1.5, "height": 24}]',
        '["resize", {"width": 1e999, "height": 24}]',
        '["resize", {"width": 80}]',
        '["resize", [80, 24]]',
        '["resize"]',
        '["quit"]',
        "[" * 100000 + "]" * 100000,
    ],
)
def test_a_malformed_message_is_refused_with_a_reason_and_never_an_error_of_another_kind(text):
    with pytest.raises(BadMessage):
        read_message(text)


@given(
    st.text(max_size=200)
    | st.builds(
        lambda kind, value: f'["{kind}", {value}]', st.sampled_from(["stdin", "resize", "ping"]), st.text(max_size=40)
    )
)
def test_no_message_makes_the_check_fail_other_than_by_a_refusal(text):
    try:
        message = read_message(text)
    except BadMessage:
        return
    assert MIN_SIZE <= message.size[0] <= MAX_SIZE and MIN_SIZE <= message.size[1] <= MAX_SIZE


@pytest.mark.parametrize(
    "query, size, wrong",
    [
        ({}, (80, 24), None),
        ({"width": "120", "height": "36"}, (120, 36), None),
        ({"width": "100000", "height": "100000"}, (1000, 1000), "a size of 100000×100000, brought within 10–1000"),
        ({"width": "0", "height": "5"}, (10, 10), "a size of 0×5, brought within 10–1000"),
        ({"width": "-5", "height": "24"}, (80, 24), "a size that is not two whole numbers"),
        ({"width": "1e308", "height": "24"}, (80, 24), "a size that is not two whole numbers"),
        ({"width": "9" * 40, "height": "24"}, (80, 24), "a size that is not two whole numbers"),
        ({"width": "80"}, (80, 24), "a size that is not two whole numbers"),
        ({"width": "٨٠", "height": "24"}, (80, 24), "a size that is not two whole numbers"),  # (digits, not ASCII's)
    ],
)
def test_the_websocket_s_size_is_whole_numbers_within_a_screen_s(query, size, wrong):
    assert query_size(query) == (size, wrong)


@pytest.mark.parametrize(
    "name, loopback",
    [
        ("localhost", True),
        ("LOCALHOST.", True),
        ("127.0.0.1", True),
        ("127.1", True),
        ("0x7f.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("127.0.0.1 example.com", False),  # (the system's reader takes an address followed by anything)
        ("10.0.0.1", False),
        ("0.0.0.0", False),
        ("example.com", False),
        ("127.example", False),
    ],
)
def test_loopback_is_any_form_of_this_machine_s_own_address_and_nothing_else(name, loopback):
    from workbench.web.names import is_loopback

    assert is_loopback(name) is loopback
