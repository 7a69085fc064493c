"""Exact counting for "a few unit bins, each holding one distinct item; the other bins take the rest".

The shape of hidden hands in games where you cannot see your own cards (Beyond Baker Street, Hanabi-like
games): every hand position is a *unit bin* that holds exactly one card, every clue is a constraint on one
position only ("this is a 3", "this is not a Clue"), and the cards nobody can see fill the deck. A world is
then an injection of the positions into the unseen cards that respects each position's allowed set, times
the (constant) ways to spread the remaining cards over the other bins.

Items that no unit-bin constraint tells apart are interchangeable, so they are grouped by the set of
positions that allow them (a bit mask) and counted with a multiplicity: a dynamic program over groups whose
state is the set of positions already filled, in O(groups * 3^positions). A forward and a backward pass give,
for each (group, position), the number of worlds where that position holds an item of the group; by symmetry
each item of the group has the same share. :class:`InjectionCounter` wraps this as a
:class:`solver.knowledge.Counter`.

:func:`unit_marginals` counts the same worlds for items given as bit masks by a second algorithm, inclusion and
exclusion over the set partitions of the positions (Moebius inversion on the partition lattice), in array code:
for the few positions of a hand it is several times faster, and it is what the advisors' inner loops call.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

import numpy as np

from solver.constraints import Constraint, CountEquals, Lit, NotAll, Problem
from solver.knowledge import Count

H = TypeVar("H", bound=Hashable)


class UnsupportedShape(ValueError):
    """The problem is not one this counter handles (the caller falls back to another counter)."""


def _submasks(mask: int) -> list[int]:
    """Every submask of ``mask``, the empty one included."""
    out = []
    sub = mask
    while True:
        out.append(sub)
        if sub == 0:
            return out
        sub = (sub - 1) & mask


@lru_cache(maxsize=16)
def _tables(bins: int) -> tuple[list[int], list[list[int]]]:
    """Popcounts and submask lists of every mask over ``bins`` bits (shared by every count of that size)."""
    size = 1 << bins
    return [bin(m).count("1") for m in range(size)], [_submasks(m) for m in range(size)]


def _falling(m: int, r: int) -> int:
    """m * (m-1) * ... (r factors): ways to put r distinct items of a group of m into r ordered bins."""
    return math.perm(m, r) if r <= m else 0


def injection_counts(groups: Sequence[tuple[int, int]], bins: int) -> tuple[int, list[list[int]]]:
    """Count the ways to fill ``bins`` unit bins with distinct items.

    ``groups`` lists (mask, multiplicity): ``multiplicity`` interchangeable items, each allowed in exactly the
    bins of ``mask`` (bit b = bin b). Returns the total and ``weights[g][b]``, the number of fillings in which
    bin ``b`` holds an item of group ``g`` (summed over the group's items).
    """
    size = 1 << bins
    full = size - 1
    pop, subs = _tables(bins)
    forward: list[list[int]] = [[0] * size]
    forward[0][0] = 1
    falls = [[_falling(mult, r) for r in range(bins + 1)] for _, mult in groups]
    for (mask, _mult), fall in zip(groups, falls, strict=True):
        prev, new = forward[-1], [0] * size
        for filled in range(size):
            ways = prev[filled]
            if not ways:
                continue
            for t in subs[mask & ~filled]:
                f = fall[pop[t]]
                if f:
                    new[filled | t] += ways * f
        forward.append(new)
    total = forward[-1][full]
    backward: list[list[int]] = [[0] * size for _ in range(len(groups) + 1)]
    backward[-1][full] = 1
    for j in range(len(groups) - 1, -1, -1):
        mask, fall = groups[j][0], falls[j]
        after, cur = backward[j + 1], backward[j]
        for filled in range(size):
            acc = 0
            for t in subs[mask & ~filled]:
                f = fall[pop[t]]
                if f:
                    acc += f * after[filled | t]
            cur[filled] = acc
    weights = [[0] * bins for _ in groups]
    bits = [[b for b in range(bins) if t >> b & 1] for t in range(size)]
    for j, (mask, _mult) in enumerate(groups):
        before, after, fall = forward[j], backward[j + 1], falls[j]
        row = weights[j]
        for filled in range(size):
            ways = before[filled]
            if not ways:
                continue
            for t in subs[mask & ~filled]:
                f = fall[pop[t]]
                if t and f:
                    w = ways * f * after[filled | t]
                    if w:
                        for b in bits[t]:
                            row[b] += w
    return total, weights


def item_distributions(allowed: Sequence[Collection[H]], items: Sequence[H]) -> tuple[int, list[dict[H, int]]]:
    """For unit bins with allowed item sets, the number of injections and, per bin, item -> worlds with it.

    ``allowed[b]`` is the set of items bin ``b`` may hold; ``items`` is every item available (the rest go
    to the other bins, whose count of arrangements is a common factor left out here).
    """
    bins = len(allowed)
    by_mask: dict[int, list[H]] = {}
    for item in items:
        mask = 0
        for b in range(bins):
            if item in allowed[b]:
                mask |= 1 << b
        if mask:
            by_mask.setdefault(mask, []).append(item)
    groups = list(by_mask.items())
    total, weights = injection_counts([(mask, len(members)) for mask, members in groups], bins)
    per_bin: list[dict[H, int]] = [{} for _ in range(bins)]
    for (_mask, members), row in zip(groups, weights, strict=True):
        for b in range(bins):
            if row[b]:
                share = row[b] // len(members)  # every item of the group has the same share
                for item in members:
                    per_bin[b][item] = share
    return total, per_bin


#: Positions up to which :func:`unit_marginals` uses the subset recursion (3^k steps); beyond, the DP.
PARTITION_LIMIT = 8


@lru_cache(maxsize=PARTITION_LIMIT + 1)
def _subset_tables(k: int) -> tuple[list[int], list[list[int]], np.ndarray]:
    """For ``k`` positions: each subset's block coefficient (-1)^(|s|-1) (|s|-1)!, for each subset T the
    subsets of T holding T's lowest position (the block that position is in), and which positions each subset
    holds (positions x subsets, as floats for the matrix product)."""
    size = 1 << k
    coef = [0] + [(-1) ** (s.bit_count() - 1) * math.factorial(s.bit_count() - 1) for s in range(1, size)]
    firsts = [[]] + [[sub for sub in _submasks(t) if sub & (t & -t)] for t in range(1, size)]
    subsets = np.arange(size)
    member = ((subsets[None, :] >> np.arange(k)[:, None]) & 1).astype(np.float64)
    return coef, firsts, member


def unit_marginals(masks: Sequence[int], width: int) -> tuple[int, np.ndarray]:
    """The number of ways to put one distinct item in each position, position ``b`` taking an item of bit mask
    ``masks[b]`` (items 0..width-1), and the (positions x width) array of how many of them put item ``i`` in
    position ``b`` (floats holding exact integers).

    Inclusion and exclusion over the set partitions of the positions (Moebius inversion on the partition
    lattice): the injections of a set T of positions number
    inj(T) = sum over the blocks s of T holding T's lowest position of mu(s) |cap(s)| inj(T - s),
    where cap(s) is the intersection of the masks of s and mu(s) = (-1)^(|s|-1) (|s|-1)!. Fixing item i in
    position b replaces the factor of b's block s by [i in cap(s)], so the worlds with i at b number
    sum over the subsets s holding b of mu(s) inj(all - s) [i in cap(s)]: one matrix product over the 2^k
    subsets. 3^k steps for k positions, up to :data:`PARTITION_LIMIT`; beyond, the dynamic program of
    :func:`injection_counts` answers.
    """
    k = len(masks)
    if k > PARTITION_LIMIT:
        return _marginals_by_dp(masks, width)
    size = 1 << k
    full = size - 1
    coef, firsts, member = _subset_tables(k)
    cap = [0] * size
    cap[0] = (1 << width) - 1
    block = [0] * size  # mu(s) |cap(s)|
    for s in range(1, size):
        low = s & -s
        cap[s] = c = cap[s ^ low] & masks[low.bit_length() - 1]
        block[s] = coef[s] * c.bit_count()
    inj = [1] + [0] * full
    for t in range(1, size):
        inj[t] = sum(block[s] * inj[t ^ s] for s in firsts[t])
    if k == 0:
        return 1, np.zeros((0, width))
    weight = np.array([coef[s] * inj[full ^ s] for s in range(size)], dtype=np.float64)
    bits = (np.array(cap, dtype=np.int64)[:, None] >> np.arange(width)) & 1
    return inj[full], (member * weight) @ bits


def unit_count(masks: Sequence[int]) -> int:
    """The number of ways to put one distinct item in each position, position ``b`` taking an item of bit mask
    ``masks[b]``: the total of :func:`unit_marginals` alone, by the same recursion, without the marginals."""
    k = len(masks)
    if k > PARTITION_LIMIT:
        return injection_counts(_groups(masks), k)[0]
    size = 1 << k
    coef, firsts, _member = _subset_tables(k)
    cap = [0] * size
    cap[0] = -1
    block = [0] * size
    for s in range(1, size):
        low = s & -s
        cap[s] = c = cap[s ^ low] & masks[low.bit_length() - 1]
        block[s] = coef[s] * c.bit_count()
    inj = [1] + [0] * (size - 1)
    for t in range(1, size):
        inj[t] = sum(block[s] * inj[t ^ s] for s in firsts[t])
    return inj[-1]


def _groups(masks: Sequence[int]) -> list[tuple[int, int]]:
    """Items grouped by the positions that allow them, as :func:`injection_counts` takes them."""
    union = 0
    for m in masks:
        union |= m
    groups: dict[int, int] = {}
    while union:
        low = union & -union
        union ^= low
        pattern = sum(1 << b for b, m in enumerate(masks) if m & low)
        groups[pattern] = groups.get(pattern, 0) + 1
    return list(groups.items())


_POPCOUNT12 = np.array([bin(x).count("1") for x in range(1 << 12)], dtype=np.int64)


def _popcount(a: np.ndarray, width: int) -> np.ndarray:
    """Bits set in each entry of ``a`` (non-negative, under 2**width)."""
    out = _POPCOUNT12[a & 0xFFF]
    for shift in range(12, width, 12):
        out = out + _POPCOUNT12[(a >> shift) & 0xFFF]
    return out


@lru_cache(maxsize=PARTITION_LIMIT + 1)
def _level_tables(k: int) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]]:
    """:func:`unit_marginals_many`'s recursion in array form: per number of positions L = 1..k, the subsets T
    of that size, and for each the (s, T - s) pairs of its sum (flattened, grouped by T, with each group's
    start), so a level is one gather, one product and one grouped sum."""
    coef, firsts, _member = _subset_tables(k)
    levels = []
    for size in range(1, k + 1):
        ts = [t for t in range(1, 1 << k) if t.bit_count() == size]
        s_idx, r_idx, starts = [], [], []
        for t in ts:
            starts.append(len(s_idx))
            for sub in firsts[t]:
                s_idx.append(sub)
                r_idx.append(t ^ sub)
        levels.append((np.array(ts), np.array(s_idx), np.array(r_idx), np.array(starts)))
    return np.array(coef, dtype=np.int64), levels


def unit_marginals_many(masks: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`unit_marginals` for many problems of ``k`` positions at once: ``masks`` is (problems x k)
    (integers under 2**width, at most 62 bits); returns the totals (problems) and the marginals
    (problems x k x width, floats holding exact integers), in array code throughout."""
    n, k = masks.shape
    if k > PARTITION_LIMIT:
        rows = [_marginals_by_dp([int(m) for m in row], width) for row in masks]
        return np.array([t for t, _ in rows], dtype=np.int64), np.array([m for _, m in rows]).reshape(n, k, width)
    size = 1 << k
    full = size - 1
    _coef, _firsts, member = _subset_tables(k)
    coef, levels = _level_tables(k)
    everything = (1 << width) - 1
    cap = np.bitwise_and.reduce(np.where(member[None, :, :] > 0, masks[:, :, None], everything), axis=1)
    block = coef * _popcount(cap, width)
    inj = np.zeros((n, size), dtype=np.int64)
    inj[:, 0] = 1
    for ts, s_idx, r_idx, starts in levels:
        inj[:, ts] = np.add.reduceat(block[:, s_idx] * inj[:, r_idx], starts, axis=1)
    weight = (coef * inj[:, full ^ np.arange(size)]).astype(np.float64)
    bits = ((cap[:, :, None] >> np.arange(width)) & 1).astype(np.float64)
    return inj[:, full], (member[None, :, :] * weight[:, None, :]) @ bits


def _marginals_by_dp(masks: Sequence[int], width: int) -> tuple[int, np.ndarray]:
    """:func:`unit_marginals` through :func:`injection_counts` (items grouped by the positions allowing them)."""
    groups: dict[int, list[int]] = {}
    for i in range(width):
        pattern = sum(1 << b for b, m in enumerate(masks) if m >> i & 1)
        if pattern:
            groups.setdefault(pattern, []).append(i)
    items = list(groups.items())
    total, weights = injection_counts([(pattern, len(cards)) for pattern, cards in items], len(masks))
    out = np.zeros((len(masks), width))
    for (_pattern, cards), row in zip(items, weights, strict=True):
        for b, w in enumerate(row):
            out[b, cards] = w // len(cards)
    return total, out


class InjectionCounter:
    """A :class:`solver.knowledge.Counter` for items (variables) placed into bins (values).

    ``unit_bins`` each hold exactly one item; ``capacities`` gives every other bin's size. Supported
    constraints: capacities, any constraint whose literals all name one unit bin (it reduces to an allowed set
    for that bin), and pins ``CountEquals(((item, bin),), 1)`` for the other bins. Anything else raises
    :class:`UnsupportedShape`.
    """

    def __init__(self, unit_bins: Sequence[str], capacities: Mapping[str, int]) -> None:
        self.unit_bins = list(unit_bins)
        self.capacities = dict(capacities)

    def __call__(self, problem: Problem, constraints: Sequence[Constraint], budget: float) -> Count:
        del budget  # exact and fast for the shapes it accepts
        items = list(problem.variables)
        units = self.unit_bins
        unit_index = {b: i for i, b in enumerate(units)}
        bins = set(units) | set(self.capacities)
        for var, dom in problem.variables.items():
            if set(dom) != bins:
                raise UnsupportedShape(f"variable {var} does not range over the bins")
        allowed: list[set[str]] = [set(items) for _ in units]
        pinned: dict[str, str] = {}
        for c in [*problem.structure, *constraints]:
            mentioned = {val for _, val in c.terms}
            if len(mentioned) != 1:
                raise UnsupportedShape(f"a constraint mentions several bins: {sorted(mentioned)}")
            (b,) = mentioned
            named = [var for var, _ in c.terms]
            if b in unit_index:
                slot = allowed[unit_index[b]]
                if isinstance(c, CountEquals):
                    if c.count == 1:
                        slot &= set(named)
                    elif c.count == 0:
                        slot -= set(named)
                    else:
                        slot.clear()  # one item cannot be two of these
                elif isinstance(c, NotAll) and len(set(named)) == 1:
                    slot -= set(named)
                continue
            cap = self.capacities[b]
            if isinstance(c, CountEquals) and c.count == cap and set(named) == set(items) and len(named) == len(items):
                continue
            if isinstance(c, CountEquals) and len(c.terms) == 1 and c.count == 1:
                item = named[0]
                if pinned.get(item, b) != b:
                    return Count(0.0, {})
                pinned[item] = b
                continue
            raise UnsupportedShape(f"unsupported constraint on bin {b}: {c}")
        free = [it for it in items if it not in pinned]
        for slot in allowed:
            slot.difference_update(pinned)
        rest = {b: cap - sum(1 for v in pinned.values() if v == b) for b, cap in self.capacities.items()}
        left = len(free) - len(units)
        if left < 0 or any(r < 0 for r in rest.values()) or sum(rest.values()) != left:
            return Count(0.0, {})
        spread = math.factorial(left) // math.prod(math.factorial(r) for r in rest.values())
        total, per_bin = item_distributions(allowed, free)
        worlds = total * spread
        weights: dict[Lit, float] = {}
        for item, b in pinned.items():
            weights[(item, b)] = float(worlds)
        for item in free:
            in_units = 0
            for i, b in enumerate(units):
                w = per_bin[i].get(item, 0) * spread
                if w:
                    weights[(item, b)] = float(w)
                    in_units += w
            outside = worlds - in_units
            for b, r in rest.items():
                if r and outside:
                    weights[(item, b)] = outside * r / left
        return Count(float(worlds), weights)
