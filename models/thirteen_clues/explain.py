"""Thirteen Clues step-by-step explanations: the :mod:`solver.steps` chain in a player's words.

Cards and places as at the table ("the Knife is not in your mystery", "player 3 holds 2 private cards"), the
rules of the deal named in words (each place's size, "your mystery holds one Weapon"), entries quoted as
typed. Only the wording lives here; the chain and its check are game-agnostic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models.thirteen_clues.data import CARD_BY_NAME
from models.thirteen_clues.knowledge import MYSTERY, ThirteenCluesKnowledge, place_label
from solver.constraints import CountEquals
from solver.steps import Explainer, Fact, Source


def where(place: str) -> str:
    """``place`` after 'in': 'your mystery', "player 3's private cards", 'informant A'."""
    if place == MYSTERY:
        return "your mystery"
    if place.startswith("p"):
        seat = place[1:].rstrip("LR")
        side = {"L": "left", "R": "right"}.get(place[-1])
        return f"player {seat}'s {side} private card" if side else f"player {seat}'s private cards"
    return f"informant {place}"


def entry_label(number: int | None, text: str) -> str:
    """An entry as cited: its journal number when known, and the line as typed."""
    return f"entry {number} '{text}'" if number is not None else f"'{text}'"


@dataclass
class ThirteenCluesDescriber:
    """Wording for Thirteen Clues; ``entries`` are the observations' texts, ``numbers`` their journal lines."""

    kn: ThirteenCluesKnowledge
    entries: Sequence[str]
    numbers: Sequence[int] | None = None

    def fact(self, fact: Fact) -> str:
        card, place = fact.lit
        return f"the {card} is {'' if fact.value else 'not '}in {where(place)}"

    def source(self, source: Source) -> str:
        if source.kind == "entry":
            i = int(source.index)
            return entry_label(self.numbers[i] if self.numbers else None, self.entries[i])
        if source.kind == "domain":
            return f"the {source.index} is in exactly one place"
        c = self.kn.knowledge.problem.structure[int(source.index)]
        assert isinstance(c, CountEquals)
        places = {p for _, p in c.terms}
        place = next(iter(places))
        cards = {card for card, _ in c.terms}
        if len(cards) < len(self.kn.unseen):  # a category rule: one card of a category in the mystery
            category = CARD_BY_NAME[next(iter(cards))].category
            return f"the deal: your mystery holds one {category}"
        if place == MYSTERY:
            return "the deal: your mystery holds 3 cards"
        if place.startswith("p"):
            n = c.count
            return f"the deal: {place_label(place).split(' (')[0]} holds {n} private card{'s' if n != 1 else ''}"
        return f"the deal: informant {place} is one card"


def explainer(kn: ThirteenCluesKnowledge, numbers: Sequence[int] | None = None) -> Explainer:
    """An :class:`Explainer` over ``kn``'s entries, worded for Thirteen Clues."""
    inner = kn.knowledge
    describer = ThirteenCluesDescriber(kn, [str(e.observation) for e in inner.entries], numbers)
    return Explainer(inner.problem, [e.constraints for e in inner.entries], describer)
