"""Parse / str round trips for every Beyond Baker Street entry and action, and clear parse errors."""

from __future__ import annotations

import pytest

from models.beyond_baker_street.data import EVIDENCE, LEADS, Evidence, Lead
from models.beyond_baker_street.observations import (
    Assist,
    Assisted,
    Case,
    Confirm,
    Confirmed,
    Drew,
    Eliminate,
    Eliminated,
    Hand,
    Investigate,
    Investigated,
    LeadRevealed,
    Me,
    Players,
    Pursue,
    Pursued,
    Start,
    parse,
    parse_action,
    parse_subject,
)
from solver.errors import InvalidObservationError

W3 = Evidence(3, "Witness")
C5 = Evidence(5, "Clue")

ENTRIES = [
    Players(3),
    Me(2),
    Case(4),
    Start(1),
    Hand(1, (W3, C5, Evidence(1, "Document"), Evidence(6, "Track"))),
    LeadRevealed(Lead(12, "Witness")),
    LeadRevealed(Lead(7, "Clue")),
    Assisted(1, 2, 3, (1, 4)),
    Assisted(3, 1, "Clue", (2,)),
    Investigated(2, 3, C5, "Suspect"),
    Eliminated(1, 1, W3),
    Confirmed(3, "Motive"),
    Pursued(1, "Opportunity"),
    Drew(2, None),
    Drew(3, W3),
]
ACTIONS = [Assist(2, 3), Assist(3, "Witness"), Investigate(2, "Motive"), Eliminate(4), Confirm("Suspect"),
           Pursue("Opportunity")]


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_entry_round_trip(entry: object) -> None:
    assert parse(str(entry)) == entry


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_action_round_trip(action: object) -> None:
    assert parse_action(str(action)) == action


def test_every_card_round_trips() -> None:
    for card in EVIDENCE:
        assert parse(f"draw 1 {card.code}") == Drew(1, card)
    for lead in LEADS:
        assert parse(str(LeadRevealed(lead))) == LeadRevealed(lead)


def test_card_spellings() -> None:
    assert parse("draw 2 3 Witness") == Drew(2, W3)
    assert parse("draw 2 3w") == Drew(2, W3)
    assert parse("draw 2 3wit") == Drew(2, W3)
    assert parse("investigate 2 3 5 clue s") == Investigated(2, 3, C5, "Suspect")
    assert parse("hint 1 2 3s at 4 1") == Assisted(1, 2, 3, (1, 4))
    assert parse("assist 1 2 Witnesses 2") == Assisted(1, 2, "Witness", (2,))


def test_subjects() -> None:
    assert parse_subject("Clues") == "Clue"
    assert parse_subject("d") == "Document"
    assert parse_subject("6") == 6


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("draw 1 7C", "evidence card .7C.: number 7: expected a whole number from 1 to 6"),
        ("lead 5C", "lead card .5C.: number 5: expected a whole number from 7 to 13"),
        ("draw 1 3X", "unknown icon 'X'"),
        ("assist 1 2 Clue", "which positions"),
        ("assist 1 2 9 at 1", "assist subject 9: expected a whole number from 1 to 6"),
        ("assist 1 2 3 at 1 1", "named twice"),
        ("investigate 2 0 3W suspect", "position 0"),
        ("investigate 2 1 3W banana", "unknown lead section 'banana'"),
        ("players", "missing argument"),
        ("frobnicate 3", "unknown entry 'frobnicate'"),
        ("hand 2", "expected the cards"),
    ],
)
def test_parse_errors(line: str, message: str) -> None:
    with pytest.raises(InvalidObservationError, match=message):
        parse(line)


def test_action_errors() -> None:
    with pytest.raises(InvalidObservationError, match="unknown action"):
        parse_action("draw 1")
    with pytest.raises(InvalidObservationError, match="expected 'eliminate POSITION'"):
        parse_action("eliminate 1 2")


def test_an_investigate_takes_its_lead_before_or_after_the_card() -> None:
    """At the table the Lead is chosen before the card is seen, so 'investigate SEAT POS LEAD CARD' is the same
    entry as 'investigate SEAT POS CARD LEAD'; the teacher reads either as the decision 'investigate POS LEAD'."""
    from models import GAMES

    want = Investigated(2, 3, Evidence(5, "Document"), "Opportunity")
    lines = ["investigate 2 3 5D Opportunity", "investigate 2 3 Opportunity 5D", "inv 2 3 opp 5 Document",
             "investigate 2 3 5 Document opp"]
    assert [parse(line) for line in lines] == [want] * 4
    teacher = GAMES["beyond-baker-street"].new_teacher()
    assert [teacher.action_text(line) for line in lines] == ["investigate 3 opportunity"] * 4
    usage = "expected 'investigate SEAT POSITION CARD SECTION (or SECTION CARD)'"
    for bad, message in [("investigate 2 3 Opportunity", f"missing argument: {usage}"),
                         ("investigate 2 3 Opportunity 5D Motive", f"unexpected 'Motive': {usage}"),
                         ("investigate 2 3 Motif 5D", "unknown lead section 'Motif' (did you mean 'Motive'?)")]:
        with pytest.raises(InvalidObservationError) as caught:
            parse(bad)
        assert str(caught.value) == message
