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

:meth:`AllocationCounter.joints` counts the worlds of every pair (pivot content, content of one other *probe*
bin), always exactly, which is what an advisor needs: the answer to a question is a function of that pair.
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
_CHUNK = 1 << 22  # entries per batch of per-pivot transforms in AllocationCounter.joints (memory bound)
_INT64_BOUND = 2**62  # joints counts in int64 below this many worlds, in Python integers above


class UnsupportedShape(ValueError):
    """The problem is not an allocation this counter handles (the caller falls back to enumeration)."""


@dataclass(frozen=True)
class _BinRule:
    """A constraint on one non-pivot bin; for CountEquals the target is ``count - (pivot literals true)``."""

    kind: str  # "count" | "notall"
    bin_items: tuple[int, ...]
    pivot_items: tuple[int, ...]
    count: int


@dataclass(frozen=True)
class JointCount:
    """Exact world counts split by the pivot bin's content (rows) and one *probe* bin's content (columns).

    Contents are bitmasks over ``items``. ``probes`` lists every subset of the probe's capacity, allowed or
    not (a column of zeros is an impossible content), so callers can index columns by mask arithmetic.
    """

    items: tuple[str, ...]
    pivots: np.ndarray  # (P,) int64 masks: pivot contents that pass the pivot-only constraints
    probes: np.ndarray  # (Q,) int64 masks: every probe-sized subset of the items
    counts: np.ndarray  # (P, Q) world counts

    @property
    def total(self) -> int:
        return int(self.counts.sum())

    def pivot_counts(self) -> np.ndarray:
        """Worlds per pivot content (the row sums)."""
        return self.counts.sum(axis=1)

    def probe_counts(self) -> np.ndarray:
        """Worlds per probe content (the column sums)."""
        return self.counts.sum(axis=0)


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
        items, pivot_rules, bin_rules = self._split(problem, constraints)
        n = len(items)
        bins = list(self.capacities)
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
            # Stop only once two groups have worlds: from fewer, the estimate would be 0 or have no error bar.
            sampled = sum(1 for c in cluster_totals if c) >= 2
            if sampled and time.perf_counter() - start > budget and done < len(order):
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

    def joint(self, problem: Problem, constraints: Sequence[Constraint], probe: str) -> JointCount:
        """Exact world counts for every (pivot content M, content q of bin ``probe``); see :meth:`joints`."""
        return self.joints(problem, constraints, [probe])[probe]

    def joints(
        self, problem: Problem, constraints: Sequence[Constraint], probes: Sequence[str]
    ) -> dict[str, JointCount]:
        """:meth:`joint` for several probe bins, sharing the parsing and the per-bin tables.

        What a question or a peek reveals is a function of (M, q), so the matrix gives every answer's
        probability and the posterior over M at once. Always exact (no budget): the cost is one zeta transform
        over the items outside M per pivot content M (vectorised over all of them), whatever the constraints.

        Method. For the constrained bins other than pivot and probe, let Z_b(S) be the number of allowed
        contents of b inside S (a zeta transform of b's allowed set). Then prod_b Z_b(S) counts tuples of
        contents inside S that may overlap, and a Moebius transform restricted to |T| = R (the sum of their
        capacities) keeps exactly the disjoint ones. Summing over the T inside the items left free by M and q,
        and swapping the sums, gives

            count(M, q) = free_ways * sum_{S subset of C} prod_b Z_b(S) * (-1)^(R-|S|) * binom(|C|-|S|, R-|S|)

        with C the items outside M and q: one zeta transform of the bracket over the items outside M, read at C
        for every q. Integer arithmetic wraps modulo 2^64 in the intermediate steps, which is harmless because
        every final count is below 2^63 (checked against the multinomial bound; past it Python integers are
        used).

        A bin whose constraints allow one content whatever M is (an informant letter I looked at) is *fixed*:
        its items leave the transforms, which halves them per item, and its joint is its single column, filled
        with each M's worlds. A probe with no other constrained bin needs no transform at all.
        """
        items, pivot_rules, bin_rules = self._split(problem, constraints)
        for probe in probes:
            if probe == self.pivot or probe not in self.capacities:
                raise ValueError(f"probe '{probe}': expected a bin other than the pivot {self.pivot!r}")
        n = len(items)
        size = 1 << n
        pc = _popcounts(n)
        bound = math.factorial(n) // math.prod(math.factorial(c) for c in self.capacities.values())
        dtype: type = np.int64 if bound < _INT64_BOUND else object
        pivots = _subsets(n, self.capacities[self.pivot])
        index = {item: i for i, item in enumerate(items)}
        for c in pivot_rules:  # vectorised Constraint.holds on every candidate pivot content
            if any(var not in index for var, _ in c.terms):
                if isinstance(c, NotAll):
                    continue  # a literal on an unknown variable is never true: the constraint holds
                hits = pc[pivots & _mask([index[v] for v, _ in c.terms if v in index])]
            else:
                hits = pc[pivots & _mask([index[v] for v, _ in c.terms])]
            pivots = pivots[hits == c.count] if isinstance(c, CountEquals) else pivots[hits != len(c.terms)]

        # Per bin: the distinct constant vectors the pivots give it (key index per pivot), and for each the
        # allowed contents (a boolean over every cap-sized subset). A bin whose rules do not involve the pivot
        # and allow exactly one content is *fixed*: its items are taken out of every transform (a looked-at
        # informant letter, typically), so the transforms shrink by half per fixed item. The others get the
        # zeta transform of their allowed set.
        key_of: dict[str, np.ndarray] = {}
        allowed: dict[str, np.ndarray] = {}
        zetas: dict[str, np.ndarray] = {}
        fixed: dict[str, int] = {}  # bin -> its only content
        taken = 0  # items of the fixed bins
        for b, rules in bin_rules.items():
            consts = np.stack([r.count - pc[pivots & _mask(r.pivot_items)] for r in rules], axis=1)
            distinct, inverse = np.unique(consts, axis=0, return_inverse=True)
            key_of[b] = inverse.reshape(-1)
            masks = _subsets(n, self.capacities[b])
            ok = np.ones((len(distinct), masks.size), dtype=bool)
            for j, r in enumerate(rules):
                hits = pc[masks & _mask(r.bin_items)]
                if r.kind == "count":
                    ok &= hits[None, :] == distinct[:, j : j + 1]
                else:
                    ok &= (hits != len(r.bin_items))[None, :]
            allowed[b] = ok
            if len(distinct) == 1 and int(ok.sum()) == 1:
                content = int(masks[ok[0]][0])
                if not content & taken:  # (two fixed bins that overlap leave no world: counted as usual)
                    fixed[b] = content
                    taken |= content
                    continue
            z = np.zeros((len(distinct), size), dtype=dtype)
            z[:, masks] = ok.astype(np.int64).astype(dtype)  # Python integers when dtype is object
            _zeta(z)
            zetas[b] = z

        # Each pivot content M only needs sums over subsets of the items outside M and the fixed bins, so the
        # transforms run in M's own coordinates: local bit j is the j-th such item (2^rest entries, not 2^n).
        # Pivots that overlap a fixed bin have no world (their rows stay zero).
        live = np.nonzero((pivots & taken) == 0)[0]
        rest = n - self.capacities[self.pivot] - int(pc[taken])
        local = np.arange(1 << rest, dtype=np.int64)
        free_of = (size - 1) ^ taken ^ pivots[live]
        outside = np.nonzero((free_of[:, None] >> np.arange(n, dtype=np.int64)[None, :]) & 1)[1]
        outside = outside.reshape(live.size, rest)
        step = max(1, _CHUNK >> rest)
        chunks = [live[lo : lo + step] for lo in range(0, live.size, step)]
        # Per chunk, (2^rest, rows): the global mask of each local subset for each pivot. The chunk's arrays are
        # laid out local subset first, pivot second, so that every pass of the zeta transform adds contiguous
        # runs of at least ``rows`` entries (along the subsets, its low bits would add runs of 1, 2, 4 ...).
        coords = [_deposit(outside[lo : lo + step]) for lo in range(0, live.size, step)]
        gathered: dict[tuple[int, str], np.ndarray] = {}  # a bin's table in a chunk's coordinates

        def sums(bins: list[str], cap: int, read: list[np.ndarray]) -> list[np.ndarray]:
            """Per chunk: worlds of the bins ``bins`` filled disjointly inside the local items minus each mask
            of ``read`` (one row per pivot), by the formula above with ``cap`` items held back for the probe."""
            avail = rest - cap
            reach = sum(self.capacities[b] for b in bins)
            if not bins:
                return [np.ones(r.shape, dtype=dtype) for r in read]
            if reach > avail:
                return [np.zeros(r.shape, dtype=dtype) for r in read]
            w = np.array(
                [(-1) ** (reach - s) * math.comb(avail - s, reach - s) if s <= reach else 0 for s in range(rest + 1)],
                dtype=dtype,
            )[pc[local]]
            out = []
            for c, (rows, idx) in enumerate(zip(chunks, coords, strict=True)):
                h = np.repeat(w[:, None], rows.size, axis=1)  # (2^rest, rows)
                for b in bins:
                    if (c, b) not in gathered:
                        gathered[(c, b)] = zetas[b][key_of[b][rows][None, :], idx]
                    h *= gathered[(c, b)]
                _zeta_columns(h)
                out.append(h[local[-1] ^ read[c], np.arange(rows.size)[:, None]])
            return out

        def free_ways(bins: list[str]) -> int:
            caps = [self.capacities[b] for b in bins]
            return math.factorial(sum(caps)) // math.prod(math.factorial(c) for c in caps)

        constrained = [b for b in self.capacities if b in zetas]
        row_totals: np.ndarray | None = None  # worlds per pivot content
        out: dict[str, JointCount] = {}
        for probe in [p for p in probes if p not in fixed] + [p for p in probes if p in fixed]:
            twin = next(
                (b for b in out if b not in bin_rules and probe not in bin_rules
                 and self.capacities[b] == self.capacities[probe]),
                None,
            )
            if twin is not None:  # two free bins of one capacity are interchangeable: same counts
                out[probe] = out[twin]
                continue
            cap = self.capacities[probe]
            qs = _subsets(n, cap)
            counts = np.zeros((pivots.size, qs.size), dtype=dtype)
            if probe in fixed:  # its column of the one content holds every world of each pivot
                if row_totals is None:
                    others = [b for b in self.capacities if b != self.pivot and b not in bin_rules]
                    ways = free_ways(others)
                    parts = sums(constrained, 0, [np.zeros((rows.size, 1), dtype=np.int64) for rows in chunks])
                    row_totals = np.zeros(pivots.size, dtype=dtype)
                    for rows, part in zip(chunks, parts, strict=True):
                        row_totals[rows] = part[:, 0] * ways
                counts[:, int(np.nonzero(qs == fixed[probe])[0][0])] = row_totals
                out[probe] = JointCount(tuple(items), pivots, qs, counts)
                continue
            ways = free_ways([b for b in self.capacities if b not in (self.pivot, probe) and b not in bin_rules])
            q_bits = (qs[None, :, None] >> outside[:, None, :]) & 1  # (live, Q, rest): q's items in local order
            q_local = q_bits @ (np.int64(1) << np.arange(rest, dtype=np.int64))  # items of M or fixed are dropped
            ok = (pivots[live][:, None] & qs[None, :]) == 0
            ok &= (qs & taken)[None, :] == 0
            if probe in allowed:
                ok &= allowed[probe][key_of[probe][live]]
            reads = [q_local[lo : lo + step] for lo in range(0, live.size, step)]
            parts = sums([b for b in constrained if b != probe], cap, reads)
            for lo, (rows, part) in enumerate(zip(chunks, parts, strict=True)):
                counts[rows] = np.where(ok[lo * step : lo * step + rows.size], part, 0) * ways
            if row_totals is None:
                row_totals = counts.sum(axis=1)
            out[probe] = JointCount(tuple(items), pivots, qs, counts)
        return {probe: out[probe] for probe in probes}

    def _split(
        self, problem: Problem, constraints: Sequence[Constraint]
    ) -> tuple[list[str], list[Constraint], dict[str, list[_BinRule]]]:
        """Check the shape and sort the constraints into pivot-only rules and per-bin rules."""
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
        return items, pivot_rules, bin_rules

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


