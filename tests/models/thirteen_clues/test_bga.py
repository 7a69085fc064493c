"""Importing a Board Game Arena deal (issue 19 §6): the ``visible_cards_players`` JSON becomes the setup lines a
player would type, journalled; the seat order is asked when the ids are not the seats; a bad card, count or shape
is one line naming it and changes nothing; the same through ``--bga-deal FILE`` and the page's paste box."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from assistant_cli.main import app
from assistant_cli.web.app import create_app
from models.thirteen_clues.bga import BgaDealError, parse_deal
from models.thirteen_clues.session import ThirteenCluesSession
from solver import view as v
from solver.errors import AssistantError

SETUP = ["players 4", "me 1", "private Duke Sword", "screen 2 Maid Parlor Gun", "screen 3 Dancer Park Crossbow",
         "screen 4 Sailor Market Knife"]
#: BGA ids in the order the JSON lists them; mine (two cards) is 1111; the screens' cards in any order.
DEAL = {"2345": [{"name": "Maid"}, {"name": "Parlor"}, {"name": "Gun"}], "1111": [{"name": "Duke"}, {"name": "Sword"}],
        "3456": [{"name": "Crossbow"}, {"name": "Park"}, {"name": "Dancer"}],
        "4567": [{"name": "Sailor"}, {"name": "market"}, {"name": "Knife"}]}
ORDER = "1111 2345 3456 4567"


def wrapped(deal: object = DEAL) -> str:
    return json.dumps({"visible_cards_players": deal})


def test_a_deal_waits_for_its_seat_order_then_becomes_the_setup_lines() -> None:
    session = ThirteenCluesSession()
    reply = session.import_setup(wrapped())
    assert session.lines == [] and session.knowledge is None
    assert reply.renderables == [v.Text("BGA deal read: you hold Duke and Sword; Seat order of the BGA deal: the "
                                        "player ids clockwise from seat 1 (2345 1111 3456 4567):", "accent")]
    question = session.setup_question()
    assert question is not None and question.prefix == "seats"
    assert session.completions("seats 2345 ") == ["1111", "3456", "4567"]
    with pytest.raises(AssistantError, match=r"^seats '2345 1111': expected each of the ids 2345, 1111, 3456, 4567 "
                                             r"once, clockwise from seat 1$"):
        session.handle("seats 2345 1111")
    session.handle(f"seats {ORDER}")
    assert session.lines == SETUP
    assert session.knowledge is not None and len(session.knowledge.unseen) == 13
    assert session.setup_question() is None


def test_seat_order_given_or_read_from_the_ids() -> None:
    given = ThirteenCluesSession()
    given.import_setup(json.dumps(DEAL), "3456, 4567, 1111, 2345")  # I sit third: seats rotate
    assert given.lines == ["players 4", "me 3", "private Duke Sword", "screen 1 Dancer Park Crossbow",
                           "screen 2 Sailor Market Knife", "screen 4 Maid Parlor Gun"]
    seated = {"2": DEAL["2345"], "1": DEAL["1111"], "3": DEAL["3456"], "4": DEAL["4567"]}
    by_ids = ThirteenCluesSession()
    by_ids.import_setup(wrapped(seated))
    assert by_ids.lines == SETUP


@pytest.mark.parametrize(("deal", "message"), [
    ("{", "BGA deal: not JSON (line 1, column 2: Expecting property name enclosed in double quotes)"),
    ("[1, 2]", "BGA deal: expected an object of player id -> list of {\"name\": CARD}, got [1, 2]"),
    (wrapped({"1": DEAL["1111"]}), "BGA deal: 1 players; expected 2 to 6"),
    (wrapped({**DEAL, "2345": "Maid"}), "BGA deal: player 2345: expected a list of {\"name\": CARD}, got 'Maid'"),
    (wrapped({**DEAL, "2345": [{"name": "Maid"}, {"name": "Parlor"}, {"name": "Gun"}, {"name": "Poison"}]}),
     "BGA deal: player 2345 has 4 cards; expected 2 (yours: your private cards) or 3 (a screen you see)"),
    (wrapped({**DEAL, "4567": [{"name": "Sailor"}, {"name": "Market"}, {"name": "Knif"}]}),
     "BGA deal: player 4567, card 3: unknown card 'Knif' (did you mean 'Knife'?)"),
    (wrapped({**DEAL, "4567": [{"name": "Sailor"}, {"nom": "Market"}, {"name": "Knife"}]}),
     "BGA deal: player 4567, card 2: expected {\"name\": CARD}, got {\"nom\": \"Market\"}"),
    (wrapped({**DEAL, "2345": [{"name": "Maid"}, {"name": "Gun"}]}),
     "BGA deal: 2 players with two cards (2345, 1111); expected exactly one, yours (your two private cards)"),
    (wrapped({**DEAL, "2345": [{"name": "Maid"}, {"name": "Nurse"}, {"name": "Gun"}]}),
     "BGA deal: player 2345's screen Maid, Nurse, Gun: expected one Person, one Location and one Weapon"),
    (wrapped({**DEAL, "2345": [{"name": "Florist"}, {"name": "Parlor"}, {"name": "Gun"}]}),
     "BGA deal: player 2345: card 'Florist' is not in play with 4 players (the Brown suit is removed)"),
    (wrapped({**DEAL, "2345": [{"name": "Maid"}, {"name": "Parlor"}, {"name": "Sword"}]}),
     "BGA deal: player 2345: screen 2: 'Sword' is already on your private cards"),
    ("x" * 100_001, "BGA deal: 100,001 characters; expected a deal of at most 100,000"),
    ("[" * 50_000, "BGA deal: nested too deeply; expected an object of player id -> list of {\"name\": CARD}"),
    (wrapped({**DEAL, "2345": [{"name": "Maid"}]}),
     "BGA deal: player 2345 has 1 card; expected 2 (yours: your private cards) or 3 (a screen you see)"),
    (wrapped({**DEAL, "1111": [{"name": "Duke"}, {"name": "duke"}]}),
     "BGA deal: player 1111: private: a card is named twice"),
])
def test_a_bad_deal_is_one_line_and_changes_nothing(deal: str, message: str) -> None:
    session = ThirteenCluesSession()
    with pytest.raises(BgaDealError) as caught:
        session.import_setup(deal, ORDER if deal.startswith("{\"visible") else "")
    assert str(caught.value) == message
    assert "\n" not in message and session.lines == [] and session.setup.players is None


def test_no_import_once_the_setup_has_started() -> None:
    session = ThirteenCluesSession()
    session.handle("players 4")
    with pytest.raises(BgaDealError, match=r"^BGA deal: this game already has 1 entry; import a deal into a new "
                                           r"game$"):
        session.import_setup(wrapped(), ORDER)
    with pytest.raises(AssistantError, match="^seats: no Board Game Arena deal is waiting for its seat order$"):
        session.handle("seats 1 2 3 4")
    assert parse_deal(wrapped()).ids == ("2345", "1111", "3456", "4567")


def test_the_command_line_imports_a_deal_file(tmp_path: Path) -> None:
    deal, journal = tmp_path / "deal.json", tmp_path / "game.journal"
    deal.write_text(wrapped())
    runner = CliRunner()
    result = runner.invoke(app, ["thirteen-clues", "--bga-deal", str(deal), "--bga-seats", ORDER.replace(" ", ","),
                                 "--journal", str(journal)], input="show brief\n")
    assert result.exit_code == 0, result.output
    assert journal.read_text().splitlines()[1:] == SETUP
    asked = runner.invoke(app, ["thirteen-clues", "--bga-deal", str(deal)], input=f"seats {ORDER}\nhistory\n")
    assert asked.exit_code == 0, asked.output
    assert "screen 4 Sailor Market Knife" in asked.output
    missing = runner.invoke(app, ["thirteen-clues", "--bga-deal", str(tmp_path / "none.json")], input="")
    assert missing.exit_code == 1
    assert missing.output.strip() == f"error: --bga-deal {tmp_path / 'none.json'}: cannot read it (No such file or " \
                                     "directory)"
    assert "Traceback" not in missing.output


def test_the_page_takes_a_pasted_deal(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path), base_url="http://127.0.0.1")  # the server serves local names only
    game_id = client.post("/new", data={"game": "thirteen-clues"}, follow_redirects=False).headers["location"]
    page = client.get(game_id).text
    assert 'action="' + game_id + '/import"' in page and "visible_cards_players" in page
    bad = wrapped({**DEAL, "4567": [{"name": "Sailor"}, {"name": "Market"}, {"name": "Knif"}]})
    refused = client.post(f"{game_id}/import", data={"deal": bad, "seats": ORDER}).text
    assert re.search(r'id="error"[^>]*>BGA deal: player 4567, card 3: unknown card &#39;Knif&#39;', refused)
    assert "Knif" in refused.split("<textarea", 1)[1].split("</textarea>", 1)[0]  # the paste is kept
    waiting = client.post(f"{game_id}/import", data={"deal": wrapped(), "seats": ""}).text
    assert "Seat order of the BGA deal: the player ids clockwise from seat 1 (2345 1111 3456 4567)" in waiting
    done = client.post(f"{game_id}/line", data={"line": f"seats {ORDER}"}).text
    assert 'data-card="Duke"' in done and 'data-key="grid.Nurse.mystery"' in done
    assert "visible_cards_players" not in done  # the paste box goes once the setup is entered
    journal = (tmp_path / f"{game_id.rsplit('/', 1)[1]}.journal").read_text().splitlines()
    assert journal[1:] == SETUP


def test_the_terminal_keeps_a_deal_waiting_for_its_seat_order_beside_the_journal(tmp_path: Path) -> None:
    """Piped stdin (no TTY): a deal whose seat order the ids do not give is kept beside the journal
    (``.NAME.journal.setup``, as the page keeps it) when the session ends unanswered; ``--resume`` asks again
    and ``seats`` finishes the import, removing the kept file. The page reads the same file."""
    deal, journal = tmp_path / "deal.json", tmp_path / "game.journal"
    kept = tmp_path / ".game.journal.setup"
    deal.write_text(wrapped())
    runner = CliRunner()
    left = runner.invoke(app, ["thirteen-clues", "--bga-deal", str(deal), "--journal", str(journal)], input="")
    assert left.exit_code == 0, left.output
    waits = f"the deal waits for its seat order, kept beside the journal; answer it with: assist thirteen-clues " \
            f"--resume {journal}"
    assert left.output.splitlines() == [f"journal: {journal}", waits]
    assert journal.read_text().splitlines()[1:] == []
    assert parse_deal(kept.read_text()) == parse_deal(wrapped())
    # A bad answer changes nothing: the deal still waits, still kept.
    wrong = runner.invoke(app, ["thirteen-clues", "--resume", str(journal)], input="seats 1111 2345\n")
    assert wrong.exit_code == 1
    assert wrong.output.splitlines() == [
        f"journal: {journal}", f"a deal kept beside the journal waits for its seat order: {kept}",
        f"resumed 0 entries from {journal}", "> seats 1111 2345",
        "line 1: seats '1111 2345': expected each of the ids 2345, 1111, 3456, 4567 once, clockwise from seat 1",
        waits]
    assert parse_deal(kept.read_text()) == parse_deal(wrapped())
    done = runner.invoke(app, ["thirteen-clues", "--resume", str(journal)], input=f"seats {ORDER}\nhistory\n")
    assert done.exit_code == 0, done.output
    assert journal.read_text().splitlines()[1:] == SETUP
    assert not kept.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    # A kept file that is no deal is ignored: the setup starts afresh, no deal waits.
    kept.write_text("not a deal")
    other = tmp_path / "other.journal"
    other.write_text(journal.read_text().splitlines()[0] + "\n")
    kept.rename(tmp_path / ".other.journal.setup")
    fresh = runner.invoke(app, ["thirteen-clues", "--resume", str(other)], input="seats 1111 2345 3456 4567\n")
    assert fresh.exit_code == 1
    assert "line 1: seats: no Board Game Arena deal is waiting for its seat order" in fresh.output.splitlines()
    assert (tmp_path / ".other.journal.setup").read_text() == "not a deal"  # ignored, left as the page leaves it
