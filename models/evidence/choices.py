"""The legal next words of an Evidence entry (taps on the page, Tab in the terminal).

From the rules and the public table, not word completion: the setup offers only what is unanswered; in play
the step the table waits for (an evidence just uncovered; else the seat whose turn it is, its rumour, its
search, its time-out or tool). A rumour of mine is one tap (colour and value); another player's offers the
colours they hold and the values with a copy left unseen; a search offers the stacks with cards, as many as
the player has room for; a time-out or tool offers its legal choices whole.
"""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from models.evidence.data import CARDS_PER_MYSTERY, COLOURS
from models.evidence.knowledge import EvidenceKnowledge, TableSetup
from models.evidence.rules import PLAY, UNCOVER, Table, extra_actions
from models.evidence.turns import EVIDENCE_STEP, TurnOrder
from solver.session import Choice

HAND_SIZE = 6  # rumours in a hand (each player's six)
WHOLE_OPTIONS = 12  # a time-out or tool with at most this many choices is offered as whole phrases


class Turn(Protocol):
    """Whose move it is and its step (the session's ``turn()``)."""

    seat: int | None
    phase: str
    colour: str | None


class EvidenceSession(Protocol):
    """What the choices read of the session (its module imports this one: no import back)."""

    setup: TableSetup
    knowledge: EvidenceKnowledge | None
    order: TurnOrder | None
    lines: list[str]

    def turn(self) -> Turn: ...


def choices(session: EvidenceSession, words: list[str]) -> list[Choice]:
    """The choices after the entry words ``words`` (none yet: the entries that may come now)."""
    if not words:
        return starters(session)
    s = session.setup
    words = [str(s.me) if w.lower() == "me" and s.me else w for w in words]
    verb, rest = words[0].lower(), words[1:]
    kn = session.knowledge
    if kn is None:
        return _setup(s, verb, rest)
    return _play(session, kn, verb, rest)


def command_args(session: EvidenceSession, command: str, words: list[str]) -> list[Choice]:
    """The words after 'why' and 'advise'."""
    kn = session.knowledge
    rest = words[1:]
    if kn is None:
        return []
    if command == "why":
        if not rest:
            return [Choice(c, complete=True) for c in COLOURS]
        if len(rest) == 1 and rest[0].lower() in COLOURS:
            dist = kn.distribution()[rest[0].lower()]
            return [Choice(str(v), complete=True) for v in sorted(dist) if dist[v] > 0]
        if len(rest) == 2:
            return [Choice("steps", ends=True)]
        return []
    if command == "advise":
        taken = {r.lower() for r in rest}
        return [Choice(w, complete=True) for w in ("all", "extra", "greedy") if w not in taken]
    return []


def starters(session: EvidenceSession) -> list[Choice]:
    """The entries that may come now: the unanswered setup, else what the turn waits for."""
    s = session.setup
    kn = session.knowledge
    if kn is None:
        if s.players is None:
            return [Choice("players", "players (how many)")]
        if s.me is None:
            return [Choice("me", "my seat")]
        out = []
        if not any(line.startswith("variant ") for line in session.lines):
            out.append(Choice("variant", "basic or professional"))
        if not any(line.startswith("start ") for line in session.lines):
            out.append(Choice("start", "who starts"))
        k = s.data.setup_revealed[s.players]
        have = Counter(c for c, _ in s.setup_cards)
        if k and any(have[c] < k for c in COLOURS):
            out.append(Choice("setup", "rumours revealed at setup"))
        elif not k and "setup" not in session.lines:
            out.append(Choice("setup", "no rumour revealed at setup", ends=True))
        if s.hand is None:
            out.append(Choice("hand", "my six rumours"))
        out += [Choice(f"holds {t}", f"player {t}'s rumours") for t in s.others() if t not in s.holds]
        if s.players == 2:
            out += [Choice(f"unknown {t}", f"unknown rumours of {t}") for t in (1, 2) if t not in s.unknown]
        return out
    turn = session.turn()
    t = kn.table
    if turn.phase == EVIDENCE_STEP:
        return [Choice(f"evidence {turn.colour}", f"the {turn.colour} evidence")]
    out = []
    extra = "tool" if t.pro else "timeout"
    for verb, label in (("reveal", "reveal"), ("play", "play"), ("search", "search"), (extra, extra)):
        for seat in _actors(session, verb):
            who = "I" if seat == kn.me else f"player {seat}"
            out.append(Choice(f"{verb} {seat}", f"{who}: {label}"))
    if t.pro and any(t.evidence[c] is None for c in COLOURS) and turn.phase != "over":
        out.append(Choice("look", "what my Fortune-Teller showed"))
    return out


