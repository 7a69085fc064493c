"""Only the table's pages may act (issue 20 §2, §5): hosts, origins, the join token on every channel, random
ids, bounded echoes, security headers, and each phone's own replies (issue 19 §3), through the test client."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from assistant_cli.web.app import create_app
from assistant_cli.web.guard import (
    MAX_ECHO,
    SECURITY_HEADERS,
    BodyLimit,
    HostGuard,
    PhoneId,
    TokenGate,
    cut,
    is_phone_id,
    same_secret,
)
from models import GAMES
from solver.errors import AssistantError
from solver.session import read_lines

LOCAL = "http://127.0.0.1"
TC_SETUP = ["players 4", "me 1", "private Duke Sword", "screen 2 Maid Parlor Gun", "screen 3 Dancer Park Crossbow",
            "screen 4 Sailor Market Knife"]


def run_apart(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own: a browser test's Playwright loop may be running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def new_game(client: TestClient, game: str = "thirteen-clues", **headers: str) -> str:
    response = client.post("/new", data={"game": game}, follow_redirects=False, headers=headers)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def enter(client: TestClient, game_id: str, line: str, **data: str) -> str:
    response = client.post(f"/g/{game_id}/line", data={"line": line, **data})
    assert response.status_code == 200, response.text
    return response.text


def journals(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.journal"))


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), base_url=LOCAL)


# -- hosts ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8765", "localhost:1", "LOCALHOST"])
def test_the_served_host_names_are_answered(client: TestClient, host: str) -> None:
    assert client.get("/", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.test", "evil.test:8765", "127.0.0.1.evil.test", "127.0.0.1:x", "[::1]:80",
                                  "", "192.168.1.5:8765"])
def test_a_rebound_or_unknown_host_gets_403_for_every_request(client: TestClient, tmp_path: Path, host: str) -> None:
    game_id = new_game(client)
    for method, path in [("GET", "/"), ("GET", f"/g/{game_id}"), ("GET", f"/g/{game_id}/events"),
                         ("POST", "/new"), ("POST", f"/g/{game_id}/line"), ("GET", "/static/app.js")]:
        response = client.request(method, path, headers={"host": host}, data={"game": "evidence", "line": "players 4"})
        assert response.status_code == 403, (method, path)
        assert response.text == f"unknown host '{host}': open the address the server printed"
    assert journals(tmp_path) == [f"{game_id}.journal"]
    assert (tmp_path / f"{game_id}.journal").read_text() == GAME_HEADER + "\n"


GAME_HEADER = GAMES["thirteen-clues"].header


def test_the_lan_address_is_served_when_given(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path, hosts=["192.168.1.5"]), base_url="http://192.168.1.5:8765")
    assert client.get("/").status_code == 200
    assert client.get("/", headers={"host": "192.168.1.6:8765"}).status_code == 403


# -- origins --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "null", "https://127.0.0.1",
                                    "http://localhost"])
def test_a_post_from_another_origin_is_refused_and_changes_nothing(client: TestClient, tmp_path: Path,
                                                                   origin: str) -> None:
    game_id = new_game(client)
    before = (tmp_path / f"{game_id}.journal").read_bytes()
    response = client.post("/new", data={"game": "evidence"}, headers={"origin": origin})
    assert response.status_code == 403 and response.text == f"refused: sent by another page ('{origin}')"
    response = client.post(f"/g/{game_id}/line", data={"line": "players 4"}, headers={"origin": origin})
    assert response.status_code == 403
    assert journals(tmp_path) == [f"{game_id}.journal"]
    assert (tmp_path / f"{game_id}.journal").read_bytes() == before


def test_a_post_from_the_page_itself_is_accepted(client: TestClient, tmp_path: Path) -> None:
    game_id = new_game(client, origin=LOCAL, **{"sec-fetch-site": "same-origin"})
    response = client.post(f"/g/{game_id}/line", data={"line": "players 4"},
                           headers={"origin": LOCAL, "sec-fetch-site": "same-origin"})
    assert response.status_code == 200
    assert read_lines(tmp_path / f"{game_id}.journal")[-1] == (2, "players 4")


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_sec_fetch_site_of_another_page_is_refused_except_a_followed_link(client: TestClient, tmp_path: Path,
                                                                          site: str) -> None:
    game_id = new_game(client)
    post = client.post(f"/g/{game_id}/line", data={"line": "players 4"}, headers={"sec-fetch-site": site})
    assert post.status_code == 403 and post.text == f"refused: sent by another page ({site})"
    read = client.get("/", headers={"sec-fetch-site": site, "sec-fetch-mode": "cors"})
    assert read.status_code == 403  # another page's script reading the saved games
    push = client.get(f"/g/{game_id}/events", headers={"sec-fetch-site": site, "sec-fetch-mode": "cors"})
    assert push.status_code == 403
    link = client.get("/", headers={"sec-fetch-site": site, "sec-fetch-mode": "navigate"})
    assert link.status_code == 200  # following a link to the home page changes nothing
    assert (tmp_path / f"{game_id}.journal").read_text() == GAME_HEADER + "\n"


def test_the_push_channel_refuses_another_origin(client: TestClient) -> None:
    game_id = new_game(client)
    response = client.get(f"/g/{game_id}/events", headers={"origin": "http://evil.test:8000"})
    assert response.status_code == 403


# -- the join token ---------------------------------------------------------------------------------------------------

def test_the_token_gate_covers_the_push_channel(tmp_path: Path) -> None:
    app = create_app(tmp_path, token="s3cret")
    owner = TestClient(app, base_url=LOCAL)
    assert owner.get("/?token=s3cret", follow_redirects=False).status_code == 303
    game_id = new_game(owner)
    stranger = TestClient(app, base_url=LOCAL)
    assert stranger.get(f"/g/{game_id}/events").status_code == 403
    assert stranger.get(f"/g/{game_id}/panel").status_code == 403
    assert stranger.get("/static/app.js").status_code == 403


@pytest.mark.parametrize("token", ["é", "s3cr\u00e9t", "\U0001f600", "s3cret\x00", "%ff"])
def test_a_non_ascii_or_wrong_token_gets_403_never_500(tmp_path: Path, token: str) -> None:
    client = TestClient(create_app(tmp_path, token="s3cret"), base_url=LOCAL, raise_server_exceptions=True)
    assert client.get("/", params={"token": token}).status_code == 403
    raw = f"assist_token={token}".encode()
    assert client.get("/", headers={"cookie": raw}).status_code == 403  # type: ignore[dict-item]
    assert client.get("/", headers={"cookie": b"assist_token=\xff\xfe"}).status_code == 403  # type: ignore[dict-item]


def test_phone_ids_are_the_ones_the_server_gives() -> None:
    assert is_phone_id("A" * 22) and is_phone_id("abc-_" + "x" * 17)
    assert not is_phone_id("A" * 21) and not is_phone_id("A" * 23) and not is_phone_id("é" + "A" * 21)
    assert not is_phone_id("A" * 21 + "=") and not is_phone_id("")


def test_a_phone_gets_one_id_and_keeps_it(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path), base_url=LOCAL)
    first = client.get("/")
    phone = first.cookies["assist_phone"]
    assert is_phone_id(phone)
    assert "HttpOnly" in first.headers["set-cookie"] and "SameSite=Strict" in first.headers["set-cookie"]
    assert "set-cookie" not in client.get("/").headers  # kept: no new id
    forged = TestClient(create_app(tmp_path), base_url=LOCAL, cookies={"assist_phone": "../../x"})
    assert forged.get("/").cookies["assist_phone"] != "../../x"


def test_same_secret_compares_any_text() -> None:
    assert same_secret("s3cret", "s3cret")
    assert not same_secret("s3cre", "s3cret") and not same_secret("s3creT", "s3cret")
    assert not same_secret("\udcff", "s3cret") and not same_secret("é" * 6, "s3cret")


def websocket_app() -> Starlette:
    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text("in")
        await websocket.close()

    return Starlette(routes=[WebSocketRoute("/ws", echo)])


def test_the_token_gate_covers_websockets_too() -> None:
    client = TestClient(TokenGate(websocket_app(), token="s3cret"), base_url="ws://127.0.0.1")
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws"):
        pass
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws?token=s3cret"):
        pass  # the token in the address only sets the cookie over HTTP
    with client.websocket_connect("/ws", headers={"cookie": "assist_token=s3cret"}) as ws:
        assert ws.receive_text() == "in"


def test_the_host_guard_covers_websockets_too() -> None:
    client = TestClient(HostGuard(websocket_app(), hosts=["testserver"]))  # the test client's WebSocket host
    with client.websocket_connect("/ws") as ws:
        assert ws.receive_text() == "in"
    for headers in ({"host": "evil.test"}, {"origin": "http://evil.test"}):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws", headers=headers):
            pass


# -- ids, echoes, headers ---------------------------------------------------------------------------------------------

def test_game_ids_are_random(client: TestClient) -> None:
    ids = [new_game(client, "evidence") for _ in range(5)]
    assert len(set(ids)) == 5
    assert all(re.fullmatch(r"evidence-[A-Za-z0-9_-]{12}", i) for i in ids), ids
    assert not any(re.search(r"\d{8}-\d{6}", i) for i in ids)  # no date and time to guess


def test_echoed_user_text_is_cut_with_its_size(client: TestClient) -> None:
    assert cut("abc", 5) == "abc"
    assert cut("x" * 5000, 10) == "xxxxxxxxxx... (5,000 characters)"
    response = client.post("/new", data={"game": "y" * 5000})
    assert response.status_code == 400
    assert response.text.startswith(f"unknown game '{'y' * MAX_ECHO}... (5,000 characters)'; expected one of ")
    long_id = "a" * 100
    response = client.get(f"/g/{long_id}")
    assert response.status_code == 404 and response.text == f"no game '{'a' * 80}... (100 characters)' in the " \
                                                            "games folder"


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    game_id = new_game(client)
    responses = [client.get("/"), client.get(f"/g/{game_id}"), client.get("/static/app.js"),
                 client.get("/g/none"), client.get("/", headers={"host": "evil.test"}),
                 client.post("/new", data={"game": "chess"})]
    for response in responses:
        for name, value in SECURITY_HEADERS:
            assert response.headers[name.decode()] == value.decode(), (response.url, name)
    csp = dict(SECURITY_HEADERS)[b"content-security-policy"].decode()
    assert "script-src 'self';" in csp and "frame-ancestors 'none'" in csp


def test_no_page_has_an_inline_script(client: TestClient) -> None:
    game_id = new_game(client)
    for line in TC_SETUP:
        enter(client, game_id, line)
    pages = [client.get("/").text, client.get(f"/g/{game_id}").text, enter(client, game_id, "advise"),
             enter(client, game_id, "why Duke")]
    for page in pages:
        assert re.findall(r"<script\b(?![^>]*\bsrc=)", page) == []
        assert re.findall(r"\son[a-z]+\s*=", page) == []  # no onclick= and the like
        assert "javascript:" not in page


# -- each phone its own replies ---------------------------------------------------------------------------------------

def test_a_phones_error_and_why_are_its_own(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    a, b = TestClient(app, base_url=LOCAL), TestClient(app, base_url=LOCAL)
    game_id = new_game(a)
    for line in [*TC_SETUP, "accuse 2 Butcher Theater Poison wrong"]:
        enter(a, game_id, line)
    mine = enter(a, game_id, "ask 3 Pinl 1")
    assert 'id="error"' in mine and 'value="ask 3 Pinl 1"' in mine
    theirs = b.get(f"/g/{game_id}").text
    assert 'id="error"' not in theirs and "Pinl" not in theirs
    assert 'id="error"' in a.get(f"/g/{game_id}").text  # A's own page keeps A's reply
    why = enter(a, game_id, "why Theater")
    assert 'id="reply"' in why
    theirs = b.get(f"/g/{game_id}").text
    assert 'id="reply"' not in theirs and 'id="error"' not in theirs
    enter(a, game_id, "ask 4 Green 1")
    theirs = b.get(f"/g/{game_id}").text
    assert '<span class="entry-text">ask 4 Green 1</span>' in theirs  # the shared state: the new entry
    assert 'id="reply"' not in theirs


def test_a_line_sent_twice_with_one_nonce_is_done_once(client: TestClient, tmp_path: Path) -> None:
    game_id = new_game(client)
    for line in TC_SETUP:
        enter(client, game_id, line)
    first = enter(client, game_id, "ask 4 Green 1", nonce="tap-1")
    again = enter(client, game_id, "ask 4 Green 1", nonce="tap-1")
    assert first == again
    enter(client, game_id, "drop 7", nonce="tap-2")
    enter(client, game_id, "drop 6", nonce="tap-2")  # a retried drop never drops a second entry
    assert [line for _, line in read_lines(tmp_path / f"{game_id}.journal")] == TC_SETUP
    enter(client, game_id, "ask 4 Green 1", nonce="tap-3")
    assert [line for _, line in read_lines(tmp_path / f"{game_id}.journal")][-1] == "ask 4 Green 1"


def test_a_refused_write_changes_no_version_journal_or_page(client: TestClient, tmp_path: Path) -> None:
    game_id = new_game(client)
    for line in TC_SETUP:
        enter(client, game_id, line)
    journal = tmp_path / f"{game_id}.journal"
    before, live = journal.read_bytes(), client.get(f"/g/{game_id}/panel").text
    store: Any = client.app.state.store  # type: ignore[attr-defined]
    version = store.open[game_id].snapshot.version
    for bad in ["drop 99", "edit 2 me 9", "ask 3 Pinl 1", "undo extra", "x" * 501]:
        assert 'id="error"' in enter(client, game_id, bad)
        assert journal.read_bytes() == before and store.open[game_id].snapshot.version == version
        assert client.get(f"/g/{game_id}/panel").text == live


# -- the guards in detail (their mutants: docs/security.md) -----------------------------------------------------------

def test_cut_keeps_text_up_to_its_limit_exactly() -> None:
    assert cut("abcde", 5) == "abcde"
    assert cut("abcdef", 5) == "abcde... (6 characters)"
    assert cut("x" * MAX_ECHO) == "x" * MAX_ECHO
    assert cut("x" * (MAX_ECHO + 1)) == "x" * MAX_ECHO + f"... ({MAX_ECHO + 1} characters)"


def test_a_refused_websocket_is_closed_with_policy_violation_and_the_reason() -> None:
    client = TestClient(TokenGate(websocket_app(), token="s3cret"), base_url="ws://127.0.0.1")
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/ws"):
        pass
    assert refused.value.code == 1008
    assert refused.value.reason == "join token missing or wrong: open the address the server printed"


def test_the_token_in_the_address_becomes_a_strict_cookie_and_leaves_the_address(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path, token="s3cret"), base_url=LOCAL)
    response = client.get("/g/some-game?token=s3cret&v=1", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/g/some-game?v=1"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("assist_token=s3cret;") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert client.get("/?token=s3cret", follow_redirects=False).headers["location"] == "/"
    refused = TestClient(client.app, base_url=LOCAL).get("/")
    assert refused.text == "join token missing or wrong: open the address the server printed"


def test_the_guards_let_the_servers_lifespan_through(tmp_path: Path) -> None:
    """With every guard in front (the token too), startup and shutdown reach the app: a game's journal is
    given up when the server stops."""
    from solver.session import Journal

    with TestClient(create_app(tmp_path, token="s3cret"), base_url=LOCAL,
                    cookies={"assist_token": "s3cret"}) as client:
        game_id = new_game(client)
        assert client.get(f"/g/{game_id}").status_code == 200  # open: its journal is locked by the server
        with pytest.raises(AssistantError, match="is open in another program"):
            Journal(tmp_path / f"{game_id}.journal", GAME_HEADER).lock("a terminal")
    terminal = Journal(tmp_path / f"{game_id}.journal", GAME_HEADER)
    terminal.lock("a terminal")  # the server stopped: the journal is free
    terminal.unlock()


def phone_app() -> Any:
    """An app answering each scope's phone id (HTTP and WebSocket) behind :class:`PhoneId`."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": scope["phone"]})
            await send({"type": "websocket.close"})
            return
        await PlainTextResponse(scope["phone"])(scope, receive, send)

    return PhoneId(app)


