"""A game's companion sub-app (``assist GAME`` and ``assist GAME analyze FILE``), built from its registry entry.

This module is light on purpose: it imports Typer and the registry's data, nothing of any game, so
``assist --help`` and ``assist GAME --help`` start fast. The game's session and the shared runner
(:mod:`assistant_cli.companion`) are imported when a command runs.
"""

from __future__ import annotations

from typing import Any

import typer

from assistant_cli.options import CONTEXT, GAME_FILE, QUIET, RESUME, as_json, command, journal
from solver.registry import GameEntry, Registry

PIPED = ("On a terminal it starts with a setup dialogue, then takes commands (type 'help'). With piped stdin it "
         "reads commands from it: no prompts, bad lines reported with their line number, exit code 1 if any.")


def companion_app(entry: GameEntry, games: Registry) -> typer.Typer:
    """``entry``'s sub-app: the companion (its callback) and ``analyze``, each on a fresh session built with the
    entry's session options. ``games`` (the registry ``entry`` is in) tells ``analyze`` another game's file."""
    app = typer.Typer(help=f"{entry.help} {PIPED}", add_completion=False)
    names = [option.name for option in entry.session_options]

    def start(ctx: typer.Context, journal: Any, resume: Any, quiet: bool, **options: Any) -> None:
        if ctx.invoked_subcommand is not None:
            return
        from assistant_cli.companion import new_session, run_companion

        run_companion(entry, new_session(entry, options), journal, resume, quiet)

    def analyze(file: Any, as_json: bool, **options: Any) -> None:
        from assistant_cli.companion import new_session, run_analyze

        run_analyze(entry, new_session(entry, {name: options[name] for name in names}), file, as_json, games)

    app.callback(invoke_without_command=True)(command(
        start, [CONTEXT, journal(entry.name), RESUME, QUIET, *entry.session_options],
        "Start the companion: interactive on a terminal, else read stdin.", entry.name))
    app.command(name="analyze")(command(
        analyze, [GAME_FILE, as_json(entry.json_help), *entry.session_options],
        "Replay a game file and print the final state (bad lines are reported on stderr; exit code 1 if any).",
        "analyze"))
    return app
