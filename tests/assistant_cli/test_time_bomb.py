"""The Time Bomb Evolution companion: scripted sessions, errors, undo, journal and resume, completion,
``analyze --json`` and ``assist simulate time-bomb``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from assistant_cli.main import app
from assistant_cli.session import Journal
from assistant_cli.time_bomb import JOURNAL_HEADER, TimeBombSession
from solver.errors import AssistantError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "time-bomb-5p.txt"
SETUP = ["players 5", "me 1", "role sherlock", "start 1", "hand defuse pink red blue green"]
runner = CliRunner()


def text(reply) -> str:
    console = Console(width=200, record=True)
    for r in reply.renderables:
        console.print(r)
    return console.export_text()


def session(*lines: str) -> TimeBombSession:
    s = TimeBombSession()
    for line in [*SETUP, *lines]:
        s.handle(line, show=False)
    return s


def test_setup_dialogue_then_tables() -> None:
    s = TimeBombSession()
    assert s.setup_question().prefix == "players"
    for line in SETUP[:-1]:
        s.handle(line)
    assert s.setup_question().prefix == "hand"
    reply = s.handle(SETUP[-1])
    out = text(reply)
    assert reply.accepted and "setup complete" in reply.summary
    assert "P(Moriarty) soft" in out and "Risk of each cut by player 1" in out and "50%" in out
    assert s.setup_question() is None


def test_claims_cuts_and_a_flagged_contradiction() -> None:
    s = session("claim 2 3", "cut 2 blue", "cut 3 blue", "cut 2 pink", "cut 4 green")
    reply = s.handle("cut 2 pink")
    assert "claim 1 (claim 2 3) is contradicted: 3 bombs were cut from player 2" in reply.summary
    out = text(s.handle("claims"))
    assert "! contradicted" in out
    roles = s.summary()["roles"]
    assert roles["2"] == pytest.approx(5 / 6)


def test_me_stands_for_my_seat_and_errors_are_one_line() -> None:
    s = session("claim me 1")
    assert s.lines[-1] == "claim 1 1"
    for bad, message in [
        ("cut 1 red", "must cut another player"),
        ("cut 6 red", "seat 6: expected 1 to 5"),
        ("cut 2 purple", "unknown card 'purple'"),
        ("claim 2 7", "defusers 7: expected a whole number from 0 to 5"),
        ("players 6", "the game has started"),
        ("why", "expected 'why role SEAT"),
        ("bluff 2 0.5", "bluff: Sherlock's rate 2: expected a number from 0 to 1"),
        ("holdings", "expected 'holdings SEAT'"),
    ]:
        with pytest.raises(AssistantError, match=message) as info:
            s.handle(bad)
        assert "\n" not in str(info.value)
    assert s.lines[-1] == "claim 1 1"


def test_contradiction_names_the_entries() -> None:
    s = TimeBombSession()
    for line in SETUP[:-1]:
        s.handle(line)
    s.handle("hand 5xdefuse")
    with pytest.raises(AssistantError, match="'cut 2 defuse' contradicts earlier entries: 'hand defuse"):
        s.handle("cut 2 defuse")


def test_undo_and_history() -> None:
    s = session("claim 2 1", "cut 2 red")
    assert "undid 'cut 2 red'" in s.handle("undo").summary
    assert s.lines[-1] == "claim 2 1" and s.knowledge.table.cuts == []
    assert "claim 2 1" in text(s.handle("history"))


def test_why_advise_and_holdings() -> None:
    s = session("claim 2 1", "claim 3 0", "claim 4 2", "claim 5 0")
    out = text(s.handle("advise"))
    assert "Advice (sherlock): cut player" in out and "What to claim: 1 defusing card" in out
    assert "claim 2: player 3 said 0 of 5" in text(s.handle("why role 3"))
    assert "from hard facts" in text(s.handle("why claim 2"))
    assert "impossible (hard)" in text(s.handle("why inplay pink 0"))
    assert "P true" not in text(s.handle("why cut 2")) and "explosion" in text(s.handle("why cut 2"))
    assert "defuse" in text(s.handle("holdings 4"))
    assert "You are sherlock" in text(s.handle("why role me"))


def test_bluff_rates_are_journaled_and_change_the_soft_layer() -> None:
    s = session("claim 2 3")
    before = s.summary()["roles"]["2"]
    s.handle("bluff 0.01 0.9")
    after = s.summary()["roles"]["2"]
    assert s.lines[-1] == "bluff 0.01 0.9" and after != before
    assert s.summary()["roles_hard"]["2"] == pytest.approx(0.5)


def test_completion() -> None:
    s = session()
    assert "claim" in s.completions("cl")
    assert s.completions("cut 3 de") == ["defuse"]
    assert "me" in s.completions("claim ")
    assert s.completions("why ") == ["role", "claim", "inplay", "holds", "cut"]


def test_journal_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    s = TimeBombSession(Journal(path, JOURNAL_HEADER))
    for line in [*SETUP, "claim 2 1", "cut 2 red", "draw 0", "cut 1 pink"]:
        s.handle(line, show=False)
    assert Journal.is_journal(path, JOURNAL_HEADER)
    result = runner.invoke(app, ["time-bomb", "--resume", str(path), "--quiet"], input="")
    assert result.exit_code == 0, result.output
    assert "resumed 9 entries" in result.output and "player 1" in result.output


def test_piped_stdin_reports_bad_lines() -> None:
    script = "\n".join([*SETUP, "claim 2 1", "cut 2 purple", "cut 2 blue"]) + "\n"
    result = runner.invoke(app, ["time-bomb"], input=script)
    assert result.exit_code == 1
    assert "line 7: unknown card 'purple'" in result.output
    assert "recorded 'cut 2 blue'" in result.output


def test_analyze_json_on_the_example() -> None:
    result = runner.invoke(app, ["time-bomb", "analyze", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["winner"] == "sherlock" and set(data["roles"]) == {"1", "2", "3", "4", "5"}
    assert data["roles"]["2"] == 0.0
    assert any(c["contradicted"] for c in data["claims"])
    assert "cut_risk" in data


def test_analyze_json_cut_risk_mid_game(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("\n".join([*SETUP, "claim 2 1", "cut 2 blue"]) + "\n")
    data = json.loads(runner.invoke(app, ["time-bomb", "analyze", str(path), "--json"]).output)
    assert set(data["cut_risk"]) == {"1", "3", "4", "5"}
    for risk in data["cut_risk"].values():
        assert 0 <= risk["explode"] < 0.01 and 0 < risk["defuse"] < 1


def test_simulate_command() -> None:
    result = runner.invoke(app, ["simulate", "time-bomb", "--games", "3", "--players", "4", "--seed", "1",
                                 "--bots", "advisor/bluffing-moriarty", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 3 and 0 <= data["sherlock_win_rate"] <= 1
    again = json.loads(runner.invoke(app, ["simulate", "time-bomb", "--games", "3", "--players", "4", "--seed", "1",
                                           "--bots", "advisor/bluffing-moriarty", "--json"]).output)
    assert again["sherlock_wins"] == data["sherlock_wins"]
    bad = runner.invoke(app, ["simulate", "time-bomb", "--bots", "clever"])
    assert bad.exit_code == 1 and "unknown bot 'clever'" in bad.output


def test_games_lists_time_bomb() -> None:
    result = runner.invoke(app, ["games"])
    assert "time-bomb" in result.output
