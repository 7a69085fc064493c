"""The bot interface (after OpenSpiel's bots), game-agnostic.

A bot plays one seat of one game and is created fresh for every game by a :data:`BotFactory` from its seat
and its own ``random.Random`` (so a game is reproducible from its seed whatever the bot does). The game loop
(:func:`solver.simulate.play_game`) drives it with two calls:

- ``inform(observation)``: every observation the rules entitle the seat to, in table order, the setup lines
  first, then what the seat sees and hears during play (its own actions' results included).
- ``step(view) -> action``: called when the seat must act; ``view`` is the game's :class:`PlayerView` with the
  public facts and ``view.legal_actions``. The returned action must be one of them.

A bot never sees the true hidden world. A bot that keeps a knowledge state exposes it as the attribute
``knowledge`` (``None`` until it exists); the loop then checks after every observation that the true world
is still possible in it (soundness), which is how simulations test the knowledge models.

A bot may also have ``trust_observations()``: a loop that checks only a sample of the observations for
soundness calls it before the first one (:func:`trust`), telling the bot that every observation comes from the
rules engine that has just played it, so its knowledge may skip the checks that can only refuse a wrong entry.
What the bot knows and plays must be the same either way (a loop that checks every observation never calls it).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from solver.game import PlayerView


class Bot(Protocol):
    """One player. ``name`` labels it in summaries (e.g. ``"logic"``)."""

    name: str

    def inform(self, observation: Any) -> None: ...

    def step(self, view: PlayerView) -> Any: ...


#: Builds a fresh bot for ``seat`` with its own random source.
BotFactory = Callable[[int, random.Random], Bot]


def trust(bot: Bot) -> None:
    """Tell ``bot`` its observations come from the rules engine (module docstring), if it can use that."""
    trust_observations = getattr(bot, "trust_observations", None)
    if trust_observations is not None:
        trust_observations()


def knowledge_of(bot: Bot) -> Any | None:
    """The knowledge state a bot keeps, or ``None`` for bots that keep none (or have not built it yet)."""
    return getattr(bot, "knowledge", None)


class UniformRandomBot:
    """Plays a uniformly random legal action; ignores its observations. Every game must survive it."""

    name = "uniform"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def inform(self, observation: Any) -> None:
        del observation

    def step(self, view: PlayerView) -> Any:
        return self.rng.choice(list(view.legal_actions))
