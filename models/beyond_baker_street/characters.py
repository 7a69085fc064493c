"""The advisor's view of Character cards: their actions as ranked legal actions with reasons, their passive rule
changes in the values of the plain actions, the Assists a Character forbids left out, and the two choices a
Character's action asks of a player (Toby placing the card he saw, the player on Lady Eva Blackwell's right
choosing her card).

The values are heuristics in the advisor's "evidence points" (:mod:`models.beyond_baker_street.advisor`), kept
simple: a Holmes space is worth :meth:`Situation.holmes_value`, a card's best use is the best of its values on
the open Leads or in the Impossible, and a once-per-game action costs a little (it cannot be used again).
"""

from __future__ import annotations

from collections.abc import Sequence

from models.beyond_baker_street.advice import Advice, Situation
from models.beyond_baker_street.data import EVIDENCE, Evidence
from models.beyond_baker_street.knowledge import CARD_INDEX, HandKnowledge
from models.beyond_baker_street.observations import (
    Action,
    Advance,
    Assist,
    Confirm,
    DoubleAssist,
    Eliminate,
    Exchange,
    Exchanged,
    Keep,
    Peek,
    Place,
    Pursue,
    ReturnCard,
    SwapCards,
)

ONCE = 1.0  # what keeping a once-per-game action for later is worth


def best_use(sit: Situation, card: int) -> float:
    """The best value of card index ``card``: on an open Lead or eliminated."""
    sections: list[str | None] = [ls.section for ls in sit.open_leads()]
    return max(sit.table(sec)[card] for sec in [*sections, None])


def hat_off_reason(kn: HandKnowledge) -> str | None:
    """Why the hat convention is off at this table, or None: with Martin (no Assist naming a number) half the
    messages cannot be said, and a table reading his Assists as messages would read wrong ones. Icon bans
    (Bradstreet, Hopkins, Jones, Forrester) leave the convention on: an icon message names any other icon."""
    board = kn.board
    if board is None:
        return None
    for seat, ch in board.characters.items():
        if ch.kind == "assist_ban" and ch.param("subject") == "number":
            return f"player {seat} plays {ch.name}, who may not name numbers: half the hat messages cannot be said"
    return None


def adjust(sit: Situation, advice: list[Advice], dists: Sequence[Sequence[tuple[int, float]]], hint_cost: float,
           reasons: bool) -> list[Advice]:
    """The plain advice for my Character: forbidden Assists removed, passive rules in the values, its actions
    added."""
    board = sit.board
    me = sit.me
    w = sit.weights
    kind = board.kind(me)
    out: list[Advice] = []
    for a in advice:
        act = a.action
        if isinstance(act, Assist) and not board.may_assist(me, act.subject):
            continue  # the Character forbids it (a rule on me, not a fact about their hand)
        if isinstance(act, Eliminate) and kind in ("calm_eliminate", "eliminate_factor"):
            a = Advice(act, _eliminate(sit, dists[act.position - 1], kind), a.reason)
        if isinstance(act, Pursue) and kind == "lead_not_impossible":
            a = Advice(act, a.score + sit.impossible_cost(1), a.reason + "; Wiggins: it stays out of the Impossible")
        out.append(a)
    if kind == "confirm_short":
        short = board.param(me, "short", 1)
        for ls in sit.open_leads():
            if 0 < ls.need <= short and not (sit.last_lead() and board.track != board.data.goal):
                out.append(Advice(Confirm(ls.section), w.confirm, f"Mary Morstan confirms it {ls.need} short"))
    if board.can_use(me, "advance_holmes"):
        v = sit.holmes_value() * board.param(me, "step", 1) - (ONCE if board.holmes > 3 else 0.0)
        out.append(Advice(Advance(), v, f"moves Holmes from {board.holmes} to {board.holmes + 1}; once per game"))
    if board.can_use(me, "double_assist"):
        assists = sorted((a for a in out if isinstance(a.action, Assist)), key=lambda a: -a.score)[:6]
        for i, a in enumerate(assists):
            for b in assists[i + 1:]:
                assert isinstance(a.action, Assist) and isinstance(b.action, Assist)
                out.append(Advice(DoubleAssist(a.action, b.action), a.score + b.score + hint_cost,
                                  f"two Assists for one Holmes space: {a.reason}; and {b.reason}" if reasons else ""))
    if board.can_use(me, "swap_impossible"):
        out += _exchanges(sit)
    if board.can_use(me, "swap_hand"):
        out += _swaps(sit, dists)
    if board.can_use(me, "return_impossible"):
        for c in board.impossible:
            if isinstance(c, Evidence):
                rest = board.data.goal - board.track
                v = (c.number * w.eliminate if rest < 0 else -w.eliminate * c.number * 0.5) + \
                    (sit.holmes_value() if len(board.impossible) > board.limit else 0.0)
                out.append(Advice(ReturnCard(c), v - ONCE, f"takes {c.code} back into the deck: the track goes to "
                                                          f"{board.track - c.number}"))
    if board.can_use(me, "peek") and board.deck:
        kn = sit.kn
        known = (kn.top if board.top_known else kn.buried[-1] if board.deck == board.bottom and kn.buried else None)
        if known is None:
            out.append(Advice(Peek(), -0.5, "looks at the top card of the deck (no Holmes space)"))
        else:
            out.append(Advice(Peek(), -5.0, f"the top card is {known.code}, which you know already"))
    return out


