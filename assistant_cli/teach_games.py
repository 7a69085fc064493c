"""What teaching needs from each game, behind one small interface: :class:`Teacher`.

A teacher drives the game's own companion session (so a learner sees exactly the companion's entries and
views), and says, in the game's words:

- the *claims* a learner can be asked about (Thirteen Clues: a card in a place; Beyond Baker Street: a card at
  one of my positions; Evidence: a mystery's evidence value; Time Bomb: how many cards of a colour are in
  play), which of them are now decided (certain or ruled out), and their exact probabilities;
- the step-by-step explanation of a decided claim (:mod:`solver.steps`, worded by the game's describer), or,
  where the game's model has no literal-level chain (Time Bomb's counts), the count that decides it and the
  minimal set of entries behind it;
- the advisor's exact ranking of the seat's choices at a decision point, in the syntax a player types;
- a seeded simulated game as the seat's transcript (the lines it would type, from the rules engine's own
  observations, whose ``str()`` is the companion's entry syntax), with the seat's own actions.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant_cli.session import BaseSession
from solver.errors import AssistantError
from solver.simulate import bot_rng
from solver.steps import Chain, Explainer, Fact

Key = Hashable


# -- transcripts --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Transcript:
    """A seeded simulated game from one seat: the lines it types, and its own actions (keyed by how many of
    its lines came before each action)."""

    game: str
    seed: int
    players: int
    seat: int
    lines: tuple[str, ...]
    actions: dict[int, str] = field(default_factory=dict)


def play_transcript(
    game: str,
    new_state: Callable[[random.Random], Any],
    make_bot: Callable[[str, int, random.Random], Any],
    bots: Sequence[str],
    seed: int,
    seat: int,
    keep: Callable[[Any], bool] = lambda obs: True,
    max_actions: int = 400,
) -> Transcript:
    """Play one game (the :mod:`solver.simulate` loop, same seeds) and record ``seat``'s observations as lines;
    ``keep`` drops observations the companion does not take (e.g. your own draws, which it fills in)."""
    state = new_state(random.Random(seed))
    players = [make_bot(name, s, bot_rng(seed, s)) for s, name in enumerate(bots, start=1)]
    lines: list[str] = []
    actions: dict[int, str] = {}

    def deliver() -> None:
        for s, bot in enumerate(players, start=1):
            for obs in state.take_observations(s):
                bot.inform(obs)
                if s == seat and keep(obs):
                    lines.append(str(obs))

    deliver()
    for _ in range(max_actions):
        if state.is_terminal():
            break
        current = state.current_player()
        action = players[current - 1].step(state.view(current))
        if current == seat:
            actions.setdefault(len(lines), str(action))
        state.apply(action)
        deliver()
    return Transcript(game, seed, len(bots), seat, tuple(lines), actions)


# -- explanations -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Explained:
    """A decided claim's explanation: a verified chain of steps (``chain``, checkable with ``explainer``), or,
    when no short chain exists, ``note`` (the count that decides it)."""

    lines: tuple[str, ...]
    chain: Chain | None = None
    explainer: Explainer | None = None
    note: str = ""
    level: int | None = None  # the level, where no chain measures it


def chain_lines(chain: Chain) -> tuple[str, ...]:
    """The numbered steps, each with its kind and the earlier steps it uses."""
    out = []
    for n, step in enumerate(chain.steps, start=1):
        plural = "s" if len(step.steps) > 1 else ""
        uses = f"; uses step{plural} {', '.join(map(str, step.steps))}" if step.steps else ""
        out.append(f"{n}. {step.sentence} [{step.kind}{uses}]")
    return tuple(out)


def explained_chain(explainer: Explainer, targets: Sequence[Fact]) -> Explained:
    chain = explainer.chain_all(targets)
    return Explained(chain_lines(chain), chain, explainer)


@dataclass(frozen=True)
class Choice:
    """One ranked option of a decision: what a player types, the advisor's score (higher is better), why."""

    text: str
    score: float
    reason: str = ""


