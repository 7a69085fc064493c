"""The Beyond Baker Street companion: scripted sessions (no terminal), piped input, analyze --json, resume,
and the simulation command."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from assistant_cli.main import app
from assistant_cli.terminal import to_rich
from models.beyond_baker_street.advisor import AdvisorBot
from models.beyond_baker_street.hat import HatBot, hat_advise, hat_table_of
from models.beyond_baker_street.observations import Drew
from models.beyond_baker_street.rules import TableRules, new_game
from models.beyond_baker_street.session import JOURNAL_HEADER, BeyondBakerStreetSession
from solver.errors import AssistantError
from solver.session import Reply

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "beyond-baker-street-3p.txt"
SETUP = ["players 3", "me 2", "case 1", "start 1", "hand 1 3W 4W 1T 6C", "hand 3 1W 2W 5W 6W", "lead 7W", "lead 9T",
         "lead 11W"]
runner = CliRunner()


def text(reply: Reply) -> str:
    console = Console(record=True, width=140, file=io.StringIO())
    for renderable in reply.renderables:
        console.print(to_rich(renderable))
    return console.export_text()


def ready() -> BeyondBakerStreetSession:
    session = BeyondBakerStreetSession()
    for line in SETUP:
        session.handle(line)
    return session


def test_setup_dialogue_asks_in_order() -> None:
    session = BeyondBakerStreetSession()
    prompts = []
    answers = iter(["3", "2", "1", "none", "1", "3W 4W 1T 6C", "1W 2W 5W 6W", "7W", "9T", "11W"])
    while (question := session.setup_question()) is not None:
        prompts.append(question.prompt)
        session.handle(question.line(next(answers)))
    assert prompts[0].startswith("Number of players") and "Player 1's Character" in prompts[3]
    assert "Player 3's hand" in prompts[6] and "Suspect Lead" in prompts[-1]
    assert session.lines == [*SETUP[:3], "character 1 none", *SETUP[3:]]


def test_hand_table_after_an_assist() -> None:
    session = ready()
    out = text(session.handle("assist 1 me Track at 1 2 3"))
    assert "recorded 'assist 1 2 Track at 1 2 3'" in out
    assert "position 1: 16 -> 5 candidates" in out
    assert "5 equally likely (20.0% each): 2T 3T 4T 5T 6T" in out
    assert "Consistent hands: 660 (exact" in out


def test_my_draw_is_automatic_and_positions_move() -> None:
    session = ready()
    session.handle("assist 1 2 Track at 1 2 3")
    summary = session.handle("eliminate me 1 2T").summary or ""
    assert "new card at position 4" in summary and "cards moved left to 1, 2, 3" in summary
    assert session.lines[-1] == "eliminate 2 1 2T"  # the automatic draw is not journaled
    assert isinstance(session.knowledge.entries[-1], Drew) and session.knowledge.entries[-1].seat == 2
    session.handle("assist 3 2 6 at 2")
    assert session.summary()["hand"][1] == {"6 Track": 1.0}


def test_why_and_empathy_and_advise() -> None:
    session = ready()
    for line in ("assist 1 2 Track at 1 2 3", "eliminate 2 1 2T", "assist 3 2 6 at 2"):
        session.handle(line)
    why = text(session.handle("why 2 6T"))
    assert "6 Track is certainly at your position 2, because:" in why
    assert "position 2 is a 6 ('assist 3 2 6 at 2')" in why
    seen = text(session.handle("why 1"))
    assert "1T is in player 1's hand (position 3)" in seen and "Possible: 3T 33.3%, 4T 33.3%, 5T 33.3%" in seen
    assert "Player 1's hand as they can know it" in text(session.handle("empathy 1"))
    advice = text(session.handle("advise"))
    assert "it is player 1's turn" in advice
    first = next(line for line in advice.splitlines() if line.strip().startswith("1 "))
    assert "investigate 2 Motive" in first  # the certain 6T on the Track Lead needing 9


def test_why_names_a_sighting_before_a_reshuffle() -> None:
    """1T sat in player 1's hand, went to the Motive Lead and back into the deck with a Pursue: none of my dealt
    cards is 1T, and 'why' says where and when it was seen."""
    session = ready()
    for line in ("investigate 1 3 1T Motive", "draw 1 2D", "pursue 2 Motive", "lead 10D"):
        session.handle(line)
    why = " ".join(text(session.handle("why 1 1T")).split())
    assert "1 Track cannot be at your position 1, because:" in why
    assert ("1T was on the Motive Lead from entry 10 'investigate 1 3 1T Motive' until entry 12 'pursue 2 Motive' "
            "shuffled it back into the deck, while you already held your cards at positions 1, 2, 3, 4") in why
    assert "1T was on the Motive Lead from entry 10" in text(session.handle("why 3"))
    assert "1T" not in text(session.handle("empathy 3")).split("Player 3's hand")[1]


def test_errors_are_one_line_and_change_nothing() -> None:
    session = ready()
    before = list(session.lines)
    for bad, message in [
        ("assist 1 3 Witness at 1 2", "player 3's Witnesses are at 1 2 3 4"),
        ("eliminate 2 1 1C", "it is player 1's turn"),
        ("draw 1 3W", "nothing to reveal or draw now"),
        ("why 5", "you hold 4 cards"),
        ("empathy 2", "expected 'empathy [SEAT]'"),
        ("frob", "unknown entry 'frob'"),
    ]:
        with pytest.raises(AssistantError, match=re.escape(message)) as info:
            session.handle(bad)
        assert "\n" not in str(info.value)
    assert session.lines == before


def test_undo_rebuilds_from_the_journal(tmp_path: Path) -> None:
    from solver.session import Journal

    session = ready()
    session.journal = Journal(tmp_path / "g.journal", JOURNAL_HEADER)
    session.handle("assist 1 2 Track at 1 2 3")
    session.handle("eliminate 2 1 2T")
    session.handle("undo")
    assert session.lines[-1] == "assist 1 2 Track at 1 2 3"
    assert len(session.knowledge.hands[2]) == 4 and session.knowledge.board.current == 2
    saved = (tmp_path / "g.journal").read_text().splitlines()
    assert saved[0] == JOURNAL_HEADER and saved[-1] == "assist 1 2 Track at 1 2 3"


def test_completions() -> None:
    session = ready()
    assert "investigate" in session.completions("inv")
    assert session.completions("pursue 1 S") == ["Suspect"]
    assert "Witness" in session.completions("assist 1 2 W")


def test_piped_session_and_analyze_json(tmp_path: Path) -> None:
    result = runner.invoke(app, ["beyond-baker-street"], input=EXAMPLE.read_text())
    assert result.exit_code == 0, result.output
    assert "Game over: won" in result.output
    analyzed = runner.invoke(app, ["beyond-baker-street", "analyze", str(EXAMPLE), "--json"])
    assert analyzed.exit_code == 0, analyzed.output
    data = json.loads(analyzed.output)
    assert len(data["hand"]) == 4
    for position in data["hand"]:
        assert sum(position.values()) == pytest.approx(1.0)
        assert all(" " in card for card in position)  # "3 Witness"
    assert data["board"]["result"] == "won" and data["board"]["track"] == 20


def test_piped_bad_lines_are_numbered(tmp_path: Path) -> None:
    lines = [*SETUP, "assist 1 2 Trak at 1", "assist 1 2 Track at 1 2 3", "show"]
    result = runner.invoke(app, ["beyond-baker-street", "--quiet"], input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "line 10: unknown icon 'Trak' (did you mean 'Track'?)" in result.output
    assert "Consistent hands: 660" in result.stdout


def test_resume_a_journal(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    first = runner.invoke(app, ["beyond-baker-street", "--journal", str(journal)],
                          input="\n".join([*SETUP, "assist 1 2 Track at 1 2 3"]) + "\n")
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, ["beyond-baker-street", "--resume", str(journal), "--quiet"],
                           input="eliminate 2 1 2T\n")
    assert second.exit_code == 0, second.output
    assert journal.read_text().splitlines()[-1] == "eliminate 2 1 2T"
    assert "resumed 10 entries" in second.output


def test_example_file_agrees_with_the_true_game() -> None:
    """Replaying a seat's observations of a simulated game leaves its true hand possible (seat 2's view)."""
    rng = random.Random(11)
    state = new_game(TableRules(3, 1), rng, first_player=1)
    bots = {s: AdvisorBot(s, random.Random(s)) for s in state.seats}
    session = BeyondBakerStreetSession()
    for _ in range(15):
        for s in state.seats:
            for obs in state.take_observations(s):
                bots[s].inform(obs)
                if s == 2 and not (isinstance(obs, Drew) and obs.seat == 2):
                    session.handle(str(obs), show=False)
        if state.is_terminal():
            break
        seat = state.current_player()
        state.apply(bots[seat].step(state.view(seat)))
    for s in state.seats:
        for obs in state.take_observations(s):
            if s == 2 and not (isinstance(obs, Drew) and obs.seat == 2):
                session.handle(str(obs), show=False)
    hand = session.summary()["hand"]
    for pos, card in enumerate(state.hands[2]):
        assert hand[pos].get(card.name, 0.0) > 0


def test_simulate_json_and_replay() -> None:
    result = runner.invoke(app, ["simulate", "beyond-baker-street", "--games", "3", "--json", "--seed", "5"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 3 and 0 <= data["wins"] <= 3 and data["bots"] == ["advisor"] * 3
    again = runner.invoke(app, ["simulate", "beyond-baker-street", "--games", "3", "--json", "--seed", "5"])
    assert json.loads(again.output)["wins"] == data["wins"]
    bad = runner.invoke(app, ["simulate", "beyond-baker-street", "--bots", "genius"])
    assert bad.exit_code == 1 and "unknown bot 'genius'" in bad.output
    replay = runner.invoke(app, ["simulate", "beyond-baker-street", "--replay", "7", "--bots", "random"])
    assert replay.exit_code == 0 and "Result:" in replay.output


def test_simulate_the_hat_table() -> None:
    args = ["simulate", "beyond-baker-street", "--games", "2", "--json", "--case", "5", "--bots", "hat"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"] == ["hat"] * 3
    mixed = runner.invoke(app, ["simulate", "beyond-baker-street", "--bots", "hat,advisor,hat"])
    assert mixed.exit_code == 1 and "make every seat hat" in mixed.output


def test_advise_hat_follows_the_hat_table() -> None:
    """Seat 2's companion, fed a hat table's game, reads the same icons as seat 2's hat bot and advises its move."""
    state = new_game(TableRules(3, 5), random.Random(11), first_player=1)
    bots = {s: HatBot(s, random.Random(s)) for s in state.seats}
    session = BeyondBakerStreetSession()
    compared = 0
    while not state.is_terminal():
        for s in state.seats:
            for obs in state.take_observations(s):
                bots[s].inform(obs)
                if s == 2 and not (isinstance(obs, Drew) and obs.seat == 2):
                    session.handle(str(obs), show=False)
        seat = state.current_player()
        if seat is None:
            break
        action = bots[seat].step(state.view(seat))
        if seat == 2:
            kn = session.knowledge
            hat = hat_table_of(kn)
            mine = [hat.fixed.get(s.id) for s in kn.hands[2]]
            assert mine == [bots[2].hat.fixed.get(s.id) for s in bots[2].hand.hands[2]]
            assert hat_advise(kn, hat, reasons=False)[0].action == action
            if any(mine) and not compared:
                console = Console(file=io.StringIO(), width=200)
                for renderable in session.handle("advise all hat").renderables:
                    console.print(to_rich(renderable))
                text = console.file.getvalue()
                assert "Hat messages told you: position" in text and str(action) in text
            compared += any(mine)
        state.apply(action)
    assert compared > 0
    with pytest.raises(AssistantError, match=r"expected 'advise \[all\] \[hat\]'"):
        session.handle("advise everything")
