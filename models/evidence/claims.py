"""Evidence claims: "the COLOUR evidence is (not) VALUE", for every mystery.

Read by the companion session (``why COLOUR VALUE steps``) and by the teacher (:mod:`models.evidence.teach`);
see :mod:`solver.claims`.
"""

from __future__ import annotations

from models.evidence.explain import explainer, goal, seen_text, targets
from models.evidence.knowledge import EvidenceKnowledge
from models.evidence.observations import colour_of
from solver.claims import Claims, Key
from solver.errors import AssistantError
from solver.parsing import is_whole
from solver.proof import Fact, Goal
from solver.steps import Explainer


class EvidenceClaims(Claims[EvidenceKnowledge]):
    """The claims over ``knowledge`` (each mystery's evidence value)."""

    syntax = "COLOUR VALUE  (a mystery's colour and an evidence value)"
    example = "brown 2"
    focus_name = "the mysteries' evidence"

    def decided(self) -> dict[Key, bool]:
        kn = self._knowledge()
        out: dict[Key, bool] = {}
        for colour, values in kn.possible().items():
            for v in kn.data.distinct_values(colour):
                if v not in values:
                    out[(colour, v)] = False
                elif len(values) == 1:
                    out[(colour, v)] = True
        return out

    def open(self) -> dict[Key, float]:
        dist = self._knowledge().distribution()
        return {(c, v): p for c, row in dist.items() for v, p in row.items() if 0.0 < p < 1.0}

    def probability(self, key: Key) -> float:
        colour, value = key  # type: ignore[misc]
        return float(self._knowledge().distribution()[colour].get(value, 0.0))

    def say(self, key: Key, value: bool | None = None) -> str:
        colour, v = key  # type: ignore[misc]
        if value is None:
            return f"the {colour} evidence being {v}"
        return f"the {colour} evidence {'is' if value else 'cannot be'} {v}"

    def text(self, key: Key) -> str:
        colour, v = key  # type: ignore[misc]
        return f"{colour} {v}"

    def parse(self, text: str) -> Key:
        kn = self._knowledge()
        words = text.split()
        if len(words) != 2:
            raise AssistantError(f"'{text}': expected {self.syntax}, e.g. '{self.example}'")
        colour = colour_of(words[0])
        if not is_whole(words[1]) or len(words[1]) > 9:
            raise AssistantError(f"'{text}': value '{words[1]}': expected a whole number")
        value = int(words[1])
        values = kn.data.distinct_values(colour)
        if value not in values:
            raise AssistantError(f"'{text}': a {colour} rumour is one of {', '.join(map(str, values))}")
        return (colour, value)

    def explainer(self) -> Explainer:
        return explainer(self._knowledge())

    def targets(self, key: Key, value: bool) -> list[Fact]:
        colour, v = key  # type: ignore[misc]
        return targets(self._knowledge(), colour, v, value)

    def count_text(self, key: Key) -> str:
        """The count behind the probability: every hidden rumour of the colour is equally likely to be its
        evidence ('2 of the 5 blue rumours you have not seen are 3s')."""
        colour, v = key  # type: ignore[misc]
        kn = self._knowledge()
        if kn.evidence_known(colour) is not None:
            return ""
        free = kn.free_copies(colour)
        n = sum(free.values())
        k = free[v]
        are = "is a" if k == 1 else "are"
        return f"{k} of the {n} {colour} rumours you have not seen {are} {v}{'' if k == 1 else 's'}"

    def goal(self, key: Key, value: bool) -> Goal:
        colour, v = key  # type: ignore[misc]
        return goal(self._knowledge(), colour, v, value)

    def given(self, key: Key, value: bool) -> str:
        """The cards of the value (for "cannot be") or of the colour (for "is") you saw at setup or hold."""
        colour, v = key  # type: ignore[misc]
        return seen_text(self._knowledge(), colour, None if value else v)
