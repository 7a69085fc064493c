"""The legal next words of a Time Bomb Evolution entry (taps on the page, Tab in the terminal).

From the rules and the knowledge: the setup offers only what is unanswered; in play the cutter's step the
table waits for (whom to cut, the colour to cover or uncover, the red bomb's number, the new hand), and the
claims of the players who have not claimed this round. A cut offers only the players the cutter may cut, one
tap each, then the cards that player can still hold (hard facts: a card they cannot hold is never offered; my
own cut offers the cards I hold); a claim offers 0 to the cards the player holds.
"""

from __future__ import annotations

from typing import Protocol

from models.time_bomb.data import DEFUSE, MORIARTY, SHERLOCK, GameData
from models.time_bomb.knowledge import TableSetup, TimeBombKnowledge
from models.time_bomb.observations import MAX_PLAYERS, MIN_PLAYERS
from models.time_bomb.rules import COVER, CUT, DRAW, EXTRA, REDEAL, UNCOVER
from solver.session import Choice

WHY_KINDS = ("role", "claim", "inplay", "holds", "cut")


class TimeBombSession(Protocol):
    """What the choices read of the session (its module imports this one: no import back)."""

    setup: TableSetup
    knowledge: TimeBombKnowledge | None
    data: GameData


def choices(session: TimeBombSession, words: list[str]) -> list[Choice]:
    """The choices after the entry words ``words`` (none yet: the entries that may come now)."""
    if not words:
        return starters(session)
    s = session.setup
    words = [str(s.me) if w.lower() == "me" and s.me else w for w in words]
    verb, rest = words[0].lower(), words[1:]
    kn = session.knowledge
    if verb == "players":
        return [] if rest else [Choice(str(n), f"{n} players", ends=True) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    if verb in ("me", "start"):
        return [] if rest or s.players is None else [
            Choice(str(t), f"seat {t}", ends=True) for t in range(1, s.players + 1)]
    if verb == "role":
        return [] if rest else [Choice(SHERLOCK, ends=True), Choice(MORIARTY, ends=True)]
    if verb in ("colours", "colors") and kn is None:
        return [Choice(c, c) for c in session.data.colours if c not in (w.lower() for w in rest)]
    if verb == "hand" and kn is None and s.players is not None:
        return _hand(session.data.setup(s.players).types, session.data.setup(s.players).hand_sizes[0], rest)
    if kn is None:
        return []
    return _play(kn, verb, rest)


def command_args(session: TimeBombSession, command: str, words: list[str]) -> list[Choice]:
    """The words after 'why', 'holdings' and 'advise'."""
    kn = session.knowledge
    rest = [str(kn.me) if kn is not None and w.lower() == "me" else w for w in words[1:]]
    if kn is None:
        return []
    seats = [Choice(str(t), "me" if t == kn.me else f"player {t}", ends=True) for t in kn.table.seats]
    if command == "holdings":
        return [] if rest else seats
    if command == "advise":
        return [] if rest else [Choice("all", ends=True)]
    if command != "why":
        return []
    if not rest:
        return [Choice(kind) for kind in WHY_KINDS]
    kind = rest[0].lower()
    if len(rest) == 1:
        if kind in ("role", "cut"):
            return seats
        if kind == "claim":
            return [Choice(str(c.number), f"claim {c.number}: {c.seat} said {c.claimed}", ends=True)
                    for c in kn.claims]
        if kind == "inplay":
            return [Choice(c) for c in kn.setup.colours]
        if kind == "holds":
            return [Choice(str(t), "me" if t == kn.me else f"player {t}") for t in kn.table.seats]
    if kind == "inplay" and len(rest) == 2:
        return [Choice(str(k), complete=True) for k in range(kn.setup.bombs_per_colour + 1)]
    if kind == "inplay" and len(rest) == 3:
        return [Choice("steps", ends=True)]
    if kind == "holds" and len(rest) == 2:
        return [Choice(c) for c in kn.setup.types]
    if kind == "holds" and len(rest) == 3:
        return [Choice(str(k), ends=True) for k in range(kn.table.sizes.get(int(rest[1]), 0) + 1)] \
            if rest[1].isdigit() else []
    return []


def starters(session: TimeBombSession) -> list[Choice]:
    """The entries that may come now: the unanswered setup, else the cutter's step and the claims."""
    s = session.setup
    kn = session.knowledge
    if kn is None:
        if s.players is None:
            return [Choice("players", "players (how many)")]
        out = []
        if s.me is None:
            out.append(Choice("me", "my seat"))
        if s.role is None:
            out.append(Choice("role", "my role"))
        if s.start is None:
            out.append(Choice("start", "who holds the cutter"))
        if s.hand is None:
            out.append(Choice("hand", "my cards"))
        if s.colours is None:
            out.append(Choice("colours", "bomb colours in play"))
        return out
    t = kn.table
    if t.over:
        return []
    out = [*_claims(kn)]
    if t.phase in (CUT, EXTRA):
        targets = [t.extra_target] if t.phase == EXTRA and t.extra_target is not None else t.targets()
        out = [Choice(f"cut {seat}", "cut my card" if seat == kn.me else f"cut player {seat}")
               for seat in targets] + out
    elif t.phase == COVER:
        out = [Choice(f"cover {c}", f"cover {c}", ends=True) for c in t.coverable()]
    elif t.phase == UNCOVER:
        out = [Choice(f"uncover {c}", f"uncover {c}", ends=True) for c in t.covered]
    elif t.phase == DRAW:
        out = [Choice(f"draw {k}", f"drew {k}", ends=True) for k in t.setup.numbers]
    elif t.phase == REDEAL:
        out = [Choice("redeal", "my new hand")]
    return out


def _claims(kn: TimeBombKnowledge) -> list[Choice]:
    """A claim for each player who has not claimed this round, from the cutter clockwise."""
    t = kn.table
    if t.phase == REDEAL:
        return []
    claimed = {c.seat for c in kn.claims if c.round == t.round}
    order = [(t.cutter - 1 + i) % t.players + 1 for i in range(t.players)]
    return [Choice(f"claim {seat}", "my claim" if seat == kn.me else f"player {seat} claims")
            for seat in order if seat not in claimed]


def _hand(types: tuple[str, ...], size: int, rest: list[str]) -> list[Choice]:
    """The cards of a hand of ``size``, one tap each (the last one ends it)."""
    if len(rest) >= size:
        return []
    return [Choice(c, ends=len(rest) == size - 1) for c in types]


def _play(kn: TimeBombKnowledge, verb: str, rest: list[str]) -> list[Choice]:
    t = kn.table
    seat = int(rest[0]) if rest and rest[0].isdigit() and int(rest[0][:2]) in t.seats else None
    if verb == "claim":
        if not rest:
            return [Choice(c.word.split()[1], c.label) for c in _claims(kn)]
        if seat is None or len(rest) > 1:
            return []
        if seat == kn.me:
            held = kn.my_hand().get(DEFUSE, 0)
            return [Choice(str(k), ends=True, label=f"{k}" + ("" if k == held else " (a bluff)"))
                    for k in range(t.sizes[seat] + 1)]
        return [Choice(str(k), ends=True) for k in range(t.sizes[seat] + 1)]
    if verb == "cut":
        if t.phase not in (CUT, EXTRA):
            return []
        targets = [t.extra_target] if t.phase == EXTRA and t.extra_target is not None else t.targets()
        if not rest:
            return [Choice(str(s), "me" if s == kn.me else f"player {s}") for s in targets]
        if seat is None or seat not in targets or len(rest) > 1:
            return []
        return [Choice(c, ends=True) for c in _cuttable(kn, seat)]
    if verb in ("cover", "uncover"):
        phase, colours = (COVER, t.coverable()) if verb == "cover" else (UNCOVER, list(t.covered))
        return [] if rest or t.phase != phase else [Choice(c, ends=True) for c in colours]
    if verb == "draw":
        return [] if rest or t.phase != DRAW else [Choice(str(k), ends=True) for k in t.setup.numbers]
    if verb == "redeal":
        if t.phase != REDEAL:
            return []
        return _hand(kn.setup.types, t.next_sizes()[kn.me], rest)
    return []


def _cuttable(kn: TimeBombKnowledge, seat: int) -> list[str]:
    """The cards ``seat`` can still hold (hard facts only: a bluff never rules a card out)."""
    if seat == kn.me:
        return [c for c, n in kn.my_hand().items() if n > 0]
    hard = kn.belief(False)
    out = []
    for card in kn.setup.types:
        dist = hard.defuser_distribution(seat) if card == DEFUSE else hard.colour_distribution(seat, card)
        if dist.get(0, 0.0) < 1.0:
            out.append(card)
    return out
