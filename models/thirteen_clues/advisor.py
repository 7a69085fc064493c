"""Thirteen Clues advice: every legal action ranked by exact expected information, and the ``advisor`` bot.

What is exact. All probabilities come from :meth:`solver.counting.AllocationCounter.joints`: world counts split
by my mystery M and by the content q of one other place (a player's private cards, or an informant letter).
A question to player X about subject S is answered ``known + |M & S| + |q & S|`` with q X's private cards
(``known``: matching cards on the screens other than mine and X's, see ``ThirteenCluesKnowledge.witness``), so
the joint for X gives every answer's probability and the posterior over my mystery at once; a consultation is
the same with a one-card place. From these:

- ``expected_combinations``: the mean, over the answers, of the number of mysteries still possible;
- ``bits``: the expected fall in the entropy of my mystery (mutual information of the answer and M);
- ``p_correct``: for an accusation, the probability it is right; for a question or consultation, the
  expected probability of the best triple after the answer (the chance an accusation right after it is right).

What an action gives away (estimates, in bits, documented where computed):

- a question's answer is public: each other rival R learns ``|M_R & S| + |q & S|``; I can see R's mystery, so
  I know the first term, and I know the distribution of the second. :func:`_rival_bits` scores what R learns
  about ``|M_R & S|`` as the expected Kullback-Leibler divergence from R's prior (R's mystery card of each
  category uniform over the cards of that category R cannot see, in expectation under my own knowledge) to
  R's posterior after the answer;
- the glass goes to the asked player: one more action on their next turn, unless they hold none (a player
  with none would take one from the supply anyway). Consulting and accusing give the glass to the player who
  has none, so they cost no action;
- a wrong accusation tells every rival that the three named cards are not on their own screen.

Score (bits of progress on my mystery, net of what I give away; :class:`Weights` holds the weights):

- question, consultation: ``bits - leak * rival_bits - glass * extra_actions``, plus, when I have another glass
  this turn, ``race * (p_correct - p_best)``: asking first raises the chance that an accusation with that glass
  wins this turn from the best triple's probability now to the expected best after the answer;
- accusation with probability p: ``p * (H + race) + (1 - p) * (bits_if_wrong - after * best - leak * rival_bits)``
  where H is the entropy of my mystery now (a right accusation resolves all of it), ``race`` the value of
  winning now rather than after the remaining questions, ``after`` my glasses left this turn (discarded on a
  wrong accusation) and ``best`` the score of the best question now (the value of one of my actions).
  With a certain mystery H = 0 and the accusation scores ``race``, above every question (they score <= 0).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from models.thirteen_clues.bots import KnowledgeBot, register_bot
from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, SUBCATEGORIES
from models.thirteen_clues.knowledge import ThirteenCluesKnowledge
from models.thirteen_clues.observations import Accuse, Action, Ask, Consult, InformantLook, TakeGlass
from models.thirteen_clues.rules import TAKE, TableView
from solver.counting import JointCount
from solver.errors import AssistantError, IllegalActionError


@dataclass(frozen=True)
class Weights:
    """How the score trades my bits against what an action gives away.

    Tuned on seeded four-player games, one variant in seat 1 against three advisors with these defaults (fair
    share 25%; 300 games, seed 12): defaults 22.7% +- 2.4, ``leak=0`` 23.0% +- 2.4 (it asks about three times a
    game instead of consulting), ``race=2`` 20.7% +- 2.3. Probes of 100 games (``race`` 0, 0.5, 4; ``leak`` 1;
    ``glass`` 0, 1.5) were all within noise of the defaults' 18% on those seeds, except ``leak=1`` (14%).
    Against logic bots every setting wins most games. ``bench/advisor.py`` reproduces the figures."""

    leak: float = 0.3  # per bit a rival learns about their own mystery
    glass: float = 0.5  # per extra action handed to a rival, in bits
    race: float = 1.0  # value, in bits, of winning now rather than after the remaining questions


DEFAULT_WEIGHTS = Weights()


@dataclass(frozen=True)
class Advice:
    """One ranked action. ``outcomes`` lists each possible answer (the count a witness would say, the card
    under a letter, or right/wrong) with its probability."""

    action: Action
    score: float
    expected_combinations: float
    bits: float
    p_correct: float
    reason: str
    gives_away: float = 0.0  # estimated bits rivals learn about their own mysteries
    extra_actions: float = 0.0  # actions the spent glass adds to a rival's next turn
    outcomes: tuple[tuple[str, float], ...] = ()


def _entropy(p: np.ndarray) -> float:
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


def _column_stats(joint: np.ndarray, total: float) -> tuple[np.ndarray, float, float, float]:
    """For a (mysteries x answers) matrix of world counts: P(answer), expected number of mysteries left,
    expected entropy after the answer, expected best-triple probability after the answer."""
    col = joint.sum(axis=0)
    p_answer = col / total
    support = (joint > 0).sum(axis=0)
    combos = float((p_answer * support).sum())
    h_after = 0.0
    for t in np.nonzero(col)[0]:
        h_after += p_answer[t] * _entropy(joint[:, t] / col[t])
    best = float(joint.max(axis=0).sum() / total)
    return p_answer, combos, h_after, best


_POPCOUNT: dict[int, np.ndarray] = {}


def _popcount(masks: np.ndarray, n: int) -> np.ndarray:
    """Bits set in each mask (of ``n`` bits), by table lookup."""
    if n not in _POPCOUNT:
        table = np.zeros(1 << n, dtype=np.int64)
        for i in range(n):
            table[1 << i : 1 << (i + 1)] = table[: 1 << i] + 1
        _POPCOUNT[n] = table
    return _POPCOUNT[n][masks]


@dataclass(frozen=True)
class _Question:
    """A question's exact value: bits, expected mysteries left, expected best-triple probability, P(answer)
    by answer offset, and the distribution of the asked player's matching private cards."""

    bits: float
    combinations: float
    best: float
    p_answer: list[float]
    noise: list[float]


