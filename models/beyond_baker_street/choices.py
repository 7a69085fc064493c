"""The legal next words of a Beyond Baker Street entry (taps on the page, Tab in the terminal).

From the rules and the knowledge, not from word completion: during the setup only the unanswered entries; in
play only the entry the table waits for (a draw, a Lead to reveal, a card to bury) or the actions of the seat
whose turn it is; a hand I see offers at each position its one visible card (as one tap with the position), my
own hand the cards that position can still be; an Assist to a hand I see is one tap per number or icon in it
(its positions follow), to me one tap per set of positions the knowledge allows; sections only where the
action is legal. An entry's last word is kept only if the session would accept the whole entry.
"""

from __future__ import annotations

from itertools import combinations
from typing import Protocol

from models.beyond_baker_street.data import ICONS, LEAD_VALUES, NUMBERS, SECTIONS, Evidence, GameData
from models.beyond_baker_street.knowledge import HandKnowledge
from models.beyond_baker_street.observations import SECTION_NAMES, Confirmed, Investigated, Pursued
from solver.errors import AssistantError
from solver.session import Choice

#: Character actions: the entry verb and the kind of Character that has it.
CHARACTER_VERBS = {"advance": "advance_holmes", "exchange": "swap_impossible", "swap": "swap_hand",
                   "return": "return_impossible", "peek": "peek"}
SUBJECTS: tuple[int | str, ...] = (*NUMBERS, *ICONS)


class BeyondBakerStreetSession(Protocol):
    """What the choices read of the session (its module imports this one: no import back)."""

    _kn: HandKnowledge
    data: GameData
    lines: list[str]

    @property
    def knowledge(self) -> HandKnowledge | None: ...

    def fits(self, line: str) -> bool: ...


def choices(session: BeyondBakerStreetSession, words: list[str]) -> list[Choice]:
    """The choices after the entry words ``words`` (none yet: the entries that may come now)."""
    kn = session._kn
    if not words:
        return starters(session)
    words = [str(kn.setup.me) if w.lower() == "me" and kn.setup.me else w for w in words]
    verb, rest = words[0].lower(), words[1:]
    if not kn.started:
        return _setup(session, verb, rest)
    return _play(session, kn, verb, rest)


def command_args(session: BeyondBakerStreetSession, command: str, words: list[str]) -> list[Choice]:
    """The words after 'why', 'empathy' and 'advise'."""
    kn = session.knowledge
    rest = words[1:]
    if kn is None:
        return []
    if command == "why":
        held = len(kn.hands[kn.me])
        if not rest:
            return [Choice(str(p), f"position {p}", complete=True) for p in range(1, held + 1)]
        if len(rest) == 1 and rest[0].isdigit() and 1 <= int(rest[0][:2]) <= held:
            return [Choice(c.code, c.name, complete=True) for c in kn.hand()[int(rest[0]) - 1]]
        if len(rest) == 2:
            return [Choice("steps", "step by step", ends=True)]
        return []
    if command == "empathy":
        return [] if rest else [Choice(str(s), f"player {s}", ends=True) for s in kn.hands if s != kn.me]
    if command == "advise":
        return [Choice(w, complete=True) for w in ("all", "hat") if w not in [r.lower() for r in rest]]
    return []


def starters(session: BeyondBakerStreetSession) -> list[Choice]:
    """The entries that may come now, as first taps (a verb with the seat it must name, where there is one)."""
    kn = session._kn
    s = kn.setup
    if not kn.started:
        out: list[Choice] = []
        if s.players is None:
            return [Choice("players", "players (how many)")]
        if s.me is None:
            return [Choice("me", "my seat")]
        if s.case is None:
            out.append(Choice("case", "Case File"))
        if not s.no_characters and not s.hands:
            out += [Choice(f"character {t}", f"player {t}'s Character") for t in range(1, s.players + 1)
                    if t not in s.characters]
        if not s.start_given and not s.characters:
            out.append(Choice("start", "who starts"))
        out += [Choice(f"hand {t}", f"player {t}'s hand") for t in range(1, s.players + 1)
                if t != s.me and t not in s.hands]
        if len({e.lead.section for e in s.leads}) < len(SECTIONS):
            out.append(Choice("lead", "a face-up Lead"))
        return out
    board = kn.board
    assert board is not None
    if board.over:
        return []
    if board.pending:
        kind, what = board.pending[0]
        if kind == "reveal":
            return [Choice("lead", f"the next {what} Lead")]
        return [Choice(f"{kind} {what}", f"player {what} {'draws' if kind == 'draw' else 'buries'}")]
    seat = board.current
    who = "I" if seat == kn.me else f"player {seat}"
    out = [Choice(f"assist {seat}", f"{who}: Assist"), Choice(f"investigate {seat}", f"{who}: Investigate"),
           Choice(f"eliminate {seat}", f"{who}: Eliminate")]
    out += [Choice(f"{verb} {seat}", f"{who}: {verb.capitalize()}") for verb in ("confirm", "pursue")
            if _sections(session, f"{verb} {seat}")]
    out += [Choice(f"{verb} {seat}", f"{who}: {verb}", ends=verb == "advance")
            for verb, kind in CHARACTER_VERBS.items() if board.can_use(seat, kind)]
    return out


