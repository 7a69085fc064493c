"""Advice for Time Bomb Evolution: the risk of every cut, the best cut for either side, covers and claims.

Every number comes from the exact joint distribution of :mod:`models.time_bomb.belief`, twice: from hard facts
alone and with the claims through the bluff model, so the user sees what rests on claims.

- **Risk of a cut** at player j: P(defusing card), P(it makes a bomb explode) and P(it wins the game for
  Sherlock), and what it does to the role beliefs (P(Moriarty) per player if the card is a defusing card or
  a bomb). The explosion probability follows the rules exactly, red chains included: a red bomb's extra cut
  is evaluated on the belief updated by the red card (:meth:`Belief.reveal`), for every numbered card. Choices
  inside the cut (which colour a yellow card covers, which cover a blue bomb removes) follow a *cutter
  policy*: ``avoid`` (Sherlock's play: no explosion when the rules let them) or ``seek`` (Moriarty's play: an
  explosion when they can). :func:`cut_risks` is the one computation the risk table, ``advise`` and
  ``analyze --json`` share: for my own cut it uses my role's policy, for another player's cut both
  (:func:`risk_policies`), since their role is unknown.
- **Sherlock's cut** maximises ``P(defusing card) - explosion * P(explosion) - future * Δhazard``
  (:class:`Weights`, :data:`SHERLOCK_WEIGHTS`): :func:`hazard` is how near the board is to an explosion on a
  later cut, and Δhazard its expected change by this cut (:func:`future_hazard`).
- **Moriarty's cut** maximises ``P(explosion) + bomb * P(bomb)`` (:data:`MORIARTY_WEIGHTS`; a suspicion term,
  how far the cut falls short of the best public claim, is there for Sherlocks who read cuts, weight 0 by
  default). Options, off by default (measured no gain: docs/time-bomb.md): rollouts of the rest of the game
  on sampled deals for cuts, covers and claims (:mod:`models.time_bomb.rollout`) and claims against the claims
  made before mine (:func:`relative_claim`).
- **Covers**: Sherlock covers the colour likeliest to explode if left uncovered (:func:`explode_chance`: its
  cards not yet cut among the cuts left, hypergeometric; pink also two in a row), Moriarty the least likely;
  after a blue bomb Sherlock removes the least dangerous cover, Moriarty one at its threshold (it explodes at
  once) or else the most dangerous.
- **Claims** (:func:`claim_options`): Sherlock tells the truth (other Sherlocks trust it); a Moriarty's claims
  are read as the Sherlocks would read them (the bluff model, a hand they do not see) and ranked by the lure
  they make and the suspicion they raise: at the default rates none when holding defusing cards, one when
  holding none. A claim table (``Weights.claim_table``: round, defusing cards held, claim) overrides that
  ranking where simulated games measured a better claim: by default two holding one defusing card in rounds
  1 and 2, one holding two in round 1 (docs/time-bomb.md, "The claim table").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from models.time_bomb.belief import Belief
from models.time_bomb.data import DEFUSE, MORIARTY, SHERLOCK
from models.time_bomb.knowledge import TimeBombKnowledge
from models.time_bomb.rollout import RolloutModel, claim_reading, claim_values, cover_values, cut_values, decision_seed
from models.time_bomb.rules import BLUE, PINK, RED, YELLOW, Table, left_of
from solver.text import percent

EXPLOSION_WEIGHT = 2.0
CUTTER_WEIGHT = 0.3  # the cut player takes the cutter next: better a Sherlock (0.6 until 2026-12-04: docs/time-bomb.md)
BOMB_WEIGHT = 0.3
SUSPICION_WEIGHT = 0.5
PINK_DANGER = 0.25  # extra danger of an uncovered pink colour: two pink cuts in a row explode


@dataclass(frozen=True)
class Weights:
    """How the advisor values a cut, a cover and a claim (module docstring). ``future`` weighs how much closer a
    cut brings the board to an explosion on a later cut (:func:`hazard`): a Sherlock shuns it, a Moriarty
    seeks it; ``hazard`` is the danger of an uncovered colour 1, 2, ... cuts from its threshold, and
    ``pink_next`` the danger of an uncovered pink just cut (the next cut explodes on a pink). ``cover`` ranks
    colours for covers and uncovers (:func:`danger`): ``ratio`` (cut / threshold, a pink bonus), ``need`` or
    ``green`` (fewest cuts from exploding, with or without pink's in-a-row danger) or ``chance``
    (:func:`explode_chance`). ``cutter`` values the cut player taking the cutter next (a Sherlock for a
    Sherlock, a Moriarty for a Moriarty). ``bait`` is what a Moriarty holding no defusing card claims (``claims``
    ``fixed``), unless ``claims`` is ``ranked``: the best of :func:`claim_options` by ``lure`` and ``suspect``,
    or ``relative``: against the claims made before mine this round (:func:`relative_claim`).
    ``look`` weighs a Moriarty's look-ahead of the next cut (:func:`next_cut_explosion`): the cut player takes
    the cutter and cuts as the Sherlocks or the Moriarty team are assumed to. ``rollouts`` (0: off) is how many
    sampled worlds a Moriarty plays a decision out on (:mod:`models.time_bomb.rollout`): its cuts
    (``cut_rollouts``), covers (``cover_rollouts``) and claims (``claim_rollouts``), every rollout cutter cutting
    at random with probability ``noise``. ``claim_table`` holds (round, defusing cards held, claim) rows: a
    Moriarty makes that claim there, before any other claim rule, and :func:`claim_options` ranks it first."""

    explosion: float = EXPLOSION_WEIGHT
    cutter: float = CUTTER_WEIGHT
    bomb: float = BOMB_WEIGHT
    suspicion: float = SUSPICION_WEIGHT
    future: float = 0.0
    hazard: tuple[float, ...] = (1.0, 0.3, 0.1)
    pink_next: float = 0.0
    cover: str = "ratio"
    bait: int = 1
    claims: str = "fixed"
    lure: float = 1.0
    suspect: float = 0.5
    look: float = 0.0
    rollouts: int = 0
    noise: float = 0.05
    cut_rollouts: bool = True
    cover_rollouts: bool = False
    claim_rollouts: bool = False
    claim_table: tuple[tuple[int, int, int], ...] = ()


#: Each side's weights (tuned on simulated 4-player games against the bots, seed 11, the cutter weight on seeds 1
#: to 20; measured on other seeds: see docs/time-bomb.md): a Sherlock ranks cuts by the defusing chance, the
#: explosion risk, the hazard look-ahead and who takes the cutter next (a likely Sherlock), and covers the colour
#: likeliest to explode.
SHERLOCK_WEIGHTS = Weights(future=0.3, pink_next=0.5, cover="chance")
#: A Moriarty ranks claims as the Sherlocks would read them (:func:`claim_options`: the suspicion a claim raises
#: weighs three times its lure, so it claims none when holding defusing cards and one when holding none) and
#: cuts for explosions and bombs, ignoring suspicion (the Sherlocks it assumes read roles from claims only) and
#: who takes the cutter next (handing it to a likely Moriarty measured worse).
#: Its claim table (chosen on 4-player games, seeds 1 to 20, and measured again on seeds 21 to 60:
#: docs/time-bomb.md): holding exactly one defusing card in round 1 or 2, claim two, which makes me the
#: Sherlocks' best target while most of my cards are bombs (4 in 5, 3 in 4); from round 3 my one card is too
#: likely to be the one cut, so the ranked claim (none). Holding two in round 1, claim one.
MORIARTY_WEIGHTS = Weights(cutter=0.0, suspicion=0.0, claims="ranked", lure=1.0, suspect=3.0,
                           claim_table=((1, 1, 2), (2, 1, 2), (1, 2, 1)))
WEIGHTS: Mapping[str, Weights] = {SHERLOCK: SHERLOCK_WEIGHTS, MORIARTY: MORIARTY_WEIGHTS}


def weights_of(side: str, weights: Weights | None = None) -> Weights:
    """``weights`` if given, else ``side``'s (:data:`WEIGHTS`)."""
    return weights if weights is not None else WEIGHTS[side]

AVOID = "avoid"  # the cutter's choices inside a cut avoid an explosion when the rules let them (Sherlock)
SEEK = "seek"  # ... cause one when they can (Moriarty)
POLICIES: tuple[str, str] = (AVOID, SEEK)
POLICY_OF_ROLE: Mapping[str, str] = {SHERLOCK: AVOID, MORIARTY: SEEK}
POLICY_LABEL: Mapping[str, str] = {AVOID: "avoiding (Sherlock's play)", SEEK: "seeking (Moriarty's play)"}


def policy_of(role: str) -> str:
    """How a cutter of ``role`` makes the choices inside a cut: Sherlock avoids an explosion, Moriarty seeks one."""
    return POLICY_OF_ROLE[role]


def _check_policy(policy: str) -> None:
    if policy not in POLICIES:
        raise ValueError(f"cutter policy '{policy}': expected one of {', '.join(POLICIES)}")


@dataclass(frozen=True)
class Board:
    """The public state an explosion depends on (a light copy of :class:`Table` for what-ifs)."""

    players: int
    colours: tuple[str, ...]
    thresholds: Mapping[str, int]
    counts: Mapping[str, int]
    covered: frozenset[str]
    last: str | None
    sizes: tuple[int, ...]
    defusers_left: int

    @classmethod
    def of(cls, table: Table) -> Board:
        return cls(
            table.players,
            table.setup.colours,
            table.setup.thresholds,
            dict(table.counts),
            frozenset(table.covered),
            table.last_card(),
            tuple(table.sizes[s] for s in table.seats),
            table.defusers_left(),
        )

    def after(self, seat: int, card: str) -> Board:
        counts = dict(self.counts)
        if card != DEFUSE:
            counts[card] += 1
        sizes = list(self.sizes)
        sizes[seat - 1] -= 1
        left = self.defusers_left - (card == DEFUSE)
        return Board(self.players, self.colours, self.thresholds, counts, self.covered, card, tuple(sizes), left)


def explosion(
    belief: Belief, board: Board, cutter: int, target: int, policy: str = AVOID, tolerance: float = 0.0
) -> float:
    """P(cutting a card of ``target`` now makes a bomb explode), red chains included (module docstring), when
    the cutter makes the choices inside the cut by ``policy`` (:data:`AVOID` or :data:`SEEK`).

    Exact with ``tolerance=0``. Otherwise a red chain whose probability falls below ``tolerance`` counts its
    extra cuts as not exploding, so the result is low by at most the sum of those chains' probabilities
    (bots use this to stay fast; the companion shows exact values).
    """
    _check_policy(policy)
    return _explosion(belief, board, cutter, target, policy == AVOID, tolerance, 1.0)


def _explosion(
    belief: Belief, board: Board, cutter: int, target: int, avoid: bool, tolerance: float, mass: float
) -> float:
    total = 0.0
    for card, p in belief.p_types(target).items():
        if p > 0:
            total += p * _explodes(belief, board, cutter, target, card, avoid, tolerance, mass * p)
    return total


def _explodes(
    belief: Belief, board: Board, cutter: int, target: int, card: str, avoid: bool, tolerance: float, mass: float
) -> float:
    if card == DEFUSE:
        return 0.0  # the last one wins; otherwise it only covers
    counts, covered, thr = board.counts, board.covered, board.thresholds
    cut = counts[card] + 1
    if card == PINK and board.last == PINK and PINK not in covered:
        return 1.0
    if cut >= thr[card] and card not in covered:
        if card != YELLOW:
            return 1.0
        # a yellow card must cover an uncovered cut colour: itself saves it, unless the cutter picks another
        others = [c for c in board.colours if counts[c] > 0 and c not in covered and c != YELLOW]
        return 0.0 if avoid or not others else 1.0
    if card == BLUE and covered:
        exposed = [c for c in covered if (counts[c] + (c == BLUE)) >= thr[c]]
        if avoid:
            return 1.0 if len(exposed) == len(covered) else 0.0
        return 1.0 if exposed else 0.0
    if card == RED and mass >= tolerance:
        after = board.after(target, card)
        revealed = belief.reveal(target, RED)
        total = 0.0
        share = mass / board.players
        for number in range(board.players):
            seat = left_of(cutter, number, board.players)
            if after.sizes[seat - 1] > 0 and revealed.cards_left(seat) > 0:
                total += _explosion(revealed, after, cutter, seat, avoid, tolerance, share)
        return total / board.players
    return 0.0


def _leaf(board: Board, card: str, avoid: bool) -> float | None:
    """:func:`_explodes` for a bomb of ``card`` where it does not depend on the seat: 1.0 or 0.0, or ``None``
    for a red card that starts a chain."""
    counts, covered, thr = board.counts, board.covered, board.thresholds
    if card == PINK and board.last == PINK and PINK not in covered:
        return 1.0
    if counts[card] + 1 >= thr[card] and card not in covered:
        if card != YELLOW:
            return 1.0
        others = [c for c in board.colours if counts[c] > 0 and c not in covered and c != YELLOW]
        return 0.0 if avoid or not others else 1.0
    if card == BLUE and covered:
        exposed = [c for c in covered if (counts[c] + (c == BLUE)) >= thr[c]]
        if avoid:
            return 1.0 if len(exposed) == len(covered) else 0.0
        return 1.0 if exposed else 0.0
    return None if card == RED else 0.0


class _Nodes:
    """A batch of red-chain what-ifs (one row each), in arrays, for :func:`explosions`.

    Explosion risks depend on the roles only through the marginal over defusing-count vectors, so a red what-if
    here updates that marginal (V) instead of the whole joint (assignments x V); and every what-if of one depth
    of the chain is one row of the same arrays, so a depth costs a few array operations whatever its number of
    branches. Rows: ``marginal`` (N x V) over the d-vectors, ``slots`` (N x J) unrevealed cards of the unknown
    hands, ``reds`` (N) how many red cards the path showed from unknown hands (the law of the removed cards
    depends on nothing else: :meth:`_Shape.bombs`), ``known`` (N x P x 1+K) the known hands' counts (defusing,
    then each colour), ``sizes`` (N x P) the hand sizes on the board, ``mass`` (N) the chance of the path.
    """

    __slots__ = ("marginal", "slots", "reds", "known", "sizes", "mass")

    def __init__(self, marginal: np.ndarray, slots: np.ndarray, reds: np.ndarray, known: np.ndarray,
                 sizes: np.ndarray, mass: np.ndarray) -> None:
        self.marginal, self.slots, self.reds = marginal, slots, reds
        self.known, self.sizes, self.mass = known, sizes, mass


class _Shape:
    """What every row of a :class:`_Nodes` batch shares: the d-vectors, which seat is which column, and the
    colour shares of the unseen bombs after r red cards (:meth:`bombs`)."""

    def __init__(self, belief: Belief) -> None:
        colours = belief.setup.colours
        self.players = belief.setup.players
        self.red = colours.index(RED) if RED in colours else -1
        self.vectors = belief.vectors.astype(float)
        self.unknown = np.array([s - 1 for s in belief.seats], dtype=np.int64)  # rows of the unknown seats
        self.col = np.full(self.players, -1, dtype=np.int64)  # seat index -> column of its unknown hand
        self.col[self.unknown] = np.arange(len(self.unknown))
        self.is_known = np.zeros(self.players, dtype=bool)
        self.known_counts = np.zeros((self.players, 1 + len(colours)))
        for s, hand in belief.known.items():
            self.is_known[s - 1] = True
            self.known_counts[s - 1] = [hand.get(DEFUSE, 0), *(hand.get(c, 0) for c in colours)]
        self._comp = [belief.comp_weights]  # after r red cards from unknown hands: P(composition)
        self._unseen = [belief.unseen_bombs]  # ... and the unseen bombs per composition and colour
        self._shares: list[np.ndarray] = []

    def bombs(self, reds: int) -> np.ndarray:
        """P(an unseen bomb is each colour) after ``reds`` red cards from unknown hands (as
        :meth:`Belief.colour_shares` of the belief :meth:`Belief.reveal` gives, step by step)."""
        while len(self._comp) <= reds:
            comp, unseen, k = self._comp[-1], self._unseen[-1], self.red
            comp = comp * unseen[:, k]
            self._comp.append(comp / comp.sum())
            unseen = unseen.copy()
            unseen[:, k] = np.maximum(unseen[:, k] - 1, 0)
            self._unseen.append(unseen)
        while len(self._shares) <= reds:
            unseen = self._unseen[len(self._shares)]
            total = unseen.sum(axis=1)
            self._shares.append(self._comp[len(self._shares)] @ (unseen / np.maximum(total, 1)[:, None]))
        return self._shares[reds]

    def root(self, belief: Belief, board: Board) -> _Nodes:
        return _Nodes(
            belief.marginal()[None, :].astype(float),
            belief.slots[None, :].astype(float),
            np.zeros(1, dtype=np.int64),
            self.known_counts[None, :, :],
            np.array([board.sizes], dtype=float),
            np.ones(1),
        )

    def p_types(self, nodes: _Nodes) -> np.ndarray:
        """P(a random card of each seat's hand is each type), N x P x (1+K), as :meth:`Belief.p_types` (zeros for
        a seat with no card)."""
        n, k = len(nodes.mass), self.known_counts.shape[1] - 1
        out = np.zeros((n, self.players, 1 + k))
        if len(self.unknown):
            u = nodes.slots
            p_def = np.clip((nodes.marginal @ self.vectors) / np.maximum(u, 1.0), 0.0, 1.0)
            shares = np.array([self.bombs(int(r)) for r in nodes.reds])
            block = out[:, self.unknown]
            block[:, :, 0] = p_def
            block[:, :, 1:] = (1.0 - p_def)[:, :, None] * shares[:, None, :]
            block[u == 0] = 0.0
            out[:, self.unknown] = block
        if self.is_known.any():
            hands = nodes.known[:, self.is_known]
            n_cards = hands.sum(axis=2, keepdims=True)
            out[:, self.is_known] = hands / np.maximum(n_cards, 1.0)
        return out

    def cards_left(self, nodes: _Nodes) -> np.ndarray:
        left = np.zeros((len(nodes.mass), self.players))
        left[:, self.unknown] = nodes.slots
        left[:, self.is_known] = nodes.known[:, self.is_known].sum(axis=2)
        return left

    def reveal_red(self, nodes: _Nodes, rows: np.ndarray, seats: np.ndarray, p: np.ndarray) -> _Nodes:
        """For each pair (row, seat index): the what-if after a cut from that seat shows a red card (whose
        chance there is ``p``)."""
        m = len(rows)
        cols = self.col[seats]
        hidden = cols >= 0
        h = np.nonzero(hidden)[0]
        marginal = nodes.marginal[rows]
        slots = nodes.slots[rows]
        reds = nodes.reds[rows] + hidden
        possible = np.ones(m, dtype=bool)
        if len(h):
            u = slots[h, cols[h]]
            marginal = marginal.copy()
            changed = marginal[h] * ((u[:, None] - self.vectors[:, cols[h]].T) / u[:, None])
            total = changed.sum(axis=1, keepdims=True)
            # a bomb where every possible hand is all defusing cards: only rounding gave it a chance (p ~ 1e-16);
            # such a what-if cannot happen, so it is dropped rather than divided by zero (NaN)
            possible[h] = total[:, 0] > 0
            marginal[h] = np.divide(changed, total, out=np.zeros_like(changed), where=total > 0)
            slots = slots.copy()
            slots[h, cols[h]] -= 1
        known = nodes.known[rows].copy()
        seen = np.nonzero(~hidden)[0]
        known[seen, seats[seen], 1 + self.red] -= 1
        sizes = nodes.sizes[rows].copy()
        sizes[np.arange(m), seats] -= 1
        mass = np.where(possible, nodes.mass[rows] * p / self.players, 0.0)
        return _Nodes(marginal, slots, reds, known, sizes, mass)


def explosions(
    belief: Belief, board: Board, targets: Sequence[int], policy: str = AVOID, tolerance: float = 0.0
) -> dict[int, float]:
    """:func:`explosion` for each of ``targets`` at once: the same numbers (rounding aside: the normalisations
    are taken in another order; the tests compare), computed depth by depth of the red chains for every branch
    together (:class:`_Nodes`). The cutter does not matter: a red card's extra cut goes to every seat alike."""
    _check_policy(policy)
    shape = _Shape(belief)
    wanted = np.zeros((1, shape.players), dtype=bool)
    wanted[0, [t - 1 for t in targets]] = True
    values = _depth(shape, shape.root(belief, board), wanted, board, policy == AVOID, tolerance)
    return {t: float(values[0, t - 1]) for t in targets}


def _depth(
    shape: _Shape, nodes: _Nodes, wanted: np.ndarray, board: Board, avoid: bool, tolerance: float
) -> np.ndarray:
    """P(explosion) of a cut at each seat of each row (N x P; only ``wanted`` entries are meaningful), the red
    chains followed while the path's chance is at least ``tolerance`` (as :func:`_explosion`)."""
    probs = shape.p_types(nodes)
    colours = board.colours
    leaves = [_leaf(board, c, avoid) for c in colours]
    values = probs[:, :, 1:] @ np.array([0.0 if v is None else v for v in leaves])
    if RED not in colours or leaves[colours.index(RED)] is not None:
        return values
    k = colours.index(RED)
    p_red = probs[:, :, 1 + k]
    follow = wanted & (p_red > 0) & (nodes.mass[:, None] * p_red >= tolerance)
    rows, seats = np.nonzero(follow)
    if not len(rows):
        return values
    p = p_red[rows, seats]
    children = shape.reveal_red(nodes, rows, seats, p)
    valid = (children.sizes > 0) & (shape.cards_left(children) > 0) & (children.mass > 0)[:, None]
    after = board.after(1, RED)  # the sizes are per row; the counts and the last card are what matters here
    child = _depth(shape, children, valid, after, avoid, tolerance)
    values[rows, seats] += p * (child * valid).sum(axis=1) / shape.players
    return values


@dataclass(frozen=True)
class CutRisk:
    """The risk of cutting ``seat`` now: P(defusing card) and, per cutter policy, P(explosion); soft (with the
    claims) and hard (cards and cuts only)."""

    seat: int
    p_defuse: float
    p_defuse_hard: float
    explode: Mapping[str, float]  # policy -> P(explosion), soft
    explode_hard: Mapping[str, float]  # policy -> P(explosion), hard


def risk_policies(kn: TimeBombKnowledge, cutter: int | None = None) -> tuple[str, ...]:
    """The cutter policies a risk is shown for: my role's when I hold the cutter, both otherwise (the cutter's
    role is unknown to me)."""
    cutter = kn.table.cutter if cutter is None else cutter
    return (policy_of(kn.role),) if cutter == kn.me else POLICIES


def cut_risks(
    kn: TimeBombKnowledge,
    policies: Sequence[str] | None = None,
    cutter: int | None = None,
    tolerance: float = 0.0,
    hard: bool = True,
) -> list[CutRisk]:
    """The risk of every cut ``cutter`` (default: whoever holds the cutter) may make now, in seat order, for
    each of ``policies`` (default: :func:`risk_policies`). The one risk computation of the companion.
    ``hard=False`` leaves out the explosion risks from the hard facts alone (``explode_hard`` empty): the
    ranking does not read them, and a bot need not pay for them."""
    t = kn.table
    cutter = t.cutter if cutter is None else cutter
    policies = tuple(policies) if policies is not None else risk_policies(kn, cutter)
    for policy in policies:
        _check_policy(policy)
    targets = t.targets() if cutter == t.cutter else [s for s in t.seats if s != cutter and t.sizes[s] > 0]
    soft, hard_belief = kn.belief(soft=True), kn.belief(soft=False)
    board = Board.of(t)
    boom_soft = {p: explosions(soft, board, targets, p, tolerance) for p in policies}
    boom_hard = {p: explosions(hard_belief, board, targets, p, tolerance) for p in policies} if hard else {}
    return [
        CutRisk(
            seat,
            soft.p_defuse(seat),
            hard_belief.p_defuse(seat),
            {p: boom_soft[p][seat] for p in policies},
            {p: boom_hard[p][seat] for p in boom_hard},
        )
        for seat in targets
    ]


@dataclass(frozen=True)
class CutOption:
    """One possible cut, with everything the advice table shows; ``p_explode`` is for ``policy`` (the side's
    play) and ``risk`` holds every policy computed (see :func:`cut_options`)."""

    seat: int
    p_defuse: float
    p_defuse_hard: float
    p_explode: float
    p_explode_hard: float
    p_win: float
    roles_if_defuse: dict[int, float]
    roles_if_bomb: dict[int, float]
    score: float
    reason: str
    policy: str
    risk: CutRisk


def _roles_after(belief: Belief, seat: int, card: str) -> dict[int, float]:
    try:
        return belief.reveal(seat, card).roles()
    except ValueError:
        return {}


def public_ratio(kn: TimeBombKnowledge, seat: int) -> float | None:
    """What the table's claims say of ``seat``'s next card: its latest claim this round, less the defusing
    cards cut from it since, over the cards it holds now (``None`` without a claim this round)."""
    t = kn.table
    claims = [c for c in kn.claims if c.round == t.round and c.seat == seat]
    if not claims or t.sizes[seat] == 0:
        return None
    claim = claims[-1]
    since = [c for c in t.round_cuts() if c.seat == seat][claim.before :]
    left = claim.claimed - sum(1 for c in since if c.card == DEFUSE)
    return max(0, min(left, t.sizes[seat])) / t.sizes[seat]


def table_reads(kn: TimeBombKnowledge) -> dict[int, tuple[float, float]]:
    """How the table reads each claim of this round (the latest per seat), as the rollouts assume
    (:func:`models.time_bomb.rollout.claim_reading` at the round's start, at the bluff rates set): the
    defusing cards it promises, less those cut from the claimer since, and P(the claimer is Moriarty)."""
    t = kn.table
    cut = t.round_cuts()
    total = sum(t.round_sizes[-1].values())
    good = t.defusers_left() + sum(1 for c in cut if c.card == DEFUSE)
    out: dict[int, tuple[float, float]] = {}
    for claim in kn.claims:
        if claim.round == t.round:
            expected, suspicion = claim_reading(total, good, claim.size, claim.claimed, kn.bluff.sherlock,
                                                kn.bluff.moriarty)
            since = [c for c in cut if c.seat == claim.seat][claim.before :]
            out[claim.seat] = (max(0.0, expected - sum(1 for c in since if c.card == DEFUSE)), suspicion)
    return out


def rollout_model(kn: TimeBombKnowledge, weights: Weights) -> RolloutModel:
    """The rollouts ``weights`` asks for (:mod:`models.time_bomb.rollout`): the rollout Sherlocks weigh who
    takes the cutter as the Sherlock advisor does and read claims at the table's bluff rates."""
    return RolloutModel(weights.rollouts, weights.noise, SHERLOCK_WEIGHTS.cutter, kn.bluff.sherlock,
                        kn.bluff.moriarty)


def hazard(board: Board, reachable: Mapping[str, bool], weights: Weights) -> float:
    """How close ``board`` is to an explosion on a later cut: per uncovered colour that can still reach its
    threshold, ``weights.hazard[n - 1]`` when n more cuts explode it, plus ``weights.pink_next`` when the last
    card was an uncovered pink (one more pink in a row explodes)."""
    total = 0.0
    for colour in board.colours:
        if colour in board.covered or not reachable[colour]:
            continue
        need = board.thresholds[colour] - board.counts[colour]
        if 1 <= need <= len(weights.hazard):
            total += weights.hazard[need - 1]
    if board.last == PINK and PINK not in board.covered:
        total += weights.pink_next
    return total


def future_hazard(
    belief: Belief, board: Board, seat: int, reachable: Mapping[str, bool], weights: Weights
) -> float:
    """The expected change of :func:`hazard` when a card of ``seat`` is cut (an explosion and the last
    defusing card count as no change: they end the game and are valued apart)."""
    now = hazard(board, reachable, weights)
    total = 0.0
    for card, p in belief.p_types(seat).items():
        if p <= 0:
            continue
        after = board.after(seat, card)
        if card == DEFUSE:
            # a cover will go on the most dangerous coverable colour: that colour's hazard is gone
            coverable = [c for c in board.colours if board.counts[c] > 0 and c not in board.covered]
            if coverable and after.defusers_left > 0:
                best = min(hazard(Board(after.players, after.colours, after.thresholds, after.counts,
                                        after.covered | {c}, after.last, after.sizes, after.defusers_left),
                                  reachable, weights) for c in coverable)
                total += p * (best - now)
            continue
        if _leaf(board, card, True) == 1.0:
            continue
        total += p * (hazard(after, reachable, weights) - now)
    return total


def _public_defuse(kn: TimeBombKnowledge, seat: int) -> float:
    """P(``seat``'s next card is a defusing card) for a player who does not see that hand: its claim less the
    defusing cards cut since (:func:`public_ratio`), else the share of defusing cards among the cards left."""
    ratio = public_ratio(kn, seat)
    if ratio is not None:
        return ratio
    t = kn.table
    return t.defusers_left() / t.remaining_cards() if t.remaining_cards() else 0.0


def next_cut_explosion(
    kn: TimeBombKnowledge, belief: Belief, board: Board, seat: int, tolerance: float = 0.0
) -> float:
    """P(the cut after mine at ``seat`` makes a bomb explode), for my cut that does not explode or win: the
    cut player takes the cutter; if a Sherlock (P from ``belief`` after the card) they cut as the advisor
    Sherlocks do, greedily for ``P(defusing) - 2 P(explosion)`` and avoiding explosions inside the cut (my hand
    read from my claim, as they see it), and if a Moriarty they cut for the likeliest explosion, seeking.
    Covers and uncovers of my card are not played out (a one-cut look-ahead, for a Moriarty's cut)."""
    me = kn.me
    total = 0.0
    for card, p in belief.p_types(seat).items():
        if p <= 0 or card == RED or (card == DEFUSE and board.defusers_left == 1):
            continue  # a red card's extra cut is in the explosion risk already; the last defusing card wins
        if card != DEFUSE and _leaf(board, card, False) == 1.0:
            continue  # it explodes now: counted in this cut's risk
        try:
            after_belief = belief.reveal(seat, card)
        except ValueError:
            continue
        after = board.after(seat, card)
        targets = [s for s in range(1, board.players + 1) if s != seat and after.sizes[s - 1] > 0]
        if not targets:
            continue
        avoid = explosions(after_belief, after, targets, AVOID, tolerance)
        seek = explosions(after_belief, after, targets, SEEK, tolerance)
        q = after_belief.roles()[seat]

        value = {k: (_public_defuse(kn, k) if k == me else after_belief.p_defuse(k)) - EXPLOSION_WEIGHT * avoid[k]
                 for k in targets}
        pick = max(targets, key=lambda k: (value[k], -k))
        total += p * ((1.0 - q) * avoid[pick] + q * max(seek.values()))
    return total


def cut_options(
    kn: TimeBombKnowledge,
    side: str | None = None,
    cutter: int | None = None,
    tolerance: float = 0.0,
    detail: bool = True,
    weights: Weights | None = None,
) -> list[CutOption]:
    """Every legal cut for ``cutter`` (default: whoever holds the cutter), best first for ``side`` (default:
    my role), its explosion risk from :func:`cut_risks` under the side's policy. Each option's ``risk`` also
    holds the policies :func:`risk_policies` shows (both for another player's cut), so the advice table reads
    the same numbers as the risk table. Ranked with the claims (soft belief); ``tolerance`` as in
    :func:`explosion`. ``detail=False`` (bots) leaves out what only the advice table shows, not the ranking:
    the hard explosion risks (``p_explode_hard`` is then NaN) and the role beliefs after each card (empty)."""
    t = kn.table
    side = side or kn.role
    weights = weights_of(side, weights)
    cutter = t.cutter if cutter is None else cutter
    policy = policy_of(side)
    policies = tuple(dict.fromkeys((*risk_policies(kn, cutter), policy)))
    risks = cut_risks(kn, policies, cutter, tolerance, hard=detail)
    soft = kn.belief(soft=True)
    defusers_left = t.defusers_left()
    ratios = {r.seat: public_ratio(kn, r.seat) for r in risks}
    roles = soft.roles()
    known = [r for r in ratios.values() if r is not None]
    best_public = max(known) if known else None
    board = Board.of(t)
    reachable = {c: max(d) >= t.setup.thresholds[c] for c, d in kn.in_play().items()} if weights.future else {}
    rolled: dict[int, float] = {}
    if (side == MORIARTY and weights.rollouts and weights.cut_rollouts and t.phase == "cut"
            and cutter == t.cutter == kn.me and len(risks) > 1):
        seed = decision_seed(t, kn.me, [c for c, n in kn.my_hand().items() for _ in range(n)], "cut")
        rolled = cut_values(t, soft, table_reads(kn), rollout_model(kn, weights), seed)
    out = []
    for risk in risks:
        seat = risk.seat
        p_def, p_def_hard = risk.p_defuse, risk.p_defuse_hard
        boom, boom_hard = risk.explode[policy], risk.explode_hard.get(policy, math.nan)
        win = p_def if defusers_left == 1 else 0.0
        if_bomb: dict[int, float] = {}
        if_def: dict[int, float] = {}
        if detail:
            bombs = [c for c, p in soft.p_types(seat).items() if c != DEFUSE and p > 0]
            if bombs:
                if_bomb = _roles_after(soft, seat, max(bombs, key=lambda c: soft.p_types(seat)[c]))
            if p_def > 0:
                if_def = _roles_after(soft, seat, DEFUSE)
        p_sherlock = 1.0 - roles[seat]
        future = future_hazard(soft, board, seat, reachable, weights) if weights.future else 0.0
        if side == SHERLOCK:
            score = p_def - weights.explosion * boom + weights.cutter * p_sherlock - weights.future * future
            reason = f"{_pct(p_def)} defusing, {_pct(boom)} explosion, {_pct(p_sherlock)} Sherlock (cuts next)"
        else:
            ratio = ratios.get(seat)
            suspicion = (best_public - ratio) if best_public is not None and ratio is not None else 0.0
            score = (boom + weights.bomb * (1 - p_def) - weights.suspicion * suspicion
                     + weights.cutter * roles[seat] + weights.future * future)
            reason = f"{_pct(boom)} explosion, {_pct(1 - p_def)} bomb, suspicion {suspicion:.2f}"
            if rolled:  # the rollouts decide; the greedy score only breaks their ties
                score = rolled[seat] + 1e-3 * score
                reason += f", Moriarty wins {_pct(rolled[seat])} of {weights.rollouts} rollouts"
            if weights.look and t.phase == "cut" and t.turns_left() > 1:
                nxt = next_cut_explosion(kn, soft, board, seat, tolerance)
                score += weights.look * nxt
                reason += f", {_pct(nxt)} explosion on the next cut"
        out.append(
            CutOption(seat, p_def, p_def_hard, boom, boom_hard, win, if_def, if_bomb, score, reason, policy, risk)
        )
    out.sort(key=lambda o: (-o.score, o.seat))
    return out


def _pct(p: float) -> str:
    return percent(p)


def danger(kn: TimeBombKnowledge, colour: str, mode: str = "ratio") -> float:
    """How close ``colour`` is to exploding, 0 if it never can (given the cards that can be in play): with
    ``mode`` ``ratio``, cut / threshold plus a pink bonus; with ``need``, 1 / (cuts still needed to explode it),
    pink's counting the pink-in-a-row danger as one cut nearer."""
    t = kn.table
    cut, thr = t.counts[colour], t.setup.thresholds[colour]
    if mode == "chance":
        return explode_chance(kn, colour)
    most = max(kn.in_play()[colour])
    reachable = most >= thr
    if mode == "green":  # fewest cuts from exploding, pink-in-a-row not counted
        return 1.0 / max(thr - cut, 1) if reachable else 0.0
    if mode == "need":
        if not reachable and not (colour == PINK and most - cut >= 1):
            return 0.0
        need = max(thr - cut, 1)
        if colour == PINK and most - cut >= 1:
            need = max(1, need - 1)
        return 1.0 / need
    pink = PINK_DANGER if colour == PINK and most - cut >= 1 else 0.0
    return (cut / thr if reachable else 0.0) + pink


def cuts_left(table: Table) -> int:
    """How many cuts the game can still have (turns of this round and the later ones, red extra cuts aside),
    at most the cards left."""
    setup = table.setup
    turns = table.turns_left()
    for r in range(table.round + 1, setup.rounds + 1):
        turns += setup.turns_per_round - (table.oranges_cut if r == setup.rounds else 0)
    return max(0, min(turns, table.remaining_cards()))


def _tail(total: int, good: int, draws: int, need: int) -> float:
    """P(at least ``need`` of ``draws`` cards drawn without replacement from ``total`` are among ``good``)."""
    if need <= 0:
        return 1.0
    draws = min(draws, total)
    if good < need or draws < need:
        return 0.0
    denom = math.comb(total, draws)
    miss = sum(math.comb(good, x) * math.comb(total - good, draws - x) for x in range(need))
    return 1.0 - miss / denom


def explode_chance(kn: TimeBombKnowledge, colour: str, horizon: int | None = None) -> float:
    """P(``colour``, left uncovered, explodes in the next ``horizon`` cuts (default: all the cuts left) if the
    cuts took random cards): enough of its cards not yet cut among the cut ones (hypergeometric, mixed over how
    many of its cards are in play), and for pink two pink cuts in a row (a union bound over adjacent pairs)."""
    t = kn.table
    cards = t.remaining_cards()
    draws = cuts_left(t) if horizon is None else min(horizon, cuts_left(t))
    if cards <= 0 or draws <= 0:
        return 0.0
    cut, thr = t.counts[colour], t.setup.thresholds[colour]
    total = 0.0
    for in_play, p in kn.in_play()[colour].items():
        left = max(0, in_play - cut)
        chance = _tail(cards, left, draws, thr - cut)
        if colour == PINK and draws >= 2 and cards >= 2:
            pair = left * (left - 1) / (cards * (cards - 1))
            chance = min(1.0, chance + (draws - 1) * pair)
        total += p * chance
    return total


def choose_cover(
    kn: TimeBombKnowledge, side: str | None = None, weights: Weights | None = None
) -> tuple[str, str]:
    """Which colour the pending defusing / yellow card should cover, and why."""
    side = side or kn.role
    weights = weights_of(side, weights)
    options = kn.table.coverable()
    mode = weights.cover
    t = kn.table
    if side == MORIARTY and weights.rollouts and weights.cover_rollouts and len(options) > 1 and t.cutter == kn.me:
        seed = decision_seed(t, kn.me, [c for c, n in kn.my_hand().items() for _ in range(n)], "cover")
        values = cover_values(t, kn.belief(soft=True), table_reads(kn), rollout_model(kn, weights), seed)
        pick = max(options, key=lambda c: (values[c], -danger(kn, c, mode), -options.index(c)))
        return pick, f"covering {pick}, Moriarty wins {_pct(values[pick])} of {weights.rollouts} rollouts"
    scored = sorted(options, key=lambda c: (danger(kn, c, mode), -options.index(c)), reverse=side == SHERLOCK)
    pick = scored[0]
    word = "most" if side == SHERLOCK else "least"
    return pick, f"{pick} is the {word} dangerous colour ({kn.table.counts[pick]} cut, explodes at " \
                 f"{kn.table.setup.thresholds[pick]})"


def choose_uncover(
    kn: TimeBombKnowledge, side: str | None = None, weights: Weights | None = None
) -> tuple[str, str]:
    """Which cover a blue bomb should remove, and why."""
    side = side or kn.role
    weights = weights_of(side, weights)
    t = kn.table
    options = list(t.covered)
    exposed = [c for c in options if t.counts[c] >= t.setup.thresholds[c]]
    if side == MORIARTY and exposed:
        return exposed[0], f"{exposed[0]} is at its threshold: uncovering it explodes it"
    safe = [c for c in options if c not in exposed] or options
    scored = sorted(safe, key=lambda c: danger(kn, c, weights.cover), reverse=side == MORIARTY)
    pick = scored[0]
    word = "least" if side == SHERLOCK else "most"
    return pick, f"{pick} is the {word} dangerous covered colour"


@dataclass(frozen=True)
class ClaimOption:
    """One claim I could make now, as the Sherlocks would read it (:func:`claim_options`): ``lure`` is the
    chance they then give my next card of being a defusing card, ``suspicion`` P(I am Moriarty) after it from
    even odds, ``score`` the claim's value for my side."""

    claimed: int
    truth: bool
    lure: float
    suspicion: float
    score: float
    reason: str


def _public_prior(kn: TimeBombKnowledge, size: int) -> np.ndarray:
    """P(a hand of ``size`` cards holds d defusing cards) for someone who does not see it: ``size`` of the cards
    left, the defusing cards left among them (hypergeometric)."""
    t = kn.table
    total, good = t.remaining_cards(), t.defusers_left()
    out = np.array([math.comb(good, d) * math.comb(total - good, size - d) if d <= good and size - d <= total - good
                    else 0 for d in range(size + 1)], dtype=float)
    return out / out.sum() if out.sum() > 0 else np.full(size + 1, 1.0 / (size + 1))


def claim_options(
    kn: TimeBombKnowledge, side: str | None = None, weights: Weights | None = None
) -> list[ClaimOption]:
    """Every claim I could make now (0 to my hand size), best first for ``side`` (default: my role).

    A Sherlock's best claim is the truth (the other Sherlocks can then cut my defusing cards); the others are
    ranked by how far they are from it. For a Moriarty the claim is read as the Sherlocks would read it, under
    the bluff model at the rates set (``bluff S M``) and a hand they do not see (the cards left, hypergeometric):
    ``lure`` (their P(my next card is a defusing card) after the claim) and ``suspicion`` (P(I am Moriarty)
    after it, from even odds). Holding defusing cards I want a low lure (nobody cuts them); holding none a high
    one (cuts come to my bombs and the cutter to me); always a low suspicion:
    ``score = -+ weights.lure * lure - weights.suspect * suspicion``."""
    side = side or kn.role
    weights = weights_of(side, weights)
    hand = kn.my_hand()
    held, size = hand[DEFUSE], sum(hand.values())
    counts = np.arange(size + 1)
    if side == SHERLOCK or size == 0:
        return sorted(
            (ClaimOption(k, k == held, 0.0, 0.0, -abs(k - held), "the truth" if k == held else
                         f"{abs(k - held)} off the truth") for k in range(size + 1)),
            key=lambda o: (-o.score, o.claimed),
        )
    prior = _public_prior(kn, size)
    model = kn.bluff
    out = []
    for k in range(size + 1):
        like_s = model.likelihood(k, counts, size, SHERLOCK)
        like_m = model.likelihood(k, counts, size, MORIARTY)
        p_s, p_m = float(prior @ like_s), float(prior @ like_m)
        suspicion = p_m / (p_s + p_m) if p_s + p_m > 0 else 0.5
        post = prior * (0.5 * like_s + 0.5 * like_m)
        lure = float(post @ counts) / (post.sum() * size) if post.sum() > 0 else 0.0
        sign = -1.0 if held else 1.0
        score = sign * weights.lure * lure - weights.suspect * suspicion
        aim = "keeps cuts away from your defusing cards" if held else "draws cuts to your bombs"
        reason = f"read as {_pct(lure)} defusing per card ({aim}), {_pct(suspicion)} Moriarty"
        out.append(ClaimOption(k, k == held, lure, suspicion, score, reason))
    out.sort(key=lambda o: (-o.score, o.claimed))
    row = _table_claim(kn, weights)  # ranked first, one above the best reading's score
    if row is not None:  # the claim table's row outranks the reading (its claim measured best in this situation)
        booked = next(o for o in out if o.claimed == row)
        top = out[0].score
        out.remove(booked)
        reason = (f"{_table_reason(kn.table.round, held, size, row)}; read as {_pct(booked.lure)} defusing per card, "
                  f"{_pct(booked.suspicion)} Moriarty")
        out.insert(0, replace(booked, score=top + 1.0, reason=reason))
    return out


def _table_claim(kn: TimeBombKnowledge, weights: Weights) -> int | None:
    """The claim of ``weights.claim_table``'s row for this round and the defusing cards I hold (at most my
    hand size), or ``None`` without a row or a hand."""
    hand = kn.my_hand()
    size = sum(hand.values())
    table = {(r, h): k for r, h, k in weights.claim_table}
    if size == 0 or (kn.table.round, hand[DEFUSE]) not in table:
        return None
    return min(table[(kn.table.round, hand[DEFUSE])], size)


def _table_reason(round_: int, held: int, size: int, claim: int) -> str:
    """Why the claim table's row claims ``claim`` holding ``held`` defusing cards of ``size`` in round
    ``round_``: a claim above my cards draws the Sherlocks' cuts (most of them bombs when most of my cards are)."""
    if claim <= held:
        return f"the claim table's row for round {round_}"
    bombs = "most of your cards are bombs, and " if 2 * held < size else ""
    return (f"the claim table's row for round {round_}: more than you hold, so the Sherlocks' cuts come to you; "
            f"{bombs}each cut hands you the cutter")


def choose_claim(
    kn: TimeBombKnowledge, side: str | None = None, weights: Weights | None = None
) -> tuple[int, str]:
    """What to say about my defusing cards now, and why."""
    side = side or kn.role
    weights = weights_of(side, weights)
    held = kn.my_hand()[DEFUSE]
    size = sum(kn.my_hand().values())
    if side == SHERLOCK:
        return held, "tell the truth: the other Sherlocks can then cut your defusing cards"
    k = _table_claim(kn, weights)
    if k is not None:
        return k, f"you hold {held}: claim {k} ({_table_reason(kn.table.round, held, size, k)})"
    if weights.rollouts and weights.claim_rollouts and size > 0:
        values = claim_rollouts(kn, weights)
        ranked = {o.claimed: o.score for o in claim_options(kn, side, weights)}
        pick = max(values, key=lambda k: (values[k], ranked[k], -k))
        return pick, f"Moriarty wins {_pct(values[pick])} of {weights.rollouts} rollouts after this claim"
    if weights.claims == "relative":
        return relative_claim(kn, weights)
    if weights.claims == "ranked":
        best = claim_options(kn, side, weights)[0]
        return best.claimed, best.reason
    if held:
        return 0, f"you hold {held}: claim none so that nobody cuts them"
    claim = min(weights.bait, size)
    word = {0: "none", 1: "one", 2: "two"}.get(claim, str(claim))
    return claim, f"you hold none: claim {word} to draw cuts to your bombs"


def relative_claim(kn: TimeBombKnowledge, weights: Weights) -> tuple[int, str]:
    """A Moriarty's claim against the claims made before it this round, as the Sherlock advisor would rank the
    claimers for its next cut (``P(defusing card) + cutter * P(Sherlock)``, each read by
    :func:`models.time_bomb.rollout.claim_reading`; the cutter, who cannot be cut, left out). Holding no
    defusing card: the smallest claim (one or two) that makes me the best target, else the ranked claim.
    Holding some: the truth when even the truth leaves me below the best target (less suspicion later), else
    the ranked claim."""
    t = kn.table
    held, size = kn.my_hand()[DEFUSE], sum(kn.my_hand().values())
    ranked = claim_options(kn, MORIARTY, weights)[0].claimed
    cutter_weight = SHERLOCK_WEIGHTS.cutter

    def value(expected: float, suspicion: float, cards: int) -> float:
        return (expected / cards if cards else 0.0) + cutter_weight * (1.0 - suspicion)

    reads = table_reads(kn)
    others = [value(e, q, t.sizes[s]) for s, (e, q) in reads.items() if s not in (kn.me, t.cutter) and t.sizes[s]]
    if not others or size == 0:
        return ranked, "no claim to measure against: the ranked claim"
    best = max(others)
    total, good = t.remaining_cards(), t.defusers_left()

    def mine(k: int) -> float:
        return value(*claim_reading(total, good, size, k, kn.bluff.sherlock, kn.bluff.moriarty), size)

    if held == 0:
        for k in range(1, min(2, size) + 1):
            if mine(k) >= best:
                return k, f"claim {k}: the smallest claim that draws the next cut to your bombs"
        return ranked, "no claim of one or two draws the next cut: the ranked claim"
    if mine(held) < best:
        return held, "the truth: someone else draws the next cut anyway, and the truth raises less suspicion"
    return ranked, "the ranked claim"


def claim_rollouts(kn: TimeBombKnowledge, weights: Weights) -> dict[int, float]:
    """The Moriarty team's win share after each claim I may make now, by rollouts
    (:func:`models.time_bomb.rollout.claim_values`): the players who have not claimed this round claim after
    me, in seat order from the cutter."""
    t = kn.table
    said = {c.seat for c in kn.claims if c.round == t.round}
    order = [left_of(t.cutter, i, t.players) for i in range(t.players)]
    pending = [s for s in order[order.index(kn.me) + 1:] if s not in said]
    seed = decision_seed(t, kn.me, [c for c, n in kn.my_hand().items() for _ in range(n)], "claim")
    return claim_values(t, kn.belief(soft=True), table_reads(kn), kn.me, pending, rollout_model(kn, weights),
                        seed)


@dataclass(frozen=True)
class Advice:
    """The advice for what I must decide now (``kind``: claim, cut, cover, uncover, wait)."""

    kind: str
    best: str
    reason: str
    options: tuple[CutOption, ...] = ()


def advise(
    kn: TimeBombKnowledge,
    claim_pending: bool = False,
    tolerance: float = 0.0,
    detail: bool = True,
    weights: Weights | None = None,
) -> Advice:
    """Advice for my pending decision: a claim (if ``claim_pending``), a cut, a cover or an uncover
    (``detail`` as in :func:`cut_options`)."""
    t = kn.table
    if t.over:
        return Advice("wait", "", f"the game is over: {t.winner} won ({t.reason})")
    if claim_pending:
        k, why = choose_claim(kn, weights=weights)
        return Advice("claim", f"claim {kn.me} {k}", why)
    if t.cutter == kn.me and t.phase == "cover":
        colour, why = choose_cover(kn, weights=weights)
        return Advice("cover", f"cover {colour}", why)
    if t.cutter == kn.me and t.phase == "uncover":
        colour, why = choose_uncover(kn, weights=weights)
        return Advice("uncover", f"uncover {colour}", why)
    if t.phase == "cut":
        options = tuple(cut_options(kn, tolerance=tolerance, detail=detail, weights=weights))
        best = options[0]
        who = "your" if t.cutter == kn.me else f"player {t.cutter}'s"
        return Advice("cut", f"cut player {best.seat}", f"{who} cut: {best.reason}", options)
    return Advice("wait", "", t.status())
