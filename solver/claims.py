"""Claims: the yes/no facts a game's knowledge decides, in the game's words, with their explanations.

A claim is a hashable key (Thirteen Clues: a card in a place; Beyond Baker Street: a card at one of my
positions; Evidence: a mystery's evidence value; Time Bomb: how many cards of a colour are in play). Each game
implements :class:`Claims` over one knowledge state in ``models/<game>/claims.py``; both its companion session
(``why ... steps``) and its teacher (exercises, replays) read it, so neither imports the other.

An explanation is a verified chain of steps (:mod:`solver.steps`) whose last step is the claim that was asked
(its *goal*: one literal's fact, or a :class:`solver.proof.Claim` over several, closed by a step of its own), or,
where the game's model has no literal-level chain (Time Bomb's counts), the count that decides the claim and the
entries behind it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from solver.constraints import Constraint, Problem
from solver.errors import AssistantError
from solver.proof import Chain, Claim, Fact, Goal
from solver.steps import Explainer

Key = Hashable


@dataclass(frozen=True)
class Case:
    """A "case analysis" line of an explanation without a chain (Time Bomb): the entries ``premises`` (each
    entry's constraints) leave no world of ``problem`` where ``case`` holds; ``what`` is the case in the game's
    terms and ``line`` the explanation line (0-based) that says it. :func:`solver.steps_check.case_problem`
    checks it on a fresh model."""

    problem: Problem
    premises: tuple[tuple[Constraint, ...], ...]
    case: tuple[Constraint, ...]
    what: object
    line: int


@dataclass(frozen=True)
class Explained:
    """A decided claim's explanation: a verified chain of steps (``chain``, checkable with ``explainer``), or,
    when no short chain exists, ``note`` (the count that decides it)."""

    lines: tuple[str, ...]
    chain: Chain | None = None
    explainer: Explainer | None = None
    note: str = ""
    level: int | None = None  # the level, where no chain measures it
    goals: tuple[Goal, ...] = ()  # what the chain concludes, in the order its steps do (the last is its last)
    cases: tuple[Case, ...] = ()  # without a chain: the case analyses its lines state, each checkable alone


def chain_lines(chain: Chain) -> tuple[str, ...]:
    """The numbered steps, each with its kind and the earlier steps it uses."""
    out = []
    for n, step in enumerate(chain.steps, start=1):
        plural = "s" if len(step.steps) > 1 else ""
        uses = f"; uses step{plural} {', '.join(map(str, step.steps))}" if step.steps else ""
        out.append(f"{n}. {step.sentence} [{step.kind}{uses}]")
    return tuple(out)


def explained_chain(explainer: Explainer, targets: Sequence[Fact], goals: Sequence[tuple[Goal, str]] = (),
                    given: dict[Goal, str] | None = None) -> Explained:
    """The one chain that concludes every fact of ``targets`` and then every goal of ``goals`` (with its words),
    ending in the last goal."""
    chain = explainer.chain_all(targets) if targets else None
    if goals:
        chain = explainer.conclude(chain, goals, given)
    assert chain is not None, "explained_chain: nothing to conclude"
    order = {step.fact: n for n, step in enumerate(chain.steps)}
    concluded = tuple(sorted((g for g, _ in goals), key=lambda g: order[g]))
    return Explained(chain_lines(chain), chain, explainer, goals=concluded)


KnowledgeT = TypeVar("KnowledgeT")


class Claims(ABC, Generic[KnowledgeT]):
    """One game's claims over one knowledge state (module docstring); None before the setup is complete, when
    every question about a claim is the one-line "finish the setup first". ``syntax`` and ``example`` say how a
    learner names a claim; ``focus_name`` is what a narration follows step by step ("your mystery")."""

    syntax: ClassVar[str]
    example: ClassVar[str]
    focus_name: ClassVar[str]

    def __init__(self, knowledge: KnowledgeT | None) -> None:
        self.kn = knowledge

    def _knowledge(self) -> KnowledgeT:
        if self.kn is None:
            raise AssistantError("finish the setup first")
        return self.kn

    @abstractmethod
    def decided(self) -> dict[Key, bool]:
        """Every claim now certain (True) or ruled out (False)."""

    @abstractmethod
    def open(self) -> dict[Key, float]:
        """Claims still open, with their exact probability."""

    @abstractmethod
    def probability(self, key: Key) -> float | None:
        """The claim's exact probability (None where the game's counter does not count it)."""

    @abstractmethod
    def say(self, key: Key, value: bool | None = None) -> str:
        """The claim in words: held (True), ruled out (False), or as a question's subject (None)."""

    @abstractmethod
    def text(self, key: Key) -> str:
        """The claim as a learner types it (the answer syntax)."""

    @abstractmethod
    def parse(self, text: str) -> Key:
        """The claim ``text`` names (a one-line :class:`AssistantError` if it names none)."""

    def explainer(self) -> Explainer | None:
        """The step-chain engine over the knowledge, worded for the game (None: no chains here)."""
        return None

    def targets(self, key: Key, value: bool) -> list[Fact]:
        """The literal facts a claim's chain derives first (the claim follows from them)."""
        return [Fact(key, value)]  # type: ignore[arg-type]

    def goal(self, key: Key, value: bool) -> Goal:
        """The claim as the chain's last step concludes it: its one target fact, or, where it stands for
        several ruled-out literals, the :class:`Claim` that none of them holds."""
        targets = self.targets(key, value)
        if len(targets) == 1:
            return targets[0]
        if all(not t.value for t in targets):
            return Claim(tuple(t.lit for t in targets), False)
        raise NotImplementedError(f"{type(self).__name__}: a claim over several true literals overrides goal")

    def given(self, key: Key, value: bool) -> str:
        """The setup facts the claim rests on that the chain's literals do not hold (cards seen at setup), in
        words ('' when none): said in the chain's closing step."""
        return ""

    def explain(self, key: Key, value: bool) -> Explained:
        """The verified chain that ends in the claim."""
        return self.explain_all({key: value})

    def explain_all(self, claims: dict[Key, bool]) -> Explained:
        """One chain that concludes every claim of ``claims`` (shared steps said once)."""
        ex = self.explainer()
        if ex is None:
            raise NotImplementedError(f"{type(self).__name__}: a game without chains overrides explain_all")
        facts = list(dict.fromkeys(f for key, value in claims.items() for f in self.targets(key, value)))
        goals = [(self.goal(key, value), self.say(key, value)) for key, value in claims.items()]
        given = {goal: self.given(key, value) for (goal, _), (key, value) in zip(goals, claims.items(), strict=True)}
        return explained_chain(ex, facts, goals, given)

    def focus(self, key: Key) -> bool:
        """Whether a narration explains this claim step by step (others are only counted)."""
        return True

    def count_text(self, key: Key) -> str:
        """The count behind a probability, in words ('12 of 30 arrangements'), where the game has one."""
        return ""


def why_steps(claims: Claims, key: Key) -> str:
    """The text of ``why ... steps``: the numbered chain of a decided claim, or, for an open one, that no chain
    decides it and the count that gives its probability."""
    decided = claims.decided()
    if key not in decided:
        p = claims.probability(key)
        counted = claims.count_text(key)
        chance = "" if p is None else f" (probability {p:.1%}{f': {counted}' if counted else ''})"
        return (f"{claims.say(key, None)} is still open{chance}: no chain of steps decides it, only the count of "
                "the arrangements that fit.")
    explained = claims.explain(key, decided[key])
    return "\n".join([f"Why {claims.say(key, decided[key])}, step by step:", *explained.lines])
