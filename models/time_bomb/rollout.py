"""Determinized rollouts for a Moriarty's decisions (issue 21 §4): sample hidden deals, play the game out.

The greedy Moriarty advisor values a cut by this cut alone (``P(explosion) + bomb * P(bomb)``) and a claim by
how the table reads it. A rollout values a cut, a cover or a claim by the rest of the game instead:
:func:`sample_world` draws one hidden state (roles, every hand) from my exact soft belief
(:class:`~models.time_bomb.belief.Belief`, which factorises into role assignment x defusing counts, the
removed cards' composition, and a uniform deal of the unseen bombs), and :func:`rollout_values` plays the game
from the decision to its end on a copy of the public :class:`Table` with cheap bots (:class:`RolloutModel`, the
assumed play of everyone after my decision). A decision's value is the Moriarty team's win share over the same
sampled worlds and the same random streams for every option (common random numbers, so options are compared
on equal luck), and the seed comes from the public state and my hand, so a seeded game is replayed
identically.

The assumed play (everything public except each cutter's own hand):

- a **Sherlock cutter** cuts, as the Sherlock advisor's greedy rule does with public information only, the
  player with the best ``P(defusing card) + cutter * P(Sherlock)``: both read from the player's claim this
  round by the bluff model from even role odds (:func:`claim_reading`: what the claim ranking assumes too),
  the defusing cards cut from them since taken off, or for a player who has not claimed the share of defusing
  cards among the cards the cutter does not hold (ties at random); the explosion risk is left out (with the
  unknown hands alike it is nearly the same whoever is cut). It covers the colour nearest its threshold and
  after a blue bomb removes the cover farthest from it, never one at its threshold when another is there;
- a **Moriarty cutter** cuts the lowest P(defusing card) (bombs), covers the colour farthest from its
  threshold and removes a cover at its threshold when there is one;
- with probability ``noise`` any cutter cuts a random player instead;
- **roles are not read across rounds**: a claim's suspicion counts in its own round only (the advisor
  Sherlocks keep their role beliefs; this is where the model is cheapest and least like them);
- **claims** at each later round: a Sherlock the truth, a Moriarty none when holding a defusing card and one
  when holding none (the advisor's claims at the default rates).
"""

from __future__ import annotations

import bisect
import functools
import math
import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from models.time_bomb.belief import Belief
from models.time_bomb.data import DEFUSE, MORIARTY, SHERLOCK
from models.time_bomb.observations import Cover, Cut, Draw, Uncover
from models.time_bomb.rules import COVER, CUT, DRAW, EXTRA, REDEAL, UNCOVER, Table

Hands = dict[int, list[str]]
Roles = dict[int, str]
Reads = dict[int, tuple[float, float]]


@dataclass(frozen=True)
class RolloutModel:
    """How many worlds a decision is played out on and how the players are assumed to play (module
    docstring): ``noise`` is the chance of a random cut, ``cutter`` the Sherlocks' weight on handing the cutter
    to a likely Sherlock, and the bluff rates those the claims are read with."""

    samples: int = 32
    noise: float = 0.05
    cutter: float = 0.6
    sherlock_rate: float = 0.1
    moriarty_rate: float = 0.5


def sample_world(belief: Belief, rng: random.Random) -> tuple[Roles, Hands]:
    """One hidden state drawn from ``belief``: every seat's role (mine included) and every hand now (the cards
    not yet cut this round), with the chance the belief gives it."""
    flat = belief.joint.ravel()
    a, v = divmod(_draw(np.cumsum(flat), rng), belief.joint.shape[1])
    roles: Roles = dict(belief.assignments[a])
    roles[belief.me] = belief.my_role
    comp = _draw(np.cumsum(belief.comp_weights), rng)
    bombs = [c for c, n in zip(belief.setup.colours, belief.unseen_bombs[comp], strict=True) for _ in range(int(n))]
    rng.shuffle(bombs)
    hands: Hands = {s: [t for t, n in held.items() for _ in range(n)] for s, held in belief.known.items()}
    used = 0
    for j, seat in enumerate(belief.seats):
        d = int(belief.vectors[v, j])
        size = int(belief.slots[j])
        hands[seat] = [DEFUSE] * d + bombs[used:used + size - d]
        used += size - d
    return roles, hands


def _draw(cumulative: np.ndarray, rng: random.Random) -> int:
    """An index drawn with the weights whose running sums are ``cumulative``."""
    x = rng.random() * float(cumulative[-1])
    return min(bisect.bisect_right(cumulative.tolist(), x), len(cumulative) - 1)


