"""A game's companion sub-app (``assist GAME`` and ``assist GAME analyze FILE``) and the options it takes.

This module is light on purpose: it imports Typer and nothing of any game, so ``assist --help`` and
``assist GAME --help`` start fast. The game's session and the shared runner (:mod:`assistant_cli.companion`)
are imported when a command runs: ``new_session`` is a factory that imports its game's module when called.

No ``from __future__ import annotations`` here on purpose: the commands' annotations use the factory's arguments
(the game, the ``--json`` help), and Typer evaluates string annotations in the module's globals, where a closure's
names are not; evaluated at definition time, they are plain objects Typer reads as they are.
"""

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:
    from assistant_cli.companion import CompanionSession

# The options every companion command takes (typer copies them per command, so sharing them is safe).
ResumeOption = Annotated[
    Path | None,
    typer.Option(help="Replay this journal or game file first, then continue.", exists=True, dir_okay=False),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Piped input: print only errors and the final state.")]
GameFileArgument = Annotated[
    Path, typer.Argument(help="A game file or journal: one entry per line.", exists=True, dir_okay=False)
]

S = TypeVar("S", bound="CompanionSession")

# Every number an option takes has both bounds (Typer prints them in --help and refuses others in one line).
MAX_GAMES = 100_000
MAX_WORKERS = 64
MAX_SEED = 2**64 - 1  # a game seed is 8 bytes of a hash (solver.simulate.game_seed)
MAX_COUNT_BUDGET = 600.0  # seconds: Thirteen Clues' --count-budget


def journal_option(game: str) -> Any:
    """The ``--journal`` option of ``game``'s companion (its help names the default file)."""
    return typer.Option(
        help="Journal file, rewritten after every accepted entry. Default when interactive: a new "
        f"{game}-DATE-TIME.journal in the current directory (or the resumed journal).",
        dir_okay=False,
    )


def journal_header(game: str) -> str:
    """The first line of ``game``'s journals: how ``--resume`` recognises a journal it may keep writing to."""
    return f"# assist {game} journal: one entry per line; resume with --resume FILE"


def companion_app(
    description: str,
    new_session: Callable[[], S],
    still_need: Callable[[S], str],
    *,
    game: str,
    title: str,
    json_help: str,
    show_setup_on_resume: bool = False,
) -> typer.Typer:
    """``game``'s sub-app: the companion (its callback) and ``analyze``, each on a fresh ``new_session()``.

    ``still_need`` says what a session's setup lacks; ``json_help`` is the help of ``analyze --json``; ``title``
    and ``show_setup_on_resume`` go to :func:`assistant_cli.companion.run_companion`."""
    app = typer.Typer(help=description, add_completion=False)

    @app.callback(invoke_without_command=True)
    def companion(
        ctx: typer.Context,
        journal: Annotated[Path | None, journal_option(game)] = None,
        resume: ResumeOption = None,
        quiet: QuietOption = False,
    ) -> None:
        """Start the companion: interactive on a terminal, else read stdin."""
        if ctx.invoked_subcommand is not None:
            return
        from assistant_cli.companion import run_companion

        run_companion(new_session(), journal, resume, quiet, game=game, header=journal_header(game), title=title,
                      show_setup_on_resume=show_setup_on_resume)

    @app.command()
    def analyze(
        file: GameFileArgument,
        as_json: Annotated[bool, typer.Option("--json", help=json_help)] = False,
    ) -> None:
        """Replay a game file and print the final state (bad lines are reported on stderr; exit code 1 if any)."""
        from assistant_cli.companion import run_analyze

        session = new_session()
        run_analyze(session, file, as_json, lambda: still_need(session), game)

    return app
