"""Shared fixtures for the companion tests: a known table, and rendering replies to plain text."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from assistant_cli.terminal import to_rich
from models.thirteen_clues.session import ThirteenCluesSession
from solver.session import Reply

ROOT = Path(__file__).resolve().parents[2]
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


def text(reply: Reply) -> str:
    console = Console(record=True, width=120, file=io.StringIO())
    for renderable in reply.renderables:
        console.print(to_rich(renderable))
    return console.export_text()


def ready_session(**kwargs: object) -> ThirteenCluesSession:
    session = ThirteenCluesSession(**kwargs)  # type: ignore[arg-type]
    for line in SETUP:
        session.handle(line)
    return session
