"""The ``assist`` command, built from the game registry (:data:`models.GAMES`): a companion sub-app per game,
``simulate``, ``teach``, ``replay``, ``demo``, ``games``, ``serve`` and ``--version``.

With :mod:`assistant_cli.companion` (the runner every game's companion shares), this is the only place that
talks to the terminal and catches :class:`solver.errors.AssistantError`: a user error becomes one line on
stderr, never a traceback. No game is named here: every game-specific command, option and help text comes from
its registry entry.

Start-up is kept short (``bench/startup.py``): the registry is plain data, so this module imports Typer and
nothing of any game; a game's session, simulation or teacher is imported when a command runs, and OR-Tools
when a solver is first built (:mod:`solver.knowledge`).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from assistant_cli.companion_app import companion_app
from assistant_cli.help_format import hide_flag_types
from assistant_cli.options import CONTEXT, SIMULATION, Param, command
from assistant_cli.web.serve import serve  # light: the web stack is imported when it runs
from models import GAMES
from solver.options import MAX_SEED
from solver.registry import Demo, GameEntry, Registry

if TYPE_CHECKING:
    from typer import _click as click  # the Click that Typer vendors

PACKAGE = "deduction-assistant"

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
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit=300)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _fail(exc: Exception) -> None:
    from assistant_cli.companion import fail

    fail(str(exc))


def _simulate_command(entry: GameEntry) -> Any:
    def run(**options: Any) -> None:
        from assistant_cli.companion import run_simulate

        run_simulate(entry, options)

    return command(run, [*SIMULATION, *entry.simulation.options], entry.simulation.help, entry.name)


def _demo_command(entry: GameEntry, demo: Demo) -> Any:
    def run(**options: Any) -> None:
        from assistant_cli.companion import run_demo

        if run_demo(entry, options) is False:
            raise typer.Exit(1)

    return command(run, demo.options, demo.help, entry.name)


def _demo_app(demos: list[GameEntry]) -> typer.Typer:
    """``assist demo GAME`` for every game with a demo; ``assist demo`` alone plays the first one's."""
    first = demos[0]
    first_demo = first.demo
    assert first_demo is not None  # with_demo() lists only games with one
    demo_app = typer.Typer(help=f"{first_demo.help} Without a game: {first.name}'s demo.")

    def default(ctx: typer.Context, **options: Any) -> None:
        if ctx.invoked_subcommand is None:
            _demo_command(first, first_demo)(**options)

    demo_app.callback(invoke_without_command=True)(command(default, [CONTEXT, *first_demo.options],
                                                           first_demo.help, "demo"))
    for entry in demos:
        if entry.demo is not None:
            demo_app.command(name=entry.name)(_demo_command(entry, entry.demo))
    return demo_app


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


TEACH_HELP = ("Deduction exercises from seeded simulated games, graded exactly; 'hint' shows the next step of the "
              "explanation. Reads answers from the terminal or from piped stdin.")
REPLAY_HELP = ("Narrate a game entry by entry: what became certain or impossible, why step by step, and where the "
               "advisor would have chosen otherwise.")


def _teach_params(game_names: str) -> list[Param]:
    """``assist teach``'s parameters (the games' names in the help come from the registry)."""
    return [
        ("game", Annotated[str, typer.Argument(help=f"The game: {game_names}.")], inspect.Parameter.empty),
        ("seed", Annotated[int, typer.Option(help="Seed of the simulated games the exercises come from (a class can "
                                                  "share one).", min=0, max=MAX_SEED)], 1),
        ("level", Annotated[int | None, typer.Option(help="1 one-step eliminations, 2 short chains, 3 multi-step "
                                                          "chains and counts, 4 case analysis, probabilities and "
                                                          "decisions (default: a mix, easiest first).", min=1, max=4)],
         None),
        ("count", Annotated[int, typer.Option(min=1, max=30, help="How many exercises.")], 5),
        ("players", Annotated[int | None, typer.Option(help="Players in the simulated games (default per game).",
                                                       min=1, max=99)], None),
        ("scores", Annotated[Path | None, typer.Option(help="Score file (default ./assist-teach-scores.json).",
                                                       dir_okay=False)], None),
    ]


def _replay_params(game_names: str) -> list[Param]:
    """``assist replay``'s parameters."""
    return [
        ("file", Annotated[Path | None, typer.Argument(help="A game file or journal of any game (optional with "
                                                            "--game and --seed).", dir_okay=False)], None),
        ("game", Annotated[str | None, typer.Option(help=f"The game ({game_names}; read from the file when it has "
                                                         "one).")], None),
        ("seed", Annotated[int | None, typer.Option(help="Narrate a simulated game of this seed instead of a file.",
                                                    min=0, max=MAX_SEED)], None),
        ("players", Annotated[int | None, typer.Option(help="Players in the simulated game.", min=1, max=99)], None),
        ("pace", Annotated[float | None, typer.Option(
            min=0.0, max=60.0, help="Seconds between entries (a classroom); default: Enter steps on a terminal, all "
            "at once when piped.")], None),
    ]


def build_app(games: Registry) -> typer.Typer:
    """The ``assist`` command over ``games``: a companion sub-app per game, ``simulate``, ``demo``, ``teach``,
    ``replay``, ``games``, ``serve`` and ``--version``. :data:`app` is this over :data:`models.GAMES`; the tests
    build it over a registry with a test-only game too (``tests/test_games.py``)."""
    root = typer.Typer(
        name="assist",
        cls=AssistGroup,
        help="A deduction companion for hidden-information card games.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    simulate_app = typer.Typer(help="Play full simulated games between bots and report how each bot did.",
                               no_args_is_help=True)
    for entry in games:
        root.add_typer(companion_app(entry, games), name=entry.name)
        simulate_app.command(name=entry.name)(_simulate_command(entry))
    root.add_typer(simulate_app, name="simulate")
    root.command(name="serve")(serve)
    if games.with_demo():
        root.add_typer(_demo_app(games.with_demo()), name="demo")
    game_names = ", ".join(games.names())

    @root.callback()
    def main(
        show_version: Annotated[
            bool,
            typer.Option("--version", callback=_version_callback, is_eager=True, help="Print the version and exit."),
        ] = False,
    ) -> None:
        """A deduction companion for hidden-information card games."""

    @root.command(name="games")
    def games_command(markdown: Annotated[bool, typer.Option(help="Print the docs' game table (Markdown).")] = False,
                      ) -> None:
        """List the games the assistant supports."""
        from assistant_cli.companion import games_table, print_views
        from solver.view import Text

        if markdown:
            from solver.registry import docs_table

            typer.echo(docs_table(games))
            return
        from rich.console import Console

        print_views(Console(), [games_table(games), Text("assist GAME --help shows each command's options.", "muted")])

    def teach(game: str, seed: int, level: int | None, count: int, players: int | None, scores: Path | None) -> None:
        from assistant_cli.teach_cli import teach as run_teach
        from solver.errors import AssistantError

        try:
            run_teach(games, game, seed, level, count, players, scores)
        except AssistantError as exc:
            _fail(exc)

    def replay(file: Path | None, game: str | None, seed: int | None, players: int | None, pace: float | None) -> None:
        from assistant_cli.teach_cli import replay as run_replay
        from solver.errors import AssistantError

        try:
            run_replay(games, file, game, seed, players, pace)
        except AssistantError as exc:
            _fail(exc)

    root.command(name="teach")(command(teach, _teach_params(game_names), TEACH_HELP, "teach"))
    root.command(name="replay")(command(replay, _replay_params(game_names), REPLAY_HELP, "replay"))
    return root


app = build_app(GAMES)