@dataclass(frozen=True)
class Decision:
    """A decision point: the question, the answer syntax, the advisor's ranking (best first), and how far below
    the best score an answer may be and still count as right."""

    prompt: str
    syntax: str
    ranking: tuple[Choice, ...]
    tolerance: float
    unit: str = ""

    def find(self, text: str) -> Choice:
        """The ranked option ``text`` names (spacing and case ignored), or a one-line error."""
        wanted = normalize(text)
        for choice in self.ranking:
            if normalize(choice.text) == wanted:
                return choice
        raise AssistantError(f"'{text}': not one of the choices here; expected {self.syntax}")

    def accepts(self, choice: Choice) -> bool:
        return choice.score >= self.ranking[0].score - self.tolerance - 1e-9


def normalize(text: str) -> str:
    return " ".join(text.lower().split())


# -- the interface ------------------------------------------------------------------------------------------


class Teacher(ABC):
    """One game's teaching interface (module docstring)."""

    game: str
    title: str
    header: str
    default_players: int
    players_range: tuple[int, int]
    seat: int = 1
    claim_syntax: str  # how a learner names a claim
    claim_example: str
    focus_name: str  # what the narration follows step by step ("your mystery")

    @abstractmethod
    def new_session(self) -> BaseSession: ...

    @abstractmethod
    def knowledge(self, session: BaseSession) -> Any | None:
        """The game's knowledge model once the setup is complete, else None."""

    @abstractmethod
    def transcript(self, seed: int, players: int) -> Transcript: ...

    @abstractmethod
    def decided(self, session: BaseSession) -> dict[Key, bool]:
        """Every claim now certain (True) or ruled out (False)."""

    @abstractmethod
    def open_claims(self, session: BaseSession) -> dict[Key, float]:
        """Claims still open, with their exact probability."""

    @abstractmethod
    def probability(self, session: BaseSession, key: Key) -> float | None:
        """The claim's exact probability (None where the game's counter does not count it)."""

    @abstractmethod
    def say(self, key: Key, value: bool | None = None) -> str:
        """The claim in words: held (True), ruled out (False), or as a question's subject (None)."""

    @abstractmethod
    def claim_text(self, key: Key) -> str:
        """The claim as a learner types it (the answer syntax)."""

    @abstractmethod
    def parse_claim(self, session: BaseSession, text: str) -> Key: ...

    def explainer(self, session: BaseSession) -> Explainer | None:
        """The step-chain engine over the session's knowledge, worded for the game (None: no chains here)."""
        return None

    def targets(self, session: BaseSession, key: Key, value: bool) -> list[Fact]:
        """The literal facts that make up a claim (its chain concludes each)."""
        return [Fact(key, value)]  # type: ignore[arg-type]

    def explain(self, session: BaseSession, key: Key, value: bool) -> Explained:
        """The verified chain that ends in the claim."""
        return self.explain_all(session, {key: value})

    def explain_all(self, session: BaseSession, claims: dict[Key, bool]) -> Explained:
        """One chain that concludes every claim of ``claims`` (shared steps said once)."""
        ex = self.explainer(session)
        assert ex is not None, "a game without chains overrides explain_all"
        facts = [f for key, value in claims.items() for f in self.targets(session, key, value)]
        return explained_chain(ex, facts)

    def focus(self, key: Key) -> bool:
        """Whether the narration explains this claim step by step (others are only counted)."""
        return True

    def decision(self, session: BaseSession) -> Decision | None:
        """The advisor's ranking of the seat's choices now, if it is the seat's decision and one is ranked."""
        return None

    def own_decision(self, session: BaseSession, line: str) -> bool:
        """Whether ``line`` (about to be entered) records the seat's own choice (for replays of files)."""
        return False

    def action_text(self, line: str) -> str:
        """The choice a recorded line shows, in the decision syntax."""
        return line

    def count_text(self, session: BaseSession, key: Key) -> str:
        """The count behind a probability, in words ('12 of 30 arrangements'), where the game has one."""
        return ""

    def started(self, session: BaseSession) -> bool:
        return self.knowledge(session) is not None


