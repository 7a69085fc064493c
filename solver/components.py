"""Exact world counting for problems that split into independent blocks of variables.

Many card-game knowledge states factorise: when no constraint links two groups of hidden variables (in
Evidence, the rumours of different colours: hands have public per-colour counts, every rule speaks of one
colour), the worlds are the product of each group's worlds. Counting each block alone turns one huge
enumeration (10^14 deals of 24 rumours) into a few tiny ones (a colour has at most six cards).

:class:`ComponentCounter` finds the blocks (connected components of the "appear in one constraint" graph),
enumerates each block exactly by backtracking with the same pruning as :mod:`solver.reference`, and combines:
``worlds = prod(block worlds)`` and ``weight(lit) = block weight(lit) * prod(other blocks' worlds)``. Any
constraint shape works; only block size is limited.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from solver.constraints import Constraint, CountEquals, Lit, Problem
from solver.knowledge import Count

MAX_BLOCK_VARIABLES = 16


class BlockTooLarge(ValueError):
    """A block of linked variables is too large to enumerate."""


def blocks(problem: Problem, constraints: Sequence[Constraint]) -> list[list[str]]:
    """The problem's variables grouped into connected components, in the problem's variable order."""
    parent = {v: v for v in problem.variables}

    def find(v: str) -> str:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for c in constraints:
        names = [v for v, _ in c.terms if v in parent]
        for other in names[1:]:
            a, b = find(names[0]), find(other)
            if a != b:
                parent[b] = a
    groups: dict[str, list[str]] = {}
    for v in problem.variables:
        groups.setdefault(find(v), []).append(v)
    return list(groups.values())


def _enumerate_block(
    variables: list[str], domains: dict[str, tuple[str, ...]], constraints: list[Constraint]
) -> tuple[int, dict[Lit, int]]:
    """Worlds of one block and, per literal, how many of them make it true.

    Backtracking with the pruning of :mod:`solver.reference` (a count must stay reachable, a NotAll must keep
    one literal open), kept incremental: each constraint tracks its true and still-open literals.
    """
    weights: dict[Lit, int] = {(v, val): 0 for v in variables for val in domains[v]}
    true = [0] * len(constraints)
    open_ = [0] * len(constraints)
    # var -> [(constraint index, literals of var that can be true, {value: literals of var with that value})]
    touches: dict[str, list[tuple[int, int, dict[str, int]]]] = {v: [] for v in variables}
    for i, c in enumerate(constraints):
        per_var: dict[str, dict[str, int]] = {}
        for var, val in c.terms:
            if val in domains.get(var, ()):
                open_[i] += 1
                per_var.setdefault(var, {})
                per_var[var][val] = per_var[var].get(val, 0) + 1
        for var, by_val in per_var.items():
            if var in touches:
                touches[var].append((i, sum(by_val.values()), by_val))
    kinds = [(c.count if isinstance(c, CountEquals) else -1, len(c.terms)) for c in constraints]

    def ok(i: int) -> bool:
        count, size = kinds[i]
        if count >= 0:
            return true[i] <= count <= true[i] + open_[i]
        return open_[i] > 0 or true[i] < size

    if not all(ok(i) for i in range(len(constraints))):
        return 0, weights
    assignment: dict[str, str] = {}
    total = 0

    def walk(k: int) -> None:
        nonlocal total
        if k == len(variables):
            total += 1
            for lit in assignment.items():
                weights[lit] += 1
            return
        var = variables[k]
        for val in domains[var]:
            for i, n_open, by_val in touches[var]:
                open_[i] -= n_open
                true[i] += by_val.get(val, 0)
            if all(ok(i) for i, _, _ in touches[var]):
                assignment[var] = val
                walk(k + 1)
                del assignment[var]
            for i, n_open, by_val in touches[var]:
                open_[i] += n_open
                true[i] -= by_val.get(val, 0)

    walk(0)
    return total, weights


def _split(problem: Problem, everything: list[Constraint]) -> list[tuple[list[str], list[Constraint]]]:
    groups = blocks(problem, everything)
    by_var = {v: i for i, g in enumerate(groups) for v in g}
    per_block: list[list[Constraint]] = [[] for _ in groups]
    for c in everything:
        names = [v for v, _ in c.terms if v in by_var]
        if names:
            per_block[by_var[names[0]]].append(c)
    return list(zip(groups, per_block, strict=True))


class ComponentCounter:
    """A :class:`solver.knowledge.Counter`: exact, by independent blocks (see module docstring)."""

    def __init__(self, max_block: int = MAX_BLOCK_VARIABLES) -> None:
        self.max_block = max_block
        self.last_blocks = 0

    def block_counts(self, problem: Problem, constraints: Sequence[Constraint]) -> list[tuple[int, dict[Lit, int]]]:
        """Each block's exact world count and literal weights, as integers (no product, no rounding)."""
        everything = [*problem.structure, *constraints]
        out = []
        for group, cons in _split(problem, everything):
            if len(group) > self.max_block:
                raise BlockTooLarge(f"{len(group)} linked variables: at most {self.max_block}")
            out.append(_enumerate_block(group, dict(problem.variables), cons))
        self.last_blocks = len(out)
        return out

    def __call__(self, problem: Problem, constraints: Sequence[Constraint], budget: float) -> Count:
        del budget  # exact: each block is small by construction (or BlockTooLarge is raised)
        for c in [*problem.structure, *constraints]:
            if not any(v in problem.variables for v, _ in c.terms) and not c.holds({}):
                return Count(0.0, {})
        results = self.block_counts(problem, constraints)
        totals = [t for t, _ in results]
        weights: dict[Lit, float] = {}
        for i, (_, w) in enumerate(results):
            others = math.prod(totals[:i] + totals[i + 1 :])
            for lit, n in w.items():
                weights[lit] = float(n * others)
        return Count(float(math.prod(totals)), weights)