def _seats(kn: HandKnowledge, skip: int | None = None) -> list[Choice]:
    players = kn.setup.players or 4
    return [Choice(str(t), "me" if t == kn.setup.me else f"player {t}") for t in range(1, players + 1) if t != skip]


def _setup(session: BeyondBakerStreetSession, verb: str, rest: list[str]) -> list[Choice]:
    kn = session._kn
    s = kn.setup
    data = session.data
    if verb == "players":
        return [] if rest else [Choice(str(n), f"{n} players", ends=True) for n in sorted(data.hand_sizes)]
    if s.players is None:
        return []
    if verb in ("me", "start"):
        return [] if rest else [Choice(str(t), f"seat {t}", ends=True) for t in range(1, s.players + 1)]
    if verb == "case":
        return [] if rest else [Choice(str(n), f"Case File {n}", ends=True) for n in sorted(data.case_files)]
    if verb == "character":
        if not rest:
            return [Choice(str(t), f"player {t}") for t in range(1, s.players + 1) if t not in s.characters]
        if len(rest) > 1:
            return []
        taken = {str(name) for name in s.characters.values()}
        names = sorted(data.characters.values(), key=lambda c: c.order)
        return [*(Choice(c.name.replace(" ", "_"), c.name, ends=True) for c in names if c.name not in taken),
                Choice("none", "no Characters", ends=True)]
    if verb == "hand":
        if not rest:
            return [Choice(str(t), f"player {t}") for t in range(1, s.players + 1) if t != s.me and t not in s.hands]
        size = data.hand_size(s.players)
        if len(rest) > size:
            return []
        taken = {c for hand in s.hands.values() for c in hand} | {c.code for c in _cards(rest[1:])}
        taken |= {e.lead for e in s.leads}
        return [Choice(c.code, c.name, ends=len(rest) == size) for c in data.evidence
                if c not in taken and c.code not in taken]
    if verb == "lead":
        if rest:
            return []
        have = {e.lead.section for e in s.leads}
        return [Choice(f"{value}{icon[0]}", f"{section} {value} {icon}", ends=True)
                for section, values in LEAD_VALUES.items() if section not in have
                for value in values for icon in ICONS]
    return []


def _cards(codes: list[str]) -> list[Evidence]:
    from models.beyond_baker_street.observations import take_evidence

    out = []
    for code in codes:
        try:
            out.append(take_evidence([code], 0, "")[0])
        except Exception:  # noqa: BLE001 - a word typed by hand that is no card: it takes no card away
            continue
    return out


