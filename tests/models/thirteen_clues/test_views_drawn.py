"""Thirteen Clues draws itself (issue 19 §1): my mystery's candidates, the cards I see, and the card x holder grid,
each cell certain, ruled out or its exact probability, keyed to ``analyze --json`` and checked against the
brute-force reference."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from models.thirteen_clues.knowledge import MYSTERY
from models.thirteen_clues.session import ThirteenCluesSession
from solver import reference
from solver import view as v
from solver.session import read_lines

ROOT = Path(__file__).resolve().parents[3]
LINES = [line for _, line in read_lines(ROOT / "examples" / "thirteen-clues-4p.txt")]
PLACES = ("mystery", "p2", "p3", "p4", "A", "B", "C", "D")


def replayed(count: int = len(LINES)) -> ThirteenCluesSession:
    session = ThirteenCluesSession()
    session.replay(LINES[:count])
    return session


def frac(p: float | None) -> Fraction:
    assert p is not None
    return Fraction(p).limit_denominator(1000)


def drawn(session: ThirteenCluesSession) -> v.Group:
    view = session.state()[0]
    assert isinstance(view, v.Group)
    return view


def test_the_grid_of_the_example_cell_by_cell() -> None:
    """After the 24 entries: Plaza is informant A (I looked), Rifle informant C, Candlestick my mystery; Nurse
    could be in six places. Every row is drawn with its suit's colour and letters."""
    grid = drawn(replayed()).items[-1]
    assert isinstance(grid, v.Grid)
    assert grid.columns == ("you", "2", "3", "4", "A", "B", "C", "D")
    names = [row.name for row in grid.rows if isinstance(row, v.Card)]
    assert names == ["Butcher", "Countess", "Nurse", "Officer", "Harbor", "Library", "Museum", "Plaza", "Theater",
                     "Blowgun", "Candlestick", "Poison", "Rifle"]
    rows = dict(zip(names, grid.cells, strict=True))
    nurse = [(c.kind, frac(c.value)) for c in rows["Nurse"]]
    assert nurse == [("prob", Fraction(2, 7)), ("prob", Fraction(1, 7)), ("prob", Fraction(1, 7)),
                     ("prob", Fraction(2, 7)), ("ruled_out", 0), ("prob", Fraction(1, 14)), ("ruled_out", 0),
                     ("prob", Fraction(1, 14))]
    assert [c.text for c in rows["Nurse"]] == ["29", "14", "14", "29", "✘", "7", "✘", "7"]
    assert [c.kind for c in rows["Plaza"]] == ["ruled_out"] * 4 + ["certain"] + ["ruled_out"] * 3
    assert [c.kind for c in rows["Candlestick"]] == ["certain"] + ["ruled_out"] * 7
    assert [c.kind for c in rows["Rifle"]] == ["ruled_out"] * 6 + ["certain", "ruled_out"]
    assert rows["Nurse"][0].key == "grid.Nurse.mystery" and rows["Nurse"][1].why == "why Nurse 2"
    assert rows["Plaza"][4].why == "why Plaza A"
    officer = grid.rows[3]
    assert isinstance(officer, v.Card) and (officer.colour, officer.letter) == ("purple", "Pu")


def test_the_grid_equals_the_brute_force_reference_and_sums_to_one() -> None:
    session = replayed()
    kn = session.knowledge
    assert kn is not None
    observed = [c for e in kn.knowledge.entries for c in e.constraints]
    ref = reference.solve(kn.knowledge.problem, observed)
    assert ref.worlds == 504
    for card, row in session.grid().items():
        assert sum(row.values()) == pytest.approx(1.0, abs=1e-12)
        for place in PLACES:
            assert row[place] == pytest.approx(ref.probability((card, place)), abs=1e-12), (card, place)


def test_mystery_candidates_and_the_cards_i_see() -> None:
    group = drawn(replayed())
    mystery, private, *screens = group.items[:5]
    assert isinstance(mystery, v.Hand) and mystery.title == "Your mystery"
    shown = [[(c.name, c.status, frac(c.p.value) if c.p else None, c.p.key if c.p else None) for c in pos.cards]
             for pos in mystery.positions]
    assert shown == [
        [("Officer", "candidate", Fraction(5, 7), "mystery.person.Officer"),
         ("Nurse", "candidate", Fraction(2, 7), "mystery.person.Nurse")],
        [("Library", "candidate", Fraction(1, 2), "mystery.location.Library"),
         ("Museum", "candidate", Fraction(1, 2), "mystery.location.Museum")],
        [("Candlestick", "candidate", Fraction(1), "mystery.weapon.Candlestick")],
    ]
    assert mystery.positions[2].cards[0].p is not None and mystery.positions[2].cards[0].p.kind == "certain"
    assert isinstance(private, v.Hand)
    assert [(p.label, p.cards[0].name) for p in private.positions] == [("left", "Duke"), ("right", "Sword")]
    assert [[c.name for p in h.positions for c in p.cards] for h in screens if isinstance(h, v.Hand)] == [
        ["Maid", "Parlor", "Gun"], ["Dancer", "Park", "Crossbow"], ["Sailor", "Market", "Knife"]]


def test_every_drawn_probability_is_the_analyze_json_value_at_every_step() -> None:
    for count in (6, 12, 18, len(LINES)):
        session = replayed(count)
        summary = json.loads(json.dumps(session.summary()))
        keyed = [c for c in v.cells(drawn(session)) if c.key]
        grid_keys = {c.key for c in keyed if c.key.startswith("grid.")}
        assert grid_keys == {f"grid.{card}.{place}" for card in summary["grid"] for place in PLACES}
        for cell in keyed:
            category, rest = cell.key.split(".", 1)
            top, name = rest.split(".", 1) if category == "mystery" else rest.rsplit(".", 1)
            assert cell.value == summary[category][top][name], cell


def test_the_grid_needs_no_count_budget() -> None:
    """The grid comes from exact joint counts: a tiny count budget leaves it exact."""
    session = ThirteenCluesSession(count_budget=0.1)
    session.replay(LINES)
    assert session.grid() == replayed().grid()
    assert MYSTERY in session.grid()["Nurse"]


def test_the_grid_follows_every_entry_and_undo() -> None:
    """The grid is kept for the constraints it was counted for: an entry or an undo counts it again."""
    session = replayed(6)
    for count in range(7, len(LINES) + 1):
        before = session.grid()
        session.handle(LINES[count - 1], show=False)
        assert session.grid() == replayed(count).grid()
        session.handle("undo", show=False)
        assert session.grid() == before
        session.handle(LINES[count - 1], show=False)
