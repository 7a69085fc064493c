"""Each phone its own view, pushed live (issue 19 §3), on a real ``assist serve`` and, for the page, Debian's
Chromium: the push channel itself, two browser contexts (A's error and ``why`` never on B, A's entry on B within
1 s without a reload or polling), the working indicator and single sending, a line that could not be sent, and
a server killed and restarted under the page."""

from __future__ import annotations

import queue
import re
import threading
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from solver.session import read_lines
from tests.assistant_cli.web.conftest import Server, start_server

TC_SETUP = ["players 4", "me 1", "private Duke Sword", "screen 2 Maid Parlor Gun", "screen 3 Dancer Park Crossbow",
            "screen 4 Sailor Market Knife", "accuse 2 Butcher Theater Poison wrong"]


def new_game(server: Server, lines: list[str]) -> str:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        response = client.post("/new", data={"game": "thirteen-clues"})
        game_id = response.headers["location"].rsplit("/", 1)[1]
        for line in lines:
            assert client.post(f"/g/{game_id}/line", data={"line": line}).status_code == 200
    return game_id


def events(server: Server, game_id: str, out: queue.Queue[tuple[float, str, str]], stop: threading.Event) -> None:
    """Read the push channel, putting (arrival time, event id, data) of each event in ``out``."""
    try:
        read_events(server, game_id, out, stop)
    except httpx.HTTPError:
        return  # the server stopped at the end of the test


def read_events(server: Server, game_id: str, out: queue.Queue[tuple[float, str, str]], stop: threading.Event) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client, \
            client.stream("GET", f"/g/{game_id}/events") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        event_id, data = "", []
        for line in response.iter_lines():
            if stop.is_set():
                return
            if line.startswith("id: "):
                event_id = line[4:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and data:
                out.put((time.perf_counter(), event_id, "\n".join(data)))
                event_id, data = "", []


def test_the_push_channel_sends_each_change_at_once(servers: list[Server], tmp_path: Path) -> None:
    server = start_server(tmp_path)
    servers.append(server)
    game_id = new_game(server, TC_SETUP)
    got: queue.Queue[tuple[float, str, str]] = queue.Queue()
    stop = threading.Event()
    reader = threading.Thread(target=events, args=(server, game_id, got, stop), daemon=True)
    reader.start()
    _, first_id, first = got.get(timeout=10)  # the current state at once, on connecting
    assert first_id.endswith(f".{len(TC_SETUP)}") and "accuse 2 Butcher Theater Poison wrong" in first
    boot = first_id.split(".")[0]
    with httpx.Client(base_url=server.url, timeout=60) as other:
        for n, line in enumerate(["ask 4 Green 1", "ask 3 Pink 1", "undo"], len(TC_SETUP) + 1):
            sent = time.perf_counter()
            assert other.post(f"/g/{game_id}/line", data={"line": line}).status_code == 200
            arrived, event_id, data = got.get(timeout=5)
            assert event_id == f"{boot}.{n}"
            assert arrived - sent < 1.0
            history = re.findall(r'<span class="entry-text">(.*?)</span>', data)
            assert history[-1] == ("ask 4 Green 1" if line == "undo" else line)
        other.post(f"/g/{game_id}/line", data={"line": "ask 3 Pinl 1"})  # refused: nothing is pushed
        other.post(f"/g/{game_id}/line", data={"line": "why Theater"})  # a reply, not a change
    with pytest.raises(queue.Empty):
        got.get(timeout=1.5)
    stop.set()


# -- in the browser ---------------------------------------------------------------------------------------------------

@pytest.fixture
def two_phones(browser: Any) -> Any:
    # bypass_csp: see the phone fixture (Playwright's predicates are strings the page's CSP would refuse).
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True)
                for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    yield pages
    for context in contexts:
        context.close()


def send(page: Any, line: str) -> None:
    """Type ``line`` into the entry box and press Enter; wait for the answer."""
    page.evaluate("document.querySelector('#panel').dataset.old = '1'")
    page.fill("#line", line)
    page.click("#enter")
    page.wait_for_function("!document.querySelector('#panel').dataset.old", timeout=30_000)


def history(page: Any) -> list[str]:
    return page.eval_on_selector_all("#history .entry-text", "els => els.map(e => e.textContent)")


def open_game(page: Any, server: Server, game_id: str) -> None:
    page.goto(f"{server.url}/g/{game_id}")
    page.wait_for_function("document.getElementById('offline') && document.getElementById('offline').hidden")


