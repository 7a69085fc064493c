"""The generic knowledge engine: add / undo / what-ifs / possible / count / explain / contradictions.

Every answer is checked against the brute-force reference (:mod:`solver.reference`), on a hand-made allocation
and on random small problems (hypothesis).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from solver import reference
from solver.constraints import Constraint, CountEquals, Lit, NotAll, Problem, forbid, require
from solver.errors import ContradictionError
from solver.knowledge import Knowledge, enumerate_count


@dataclass(frozen=True)
class Obs:
    """A test observation: a label and the constraints it stands for."""

    name: str
    constraints: tuple[Constraint, ...]

    def __str__(self) -> str:
        return self.name


def knowledge(problem: Problem) -> Knowledge[Obs]:
    return Knowledge(problem, lambda o: o.constraints)


def constraints_of(observations: Sequence[Obs]) -> list[Constraint]:
    return [c for o in observations for c in o.constraints]


def worlds(problem: Problem, observations: Sequence[Obs], extra: Sequence[Constraint] = ()) -> int:
    return reference.solve(problem, [*constraints_of(observations), *extra]).worlds


def forcing(lit: Lit, status: str) -> Constraint:
    """The constraint that is infeasible exactly when ``lit`` is forced to ``status``."""
    return require(*lit) if status == "impossible" else forbid(*lit)


def assert_minimal(problem: Problem, reasons: Sequence[Obs], extra: Sequence[Constraint]) -> None:
    """``reasons`` with ``extra`` has no world, and dropping any single reason gives one back."""
    assert worlds(problem, reasons, extra) == 0
    for i in range(len(reasons)):
        assert worlds(problem, [*reasons[:i], *reasons[i + 1 :]], extra) > 0, f"'{reasons[i]}' is not needed"


def assert_matches_reference(kn: Knowledge[Obs]) -> None:
    ref = reference.solve(kn.problem, constraints_of(kn.facts + kn.whatifs))
    assert ref.worlds > 0
    assert {v: vals for v, vals in kn.possible().items() if vals} == ref.possible()
    count = kn.count()
    assert count.exact
    assert count.worlds == ref.worlds
    for lit in kn.problem.literals():
        assert count.weights.get(lit, 0) == ref.weights[lit], lit


# -- a hand-made allocation -------------------------------------------------------------------------------------
ITEMS = ("a", "b", "c", "d")
BINS = {"M": 2, "P": 1, "Q": 1}
ALLOC = Problem(
    {i: tuple(BINS) for i in ITEMS},
    tuple(CountEquals(tuple((i, b) for i in ITEMS), cap) for b, cap in BINS.items()),
)
A_OR_B_IN_Q = Obs("a or b in Q", (CountEquals((("a", "Q"), ("b", "Q")), 1),))
A_NOT_M = Obs("a not in M", (forbid("a", "M"),))
B_NOT_M = Obs("b not in M", (forbid("b", "M"),))
C_IN_P = Obs("c in P", (require("c", "P"),))


def test_setup_counts_every_allocation() -> None:
    kn = knowledge(ALLOC)
    assert kn.possible() == {i: frozenset(BINS) for i in ITEMS}
    assert kn.certain() == {}
    assert kn.count().worlds == 12  # C(4, 2) ways to fill M, then 2 ways for P and Q
    assert_matches_reference(kn)


def test_facts_narrow_and_force() -> None:
    kn = knowledge(ALLOC)
    for o in (A_OR_B_IN_Q, A_NOT_M, B_NOT_M):
        kn.add(o)
        assert_matches_reference(kn)
    assert kn.certain() == {"c": "M", "d": "M"}
    assert kn.count().worlds == 2
    assert kn.count().probability(("a", "P")) == pytest.approx(0.5)
    assert not kn.is_possible(("c", "P"))
    assert kn.is_possible(("a", "Q"))
    example = kn.example()
    assert all(c.holds(example) for c in kn.constraints())


def test_contradiction_names_a_minimal_set_and_leaves_the_state_unchanged() -> None:
    kn = knowledge(ALLOC)
    for o in (A_OR_B_IN_Q, A_NOT_M, B_NOT_M):
        kn.add(o)
    before = (list(kn.entries), kn.possible(), kn.count())
    with pytest.raises(ContradictionError) as err:
        kn.add(C_IN_P)
    assert err.value.observation == C_IN_P
    assert err.value.conflicts == [A_NOT_M, B_NOT_M]  # "a or b in Q" is not needed
    assert "'c in P' contradicts earlier entries: 'a not in M'; 'b not in M'" in str(err.value)
    assert_minimal(ALLOC, err.value.conflicts, C_IN_P.constraints)
    assert (list(kn.entries), kn.possible(), kn.count()) == before
    # The rejected observation left nothing behind in the model: the engine still works and agrees.
    kn.undo()
    kn.add(C_IN_P)
    assert kn.certain() == {"a": "Q", "b": "M", "c": "P", "d": "M"}
    assert_matches_reference(kn)


def test_contradiction_with_the_structure_alone_names_nothing() -> None:
    kn = knowledge(ALLOC)
    kn.add(A_NOT_M)
    both = Obs("a and b in P", (require("a", "P"), require("b", "P")))
    with pytest.raises(ContradictionError) as err:
        kn.add(both)
    assert err.value.conflicts == []
    assert "contradicts what you can see (the setup)" in str(err.value)


def test_undo_restores_the_previous_state() -> None:
    kn = knowledge(ALLOC)
    kn.add(A_NOT_M)
    after_one = (kn.possible(), kn.count().worlds)
    kn.add(B_NOT_M)
    assert kn.undo() == B_NOT_M
    assert (kn.possible(), kn.count().worlds) == after_one
    assert kn.facts == [A_NOT_M]
    assert_matches_reference(kn)
    assert kn.undo() == A_NOT_M
    with pytest.raises(IndexError):
        kn.undo()
    assert kn.count().worlds == 12


def test_whatifs_are_kept_apart_and_cleared() -> None:
    kn = knowledge(ALLOC)
    kn.add(A_NOT_M)
    kn.add(C_IN_P, hypothetical=True)
    kn.add(A_OR_B_IN_Q)
    assert kn.facts == [A_NOT_M, A_OR_B_IN_Q]
    assert kn.whatifs == [C_IN_P]
    assert kn.certain() == {"c": "P", "a": "Q", "b": "M", "d": "M"}
    assert_matches_reference(kn)
    # A what-if can be contradicted like a fact, and names itself among the conflicts.
    with pytest.raises(ContradictionError) as err:
        kn.add(Obs("c in M", (require("c", "M"),)), hypothetical=True)
    assert C_IN_P in err.value.conflicts
    assert kn.clear_whatifs() == [C_IN_P]
    assert kn.whatifs == []
    assert kn.facts == [A_NOT_M, A_OR_B_IN_Q]
    assert kn.count().worlds == worlds(ALLOC, [A_NOT_M, A_OR_B_IN_Q])
    assert_matches_reference(kn)
    assert kn.clear_whatifs() == []


def test_explain_impossible_certain_and_open() -> None:
    kn = knowledge(ALLOC)
    for o in (A_OR_B_IN_Q, A_NOT_M, B_NOT_M):
        kn.add(o)
    why = kn.explain(("c", "P"))
    assert (why.status, why.reasons) == ("impossible", (A_NOT_M, B_NOT_M))
    why = kn.explain(("d", "M"))
    assert (why.status, why.reasons) == ("certain", (A_NOT_M, B_NOT_M))
    why = kn.explain(("a", "P"))
    assert why.status == "open" and why.reasons == ()
    assert why.example is not None and why.example["a"] == "P"
    assert all(c.holds(why.example) for c in kn.constraints())
    # A literal outside the problem (a value no variable can take) is impossible with no reason needed.
    assert kn.explain(("a", "Z")).status == "impossible"
    assert kn.explain(("a", "Z")).reasons == ()


def test_explain_a_structural_fact_needs_no_observation() -> None:
    kn = knowledge(Problem({"x": ("1", "2")}, (forbid("x", "1"),)))
    kn.add(Obs("nothing", ()))
    assert kn.explain(("x", "1")).reasons == ()
    assert kn.explain(("x", "2")).status == "certain"


def test_no_consistent_world_is_an_error() -> None:
    kn = knowledge(Problem({"x": ("1",)}, (forbid("x", "1"),)))
    with pytest.raises(RuntimeError, match="no consistent world"):
        kn.possible()


def test_enumerate_count_stops_at_its_budget() -> None:
    problem = Problem({f"v{i}": ("0", "1", "2") for i in range(14)})  # 3^14 worlds: far too many to finish
    count = enumerate_count(problem, [], budget=0.05)
    assert not count.exact
    assert "lower bound" in count.note
    assert 0 < count.worlds < 3**14
    assert sum(count.weights[("v0", v)] for v in "012") == count.worlds


# -- random small problems (hypothesis) -------------------------------------------------------------------------
@st.composite
def problems(draw: st.DrawFn) -> tuple[Problem, list[Obs]]:
    """3 to 5 variables over 2 or 3 values, an optional structural count, and 3 to 7 random observations."""
    n = draw(st.integers(3, 5))
    domain = ("a", "b", "c")[: draw(st.integers(2, 3))]
    variables = {f"v{i}": domain for i in range(n)}
    lits = [(v, val) for v in variables for val in domain]
    terms = st.lists(st.sampled_from(lits), min_size=1, max_size=4, unique=True).map(tuple)
    structure: tuple[Constraint, ...] = ()
    if draw(st.booleans()):
        t = draw(terms)
        structure = (CountEquals(t, draw(st.integers(0, len(t)))),)
    observations = []
    for k in range(draw(st.integers(3, 7))):
        t = draw(terms)
        c: Constraint = CountEquals(t, draw(st.integers(0, len(t)))) if draw(st.booleans()) else NotAll(t)
        observations.append(Obs(f"o{k}", (c,)))
    return Problem(variables, structure), observations


def check_against_reference(case: tuple[Problem, list[Obs]], rnd: random.Random) -> None:
    """Add the observations (every third one as a what-if); after each, compare everything with the reference."""
    problem, observations = case
    if reference.solve(problem, []).worlds == 0:
        return  # the structure alone is inconsistent: not a knowledge state a game can produce
    kn = knowledge(problem)
    for i, o in enumerate(observations):
        hypothetical = i % 3 == 2
        entries = list(kn.entries)
        try:
            kn.add(o, hypothetical=hypothetical)
        except ContradictionError as err:
            event("contradiction")
            assert kn.entries == entries
            assert worlds(problem, kn.facts + kn.whatifs + [o]) == 0
            assert_minimal(problem, err.conflicts, o.constraints)
            assert set(err.conflicts) <= set(kn.facts + kn.whatifs)
            continue
        assert worlds(problem, kn.facts + kn.whatifs) > 0
        assert_matches_reference(kn)
        lit = rnd.choice(problem.literals())
        why = kn.explain(lit)
        event(f"why: {why.status}")
        if why.status == "open":
            assert why.example is not None and why.example[lit[0]] == lit[1]
            assert all(c.holds(why.example) for c in kn.constraints())
        else:
            assert set(why.reasons) <= set(kn.facts + kn.whatifs)
            assert_minimal(problem, list(why.reasons), [forcing(lit, why.status)])
    kn.clear_whatifs()
    assert_matches_reference(kn)
    while kn.entries:
        kn.undo()
        assert_matches_reference(kn)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.randoms(use_true_random=False))
def test_engine_agrees_with_reference_on_random_problems(case: tuple[Problem, list[Obs]], rnd: random.Random) -> None:
    check_against_reference(case, rnd)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.randoms(use_true_random=False))
def test_engine_agrees_with_reference_on_many_random_problems(
    case: tuple[Problem, list[Obs]], rnd: random.Random
) -> None:
    check_against_reference(case, rnd)


def test_reference_agrees_with_enumeration_on_a_grid() -> None:
    """enumerate_count (CP-SAT) and the reference on every pair-constraint of a 3 x 3 problem."""
    problem = Problem({f"v{i}": ("a", "b", "c") for i in range(3)})
    lits = problem.literals()
    for t in itertools.combinations(lits, 2):
        for c in (CountEquals(t, 1), NotAll(t)):
            ref = reference.solve(problem, [c])
            count = enumerate_count(problem, [c], budget=10)
            assert count.exact and count.worlds == ref.worlds
            assert {lit: int(w) for lit, w in count.weights.items()} == ref.weights


def test_literals_ruled_out_by_a_count_need_no_proof() -> None:
    """``ruled_out`` names literals an exact count proved impossible: ``possible`` is the same, with no solve
    spent proving them (one solve covers a, b and c; without the hook a second proves the rest impossible)."""
    problem = Problem({"a": ("x", "y"), "b": ("x", "y"), "c": ("x", "y")}, (CountEquals((("a", "x"),), 1),))
    plain: Knowledge[None] = Knowledge(problem, lambda _o: ())
    told: Knowledge[None] = Knowledge(problem, lambda _o: (), ruled_out=lambda: [("a", "y")])
    everything = {"a": frozenset({"x"}), "b": frozenset({"x", "y"}), "c": frozenset({"x", "y"})}
    assert plain.possible() == everything and told.possible() == everything
    assert (plain.last_solve_count, told.last_solve_count) == (3, 2)


class _Enumerated:
    """An :class:`solver.knowledge.Exact` by enumeration (the reference), counting its calls."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.knowledge: Knowledge[Obs] | None = None
        self.checked: list[bool] = []

    def allowed(self) -> set[Lit] | None:
        assert self.knowledge is not None
        observed = [c for e in self.knowledge.entries for c in e.constraints]
        weights = reference.solve(self.problem, observed).weights
        return {lit for lit, w in weights.items() if w} or None

    def consistent(self, observed: Sequence[Constraint]) -> bool:
        self.checked.append(bool(reference.solve(self.problem, list(observed)).worlds))
        return self.checked[-1]


