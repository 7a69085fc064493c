"""Helpers of the choice tests: a session at a given entry of a shipped example, and the choices as data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from models import GAMES
from solver.session import read_lines

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example_lines(name: str) -> list[str]:
    """The entries of ``examples/NAME`` (comments dropped)."""
    return [line.split("#", 1)[0].strip() for _, line in read_lines(EXAMPLES / name)]


def session_at(game: str, example: str, n: int) -> Any:
    """A session of ``game`` that entered the first ``n`` entries of ``example``."""
    session = GAMES.get(game).new_session()
    for line in example_lines(example)[:n]:
        session.handle(line, show=False)
    return session


def words(session: Any, text: str) -> list[str]:
    """The words of the choices after ``text``."""
    return [c.word for c in session.choices(text)]


def ends(session: Any, text: str) -> list[str]:
    """The words of the choices after ``text`` that end the entry (a tap sends it)."""
    return [c.word for c in session.choices(text) if c.ends]