class Position:
    """One player's position, analysed once: the joints for every other place, my mystery's exact
    distribution, and what each rival can and cannot see (for the give-away estimates)."""

    def __init__(self, kn: ThirteenCluesKnowledge) -> None:
        self.kn = kn
        self.looked = {o.letter for o in kn.knowledge.facts + kn.knowledge.whatifs if isinstance(o, InformantLook)}
        self.rivals = [s for s in range(1, kn.players + 1) if s != kn.me]
        probes = [p for s in self.rivals for p in kn.private_places(s)] + list(kn.letters)
        shared = kn.joints()  # every place but my mystery, shared with the count and the grid
        self.joints: dict[str, JointCount] = {p: shared[p] for p in probes}
        first = self.joints[probes[0]]
        self.items = first.items
        self.bit = {card: i for i, card in enumerate(self.items)}
        self.pivots = first.pivots
        counts = first.pivot_counts().astype(float)
        self.total = float(counts.sum())
        if self.total <= 0:
            raise AssistantError("advise: no deal fits everything entered, so there is nothing to rank")
        self.p_mystery = counts / self.total
        self.entropy = _entropy(self.p_mystery)
        self.possible = int((counts > 0).sum())
        self.top = float(self.p_mystery.max())  # the best accusation's chance now
        # P(card in my mystery) and P(card in seat s's private cards), for each unseen card.
        self.in_mystery = {c: float(self.p_mystery[(self.pivots >> i) & 1 == 1].sum()) for c, i in self.bit.items()}
        self.in_private: dict[int, dict[str, float]] = {}
        for s in self.rivals:
            share = dict.fromkeys(self.items, 0.0)
            for place in kn.private_places(s):
                joint = self.joints[place]
                per_q = joint.probe_counts().astype(float) / self.total
                for c, i in self.bit.items():
                    share[c] += float(per_q[(joint.probes >> i) & 1 == 1].sum())
            self.in_private[s] = share
        self._priors: dict[tuple[int, str], list[float]] = {}
        self._hidden: dict[int, dict[str, float]] = {}
        self._questions: dict[tuple[str, str], _Question] = {}
        self._matching: dict[str, frozenset[str]] = {}
        self._by_category = {cat: [c for c in kn.in_play if CARD_BY_NAME[c].category == cat] for cat in CATEGORIES}
        self.subjects = [*kn.setup.data.suits_in_play(kn.players), *CATEGORIES]
        if kn.setup.subcategories:
            self.subjects += [s for pair in SUBCATEGORIES.values() for s in pair]

    def question(self, place: str, subject: str) -> _Question:
        """What a question about ``subject`` answered with ``place``'s cards tells me. Computed for every subject
        at once the first time a place is asked about: one matrix product splits each mystery's worlds by
        ``|q & S|``, then the answer ``|M & S| + |q & S|`` indexes a (mystery, subject, answer) array."""
        if (place, subject) not in self._questions:
            subjects = list(dict.fromkeys([subject, *self.subjects]))
            joint = self.joints[place]
            n = len(self.items)
            width = self.kn.capacities[place] + 1
            masks = np.array([self.mask(self.matching(s)) for s in subjects], dtype=np.int64)
            onehot = np.zeros((joint.probes.size, len(subjects) * width))
            for k, m in enumerate(masks.tolist()):
                onehot[np.arange(joint.probes.size), k * width + _popcount(joint.probes & m, n)] = 1.0
            split = (joint.counts.astype(float) @ onehot).reshape(self.pivots.size, len(subjects), width)
            mine = _popcount(self.pivots[:, None] & masks[None, :], n)  # |M & S|
            answers = np.zeros((self.pivots.size, len(subjects), 4 + width))
            rows, cols = np.indices(mine.shape)
            for j in range(width):
                answers[rows, cols, mine + j] += split[:, :, j]
            col = answers.sum(axis=0)  # (subject, answer): worlds per answer
            p_answer = col / self.total
            combos = (p_answer * (answers > 0).sum(axis=0)).sum(axis=1)
            safe = np.where(answers > 0, answers, 1.0)
            xlogx = (answers * np.log2(safe)).sum(axis=0)
            h_answer = np.where(col > 0, np.log2(np.where(col > 0, col, 1.0)) - xlogx / np.where(col > 0, col, 1.0), 0)
            h_after = (p_answer * h_answer).sum(axis=1)
            best = answers.max(axis=0).sum(axis=1) / self.total
            noise = split.sum(axis=0) / self.total
            for k, s in enumerate(subjects):
                bits = max(0.0, self.entropy - float(h_after[k]))
                self._questions[(place, s)] = _Question(
                    bits, float(combos[k]), float(best[k]), p_answer[k].tolist(), noise[k].tolist()
                )
        return self._questions[(place, subject)]

    def matching(self, subject: str) -> frozenset[str]:
        """Cards in play a question about ``subject`` counts (cached ``ThirteenCluesKnowledge.matching``)."""
        if subject not in self._matching:
            self._matching[subject] = frozenset(self.kn.matching(subject))
        return self._matching[subject]

    def mask(self, cards: Iterable[str]) -> int:
        return sum(1 << self.bit[c] for c in set(cards) if c in self.bit)

    def triple(self, mask: int) -> tuple[str, str, str]:
        cards = sorted((self.items[i] for i in range(len(self.items)) if mask >> i & 1),
                       key=lambda c: CATEGORIES.index(CARD_BY_NAME[c].category))
        return (cards[0], cards[1], cards[2])

    # -- what a rival cannot see ----------------------------------------------------------------------------------
    def hidden_from(self, rival: int, cards: Sequence[str]) -> float:
        """Expected number of ``cards`` that ``rival`` cannot see: their own mystery, my private cards, and my
        unseen cards that are neither in my mystery (on my screen, which they see) nor in their private cards."""
        if rival not in self._hidden:
            screen = set(self.kn.setup.screens[rival])
            mine = set(self.kn.private)
            chance = dict.fromkeys(self.kn.in_play, 0.0)
            for c in self.kn.in_play:
                if c in screen or c in mine:
                    chance[c] = 1.0
                elif c in self.bit:
                    chance[c] = max(0.0, 1.0 - self.in_mystery[c] - self.in_private[rival][c])
            self._hidden[rival] = chance
        chance = self._hidden[rival]
        return sum(chance[c] for c in cards)

    def rival_prior(self, rival: int, subject: str) -> list[float]:
        """Rival's prior over ``|M_R & S|`` (0..3): each category's mystery card uniform over the cards of
        that category they cannot see (expected counts under my knowledge); categories independent."""
        if (rival, subject) not in self._priors:
            subject_cards = self.matching(subject)
            dist = [1.0]
            for cat in CATEGORIES:
                cat_cards = self._by_category[cat]
                hidden = self.hidden_from(rival, cat_cards)
                hits = self.hidden_from(rival, [c for c in cat_cards if c in subject_cards])
                p = min(1.0, hits / hidden) if hidden > 0 else 0.0
                dist = [(dist[m] if m < len(dist) else 0.0) * (1 - p) + (dist[m - 1] * p if m else 0.0)
                        for m in range(len(dist) + 1)]
            self._priors[(rival, subject)] = dist
        return self._priors[(rival, subject)]

    def card_news(self, rival: int, card: str) -> float:
        """Bits ``rival`` gains on hearing that ``card`` is not on their screen (a wrong accusation), if they
        could not see it: one of the cards of that category they cannot see is ruled out."""
        if card not in self.bit:
            return 0.0
        hidden = self.hidden_from(rival, self._by_category[CARD_BY_NAME[card].category])
        if hidden <= 1.0:
            return 0.0
        return self.hidden_from(rival, [card]) * math.log2(hidden / (hidden - 1.0))


