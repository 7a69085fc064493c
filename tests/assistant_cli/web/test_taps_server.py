"""The page's taps through Starlette's test client: choices in the panel after every entry, a tapped object's
entries, drop asking to confirm, what changed, contradictions linking to their entries, the saved games' list
with rename and delete, the manifest and icons."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from assistant_cli.web.app import create_app
from assistant_cli.web.choices import link_entries
from models import GAMES
from solver.session import Journal
from tests.solver.choices_helpers import example_lines


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), base_url="http://127.0.0.1")  # a name the server serves


def new_game(client: TestClient, game: str) -> str:
    response = client.post("/new", data={"game": game}, follow_redirects=False)
    return response.headers["location"].rsplit("/", 1)[1]


def fills(html: str) -> list[str]:
    """The lines the choice buttons fill in (above the history)."""
    found = re.findall(r'class="choice[^"]*" data-fill="([^"]*)"', html.split('id="live"')[0])
    return [f.replace("&#39;", "'") for f in found]


def test_the_panel_offers_the_next_choices_after_every_entry(client: TestClient) -> None:
    game_id = new_game(client, "beyond-baker-street")
    page = client.get(f"/g/{game_id}").text
    assert "data-entry-box" in page and fills(page) == ["players 2", "players 3", "players 4"]
    lines = example_lines("beyond-baker-street-3p.txt")
    for line in lines[:9]:
        page = client.post(f"/g/{game_id}/line", data={"line": line}).text
    # Play has begun: the buttons are there without another tap, and only for player 1, whose turn it is.
    assert fills(page)[:4] == ["assist 1 ", "investigate 1 ", "eliminate 1 ", "pursue 1 "]
    choices = client.get(f"/g/{game_id}/compose", params={"line": "eliminate 1 "}).text
    assert fills(choices) == ["eliminate 1 1 5C", "eliminate 1 2 1W", "eliminate 1 3 3C", "eliminate 1 4 3D"]
    assert choices.count("data-ends") == 4  # each one ends the entry: a tap sends it
    page = client.post(f"/g/{game_id}/line", data={"line": "eliminate 1 1 5C"}).text
    assert re.search(r'id="changed"[^>]*>recorded &#39;eliminate 1 1 5C&#39;', page)
    assert fills(page)[0] == "draw 1 "


def test_a_tapped_object_starts_the_entries_it_takes_part_in(client: TestClient) -> None:
    game_id = new_game(client, "beyond-baker-street")
    for line in example_lines("beyond-baker-street-3p.txt")[:9]:
        client.post(f"/g/{game_id}/line", data={"line": line})
    card = client.get(f"/g/{game_id}/starts", params={"object": "3D"}).text
    assert fills(card) == ["investigate 1 4 3D ", "eliminate 1 4 3D"]  # player 1's card at position 4
    seat = client.get(f"/g/{game_id}/starts", params={"object": "1"}).text
    assert fills(seat) == ["assist 1 ", "investigate 1 ", "eliminate 1 ", "pursue 1 "]
    assert fills(client.get(f"/g/{game_id}/starts", params={"object": "9Z"}).text) == []


def test_drop_asks_to_confirm_and_edit_offers_the_entries_choices(client: TestClient) -> None:
    game_id = new_game(client, "time-bomb")
    for line in example_lines("time-bomb-5p.txt")[:7]:
        page = client.post(f"/g/{game_id}/line", data={"line": line}).text
    assert 'data-fill="drop 7"' in page and 'data-fill="edit 7 "' in page  # a tap fills the box, never acts
    confirm = client.get(f"/g/{game_id}/compose", params={"line": "drop 7"}).text
    assert fills(confirm) == ["drop 7"] and "7: claim 2 0" in confirm and "data-ends" in confirm
    edit = client.get(f"/g/{game_id}/compose", params={"line": "edit 7 claim 2 "}).text
    assert fills(edit) == [f"edit 7 claim 2 {k}" for k in range(6)]


def test_a_contradiction_links_to_the_entry_it_names(client: TestClient) -> None:
    game_id = new_game(client, "thirteen-clues")
    for line in example_lines("thirteen-clues-4p.txt")[:7]:
        client.post(f"/g/{game_id}/line", data={"line": line})
    page = client.post(f"/g/{game_id}/line", data={"line": "ask 4 Green 2"}).text
    error = re.search(r'id="error"[^>]*>(.*?)</p>', page, re.S)
    assert error is not None and '<a href="#entry-7" class="entry-link" data-entry="7">7</a>' in error.group(1)
    assert 'id="entry-7"' in page


def test_link_entries_links_every_number_it_names() -> None:
    assert link_entries("contradicts entries 2 and 5 'x'") == (
        "contradicts entries <a href=\"#entry-2\" class=\"entry-link\" data-entry=\"2\">2</a> and "
        "<a href=\"#entry-5\" class=\"entry-link\" data-entry=\"5\">5</a> &#39;x&#39;")
    assert link_entries("<b>entry</b>") == "&lt;b&gt;entry&lt;/b&gt;"


def test_saved_games_show_players_seat_entries_status_and_can_be_renamed_and_deleted(client: TestClient,
                                                                                  tmp_path: Path) -> None:
    Journal(tmp_path / "friday.journal", GAMES["time-bomb"].header).save(example_lines("time-bomb-5p.txt"))
    page = client.get("/").text
    item = page.split('data-saved="friday"')[1].split("</li>")[0]
    facts = dict(re.findall(r'data-field="(\w+)">([^<]*)<', item))
    assert facts["players"] == "5 players" and facts["seat"] == "your seat 2" and facts["entries"] == "52 entries"
    assert facts["status"] == "in progress"  # not open in this server yet: finished is known once it is
    client.get("/g/friday")
    facts = dict(re.findall(r'data-field="(\w+)">([^<]*)<', client.get("/").text))
    assert facts["status"] == "finished"  # the example's game is over
    assert client.post("/g/friday/rename", data={"name": "../x"}).status_code == 400
    assert client.post("/g/friday/rename", data={"name": "table-2"}, follow_redirects=False).status_code == 303
    assert (tmp_path / "table-2.journal").is_file() and not (tmp_path / "friday.journal").exists()
    assert "cut 5 yellow" in client.get("/g/table-2").text
    ask = client.get("/g/table-2/delete")
    assert ask.status_code == 200 and "Delete table-2?" in ask.text and (tmp_path / "table-2.journal").is_file()
    assert client.post("/g/table-2/delete", follow_redirects=False).status_code == 303
    assert not (tmp_path / "table-2.journal").exists()
    assert client.get("/g/table-2").status_code == 404


def test_manifest_and_icons_are_served(client: TestClient) -> None:
    manifest = client.get("/static/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and [i["sizes"] for i in manifest["icons"]] == ["192x192", "512x512"]
    for size in (192, 512):
        png = client.get(f"/static/icon-{size}.png").content
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == size
    assert 'rel="manifest"' in client.get("/").text
