"""The four companions as the web server sees them: a name, a title, and where the session lives.

Sessions are imported only when a game is opened, so the server starts as fast as the terminal commands.
A journal's first line names its game, which is how a saved game (from the page or the terminal) is matched
to its session.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GameSpec:
    """One game: its command name, title, and the module and class of its companion session."""

    name: str
    title: str
    players: str
    module: str
    session_class: str

    @property
    def header(self) -> str:
        """The journal's first line (the same as the terminal's, so files resume either way)."""
        return f"# assist {self.name} journal: one entry per line; resume with --resume FILE"

    def new_session(self) -> Any:
        """A fresh companion session with the game's default options and no journal."""
        return getattr(importlib.import_module(self.module), self.session_class)()


GAMES: dict[str, GameSpec] = {
    spec.name: spec
    for spec in (
        GameSpec("thirteen-clues", "Thirteen Clues", "2-6 players", "assistant_cli.session", "Session"),
        GameSpec("beyond-baker-street", "Beyond Baker Street", "2-4 players", "assistant_cli.beyond_baker_street",
                 "BakerStreetSession"),
        GameSpec("evidence", "Evidence", "2-5 players", "assistant_cli.evidence", "EvidenceSession"),
        GameSpec("time-bomb", "Time Bomb Evolution", "4-6 players", "assistant_cli.time_bomb", "TimeBombSession"),
    )
}


def game_of_journal(path: Path) -> GameSpec | None:
    """The game whose journal header opens ``path``, or None (not a journal, or unreadable)."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline().rstrip("\n")
    except (OSError, UnicodeDecodeError):
        return None
    return next((spec for spec in GAMES.values() if spec.header == first), None)
