"""The soft layer: claims as evidence about roles, through an explicit bluff model, kept apart from hard facts.

A claim "player j holds k defusing cards" is never a constraint. The model: a Sherlock player tells the truth
with probability ``1 - sherlock`` and a Moriarty player with ``1 - moriarty``; a bluff names one of the other
possible counts (0 to hand size) uniformly. Both rates are parameters.

What makes the posterior exact and cheap: a claim only concerns how many *defusing* cards a hand holds, and
how the unseen defusing cards of a round are spread over the other players' unrevealed slots does not depend
on which bomb cards were removed (the number of defusing cards in play is known). So, per round, the
defusing counts ``d`` (one per player with an unknown hand) have a multivariate hypergeometric prior given the
hard facts, each claim's truth is a function of ``d`` and of the cards later cut from the claimer, and

    P(roles | everything)  ∝  P(roles) * prod over rounds of  sum_d P(d | hard) * prod_claims P(claim | d, role).

Roles follow the deal of role cards (with 4 players one card stays unseen), given my own role.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from models.time_bomb.data import MORIARTY, SHERLOCK, Setup
from solver.errors import AssistantError


@dataclass(frozen=True)
class BluffModel:
    """How often each side lies about its defusing cards (0 = never, 1 = always)."""

    sherlock: float = 0.1
    moriarty: float = 0.5

    def __post_init__(self) -> None:
        for name, rate in (("sherlock", self.sherlock), ("moriarty", self.moriarty)):
            if not 0.0 <= rate <= 1.0:
                raise AssistantError(f"{name} bluff rate {rate}: expected a probability from 0 to 1")

    def rate(self, role: str) -> float:
        return self.moriarty if role == MORIARTY else self.sherlock

    def likelihood(self, claimed: int, truth: np.ndarray, size: int, role: str) -> np.ndarray:
        """P(claiming ``claimed`` | the true counts ``truth``, ``size`` cards in hand, ``role``)."""
        if size == 0:
            return np.ones(truth.shape, dtype=float)
        rate = self.rate(role)
        return np.where(truth == claimed, 1.0 - rate, rate / size)


@dataclass(frozen=True)
class ClaimContext:
    """A claim with what the hard facts need to judge it: the round, how many of the claimer's slots had
    been cut before it (``before``) and the hand size then."""

    number: int  # position among all claims, 1-based (for 'why claim N')
    round: int
    seat: int
    claimed: int
    before: int
    size: int


@dataclass(frozen=True)
class RoundDefusers:
    """One round's hard facts about defusing cards: the unknown seats, their unrevealed slots, how many
    unseen defusing cards those slots hold in all, and for each seat the cut cards in slot order."""

    round: int
    seats: tuple[int, ...]
    slots: tuple[int, ...]
    defusers: int
    shown: dict[int, tuple[str, ...]]  # seat -> the types revealed in slots 1..a, in order (known seats too)


def defuser_vectors(slots: Sequence[int], total: int) -> np.ndarray:
    """Every way to spread ``total`` defusing cards over seats with ``slots`` unrevealed cards (V x J)."""
    return _defuser_vectors(tuple(slots), total)


@functools.lru_cache(maxsize=256)
def _defuser_vectors(slots: tuple[int, ...], total: int) -> np.ndarray:
    rows = [v for v in itertools.product(*(range(min(s, total) + 1) for s in slots)) if sum(v) == total]
    return np.array(rows, dtype=np.int64).reshape(len(rows), len(slots))


def hypergeometric_prior(vectors: np.ndarray, slots: Sequence[int]) -> np.ndarray:
    """P(d) when the unseen defusing cards are a uniform subset of the unrevealed slots."""
    return _hypergeometric_prior(tuple(slots), int(vectors.sum(axis=1)[0]) if len(vectors) else 0)


@functools.lru_cache(maxsize=256)
def _hypergeometric_prior(slots: tuple[int, ...], total: int) -> np.ndarray:
    vectors = _defuser_vectors(slots, total)
    w = np.array([math.prod(math.comb(s, int(d)) for s, d in zip(slots, row, strict=True)) for row in vectors])
    total = w.sum()
    return w / total if total else w.astype(float)


def role_assignments(setup: Setup, me: int, my_role: str) -> tuple[list[dict[int, str]], np.ndarray]:
    """Every role assignment of the other seats with its prior probability (the role cards are dealt at
    random; with more cards than players the rest stay unseen)."""
    others = [s for s in range(1, setup.players + 1) if s != me]
    sherlock = setup.sherlock_cards - (my_role == SHERLOCK)
    moriarty = setup.moriarty_cards - (my_role == MORIARTY)
    positions = len(others) + (setup.role_cards - setup.players)
    assert positions == sherlock + moriarty
    weights: dict[tuple[str, ...], int] = {}
    for chosen in itertools.combinations(range(positions), moriarty):
        # the other positions get the Sherlock cards: positions == sherlock + moriarty by construction
        roles = tuple(MORIARTY if i in chosen else SHERLOCK for i in range(len(others)))
        weights[roles] = weights.get(roles, 0) + 1
    keys = sorted(weights)
    assignments = [dict(zip(others, k, strict=True)) for k in keys]
    prior = np.array([weights[k] for k in keys], dtype=float)
    return assignments, prior / prior.sum()


def claim_truth(claim: ClaimContext, vectors: np.ndarray, rd: RoundDefusers) -> np.ndarray:
    """The true defusing count at the time of ``claim`` for every d-vector: the claimer's unrevealed
    defusing cards now plus those cut from them after the claim."""
    shown = rd.shown.get(claim.seat, ())
    later = sum(1 for t in shown[claim.before :] if t == "defuse")
    j = rd.seats.index(claim.seat)
    return vectors[:, j] + later


@dataclass
class RoundLayer:
    """One round of the soft layer: the d-vectors, their hard prior and the claim likelihood per assignment."""

    hard: RoundDefusers
    vectors: np.ndarray  # V x J
    prior: np.ndarray  # V
    likelihood: np.ndarray  # A x V: prod over this round's claims of P(claim | d, role)

    @property
    def evidence(self) -> np.ndarray:
        """Z(a) = sum_d P(d) prod_claims P(claim | d, a), for each assignment."""
        return self.likelihood @ self.prior


def build_rounds(
    rounds: Sequence[RoundDefusers],
    claims: Sequence[ClaimContext],
    assignments: Sequence[dict[int, str]],
    model: BluffModel,
    me: int,
    cache: dict[object, RoundLayer] | None = None,
) -> list[RoundLayer]:
    """One layer per round. ``cache`` keeps layers of rounds whose facts can no longer change (closed
    rounds), keyed by their hard facts, claims and bluff model."""
    out = []
    for rd in rounds:
        key = (rd.round, rd.seats, rd.slots, rd.defusers, tuple(sorted(rd.shown.items())),
               tuple(c for c in claims if c.round == rd.round), model)
        if cache is not None and key in cache:
            out.append(cache[key])
            continue
        vectors = defuser_vectors(rd.slots, rd.defusers)
        prior = hypergeometric_prior(vectors, rd.slots)
        like = np.ones((len(assignments), len(vectors)))
        for claim in claims:
            if claim.round != rd.round or claim.seat == me or claim.seat not in rd.seats:
                continue
            truth = claim_truth(claim, vectors, rd)
            by_role = {role: model.likelihood(claim.claimed, truth, claim.size, role) for role in (SHERLOCK, MORIARTY)}
            for a, assignment in enumerate(assignments):
                like[a] *= by_role[assignment[claim.seat]]
        layer = RoundLayer(rd, vectors, prior, like)
        if cache is not None and rd.round < len(rounds):
            cache[key] = layer
        out.append(layer)
    return out


class NoRoleAssignmentError(AssistantError):
    """The claims have probability 0 under every role assignment: only possible with an extreme rate (0 or 1)."""

    def __init__(self, model: BluffModel) -> None:
        super().__init__(
            f"no role assignment explains these claims at bluff rates Sherlock {model.sherlock:g}, Moriarty "
            f"{model.moriarty:g} (0 forbids lying, 1 the truth)"
        )


def role_posterior(prior: np.ndarray, layers: Sequence[RoundLayer], model: BluffModel) -> np.ndarray:
    """P(assignment | claims and hard facts); raises :class:`NoRoleAssignmentError` if the bluff model gives
    every assignment zero (the caller decides how to go on: the knowledge model falls back to hard facts)."""
    post = prior.copy()
    for layer in layers:
        post = post * layer.evidence
    total = post.sum()
    if total <= 0:
        raise NoRoleAssignmentError(model)
    return post / total