def _play(session: BeyondBakerStreetSession, kn: HandKnowledge, verb: str, rest: list[str]) -> list[Choice]:
    board = kn.board
    assert board is not None
    line = " ".join([verb, *rest])
    if verb == "lead":
        if rest or not board.pending or board.pending[0][0] != "reveal":
            return []
        section = board.pending[0][1]
        seen = board.seen_leads
        return [Choice(f"{value}{icon[0]}", f"{section} {value} {icon}", ends=True)
                for value in LEAD_VALUES[str(section)] for icon in ICONS
                if all(lead.code != f"{value}{icon[0]}" for lead in seen)]
    if verb in ("draw", "bury"):
        if not rest:
            if not board.pending or board.pending[0][0] != verb:
                return []
            return [Choice(str(board.pending[0][1]), complete=session.fits(f"{verb} {board.pending[0][1]}"))]
        if len(rest) > 1:
            return []
        if verb == "draw":
            # Another player draws from the deck: any unseen card that is not certainly in my hand (a card is
            # at one position at most, so the sum of its exact probabilities is the chance it is in my hand).
            mine = kn.hand()
            return [Choice(c.code, c.name, ends=True) for c in kn.unseen()
                    if sum(d.get(c, 0.0) for d in mine) < 1 - 1e-12]
        return [Choice(c.code, c.name, ends=True) for c in kn.unseen() if session.fits(f"{line} {c.code}")]
    seat = board.current
    if not rest:
        return [Choice(str(seat), "me" if seat == kn.me else f"player {seat}")]
    if rest[0] != str(seat):
        return []
    hand = kn.hands.get(seat, [])
    if verb in ("investigate", "inv", "eliminate", "elim"):
        section_next = verb.startswith("inv")
        if len(rest) == 1:
            if seat == kn.me:
                return [Choice(str(p), f"position {p}") for p in range(1, len(hand) + 1)]
            return [Choice(f"{p} {slot.card.code}", f"{p}: {slot.card.name}", ends=not section_next)
                    for p, slot in enumerate(hand, 1) if slot.card is not None]
        pos = rest[1]
        if not pos.isdigit() or not 1 <= int(pos[:2]) <= len(hand):
            return []
        slot = hand[int(pos) - 1]
        cards = [slot.card] if slot.card is not None else list(kn.hand()[int(pos) - 1])
        if len(rest) == 2:
            offered = [Choice(c.code, c.name, ends=not section_next) for c in cards]
            if section_next and slot.card is None:  # my card, unseen: the Lead may come first, as at the table
                offered += [Choice(sec) for sec in _lead_sections(kn, seat, int(pos), cards)]
            return offered
        if len(rest) == 3 and section_next and rest[2] in SECTION_NAMES:  # the Lead came first
            return [Choice(c.code, c.name, ends=True) for c in cards if session.fits(f"{line} {c.code}")]
        if len(rest) == 3 and section_next:
            return [Choice(sec, ends=True) for sec in _sections(session, line)]
        return []
    if verb in ("confirm", "pursue"):
        return [Choice(sec, ends=True) for sec in _sections(session, line)] if len(rest) == 1 else []
    if verb in ("assist", "hint"):
        return _assist(session, kn, seat, rest)
    if verb in CHARACTER_VERBS:
        return _character(session, kn, verb, seat, rest[1:])
    return []


def _character(session: BeyondBakerStreetSession, kn: HandKnowledge, verb: str, seat: int,
               more: list[str]) -> list[Choice]:
    """The words of a Character action after its seat, each last word kept only if the entry fits."""
    board = kn.board
    assert board is not None
    line = " ".join([verb, str(seat), *more])
    impossible = [c for c in board.impossible if isinstance(c, Evidence)]
    on_leads = [c for ls in board.leads.values() for c in (*ls.evidence, *ls.raised)]

    def last(cards: list[Evidence]) -> list[Choice]:
        return [Choice(c.code, c.name, ends=True) for c in dict.fromkeys(cards) if session.fits(f"{line} {c.code}")]

    if verb == "return":
        return last(impossible) if not more else []
    if verb == "exchange":
        if not more:
            return [Choice(c.code, c.name) for c in dict.fromkeys(impossible)]
        return last(on_leads) if len(more) == 1 else []
    if verb == "peek":
        ends = [Choice(w, ends=True) for w in ("top", "bottom") if session.fits(f"{line} {w}")]
        if more or seat != kn.me:
            return ends if len(more) <= 1 and (not more or seat == kn.me) else []
        return [*(Choice(c.code, c.name) for c in kn.unseen()), *ends]
    if verb == "swap":
        hand = kn.hands[seat]
        if not more:
            return [Choice(str(p), f"position {p}") for p in range(1, len(hand) + 1)]
        if len(more) == 1:
            return [Choice(str(t), "me" if t == kn.me else f"player {t}") for t in kn.hands if t != seat]
        if len(more) == 2 and more[1].isdigit() and int(more[1][:2]) in kn.hands:
            return [Choice(str(p), f"position {p}") for p in range(1, len(kn.hands[int(more[1])]) + 1)]
        if len(more) in (3, 4) and more[0].isdigit() and more[2].isdigit():
            which, pos = (seat, more[0]) if len(more) == 3 else (int(more[1]), more[2])
            if which not in kn.hands or not 1 <= int(pos[:2]) <= len(kn.hands[which]):
                return []
            slot = kn.hands[which][int(pos) - 1]
            cards = [slot.card] if slot.card is not None else list(kn.hand(which)[int(pos) - 1])
            return [Choice(c.code, c.name) for c in cards] if len(more) == 3 else last(cards)
        return []
    return []


