"""The current round as one exact joint distribution: roles x defusing counts x removed compositions.

Built from the hard posterior (:mod:`models.time_bomb.counting`) and, for the soft version, the bluff model
(:mod:`models.time_bomb.bluff`); the hard version uses the role prior and ignores claims. It factorises:
the composition of removed cards is independent of (roles, defusing counts) given the hard facts, and given
both, each unknown hand's bombs are a uniform sample of the unseen bombs. So everything below is exact:

- ``P(next cut from j is a defusing card) = E[d_j] / U_j``;
- ``P(it is colour k) = E[(U_j - d_j) / U_j] * E[u_k] / u_bomb`` (u: unseen bombs per colour);
- a revealed card multiplies the weights by its likelihood (``d_j/U_j`` or ``(U_j-d_j)/U_j``, and ``u_k``),
  which is how :meth:`Belief.reveal` answers "what if this cut shows X" for the advisor and the red chain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from models.time_bomb.data import DEFUSE, MORIARTY, Setup


@dataclass
class Belief:
    """One viewer's exact distribution over the current round's hidden state (see module docstring)."""

    setup: Setup
    me: int
    my_role: str
    seats: tuple[int, ...]  # seats with an unknown hand, in order (columns of ``vectors``)
    slots: np.ndarray  # unrevealed slots per unknown seat (J)
    vectors: np.ndarray  # defusing counts per unknown seat (V x J)
    joint: np.ndarray  # P(assignment, d-vector) (A x V), sums to 1
    assignments: list[dict[int, str]]
    comp_weights: np.ndarray  # P(composition) (C), sums to 1
    unseen_bombs: np.ndarray  # unseen bombs per colour in the unknown slots, per composition (C x K)
    known: dict[int, dict[str, int]]  # what each known hand (mine) still holds
    soft: bool
    _types: dict[int, dict[str, float]] = field(default_factory=dict, init=False, repr=False)
    _shares: dict[str, float] | None = field(default=None, init=False, repr=False)
    _marginal: np.ndarray | None = field(default=None, init=False, repr=False)

    # -- queries --------------------------------------------------------------------------------------------
    def cards_left(self, seat: int) -> int:
        if seat in self.known:
            return sum(self.known[seat].values())
        return int(self.slots[self.seats.index(seat)])

    def p_defuse(self, seat: int) -> float:
        return self.p_types(seat).get(DEFUSE, 0.0)

    def p_types(self, seat: int) -> dict[str, float]:
        """P(a random card of ``seat``'s hand is each type), exact; empty if the seat has no card."""
        if seat not in self._types:
            self._types[seat] = self._p_types(seat)
        return self._types[seat]

    def _p_types(self, seat: int) -> dict[str, float]:
        if seat in self.known:
            hand = self.known[seat]
            n = sum(hand.values())
            return {t: c / n for t, c in hand.items() if c} if n else {}
        j = self.seats.index(seat)
        u = int(self.slots[j])
        if u == 0:
            return {}
        marginal = self.marginal()
        p_def = float(marginal @ self.vectors[:, j]) / u
        # E[(U - d) / U] summed directly (not 1 - p_def): exactly 0 when every possible hand is all defusing
        # cards, so no bomb gets a rounding-error chance that a what-if could not then divide by
        p_bomb = float(marginal @ (u - self.vectors[:, j])) / u
        out = {DEFUSE: p_def} if p_def > 0 else {}
        for colour, share in self.colour_shares().items():
            p = p_bomb * share
            if p > 0:
                out[colour] = p
        return out

    def marginal(self) -> np.ndarray:
        """P(d-vector), summed over role assignments."""
        if self._marginal is None:
            self._marginal = self.joint.sum(axis=0)
        return self._marginal

    def colour_shares(self) -> dict[str, float]:
        """P(an unseen bomb in the unknown hands is each colour) = E[u_k] / u_bomb."""
        if self._shares is None:
            total = self.unseen_bombs.sum(axis=1)
            shares = self.unseen_bombs / np.maximum(total, 1)[:, None]
            mixed = self.comp_weights @ shares
            self._shares = {c: float(p) for c, p in zip(self.setup.colours, mixed, strict=True)}
        return self._shares

    def roles(self) -> dict[int, float]:
        """P(seat is Moriarty) for every seat (mine is 0 or 1)."""
        post = self.joint.sum(axis=1)
        out = {}
        for seat in range(1, self.setup.players + 1):
            if seat == self.me:
                out[seat] = 1.0 if self.my_role == MORIARTY else 0.0
            else:
                out[seat] = float(sum(p for p, a in zip(post, self.assignments, strict=True) if a[seat] == MORIARTY))
        return out

    def defuser_distribution(self, seat: int) -> dict[int, float]:
        """P(``seat`` holds k defusing cards now)."""
        if seat in self.known:
            return {self.known[seat].get(DEFUSE, 0): 1.0}
        j = self.seats.index(seat)
        out: dict[int, float] = {}
        for d, p in zip(self.vectors[:, j], self.marginal(), strict=True):
            if p > 0:
                out[int(d)] = out.get(int(d), 0.0) + float(p)
        return dict(sorted(out.items()))

    def colour_distribution(self, seat: int, colour: str) -> dict[int, float]:
        """P(``seat`` holds k cards of ``colour`` now): a hypergeometric mixture over d and compositions."""
        if seat in self.known:
            return {self.known[seat].get(colour, 0): 1.0}
        j = self.seats.index(seat)
        u = int(self.slots[j])
        k = self.setup.colours.index(colour)
        by_good: dict[tuple[int, int], float] = {}  # (unseen of this colour, unseen bombs) -> P
        for pc, good, total in zip(self.comp_weights, self.unseen_bombs[:, k], self.unseen_bombs.sum(axis=1),
                                   strict=True):
            if pc > 0:
                key = (int(good), int(total))
                by_good[key] = by_good.get(key, 0.0) + float(pc)
        out: dict[int, float] = {}
        for d, pd in self.defuser_distribution(seat).items():
            bombs_here = u - d
            for (good, total), pc in by_good.items():
                if bombs_here > total:
                    continue
                denom = math.comb(total, bombs_here)
                for x in range(0, min(good, bombs_here) + 1):
                    p = math.comb(good, x) * math.comb(total - good, bombs_here - x) / denom
                    if p > 0:
                        out[x] = out.get(x, 0.0) + pd * pc * p
        return dict(sorted(out.items()))

    def expected(self, seat: int) -> dict[str, float]:
        """Expected number of each type in ``seat``'s hand now."""
        n = self.cards_left(seat)
        return {t: p * n for t, p in self.p_types(seat).items()}

    # -- what-ifs -------------------------------------------------------------------------------------------
    def reveal(self, seat: int, card: str) -> Belief:
        """The belief after a cut from ``seat`` shows ``card`` (raises ``ValueError`` if impossible)."""
        known = {s: dict(h) for s, h in self.known.items()}
        joint, vectors, slots = self.joint, self.vectors, self.slots.copy()
        comp_weights, unseen = self.comp_weights, self.unseen_bombs
        if seat in known:
            if known[seat].get(card, 0) <= 0:
                raise ValueError(f"player {seat} holds no {card}")
            known[seat][card] -= 1
        else:
            j = self.seats.index(seat)
            u = int(slots[j])
            if u == 0:
                raise ValueError(f"player {seat} has no card left")
            if card == DEFUSE:
                joint = joint * (vectors[:, j] / u)[None, :]
                vectors = vectors.copy()
                vectors[:, j] = np.maximum(vectors[:, j] - 1, 0)
            else:
                k = self.setup.colours.index(card)
                joint = joint * ((u - vectors[:, j]) / u)[None, :]
                comp_weights = comp_weights * unseen[:, k]
                unseen = unseen.copy()
                unseen[:, k] = np.maximum(unseen[:, k] - 1, 0)
                total_c = comp_weights.sum()
                if total_c <= 0:
                    raise ValueError(f"no unseen {card} card is left")
                comp_weights = comp_weights / total_c
            slots[j] -= 1
            total = joint.sum()
            if total <= 0:
                raise ValueError(f"player {seat} cannot show {card}")
            joint = joint / total
        return Belief(
            self.setup, self.me, self.my_role, self.seats, slots, vectors, joint, self.assignments,
            comp_weights, unseen, known, self.soft,
        )
