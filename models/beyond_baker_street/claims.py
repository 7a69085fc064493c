"""Beyond Baker Street claims: "CARD is (not) at your position N", for every card you cannot see.

Read by the companion session (``why POSITION CARD steps``) and by the teacher
(:mod:`models.beyond_baker_street.teach`); see :mod:`solver.claims`.
"""

from __future__ import annotations

from models.beyond_baker_street.data import EVIDENCE_BY_CODE
from models.beyond_baker_street.explain import explainer
from models.beyond_baker_street.knowledge import HandKnowledge
from solver.claims import Claims, Key
from solver.errors import AssistantError
from solver.proof import Fact
from solver.steps import Explainer
from solver.text import plural


class BeyondBakerStreetClaims(Claims[HandKnowledge]):
    """The claims over ``knowledge`` (my hand, position by position)."""

    syntax = "CARD POSITION  (a card code such as 3D, and one of your positions)"
    example = "3D 2"
    focus_name = "your hand"

    def decided(self) -> dict[Key, bool]:
        kn = self._knowledge()
        unseen = kn.unseen()
        out: dict[Key, bool] = {}
        for pos, dist in enumerate(kn.hand(), start=1):
            for card in unseen:
                p = dist.get(card, 0.0)
                if p == 0.0:
                    out[(card.code, pos)] = False
                elif p == 1.0:
                    out[(card.code, pos)] = True
        return out

    def open(self) -> dict[Key, float]:
        return {(card.code, pos): p for pos, dist in enumerate(self._knowledge().hand(), start=1)
                for card, p in dist.items() if 0.0 < p < 1.0}

    def probability(self, key: Key) -> float:
        code, pos = key  # type: ignore[misc]
        return float(self._knowledge().hand()[pos - 1].get(EVIDENCE_BY_CODE[code], 0.0))

    def say(self, key: Key, value: bool | None = None) -> str:
        code, pos = key  # type: ignore[misc]
        if value is None:
            return f"{code} at your position {pos}"
        return f"{code} is {'' if value else 'not '}at your position {pos}"

    def text(self, key: Key) -> str:
        code, pos = key  # type: ignore[misc]
        return f"{code} {pos}"

    def parse(self, text: str) -> Key:
        kn = self._knowledge()
        words = text.upper().split()
        held = len(kn.hands[kn.me])
        if len(words) != 2 or words[0] not in EVIDENCE_BY_CODE or not words[1].isdigit():
            raise AssistantError(f"'{text}': expected {self.syntax}, e.g. '{self.example}'")
        pos = int(words[1][:9])
        if not 1 <= pos <= held:
            raise AssistantError(f"'{text}': position {pos}, but you hold {plural(held, 'card')}")
        card = EVIDENCE_BY_CODE[words[0]]
        if card not in kn.unseen():
            raise AssistantError(f"'{text}': you can see {card.code} ({kn.where(card)})")
        return (card.code, pos)

    def explainer(self) -> Explainer:
        return explainer(self._knowledge())

    def targets(self, key: Key, value: bool) -> list[Fact]:
        code, pos = key  # type: ignore[misc]
        return [Fact((code, f"p{pos}"), value)]