def test_every_channel_gets_a_phone_id() -> None:
    client = TestClient(phone_app())
    with client.websocket_connect("/ws") as ws:
        assert is_phone_id(ws.receive_text())
    known = "k" * 22
    with client.websocket_connect("/ws", headers={"cookie": f"assist_phone={known}"}) as ws:
        assert ws.receive_text() == known
    answer = client.get("/", headers={"cookie": f"assist_phone={known}"})
    assert answer.text == known and "set-cookie" not in answer.headers
    fresh = TestClient(phone_app()).get("/")
    assert is_phone_id(fresh.text) and fresh.headers["set-cookie"] == (
        f"assist_phone={fresh.text}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000")


def body_app(limit: int) -> Any:
    """:class:`BodyLimit` in front of an app that answers the length of the body it read (and WebSockets)."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": "in"})
            await send({"type": "websocket.close"})
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await PlainTextResponse(str(len(body)))(scope, receive, send)

    return BodyLimit(app, limit=limit)


def test_request_bodies_are_limited_declared_or_streamed() -> None:
    client = TestClient(body_app(10))
    assert client.post("/", content=b"x" * 10).text == "10"  # at the limit: read whole
    over = client.post("/", content=b"x" * 11)
    assert over.status_code == 413 and over.text == "request body over 10 bytes"
    assert client.post("/", content=b"x", headers={"content-length": "1x"}).status_code == 413

    def chunks(n: int) -> Any:
        yield from (b"x" * 4 for _ in range(n))  # no content-length: a streamed body

    assert client.post("/", content=chunks(2)).text == "8"
    streamed = client.post("/", content=chunks(3))
    assert streamed.status_code == 413 and streamed.text == "request body over 10 bytes"
    with client.websocket_connect("/ws") as ws:  # other scopes pass untouched
        assert ws.receive_text() == "in"


def test_a_header_the_response_sets_itself_is_kept_once() -> None:
    from assistant_cli.web.guard import SecurityHeaders

    async def app(scope: Any, receive: Any, send: Any) -> None:
        response = PlainTextResponse("x", headers={"Content-Security-Policy": "default-src 'none'"})
        await response(scope, receive, send)

    answer = TestClient(SecurityHeaders(app)).get("/")
    assert answer.headers.get_list("content-security-policy") == ["default-src 'none'"]
    assert answer.headers.get_list("x-frame-options") == ["DENY"]


async def _call(app: Any, scope: dict[str, Any]) -> tuple[int, bytes]:
    """Send one bare HTTP request scope to ``app``; its status and body."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