def _numbers(lines: Sequence[str], entries: int) -> list[int]:
    """Journal numbers of the knowledge model's entries: they are the last ``entries`` lines."""
    first = len(lines) - entries
    return [first + i + 1 for i in range(entries)]


# -- Thirteen Clues -----------------------------------------------------------------------------------------


class ThirteenCluesTeacher(Teacher):
    game = "thirteen-clues"
    title = "Thirteen Clues"
    default_players = 4
    players_range = (2, 6)
    claim_syntax = "CARD [PLACE]  (PLACE: mystery (the default), a seat number, or an informant letter)"
    claim_example = "Knife  or  Knife 3"
    focus_name = "your mystery"

    def __init__(self) -> None:
        from assistant_cli.session import JOURNAL_HEADER

        self.header = JOURNAL_HEADER

    def new_session(self) -> BaseSession:
        from assistant_cli.session import Session

        return Session()

    def knowledge(self, session: Any) -> Any | None:
        return session.knowledge

    def transcript(self, seed: int, players: int) -> Transcript:
        from models.thirteen_clues.bots import make_bot
        from models.thirteen_clues.rules import TableRules, new_game

        rules = TableRules(players)
        return play_transcript(self.game, functools.partial(new_game, rules), make_bot, ["logic"] * players,
                               seed, self.seat)

    def decided(self, session: Any) -> dict[Key, bool]:
        kn = session.knowledge
        possible = kn.knowledge.possible()
        out: dict[Key, bool] = {}
        for card in kn.unseen:
            places = possible[card]
            for place in kn.capacities:
                if place not in places:
                    out[(card, place)] = False
                elif len(places) == 1:
                    out[(card, place)] = True
        return out

    def open_claims(self, session: Any) -> dict[Key, float]:
        kn = session.knowledge
        count = kn.count()
        decided = self.decided(session)
        return {(c, p): count.probability((c, p)) for c in kn.unseen for p in ("mystery",)
                if (c, p) not in decided}

    def probability(self, session: Any, key: Key) -> float | None:
        """Only the mystery's cards are counted (the counter weighs the mystery's literals)."""
        if key[1] != "mystery":  # type: ignore[index]
            return None
        return float(session.knowledge.count().probability(key))

    def count_text(self, session: BaseSession, key: Key) -> str:
        if key[1] != "mystery":  # type: ignore[index]
            return ""
        count = session.knowledge.count()  # type: ignore[attr-defined]
        exact = "" if count.exact else " (estimated)"
        return f"{count.weights.get(key, 0.0):,.0f} of {count.worlds:,.0f} arrangements of your unseen cards{exact}"

    def say(self, key: Key, value: bool | None = None) -> str:
        from models.thirteen_clues.explain import where

        card, place = key  # type: ignore[misc]
        if value is None:
            return f"the {card} in {where(place)}"
        return f"the {card} is {'' if value else 'not '}in {where(place)}"

    def claim_text(self, key: Key) -> str:
        card, place = key  # type: ignore[misc]
        if place == "mystery":
            return card
        return f"{card} {place[1:]}" if place.startswith("p") else f"{card} {place}"

    def focus(self, key: Key) -> bool:
        return key[1] == "mystery"  # type: ignore[index]

    def parse_claim(self, session: Any, text: str) -> Key:
        from models.thirteen_clues.observations import CARD_NAMES

        kn = session.knowledge
        words = text.split()
        if not words:
            raise AssistantError(f"expected {self.claim_syntax}")
        card, i = CARD_NAMES.take(words, 0)
        rest = "".join(words[i:]).lower()
        if card not in kn.unseen:
            where = kn.where_visible(card) if card in kn.in_play else "not in play in this game"
            raise AssistantError(f"'{card}': you can see it ({where}); name one of your 13 unseen cards")
        if rest in ("", "mystery", "my", "me"):
            return (card, "mystery")
        if rest.upper() in kn.letters:
            return (card, rest.upper())
        for place in kn.capacities:
            if place.startswith("p") and rest in (place[1:].lower(), place[1:-1] + ("left" if place[-1] == "L"
                                                                                       else "right")):
                return (card, place)
        raise AssistantError(f"'{text}': unknown place '{' '.join(words[i:])}'; expected {self.claim_syntax}")

    def explainer(self, session: Any) -> Explainer:
        from models.thirteen_clues.explain import explainer

        kn = session.knowledge
        return explainer(kn, _numbers(session.lines, len(kn.knowledge.entries)))

    def decision(self, session: Any) -> Decision | None:
        from models.thirteen_clues.advisor import advise
        from models.thirteen_clues.observations import Ask, Consult

        kn = session.knowledge
        ranked = [a for a in advise(kn) if isinstance(a.action, Ask | Consult)]
        if len(ranked) < 2:
            return None
        choices = tuple(Choice(str(a.action), a.score, a.reason) for a in ranked)
        return Decision("Your turn: which question (or informant card) tells you most?",
                        "'ask SEAT SUBJECT' or 'consult LETTER'", choices, tolerance=0.05, unit="bits")

    def action_text(self, line: str) -> str:
        words = line.split()
        if words and words[0] == "ask":
            return normalize(" ".join(words[:-1]))  # the answer count is the table's, not the choice
        if words and words[0] == "informant" and len(words) == 3 and words[2].lower() != "by":
            return f"consult {words[1].lower()}"
        return normalize(line)


