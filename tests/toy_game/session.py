"""The Toy Cards companion session (:class:`solver.session.BaseSession`): setup, answers, ``why``, the state as
view data (a card x place table of exact probabilities, each cell keyed into ``summary()``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from solver import view as v
from solver.claims import why_steps
from solver.errors import AssistantError, ContradictionError
from solver.session import BaseSession, Choice, Command, Journal, Reply, SetupQuestion
from tests.toy_game import ENTRY
from tests.toy_game.claims import ToyClaims, where
from tests.toy_game.data import CARD_NAMES, CARDS, cards_in_play, places
from tests.toy_game.knowledge import ToyKnowledge
from tests.toy_game.observations import Answer, Entry, Hand, Me, Players, parse

JOURNAL_HEADER = ENTRY.header
COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "?"), "quit": ("quit", "exit"), "show": ("show",), "undo": ("undo",),
    "history": ("history",), "edit": ("edit",), "drop": ("drop",), "why": ("why",),
}
COMMAND_OF = {alias: name for name, aliases in COMMANDS.items() for alias in aliases}
VERBS = ("players", "me", "hand", "ask")


@dataclass(frozen=True)
class Question(SetupQuestion):
    KEYWORDS: ClassVar[frozenset[str]] = frozenset([*COMMAND_OF, *VERBS])


@dataclass(frozen=True)
class Setup:
    players: int | None = None
    me: int | None = None
    hand: str | None = None

    def missing(self) -> list[str]:
        return [name for name, value in (("players N", self.players), ("me SEAT", self.me),
                                          ("hand CARD", self.hand)) if value is None]


def build(entries: Sequence[Entry]) -> tuple[Setup, ToyKnowledge | None]:
    """The setup and knowledge ``entries`` give (a later setup entry replaces an earlier one); raises
    :class:`AssistantError` naming the first entry that does not fit."""
    players = me = hand = None
    for entry in entries:
        if isinstance(entry, Players):
            players = entry.count
        elif isinstance(entry, Me):
            me = entry.seat
        elif isinstance(entry, Hand):
            hand = entry.card
    setup = Setup(players, me, hand)
    if players is not None and me is not None and me > players:
        raise AssistantError(f"me {me}: expected a seat from 1 to {players}")
    if players is not None and hand is not None and hand not in cards_in_play(players):
        raise AssistantError(f"hand {hand}: a {players}-player game has {', '.join(cards_in_play(players))}")
    if setup.missing():
        if any(isinstance(e, Answer) for e in entries):
            raise AssistantError(f"finish the setup first, still need {', '.join(setup.missing())}")
        return setup, None
    assert players is not None and me is not None and hand is not None
    knowledge = ToyKnowledge(players, me, hand)
    for entry in entries:
        if isinstance(entry, Answer):
            check_answer(entry, players)
            knowledge.add(entry)
    return setup, knowledge


def check_answer(answer: Answer, players: int) -> None:
    for seat in (answer.asker, answer.seat):
        if seat > players:
            raise AssistantError(f"'{answer}': seat {seat}: expected a seat from 1 to {players}")
    if answer.card not in cards_in_play(players):
        raise AssistantError(f"'{answer}': the {answer.card} is not in a {players}-player game")


class ToySession(BaseSession):
    """One player's Toy Cards companion."""

    COMMAND_OF = COMMAND_OF
    ENTRY_WORDS = VERBS

    def __init__(self, journal: Journal | None = None, count_budget: float = 2.0) -> None:
        super().__init__(journal, count_budget)
        self.setup = Setup()
        self.knowledge: ToyKnowledge | None = None
        self._entries: list[Entry] = []

    def fresh(self) -> ToySession:
        return ToySession(None, self.count_budget)

    # -- entries --------------------------------------------------------------------------------------------
    def _entry(self, tokens: list[str], show: bool) -> Reply:
        entry = parse(" ".join(tokens))
        if isinstance(entry, Answer):
            knowledge = self.knowledge
            if knowledge is None:
                raise AssistantError(f"'{entry}': finish the setup first, still need {self.missing_setup()}")
            check_answer(entry, knowledge.players)

            def apply() -> None:
                knowledge.add(entry)
                self._entries.append(entry)
        else:
            setup, built = build([*self._entries, entry])

            def apply() -> None:
                self.setup, self.knowledge = setup, built
                self._entries.append(entry)

        return self._accept(str(entry), apply, lambda: self._reply(f"'{entry}'", show))

    def _reply(self, summary: str, show: bool) -> Reply:
        return Reply([self.state_view(summary)] if show else [], True, summary=summary)

    def _conflict_line(self, conflict: object) -> str | None:
        return str(conflict)

    def numbers(self) -> list[int]:
        """The journal numbers of the knowledge's entries: the hand, then every answer."""
        hand = max(i for i, e in enumerate(self._entries, 1) if isinstance(e, Hand))
        return [hand, *(i for i, e in enumerate(self._entries, 1) if isinstance(e, Answer))]

    # -- commands -------------------------------------------------------------------------------------------
    def _commands(self, show: bool) -> dict[str, Command]:
        return {"why": self._why}

    def _why(self, args: list[str]) -> Reply:
        usage = "why CARD PLACE [steps]  (PLACE: a seat number or 'mystery')"
        steps = bool(args) and args[-1].lower() == "steps"
        args = args[:-1] if steps else args
        if self.knowledge is None:
            raise AssistantError(f"why: finish the setup first, still need {self.missing_setup()}")
        if len(args) != 2:
            raise AssistantError(f"why: expected '{usage}'")
        claims = ToyClaims(self.knowledge, self.numbers())
        key = claims.parse(" ".join(args))
        if steps:
            return Reply([v.Text(why_steps(claims, key))])
        card, place = key  # type: ignore[misc]
        result = self.knowledge.explain(card, place)
        if result.status == "open":
            p = claims.probability(key)
            return Reply([v.Text(f"the {card} in {where(place)} is still open: probability {p:.1%} "
                                 f"({claims.count_text(key)})")])
        reasons = "; ".join(f"'{r}'" for r in result.reasons) or "the deal"
        verdict = "certain" if result.status == "certain" else "ruled out"
        return Reply([v.Text(f"the {card} in {where(place)} is {verdict}: {reasons}")])

    # -- views ----------------------------------------------------------------------------------------------
    def state_view(self, summary: str | None) -> v.View:
        head = [v.Text(summary, "strong")] if summary else []
        kn = self.knowledge
        if kn is None:
            return v.Group(*head, v.Text(f"setup: still need {self.missing_setup()}", "muted"))
        table = v.Table(title=f"Where each card is ({kn.worlds()} deals fit)")
        table.add_column("Card")
        for place in kn.places:
            table.add_column("mystery" if place == "mystery" else f"player {place}", align="right")
        for card, row in kn.probabilities().items():
            table.add_row(card, *(v.prob(p, f"{p:.0%}", why=f"why {card} {place}", key=f"places.{card}.{place}")
                                  for place, p in row.items()))
        return v.Group(*head, table)

    def brief_view(self) -> v.View:
        """One line: how many deals fit and the mystery once it is certain."""
        kn = self.knowledge
        if kn is None:
            return v.Text(f"setup: still need {self.missing_setup()}", "muted")
        mystery = kn.mystery()
        return v.Text(f"{kn.worlds()} deals fit; the mystery is {mystery or 'still open'}")

    def _help_view(self) -> v.View:
        return v.Text("Entries: players N, me SEAT, hand CARD, ask ASKER SEAT CARD yes|no. Commands: show, why CARD "
                      "PLACE [steps], history, undo, edit N ENTRY, drop N, help, quit.")

    def missing_setup(self) -> str:
        return ", ".join(self.setup.missing())

    def setup_question(self) -> Question | None:
        s = self.setup
        if s.players is None:
            return Question("Number of players (2-3): ", "players")
        if s.me is None:
            return Question(f"Your seat (1-{s.players}): ", "me")
        if s.hand is None:
            return Question("Your card: ", "hand")
        return None

    def summary(self) -> dict[str, Any]:
        """The final state as plain data (``analyze --json``): the keys the state view's cells name."""
        kn = self.knowledge
        if kn is None:
            raise AssistantError(f"analyze: finish the setup first, still need {self.missing_setup()}")
        return {"players": kn.players, "me": kn.me, "hand": kn.hand, "worlds": kn.worlds(),
                "places": kn.probabilities(), "mystery": kn.mystery(), "entries": list(self.lines)}

    def _entry_choices(self, words: list[str]) -> list[Choice]:
        """The words that may follow ``words`` in an entry (the toy offers every seat and card, not only the
        legal ones: the registry tests need a game, not a good one)."""
        if not words:
            return [Choice(verb) for verb in VERBS]
        verb, pos = words[0].lower(), len(words)
        players = self.setup.players or 3
        seats = [str(s) for s in range(1, players + 1)]
        cards = list(cards_in_play(players)) if self.setup.players else list(CARDS)
        last = {"players": 1, "me": 1, "hand": 1, "ask": 4}.get(verb)
        offered = {
            "players": {1: ["2", "3"]}, "me": {1: seats}, "hand": {1: cards},
            "ask": {1: seats, 2: seats, 3: cards, 4: ["yes", "no"]},
        }.get(verb, {}).get(pos, [])
        return [Choice(word, ends=pos == last) for word in offered]

    def _command_args(self, command: str, words: list[str]) -> list[Choice]:
        players = self.setup.players or 3
        cards = list(cards_in_play(players)) if self.setup.players else list(CARDS)
        if command == "why":
            offered = {1: cards, 2: list(places(players)), 3: ["steps"]}.get(len(words), [])
            return [Choice(word, ends=len(words) == 3) for word in offered]
        return []


__all__ = ["CARD_NAMES", "ContradictionError", "ToySession"]
