"""Beyond Baker Street rules engine: the whole base game for 2 to 4 players and Case Files 1 to 6 (rulebook
``rules/beyond-baker-street.txt``, RULES-NOTES "Beyond Baker Street"), OpenSpiel-like:
:class:`BakerStreetState` has ``current_player`` / ``legal_actions`` / ``apply`` / ``is_terminal`` /
``returns`` / ``clone`` and one observation queue per seat (:mod:`solver.game`).

The public consequences of every action (Leads, Dead Leads, the Impossible and its limit, both tracks, every
end condition) live in :class:`models.beyond_baker_street.table.Board`, which each player's knowledge model
runs too; this module adds the hidden cards (hands, deck order, face-down Lead piles) and decides who is told
what. What each seat is told (seats absolute, as the observation types print them):

- at the start: ``players``, ``me``, ``case``, ``start``, every *other* hand (``hand``), the three face-up
  Leads (``lead``);
- every action with its public result: Assists with the positions they name, Evidence played (face up, so the
  player who played it sees it too), Confirms, Pursues, Leads revealed;
- draws: the card drawn for everyone else, ``draw SEAT`` without the card for the player who drew it.

Choices where the rulebook is silent (listed in the README too):

- **Losing moves are legal**: Eliminating past 20, confirming the third Lead off 20 and pursuing the last Lead of
  a section are allowed and lose at once, as the Game End section describes them as ways to lose.
- **Assist** names a number or icon the target holds at least once ("you may not tell a player that they have no
  cards"); a player with no cards cannot be assisted; nobody assists themselves.
- **Holmes** never goes above ``holmes_max`` (15), per RULES-NOTES.
- **Reshuffles** shuffle the returned Evidence into the whole remaining deck.
- **First player**: with Character cards, the lowest Character number starts (rulebook); without them, chosen
  at random from the game's seed, or fixed by the caller.

Character cards (``TableRules.characters``, one per seat; their rule changes are in
:class:`~models.beyond_baker_street.table.Board`): every seat is told every seat's Character at the start
(``character SEAT NAME``). Their actions are legal actions of the seat (``advance``, ``assist 2 Clue and 3 4``,
``exchange 3W 5C``, ``swap 1 2 3``, ``return 3W``, ``peek``). Two of them ask a second decision before the game
goes on: after ``peek`` Toby chooses ``place top|bottom`` (everyone sees where it goes, only he sees the card);
after Lady Eva Blackwell's draw of two the player on her right chooses ``keep CARD`` (that player sees both; the
others see the kept card go into her hand, as any draw; she sees neither), the other card going face down to
the bottom of the deck (``bury SEAT``). Langdale Pike's swap puts each card in the other's place; both cards are
then known to everyone (each of the two saw the card they receive in the other's hand before).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache

from models.beyond_baker_street.data import DEFAULT_DATA, ICONS, LEADS, NUMBERS, SECTIONS, Evidence, GameData, Lead
from models.beyond_baker_street.observations import (
    ANSWERS,
    PLAYED,
    PLAYS,
    Action,
    Advance,
    Advanced,
    Assist,
    Assisted,
    Buried,
    Case,
    CharacterCard,
    Confirm,
    Confirmed,
    DoubleAssist,
    DoubleAssisted,
    Drew,
    Eliminate,
    Eliminated,
    Entry,
    Event,
    Exchange,
    Exchanged,
    Hand,
    HandSwapped,
    Investigate,
    Investigated,
    Keep,
    LeadRevealed,
    Me,
    Peek,
    Peeked,
    Place,
    Players,
    Pursue,
    Pursued,
    ReturnCard,
    Returned,
    Start,
    SwapCards,
    shared,
)
from models.beyond_baker_street.table import LOST, WON, Board, assist_positions
from solver.errors import AssistantError, IllegalActionError
from solver.text import plural

#: Kinds of defeat counted in the statistics, by words of the table's reason.
LOSS_KINDS = {
    "lost_holmes": "Holmes marker reached 0",
    "lost_track": "track passed",
    "lost_last_lead": "last",
    "lost_off_goal": "third Lead was confirmed",
}
STAT_KEYS = ("turns", "assists", "investigates", "mismatches", "dead_leads", "eliminates", "confirms", "pursues")
#: The actions whose event :meth:`BakerStreetState._checked` checks on the board itself (a tuple: see
#: :data:`~models.beyond_baker_street.observations.SETUP_KINDS`).
_CHECKED_ON_BOARD = (Investigate, Eliminate, Confirm, Pursue, Advance, Exchange, ReturnCard)


@dataclass(frozen=True)
class TableRules:
    """The table's options: player count, Case File and the component data."""

    players: int
    case: int = 1
    data: GameData = DEFAULT_DATA
    characters: tuple[str, ...] = ()  # one Character name per seat (seat 1 first), or none: the base game

    def __post_init__(self) -> None:
        try:
            self.data.hand_size(self.players)
            self.data.case(self.case)
            names = tuple(self.data.character(n).name for n in self.characters)
        except ValueError as exc:
            raise AssistantError(str(exc)) from None
        if names and len(names) != self.players:
            raise AssistantError(f"characters: {len(names)} named, expected one per player ({self.players})")
        if len(set(names)) != len(names):
            raise AssistantError(f"characters: {', '.join(names)}: each Character is played once")
        object.__setattr__(self, "characters", names)

    def start_seat(self) -> int | None:
        """The seat with the lowest Character number (the start player), or None without Characters."""
        if not self.characters:
            return None
        orders = [self.data.characters[n].order for n in self.characters]
        return orders.index(min(orders)) + 1