def _rival_bits(prior: Sequence[float], truth: int, noise: Sequence[float]) -> float:
    """Expected Kullback-Leibler divergence (bits) from a rival's prior over m = |M_R & S| to their posterior
    after hearing ``m + b``, where the true m is ``truth`` and b (the asked player's matching private cards)
    has the distribution ``noise``. Plain Python: the vectors have at most four entries."""
    out = 0.0
    for b, pb in enumerate(noise):
        if pb <= 0:
            continue
        r = truth + b
        post = [p * noise[r - m] if 0 <= r - m < len(noise) else 0.0 for m, p in enumerate(prior)]
        z = sum(post)
        if z <= 0:
            continue
        out += pb * sum(q / z * math.log2(q / z / p) for q, p in zip(post, prior, strict=True) if q > 0)
    return out


def legal_actions(kn: ThirteenCluesKnowledge, position: Position | None = None) -> list[Action]:
    """Every action the rules allow from what ``kn`` knows: ask every other seat about every suit in play and
    category (sub-categories with the house rule; two players: both sides), consult every letter I have not
    looked at, and accuse every triple still possible."""
    position = position or Position(kn)
    sides: tuple[str | None, ...] = ("left", "right") if kn.players == 2 else (None,)
    out: list[Action] = [
        Ask(s, subject, side)
        for s in range(1, kn.players + 1)
        if s != kn.me
        for subject in position.subjects
        for side in sides
    ]
    out += [Consult(letter) for letter in kn.letters if letter not in position.looked]
    out += [Accuse(*position.triple(int(m))) for m in position.pivots[position.p_mystery > 0]]
    return out


