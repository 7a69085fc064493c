"""The terminal side of ``assist teach`` and ``assist replay``: reading answers from stdin (a terminal or a
pipe), writing plain text, pacing a replay. The exercises are :mod:`solver.exercises`, the narration
:mod:`solver.narrate`, each game's teacher comes from the registry; the commands themselves are registered in
:mod:`assistant_cli.main` and import this module only when they run."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import typer

from solver.errors import AssistantError
from solver.exercises import DEFAULT_SCORES, exercises, run
from solver.narrate import replay_lines, run_replay
from solver.registry import Registry


def _read(prompt: str) -> str | None:
    """One line of input (None at the end of it); prompts only on a terminal."""
    if sys.stdin.isatty():
        try:
            return input(prompt)
        except EOFError:
            return None
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")


def teach(games: Registry, game: str, seed: int, level: int | None, count: int, players: int | None,
          scores: Path | None) -> None:
    """Draw the exercises and run the loop (module docstring of :mod:`solver.exercises`)."""
    t = games[game].new_teacher()
    n = players or t.default_players
    low, high = t.players_range
    if not low <= n <= high:
        raise AssistantError(f"--players {n}: {t.title} is for {low} to {high} players")
    if level is not None and not 1 <= level <= 4:
        raise AssistantError(f"--level {level}: expected 1 to 4")
    items = exercises(t, seed, n, level, count, later=True)
    if not items:
        raise AssistantError(f"no exercise of level {level} found in the games of seed {seed}; try another --seed")
    run(t, items, _read, typer.echo, scores or DEFAULT_SCORES, echo=not sys.stdin.isatty())


def replay(games: Registry, file: Path | None, game: str | None, seed: int | None, players: int | None,
           pace: float | None) -> None:
    """Narrate a game file, a journal or a simulated game: paced, stepped with Enter, or all at once."""
    t, lines, actions, title = replay_lines(games, game, file, seed, players)
    wait = None
    if pace is not None:
        def wait() -> None:
            time.sleep(pace)
    elif sys.stdin.isatty() and sys.stdout.isatty():
        def wait() -> None:
            input("(Enter for the next entry) ")
    run_replay(t, lines, actions, title, typer.echo, wait)
