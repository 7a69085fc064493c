"""Time Bomb Evolution rules (rulebook ``rules/time-bomb-evolution.txt``, RULES-NOTES "Time Bomb Evolution").

Two layers, so the companion session and the simulations validate moves with the same code:

- :class:`Table` is the *public* game: whose turn, hand sizes, the cut cards, the covers, turn tokens, rounds
  and the end of the game. It applies public events (claims, cuts with the card revealed, covers, uncovers,
  red draws, redeals) and raises :class:`solver.errors.IllegalActionError` for anything the rules forbid.
- :class:`TimeBombState` is the whole table for the engine (hidden hands, roles, the removed cards, a seeded
  random source for shuffles, cuts and red draws), OpenSpiel-like, with one observation queue per seat.

What each seat is told: ``players``, ``me``, ``role`` (its own), ``start`` and ``hand`` at the start; every
claim, cut (with the card), cover, uncover and red draw (public); its own ``redeal`` at each new round.
Nobody is told another player's role, the removed cards or, with 4 players, the role card set aside.

Choices where the rulebook is silent (documented in the README section too):

- **Claims** are made at the start of every round, each player once, in seat order from the cutter (the
  engine; the companion accepts a claim at any time). A claim counts defusing cards in the current hand.
- **Defusing / yellow card**: the cutter must place it on an uncovered colour with at least one cut card if
  there is one (their choice of colour); otherwise it has no effect. The yellow card counts itself, so a cut
  yellow may cover yellow. The cover stays until a blue bomb removes it.
- **Blue bomb**: if any colour is covered, the cutter must remove one cover (their choice).
- **Order**: a card's effect (cover or uncover) resolves, then explosions are checked; a red bomb that does
  not explode triggers its extra cut. The last defusing card wins at once.
- **Explosion**: a colour with at least its threshold of cut cards and no cover; pink also when two pink
  cards are cut one right after the other (red extra cuts and round boundaries included) and pink is not
  covered.
- **Red bomb**: number 0 cuts a card of the cutter, k the k-th player to the left (seat + k); a player with
  no card left means no extra cut. The extra cut uses no turn token; its owner takes the next turn.
- **Turns**: the player whose card was cut last takes the next turn (they may cut anyone else). If that
  player can cut nobody (every other hand is empty) the round ends early.
- **Orange**: the last round has N - (oranges cut) turns, counted as they are cut; 0 ends the game.
- **Redeal** when fewer cards remain than full hands (red extra cuts): deal one at a time from the next
  cutter clockwise, so some hands are one card short.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from models.time_bomb.data import DEFAULT_DATA, DEFUSE, MORIARTY, SHERLOCK, GameData, Setup
from models.time_bomb.observations import (
    Action,
    Claim,
    Cover,
    Cut,
    Draw,
    Entry,
    Hand,
    Me,
    Players,
    Redeal,
    Role,
    Say,
    Start,
    Target,
    Uncover,
)
from models.time_bomb.variables import instance_variable, slot_value
from solver.errors import AssistantError, IllegalActionError
from solver.text import plural

CUT = "cut"  # the cutter chooses whom to cut
COVER = "cover"  # the cutter places a defusing / yellow card
UNCOVER = "uncover"  # the cutter of a blue bomb removes a cover
DRAW = "draw"  # a red bomb was cut: the numbered card is drawn
EXTRA = "extra"  # the red bomb's extra cut from the drawn player
REDEAL = "redeal"  # the round is over: the remaining cards are dealt again
OVER = "over"

# Colour effects are keyed by colour name (the data may leave colours out, never rename them).
PINK, RED, BLUE, YELLOW, ORANGE = "pink", "red", "blue", "yellow", "orange"


@dataclass(frozen=True)
class CutRecord:
    """One cut: ``index`` is the 1-based position of the card among those cut from ``seat`` this round."""

    round: int
    turn: int
    cutter: int
    seat: int
    card: str
    extra: bool
    index: int


def left_of(seat: int, steps: int, players: int) -> int:
    """The ``steps``-th player to the left of ``seat`` (seat + steps, wrapping)."""
    return (seat - 1 + steps) % players + 1


@dataclass
class Table:
    """The public state of a game; see the module docstring for the rules it enforces."""

    setup: Setup
    start: int
    round: int = 1
    phase: str = CUT
    cutter: int = 0
    turns_taken: int = 0
    sizes: dict[int, int] = field(default_factory=dict)
    round_sizes: list[dict[int, int]] = field(default_factory=list)
    cut_in_round: dict[int, int] = field(default_factory=dict)
    cuts: list[CutRecord] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    covered: dict[str, str] = field(default_factory=dict)
    defusers_cut: int = 0
    oranges_cut: int = 0
    pending: str | None = None  # the card whose cover / uncover choice is awaited
    extra_target: int | None = None
    winner: str | None = None
    reason: str = ""
    exploded: str | None = None

    def __post_init__(self) -> None:
        self._seat(self.start, "start")
        self.cutter = self.start
        self.sizes = dict.fromkeys(self.seats, self.setup.hand_sizes[0])
        self.round_sizes = [dict(self.sizes)]
        self.cut_in_round = dict.fromkeys(self.seats, 0)
        self.counts = dict.fromkeys(self.setup.colours, 0)

    # -- facts ----------------------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def seats(self) -> list[int]:
        return list(range(1, self.players + 1))

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def turn_limit(self) -> int:
        """Turns in the current round: one per player, the last round shortened by each orange cut."""
        if self.round < self.setup.rounds:
            return self.setup.turns_per_round
        return max(0, self.setup.turns_per_round - self.oranges_cut)

    def turns_left(self) -> int:
        return max(0, self.turn_limit() - self.turns_taken)

    def targets(self) -> list[int]:
        """Whom the cutter may cut now."""
        if self.phase == EXTRA:
            return [self.extra_target] if self.extra_target is not None else []
        if self.phase != CUT:
            return []
        return [s for s in self.seats if s != self.cutter and self.sizes[s] > 0]

    def coverable(self) -> list[str]:
        """Colours a defusing or yellow card may be placed on: uncovered, with at least one cut card."""
        return [c for c in self.setup.colours if self.counts[c] > 0 and c not in self.covered]

    def last_card(self) -> str | None:
        return self.cuts[-1].card if self.cuts else None

    def defusers_left(self) -> int:
        return self.setup.defusers - self.defusers_cut

    def round_cuts(self, round_: int | None = None) -> list[CutRecord]:
        r = self.round if round_ is None else round_
        return [c for c in self.cuts if c.round == r]

    def remaining_cards(self) -> int:
        return sum(self.sizes.values())

    def next_sizes(self) -> dict[int, int]:
        """Hand sizes of the next deal: the round's hand size, one card at a time from the next cutter."""
        hand = self.setup.hand_sizes[self.round]  # the next round's (0-based index = current round)
        remaining = self.remaining_cards()
        base, extra = divmod(remaining, self.players)
        out = {}
        for i in range(self.players):
            seat = left_of(self.cutter, i, self.players)
            out[seat] = min(hand, base + (1 if i < extra else 0))
        return out

    def status(self) -> str:
        """One line: round, turn, whose move, or the result."""
        if self.over:
            return f"game over: {self.winner} wins ({self.reason})"
        what = {
            CUT: f"player {self.cutter} cuts",
            COVER: f"player {self.cutter} covers a colour with the {self.pending} card",
            UNCOVER: f"player {self.cutter} removes a cover (blue bomb)",
            DRAW: f"player {self.cutter} draws a numbered card (red bomb)",
            EXTRA: f"player {self.cutter} cuts a card of player {self.extra_target} (red bomb)",
            REDEAL: "the round is over: deal the remaining cards again",
        }[self.phase]
        return (
            f"round {self.round}/{self.setup.rounds}, turn {min(self.turns_taken + 1, max(self.turn_limit(), 1))}"
            f"/{self.turn_limit()}, defusing cards {self.defusers_cut}/{self.setup.defusers}: {what}"
        )

    # -- checks ---------------------------------------------------------------------------------------------
    def _seat(self, seat: int, what: str = "seat") -> None:
        if not 1 <= seat <= self.players:
            raise IllegalActionError(f"{what} {seat}: expected 1 to {self.players}")

    def _playing(self, entry: object) -> None:
        if self.over:
            raise IllegalActionError(f"'{entry}': the game is over ({self.winner} won)")

    def check_claim(self, claim: Claim) -> None:
        self._playing(claim)
        self._seat(claim.seat)
        if self.phase == REDEAL:
            raise IllegalActionError(f"'{claim}': the round is over; enter your new hand with 'redeal ...' first")
        if not 0 <= claim.defusers <= self.sizes[claim.seat]:
            raise IllegalActionError(
                f"'{claim}': player {claim.seat} holds {plural(self.sizes[claim.seat], 'card')}, so 0 to "
                f"{self.sizes[claim.seat]} defusing cards"
            )

    def check_cut(self, cut: Cut) -> None:
        self._playing(cut)
        self._seat(cut.seat)
        if cut.card not in self.setup.types:
            raise IllegalActionError(f"'{cut}': {cut.card} is not in play with {self.players} players")
        if self.phase == EXTRA:
            if cut.seat != self.extra_target:
                raise IllegalActionError(
                    f"'{cut}': the red bomb's extra cut is from player {self.extra_target}, not {cut.seat}"
                )
            return
        if self.phase != CUT:
            raise IllegalActionError(f"'{cut}': {self._pending_first()}")
        if cut.seat == self.cutter:
            raise IllegalActionError(f"'{cut}': player {self.cutter} holds the cutter and must cut another player")
        if self.sizes[cut.seat] == 0:
            raise IllegalActionError(f"'{cut}': player {cut.seat} has no card left")

    def _pending_first(self) -> str:
        """What the rules require before another cut (the phase's pending step), as a sentence."""
        return {
            COVER: f"player {self.cutter} must first place the {self.pending} card: 'cover COLOUR' "
                   f"({', '.join(self.coverable())})",
            UNCOVER: f"the blue bomb must first remove a cover: 'uncover COLOUR' ({', '.join(self.covered)})",
            DRAW: "the red bomb's numbered card comes first: 'draw K'",
            REDEAL: "the round is over: enter your new hand with 'redeal ...' first",
        }.get(self.phase, f"expected the pending step first ({self.status()})")

    def check_cover(self, cover: Cover) -> None:
        self._playing(cover)
        if self.phase != COVER:
            raise IllegalActionError(f"'{cover}': no defusing or yellow card is waiting to be placed")
        if cover.colour not in self.coverable():
            options = ", ".join(self.coverable())
            raise IllegalActionError(f"'{cover}': expected an uncovered colour with a cut card ({options})")

    def check_uncover(self, uncover: Uncover) -> None:
        self._playing(uncover)
        if self.phase != UNCOVER:
            raise IllegalActionError(f"'{uncover}': no blue bomb is waiting to remove a cover")
        if uncover.colour not in self.covered:
            raise IllegalActionError(f"'{uncover}': expected a covered colour ({', '.join(self.covered)})")

    def check_draw(self, draw: Draw) -> None:
        self._playing(draw)
        if self.phase != DRAW:
            raise IllegalActionError(f"'{draw}': no red bomb is waiting for its numbered card")
        if draw.number not in self.setup.numbers:
            raise IllegalActionError(f"'{draw}': expected a number 0 to {self.players - 1}")

    def check_redeal(self, cards: int, seat: int) -> None:
        self._playing("redeal")
        if self.phase != REDEAL:
            raise IllegalActionError(f"redeal: the round is not over ({self.status()})")
        expected = self.next_sizes()[seat]
        if cards != expected:
            raise IllegalActionError(f"redeal: player {seat} gets {plural(expected, 'card')} this round, not {cards}")

    # -- events ---------------------------------------------------------------------------------------------
    def claim(self, claim: Claim) -> None:
        self.check_claim(claim)

    def cut(self, cut: Cut) -> CutRecord:
        """Apply a cut (its card revealed) and the card's effect up to the next choice or the next turn."""
        self.check_cut(cut)
        extra = self.phase == EXTRA
        self.cut_in_round[cut.seat] += 1
        record = CutRecord(
            self.round, self.turns_taken + 1, self.cutter, cut.seat, cut.card, extra, self.cut_in_round[cut.seat]
        )
        self.cuts.append(record)
        self.sizes[cut.seat] -= 1
        self.extra_target = None
        card = cut.card
        if card == DEFUSE:
            self.defusers_cut += 1
            if self.defusers_cut == self.setup.defusers:
                self._finish(SHERLOCK, f"all {self.setup.defusers} defusing cards are cut")
                return record
            self._choose_or_resolve(card)
            return record
        self.counts[card] += 1
        if card == ORANGE:
            self.oranges_cut += 1
        if card == BLUE and self.covered:
            self.pending, self.phase = card, UNCOVER
            return record
        if card == YELLOW:
            self._choose_or_resolve(card)
            return record
        self._resolve(card)
        return record

    def _choose_or_resolve(self, card: str) -> None:
        if self.coverable():
            self.pending, self.phase = card, COVER
        else:
            self._resolve(card)

    def cover(self, cover: Cover) -> None:
        self.check_cover(cover)
        assert self.pending is not None
        self.covered[cover.colour] = self.pending
        card, self.pending = self.pending, None
        self._resolve(card)

    def uncover(self, uncover: Uncover) -> None:
        self.check_uncover(uncover)
        del self.covered[uncover.colour]
        card, self.pending = self.pending or BLUE, None
        self._resolve(card)

    def draw(self, draw: Draw) -> None:
        self.check_draw(draw)
        target = left_of(self.cutter, draw.number, self.players)
        if self.sizes[target] == 0:
            self._end_turn()
        else:
            self.phase, self.extra_target = EXTRA, target

    def redeal(self) -> None:
        """Start the next round with :meth:`next_sizes` hands (the cards themselves are hidden)."""
        if self.phase != REDEAL:
            raise IllegalActionError(f"redeal: the round is not over ({self.status()})")
        self.sizes = self.next_sizes()
        self.round += 1
        self.round_sizes.append(dict(self.sizes))
        self.cut_in_round = dict.fromkeys(self.seats, 0)
        self.turns_taken = 0
        self.phase = CUT
        if self.turn_limit() == 0 or not self.targets():
            self._end_round()

    def apply(self, entry: Entry) -> None:
        """Apply any public event (setup entries and redeals are handled by the caller)."""
        if isinstance(entry, Claim):
            self.claim(entry)
        elif isinstance(entry, Cut):
            self.cut(entry)
        elif isinstance(entry, Cover):
            self.cover(entry)
        elif isinstance(entry, Uncover):
            self.uncover(entry)
        elif isinstance(entry, Draw):
            self.draw(entry)
        else:
            raise IllegalActionError(f"'{entry}' is not a public event")

    # -- resolution -----------------------------------------------------------------------------------------
    def _explosion(self, card: str) -> str | None:
        for colour in self.setup.colours:
            if colour not in self.covered and self.counts[colour] >= self.setup.thresholds[colour]:
                return f"{plural(self.counts[colour], colour + ' bomb')} cut"
        previous = self.cuts[-2].card if len(self.cuts) >= 2 else None
        if card == PINK and previous == PINK and self.cuts[-1].card == PINK and PINK not in self.covered:
            return "two pink bombs cut in a row"
        return None

    def _resolve(self, card: str) -> None:
        boom = self._explosion(card)
        if boom:
            self.exploded = boom
            self._finish(MORIARTY, f"a bomb exploded: {boom}")
        elif card == RED:
            self.phase = DRAW
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.turns_taken += 1
        self.cutter = self.cuts[-1].seat
        self.phase = CUT
        if self.turns_taken >= self.turn_limit() or not self.targets():
            self._end_round()

    def _end_round(self) -> None:
        if self.round >= self.setup.rounds:
            self._finish(MORIARTY, f"round {self.setup.rounds} ended without defusing every bomb")
        else:
            self.phase = REDEAL

    def _finish(self, team: str, reason: str) -> None:
        self.winner, self.reason, self.phase = team, reason, OVER
        self.pending = self.extra_target = None

    def copy(self) -> Table:
        other = copy.copy(self)  # records are frozen; the mutable containers are copied below
        other.sizes = dict(self.sizes)
        other.round_sizes = [dict(d) for d in self.round_sizes]
        other.cut_in_round = dict(self.cut_in_round)
        other.cuts = list(self.cuts)
        other.counts = dict(self.counts)
        other.covered = dict(self.covered)
        return other