def _actors(session: EvidenceSession, verb: str) -> list[int]:
    """The seats that may make an entry of ``verb`` now: the turn's player for a rumour; for a search, a
    time-out or a tool, the player who played this turn's rumour (until their time-out or tool ends it)."""
    kn = session.knowledge
    order = session.order
    if kn is None or order is None:
        return []
    t = kn.table
    turn = session.turn()
    if turn.phase in (EVIDENCE_STEP, "over") and verb not in ("search", "take", "timeout", "tool"):
        return []
    if verb in ("reveal", "play"):
        if (turn.phase, verb) in ((PLAY, "play"), (UNCOVER, "reveal")):
            return [turn.seat] if turn.seat is not None else []
        # My own turn goes on (a search, a time-out) while I have something to do; the next player may begin.
        begins = "reveal" if order.two_players else "play"
        nxt = order.starter() if verb == begins and order.step in ("played", "extra") and not order.pending else None
        return [nxt] if nxt is not None else []
    if order.step != "played" or order.over or order.pending:
        return []
    mover = order.mover
    if verb in ("search", "take"):
        return [mover] if t.room(mover) and any(t.available(c) for c in COLOURS) else []
    if (verb == "tool") != t.pro:
        return []
    return [mover] if extra_actions(t, mover) else []


def _values(table_or_setup: Table | TableSetup, colour: str) -> list[int]:
    data = table_or_setup.data
    return data.distinct_values(colour) if colour in COLOURS else []


