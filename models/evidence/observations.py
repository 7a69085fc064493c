"""Evidence observations and actions as values: each prints as the line a user types, :func:`parse` and
:func:`parse_action` read it back.

Seats are numbered 1..N clockwise. Parsing checks names and shapes; whether an entry fits the game (seats,
counts, which cards are left) is checked by the table and knowledge models, which know the setup.

Entries a player types (rulebook "Setup of the Game", "Course of a Round"):

    players 4            me 2             variant basic|pro      start 1
    values blue -1 0 1 2 3 3             (a mystery's six rumour values, if not -1..4)
    setup white 3 blue 0 ...             (rumours revealed at setup)
    hand white 2 blue -1 ...             (my six rumours)
    holds 3 white 2 blue 1 ...           (how many rumours of each colour player 3 holds: public)
    unknown 1 white 1 pink 2 ...         (two players: back colours of a player's unknown rumours)
    play 3 blue 2        reveal 3 blue 2 (two players: an unknown rumour uncovered)
    evidence blue 2      look blue 2     (an evidence uncovered / my Fortune-Teller look)
    search 3 blue blue green             timeout 3 blue for green yellow
    tool 3 fortune blue  tool 3 balloon green  tool 3 timeout blue for green  tool 3 plane|telescope|typewriter
"""

from __future__ import annotations

from dataclasses import dataclass

from models.evidence.data import CARDS_PER_MYSTERY, COLOURS, MAX_PLAYERS, MIN_PLAYERS, MYSTERY_NAMES, TOOL_NAMES, TOOLS
from solver.errors import InvalidObservationError, UnknownEntryError
from solver.names import Names, normalize
from solver.parsing import Me, Players, Start, expect_end, missing, parse_int, split_entry

_COLOUR_NAMES = Names(COLOURS, "mystery colour")
_ALIASES = {normalize(name): colour for colour, name in MYSTERY_NAMES.items()}
_TOOL_NAMES = Names(TOOLS, "tool")
_TOOL_ALIASES = {normalize(name): tool for tool, name in TOOL_NAMES.items()} | {
    "planetickets": "plane",
    "fortuneteller": "fortune",
    "balloonride": "balloon",
    "takeatimeout": "timeout",
}

Card = tuple[str, int]


def colour_of(token: str) -> str:
    """Resolve a typed colour (unique prefix) or mystery name (Yeti, Sea Monster, Mummy)."""
    key = normalize(token)
    if key in _ALIASES and key not in {normalize(c) for c in COLOURS}:
        return _ALIASES[key]
    return _COLOUR_NAMES.resolve(token)


def tool_of(token: str) -> str:
    key = normalize(token)
    return _TOOL_ALIASES.get(key) or _TOOL_NAMES.resolve(token)


def card_text(card: Card) -> str:
    return f"{card[0]} {card[1]}"


def cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(card_text(c) for c in cards)