@functools.lru_cache(maxsize=4096)
def claim_reading(total: int, good: int, size: int, claimed: int, sherlock: float, moriarty: float
                  ) -> tuple[float, float]:
    """How a table reads a claim of ``claimed`` defusing cards in a hand of ``size`` it does not see, drawn from
    ``total`` cards holding ``good`` defusing cards (hypergeometric), under the bluff model at rates
    ``sherlock`` / ``moriarty`` from even role odds: (the expected defusing cards in the hand, P(the claimer is
    Moriarty)). The lure of :func:`models.time_bomb.advisor.claim_options` is the first over ``size``."""
    if size == 0:
        return 0.0, 0.5
    prior = [math.comb(good, d) * math.comb(total - good, size - d) if d <= good and size - d <= total - good
             else 0 for d in range(size + 1)]
    if sum(prior) == 0:
        prior = [1] * (size + 1)
    p_s = p_m = mass = mean = 0.0
    for d, w in enumerate(prior):
        like_s = 1.0 - sherlock if d == claimed else sherlock / size
        like_m = 1.0 - moriarty if d == claimed else moriarty / size
        p_s += w * like_s
        p_m += w * like_m
        both = w * (0.5 * like_s + 0.5 * like_m)
        mass += both
        mean += both * d
    suspicion = p_m / (p_s + p_m) if p_s + p_m > 0 else 0.5
    return (mean / mass if mass > 0 else 0.0), suspicion


class _Playout:
    """One game played to its end from a public table and a sampled world (module docstring)."""

    def __init__(self, table: Table, roles: Roles, hands: Hands, reads: Reads, model: RolloutModel,
                 rng: random.Random) -> None:
        self.t, self.roles, self.model, self.rng = table, roles, model, rng
        self.hands = {s: list(h) for s, h in hands.items()}
        self.reads = dict(reads)  # seat -> (expected defusing cards it holds by its claim, P(Moriarty) by it)

    def claim(self, seat: int, claimed: int) -> None:
        """``seat`` claims ``claimed`` now (the table reads it from the cards left: :func:`claim_reading`)."""
        t = self.t
        self.reads[seat] = claim_reading(t.remaining_cards(), t.defusers_left(), len(self.hands[seat]), claimed,
                                         self.model.sherlock_rate, self.model.moriarty_rate)

    def assumed_claim(self, seat: int) -> int:
        """What ``seat`` is assumed to claim (module docstring)."""
        held = self.hands[seat].count(DEFUSE)
        if self.roles[seat] == SHERLOCK:
            return held
        return 0 if held else min(1, len(self.hands[seat]))

    def share(self, seat: int, viewer: int) -> float:
        """What ``viewer`` (the cutter) expects of ``seat``'s next card: P(defusing card) from its claim read by
        the bluff model, else the share of defusing cards among the cards ``viewer`` does not see."""
        t = self.t
        size = t.sizes[seat]
        if seat in self.reads and size:
            return max(0.0, min(1.0, self.reads[seat][0] / size))
        mine = self.hands[viewer]
        unseen = t.remaining_cards() - len(mine)
        return (t.defusers_left() - mine.count(DEFUSE)) / unseen if unseen > 0 else 0.0

    def target(self) -> int:
        t = self.t
        targets = t.targets()
        if len(targets) == 1 or self.rng.random() < self.model.noise:
            return targets[0] if len(targets) == 1 else self.rng.choice(targets)
        if self.roles[t.cutter] == SHERLOCK:
            cutter = self.model.cutter
            values = [self.share(s, t.cutter) + cutter * (1.0 - self.reads.get(s, (0.0, 0.5))[1]) for s in targets]
        else:
            values = [-self.share(s, t.cutter) for s in targets]
        top = max(values)
        return self.rng.choice([s for s, x in zip(targets, values, strict=True) if x == top])

    def cut(self, seat: int) -> None:
        hand = self.hands[seat]
        card = hand.pop(self.rng.randrange(len(hand)))
        self.t.cut(Cut(seat, card))
        if card == DEFUSE and seat in self.reads:
            expected, suspicion = self.reads[seat]
            self.reads[seat] = (max(0.0, expected - 1.0), suspicion)

    def cover(self) -> None:
        t = self.t
        near = sorted(t.coverable(), key=lambda c: t.counts[c] / t.setup.thresholds[c],
                      reverse=self.roles[t.cutter] == SHERLOCK)
        t.cover(Cover(near[0]))

    def uncover(self) -> None:
        t = self.t
        covered = list(t.covered)
        exposed = [c for c in covered if t.counts[c] >= t.setup.thresholds[c]]
        if self.roles[t.cutter] == MORIARTY:
            pick = exposed[0] if exposed else max(covered, key=lambda c: t.counts[c] / t.setup.thresholds[c])
        else:
            safe = [c for c in covered if c not in exposed] or covered
            pick = min(safe, key=lambda c: t.counts[c] / t.setup.thresholds[c])
        t.uncover(Uncover(pick))

    def redeal(self) -> None:
        t = self.t
        sizes = t.next_sizes()
        cards = [c for s in t.seats for c in self.hands[s]]
        self.rng.shuffle(cards)
        t.redeal()
        i = 0
        for s in t.seats:
            self.hands[s] = cards[i:i + sizes[s]]
            i += sizes[s]
        self.reads = {}
        for s in t.seats:
            self.claim(s, self.assumed_claim(s))

    def run(self) -> bool:
        """Play to the end; whether the Moriarty team won."""
        t = self.t
        while not t.over:
            phase = t.phase
            if phase == CUT:
                self.cut(self.target())
            elif phase == EXTRA:
                assert t.extra_target is not None
                self.cut(t.extra_target)
            elif phase == COVER:
                self.cover()
            elif phase == UNCOVER:
                self.uncover()
            elif phase == DRAW:
                t.draw(Draw(self.rng.randrange(t.players)))
            elif phase == REDEAL:
                self.redeal()
        return t.winner == MORIARTY


