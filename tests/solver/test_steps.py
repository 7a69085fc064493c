"""Step-by-step explanations: every step of every chain follows from its cited premises alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.thirteen_clues.session import ThirteenCluesSession
from solver.constraints import CountEquals, NotAll, Problem
from solver.session import read_lines
from solver.steps import Chain, Explainer, Fact, GenericDescriber
from solver.steps_check import verify

ROOT = Path(__file__).resolve().parents[2]


def example_explainer() -> tuple[Explainer, object]:
    session = ThirteenCluesSession()
    for _, line in read_lines(ROOT / "examples" / "thirteen-clues-4p.txt"):
        session.handle(line, show=False)
    kn = session.knowledge.knowledge
    explainer = Explainer(kn.problem, [e.constraints for e in kn.entries],
                          GenericDescriber(kn.problem, [e.observation for e in kn.entries]))
    return explainer, kn


def all_verified(explainer: Explainer, chain: Chain) -> bool:
    return all(verify(explainer, chain, n) for n in range(1, len(chain.steps) + 1))


def test_every_fact_of_the_example_has_a_verified_chain() -> None:
    explainer, kn = example_explainer()
    possible = kn.possible()
    checked = 0
    for var, dom in kn.problem.variables.items():
        for val in dom:
            if val not in possible[var]:
                chain = explainer.chain(Fact((var, val), False))
            elif len(possible[var]) == 1:
                chain = explainer.chain(Fact((var, val), True))
            else:
                continue
            assert chain.steps[-1].fact == chain.target
            assert all_verified(explainer, chain), (var, val)
            checked += 1
    assert checked >= 50


def test_the_easiest_chain_is_preferred_to_case_analysis() -> None:
    explainer, _ = example_explainer()
    chain = explainer.chain(Fact(("Candlestick", "mystery"), True))
    assert chain.hardest <= 3 and all(s.kind != "case analysis" for s in chain.steps)
    assert [s.kind for s in chain.steps][-1] == "all needed"


def test_a_wrong_step_fails_verification() -> None:
    problem = Problem({"a": ("x", "y"), "b": ("x", "y")}, (CountEquals((("a", "x"), ("b", "x")), 1),))
    explainer = Explainer(problem, [[CountEquals((("a", "x"),), 1)]], GenericDescriber(problem, ["a is x"]))
    chain = explainer.chain(Fact(("b", "y"), True))
    assert [s.kind for s in chain.steps] == ["stated", "count full", "only one left"]
    assert all_verified(explainer, chain)
    wrong = Chain(chain.target, (chain.steps[0], chain.steps[1].__class__(
        Fact(("b", "x"), True), "count full", chain.steps[1].sources, chain.steps[1].steps)))
    assert not verify(explainer, wrong, 2)


def test_case_analysis_when_no_small_rule_applies() -> None:
    # a and b are not both x; two of a, b, c are x: so c must be x. No small rule
    # sees it (no count covers a and b alone), so the chain is one verified case analysis.
    problem = Problem({v: ("x", "y") for v in "abc"}, ())
    entries = [[NotAll((("a", "x"), ("b", "x")))], [NotAll((("a", "y"), ("b", "y")))],
               [CountEquals((("a", "x"), ("b", "x"), ("c", "x")), 2)]]
    explainer = Explainer(problem, entries, GenericDescriber(problem, ["e1", "e2", "e3"]))
    chain = explainer.chain(Fact(("c", "x"), True))
    assert [s.kind for s in chain.steps] == ["case analysis"]
    assert {s.index for s in chain.steps[0].sources} == {0, 2}  # minimal: a and b not both x suffices
    assert all_verified(explainer, chain)
    with pytest.raises(ValueError):
        explainer.chain(Fact(("a", "x"), True))  # not forced: a=x,b=y and a=y,b=x both fit