def _pairs(rest: list[str], values: dict[str, list[int]], size: int | None,
           ends_at: int | None = None) -> list[Choice]:
    """Colour-value pairs ('white 3'): a colour, then its value (``size``: pairs in all, None: open ended)."""
    if len(rest) % 2 == 1:
        return [Choice(str(v), ends=ends_at is not None and len(rest) // 2 + 1 == ends_at)
                for v in values.get(rest[-1].lower(), [])]
    if size is not None and len(rest) // 2 >= size:
        return []
    return [Choice(c) for c in COLOURS if values.get(c)]


def _left_at_setup(s: TableSetup, rest: list[str]) -> dict[str, list[int]]:
    """Each colour's values with a copy left: not revealed at setup, not in my hand, not typed in ``rest``."""
    used = Counter((c, v) for c, v in [*s.setup_cards, *(s.hand or ())])
    for colour, value in zip(rest[0::2], rest[1::2], strict=False):
        if value.lstrip("-").isdigit():
            used[(colour.lower(), int(value))] += 1
    return {c: [v for v in s.data.distinct_values(c) if s.data.multiset(c)[v] > used[(c, v)]] for c in COLOURS}


def _hidden(s: TableSetup, typed: list[str]) -> dict[str, int]:
    """Each colour's rumours not yet placed: six a mystery, less the setup's, my hand, the evidence itself and
    the counts entered (``typed``: colour-count pairs being entered)."""
    out = {}
    for colour in COLOURS:
        seen = sum(1 for c, _ in [*s.setup_cards, *(s.hand or ())] if c == colour)
        held = sum(h[colour] for h in s.holds.values()) + sum(u[colour] for u in s.unknown.values())
        held += sum(int(n) for c, n in zip(typed[0::2], typed[1::2], strict=False) if c.lower() == colour
                    and n.isdigit())
        out[colour] = CARDS_PER_MYSTERY - seen - 1 - held
    return out


def _setup(s: TableSetup, verb: str, rest: list[str]) -> list[Choice]:
    if verb == "players":
        return [] if rest else [Choice(str(n), f"{n} players", ends=True) for n in range(2, 6)]
    if s.players is None:
        return []
    if verb in ("me", "start"):
        return [] if rest else [Choice(str(t), f"seat {t}", ends=True) for t in range(1, s.players + 1)]
    if verb == "variant":
        return [] if rest else [Choice("basic", ends=True), Choice("pro", "professional", ends=True)]
    if verb == "setup":
        k = s.data.setup_revealed[s.players]
        have = Counter(c for c, _ in s.setup_cards)
        needed = sum(max(0, k - have[c]) for c in COLOURS)
        have.update(c.lower() for c in rest[0: len(rest) - len(rest) % 2: 2])
        left = _left_at_setup(s, rest)
        values = {c: left[c] for c in COLOURS if have[c] < k}
        if len(rest) % 2 == 1 and rest[-1].lower() in COLOURS:
            values[rest[-1].lower()] = left[rest[-1].lower()]
        return _pairs(rest, values, needed, ends_at=needed)
    if verb == "hand":
        return _pairs(rest, _left_at_setup(s, rest), HAND_SIZE, ends_at=HAND_SIZE)
    if verb in ("holds", "unknown"):
        if not rest:
            return [Choice(str(t), f"player {t}") for t in range(1, s.players + 1) if t != s.me or verb == "unknown"]
        named = {c.lower() for c in rest[1::2]}
        hidden = _hidden(s, rest[1:])
        so_far = sum(int(n) for n in rest[2::2] if n.isdigit())
        if len(rest) % 2 == 0:
            room = min(HAND_SIZE - so_far, hidden.get(rest[-1].lower(), 0))
            if verb == "unknown":
                return [Choice(str(n), complete=True) for n in range(1, room + 1)]
            return [Choice(str(n), ends=so_far + n == HAND_SIZE) for n in range(1, room + 1)]
        if verb == "holds" and so_far >= HAND_SIZE:
            return []
        return [Choice(c) for c in COLOURS if c not in named and hidden[c] > 0]
    return []


def _left(t: Table, kn: EvidenceKnowledge, colour: str, value: int) -> int:
    """Copies of (colour, value) neither on the table nor in my hand."""
    multiset = t.data.multiset(colour)
    mine = sum(1 for c, v in kn.hand if c == colour and v == value)
    return multiset.get(value, 0) - t.public_copies(colour, value) - mine


def _play(session: EvidenceSession, kn: EvidenceKnowledge, verb: str, rest: list[str]) -> list[Choice]:
    t = kn.table
    turn = session.turn()
    if verb == "evidence":
        if turn.phase == EVIDENCE_STEP:
            colour = turn.colour
        elif turn.phase == "over":
            return []
        else:
            colour = None
        if not rest:
            return [Choice(colour)] if colour else []
        if len(rest) > 1 or (colour and rest[0].lower() != colour) or rest[0].lower() not in COLOURS:
            return []
        dist = kn.distribution()[rest[0].lower()]
        return [Choice(str(v), ends=True) for v in sorted(dist) if dist[v] > 0]
    if verb == "look":
        if not rest:
            return [Choice(c) for c in COLOURS if t.evidence[c] is None]
        if len(rest) == 1 and rest[0].lower() in COLOURS:
            dist = kn.distribution()[rest[0].lower()]
            return [Choice(str(v), ends=True) for v in sorted(dist) if dist[v] > 0]
        return []
    seats = _actors(session, verb)
    if not rest:
        return [Choice(str(seat), "me" if seat == kn.me else f"player {seat}") for seat in seats]
    if not rest[0].isdigit() or int(rest[0][:2]) not in seats:
        return []
    seat, more = int(rest[0]), rest[1:]
    if verb in ("play", "reveal"):
        if seat == kn.me and verb == "play":
            if not more:
                return [Choice(f"{c} {v}", f"{c} {v}", ends=True) for c, v in dict.fromkeys(kn.hand)]
            colour = more[0].lower()
            return [] if len(more) > 1 else [Choice(str(v), ends=True) for v in sorted({v for c, v in kn.hand
                                                                                       if c == colour})]
        held = t.hands[seat] if verb == "play" else t.unknown[seat]
        if not more:
            return [Choice(c) for c in COLOURS if held[c] > 0]
        colour = more[0].lower()
        if len(more) != 1 or held[colour] <= 0:
            return []
        return [Choice(str(v), ends=True) for v in t.data.distinct_values(colour) if _left(t, kn, colour, v) > 0]
    if verb in ("search", "take"):
        room = t.room(seat)
        if len(more) >= room:
            return []
        taken = Counter(c.lower() for c in more)
        last = len(more) + 1 == room
        return [Choice(c, ends=last, complete=True) for c in COLOURS if t.available(c) > taken[c]]
    if verb in ("timeout", "tool"):
        return _extra(t, seat, verb, more)
    return []


def _extra(t: Table, seat: int, verb: str, more: list[str]) -> list[Choice]:
    """A time-out or tool: each legal use whole when there are few, else word by word along the legal ones."""
    phrases = []
    for action in extra_actions(t, seat):
        colour = getattr(action, "colour", None)
        take = tuple(getattr(action, "take", ()) or ())
        words = [] if verb == "timeout" else [action.tool]  # type: ignore[attr-defined]
        if colour:
            words.append(colour)
        if take:
            words += ["for", *take]
        if (verb == "timeout") == (not t.pro):
            phrases.append(words)
    typed = [w.lower() for w in more]
    following = [p[len(typed):] for p in phrases
                 if [w.lower() for w in p[: len(typed)]] == typed and len(p) > len(typed)]
    whole = len(following) <= WHOLE_OPTIONS
    out: list[Choice] = []
    seen: set[str] = set()
    for tail in following:
        word = " ".join(tail) if whole else tail[0]
        if word in seen:
            continue
        seen.add(word)
        out.append(Choice(word, ends=whole or len(tail) == 1))
    return out
