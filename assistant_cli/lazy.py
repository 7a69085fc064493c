"""A Typer group whose sub-commands live in modules imported only when one of them runs.

``assist simulate GAME`` commands sit with their game (its session, bots and rules), which takes a few tenths of a
second to import. :class:`LazyGroup` names each such command by ``module:function`` with its help text, so the
group's help lists them without importing anything, and running one imports only its own game.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:
    from typer import _click as click  # the Click that Typer vendors (Typer exports no name for its types)


@dataclass(frozen=True)
class LazyCommand:
    """A command's function as ``module:function``, and its help (what the function's docstring says)."""

    target: str
    help: str

    def load(self, name: str) -> click.Command:
        """Import the function and build its command as Typer would have, had it been registered directly."""
        module, function = self.target.split(":")
        app = typer.Typer(add_completion=False)
        app.command(name)(getattr(importlib.import_module(module), function))
        return typer.main.get_command(app)


class LazyGroup(TyperGroup):
    """A Typer group that also holds the commands of ``lazy`` (subclasses fill it), imported on first use."""

    lazy: ClassVar[dict[str, LazyCommand]] = {}
    _listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*super().list_commands(ctx), *(name for name in self.lazy if name not in self.commands)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name``; while help lists the commands, a lazy one is a stand-in with its help."""
        entry = self.lazy.get(cmd_name)
        if entry is not None and cmd_name not in self.commands:
            if self._listing:
                return typer.core.TyperCommand(cmd_name, help=entry.help)
            self.commands[cmd_name] = entry.load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False
