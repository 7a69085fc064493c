"""Many greedy playouts at once: the advisor's futures of one option, one row per sampled world, in arrays.

:class:`models.evidence.rollout.Playout` plays one future at a time in plain Python; the advisor plays about
three hundred per decision. Every future of one option follows the same turn structure: the same seats in the
same order, the same hand and pile *lengths* (public), so the random draws of a future (which rumour a greedy
player plays, which pile card it uncovers) depend only on its seed, and can be turned into "which card of the
starting hand" before any card is looked at (:func:`_picks`). What differs between futures is only the
values: the hidden rumours, hence the evidence means, hence which cards the greedy players take. Those are
arrays with one row per future, and each greedy decision is a few array operations for all rows together.

The decisions are exactly :class:`Playout`'s (same arithmetic, same tie-breaks: the first mystery among equal
values), and the tests play the same futures both ways and compare every result. Professional games (the
tools) are played by :class:`Playout` itself, one future at a time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from models.evidence.rollout import C, Playout
from models.evidence.rules import EXTRA, PLAY, SEARCH, UNCOVER

Outcome = tuple[float, int, int]  # my win share, my score, my lead over the best other score


def rollouts(games: Sequence[Playout], seeds: Sequence[int], me: int, rounds: int = 6,
             picks: dict[tuple, list[int]] | None = None) -> list[Outcome]:
    """Play each position of ``games`` (the same option applied in different worlds) to the end with its
    seed, as :meth:`Playout.run` would, and return (win share, score, lead) of seat ``me`` for each.

    ``picks`` may hold the cards drawn by earlier calls (key: seed and turn structure), so that the futures of
    several options that share a turn structure draw their seeds' random numbers once.
    """
    if not games:
        return []
    if games[0].pro:
        return [_scalar(g, seed, me, rounds) for g, seed in zip(games, seeds, strict=True)]
    picks = picks if picks is not None else {}
    groups: dict[tuple, list[int]] = {}  # futures that share a turn structure play in one batch
    for i, g in enumerate(games):
        first = g.phase if g.phase in (UNCOVER, PLAY) else SEARCH  # no draw before the next turn
        key = (g.cur, g.round, first, tuple(map(len, g.hand)), tuple(map(len, g.pile)), tuple(g.limit))
        groups.setdefault(key, []).append(i)
    out: list[Outcome | None] = [None] * len(games)
    for rows in groups.values():
        batch = _Batch([games[i] for i in rows])
        batch.run([seeds[i] for i in rows], rounds, picks)
        for i, outcome in zip(rows, batch.outcomes(me), strict=True):
            out[i] = outcome
    return [o for o in out if o is not None]


def _scalar(game: Playout, seed: int, me: int, rounds: int) -> Outcome:
    game.run(random.Random(seed), rounds)
    scores, winners = game.results()
    mine = scores[me - 1]
    win = 1 / len(winners) if me in winners else 0.0
    return win, mine, mine - max(v for i, v in enumerate(scores) if i != me - 1)


def _picks(seed: int, plan: tuple[tuple[int, int, int], ...]) -> list[int]:
    """For each draw of ``plan`` ((seat, 0 hand / 1 pile, length at the start)), the index in the *starting*
    list of the card the future seeded ``seed`` plays: ``Playout.finish_turn`` pops ``rng.randrange(len)``
    from the current list, and that only depends on the lengths."""
    rng = random.Random(seed)
    lists: dict[tuple[int, int], list[int]] = {}
    out = []
    for seat, kind, length in plan:
        cards = lists.setdefault((seat, kind), list(range(length)))
        out.append(cards.pop(rng.randrange(len(cards))))
    return out


class _Batch:
    """The futures of one option, one row each (see module docstring); seats are 0-based, as in Playout."""

    def __init__(self, games: Sequence[Playout]) -> None:
        g0 = games[0]
        self.w = len(games)
        self.n = n = g0.n
        self.rows = np.arange(self.w)
        self.vals_sum = np.array(g0.vals_sum)
        self.vals_n = np.array(g0.vals_n)
        self.max_extras = g0.max_extras
        self.limit = list(g0.limit)
        self.order, self.pos, self.round, self.cur = g0.order, g0.pos, g0.round, g0.cur
        # the first turn's phase per row: after the option, one future may be searching and another done
        self.phase = g0.phase if g0.phase in (UNCOVER, PLAY) else SEARCH
        self.first = [g.phase for g in games] if self.phase == SEARCH else []
        self.hand_len = [len(h) for h in g0.hand]
        self.pile_len = [len(p) for p in g0.pile]
        hmax, pmax = max(self.hand_len, default=0) or 1, max(self.pile_len, default=0) or 1
        self.hand_c = np.zeros((self.w, n, hmax), dtype=np.int64)
        self.hand_v = np.zeros((self.w, n, hmax), dtype=np.int64)
        self.pile_c = np.zeros((self.w, n, pmax), dtype=np.int64)
        self.pile_v = np.zeros((self.w, n, pmax), dtype=np.int64)
        for w, g in enumerate(games):
            for s in range(n):
                for k, (ci, v) in enumerate(g.hand[s]):
                    self.hand_c[w, s, k], self.hand_v[w, s, k] = ci, v
                for k, (ci, v) in enumerate(g.pile[s]):
                    self.pile_c[w, s, k], self.pile_v[w, s, k] = ci, v
        self.hand_sum = np.array([g.hand_sum for g in games], dtype=np.int64)
        self.hand_n = np.array([g.hand_n for g in games], dtype=np.int64)
        self.disp_sum = np.array([g.disp_sum for g in games], dtype=np.int64)
        self.disp_n = np.array([g.disp_n for g in games], dtype=np.int64)
        self.evidence = np.array([g.evidence for g in games], dtype=np.int64)
        self.hot = np.array([g.hot for g in games], dtype=bool)
        self.reg = np.array([g.reg for g in games], dtype=np.int64)
        self.art = np.array([g.art for g in games], dtype=np.int64)
        self.hl = np.array([g.hl for g in games], dtype=bool)
        self.tokens = np.array([g.tokens for g in games], dtype=bool)
        self.extras = np.array([g.extras for g in games], dtype=np.int64)

    # -- the turn structure ------------------------------------------------------------------------------------
    def _plan(self, rounds: int) -> tuple[tuple[int, int, int], ...]:
        """Every random draw to the end, in order: (seat, 0 hand / 1 pile, that list's length at the start)."""
        cur, phase, pos, round_ = self.cur, self.phase, self.pos, self.round
        plan = []
        while round_ <= rounds:
            if phase == UNCOVER:
                plan.append((cur, 1, self.pile_len[cur]))
                phase = PLAY
            if phase == PLAY:
                plan.append((cur, 0, self.hand_len[cur]))
            pos += 1
            if pos == self.n:
                pos, round_ = 0, round_ + 1
            cur = self.order[pos]
            phase = UNCOVER if self.n == 2 else PLAY
        return tuple(plan)

    def run(self, seeds: Sequence[int], rounds: int, cache: dict[tuple, list[int]]) -> None:
        plan = self._plan(rounds)
        key = (plan, tuple(self.hand_len), tuple(self.pile_len))
        drawn = []
        for seed in seeds:
            got = cache.get((seed, *key))
            if got is None:
                got = cache[(seed, *key)] = _picks(seed, plan)
            drawn.append(got)
        picks = np.array(drawn, dtype=np.int64).reshape(self.w, len(plan))
        d = 0
        while self.round <= rounds:
            s = self.cur
            if self.phase == UNCOVER:
                self._reveal(self.pile_c[self.rows, s, picks[:, d]], self.pile_v[self.rows, s, picks[:, d]])
                d += 1
                self.phase = PLAY
            if self.phase == PLAY:
                ci, v = self.hand_c[self.rows, s, picks[:, d]], self.hand_v[self.rows, s, picks[:, d]]
                self.hand_sum[self.rows, s, ci] -= v
                self.hand_n[self.rows, s, ci] -= 1
                self.hand_len[s] -= 1
                self._reveal(ci, v)
                d += 1
                self.phase = SEARCH
            if self.phase in (SEARCH, EXTRA):
                means = self._means(s)
                if self.first:  # the option's own turn: each row from its phase
                    self._search(s, means, np.array([p == SEARCH for p in self.first]))
                    self._extra(s, means, np.array([p in (SEARCH, EXTRA) for p in self.first]))
                else:
                    if self.phase == SEARCH:
                        self._search(s, means)
                    self._extra(s, means)
            self.first = []
            self.pos += 1
            if self.pos == self.n:
                self.pos, self.round = 0, self.round + 1
            self.cur = self.order[self.pos]
            self.phase = UNCOVER if self.n == 2 else PLAY

    def _reveal(self, ci: np.ndarray, v: np.ndarray) -> None:
        self.disp_sum[self.rows, ci] += v
        self.disp_n[self.rows, ci] += 1

    # -- greedy, as Playout ------------------------------------------------------------------------------------
    def _means(self, s: int) -> np.ndarray:
        """:meth:`Playout.means` for every row (the same divisions of the same integers)."""
        known = self.disp_n >= 5
        num = self.vals_sum - self.disp_sum - self.hand_sum[:, s]
        den = self.vals_n - self.disp_n - self.hand_n[:, s]
        return np.where(known, self.evidence.astype(float), num / np.where(known, 1, den))

    def _take(self, s: int, rows: np.ndarray, ci: np.ndarray) -> None:
        hot = self.hot[rows, ci]
        self.hot[rows[hot], ci[hot]] = False
        self.hl[rows[hot], s, ci[hot]] = True
        self.reg[rows[~hot], ci[~hot]] -= 1
        self.art[rows, s, ci] += 1

    def _search(self, s: int, means: np.ndarray, rows: np.ndarray | None = None) -> None:
        """:meth:`Playout.greedy_search` (in ``rows``, default all): take the best card (first mystery among
        equals) while it is worth more than nothing and there is room."""
        room = self.limit[s] - self.art[:, s].sum(axis=1) - self.hand_len[s]
        active = room > 0 if rows is None else (room > 0) & rows
        while active.any():
            value = np.where(self.hot, means + 1, np.where(self.reg > 0, means, -np.inf))
            best = value.argmax(axis=1)
            ok = active & (value[self.rows, best] > 0)
            if not ok.any():
                return
            rows = np.nonzero(ok)[0]
            self._take(s, rows, best[rows])
            room = room - ok
            active = ok & (room > 0)

    def _extra(self, s: int, means: np.ndarray, rows: np.ndarray | None = None) -> None:
        """:meth:`Playout.greedy_extra` in the basic game (in ``rows``, default all): the time-out whose swap
        gains most now, if any gains more than 1e-9 over the one before it (the same running comparison)."""
        art = self.art[:, s]
        allowed = self.extras[:, s] < self.max_extras
        if rows is not None:
            allowed &= rows
        swappable = (art > 0) & self.tokens & allowed[:, None]
        if not swappable.any():
            return
        most = int(art[swappable].max())
        # every available card, best first (a stack's Hot Lead first, ties to the first mystery): the order in
        # which Playout.extra_options sorts them; the n best without mystery ci are the first n of the others
        values = np.empty((self.w, C, 1 + most))
        values[:, :, 0] = np.where(self.hot, means + 1, -np.inf)
        for r in range(1, most + 1):
            values[:, :, r] = np.where(self.reg >= r, means, -np.inf)
        values = values.reshape(self.w, -1)
        colours = np.broadcast_to(np.repeat(np.arange(C), 1 + most), values.shape)
        order = np.lexsort((colours, -values), axis=-1)
        values = np.take_along_axis(values, order, axis=1)
        colours = np.take_along_axis(colours, order, axis=1)
        available = np.isfinite(values)
        # for every mystery ci at once (axis 1): the first n_ci cards of the others, summed in order
        others = available[:, None, :] & (colours[:, None, :] != np.arange(C)[None, :, None])
        n = art[:, :, None]
        pick = others & (np.cumsum(others, axis=2) <= n)
        value = np.cumsum(np.where(pick, values[:, None, :], 0.0), axis=2)[:, :, -1]
        gain = value - (art * means + self.hl[:, s])
        ok = swappable & (pick.sum(axis=2) == art)
        best_gain = np.zeros(self.w)
        best = np.full(self.w, -1)
        for ci in range(C):  # the running comparison, mystery by mystery
            better = ok[:, ci] & (gain[:, ci] > best_gain + 1e-9)
            best_gain = np.where(better, gain[:, ci], best_gain)
            best = np.where(better, ci, best)
        rows = np.nonzero(best >= 0)[0]
        if not len(rows):
            return
        ci = best[rows]
        self.extras[rows, s] += 1
        self.tokens[rows, ci] = False
        n = self.art[rows, s, ci]
        self.art[rows, s, ci] = 0
        had = self.hl[rows, s, ci]
        self.hl[rows[had], s, ci[had]] = False
        self.hot[rows[had], ci[had]] = True
        self.reg[rows, ci] += n - had
        chosen = pick[rows, ci]  # the cards each row takes, by position in its sorted list
        t = (chosen[:, :, None] & (colours[rows][:, :, None] == np.arange(C))).sum(axis=1)
        hot = self.hot[rows] & (t > 0)
        self.hot[rows] &= ~hot
        self.hl[rows, s] |= hot
        self.reg[rows] -= t - hot
        self.art[rows, s] += t

    # -- the end -----------------------------------------------------------------------------------------------
    def outcomes(self, me: int) -> list[Outcome]:
        """(my win share, my score, my lead) per row, with :meth:`Playout.results`' scores and tie-breakers."""
        scores = (self.art * self.evidence[:, None, :]).sum(axis=2) + self.hl.sum(axis=2)
        colours = (self.art > 0).sum(axis=2)
        most = self.art.max(axis=2)
        key = (scores * 16 + colours) * 4096 + most  # (score, colours held, most cards of one) in order
        winners = key == key.max(axis=1, keepdims=True)
        m = me - 1
        mine = scores[:, m]
        win = np.where(winners[:, m], 1.0 / winners.sum(axis=1), 0.0)
        lead = mine - np.delete(scores, m, axis=1).max(axis=1)
        return list(zip(win.tolist(), mine.tolist(), lead.tolist(), strict=True))
