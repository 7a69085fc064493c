"""Command options as data: what a game's companion, simulation or demo takes, and the bounds every number has.

A game declares its options here (in its registry entry, :mod:`solver.registry`), and the command line builds
its ``--flags`` from them (``assistant_cli/options.py``), so the help, the bounds and the defaults are written
once, beside the game, and no interface names a game. Every number has both bounds: the command line prints
them in ``--help`` and refuses others in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_GAMES = 100_000
MAX_WORKERS = 64
MAX_SEED = 2**64 - 1  # a game seed is 8 bytes of a hash (solver.simulate.game_seed)


@dataclass(frozen=True)
class Option:
    """One ``--flag``: its Python name (``count_budget`` is ``--count-budget``), type, default and help.

    ``low`` / ``high`` bound a number (both or neither); ``flag`` is a boolean switch (``--deep-check``);
    ``choices`` lists the words a text option accepts (checked by the game, named in the help)."""

    name: str
    kind: type
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in (int, float, str, bool):
            raise ValueError(f"option '{self.name}': type {self.kind.__name__}, expected int, float, str or bool")
        if self.kind in (int, float) and (self.low is None or self.high is None):
            raise ValueError(f"option '{self.name}': a number needs both bounds")

    @property
    def flag(self) -> str:
        """The command-line spelling: ``--count-budget``."""
        return "--" + self.name.replace("_", "-")


def defaults(options: tuple[Option, ...]) -> dict[str, Any]:
    """Each option's default, by name."""
    return {option.name: option.default for option in options}