# -- Beyond Baker Street ------------------------------------------------------------------------------------


class BakerStreetTeacher(Teacher):
    game = "beyond-baker-street"
    title = "Beyond Baker Street"
    default_players = 3
    players_range = (2, 4)
    seat = 2
    claim_syntax = "CARD POSITION  (a card code such as 3D, and one of your positions)"
    claim_example = "3D 2"
    focus_name = "your hand"

    def __init__(self) -> None:
        from assistant_cli.beyond_baker_street import JOURNAL_HEADER

        self.header = JOURNAL_HEADER

    def new_session(self) -> BaseSession:
        from assistant_cli.beyond_baker_street import BakerStreetSession

        return BakerStreetSession()

    def knowledge(self, session: Any) -> Any | None:
        return session.kn if session.kn.started else None

    def transcript(self, seed: int, players: int) -> Transcript:
        from models.beyond_baker_street.advisor import make_bot
        from models.beyond_baker_street.observations import Drew
        from models.beyond_baker_street.rules import TableRules, new_game

        rules = TableRules(players, 1 + seed % 6)
        seat = self.seat if players >= 2 else 1
        return play_transcript(self.game, functools.partial(new_game, rules), make_bot, ["advisor"] * players,
                               seed, seat, keep=lambda obs: not (isinstance(obs, Drew) and obs.seat == seat))

    def _hand(self, session: Any) -> list[dict[Any, float]]:
        return session.kn.hand()

    def decided(self, session: Any) -> dict[Key, bool]:
        kn = session.kn
        unseen = kn.unseen()
        out: dict[Key, bool] = {}
        for pos, dist in enumerate(self._hand(session), start=1):
            for card in unseen:
                p = dist.get(card, 0.0)
                if p == 0.0:
                    out[(card.code, pos)] = False
                elif p == 1.0:
                    out[(card.code, pos)] = True
        return out

    def open_claims(self, session: Any) -> dict[Key, float]:
        return {(card.code, pos): p for pos, dist in enumerate(self._hand(session), start=1)
                for card, p in dist.items() if 0.0 < p < 1.0}

    def probability(self, session: Any, key: Key) -> float:
        from models.beyond_baker_street.data import EVIDENCE_BY_CODE

        code, pos = key  # type: ignore[misc]
        return float(self._hand(session)[pos - 1].get(EVIDENCE_BY_CODE[code], 0.0))

    def say(self, key: Key, value: bool | None = None) -> str:
        code, pos = key  # type: ignore[misc]
        if value is None:
            return f"{code} at your position {pos}"
        return f"{code} is {'' if value else 'not '}at your position {pos}"

    def claim_text(self, key: Key) -> str:
        code, pos = key  # type: ignore[misc]
        return f"{code} {pos}"

    def parse_claim(self, session: Any, text: str) -> Key:
        from models.beyond_baker_street.data import EVIDENCE_BY_CODE

        words = text.upper().split()
        held = len(session.kn.hands[session.kn.me])
        if len(words) != 2 or words[0] not in EVIDENCE_BY_CODE or not words[1].isdigit():
            raise AssistantError(f"'{text}': expected {self.claim_syntax}, e.g. '{self.claim_example}'")
        pos = int(words[1])
        if not 1 <= pos <= held:
            raise AssistantError(f"'{text}': position {pos}, but you hold {held} cards")
        card = EVIDENCE_BY_CODE[words[0]]
        if card not in session.kn.unseen():
            raise AssistantError(f"'{text}': you can see {card.code} ({session.kn.where(card)})")
        return (card.code, pos)

    def explainer(self, session: Any) -> Explainer:
        from models.beyond_baker_street.explain import explainer

        return explainer(session.kn)

    def targets(self, session: Any, key: Key, value: bool) -> list[Fact]:
        code, pos = key  # type: ignore[misc]
        return [Fact((code, f"p{pos}"), value)]

    def decision(self, session: Any) -> Decision | None:
        from models.beyond_baker_street.advisor import advise

        kn = session.kn
        board = kn.board
        if board is None or board.over or board.current != kn.me or board.pending:
            return None
        ranked = advise(kn)
        if len(ranked) < 2:
            return None
        choices = tuple(Choice(str(a.action), a.score, a.reason) for a in ranked)
        return Decision("Your turn: which action (an Assist, an investigation, ...) is worth most?",
                        "an action as the advisor prints it: 'assist SEAT SUBJECT', 'investigate POSITION LEAD', "
                        "'eliminate POSITION', 'confirm LEAD' or 'pursue LEAD'", choices, tolerance=0.5)

    def own_decision(self, session: Any, line: str) -> bool:
        words = line.split()
        kn = session.kn
        return (kn.started and len(words) >= 2 and words[0] in ("assist", "investigate", "eliminate", "confirm",
                                                               "pursue") and words[1] == str(kn.me))

    def action_text(self, line: str) -> str:
        words = line.split()
        verb = words[0]
        if verb == "assist":  # assist BY TARGET SUBJECT at ...
            return normalize(f"assist {words[2]} {words[3]}")
        if verb == "investigate":  # investigate BY POSITION CARD LEAD
            return normalize(f"investigate {words[2]} {words[4]}")
        if verb == "eliminate":  # eliminate BY POSITION CARD
            return normalize(f"eliminate {words[2]}")
        return normalize(f"{verb} {' '.join(words[2:])}")

    def empathy(self, session: Any, seat: int) -> list[dict[Any, float]]:
        return session.kn.empathy(seat)


