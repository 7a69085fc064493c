"""Compiled per-row loops for the advisor's futures (:mod:`models.evidence.batch`), with Numba.

A greedy search or time-out decision takes a few dozen scalar steps per future, but the futures of one decision
are only about a hundred rows: written as array operations, each step costs more in NumPy's per-call overhead
than in arithmetic. These loops walk the rows one by one in compiled code and do, row by row, exactly what
:class:`models.evidence.rollout.Playout` does (the same integer and float operations in the same order, the same
tie-breaks), so the futures are the same; the tests compare both on every decision of real games.

Numba compiles each function on its first call and keeps the result on disk (``cache=True``), so the compilation
is paid once per installation, not once per game; :mod:`models.evidence.compiled` loads them in a background
thread when a companion session starts, so that no player waits for it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

TIE = 1e-9  # a time-out must gain more than this over the best before it (Playout.greedy_extra)


@njit(cache=True)
def _take(hot: np.ndarray, reg: np.ndarray, art: np.ndarray, hl: np.ndarray, r: int, s: int, ci: int) -> None:
    """:meth:`Playout.take` in row ``r``: the Hot Lead if the stack still has it, else a regular card."""
    if hot[r, ci]:
        hot[r, ci] = False
        hl[r, s, ci] = True
    else:
        reg[r, ci] -= 1
    art[r, s, ci] += 1


@njit(cache=True)
def greedy_search(hot: np.ndarray, reg: np.ndarray, art: np.ndarray, hl: np.ndarray, means: np.ndarray,
                  active: np.ndarray, s: int, limit: int, hand_len: int) -> None:
    """:meth:`Playout.greedy_search` for seat ``s`` in every row where ``active``: take the best available card
    (a stack's Hot Lead is worth one more; the first mystery among equals) while it is worth more than nothing
    and there is room."""
    colours = hot.shape[1]
    for r in range(hot.shape[0]):
        if not active[r]:
            continue
        room = limit - hand_len
        for ci in range(colours):
            room -= art[r, s, ci]
        while room > 0:
            best, value = -1, 0.0
            for ci in range(colours):
                if hot[r, ci]:
                    val = means[r, ci] + 1
                elif reg[r, ci]:
                    val = means[r, ci]
                else:
                    continue
                if best < 0 or val > value:
                    best, value = ci, val
            if best < 0 or value <= 0:
                break
            _take(hot, reg, art, hl, r, s, best)
            room -= 1


@njit(cache=True)
def greedy_time_out(hot: np.ndarray, reg: np.ndarray, art: np.ndarray, hl: np.ndarray, tokens: np.ndarray,
                    extras: np.ndarray, means: np.ndarray, active: np.ndarray, s: int, max_extras: int) -> None:
    """:meth:`Playout.greedy_extra` of the basic game for seat ``s`` in every row where ``active``: of the
    time-outs its tokens allow (give back all the cards of one mystery, take as many of the best available cards
    of the others, as :meth:`Playout.extra_options` orders them), the first whose gain beats the best before it
    by more than 1e-9; then :meth:`Playout.use` of it."""
    colours = hot.shape[1]
    size = 0
    for r in range(art.shape[0]):
        m = 0
        for ci in range(colours):
            m = max(m, art[r, s, ci])
        size = max(size, colours * (m + 1))
    card_value = np.empty(size)
    card_colour = np.empty(size, dtype=np.int64)
    take = np.empty(size, dtype=np.int64)
    best_take = np.empty(size, dtype=np.int64)
    for r in range(art.shape[0]):
        if not active[r] or extras[r, s] >= max_extras:
            continue
        swappable = False
        most = 0
        for ci in range(colours):
            if art[r, s, ci] > 0 and tokens[r, ci]:
                swappable = True
            most = max(most, art[r, s, ci])
        if not swappable:
            continue
        # every available card, best first: by value, ties to the first mystery (Playout sorts (-value, mystery))
        k = 0
        for ci in range(colours):
            copies = min(reg[r, ci], most)
            for j in range(-1, copies):
                if j < 0 and not hot[r, ci]:
                    continue
                v = means[r, ci] + 1 if j < 0 else means[r, ci]
                at = k
                while at > 0 and (card_value[at - 1] < v or (card_value[at - 1] == v and card_colour[at - 1] > ci)):
                    card_value[at] = card_value[at - 1]
                    card_colour[at] = card_colour[at - 1]
                    at -= 1
                card_value[at] = v
                card_colour[at] = ci
                k += 1
        best, best_gain, best_n = -1, 0.0, 0
        for ci in range(colours):
            n = art[r, s, ci]
            if n == 0 or not tokens[r, ci]:
                continue
            got = 0
            value = 0.0
            for i in range(k):
                if got == n:
                    break
                if card_colour[i] != ci:
                    value += card_value[i]
                    take[got] = card_colour[i]
                    got += 1
            if got < n:
                continue
            lose = n * means[r, ci] + (1 if hl[r, s, ci] else 0)
            gain = value - lose
            if gain > best_gain + TIE:
                best, best_gain, best_n = ci, gain, n
                best_take[:n] = take[:n]
        if best < 0:
            continue
        # Playout.use: the token is spent, the mystery's cards go back (its Hot Lead on top), the others come
        extras[r, s] += 1
        tokens[r, best] = False
        n = art[r, s, best]
        art[r, s, best] = 0
        if hl[r, s, best]:
            hl[r, s, best] = False
            hot[r, best] = True
            reg[r, best] += n - 1
        else:
            reg[r, best] += n
        for i in range(best_n):
            _take(hot, reg, art, hl, r, s, best_take[i])
