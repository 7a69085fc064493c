"""Compiled loops for the Beyond Baker Street advisor (Numba): a decision's value table, a hand's exact
distributions, the expected value of every play, and every Assist's value, each in one call.

A decision of the advisor is a few dozen small array operations (:mod:`models.beyond_baker_street.plain`) on
tables of at most 24 cards: NumPy's overhead per call outweighs the arithmetic. These loops do, element by
element, exactly what the array code does: integer counts as integers (the array code's floats hold exact
integers, so they are the same numbers), and every float sum in the same order (card by card in index order,
position by position), with the same first-of-equals tie-breaks, so the numbers are the same to the last bit
(``tests/models/beyond_baker_street/test_bbs_kernels.py`` compares both on random positions, ties included).

Cards are :data:`models.beyond_baker_street.data.EVIDENCE` indices: icon by icon, numbers 1 to 6, so the cards
of icon ``c`` are bits ``6c`` to ``6c + 5`` of a card mask, number ``n`` at bit ``6c + n - 1``.

Numba compiles each function on its first call and keeps the result on disk (``cache=True``, in the package's
``__pycache__``), so compiling is paid once per installation. Even that once never falls on a player:
:func:`models.beyond_baker_street.advice.compiled` loads this module in a background thread, and the advisor
uses the array code (the same numbers) until it is ready.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CARDS = 24
PER_ICON = 6
ICONS = 4
#: Sums past this bit are not kept by :func:`_sums_below` (a target at or above it is never reachable here).
SUM_BITS = 62


@njit(cache=True)
def _popcount(x: int) -> int:
    """The bits set in ``x`` (0 <= x < 2**32), in a few word operations."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True)
def _bit(low: int) -> int:
    """The index of the single set bit of ``low``."""
    index = 0
    while low > 1:
        low >>= 1
        index += 1
    return index


@njit(cache=True)
def _sums_below(mask: int, skip: int) -> int:
    """Bit s set when some cards of ``mask`` but card ``skip`` (each used once) add up to exactly s < 63."""
    sums = 1
    keep = (1 << (SUM_BITS + 1)) - 1
    m = mask
    while m:
        low = m & -m
        i = _bit(low)
        if i != skip:
            sums = (sums | (sums << (i % PER_ICON + 1))) & keep
        m ^= low
    return sums


@njit(cache=True)
def _points6(m: int) -> int:
    """The numbers of the cards of one icon's 6-bit mask added up."""
    total = 0
    for j in range(PER_ICON):
        if m >> j & 1:
            total += j + 1
    return total


@njit(cache=True)
def _reach6(m: int, target: int) -> bool:
    """Whether some cards of one icon's 6-bit mask add up to exactly ``target``."""
    if target < 0 or target > 21:
        return False
    return bool(_sums_below(m, -1) >> target & 1)


@njit(cache=True)
def _joint6(m: int, wanted: np.ndarray, count: int) -> bool:
    """Whether disjoint sets of the cards of one icon's 6-bit mask add up to each of ``wanted[:count]``
    (at most three: one per open Lead)."""
    if count == 0:
        return True
    if count == 1:
        return _reach6(m, wanted[0])
    sub = m
    while True:
        if _points6(sub) == wanted[0]:
            rest = m & ~sub
            if count == 2:
                if _reach6(rest, wanted[1]):
                    return True
            else:
                inner = rest
                while True:
                    if _points6(inner) == wanted[1] and _reach6(rest & ~inner, wanted[2]):
                        return True
                    if inner == 0:
                        break
                    inner = (inner - 1) & rest
        if sub == 0:
            return False
        sub = (sub - 1) & m


@njit(cache=True)
def _feasible(live: int, icon: int, icons: np.ndarray, needs: np.ndarray, row: int, need: int,
              wanted: np.ndarray) -> bool:
    """:meth:`Situation._feasible`: whether the open Leads of ``icon`` (Lead ``row``'s need replaced by
    ``need``; ``row`` -1: none) can all still be completed exactly from the ``live`` cards."""
    count = 0
    for r in range(icons.shape[0]):
        if icons[r] == icon:
            wanted[count] = need if r == row else needs[r]
            count += 1
    return _joint6((live >> (PER_ICON * icon)) & 63, wanted, count)


