"""Thirteen Clues rules engine: the whole game for 2 to 6 players (rulebook ``rules/thirteen-clues.txt`` and
RULES-NOTES "Thirteen Clues"), OpenSpiel-like: :class:`ThirteenCluesState` has ``current_player`` /
``legal_actions`` / ``apply`` / ``is_terminal`` / ``returns`` / ``clone`` and one observation queue per seat.

What each seat is told (seats absolute, 1..N clockwise, as the observation types print them):

- at the start, its setup lines (:meth:`Deal.setup_lines`, plus ``subcategories on`` with the house rule);
- every witness answer (public: the whole table hears it);
- ``InformantLook`` for the player who consults, ``InformantBy`` for everyone else;
- every accusation with its outcome (public).

Rules implemented: setup by player count (suits removed, informants A, B, ...), the deal (RULES-NOTES "Deal",
each mystery chosen at random), magnifying glasses (take one at the start of your turn if you have none, from
the supply or, when it is empty, from a player of your choice: :class:`TakeGlass`; spend them all, one action
each; a question gives the glass to the asked player; consulting and accusing give it to the player with none,
ties to the nearest clockwise, else to the supply), the Secret Informant (not with 6 players), accusations (no
visible card; a wrong one ends the turn and discards the remaining glasses; a right one wins) and the
two-player variant (no glasses, one action a turn, questions name "left" or "right").

Choices where the rules are silent (all documented, most are :class:`TableRules` fields):

- **Supply.** The box has one magnifying glass per player, so a table plays with ``glasses = players`` and all
  of them start in the supply (nobody holds one before their first turn). Glasses are never created or
  destroyed, so with an empty supply and none in hand some other player always has one to take.
- **Nobody asks themselves**, and a glass given "to the player who has none" goes to another player: the
  player spending it is never the recipient (they would otherwise never finish their turn).
- **Questions** name a suit in play or a category (sub-categories only with the house rule); asking about a
  removed suit is illegal (the answer is always 0).
- **Accusations** may not name a card behind the accuser's screen or on another player's screen (the rulebook
  list); an informant card the accuser has looked at may be named. At most one accusation a turn follows from
  the rules: a wrong one ends the turn, a right one ends the game.
- **Wrong accusers are not eliminated**: the game continues, and they may accuse again on a later turn, even
  when every player has accused wrongly.
- **Turn limit.** A simulation needs an end: after ``max_rounds`` rounds (default 100, every seat having had
  100 turns, far beyond a real game) with nobody solving, the game ends in a draw.
- **First player**: chosen at random from the game's seed (so seat order does not bias bot comparisons), or
  fixed by the caller.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, DEFAULT_DATA, SUBCATEGORIES, GameData
from models.thirteen_clues.deal import Deal, random_deal
from models.thirteen_clues.knowledge import MYSTERY, ThirteenCluesKnowledge
from models.thirteen_clues.observations import (
    Accusation,
    Accuse,
    Action,
    Ask,
    Consult,
    Entry,
    InformantBy,
    InformantLook,
    Subcategories,
    TakeGlass,
    Witness,
)
from solver.errors import AssistantError, IllegalActionError

TAKE = "take"  # start of a turn: no glass in hand and an empty supply, the player chooses whom to take from
ACT = "act"  # the player spends glasses (two players: takes their one action)

#: Per-seat counters: turns begun, questions asked, informants consulted, accusations (all, and wrong ones), and
#: glasses taken from another player because the supply was empty.
STAT_KEYS = ("turns", "questions", "consults", "accusations", "wrong_accusations", "glasses_taken")


@dataclass(frozen=True)
class TableRules:
    """The table's options: player count and the choices the rulebook leaves open (see module docstring)."""

    players: int
    glasses: int | None = None  # None: one per player
    max_rounds: int = 100
    subcategories: bool = False
    data: GameData = DEFAULT_DATA

    def __post_init__(self) -> None:
        if self.players not in self.data.suits_removed:
            raise AssistantError(f"players {self.players}: expected 2 to 6")
        if self.glasses is not None and self.glasses < 1:
            raise AssistantError(f"glasses {self.glasses}: expected at least 1")
        if self.max_rounds < 1:
            raise AssistantError(f"max_rounds {self.max_rounds}: expected at least 1")

    @property
    def total_glasses(self) -> int:
        return self.players if self.glasses is None else self.glasses

    @property
    def two_player(self) -> bool:
        return self.players == 2

    def subjects(self) -> tuple[str, ...]:
        """What a witness may be asked about: suits in play, categories, and sub-categories with the house rule."""
        return self._subjects

    @functools.cached_property
    def _subjects(self) -> tuple[str, ...]:
        out = [*self.data.suits_in_play(self.players), *CATEGORIES]
        if self.subcategories:
            out += [s for pair in SUBCATEGORIES.values() for s in pair]
        return tuple(out)

    @functools.cached_property
    def in_play(self) -> dict[str, tuple[str, ...]]:
        """The cards in play by category."""
        cards = self.data.cards_in_play(self.players)
        return {cat: tuple(c.name for c in cards if c.category == cat) for cat in CATEGORIES}


