"""What many tests share: the checkout's root, and a reply drawn as the terminal draws it (plain text)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from assistant_cli.terminal import to_rich
from solver.session import Reply

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def text(reply: Reply, width: int = 120) -> str:
    """The reply as the terminal prints it at ``width`` columns, without colour."""
    console = Console(record=True, width=width, file=io.StringIO())
    for renderable in reply.renderables:
        console.print(to_rich(renderable))
    return console.export_text()