def test_two_phones_each_see_their_own_replies_and_each_others_entries(two_phones: Any, servers: list[Server],
                                                                       tmp_path: Path) -> None:
    a, b = two_phones
    server = start_server(tmp_path)
    servers.append(server)
    game_id = new_game(server, TC_SETUP)
    open_game(a, server, game_id)
    open_game(b, server, game_id)
    polls: list[str] = []
    b.on("request", lambda request: polls.append(request.url))
    send(a, "ask 3 Pinl 1")
    assert a.locator("#error").inner_text() == "unknown suit or category 'Pinl' (did you mean 'Pink'?)"
    send(a, "why Theater")
    assert "accuse 2 Butcher Theater Poison wrong" in a.locator("#reply").inner_text()
    a.evaluate("document.querySelector('#panel').dataset.old = '1'")
    a.fill("#line", "ask 4 Green 1")
    a.click("#enter")
    a.wait_for_function("!document.querySelector('#panel').dataset.old")
    answered = time.perf_counter()
    b.wait_for_function("[...document.querySelectorAll('#history .entry-text')].some(e => e.textContent === "
                        "'ask 4 Green 1')", timeout=1000)
    lag = time.perf_counter() - answered
    assert lag < 1.0
    assert b.locator("#error").count() == 0 and b.locator("#reply").count() == 0
    assert "Pinl" not in b.content() and "Pinl" not in b.input_value("#line")
    b.wait_for_timeout(2500)  # nothing is polled: B asked for nothing while it waited
    assert polls == [], polls
    b.reload()
    assert b.locator("#error").count() == 0 and b.locator("#reply").count() == 0  # not after a reload either
    assert history(b)[-1] == "ask 4 Green 1"
    a.reload()
    assert history(a) == history(b)


def test_slow_work_shows_working_and_is_sent_once(phone: Any, servers: list[Server], tmp_path: Path) -> None:
    server = start_server(tmp_path)
    servers.append(server)
    game_id = new_game(server, TC_SETUP)
    open_game(phone, server, game_id)
    held: list[Any] = []
    phone.route("**/line", lambda route: held.append(route))
    phone.fill("#line", "ask 4 Green 1")
    phone.click("#enter")
    phone.wait_for_selector("#working", state="visible", timeout=3000)
    phone.click("#enter", force=True)  # tapped again while the first is under way (marked disabled)
    phone.click("[data-line='advise']", force=True)
    phone.press("#line", "Enter")
    phone.wait_for_timeout(300)
    assert len(held) == 1
    held[0].continue_()
    phone.wait_for_selector("#working", state="hidden", timeout=10_000)
    assert history(phone)[-1] == "ask 4 Green 1"
    assert [line for _, line in read_lines(tmp_path / f"{game_id}.journal")][-1] == "ask 4 Green 1"
    assert len([line for _, line in read_lines(tmp_path / f"{game_id}.journal")]) == len(TC_SETUP) + 1


def test_a_line_the_server_never_got_is_shown_as_not_sent(phone: Any, servers: list[Server], tmp_path: Path) -> None:
    server = start_server(tmp_path)
    servers.append(server)
    game_id = new_game(server, TC_SETUP)
    open_game(phone, server, game_id)
    phone.route("**/line", lambda route: route.abort())
    phone.fill("#line", "ask 4 Green 1")
    phone.click("#enter")
    phone.wait_for_selector("#unsent", state="visible", timeout=5000)
    assert phone.locator("#unsent").inner_text() == ("Not sent: 'ask 4 Green 1' (the server did not answer). It is "
                                                     "still in the box: Enter sends it again.")
    assert phone.input_value("#line") == "ask 4 Green 1"
    phone.unroute("**/line")
    send(phone, phone.input_value("#line"))
    assert phone.locator("#unsent").is_hidden()
    assert history(phone)[-1] == "ask 4 Green 1"


def test_a_killed_server_is_shown_and_the_page_reconnects_losing_nothing(two_phones: Any, servers: list[Server],
                                                                         tmp_path: Path) -> None:
    a, b = two_phones
    first = start_server(tmp_path)
    servers.append(first)
    port = int(first.url.rsplit(":", 1)[1])
    game_id = new_game(first, TC_SETUP)
    open_game(a, first, game_id)
    open_game(b, first, game_id)
    send(a, "ask 4 Green 1")
    first.kill()
    for page in (a, b):
        page.wait_for_selector("#offline", state="visible", timeout=5000)
    second = start_server(tmp_path, port)
    servers.append(second)
    for page in (a, b):
        page.wait_for_selector("#offline", state="hidden", timeout=10_000)
    send(a, "ask 3 Pink 1")
    b.wait_for_function("[...document.querySelectorAll('#history .entry-text')].some(e => e.textContent === "
                        "'ask 3 Pink 1')", timeout=1000)
    expected = [*TC_SETUP, "ask 4 Green 1", "ask 3 Pink 1"]
    assert history(b) == expected
    assert [line for _, line in read_lines(tmp_path / f"{game_id}.journal")] == expected
