"""The companion session every game shares, independent of any interface: a typed line in, view data out.

``BaseSession.handle(line)`` parses a line, updates the game's knowledge, keeps the journal of accepted entries
and answers with a :class:`Reply` whose views are plain values (:mod:`solver.view`), so the terminal and the web
page draw the same answers. It raises :class:`solver.errors.AssistantError` for a user error and then changes
nothing: a line reported as bad is never recorded. Because everything goes through ``handle``, a journal is
resumed by handling its lines again, 'edit N' and 'drop N' replay the corrected journal, and tests drive a
session with plain strings.

The journal holds the lines that make up the current state, in canonical form (``str`` of the parsed entry); it
is rewritten atomically (temp file + rename) after every accepted entry, so a crash or Ctrl-C loses nothing.
Each game's session (``models/<game>/session.py``) subclasses :class:`BaseSession`.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import tempfile
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Self

from solver import view as v
from solver.errors import AssistantError, ContradictionError, UnknownEntryError
from solver.parsing import table_ranges


def history_view(lines: Sequence[str]) -> v.View:
    """'history': the entries, numbered from 1 in journal order (what-ifs marked), and how to fix one."""
    if not lines:
        return v.Text("no entries yet")
    table = v.Table(title="Entries (the journal)", caption="fix one: 'edit N NEW ENTRY' or 'drop N'")
    table.add_column("#", align="right")
    table.add_column("Entry")
    for i, line in enumerate(lines, 1):
        table.add_row(str(i), v.Text(line, "whatif" if line.startswith("whatif ") else ""))
    return table


class Journal:
    """The journal file: rewritten whole after every accepted entry (temp file + rename, so it is atomic)."""

    def __init__(self, path: str | Path, header: str) -> None:
        self.path = Path(path)
        self.header = header  # each game's sessions write their own first line

    def save(self, lines: Sequence[str]) -> None:
        text = "\n".join([self.header, *lines]) + "\n"
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        except OSError as exc:
            raise AssistantError(f"journal '{self.path}': cannot write there ({exc.strerror})") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise AssistantError(f"journal '{self.path}': cannot write it ({exc.strerror})") from None
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @staticmethod
    def is_journal(path: str | Path, header: str) -> bool:
        """Whether ``path`` was written by :meth:`save` (so resuming may keep appending to it)."""
        try:
            with open(path, encoding="utf-8") as f:
                return f.readline().rstrip("\n") == header
        except OSError:
            return False


def read_lines(path: str | Path) -> list[tuple[int, str]]:
    """The non-blank, non-comment lines of a game file with their 1-based line numbers."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AssistantError(f"file '{path}': cannot read it ({exc.__class__.__name__}: {exc})") from None
    return [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.split("#", 1)[0].strip()]


@dataclass
class Reply:
    """What the session answers to one line: what to show (view data, :mod:`solver.view`), and whether the state
    changed. Each interface draws the views its own way (the terminal with rich, the web page as HTML)."""

    renderables: list[Any] = field(default_factory=list)
    accepted: bool = False  # an entry was recorded (the journal changed)
    quit: bool = False
    summary: str | None = None  # the one-line "what changed" of an accepted entry


@dataclass(frozen=True)
class SetupQuestion:
    """One step of the setup dialogue: what to ask, and how to turn the answer into an entry line.

    Each game subclasses it with its own ``KEYWORDS``, the first words of a whole command or entry."""

    prompt: str
    prefix: str

    KEYWORDS: ClassVar[frozenset[str]] = frozenset()

    def line(self, answer: str) -> str:
        """The entry line for ``answer``; an answer that is already a whole command passes through."""
        words = answer.split()
        if words and words[0].lower() in self.KEYWORDS:
            return answer
        return f"{self.prefix} {answer}".strip()

    def completion_text(self, text: str) -> str:
        """What tab completion completes while the answer so far is ``text``: the answer as if the prefix were
        typed before it ('Du' in the private-cards question completes as 'private Du'), unless the answer
        already starts with a whole command or entry word."""
        words = text.split()
        if words and (len(words) > 1 or text[-1:].isspace()) and words[0].lower() in self.KEYWORDS:
            return text
        return f"{self.prefix} {text.lstrip()}"


