"""The engine's check of explanation steps (:mod:`solver.steps_check`), with exact values: which steps verify,
that a step with any one of its citations removed does not, and the exact minimal premises, also when the solver
reports no core (CP-SAT may not) and the deletion loop alone must find them. Mutation testing
(``python bench/mutation.py solver/steps_check.py``) found the cases these pin down."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from solver import steps_check
from solver.constraints import Constraint, CountEquals, NotAll, Problem, require
from solver.proof import Chain, Fact, Source, Step
from solver.steps import Explainer, GenericDescriber
from solver.steps_check import minimal_premises, verify

# a and b each x or y. Rule 0 says nothing (a is x or y: always true); rule 1: exactly one of a, b is x.
PROBLEM = Problem(
    {"a": ("x", "y"), "b": ("x", "y")},
    (CountEquals((("a", "x"), ("a", "y")), 1), CountEquals((("a", "x"), ("b", "x")), 1)),
)


@dataclass
class Premises:
    problem: Problem
    entries: Sequence[Sequence[Constraint]] = field(default_factory=list)


def step(fact: Fact, sources: tuple[Source, ...], steps: tuple[int, ...] = ()) -> Step:
    return Step(fact, "case analysis", sources, steps)


B_IS_Y = Fact(("b", "y"), True)
A_IS_X = Fact(("a", "x"), True)


def test_a_step_verifies_from_its_cited_premises_alone() -> None:
    premises = Premises(PROBLEM, [[require("a", "x")]])
    chain = Chain(B_IS_Y, (step(B_IS_Y, (Source("rule", 1), Source("entry", 0))),))
    assert verify(premises, chain, 1) is True


def test_a_step_with_one_citation_removed_fails() -> None:
    premises = Premises(PROBLEM, [[require("a", "x")]])
    for sources in [(Source("rule", 1),), (Source("entry", 0),), (Source("rule", 0), Source("entry", 0))]:
        chain = Chain(B_IS_Y, (step(B_IS_Y, sources),))
        assert verify(premises, chain, 1) is False, sources
    # the same with an earlier step's fact instead of the entry: cited, it verifies; removed, it does not
    first = step(A_IS_X, (Source("entry", 0),))
    cited = Chain(B_IS_Y, (first, step(B_IS_Y, (Source("rule", 1),), (1,))))
    assert verify(premises, cited, 1) is True and verify(premises, cited, 2) is True
    uncited = Chain(B_IS_Y, (first, step(B_IS_Y, (Source("rule", 1),))))
    assert verify(premises, uncited, 2) is False


def test_every_step_of_a_found_chain_fails_without_any_one_citation() -> None:
    problem = Problem({"a": ("x", "y"), "b": ("x", "y"), "c": ("x", "y")},
                      (CountEquals((("a", "x"), ("b", "x"), ("c", "x")), 2),))
    entries = [[CountEquals((("a", "x"),), 0)]]
    explainer = Explainer(problem, entries, GenericDescriber(problem, ["a is not x"]))
    chain = explainer.chain(Fact(("c", "x"), True))
    assert all(verify(explainer, chain, n) is True for n in range(1, len(chain.steps) + 1))
    cut = 0
    for n, s in enumerate(chain.steps, 1):
        for i in range(len(s.sources)):
            fewer = Step(s.fact, s.kind, s.sources[:i] + s.sources[i + 1:], s.steps, s.sentence)
            trial = Chain(chain.target, chain.steps[: n - 1] + (fewer,) + chain.steps[n:])
            assert verify(explainer, trial, n) is False, (n, s.sources[i])
            cut += 1
        for i in range(len(s.steps)):
            fewer = Step(s.fact, s.kind, s.sources, s.steps[:i] + s.steps[i + 1:], s.sentence)
            trial = Chain(chain.target, chain.steps[: n - 1] + (fewer,) + chain.steps[n:])
            assert verify(explainer, trial, n) is False, (n, s.steps[i])
            cut += 1
    assert cut >= 2


def test_a_not_all_over_a_literal_outside_the_problem_always_holds() -> None:
    # 'not both a=x and z=w', with z no variable of the problem: z=w never holds, so this rules nothing out
    problem = Problem({"a": ("x", "y")}, (NotAll((("a", "x"), ("z", "w"))),))
    a_is_y = Fact(("a", "y"), True)
    assert verify(Premises(problem), Chain(a_is_y, (step(a_is_y, (Source("rule", 0),)),)), 1) is False
    whole = Problem({"a": ("x", "y")}, (NotAll((("a", "x"),)),))
    assert verify(Premises(whole), Chain(a_is_y, (step(a_is_y, (Source("rule", 0),)),)), 1) is True


def test_a_fact_about_a_literal_outside_the_problem() -> None:
    model = steps_check._Model(PROBLEM)
    assert model.infeasible([model.fact(("z", "w"), True)])[0] is True  # it never holds
    assert model.infeasible([model.fact(("z", "w"), False)]) == (False, [])
    assert model.infeasible([model.fact(("a", "x"), True), model.fact(("a", "x"), False)])[0] is True


def test_minimal_premises_are_exact() -> None:
    premises = Premises(PROBLEM, [[require("a", "x")], [require("a", "x")]])
    sources, used = minimal_premises(premises, B_IS_Y, [])
    assert used == []
    assert sources in ([Source("rule", 1), Source("entry", 0)], [Source("rule", 1), Source("entry", 1)])
    sources, used = minimal_premises(Premises(PROBLEM), B_IS_Y, [A_IS_X, Fact(("b", "x"), False)])
    assert sources == [] and used == [Fact(("b", "x"), False)]
    sources, used = minimal_premises(Premises(PROBLEM), B_IS_Y, [A_IS_X])
    assert sources == [Source("rule", 1)] and used == [A_IS_X]


def test_minimal_premises_when_the_target_does_not_follow() -> None:
    with pytest.raises(ValueError) as info:
        minimal_premises(Premises(PROBLEM), B_IS_Y, [])
    assert str(info.value) == "the target does not follow from the entries"


def test_minimal_premises_without_a_core_from_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """A solver that proves infeasibility but reports no core: the deletion loop alone finds the minimal set,
    starting from every premise (the first one, a redundant rule, included)."""
    real = steps_check._Model.infeasible

    def no_core(self: steps_check._Model, assumptions: Sequence[object]) -> tuple[bool, list[int]]:
        return real(self, assumptions)[0], []  # type: ignore[arg-type]

    monkeypatch.setattr(steps_check._Model, "infeasible", no_core)
    premises = Premises(PROBLEM, [[require("a", "x")]])
    assert minimal_premises(premises, B_IS_Y, []) == ([Source("rule", 1), Source("entry", 0)], [])
    chain = Chain(B_IS_Y, (step(B_IS_Y, (Source("rule", 1), Source("entry", 0))),))
    assert verify(premises, chain, 1) is True
