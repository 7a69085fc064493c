"""Thirteen Clues knowledge model: one player's view as a :class:`solver.knowledge.Knowledge`.

Hidden variables are the 13 cards this player cannot see (rulebook hint: "you will be left with 13 spaces");
each takes one *place*: ``mystery`` (my own screen), ``p<seat>`` (another player's two private cards; in the
two-player game ``p<seat>L`` / ``p<seat>R``, the card on their left / right) or an informant letter. Each
rule of the rulebook and RULES-NOTES is one method below that turns an observation into constraints.

Choices where the rules are silent:
- My own private cards are "left" (first typed) and "right" (second) for two-player questions put to me.
- A question put to me, or an informant looked at by someone else, adds no constraint; a question put to me
  is still checked against what I see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, DEFAULT_DATA, SUITS, GameData
from models.thirteen_clues.observations import (
    Accusation,
    Entry,
    InformantBy,
    InformantLook,
    Me,
    Observation,
    Players,
    Private,
    Screen,
    Subcategories,
    Witness,
)
from solver.constraints import Constraint, CountEquals, NotAll, Problem, forbid, require
from solver.counting import AllocationCounter, JointCount
from solver.errors import ContradictionError, IllegalActionError, InvalidObservationError
from solver.knowledge import Count, Explanation, Knowledge
from solver.text import plural

MYSTERY = "mystery"


@dataclass
class TableSetup:
    """What a player sees before the first turn; built entry by entry and checked as it grows."""

    players: int | None = None
    me: int | None = None
    private: tuple[str, str] | None = None
    screens: dict[int, tuple[str, str, str]] = field(default_factory=dict)
    subcategories: bool = False
    data: GameData = DEFAULT_DATA

    def apply(self, entry: Entry) -> None:
        """Record one setup entry, or raise :class:`InvalidObservationError` (the setup is then unchanged)."""
        if isinstance(entry, Players):
            if entry.count not in self.data.suits_removed:
                raise InvalidObservationError(f"players {entry.count}: expected 2 to 6")
            if self.players is not None and self.players != entry.count:
                raise InvalidObservationError(f"players already set to {self.players}: undo it first")
            if self.me is not None and self.me > entry.count:
                raise InvalidObservationError(f"players {entry.count}: your seat {self.me} would not exist")
            in_play = {c.name for c in self.data.cards_in_play(entry.count)}
            for card in [*(self.private or ()), *(c for s in self.screens.values() for c in s)]:
                if card not in in_play:
                    raise InvalidObservationError(
                        f"players {entry.count}: '{card}' is not in play with {entry.count} players"
                    )
            self.players = entry.count
        elif isinstance(entry, Me):
            self._check_seat(entry.seat)
            if entry.seat in self.screens:
                raise InvalidObservationError(f"me {entry.seat}: you entered a screen for seat {entry.seat}")
            self.me = entry.seat
        elif isinstance(entry, Subcategories):
            self.subcategories = entry.enabled
        elif isinstance(entry, Private):
            self._check_cards(entry.cards, "private")
            self.private = entry.cards
        elif isinstance(entry, Screen):
            self._check_seat(entry.seat)
            if entry.seat == self.me:
                raise InvalidObservationError(f"screen {entry.seat}: that is your seat, you cannot see your screen")
            self._check_cards(entry.cards, f"screen {entry.seat}", skip_seat=entry.seat)
            self.screens[entry.seat] = entry.cards
        else:
            raise InvalidObservationError(f"'{entry}' is not a setup entry")

    def _check_seat(self, seat: int) -> None:
        top = self.players or 6
        if not 1 <= seat <= top:
            raise InvalidObservationError(f"seat {seat}: expected 1 to {top}")

    def _check_in_play(self, card: str) -> None:
        if self.players is not None and card not in {c.name for c in self.data.cards_in_play(self.players)}:
            suit = CARD_BY_NAME[card].suit
            raise InvalidObservationError(
                f"card '{card}' is not in play with {self.players} players (the {suit} suit is removed)"
            )

    def _check_cards(self, cards: Iterable[str], what: str, skip_seat: int | None = None) -> None:
        cards = list(cards)
        if len(set(cards)) != len(cards):
            raise InvalidObservationError(f"{what}: a card is named twice")
        taken = {c: "your private cards" for c in (self.private or ()) if what != "private"}
        for seat, screen in self.screens.items():
            if seat != skip_seat:
                taken.update({c: f"player {seat}'s screen" for c in screen})
        for card in cards:
            self._check_in_play(card)
            if card in taken:
                raise InvalidObservationError(f"{what}: '{card}' is already on {taken[card]}")

    def missing(self) -> list[str]:
        """What is still needed before the knowledge model can start, as the lines to type."""
        out = []
        if self.players is None:
            out.append("players N")
        if self.me is None:
            out.append("me SEAT")
        if self.private is None:
            out.append("private CARD CARD")
        if self.players is not None and self.me is not None:
            out += [f"screen {s} PERSON LOCATION WEAPON" for s in self.seats_others() if s not in self.screens]
        return out

    def complete(self) -> bool:
        return not self.missing()

    def seats_others(self) -> list[int]:
        assert self.players is not None
        return [s for s in range(1, self.players + 1) if s != self.me]


class JointCounter:
    """The world count from :meth:`AllocationCounter.joints` over every place but the pivot, kept for the grid and
    the advisor: one computation per knowledge state gives the count, the card x place grid and the advice.

    The joints are exact and cheaper than :class:`AllocationCounter`'s own count at every player count (13 unseen
    cards: 6-12 ms median against 9-32 ms, ``bench/tc_entry.py --counters``), so the count never needs its budget: it is
    the count the budget-limited counter gives whenever that counter finishes, as an exact :class:`Count`
    (worlds a float, each mystery literal's weight an int, only the literals with worlds listed)."""

    def __init__(self, capacities: dict[str, int], pivot: str) -> None:
        self.allocation = AllocationCounter(capacities, pivot)
        self.pivot = pivot
        self.probes = [p for p in capacities if p != pivot]
        self._kept: list[tuple[tuple[Constraint, ...], dict[str, JointCount]]] = []  # newest last

    def joints(self, problem: Problem, constraints: Sequence[Constraint]) -> dict[str, JointCount]:
        """The joint counts of every probe place for ``constraints``. The last two computed are kept: an entry
        checked against the joints of the state it would make (:class:`JointExact`) and then refused, or undone,
        finds the state before it still counted."""
        key = tuple(constraints)
        for i, (kept, joints) in enumerate(self._kept):
            if kept == key:
                self._kept.append(self._kept.pop(i))
                return joints
        joints = self.allocation.joints(problem, constraints, self.probes)
        self._kept = [*self._kept[-1:], (key, joints)]
        return joints

    def __call__(self, problem: Problem, constraints: Sequence[Constraint], budget: float) -> Count:
        first = self.joints(problem, constraints)[self.probes[0]]
        rows = first.pivot_counts()
        weights: dict[tuple[str, str], float] = {}
        for i, item in enumerate(first.items):
            weight = int(rows[(first.pivots >> i) & 1 == 1].sum())
            if weight:
                weights[(item, self.pivot)] = weight
        return Count(float(int(rows.sum())), weights, True)


class JointExact:
    """:class:`solver.knowledge.Exact` from the joints: a card can be in a place iff some (mystery content,
    place content) pair holding it has worlds, and a state is consistent iff it has worlds at all. So neither
    the cover loop of :meth:`Knowledge.possible` nor the consistency solve of an entry runs CP-SAT (only a
    refused entry does, for the earlier entries to name); the joints are the ones the count needs anyway."""

    def __init__(self, model: ThirteenCluesKnowledge) -> None:
        self.model = model

    def allowed(self) -> set[tuple[str, str]] | None:
        joints = self.model.joints()
        first = joints[self.model.counter.probes[0]]
        if not first.total:
            return None
        return self._allowed(MYSTERY, first.pivots, first.pivot_counts(), first.items) | {
            lit for place, joint in joints.items()
            for lit in self._allowed(place, joint.probes, joint.probe_counts(), joint.items)}

    @staticmethod
    def _allowed(place: str, masks: np.ndarray, counts: np.ndarray, items: Sequence[str]) -> set[tuple[str, str]]:
        """The items in some content of ``place`` (``masks``) that has worlds (``counts``)."""
        union = int(np.bitwise_or.reduce(masks[counts != 0])) if (counts != 0).any() else 0
        return {(item, place) for i, item in enumerate(items) if union >> i & 1}

    def consistent(self, observed: Sequence[Constraint]) -> bool:
        kn = self.model.knowledge
        counter = self.model.counter
        return bool(counter.joints(kn.problem, observed)[counter.probes[0]].total)


def place_label(place: str) -> str:
    """A place as a player would say it."""
    if place == MYSTERY:
        return "your mystery"
    if place.startswith("p"):
        seat = place[1:].rstrip("LR")
        side = {"L": " (left private card)", "R": " (right private card)"}.get(place[-1], " (private cards)")
        return f"player {seat}{side}"
    return f"informant {place}"


class ThirteenCluesKnowledge:
    """What one player knows; every query answers from the constraint model or the exact counter."""

    def __init__(self, setup: TableSetup, count_budget: float = 2.0) -> None:
        if not setup.complete():
            raise InvalidObservationError(f"setup incomplete: still need {', '.join(setup.missing())}")
        assert setup.players is not None and setup.me is not None and setup.private is not None
        self.setup = setup
        self.players, self.me, self.private = setup.players, setup.me, setup.private
        self.in_play = [c.name for c in setup.data.cards_in_play(self.players)]
        self.letters = setup.data.informant_letters(self.players)
        visible = set(self.private) | {c for s in setup.screens.values() for c in s}
        self.unseen = [c for c in self.in_play if c not in visible]
        capacities: dict[str, int] = {MYSTERY: 3}
        for seat in setup.seats_others():
            if self.players == 2:
                capacities[f"p{seat}L"] = capacities[f"p{seat}R"] = 1
            else:
                capacities[f"p{seat}"] = 2
        capacities.update(dict.fromkeys(self.letters, 1))
        self.capacities = capacities
        places = tuple(capacities)
        structure: list[Constraint] = [
            CountEquals(tuple((c, p) for c in self.unseen), cap) for p, cap in capacities.items()
        ]
        for cat in CATEGORIES:  # the mystery is exactly one Person, one Location, one Weapon
            structure.append(CountEquals(self._terms(self._cat_cards(cat), [MYSTERY]), 1))
        problem = Problem({c: places for c in self.unseen}, tuple(structure))
        self.counter = JointCounter(capacities, MYSTERY)
        self.knowledge: Knowledge[Observation] = Knowledge(problem, self.constraints_for, self.counter, count_budget,
                                                           self.ruled_out, JointExact(self))

    # -- helpers --------------------------------------------------------------------------------------------
    def _cat_cards(self, category: str) -> list[str]:
        return [c for c in self.unseen if CARD_BY_NAME[c].category == category]

    def _terms(self, cards: Iterable[str], places: Sequence[str]) -> tuple[tuple[str, str], ...]:
        unseen = set(self.unseen)
        return tuple((c, p) for c in cards if c in unseen for p in places)

    def private_places(self, seat: int) -> list[str]:
        return [f"p{seat}L", f"p{seat}R"] if self.players == 2 else [f"p{seat}"]

    def _seat(self, seat: int) -> None:
        if not 1 <= seat <= self.players:
            raise InvalidObservationError(f"seat {seat}: expected 1 to {self.players}")

    def _card(self, card: str) -> None:
        if card not in self.in_play:
            suit = CARD_BY_NAME[card].suit
            raise InvalidObservationError(
                f"card '{card}' is not in play with {self.players} players (the {suit} suit is removed)"
            )

    def where_visible(self, card: str) -> str | None:
        """Where I can see ``card``, or None if it is one of my 13 unseen cards."""
        if card in self.private:
            return "one of your private cards"
        for seat, screen in self.setup.screens.items():
            if card in screen:
                return f"on player {seat}'s screen"
        return None

    def matching(self, subject: str) -> list[str]:
        """Cards in play that a question about ``subject`` counts."""
        if subject in SUITS:
            return [c for c in self.in_play if CARD_BY_NAME[c].suit == subject]
        if subject in CATEGORIES:
            return [c for c in self.in_play if CARD_BY_NAME[c].category == subject]
        return [c for c in self.in_play if CARD_BY_NAME[c].subcategory == subject]

    # -- the rules, one method each -------------------------------------------------------------------------
    def constraints_for(self, obs: Observation) -> list[Constraint]:
        """The constraints ``obs`` adds; a refusal always names the entry (``'ask 9 Red 1': seat 9: ...``)."""
        try:
            return self._rule(obs)
        except InvalidObservationError as exc:
            named = f"'{obs}'"
            if str(exc).startswith(named):
                raise
            raise InvalidObservationError(f"{named}: {exc}") from None

    def _rule(self, obs: Observation) -> list[Constraint]:
        if isinstance(obs, Witness):
            return self.witness(obs)
        if isinstance(obs, InformantLook):
            return self.informant_look(obs)
        if isinstance(obs, InformantBy):
            self._letter(obs.letter)
            self._seat(obs.seat)
            if obs.seat == self.me:
                raise InvalidObservationError(f"that is you; type 'informant {obs.letter} CARD'")
            return []  # I only learn which letter was looked at
        if isinstance(obs, Accusation):
            return self.accusation(obs)
        raise InvalidObservationError(f"'{obs}' is a setup entry, not an observation")

    def witness(self, obs: Witness) -> list[Constraint]:
        """A witness counts what they see: every other screen (mine included) and their private cards."""
        self._seat(obs.seat)
        if obs.subject not in SUITS and obs.subject not in CATEGORIES and not self.setup.subcategories:
            raise InvalidObservationError(
                f"'{obs.subject}' is a sub-category: enable the house rule with 'subcategories on'"
            )
        if self.players == 2 and obs.side is None:
            raise InvalidObservationError(f"'{obs}': two-player questions name 'left' or 'right'")
        if self.players > 2 and obs.side is not None:
            raise InvalidObservationError(f"'{obs}': 'left'/'right' is only for two-player games")
        cards = self.matching(obs.subject)
        if obs.subject in SUITS and not cards:
            raise InvalidObservationError(f"'{obs}': the {obs.subject} suit is not in play with {self.players} players")
        if obs.count > len(cards):
            raise InvalidObservationError(
                f"count {obs.count}: there {'is' if len(cards) == 1 else 'are'} only "
                f"{plural(len(cards), f'{obs.subject} card')} in play"
            )
        if obs.seat == self.me:
            mine = [self.private[0]] if obs.side == "left" else [self.private[1]] if obs.side else []
            seen = [c for c in (mine if obs.side else self.private) if c in cards]
            seen += [c for s in self.setup.screens.values() for c in s if c in cards]
            if len(seen) != obs.count:
                seen_text = plural(len(seen), obs.subject + " card")
                raise ContradictionError(obs, [], f"you see {seen_text}, not {obs.count}")
            return []
        known = sum(
            1 for seat, screen in self.setup.screens.items() if seat != obs.seat for c in screen if c in cards
        )
        places = self.private_places(obs.seat)
        if obs.side is not None:
            places = [places[0] if obs.side == "left" else places[1]]
        return [CountEquals(self._terms(cards, [MYSTERY, *places]), obs.count - known)]

    def _letter(self, letter: str) -> None:
        if not self.letters:
            raise InvalidObservationError("there is no Secret Informant with 6 players")
        if letter not in self.letters:
            raise InvalidObservationError(
                f"expected a letter {self.letters[0]} to {self.letters[-1]}"
            )

    def informant_look(self, obs: InformantLook) -> list[Constraint]:
        """The player who looks learns the card under that letter."""
        self._letter(obs.letter)
        self._card(obs.card)
        where = self.where_visible(obs.card)
        if where:
            raise ContradictionError(obs, [], f"'{obs.card}' is {where}, so it cannot be informant {obs.letter}")
        return [require(obs.card, obs.letter)]

    def accusation(self, obs: Accusation) -> list[Constraint]:
        """A wrong accusation: the accuser's mystery is not that triple, and they could see none of the three
        (not in their private cards, not on any other screen, mine included). A right one names their mystery."""
        self._seat(obs.seat)
        for card in obs.cards:
            self._card(card)
        if obs.seat == self.me:
            for card in obs.cards:
                where = self.where_visible(card)
                if where:
                    raise InvalidObservationError(f"you cannot accuse with '{card}': it is {where} (an accusation "
                                                  f"never names a card its maker can see)")
            lits = tuple((c, MYSTERY) for c in obs.cards)
            return [require(*lit) for lit in lits] if obs.correct else [NotAll(lits)]
        screen = self.setup.screens[obs.seat]
        for seat, other in self.setup.screens.items():
            for card in obs.cards:
                if seat != obs.seat and card in other:
                    # A rule break (or a mistyped card), not a contradiction of earlier entries.
                    raise IllegalActionError(
                        f"'{obs}': player {obs.seat} cannot accuse '{card}': they can see it on player {seat}'s screen "
                        "(an accusation never names a card its maker can see)")
        if obs.correct != (set(screen) == set(obs.cards)):
            actual = " ".join(screen)
            raise ContradictionError(obs, [Screen(obs.seat, screen)],
                                     f"player {obs.seat}'s mystery is {actual}, which you can see")
        out: list[Constraint] = []
        for card in obs.cards:
            if card in self.unseen:
                out += [forbid(card, p) for p in [MYSTERY, *self.private_places(obs.seat)]]
        return out

    # -- queries --------------------------------------------------------------------------------------------
    def add(self, obs: Observation, hypothetical: bool = False, check: bool = True) -> None:
        """Add an observation (a what-if when ``hypothetical``); raise an :class:`AssistantError` (nothing changes)
        if the rules do not allow it now or it contradicts what is known."""
        won = self.winning_accusation()
        if won is not None:
            raise IllegalActionError(f"'{obs}': the game is over: '{won}' solved a mystery (a correct accusation "
                                     f"wins the game)")
        self.knowledge.add(obs, hypothetical, check)

    def winning_accusation(self) -> Accusation | None:
        """The correct accusation that ended the game (a fact or a what-if), if one is entered."""
        return next((o for o in [*self.knowledge.facts, *self.knowledge.whatifs]
                     if isinstance(o, Accusation) and o.correct), None)

    def undo(self) -> Observation:
        return self.knowledge.undo()

    def count(self) -> Count:
        return self.knowledge.count()

    def ruled_out(self) -> list[tuple[str, str]]:
        """Every (card, place) no world of the current state allows, read off the exact joints (none when no
        world is left, so the cover loop still says the state is inconsistent): :meth:`Knowledge.possible`
        then only solves to find worlds for the places that have some, never to prove the rest impossible."""
        joints = self.joints()
        first = joints[self.counter.probes[0]]
        if not first.total:
            return []
        out = []
        pivot_counts = first.pivot_counts()
        for i, card in enumerate(first.items):
            if not pivot_counts[(first.pivots >> i) & 1 == 1].any():
                out.append((card, MYSTERY))
        for place in self.counter.probes:
            joint = joints[place]
            probe_counts = joint.probe_counts()
            for i, card in enumerate(joint.items):
                if not probe_counts[(joint.probes >> i) & 1 == 1].any():
                    out.append((card, place))
        return out

    def joints(self) -> dict[str, JointCount]:
        """Exact world counts split by my mystery's content and each other place's (:class:`JointCounter`,
        shared with the count: computed once per knowledge state)."""
        observed = [c for e in self.knowledge.entries for c in e.constraints]
        return self.counter.joints(self.knowledge.problem, observed)

    def mystery(self) -> dict[str, dict[str, float]]:
        """For each category, each card still possible in my mystery with its exact probability."""
        count = self.count()
        possible = self.knowledge.possible()
        out: dict[str, dict[str, float]] = {}
        for cat in CATEGORIES:
            cards = [c for c in self._cat_cards(cat) if MYSTERY in possible[c]]
            out[cat.lower()] = {c: count.probability((c, MYSTERY)) for c in cards}
        return out

    def solved(self) -> bool:
        return all(len(v) == 1 for v in self.mystery().values())

    def certain_mystery(self) -> tuple[str, str, str] | None:
        """My mystery (Person, Location, Weapon) if it is determined, else None.

        Cheaper than :meth:`solved` (no counting, no cover loop): one consistent world proposes a mystery and
        at most one more solve looks for a world with another one.
        """
        world = self.knowledge.find([])
        if world is None:
            return None
        mine = [c for c, place in world.items() if place == MYSTERY]
        if self.knowledge.find([NotAll(tuple((c, MYSTERY) for c in mine))]) is not None:
            return None
        ordered = sorted(mine, key=lambda c: CATEGORIES.index(CARD_BY_NAME[c].category))
        return (ordered[0], ordered[1], ordered[2])

    def locations(self) -> dict[str, list[str]]:
        """Every unseen card's possible places."""
        possible = self.knowledge.possible()
        order = list(self.capacities)
        return {c: sorted(possible[c], key=order.index) for c in self.unseen}

    def explain(self, card: str, place: str = MYSTERY) -> Explanation[Observation] | str:
        """Why ``card`` is (not) possible in ``place``; a string when the card is simply visible."""
        self._card(card)
        where = self.where_visible(card)
        if where:
            return f"{card} is {where}, so it is not in {place_label(place)}"
        return self.knowledge.explain((card, place))