@njit(cache=True)
def value_table(live: int, icons: np.ndarray, needs: np.ndarray, dead: np.ndarray, track: int, goal: int,
                cost: float, complete: float, progress: float, stuck: float, mismatch_base: float, mismatch: float,
                eliminate: float, finish: float, lead_card: float) -> np.ndarray:
    """:meth:`Situation._values_fast`: the value of each card (columns) played to each open Lead (rows: the
    Leads' icons, needs and Dead Lead values) or eliminated (the last row); 0 for cards not ``live``."""
    return _value_table(live, icons, needs, dead, track, goal, cost, complete, progress, stuck, mismatch_base,
                        mismatch, eliminate, finish, lead_card, True)


@njit(cache=True)
def _coefficients(k: int) -> np.ndarray:
    """Per subset s of ``k`` positions, the coefficient (-1)^(|s|-1) (|s|-1)! of a block s (0 for the empty
    one)."""
    coef = np.zeros(1 << k, dtype=np.int64)
    for s in range(1, 1 << k):
        blocks = _popcount(s)
        c = 1
        for j in range(2, blocks):
            c *= j
        coef[s] = c if blocks % 2 == 1 else -c
    return coef


@njit(cache=True)
def _marginals_into(masks: np.ndarray, unseen: int, weights: np.ndarray, coef: np.ndarray, cap: np.ndarray,
                    block: np.ndarray, inj: np.ndarray) -> int:
    """:func:`_marginals` with its tables given (``coef`` from :func:`_coefficients`; ``cap``, ``block`` and
    ``inj`` scratch, one entry per subset of the positions), so that many hands reuse them."""
    k = masks.shape[0]
    size = 1 << k
    cap[0] = (1 << CARDS) - 1
    block[0] = 0
    for s in range(1, size):
        low = s & -s
        b = 0
        while (1 << b) != low:
            b += 1
        cap[s] = cap[s ^ low] & masks[b] & unseen
        block[s] = coef[s] * _popcount(cap[s])
    inj[0] = 1
    for t in range(1, size):
        low = t & -t
        rest = t ^ low
        acc = 0
        sub = rest
        while True:
            s = sub | low
            acc += block[s] * inj[t ^ s]
            if sub == 0:
                break
            sub = (sub - 1) & rest
        inj[t] = acc
    full = size - 1
    weights[:, :] = 0.0
    for s in range(1, size):
        w = coef[s] * inj[full ^ s]
        c = cap[s]
        if w == 0 or c == 0:
            continue
        wf = float(w)
        while c:
            low = c & -c
            i = _popcount(low - 1)
            for b in range(k):
                if s >> b & 1:
                    weights[b, i] += wf
            c ^= low
    return inj[full]


@njit(cache=True)
def _marginals(masks: np.ndarray, unseen: int, weights: np.ndarray) -> int:
    """:func:`solver.injections.unit_marginals` of one hand (positions allowing ``masks[b] & unseen``) into
    ``weights`` (positions x 24, integer counts as floats): returns the number of worlds. The same inclusion and
    exclusion over the set partitions of the positions, in integers."""
    size = 1 << masks.shape[0]
    return _marginals_into(masks, unseen, weights, _coefficients(masks.shape[0]), np.empty(size, dtype=np.int64),
                           np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64))


@njit(cache=True)
def distributions(masks: np.ndarray, unseen: int) -> np.ndarray:
    """:func:`models.beyond_baker_street.knowledge.mask_distribution`: per position the probability of each card
    (positions x 24), all zeros if no world fits."""
    weights = np.empty((masks.shape[0], CARDS))
    total = _marginals(masks, unseen, weights)
    if total:
        for b in range(masks.shape[0]):
            for i in range(CARDS):
                if weights[b, i] != 0.0:
                    weights[b, i] = weights[b, i] / total
    else:
        weights[:, :] = 0.0
    return weights


@njit(cache=True)
def expected(dists: np.ndarray, values: np.ndarray) -> np.ndarray:
    """:meth:`Situation.expected`: the expected value of each play (positions x value rows), summed card by
    card in index order."""
    k, plays = dists.shape[0], values.shape[0]
    out = np.empty((k, plays))
    for b in range(k):
        for p in range(plays):
            acc = dists[b, 0] * values[p, 0]
            for i in range(1, CARDS):
                acc += dists[b, i] * values[p, i]
            out[b, p] = acc
    return out