def advise(
    kn: ThirteenCluesKnowledge,
    legal: Sequence[Action] | None = None,
    glasses: int | None = None,
    table_glasses: Mapping[int, int] | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
) -> list[Advice]:
    """Rank ``legal`` (default: :func:`legal_actions`) for the player ``kn`` belongs to, best first.

    ``glasses``: how many glasses I hold now, this action's included (unknown: 1, so a wrong accusation wastes
    nothing). ``table_glasses``: seat -> glasses held, to know whether a glass handed over adds an action
    (unknown: it always does). Two-player games have no glasses: both are ignored. What-ifs entered in ``kn``
    count like facts, as in ``Knowledge.count``, so the advice answers "what should I do if ...".
    """
    pos = Position(kn)
    if legal is None:
        legal = legal_actions(kn, pos)
    two = kn.players == 2
    after = 0 if two or glasses is None else max(0, glasses - 1)
    info: list[Advice] = []
    accusations: list[Accuse] = []
    takes: list[TakeGlass] = []
    for action in legal:
        _check(kn, action)
        if isinstance(action, Ask):
            info.append(_ask(pos, action, two, table_glasses, weights, after))
        elif isinstance(action, Consult):
            info.append(_consult(pos, action, weights, after))
        elif isinstance(action, Accuse):
            accusations.append(action)
        else:
            takes.append(action)
    best = max([a.score for a in info] + [0.0])
    out = info + _accuse(pos, accusations, after, best, weights)
    out += [_take(action, table_glasses, weights) for action in takes]
    out.sort(key=lambda a: (-a.score, str(a.action)))
    return out


def _check(kn: ThirteenCluesKnowledge, action: Action) -> None:
    """Refuse what the advisor cannot rank because the rules forbid it (a question to myself, a wrong side)."""
    if isinstance(action, Ask):
        if action.seat == kn.me or not 1 <= action.seat <= kn.players:
            raise IllegalActionError(f"'{action}': expected another player's seat, not {action.seat}")
        if (kn.players == 2) != (action.side is not None):
            raise IllegalActionError(f"'{action}': name 'left' or 'right' in two-player games, and only there")
    elif isinstance(action, Consult) and action.letter not in kn.letters:
        raise IllegalActionError(f"'{action}': there is no informant {action.letter} with {kn.players} players")