def _lead_sections(kn: HandKnowledge, seat: int, position: int, cards: list[Evidence]) -> list[str]:
    """The sections an Investigate from ``position`` can go to with at least one of the ``cards`` it can be
    (the board's own rule check, which changes nothing), in the board's order."""
    board = kn.board
    assert board is not None
    out = []
    for section in SECTIONS:
        for card in cards:
            try:
                board.check(Investigated(seat, position, card, section))  # type: ignore[arg-type]
            except AssistantError:
                continue
            out.append(section)
            break
    return out


def _sections(session: BeyondBakerStreetSession, line: str) -> list[str]:
    """The sections that end ``line`` ('confirm SEAT', 'pursue SEAT', 'investigate SEAT POS CARD') into an
    action the board allows: its own rule check (:meth:`Board.check`), which changes nothing."""
    kn = session._kn
    board = kn.board
    assert board is not None
    words = line.split()
    seat = int(words[1])
    out = []
    for section in SECTIONS:
        if words[0] == "confirm":
            event: object = Confirmed(seat, section)
        elif words[0] == "pursue":
            event = Pursued(seat, section)
        else:
            card = _cards(words[3:4])
            if not card:
                return []
            event = Investigated(seat, int(words[2]), card[0], section)
        try:
            board.check(event)  # type: ignore[arg-type]
        except AssistantError:
            continue
        out.append(section)
    return out


def _assist(session: BeyondBakerStreetSession, kn: HandKnowledge, giver: int, rest: list[str]) -> list[Choice]:
    """'assist GIVER TARGET SUBJECT at POS ...': to a hand I see, each number or icon in it with its positions
    (one tap); to me, each subject, then each set of positions the knowledge allows. Lady Hilda Hope may give a
    second Assist in the same action ('... and TARGET SUBJECT at POS ...')."""
    board = kn.board
    assert board is not None
    double = board.can_use(giver, "double_assist")
    lowered = [w.lower() for w in rest]
    if double and "and" in lowered:
        cut = lowered.index("and")
        head = " ".join(["assist", *rest[:cut], "and"])
        return _assist_part(session, kn, giver, rest[cut + 1:], head, last=True)
    found = _assist_part(session, kn, giver, rest[1:], f"assist {giver}", last=not double)
    if double and not found and len(rest) > 3 and session.fits(" ".join(["assist", *rest])):
        return [Choice("and", "and a second Assist")]
    return found


def _assist_part(session: BeyondBakerStreetSession, kn: HandKnowledge, giver: int, words: list[str], head: str,
                 last: bool) -> list[Choice]:
    """One Assist after ``head`` ('TARGET SUBJECT at POS ...'); ``last``: nothing may follow it."""
    if not words:
        return _seats(kn, skip=giver)
    target = words[0]
    if not target.isdigit() or int(target[:2]) not in kn.hands or int(target) == giver:
        return []
    hand = kn.hands[int(target)]
    head = f"{head} {target}"
    if int(target) != kn.me:
        if len(words) > 1:
            return []
        out = []
        for subject in SUBJECTS:
            positions = [p for p, slot in enumerate(hand, 1) if slot.card is not None and _has(slot.card, subject)]
            phrase = f"{subject} at {' '.join(map(str, positions))}"
            if positions and session.fits(f"{head} {phrase}"):
                out.append(Choice(phrase, f"{subject}: {', '.join(map(str, positions))}", ends=last, complete=True))
        return out
    if len(words) == 1:
        return [Choice(str(subject)) for subject in SUBJECTS]
    subject = words[1]
    if len(words) != 2:
        return []
    dists = kn.hand()
    sets = []
    for k in range(1, len(hand) + 1):
        for chosen in combinations(range(1, len(hand) + 1), k):
            if all(any(_has(c, subject) for c in dists[p - 1]) for p in chosen) and all(
                    any(not _has(c, subject) for c in dists[p - 1]) for p in range(1, len(hand) + 1)
                    if p not in chosen):
                phrase = f"at {' '.join(map(str, chosen))}"
                if session.fits(f"{head} {subject} {phrase}"):
                    sets.append(Choice(phrase, f"at {', '.join(map(str, chosen))}", ends=last, complete=True))
    return sets


def _has(card: Evidence, subject: int | str) -> bool:
    """Whether an Assist naming ``subject`` (a number, or an icon, as typed) names ``card``."""
    text = str(subject)
    if text.isdigit():
        return card.number == int(text)
    return card.icon.lower() == text.lower()
