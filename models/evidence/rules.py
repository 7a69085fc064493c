"""Evidence rules engine: the whole game for 2 to 5 players, basic and professional (rulebook
``rules/evidence.txt``, RULES-NOTES "Evidence"), OpenSpiel-like (:class:`EvidenceState`).

Two layers. :class:`Table` is the *public* table (displays, search stacks, everyone's search cards and
per-colour hand counts, time-outs and tools); it checks every rule that public facts decide, and is shared by
the engine and by each player's knowledge model (:mod:`models.evidence.knowledge`), so the companion checks
typed entries with the very rules the engine plays by. :class:`EvidenceState` adds the hidden world (the
evidence, the hands, the two-player unknown rumours) and the turn structure.

A turn (rulebook "Course of a Round") is a sequence of actions: with two players ``uncover COLOUR`` first;
then ``play COLOUR VALUE`` (mandatory); then any number of ``take COLOUR`` and ``done`` (Search); then one
``timeout ...`` / ``tool ...`` or ``done``. Steps with nothing legal but ``done`` are skipped.

What each seat is told: its setup lines (players, me, variant, start, non-default values, the setup rumours,
its hand, every other player's per-colour hand counts, with two players both piles of unknown rumours by back
colour); then every public event (plays, reveals, uncovered evidence, search cards taken, time-outs, tools,
the Fortune-Teller's mystery); a Fortune-Teller's value only to its user (:class:`Look`).

Choices where the rulebook is silent (documented in the README section too):

- **Stacks**: the Hot Lead is on top, so the first card taken from a stack is its Hot Lead; a returned Hot
  Lead goes back on top ("Make sure that the Hot Lead card is on top").
- **Evidence** is uncovered at a mystery's 5th revealed rumour, counting setup rumours, played rumours and
  (two players) uncovered unknown rumours; the rest at the end.
- **Time-out**: needs at least one search card of that mystery, and exactly as many cards from other mysteries
  available to replace them ("You may not discard search cards without replacing them").
- **Balloon Ride** needs an available search card; the limit becomes 7 for that player.
- **Typewriter** copies, at scoring, the owned article colour whose evidence is highest (the player's best
  choice); with no article it scores only its -1. It is not an article for the tie-breakers.
- **Fortune-Teller**: everyone sees which mystery was looked at, only its user the value; a mystery whose
  evidence is already uncovered cannot be chosen.
- **Ties** after all tie-breakers share the victory: the game then has no single winner (``winner()`` is
  None and ``returns()`` all zeros, the simulation's draw).
- **First player**: chosen at random from the game's seed, or fixed by the caller.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from models.evidence.data import (
    CARD_LIMIT,
    COLOURS,
    DEFAULT_DATA,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REVEAL_AT,
    ROUNDS,
    TOOL_NAMES,
    TOOLS,
    UNKNOWN_PER_PLAYER,
    GameData,
    timeouts_allowed,
)
from models.evidence.observations import (
    Action,
    Card,
    Done,
    Entry,
    EvidenceShown,
    Hand,
    Holds,
    Look,
    Me,
    Play,
    Players,
    PlayRumour,
    Reveal,
    Search,
    SetupRumours,
    Start,
    Take,
    TimeOut,
    ToolUsed,
    Uncover,
    Unknown,
    UseTimeOut,
    UseTool,
    Values,
    Variant,
)
from solver.errors import AssistantError, IllegalActionError

UNCOVER, PLAY, SEARCH, EXTRA = "uncover", "play", "search", "extra"
STAT_KEYS = ("turns", "score", "articles", "hot_leads", "colours", "timeouts", "tools")


@dataclass
class Stack:
    """One mystery's search cards still on the table: the Hot Lead (on top while it is there) and the others."""

    hot: bool
    regular: int

    @property
    def size(self) -> int:
        return int(self.hot) + self.regular


