"""Beyond Baker Street draws itself (issue 19 §1): the Leads with evidence and targets, both tracks, the
Impossible with its limit, every hand I see with what its holder was told, and my positions as candidate cards
whose probabilities are the ``analyze --json`` values."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from models.beyond_baker_street.data import EVIDENCE_BY_CODE
from models.beyond_baker_street.session import BeyondBakerStreetSession
from solver import view as v
from solver.session import read_lines

ROOT = Path(__file__).resolve().parents[3]
LINES = [line for _, line in read_lines(ROOT / "examples" / "beyond-baker-street-3p.txt")]


def drawn(count: int = len(LINES)) -> tuple[BeyondBakerStreetSession, dict[str, v.View]]:
    """The session after ``count`` lines and its drawing, each object by its title or label."""
    session = BeyondBakerStreetSession()
    session.replay(LINES[:count])
    group = session.state()[0]
    assert isinstance(group, v.Group)
    named = {getattr(item, "title", None) or getattr(item, "label", None) or getattr(item, "text", ""): item
             for item in group.items}
    return session, named


def test_board_after_thirty_entries() -> None:
    _, named = drawn(30)
    motive = named["Motive 9W"]
    assert isinstance(motive, v.Pile)
    assert [(c.name, c.label, c.colour, c.note) for c in motive.cards] == [
        ("Motive 9 Witness", "9W", "red", "Lead"), ("2W", "2W", "red", "")]
    assert motive.note == "evidence 2 / target 9 (needs 7); 2 Leads below"
    assert named["Opportunity 7D"].note == "evidence 7 / target 7 (confirmed); 2 Leads below"  # type: ignore
    track, holmes = named["Investigation"], named["Holmes"]
    assert (track.value, track.low, track.high, track.goal, track.lose) == (20, 0, 20, 20, None)  # type: ignore
    assert (holmes.value, holmes.high, holmes.lose, holmes.key) == (8, 15, 0, "board.holmes")  # type: ignore
    impossible = named["Impossible"]
    assert isinstance(impossible, v.Pile) and impossible.limit == 4
    assert [c.label for c in impossible.cards] == ["5C", "4C", "1T", "1W", "4T", "5W"]
    assert named["Deck"].hidden == 3  # type: ignore[union-attr]
    three = named["Player 3's hand"]
    assert isinstance(three, v.Hand)
    assert [(p.label, p.cards[0].label, p.cards[0].status, p.told) for p in three.positions] == [
        ("1", "5T", "seen", "5; not Witness"), ("2", "2C", "seen", "not 1, 5; not Witness"),
        ("3", "1D", "seen", "1; not Witness"), ("4", "6T", "seen", "not 1")]
    assert named["Next: your turn"].tone == "accent"  # type: ignore[union-attr]


def test_my_hand_is_candidate_cards_with_the_summary_probabilities() -> None:
    session, named = drawn(30)
    mine = named["Your hand (player 2)"]
    assert isinstance(mine, v.Hand)
    last = mine.positions[3]
    assert last.told == "-" and last.more == 1
    assert [(c.label, Fraction(c.p.value).limit_denominator(100)) for c in last.cards if c.p] == [
        ("6D", Fraction(1, 4)), ("1C", Fraction(1, 8)), ("2T", Fraction(1, 8)), ("3T", Fraction(1, 8)),
        ("3W", Fraction(1, 8)), ("6C", Fraction(1, 8))]
    assert last.cards[0].p is not None and last.cards[0].p.key == "hand.3.6 Document"
    assert last.cards[0].p.why == "why 4 6D"
    summary = json.loads(json.dumps(session.summary()))
    for pos, position in enumerate(mine.positions):
        for card in position.cards:
            assert card.p is not None and card.p.key == f"hand.{pos}.{EVIDENCE_BY_CODE[card.name].name}"
            assert card.p.value == summary["hand"][pos][EVIDENCE_BY_CODE[card.name].name]


def test_every_keyed_value_is_the_analyze_json_value_at_every_step() -> None:
    for count in range(20, len(LINES) + 1, 7):
        session, _ = drawn(count)
        summary = json.loads(json.dumps(session.summary()))
        group = session.state()[0]
        for cell in v.cells(group):
            if cell.key:
                where, pos, name = cell.key.split(".")
                assert cell.value == summary[where][int(pos)][name]
        tracks = [item for item in v.walk(group) if isinstance(item, v.Track)]
        assert [(t.key, t.value) for t in tracks] == [("board.track", summary["board"]["track"]),
                                                      ("board.holmes", summary["board"]["holmes"])]
