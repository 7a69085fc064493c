"""The game registry: one :class:`GameEntry` per game, from which every interface is built.

A game is one folder, ``models/<game>/``; its ``__init__.py`` holds its entry (plain data and dotted paths, no
heavy import), and ``models/__init__.py`` registers it with one line. The command line (``assist GAME``,
``analyze``, ``simulate``, ``teach``, ``replay``, ``demo``, ``games``), the web page and the tests all read the
registry, so no interface names a game, and a game's parts are imported only when they are used (``assist
--help`` imports no game). After OpenSpiel's ``register_game``.

The parts an entry names (``module:attribute`` or ``module``):

- ``session``: the companion session class (:class:`solver.session.BaseSession`), built with the
  ``session_options`` as keyword arguments;
- ``observations``: the module whose ``parse(text)`` reads one entry (to tell which game a file is for);
- ``teacher``: the teacher class (:class:`solver.teaching.Teacher`);
- ``simulation.module``: ``matchup(**options) -> Matchup``, ``summary(records, matchup, options) ->
  SimulationSummary`` and ``replay(matchup, seed) -> list[View]`` (:mod:`solver.simulate`), and
  ``conformance(players, games, seed) -> ConformanceReport``: random legal games checked by
  :func:`solver.conformance.check_game` with knowledge-keeping bots (the tests run it for every game);
- ``demo.target`` (optional): a function of the demo's options yielding view data.

``tests/test_games.py`` runs every registry test on every entry (and on a test-only game registered the same
way), and fails for an entry missing one of these parts or a shipped example.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.errors import AssistantError
from solver.options import Option

ROOT = Path(__file__).resolve().parents[1]  # the repository: where ``examples_dir`` is
NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
TARGET = re.compile(r"[A-Za-z_][\w.]*(:[A-Za-z_]\w*)?")


def load(target: str) -> Any:
    """The object a dotted path names: ``package.module:attribute``, or a module."""
    module, _, attribute = target.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


@dataclass(frozen=True)
class Simulation:
    """``assist simulate GAME``: its help, the module with ``matchup`` / ``summary`` / ``replay``, its options."""

    help: str
    module: str
    options: tuple[Option, ...] = ()


@dataclass(frozen=True)
class Demo:
    """``assist demo GAME``: a game played by itself, shown step by step (its help, function and options)."""

    help: str
    target: str
    options: tuple[Option, ...] = ()


@dataclass(frozen=True)
class GameEntry:
    """One game as every interface sees it (module docstring). ``about`` is one line for ``assist games``;
    ``knowledge`` and ``bots`` fill the docs' game table; ``examples`` are the shipped game files (names in
    ``examples_dir``, a folder of the repository: ``examples/`` unless the game ships them elsewhere), each
    analysed, narrated and replayed by the tests; ``docs`` is the game's reference page."""

    name: str
    title: str
    players: tuple[int, int]
    about: str
    help: str
    session: str
    observations: str
    teacher: str
    simulation: Simulation
    json_help: str
    knowledge: str
    bots: str
    docs: str
    examples: tuple[str, ...]
    session_options: tuple[Option, ...] = ()
    demo: Demo | None = None
    commands: tuple[str, ...] = field(default=("why", "advise"))  # the game's own commands, for the docs table
    examples_dir: str = "examples"

    def __post_init__(self) -> None:
        if not NAME.fullmatch(self.name):
            raise ValueError(f"game name '{self.name}': expected lowercase words joined by '-'")
        targets = [self.session, self.observations, self.teacher, self.simulation.module]
        for target in [*targets, *([self.demo.target] if self.demo else [])]:
            if not TARGET.fullmatch(target):
                raise ValueError(f"game '{self.name}': '{target}' is not a dotted path (module:attribute)")
        low, high = self.players
        if not 1 <= low <= high:
            raise ValueError(f"game '{self.name}': players {low}-{high}")

    @property
    def header(self) -> str:
        """The first line of the game's journals: how a saved game is matched to its game and resumed."""
        return f"# assist {self.name} journal: one entry per line; resume with --resume FILE"

    @property
    def example_paths(self) -> tuple[Path, ...]:
        """The shipped examples as files of the repository (``examples_dir``/NAME)."""
        return tuple(ROOT / self.examples_dir / name for name in self.examples)

    @property
    def players_text(self) -> str:
        low, high = self.players
        return f"{low}-{high} players" if low != high else f"{low} players"

    def new_session(self, **options: Any) -> Any:
        """A fresh companion session (no journal) with ``options`` (the ``session_options`` by name)."""
        return load(self.session)(**options)

    def new_teacher(self) -> Any:
        return load(self.teacher)()

    def parse(self, text: str) -> Any:
        """One entry read by the game's parser (raises :class:`AssistantError` for a line it does not read)."""
        return load(self.observations).parse(text)


