"""A fix to Typer's rich ``--help``: no value type after a flag.

Typer (0.29) draws every option's type in the rich help, flags included, so ``--quiet``, ``--json``, ``--version``
and even ``--help`` read as if they took a value: ``--quiet -q <bool>``. The plain (click) help leaves the type
out for flags, and so does this: :func:`hide_flag_types` makes a flag's type in the rich help empty. It is applied
once, where the ``assist`` app is built; an option that takes a value keeps its type (``<file>``, ``<integer>``).
"""

from __future__ import annotations

from typing import Any

from typer import core


def hide_flag_types() -> None:
    """Make the rich help show no type for a flag (idempotent; a Typer without the hook is left alone)."""
    option = getattr(core, "TyperOption", None)
    original = getattr(option, "display_type_rich", None)
    if option is None or original is None or getattr(original, "hides_flag_types", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else original(self, ctx)

    display_type_rich.hides_flag_types = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich
