"""The ``assist`` command: one Typer sub-app per game, plus ``simulate``, ``games``, ``demo`` and ``--version``.

With :mod:`assistant_cli.companion` (the runner every game's companion shares), this is the only place that
talks to the terminal and catches :class:`solver.errors.AssistantError`: a user error becomes one line on
stderr, never a traceback.

Start-up is kept short (``bench/startup.py``): this module imports Typer and nothing of any game. Each game's
sub-app is declared here with its options, and its session is imported when a command runs; each
``assist simulate GAME`` command is imported by :class:`assistant_cli.lazy.LazyGroup` when it runs; OR-Tools
is imported when a solver is first built (:mod:`solver.knowledge`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from typer.core import TyperGroup

from assistant_cli.companion_app import (
    MAX_COUNT_BUDGET,
    MAX_SEED,
    GameFileArgument,
    QuietOption,
    ResumeOption,
    companion_app,
    journal_header,
    journal_option,
)
from assistant_cli.help_format import hide_flag_types
from assistant_cli.lazy import LazyCommand, LazyGroup
from assistant_cli.web.serve import serve  # light: the web stack is imported when it runs

if TYPE_CHECKING:
    from typer import _click as click  # the Click that Typer vendors

    from assistant_cli.beyond_baker_street import BakerStreetSession
    from assistant_cli.evidence import EvidenceSession
    from assistant_cli.time_bomb import TimeBombSession

PACKAGE = "deduction-assistant"
GAME = "thirteen-clues"

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

hide_flag_types()


class AssistGroup(TyperGroup):
    """The top-level group, whose help is Click's plain text.

    Typer's rich help imports rich's markdown, syntax highlighting and tracebacks, which doubles the start-up of
    ``assist --help``; the games' own help (``assist GAME --help``) keeps it."""

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        """The ``--help`` option, unset as False rather than None: Typer coerces a None flag through pydantic,
        whose import would add about 0.1 s of CPU to every ``assist GAME ...`` command."""
        option = super().get_help_option(ctx)
        if option is not None:
            option.default = False
        return option

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super(TyperGroup, self).format_help(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with the first sentence of its help, wrapped rather than cut off."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=300)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


class SimulateGroup(LazyGroup):
    """``assist simulate``: each game's command is imported only when it runs."""

    lazy = {
        GAME: LazyCommand(
            "assistant_cli.simulate:thirteen_clues",
            "Simulate Thirteen Clues games between bots (available: random, logic, advisor when installed).",
        ),
        "beyond-baker-street": LazyCommand(
            "assistant_cli.beyond_baker_street:simulate_command",
            "Simulate Beyond Baker Street games (cooperative: the table wins or loses together).",
        ),
        "evidence": LazyCommand(
            "assistant_cli.evidence:simulate_command",
            "Simulate Evidence games between bots; every bot's knowledge is checked for soundness after every event.",
        ),
        "time-bomb": LazyCommand(
            "assistant_cli.time_bomb:simulate_command",
            "Simulate Time Bomb Evolution games; each knowledge-keeping bot's hard knowledge is checked for\n"
            "soundness after every observation.",
        ),
    }


app = typer.Typer(
    name="assist",
    cls=AssistGroup,
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
simulate_app = typer.Typer(
    cls=SimulateGroup,
    help="Play full simulated games between bots and report how each bot did.",
    no_args_is_help=True,
)


@simulate_app.callback()
def simulate() -> None:
    """Play full simulated games between bots and report how each bot did."""


def _baker_street_session() -> BakerStreetSession:
    from assistant_cli.beyond_baker_street import BakerStreetSession

    return BakerStreetSession()


def _evidence_session() -> EvidenceSession:
    from assistant_cli.evidence import EvidenceSession

    return EvidenceSession()


def _time_bomb_session() -> TimeBombSession:
    from assistant_cli.time_bomb import TimeBombSession

    return TimeBombSession()


beyond_baker_street_app = companion_app(
    "Beyond Baker Street companion: type what happens at the table, see what each card in your hand can be. "
    "On a terminal it starts with a setup dialogue, then takes commands (type 'help'). With piped stdin it reads "
    "commands from it: no prompts, bad lines reported with their line number, exit code 1 if any.",
    _baker_street_session,
    lambda session: ", ".join(session.kn.missing()),
    game="beyond-baker-street",
    title="Beyond Baker Street companion",
    json_help="Print the final state as JSON ('hand': one map per position from card to probability).",
    show_setup_on_resume=True,
)
evidence_app = companion_app(
    "Evidence companion: type what happens at the table, get each mystery's possible evidence values with "
    "exact probabilities, everyone's expected score, 'why' and 'advise'. On a terminal it starts with a setup "
    "dialogue, then takes commands (type 'help'). With piped stdin it reads commands from it: no prompts, bad "
    "lines reported with their line number, exit code 1 if any.",
    _evidence_session,
    lambda session: "; ".join(session.setup.missing()),
    game="evidence",
    title="Evidence companion",
    json_help="Print the final state as JSON ('evidence': one map per "
    "mystery from value to probability; 'expected_scores').",
    show_setup_on_resume=True,
)
time_bomb_app = companion_app(
    "Time Bomb Evolution companion: type the claims, cuts and effects at the table; get each player's "
    "probability of being Moriarty, their expected holdings, every claim judged, and the risk of every cut, from "
    "hard facts and with the claims. On a terminal it starts with a setup dialogue, then takes commands (type "
    "'help'). With piped stdin it reads commands from it: no prompts, bad lines reported with their line number, "
    "exit code 1 if any.",
    _time_bomb_session,
    lambda session: "; ".join(session.setup.missing()),
    game="time-bomb",
    title="Time Bomb Evolution companion",
    json_help="Print the final state as JSON ('roles': player -> P(Moriarty); 'cut_risk': player -> "
    "P(defusing), P(explosion) per cutter policy in 'cut_risk_policies' (avoid, seek); ...).",
)
app.add_typer(thirteen_app, name=GAME)
app.add_typer(simulate_app, name="simulate")
app.add_typer(beyond_baker_street_app, name="beyond-baker-street")
app.add_typer(evidence_app, name="evidence")
app.add_typer(time_bomb_app, name="time-bomb")
app.command(name="serve")(serve)


def version() -> str:
    """The version in the source checkout's pyproject.toml, else the installed package's.

    The checkout's file comes first: it is the one being run, and reading it costs a third of what
    ``importlib.metadata`` takes to import."""
    import tomllib

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    if pyproject.is_file():
        project = tomllib.loads(pyproject.read_text()).get("project", {})
        if project.get("name") == PACKAGE:
            return str(project["version"])
    from importlib import metadata

    return metadata.version(PACKAGE)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"assist {version()}")
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
    from rich.console import Console
    from rich.table import Table

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
    from rich.console import Console

    from assistant_cli.companion import fail
    from assistant_cli.demo import run_demo
    from solver.errors import AssistantError

    console = Console()
    try:
        correct = run_demo(console, seed, players, steps)
    except AssistantError as exc:
        fail(str(exc))
    if correct is False:
        raise typer.Exit(1)


@app.command()
def teach(
    game: Annotated[str, typer.Argument(help="thirteen-clues, beyond-baker-street, evidence or time-bomb.")],
    seed: Annotated[int, typer.Option(help="Seed of the simulated games the exercises come from (a class can "
                                           "share one).")] = 1,
    level: Annotated[int | None, typer.Option(help="1 one-step eliminations, 2 short chains, 3 multi-step chains "
                                                   "and counts, 4 case analysis, probabilities and decisions "
                                                   "(default: a mix, easiest first).")] = None,
    count: Annotated[int, typer.Option(min=1, max=30, help="How many exercises.")] = 5,
    players: Annotated[int | None, typer.Option(help="Players in the simulated games (default per game).")] = None,
    scores: Annotated[Path | None, typer.Option(help="Score file (default ./assist-teach-scores.json).",
                                                dir_okay=False)] = None,
) -> None:
    """Deduction exercises from seeded simulated games, graded exactly; 'hint' shows the next step of the
    explanation. Reads answers from the terminal or from piped stdin."""
    from assistant_cli.companion import fail
    from assistant_cli.teach_cli import teach as run_teach
    from solver.errors import AssistantError

    try:
        run_teach(game, seed, level, count, players, scores)
    except AssistantError as exc:
        fail(str(exc))


@app.command()
def replay(
    file: Annotated[Path | None, typer.Argument(help="A game file or journal of any game (optional with --game "
                                                     "and --seed).", dir_okay=False)] = None,
    game: Annotated[str | None, typer.Option(help="The game (read from the file when it has one).")] = None,
    seed: Annotated[int | None, typer.Option(help="Narrate a simulated game of this seed instead of a file.")] = None,
    players: Annotated[int | None, typer.Option(help="Players in the simulated game.")] = None,
    pace: Annotated[float | None, typer.Option(
        min=0.0, help="Seconds between entries (a classroom); default: Enter steps on a terminal, all at once "
        "when piped.")] = None,
) -> None:
    """Narrate a game entry by entry: what became certain or impossible, why step by step, and where the
    advisor would have chosen otherwise."""
    from assistant_cli.companion import fail
    from assistant_cli.teach_cli import replay as run_replay
    from solver.errors import AssistantError

    try:
        run_replay(file, game, seed, players, pace)
    except AssistantError as exc:
        fail(str(exc))


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
    from assistant_cli.companion import run_companion
    from assistant_cli.session import Session

    session = Session(count_budget=count_budget)
    run_companion(session, journal, resume, quiet, game=GAME, header=journal_header(GAME),
                  title="Thirteen Clues companion")


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
    from assistant_cli.companion import run_analyze
    from assistant_cli.session import Session

    session = Session(count_budget=count_budget)
    run_analyze(session, file, as_json, lambda: ", ".join(session.setup.missing()), GAME)
