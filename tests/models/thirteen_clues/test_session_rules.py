"""The Thirteen Clues companion refuses every entry the rules do not allow at that moment, in one line that names
the entry and the rule, with the state and the journal unchanged (the shipped 4-player example as the table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.thirteen_clues.session import ThirteenCluesSession
from solver.errors import AssistantError
from solver.session import FIX_HINT, Journal

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "thirteen-clues-4p.txt"
# seat 1 holds Duke and Sword; the screens: 2 Maid Parlor Gun, 3 Dancer Park Crossbow, 4 Sailor Market Knife
WON = "'accuse 2 Maid Parlor Gun right' solved a mystery (a correct accusation wins the game)"


def example_session(tmp_path: Path) -> ThirteenCluesSession:
    session = ThirteenCluesSession(Journal(tmp_path / "game.journal", "# thirteen-clues"))
    for line in EXAMPLE.read_text().splitlines():
        if line.split("#", 1)[0].strip():
            session.handle(line, show=False)
    return session


def refused(session: ThirteenCluesSession, line: str) -> str:
    """The one-line refusal of ``line``; the entries, the world count, the what-ifs and the journal unchanged."""
    assert session.journal is not None and session.knowledge is not None
    lines, journal = list(session.lines), session.journal.path.read_text()
    facts, whatifs = session.knowledge.knowledge.facts, session.knowledge.knowledge.whatifs
    worlds = session.knowledge.count().worlds
    with pytest.raises(AssistantError) as info:
        session.handle(line)
    message = str(info.value)
    assert "\n" not in message
    assert session.lines == lines and session.journal.path.read_text() == journal
    assert session.knowledge.knowledge.facts == facts and session.knowledge.knowledge.whatifs == whatifs
    assert session.knowledge.count().worlds == worlds
    return message.removesuffix(FIX_HINT)  # a contradiction naming no entry says how to find one


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("accuse 1 Maid Park Rifle wrong", "'accuse 1 Maid Park Rifle wrong': you cannot accuse with 'Maid': it is "
                                           "on player 2's screen (an accusation never names a card its maker can see)"),
        ("accuse 1 Duke Park Rifle wrong", "'accuse 1 Duke Park Rifle wrong': you cannot accuse with 'Duke': it is "
                                           "one of your private cards (an accusation never names a card its maker can "
                                           "see)"),
        # a rule break: no "if an earlier entry is wrong" hint
        ("accuse 3 Maid Theater Rifle wrong", "'accuse 3 Maid Theater Rifle wrong': player 3 cannot accuse 'Maid': "
                                              "they can see it on player 2's screen (an accusation never names a card "
                                              "its maker can see)"),
        ("accuse 2 Maid Parlor Gun wrong", "'accuse 2 Maid Parlor Gun wrong' contradicts entry 4 'screen 2 Maid Parlor "
                                           "Gun': player 2's mystery is Maid Parlor Gun, which you can see; if entry 4 "
                                           "is wrong, fix it with 'edit 4 ...' or 'drop 4'"),
        ("accuse 3 Maid Parlor Gun right", "'accuse 3 Maid Parlor Gun right': player 3 cannot accuse 'Maid': they can "
                                           "see it on player 2's screen (an accusation never names a card its maker "
                                           "can see)"),
        ("ask 9 Red 1", "seat 9: expected a whole number from 1 to 4"),  # this table's range, not the widest
        ("informant E Plaza", "'informant E Plaza': expected a letter A to D"),
        ("informant A by 1", "'informant A by 1': that is you; type 'informant A CARD'"),
        ("informant A Rifle", "'informant A Rifle' contradicts entry 11 'informant A Plaza'; if entry 11 is wrong, "
                              "fix it with 'edit 11 ...' or 'drop 11'"),
        ("ask 5 Red 1", "'ask 5 Red 1': seat 5: expected 1 to 4"),
        ("ask 2 Gray 1", "'ask 2 Gray 1': the Gray suit is not in play with 4 players"),
        ("ask 2 Red left 1", "'ask 2 Red left 1': 'left'/'right' is only for two-player games"),
        ("ask 2 Male 1", "'ask 2 Male 1': 'Male' is a sub-category: enable the house rule with 'subcategories on'"),
        ("ask 2 Red 9", "'ask 2 Red 9': count 9: there are only 3 Red cards in play"),
    ],
)
def test_an_entry_against_the_rules_is_refused(tmp_path: Path, line: str, message: str) -> None:
    assert refused(example_session(tmp_path), line) == message


@pytest.mark.parametrize("line", ["ask 2 Red 1", "informant B Rifle", "informant B by 3",
                                  "accuse 3 Butcher Theater Poison wrong", "whatif ask 2 Red 1"])
def test_a_correct_accusation_ends_the_game(tmp_path: Path, line: str) -> None:
    session = example_session(tmp_path)
    session.handle("accuse 2 Maid Parlor Gun right")
    entry = line.removeprefix("whatif ")
    assert refused(session, line) == f"'{entry}': the game is over: {WON}"


def test_a_what_if_correct_accusation_ends_only_the_what_if(tmp_path: Path) -> None:
    session = example_session(tmp_path)
    session.handle("whatif accuse 2 Maid Parlor Gun right")
    assert refused(session, "ask 2 Red 1") == f"'ask 2 Red 1': the game is over: {WON}"
    session.handle("whatif clear")
    session.handle("ask 2 Red 1")  # back to the facts: the game goes on
    assert session.lines[-1] == "ask 2 Red 1"


def test_six_players_have_no_informant(tmp_path: Path) -> None:
    session = ThirteenCluesSession(Journal(tmp_path / "six.journal", "# thirteen-clues"))
    for line in ["players 6", "me 1", "private Duke Sword", "screen 2 Maid Parlor Gun", "screen 3 Dancer Park Crossbow",
                 "screen 4 Sailor Market Knife", "screen 5 Nurse Plaza Bow", "screen 6 Florist Harbor Rifle"]:
        session.handle(line, show=False)
    assert refused(session, "informant A by 2") == "'informant A by 2': there is no Secret Informant with 6 players"
