"""Who may use `workbench serve` (workbench.web.access): the Host, Origin and fetch-metadata checks, the token
and its cookie, the cap on apps; each check alone, then the middleware in an aiohttp server of the test's own."""

import string

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import given
from hypothesis import strategies as st

from workbench.cli import main
from workbench.web.access import (
    DEFAULT_MAX_TABS,
    Access,
    AccessError,
    Cap,
    RefusalLog,
    check_token,
    full_page,
    guard,
    new_token,
    split_host,
    split_origin,
)  # fmt: skip

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
    access = Access.make(token=None, host="127.0.0.1", port=PORT, allow_origins=("http://Tools.Example:3000/", "https://[::1]"))
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
def test_a_request_a_browser_says_another_site_s_page_sent_is_refused_unless_it_opens_a_tab(site, mode, destination, refused):
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
    assert not any(access.token_accepted(given) for given in (None, "", "s3cret-token", "s3cret-Token ", "s3cret", "\udce9", "é"))
    assert Access.make(token=None, host="127.0.0.1", port=PORT).token_accepted(None)
    assert access.address("http://127.0.0.1:8799") == "http://127.0.0.1:8799/?token=s3cret-Token"
    assert Access.make(token="a+b%c", host="::1", port=PORT).address("http://[::1]:8799") == "http://[::1]:8799/?token=a%2Bb%25c"
    assert access.cookie_name == "workbench-token-8799"  # a cookie is the host's at every port: one per server


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


TEXT = st.text(st.characters(codec="utf-8"), max_size=60) | st.from_regex(r"\[?[0-9a-fA-F:.\]]{0,20}(:[0-9]{0,6})?", fullmatch=True)


@given(host=TEXT, origin=TEXT, local=st.none() | TEXT)
def test_no_header_makes_a_check_fail_other_than_by_a_refusal(host, origin, local):
    access = Access.make(token="t" * 32, host="0.0.0.0", port=PORT, allow_hosts=("a.example",), allow_origins=("http://b.example",))
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
    for second, kind, line in [(0, "host", "h1"), (1, "host", "h2"), (2, "origin", "o1"), (30, "host", "h3"),
                               (59, "host", "h4"), (61, "host", "h5"), (62, "host", "h6"), (130, "host", "h7"),
                               (131, "token", "t1")]:  # fmt: skip
        now[0] = second
        log(kind, line)
    assert said == ["h1", "o1", "h5 (and 3 more refused so since the last such line)", "h7 (and 1 more refused so since the last such line)", "t1"]
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
    """A server of the test's own on 127.0.0.1, behind the guard: a client that keeps cookies as a browser does,
    the access, and what the server said of its refusals."""
    said: list[str] = []
    port = _free_port()
    access = Access.make(token=token, host="127.0.0.1", port=port)

    async def handler(request: web.Request) -> web.Response:
        return web.Response(text="the page")

    app = web.Application()
    app.router.add_get("/", handler)
    app.router.add_get("/other", handler)
    app.middlewares.append(guard(access, lambda kind, line: said.append(line)))
    client = TestClient(TestServer(app, host="127.0.0.1", port=port), cookie_jar=aiohttp.CookieJar(unsafe=True))
    await client.start_server()
    return client, access, said


async def test_the_token_in_the_address_is_kept_in_a_cookie_that_later_requests_carry():
    client, access, said = await _client("s3cret")
    try:
        response = await client.get("/other")
        assert response.status == 403 and "the terminal where `workbench serve` runs" in await response.text()
        assert said == ["workbench: refused GET '/other': its address has no token"]
        response = await client.get("/?token=s3cret")
        assert response.status == 200 and await response.text() == "the page"
        cookie = response.cookies[access.cookie_name]
        assert cookie.value == "s3cret" and cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/"
        assert response.headers["X-Frame-Options"] == "DENY" and response.headers["Referrer-Policy"] == "no-referrer"
        response = await client.get("/other")  # the cookie carries it now
        assert response.status == 200 and access.cookie_name not in response.cookies  # (set once)
        response = await client.get("/?token=s3cretx")  # a wrong token in the address wins over the cookie
        assert response.status == 403 and said[-1] == "workbench: refused GET '/': its token is not this server's"
        assert "its token is not this server&#x27;s" in await response.text()
        client.session.cookie_jar.update_cookies({access.cookie_name: "old"}, response_url=client.make_url("/"))  # a former start's
        response = await client.get("/other")
        assert response.status == 403 and said[-1] == "workbench: refused GET '/other': its token is not this server's"
        # the Host, Origin and fetch-metadata checks come first: the token does not open them
        response = await client.get("/?token=s3cret", headers={"Host": f"evil.example:{access.port}"})
        assert response.status == 403 and "--allow-host NAME" in await response.text()
        response = await client.get("/?token=s3cret", headers={"Origin": "http://evil.example"})
        assert response.status == 403 and "--allow-origin ORIGIN" in await response.text()
        response = await client.get("/?token=s3cret", headers={"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "no-cors"})
        assert response.status == 403
        response = await client.get("/?token=s3cret", headers={"Host": f"[::1]:{access.port}", "Origin": f"http://[::1]:{access.port}"})
        assert response.status == 200
    finally:
        await client.close()


async def test_without_a_token_every_request_of_the_server_s_own_is_answered_and_no_cookie_is_set():
    client, access, said = await _client(None)
    try:
        response = await client.get("/?token=anything")
        assert response.status == 200 and not response.cookies
        response = await client.get("/other")
        assert response.status == 200
        response = await client.get("/", headers={"Host": f"evil.example:{access.port}"})
        assert response.status == 403 and said == [f"workbench: refused GET '/': 'evil.example:{access.port}' is not a name of this server"]
        # what a requester sends cannot reach the server's terminal as an escape sequence (a title, a cleared line)
        response = await client.get("/%1b]0;title%07%1b[2K", headers={"Host": f"[::1]:{access.port}x"})
        assert response.status == 403 and said[-1] == (
            f"workbench: refused GET '/\\x1b]0;title\\x07\\x1b[2K': the host '[::1]:{access.port}x' is no host name"
        )
    finally:
        await client.close()


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
    ],
)
def test_bad_access_options_are_one_line_and_exit_2(capsys, arguments, message):
    assert main(["serve", "--port", "0", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"workbench: error: {message}") and err.count("\n") == 1, err
