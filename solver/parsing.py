"""What every game's entry language shares: the setup entries ``players N``, ``me SEAT`` and ``start SEAT``,
and the small token helpers the parsers use.

Each game's ``observations`` module re-exports the entries it has, so ``models.<game>.observations.Players``
keeps working. Whether a number fits the game (2-6 players, a seat at the table) is checked by the game's
setup, not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from solver.errors import InvalidObservationError


@dataclass(frozen=True)
class Players:
    """Number of players at the table (setup)."""

    count: int

    def __str__(self) -> str:
        return f"players {self.count}"


@dataclass(frozen=True)
class Me:
    """My seat (setup)."""

    seat: int

    def __str__(self) -> str:
        return f"me {self.seat}"


@dataclass(frozen=True)
class Start:
    """The start seat (setup): who plays first; in Time Bomb, who holds the cutter first."""

    seat: int

    def __str__(self) -> str:
        return f"start {self.seat}"


def split_entry(line: str, what: str = "line") -> tuple[str, list[str]]:
    """The first word (as typed) and the other words of an entry line; text after '#' is a comment."""
    tokens = line.split("#", 1)[0].split()
    if not tokens:
        raise InvalidObservationError(f"empty {what}")
    return tokens[0], tokens[1:]


def parse_int(token: str, what: str) -> int:
    """``token`` as a whole number; ``what`` names it in the error."""
    try:
        return int(token)
    except ValueError:
        raise InvalidObservationError(f"{what} '{token}': expected a whole number") from None


def missing(usage: str) -> NoReturn:
    """Reject an entry that stops short of ``usage``."""
    raise InvalidObservationError(f"missing argument: expected '{usage}'")


def expect_end(tokens: list[str], i: int, usage: str) -> None:
    """Reject words left over from ``tokens[i]`` on, once an entry of ``usage`` is complete."""
    if i != len(tokens):
        raise InvalidObservationError(f"unexpected '{' '.join(tokens[i:])}': expected '{usage}'")