def test_an_exact_oracle_answers_possible_and_add_without_a_solve() -> None:
    """With an :class:`Exact`, ``possible`` and an accepted entry spend no solve and give what CP-SAT gives; a
    refused entry is still solved, for the same contradiction and core."""
    problem = Problem({"a": ("x", "y"), "b": ("x", "y"), "c": ("x", "y")}, (CountEquals((("a", "x"), ("b", "x")), 1),))
    oracle = _Enumerated(problem)
    told: Knowledge[Obs] = Knowledge(problem, lambda o: o.constraints, exact=oracle)
    oracle.knowledge = told
    plain = knowledge(problem)
    first = Obs("c is x", (require("c", "x"),))
    for k in (plain, told):
        k.add(first)
    assert told.possible() == plain.possible() == {"a": frozenset({"x", "y"}), "b": frozenset({"x", "y"}),
                                                   "c": frozenset({"x"})}
    assert (plain.last_solve_count, told.last_solve_count) == (4, 0)  # the entry and 3 cover solves
    assert told.possible(solve=True) == plain.possible()  # CP-SAT's own answer, asked for: the 3 cover solves
    assert told.last_solve_count == 3
    wrong = Obs("c is y", (require("c", "y"),))
    errors = []
    for k in (plain, told):
        with pytest.raises(ContradictionError) as err:
            k.add(wrong)
        errors.append(str(err.value))
    assert errors[0] == errors[1] and oracle.checked == [True, False]
    # the refusal solves as without the oracle: its check, then the core (4 solves each)
    assert (plain.last_solve_count, told.last_solve_count) == (8, 7)
    assert told.example() in ({"a": "x", "b": "y", "c": "x"}, {"a": "y", "b": "x", "c": "x"})
