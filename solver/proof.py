"""The proof data of step-by-step explanations: facts, where a premise comes from, steps and chains.

A leaf module: the search (:mod:`solver.steps`), the engine's check of each step (:mod:`solver.steps_check`),
the games' wording of steps and the claims (:mod:`solver.claims`) all read these values, and none of them is
needed to read another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from solver.constraints import Constraint, Lit, Problem

KINDS: dict[str, int] = {
    "stated": 1,
    "one place": 1,
    "count full": 2,
    "only one left": 2,
    "all needed": 3,
    "not all": 3,
    "counts add up": 3,
    "case analysis": 4,
    "so the claim": 1,
}


@dataclass(frozen=True)
class Fact:
    """``lit`` holds (``value`` True) or is ruled out (False)."""

    lit: Lit
    value: bool

    def negated(self) -> Fact:
        return Fact(self.lit, not self.value)


@dataclass(frozen=True)
class Claim:
    """An asked fact that is not one literal: some of ``lits`` holds (``value`` True) or none does (False).

    Evidence's "the blue evidence is 2" when the game has two blue 2s is "one of the two copies is the
    evidence"; "cannot be 2" is "neither copy is". A chain for such a claim ends in one step that concludes it
    (kind "so the claim"), checked by the engine like every other step."""

    lits: tuple[Lit, ...]
    value: bool


#: What a chain concludes: one literal's fact, or a claim over several.
Goal = Fact | Claim


@dataclass(frozen=True)
class Source:
    """Where a constraint comes from: an entry (index into the knowledge's entries), a rule of the deal (index
    into the problem's structure), or the one-value-per-variable rule of a variable."""

    kind: str  # "entry" | "rule" | "domain"
    index: int | str


@dataclass(frozen=True)
class Step:
    """One small deduction: its conclusion, the rule kind, and what it cites (``steps`` are 1-based numbers of
    earlier steps in the chain). ``fact`` is a :class:`Claim` only in a chain's closing step."""

    fact: Fact | Claim
    kind: str
    sources: tuple[Source, ...]
    steps: tuple[int, ...]
    sentence: str = ""

    @property
    def difficulty(self) -> int:
        return KINDS[self.kind]


@dataclass(frozen=True)
class Chain:
    """The steps that end in ``target`` (the last step concludes it); ``complete`` is False when the target is
    not a certain fact (it is still open: a probability, decided by counting, has no chain). A chain for
    several facts at once (:meth:`Explainer.chain_all`) concludes each of ``targets``; ``target`` is its last step's."""

    target: Fact | Claim
    steps: tuple[Step, ...]
    complete: bool = True
    note: str = ""
    targets: tuple[Fact | Claim, ...] = ()

    @property
    def hardest(self) -> int:
        return max((s.difficulty for s in self.steps), default=0)


class Premises(Protocol):
    """What a step's premises are read from: the problem (its variables and rules of the deal) and each
    entry's constraints (what :class:`solver.steps.Explainer` holds)."""

    problem: Problem
    entries: Sequence[Sequence[Constraint]]
