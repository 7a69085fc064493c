"""The legal next words of a Thirteen Clues entry (taps on the page, Tab in the terminal).

Not word completion: each position offers what the rules and the knowledge allow there. The setup offers only
what is still unanswered; a card already seen (my private cards, a screen) is offered nowhere else; ``ask``
offers each count the asked player can still have answered; an informant offers the cards it can still be; an
accusation offers only cards its maker cannot see. A final word is kept only if the whole observation is
consistent with what is known (one solve, pooled worlds first).
"""

from __future__ import annotations

from typing import Protocol

from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, SUBCATEGORIES, GameData
from models.thirteen_clues.knowledge import MYSTERY, TableSetup, ThirteenCluesKnowledge
from models.thirteen_clues.observations import Accusation, Observation, Witness
from solver.errors import AssistantError
from solver.session import Choice

SIDES = ("left", "right")


class ThirteenCluesSession(Protocol):
    """What the choices read of the session (its module imports this one: no import back)."""

    setup: TableSetup
    knowledge: ThirteenCluesKnowledge | None
    data: GameData
    lines: list[str]


_BY_LOWER = {name.lower(): name for name in CARD_BY_NAME}
_FIRST_WORDS = {name.split()[0].lower() for name in CARD_BY_NAME if " " in name}


def join_names(words: list[str]) -> tuple[list[str], str | None]:
    """``words`` with each two-word card name as one word ("Race Course"), and a last word that only begins a
    two-word name (None if there is none): the choices then offer the rest of the name."""
    out: list[str] = []
    i = 0
    while i < len(words):
        pair = f"{words[i]} {words[i + 1]}".lower() if i + 1 < len(words) else ""
        if pair in _BY_LOWER:
            out.append(_BY_LOWER[pair])
            i += 2
            continue
        out.append(_BY_LOWER.get(words[i].lower(), words[i]))
        i += 1
    last = words[-1].lower() if words else ""
    if last in _FIRST_WORDS and last not in _BY_LOWER and (len(words) < 2 or
                                                            f"{words[-2]} {words[-1]}".lower() not in _BY_LOWER):
        return out[:-1], words[-1]
    return out, None


def _rest_of_name(found: list[Choice], first: str) -> list[Choice]:
    """The choices that continue a two-word name begun with ``first``."""
    head = first.lower() + " "
    return [Choice(c.word[len(head):], c.label, c.ends, c.complete) for c in found if c.word.lower().startswith(head)]


def choices(session: ThirteenCluesSession, words: list[str]) -> list[Choice]:
    """The choices after the entry words ``words`` (none yet: the entries that may come now)."""
    if not words:
        return starters(session)
    rest, dangling = join_names(words[1:])
    if dangling is not None:
        return _rest_of_name(choices(session, [words[0], *rest]), dangling)
    verb = words[0].lower()
    setup = session.setup
    kn = session.knowledge
    if verb == "players":
        return [] if rest else [Choice(str(n), f"{n} players", ends=True) for n in sorted(session.data.suits_removed)]
    if verb == "me":
        return [] if rest or setup.players is None else [
            Choice(str(s), f"seat {s}", ends=True) for s in range(1, setup.players + 1) if s not in setup.screens]
    if verb == "subcategories":
        return [] if rest else [Choice("on", ends=True), Choice("off", ends=True)]
    if verb == "private":
        return _private(session, rest)
    if verb == "screen":
        return _screen(session, rest)
    if kn is None:
        return []
    if verb in ("ask", "witness", "sees"):
        return _ask(kn, rest)
    if verb in ("informant", "inf"):
        return _informant(kn, rest)
    if verb in ("accuse", "accusation"):
        return _accuse(kn, rest)
    return []


