"""What every game's entry language shares: the setup entries ``players N``, ``me SEAT`` and ``start SEAT``,
and the small token helpers the parsers use.

Each game's ``observations`` module re-exports the entries it has, so ``models.<game>.observations.Players``
keeps working. Every number typed anywhere (entries and session commands) is read by :func:`parse_int` or
:func:`parse_fraction` with the widest range the game allows (seats 1 to its most players); whether it fits
this table (seat 5 with 4 players) is checked by the game's setup. Once a session knows its table, it reads
each line inside :func:`table_ranges`, so that an error names this table's real range ("seat 9: expected a
whole number from 1 to 4" at four players), not the widest one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
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


#: A whole number as the parsers read it: ASCII digits with an optional minus sign. ``int()`` alone is not
#: enough: it takes other scripts' digits ('٣') and underscores ('1_000'), raises a bare ``ValueError`` on
#: superscripts ('²', which ``str.isdigit`` accepts), and spends time on a number thousands of digits long.
_WHOLE = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
MAX_DIGITS = 9  # no number any entry or command takes is this long; longer ones are out of range unread
SHOWN = 24  # characters of a rejected token repeated in its message


def shown(token: str) -> str:
    """``token`` as an error message repeats it: cut short if long (a line may be thousands of characters)."""
    return token if len(token) <= SHOWN else f"{token[:SHOWN]}... ({len(token)} characters)"


_TABLE: ContextVar[Mapping[str, tuple[int, int]] | None] = ContextVar("table_ranges", default=None)


@contextmanager
def table_ranges(ranges: Mapping[str, tuple[int, int]]) -> Iterator[None]:
    """Read numbers named in ``ranges`` ('seat', 'case') with this table's range instead of the widest one."""
    token = _TABLE.set(ranges)
    try:
        yield
    finally:
        _TABLE.reset(token)


def parse_int(token: str, what: str, lo: int, hi: int) -> int:
    """``token`` as a whole number from ``lo`` to ``hi`` (both included); ``what`` names it in the error, which
    says the range: this table's range for ``what`` where the session gave one (:func:`table_ranges`). A number
    within the widest range but outside the table's is read, so the game's own check says what is wrong with it
    ("there is no player 5 (seats 1 to 3)"). Every number an entry or a session command takes is read here."""
    shown_lo, shown_hi = (_TABLE.get() or {}).get(what, (lo, hi))
    if not _WHOLE.fullmatch(token) or len(token.lstrip("-")) > MAX_DIGITS:
        raise InvalidObservationError(f"{what} '{shown(token)}': expected a whole number from {shown_lo} to "
                                      f"{shown_hi}")
    value = int(token)
    if not lo <= value <= hi:
        raise InvalidObservationError(f"{what} {value}: expected a whole number from {shown_lo} to {shown_hi}")
    return value


def parse_fraction(token: str, what: str, lo: float = 0.0, hi: float = 1.0) -> float:
    """``token`` as a decimal number from ``lo`` to ``hi`` (``0.25``, ``1``, ``.5``): ASCII digits and one point
    only, so 'nan', 'inf', '1e-3' and other scripts' digits are refused with the range, not read."""
    if not _DECIMAL.fullmatch(token) or len(token) > 2 * MAX_DIGITS:
        raise InvalidObservationError(f"{what} '{shown(token)}': expected a number from {lo:g} to {hi:g}, like 0.25")
    value = float(token)
    if not lo <= value <= hi:
        raise InvalidObservationError(f"{what} {token}: expected a number from {lo:g} to {hi:g}")
    return value


def is_whole(token: str) -> bool:
    """Whether ``token`` is written as a whole number (ASCII digits, optional minus), in range or not: for a
    parser that must tell a number from a name before reading it with :func:`parse_int`."""
    return _WHOLE.fullmatch(token) is not None


def missing(usage: str) -> NoReturn:
    """Reject an entry that stops short of ``usage``."""
    raise InvalidObservationError(f"missing argument: expected '{usage}'")


def expect_end(tokens: list[str], i: int, usage: str) -> None:
    """Reject words left over from ``tokens[i]`` on, once an entry of ``usage`` is complete."""
    if i != len(tokens):
        raise InvalidObservationError(f"unexpected '{' '.join(tokens[i:])}': expected '{usage}'")
