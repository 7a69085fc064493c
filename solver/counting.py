"""Exact world counting for allocation problems: distinct items dealt into bins of fixed capacity.

This is the shape of most card-game knowledge (cards into hands, screens, face-down piles). Counting by
enumeration is hopeless (millions of deals), so the counter exploits the structure:

1. one *pivot* bin (the thing the player wants, e.g. their own mystery) is enumerated explicitly;
2. every other bin that some constraint mentions gets its list of allowed contents (bitmasks), and a dynamic
   program over subsets of the items counts the ways to fill all of them disjointly;
3. the bins no constraint mentions are interchangeable and are filled by a multinomial coefficient.

A constraint may mention the pivot and at most one other bin (e.g. "player 3 sees 2 Red cards" couples
player 3's private cards with my screen): given the pivot content it becomes a constraint on that bin alone.
Pivot contents that give every bin the same constants share one dynamic program. If the budget runs out, the
remaining groups are extrapolated from a random sample of them, and the result says so with its error.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from solver.constraints import Constraint, CountEquals, Lit, NotAll, Problem
from solver.knowledge import Count

MAX_ITEMS = 22


class UnsupportedShape(ValueError):
    """The problem is not an allocation this counter handles (the caller falls back to enumeration)."""


@dataclass(frozen=True)
class _BinRule:
    """A constraint on one non-pivot bin; for CountEquals the target is ``count - (pivot literals true)``."""

    kind: str  # "count" | "notall"
    bin_items: tuple[int, ...]
    pivot_items: tuple[int, ...]
    count: int


def _is_capacity(c: Constraint, items: Sequence[str], cap: int) -> bool:
    return (
        isinstance(c, CountEquals)
        and c.count == cap
        and len(c.terms) == len(items)
        and {v for v, _ in c.terms} == set(items)
    )


class AllocationCounter:
    """Counts worlds of a :class:`Problem` whose variables are items and whose values are bins."""

    def __init__(self, capacities: Mapping[str, int], pivot: str, seed: int = 0) -> None:
        self.capacities = dict(capacities)
        self.pivot = pivot
        self.seed = seed
        self.last_groups = 0

    def __call__(self, problem: Problem, constraints: Sequence[Constraint], budget: float) -> Count:
        start = time.perf_counter()
        items = list(problem.variables)
        n = len(items)
        if n > MAX_ITEMS:
            raise UnsupportedShape(f"{n} items: at most {MAX_ITEMS}")
        bins = list(self.capacities)
        for var, dom in problem.variables.items():
            if set(dom) != set(bins):
                raise UnsupportedShape(f"variable {var} does not range over the bins")
        if sum(self.capacities.values()) != n:
            raise UnsupportedShape("bin capacities do not add up to the number of items")
        index = {item: i for i, item in enumerate(items)}
        pivot_rules: list[Constraint] = []
        bin_rules: dict[str, list[_BinRule]] = {}
        for c in [*problem.structure, *constraints]:
            mentioned = {val for _, val in c.terms}
            if len(mentioned) == 1 and _is_capacity(c, items, self.capacities[next(iter(mentioned))]):
                continue  # bins are filled to capacity by construction
            others = mentioned - {self.pivot}
            if not others:
                pivot_rules.append(c)
                continue
            if len(others) > 1:
                raise UnsupportedShape(f"a constraint mentions several bins: {sorted(others)}")
            (b,) = others
            b_items = tuple(index[v] for v, val in c.terms if val == b)
            p_items = tuple(index[v] for v, val in c.terms if val == self.pivot)
            if isinstance(c, NotAll):
                if p_items:
                    raise UnsupportedShape("a NotAll constraint couples the pivot with another bin")
                bin_rules.setdefault(b, []).append(_BinRule("notall", b_items, (), 0))
            else:
                bin_rules.setdefault(b, []).append(_BinRule("count", b_items, p_items, c.count))

        pivots = self._pivot_contents(items, pivot_rules)
        constrained = [b for b in bins if b != self.pivot and b in bin_rules]
        free = [b for b in bins if b != self.pivot and b not in bin_rules]
        free_items = sum(self.capacities[b] for b in free)
        free_ways = math.factorial(free_items) // math.prod(math.factorial(self.capacities[b]) for b in free)

        # Group pivots by the constants they give each coupled bin.
        def key(mask: int) -> tuple[tuple[int, ...], ...]:
            return tuple(
                tuple(r.count - sum(1 for i in r.pivot_items if mask >> i & 1) for r in bin_rules[b])
                for b in constrained
            )

        groups: dict[tuple[tuple[int, ...], ...], list[int]] = {}
        for mask in pivots:
            groups.setdefault(key(mask), []).append(mask)
        order = list(groups)
        random.Random(self.seed).shuffle(order)
        self.last_groups = len(order)

        full = (1 << n) - 1
        allowed_cache: dict[tuple[str, tuple[int, ...]], list[int]] = {}
        pivot_weight: dict[int, int] = {}
        cluster_totals: list[int] = []
        done = 0
        for k in order:
            layers = []
            for b, consts in zip(constrained, k, strict=True):
                ck = (b, consts)
                if ck not in allowed_cache:
                    allowed_cache[ck] = self._allowed(n, self.capacities[b], bin_rules[b], consts)
                layers.append(allowed_cache[ck])
            h = _subset_sums(_fill(n, layers))
            cluster = 0
            for mask in groups[k]:
                w = int(h[full ^ mask]) * free_ways
                if w:
                    pivot_weight[mask] = w
                    cluster += w
            cluster_totals.append(cluster)
            done += 1
            if time.perf_counter() - start > budget and done < len(order):
                break

        weights: dict[Lit, float] = {}
        for mask, w in pivot_weight.items():
            for i in range(n):
                if mask >> i & 1:
                    lit = (items[i], self.pivot)
                    weights[lit] = weights.get(lit, 0) + w
        total = float(sum(cluster_totals))
        if done == len(order):
            return Count(total, weights, True)
        # Cluster sample of the groups: scale up, with a finite-population standard error.
        scale = len(order) / done
        mean = total / done
        var = sum((c - mean) ** 2 for c in cluster_totals) / max(done - 1, 1)
        stderr = len(order) * math.sqrt(var / done * (1 - done / len(order)))
        note = f"estimate from {done} of {len(order)} groups of mysteries ({budget:.1f} s budget)"
        return Count(total * scale, {lit: w * scale for lit, w in weights.items()}, False, stderr, note)

    def _pivot_contents(self, items: list[str], rules: list[Constraint]) -> list[int]:
        cap = self.capacities[self.pivot]
        out = []
        for combo in itertools.combinations(range(len(items)), cap):
            world = {items[i]: self.pivot for i in combo}
            if all(c.holds(world) for c in rules):
                out.append(sum(1 << i for i in combo))
        return out

    @staticmethod
    def _allowed(n: int, cap: int, rules: list[_BinRule], consts: tuple[int, ...]) -> list[int]:
        out = []
        for combo in itertools.combinations(range(n), cap):
            chosen = set(combo)
            ok = True
            for r, target in zip(rules, consts, strict=True):
                hits = sum(1 for i in r.bin_items if i in chosen)
                if (r.kind == "count" and hits != target) or (r.kind == "notall" and hits == len(r.bin_items)):
                    ok = False
                    break
            if ok:
                out.append(sum(1 << i for i in combo))
        return out


def _fill(n: int, layers: list[list[int]]) -> np.ndarray:
    """f[S] = number of ways to give each layer (bin) one allowed content, disjointly, using exactly S."""
    f = np.zeros(1 << n, dtype=np.int64)
    f[0] = 1
    for allowed in layers:
        nz = np.nonzero(f)[0]
        vals = f[nz]
        new = np.zeros_like(f)
        for content in allowed:
            ok = (nz & content) == 0
            if ok.any():
                new[nz[ok] | content] += vals[ok]
        f = new
    return f


def _subset_sums(f: np.ndarray) -> np.ndarray:
    """Zeta transform: h[S] = sum of f[T] over T subset of S."""
    h = f.copy()
    n = h.size.bit_length() - 1
    for i in range(n):
        view = h.reshape(-1, 2, 1 << i)
        view[:, 1, :] += view[:, 0, :]
    return h
