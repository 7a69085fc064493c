"""The public table of Beyond Baker Street: Leads, the Impossible, the Holmes and Investigation tracks, the
deck size, how many cards each player holds, whose turn it is, and the game's end.

Everything here is seen by every player, so one class serves both the rules engine (which also holds the hidden
cards) and each player's knowledge model (which also holds what that player can see): both feed it the same
events (:mod:`models.beyond_baker_street.observations`) and get the same rule checks and consequences. Rulebook
sections implemented: Investigate (matching evidence, Dead Leads, mismatched icons raising the target), Confirm,
Eliminate, Pursue, Assist (Holmes), The Impossible (its limit), Game End.

Character cards (RULES-NOTES "Beyond Baker Street Characters", data in
:data:`models.beyond_baker_street.data.CHARACTERS`): each kind is one small rule change, in the method named
after it below (``_calm_eliminate``, ``may_assist``, ...); they take precedence over the base rules.

Follow-ups: after a Dead Lead or a Pursue the next Lead of that section must be revealed, and after Investigate
or Eliminate the player draws (when the deck has cards), in that order (the rulebook shuffles a Dead Lead's
evidence into the deck before the draw). :attr:`Board.pending` lists them; the next action waits for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from models.beyond_baker_street.data import DEFAULT_DATA, SECTIONS, CaseFile, Character, Evidence, GameData, Lead
from models.beyond_baker_street.observations import (
    ASSISTED,
    CHARACTER_EVENTS,
    FOLLOW_UPS,
    PLAYED,
    Advanced,
    Assisted,
    Buried,
    Confirmed,
    DoubleAssisted,
    Drew,
    Eliminated,
    Event,
    Exchanged,
    HandSwapped,
    Investigated,
    LeadRevealed,
    Peeked,
    Pursued,
    Returned,
    Subject,
    matches,
    subject_plural,
)
from solver.errors import IllegalActionError, InvalidObservationError
from solver.text import plural

WON, LOST = "won", "lost"


@dataclass
class LeadState:
    """One Lead section: the face-up Lead, the face-down cards under it, and the Evidence played to it."""

    section: str
    lead: Lead | None = None
    pile: int = 0  # face-down Lead cards still below the face-up one
    evidence: list[Evidence] = field(default_factory=list)  # matching icon: counts towards the value
    raised: list[Evidence] = field(default_factory=list)  # mismatched icon: raises the value
    confirmed: bool = False

    @property
    def target(self) -> int:
        """The Lead's value plus every mismatched card played to it."""
        assert self.lead is not None
        value = self.lead.value
        for c in self.raised:  # a loop, not sum() of a generator: every player's advice reads this many times
            value += c.number
        return value

    @property
    def total(self) -> int:
        total = 0
        for c in self.evidence:
            total += c.number
        return total

    @property
    def need(self) -> int:
        """Evidence still needed to Confirm (0: it can be confirmed)."""
        return self.target - self.total

    @property
    def icon(self) -> str:
        assert self.lead is not None
        return self.lead.icon

    def copy(self) -> LeadState:
        other = object.__new__(LeadState)
        other.__dict__.update(self.__dict__)
        other.evidence, other.raised = list(self.evidence), list(self.raised)
        return other

    def describe(self) -> str:
        """The Lead in words a player would say: "Motive 9W: 6 of 9 (2W 4W); 2 Leads below it"."""
        if self.lead is None:
            return f"{self.section}: no Lead"
        played = " ".join(c.code for c in self.evidence)
        if self.confirmed:
            state = f"confirmed with {played}"
        else:
            state = f"{self.total} of {self.target}" + (f" ({played})" if played else ", no evidence yet")
        raised = (f"; target raised from {self.lead.value} by {' '.join(c.code for c in self.raised)}"
                  if self.raised else "")
        below = f"{plural(self.pile, 'Lead')} below it" if self.pile else "no Lead below it (the last one)"
        return f"{self.section} {self.lead.code}: {state}{raised}; {below}"


#: Per kind of event, which of ``seat``, ``giver`` and ``target`` it has (:meth:`Board.check` reads those seats
#: on every entry of every player; ``getattr`` with a default pays for a caught error on each missing one).
_SEAT_NAMES: dict[type, tuple[str, ...]] = {}