def _ask(
    pos: Position, action: Ask, two: bool, table_glasses: Mapping[int, int] | None, weights: Weights, after: int
) -> Advice:
    kn = pos.kn
    places = kn.private_places(action.seat)
    place = places[1] if action.side == "right" else places[0]
    subject_cards = pos.matching(action.subject)
    q = pos.question(place, action.subject)
    bits, combos, best = q.bits, q.combinations, q.best
    known = sum(
        1 for seat, screen in kn.setup.screens.items() if seat != action.seat for c in screen if c in subject_cards
    )
    outcomes = tuple((str(known + t), p) for t, p in enumerate(q.p_answer) if p > 0)
    # Public answer: every rival other than the one asked hears it (the asked player knows it already).
    leak = 0.0
    for rival in pos.rivals:
        if rival == action.seat:
            continue
        truth = sum(1 for c in kn.setup.screens[rival] if c in subject_cards)
        leak += _rival_bits(pos.rival_prior(rival, action.subject), truth, q.noise)
    extra = 0.0 if two else 1.0
    if table_glasses is not None and not two and table_glasses.get(action.seat, 0) == 0:
        extra = 0.0
    score = bits - weights.leak * leak - weights.glass * extra + (weights.race * (best - pos.top) if after else 0.0)
    glass = ""
    if not two:
        glass = f"; player {action.seat} gets a glass" + (" (+1 action)" if extra else " (no extra action)")
    reason = (
        f"leaves {combos:.1f} of {pos.possible} possible mysteries on average ({bits:.2f} bits){glass}; "
        f"rivals learn ~{leak:.2f} bits about their own"
    )
    return Advice(action, score, combos, bits, best, reason, leak, extra, outcomes)


def _consult(pos: Position, action: Consult, weights: Weights, after: int) -> Advice:
    joint = pos.joints[action.letter]
    p_answer, combos, h_after, best = _column_stats(joint.counts.astype(float), pos.total)
    bits = max(0.0, pos.entropy - h_after)
    outcomes = tuple(
        (pos.items[i], float(p_answer[k])) for k, q in enumerate(joint.probes.tolist())
        for i in range(len(pos.items)) if q == 1 << i and p_answer[k] > 0
    )
    reason = (
        f"leaves {combos:.1f} of {pos.possible} possible mysteries on average ({bits:.2f} bits); "
        f"rivals learn only which letter you looked at"
    )
    score = bits + (weights.race * (best - pos.top) if after else 0.0)
    return Advice(action, score, combos, bits, best, reason, 0.0, 0.0, outcomes)


def _accuse(pos: Position, actions: list[Accuse], after: int, best: float, weights: Weights) -> list[Advice]:
    out = []
    index = {int(m): k for k, m in enumerate(pos.pivots.tolist())}
    plogp = np.where(pos.p_mystery > 0, pos.p_mystery * np.log2(np.where(pos.p_mystery > 0, pos.p_mystery, 1)), 0.0)
    news = {(r, c): pos.card_news(r, c) for r in pos.rivals for c in {c for a in actions for c in a.cards}}
    for action in actions:
        k = index.get(pos.mask(action.cards)) if all(c in pos.bit for c in action.cards) else None
        p = float(pos.p_mystery[k]) if k is not None else 0.0
        if p >= 1.0:
            bits_wrong, combos = 0.0, 1.0
        else:
            # Entropy of my mystery once this triple is ruled out: (H + p log p) / (1 - p) + log(1 - p).
            h_wrong = (pos.entropy + (float(plogp[k]) if k is not None else 0.0)) / (1 - p) + math.log2(1 - p)
            bits_wrong = max(0.0, pos.entropy - h_wrong)
            combos = p * 1 + (1 - p) * (pos.possible - (1 if p > 0 else 0))
        leak = sum(news[(r, c)] for r in pos.rivals for c in action.cards if (r, c) in news)
        score = p * (pos.entropy + weights.race) + (1 - p) * (bits_wrong - after * best - weights.leak * leak)
        if p >= 1.0:
            reason = "certain: this is your mystery"
        else:
            wasted = f", discards your {after} other glass{'es' if after > 1 else ''}" if after else ""
            reason = (
                f"right with probability {100 * p:.1f}% ({pos.possible} possible mysteries); if wrong it ends your "
                f"turn{wasted} and rivals learn ~{leak:.2f} bits"
            )
        outcomes = (("right", p), ("wrong", 1 - p))
        out.append(Advice(action, score, combos, p * pos.entropy + (1 - p) * bits_wrong, p, reason,
                          (1 - p) * leak, 0.0, outcomes))
    return out


