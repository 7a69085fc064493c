"""Typer commands built from option data (:mod:`solver.options`): how a game's registry entry becomes flags.

A game declares its options as data; :func:`command` turns a list of them into a function whose signature Typer
reads (``inspect.Signature`` plus ``__annotations__``), so ``--help``, the bounds and the defaults come from the
entry and this package names no game. The options every companion and every simulation share are here too.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from solver.options import MAX_GAMES, MAX_SEED, MAX_WORKERS, Option

#: What :func:`command` takes: a game's option, or (name, annotation, default) for a shared one.
Param = Option | tuple[str, Any, Any]


def annotation(option: Option) -> Any:
    """The ``Annotated`` type Typer reads for ``option`` (a number's bounds become ``min`` / ``max``)."""
    kind: Any = option.kind if option.default is not None else option.kind | None
    if option.kind in (int, float):
        low: Any = option.low if option.kind is float else int(option.low or 0)
        high: Any = option.high if option.kind is float else int(option.high or 0)
        return Annotated[kind, typer.Option(help=option.help, min=low, max=high)]
    if option.kind is str and option.choices:
        return Annotated[kind, typer.Option(help=f"{option.help} One of: {', '.join(option.choices)}.")]
    return Annotated[kind, typer.Option(help=option.help)]


def command(run: Callable[..., None], params: Sequence[Param], doc: str, name: str = "command") -> Callable[..., None]:
    """A function Typer can register: its parameters are ``params`` (keyword-only, in order) and calling it calls
    ``run`` with them by name."""

    def invoke(**values: Any) -> None:
        run(**values)

    parameters = []
    for param in params:
        if isinstance(param, Option):
            pname, ann, default = param.name, annotation(param), param.default
        else:
            pname, ann, default = param
        parameters.append(inspect.Parameter(pname, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=ann))
    invoke.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    invoke.__annotations__ = {p.name: p.annotation for p in parameters}
    invoke.__doc__ = doc
    invoke.__name__ = invoke.__qualname__ = name.replace("-", "_")
    return invoke


# -- shared options -------------------------------------------------------------------------------------------

RESUME = ("resume", Annotated[Path | None, typer.Option(
    help="Replay this journal or game file first, then continue.", exists=True, dir_okay=False)], None)
QUIET = ("quiet", Annotated[bool, typer.Option(
    "--quiet", "-q", help="Piped input: print only errors and the final state.")], False)
CONTEXT = ("ctx", typer.Context, inspect.Parameter.empty)


def journal(game: str) -> Param:
    """The ``--journal`` option of ``game``'s companion (its help names the default file)."""
    return ("journal", Annotated[Path | None, typer.Option(
        help="Journal file, rewritten after every accepted entry. Default when interactive: a new "
        f"{game}-DATE-TIME-ID.journal in the current directory (or the resumed journal).", dir_okay=False)], None)


GAME_FILE = ("file", Annotated[Path, typer.Argument(
    help="A game file or journal: one entry per line.", exists=True, dir_okay=False)], inspect.Parameter.empty)


def as_json(help_text: str) -> Param:
    return ("as_json", Annotated[bool, typer.Option("--json", help=help_text)], False)


SIMULATION: tuple[Param, ...] = (
    ("games", Annotated[int, typer.Option(help="Number of games to play.", min=1, max=MAX_GAMES)], 100),
    ("seed", Annotated[int, typer.Option(help="Run seed: game i is played from (seed, i) alone.", min=0,
                                         max=MAX_SEED)], 0),
    ("workers", Annotated[int, typer.Option(help="Local worker processes (results do not depend on it).", min=1,
                                            max=MAX_WORKERS)], 1),
    ("cluster", Annotated[str | None, typer.Option(
        help="Run the games on a Dask cluster: a scheduler address (tcp://host:8786) or local:N to start N local "
        "workers (needs pip install -e '.\\[cluster]'; results do not depend on it).")], None),
    ("as_json", Annotated[bool, typer.Option("--json", help="Print the summary as JSON on stdout.")], False),
    ("replay", Annotated[int | None, typer.Option(
        help="Play only the game with this game seed and print its log.", min=0, max=MAX_SEED)], None),
)