def _eliminate(sit: Situation, dist: Sequence[tuple[int, float]], kind: str) -> float:
    """Eliminating for Lestrade (no Holmes space lost, M) or Gregson (the track moves double, L)."""
    board = sit.board
    w = sit.weights
    total = 0.0
    for card, p in dist:
        if kind == "calm_eliminate":
            v = sit.table(None)[card] + sit.impossible_cost(1)
        else:
            n = EVIDENCE[card].number * board.param(sit.me, "factor", 2)
            if board.track + n > board.data.goal:
                v = -1000.0
            else:
                v = w.eliminate * n - sit.impossible_cost(1) + (w.finish if board.track + n == board.data.goal else 0)
        total += p * v
    return total


def _exchanges(sit: Situation) -> list[Advice]:
    """Baskerville: every swap of an Impossible card with a card on a Lead, valued by what the Lead and the track
    become (a completed Lead, a Dead Lead, the track past the goal)."""
    board = sit.board
    w = sit.weights
    out = []
    for o in [c for c in board.impossible if isinstance(c, Evidence)]:
        for ls in sit.open_leads():
            for c in ls.evidence + ls.raised:
                after = board.copy()
                after.apply(Exchanged(sit.me, o, c))
                new = after.leads[ls.section]
                if after.result == "lost":
                    v, why = -1000.0, "loses the game"
                elif new.lead is not ls.lead or new.lead is None:
                    v, why = -w.dead, "makes the Lead a Dead Lead"
                elif new.need == 0:
                    v, why = w.complete + w.confirm * 0.5, "completes the Lead"
                else:
                    v, why = w.progress * (ls.need - new.need) - ONCE, f"leaves the Lead {new.need} short"
                out.append(Advice(Exchange(o, c), v, f"{o.code} onto the {ls.section} Lead for {c.code}: {why}; "
                                                     f"the track goes to {after.track}"))
    return out


def _swaps(sit: Situation, dists: Sequence[Sequence[tuple[int, float]]]) -> list[Advice]:
    """Langdale Pike: my card at a position for a card I see; I then know the card I hold."""
    out = []
    for target, hand in sit.hands.items():
        for q, card in enumerate(hand, 1):
            gain = best_use(sit, card)
            for p, dist in enumerate(dists, 1):
                mine = sum(prob * best_use(sit, c) for c, prob in dist)
                out.append(Advice(SwapCards(p, target, q), gain - mine - ONCE,
                                  f"you would hold {EVIDENCE[card].code} (known, best use {gain:+.1f}) for your "
                                  f"position {p} (expected {mine:+.1f})"))
    return out


def decide(kn: HandKnowledge, legal: Sequence[Action]) -> Action:
    """The choice a Character's action asks: which card Lady Eva Blackwell keeps (the better one for her), or
    whether Toby's card goes back on top (a card worth playing) or to the bottom."""
    sit = Situation.of(kn)
    keeps = [a for a in legal if isinstance(a, Keep)]
    if len(keeps) == len(legal):
        return max(keeps, key=lambda a: best_use(sit, CARD_INDEX[a.card]))
    top = kn.top if kn.board is not None and kn.board.top_known else None
    if top is None:
        return next(a for a in legal if isinstance(a, Place) and not a.bottom)
    keep = best_use(sit, CARD_INDEX[top]) > 0
    return next(a for a in legal if isinstance(a, Place) and a.bottom != keep)
