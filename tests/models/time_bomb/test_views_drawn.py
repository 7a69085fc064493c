"""Time Bomb draws itself (issue 19 §1): each player's cables, role probability (the ``analyze --json`` value)
and claims, who holds the cutter, and the cut cards by colour against their thresholds, with their covers."""

from __future__ import annotations

import json
from pathlib import Path

from models.time_bomb.session import TimeBombSession
from solver import view as v
from solver.session import read_lines

ROOT = Path(__file__).resolve().parents[3]
LINES = [line for _, line in read_lines(ROOT / "examples" / "time-bomb-5p.txt")]


def drawn(count: int) -> tuple[TimeBombSession, list[v.View]]:
    session = TimeBombSession()
    session.replay(LINES[:count])
    group = session.state()[0]
    assert isinstance(group, v.Group)
    return session, list(group.items)


def test_players_and_cuts_after_fourteen_entries() -> None:
    session, items = drawn(14)
    players = [i for i in items if isinstance(i, v.Player)]
    assert [(p.seat, p.facts, p.active, p.me) for p in players] == [
        (1, ("5 cables", "claimed 4 (round 1)"), False, False),
        (2, ("5 cables", "claimed 0 (round 1)"), False, True),
        (3, ("4 cables", "claimed 0 (round 1)"), False, False),
        (4, ("5 cables", "claimed 0 (round 1)"), False, False),
        (5, ("4 cables", "claimed 1 (round 1)"), True, False)]
    summary = json.loads(json.dumps(session.summary()))
    assert players[1].figures == ()  # my own role I know
    for p in players[:1] + players[2:]:
        soft, hard = p.figures
        assert (soft.key, soft.value) == (f"roles.{p.seat}", summary["roles"][str(p.seat)])
        assert (hard.key, hard.value) == (f"roles_hard.{p.seat}", summary["roles_hard"][str(p.seat)])
        assert hard.value == 0.5
    assert [c.text for c in players[0].figures] == ["Moriarty 63%", "hard 50%"]
    piles = [i for i in items if isinstance(i, v.Pile)]
    assert [(p.title, len(p.cards), p.limit, p.note) for p in piles] == [
        ("pink", 0, 4, "explodes at 4; not covered"), ("red", 1, 4, "explodes at 4; not covered"),
        ("blue", 0, 4, "explodes at 4; not covered"), ("green", 0, 3, "explodes at 3; not covered"),
        ("yellow", 1, 4, "explodes at 4; covered by yellow"),
        ("defusing", 0, 5, "Sherlock wins when all 5 are cut")]
    red = piles[1].cards[0]
    assert (red.name, red.colour, red.letter) == ("red", "red", "R")
    assert items[-1] == v.Text("Round 1, 4 cuts left: player 5 holds the cutter", "accent")


def test_the_end_of_the_example() -> None:
    session, items = drawn(len(LINES))
    piles = {i.title: i for i in items if isinstance(i, v.Pile)}
    assert {t: len(p.cards) for t, p in piles.items()} == {"pink": 1, "red": 3, "blue": 3, "green": 2, "yellow": 3,
                                                           "defusing": 5}
    assert piles["green"].note == "explodes at 3; covered by defuse"
    assert not any(i.active for i in items if isinstance(i, v.Player))
    assert items[-1] == v.Text("game over: sherlock wins (all 5 defusing cards are cut)", "accent")
    summary = json.loads(json.dumps(session.summary()))
    for cell in v.cells(items[0]):
        layer, seat = cell.key.split(".")  # type: ignore[union-attr]
        assert cell.value == summary[layer][seat]
