"""Evidence step-by-step explanations: the :mod:`solver.steps` chain over the rumour copies of
:meth:`EvidenceKnowledge.solver_knowledge`, in a player's words ("the brown 2 is not the brown evidence",
"player 3 was dealt 2 brown rumours": the card backs show the colour).

A card that has moved is said where it is now: a rumour another player played "was played by player 4", one
uncovered from a pile "was uncovered from player 2's unknown rumours". The rule that a mystery's evidence is
one card names the cards of that colour you have seen (at setup, in your hand), which no variable holds: the
evidence is none of them.

A mystery's evidence "cannot be 2" is one fact per unplaced copy of the 2 (each is not the evidence); it is
"certainly 2" when every copy of every other value is ruled out. :func:`targets` lists the facts a chain
derives first, :func:`goal` what its last step concludes: the one copy's fact where the game has a single 2,
else a :class:`solver.proof.Claim` over the copies, closed by a step of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from models.evidence.knowledge import EVIDENCE, EvidenceKnowledge, parse_copy, place_label
from models.evidence.observations import Observation, Play, Reveal
from solver.constraints import CountEquals
from solver.proof import Claim, Goal
from solver.steps import Explainer, Fact, Source
from solver.text import plural


def copy_label(kn: EvidenceKnowledge, name: str) -> str:
    """'the blue 1', or 'the blue 2 (copy 2)' where the game has several blue 2s."""
    colour, value, k = name.split(":")
    if kn.data.multiset(colour)[int(value)] > 1:
        return f"the {colour} {value} (copy {k})"
    return f"the {colour} {value}"


def _values(values: Sequence[int]) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def seen_text(kn: EvidenceKnowledge, colour: str, value: int | None = None) -> str:
    """The ``colour`` rumours (of ``value`` only, if given) you have seen, where: 'the blue 2 was revealed at
    setup; the blue 0, 3 and 4 are in your hand' ('' if none)."""
    assert kn.setup.hand is not None
    parts = []
    for cards, where in ((kn.setup.setup_cards, "revealed at setup"), (kn.setup.hand, "dealt to you")):
        seen = Counter(v for c, v in cards if c == colour and (value is None or v == value))
        if seen:
            values = [v for v, n in sorted(seen.items()) for _ in range(n)]
            verb = "were" if len(values) > 1 else "was"
            parts.append(f"the {colour} {_values(values)} {verb} {where}")
    return "; ".join(parts)


@dataclass
class EvidenceDescriber:
    """Wording for Evidence; ``entries`` are the rumour events, in the knowledge's order."""

    kn: EvidenceKnowledge
    entries: Sequence[Observation]

    def fact(self, fact: Fact) -> str:
        name, place = fact.lit
        colour, _ = parse_copy(name)
        label = copy_label(self.kn, name)
        if place == EVIDENCE:
            return f"{label} is {'' if fact.value else 'not '}the {colour} evidence"
        if fact.value:
            moved = self._moved(name, place)
            if moved:
                return f"{label} {moved}"
            return f"{label} is in {place_label(place)}"
        if place.startswith("p"):
            return f"{label} was not dealt to player {place[1:]}"
        return f"{label} is not among {place_label(place)}"

    def _moved(self, name: str, place: str) -> str:
        """Where a card pinned to ``place`` by a play or an uncovering is now ('' if it was not moved)."""
        pinned = self.kn.pins.get(name)
        if pinned is None or pinned[0] != place:
            return ""
        event = self.kn.events[pinned[1]]
        if isinstance(event, Play):
            return f"was played by player {event.seat}"
        if isinstance(event, Reveal):
            return f"was uncovered from player {event.seat}'s unknown rumours"
        return ""

    def source(self, source: Source) -> str:
        if source.kind == "entry":
            return f"'{self.entries[int(source.index)]}'"
        if source.kind == "domain":
            name = str(source.index)
            colour, _ = parse_copy(name)
            places = [f"the {colour} evidence" if pl == EVIDENCE else place_label(pl)
                      for pl in self.kn.solver_knowledge().problem.variables[name]]
            where = places[0] if len(places) == 1 else f"{', '.join(places[:-1])} or {places[-1]}"
            return (f"{copy_label(self.kn, name)} is in one place: {where} (the places that hold {colour} cards "
                    "you have not seen)")
        c = self.kn.solver_knowledge().problem.structure[int(source.index)]
        assert isinstance(c, CountEquals)
        name, place = c.terms[0]
        colour, _ = parse_copy(name)
        if place == EVIDENCE:
            seen = seen_text(self.kn, colour)
            return f"the {colour} evidence is one card" + (f", none you have seen ({seen})" if seen else "")
        rumours = plural(c.count, f"{colour} rumour")
        if place.startswith("p"):
            return f"player {place[1:]} was dealt {rumours} (the backs show it)"
        return f"{place_label(place)} are {rumours} (the backs show it)"


def copies(kn: EvidenceKnowledge, colour: str) -> list[str]:
    """The hidden copies of ``colour`` (the chain's variables)."""
    return [v for v in kn.solver_knowledge().problem.variables if v.startswith(f"{colour}:")]


def targets(kn: EvidenceKnowledge, colour: str, value: int, certain: bool) -> list[Fact]:
    """The copy facts a chain for "the ``colour`` evidence cannot be ``value``" (or, ``certain``, "is") derives
    first: every copy of the value ruled out (or every copy of every other value); for a value the game has
    once, "is" is the copy's own fact."""
    names = copies(kn, colour)
    goal_ = goal(kn, colour, value, certain)
    if isinstance(goal_, Fact):
        return [goal_]
    if certain:
        return [Fact((v, EVIDENCE), False) for v in names if parse_copy(v)[1] != value]
    return [Fact((v, EVIDENCE), False) for v in names if parse_copy(v)[1] == value]


def goal(kn: EvidenceKnowledge, colour: str, value: int, certain: bool) -> Goal:
    """What the chain's last step concludes: the one copy of ``value`` is (not) the evidence where the game has
    a single one and it is hidden; else "some copy of the value is the evidence" / "no copy is"."""
    mine = [(v, EVIDENCE) for v in copies(kn, colour) if parse_copy(v)[1] == value]
    if kn.data.multiset(colour)[value] == 1 and len(mine) == 1:
        return Fact(mine[0], certain)
    return Claim(tuple(mine), certain)


def explainer(kn: EvidenceKnowledge) -> Explainer:
    """An :class:`Explainer` over the CP-SAT rumour model, worded for Evidence."""
    inner = kn.solver_knowledge()
    describer = EvidenceDescriber(kn, [e.observation for e in inner.entries])
    return Explainer(inner.problem, [e.constraints for e in inner.entries], describer)