# A game's own session command: its arguments -> the reply, or one view to show.
Command = Callable[[list[str]], Reply | Any]


class BaseSession:
    """What every game's companion session shares: the accepted lines and their journal, replaying lines, and
    ``handle``, which sends a typed line to a session command or else to the game's entries.

    A game sets ``COMMAND_OF`` (alias -> command name) and ``NO_ARGS`` (the commands that take no arguments),
    implements ``fresh``, ``state_view``, ``_help_view`` and ``_entry``, and maps each of its other commands to
    a handler in ``_commands``. 'quit', 'history', 'edit' and 'drop' are the same in every game; 'show' shows
    ``state_view`` and 'undo' replays every line but the last into ``fresh()`` unless the game overrides them.

    Fixing an earlier entry is one mechanism for every game: 'edit N ENTRY' and 'drop N' replay the journal with
    the change into a fresh session, and only if every line still fits do they adopt it and rewrite the journal.
    A contradiction is reworded to name the journal numbers of the earlier entries it contradicts."""

    COMMAND_OF: ClassVar[Mapping[str, str]]
    NO_ARGS: ClassVar[frozenset[str]] = frozenset({"undo", "history"})
    #: Seconds of replays allowed to find, by dropping one earlier entry at a time, the entry a contradiction
    #: comes from when the game's error does not name it (0: do not search).
    blame_budget: float = 1.0
    _trial = False  # a replay behind 'edit', 'drop' or the contradiction search: its errors are reworded there

    def __init__(self, journal: Journal | None, count_budget: float) -> None:
        self.journal = journal
        self.count_budget = count_budget
        self.lines: list[str] = []  # the journal: canonical lines that make up the current state

    # -- the loop -------------------------------------------------------------------------------------------
    def handle(self, line: str, show: bool = True) -> Reply:
        """Answer one typed line; raise :class:`AssistantError` (state unchanged) for a bad one.

        ``show=False`` skips the state-at-a-glance of an accepted entry (replaying a file: only the end matters).
        """
        tokens = line.split("#", 1)[0].split()
        if not tokens:
            return Reply()
        with table_ranges(self.table_ranges()):
            return self._handle(tokens, show)

    def _handle(self, tokens: list[str], show: bool) -> Reply:
        verb, args = tokens[0].lower(), tokens[1:]
        command = self.COMMAND_OF.get(verb)
        try:
            if command is None:
                try:
                    return self._entry(tokens, show)
                except UnknownEntryError as exc:
                    raise self._suggested(exc) from None
            if command in self.NO_ARGS:
                self._no_args(verb, args)
            if command == "help":
                return Reply([self._help_view()])
            if command == "quit":
                return Reply(quit=True)
            if command == "show":
                if args and [a.lower() for a in args] != ["brief"]:
                    raise AssistantError(f"{verb}: unexpected '{' '.join(args)}', expected '{verb}' or '{verb} brief'")
                return Reply([self.brief_view()]) if args else self._show_reply()
            if command == "undo":
                return self._guarded(lambda: self._undo(show), resave=True)
            if command == "history":
                return Reply([history_view(self.lines)])
            if command == "edit":
                return self._edit(args, show)
            if command == "drop":
                return self._drop(args, show)
            reply = self._commands(show)[command](args)
            return reply if isinstance(reply, Reply) else Reply([reply])
        except ContradictionError as exc:
            self._name_entries(exc, " ".join(tokens))
            raise

    def replay(self, lines: Iterable[str]) -> None:
        """Handle every line (a journal being resumed); stops at the first bad one, raising its error."""
        for line in lines:
            self.handle(line, show=False)

    def _save(self) -> None:
        if self.journal is not None:
            self.journal.save(self.lines)

    def rebuilt(self, lines: Iterable[str]) -> None:
        """Become a replay of ``lines`` from scratch (same options, same journal), rewriting the journal.

        The journal is written before the state changes: if it cannot be, nothing changes."""
        trial = self._replayed(lines)
        if self.journal is not None:
            self.journal.save(trial.lines)
        self._adopt(trial)
    # -- all or nothing -------------------------------------------------------------------------------------
    # A line reported as bad is never recorded. Every change of state goes through ``_accept`` (an entry: one
    # line more) or ``_guarded`` (a command that rewrites the lines: undo, clearing what-ifs). Should any step
    # fail (a rule the entry breaks, a view that cannot be computed, a journal that cannot be written, Ctrl-C),
    # the session becomes again the replay of the lines it had, so the state, ``lines`` and the journal always
    # agree. Replaying costs milliseconds per line, and only a line that fails after it was parsed pays it.

    def _accept(self, line: str, apply: Callable[[], object], reply: Callable[[], Reply]) -> Reply:
        """Record ``line`` all or nothing: ``apply`` changes the state, ``reply`` builds the answer (it may read
        ``self.lines``, which ends with ``line`` by then), and the journal is written last."""

        def change() -> Reply:
            apply()
            self.lines.append(line)
            answer = reply()
            self._save()
            return answer

        return self._guarded(change)

    def _guarded(self, change: Callable[[], Reply], resave: bool = False) -> Reply:
        """Run ``change``; if it raises, restore the replay of the lines there were before and re-raise.
        ``resave``: ``change`` may have rewritten the journal already, so write the old lines back."""
        kept = list(self.lines)
        try:
            return change()
        except BaseException:
            self._adopt(self._replayed(kept))
            if resave and self.journal is not None:
                with contextlib.suppress(AssistantError):  # the error being raised says what went wrong
                    self.journal.save(self.lines)
            raise

    def _replayed(self, lines: Iterable[str]) -> Self:
        """A fresh session (no journal, no contradiction search) that replayed ``lines``; raises on a bad one."""
        trial = self.fresh()
        trial.blame_budget, trial._trial = 0.0, True
        trial.replay(lines)
        return trial

    def _adopt(self, other: Self) -> None:
        """Take ``other``'s state, keeping this session's journal and options of the session itself."""
        journal, budget, trial = self.journal, self.blame_budget, self._trial
        vars(self).update(vars(other))
        self.journal, self.blame_budget, self._trial = journal, budget, trial

    # -- fixing an earlier entry ----------------------------------------------------------------------------
    def _entry_number(self, command: str, args: list[str]) -> int:
        """The entry number N that 'edit N ...' or 'drop N' starts with, checked against the journal."""
        usage = "edit N NEW ENTRY" if command == "edit" else "drop N"
        if not self.lines:
            raise AssistantError(f"{command}: there is no entry yet")
        span = f"from 1 to {len(self.lines)}"
        if not args:
            raise AssistantError(f"{command}: expected '{usage}' with N an entry number {span} (see 'history')")
        text = args[0]
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text[:9]) <= len(self.lines):
            raise AssistantError(f"{command} {text}: expected an entry number {span} (see 'history')")
        return int(text)

    def _edit(self, args: list[str], show: bool) -> Reply:
        """'edit N NEW ENTRY': replace entry N, re-checking every later entry; refused as a whole."""
        n = self._entry_number("edit", args)
        old = self.lines[n - 1]
        new = " ".join(args[1:])
        if not new:
            raise AssistantError(f"edit {n}: expected the new entry after the number, e.g. 'edit {n} {old}'")
        if self.COMMAND_OF.get(args[1].lower()) in ("edit", "drop", "undo"):
            raise AssistantError(f"edit {n}: expected an entry, not the command '{args[1]}'")
        numbers = list(range(1, len(self.lines) + 1))
        trial = self._corrected(f"edit {n}", [*self.lines[: n - 1], new, *self.lines[n:]], numbers, n)
        line = trial.lines[n - 1]
        summary = f"entry {n} is now '{line}' (was '{old}')"
        if n < len(self.lines):
            summary += f"; entries {n + 1}-{len(self.lines)} re-checked" if n + 1 < len(self.lines) \
                else f"; entry {n + 1} re-checked"
        return self._commit(trial, summary, show)

    def _drop(self, args: list[str], show: bool) -> Reply:
        """'drop N': remove entry N, re-checking every later entry; refused as a whole."""
        n = self._entry_number("drop", args)
        if len(args) > 1:
            raise AssistantError(f"drop {n}: unexpected '{' '.join(args[1:])}', expected 'drop N'")
        old = self.lines[n - 1]
        numbers = [i for i in range(1, len(self.lines) + 1) if i != n]
        trial = self._corrected(f"drop {n}", [*self.lines[: n - 1], *self.lines[n:]], numbers, None)
        return self._commit(trial, f"dropped entry {n} '{old}'; the entries after it were re-checked"
                            if n < len(self.lines) else f"dropped entry {n} '{old}'", show)

    def _corrected(self, what: str, lines: list[str], numbers: list[int], new_at: int | None) -> Self:
        """A fresh session that replayed the corrected ``lines`` (``numbers``: each one's number in the current
        journal; ``new_at``: the number of the new line, which must be one entry). Raises, naming the first line
        that does not fit, and then nothing has changed."""
        trial = self.fresh()
        trial.blame_budget, trial._trial = 0.0, True
        for number, line in zip(numbers, lines, strict=True):
            before = len(trial.lines)
            try:
                trial.handle(line, show=False)
            except AssistantError as exc:
                reason = str(exc)
                if isinstance(exc, ContradictionError) and exc.entries:
                    # Name the entries as the user knows them: the numbers of the journal before the change.
                    named = [(numbers[k - 1], trial.lines[k - 1]) for k in exc.entries]
                    reason = contradiction_text(exc, named, fix=False, subject=f"'{exc.observation}'"
                                                if number == new_at else "it")
                if number == new_at:
                    raise AssistantError(f"{what}: {reason}") from None
                raise AssistantError(f"{what}: entry {number} '{line}' no longer fits: {reason}") from None
            if number == new_at and len(trial.lines) != before + 1:
                raise AssistantError(f"{what}: '{line}' is not an entry (e.g. '{self.lines[number - 1]}')")
        return trial

    def _commit(self, trial: Self, summary: str, show: bool) -> Reply:
        """Rewrite the journal with ``trial``'s lines (atomically), then take its state; a failed write changes
        nothing."""
        if self.journal is not None:
            self.journal.save(trial.lines)
        self._adopt(trial)
        return self._changed_reply(summary, show)

    def _changed_reply(self, summary: str, show: bool) -> Reply:
        """The reply after the state was rebuilt (edit, drop): the state at a glance under ``summary``."""
        return Reply([self.state_view(summary)] if show else [], True, summary=summary)

    # -- naming the entries a contradiction comes from ------------------------------------------------------
    def _name_entries(self, exc: ContradictionError, line: str) -> None:
        """Reword ``exc`` to name the numbers of the earlier entries it contradicts, and how to fix one.

        The game's error names them (``conflicts``) when its model can; otherwise, within ``blame_budget``, each
        earlier entry is dropped in turn (latest first) to see which ones alone make ``line`` fit."""
        if exc.entries:
            return
        numbers = self._conflict_numbers(exc.conflicts)
        if not numbers and self.blame_budget > 0:
            numbers = self._blame(line)
        exc.entries = numbers
        if not self._trial:
            exc.args = (contradiction_text(exc, [(n, self.lines[n - 1]) for n in numbers]),)

    def _conflict_numbers(self, conflicts: Sequence[object]) -> list[int]:
        """The journal numbers of the lines that ``conflicts`` stand for (the latest line with that text)."""
        numbers: set[int] = set()
        for conflict in conflicts:
            text = self._conflict_line(conflict)
            if text is None:
                continue
            for i in range(len(self.lines) - 1, -1, -1):
                if i + 1 not in numbers and self.lines[i] in (text, f"whatif {text}"):
                    numbers.add(i + 1)
                    break
        return sorted(numbers)

    def _conflict_line(self, conflict: object) -> str | None:
        """The journal line a conflict of a :class:`ContradictionError` stands for (None: no single line)."""
        return str(conflict)

    def _blame(self, line: str) -> list[int]:
        """The earlier entries whose removal alone lets ``line`` in (latest first, within ``blame_budget``)."""
        deadline = time.monotonic() + self.blame_budget
        found: list[int] = []
        for i in range(len(self.lines) - 1, -1, -1):
            if time.monotonic() > deadline or len(found) == 3:
                break
            try:
                trial = self._replayed([*self.lines[:i], *self.lines[i + 1 :]])
                trial.handle(line, show=False)
            except AssistantError:
                continue
            found.append(i + 1)
        return sorted(found)

    def _suggested(self, exc: UnknownEntryError) -> UnknownEntryError:
        """``exc`` with the entry word or command closest to the unknown word, if one is close ('acuse':
        'accuse'), as cards get it."""
        words = sorted({w.lower() for w in [*self._candidates([]), *self.COMMAND_OF] if w[:1].isalpha()})
        close = difflib.get_close_matches(exc.word.lower(), words, n=1, cutoff=0.6)
        return UnknownEntryError(exc.word, exc.expected, close[0]) if close else exc

    @staticmethod
    def _no_args(verb: str, args: list[str]) -> None:
        """Reject arguments after a command in ``NO_ARGS`` (a game may word it its own way)."""
        no_args(verb, args)

    # -- what each game gives -------------------------------------------------------------------------------
    def table_ranges(self) -> dict[str, tuple[int, int]]:
        """The real ranges of this table's numbers, by the name its parser gives them ('seat': 1 to the
        number of players once it is known), so that errors name them (:func:`solver.parsing.table_ranges`)."""
        return {}

    def fresh(self) -> Self:
        """An empty session with the same options and no journal."""
        raise NotImplementedError

    def state_view(self, summary: str | None) -> Any:
        """The state at a glance, under a one-line ``summary`` of what just changed (None: nothing)."""
        raise NotImplementedError

    def _help_view(self) -> Any:
        """What 'help' shows."""
        raise NotImplementedError

    def brief_view(self) -> Any:
        """'show brief': the essentials on one screen (at most ``solver.view.BRIEF_LINES`` lines at 80 columns)."""
        raise NotImplementedError

    def state(self, brief: bool = False) -> list[Any]:
        """The state at a glance (or ``brief``: one screen) as view data, for an interface to draw: the
        terminal after a resume or ``--quiet``, the web page on every load. It changes nothing in the session
        (unlike the command 'show', which a game may use to reset what its next reply compares against)."""
        return [self.brief_view()] if brief else [self.state_view(None)]

    def missing_setup(self) -> str:
        """What the setup still lacks, in words ('' once it is complete)."""
        raise NotImplementedError

    def _show_reply(self) -> Reply:
        """The reply to 'show': the current state."""
        return Reply([self.state_view(None)])

    def _undo(self, show: bool) -> Reply:
        """Remove the last accepted line, by replaying the others into a fresh session."""
        if not self.lines:
            raise AssistantError("undo: nothing to undo")
        last = self.lines[-1]
        self.rebuilt(self.lines[:-1])
        summary = f"undid '{last}'"
        return Reply([self.state_view(summary)] if show else [], summary=summary)

    def _entry(self, tokens: list[str], show: bool) -> Reply:
        """Record a line that is no session command: an entry for the game's parser."""
        raise NotImplementedError

    def _commands(self, show: bool) -> dict[str, Command]:
        """The game's own commands (all of ``COMMAND_OF`` but help, quit, show, undo, history) by name."""
        return {}

    def completions(self, text: str) -> list[str]:
        """Words that complete the last word of ``text`` (for tab completion; no terminal needed)."""
        return complete_word(text, self._all_candidates)

    def _all_candidates(self, words: list[str]) -> list[str]:
        """``_candidates``, plus 'brief' after 'show' (every game has 'show brief'), 'edit N ENTRY' (an entry
        number, then the entry's words) and 'drop N'."""
        command = self.COMMAND_OF.get(words[0].lower()) if words else None
        if command == "show":
            return ["brief"] if len(words) == 1 else []
        if command not in ("edit", "drop"):
            return self._candidates(words)
        if len(words) == 1:
            return [str(i) for i in range(1, len(self.lines) + 1)]
        return self._candidates(words[2:]) if command == "edit" else []

    def _candidates(self, words: list[str]) -> list[str]:
        """The words that may follow ``words`` (the words typed before the one being completed)."""
        raise NotImplementedError