# -- Evidence -----------------------------------------------------------------------------------------------


class EvidenceTeacher(Teacher):
    game = "evidence"
    title = "Evidence"
    default_players = 4
    players_range = (2, 5)
    claim_syntax = "COLOUR VALUE  (a mystery's colour and an evidence value)"
    claim_example = "brown 2"
    focus_name = "the mysteries' evidence"

    def __init__(self) -> None:
        from assistant_cli.evidence import JOURNAL_HEADER

        self.header = JOURNAL_HEADER

    def new_session(self) -> BaseSession:
        from assistant_cli.evidence import EvidenceSession

        return EvidenceSession()

    def knowledge(self, session: Any) -> Any | None:
        return session.knowledge

    def transcript(self, seed: int, players: int) -> Transcript:
        from models.evidence.bots import make_bot
        from models.evidence.rules import new_game

        return play_transcript(self.game, functools.partial(new_game, players=players), make_bot,
                               ["greedy"] * players, seed, self.seat)

    def decided(self, session: Any) -> dict[Key, bool]:
        kn = session.knowledge
        possible = kn.possible()
        out: dict[Key, bool] = {}
        for colour, values in possible.items():
            for v in kn.data.distinct_values(colour):
                if v not in values:
                    out[(colour, v)] = False
                elif len(values) == 1:
                    out[(colour, v)] = True
        return out

    def open_claims(self, session: Any) -> dict[Key, float]:
        dist = session.knowledge.distribution()
        return {(c, v): p for c, row in dist.items() for v, p in row.items() if 0.0 < p < 1.0}

    def probability(self, session: Any, key: Key) -> float:
        colour, value = key  # type: ignore[misc]
        return float(session.knowledge.distribution()[colour].get(value, 0.0))

    def say(self, key: Key, value: bool | None = None) -> str:
        colour, v = key  # type: ignore[misc]
        if value is None:
            return f"the {colour} evidence being {v}"
        return f"the {colour} evidence {'is' if value else 'cannot be'} {v}"

    def claim_text(self, key: Key) -> str:
        colour, v = key  # type: ignore[misc]
        return f"{colour} {v}"

    def parse_claim(self, session: Any, text: str) -> Key:
        from assistant_cli.evidence import colour_of

        words = text.split()
        if len(words) != 2:
            raise AssistantError(f"'{text}': expected {self.claim_syntax}, e.g. '{self.claim_example}'")
        colour = colour_of(words[0])
        try:
            value = int(words[1])
        except ValueError:
            raise AssistantError(f"'{text}': value '{words[1]}': expected a whole number") from None
        values = session.knowledge.data.distinct_values(colour)
        if value not in values:
            raise AssistantError(f"'{text}': a {colour} rumour is one of {', '.join(map(str, values))}")
        return (colour, value)

    def explainer(self, session: Any) -> Explainer:
        from models.evidence.explain import explainer

        return explainer(session.knowledge)

    def targets(self, session: Any, key: Key, value: bool) -> list[Fact]:
        from models.evidence.explain import targets

        colour, v = key  # type: ignore[misc]
        return targets(session.knowledge, colour, v, value)

    def explain_all(self, session: Any, claims: dict[Key, bool]) -> Explained:
        """As every game, except a value none of whose copies is hidden: you saw them all, no chain needed."""
        hidden = {k: v for k, v in claims.items() if self.targets(session, k, v)}
        if hidden:
            return super().explain_all(session, hidden)
        key, value = next(iter(claims.items()))
        colour, v = key  # type: ignore[misc]
        what = f"every {colour} rumour but the {v}" if value else f"every copy of the {colour} {v}"
        return Explained((f"1. You have seen {what} (at setup or in your hand): so {self.say(key, value)}. "
                          "[stated]",), note="seen")

    def decision(self, session: Any) -> Decision | None:
        from assistant_cli.evidence import PLAY, SEARCH, legal_for
        from models.evidence.advisor import candidates, evaluate

        kn = session.knowledge
        try:
            turn = session.turn()
        except AssistantError:
            return None
        if turn.seat != kn.me or turn.phase not in (PLAY, SEARCH):
            return None
        options = candidates(kn, turn.phase, legal_for(kn, turn.phase))
        if len(options) < 2:
            return None
        ranked = evaluate(kn, turn.round, turn.phase, options, 48, random.Random(0), rounds=3)
        ranked = sorted(ranked, key=lambda o: -o.utility)
        choices = tuple(Choice(str(o.action), o.utility, o.tells) for o in ranked)
        what = "rumour to play" if turn.phase == PLAY else "search to make"
        return Decision(f"Your turn: which {what} does the advisor rank best?",
                        "the action as the advisor prints it (e.g. 'play brown 2', 'take brown', 'done')",
                        choices, tolerance=0.02)

    def own_decision(self, session: Any, line: str) -> bool:
        words = line.split()
        kn = session.knowledge
        return kn is not None and len(words) >= 3 and words[0] in ("play", "search") and words[1] == str(kn.me)

    def action_text(self, line: str) -> str:
        words = line.split()  # play ME COLOUR VALUE / search ME COLOUR
        return normalize(f"play {words[2]} {words[3]}" if words[0] == "play" else f"take {words[2]}")


