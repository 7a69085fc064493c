"""Evidence draws itself (issue 19 §1): each mystery's revealed rumours, search stack and evidence value
distribution as bars (the ``analyze --json`` values), and each player's search cards and rumour counts."""

from __future__ import annotations

import json
from pathlib import Path

from models.evidence.session import EvidenceSession
from solver import view as v
from solver.session import read_lines

ROOT = Path(__file__).resolve().parents[3]
LINES = [line for _, line in read_lines(ROOT / "examples" / "evidence-4p.txt")]


def drawn() -> tuple[EvidenceSession, list[v.View]]:
    session = EvidenceSession()
    session.replay(LINES)
    group = session.state()[0]
    assert isinstance(group, v.Group)
    return session, list(group.items)


def test_mysteries_are_rumour_piles_and_value_bars() -> None:
    session, items = drawn()
    white, blue = items[0], items[1]
    assert isinstance(white, v.Group) and isinstance(blue, v.Group)
    pile, bars = white.items
    assert isinstance(pile, v.Pile) and isinstance(bars, v.Bars)
    assert (pile.title, [c.label for c in pile.cards], pile.note, pile.colour, pile.letter) == (
        "white (Yeti): rumours", ["3", "2", "1", "0"], "search stack: 4 cards", "white", "W")
    assert [(c.text, c.kind, c.value, c.key) for c in bars.items] == [
        ("-1 (50%)", "prob", 0.5, "evidence.white.-1"), ("4 (50%)", "prob", 0.5, "evidence.white.4")]
    blue_bars = blue.items[1]
    assert isinstance(blue_bars, v.Bars)
    assert [(c.text, c.kind, c.value) for c in blue_bars.items] == [("-1 (certain)", "certain", 1.0)]
    brown = items[5]
    assert isinstance(brown, v.Group) and brown.items[0].note == "search stack: 6 cards (Hot Lead)"  # type: ignore
    summary = json.loads(json.dumps(session.summary()))
    for group in items[:6]:
        for cell in v.cells(group):
            _, colour, value = cell.key.split(".")  # type: ignore[union-attr]
            assert cell.value == summary["evidence"][colour][value]


def test_players_search_cards_and_rumour_counts() -> None:
    session, items = drawn()
    players = [i for i in items if isinstance(i, v.Player)]
    assert [(p.seat, p.facts, [(c.name, c.note) for c in p.cards], p.active, p.me) for p in players] == [
        (1, ("3 rumours in hand",), [("pink", "x2"), ("green", "x1")], False, True),
        (2, ("rumours white x1, green x1, brown x1",), [("green", "x1*"), ("white", "x2*")], True, False),
        (3, ("rumours green x3",), [("pink", "x2*"), ("blue", "x1*")], False, False),
        (4, ("rumours yellow x2, pink x1",), [("pink", "x2"), ("yellow", "x1*")], False, False)]
    summary = json.loads(json.dumps(session.summary()))
    for p in players:
        (score,) = p.figures
        assert (score.key, score.value) == (f"expected_scores.{p.seat}.mean", summary["expected_scores"][str(p.seat)]
                                            ["mean"])
    mine = next(i for i in items if isinstance(i, v.Hand))
    assert [c.name for pos in mine.positions for c in pos.cards] == ["yellow 3", "blue 0", "blue 3"]
    assert [f"{c.name}" for pos in mine.positions for c in pos.cards] == summary["hand"]
