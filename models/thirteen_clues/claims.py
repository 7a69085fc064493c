"""Thirteen Clues claims: "the CARD is (not) in PLACE", for every card you cannot see.

Read by the companion session (``why CARD steps``) and by the teacher (:mod:`models.thirteen_clues.teach`);
see :mod:`solver.claims`. Only the mystery's cards are counted, so only they have a probability.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.thirteen_clues.explain import explainer, where
from models.thirteen_clues.knowledge import MYSTERY, ThirteenCluesKnowledge
from models.thirteen_clues.observations import CARD_NAMES
from solver.claims import Claims, Key
from solver.errors import AssistantError
from solver.steps import Explainer


class ThirteenCluesClaims(Claims[ThirteenCluesKnowledge]):
    """The claims over ``knowledge``; ``numbers`` are the journal numbers of its entries (for the chains)."""

    syntax = "CARD [PLACE]  (PLACE: mystery (the default), a seat number, or an informant letter)"
    example = "Knife  or  Knife 3"
    focus_name = "your mystery"

    def __init__(self, knowledge: ThirteenCluesKnowledge | None, numbers: Sequence[int] | None = None) -> None:
        super().__init__(knowledge)
        self.numbers = numbers

    def decided(self) -> dict[Key, bool]:
        kn = self._knowledge()
        possible = kn.knowledge.possible()
        out: dict[Key, bool] = {}
        for card in kn.unseen:
            places = possible[card]
            for place in kn.capacities:
                if place not in places:
                    out[(card, place)] = False
                elif len(places) == 1:
                    out[(card, place)] = True
        return out

    def open(self) -> dict[Key, float]:
        kn = self._knowledge()
        count = kn.count()
        decided = self.decided()
        return {(c, MYSTERY): count.probability((c, MYSTERY)) for c in kn.unseen if (c, MYSTERY) not in decided}

    def probability(self, key: Key) -> float | None:
        """Only the mystery's cards are counted (the counter weighs the mystery's literals)."""
        if key[1] != MYSTERY:  # type: ignore[index]
            return None
        return float(self._knowledge().count().probability(key))

    def count_text(self, key: Key) -> str:
        if key[1] != MYSTERY:  # type: ignore[index]
            return ""
        count = self._knowledge().count()
        exact = "" if count.exact else " (estimated)"
        return f"{count.weights.get(key, 0.0):,.0f} of {count.worlds:,.0f} arrangements of your unseen cards{exact}"

    def say(self, key: Key, value: bool | None = None) -> str:
        card, place = key  # type: ignore[misc]
        if value is None:
            return f"the {card} in {where(place)}"
        return f"the {card} is {'' if value else 'not '}in {where(place)}"

    def text(self, key: Key) -> str:
        card, place = key  # type: ignore[misc]
        if place == MYSTERY:
            return card
        return f"{card} {place[1:]}" if place.startswith("p") else f"{card} {place}"

    def focus(self, key: Key) -> bool:
        return key[1] == MYSTERY  # type: ignore[index]

    def parse(self, text: str) -> Key:
        kn = self._knowledge()
        words = text.split()
        if not words:
            raise AssistantError(f"expected {self.syntax}")
        card, i = CARD_NAMES.take(words, 0)
        rest = "".join(words[i:]).lower()
        if card not in kn.unseen:
            seen = kn.where_visible(card) if card in kn.in_play else "not in play in this game"
            raise AssistantError(f"'{card}': you can see it ({seen}); name one of your 13 unseen cards")
        if rest in ("", "mystery", "my", "me"):
            return (card, MYSTERY)
        if rest.upper() in kn.letters:
            return (card, rest.upper())
        for place in kn.capacities:
            if place.startswith("p") and rest in (place[1:].lower(), place[1:-1] + ("left" if place[-1] == "L"
                                                                                       else "right")):
                return (card, place)
        raise AssistantError(f"'{text}': unknown place '{' '.join(words[i:])}'; expected {self.syntax}")

    def explainer(self) -> Explainer:
        return explainer(self._knowledge(), self.numbers)