@dataclass(frozen=True)
class TableView:
    """What ``seat`` may know besides its observations: the public table and, on its move, its legal actions.

    ``glasses[s - 1]`` is how many glasses seat ``s`` holds (all zeros with two players, who play without).
    """

    seat: int
    players: int
    current: int | None
    turn: int
    phase: str
    glasses: tuple[int, ...]
    supply: int
    letters: tuple[str, ...]
    subjects: tuple[str, ...]
    legal_actions: tuple[Action, ...]


@dataclass
class ThirteenCluesState:
    """A game in progress; build one with :func:`new_game` (random) or directly from a :class:`Deal`."""

    rules: TableRules
    deal: Deal
    first_player: int = 1
    turn: int = 0
    current: int | None = None
    phase: str = ACT
    glasses: dict[int, int] = field(default_factory=dict)
    supply: int = 0
    actions_left: int = 0  # two-player games: the one action of the turn
    winner_seat: int | None = None
    drawn: bool = False
    queues: dict[int, list[Entry]] = field(default_factory=dict)
    stats: dict[int, dict[str, int]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    _acting: dict[int, tuple[Action, ...]] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.deal.players != self.rules.players:
            raise AssistantError(f"deal for {self.deal.players} players at a {self.rules.players}-player table")
        seats = self.seats
        if self.first_player not in seats:
            raise IllegalActionError(f"first player {self.first_player}: expected 1 to {self.rules.players}")
        self.glasses = dict.fromkeys(seats, 0)
        self.supply = 0 if self.rules.two_player else self.rules.total_glasses
        self.stats = {s: dict.fromkeys(STAT_KEYS, 0) for s in seats}
        self.queues = {s: [] for s in seats}
        for s in seats:
            # the house rule first, so a bot's setup is complete (and its knowledge model built) after its screens
            if self.rules.subcategories:
                self.queues[s].append(Subcategories(True))
            self.queues[s] += self.deal.setup_lines(s)
        self._start_turn(self.first_player)

    # -- the State interface ----------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.rules.players

    @property
    def seats(self) -> list[int]:
        return list(range(1, self.rules.players + 1))

    def current_player(self) -> int | None:
        return self.current

    def is_terminal(self) -> bool:
        return self.current is None

    def winner(self) -> int | None:
        return self.winner_seat

    def returns(self) -> list[float]:
        return [1.0 if s == self.winner_seat else 0.0 for s in self.seats]

    def clone(self) -> ThirteenCluesState:
        # shares the frozen rules and deal, and the per-seat action cache (a function of the deal alone)
        other = copy.copy(self)
        other.glasses = dict(self.glasses)
        other.queues = {s: list(q) for s, q in self.queues.items()}
        other.stats = {s: dict(d) for s, d in self.stats.items()}
        other.log = list(self.log)
        return other

    def take_observations(self, seat: int) -> list[Entry]:
        out = self.queues[seat]
        self.queues[seat] = []
        return out

    def player_stats(self, seat: int) -> Mapping[str, float]:
        return dict(self.stats[seat])

    def view(self, seat: int) -> TableView:
        return TableView(
            seat,
            self.rules.players,
            self.current,
            self.turn,
            self.phase,
            tuple(self.glasses[s] for s in self.seats),
            self.supply,
            self.letters,
            self.rules.subjects(),
            tuple(self.legal_actions()) if seat == self.current else (),
        )

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(self.deal.informants)

    # -- legal actions -----------------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, in a fixed order (take, ask, consult, accuse)."""
        seat = self.current
        if seat is None:
            return []
        if self.phase == TAKE:
            return [TakeGlass(s) for s in self.seats if s != seat and self.glasses[s] > 0]
        if seat not in self._acting:
            self._acting[seat] = self._acting_actions(seat)
        return list(self._acting[seat])

    def _acting_actions(self, seat: int) -> tuple[Action, ...]:
        """Everything ``seat`` may do with a glass; fixed for the whole game, so computed once per seat."""
        sides: tuple[str | None, ...] = ("left", "right") if self.rules.two_player else (None,)
        out: list[Action] = [
            Ask(s, subject, side)
            for s in self.seats
            if s != seat
            for subject in self.rules.subjects()
            for side in sides
        ]
        out += [Consult(letter) for letter in self.letters]
        visible = set(self.deal.visible_to(seat))
        persons, locations, weapons = (
            [c for c in self.rules.in_play[cat] if c not in visible] for cat in CATEGORIES
        )
        out += [Accuse(p, loc, w) for p in persons for loc in locations for w in weapons]
        return tuple(out)

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` with the reason if ``action`` is not legal now."""
        seat = self.current
        if seat is None:
            raise IllegalActionError(f"'{action}': the game is over")
        if isinstance(action, TakeGlass):
            self._check_take(seat, action)
            return
        if self.phase == TAKE:
            raise IllegalActionError(
                f"'{action}': player {seat} has no magnifying glass and the supply is empty; "
                f"take one from another player first ('take SEAT')"
            )
        if isinstance(action, Ask):
            self._check_ask(seat, action)
        elif isinstance(action, Consult):
            self._check_consult(action)
        elif isinstance(action, Accuse):
            self._check_accuse(seat, action)
        else:
            raise IllegalActionError(f"'{action}' is not a Thirteen Clues action")

    def _check_seat(self, seat: int, what: str) -> None:
        if seat not in self.glasses:
            raise IllegalActionError(f"'{what}': seat {seat} does not exist (expected 1 to {self.num_players})")

    def _check_take(self, seat: int, action: TakeGlass) -> None:
        if self.phase != TAKE:
            raise IllegalActionError(
                f"'{action}': a glass is taken from a player only at the start of a turn, with none in hand "
                f"and an empty supply"
            )
        self._check_seat(action.seat, str(action))
        if action.seat == seat:
            raise IllegalActionError(f"'{action}': you cannot take a glass from yourself")
        if self.glasses[action.seat] == 0:
            raise IllegalActionError(f"'{action}': player {action.seat} has no magnifying glass")

    def _check_ask(self, seat: int, action: Ask) -> None:
        self._check_seat(action.seat, str(action))
        if action.seat == seat:
            raise IllegalActionError(f"'{action}': you cannot question yourself")
        if action.subject not in self.rules.subjects():
            if action.subject in (s for pair in SUBCATEGORIES.values() for s in pair):
                raise IllegalActionError(f"'{action}': sub-category questions need the house rule")
            raise IllegalActionError(
                f"'{action}': '{action.subject}' is not a suit in play or a category with {self.num_players} players"
            )
        if self.rules.two_player and action.side not in ("left", "right"):
            raise IllegalActionError(f"'{action}': two-player questions name 'left' or 'right'")
        if not self.rules.two_player and action.side is not None:
            raise IllegalActionError(f"'{action}': 'left'/'right' is only for two-player games")

    def _check_consult(self, action: Consult) -> None:
        if not self.letters:
            raise IllegalActionError(f"'{action}': there is no Secret Informant in a six-player game")
        if action.letter not in self.letters:
            raise IllegalActionError(
                f"'{action}': expected an informant letter {self.letters[0]} to {self.letters[-1]}"
            )

    def _check_accuse(self, seat: int, action: Accuse) -> None:
        in_play = {c for cards in self.rules.in_play.values() for c in cards}
        for card, cat in zip(action.cards, CATEGORIES, strict=True):
            if card not in CARD_BY_NAME or CARD_BY_NAME[card].category != cat:
                raise IllegalActionError(f"'{action}': expected a Person, a Location and a Weapon, in that order")
            if card not in in_play:
                raise IllegalActionError(f"'{action}': '{card}' is not in play with {self.num_players} players")
            if card in self.deal.private[seat]:
                raise IllegalActionError(f"'{action}': you can see '{card}' behind your screen")
            for other, screen in self.deal.screens.items():
                if other != seat and card in screen:
                    raise IllegalActionError(f"'{action}': you can see '{card}' on player {other}'s screen")

    # -- applying actions --------------------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Play ``action`` for the player to move; raise :class:`IllegalActionError` (state unchanged) if illegal."""
        self.check(action)
        seat = self.current
        assert seat is not None
        if isinstance(action, TakeGlass):
            self.glasses[action.seat] -= 1
            self.glasses[seat] += 1
            self.stats[seat]["glasses_taken"] += 1
            self.phase = ACT
            self.log.append(f"turn {self.turn}: player {seat} takes a glass from player {action.seat}")
            return
        if isinstance(action, Ask):
            self._spend(seat, to=action.seat)
            answer = self.deal.answer(action.seat, action.subject, seat, action.side)
            self.stats[seat]["questions"] += 1
            self._tell_all(answer)
            self.log.append(f"turn {self.turn}: player {seat} asks player {action.seat}: {answer}")
        elif isinstance(action, Consult):
            self._spend(seat, to=self._no_glass_player(seat))
            self.stats[seat]["consults"] += 1
            for s in self.seats:
                look = InformantLook(action.letter, self.deal.informants[action.letter])
                self.queues[s].append(look if s == seat else InformantBy(action.letter, seat))
            self.log.append(f"turn {self.turn}: player {seat} consults informant {action.letter}")
        elif isinstance(action, Accuse):
            self._spend(seat, to=self._no_glass_player(seat))
            correct = set(action.cards) == set(self.deal.screens[seat])
            self.stats[seat]["accusations"] += 1
            self._tell_all(Accusation(seat, *action.cards, correct))
            self.log.append(f"turn {self.turn}: player {seat} accuses {' '.join(action.cards)}: "
                            f"{'right' if correct else 'wrong'}")
            if correct:
                self.winner_seat = seat
                self.current = None
                return
            self.stats[seat]["wrong_accusations"] += 1
            self.supply += self.glasses[seat]  # a wrong accusation ends the turn: the rest go to the supply
            self.glasses[seat] = 0
            self.actions_left = 0
        if self._turn_over(seat):
            self._start_turn(seat % self.num_players + 1)

    def _tell_all(self, obs: Witness | Accusation) -> None:
        for q in self.queues.values():
            q.append(obs)

    def _spend(self, seat: int, to: int | None) -> None:
        """Spend one glass of ``seat``: to player ``to``, or to the supply when ``to`` is None."""
        if self.rules.two_player:
            self.actions_left -= 1
            return
        self.glasses[seat] -= 1
        if to is None:
            self.supply += 1
        else:
            self.glasses[to] += 1

    def _no_glass_player(self, seat: int) -> int | None:
        """The player with no glass nearest clockwise from ``seat`` (never ``seat`` itself), or None."""
        for step in range(1, self.num_players):
            other = (seat - 1 + step) % self.num_players + 1
            if self.glasses[other] == 0:
                return other
        return None

    def _turn_over(self, seat: int) -> bool:
        return self.actions_left == 0 if self.rules.two_player else self.glasses[seat] == 0

    def _start_turn(self, seat: int) -> None:
        if self.turn >= self.rules.max_rounds * self.num_players:
            self.drawn = True
            self.current = None
            self.log.append(f"turn limit ({self.rules.max_rounds} rounds) reached: draw")
            return
        self.turn += 1
        self.current = seat
        self.stats[seat]["turns"] += 1
        self.phase = ACT
        if self.rules.two_player:
            self.actions_left = 1
        elif self.glasses[seat] == 0:
            if self.supply > 0:
                self.supply -= 1
                self.glasses[seat] = 1
            else:
                self.phase = TAKE

    # -- soundness ---------------------------------------------------------------------------------------------
    def true_world(self, seat: int) -> dict[str, str]:
        """The true place of every card ``seat`` cannot see, in the knowledge model's place names."""
        world: dict[str, str] = {}
        for card in self.deal.screens[seat]:
            world[card] = MYSTERY
        for other, cards in self.deal.private.items():
            if other == seat:
                continue
            if self.rules.two_player:
                world[cards[0]], world[cards[1]] = f"p{other}L", f"p{other}R"
            else:
                world[cards[0]] = world[cards[1]] = f"p{other}"
        for letter, card in self.deal.informants.items():
            world[card] = letter
        return world

    def soundness_failure(self, seat: int, knowledge: ThirteenCluesKnowledge, deep: bool = False) -> str | None:
        """Whether ``seat``'s knowledge still admits the true deal: every constraint holds in the true world.
        ``deep`` also asks the knowledge model's own solver that each true mystery card is still possible."""
        world = self.true_world(seat)
        if set(world) != set(knowledge.unseen):
            return f"player {seat}'s knowledge has the wrong unseen cards: {sorted(knowledge.unseen)}"
        kn = knowledge.knowledge
        for c in kn.problem.structure:
            if not c.holds(world):
                return f"player {seat}'s setup rules out the true deal ({c})"
        for entry in kn.entries:
            for c in entry.constraints:
                if not c.holds(world):
                    return f"player {seat}'s knowledge after '{entry.observation}' rules out the true deal ({c})"
        if deep:
            possible = kn.possible(solve=True)
            for card in self.deal.screens[seat]:
                if MYSTERY not in possible[card]:
                    return f"player {seat}'s knowledge says '{card}' cannot be in their mystery, but it is"
        return None


def new_game(rules: TableRules, rng: random.Random, first_player: int | None = None) -> ThirteenCluesState:
    """A fresh game: a random deal (RULES-NOTES "Deal") and, unless given, a random first player."""
    deal = random_deal(rules.players, rng, rules.data)
    first = rng.randint(1, rules.players) if first_player is None else first_player
    return ThirteenCluesState(rules, deal, first)