@dataclass(frozen=True)
class TableView:
    """What ``seat`` may know besides its observations: the public board and, on its move, the legal actions.
    The view holds the state's board and hands out a copy each time :attr:`board` is read (no bot of ours reads
    it: each keeps a board of its own, so a simulation does not copy the board at every step)."""

    seat: int
    players: int
    current: int | None
    public: Board
    legal_actions: tuple[Action, ...]

    @property
    def board(self) -> Board:
        """A copy of the public board as it is now (the state's own is never handed out)."""
        return self.public.copy()


@lru_cache(maxsize=1024)
def _plays(held: int, sections: tuple[str, ...]) -> tuple[Action, ...]:
    """The Investigates (position by position, each open section) and Eliminates of a hand of ``held`` cards, in
    the legal actions' order (shared instances; kept: every turn asks the same few)."""
    out: list[Action] = [shared(Investigate, p, s) for p in range(1, held + 1) for s in sections]
    return (*out, *[shared(Eliminate, p) for p in range(1, held + 1)])


@lru_cache(maxsize=4096)
def _assists(target: int, numbers: frozenset[int], icons: frozenset[str]) -> tuple[Assist, ...]:
    """The Assists to ``target``, whose cards show these numbers and icons: each number, then each icon, in order."""
    return (*[shared(Assist, target, n) for n in NUMBERS if n in numbers],
            *[shared(Assist, target, i) for i in ICONS if i in icons])


