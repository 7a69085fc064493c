"""A Board Game Arena deal waiting for its seat order survives a server restart (issue 19 §6): the server keeps
it beside the journal (``.ID.journal.setup``, written atomically) and a new server reads it back, so the page
still asks for the seat order and finishes the import; a hostile or broken kept file is ignored."""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx2 as httpx
from starlette.testclient import TestClient

from assistant_cli.web.app import GameStore, create_app
from models import GAMES
from models.thirteen_clues.bga import parse_deal
from solver.session import Journal
from tests.assistant_cli.web.conftest import Server, start_server
from tests.models.thirteen_clues.test_bga import ORDER, SETUP, wrapped

QUESTION = "Seat order of the BGA deal: the player ids clockwise from seat 1 (2345 1111 3456 4567)"


def error_of(page: str) -> str | None:
    found = re.search(r'id="error"[^>]*>([^<]*)<', page)
    return found.group(1) if found else None


def test_a_waiting_deal_survives_a_killed_server_and_the_seat_order_finishes_it(
        tmp_path: Path, servers: list[Server]) -> None:
    games = tmp_path / "games"
    servers.append(start_server(games))
    with httpx.Client(base_url=servers[0].url, timeout=30) as http:
        game_id = http.post("/new", data={"game": "thirteen-clues"}).headers["location"].rsplit("/", 1)[1]
        waiting = http.post(f"/g/{game_id}/import", data={"deal": wrapped(), "seats": ""}).text
        assert QUESTION in waiting and error_of(waiting) is None
        assert parse_deal((games / f".{game_id}.journal.setup").read_text()) == parse_deal(wrapped())
        (games / ".table-7.journal.setup").write_text("stale")  # left by an old game of that name: it goes
        assert http.post(f"/g/{game_id}/rename", data={"name": "table-7"}).status_code == 303
    game_id = "table-7"  # renamed: the kept deal moved with the journal
    kept = games / f".{game_id}.journal.setup"
    assert parse_deal(kept.read_text()) == parse_deal(wrapped())  # the same deal, ids in their order
    assert (games / f"{game_id}.journal").read_text().splitlines()[1:] == []  # nothing entered yet
    assert sorted(p.name for p in games.iterdir() if p.name.endswith(".setup")) == [".table-7.journal.setup"]
    servers[0].kill()  # SIGKILL: no clean shutdown

    servers.append(start_server(games))
    with httpx.Client(base_url=servers[1].url, timeout=30) as http:
        page = http.get(f"/g/{game_id}").text
        assert QUESTION in page  # the new server asks for the seat order again
        assert re.search(r'data-entry-box[^>]*\s+value="seats "', page)  # the box starts the answer
        offered = re.findall(r'data-fill="(seats [^"]*)"', page)
        assert offered == [f"seats {i} " for i in ("2345", "1111", "3456", "4567")]  # the ids, in the deal's order
        done = http.post(f"/g/{game_id}/line", data={"line": f"seats {ORDER}"}).text
        assert error_of(done) is None
        assert 'data-card="Duke"' in done and 'data-key="grid.Nurse.mystery"' in done
    assert (games / f"{game_id}.journal").read_text().splitlines()[1:] == SETUP
    assert not kept.exists()  # finished: nothing waits any more
    assert [p.name for p in games.iterdir() if p.name.endswith(".tmp")] == []


def test_a_hostile_or_broken_kept_deal_is_ignored_and_the_setup_starts_afresh(tmp_path: Path) -> None:
    """A kept file that is a link, a FIFO, a directory, too big, bad UTF-8 or no deal: the game opens with the
    first setup question and the paste box, no error; pasting a deal then works (a directory cannot be
    replaced, so that deal waits unkept and the page says so in one line)."""
    spec = GAMES["thirteen-clues"]
    outside = tmp_path / "outside.json"
    outside.write_text(wrapped())
    hostile = {
        "link": lambda p: p.symlink_to(outside),
        "fifo": lambda p: os.mkfifo(p),
        "big": lambda p: p.write_text(" " * 100_001),
        "utf8": lambda p: p.write_bytes(b"\xff" + wrapped().encode()),
        "garbage": lambda p: p.write_text('{"visible_cards_players": {"1": [{"name": "Knif"}]}}'),
        "folder": lambda p: p.mkdir(),
    }
    folder = tmp_path / "games"
    folder.mkdir()
    for name, make in hostile.items():
        Journal.create(folder / f"{name}.journal", spec.header)
        make(GameStore.pending_path(folder / f"{name}.journal"))
    client = TestClient(create_app(folder), base_url="http://127.0.0.1")
    for name in hostile:
        page = client.get(f"/g/{name}").text
        assert "Number of players (2-6)" in page and QUESTION not in page, name
        assert "visible_cards_players" in page and error_of(page) is None, name
    waiting = client.post("/g/garbage/import", data={"deal": wrapped(), "seats": ""}).text
    assert QUESTION in waiting and error_of(waiting) is None
    assert parse_deal((folder / ".garbage.journal.setup").read_text()) == parse_deal(wrapped())
    unkept = client.post("/g/folder/import", data={"deal": wrapped(), "seats": ""}).text
    assert QUESTION in unkept
    assert "the waiting deal is not kept for a restart of the server (Is a directory)" in unkept
    linked = client.post("/g/link/import", data={"deal": wrapped(), "seats": ""}).text
    assert QUESTION in linked and error_of(linked) is None
    kept = GameStore.pending_path(folder / "link.journal")
    assert not kept.is_symlink() and parse_deal(kept.read_text()) == parse_deal(wrapped())  # the link replaced
    assert outside.read_text() == wrapped() and outside.stat().st_nlink == 1  # its target never written
    assert client.post("/g/garbage/delete", follow_redirects=False).status_code == 303
    assert not os.path.lexists(folder / ".garbage.journal.setup")  # deleting the game deletes its kept deal