def test_a_request_without_a_host_header_is_refused() -> None:

    async def never(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("reached the app")

    scope = {"type": "http", "method": "GET", "path": "/", "raw_path": b"/", "query_string": b"", "headers": [],
             "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1)}
    status, body = run_apart(_call(HostGuard(never, hosts=["127.0.0.1"]), scope))
    assert status == 403 and body == b"unknown host '': open the address the server printed"


def test_long_hosts_origins_and_sites_are_echoed_cut(client: TestClient) -> None:
    host = "h" * 100
    answer = client.get("/", headers={"host": host})
    assert answer.text == f"unknown host '{'h' * 60}... (100 characters)': open the address the server printed"
    origin = "http://" + "o" * 93
    answer = client.post("/new", data={"game": "evidence"}, headers={"origin": origin})
    assert answer.text == f"refused: sent by another page ('{origin[:60]}... (100 characters)')"
    site = "s" * 30
    answer = client.post("/new", data={"game": "evidence"}, headers={"sec-fetch-site": site})
    assert answer.text == f"refused: sent by another page ({'s' * 20}... (30 characters))"


def test_sec_fetch_site_none_and_followed_links_pass(client: TestClient) -> None:
    assert client.get("/", headers={"sec-fetch-site": "none"}).status_code == 200  # an address typed
    assert client.get("/", headers={"sec-fetch-site": "NONE"}).status_code == 200
    head = client.head("/", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"})
    assert head.status_code == 200
    assert client.get("/", headers={"sec-fetch-site": "cross-site"}).status_code == 403  # no mode: not a link
    post = client.post("/new", data={"game": "evidence"},
                       headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"})
    assert post.status_code == 403  # a form another site submits is a navigation too, but a POST


@pytest.mark.parametrize("host", ["[::1]", "[::1]:8765", "127.0.0.1:", "127.0.0.1:80:80"])
def test_odd_host_forms_are_refused_or_read_as_their_name(client: TestClient, host: str) -> None:
    expected = 200 if host == "127.0.0.1:" else 403
    assert client.get("/", headers={"host": host}).status_code == expected


def test_a_refused_websocket_reason_is_cut_to_120_characters() -> None:
    client = TestClient(HostGuard(websocket_app(), hosts=["testserver"]))
    with pytest.raises(WebSocketDisconnect) as refused, \
            client.websocket_connect("/ws", headers={"host": "h" * 100}):
        pass
    whole = f"unknown host '{'h' * 60}... (100 characters)': open the address the server printed"
    assert len(whole) > 120 and refused.value.reason == whole[:120]


@pytest.mark.parametrize("cookie", [b"assist_token=\"unclosed", b"=;;=; assist_token", b"\x00\x01", b"a=b=c; ;"])
def test_any_cookie_header_is_read_without_an_error(tmp_path: Path, cookie: bytes) -> None:
    client = TestClient(create_app(tmp_path, token="s3cret"), base_url=LOCAL)
    assert client.get("/", headers={"cookie": cookie}).status_code == 403  # type: ignore[dict-item]
    assert TestClient(create_app(tmp_path), base_url=LOCAL).get(
        "/", headers={"cookie": cookie}).status_code == 200  # type: ignore[dict-item]


def test_a_body_streamed_in_many_parts_is_counted_whole() -> None:

    parts = [b"x" * 4] * 3  # 12 bytes in three messages, over a limit of 10

    async def run() -> tuple[int, bytes]:
        messages = [{"type": "http.request", "body": p, "more_body": i < len(parts) - 1} for i, p in enumerate(parts)]
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/", "raw_path": b"/", "query_string": b"",
                 "headers": [], "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80)}
        await body_app(10)(scope, receive, send)
        return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])

    assert run_apart(run()) == (413, b"request body over 10 bytes")