@dataclass
class BakerStreetState:
    """A game in progress; build one with :func:`new_game`."""

    rules: TableRules
    hands: dict[int, list[Evidence]]
    deck: list[Evidence]  # the top card is the last
    piles: dict[str, list[Lead]]  # face-down Leads per section, the top card last
    first_player: int = 1
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    board: Board = field(init=False)
    queues: dict[int, list[Entry]] = field(default_factory=dict)
    # hand_log[s][i]: seat s's true hand once it has taken in its first i + 1 observations (soundness checks
    # compare a knowledge state with the hand as of the observations it has seen, not with later draws)
    hand_log: dict[int, list[tuple[Evidence, ...]]] = field(default_factory=dict)
    stats: dict[int, dict[str, int]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    offer: tuple[int, Evidence, Evidence] | None = None  # Lady Eva Blackwell drew these two: (her seat, cards)
    peeked: tuple[int, Evidence] | None = None  # Toby is looking at this top card: (his seat, card)

    def __post_init__(self) -> None:
        seats = list(range(1, self.rules.players + 1))
        self.board = Board(self.rules.players, self.rules.data.case(self.rules.case), self.first_player,
                           self.rules.data)
        self.board.characters = {s: self.rules.data.characters[n] for s, n in enumerate(self.rules.characters, 1)}
        hand = self.rules.data.hand_size(self.rules.players)
        if sorted(self.hands) != seats or any(len(h) != hand for h in self.hands.values()):
            raise AssistantError(f"expected {len(seats)} hands of {hand} cards")
        self.queues = {s: [] for s in seats}
        self.hand_log = {s: [] for s in seats}
        self.stats = {s: dict.fromkeys(STAT_KEYS, 0) for s in seats}
        for s in seats:
            for obs in [Players(self.rules.players), Me(s), Case(self.rules.case), Start(self.first_player)]:
                self._tell(s, obs)
            for t, name in enumerate(self.rules.characters, 1):
                self._tell(s, CharacterCard(t, name))
            for t in seats:
                if t != s:
                    self._tell(s, Hand(t, tuple(self.hands[t])))
        for section in SECTIONS:
            self.board.leads[section].pile = len(self.piles[section])  # the piles dealt are the truth
            self._event(LeadRevealed(self.piles[section].pop()))
        self.stats[self.first_player]["turns"] += 1

    # -- the State interface ----------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.rules.players

    @property
    def seats(self) -> list[int]:
        return list(range(1, self.rules.players + 1))

    def current_player(self) -> int | None:
        """Who decides now: the player to move, or the one a Character's action waits for (Toby placing the
        card he looked at, the player on Lady Eva Blackwell's right choosing her card)."""
        if self.board.over:
            return None
        if self.offer is not None:
            return self.board.chooser(self.offer[0])
        if self.peeked is not None:
            return self.peeked[0]
        return self.board.current

    def is_terminal(self) -> bool:
        return self.board.over

    @property
    def won(self) -> bool:
        return self.board.result == WON

    def winner(self) -> int | None:
        return None  # cooperative: the table wins or loses together (see returns)

    def returns(self) -> list[float]:
        return [1.0 if self.won else 0.0 for _ in self.seats]

    def clone(self) -> BakerStreetState:
        other = object.__new__(BakerStreetState)
        other.rules = self.rules
        other.hands = {s: list(h) for s, h in self.hands.items()}
        other.deck = list(self.deck)
        other.piles = {s: list(p) for s, p in self.piles.items()}
        other.first_player = self.first_player
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.board = self.board.copy()
        other.queues = {s: list(q) for s, q in self.queues.items()}
        other.hand_log = {s: list(h) for s, h in self.hand_log.items()}
        other.stats = {s: dict(d) for s, d in self.stats.items()}
        other.log = list(self.log)
        other.offer, other.peeked = self.offer, self.peeked
        return other

    def take_observations(self, seat: int) -> list[Entry]:
        out = self.queues[seat]
        self.queues[seat] = []
        return out

    def player_stats(self, seat: int) -> Mapping[str, float]:
        """The seat's own counters, plus the table's result (the same for every seat: the game is cooperative)."""
        out: dict[str, float] = dict(self.stats[seat])
        out["won"] = float(self.won)
        out["holmes"] = float(self.board.holmes)
        out["track"] = float(self.board.track)
        for key, words in LOSS_KINDS.items():
            out[key] = float(self.board.result == LOST and words in self.board.reason)
        return out

    def view(self, seat: int) -> TableView:
        current = self.current_player()
        legal = tuple(self.legal_actions()) if seat == current else ()
        return TableView(seat, self.rules.players, current, self.board, legal)

    # -- legal actions -----------------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, in a fixed order (confirm, investigate, eliminate, assist,
        pursue)."""
        seat = self.current_player()
        if seat is None:
            return []
        if self.offer is not None:
            return [Keep(self.offer[1]), Keep(self.offer[2])]
        if self.peeked is not None:
            return [Place(False), Place(True)]
        board = self.board
        leads = board.leads
        open_sections = [s for s in SECTIONS if not leads[s].confirmed]
        characters = board.characters  # none (the base game): no Character rule to ask
        short = board.param(seat, "short", 1) if characters and board.kind(seat) == "confirm_short" else 0
        out: list[Action] = [shared(Confirm, s) for s in open_sections if 0 <= leads[s].need <= short]
        held = len(self.hands[seat])
        out += _plays(held, tuple(open_sections))
        assists: list[Assist] = []
        for target in self.seats:
            if target == seat:
                continue
            hand = self.hands[target]
            assists += _assists(target, frozenset([c.number for c in hand]), frozenset([c.icon for c in hand]))
        if characters:
            assists = [a for a in assists if board.may_assist(seat, a.subject)]
        out += assists
        out += [shared(Pursue, s) for s in open_sections]
        return out + self.character_actions(seat, assists) if characters else out

    def character_actions(self, seat: int, assists: list[Assist]) -> list[Action]:
        """The actions ``seat``'s Character adds (with a use left)."""
        board = self.board
        out: list[Action] = []
        if board.can_use(seat, "advance_holmes"):
            out.append(Advance())
        if board.can_use(seat, "double_assist"):
            out += [DoubleAssist(a, b) for i, a in enumerate(assists) for b in assists[i + 1:]]
        impossible = [c for c in board.impossible if isinstance(c, Evidence)]
        if board.can_use(seat, "swap_impossible"):
            on_leads = [c for ls in board.leads.values() if not ls.confirmed for c in ls.evidence + ls.raised]
            out += [Exchange(o, c) for o in impossible for c in on_leads]
        if board.can_use(seat, "swap_hand"):
            out += [SwapCards(p, t, q) for p in range(1, len(self.hands[seat]) + 1) for t in self.seats
                    if t != seat for q in range(1, len(self.hands[t]) + 1)]
        if board.can_use(seat, "return_impossible"):
            out += [ReturnCard(c) for c in impossible]
        if board.can_use(seat, "peek") and self.deck:
            out.append(Peek())
        return out

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` with the reason if ``action`` is not legal now."""
        self._checked(action)

    def _checked(self, action: Action) -> Event | None:
        """:meth:`check`, answering the public event ``action`` becomes, checked on the board (None for the
        actions checked without one): :meth:`apply` plays that event, without building and checking it twice."""
        seat = self.current_player()
        if seat is None:
            raise IllegalActionError(f"'{action}': the game is over ({self.board.result}: {self.board.reason})")
        if self.offer is not None or self.peeked is not None or isinstance(action, ANSWERS):
            if action not in self.legal_actions():
                waiting = (f"player {seat} chooses which card Lady Eva Blackwell keeps ('keep CARD')"
                           if self.offer else f"player {seat} places the card they looked at ('place top|bottom')"
                           if self.peeked else "nothing to keep or place now")
                raise IllegalActionError(f"'{action}': {waiting}")
            return None
        if isinstance(action, Peek):
            self.board.check(Peeked(seat, None, False))
            return None
        if isinstance(action, DoubleAssist):
            for part in (action.first, action.second):
                self.check(part)
        elif isinstance(action, Assist):
            if action.target not in self.hands:
                raise IllegalActionError(f"'{action}': seat {action.target} does not exist (1 to {self.num_players})")
            if action.target == seat:
                raise IllegalActionError(f"'{action}': you cannot Assist yourself")
            if action.subject not in NUMBERS and action.subject not in ICONS:
                raise IllegalActionError(f"'{action}': name a number 1-6 or an icon")
            if not assist_positions(self.hands[action.target], action.subject):
                raise IllegalActionError(
                    f"'{action}': player {action.target} has no {action.subject} cards, and an Assist never says none"
                )
        elif isinstance(action, SwapCards):
            for who, pos in ((seat, action.position), (action.target, action.target_position)):
                if who not in self.hands or not 1 <= pos <= len(self.hands[who]):
                    raise IllegalActionError(f"'{action}': player {who} has no card at position {pos}")
        elif not isinstance(action, _CHECKED_ON_BOARD):
            raise IllegalActionError(f"'{action}' is not a Beyond Baker Street action")
        event = self._event_for(seat, action)
        self.board.check(event)
        return event

    def _event_for(self, seat: int, action: Action) -> Event:
        """The public event ``action`` becomes (the card at a position is filled in for plays)."""
        if isinstance(action, Assist):
            return Assisted(seat, action.target, action.subject, assist_positions(self.hands[action.target],
                                                                                 action.subject))
        if isinstance(action, PLAYS):
            hand = self.hands[seat]
            if not hand:
                raise IllegalActionError(f"'{action}': you have no cards")
            if not 1 <= action.position <= len(hand):
                raise IllegalActionError(f"'{action}': position {action.position}, "
                                         f"but you hold {plural(len(hand), 'card')}")
            card = hand[action.position - 1]
            if isinstance(action, Investigate):
                return Investigated(seat, action.position, card, action.section)
            return Eliminated(seat, action.position, card)
        if isinstance(action, Confirm):
            return Confirmed(seat, action.section)
        if isinstance(action, DoubleAssist):
            one, two = self._event_for(seat, action.first), self._event_for(seat, action.second)
            assert isinstance(one, Assisted) and isinstance(two, Assisted)
            return DoubleAssisted(one, two)
        if isinstance(action, Advance):
            return Advanced(seat)
        if isinstance(action, Exchange):
            return Exchanged(seat, action.out, action.card)
        if isinstance(action, ReturnCard):
            return Returned(seat, action.card)
        if isinstance(action, SwapCards):
            return HandSwapped(seat, action.position, action.target, action.target_position,
                               self.hands[seat][action.position - 1],
                               self.hands[action.target][action.target_position - 1])
        assert isinstance(action, Pursue)
        return Pursued(seat, action.section)

    # -- applying actions --------------------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Play ``action`` for the player to move; raise :class:`IllegalActionError` (state unchanged) if illegal."""
        checked = self._checked(action)
        seat = self.current_player()
        assert seat is not None
        if isinstance(action, Peek):
            self.peeked = (seat, self.deck[-1])
            return
        if isinstance(action, Place):
            assert self.peeked is not None
            card = self.deck.pop()
            if action.bottom:
                self.deck.insert(0, card)
            else:
                self.deck.append(card)
            self.peeked = None
            self._event(Peeked(seat, card, action.bottom), private={seat})
            self.log.append(f"turn {self.board.turns}: peek {seat} {'bottom' if action.bottom else 'top'}")
            self._end_turn(seat)
            return
        if isinstance(action, Keep):
            assert self.offer is not None
            eva, one, two = self.offer
            buried = two if action.card == one else one
            self.offer = None
            self.deck.insert(0, buried)
            self._draw(eva, action.card)
            self._event(Buried(seat, buried), private={seat})
            self._follow_ups(eva)
            self._end_turn(eva)
            return
        assert checked is not None  # every action but those above becomes an event, checked on the board
        event = checked
        stats = self.stats[seat]
        deaths = sum(1 for c in self.board.impossible if isinstance(c, Lead))
        mismatch = isinstance(event, Investigated) and event.card.icon != self.board.leads[event.section].icon
        if isinstance(event, PLAYED):
            self.hands[seat].pop(event.position - 1)
        if isinstance(event, HandSwapped):
            self.hands[seat][event.position - 1] = event.taken
            self.hands[event.target][event.target_position - 1] = event.given
        returned = self._event(event, checked=True)
        if isinstance(event, Assisted):
            stats["assists"] += 1
        elif isinstance(event, Investigated):
            stats["investigates"] += 1
            stats["mismatches"] += mismatch
            if sum(1 for c in self.board.impossible if isinstance(c, Lead)) > deaths:
                stats["dead_leads"] += 1
        elif isinstance(event, Eliminated):
            stats["eliminates"] += 1
        elif isinstance(event, Confirmed):
            stats["confirms"] += 1
        elif isinstance(event, Pursued):
            stats["pursues"] += 1
        self.log.append(f"turn {self.board.turns}: {event}")
        if returned:
            self.deck += returned
            self.rng.shuffle(self.deck)
        self._follow_ups(seat)
        self._end_turn(seat)

    def _follow_ups(self, seat: int) -> None:
        """Reveal Leads and draw as the board asks; stop at Lady Eva Blackwell's two cards (a choice)."""
        while self.board.pending:
            kind, what = self.board.pending[0]
            if kind == "reveal":
                self._event(LeadRevealed(self.piles[str(what)].pop()))
            elif self.board.draws_two(seat):
                self.offer = (seat, self.deck.pop(), self.deck.pop())
                return
            else:
                self._draw(seat, self.deck.pop())

    def _draw(self, seat: int, card: Evidence) -> None:
        self.hands[seat].append(card)
        self.board.apply(Drew(seat, card))
        for s in self.seats:
            self._tell(s, Drew(seat, None if s == seat else card))

    def _end_turn(self, seat: int) -> None:
        if self.board.over:
            self.log.append(f"game over: {self.board.result} ({self.board.reason})")
        elif self.offer is None and self.peeked is None:
            self.stats[self.board.current]["turns"] += 1
        del seat

    def _event(self, event: Event, private: set[int] | None = None, checked: bool = False) -> list[Evidence]:
        """Apply ``event`` and tell it to every seat; seats not in ``private`` (if given) are told it without
        its card (a :class:`Peeked` or :class:`Buried` card only its player sees). ``checked``: the board checked
        it just before, unchanged since (:meth:`apply`)."""
        returned = self.board.apply(event, checked=checked)
        for s in self.seats:
            shown = event if private is None or s in private else replace(event, card=None)  # type: ignore
            self._tell(s, shown)
        return returned

    def _tell(self, seat: int, obs: Entry) -> None:
        self.queues[seat].append(obs)
        self.hand_log[seat].append(tuple(self.hands[seat]))

    # -- soundness ---------------------------------------------------------------------------------------------
    def soundness_failure(self, seat: int, knowledge: object, deep: bool = False) -> str | None:
        """Whether ``seat``'s knowledge model (a :class:`~models.beyond_baker_street.knowledge.HandKnowledge`)
        still admits the true hand: every card in its true position is still possible, jointly. ``deep`` also
        asks the knowledge's CP-SAT model that each true card is possible where it is."""
        admits = getattr(knowledge, "admits", None)
        if admits is None:
            return f"player {seat}'s knowledge cannot be checked (no 'admits')"
        seen = len(getattr(knowledge, "entries", ()))
        log = self.hand_log[seat]
        hand = log[seen - 1] if 0 < seen <= len(log) else tuple(self.hands[seat])
        failure = admits(list(hand))
        if failure or not deep:
            return failure
        possible = knowledge.constraint_model().possible()  # type: ignore[attr-defined]
        for pos, card in enumerate(hand, 1):
            if f"p{pos}" not in possible[card.code]:
                return f"player {seat}'s CP-SAT model says {card.code} cannot be at position {pos}, where it is"
        return None


def new_game(rules: TableRules, rng: random.Random, first_player: int | None = None) -> BakerStreetState:
    """A fresh game: shuffled Evidence dealt by player count, three Leads of each section drawn at random."""
    evidence = list(rules.data.evidence)
    rng.shuffle(evidence)
    size = rules.data.hand_size(rules.players)
    hands = {s: [evidence.pop() for _ in range(size)] for s in range(1, rules.players + 1)}
    piles = {}
    for section in SECTIONS:
        leads = [lead for lead in LEADS if lead.section == section]
        rng.shuffle(leads)
        piles[section] = leads[: rules.data.leads_per_section]
    first = rng.randint(1, rules.players) if first_player is None else first_player
    first = rules.start_seat() or first
    return BakerStreetState(rules, hands, evidence, piles, first, random.Random(rng.random()))


def new_character_game(rules: TableRules, seats: tuple[str | None, ...], rng: random.Random) -> BakerStreetState:
    """:func:`new_game` with Character cards: ``seats`` names each seat's Character, None for one drawn at random
    (from the game's seed) among those not named."""
    if len(seats) != rules.players:
        raise AssistantError(f"characters: {len(seats)} given, expected one per player ({rules.players})")
    named = [rules.data.character(n).name if n else None for n in seats]
    pool = sorted(n for n in rules.data.characters if n not in named)
    drawn = iter(rng.sample(pool, sum(1 for n in named if n is None)))
    names = tuple(n if n is not None else next(drawn) for n in named)
    return new_game(TableRules(rules.players, rules.case, rules.data, names), rng)


def parse_characters(text: str, players: int, data: GameData = DEFAULT_DATA) -> tuple[str | None, ...]:
    """``--characters``: "random" (every seat), or one name per seat, comma-separated ("random" for a seat
    drawn at random): "Toby,random,Lestrade"."""
    parts = [p.strip() for p in text.split(",")] if text.strip().lower() != "random" else ["random"] * players
    if len(parts) != players:
        raise AssistantError(f"--characters '{text}': {len(parts)} names, expected {players} (one per seat) or "
                             f"'random'")
    out: list[str | None] = []
    for p in parts:
        if p.lower() == "random":
            out.append(None)
            continue
        try:
            out.append(data.character(p).name)
        except ValueError as exc:
            raise AssistantError(f"--characters: {exc}") from None
    named = [n for n in out if n]
    if len(set(named)) != len(named):
        raise AssistantError(f"--characters '{text}': each Character is played once")
    return tuple(out)


__all__ = ["BakerStreetState", "TableRules", "TableView", "new_character_game", "new_game", "parse_characters", "LOST",
           "WON"]
