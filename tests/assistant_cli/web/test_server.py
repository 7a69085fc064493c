"""The web companion's server, through Starlette's test client: games, journals, errors, locking and safety."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from assistant_cli.web.app import MAX_BODY, create_app
from models import GAMES
from solver.session import Journal, read_lines

ROOT = Path(__file__).resolve().parents[3]
LOCAL = "http://127.0.0.1"  # the test client's address: a host name the server serves
EXAMPLES = {
    "thirteen-clues": ROOT / "examples" / "thirteen-clues-4p.txt",
    "beyond-baker-street": ROOT / "examples" / "beyond-baker-street-3p.txt",
    "evidence": ROOT / "examples" / "evidence-4p.txt",
    "time-bomb": ROOT / "examples" / "time-bomb-5p.txt",
}
TC_SETUP = ["players 4", "me 1", "private Duke Sword", "screen 2 Maid Parlor Gun", "screen 3 Dancer Park Crossbow",
            "screen 4 Sailor Market Knife"]


def error_of(html: str) -> str | None:
    found = re.search(r'id="error"[^>]*>([^<]*)<', html)
    return found.group(1).replace("&#39;", "'").replace("&amp;", "&") if found else None


def new_game(client: TestClient, game: str) -> str:
    response = client.post("/new", data={"game": game}, follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def enter(client: TestClient, game_id: str, line: str) -> str:
    response = client.post(f"/g/{game_id}/line", data={"line": line})
    assert response.status_code == 200, response.text
    return response.text


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), base_url=LOCAL)


def test_home_offers_the_four_games_and_lists_saved_journals(client: TestClient, tmp_path: Path) -> None:
    Journal(tmp_path / "old-game.journal", GAMES["evidence"].header).save(["players 4", "me 1"])
    (tmp_path / "notes.journal").write_text("not a journal of ours\n")
    page = client.get("/").text
    for spec in GAMES:
        assert f'data-game="{spec.name}"' in page
    assert 'data-game-id="old-game"' in page
    assert ('<span data-field="players">4 players</span> · <span data-field="seat">your seat 1</span> · '
            '<span data-field="entries">2 entries</span> · <span data-field="status">in progress</span>') in page
    assert "notes" not in page


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_an_example_entered_on_the_page_writes_the_terminal_journal(client: TestClient, tmp_path: Path,
                                                                    game: str) -> None:
    game_id = new_game(client, game)
    lines = [line for _, line in read_lines(EXAMPLES[game])]
    for line in lines:
        assert error_of(enter(client, game_id, line)) is None, line
    journal = tmp_path / f"{game_id}.journal"
    spec = GAMES[game]
    # The same lines through a terminal session give the same journal, byte for byte.
    reference = spec.new_session()
    reference.replay(lines)
    expected = tmp_path / "reference.journal"
    Journal(expected, spec.header).save(reference.lines)
    assert journal.read_bytes() == expected.read_bytes()
    assert Journal.is_journal(journal, spec.header)


def test_a_bad_entry_shows_the_terminal_message_and_changes_nothing(client: TestClient, tmp_path: Path) -> None:
    game_id = new_game(client, "thirteen-clues")
    for line in TC_SETUP:
        enter(client, game_id, line)
    journal = tmp_path / f"{game_id}.journal"
    before = journal.read_bytes()
    page = enter(client, game_id, "ask 3 Pinl 1")
    assert error_of(page) == "unknown suit or category 'Pinl' (did you mean 'Pink'?)"
    assert 'value="ask 3 Pinl 1"' in page  # kept in the box to fix
    assert journal.read_bytes() == before


def test_why_and_advise_replies_are_shown(client: TestClient) -> None:
    game_id = new_game(client, "thirteen-clues")
    for line in [*TC_SETUP, "accuse 2 Butcher Theater Poison wrong"]:
        enter(client, game_id, line)
    page = enter(client, game_id, "why Theater")
    assert 'id="reply"' in page and "accuse 2 Butcher Theater Poison wrong" in page


def test_the_panel_answers_204_until_another_phone_enters_something(client: TestClient) -> None:
    game_id = new_game(client, "thirteen-clues")
    enter(client, game_id, "players 4")
    version = re.search(r'data-version="([\w-]+\.1)"', client.get(f"/g/{game_id}").text).group(1)
    assert client.get(f"/g/{game_id}/panel", params={"v": version}).status_code == 204
    other = TestClient(client.app, base_url=LOCAL)  # a second phone
    enter(other, game_id, "me 1")
    response = client.get(f"/g/{game_id}/panel", params={"v": version})
    assert response.status_code == 200 and "me 1" in response.text


def test_concurrent_entries_are_serialised(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    client = TestClient(app, base_url=LOCAL)
    game_id = new_game(client, "thirteen-clues")
    for line in TC_SETUP:
        enter(client, game_id, line)
    extra = ["ask 4 Green 1", "ask 3 Pink 1", "informant A Plaza", "ask 4 Location 4"]

    async def send_all() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL) as ac:
            await asyncio.gather(*(ac.post(f"/g/{game_id}/line", data={"line": line}) for line in extra))

    # In a thread of its own: another test (Playwright's sync API) may have left an event loop in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, send_all()).result()
    written = [line for _, line in read_lines(tmp_path / f"{game_id}.journal")]
    assert written[:6] == TC_SETUP and sorted(written[6:]) == sorted(extra)
    reference = GAMES["thirteen-clues"].new_session()
    reference.replay(written)
    assert reference.summary() == app_session(app, game_id).summary()


def app_session(app: Starlette, game_id: str) -> Any:
    """The open session of ``game_id`` in ``app``."""
    return app.state.store.open[game_id].session


def test_a_game_resumes_from_a_terminal_journal(client: TestClient, tmp_path: Path) -> None:
    spec = GAMES["thirteen-clues"]
    terminal = spec.new_session()
    terminal.journal = Journal(tmp_path / "from-terminal.journal", spec.header)
    for line in TC_SETUP:
        terminal.handle(line, show=False)
    page = client.get("/g/from-terminal").text
    assert "screen 4 Sailor Market Knife" in page and "Consistent worlds" in page
    enter(client, game_id="from-terminal", line="ask 4 Green 1")
    assert read_lines(tmp_path / "from-terminal.journal")[-1][1] == "ask 4 Green 1"


@pytest.mark.parametrize("bad", ["..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "nope", ".hidden", "a b"])
def test_game_ids_never_reach_the_file_system_unchecked(client: TestClient, bad: str) -> None:
    assert client.get(f"/g/{bad}").status_code == 404
    assert client.post(f"/g/{bad}/line", data={"line": "players 4"}).status_code == 404


def test_unknown_game_and_oversized_requests_are_refused(client: TestClient, tmp_path: Path) -> None:
    assert client.post("/new", data={"game": "chess"}).status_code == 400
    game_id = new_game(client, "thirteen-clues")
    response = client.post(f"/g/{game_id}/line", content=b"line=" + b"x" * (MAX_BODY + 1),
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413
    page = enter(client, game_id, "players " + "4" * 600)
    assert error_of(page) == "line of 608 characters: expected at most 500"


def test_lan_token_gate(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path, token="s3cret"), base_url=LOCAL)
    assert client.get("/").status_code == 403
    assert client.get("/?token=wrong").status_code == 403
    assert client.post("/new", data={"game": "evidence"}).status_code == 403
    response = client.get("/?token=s3cret", follow_redirects=False)
    assert response.status_code == 303 and "s3cret" not in response.headers["location"]
    assert client.get("/").status_code == 200  # the cookie now carries the token


def test_compose_offers_the_sessions_completions(client: TestClient) -> None:
    game_id = new_game(client, "thirteen-clues")
    page = client.get(f"/g/{game_id}").text
    assert "Number of players" in page
    for line in TC_SETUP[:2]:
        enter(client, game_id, line)
    choices = client.get(f"/g/{game_id}/compose", params={"line": "private Du"}).text
    assert 'data-fill="private Duke "' in choices
