"""Shared fixtures for the Thirteen Clues session tests: a known table (and the shared text helpers)."""

from __future__ import annotations

from models.thirteen_clues.session import ThirteenCluesSession
from tests.helpers import ROOT, text

__all__ = ["EXAMPLE", "ROOT", "SETUP", "ready_session", "text"]

EXAMPLE = ROOT / "examples" / "thirteen-clues-4p.txt"

# random_deal(4, random.Random(1)) seen from seat 1 (the `assist demo --seed 1` table).
SETUP = [
    "players 4",
    "me 1",
    "private Butcher Rifle",
    "screen 2 Officer Park Blowgun",
    "screen 3 Sailor Library Knife",
    "screen 4 Dancer Plaza Gun",
]


def ready_session(**kwargs: object) -> ThirteenCluesSession:
    session = ThirteenCluesSession(**kwargs)  # type: ignore[arg-type]
    for line in SETUP:
        session.handle(line)
    return session
