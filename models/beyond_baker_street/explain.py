"""Beyond Baker Street step-by-step explanations: the :mod:`solver.steps` chain over the hand model of
:meth:`HandKnowledge.constraint_model` (each Evidence card is at one of my positions, in the deck, or seen), in
a player's words ("3D is not at your position 2", "the Assist 'assist 3 2 5 at 2 4' names every 5 you hold").
"""

from __future__ import annotations

from dataclasses import dataclass

from models.beyond_baker_street.knowledge import HandKnowledge, Reason, Sighting
from solver.constraints import CountEquals
from solver.knowledge import Knowledge
from solver.steps import Explainer, Fact, Source
from solver.text import plural


def where(value: str) -> str:
    """A value of the hand model after 'is': 'at your position 2', 'in the deck', 'where you can see it'."""
    if value == "deck":
        return "in the deck"
    if value == "seen":
        return "where you can see it"
    return f"at your position {value[1:]}"


@dataclass
class BakerStreetDescriber:
    """Wording for Beyond Baker Street over one :meth:`HandKnowledge.constraint_model`."""

    model: Knowledge[Reason]

    def fact(self, fact: Fact) -> str:
        card, value = fact.lit
        return f"{card} is {'' if fact.value else 'not '}{where(value)}"

    def source(self, source: Source) -> str:
        if source.kind == "entry":
            reason = self.model.entries[int(source.index)].observation
            if isinstance(reason, Sighting):
                return f"you see {reason.card.code} {reason.where}"
            verb = "is" if reason.named else "is not"
            return (f"the Assist '{reason.assist}' (your position {reason.position} {verb} a "
                    f"{reason.assist.subject})")
        if source.kind == "domain":
            return f"{source.index} is in one place only"
        c = self.model.problem.structure[int(source.index)]
        assert isinstance(c, CountEquals)
        value = c.terms[0][1]
        if value == "deck":
            return f"the deck holds {plural(c.count, 'card')} (the cards you cannot see, less your hand)"
        if value == "seen":
            return f"you can see {plural(c.count, 'card')}"
        return f"your position {value[1:]} holds one card"


def explainer(kn: HandKnowledge) -> Explainer:
    """An :class:`Explainer` over my hand's constraint model, worded for Beyond Baker Street."""
    model = kn.constraint_model()
    return Explainer(model.problem, [e.constraints for e in model.entries], BakerStreetDescriber(model))
