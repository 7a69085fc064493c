"""The page's taps (issue 19 §2, §4, §5): the session's legal choices as buttons, the entries a tapped object
starts, contradiction messages that link to the entries they name, and the saved games' list.

Nothing here knows a game: the choices come from ``session.choices`` (:mod:`solver.session`), the objects
from the words the choices hold (a seat number, a card's name), and the saved games from the journals'
first lines. ``assistant_cli.web.app`` routes to these functions in one compact block.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from solver.errors import AssistantError
from solver.session import MAX_JOURNAL_BYTES, read_lines

#: Commands the page does not offer among the first words: it has its own buttons for them (the action row's
#: advise, undo and help; edit and drop on each history entry), and quit has no meaning there.
PAGE_BUTTONS = frozenset({"quit", "advise", "undo", "help", "edit", "drop"})
MAX_BUTTONS = 60  # a phone shows this many choices at most (the box narrows them as one types)
OBJECT_DEPTH = 2  # taps explored to find the entries a tapped object takes part in


@dataclass(frozen=True)
class Button:
    """One choice as the page draws it: its label, the whole line after the tap, and whether the tap sends the
    line (``ends``: nothing may follow) or leaves it ready to send (``complete``)."""

    label: str
    fill: str
    ends: bool = False
    complete: bool = False


def buttons(session: Any, text: str) -> list[Button]:
    """The buttons for the next word of ``text`` (what is typed in the entry box so far)."""
    head = text[: len(text) - len(text.split(" ")[-1])]  # the text before the word being typed
    try:
        found = session.choices(text)
    except AssistantError:
        return []
    if not text.split():
        found = [c for c in found if c.word not in PAGE_BUTTONS]
    return [Button(c.label, f"{head}{c.word} " if not c.ends else f"{head}{c.word}", c.ends, c.complete)
            for c in found[:MAX_BUTTONS] if c.word]


def object_buttons(session: Any, word: str, seat: bool = False) -> list[Button]:
    """The entries a tapped object starts (a player's seat number, a card's name): each line, within
    ``OBJECT_DEPTH`` taps from an empty box, whose words include ``word``, as far as the choices lead there.
    A ``seat`` (a tapped player) must be the last word of the choice that names it (``cut 3``, ``ask 3``, an
    Assist's target): a number inside a phrase is something else (a position: ``investigate 1 3 3C``).
    Commands are left out: the object starts entries."""
    key = word.strip().lower()
    if not key:
        return []
    commands = set(getattr(session, "COMMAND_OF", {}))
    out: list[Button] = []
    seen: set[str] = set()
    frontier = [""]
    for _ in range(OBJECT_DEPTH):
        following = []
        for text in frontier:
            try:
                found = session.choices(text)
            except AssistantError:
                continue
            for c in found:
                if not c.word or (not text and c.word.split()[0].lower() in commands):
                    continue
                line = f"{text}{c.word}"
                named = [w.lower() for w in c.word.split()]
                if (named[-1:] == [key]) if seat else key in named:
                    if line not in seen:
                        seen.add(line)
                        label = line if c.ends else f"{line} …"
                        out.append(Button(label, line if c.ends else line + " ", c.ends, c.complete))
                elif not c.ends:
                    following.append(line + " ")
        frontier = following
        if out:
            break
    return out[:MAX_BUTTONS]


_ENTRY_NUMBERS = re.compile(r"\b(entry|entries) (\d+)((?:(?:, | and | or )\d+)*)")


def link_entries(message: str) -> Markup:
    """``message`` escaped, each entry number it names ("entry 3", "entries 2 and 5") a link to that entry of
    the history (``#entry-N``)."""
    out = Markup("")
    last = 0
    for found in _ENTRY_NUMBERS.finditer(message):
        out += escape(message[last: found.start()])
        out += escape(found.group(1) + " ")
        rest = found.group(2) + found.group(3)
        for part in re.split(r"(\d+)", rest):
            if part.isdigit():
                out += Markup('<a href="#entry-{0}" class="entry-link" data-entry="{0}">{0}</a>').format(part)
            else:
                out += escape(part)
        last = found.end()
    return out + escape(message[last:])


@dataclass(frozen=True)
class SavedGame:
    """A saved game as the home page lists it."""

    id: str
    title: str
    players: str
    seat: str
    entries: int
    finished: bool
    changed: float
    problem: str | None = None  # why the journal cannot be opened (the row says so; the others stay listed)
    note: str | None = None  # why its entries cannot be read (listed from its header; opening it says more)


def saved_game(game_id: str, spec: Any, path: Path, finished: bool | None = None) -> SavedGame:
    """What the list shows of the journal at ``path``: its players and my seat (the 'players N' and 'me N'
    lines every game's journal has), its entries, whether it is finished (``finished``, when known: from the
    open session), and its last change."""
    lines = [line.split("#", 1)[0].strip() for _, line in read_lines(path, MAX_JOURNAL_BYTES)
             if line.rstrip() != spec.header]
    players = next((line.split()[1] for line in lines if line.split()[:1] == ["players"] and len(line.split()) > 1),
                   "?")
    seat = next((line.split()[1] for line in lines if line.split()[:1] == ["me"] and len(line.split()) > 1), "?")
    return SavedGame(game_id, spec.title, players, seat, len(lines), bool(finished), path.stat().st_mtime)


def is_finished(session: Any) -> bool:
    """Whether a game is over: its setup is complete and no entry is legal any more."""
    if session.setup_question() is not None or getattr(session, "knowledge", None) is None:
        return False
    commands = set(session.COMMAND_OF)
    return not [c for c in session.choices("") if c.word.split()[0].lower() not in commands]


def when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
