"""``assist simulate GAME``: seeded bot-vs-bot games with a summary table (filled in by the simulation work)."""

from __future__ import annotations

import typer

app = typer.Typer(help="Play full simulated games between bots and report how each bot did.", no_args_is_help=True)
