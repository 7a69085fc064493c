"""The plain Beyond Baker Street advisor (no table convention): ranked actions with reasons, and its bots.

The advisor looks one move ahead with exact probabilities. For each of my own plays it sums, over what the card
at that position can be (:meth:`HandKnowledge.hand`, exact), the value of what would happen: completing or
advancing a Lead, a Dead Lead, a mismatched icon raising the Lead, an Elimination moving the Investigation
track towards exactly 20 or past it. For each Assist it works out what the player told would then know about
their own hand (empathy: their Assists so far plus this one, and what both of us can see), which play that
knowledge makes safe or likely for them, and what that play would really do, since I can see their cards.
Confirm, Pursue and the Holmes track (an Assist costs a space, worth more as the marker drops, and at 1 it
loses) complete the picture. Leads that share an icon draw on the same cards, so whether they can still be
completed is checked jointly: disjoint sets of the cards still in play must add up to each one's need exactly.

The evaluation is array code (numpy): a :class:`Situation` holds one value table (each card index played to
each open Lead or eliminated), a hand's exact distributions are one (positions x cards) array, and every Assist
of a decision is one row of one :class:`Outlook` (the told player's distributions before and after it, their
best play and what it is really worth), so a decision costs a few dozen array operations rather than a loop per
Assist, position and card. The numbers are the same as the plain loops' (sums run card by card in index order).

Values are in "evidence points": a card's number moved onto a Lead or the track is worth about its number, a
completed Lead or an exact 20 a bonus, and a Dead Lead, a lost Holmes space or a stuck Lead a cost. They are
heuristics, tuned on simulations (README); only the probabilities are exact.

Bots: ``random`` (a random kind of legal action, then a random action of that kind), ``advisor`` (every seat
follows the top advice); :func:`models.beyond_baker_street.advisor.make_bot` builds them and the hat bot.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from models.beyond_baker_street.advice import (
    DEFAULT_WEIGHTS,
    ICON_INDEX,
    ICON_OF,
    NUMBER_OF,
    Advice,
    Situation,
    Weights,
    compiled,
    my_distribution,
    my_expected,
    narrowed,
    pairs,
)
from models.beyond_baker_street.characters import adjust, decide
from models.beyond_baker_street.data import EVIDENCE, ICONS, NUMBERS
from models.beyond_baker_street.knowledge import HandKnowledge, subject_mask
from models.beyond_baker_street.observations import (
    Action,
    Assist,
    Confirm,
    Eliminate,
    Entry,
    Investigate,
    Keep,
    Place,
    Pursue,
    Subject,
    shared,
    subject_plural,
)
from models.beyond_baker_street.rules import TableView
from models.beyond_baker_street.table import LeadState
from solver.errors import AssistantError
from solver.injections import PARTITION_LIMIT, unit_marginals_many


@dataclass
class Outlook:
    """How holders of hands I see would play under several states of knowledge, one row each (a hand of ``k``
    card indices, its slot masks and the cards its holder cannot see): their exact distributions (empathy),
    the expected value of each play, their best play (the first best in position order, then
    :attr:`Situation.sections` order; -1 when no world fits) and what it would really be worth to play it
    (0 unless its expected value is at least ``min_play``). All rows have the same number of positions."""

    dists: np.ndarray  # rows x positions x cards
    expected: np.ndarray  # rows x (positions * plays), position-major
    best: np.ndarray  # rows: flat index into ``expected``, -1 if no world fits
    best_value: np.ndarray  # rows: expected value of the best play (-inf if no world fits)
    truth: np.ndarray  # rows x (positions * plays): what each play is really worth
    gain: np.ndarray  # rows

    @staticmethod
    def of(sit: Situation, hands: np.ndarray, rows: np.ndarray, unseen: np.ndarray) -> Outlook:
        """``hands`` and ``rows`` (slot masks) are (rows x positions), ``unseen`` one mask per row."""
        n, k = rows.shape
        totals, weights = unit_marginals_many(rows & unseen[:, None], len(EVIDENCE))
        fits = totals > 0
        dists = weights / np.where(fits, totals, 1).astype(np.float64)[:, None, None]
        values = sit.values
        expected = np.cumsum(dists[:, :, None, :] * values[None, None, :, :], axis=3)[..., -1].reshape(n, -1)
        truth = values[:, hands].transpose(1, 2, 0).reshape(n, -1)
        if k:
            best = np.where(fits, np.argmax(expected, axis=1), -1)
            at = np.maximum(best, 0)
            best_value = np.where(fits, expected[np.arange(n), at], -np.inf)
            gain = np.where(best_value >= sit.weights.min_play, truth[np.arange(n), at], 0.0)
        else:
            best = np.full(n, -1)
            best_value = np.full(n, -np.inf)
            gain = np.zeros(n)
        return Outlook(dists, expected, best, best_value, truth, gain)


def hint_values(sit: Situation, target: int, subjects: Sequence[Subject], reasons: bool = True
                ) -> list[tuple[float, str]]:
    """The value of telling ``target`` where their cards of each of ``subjects`` are (:func:`assist_values`)."""
    return assist_values(sit, [(target, subjects)], reasons)[0]


def assist_values(sit: Situation, asks: Sequence[tuple[int, Sequence[Subject]]], reasons: bool = True
                  ) -> list[list[tuple[float, str]]]:
    """For each (target, subjects) of ``asks``, the value of telling ``target`` where their cards of each
    subject are, with a reason (module docstring; no reasons, only values, unless ``reasons``). Every Assist
    to targets holding as many cards is one row of one evaluation (:func:`assist_numbers`), after a row for the
    target's knowledge now."""
    out: list[list[tuple[float, str]]] = [[] for _ in asks]
    by_size: dict[int, list[int]] = {}
    for a, (target, _subjects) in enumerate(asks):
        by_size.setdefault(len(sit.hands[target]), []).append(a)
    for k, group in by_size.items():
        for a, result in zip(group, _assist_values(sit, k, [asks[a] for a in group], reasons), strict=True):
            out[a] = result
    return out