class UnknownGameError(AssistantError):
    """A game name that is not registered."""


class Registry:
    """The registered games, in registration order (the order every listing shows)."""

    def __init__(self, entries: Iterable[GameEntry] = ()) -> None:
        self._entries: dict[str, GameEntry] = {}
        for entry in entries:
            self.register(entry)

    @classmethod
    def of(cls, *packages: str) -> Registry:
        """The registry of the games whose packages are named, each holding its entry as ``ENTRY``."""
        return cls(load(f"{package}:ENTRY") for package in packages)

    def register(self, entry: GameEntry) -> GameEntry:
        """Add ``entry``; a second game of the same name, or with the same journal header, is refused."""
        if not isinstance(entry, GameEntry):
            raise TypeError(f"expected a GameEntry, got {type(entry).__name__}")
        if entry.name in self._entries:
            raise ValueError(f"game '{entry.name}' is registered already")
        self._entries[entry.name] = entry
        return entry

    def unregister(self, name: str) -> None:
        """Remove a game (tests register a test-only game and remove it afterwards)."""
        self._entries.pop(name, None)

    def __iter__(self) -> Iterator[GameEntry]:
        return iter(list(self._entries.values()))

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def names(self) -> list[str]:
        return list(self._entries)

    def get(self, name: str) -> GameEntry | None:
        return self._entries.get(name)

    def __getitem__(self, name: str) -> GameEntry:
        """The game ``name``; an unknown name is a one-line error listing the games (with a did-you-mean)."""
        entry = self._entries.get(name)
        if entry is not None:
            return entry
        import difflib  # only for the error

        close = difflib.get_close_matches(name.lower(), self._entries, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise UnknownGameError(f"unknown game '{shown}'{hint}: expected one of {', '.join(self._entries)}")

    def of_header(self, line: str) -> GameEntry | None:
        """The game whose journal header is ``line`` (a journal's first line), or None."""
        line = line.rstrip("\r\n")
        return next((entry for entry in self._entries.values() if entry.header == line), None)

    def with_demo(self) -> list[GameEntry]:
        return [entry for entry in self._entries.values() if entry.demo is not None]

    def file_game(self, path: Path, expected: str | None = None) -> str | None:
        """The game a game file or journal looks like: the one its journal header names, else the game whose
        parser reads the most of its lines (at least 80% of them, and more than any other game's). The
        ``expected`` game's parser is tried first, and if it reads 80% of the lines, that game it is (the others
        are not imported). None when no game fits, or the file cannot be read."""
        from solver.session import read_lines  # only when a file is checked: the session is not light

        try:
            with open(path, encoding="utf-8") as f:
                first = f.readline(MAX_HEADER)
        except (OSError, UnicodeDecodeError):
            return None
        if (match := JOURNAL_GAME.match(first)) and match.group(1) in self._entries:
            return match.group(1)
        try:
            lines = [line.split("#", 1)[0].split() for _, line in read_lines(path)]
        except AssistantError:
            return None
        entries = [_entry_text(words) for words in lines]
        if not entries:
            return None
        scores: dict[str, int] = {}
        for name in sorted(self._entries, key=lambda n: n != expected):
            entry = self._entries[name]
            scores[name] = sum(1 for text in entries if _parses(entry, text))
            if name == expected and scores[name] >= 0.8 * len(entries):
                return name
        best = max(scores, key=lambda g: scores[g])
        runner_up = max((v for g, v in scores.items() if g != best), default=0)
        return best if scores[best] >= 0.8 * len(entries) and scores[best] > runner_up else None


MAX_HEADER = 200  # characters of a journal's first line read to tell its game
JOURNAL_GAME = re.compile(r"#\s*assist\s+(\S+)\s+journal")


def _entry_text(words: list[str]) -> str:
    """The entry a line stands for, for a parser: after 'whatif' (a hypothetical entry), with 'me' standing for a
    seat after the first word (as the sessions read it)."""
    if words[0].lower() == "whatif" and len(words) > 1:
        words = words[1:]
    return " ".join([words[0], *("1" if w.lower() == "me" else w for w in words[1:])])


def _parses(entry: GameEntry, text: str) -> bool:
    try:
        entry.parse(text)
    except AssistantError:
        return False
    return True


def docs_table(games: Iterable[GameEntry]) -> str:
    """The README's "Games and status" table (Markdown), from the registry: a test keeps the README equal to it."""
    rows = ["| game | players | companion | knowledge | advisor and bots | simulation | reference |",
            "|---|---|---|---|---|---|---|"]
    for entry in games:
        rows.append(f"| {entry.title} | {entry.players_text} | `assist {entry.name}` | {entry.knowledge} | "
                    f"{entry.bots} | `assist simulate {entry.name}` | [{entry.docs}]({entry.docs}) |")
    return "\n".join(rows)
