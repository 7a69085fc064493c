"""The companion with Character cards: the setup dialogue asks them (Tab completes the names), the start player
follows the lowest number, help lists each seat's effect, the state shows the uses left, each Character's
entry is recorded or refused in one line, and ``simulate --characters``."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from assistant_cli.main import app
from models.beyond_baker_street.session import BeyondBakerStreetSession
from solver.errors import AssistantError
from solver.session import Reply

runner = CliRunner()


def text(reply: Reply) -> str:
    console = Console(record=True, width=160, file=io.StringIO())
    for renderable in reply.renderables:
        console.print(renderable)
    return console.export_text()


def session_with(*lines: str) -> BeyondBakerStreetSession:
    session = BeyondBakerStreetSession()
    for line in lines:
        session.handle(line)
    return session


SETUP = ["players 3", "me 2", "case 1", "character 1 Toby", "character 2 irene", "character 3 Langdale_Pike",
         "hand 1 3W 5C 1D 6T", "hand 3 2W 4C 1T 6D", "lead 7C", "lead 10D", "lead 12W"]


def test_the_dialogue_asks_each_seats_character_and_tab_completes() -> None:
    session = session_with("players 3", "me 2", "case 1")
    question = session.setup_question()
    assert question is not None and "Player 1's Character" in question.prompt
    assert "Irene_Adler" in session.completions("character 1 Ir")
    session.handle(question.line("Toby"))
    question = session.setup_question()
    assert question is not None and "Your Character" in question.prompt


def test_start_state_help_and_uses() -> None:
    session = session_with(*SETUP)
    kn = session.knowledge
    assert kn.board is not None and kn.board.current == 2  # Irene Adler (#9) before Toby (#18) and Pike (#15)
    shown = text(session.handle("show"))
    assert "you Irene Adler (#9, 1 of 1 use left)" in shown
    helped = text(session.handle("help"))
    assert "you: Irene Adler" in helped and "move Holmes 1 space" in helped
    session.handle("advance me")
    assert "you Irene Adler (#9, 0 of 1 use left)" in text(session.handle("show"))


def test_character_entries_recorded_or_refused() -> None:
    session = session_with(*SETUP)
    before = list(session.lines)
    with pytest.raises(AssistantError, match="player 2's turn"):
        session.handle("peek 1 bottom")
    assert session.lines == before  # refused, nothing changed
    session.handle("advance 2")
    session.handle("swap 3 1 1 4 2W 6T")
    assert session.lines[-1] == "swap 3 1 1 4 2W 6T"
    with pytest.raises(AssistantError, match="only player 1 saw it"):
        session.handle("peek 1 3W top")
    session.handle("peek 1 top")
    assert session.lines[-1] == "peek 1 top"


def test_simulate_with_characters() -> None:
    result = runner.invoke(app, ["simulate", "beyond-baker-street", "--games", "3", "--characters",
                                 "Toby,random,Lestrade", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["characters"] == "Toby,random,Lestrade" and data["games"] == 3
    bad = runner.invoke(app, ["simulate", "beyond-baker-street", "--games", "1", "--characters", "Toby,Moriarty,x"])
    assert bad.exit_code != 0 and "not a Character" in bad.output
