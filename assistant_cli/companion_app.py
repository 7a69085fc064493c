"""The Typer sub-app of a game whose companion takes only the common options: ``assist GAME`` and
``assist GAME analyze FILE``.

No ``from __future__ import annotations`` here on purpose: the commands' annotations use the factory's arguments
(the game, the ``--json`` help), and Typer evaluates string annotations in the module's globals, where a closure's
names are not; evaluated at definition time, they are plain objects Typer reads as they are.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from assistant_cli.companion import (
    CompanionSession,
    GameFileArgument,
    QuietOption,
    ResumeOption,
    journal_option,
    run_analyze,
    run_companion,
)

S = TypeVar("S", bound=CompanionSession)


def companion_app(
    description: str,
    new_session: Callable[[], S],
    still_need: Callable[[S], str],
    *,
    game: str,
    header: str,
    title: str,
    json_help: str,
    show_setup_on_resume: bool = False,
) -> typer.Typer:
    """``game``'s sub-app: the companion (its callback) and ``analyze``, each on a fresh ``new_session()``.

    ``still_need`` says what a session's setup lacks; ``json_help`` is the help of ``analyze --json``; ``title``,
    ``header`` and ``show_setup_on_resume`` go to :func:`run_companion`."""
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
        run_companion(new_session(), journal, resume, quiet, game=game, header=header, title=title,
                      show_setup_on_resume=show_setup_on_resume)

    @app.command()
    def analyze(
        file: GameFileArgument,
        as_json: Annotated[bool, typer.Option("--json", help=json_help)] = False,
    ) -> None:
        """Replay a game file and print the final state (bad lines are reported on stderr; exit code 1 if any)."""
        session = new_session()
        run_analyze(session, file, as_json, lambda: still_need(session), game)

    return app
