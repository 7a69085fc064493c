"""The ``assist`` command: one Typer sub-app per game, plus ``games``, ``demo`` and ``--version``.

With :mod:`assistant_cli.companion` (the runner every game's companion shares), this is the only place that
talks to the terminal and catches :class:`solver.errors.AssistantError`: a user error becomes one line on
stderr, never a traceback.
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from assistant_cli.beyond_baker_street import app as beyond_baker_street_app
from assistant_cli.companion import (
    MAX_COUNT_BUDGET,
    MAX_SEED,
    GameFileArgument,
    QuietOption,
    ResumeOption,
    fail,
    journal_option,
    run_analyze,
    run_companion,
)
from assistant_cli.evidence import app as evidence_app
from assistant_cli.session import GAME, JOURNAL_HEADER, Session
from assistant_cli.simulate import app as simulate_app
from assistant_cli.time_bomb import app as time_bomb_app
from solver.errors import AssistantError

PACKAGE = "deduction-assistant"

#: Games the assistant supports: name -> (description, commands).
GAMES: dict[str, tuple[str, str]] = {
    GAME: (
        "Thirteen Clues (2-6 players): exact deduction of your own mystery",
        "assist thirteen-clues, assist thirteen-clues analyze FILE, assist demo",
    ),
    "beyond-baker-street": (
        "Beyond Baker Street (2-4 players, cooperative): what each card in your unseen hand can be",
        "assist beyond-baker-street, assist beyond-baker-street analyze FILE",
    ),
    "evidence": (
        "Evidence (2-5 players): each mystery's evidence value with exact probabilities, expected scores, advice",
        "assist evidence, assist evidence analyze FILE, assist simulate evidence",
    ),
    "time-bomb": (
        "Time Bomb Evolution (4-6 players): role and holding probabilities from cuts and claims, cut risks, advice",
        "assist time-bomb, assist time-bomb analyze FILE, assist simulate time-bomb",
    ),
}

app = typer.Typer(
    name="assist",
    help="A deduction companion for hidden-information card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
thirteen_app = typer.Typer(
    help="Thirteen Clues companion: type what you see and hear at the table, get exact deductions. "
    "On a terminal it starts with a setup dialogue, then takes commands (type 'help'). With piped stdin it "
    "reads commands from it: no prompts, bad lines reported with their line number, exit code 1 if any.",
    add_completion=False,
)
app.add_typer(thirteen_app, name=GAME)
app.add_typer(simulate_app, name="simulate")
app.add_typer(beyond_baker_street_app, name="beyond-baker-street")
app.add_typer(evidence_app, name="evidence")
app.add_typer(time_bomb_app, name="time-bomb")


def version() -> str:
    """The installed package version, or pyproject's when running from a source checkout."""
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        return str(tomllib.loads(pyproject.read_text())["project"]["version"])


def _version_callback(value: bool) -> None:
    if value:
        Console().print(f"assist {version()}")
        raise typer.Exit()


@app.callback()
def main(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_version_callback, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """A deduction companion for hidden-information card games."""


@app.command()
def games() -> None:
    """List the games the assistant supports."""
    table = Table(title="Games")
    table.add_column("Game")
    table.add_column("What it does")
    table.add_column("Commands")
    for name, (description, commands) in GAMES.items():
        table.add_row(name, description, commands)
    Console().print(table)


@app.command()
def demo(
    seed: Annotated[
        int, typer.Option(help="Seed of the deal and of the sequence of observations.", min=0, max=MAX_SEED)
    ] = 1,
    players: Annotated[int, typer.Option(min=2, max=6, help="Number of players at the table.")] = 4,
    steps: Annotated[int, typer.Option(min=1, max=1000, help="Stop after this many observations if not solved.")] = 80,
) -> None:
    """Replay a seeded game from seat 1's view and show each deduction as it happens (no input needed)."""
    from assistant_cli.demo import run_demo

    console = Console()
    try:
        correct = run_demo(console, seed, players, steps)
    except AssistantError as exc:
        fail(str(exc))
    if correct is False:
        raise typer.Exit(1)


# -- thirteen-clues ---------------------------------------------------------------------------------------------


@thirteen_app.callback(invoke_without_command=True)
def companion(
    ctx: typer.Context,
    journal: Annotated[Path | None, journal_option(GAME)] = None,
    resume: ResumeOption = None,
    quiet: QuietOption = False,
    count_budget: Annotated[
        float,
        typer.Option(min=0.1, max=MAX_COUNT_BUDGET,
                     help="Seconds allowed for exact world counting before estimating."),
    ] = 2.0,
) -> None:
    """Start the companion (see the sub-app help): interactive on a terminal, else read stdin."""
    if ctx.invoked_subcommand is not None:
        return
    session = Session(count_budget=count_budget)
    run_companion(session, journal, resume, quiet, game=GAME, header=JOURNAL_HEADER, title="Thirteen Clues companion")


@thirteen_app.command()
def analyze(
    file: GameFileArgument,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final state as JSON (worlds, solved, mystery, ...).")
    ] = False,
    count_budget: Annotated[
        float,
        typer.Option(min=0.1, max=MAX_COUNT_BUDGET,
                     help="Seconds allowed for exact world counting before estimating."),
    ] = 2.0,
) -> None:
    """Replay a game file and print the final state (bad lines are reported on stderr; exit code 1 if any)."""
    session = Session(count_budget=count_budget)
    run_analyze(session, file, as_json, lambda: ", ".join(session.setup.missing()))