# -- the engine ---------------------------------------------------------------------------------------------

STAT_KEYS = ("moriarty", "won", "sherlock_win", "exploded", "turns", "defusers_cut", "claims_false", "rounds")


@dataclass(frozen=True)
class TableRules:
    """The table: player count, component data and (optionally) the first cutter (else random)."""

    players: int
    data: GameData = DEFAULT_DATA
    first_player: int | None = None

    def __post_init__(self) -> None:
        try:
            setup = self.data.setup(self.players)
        except ValueError as exc:
            raise AssistantError(str(exc)) from None
        if self.first_player is not None and not 1 <= self.first_player <= self.players:
            raise AssistantError(f"first player {self.first_player}: expected 1 to {self.players}")
        object.__setattr__(self, "_setup", setup)

    @property
    def setup(self) -> Setup:
        return self._setup  # type: ignore[attr-defined, no-any-return]


@dataclass(frozen=True)
class TableView:
    """What ``seat`` may know besides its observations: the public table and, on its move, its legal actions.
    ``table`` is a copy of the public state (whose turn, covers, cut cards, hand sizes)."""

    seat: int
    players: int
    current: int | None
    phase: str
    table: Table
    legal_actions: tuple[Action, ...]


Card = tuple[str, int]  # a physical card: (type, 1-based copy number), e.g. ("red", 3)