def _assist_values(sit: Situation, k: int, asks: Sequence[tuple[int, Sequence[Subject]]], reasons: bool
                   ) -> list[list[tuple[float, str]]]:
    """:func:`assist_values` for targets holding ``k`` cards each."""
    w = sit.weights
    plays = len(sit.leads) + 1
    before = [[s.mask for s in sit.kn.hands[target]] for target, _ in asks]
    hands = [sit.hands[target] for target, _ in asks]
    unseen = [sit.unseen | sum(1 << i for i in hand) for hand in hands]  # what the target cannot see
    discount = [w.hint_discount ** ((target - sit.me) % sit.board.players - 1) for target, _ in asks]
    subjects = [subject_mask(subject) for _, told in asks for subject in told]
    owners = [a for a, (_, told) in enumerate(asks) for _ in told]
    kernels = compiled()
    if kernels is not None and k <= PARTITION_LIMIT:
        t = len(asks)
        value, best, best_value = kernels.assist_subjects(
            np.array(before, dtype=np.int64).reshape(t, k), np.array(hands, dtype=np.intp).reshape(t, k),
            np.array(unseen, dtype=np.int64), np.array(discount), np.array(subjects, dtype=np.int64),
            np.array(owners, dtype=np.intp), sit.values, float(w.min_play), float(w.second), float(w.info))
        values = value.tolist()
    else:
        values, best, best_value = _assist_subjects_array(sit, before, hands, unseen, discount, subjects, owners)
    out: list[list[tuple[float, str]]] = []
    r = 0
    for _target, told in asks:
        mine = []
        for _subject in told:
            if not reasons:
                mine.append((values[r], ""))
            elif best[r] >= 0 and best_value[r] >= w.min_play:
                b = int(best[r])
                play = sit.play(b // plays, b % plays)
                mine.append((values[r], f"then {play} looks worth {float(best_value[r]):+.1f} to them"))
            else:
                mine.append((values[r], "no play becomes clear for them yet"))
            r += 1
        out.append(mine)
    return out


def _assist_subjects_array(sit: Situation, before: list[list[int]], hands: list[list[int]], unseen: list[int],
                           discount: list[float], subjects: list[int], owners: list[int]
                           ) -> tuple[list[float], np.ndarray, np.ndarray]:
    """What :func:`models.beyond_baker_street.kernels.assist_subjects` computes, in array code: the rows of
    every target's knowledge now, then of each Assist (the positions it names narrowed to its subject, the
    others to the rest), through :func:`assist_numbers_array`; the Assists' rows back."""
    targets, k = len(before), len(before[0]) if before else 0
    rows = [*before]
    for sm, t in zip(subjects, owners, strict=True):
        rows.append([m & sm if (1 << hands[t][i]) & sm else m & ~sm for i, m in enumerate(before[t])])
    every = list(range(targets)) + owners
    n = len(rows)
    values, best, best_value = assist_numbers_array(
        sit, np.array(rows, dtype=np.int64).reshape(n, k), np.array([unseen[t] for t in every], dtype=np.int64),
        np.array([hands[t] for t in every], dtype=np.intp).reshape(n, k), np.array(every, dtype=np.intp),
        np.array([discount[t] for t in every]))
    return values[targets:], best[targets:], best_value[targets:]


def assist_numbers(sit: Situation, masks: np.ndarray, unseen: np.ndarray, hands: np.ndarray, base: np.ndarray,
                   discount: np.ndarray, terms: bool = True) -> tuple[list[float], np.ndarray, np.ndarray]:
    """For rows of hands of one size (card indices ``hands`` and slot ``masks``, rows x positions; ``unseen``:
    per row, the cards its holder cannot see), each row's value as an Assist against its ``base`` row (the
    same holder's knowledge now): the gain of the play the row makes clear (with the weights' ``second`` and
    ``info`` terms, unless not ``terms``) less the base row's, times ``discount``; and the holder's best play
    (:class:`Outlook`) with its expected value. By the compiled loop once it is loaded
    (:func:`models.beyond_baker_street.kernels.assist_rows`), else :func:`assist_numbers_array`: the same
    numbers."""
    kernels = compiled()
    if kernels is None or masks.shape[1] > PARTITION_LIMIT:
        return assist_numbers_array(sit, masks, unseen, hands, base, discount, terms)
    w = sit.weights
    second, info = (float(w.second), float(w.info)) if terms else (0.0, 0.0)
    value, best, best_value, _gain = kernels.assist_rows(masks, unseen, hands, base, discount, sit.values,
                                                         float(w.min_play), second, info)
    return value.tolist(), best, best_value


def assist_numbers_array(sit: Situation, masks: np.ndarray, unseen: np.ndarray, hands: np.ndarray,
                         base: np.ndarray, discount: np.ndarray, terms: bool = True
                         ) -> tuple[list[float], np.ndarray, np.ndarray]:
    """:func:`assist_numbers` in array code: one :class:`Outlook` of every row, then the terms over all rows."""
    w = sit.weights
    n, k = masks.shape
    plays = len(sit.leads) + 1
    look = Outlook.of(sit, hands, masks, unseen)
    best, best_value = look.best, look.best_value
    clear = (best >= 0) & (best_value >= w.min_play)
    gain_then = look.gain
    every = np.arange(n)
    if terms and w.second and k > 1:  # the best play once the best one is made, where one is
        others = look.expected.copy()
        positions = np.arange(k * plays) // plays
        others[positions[None, :] == (best // plays)[:, None]] = -np.inf
        other = np.argmax(others, axis=1)
        other_value = others[every, other]
        extra = w.second * np.maximum(0.0, look.truth[every, other])
        gain_then = np.where((best >= 0) & (other_value >= w.min_play), gain_then + extra, gain_then)
    if terms and w.info and k:
        # each card's best use, and the probability, as its holder sees it, that the same use is good
        columns = sit.values[:, hands]  # plays x rows x positions
        best_row = np.argmax(columns, axis=0)
        best_use = columns.max(axis=0)
        good = np.cumsum(np.where(sit.values[best_row] > 0, look.dists, 0.0), axis=2)[..., -1]
        rise = best_use * np.maximum(0.0, good - good[base])
        played = np.where(clear, best // plays, -1)
        counted = (best_use > 0) & (np.arange(k)[None, :] != played[:, None])
        information = np.cumsum(np.where(counted, rise, 0.0), axis=1)[:, -1]
        gain_then = gain_then + w.info * information
    return ((gain_then - np.maximum(look.gain[base], 0.0)) * discount).tolist(), best, best_value


def hint_value(sit: Situation, target: int, subject: Subject) -> tuple[float, str]:
    """The value of telling ``target`` where their ``subject`` cards are (:func:`assist_values`)."""
    return assist_values(sit, [(target, [subject])])[0][0]


def advise(
    kn: HandKnowledge,
    weights: Weights = DEFAULT_WEIGHTS,
    reasons: bool = True,
    known: Sequence[int] | None = None,
) -> list[Advice]:
    """Every legal action for me, best first, with a value and (unless ``reasons`` is False, as the bots ask)
    a reason. ``known`` (one card mask per position) asks "what if I also knew this much of my cards": each
    position's exact distribution is narrowed to the cards of its mask (``bench/beyond_baker_street_ceiling.py``
    measures what knowing one's icons, numbers or cards would be worth)."""
    if kn.board is None:
        raise AssistantError(f"advise: finish the setup first, still need {', '.join(kn.missing())}")
    board = kn.board
    if board.over:
        raise AssistantError(f"advise: the game is over ({board.result}: {board.reason})")
    return advise_in(Situation.of(kn, weights), reasons, known)


def advise_in(sit: Situation, reasons: bool = True, known: Sequence[int] | None = None,
              assists: Callable[[int, Subject], bool] | None = None, positions: Collection[int] | None = None
              ) -> list[Advice]:
    """:func:`advise` in a :class:`Situation` already built (the hat convention reuses its value tables). A
    convention that keeps only some of the advice may name it, and only that is valued (the same numbers: each
    Assist and each play is valued on its own): ``assists`` (target, subject) says which Assists to value, and
    ``positions`` (1-based) which positions' plays."""
    kn, board, w = sit.kn, sit.board, sit.weights
    out: list[Advice] = []
    dists = my_distribution(kn)
    if known is not None:
        dists = narrowed(dists, known)
    goal = board.data.goal
    for ls in sit.open_leads():
        if ls.need == 0:
            if sit.last_lead() and board.track != goal:
                out.append(Advice(shared(Confirm, ls.section), -1000.0,
                                  f"the last Lead: confirming with the track on {board.track}, not {goal}, loses"))
            else:
                out.append(Advice(shared(Confirm, ls.section), w.confirm, "confirms a Lead and moves Holmes back"))
    expected = sit.expected(dists).tolist()
    for pos, dist in enumerate(dists):
        if positions is not None and pos + 1 not in positions:
            continue
        shown = pairs(dist) if reasons else []
        for row, ls in enumerate(sit.leads):
            out.append(Advice(shared(Investigate, pos + 1, ls.section), expected[pos][row],
                              _play_reason(sit, shown, ls) if reasons else ""))
        out.append(Advice(shared(Eliminate, pos + 1), expected[pos][-1], _elim_reason(sit, shown) if reasons else ""))
    hint_cost = sit.holmes_value() if board.holmes > 1 else 1000.0
    asks = _asks(sit, assists)
    for (target, subjects), results in zip(asks, assist_values(sit, asks, reasons), strict=True):
        hand = sit.hands[target]
        for subject, (v, reason) in zip(subjects, results, strict=True):
            told = ""
            if reasons:
                positions = [str(i + 1) for i, c in enumerate(hand) if (1 << c) & subject_mask(subject)]
                told = f"tells player {target} their {subject_plural(subject)} are at {', '.join(positions)}; {reason}"
            out.append(Advice(shared(Assist, target, subject), v - hint_cost, told))
    for ls in sit.open_leads():
        out.append(Advice(shared(Pursue, ls.section), _pursue_value(sit, ls),
                          _pursue_reason(sit, ls) if reasons else ""))
    if board.characters:  # Character cards: forbidden Assists out, passive rules, their actions
        out = adjust(sit, out, [pairs(d) for d in dists], hint_cost, reasons)
    out.sort(key=lambda a: -a.score)
    return out


def scores_in(sit: Situation, known: Sequence[int] | None = None,
              assists: Callable[[int, Subject], bool] | None = None, positions: Collection[int] | None = None,
              target: int | None = None) -> tuple[list[Action], list[float]]:
    """:func:`advise_in`'s actions and values alone, in the order it builds them (before its sort), without an
    :class:`Advice` or a reason each: what a bot ranks (:func:`top_legal`), a few dozen objects fewer per decision.
    The same numbers as :func:`advise_in` (its value for every action); not for a table with Character cards,
    whose advice :func:`advise_in` adjusts. ``target``: ``assists`` keeps no Assist to any other player (the hat
    convention's message names its target), so the others' hands are not read for subjects."""
    board, w = sit.board, sit.weights
    actions: list[Action] = []
    scores: list[float] = []
    goal = board.data.goal
    leads = sit.leads
    for ls in leads:
        if ls.need == 0:
            actions.append(shared(Confirm, ls.section))
            scores.append(-1000.0 if len(leads) == 1 and board.track != goal else w.confirm)
    sections = tuple([ls.section for ls in leads])
    for pos, row in enumerate(my_expected(sit, known).tolist()):  # per position: each open Lead, then eliminating
        if positions is not None and pos + 1 not in positions:
            continue
        actions += _plays_from(pos + 1, sections)
        scores += row
    hint_cost = sit.holmes_value() if board.holmes > 1 else 1000.0
    asks = _asks(sit, assists, target)
    for (target, subjects), results in zip(asks, assist_values(sit, asks, False), strict=True):
        for subject, (v, _reason) in zip(subjects, results, strict=True):
            actions.append(shared(Assist, target, subject))
            scores.append(v - hint_cost)
    for ls in leads:
        actions.append(shared(Pursue, ls.section))
    scores += pursue_kept(sit)
    return actions, scores


@lru_cache(maxsize=1024)
def _plays_from(position: int, sections: tuple[str, ...]) -> tuple[Action, ...]:
    """The plays from ``position`` (1-based) in :func:`scores_in`'s order: to each of the open Leads
    ``sections``, then eliminating (the shared actions, built once per position and open Leads)."""
    return (*[shared(Investigate, position, section) for section in sections], shared(Eliminate, position))


def pursue_values(sit: Situation) -> list[float]:
    """Each open Lead's Pursue value (:func:`_pursue_value`), in board order. Public facts only (the Lead's pile
    and evidence, the Impossible and the Holmes marker, whether the cards still in play can complete its icon's
    Leads, the weights), all in the value table's key: so kept in its memo, shared by every seat and decision
    with the same facts (a copy each, as a caller may extend it)."""
    return list(pursue_kept(sit))


def pursue_kept(sit: Situation) -> list[float]:
    """:func:`pursue_values` as kept in the value table's memo (not a copy: for a caller that only reads it)."""
    table = sit.value_table
    memo = table.memo
    values = memo.get("pursue")
    if values is None:
        feasible = table.feasible  # each icon's, from the compiled table when it gave them (the same answers)
        values = memo["pursue"] = [
            _pursue_value(sit, ls, None if feasible is None else bool(feasible[ICON_INDEX[ls.icon]]))
            for ls in sit.leads]
    return values  # type: ignore[return-value]


def top_legal(actions: Sequence[Action], scores: Sequence[float], legal: Sequence[Action]) -> Action:
    """The first legal action of ``actions`` ranked by ``scores`` as :func:`advise_in` sorts them (highest first,
    equal values in their order), or the first legal action if none is: the top one is nearly always legal, so it
    is tried before anything is sorted."""
    if not scores:
        return legal[0]
    top = max(range(len(scores)), key=scores.__getitem__)  # the first of the highest: the sort's first
    best = actions[top]
    for action in legal:  # the advice and the rules share their action instances: found by identity first
        if action is best:
            return best
    if best in legal:  # an equal action that is not the shared one
        return best
    for i in sorted(range(len(scores)), key=lambda i: -scores[i]):  # stable: equal values keep their order
        if actions[i] in legal:
            return actions[i]
    return legal[0]


def _asks(sit: Situation, assists: Callable[[int, Subject], bool] | None, only: int | None = None
          ) -> list[tuple[int, list[Subject]]]:
    """The Assists to value, per target in seat order: each number, then each icon, of the cards I see in their
    hand (only those ``assists`` keeps, when given; only to ``only``, when given)."""
    asks: list[tuple[int, list[Subject]]] = []
    for target, hand in sit.hands.items():
        if only is not None and target != only:
            continue
        numbers = {NUMBER_OF[i] for i in hand}
        icons = {ICON_OF[i] for i in hand}
        subjects: list[Subject] = [n for n in NUMBERS if n in numbers]
        subjects += [ic for ic in ICONS if ic in icons]
        if assists is not None:
            subjects = [subject for subject in subjects if assists(target, subject)]
            if not subjects:
                continue
        asks.append((target, subjects))
    return asks


def _pursue_value(sit: Situation, ls: LeadState, feasible: bool | None = None) -> float:
    """The value of pursuing ``ls``; ``feasible``: whether its icon's open Leads can still be completed, if
    known already (else asked of ``sit``)."""
    if ls.pile == 0:
        return -1000.0
    cost = sit.impossible_cost(1) + sit.weights.progress * ls.total
    if not (sit.icon_feasible(ls.icon, sit.live) if feasible is None else feasible):
        return sit.weights.stuck - cost
    if sit.weights.tight:
        others = {o.section: 0 for o in sit.open_leads() if o is ls}  # without it, the icon's other Leads
        relief = sit.tightness(ls.icon, sit.live) - sit.tightness(ls.icon, sit.live, others)
        return relief - sit.weights.dead * 0.5 - cost
    return -sit.weights.dead * 0.5 - cost


def _pursue_reason(sit: Situation, ls: LeadState) -> str:
    if ls.pile == 0:
        return "the last Lead of its section: pursuing it loses"
    if not sit.icon_feasible(ls.icon, sit.live):
        others = [o.section for o in sit.open_leads() if o.icon == ls.icon and o is not ls]
        shared = f" together with the {', '.join(others)} Lead" if others else ""
        return f"the {ls.icon} cards still in play cannot add up to the {ls.need} it needs{shared}"
    if not ls.total:
        return f"reveals the next {ls.section} Lead; no evidence is on this one to lose"
    return f"gives up the {ls.total} points of evidence on it and reveals the next {ls.section} Lead"


_NUMBER = re.compile(r"\d+")


def _outcomes_text(outcomes: dict[str, float]) -> str:
    """The likeliest outcomes as a sentence: "it completes the Lead" when certain, else "40% chance it ...".

    Outcomes that differ only in one number are one outcome with the range of that number ("raises the Lead's
    target by 1 to 6"), so a reason never repeats itself."""
    merged: dict[str, tuple[float, list[int]]] = {}
    for what, p in outcomes.items():
        m = _NUMBER.search(what)
        key = what[:m.start()] + "{}" + what[m.end():] if m else what
        total, numbers = merged.get(key, (0.0, []))
        merged[key] = (total + p, [*numbers, int(m.group())] if m else numbers)
    texts: dict[str, float] = {}
    for key, (p, numbers) in merged.items():
        lo, hi = (min(numbers), max(numbers)) if numbers else (0, 0)
        span = f"{lo}" if lo == hi else f"between {lo} and {hi}" if "to {}" in key else f"{lo} to {hi}"
        texts[key.replace("{}", span)] = p
    ranked = sorted(texts.items(), key=lambda kv: -kv[1])[:3]
    if len(ranked) == 1 and ranked[0][1] > 0.9995:
        return f"it {ranked[0][0]}"
    return "; ".join(f"{p:.0%} chance it {what}" for what, p in ranked)


def _play_reason(sit: Situation, dist: Sequence[tuple[int, float]], ls: LeadState) -> str:
    """What playing this card to the Lead would do, likeliest first."""
    outcomes: dict[str, float] = {}
    for card, p in dist:
        what = sit.play_value(card, ls)[1]
        outcomes[what] = outcomes.get(what, 0.0) + p
    return _outcomes_text(outcomes)


def _elim_reason(sit: Situation, dist: Sequence[tuple[int, float]]) -> str:
    outcomes: dict[str, float] = {}
    for card, p in dist:
        what = sit.eliminate_value(card)[1]
        outcomes[what] = outcomes.get(what, 0.0) + p
    return _outcomes_text(outcomes)


# -- bots -----------------------------------------------------------------------------------------------------


class RandomBot:
    """A random kind of legal action (assist, investigate, eliminate, confirm, pursue), then a random one."""

    name = "random"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def inform(self, observation: Entry) -> None:
        del observation

    def step(self, view: TableView) -> Action:
        kinds: dict[type, list[Action]] = {}
        for action in view.legal_actions:
            kinds.setdefault(type(action), []).append(action)
        kind = self.rng.choice(sorted(kinds, key=lambda k: k.__name__))
        return self.rng.choice(kinds[kind])


class AdvisorBot:
    """Keeps the exact hand knowledge and plays the top advice (ties broken by the legal-action order)."""

    name = "advisor"

    def __init__(self, seat: int, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.seat = seat
        self.rng = rng
        self.weights = weights
        self.hand = HandKnowledge()

    @property
    def knowledge(self) -> HandKnowledge | None:
        """The knowledge state, once the setup is complete (the simulation checks it for soundness)."""
        return self.hand if self.hand.started else None

    def inform(self, observation: Entry) -> None:
        self.hand.add(observation)

    def trust_observations(self) -> None:
        """The observations come from the rules engine (:func:`solver.bots.trust`): my knowledge skips the checks
        that only refuse a wrong entry (:attr:`HandKnowledge.trusted`)."""
        self.hand.trusted = True

    def ranked(self) -> list[Advice]:
        """My advice, best first (what :meth:`step` plays the first legal action of)."""
        return advise(self.hand, self.weights, reasons=False)

    def scores(self) -> tuple[list[Action], list[float]]:
        """My actions and their values (:func:`scores_in`), unranked: what :meth:`step` plays the best legal one
        of at a table without Character cards."""
        return scores_in(Situation.kept(self.hand, self.weights))

    def step(self, view: TableView) -> Action:
        if view.legal_actions and isinstance(view.legal_actions[0], Keep | Place):
            return decide(self.hand, view.legal_actions)
        legal = view.legal_actions  # the first advice is nearly always legal: no set of them all to build
        board = self.hand.board
        if board is not None and not board.characters and not board.over:  # the same choice as ranked()'s
            return top_legal(*self.scores(), legal)
        for advice in self.ranked():
            if advice.action in legal:
                return advice.action
        return view.legal_actions[0]