#: How a contradiction that names no earlier entry ends: how to find and fix one.
FIX_HINT = "; if an earlier entry is wrong, 'history' numbers them, and 'edit N ...' or 'drop N' fixes one"


def contradiction_text(exc: ContradictionError, named: Sequence[tuple[int, str]], fix: bool = True,
                       subject: str = "it") -> str:
    """The message of a contradiction that names the earlier entries it contradicts (number, line) and, with
    ``fix``, how to correct the wrong one; with no entry named, how to find one. Without ``fix`` (inside the
    refusal of an edit, which already names the entry) it says "``subject`` contradicts ..."."""
    if not named:
        base = str(exc.args[0]) if exc.args else str(exc)
        if not fix:
            return base
        return base + FIX_HINT
    entries = " and ".join(f"{n} '{line}'" for n, line in named)
    subject = f"'{exc.observation}'" if fix else subject
    head = f"{subject} contradicts {'entry' if len(named) == 1 else 'entries'} {entries}"
    if exc.reason:
        head += f": {exc.reason}"
    if not fix:
        return head
    if len(named) == 1:
        n = named[0][0]
        return f"{head}; if entry {n} is wrong, fix it with 'edit {n} ...' or 'drop {n}'"
    numbers = " or ".join(str(n) for n, _ in named)
    return f"{head}; fix the wrong one with 'edit N ...' or 'drop N' (N: {numbers})"


def complete_word(text: str, candidates: Callable[[list[str]], list[str]]) -> list[str]:
    """The words that complete the last word of ``text``; ``candidates`` gives them from the words before it."""
    words = text.split()
    current = "" if not words or text[-1:].isspace() else words.pop()
    key = current.lower()
    return [c for c in candidates(words) if c.lower().startswith(key) and c.lower() != key]


def with_seat(tokens: list[str], seat_verbs: Collection[str], me: int | None) -> str:
    """The line with 'me' standing for my seat number ``me`` where a seat is expected: right after one of
    ``seat_verbs``."""
    if tokens[0].lower() not in seat_verbs or len(tokens) < 2 or tokens[1].lower() != "me":
        return " ".join(tokens)
    if me is None:
        raise AssistantError("'me' stands for your seat: enter 'me SEAT' first")
    return " ".join([tokens[0], str(me), *tokens[2:]])


def no_args(verb: str, args: list[str]) -> None:
    """Reject arguments after a command that takes none."""
    if args:
        raise AssistantError(f"{verb}: unexpected '{' '.join(args)}', expected no arguments")