class TimeBombState:
    """A game in progress; :func:`new_game` deals one. ``rng`` drives every shuffle, cut and draw."""

    def __init__(self, rules: TableRules, rng: random.Random) -> None:
        self.rules = rules
        self.setup = setup = rules.setup
        self.rng = rng
        seats = list(range(1, setup.players + 1))
        roles = [SHERLOCK] * setup.sherlock_cards + [MORIARTY] * setup.moriarty_cards
        rng.shuffle(roles)
        self.roles: dict[int, str] = dict(zip(seats, roles, strict=False))
        self.aside_roles: tuple[str, ...] = tuple(roles[setup.players :])
        bombs: list[Card] = [(c, i) for c in setup.colours for i in range(1, setup.bombs_per_colour + 1)]
        rng.shuffle(bombs)
        self.removed: tuple[Card, ...] = tuple(sorted(bombs[: setup.removed]))
        deck = bombs[setup.removed :] + [(DEFUSE, i) for i in range(1, setup.defusers + 1)]
        start = rules.first_player if rules.first_player is not None else rng.randrange(1, setup.players + 1)
        self.table = Table(setup, start)
        self.hands: dict[int, list[Card]] = {}
        #: per round, each seat's cards in slot order: the cut ones first, in cut order (knowledge slot layout)
        self.rounds: list[dict[int, list[Card]]] = []
        self.queues: dict[int, list[Entry]] = {s: [] for s in seats}
        self.stats: dict[int, dict[str, int]] = {s: dict.fromkeys(STAT_KEYS, 0) for s in seats}
        self.claim_queue: list[int] = []
        self._deal(deck, self.table.sizes)
        for s in seats:
            mine = tuple(c for c, _ in self.hands[s])
            self.queues[s] += [Players(setup.players), Me(s), Role(self.roles[s]), Start(start), Hand(mine)]
            self.stats[s]["moriarty"] = int(self.roles[s] == MORIARTY)
        self._start_claims()

    # -- the State interface --------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.setup.players

    @property
    def seats(self) -> list[int]:
        return list(range(1, self.setup.players + 1))

    def current_player(self) -> int | None:
        if self.table.over:
            return None
        if self.claim_queue:
            return self.claim_queue[0]
        return self.table.cutter

    def is_terminal(self) -> bool:
        return self.table.over

    def winning_team(self) -> str | None:
        return self.table.winner

    def winner(self) -> int | None:
        """Always ``None``: the winner is a team (:meth:`winning_team`, :meth:`returns`), not one seat."""
        return None

    def returns(self) -> list[float]:
        return [1.0 if self.table.winner == self.roles[s] else 0.0 for s in self.seats]

    def clone(self) -> TimeBombState:
        other = copy.deepcopy(self)
        return other

    def take_observations(self, seat: int) -> list[Entry]:
        out = self.queues[seat]
        self.queues[seat] = []
        return out

    def player_stats(self, seat: int) -> Mapping[str, float]:
        stats = dict(self.stats[seat])
        stats["won"] = int(self.table.winner == self.roles[seat])
        stats["sherlock_win"] = int(self.table.winner == SHERLOCK)
        stats["exploded"] = int(self.table.exploded is not None)
        stats["rounds"] = self.table.round
        return stats

    def view(self, seat: int) -> TableView:
        legal = tuple(self.legal_actions()) if seat == self.current_player() else ()
        return TableView(seat, self.setup.players, self.current_player(), self.phase(), self.table.copy(), legal)

    def phase(self) -> str:
        return "claim" if self.claim_queue and not self.table.over else self.table.phase

    # -- legal actions --------------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        seat = self.current_player()
        if seat is None:
            return []
        if self.claim_queue:
            return [Say(k) for k in range(self.table.sizes[seat] + 1)]
        if self.table.phase == CUT:
            return [Target(s) for s in self.table.targets()]
        if self.table.phase == COVER:
            return [Cover(c) for c in self.table.coverable()]
        if self.table.phase == UNCOVER:
            return [Uncover(c) for c in self.table.covered]
        return []  # pragma: no cover - chance phases are resolved inside apply

    def apply(self, action: Action) -> None:
        seat = self.current_player()
        if seat is None:
            raise IllegalActionError(f"'{action}': the game is over")
        if self.claim_queue:
            if not isinstance(action, Say):
                raise IllegalActionError(f"'{action}': player {seat} must first say how many defusing cards they hold")
            claim = Claim(seat, action.defusers)
            self.table.claim(claim)
            self.claim_queue.pop(0)
            truth = sum(1 for c, _ in self.hands[seat] if c == DEFUSE)
            self.stats[seat]["claims_false"] += int(truth != action.defusers)
            self._tell_all(claim)
            return
        if isinstance(action, Target):
            if self.table.phase != CUT:
                raise IllegalActionError(f"'{action}': expected the pending choice first ({self.table.status()})")
            if action.seat not in self.table.targets():
                raise IllegalActionError(
                    f"'{action}': player {seat} may cut {', '.join(map(str, self.table.targets()))}"
                )
            self.stats[seat]["turns"] += 1
            self._cut(action.seat)
        elif isinstance(action, Cover):
            self.table.cover(action)
            self._tell_all(action)
        elif isinstance(action, Uncover):
            self.table.uncover(action)
            self._tell_all(action)
        else:
            raise IllegalActionError(f"'{action}': expected a target, a cover or an uncover ({self.table.status()})")
        self._chance()

    # -- internals ------------------------------------------------------------------------------------------
    def _tell_all(self, entry: Entry) -> None:
        for q in self.queues.values():
            q.append(entry)

    def _cut(self, target: int) -> None:
        hand = self.hands[target]
        card = hand.pop(self.rng.randrange(len(hand)))
        slots = self.rounds[-1][target]
        cut_so_far = self.table.cut_in_round[target]
        slots.remove(card)
        slots.insert(cut_so_far, card)
        cutter = self.table.cutter
        self.table.cut(Cut(target, card[0]))
        if card[0] == DEFUSE:
            self.stats[cutter]["defusers_cut"] += 1
        self._tell_all(Cut(target, card[0]))

    def _chance(self) -> None:
        """Resolve the random steps: red draws and their extra cuts, and the redeal at a round's end."""
        while True:
            if self.table.phase == DRAW:
                draw = Draw(self.rng.randrange(self.setup.players))
                self.table.draw(draw)
                self._tell_all(draw)
            elif self.table.phase == EXTRA:
                assert self.table.extra_target is not None
                self._cut(self.table.extra_target)
            elif self.table.phase == REDEAL:
                sizes = self.table.next_sizes()
                remaining = [c for s in self.seats for c in self.hands[s]]
                self.rng.shuffle(remaining)
                self.table.redeal()
                self._deal(remaining, sizes)
                for s in self.seats:
                    self.queues[s].append(Redeal(tuple(c for c, _ in self.hands[s])))
                self._start_claims()
            else:
                return

    def _deal(self, cards: list[Card], sizes: Mapping[int, int]) -> None:
        self.rng.shuffle(cards)
        self.hands = {}
        i = 0
        for s in self.seats:
            self.hands[s] = cards[i : i + sizes[s]]
            i += sizes[s]
        self.rounds.append({s: list(h) for s, h in self.hands.items()})

    def _start_claims(self) -> None:
        if self.table.over:
            self.claim_queue = []
            return
        self.claim_queue = [left_of(self.table.cutter, i, self.setup.players) for i in range(self.setup.players)]

    # -- the true world (soundness checks only) -------------------------------------------------------------
    def true_removed(self) -> dict[str, int]:
        """How many cards of each colour were removed at setup."""
        out = dict.fromkeys(self.setup.colours, 0)
        for colour, _ in self.removed:
            out[colour] += 1
        return out

    def true_hand(self, seat: int) -> list[str]:
        return sorted(c for c, _ in self.hands[seat])

    def true_world(self) -> dict[str, str]:
        """The hidden world in the knowledge model's variables (:mod:`models.time_bomb.variables`)."""
        return dict(self.true_world_view())

    def true_world_view(self) -> Mapping[str, str]:
        """:meth:`true_world`, read-only, rebuilt only when the layout changes (a new round, or a cut, which moves
        the cut card to the front of its hand's slots): the soundness check runs after every observation of every
        seat, most of which change neither."""
        key = (len(self.rounds), len(self.table.cuts))
        cached = getattr(self, "_true_world", None)
        if cached is None or cached[0] != key:
            cached = (key, self._build_true_world())
            self._true_world = cached
        return MappingProxyType(cached[1])

    def _build_true_world(self) -> dict[str, str]:
        world: dict[str, str] = {}
        for r, layout in enumerate(self.rounds, start=1):
            placed: set[Card] = set()
            for s, cards in layout.items():
                for k, card in enumerate(cards, start=1):
                    world[instance_variable(r, card)] = slot_value(s, k)
                    placed.add(card)
            everything = [(c, i) for c in self.setup.colours for i in range(1, self.setup.bombs_per_colour + 1)]
            everything += [(DEFUSE, i) for i in range(1, self.setup.defusers + 1)]
            for card in everything:
                if card not in placed:
                    world[instance_variable(r, card)] = "out"
        return world

    def soundness_failure(self, seat: int, knowledge: object, deep: bool = False) -> str | None:
        """Whether ``seat``'s knowledge (a :class:`TimeBombKnowledge`) still admits the true hidden world."""
        check = getattr(knowledge, "rules_out", None)
        if check is None:
            return None
        return check(self, deep)  # type: ignore[no-any-return]


def new_game(rules: TableRules, rng: random.Random) -> TimeBombState:
    return TimeBombState(rules, rng)