@njit(cache=True)
def assist_rows(masks: np.ndarray, unseen: np.ndarray, hands: np.ndarray, base: np.ndarray,
                discount: np.ndarray, values: np.ndarray, min_play: float, second: float, info: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`models.beyond_baker_street.plain._assist_values` in one call: for each row (a hand of card
    indices ``hands``, its slot ``masks`` and the cards its holder cannot see ``unseen``), the holder's best play
    (flat index position * plays + value row, -1 if no world fits) and its expected value (:class:`Outlook`),
    what it is really worth (``gain``), and the row's value as an Assist against its ``base`` row (the holder's
    knowledge now): ``(value, best, best_value, gain)``."""
    n, k = masks.shape
    plays = values.shape[0]
    best = np.full(n, -1, dtype=np.int64)
    best_value = np.full(n, -np.inf)
    gain = np.zeros(n)
    then = np.zeros(n)
    good = np.zeros((n, k))
    best_use = np.zeros((n, k))
    best_row = np.zeros((n, k), dtype=np.int64)
    weights = np.empty((k, CARDS))
    exp = np.empty(k * plays)
    coef = _coefficients(k)
    cap = np.empty(1 << k, dtype=np.int64)
    block = np.empty(1 << k, dtype=np.int64)
    inj = np.empty(1 << k, dtype=np.int64)
    for r in range(n):
        total = _marginals_into(masks[r], unseen[r], weights, coef, cap, block, inj)
        fits = total > 0
        scale = float(total) if fits else 1.0
        for b in range(k):
            for i in range(CARDS):
                if weights[b, i] != 0.0:  # 0 / scale is 0: only the cards a position may hold are divided
                    weights[b, i] = weights[b, i] / scale
        for b in range(k):
            for p in range(plays):
                acc = weights[b, 0] * values[p, 0]
                for i in range(1, CARDS):
                    acc += weights[b, i] * values[p, i]
                exp[b * plays + p] = acc
        if k and fits:
            at = 0
            for j in range(1, k * plays):
                if exp[j] > exp[at]:
                    at = j
            best[r] = at
            best_value[r] = exp[at]
            if exp[at] >= min_play:
                gain[r] = values[at % plays, hands[r, at // plays]]
        then[r] = gain[r]
        if second != 0.0 and k > 1:  # the best play once the best one is made, where one is
            skip = best[r] // plays if best[r] >= 0 else -1
            other = -1
            for j in range(k * plays):
                if j // plays == skip:
                    continue
                if other < 0 or exp[j] > exp[other]:
                    other = j
            if best[r] >= 0 and other >= 0 and exp[other] >= min_play:
                then[r] = then[r] + second * max(0.0, values[other % plays, hands[r, other // plays]])
        if info != 0.0:  # each card's best use, and how likely its holder finds the same use good
            for b in range(k):
                card = hands[r, b]
                top = 0
                for p in range(1, plays):
                    if values[p, card] > values[top, card]:
                        top = p
                best_row[r, b] = top
                best_use[r, b] = values[top, card]
                acc = weights[b, 0] if values[top, 0] > 0 else 0.0
                for i in range(1, CARDS):
                    acc += weights[b, i] if values[top, i] > 0 else 0.0
                good[r, b] = acc
    value = np.empty(n)
    for r in range(n):
        if info != 0.0 and k:
            played = best[r] // plays if best[r] >= 0 and best_value[r] >= min_play else -1
            information = 0.0
            for b in range(k):
                rise = best_use[r, b] * max(0.0, good[r, b] - good[base[r], b])
                term = rise if best_use[r, b] > 0 and b != played else 0.0
                information = term if b == 0 else information + term
            then[r] = then[r] + info * information
        value[r] = (then[r] - max(gain[base[r]], 0.0)) * discount[r]
    return value, best, best_value, gain


@njit(cache=True)
def assist_subjects(before: np.ndarray, hands: np.ndarray, unseen: np.ndarray, discount: np.ndarray,
                    subjects: np.ndarray, owners: np.ndarray, values: np.ndarray, min_play: float, second: float,
                    info: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every Assist of a decision: for targets (rows of ``before``: their slot masks now, ``hands``: their cards)
    and Assists (``subjects``: the card mask an Assist names, ``owners``: its target's row), the rows of
    :func:`assist_rows` (each target's knowledge now, then each Assist's: the named positions narrowed to the
    subject, the others to the rest), and per Assist its value, the best play it leaves and that play's
    expected value."""
    targets, k = before.shape
    n = targets + subjects.shape[0]
    masks = np.empty((n, k), dtype=np.int64)
    rows_unseen = np.empty(n, dtype=np.int64)
    rows_hands = np.empty((n, k), dtype=np.intp)
    base = np.empty(n, dtype=np.intp)
    rows_discount = np.empty(n)
    for t in range(targets):
        masks[t] = before[t]
        rows_unseen[t] = unseen[t]
        rows_hands[t] = hands[t]
        base[t] = t
        rows_discount[t] = discount[t]
    for j in range(subjects.shape[0]):
        t = owners[j]
        r = targets + j
        sm = subjects[j]
        for i in range(k):
            masks[r, i] = before[t, i] & sm if (1 << hands[t, i]) & sm else before[t, i] & ~sm
        rows_unseen[r] = unseen[t]
        rows_hands[r] = hands[t]
        base[r] = t
        rows_discount[r] = discount[t]
    value, best, best_value, _gain = assist_rows(masks, rows_unseen, rows_hands, base, rows_discount, values,
                                                 min_play, second, info)
    return value[targets:], best[targets:], best_value[targets:]


