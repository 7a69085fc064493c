"""Evidence step-by-step explanations: the :mod:`solver.steps` chain over the rumour copies of
:meth:`EvidenceKnowledge.solver_knowledge`, in a player's words ("a brown 2 is not the brown evidence",
"player 3 holds 2 brown rumours": the card backs show the colour).

A mystery's evidence "cannot be 2" is one fact per unplaced copy of the 2 (each is not the evidence); it is
"certainly 2" when every copy of every other value is ruled out. :func:`targets` lists those facts, for
:meth:`solver.steps.Explainer.chain_all`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models.evidence.knowledge import EVIDENCE, EvidenceKnowledge, parse_copy, place_label
from solver.constraints import CountEquals
from solver.steps import Explainer, Fact, Source


def copy_label(name: str) -> str:
    colour, value, k = name.split(":")
    return f"the {colour} {value} (copy {k})"


@dataclass
class EvidenceDescriber:
    """Wording for Evidence; ``entries`` are the rumour events' texts."""

    kn: EvidenceKnowledge
    entries: Sequence[str]

    def fact(self, fact: Fact) -> str:
        name, place = fact.lit
        colour, _ = parse_copy(name)
        if place == EVIDENCE:
            return f"{copy_label(name)} is {'' if fact.value else 'not '}the {colour} evidence"
        return f"{copy_label(name)} is {'' if fact.value else 'not '}in {place_label(place)}"

    def source(self, source: Source) -> str:
        if source.kind == "entry":
            return f"'{self.entries[int(source.index)]}'"
        if source.kind == "domain":
            return f"{copy_label(str(source.index))} is in one place only"
        c = self.kn.solver_knowledge().problem.structure[int(source.index)]
        assert isinstance(c, CountEquals)
        name, place = c.terms[0]
        colour, _ = parse_copy(name)
        if place == EVIDENCE:
            return f"the {colour} evidence is one card"
        n = c.count
        return f"{place_label(place)} holds {n} {colour} rumour{'s' if n != 1 else ''} (the backs show it)"


def targets(kn: EvidenceKnowledge, colour: str, value: int, certain: bool) -> list[Fact]:
    """The copy facts that make up "the ``colour`` evidence cannot be ``value``" (or, ``certain``, "is")."""
    problem = kn.solver_knowledge().problem
    names = [v for v in problem.variables if v.startswith(f"{colour}:")]
    if certain:
        return [Fact((v, EVIDENCE), False) for v in names if parse_copy(v)[1] != value]
    return [Fact((v, EVIDENCE), False) for v in names if parse_copy(v)[1] == value]


def explainer(kn: EvidenceKnowledge) -> Explainer:
    """An :class:`Explainer` over the CP-SAT rumour model, worded for Evidence."""
    inner = kn.solver_knowledge()
    describer = EvidenceDescriber(kn, [str(e.observation) for e in inner.entries])
    return Explainer(inner.problem, [e.constraints for e in inner.entries], describer)