def command_args(session: ThirteenCluesSession, command: str, words: list[str]) -> list[Choice]:
    """The words after a Thirteen Clues command: what-if entries, why's cards and places, advise's options, the
    seat order of a pasted Board Game Arena deal."""
    kn = session.knowledge
    if command == "seats":
        deal = session._bga
        left = [i for i in deal.ids if i not in words[1:]] if deal is not None else []
        return [Choice(i, f"player id {i}", ends=len(left) == 1) for i in left]
    rest, dangling = join_names(words[1:])
    if dangling is not None:
        return _rest_of_name(command_args(session, command, [words[0], *rest]), dangling)
    if kn is None:
        return []
    if command == "whatif":
        if not rest:
            clear = [Choice("clear", "clear what-ifs", ends=True)] if kn.knowledge.whatifs else []
            return [*clear, *starters(session)]
        return [] if rest[0].lower() == "clear" else choices(session, rest)
    if command == "why":
        if not rest:
            return [Choice(c, complete=True) for c in kn.unseen]
        if len(rest) == 1 and rest[0] in kn.unseen:
            places = [Choice("mystery", "in my mystery", complete=True)]
            places += [Choice(str(s), f"player {s}", complete=True) for s in kn.setup.seats_others()]
            places += [Choice(letter, f"informant {letter}", complete=True) for letter in kn.letters]
            return [*places, Choice("steps", "step by step", ends=True)]
        if len(rest) == 2 and rest[-1].lower() != "steps":
            return [Choice("steps", "step by step", ends=True)]
        return []
    if command == "advise":
        if not rest:
            return [Choice("all", "all moves", ends=True),
                    *(Choice(f"glasses {n}", f"holding {n} glasses", ends=True) for n in range(1, kn.players + 1))]
        return []
    return []


def starters(session: ThirteenCluesSession) -> list[Choice]:
    """The entries that may come now: the unanswered setup, else one phrase per question to ask (the asked
    player), per informant, and the accusation."""
    s = session.setup
    if session.knowledge is None:
        out: list[Choice] = []
        if session._bga is not None:
            return [Choice("seats", "the seat order of the BGA deal")]
        if s.players is None:
            out.append(Choice("players", "players (how many)"))
        elif s.me is None:
            out.append(Choice("me", "my seat"))
        if s.private is None:
            out.append(Choice("private", "my private cards"))
        if s.players is not None and s.me is not None:
            out += [Choice(f"screen {seat}", f"player {seat}'s screen")
                    for seat in s.seats_others() if seat not in s.screens]
        if not session.lines or s.players is None:
            out.append(Choice("subcategories", "sub-category house rule"))
        return out
    kn = session.knowledge
    if kn.winning_accusation() is not None:
        return []  # a right accusation ended the game
    out = [Choice(f"ask {seat}", "ask me" if seat == kn.me else f"ask player {seat}")
           for seat in range(1, kn.players + 1)]
    out += [Choice(f"informant {letter}", f"informant {letter}") for letter in kn.letters]
    out.append(Choice("accuse", "accusation"))
    return out


def _seen(session: ThirteenCluesSession, skip_seat: int | None = None) -> set[str]:
    """The cards the setup already placed: my private cards and every screen (but ``skip_seat``'s)."""
    s = session.setup
    out = set(s.private or ())
    for seat, screen in s.screens.items():
        if seat != skip_seat:
            out |= set(screen)
    return out


def _in_play(session: ThirteenCluesSession) -> list[str]:
    players = session.setup.players
    cards = session.data.cards_in_play(players) if players else tuple(CARD_BY_NAME.values())
    return [c.name for c in cards]


def _private(session: ThirteenCluesSession, rest: list[str]) -> list[Choice]:
    if len(rest) >= 2:
        return []
    taken = {c for seat, screen in session.setup.screens.items() for c in screen} | set(rest)
    return [Choice(c, ends=len(rest) == 1) for c in _in_play(session) if c not in taken]


def _screen(session: ThirteenCluesSession, rest: list[str]) -> list[Choice]:
    s = session.setup
    if s.players is None:
        return []
    if not rest:
        return [Choice(str(seat), f"player {seat}") for seat in s.seats_others()] if s.me is not None else []
    if not (rest[0].isdigit() and int(rest[0]) in range(1, s.players + 1)) or len(rest) > 3:
        return []
    taken = _seen(session, skip_seat=int(rest[0])) | set(rest[1:])
    category = CATEGORIES[len(rest) - 1]
    return [Choice(c, ends=len(rest) == 3) for c in _in_play(session)
            if CARD_BY_NAME[c].category == category and c not in taken]


