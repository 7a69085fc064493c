"""The shipped example game is a real deal, and ``analyze --json`` gives its exact probabilities.

The expected numbers are computed here independently of the solver: every way to deal the 13 cards seat 1
cannot see is enumerated and checked against what each line of the file *means* in the rulebook (a witness
counts what they see: the other screens, mine included, and their own two private cards; a wrong accuser
sees none of the three cards named and does not hold that mystery; an informant look shows one card).
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from assistant_cli.main import app
from models.thirteen_clues.data import CARD_BY_NAME, DEFAULT_DATA
from models.thirteen_clues.deal import random_deal
from models.thirteen_clues.observations import Accusation, InformantBy, InformantLook, Witness, parse
from tests.models.thirteen_clues.helpers import EXAMPLE

ME = 1
World = tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]], dict[str, str]]  # screens, private, informants


def example_entries() -> list:
    return [parse(line) for line in EXAMPLE.read_text().splitlines() if line.split("#", 1)[0].strip()]


def sees(seat: int, screens: dict[int, tuple[str, ...]], private: dict[int, tuple[str, ...]]) -> list[str]:
    return [*private[seat], *(c for s, screen in screens.items() if s != seat for c in screen)]


def matches(card: str, subject: str) -> bool:
    c = CARD_BY_NAME[card]
    return subject in (c.suit, c.category)


def true_of(obs: object, screens: dict, private: dict, informants: dict) -> bool:
    if isinstance(obs, Witness):
        return sum(matches(c, obs.subject) for c in sees(obs.seat, screens, private)) == obs.count
    if isinstance(obs, Accusation):
        visible = set(sees(obs.seat, screens, private))
        wrong = set(obs.cards) != set(screens[obs.seat])
        return wrong != obs.correct and not visible & set(obs.cards)
    if isinstance(obs, InformantLook):
        return informants.get(obs.letter) == obs.card
    return isinstance(obs, InformantBy)


def worlds() -> Iterator[tuple[str, ...]]:
    """Yield my mystery once per full deal consistent with the example (seat 1's view)."""
    entries = example_entries()
    setup = [e for e in entries if not isinstance(e, Witness | Accusation | InformantLook | InformantBy)]
    obs = [e for e in entries if e not in setup]
    players = next(e.count for e in setup if type(e).__name__ == "Players")
    screens: dict[int, tuple[str, ...]] = {e.seat: e.cards for e in setup if type(e).__name__ == "Screen"}
    private = {ME: next(e.cards for e in setup if type(e).__name__ == "Private")}
    letters = DEFAULT_DATA.informant_letters(players)
    seen = {*private[ME], *(c for s in screens.values() for c in s)}
    unseen = [c.name for c in DEFAULT_DATA.cards_in_play(players) if c.name not in seen]
    fixed = {o.letter: o.card for o in obs if isinstance(o, InformantLook)}
    by_seat = {s: [o for o in obs if isinstance(o, Witness | Accusation) and o.seat == s] for s in range(1, 5)}
    others = [s for s in range(1, players + 1) if s != ME]
    pool = [c for c in unseen if c not in fixed.values()]
    cat = {k: [c for c in pool if CARD_BY_NAME[c].category == k] for k in ("Person", "Location", "Weapon")}

    def fill(i: int, left: list[str]) -> Iterator[list[str]]:
        if i == len(others):
            yield left
            return
        seat = others[i]
        for pair in itertools.combinations(left, 2):
            private[seat] = pair
            # A seat's answers depend only on my mystery, the screens and its own hand: check them now.
            if all(true_of(o, screens, private, {}) for o in by_seat[seat]):
                yield from fill(i + 1, [c for c in left if c not in pair])
        private.pop(seat, None)

    for mystery in itertools.product(cat["Person"], cat["Location"], cat["Weapon"]):
        screens[ME] = mystery
        if not all(true_of(o, screens, private, {}) for o in by_seat[ME]):
            continue
        rest = [c for c in pool if c not in mystery]
        for left in fill(0, rest):
            free = [x for x in letters if x not in fixed]
            for perm in itertools.permutations(left):
                informants = {**fixed, **dict(zip(free, perm, strict=True))}
                if all(true_of(o, screens, private, informants) for o in obs if isinstance(o, InformantLook)):
                    yield mystery


def test_every_line_of_the_example_is_true_of_its_seeded_deal() -> None:
    deal = random_deal(4, random.Random(42))  # the seed named in the file's header
    assert "random.Random(42)" in EXAMPLE.read_text()
    entries = example_entries()
    assert [str(e) for e in entries[:6]] == [str(e) for e in deal.setup_lines(ME)]
    for obs in entries[6:]:
        assert true_of(obs, deal.screens, deal.private, deal.informants), obs
    assert len(entries) - 6 >= 15


def test_analyze_json_matches_an_independent_enumeration() -> None:
    result = CliRunner().invoke(app, ["thirteen-clues", "analyze", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    tally = Counter()
    total = 0
    for mystery in worlds():
        total += 1
        tally.update(mystery)
    assert data["worlds"] == total == 504
    assert data["exact"] is True
    for category, cards in data["mystery"].items():
        expected = {c: n / total for c, n in tally.items() if CARD_BY_NAME[c].category.lower() == category}
        assert cards == pytest.approx(expected), category
    assert data["mystery"]["person"] == pytest.approx({"Officer": 5 / 7, "Nurse": 2 / 7})
    assert data["mystery"]["weapon"] == {"Candlestick": 1.0}
    assert data["solved"] is False
    # The true mystery (Officer, Library, Candlestick) is still possible: the deduction is sound.
    truth = random_deal(4, random.Random(42)).screens[ME]
    assert all(data["mystery"][CARD_BY_NAME[c].category.lower()].get(c, 0) > 0 for c in truth)
    assert data["locations"]["Plaza"] == ["informant A"]
    assert len(data["entries"]) == len(example_entries())
