"""The screen (issue 22 §5): a Time Bomb entry's reply fits 40 lines at 100 columns, and at 50 and 100 columns
no word, card or command of it is split (every token drawn is a token of the unwrapped reply)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from assistant_cli.terminal import to_rich
from models import GAMES
from models.time_bomb.session import SHOW_REST
from solver.session import read_lines

ROOT = Path(__file__).resolve().parents[2]


def drawn(views: list[object], width: int) -> list[str]:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    for view in views:
        console.print(to_rich(view))  # type: ignore[arg-type]
    return console.export_text().rstrip("\n").split("\n")


@pytest.mark.parametrize("width", [50, 100])
def test_every_time_bomb_entry_reply_is_one_screen_with_whole_words(width: int) -> None:
    session = GAMES["time-bomb"].new_session()
    replies = 0
    for _, line in read_lines(ROOT / "examples" / "time-bomb-5p.txt"):
        reply = session.handle(line)
        if not reply.renderables or session.knowledge is None:
            continue
        lines = drawn(reply.renderables, width)
        if width == 100:
            assert len(lines) <= 40, (line, len(lines))
        whole = {w for text in drawn(reply.renderables, 2000) for w in text.split()}
        for text in lines:
            for word in text.split():
                assert word in whole, (line, width, word)
        assert lines[-1].startswith(SHOW_REST.split(";")[0][:40]) or SHOW_REST in " ".join(lines)
        replies += 1
    assert replies > 30