_POPCOUNTS: dict[int, np.ndarray] = {}
_SUBSETS: dict[tuple[int, int], np.ndarray] = {}


def _popcounts(n: int) -> np.ndarray:
    """popcount of every n-bit mask (cached: built once per item count)."""
    if n not in _POPCOUNTS:
        ar = np.arange(1 << n, dtype=np.int64)
        pc = np.zeros(1 << n, dtype=np.int64)
        for i in range(n):
            pc += (ar >> i) & 1
        _POPCOUNTS[n] = pc
    return _POPCOUNTS[n]


def _subsets(n: int, k: int) -> np.ndarray:
    """Every k-element subset of n items as a bitmask, in lexicographic order of the item indices."""
    if (n, k) not in _SUBSETS:
        _SUBSETS[(n, k)] = np.array(
            [sum(1 << i for i in combo) for combo in itertools.combinations(range(n), k)], dtype=np.int64
        )
    return _SUBSETS[(n, k)]


def _deposit(positions: np.ndarray) -> np.ndarray:
    """(2^k, rows): for each row r of ``positions`` (rows, k), local subset s's bits placed at positions[r]
    (bit j of s becomes bit positions[r, j]), built by doubling: the subsets with bit j are those without it
    plus that bit."""
    out = np.zeros((1, positions.shape[0]), dtype=np.int64)
    for j in range(positions.shape[1]):
        out = np.concatenate([out, out | (np.int64(1) << positions[:, j])[None, :]])
    return out