@njit(cache=True)
def count(masks: np.ndarray) -> int:
    """:func:`solver.injections.unit_count`: the ways to put one distinct card in each position, position ``b``
    taking a card of ``masks[b]`` (the same recursion, in integers)."""
    k = masks.shape[0]
    size = 1 << k
    coef = _coefficients(k)
    cap = np.empty(size, dtype=np.int64)
    block = np.empty(size, dtype=np.int64)
    inj = np.empty(size, dtype=np.int64)
    cap[0] = -1
    block[0] = 0
    for s in range(1, size):
        low = s & -s
        b = 0
        while (1 << b) != low:
            b += 1
        cap[s] = cap[s ^ low] & masks[b]
        block[s] = coef[s] * _popcount(cap[s])
    inj[0] = 1
    for t in range(1, size):
        low = t & -t
        rest = t ^ low
        acc = 0
        sub = rest
        while True:
            s = sub | low
            acc += block[s] * inj[t ^ s]
            if sub == 0:
                break
            sub = (sub - 1) & rest
        inj[t] = acc
    return inj[size - 1]


@njit(cache=True)
def narrowed(dists: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """:func:`models.beyond_baker_street.advice.narrowed`: ``dists`` given that each position's card is one of
    its mask (a row unchanged if none of its cards is), the kept probabilities added card by card."""
    out = dists.copy()
    for b in range(dists.shape[0]):
        mask = masks[b]
        total = dists[b, 0] if mask & 1 else 0.0
        for i in range(1, CARDS):
            total += dists[b, i] if mask >> i & 1 else 0.0
        if total != 0.0:
            for i in range(CARDS):
                out[b, i] = (dists[b, i] if mask >> i & 1 else 0.0) / total
    return out


@njit(cache=True)
def hand_expected(masks: np.ndarray, unseen: int, known: np.ndarray, narrow: bool, values: np.ndarray
                  ) -> np.ndarray:
    """:func:`expected` of my hand's :func:`distributions`, first :func:`narrowed` to ``known`` if ``narrow``:
    the three calls a decision makes (:func:`models.beyond_baker_street.plain.scores_in`) in one, the same
    loops in the same order, so the same numbers without two calls' set-up."""
    return _hand_expected(masks, unseen, known, narrow, values)


@njit(cache=True)
def _hand_expected(masks: np.ndarray, unseen: int, known: np.ndarray, narrow: bool, values: np.ndarray
                   ) -> np.ndarray:
    """:func:`hand_expected`'s loops, for it and for the kernels that fold it in (a call from compiled code with
    a constant ``narrow`` compiles a signature of its own: here, not in the one the loader compiled)."""
    dists = distributions(masks, unseen)
    if narrow:
        dists = narrowed(dists, known)
    return expected(dists, values)


@njit(cache=True)
def table_uses(values: np.ndarray, live: int, leads: int) -> np.ndarray:
    """What :class:`models.beyond_baker_street.advice.ValueTable` reads from a value table (rows: the open Leads,
    then eliminating), in one array: per card (24), the first row of highest value (row by row, a later row
    only if higher, as ``ValueTable.best_uses`` reads it; -1 for a card not ``live``); per card (24), 1 if that
    value is positive; then per open Lead (``leads``), the cards worth something played to it, as a card
    mask."""
    return _uses_into(values, live, leads, np.zeros(2 * CARDS + leads, dtype=np.int64))


@njit(cache=True)
def _uses_into(values: np.ndarray, live: int, leads: int, out: np.ndarray) -> np.ndarray:
    """:func:`table_uses`, written into the first ``2 * CARDS + leads`` entries of ``out`` (returned)."""
    rows = values.shape[0]
    for i in range(CARDS):
        if not live >> i & 1:
            out[i] = -1
            continue
        best = values[0, i]
        at = 0
        for r in range(1, rows):
            if values[r, i] > best:
                best = values[r, i]
                at = r
        out[i] = at
        out[CARDS + i] = 1 if best > 0 else 0
    for r in range(leads):
        mask = 0
        for i in range(CARDS):
            if values[r, i] > 0:
                mask |= 1 << i
        out[2 * CARDS + r] = mask
    return out


@njit(cache=True)
def use_classes(uses: np.ndarray, live: int, leads: int, count: int) -> np.ndarray:
    """:func:`models.beyond_baker_street.hat.use_classes` (``count`` classes, as card masks) from a table's
    :func:`table_uses` (``leads`` open Leads): the same class for each card still in play, by the same rules."""
    classes = np.zeros(count, dtype=np.int64)
    for i in range(CARDS):
        if not live >> i & 1:
            continue
        row = uses[i]
        worth = uses[CARDS + i] == 1
        n = i % PER_ICON + 1
        high = 1 if n >= 4 else 0
        if count == 8:
            c = 2 * row + high if worth and row < leads else (6 if worth else 7)
        elif count == 9:
            c = 2 * row + high if worth and row < leads else (6 if worth else 7 + high)
        elif count == 12:
            c = 3 * row + (n - 1) // 2 if worth and row < leads else (9 if worth else 10 + high)
        elif worth and row < leads:
            c = row
        elif count == 6:
            c = 3 if worth else (4 if n <= 3 else 5)
        elif worth and leads < count - 1:
            c = leads
        else:
            c = count - 1
        classes[c] |= 1 << i
    return classes


@njit(cache=True)
def play_classes(uses: np.ndarray, live: int, leads: int, count: int) -> np.ndarray:
    """:func:`models.beyond_baker_street.hat.play_classes` (``count`` classes, as card masks) from a table's
    :func:`table_uses`, by the same rules."""
    rest = max(1, count - leads)
    classes = np.zeros(count, dtype=np.int64)
    for i in range(CARDS):
        if not live >> i & 1:
            continue
        row = uses[i]
        worth = uses[CARDS + i] == 1
        n = i % PER_ICON + 1
        c = min(count - 1, row if worth and row < leads else leads + (n - 1) * rest // 6)
        classes[c] |= 1 << i
    return classes


@njit(cache=True)
def _row_gain(masks: np.ndarray, unseen: int, hand: np.ndarray, values: np.ndarray, min_play: float,
              weights: np.ndarray, exp: np.ndarray, coef: np.ndarray, cap: np.ndarray, block: np.ndarray,
              inj: np.ndarray) -> float:
    """One row's ``gain`` of :func:`assist_rows` (what the holder's best play, if its expected value is at least
    ``min_play``, is really worth; 0 if no world fits), by the same loops, but for the expected values, which
    skip the cards a position cannot hold: their terms are 0, which leaves a sum as it is (or only the sign of a
    zero sum), so every comparison, and so the best play and its gain, is the same. The hat gains need nothing
    else of a row (no ``second`` or ``info`` term)."""
    k = masks.shape[0]
    plays = values.shape[0]
    total = _marginals_into(masks, unseen, weights, coef, cap, block, inj)
    if not k or total <= 0:
        return 0.0
    scale = float(total)
    for j in range(k * plays):
        exp[j] = 0.0
    for b in range(k):
        for i in range(CARDS):
            wb = weights[b, i]
            if wb != 0.0:
                wb = wb / scale
                for p in range(plays):
                    exp[b * plays + p] += wb * values[p, i]
    at = 0
    for j in range(1, k * plays):
        if exp[j] > exp[at]:
            at = j
    if exp[at] >= min_play:
        return values[at % plays, hand[at // plays]]
    return 0.0


@njit(cache=True)
def hat_values(mine: np.ndarray, known: np.ndarray, masks: np.ndarray, fixed: np.ndarray, hands: np.ndarray,
               sizes: np.ndarray, unseen: int, discount: np.ndarray, target: int, subjects: np.ndarray,
               foci: np.ndarray, told: np.ndarray, values: np.ndarray, min_play: float, second: float, info: float
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hat decision's evaluations in one call (:func:`models.beyond_baker_street.hat.hat_scores`): the
    expected value of each of my plays (:func:`hand_expected` of my slot masks ``mine`` narrowed to ``known``);
    for the other seats (rows of ``masks``: their slot masks from their Assists, ``fixed``: what hat messages fixed
    per slot, ``hands``: their cards, each row's first ``sizes`` entries; ``unseen``: the cards in my hand or the
    deck; ``discount`` per seat), the value of each literal Assist to seat row ``target`` naming ``subjects``
    (:func:`assist_subjects`, with the ``second`` and ``info`` terms) and, per partition ``p`` and seat ``s``
    whose focus card ``foci[p, s]`` is a position (-1: no focus), the gain of fixing it to the class mask
    ``told[p, s]`` (the value :func:`assist_rows` gives the row after against the row before, without those
    terms: by :func:`_row_gain`, the seat's row before valued once for both partitions; 0 where no focus). The
    same rows as the Python set-up of ``plain._assist_values`` and ``hat.hat_gains_many`` (each row's value
    depends on its own rows alone), so the same numbers: ``(expected, assist values, gains)``."""
    expected_values = _hand_expected(mine, unseen, known, True, values)
    seats = masks.shape[0]
    cannot = np.empty(seats, dtype=np.int64)  # per seat, the cards its holder cannot see
    for s in range(seats):
        u = unseen
        for i in range(sizes[s]):
            u |= 1 << hands[s, i]
        cannot[s] = u
    assist = np.zeros(subjects.shape[0])
    if subjects.shape[0]:
        k = sizes[target]
        before = np.empty((1, k), dtype=np.int64)
        hand = np.empty((1, k), dtype=np.intp)
        for i in range(k):
            before[0, i] = masks[target, i]
            hand[0, i] = hands[target, i]
        target_unseen = np.empty(1, dtype=np.int64)
        target_unseen[0] = cannot[target]
        target_discount = np.empty(1)
        target_discount[0] = discount[target]
        owners = np.zeros(subjects.shape[0], dtype=np.intp)
        said, _best, _best_value = assist_subjects(before, hand, target_unseen, target_discount, subjects, owners,
                                                   values, min_play, second, info)
        for j in range(subjects.shape[0]):
            assist[j] = said[j]
    parts = foci.shape[0]
    gains = np.zeros((parts, seats))
    for s in range(seats):  # per seat: its knowledge before my message once, then after each partition's
        k = sizes[s]
        focused = False
        for p in range(parts):
            if foci[p, s] >= 0:
                focused = True
        if not focused:
            continue
        row = np.empty(k, dtype=np.int64)
        cards = np.empty(k, dtype=np.int64)
        for i in range(k):
            row[i] = masks[s, i] & fixed[s, i]
            cards[i] = hands[s, i]
        weights = np.empty((k, CARDS))
        exp = np.empty(k * values.shape[0])
        coef = _coefficients(k)
        cap = np.empty(1 << k, dtype=np.int64)
        block = np.empty(1 << k, dtype=np.int64)
        inj = np.empty(1 << k, dtype=np.int64)
        now = _row_gain(row, cannot[s], cards, values, min_play, weights, exp, coef, cap, block, inj)
        for p in range(parts):
            f = foci[p, s]
            if f < 0:
                continue
            kept = row[f]
            row[f] = kept & told[p, s]
            after = _row_gain(row, cannot[s], cards, values, min_play, weights, exp, coef, cap, block, inj)
            row[f] = kept
            gains[p, s] = (after - max(now, 0.0)) * discount[s]  # assist_rows' value without its terms
    return expected_values, assist, gains


@njit(cache=True)
def _uses_of(values: np.ndarray, live: int, leads: int, extra: int) -> np.ndarray:
    """:func:`table_uses` of a table the caller just made (a writable one: through :func:`_uses_into`, so that
    :func:`table_uses` keeps the one signature the advisor compiles), with ``extra`` entries left at 0 after it."""
    return _uses_into(values, live, leads, np.zeros(2 * CARDS + leads + extra, dtype=np.int64))


@njit(cache=True)
def table_all(live: int, icons: np.ndarray, needs: np.ndarray, dead: np.ndarray, track: int, goal: int,
              cost: float, complete: float, progress: float, stuck: float, mismatch_base: float, mismatch: float,
              eliminate: float, finish: float, lead_card: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`value_table` (the same arguments and numbers) and, in the same
    call, what is read from it: the layout of :func:`table_uses`, followed by one entry per icon, 1 if the open
    Leads of that icon can all still be completed exactly from the ``live`` cards (what the Pursue values ask:
    ``Situation.icon_feasible``). One call where a new board took two and a plain-Python feasibility walk per
    open Lead."""
    values = _value_table(live, icons, needs, dead, track, goal, cost, complete, progress, stuck, mismatch_base,
                          mismatch, eliminate, finish, lead_card, True)
    leads = icons.shape[0]
    uses = _uses_of(values, live, leads, ICONS)
    wanted = np.empty(3, dtype=np.int64)
    for ic in range(ICONS):
        uses[2 * CARDS + leads + ic] = 1 if _feasible(live, ic, icons, needs, -1, 0, wanted) else 0
    return values, uses


@njit(cache=True)
def _take_ints(ints: np.ndarray, at: int, n: int) -> np.ndarray:
    """``ints[at:at + n]`` as a new array of its own (C-contiguous, as the callers' own arrays are)."""
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = ints[at + i]
    return out


@njit(cache=True)
def hat_packed(ints: np.ndarray, discount: np.ndarray, unseen: int, values: np.ndarray, min_play: float,
               second: float, info: float) -> np.ndarray:
    """:func:`hat_values` with its integer arguments packed in one array and its answers in one (two arrays to
    build and read in Python rather than a dozen). ``ints``: my hand size ``k``, the other seats ``seats``, their
    row length ``K``, the target row, the subjects ``n`` and the partitions ``parts``, then ``mine`` (k),
    ``known`` (k), ``masks``, ``fixed`` and ``hands`` (seats x K each), ``sizes`` (seats), ``subjects`` (n),
    ``foci`` and ``told`` (parts x seats each). The answer: the expected values (k x value rows), the Assists'
    values (n), the gains (parts x seats), one after the other."""
    k, seats, width, target, n, parts = ints[0], ints[1], ints[2], ints[3], ints[4], ints[5]
    at = 6
    mine = _take_ints(ints, at, k)
    at += k
    known = _take_ints(ints, at, k)
    at += k
    masks = _take_ints(ints, at, seats * width).reshape(seats, width)
    at += seats * width
    fixed = _take_ints(ints, at, seats * width).reshape(seats, width)
    at += seats * width
    hands = _take_ints(ints, at, seats * width).reshape(seats, width)
    at += seats * width
    sizes = _take_ints(ints, at, seats)
    at += seats
    subjects = _take_ints(ints, at, n)
    at += n
    foci = _take_ints(ints, at, parts * seats).reshape(parts, seats)
    at += parts * seats
    told = _take_ints(ints, at, parts * seats).reshape(parts, seats)
    expected_values, assist, gains = hat_values(mine, known, masks, fixed, hands, sizes, unseen, discount, target,
                                                subjects, foci, told, values, min_play, second, info)
    plays = values.shape[0]
    out = np.empty(k * plays + n + parts * seats)
    j = 0
    for b in range(k):
        for p in range(plays):
            out[j] = expected_values[b, p]
            j += 1
    for i in range(n):
        out[j] = assist[i]
        j += 1
    for p in range(parts):
        for s in range(seats):
            out[j] = gains[p, s]
            j += 1
    return out


@njit(cache=True)
def table_packed(live: int, facts: np.ndarray, track: int, goal: int, cost: float, dead_lead: float,
                 complete: float, progress: float, stuck: float, mismatch_base: float, mismatch: float,
                 eliminate: float, finish: float, lead_card: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`table_all` from the open Leads' facts as they are read (four integers per Lead: the icon's index,
    the need, the evidence total and the pile), the Dead Lead values computed here as
    ``advice._lead_arrays`` computes them (``dead_lead``: the weight of a Dead Lead): one small array to build
    per new board rather than three."""
    leads = facts.shape[0] // 4
    icons = np.empty(leads, dtype=np.int64)
    needs = np.empty(leads, dtype=np.int64)
    dead = np.empty(leads)
    for r in range(leads):
        icons[r] = facts[4 * r]
        needs[r] = facts[4 * r + 1]
        total = facts[4 * r + 2]
        dead[r] = -1000.0 if facts[4 * r + 3] == 0 else -dead_lead - cost - progress * total * 0.5
    return table_all(live, icons, needs, dead, track, goal, cost, complete, progress, stuck, mismatch_base,
                     mismatch, eliminate, finish, lead_card)


@njit(cache=True)
def _sums_without(live: int, i: int, known: np.ndarray, at: np.ndarray) -> int:
    """``_sums_below(live, i)`` for a live card ``i``, kept per number in ``known`` and ``at``: the other live
    cards are the same numbers whichever live card of that number is left out."""
    n = i % PER_ICON + 1
    if not known[n]:
        known[n] = True
        at[n] = _sums_below(live, i)
    return at[n]


@njit(cache=True)
def _value_table(live: int, icons: np.ndarray, needs: np.ndarray, dead: np.ndarray, track: int, goal: int,
                 cost: float, complete: float, progress: float, stuck: float, mismatch_base: float,
                 mismatch: float, eliminate: float, finish: float, lead_card: float, share: bool) -> np.ndarray:
    """:func:`value_table`'s loops. ``share``: each answer that does not depend on the card itself is asked once
    (whether a Lead raised by a mismatched card's number can still be completed, per Lead and number, as
    :meth:`Situation._values_fast` shares it; the sums the other live cards reach, per number: removing any live
    card of a number leaves the same numbers); without it, per card (the tests' check that sharing changes no
    bit). Compiled code calls this one, so that :func:`value_table` keeps the one signature the loader compiles."""
    leads = icons.shape[0]
    out = np.zeros((leads + 1, CARDS))
    wanted = np.empty(3, dtype=np.int64)
    before = np.empty(ICONS, dtype=np.bool_)
    for ic in range(ICONS):
        before[ic] = _feasible(live, ic, icons, needs, -1, 0, wanted)
    kept = np.zeros(CARDS, dtype=np.bool_)  # the icon's Leads still feasible without the card
    for i in range(CARDS):
        if live >> i & 1:
            kept[i] = _feasible(live & ~(1 << i), i // PER_ICON, icons, needs, -1, 0, wanted)
    raised_known = np.full(PER_ICON + 1, -1, dtype=np.int64)  # the Lead row each number's answer is for
    raised_at = np.zeros(PER_ICON + 1, dtype=np.bool_)
    for row in range(leads):
        lead_icon, need = icons[row], needs[row]
        for i in range(CARDS):
            if not live >> i & 1:
                continue
            n, icon = i % PER_ICON + 1, i // PER_ICON
            if icon == lead_icon:
                if n == need:
                    after = _feasible(live & ~(1 << i), icon, icons, needs, row, 0, wanted)
                    out[row, i] = complete + progress * n - ((0.0 if after else stuck) -
                                                             (0.0 if before[icon] else stuck))
                elif n < need:
                    broke = before[icon] and not _feasible(live & ~(1 << i), icon, icons, needs, row, need - n,
                                                           wanted)
                    out[row, i] = progress * n - stuck if broke else progress * n
                else:
                    out[row, i] = dead[row]
            else:
                if not share or raised_known[n] != row:
                    raised_known[n] = row
                    raised_at[n] = _feasible(live, lead_icon, icons, needs, row, need + n, wanted)
                raised = raised_at[n]
                value = -mismatch_base - mismatch * n
                if (before[icon] and not kept[i]) or (before[lead_icon] and not raised):
                    value -= stuck
                out[row, i] = value
    sums_known = np.zeros(PER_ICON + 1, dtype=np.bool_)
    sums_at = np.zeros(PER_ICON + 1, dtype=np.int64)
    for i in range(CARDS):
        if not live >> i & 1:
            continue
        n, icon = i % PER_ICON + 1, i // PER_ICON
        if track + n > goal:
            out[leads, i] = -1000.0
            continue
        value = eliminate * n - cost
        rest = goal - track - n
        if rest == 0:
            value += finish
        elif rest > SUM_BITS or not (_sums_without(live, i, sums_known, sums_at) if share
                                     else _sums_below(live, i)) >> rest & 1:
            value -= stuck
        if before[icon] and not kept[i]:
            value -= stuck
        else:
            for row in range(leads):
                if icon == icons[row] and n <= needs[row]:
                    value -= lead_card * n
                    break
        out[leads, i] = value
    return out