@dataclass
class Table:
    """The public table (see module docstring). Methods apply one public event after checking it."""

    players: int
    data: GameData = DEFAULT_DATA
    pro: bool = False
    start: int = 1
    displays: dict[str, list[int]] = field(default_factory=dict, init=False)
    evidence: dict[str, int | None] = field(default_factory=dict, init=False)
    stacks: dict[str, Stack] = field(default_factory=dict, init=False)
    articles: dict[int, Counter[str]] = field(default_factory=dict, init=False)
    hot: dict[int, set[str]] = field(default_factory=dict, init=False)
    hands: dict[int, Counter[str]] = field(default_factory=dict, init=False)
    unknown: dict[int, Counter[str]] = field(default_factory=dict, init=False)
    timeouts: set[str] = field(default_factory=set, init=False)  # basic: colours whose time-out is left
    tools: set[str] = field(default_factory=set, init=False)  # pro: tools still available
    used: dict[int, list[TimeOut | ToolUsed]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise IllegalActionError(f"players {self.players}: expected {MIN_PLAYERS} to {MAX_PLAYERS}")
        if self.start not in self.seats:
            raise IllegalActionError(f"start {self.start}: expected a seat 1 to {self.players}")
        size = self.data.search_cards[self.players]
        self.displays = {c: [] for c in COLOURS}
        self.evidence = dict.fromkeys(COLOURS)
        self.stacks = {c: Stack(True, size) for c in COLOURS}
        self.articles = {s: Counter() for s in self.seats}
        self.hot = {s: set() for s in self.seats}
        self.hands = {s: Counter() for s in self.seats}
        self.unknown = {s: Counter() for s in self.seats}
        self.used = {s: [] for s in self.seats}
        self.timeouts = set() if self.pro else set(COLOURS)
        self.tools = set(TOOLS) if self.pro else set()

    def clone(self) -> Table:
        other = copy.copy(self)  # shares the frozen data; every mutable part is copied below
        other.displays = {c: list(v) for c, v in self.displays.items()}
        other.evidence = dict(self.evidence)
        other.stacks = {c: Stack(s.hot, s.regular) for c, s in self.stacks.items()}
        other.articles = {s: Counter(a) for s, a in self.articles.items()}
        other.hot = {s: set(h) for s, h in self.hot.items()}
        other.hands = {s: Counter(h) for s, h in self.hands.items()}
        other.unknown = {s: Counter(u) for s, u in self.unknown.items()}
        other.timeouts = set(self.timeouts)
        other.tools = set(self.tools)
        other.used = {s: list(u) for s, u in self.used.items()}
        return other

    # -- public facts -----------------------------------------------------------------------------------------
    @property
    def seats(self) -> list[int]:
        return list(range(1, self.players + 1))

    def seat_order(self) -> list[int]:
        """Seats in turn order, the start player first."""
        return [(self.start - 1 + i) % self.players + 1 for i in range(self.players)]

    def check_seat(self, seat: int, what: str) -> None:
        if seat not in self.seats:
            raise IllegalActionError(f"'{what}': seat {seat} does not exist (expected 1 to {self.players})")

    def tools_of(self, seat: int) -> list[str]:
        return [u.tool for u in self.used[seat] if isinstance(u, ToolUsed)]

    def extras_used(self, seat: int) -> int:
        return len(self.used[seat])

    def limit(self, seat: int) -> int:
        """The card limit: 6, or 7 after the Balloon Ride."""
        return CARD_LIMIT + (1 if "balloon" in self.tools_of(seat) else 0)

    def held(self, seat: int) -> int:
        """Cards counting toward the limit: search cards and rumours in hand (not the unknown rumours)."""
        return sum(self.articles[seat].values()) + sum(self.hands[seat].values())

    def room(self, seat: int) -> int:
        return max(0, self.limit(seat) - self.held(seat))

    def available(self, colour: str) -> int:
        return self.stacks[colour].size

    def revealed_count(self, colour: str) -> int:
        return len(self.displays[colour])

    def public_copies(self, colour: str, value: int) -> int:
        """Copies of the rumour (colour, value) everyone can see: in the display or the uncovered evidence."""
        return self.displays[colour].count(value) + (1 if self.evidence[colour] == value else 0)

    def can_extra(self, seat: int) -> bool:
        return self.extras_used(seat) < timeouts_allowed(self.players)

    # -- rumours ----------------------------------------------------------------------------------------------
    def _check_value(self, colour: str, value: int, what: str, extra: int = 1) -> None:
        multiset = self.data.multiset(colour)
        if value not in multiset:
            values = ", ".join(str(v) for v in self.data.distinct_values(colour))
            raise IllegalActionError(f"'{what}': {colour} rumours have the values {values}")
        if self.public_copies(colour, value) + extra > multiset[value]:
            raise IllegalActionError(f"'{what}': every {colour} {value} is already on the table")

    def _add_to_display(self, colour: str, value: int) -> bool:
        self.displays[colour].append(value)
        return self.revealed_count(colour) == REVEAL_AT and self.evidence[colour] is None

    def setup_rumour(self, colour: str, value: int) -> None:
        self._check_value(colour, value, f"setup {colour} {value}")
        limit = self.data.setup_revealed[self.players]
        if len(self.displays[colour]) >= limit:
            raise IllegalActionError(f"'setup {colour} {value}': {limit} {colour} rumour(s) are revealed at setup")
        self.displays[colour].append(value)

    def play(self, seat: int, colour: str, value: int) -> bool:
        """A played rumour; True when it is the mystery's 5th and the evidence must now be uncovered."""
        what = str(Play(seat, colour, value))
        self.check_seat(seat, what)
        if self.hands[seat][colour] < 1:
            raise IllegalActionError(f"'{what}': player {seat} holds no {colour} rumour")
        self._check_value(colour, value, what)
        self.hands[seat][colour] -= 1
        return self._add_to_display(colour, value)

    def reveal(self, seat: int, colour: str, value: int) -> bool:
        """Two players: an unknown rumour uncovered; True when the evidence must now be uncovered."""
        what = str(Reveal(seat, colour, value))
        self.check_seat(seat, what)
        if self.players != 2:
            raise IllegalActionError(f"'{what}': unknown rumours are only in two-player games")
        if self.unknown[seat][colour] < 1:
            raise IllegalActionError(f"'{what}': player {seat} has no unknown {colour} rumour left")
        self._check_value(colour, value, what)
        self.unknown[seat][colour] -= 1
        return self._add_to_display(colour, value)

    def show_evidence(self, colour: str, value: int) -> None:
        what = str(EvidenceShown(colour, value))
        if self.evidence[colour] is not None:
            if self.evidence[colour] != value:
                shown = self.evidence[colour]
                raise IllegalActionError(f"'{what}': the {colour} evidence is already uncovered: {shown}")
            return
        self._check_value(colour, value, what)
        self.evidence[colour] = value

    # -- search cards -----------------------------------------------------------------------------------------
    def _take(self, seat: int, colour: str, what: str, limit: int | None = None) -> None:
        stack = self.stacks[colour]
        if stack.size == 0:
            raise IllegalActionError(f"'{what}': no {colour} search card is left")
        if self.held(seat) + 1 > (self.limit(seat) if limit is None else limit):
            raise IllegalActionError(
                f"'{what}': player {seat} would exceed the card limit of {self.limit(seat) if limit is None else limit}"
                f" (search cards plus rumours in hand)"
            )
        if stack.hot:
            stack.hot = False
            self.hot[seat].add(colour)
        else:
            stack.regular -= 1
        self.articles[seat][colour] += 1

    def search(self, seat: int, colours: tuple[str, ...]) -> None:
        what = str(Search(seat, colours))
        self.check_seat(seat, what)
        for colour in colours:
            self._take(seat, colour, what)

    def _check_swap(self, seat: int, colour: str, take: tuple[str, ...], what: str) -> None:
        n = self.articles[seat][colour]
        if n == 0:
            raise IllegalActionError(f"'{what}': player {seat} has no {colour} search card to exchange")
        if len(take) != n:
            raise IllegalActionError(f"'{what}': all {n} {colour} search card(s) must be replaced by {n} others")
        if colour in take:
            raise IllegalActionError(f"'{what}': you may not take back {colour} search cards")
        for c, k in Counter(take).items():
            if self.available(c) < k:
                raise IllegalActionError(f"'{what}': only {self.available(c)} {c} search card(s) are available")

    def _swap(self, seat: int, colour: str, take: tuple[str, ...]) -> None:
        n = self.articles[seat].pop(colour)
        stack = self.stacks[colour]
        if colour in self.hot[seat]:
            self.hot[seat].discard(colour)
            stack.hot = True
            stack.regular += n - 1
        else:
            stack.regular += n
        for c in take:
            self._take(seat, c, "swap", limit=10**6)  # the same number of cards: the limit cannot be exceeded

    def _check_extra(self, seat: int, what: str) -> None:
        allowed = timeouts_allowed(self.players)
        if not self.can_extra(seat):
            kind = "professional tool" if self.pro else "time-out"
            raise IllegalActionError(f"'{what}': player {seat} has already used {allowed} {kind}(s) this game")

    def timeout(self, seat: int, colour: str, take: tuple[str, ...]) -> None:
        what = str(TimeOut(seat, colour, take))
        self.check_seat(seat, what)
        if self.pro:
            raise IllegalActionError(f"'{what}': the professional tools replace the time-outs (use 'tool ... timeout')")
        if colour not in self.timeouts:
            raise IllegalActionError(f"'{what}': the {colour} time-out has already been used")
        self._check_extra(seat, what)
        self._check_swap(seat, colour, take, what)
        self._swap(seat, colour, take)
        self.timeouts.discard(colour)
        self.used[seat].append(TimeOut(seat, colour, take))

    def use_tool(self, seat: int, tool: str, colour: str | None = None, take: tuple[str, ...] = ()) -> None:
        used = ToolUsed(seat, tool, colour, take)
        what = str(used)
        self.check_seat(seat, what)
        if not self.pro:
            raise IllegalActionError(f"'{what}': professional tools are only in the pro variant ('variant pro')")
        if tool not in self.tools:
            raise IllegalActionError(f"'{what}': the {TOOL_NAMES[tool]} has already been used")
        self._check_extra(seat, what)
        if tool in ("fortune", "balloon", "timeout") and colour is None:
            raise IllegalActionError(f"'{what}': the {TOOL_NAMES[tool]} needs a mystery colour")
        if tool == "fortune":
            assert colour is not None
            if self.evidence[colour] is not None:
                raise IllegalActionError(f"'{what}': the {colour} evidence is already uncovered")
        elif tool == "balloon":
            assert colour is not None
            self._take(seat, colour, what, limit=self.limit(seat) + 1)
        elif tool == "timeout":
            assert colour is not None
            self._check_swap(seat, colour, take, what)
            self._swap(seat, colour, take)
        self.tools.discard(tool)
        self.used[seat].append(used)

    # -- scoring ----------------------------------------------------------------------------------------------
    def score(self, seat: int, evidence: Mapping[str, int]) -> int:
        """Final points of ``seat`` given every mystery's evidence (rulebook "End of the Game", tools)."""
        return score_cards(self.articles[seat], self.hot[seat], self.tools_of(seat), evidence)

    def tiebreak(self, seat: int) -> tuple[int, int]:
        """Different article colours, then most articles in one colour."""
        arts = self.articles[seat]
        return (sum(1 for n in arts.values() if n), max(arts.values(), default=0))

    def winners(self, evidence: Mapping[str, int]) -> list[int]:
        keys = {s: (self.score(s, evidence), *self.tiebreak(s)) for s in self.seats}
        best = max(keys.values())
        return [s for s, k in keys.items() if k == best]


def score_cards(
    articles: Mapping[str, int], hot: set[str] | frozenset[str], tools: list[str], evidence: Mapping[str, int]
) -> int:
    """Articles x evidence value, +1 per Hot Lead (+2 with the Telescope) even at 0 or below, and the tools:
    Plane Tickets +1 per mystery with 2 or more articles, Fortune-Teller +1, Typewriter the best owned
    article's value - 1 (no Hot Lead bonus)."""
    points = sum(n * evidence[c] for c, n in articles.items() if n)
    points += len(hot) * (2 if "telescope" in tools else 1)
    if "plane" in tools:
        points += sum(1 for n in articles.values() if n >= 2)
    if "fortune" in tools:
        points += 1
    if "typewriter" in tools:
        owned = [evidence[c] for c, n in articles.items() if n]
        points += max(owned, default=0) - 1
    return points


@dataclass(frozen=True)
class EvidenceView:
    """What ``seat`` may know besides its observations: the public table, whose turn and step it is, and on
    its move its legal actions. ``table`` is a snapshot (a copy)."""

    seat: int
    players: int
    round: int
    current: int | None
    phase: str
    table: Table
    legal_actions: tuple[Action, ...]


@dataclass
class EvidenceState:
    """A game in progress; build one with :func:`new_game`."""

    table: Table
    evidence: dict[str, int]
    hands: dict[int, list[Card]]
    unknown: dict[int, list[Card]]
    round: int = 1
    current: int | None = None
    phase: str = PLAY
    turn_index: int = 0
    queues: dict[int, list[Entry]] = field(default_factory=dict)
    stats: dict[int, dict[str, int]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    initial_hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    initial_unknown: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    setup_cards: tuple[Card, ...] = ()
    winners: list[int] = field(default_factory=list)
    quiet: bool = False  # rollouts: no observation queues, no log

    def __post_init__(self) -> None:
        t = self.table
        self.initial_hands = {s: tuple(h) for s, h in self.hands.items()}
        self.initial_unknown = {s: tuple(u) for s, u in self.unknown.items()}
        self.setup_cards = tuple((c, v) for c in COLOURS for v in t.displays[c])
        for s in t.seats:
            t.hands[s] = Counter(c for c, _ in self.hands[s])
            t.unknown[s] = Counter(c for c, _ in self.unknown.get(s, []))
        self.stats = {s: dict.fromkeys(STAT_KEYS, 0) for s in t.seats}
        self.queues = {s: self.setup_lines(s) for s in t.seats}
        self._start_turn(t.start)

    def setup_lines(self, seat: int) -> list[Entry]:
        t = self.table
        lines: list[Entry] = [Players(t.players), Me(seat), Variant(t.pro), Start(t.start)]
        lines += [Values(c, t.data.values[c]) for c in COLOURS if t.data.values[c] != DEFAULT_DATA.values[c]]
        lines.append(SetupRumours(self.setup_cards))
        lines.append(Hand(self.initial_hands[seat]))
        for s in t.seats:
            if s != seat:
                lines.append(Holds(s, _counts(self.initial_hands[s])))
        if t.players == 2:
            lines += [Unknown(s, _counts(self.initial_unknown[s])) for s in t.seats]
        return lines

    # -- the State interface ----------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.table.players

    def current_player(self) -> int | None:
        return self.current

    def is_terminal(self) -> bool:
        return self.current is None

    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def returns(self) -> list[float]:
        w = self.winner()
        return [1.0 if s == w else 0.0 for s in self.table.seats]

    def clone(self) -> EvidenceState:
        other = copy.copy(self)
        other.table = self.table.clone()
        other.hands = {s: list(h) for s, h in self.hands.items()}
        other.unknown = {s: list(u) for s, u in self.unknown.items()}
        other.queues = {s: list(q) for s, q in self.queues.items()}
        other.stats = {s: dict(d) for s, d in self.stats.items()}
        other.log = list(self.log)
        other.winners = list(self.winners)
        return other

    def take_observations(self, seat: int) -> list[Entry]:
        out = self.queues[seat]
        self.queues[seat] = []
        return out

    def player_stats(self, seat: int) -> Mapping[str, float]:
        return dict(self.stats[seat])

    def view(self, seat: int) -> EvidenceView:
        legal = tuple(self.legal_actions()) if seat == self.current else ()
        return EvidenceView(seat, self.num_players, self.round, self.current, self.phase, self.table.clone(), legal)

    def soundness_failure(self, seat: int, knowledge: object, deep: bool = False) -> str | None:
        """Whether a seat's knowledge model still admits the true world (see ``EvidenceKnowledge.admits``)."""
        admits = getattr(knowledge, "admits", None)
        if admits is None:
            return None
        return admits(self.true_world(), deep)

    def true_world(self) -> TrueWorld:
        return TrueWorld(self.evidence, self.initial_hands, self.initial_unknown)

    # -- legal actions ---------------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        seat = self.current
        if seat is None:
            return []
        t = self.table
        if self.phase == UNCOVER:
            return [Uncover(c) for c in COLOURS if t.unknown[seat][c]]
        if self.phase == PLAY:
            return [PlayRumour(c, v) for c, v in sorted(set(self.hands[seat]), key=_card_order)]
        if self.phase == SEARCH:
            out: list[Action] = []
            if t.room(seat) > 0:
                out = [Take(c) for c in COLOURS if t.available(c)]
            return [*out, Done()]
        return [*self._extra_actions(seat), Done()]

    def _any_extra(self, seat: int) -> bool:
        """Whether ``seat`` has any legal time-out or tool now (cheaper than listing them)."""
        t = self.table
        if not t.can_extra(seat):
            return False
        swappable = [c for c in COLOURS if t.articles[seat][c] and _can_replace(t, seat, c)]
        if not t.pro:
            return any(c in t.timeouts for c in swappable)
        usable = {
            "fortune": any(v is None for v in t.evidence.values()),
            "balloon": any(t.available(c) for c in COLOURS),
            "timeout": bool(swappable),
        }
        return any(usable.get(tool, True) for tool in t.tools)

    def _extra_actions(self, seat: int) -> list[Action]:
        return extra_actions(self.table, seat)

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` with the reason if ``action`` is not legal now."""
        seat = self.current
        if seat is None:
            raise IllegalActionError(f"'{action}': the game is over")
        expected = {
            UNCOVER: "uncover one of your unknown rumours first ('uncover COLOUR')",
            PLAY: "play a rumour first ('play COLOUR VALUE')",
            SEARCH: "search ('take COLOUR') or 'done'",
            EXTRA: "a time-out, a tool or 'done'",
        }[self.phase]
        kinds = {UNCOVER: (Uncover,), PLAY: (PlayRumour,), SEARCH: (Take, Done), EXTRA: (UseTimeOut, UseTool, Done)}
        if not isinstance(action, kinds[self.phase]):
            raise IllegalActionError(f"'{action}': now {expected}")
        if isinstance(action, PlayRumour) and (action.colour, action.value) not in self.hands[seat]:
            raise IllegalActionError(f"'{action}': player {seat} holds no {action.colour} {action.value}")
        if isinstance(action, Uncover) and not self.table.unknown[seat][action.colour]:
            raise IllegalActionError(f"'{action}': player {seat} has no unknown {action.colour} rumour left")

    # -- applying actions ------------------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Play ``action`` for the player to move; raise :class:`IllegalActionError` (state unchanged) if illegal."""
        self.check(action)
        seat = self.current
        assert seat is not None
        t = self.table
        if isinstance(action, Uncover):
            i = next(i for i, (c, _) in enumerate(self.unknown[seat]) if c == action.colour)
            colour, value = self.unknown[seat].pop(i)
            self._rumour(Reveal(seat, colour, value), t.reveal(seat, colour, value))
            self.phase = PLAY
        elif isinstance(action, PlayRumour):
            card = (action.colour, action.value)
            uncover = t.play(seat, *card)
            self.hands[seat].remove(card)
            self._rumour(Play(seat, *card), uncover)
            self.phase = SEARCH
        elif isinstance(action, Take):
            t.search(seat, (action.colour,))
            self._tell_all(Search(seat, (action.colour,)))
        elif isinstance(action, Done):
            self.phase = EXTRA if self.phase == SEARCH else "end"
        elif isinstance(action, UseTimeOut):
            trial = t.clone()
            trial.timeout(seat, action.colour, action.take)
            self.table = t = trial
            self.stats[seat]["timeouts"] += 1
            self._tell_all(TimeOut(seat, action.colour, action.take))
            self.phase = "end"
        elif isinstance(action, UseTool):
            trial = t.clone()
            trial.use_tool(seat, action.tool, action.colour, action.take)
            self.table = t = trial
            self.stats[seat]["tools"] += 1
            self._tell_all(ToolUsed(seat, action.tool, action.colour, action.take))
            if action.tool == "fortune" and not self.quiet:
                assert action.colour is not None
                self.queues[seat].append(Look(action.colour, self.evidence[action.colour]))
            self.phase = "end"
        if not self.quiet:
            self.log.append(f"round {self.round}: player {seat}: {action}")
        self._skip_empty_steps()

    def _rumour(self, event: Play | Reveal, uncover: bool) -> None:
        self._tell_all(event)
        if uncover:
            self._uncover(event.colour)

    def _uncover(self, colour: str) -> None:
        value = self.evidence[colour]
        self.table.show_evidence(colour, value)
        self._tell_all(EvidenceShown(colour, value))

    def _tell_all(self, obs: Entry) -> None:
        if self.quiet:
            return
        for q in self.queues.values():
            q.append(obs)

    def _skip_empty_steps(self) -> None:
        """Move past steps where ``done`` is the only legal action, and past the end of a turn."""
        while self.current is not None:
            seat = self.current
            if self.phase == SEARCH and not (self.table.room(seat) and any(self.table.available(c) for c in COLOURS)):
                self.phase = EXTRA
                continue
            if self.phase == EXTRA and not self._any_extra(seat):
                self.phase = "end"
                continue
            if self.phase == "end":
                self._end_turn()
                continue
            return

    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self.stats[seat]["turns"] += 1
        self.phase = UNCOVER if self.table.players == 2 else PLAY

    def _end_turn(self) -> None:
        order = self.table.seat_order()
        self.turn_index += 1
        if self.turn_index == len(order):
            self.turn_index = 0
            self.round += 1
            if self.round > ROUNDS:
                self._finish()
                return
        self._start_turn(order[self.turn_index])

    def _finish(self) -> None:
        self.current = None
        self.phase = "over"
        for colour in COLOURS:
            if self.table.evidence[colour] is None:
                self._uncover(colour)
        t = self.table
        for s in t.seats:
            st = self.stats[s]
            st["score"] = t.score(s, self.evidence)
            st["articles"] = sum(t.articles[s].values())
            st["hot_leads"] = len(t.hot[s])
            st["colours"] = t.tiebreak(s)[0]
        self.winners = t.winners(self.evidence)
        self.log.append(
            "end: " + ", ".join(f"player {s} {self.stats[s]['score']}" for s in t.seats) + f"; winners {self.winners}"
        )


@dataclass(frozen=True)
class TrueWorld:
    """The hidden deal, for soundness checks: the evidence and every initial hand and unknown pile."""

    evidence: Mapping[str, int]
    hands: Mapping[int, tuple[Card, ...]]
    unknown: Mapping[int, tuple[Card, ...]]


def _counts(cards: tuple[Card, ...]) -> tuple[tuple[str, int], ...]:
    counts = Counter(c for c, _ in cards)
    return tuple((c, counts[c]) for c in COLOURS if counts[c])


def _card_order(card: Card) -> tuple[int, int]:
    return (COLOURS.index(card[0]), card[1])


def extra_actions(t: Table, seat: int) -> list[Action]:
    """Every time-out (basic) or tool (pro) ``seat`` may use now, with every choice of cards."""
    if not t.can_extra(seat):
        return []
    out: list[Action] = []
    swaps = [(c, take) for c in COLOURS if t.articles[seat][c] for take in _replacements(t, seat, c)]
    if not t.pro:
        out += [UseTimeOut(c, take) for c, take in swaps if c in t.timeouts]
        return out
    for tool in TOOLS:
        if tool not in t.tools:
            continue
        if tool == "fortune":
            out += [UseTool(tool, c) for c in COLOURS if t.evidence[c] is None]
        elif tool == "balloon":
            out += [UseTool(tool, c) for c in COLOURS if t.available(c)]
        elif tool == "timeout":
            out += [UseTool(tool, c, take) for c, take in swaps]
        else:
            out.append(UseTool(tool))
    return out


def _can_replace(t: Table, seat: int, colour: str) -> bool:
    return sum(t.available(c) for c in COLOURS if c != colour) >= t.articles[seat][colour]


def _replacements(t: Table, seat: int, colour: str) -> list[tuple[str, ...]]:
    """Every multiset of other available search cards as large as ``seat``'s ``colour`` cards."""
    n = t.articles[seat][colour]
    others = [c for c in COLOURS if c != colour and t.available(c)]
    out = []
    for combo in itertools.combinations_with_replacement(others, n):
        if all(t.available(c) >= k for c, k in Counter(combo).items()):
            out.append(combo)
    return out


def new_game(
    rng: random.Random,
    players: int,
    pro: bool = False,
    data: GameData = DEFAULT_DATA,
    first_player: int | None = None,
) -> EvidenceState:
    """Set up a table as the rulebook describes: per mystery, shuffle its rumours, hide one as the evidence and
    reveal the setup rumours; shuffle the rest together and deal hands of 6 (two players: then 6 unknown
    rumours each)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise AssistantError(f"players {players}: expected {MIN_PLAYERS} to {MAX_PLAYERS}")
    start = rng.randint(1, players) if first_player is None else first_player
    table = Table(players, data, pro, start)
    evidence: dict[str, int] = {}
    rest: list[Card] = []
    for colour in COLOURS:
        cards = list(data.values[colour])
        rng.shuffle(cards)
        evidence[colour] = cards[0]
        k = data.setup_revealed[players]
        table.displays[colour] = cards[1 : 1 + k]
        rest += [(colour, v) for v in cards[1 + k :]]
    rng.shuffle(rest)
    hands = {s: rest[(s - 1) * HAND_SIZE : s * HAND_SIZE] for s in table.seats}
    unknown: dict[int, list[Card]] = {}
    if players == 2:
        base = players * HAND_SIZE
        unknown = {s: rest[base + (s - 1) * UNKNOWN_PER_PLAYER : base + s * UNKNOWN_PER_PLAYER] for s in table.seats}
    return EvidenceState(table, evidence, hands, unknown)

