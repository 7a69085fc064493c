"""Terminal completion that types like a person (issue 22 §2), through prompt_toolkit's Document and
CompleteEvent: a completed word is followed by a space, only the words legal at that point are offered, and a
setup answer offers no command; the same in every prompt of every game."""

from __future__ import annotations

from typing import Any

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from assistant_cli.companion import make_completer
from models import GAMES
from tests.solver.choices_helpers import example_lines, session_at


def completed(session: Any, text: str, dialogue: bool = False) -> list[tuple[str, int]]:
    """(inserted text, start position) of each completion of ``text`` (``dialogue``: answering the session's
    setup question)."""
    asking = [session.setup_question() if dialogue else None]
    completer = make_completer(session, asking)
    return [(c.text, c.start_position) for c in completer.get_completions(Document(text), CompleteEvent())]


def test_a_completed_word_is_followed_by_a_space_and_the_next_word_completes_at_once() -> None:
    session = GAMES.get("thirteen-clues").new_session()
    session.replay(["players 4", "me 1"])
    assert completed(session, "Du", dialogue=True) == [("Duke ", -2)]
    assert completed(session, "Duke Sw", dialogue=True) == [("Sword ", -2)]  # not 'DukeSw'
    session = session_at("thirteen-clues", "thirteen-clues-4p.txt", 6)
    assert completed(session, "inf") == [("informant ", -3)]
    assert completed(session, "informant ") == [("A ", 0), ("B ", 0), ("C ", 0), ("D ", 0)]  # not 'informantB'
    assert completed(session, "ask 4 Green ") == [("1 ", 0), ("2 ", 0)]


def test_the_evidence_setup_offers_colours_not_commands() -> None:
    session = session_at("evidence", "evidence-4p.txt", 4)
    question = session.setup_question()
    assert question is not None and question.prefix == "setup"
    assert completed(session, "wh", dialogue=True) == [("white ", -2)]  # never 'why'
    assert completed(session, "white 3 b", dialogue=True) == [("blue ", -1), ("brown ", -1)]


def test_the_time_bomb_setup_offers_roles_not_commands() -> None:
    session = session_at("time-bomb", "time-bomb-5p.txt", 2)
    question = session.setup_question()
    assert question is not None and question.prefix == "role"
    assert completed(session, "sh", dialogue=True) == [("sherlock ", -2)]  # never 'show'
    assert completed(session, "", dialogue=True) == [("sherlock ", 0), ("moriarty ", 0)]


def test_beyond_baker_street_prompts_offer_only_the_turns_seat_and_visible_cards() -> None:
    session = session_at("beyond-baker-street", "beyond-baker-street-3p.txt", 9)
    assert completed(session, "elim") == [("eliminate ", -4)]
    assert completed(session, "eliminate ") == [("1 ", 0)]
    assert completed(session, "eliminate 1 4 ") == [("3D ", 0)]
    asked = session_at("beyond-baker-street", "beyond-baker-street-3p.txt", 3)  # the dialogue asks Characters
    assert completed(asked, "Ir", dialogue=True) == [("Irene_Adler ", -2)]
    assert completed(asked, "no", dialogue=True) == [("none ", -2)]


EXAMPLES = {"thirteen-clues": "thirteen-clues-4p.txt", "beyond-baker-street": "beyond-baker-street-3p.txt",
            "evidence": "evidence-4p.txt", "time-bomb": "time-bomb-5p.txt"}


@pytest.mark.parametrize("game", sorted(GAMES.names()))
def test_no_setup_answer_offers_a_command(game: str) -> None:
    """At every question of the setup dialogue (answered with the shipped example's lines), neither the empty
    answer nor any first letter completes to a command."""
    session = GAMES.get(game).new_session()
    commands = set(session.COMMAND_OF)
    asked = 0
    for line in example_lines(EXAMPLES[game]):
        if session.setup_question() is None:
            break
        for text in ["", *"abcdefghijklmnopqrstuvwxyz"]:
            offered = {t.strip() for t, _ in completed(session, text, dialogue=True)}
            assert not offered & commands, (session.setup_question(), text, offered & commands)
        asked += 1
        session.handle(line, show=False)
    assert asked >= 4