def counts_text(counts: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{c} {n}" for c, n in counts if n) or "none"


# -- setup entries -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """``pro``: the professional tools replace the time-outs."""

    pro: bool

    def __str__(self) -> str:
        return f"variant {'pro' if self.pro else 'basic'}"


@dataclass(frozen=True)
class Values:
    """The six rumour values of one mystery, when they differ from -1..4 (the overview card)."""

    colour: str
    values: tuple[int, ...]

    def __str__(self) -> str:
        return f"values {self.colour} {' '.join(str(v) for v in self.values)}"


@dataclass(frozen=True)
class SetupRumours:
    """The rumours revealed at setup, placed with their mystery."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"setup {cards_text(self.cards)}".rstrip()


@dataclass(frozen=True)
class Hand:
    """My starting hand of rumours."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"hand {cards_text(self.cards)}"


@dataclass(frozen=True)
class Holds:
    """How many rumours of each colour another player was dealt (card backs are public)."""

    seat: int
    counts: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return f"holds {self.seat} {counts_text(self.counts)}"


@dataclass(frozen=True)
class Unknown:
    """Two players: the back colours of a player's six unknown rumours."""

    seat: int
    counts: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return f"unknown {self.seat} {counts_text(self.counts)}"


# -- what happens during the game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """Player ``seat`` played the rumour (colour, value) from their hand."""

    seat: int
    colour: str
    value: int

    def __str__(self) -> str:
        return f"play {self.seat} {self.colour} {self.value}"


@dataclass(frozen=True)
class Reveal:
    """Two players: player ``seat`` uncovered one of their unknown rumours, (colour, value)."""

    seat: int
    colour: str
    value: int

    def __str__(self) -> str:
        return f"reveal {self.seat} {self.colour} {self.value}"


@dataclass(frozen=True)
class EvidenceShown:
    """A mystery's evidence was uncovered (its 5th rumour, or the end of the game)."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"evidence {self.colour} {self.value}"


@dataclass(frozen=True)
class Look:
    """My Fortune-Teller: I secretly saw a mystery's covered evidence."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"look {self.colour} {self.value}"


@dataclass(frozen=True)
class Search:
    """Player ``seat`` took search cards (the Hot Lead first, while it is on top of its stack)."""

    seat: int
    colours: tuple[str, ...]

    def __str__(self) -> str:
        return f"search {self.seat} {' '.join(self.colours)}"


@dataclass(frozen=True)
class TimeOut:
    """Basic game: ``seat`` used the time-out of ``colour``, returned all its search cards, took ``take``."""

    seat: int
    colour: str
    take: tuple[str, ...]

    def __str__(self) -> str:
        return f"timeout {self.seat} {self.colour} for {' '.join(self.take)}"


@dataclass(frozen=True)
class ToolUsed:
    """Pro variant: ``seat`` used a professional tool. ``colour`` is the mystery looked at (fortune), the card
    taken (balloon) or the mystery swapped away (timeout, with ``take``)."""

    seat: int
    tool: str
    colour: str | None = None
    take: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"tool {self.seat} {self.tool}"
        if self.colour:
            text += f" {self.colour}"
        if self.tool == "timeout":
            text += f" for {' '.join(self.take)}"
        return text


Setup = Players | Me | Variant | Start | Values | SetupRumours | Hand | Holds | Unknown
Observation = Play | Reveal | EvidenceShown | Look | Search | TimeOut | ToolUsed
Entry = Setup | Observation
SETUP_TYPES = (Players, Me, Variant, Start, Values, SetupRumours, Hand, Holds, Unknown)


# -- parsing ---------------------------------------------------------------------------------------------------


#: A rumour or evidence value: the rulebook's are -1 to 4; 'values' may set others within this range.
VALUE_RANGE = (-9, 99)
#: Cards of one colour a hand or pile can hold: every rumour of that mystery.
COUNT_RANGE = (0, CARDS_PER_MYSTERY)


def seat_of(token: str) -> int:
    """A seat number: 1 to the most players a table can have (the setup checks it against this table)."""
    return parse_int(token, "seat", 1, MAX_PLAYERS)


def value_of(token: str) -> int:
    """A rumour or evidence value, in :data:`VALUE_RANGE`."""
    return parse_int(token, "value", *VALUE_RANGE)


def _need(args: list[str], n: int, usage: str) -> None:
    if len(args) < n:
        missing(usage)


def _cards(args: list[str], usage: str) -> tuple[Card, ...]:
    if len(args) % 2:
        raise InvalidObservationError(f"'{' '.join(args)}': expected colour-value pairs, '{usage}'")
    return tuple((colour_of(args[i]), value_of(args[i + 1])) for i in range(0, len(args), 2))


def _counts(args: list[str], usage: str) -> tuple[tuple[str, int], ...]:
    if args == ["none"]:
        return ()
    if len(args) % 2:
        raise InvalidObservationError(f"'{' '.join(args)}': expected colour-count pairs, '{usage}'")
    out: dict[str, int] = {}
    for i in range(0, len(args), 2):
        colour = colour_of(args[i])
        n = parse_int(args[i + 1], "count", *COUNT_RANGE)
        if colour in out:
            raise InvalidObservationError(f"'{colour}' is given twice")
        out[colour] = n
    return tuple((c, out[c]) for c in COLOURS if out.get(c))


def _colours(args: list[str]) -> tuple[str, ...]:
    return tuple(colour_of(a) for a in args)


def _swap(args: list[str], usage: str) -> tuple[str, tuple[str, ...]]:
    """``COLOUR for COLOUR...``: the mystery given back and the cards taken instead."""
    if len(args) < 3 or args[1].lower() != "for":
        raise InvalidObservationError(f"'{' '.join(args)}': expected '{usage}'")
    return colour_of(args[0]), _colours(args[2:])


def parse(line: str) -> Entry:
    """Read one entry line (comments after '#' are ignored)."""
    first, args = split_entry(line)
    verb = first.lower()
    if verb in ("players", "me", "start"):
        usage = f"{verb} {'N' if verb == 'players' else 'SEAT'}"
        _need(args, 1, usage)
        expect_end(args, 1, usage)
        n = parse_int(args[0], "players", MIN_PLAYERS, MAX_PLAYERS) if verb == "players" else seat_of(args[0])
        return Players(n) if verb == "players" else Me(n) if verb == "me" else Start(n)
    if verb == "variant":
        usage = "variant basic|pro"
        if len(args) != 1 or args[0].lower() not in ("basic", "pro", "professional"):
            raise InvalidObservationError(f"variant '{' '.join(args)}': expected '{usage}'")
        return Variant(args[0].lower() in ("pro", "professional"))
    if verb == "values":
        usage = "values COLOUR V1 V2 V3 V4 V5 V6"
        _need(args, 2, usage)
        return Values(colour_of(args[0]), tuple(sorted(value_of(a) for a in args[1:])))
    if verb in ("setup", "revealed"):
        return SetupRumours(_cards(args, "setup COLOUR VALUE ..."))
    if verb == "hand":
        return Hand(_cards(args, "hand COLOUR VALUE ..."))
    if verb in ("holds", "unknown"):
        usage = f"{verb} SEAT COLOUR COUNT ..."
        _need(args, 1, usage)
        seat = seat_of(args[0])
        counts = _counts(args[1:], usage)
        return Holds(seat, counts) if verb == "holds" else Unknown(seat, counts)
    if verb in ("play", "reveal"):
        usage = f"{verb} SEAT COLOUR VALUE"
        _need(args, 3, usage)
        expect_end(args, 3, usage)
        seat, colour, value = seat_of(args[0]), colour_of(args[1]), value_of(args[2])
        return Play(seat, colour, value) if verb == "play" else Reveal(seat, colour, value)
    if verb in ("evidence", "look"):
        usage = f"{verb} COLOUR VALUE"
        _need(args, 2, usage)
        expect_end(args, 2, usage)
        colour, value = colour_of(args[0]), value_of(args[1])
        return EvidenceShown(colour, value) if verb == "evidence" else Look(colour, value)
    if verb in ("search", "take"):
        usage = "search SEAT COLOUR [COLOUR ...]"
        _need(args, 2, usage)
        return Search(seat_of(args[0]), _colours(args[1:]))
    if verb == "timeout":
        usage = "timeout SEAT COLOUR for COLOUR [COLOUR ...]"
        _need(args, 1, usage)
        colour, take = _swap(args[1:], usage)
        return TimeOut(seat_of(args[0]), colour, take)
    if verb == "tool":
        return _parse_tool(args)
    raise UnknownEntryError(first)


def _parse_tool(args: list[str]) -> ToolUsed:
    usage = "tool SEAT TOOL [COLOUR] [for COLOUR ...]"
    _need(args, 2, usage)
    return _tool_used(seat_of(args[0]), args[1:])


def _tool_used(seat: int, args: list[str]) -> ToolUsed:
    """``TOOL [COLOUR] [for COLOUR ...]`` used by ``seat`` (0 when it is the player to move, unnamed)."""
    tool = tool_of(args[0])
    rest = args[1:]
    if tool == "timeout":
        colour, take = _swap(rest, "tool SEAT timeout COLOUR for COLOUR ...")
        return ToolUsed(seat, tool, colour, take)
    if tool in ("fortune", "balloon"):
        if len(rest) != 1:
            raise InvalidObservationError(f"tool {tool}: expected 'tool SEAT {tool} COLOUR'")
        return ToolUsed(seat, tool, colour_of(rest[0]))
    expect_end(rest, 0, f"tool SEAT {tool}")
    return ToolUsed(seat, tool)


# -- actions: what the player to move does (the rules engine, the bots and the advisor speak these) ------------


@dataclass(frozen=True)
class Uncover:
    """Two players, first step of a turn: uncover one of my unknown rumours, chosen by its back colour."""

    colour: str

    def __str__(self) -> str:
        return f"uncover {self.colour}"


@dataclass(frozen=True)
class PlayRumour:
    """Play a rumour from my hand (mandatory, once a turn)."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"play {self.colour} {self.value}"


@dataclass(frozen=True)
class Take:
    """Search: take one search card of ``colour`` (repeat to take several)."""

    colour: str

    def __str__(self) -> str:
        return f"take {self.colour}"


@dataclass(frozen=True)
class Done:
    """End the current optional step (stop searching, or end the turn without a time-out or tool)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class UseTimeOut:
    """Basic game: use the time-out of ``colour``: return all my ``colour`` search cards, take ``take``."""

    colour: str
    take: tuple[str, ...]

    def __str__(self) -> str:
        return f"timeout {self.colour} for {' '.join(self.take)}"


@dataclass(frozen=True)
class UseTool:
    """Pro variant: use a professional tool (see :class:`ToolUsed` for ``colour`` and ``take``)."""

    tool: str
    colour: str | None = None
    take: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"tool {self.tool}"
        if self.colour:
            text += f" {self.colour}"
        if self.tool == "timeout":
            text += f" for {' '.join(self.take)}"
        return text


Action = Uncover | PlayRumour | Take | Done | UseTimeOut | UseTool


def parse_action(line: str) -> Action:
    """Read an action as the player to move types it."""
    first, args = split_entry(line, "action")
    verb = first.lower()
    if verb == "uncover":
        _need(args, 1, "uncover COLOUR")
        expect_end(args, 1, "uncover COLOUR")
        return Uncover(colour_of(args[0]))
    if verb == "play":
        _need(args, 2, "play COLOUR VALUE")
        expect_end(args, 2, "play COLOUR VALUE")
        return PlayRumour(colour_of(args[0]), value_of(args[1]))
    if verb == "take":
        _need(args, 1, "take COLOUR")
        expect_end(args, 1, "take COLOUR")
        return Take(colour_of(args[0]))
    if verb in ("done", "pass"):
        expect_end(args, 0, "done")
        return Done()
    if verb == "timeout":
        colour, take = _swap(args, "timeout COLOUR for COLOUR ...")
        return UseTimeOut(colour, take)
    if verb == "tool":
        _need(args, 1, "tool TOOL [COLOUR] [for COLOUR ...]")
        used = _tool_used(0, args)
        return UseTool(used.tool, used.colour, used.take)
    raise InvalidObservationError(f"unknown action '{first}'")
