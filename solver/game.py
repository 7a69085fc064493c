"""The rules-engine interface every game implements (after OpenSpiel's ``State``), game-agnostic.

A :class:`State` is the whole table, the true hidden world included; only the rules engine and the soundness
checks read it. Players never do: each seat has an observation queue that receives exactly what the rules
entitle that seat to (in the game's own observation types, the ones the CLI parses and the knowledge model
consumes), and a :class:`PlayerView` with the public facts and, for the seat to move, the legal actions.

Seats are absolute, numbered 1..N clockwise. ``current_player()`` is ``None`` once the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

ActionT = TypeVar("ActionT")
ObsT = TypeVar("ObsT")


class PlayerView(Protocol):
    """What one seat may know about the table besides its observations: public facts and its legal actions
    (empty when it is not that seat's move). Games add their own public fields."""

    @property
    def seat(self) -> int: ...

    @property
    def legal_actions(self) -> Sequence[Any]: ...


class State(Protocol):
    """A game in progress. ``apply`` raises :class:`solver.errors.IllegalActionError` for an illegal action."""

    @property
    def num_players(self) -> int: ...

    def current_player(self) -> int | None: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, action: Any) -> None: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]:
        """One value per seat (index ``seat - 1``) once terminal: 1 for the winner, 0 otherwise (a draw is
        all zeros)."""
        ...

    def winner(self) -> int | None: ...

    def clone(self) -> State: ...

    def take_observations(self, seat: int) -> list[Any]:
        """Drain and return ``seat``'s pending observations, oldest first."""
        ...

    def view(self, seat: int) -> PlayerView: ...

    def player_stats(self, seat: int) -> Mapping[str, float]:
        """Per-seat counters the simulation summarises (e.g. turns, questions, wrong accusations)."""
        ...

    def soundness_failure(self, seat: int, knowledge: Any, deep: bool = False) -> str | None:
        """Whether ``knowledge`` (a knowledge state kept by ``seat``'s bot) still admits the true hidden world;
        ``None`` if it does, else a one-line description of what it wrongly rules out. ``deep`` also asks the
        knowledge model's own solver (slower), beyond checking its constraints against the true world."""
        ...