def _take(action: TakeGlass, table_glasses: Mapping[int, int] | None, weights: Weights) -> Advice:
    """Taking a glass from a player with two or more costs them an action; from a player with one, it only
    makes them take one back at their turn."""
    held = table_glasses.get(action.seat, 1) if table_glasses is not None else 1
    cost = 1.0 if held >= 2 else 0.0
    reason = f"player {action.seat} holds {held} glass{'es' if held != 1 else ''}" + (
        ": they lose an action" if cost else ""
    )
    return Advice(action, weights.glass * cost + 0.01 * held, 0.0, 0.0, 0.0, reason)


def information_lower_bound(kn: ThirteenCluesKnowledge) -> float:
    """Fewest witness answers that could pin down my mystery from the start: log2 of the initial number of
    mystery combinations (one unseen Person x Location x Weapon) over the most bits one answer can give, which
    is log2 of the most distinct values ``|M & S| + |q & S|`` can take for a subject S and a private place q
    (an answer's information is at most its entropy). The result is a number of answers, not of turns.

    An informant look is not counted: it shows one card, which for my mystery only rules that card out."""
    by_cat = [[c for c in kn.unseen if CARD_BY_NAME[c].category == cat] for cat in CATEGORIES]
    combos = math.prod(len(cards) for cards in by_cat)
    subjects = [*kn.setup.data.suits_in_play(kn.players), *CATEGORIES]
    if kn.setup.subcategories:
        subjects += [s for pair in SUBCATEGORIES.values() for s in pair]
    cap = 1 if kn.players == 2 else 2
    most = 1
    for subject in subjects:
        matching = set(kn.matching(subject))
        hits = [sum(1 for c in cards if c in matching) for cards in by_cat]
        low = sum(1 for h, cards in zip(hits, by_cat, strict=True) if h == len(cards))  # M must hit S here
        high = sum(1 for h in hits if h > 0)  # M holds at most one matching card per category
        top = min(high + cap, sum(hits))  # the place adds at most cap of the matching cards M does not hold
        most = max(most, top - low + 1)
    return math.log2(combos) / math.log2(most) if combos > 1 and most > 1 else 0.0


class AdvisorBot(KnowledgeBot):
    """Plays the top of :func:`advise`: the most informative question net of what it gives away, and an
    accusation when certain or when its odds beat asking (see the score in the module docstring)."""

    name = "advisor"

    def __init__(self, seat: int, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS) -> None:
        super().__init__(seat, rng)
        self.weights = weights
        self.actions = 0  # my own actions so far (glasses spent; a take is not one)
        self.turns = 0  # my own turns so far
        self._turn_seen: int | None = None
        self.certain_after: tuple[int, int] | None = None  # (actions, turns) when my mystery was first certain
        self.last_advice: list[Advice] = []

    def step(self, view: TableView) -> Action:
        assert self.knowledge is not None
        legal = set(view.legal_actions)
        table = {s: view.glasses[s - 1] for s in range(1, view.players + 1)}
        if view.phase == TAKE:
            advice = advise(self.knowledge, [a for a in view.legal_actions if isinstance(a, TakeGlass)],
                            table_glasses=table, weights=self.weights)
            return advice[0].action
        if view.turn != self._turn_seen:
            self._turn_seen = view.turn
            self.turns += 1
        advice = advise(self.knowledge, None, view.glasses[self.seat - 1], table, self.weights)
        if not any(a.action in legal for a in advice):  # cannot happen with the rules engine; rank its list then
            advice = advise(self.knowledge, view.legal_actions, view.glasses[self.seat - 1], table, self.weights)
        self.last_advice = advice
        top = next(a for a in advice if a.action in legal)
        if self.certain_after is None and isinstance(top.action, Accuse) and top.p_correct >= 1:
            self.certain_after = (self.actions, self.turns)
        self.actions += 1
        return top.action


register_bot("advisor", AdvisorBot)