@dataclass
class Board:
    """The public state of one game (see module docstring)."""

    players: int
    case: CaseFile
    first: int = 1
    data: GameData = DEFAULT_DATA
    holmes: int = 0
    track: int = 0
    impossible: list[Evidence | Lead] = field(default_factory=list)
    leads: dict[str, LeadState] = field(default_factory=dict)
    deck: int = 0
    hand_counts: dict[int, int] = field(default_factory=dict)
    confirmed_cards: list[Evidence] = field(default_factory=list)
    seen_leads: set[Lead] = field(default_factory=set)
    current: int = 1
    turns: int = 0
    pending: list[tuple[str, int | str]] = field(default_factory=list)
    result: str | None = None
    reason: str = ""
    characters: dict[int, Character] = field(default_factory=dict)  # seat -> Character (none: the base game)
    uses: dict[int, int] = field(default_factory=dict)  # seat -> times its Character's action was used
    bottom: int = 0  # cards put face down at the bottom of the deck (Eva's, Toby's) since the last shuffle
    top_known: bool = False  # the top card is one Toby looked at and put back

    def __post_init__(self) -> None:
        if not 1 <= self.first <= self.players:
            raise InvalidObservationError(f"start {self.first}: expected a seat 1 to {self.players}")
        hand = self.data.hand_size(self.players)
        if not self.hand_counts:
            self.hand_counts = dict.fromkeys(self.seats, hand)
            self.deck = len(self.data.evidence) - hand * self.players
            self.holmes = self.case.holmes
            self.leads = {s: LeadState(s, None, self.data.leads_per_section) for s in SECTIONS}
            self.pending = [("reveal", s) for s in SECTIONS]
            self.current = self.first

    @property
    def seats(self) -> list[int]:
        return list(range(1, self.players + 1))

    def copy(self, leads: bool = True) -> Board:
        """An independent copy (every list, set and dict its own), without the checks of a new board: each
        player's knowledge copies its board before an entry checked after the board took it, to put it back if
        the entry is refused. ``leads`` False: the copy shares the Lead states, the Impossible, the confirmed
        cards and the Leads seen (for an entry that changes none of them, a draw or an Assist)."""
        other = object.__new__(Board)
        other.__dict__.update(self.__dict__)
        other.hand_counts = dict(self.hand_counts)
        if leads:
            other.impossible = list(self.impossible)
            other.leads = {s: ls.copy() for s, ls in self.leads.items()}
            other.confirmed_cards = list(self.confirmed_cards)
            other.seen_leads = set(self.seen_leads)
        other.pending = list(self.pending)
        other.characters = dict(self.characters)
        other.uses = dict(self.uses)
        return other

    # -- Character rules (each a small change of the base rules; confidence from RULES-NOTES) -----------------
    def kind(self, seat: int) -> str:
        """The kind of ``seat``'s Character ("" without one)."""
        ch = self.characters.get(seat)
        return ch.kind if ch else ""

    def param(self, seat: int, key: str, default: int) -> int:
        ch = self.characters.get(seat)
        return int(ch.param(key, default)) if ch else default  # type: ignore[call-overload]

    @property
    def limit(self) -> int:
        """The Impossible limit: the Case File's, plus Helen Stoner's ``extra`` for the whole game (M)."""
        if not self.characters:
            return self.case.limit
        return self.case.limit + sum(int(c.param("extra", 1)) for c in self.characters.values()  # type: ignore
                                     if c.kind == "impossible_limit")

    def may_assist(self, giver: int, subject: Subject) -> bool:
        """Bradstreet, Hopkins, Jones, Forrester (M) and Martin (L): no Assist naming the banned icon, or no
        number at all (``subject`` "number"). A restriction on the giver, not information about any hand."""
        ch = self.characters.get(giver)
        if ch is None or ch.kind != "assist_ban":
            return True
        banned = ch.param("subject")
        return not (isinstance(subject, int) if banned == "number" else subject == banned)

    def can_use(self, seat: int, kind: str) -> bool:
        """Whether ``seat``'s Character has the action ``kind`` and a use left (``uses`` 0: repeatable)."""
        ch = self.characters.get(seat)
        return ch is not None and ch.kind == kind and (ch.uses == 0 or self.uses.get(seat, 0) < ch.uses)

    def uses_left(self, seat: int) -> int | None:
        """Uses left of ``seat``'s once-per-game action (None: no such action, or repeatable)."""
        ch = self.characters.get(seat)
        if ch is None or not ch.uses:
            return None
        return ch.uses - self.uses.get(seat, 0)

    def chooser(self, seat: int) -> int:
        """The player on ``seat``'s right (the previous one in turn order): chooses Lady Eva Blackwell's card."""
        return (seat - 2) % self.players + 1

    def draws_two(self, seat: int) -> bool:
        """Lady Eva Blackwell (M): she draws two when at least two cards lie above the buried ones (our choice
        where the card is silent: otherwise one, as usual)."""
        return self.kind(seat) == "draw_two" and self.deck - self.bottom >= 2

    # -- queries ----------------------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def confirmed_count(self) -> int:
        return sum(1 for ls in self.leads.values() if ls.confirmed)

    @property
    def room(self) -> int:
        """Cards the Impossible still takes before each further card costs a Holmes space."""
        return self.limit - len(self.impossible)

    def next_seat(self, seat: int) -> int:
        return seat % self.players + 1

    def expecting(self) -> str | None:
        """The entry the table waits for before the next action, as a line to type; None if none."""
        if not self.pending:
            return None
        kind, what = self.pending[0]
        if kind == "bury":
            return f"bury {what} [CARD]  (the card Lady Eva Blackwell does not keep)"
        return f"lead CARD  (the next {what} Lead)" if kind == "reveal" else f"draw {what} [CARD]"

    def describe(self) -> list[str]:
        lines = [ls.describe() for ls in self.leads.values()]
        lines.append(f"Investigation track {self.track} of {self.data.goal}; Holmes track {self.holmes} (lost at 0); "
                     f"deck {plural(self.deck, 'card')}")
        lines.append(self.describe_impossible())
        return lines

    def describe_impossible(self) -> str:
        """The Impossible in words: how full it is against the Case File's limit, and what is in it."""
        size, limit = len(self.impossible), self.limit
        cards = plural(size, "card")
        if size > limit:
            fill = f"{cards}, {size - limit} over the Case File's limit of {limit}"
        else:
            fill = f"{cards} of the {limit} the Case File allows"
        evid = " ".join(c.code for c in self.impossible if isinstance(c, Evidence))
        dead = sum(1 for c in self.impossible if isinstance(c, Lead))
        what = [f"eliminated {evid}" if evid else "", plural(dead, "Dead Lead") if dead else ""]
        inside = "; ".join(w for w in what if w)
        return f"Impossible: {fill}" + (f"; {inside}" if inside else "")

    # -- events ------------------------------------------------------------------------------------------------
    def check(self, event: Event) -> None:
        """Raise :class:`IllegalActionError` if ``event`` cannot happen now (the board is unchanged)."""
        if self.over:
            raise IllegalActionError(f"'{event}': the game is over ({self.result}: {self.reason})")
        names = _SEAT_NAMES.get(type(event))
        if names is None:  # the seats an event of this kind names, found once per kind
            names = _SEAT_NAMES[type(event)] = tuple(n for n in ("seat", "giver", "target") if hasattr(event, n))
        for name in names:
            seat = getattr(event, name)
            if seat is not None and not 1 <= seat <= self.players:
                raise IllegalActionError(f"'{event}': there is no player {seat} (seats 1 to {self.players})")
        if self.pending:
            kind, what = self.pending[0]
            if kind == "reveal":
                if not isinstance(event, LeadRevealed):
                    raise IllegalActionError(f"'{event}': first reveal the next {what} Lead ('lead CARD')")
                if event.lead.section != what:
                    raise IllegalActionError(f"'{event}': that Lead is from the {event.lead.section} pile; the next "
                                             f"{what} Lead is expected")
                if event.lead in self.seen_leads:
                    raise IllegalActionError(f"'{event}': {event.lead.name} has already been revealed")
                return
            if kind == "bury":
                if not isinstance(event, Buried) or event.seat != what:
                    raise IllegalActionError(f"'{event}': player {what} first buries the card Lady Eva Blackwell "
                                             f"does not keep ('bury {what} [CARD]')")
                return
            if not isinstance(event, Drew) or event.seat != what:
                raise IllegalActionError(f"'{event}': player {what} draws first ('draw {what} [CARD]')")
            return
        if isinstance(event, FOLLOW_UPS):
            raise IllegalActionError(f"'{event}': nothing to reveal or draw now; it is player "
                                     f"{self.current}'s turn")
        seat = event.giver if isinstance(event, ASSISTED) else event.seat
        if seat != self.current:
            raise IllegalActionError(f"'{event}': it is player {self.current}'s turn, not player {seat}'s (players "
                                     f"take turns clockwise)")
        if isinstance(event, Assisted):
            self._check_assist(event)
        elif isinstance(event, PLAYED):
            self._check_position(seat, event.position, event)
            if isinstance(event, Investigated):
                self._check_open(event.section, event)
        elif isinstance(event, Confirmed):
            self._check_open(event.section, event)
            ls = self.leads[event.section]
            short = self.param(seat, "short", 1) if self.kind(seat) == "confirm_short" else 0
            if not 0 <= ls.need <= short:
                more = f" or up to {short} short of it (Mary Morstan)" if short else ""
                raise IllegalActionError(
                    f"'{event}': the {event.section} Lead has {ls.total} evidence of {ls.target}; Confirm needs "
                    f"exactly {ls.target}{more}"
                )
        elif isinstance(event, Pursued):
            self._check_open(event.section, event)
        else:
            self._check_character(seat, event)

    def _check_character(self, seat: int, event: Event) -> None:
        """The Character actions: the right Character, a use left, and what they name is where they say."""
        kinds = {Advanced: "advance_holmes", DoubleAssisted: "double_assist", Exchanged: "swap_impossible",
                 HandSwapped: "swap_hand", Returned: "return_impossible", Peeked: "peek"}
        kind = kinds.get(type(event))
        if kind is None:
            raise IllegalActionError(f"'{event}' is not a Beyond Baker Street event")
        if not self.can_use(seat, kind):
            ch = self.characters.get(seat)
            who = f"player {seat} plays {ch.name}" if ch else f"player {seat} has no Character"
            why = "and has used that action already" if ch and ch.kind == kind else "which has no such action"
            raise IllegalActionError(f"'{event}': {who}, {why}")
        if isinstance(event, DoubleAssisted):
            for part in (event.first, event.second):
                if part.giver != seat:
                    raise IllegalActionError(f"'{event}': both Assists are player {seat}'s")
                self._check_assist(part)
        elif isinstance(event, Exchanged):
            if event.out not in self.impossible:
                raise IllegalActionError(f"'{event}': {event.out.code} is not in the Impossible")
            if self.lead_of(event.card) is None:
                raise IllegalActionError(f"'{event}': {event.card.code} is not on an open Lead")
        elif isinstance(event, HandSwapped):
            if event.target == seat:
                raise IllegalActionError(f"'{event}': swap with another player")
            self._check_position(seat, event.position, event)
            self._check_position(event.target, event.target_position, event)
        elif isinstance(event, Returned):
            if event.card not in self.impossible:
                raise IllegalActionError(f"'{event}': {event.card.code} is not in the Impossible")
        elif isinstance(event, Peeked) and self.deck == 0:
            raise IllegalActionError(f"'{event}': the deck is empty")

    def lead_of(self, card: Evidence) -> LeadState | None:
        """The open Lead ``card`` lies on (None if on none)."""
        return next((ls for ls in self.leads.values() if not ls.confirmed and card in ls.evidence + ls.raised),
                    None)

    def _check_assist(self, event: Assisted) -> None:
        if event.target == event.giver:
            raise IllegalActionError(f"'{event}': you cannot Assist yourself")
        held = self.hand_counts[event.target]
        if not event.positions:
            raise IllegalActionError(f"'{event}': an Assist never names no cards")
        if max(event.positions) > held:
            raise IllegalActionError(f"'{event}': player {event.target} holds {plural(held, 'card')}")
        if not self.may_assist(event.giver, event.subject):
            ch = self.characters[event.giver]
            raise IllegalActionError(f"'{event}': player {event.giver} plays {ch.name}, who may not give an Assist "
                                     f"naming {'a number' if isinstance(event.subject, int) else event.subject}")

    def _check_position(self, seat: int, position: int, what: object) -> None:
        held = self.hand_counts[seat]
        if held == 0:
            raise IllegalActionError(f"'{what}': player {seat} has no cards")
        if not 1 <= position <= held:
            raise IllegalActionError(f"'{what}': position {position}, but player {seat} holds {plural(held, 'card')}")

    def _check_open(self, section: str, what: object) -> None:
        if self.leads[section].confirmed:
            raise IllegalActionError(f"'{what}': the {section} Lead is confirmed (a confirmed Lead takes no more "
                                     f"Evidence and cannot be pursued)")

    def apply(self, event: Event, checked: bool = False) -> list[Evidence]:
        """Apply ``event`` (checked first, unless the caller just did: ``checked``, with the board unchanged
        since); return the Evidence cards it shuffled back into the deck."""
        if not checked:
            self.check(event)
        returned: list[Evidence] = []
        if isinstance(event, LeadRevealed):
            self.pending.pop(0)
            ls = self.leads[event.lead.section]
            ls.lead = event.lead
            ls.pile -= 1
            self.seen_leads.add(event.lead)
            return returned
        if isinstance(event, Drew):
            self.pending.pop(0)
            two = self.draws_two(event.seat)
            if self.deck == self.bottom:  # only buried cards are left: the draw takes the top one of them
                self.bottom -= 1
            self.deck -= 1
            self.top_known = False
            self.hand_counts[event.seat] += 1
            if two:
                self.pending.insert(0, ("bury", self.chooser(event.seat)))
            return returned
        if isinstance(event, Buried):
            self.pending.pop(0)
            self.bottom += 1
            return returned
        self.turns += 1
        self.current = self.next_seat(self.current)
        if isinstance(event, ASSISTED):
            self._holmes(-1, "the Holmes marker reached 0")  # Lady Hilda Hope's two Assists: once (M)
            if isinstance(event, DoubleAssisted):
                self.uses[event.giver] = self.uses.get(event.giver, 0) + 1
        elif isinstance(event, CHARACTER_EVENTS):
            self.uses[event.seat] = self.uses.get(event.seat, 0) + 1
            returned = self._character_action(event)
        elif isinstance(event, Investigated):
            self.hand_counts[event.seat] -= 1
            ls = self.leads[event.section]
            returned = self._place_on_lead(ls, event.card, event.seat)
            self._draw_follows(event.seat)
        elif isinstance(event, Eliminated):
            self.hand_counts[event.seat] -= 1
            factor = self.param(event.seat, "factor", 2) if self.kind(event.seat) == "eliminate_factor" else 1
            self.track += factor * event.card.number  # Gregson (L): counts double
            self._to_impossible(event.card, holmes=self.kind(event.seat) != "calm_eliminate")  # Lestrade (M)
            if self.track > self.data.goal:
                self._end(LOST, f"the Investigation track passed {self.data.goal} ({self.track})")
            self._draw_follows(event.seat)
        elif isinstance(event, Confirmed):
            ls = self.leads[event.section]
            ls.confirmed = True
            self.confirmed_cards += ls.evidence + ls.raised
            step = self.param(event.seat, "step", 2) if self.kind(event.seat) == "confirm_holmes" else 1
            self.holmes = min(self.data.holmes_max, self.holmes + step)  # Baynes (L): by two
            if self.confirmed_count == len(self.leads):
                if self.track == self.data.goal:
                    self._end(WON, f"the third Lead is confirmed with the Investigation track on {self.data.goal}")
                else:
                    self._end(LOST, f"the third Lead was confirmed with the Investigation track on {self.track}, "
                                    f"not {self.data.goal}")
        elif isinstance(event, Pursued):
            returned = self._discard_lead(self.leads[event.section], "pursued", self._keeps_leads(event.seat))
        if returned:  # shuffled into the deck: no card lies at a known place in it any more
            self.bottom, self.top_known = 0, False
        if self.turns >= self.data.max_turns:  # a safeguard (GameData.max_turns), reached only with Characters
            self._end(LOST, f"the table took {self.turns} turns, the most a game may last")
        if self.over:
            self.pending.clear()
        return returned

    def _keeps_leads(self, seat: int, dead: bool = False) -> bool:
        """Wiggins (L): a Lead he drops by a Pursue (and a Dead Lead of his, ``dead_leads``) does not go to the
        Impossible."""
        ch = self.characters.get(seat)
        return ch is not None and ch.kind == "lead_not_impossible" and (not dead or bool(ch.param("dead_leads")))

    def _place_on_lead(self, ls: LeadState, card: Evidence, seat: int) -> list[Evidence]:
        """A card put on a Lead: a matching icon counts (past the target: a Dead Lead), another raises it."""
        if card.icon == ls.icon:
            ls.evidence.append(card)
            if ls.total > ls.target:
                return self._discard_lead(ls, "dead", self._keeps_leads(seat, dead=True))
        else:
            ls.raised.append(card)
        return []

    def _character_action(self, event: Advanced | Exchanged | HandSwapped | Returned | Peeked) -> list[Evidence]:
        """The public consequences of a Character's action (checked already)."""
        if isinstance(event, Advanced):  # Irene Adler (M): Holmes away from 0
            self.holmes = min(self.data.holmes_max, self.holmes + self.param(event.seat, "step", 1))
        elif isinstance(event, Exchanged):  # Sir Henry Baskerville (M)
            ls = self.lead_of(event.card)
            assert ls is not None
            (ls.evidence if event.card in ls.evidence else ls.raised).remove(event.card)
            self.impossible[self.impossible.index(event.out)] = event.card
            self.track += event.card.number - event.out.number
            returned = self._place_on_lead(ls, event.out, event.seat)
            if self.track > self.data.goal:
                self._end(LOST, f"the Investigation track passed {self.data.goal} ({self.track})")
            return returned
        elif isinstance(event, Returned):  # Mrs Hudson (L): back into the deck, shuffled
            self.impossible.remove(event.card)
            self.track -= event.card.number
            self.deck += 1
            return [event.card]
        elif isinstance(event, Peeked):  # Toby (L): on top, or at the bottom
            if event.bottom:
                if self.top_known or self.deck > self.bottom:
                    self.bottom += 1
                self.top_known = False
            else:
                self.top_known = self.deck > self.bottom
        return []

    def _draw_follows(self, seat: int) -> None:
        if self.deck > 0:
            self.pending.append(("draw", seat))

    def _discard_lead(self, ls: LeadState, how: str, keep_out: bool = False) -> list[Evidence]:
        """A Dead or pursued Lead goes face down to the Impossible (``keep_out``: out of the game, Wiggins); its
        evidence is shuffled into the deck."""
        assert ls.lead is not None
        returned = ls.evidence + ls.raised
        self.deck += len(returned)
        if not keep_out:
            self._to_impossible(ls.lead)
        ls.lead, ls.evidence, ls.raised = None, [], []
        if ls.pile == 0:
            self._end(LOST, f"the last {ls.section} Lead was discarded ({how})")
        else:
            self.pending.insert(0, ("reveal", ls.section))
        return returned

    def _to_impossible(self, card: Evidence | Lead, holmes: bool = True) -> None:
        self.impossible.append(card)
        if holmes and len(self.impossible) > self.limit:
            held = plural(len(self.impossible), "card")
            self._holmes(-1, f"the Holmes marker reached 0 (the Impossible holds {held}, {self.limit} free)")

    def _holmes(self, step: int, why: str) -> None:
        self.holmes += step
        if self.holmes <= 0:
            self._end(LOST, why)

    def _end(self, result: str, reason: str) -> None:
        if self.result is None:
            self.result, self.reason = result, reason


def assist_positions(hand: list[Evidence], subject: int | str) -> tuple[int, ...]:
    """The positions (1-based) an Assist about ``subject`` names in ``hand``."""
    return tuple(i + 1 for i, c in enumerate(hand) if matches(c, subject))


def describe_assist(event: Assisted) -> str:
    where = ", ".join(map(str, event.positions))
    return f"player {event.giver} told player {event.target}: {subject_plural(event.subject)} at {where}"