def _fits(kn: ThirteenCluesKnowledge, obs: Observation) -> bool:
    """Whether ``obs`` is allowed now and consistent with everything known (what-ifs included)."""
    try:
        constraints = kn.constraints_for(obs)
    except AssistantError:
        return False
    return kn.knowledge.find(constraints) is not None


def _seat(kn: ThirteenCluesKnowledge, word: str) -> int | None:
    return int(word) if word.isascii() and word.isdigit() and 1 <= int(word[:2]) <= kn.players else None


def _ask(kn: ThirteenCluesKnowledge, rest: list[str]) -> list[Choice]:
    """'ask SEAT SUBJECT [SIDE] COUNT': the subjects in play, then each count SEAT can have answered."""
    if not rest:
        return [Choice(str(s), "me" if s == kn.me else f"player {s}") for s in range(1, kn.players + 1)]
    seat = _seat(kn, rest[0])
    if seat is None:
        return []
    subjects = [*kn.setup.data.suits_in_play(kn.players), *CATEGORIES]
    if kn.setup.subcategories:
        subjects += [s for pair in SUBCATEGORIES.values() for s in pair]
    if len(rest) == 1:
        return [Choice(s) for s in subjects]
    subject = next((s for s in subjects if s.lower() == rest[1].lower()), None)
    if subject is None:
        return []
    two = kn.players == 2
    if two and len(rest) == 2:  # the side and its count in one tap, for each that fits
        return [Choice(f"{side} {n}", f"{side}: {n}", ends=True) for side in SIDES
                for n in range(len(kn.matching(subject)) + 1) if _fits(kn, Witness(seat, subject, n, side))]
    side = rest[2].lower() if two else None
    if side is not None and side not in SIDES:
        return []
    if len(rest) != (3 if two else 2):
        return []
    counts = range(len(kn.matching(subject)) + 1)
    return [Choice(str(n), ends=True) for n in counts if _fits(kn, Witness(seat, subject, n, side))]


def _informant(kn: ThirteenCluesKnowledge, rest: list[str]) -> list[Choice]:
    """'informant LETTER CARD' (the cards it can still be) or 'informant LETTER by SEAT' (another player)."""
    if not rest:
        return [Choice(letter) for letter in kn.letters]
    letter = rest[0].upper()
    if letter not in kn.letters:
        return []
    if len(rest) == 1:
        possible = kn.knowledge.possible()
        cards = [Choice(c, ends=True) for c in kn.unseen if letter in possible[c]]
        return [*cards, *(Choice(f"by {s}", f"player {s} looks", ends=True) for s in kn.setup.seats_others())]
    if len(rest) == 2 and rest[1].lower() == "by":
        return [Choice(str(s), f"player {s}", ends=True) for s in kn.setup.seats_others()]
    return []


def _accuse(kn: ThirteenCluesKnowledge, rest: list[str]) -> list[Choice]:
    """'accuse SEAT PERSON LOCATION WEAPON wrong|right': only cards the accuser cannot see, then the answers
    that fit."""
    if not rest:
        return [Choice(str(s), "I accuse" if s == kn.me else f"player {s}") for s in range(1, kn.players + 1)]
    seat = _seat(kn, rest[0])
    if seat is None or len(rest) > 4:
        return []
    if any(c not in kn.in_play for c in rest[1:]):
        return []  # a word that is no card in play (typed by hand): nothing can follow it
    if len(rest) == 4:
        cards = rest[1:4]
        return [Choice(word, ends=True) for word, correct in (("wrong", False), ("right", True))
                if _fits(kn, Accusation(seat, *cards, correct))]
    # The maker sees every screen but their own (mine, my mystery, is unknown to me) and their private cards.
    visible = {c for other, screen in kn.setup.screens.items() if other != seat for c in screen}
    if seat == kn.me:
        visible |= set(kn.private)
    possible = kn.knowledge.possible()
    category = CATEGORIES[len(rest) - 1]
    out = []
    for c in kn.in_play:
        if CARD_BY_NAME[c].category != category or c in visible:
            continue
        if seat != kn.me and c in kn.unseen and possible[c] <= {MYSTERY, *kn.private_places(seat)}:
            continue  # the card is on the accuser's side or in my mystery, so it is theirs to see
        out.append(Choice(c))
    return out
