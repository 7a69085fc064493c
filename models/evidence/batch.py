"""Many greedy playouts at once: the advisor's futures of one option, one row per sampled world, in arrays.

:class:`models.evidence.rollout.Playout` plays one future at a time in plain Python; the advisor plays about
three hundred per decision. Every future of one option follows the same turn structure: the same seats in the
same order, the same hand and pile *lengths* (public), so the random draws of a future (which rumour a greedy
player plays, which pile card it uncovers) depend only on its seed, and can be turned into "which card of the
starting hand" before any card is looked at (:func:`picks`). What differs between futures is only the
values: the hidden rumours, hence the evidence means, hence which cards the greedy players take. Those are
arrays with one row per future: the reveals, the means and the outcome are array operations for all rows
together, and the greedy searches and time-outs, a few dozen scalar steps a row, run row by row in compiled
loops (:mod:`models.evidence.kernels`), where NumPy's overhead per call would cost more than the arithmetic.

The decisions are exactly :class:`Playout`'s (same arithmetic, same tie-breaks: the first mystery among equal
values), and the tests play the same futures both ways and compare every result. Professional games (the
tools) are played by :class:`Playout` itself, one future at a time, and so is every game while the compiled loops
are still loading for a player who asked (:mod:`models.evidence.compiled`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import ModuleType

import numpy as np

from models.evidence.compiled import compiled
from models.evidence.observations import Action, Card, Done, PlayRumour, Take, Uncover, UseTimeOut
from models.evidence.rollout import COLOURS, INDEX, C, Playout
from models.evidence.rules import EXTRA, PLAY, SEARCH, UNCOVER

Outcome = tuple[float, int, int]  # my win share, my score, my lead over the best other score
World = tuple[Mapping[str, int], Mapping[int, Sequence[Card]], Mapping[int, Sequence[Card]]]


def play_options(base: Playout, actions: Sequence[Action], worlds: Sequence[World], seeds: Sequence[int], me: int,
                 rounds: int = 6, wait: bool = True, load: bool = True) -> list[list[Outcome]]:
    """For each of ``actions`` (legal for the player to move in ``base``), its futures: the action in each of
    ``worlds``, then greedy play to the end with the world's seed, as ``base.with_world(*world)``,
    :meth:`Playout.apply` and :meth:`Playout.run` would play them; (win share, score, lead) of seat ``me``.

    ``wait=False`` (a player waiting for ``advise``): if the compiled loops are not loaded yet
    (:mod:`models.evidence.compiled`), the futures are played one by one by :class:`Playout` rather than waiting
    for the compiler; the outcomes are the same. ``load=False``: the compiled loops only if they are loaded
    already (the teacher, whose few small decisions Playout plays sooner than Numba starts)."""
    if not worlds or not actions:
        return [[] for _ in actions]
    kernels = None if base.pro else compiled(wait, load)
    if kernels is None:
        out = []
        for action in actions:
            games = [base.with_world(*world) for world in worlds]
            for game in games:
                game.apply(action)
            out.append([_scalar(g, seed, me, rounds) for g, seed in zip(games, seeds, strict=True)])
        return out
    template = _Batch.of_worlds(base, worlds, kernels)
    groups: dict[tuple, list[tuple[int, _Batch]]] = {}  # options whose futures share a turn structure
    for i, action in enumerate(actions):
        batch = template.copy()
        batch.apply(action)
        groups.setdefault(batch.structure(), []).append((i, batch))
    results: list[list[Outcome]] = [[] for _ in actions]
    w = len(worlds)
    for members in groups.values():
        batch = _Batch.stack([b for _, b in members])
        batch.run(seeds, len(members), rounds)
        outcomes = batch.outcomes(me)
        for j, (i, _) in enumerate(members):
            results[i] = outcomes[j * w : (j + 1) * w]
    return results


def _scalar(game: Playout, seed: int, me: int, rounds: int) -> Outcome:
    game.run(random.Random(seed), rounds)
    scores, winners = game.results()
    mine = scores[me - 1]
    win = 1 / len(winners) if me in winners else 0.0
    return win, mine, mine - max(v for i, v in enumerate(scores) if i != me - 1)


def picks(seeds: Sequence[int], plan: Sequence[tuple[int, int, int]]) -> np.ndarray:
    """For each seed (row) and each draw of ``plan`` ((seat, 0 hand / 1 pile, that list's length at the start)),
    the index in the *starting* list of the card that ``Playout.finish_turn`` plays with ``random.Random(seed)``:
    it pops ``rng.randrange(len)`` from the current list, which only depends on the lengths."""
    out = []
    for seed in seeds:
        below = random.Random(seed)._randbelow  # what randrange(n) draws with, without its argument checks
        lists: dict[tuple[int, int], list[int]] = {}
        for seat, kind, length in plan:
            cards = lists.get((seat, kind))
            if cards is None:
                cards = lists[(seat, kind)] = list(range(length))
            if not cards:  # randrange(0) would draw forever: a future that plays past a hand is no future
                raise ValueError(f"seat {seat + 1} has no card left to draw in this future")
            out.append(cards.pop(below(len(cards))))
    return np.array(out, dtype=np.int64).reshape(len(seeds), len(plan))


def _drop(cards: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Each row of ``cards`` without its entry ``k[row]`` (the rest in order, as ``list.pop``)."""
    keep = np.arange(cards.shape[1])[None, :] != k[:, None]
    return cards[keep].reshape(cards.shape[0], cards.shape[1] - 1)


def _first(cards: np.ndarray, match: np.ndarray) -> np.ndarray:
    """The first index of each row where ``match`` holds (as ``list.index``); every row must have one."""
    if not match.any(axis=1).all():
        raise ValueError("an action names a card that a sampled world does not have")
    return match.argmax(axis=1)


class _Batch:
    """The futures of some options, one row each (see module docstring); seats are 0-based, as in Playout.

    Public state that every row starts with comes from the base position; the hidden cards from the worlds:
    ``hand_c[s]`` / ``hand_v[s]`` are seat s's hand (colour index, value) per row, ``pile_c`` / ``pile_v``
    the two-player piles, the rest as in :class:`Playout` with a leading row axis.
    """

    ARRAYS = ("hand_sum", "hand_n", "disp_sum", "disp_n", "evidence", "hot", "reg", "art", "hl", "tokens", "extras")

    @classmethod
    def of_worlds(cls, base: Playout, worlds: Sequence[World], kernels: ModuleType) -> _Batch:
        self = cls.__new__(cls)
        self.kernels = kernels  # models.evidence.kernels, loaded
        w, n = len(worlds), base.n
        self.w, self.n, self.rows = w, n, np.arange(w)
        self.vals_sum, self.vals_n = np.array(base.vals_sum), np.array(base.vals_n)
        self.max_extras, self.limit = base.max_extras, list(base.limit)
        self.order, self.pos, self.round, self.cur, self.phase = base.order, base.pos, base.round, base.cur, base.phase
        self.resume = base.resume  # as Playout's: after a move out of turn, the seat whose turn it is
        self.first: list[str] = []
        self.evidence = np.array([[ev[c] for c in COLOURS] for ev, _, _ in worlds], dtype=np.int64)
        self.hand_c, self.hand_v, self.pile_c, self.pile_v = [], [], [], []
        for s in range(n):
            for held, colours, values in ((1, self.hand_c, self.hand_v), (2, self.pile_c, self.pile_v)):
                cards = [world[held].get(s + 1, ()) for world in worlds]
                size = len(cards[0])
                colours.append(np.array([[INDEX[c] for c, _ in cs] for cs in cards], dtype=np.int64).reshape(w, size))
                values.append(np.array([[v for _, v in cs] for cs in cards], dtype=np.int64).reshape(w, size))
        onehot = [(c[:, :, None] == np.arange(C)) for c in self.hand_c]
        self.hand_sum = np.stack([(v[:, :, None] * o).sum(axis=1) for v, o in zip(self.hand_v, onehot, strict=True)],
                                 axis=1)
        self.hand_n = np.stack([o.sum(axis=1) for o in onehot], axis=1).astype(np.int64)
        self.hand_len = [c.shape[1] for c in self.hand_c]
        self.pile_len = [c.shape[1] for c in self.pile_c]

        def rows(values: list, dtype: type) -> np.ndarray:
            one = np.array(values, dtype=dtype)
            return np.repeat(one[None], w, axis=0)

        self.disp_sum, self.disp_n = rows(base.disp_sum, np.int64), rows(base.disp_n, np.int64)
        self.hot, self.reg = rows(base.hot, bool), rows(base.reg, np.int64)
        self.art, self.hl = rows(base.art, np.int64), rows(base.hl, bool)
        self.tokens, self.extras = rows(base.tokens, bool), rows(base.extras, np.int64)
        return self

    def copy(self) -> _Batch:
        other = _Batch.__new__(_Batch)
        other.__dict__.update(self.__dict__)
        for name in self.ARRAYS:
            setattr(other, name, getattr(self, name).copy())
        for name in ("hand_c", "hand_v", "pile_c", "pile_v"):
            setattr(other, name, list(getattr(self, name)))  # rows are replaced, never written in place
        other.limit, other.hand_len, other.pile_len = list(self.limit), list(self.hand_len), list(self.pile_len)
        other.first = list(self.first)
        return other

    @classmethod
    def stack(cls, batches: Sequence[_Batch]) -> _Batch:
        """One batch of the rows of ``batches`` (which share their turn structure), in order."""
        if len(batches) == 1:
            return batches[0]
        other = batches[0].copy()
        for name in cls.ARRAYS:
            setattr(other, name, np.concatenate([getattr(b, name) for b in batches]))
        for name in ("hand_c", "hand_v", "pile_c", "pile_v"):
            setattr(other, name, [np.concatenate(arrays) for arrays in zip(*(getattr(b, name) for b in batches),
                                                                          strict=True)])
        other.first = [p for b in batches for p in b.first]
        other.w = sum(b.w for b in batches)
        other.rows = np.arange(other.w)
        return other

    def structure(self) -> tuple:
        """What the futures of a batch must share to be played together: whose turn, the draws to come."""
        first = self.phase if self.phase in (UNCOVER, PLAY) else SEARCH  # no draw before the next turn
        return (self.cur, self.round, first, tuple(self.hand_len), tuple(self.pile_len), tuple(self.limit),
                self.resume)

    # -- the option --------------------------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """:meth:`Playout.apply` in every row (the basic game's actions)."""
        s = self.cur
        if isinstance(action, Uncover):
            ci = INDEX[action.colour]
            k = _first(self.pile_c[s], self.pile_c[s] == ci)
            self._reveal(self.pile_c[s][self.rows, k], self.pile_v[s][self.rows, k])
            self.pile_c[s], self.pile_v[s] = _drop(self.pile_c[s], k), _drop(self.pile_v[s], k)
            self.pile_len[s] -= 1
            self.phase = PLAY
        elif isinstance(action, PlayRumour):
            ci, v = INDEX[action.colour], action.value
            k = _first(self.hand_c[s], (self.hand_c[s] == ci) & (self.hand_v[s] == v))
            self.hand_sum[:, s, ci] -= v
            self.hand_n[:, s, ci] -= 1
            self._reveal(np.full(self.w, ci), np.full(self.w, v))
            self.hand_c[s], self.hand_v[s] = _drop(self.hand_c[s], k), _drop(self.hand_v[s], k)
            self.hand_len[s] -= 1
            self.phase = SEARCH
        elif isinstance(action, Take):
            self._take(s, self.rows, np.full(self.w, INDEX[action.colour]))
        elif isinstance(action, Done):
            self.phase = EXTRA if self.phase == SEARCH else "end"
        elif isinstance(action, UseTimeOut):
            taken = np.zeros((self.w, C), dtype=np.int64)
            for colour in action.take:
                taken[:, INDEX[colour]] += 1
            self._time_out(s, self.rows, np.full(self.w, INDEX[action.colour]), taken)
            self.phase = "end"
        else:
            raise ValueError(f"'{action}': not an action of the basic game's futures")
        self.first = [self.phase] * self.w if self.phase not in (UNCOVER, PLAY) else []
        if self.first:
            self.phase = SEARCH

    # -- the turn structure ------------------------------------------------------------------------------------
    def _plan(self, rounds: int) -> tuple[tuple[int, int, int], ...]:
        """Every random draw to the end, in order: (seat, 0 hand / 1 pile, that list's length at the start)."""
        cur, phase, pos, round_, resume = self.cur, self.phase, self.pos, self.round, self.resume
        start = {0: self.hand_len, 1: self.pile_len}
        left = {0: list(self.hand_len), 1: list(self.pile_len)}  # cards left: no draw from an empty list
        plan = []
        while round_ <= rounds:
            for step, kind in ((UNCOVER, 1), (PLAY, 0)):
                if phase == step:
                    if left[kind][cur]:
                        plan.append((cur, kind, start[kind][cur]))
                        left[kind][cur] -= 1
                    phase = PLAY
            pos, round_, resume = self._next(pos, round_, resume)
            cur = self.order[pos]
            phase = UNCOVER if self.n == 2 else PLAY
        return tuple(plan)

    def _next(self, pos: int, round_: int, resume: int | None) -> tuple[int, int, int | None]:
        """The position and round of the next turn, as :meth:`Playout.next_turn`, and the ``resume`` left."""
        if resume is not None:
            return self.order.index(resume), round_, None
        pos += 1
        return (0, round_ + 1, None) if pos == self.n else (pos, round_, None)

    def run(self, seeds: Sequence[int], repeat: int, rounds: int) -> None:
        """Play every row to the end: the rows are ``repeat`` options, each in the worlds of ``seeds``."""
        drawn = picks(seeds, self._plan(rounds))
        drawn = np.tile(drawn, (repeat, 1)) if repeat > 1 else drawn
        d = 0
        piles = list(self.pile_len)  # cards left to uncover (a pile's cards stay in place; drawn indexes them)
        while self.round <= rounds:
            s = self.cur
            if self.phase == UNCOVER:
                if piles[s]:  # none left only after a move out of turn
                    k = drawn[:, d]
                    self._reveal(self.pile_c[s][self.rows, k], self.pile_v[s][self.rows, k])
                    piles[s] -= 1
                    d += 1
                self.phase = PLAY
            if self.phase == PLAY:
                if self.hand_len[s]:
                    ci, v = self.hand_c[s][self.rows, drawn[:, d]], self.hand_v[s][self.rows, drawn[:, d]]
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
            self.pos, self.round, self.resume = self._next(self.pos, self.round, self.resume)
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
        return np.where(known, self.evidence, num / np.where(known, 1, den))

    def _take(self, s: int, rows: np.ndarray, ci: np.ndarray) -> None:
        hot = self.hot[rows, ci]
        self.hot[rows[hot], ci[hot]] = False
        self.hl[rows[hot], s, ci[hot]] = True
        self.reg[rows[~hot], ci[~hot]] -= 1
        self.art[rows, s, ci] += 1

    def _search(self, s: int, means: np.ndarray, rows: np.ndarray | None = None) -> None:
        """:meth:`Playout.greedy_search` (in ``rows``, default all), row by row in compiled code."""
        active = np.ones(self.w, dtype=bool) if rows is None else rows
        self.kernels.greedy_search(self.hot, self.reg, self.art, self.hl, means, active, s, self.limit[s],
                                   self.hand_len[s])

    def _extra(self, s: int, means: np.ndarray, rows: np.ndarray | None = None) -> None:
        """:meth:`Playout.greedy_extra` in the basic game (in ``rows``, default all), row by row in compiled
        code."""
        active = np.ones(self.w, dtype=bool) if rows is None else rows
        self.kernels.greedy_time_out(self.hot, self.reg, self.art, self.hl, self.tokens, self.extras, means,
                                     active, s, self.max_extras)

    def _time_out(self, s: int, rows: np.ndarray, ci: np.ndarray, taken: np.ndarray) -> None:
        """:meth:`Playout.use` of a basic time-out in ``rows``: mystery ``ci``'s cards back (a Hot Lead on top of
        its stack), then ``taken[row, cj]`` cards of each other mystery (a stack's Hot Lead first)."""
        self.extras[rows, s] += 1
        self.tokens[rows, ci] = False
        n = self.art[rows, s, ci]
        self.art[rows, s, ci] = 0
        had = self.hl[rows, s, ci]
        self.hl[rows, s, ci] = False
        self.hot[rows, ci] |= had
        self.reg[rows, ci] += n - had
        hot = self.hot[rows] & (taken > 0)
        self.hot[rows] &= ~hot
        self.hl[rows, s] |= hot
        self.reg[rows] -= taken - hot
        self.art[rows, s] += taken

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
