"""Toy Cards claims: "the CARD is (not) at PLACE", with step chains worded for the game (:mod:`solver.claims`).

Read by the companion session (``why CARD PLACE steps``) and the teacher; every claim is counted exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.claims import Claims, Key
from solver.constraints import CountEquals
from solver.errors import AssistantError
from solver.proof import Fact, Source
from solver.steps import Explainer
from tests.toy_game.data import CARD_NAMES, MYSTERY
from tests.toy_game.knowledge import ToyKnowledge


def where(place: str) -> str:
    return "the mystery" if place == MYSTERY else f"player {place}'s hand"


@dataclass
class ToyDescriber:
    """Facts and premises in words: entries by journal number (when known) and as typed."""

    kn: ToyKnowledge
    numbers: Sequence[int] | None = None

    def fact(self, fact: Fact) -> str:
        card, place = fact.lit
        return f"the {card} is {'' if fact.value else 'not '}in {where(place)}"

    def source(self, source: Source) -> str:
        if source.kind == "entry":
            i = int(source.index)
            text = str(self.kn.knowledge.entries[i].observation)
            return f"entry {self.numbers[i]} '{text}'" if self.numbers else f"'{text}'"
        if source.kind == "domain":
            return f"the {source.index} is in exactly one place"
        rule = self.kn.problem.structure[int(source.index)]
        assert isinstance(rule, CountEquals)
        return f"the deal: {where(rule.terms[0][1])} holds one card"


class ToyClaims(Claims[ToyKnowledge]):
    """The claims over ``knowledge``; ``numbers`` are its entries' journal numbers."""

    syntax = "CARD PLACE  (PLACE: a seat number or 'mystery')"
    example = "King mystery"
    focus_name = "the mystery"

    def __init__(self, knowledge: ToyKnowledge | None, numbers: Sequence[int] | None = None) -> None:
        super().__init__(knowledge)
        self.numbers = numbers

    def decided(self) -> dict[Key, bool]:
        kn = self._knowledge()
        out: dict[Key, bool] = {}
        for card, places in kn.possible().items():
            if card == kn.hand:
                continue  # what I hold is no deduction
            for place in kn.places:
                if place not in places:
                    out[(card, place)] = False
                elif len(places) == 1:
                    out[(card, place)] = True
        return out

    def open(self) -> dict[Key, float]:
        kn = self._knowledge()
        return {(card, place): p for card, row in kn.probabilities().items() for place, p in row.items()
                if 0.0 < p < 1.0}

    def probability(self, key: Key) -> float:
        card, place = key  # type: ignore[misc]
        return self._knowledge().probabilities()[card][place]

    def count_text(self, key: Key) -> str:
        kn = self._knowledge()
        count = kn.knowledge.count()
        return f"{count.weights.get(key, 0.0):.0f} of {count.worlds:.0f} deals"  # type: ignore[arg-type]

    def say(self, key: Key, value: bool | None = None) -> str:
        card, place = key  # type: ignore[misc]
        if value is None:
            return f"the {card} in {where(place)}"
        return f"the {card} is {'' if value else 'not '}in {where(place)}"

    def text(self, key: Key) -> str:
        card, place = key  # type: ignore[misc]
        return f"{card} {place}"

    def focus(self, key: Key) -> bool:
        return key[1] == MYSTERY  # type: ignore[index]

    def parse(self, text: str) -> Key:
        kn = self._knowledge()
        words = text.split()
        if len(words) != 2:
            raise AssistantError(f"'{text[:40]}': expected {self.syntax}, e.g. '{self.example}'")
        card = CARD_NAMES.resolve(words[0])
        if card not in kn.cards:
            raise AssistantError(f"'{card}': not in a {kn.players}-player game")
        place = words[1].lower()
        if place not in kn.places:
            raise AssistantError(f"'{words[1][:20]}': expected a seat from 1 to {kn.players} or 'mystery'")
        return (card, place)

    def explainer(self) -> Explainer:
        kn = self._knowledge()
        inner = kn.knowledge
        return Explainer(inner.problem, [e.constraints for e in inner.entries], ToyDescriber(kn, self.numbers))
