"""Brute-force reference on python-constraint: enumerate every world of a small :class:`Problem`.

Deliberately independent of CP-SAT and of the counters: it shares only the constraint objects, whose
``holds`` is their meaning. Tests use it to cross-check possible values and exact probabilities. Only for
small states (up to some hundred thousand worlds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from constraint import Constraint as PCConstraint
from constraint import Problem as PCProblem
from constraint import Unassigned

from solver.constraints import Constraint, CountEquals, Lit, Problem


class _Check(PCConstraint):
    """Wraps one of our constraints; prunes a partial assignment once the count can no longer be met."""

    def __init__(self, c: Constraint) -> None:
        self.c = c

    def __call__(self, variables, domains, assignments, forwardcheck=False):  # noqa: ANN001, ANN204
        true = undecided = 0
        for var, val in self.c.terms:
            got = assignments.get(var, Unassigned)
            if got is Unassigned:
                if val in domains[var]:
                    undecided += 1
            elif got == val:
                true += 1
        if isinstance(self.c, CountEquals):
            return true <= self.c.count <= true + undecided
        return undecided > 0 or true < len(self.c.terms)


@dataclass(frozen=True)
class Reference:
    worlds: int
    weights: dict[Lit, int]

    def possible(self) -> dict[str, frozenset[str]]:
        out: dict[str, set[str]] = {}
        for (var, val), w in self.weights.items():
            if w:
                out.setdefault(var, set()).add(val)
        return {var: frozenset(vals) for var, vals in out.items()}

    def probability(self, lit: Lit) -> float:
        return self.weights.get(lit, 0) / self.worlds if self.worlds else 0.0


def solve(problem: Problem, constraints: Sequence[Constraint], limit: int = 2_000_000) -> Reference:
    """Enumerate all worlds; raise ``OverflowError`` past ``limit`` worlds."""
    pc = PCProblem()
    for var, dom in problem.variables.items():
        pc.addVariable(var, list(dom))
    for c in list(problem.structure) + list(constraints):
        vars_ = sorted({v for v, _ in c.terms if v in problem.variables})
        if len(vars_) < len({v for v, _ in c.terms}):
            c = type(c)(tuple(t for t in c.terms if t[0] in problem.variables), *_rest(c))
        if vars_:
            pc.addConstraint(_Check(c), vars_)
        elif not c.holds({}):
            return Reference(0, {})
    weights: dict[Lit, int] = {lit: 0 for lit in problem.literals()}
    total = 0
    for world in pc.getSolutionIter():
        total += 1
        if total > limit:
            raise OverflowError(f"more than {limit} worlds: too large for the brute-force reference")
        for var, val in world.items():
            weights[(var, val)] += 1
    return Reference(total, weights)


def _rest(c: Constraint) -> tuple[int, ...]:
    return (c.count,) if isinstance(c, CountEquals) else ()


def count_distinct(
    domains: dict[str, Sequence[object]], distinct: Sequence[Sequence[str]], limit: int = 2_000_000
) -> tuple[int, dict[tuple[str, object], int]]:
    """Enumerate every assignment of the variables within their ``domains`` where the variables of each group
    in ``distinct`` take different values; return their number and, per (variable, value), how many have it.

    The shape of "which card did each of my draws take" (a brute force for hidden hands): independent of the
    counters, it shares nothing with them but python-constraint. Raises ``OverflowError`` past ``limit``."""
    from constraint import AllDifferentConstraint

    if any(not dom for dom in domains.values()):
        return 0, {}
    pc = PCProblem()
    for var, dom in domains.items():
        pc.addVariable(var, list(dom))
    for group in distinct:
        if len(group) > 1:
            pc.addConstraint(AllDifferentConstraint(), list(group))
    weights: dict[tuple[str, object], int] = {}
    total = 0
    for world in pc.getSolutionIter():
        total += 1
        if total > limit:
            raise OverflowError(f"more than {limit} worlds: too large for the brute-force reference")
        for lit in world.items():
            weights[lit] = weights.get(lit, 0) + 1
    return total, weights