def decision_seed(table: Table, me: int, hand: Sequence[str], salt: str = "") -> int:
    """A seed from the public state and my hand, so the same decision in the same game gets the same rollouts."""
    cuts = ";".join(f"{c.seat}{c.card}" for c in table.cuts)
    key = f"{salt}|{me}|{table.round}|{table.phase}|{table.cutter}|{cuts}|{sorted(hand)}|{sorted(table.covered)}"
    return zlib.crc32(key.encode())


def rollout_values(
    table: Table,
    belief: Belief,
    reads: Reads,
    options: Sequence[object],
    act: Callable[[_Playout, object], None],
    model: RolloutModel,
    seed: int,
) -> dict[object, float]:
    """The Moriarty team's win share after each of ``options`` (``act`` applies one to a playout), over
    ``model.samples`` worlds from ``belief``, each world and its random stream shared by every option."""
    wins = dict.fromkeys(options, 0)
    master = random.Random(seed)
    for _ in range(model.samples):
        roles, hands = sample_world(belief, master)
        stream = master.getrandbits(64)
        for option in options:
            game = _Playout(table.copy(), roles, hands, reads, model, random.Random(stream))
            act(game, option)
            wins[option] += game.run()
    return {o: wins[o] / model.samples for o in options}


def cut_values(table: Table, belief: Belief, reads: Reads, model: RolloutModel,
               seed: int) -> dict[int, float]:
    """:func:`rollout_values` of every cut the cutter may make now (the target's card taken at random)."""
    values = rollout_values(table, belief, reads, table.targets(), lambda g, s: g.cut(s), model,  # type: ignore[arg-type]
                            seed)
    return {int(s): v for s, v in values.items()}  # type: ignore[call-overload]


def cover_values(table: Table, belief: Belief, reads: Reads, model: RolloutModel,
                 seed: int) -> dict[str, float]:
    """:func:`rollout_values` of every colour the pending defusing / yellow card may cover."""
    values = rollout_values(table, belief, reads, table.coverable(),
                            lambda g, c: g.t.cover(Cover(c)), model, seed)  # type: ignore[arg-type]
    return {str(c): v for c, v in values.items()}


def claim_values(table: Table, belief: Belief, reads: Reads, me: int, pending: Sequence[int], model: RolloutModel,
                 seed: int) -> dict[int, float]:
    """:func:`rollout_values` of every claim I may make now (0 to my hand size): I claim it, the players in
    ``pending`` (who claim after me this round) claim as assumed, and the game is played out."""
    def act(game: _Playout, claimed: object) -> None:
        game.claim(me, int(claimed))  # type: ignore[call-overload]
        for seat in pending:
            game.claim(seat, game.assumed_claim(seat))

    values = rollout_values(table, belief, reads, list(range(table.sizes[me] + 1)), act, model, seed)
    return {int(k): v for k, v in values.items()}  # type: ignore[call-overload]
