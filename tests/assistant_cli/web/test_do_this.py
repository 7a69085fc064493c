"""An advice row's move is one tap, and drawn objects start their entries (issue 19 §2): the "do this" button
the page draws for a cell's ``do`` line (the terminal ignores it), the entries a drawn seat or card starts
through the test client, and both taps in Debian's Chromium filling the entry box."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape
from rich.console import Console
from starlette.testclient import TestClient

from assistant_cli import terminal
from assistant_cli.web import html
from assistant_cli.web.app import create_app
from solver import view as v
from tests.assistant_cli.web.conftest import Server, start_server
from tests.solver.choices_helpers import example_lines


def advice_table() -> v.Table:
    table = v.Table(title="Cuts")
    table.add_column("Cut")
    table.add_column("Why")
    table.add_row(v.Cell("player 3", do="cut 3 "), "the safest")
    table.add_row("player 4", "no move line")
    return table


def test_the_page_draws_a_do_line_as_a_do_this_button_and_the_terminal_ignores_it() -> None:
    page = str(html.render(advice_table()))
    assert re.findall(r'<button type="button" class="do" data-do="([^"]*)"[^>]*>do this</button>', page) == ["cut 3 "]
    escaped = str(html.render(_one_row(v.Cell("x", do='ask 1 "><script> '))))
    assert 'data-do="ask 1 &#34;&gt;&lt;script&gt; "' in escaped and "<script>" not in escaped
    console = Console(width=80, record=True, color_system=None)
    console.print(terminal.to_rich(advice_table()))
    out = console.export_text()
    assert "player 3" in out and "do this" not in out and "cut 3" not in out


def _one_row(cell: v.Cell) -> v.Table:
    table = v.Table()
    table.add_column("Action")
    table.add_row(cell)
    return table


# -- the test client: a drawn seat or card starts its entries --------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), base_url="http://127.0.0.1")


def entered(client: TestClient, game: str, example: str, n: int) -> tuple[str, str]:
    """A new game with the first ``n`` entries of ``example``: its id and the page after them."""
    response = client.post("/new", data={"game": game}, follow_redirects=False)
    game_id = response.headers["location"].rsplit("/", 1)[1]
    page = ""
    for line in example_lines(example)[:n]:
        page = client.post(f"/g/{game_id}/line", data={"line": line}).text
    return game_id, page


def fills(html_text: str) -> list[str]:
    return re.findall(r'data-fill="([^"]*)"', html_text)


OFF_TURN = [
    # game, example, entries entered, the entry buttons offered, the advice's first line, its "do this" lines
    ("beyond-baker-street", "beyond-baker-street-3p.txt", 12,
     ["assist 3 ", "investigate 3 ", "eliminate 3 ", "pursue 3 ", "show", "why ", "empathy ", "history"],
     "(it is player 3's turn, not yours; this is what you would do now: your move on the table as it is, before "
     "player 3 moves)", []),
    ("evidence", "evidence-4p.txt", 20, ["play 4 ", "search 3 ", "timeout 3 ", "show", "why ", "history"],
     "(it is player 4's turn, not yours; this is what you would do now: you move now, then play goes on from "
     "player 4; whoever has no rumour left at their turn plays none)", []),
    ("time-bomb", "time-bomb-5p.txt", 5,
     ["cut 2 ", "cut 3 ", "cut 4 ", "cut 5 ", "claim 1 ", "claim 2 ", "claim 3 ", "claim 4 ", "claim 5 ", "show",
      "why ", "history", "holdings ", "claims", "bluff "],
     "(it is player 1's turn, not yours; this is what you would do now: player 1's cuts, ranked for a Sherlock "
     "cutter with what you know, with the explosion risk if they avoid one and if they seek one)",
     ["cut 3 ", "cut 4 ", "cut 5 ", "cut 2 ", "claim 2 0"]),
    ("thirteen-clues", "thirteen-clues-short.txt", 8,
     ["ask 1 ", "ask 2 ", "ask 3 ", "ask 4 ", "informant A ", "informant B ", "informant C ", "informant D ",
      "accuse ", "show", "why ", "locations", "whatif ", "history"],
     "(the entries do not say whose turn it is; this is what you would do now, on your turn)",
     ["informant B ", "informant C ", "informant D ", "ask 3 Yellow ", "ask 4 Yellow ", "ask 3 Blue ", "ask 4 Blue ",
      "ask 2 Yellow "]),
]


@pytest.mark.parametrize(("game", "example", "n", "offered", "first", "do"), OFF_TURN, ids=[c[0] for c in OFF_TURN])
def test_on_another_players_turn_the_page_offers_advise_and_it_answers(
        client: TestClient, game: str, example: str, n: int, offered: list[str], first: str, do: list[str]) -> None:
    """Another player's turn (Thirteen Clues has none): the action row's advise button is there, the entry
    buttons are exactly the entries of the seat to move, and advise answers with the one-voice off-turn line.
    Its rows carry "do this" where the move is an entry now (Time Bomb: the cutter's cut; Thirteen Clues: any
    ask); my own Beyond Baker Street or Evidence move is no entry until my turn, so it has none."""
    game_id, page = entered(client, game, example, n)
    assert re.findall(r'class="cmd" data-line="([^"]*)"', page) == ["advise", "undo", "help"]
    choices = re.search(r'<div id="choices".*?</div>', page, re.S)
    assert choices is not None and fills(choices.group(0)) == offered
    answer = client.post(f"/g/{game_id}/line", data={"line": "advise"}).text
    assert re.search(r'id="error"', answer) is None
    assert escape(first) in answer
    assert re.findall(r'data-do="([^"]*)"', answer) == do


def test_advice_on_another_cutters_turn_offers_the_cut_and_then_exactly_the_cards_it_can_be(
        client: TestClient, tmp_path: Path) -> None:
    """Time Bomb, entry 5 of the example: player 1 cuts, I am player 2. The advice ranks player 1's cuts, each
    with "do this" (the cut is the table's entry whoever makes it), besides my claim; the box's next buttons
    after a tap are exactly the cards that cable can be (my own cables for my hand)."""
    game_id, _ = entered(client, "time-bomb", "time-bomb-5p.txt", 5)
    page = client.post(f"/g/{game_id}/line", data={"line": "advise"}).text
    assert "(it is player 1&#39;s turn, not yours; this is what you would do now: player 1&#39;s cuts" in page
    assert re.findall(r'data-do="([^"]*)"', page) == ["cut 3 ", "cut 4 ", "cut 5 ", "cut 2 ", "claim 2 0"]
    compose = f"/g/{game_id}/compose"
    assert fills(client.get(compose, params={"line": "cut 3 "}).text) == [
        "cut 3 defuse", "cut 3 pink", "cut 3 red", "cut 3 blue", "cut 3 green", "cut 3 yellow"]
    assert fills(client.get(compose, params={"line": "cut 2 "}).text) == [
        "cut 2 pink", "cut 2 red", "cut 2 blue", "cut 2 green"]
    client.post(f"/g/{game_id}/line", data={"line": "cut 3 defuse"})
    assert (tmp_path / f"{game_id}.journal").read_text().splitlines()[-1] == "cut 3 defuse"


def test_a_drawn_player_starts_the_cut_and_a_drawn_card_its_plays(client: TestClient) -> None:
    game_id, page = entered(client, "time-bomb", "time-bomb-5p.txt", 37)  # my cut (player 2) is next
    assert re.findall(r'class="player[^"]*" data-seat="(\d)"', page) == ["1", "2", "3", "4", "5"]
    assert fills(client.get(f"/g/{game_id}/starts", params={"object": "3", "kind": "seat"}).text) == ["cut 3 "]
    assert 'data-do="cut 3 "' in client.post(f"/g/{game_id}/line", data={"line": "advise"}).text

    game_id, page = entered(client, "beyond-baker-street", "beyond-baker-street-3p.txt", 9)  # player 1 to move
    hand = re.search(r'<section class="hand" data-seat="1">(.*?)</section>', page, re.S)
    assert hand is not None
    assert re.findall(r'data-card="([^"]*)"', hand.group(1)) == ["5C", "1W", "3C", "3D"]  # each card's code
    card = client.get(f"/g/{game_id}/starts", params={"object": "3D"}).text
    assert fills(card) == ["investigate 1 4 3D ", "eliminate 1 4 3D"]
    # Player 3's hand tapped (a seat): the Assists to them, not player 1's card at position 3.
    seat = client.get(f"/g/{game_id}/starts", params={"object": "3", "kind": "seat"}).text
    assert fills(seat) == ["assist 1 3 "]
    as_word = client.get(f"/g/{game_id}/starts", params={"object": "3"}).text  # any word 3: positions too
    assert fills(as_word) == ["assist 1 3 ", "investigate 1 3 3C ", "eliminate 1 3 3C"]


# -- in Chromium: tap "do this", tap a drawn card ---------------------------------------------------------------
@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    started = start_server(tmp_path / "games")
    yield started
    started.stop()


def open_with(page: Any, server: Server, game: str, example: str, n: int) -> None:
    """A new game in the page, its first ``n`` example entries sent by the page's own session, then shown."""
    page.goto(server.url + "/")
    page.click(f'button[data-game="{game}"]')
    page.wait_for_selector("#panel [data-entry-box]")
    game_id = page.locator("#panel").get_attribute("data-game-id")
    for line in example_lines(example)[:n]:
        assert page.request.post(f"{server.url}/g/{game_id}/line", form={"line": line}).ok
    page.reload()
    page.wait_for_selector("#panel [data-entry-box]")


def box_text(page: Any, expected: str) -> str:
    page.wait_for_function("(want) => document.querySelector('[data-entry-box]').value === want", arg=expected,
                           timeout=30_000)
    return page.locator("[data-entry-box]").input_value()


def test_do_this_and_a_drawn_card_fill_the_entry_box(phone: Any, server: Server) -> None:
    open_with(phone, server, "time-bomb", "time-bomb-5p.txt", 37)
    phone.click('button.cmd[data-line="advise"]')
    do = phone.locator("button.do").first
    do.wait_for(timeout=60_000)
    assert do.get_attribute("data-do") == "cut 3 "
    assert do.bounding_box()["height"] >= 44
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # the buttons fit the phone's width
    do.click()
    assert box_text(phone, "cut 3 ") == "cut 3 "
    phone.wait_for_selector('#choices button.choice[data-fill="cut 3 green"]')  # the rest: the card cut

    open_with(phone, server, "beyond-baker-street", "beyond-baker-street-3p.txt", 9)
    phone.click('section.hand[data-seat="1"] [data-card="3D"]')
    choice = phone.locator('#choices button.choice[data-fill="investigate 1 4 3D "]')
    choice.wait_for(timeout=30_000)
    choice.click()
    assert box_text(phone, "investigate 1 4 3D ") == "investigate 1 4 3D "
    phone.click('section.hand[data-seat="3"] h3')  # player 3's hand, not a card: the seat
    phone.wait_for_function("() => [...document.querySelectorAll('#choices button.choice')].map(b => b.dataset.fill)"
                            ".join('|') === 'assist 1 3 '", timeout=30_000)


def test_do_this_for_an_advised_cover_and_claim_is_sent_and_accepted(phone: Any, server: Server) -> None:
    """Time Bomb, seed 17, me player 2 after a numbered bomb (entry 15): the advised cover and the claim
    carry their whole lines; a tap on "do this" fills the box and Enter records the cover."""
    from models import GAMES

    teacher = GAMES.get("time-bomb").new_teacher()
    lines = list(teacher.transcript(17, teacher.default_players).lines)
    phone.goto(server.url + "/")
    phone.click('button[data-game="time-bomb"]')
    phone.wait_for_selector("#panel [data-entry-box]")
    game_id = phone.locator("#panel").get_attribute("data-game-id")
    assert lines[14:16] == ["cut 3 yellow", "cover yellow"]  # my cut of player 3's yellow: my cover next
    for line in lines[:15]:
        assert phone.request.post(f"{server.url}/g/{game_id}/line", form={"line": line}).ok
    phone.reload()
    phone.click('button.cmd[data-line="advise"]')
    phone.locator("button.do").first.wait_for(timeout=30_000)
    buttons = phone.locator("button.do").all()
    assert [b.get_attribute("data-do") for b in buttons] == ["cover yellow", "claim 2 1"]
    assert all(b.bounding_box()["height"] >= 44 for b in buttons)  # in a line of phrases, as tall as in a row
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.click('button.do[data-do="cover yellow"]')
    assert box_text(phone, "cover yellow") == "cover yellow"
    phone.press("[data-entry-box]", "Enter")
    phone.wait_for_selector('#history li[data-n="16"] .entry-text', timeout=30_000)
    assert phone.locator('#history li[data-n="16"] .entry-text').inner_text() == "cover yellow"
