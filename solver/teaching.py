"""What teaching needs from each game, behind one small interface: :class:`Teacher`.

A teacher drives the game's own companion session (so a learner sees exactly the companion's entries and
views), and says, in the game's words:

- the *claims* a learner can be asked about, which of them are now decided (certain or ruled out), their
  exact probabilities and their explanations: the game's :class:`solver.claims.Claims` over the session's
  knowledge, which the session's ``why ... steps`` reads too;
- the advisor's exact ranking of the seat's choices at a decision point, in the syntax a player types;
- a seeded simulated game as the seat's transcript (the lines it would type, from the rules engine's own
  observations, whose ``str()`` is the companion's entry syntax), with the seat's own actions.

Each game's teacher is ``models/<game>/teach.py``; the exercises (:mod:`solver.exercises`) and the narrated
replays (:mod:`solver.narrate`) use only this interface.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.claims import Claims, Explained, Key
from solver.errors import AssistantError
from solver.proof import Fact
from solver.simulate import bot_rng

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


# -- decisions ----------------------------------------------------------------------------------------------


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
    """One game's teaching interface (module docstring). The claim methods read :meth:`claims`."""

    game: str
    title: str
    header: str
    default_players: int
    players_range: tuple[int, int]
    seat: int = 1
    claim_syntax: str  # how a learner names a claim
    claim_example: str
    focus_name: str  # what the narration follows step by step ("your mystery")
    empathy_exercises: bool = False  # whether exercises also ask what another player knows (:meth:`empathy`)
    file_actions_note: str = ""  # said before a replay of a file, where a file cannot tell the seat's choices

    @abstractmethod
    def new_session(self) -> Any: ...

    @abstractmethod
    def knowledge(self, session: Any) -> Any | None:
        """The game's knowledge model once the setup is complete, else None."""

    @abstractmethod
    def transcript(self, seed: int, players: int) -> Transcript: ...

    @abstractmethod
    def claims(self, session: Any) -> Claims:
        """The game's claims over the session's knowledge (the setup must be complete)."""

    def decided(self, session: Any) -> dict[Key, bool]:
        """Every claim now certain (True) or ruled out (False)."""
        return self.claims(session).decided()

    def open_claims(self, session: Any) -> dict[Key, float]:
        """Claims still open, with their exact probability."""
        return self.claims(session).open()

    def probability(self, session: Any, key: Key) -> float | None:
        return self.claims(session).probability(key)

    def say(self, key: Key, value: bool | None = None) -> str:
        """The claim in words (the wording needs no knowledge)."""
        return self._wording().say(key, value)

    def claim_text(self, key: Key) -> str:
        return self._wording().text(key)

    def focus(self, key: Key) -> bool:
        return self._wording().focus(key)

    def _wording(self) -> Claims:
        """The game's claims with no knowledge: only what words a claim take (``say``, ``text``, ``focus``)."""
        return self.claims(None)

    def parse_claim(self, session: Any, text: str) -> Key:
        return self.claims(session).parse(text)

    def targets(self, session: Any, key: Key, value: bool) -> list[Fact]:
        return self.claims(session).targets(key, value)

    def explain(self, session: Any, key: Key, value: bool) -> Explained:
        return self.claims(session).explain(key, value)

    def explain_all(self, session: Any, claims: dict[Key, bool]) -> Explained:
        return self.claims(session).explain_all(claims)

    def count_text(self, session: Any, key: Key) -> str:
        return self.claims(session).count_text(key)

    def decision(self, session: Any) -> Decision | None:
        """The advisor's ranking of the seat's choices now, if it is the seat's decision and one is ranked."""
        return None

    def decision_later(self, session: Any) -> Callable[[], Decision] | None:
        """Whether there is a decision here (None: none), and how to rank it when it is asked. A game whose ranking
        is slow (Evidence plays out futures) tells it cheaply and ranks only when the exercise is shown, so that the
        first exercise does not wait for a decision asked last; by default it is ranked now."""
        decision = self.decision(session)
        return None if decision is None or len(decision.ranking) < 2 else (lambda: decision)

    def own_decision(self, session: Any, line: str) -> bool:
        """Whether ``line`` (about to be entered) records the seat's own choice (for replays of files)."""
        return False

    def action_text(self, line: str) -> str:
        """The choice a recorded line shows, in the decision syntax."""
        return line

    def empathy(self, session: Any, seat: int) -> list[dict[Any, float]]:
        """What ``seat`` can tell of its own cards, position by position (games with ``empathy_exercises``)."""
        raise NotImplementedError(f"{self.title} has no empathy exercises")

    def started(self, session: Any) -> bool:
        return self.knowledge(session) is not None


def journal_numbers(lines: Sequence[str], entries: int) -> list[int]:
    """Journal numbers of a knowledge model's entries when they are the last ``entries`` lines."""
    first = len(lines) - entries
    return [first + i + 1 for i in range(entries)]
