"""``assist demo``: a seeded Thirteen Clues game seen from seat 1, with every deduction shown as it happens.

The demo yields view data (:mod:`solver.view`) as it goes; the command line draws each view at once.

The table is dealt by :func:`models.thirteen_clues.deal.random_deal`; the events are true observations
derived from that deal (witness answers through ``Deal.answer``, informant looks, rivals' wrong accusations),
typed into a :class:`~models.thirteen_clues.session.ThirteenCluesSession` exactly as a user would type them. The
session never sees the deal; the demo only uses it at the end to check the answer.

Who does what is a simple seeded script, not strategy: seat 1 asks about the suit or category of one of its
remaining candidates and sometimes looks at an informant card; rivals ask random questions, look at informant
cards, and now and then make a wrong accusation with cards they cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field

from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, DEFAULT_DATA
from models.thirteen_clues.deal import Deal, random_deal
from models.thirteen_clues.observations import Accusation, InformantBy, InformantLook, Observation
from models.thirteen_clues.session import ThirteenCluesSession
from solver import view as v

ME = 1


@dataclass(frozen=True)
class Event:
    """One thing that happens at the table, as seat 1 types it, and what happened in words."""

    observation: Observation
    narration: str


def table_events(deal: Deal, rng: random.Random, candidates: ThirteenCluesSession) -> Iterator[Event]:
    """An endless, seeded sequence of true events, turn by turn from seat 1 (``candidates`` is seat 1's
    session, read only to choose seat 1's questions)."""
    suits = list(DEFAULT_DATA.suits_in_play(deal.players))
    letters = list(DEFAULT_DATA.informant_letters(deal.players))
    table = _Table(deal, rng, suits, letters)
    while True:
        for seat in deal.seats:
            yield table.my_turn(candidates) if seat == ME else table.rival_turn(seat)


@dataclass
class _Table:
    """The seeded script of who does what; remembers questions already answered so nobody repeats one."""

    deal: Deal
    rng: random.Random
    suits: list[str]
    letters: list[str]
    asked: set[tuple[int, str, str | None]] = field(default_factory=set)
    looked: dict[int, set[str]] = field(default_factory=dict)
    accused: set[tuple[str, str, str]] = field(default_factory=set)

    def _question(self, asker: int, subjects: list[str]) -> Event:
        """A question not asked before (if one is left), answered truthfully from the deal."""
        rng, deal = self.rng, self.deal
        for _ in range(30):
            answerer = rng.choice([s for s in deal.seats if s != asker])
            subject = rng.choice(subjects)
            side = rng.choice(("left", "right")) if deal.players == 2 else None
            if (answerer, subject, side) not in self.asked:
                break
        self.asked.add((answerer, subject, side))
        answer = deal.answer(answerer, subject, asker, side)
        where = f", counting their {side} card" if side else ""
        if asker == ME:
            return Event(answer, f"you ask player {answerer} about {subject}{where}: they see {answer.count}")
        who = "you" if answerer == ME else f"player {answerer}"
        return Event(answer, f"player {asker} asks {who} about {subject}{where}: {answer.count}")

    def _unlooked(self, seat: int) -> list[str]:
        return [x for x in self.letters if x not in self.looked.setdefault(seat, set())]

    def my_turn(self, session: ThirteenCluesSession) -> Event:
        rng = self.rng
        unlooked = self._unlooked(ME)
        if unlooked and rng.random() < 0.25:
            letter = rng.choice(unlooked)
            self.looked[ME].add(letter)
            card = self.deal.informants[letter]
            return Event(InformantLook(letter, card), f"you look at Secret Informant {letter}: it is the {card}")
        mystery = session.knowledge.mystery() if session.knowledge else {}
        open_cards = [CARD_BY_NAME[c] for cards in mystery.values() if len(cards) > 1 for c in cards]
        if open_cards and rng.random() < 0.75:
            subjects = sorted({c.suit for c in open_cards} | {c.category for c in open_cards})
        else:
            subjects = [*self.suits, *CATEGORIES]
        return self._question(ME, subjects)

    def rival_turn(self, seat: int) -> Event:
        roll = self.rng.random()
        if roll < 0.15:
            triple = self._wrong_guess(seat)
            if triple is not None:
                self.accused.add(triple)
                person, location, weapon = triple
                return Event(
                    Accusation(seat, person, location, weapon, False),
                    f"player {seat} accuses the {person} in the {location} with the {weapon}: wrong",
                )
        unlooked = self._unlooked(seat)
        if roll < 0.3 and unlooked:
            letter = self.rng.choice(unlooked)
            self.looked[seat].add(letter)
            return Event(InformantBy(letter, seat), f"player {seat} looks at Secret Informant {letter}")
        return self._question(seat, [*self.suits, *CATEGORIES])

    def _wrong_guess(self, seat: int) -> tuple[str, str, str] | None:
        """A triple ``seat`` may legally accuse (no card they can see) that is not their mystery, or None."""
        deal = self.deal
        visible = set(deal.visible_to(seat))
        pools = [
            [c.name for c in DEFAULT_DATA.cards_in_play(deal.players) if c.category == cat and c.name not in visible]
            for cat in CATEGORIES
        ]
        for _ in range(20):
            person, location, weapon = (self.rng.choice(pool) for pool in pools)
            triple = (person, location, weapon)
            if set(triple) != set(deal.screens[seat]) and triple not in self.accused:
                return triple
        return None


def demo(seed: int, players: int, steps: int) -> Generator[v.View, None, bool | None]:
    """Play the demo, yielding what to show; returns True if seat 1's mystery was solved and matches the deal,
    None if the step limit came first (False would mean the deduction disagrees with the deal, which the
    soundness tests rule out)."""
    rng = random.Random(seed)
    deal = random_deal(players, rng)
    session = ThirteenCluesSession()
    yield v.Rule(f"Thirteen Clues demo: {players} players, seed {seed}, you are seat {ME}")
    for entry in deal.setup_lines(ME):
        yield v.Text(f"seat {ME}> {entry}", "accent")
        reply = session.handle(str(entry))
    yield from reply.renderables
    events = table_events(deal, rng, session)
    step = 0
    while session.solved() is None and step < steps:
        step += 1
        event = next(events)
        before = session.snapshot().mystery
        yield v.Rule(f"step {step}: {event.narration}")
        yield v.Text(f"seat {ME}> {event.observation}", "accent")
        reply = session.handle(str(event.observation))
        after = session.snapshot().mystery
        if after == before:
            yield v.Text(reply.summary or "no change", "muted")
            continue
        yield from reply.renderables
        ruled_out = [c for cat in before for c in before[cat] if c not in after[cat]]
        for card in ruled_out:
            yield v.Text(f"seat {ME}> why {card}", "accent")
            yield from session.handle(f"why {card}").renderables
    solution = session.solved()
    truth = deal.screens[ME]
    yield v.Rule("result")
    yield v.Text(f"the true mystery of seat {ME} (from the deal): {', '.join(truth)}")
    if solution is None:
        yield v.Text(f"not solved after {step} steps (step limit)", "warn")
        return None
    answer = (solution["person"], solution["location"], solution["weapon"])
    correct = set(answer) == set(truth)
    person, location, weapon = answer
    verdict = "correct" if correct else "WRONG"
    yield v.Text(f"solved after {step} steps: the {person} in the {location} with the {weapon}: {verdict}",
                 "good" if correct else "bad")
    return correct