def _mask(indices: Sequence[int]) -> int:
    return sum(1 << i for i in indices)


_LOW_BITS = 4  # _zeta transforms this many low bits in a transposed copy


def _zeta(h: np.ndarray) -> None:
    """In place, along the last axis: h[..., S] becomes the sum of h[..., T] over T subset of S.

    Pass i adds each half of every block of 2^(i+1) entries to the other; for the low bits those halves are
    runs of 1, 2, 4 ... entries, which NumPy adds at a fraction of its speed on long runs. So the low
    ``_LOW_BITS`` bits are transformed in a transposed copy (blocks of 2^_LOW_BITS entries as rows, read down
    the columns: every run as long as the number of blocks), then copied back: about twice as fast overall."""
    n = h.shape[-1].bit_length() - 1
    lead = h.shape[:-1]
    if h.size == 0:
        return
    low = min(_LOW_BITS, n) if h.flags.c_contiguous else 0  # (then reshaping is a view: written through)
    blocks = h.reshape(-1, 1 << low)
    t = np.ascontiguousarray(blocks.T)
    _zeta_columns(t)
    blocks[...] = t.T
    for i in range(low, n):
        view = h.reshape(*lead, -1, 2, 1 << i)
        view[..., 1, :] += view[..., 0, :]


def _zeta_columns(h: np.ndarray) -> None:
    """In place, along the first axis of a contiguous 2-D array: h[S, j] becomes the sum of h[T, j] over T
    subset of S (every column at once, in runs of at least as many entries as there are columns)."""
    n = h.shape[0].bit_length() - 1
    assert h.flags.c_contiguous, "reshape would copy"
    flat = h.reshape(-1)
    width = h.shape[1]
    for i in range(n):
        view = flat.reshape(-1, 2, (1 << i) * width)
        view[:, 1, :] += view[:, 0, :]