# -- Time Bomb ----------------------------------------------------------------------------------------------


class TimeBombTeacher(Teacher):
    game = "time-bomb"
    title = "Time Bomb Evolution"
    default_players = 5
    players_range = (4, 6)
    seat = 2
    claim_syntax = "COLOUR COUNT  (how many cards of a bomb colour are in play)"
    claim_example = "red 2"
    focus_name = "the cards in play"

    def __init__(self) -> None:
        from assistant_cli.time_bomb import JOURNAL_HEADER

        self.header = JOURNAL_HEADER

    def new_session(self) -> BaseSession:
        from assistant_cli.time_bomb import TimeBombSession

        return TimeBombSession()

    def knowledge(self, session: Any) -> Any | None:
        return session.knowledge

    def transcript(self, seed: int, players: int) -> Transcript:
        from assistant_cli.time_bomb import _new_state
        from models.time_bomb.bots import make_bot

        return play_transcript(self.game, functools.partial(_new_state, players=players), make_bot,
                               ["advisor"] * players, seed, self.seat)

    def decided(self, session: Any) -> dict[Key, bool]:
        kn = session.knowledge
        out: dict[Key, bool] = {}
        for colour, dist in kn.in_play().items():
            for k in range(kn.setup.bombs_per_colour + 1):
                p = dist.get(k, 0.0)
                if p == 0.0:
                    out[(colour, k)] = False
                elif p == 1.0:
                    out[(colour, k)] = True
        return out

    def open_claims(self, session: Any) -> dict[Key, float]:
        return {(c, k): p for c, dist in session.knowledge.in_play().items() for k, p in dist.items()
                if 0.0 < p < 1.0}

    def probability(self, session: Any, key: Key) -> float:
        colour, k = key  # type: ignore[misc]
        return float(session.knowledge.in_play()[colour].get(k, 0.0))

    def say(self, key: Key, value: bool | None = None) -> str:
        colour, k = key  # type: ignore[misc]
        cards = f"{k} {colour} card{'s' if k != 1 else ''}"
        if value is None:
            return f"exactly {cards} in play"
        if value:
            return f"exactly {cards} {'are' if k != 1 else 'is'} in play"
        return f"there cannot be exactly {cards} in play"

    def claim_text(self, key: Key) -> str:
        colour, k = key  # type: ignore[misc]
        return f"{colour} {k}"

    def parse_claim(self, session: Any, text: str) -> Key:
        from models.time_bomb.observations import COLOUR_NAMES

        kn = session.knowledge
        words = text.split()
        if len(words) != 2 or not words[1].isdigit():
            raise AssistantError(f"'{text}': expected {self.claim_syntax}, e.g. '{self.claim_example}'")
        colour = COLOUR_NAMES.resolve(words[0])
        if colour not in kn.setup.colours:
            raise AssistantError(f"'{text}': {colour} is not a bomb colour of this game")
        k = int(words[1])
        if k > kn.setup.bombs_per_colour:
            raise AssistantError(f"'{text}': there are only {kn.setup.bombs_per_colour} {colour} cards")
        return (colour, k)

    def explain_all(self, session: Any, claims: dict[Key, bool]) -> Explained:
        key, value = next(iter(claims.items()))
        return self.explain(session, key, value)

    def explain(self, session: Any, key: Key, value: bool) -> Explained:
        """No literal-level chain here: the count over the hard facts decides, and a minimal set of entries
        forces it (a CP-SAT core); the steps are 'those entries' then 'the count'."""
        from models.time_bomb.counting import InPlay

        kn = session.knowledge
        colour, k = key  # type: ignore[misc]
        dist = kn.in_play()[colour]
        ruled = [key] if not value else [(colour, j) for j in range(kn.setup.bombs_per_colour + 1)
                                         if j != k and dist.get(j, 0.0) == 0.0]
        lines: list[str] = []
        premises = 0
        for _, j in ruled:
            core = kn.explain_whatif(InPlay(colour, j))
            premises = max(premises, len(core))
            facts = "; ".join(f.located() for f in core) if core else "the setup alone (how many cards are removed)"
            lines.append(f"{len(lines) + 1}. These entries together leave no deal with {j} {colour} in play: "
                         f"{facts}. [case analysis]")
        shown = ", ".join(f"{j}: {p:.0%}" for j, p in sorted(dist.items()))
        note = (f"No short chain of single-card steps: the hard facts' exact count of deals decides it "
                f"({colour} cards in play: {shown}).")
        lines.append(f"{len(lines) + 1}. {note} So {self.say(key, value)}. [counting]")
        return Explained(tuple(lines), note=note, level=2 if premises <= 2 and len(ruled) == 1 else 3)

    def decision(self, session: Any) -> Decision | None:
        from models.time_bomb.advisor import cut_options

        kn = session.knowledge
        t = kn.table
        if t.over or t.cutter != kn.me or not t.targets():
            return None
        try:
            options = cut_options(kn)
        except AssistantError:
            return None
        if len(options) < 2:
            return None
        choices = tuple(Choice(f"cut {o.seat}", o.score, o.reason) for o in options)
        return Decision(f"You hold the cutter ({kn.role}): whose wire does the advisor rank best to cut?",
                        "'cut SEAT'", choices, tolerance=0.02)

    def own_decision(self, session: Any, line: str) -> bool:
        kn = session.knowledge
        return kn is not None and line.split()[:1] == ["cut"] and kn.table.cutter == kn.me and not kn.table.over

    def action_text(self, line: str) -> str:
        words = line.split()
        return normalize(" ".join(words[:2]))


TEACHERS: dict[str, Callable[[], Teacher]] = {
    "thirteen-clues": ThirteenCluesTeacher,
    "beyond-baker-street": BakerStreetTeacher,
    "evidence": EvidenceTeacher,
    "time-bomb": TimeBombTeacher,
}


def teacher(game: str) -> Teacher:
    """The teacher for ``game`` (a one-line error for an unknown name)."""
    if game not in TEACHERS:
        raise AssistantError(f"unknown game '{game}': expected one of {', '.join(TEACHERS)}")
    return TEACHERS[game]()


def why_steps(t: Teacher, session: BaseSession, key: Key) -> str:
    """The text of ``why ... steps``: the numbered chain of a decided claim, or, for an open one, that no chain
    decides it and the count that gives its probability."""
    decided = t.decided(session)
    if key not in decided:
        p = t.probability(session, key)
        counted = t.count_text(session, key)
        chance = "" if p is None else f" (probability {p:.1%}{f': {counted}' if counted else ''})"
        return (f"{t.say(key, None)} is still open{chance}: no chain of steps decides it, only the count of the "
                "arrangements that fit.")
    explained = t.explain(session, key, decided[key])
    return "\n".join([f"Why {t.say(key, decided[key])}, step by step:", *explained.lines])
