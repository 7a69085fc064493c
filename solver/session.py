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
import copy
import difflib
import errno
import glob
import os
import stat
import tempfile
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Self

from solver import view as v
from solver.errors import AssistantError, ContradictionError, UnknownEntryError
from solver.names import table_names as names_at_table
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


class JournalBusy(AssistantError):
    """The journal is being written by another program (the lock beside it is held): names that holder."""


#: Bytes a journal or game file may have: a whole game is a few kilobytes, so anything bigger is refused unread.
MAX_JOURNAL_BYTES = 1_000_000


class Journal:
    """The journal file: rewritten whole after every accepted entry (temp file, fsync, ``os.replace``, so a
    failed or interrupted write leaves the old journal whole).

    One writer per journal: :meth:`lock` takes the lock file beside it (``.NAME.lock``, :mod:`filelock`) and
    writes who holds it there; a second program that tries gets :class:`JournalBusy` naming the first one, and
    so never overwrites entries it has not seen. A journal without :meth:`lock` (tests, a session in memory)
    writes unguarded."""

    def __init__(self, path: str | Path, header: str) -> None:
        self.path = Path(path)
        self.header = header  # each game's sessions write their own first line
        self._lock: Any = None

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(f".{self.path.name}.lock")

    def lock(self, holder: str) -> None:
        """Become the journal's only writer, as ``holder`` (who we are, in words: 'assist serve', 'assist
        evidence'); raise :class:`JournalBusy` naming the program that already is. Leftover temp files of
        earlier writers are removed once the lock is ours (no one else can be writing them)."""
        from filelock import FileLock, Timeout  # the session itself never needs it: only a program that writes

        if self._lock is not None:
            return
        lock = FileLock(str(self.lock_path), timeout=0, thread_local=False)
        try:
            lock.acquire()
        except Timeout:
            raise JournalBusy(f"journal '{self.path}' is open in another program ({self.holder()}); close it "
                              "there first, or use another journal") from None
        except OSError as exc:
            raise AssistantError(f"journal '{self.path}': cannot lock it ({exc.strerror})") from None
        self._lock = lock
        with contextlib.suppress(OSError):
            self.lock_path.write_text(f"{holder} (process {os.getpid()}) since {time.strftime('%H:%M:%S')}\n",
                                      encoding="utf-8")
        self.clean_temp_files()

    def holder(self) -> str:
        """Who holds the lock, as its holder wrote it (bounded: a few hundred characters of the lock file)."""
        try:
            with open(self.lock_path, "rb") as f:
                text = f.read(200).decode("utf-8", "replace").strip()
        except OSError:
            text = ""
        return text or "unknown program"

    def unlock(self) -> None:
        """Give the journal up (the program stops writing it)."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                self.lock_path.write_text("", encoding="utf-8")
            self._lock.release()
            self._lock = None

    @property
    def locked(self) -> bool:
        return self._lock is not None

    def temp_files(self) -> list[Path]:
        """The temp files :meth:`save` makes for this journal (``.NAME.XXXX.tmp``)."""
        return sorted(self.path.parent.glob(f".{glob.escape(self.path.name)}.*.tmp"))

    def clean_temp_files(self) -> int:
        """Remove this journal's leftover temp files (a write killed half-way); returns how many."""
        removed = 0
        for tmp in self.temp_files():
            with contextlib.suppress(OSError):
                tmp.unlink()
                removed += 1
        return removed

    def save(self, lines: Sequence[str]) -> None:
        """Write the journal whole: header and ``lines``. Raises :class:`AssistantError` if it cannot be written,
        and then the old journal is untouched."""
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
        _sync_folder(self.path.parent)

    @classmethod
    def create(cls, path: str | Path, header: str) -> Self:
        """A new journal at ``path`` holding only its header, created exclusively (O_EXCL: an existing file is
        never overwritten, FileExistsError). If the header cannot be written, no empty file is left behind."""
        journal = cls(path, header)
        fd = os.open(journal.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        os.close(fd)
        try:
            journal.save([])
        except BaseException:
            journal.path.unlink(missing_ok=True)
            raise
        return journal

    @staticmethod
    def is_journal(path: str | Path, header: str) -> bool:
        """Whether ``path`` was written by :meth:`save` (so resuming may keep appending to it)."""
        try:
            return read_header(path) == header
        except AssistantError:
            return False


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temp file beside it (``.NAME.XXXX.tmp``, which start-up
    cleaning removes if a write is killed), fsync, ``os.replace`` (a link at ``path`` is replaced, never
    followed), then a fsync of the folder. Raises OSError, leaving the old file and no temp file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (fsync of the directory; not every file system allows it)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def open_regular(path: str | Path, dir_fd: int | None = None) -> tuple[int, os.stat_result]:
    """Open ``path`` for reading only if it is a regular file: never through a symbolic link (O_NOFOLLOW), never
    blocking on a FIFO or device (O_NONBLOCK, then fstat). Returns the descriptor and its stat; raises
    AssistantError saying what the file is instead."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise AssistantError(f"file '{path}': is a symbolic link (only regular files are read)") from None
        raise AssistantError(f"file '{path}': cannot read it ({exc.strerror})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise AssistantError(f"file '{path}': not a regular file (only regular files are read)")
    return fd, info


def read_text(path: str | Path, limit: int = MAX_JOURNAL_BYTES, dir_fd: int | None = None) -> str:
    """The whole text of a regular file of at most ``limit`` bytes, as UTF-8; one-line AssistantError otherwise
    (too big, not valid UTF-8, not a regular file, unreadable)."""
    fd, info = open_regular(path, dir_fd)
    with os.fdopen(fd, "rb") as f:
        if info.st_size > limit:
            raise AssistantError(f"file '{path}': {info.st_size:,} bytes, over the limit of {limit:,}")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise AssistantError(f"file '{path}': over the limit of {limit:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AssistantError(f"file '{path}': not valid UTF-8 (byte {exc.start + 1:,})") from None


def read_header(path: str | Path, dir_fd: int | None = None, size: int = 200) -> str:
    """The first line of a regular file (at most ``size`` bytes of it), without its line end."""
    fd, _ = open_regular(path, dir_fd)
    with os.fdopen(fd, "rb") as f:
        data = f.read(size)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < data.find(b"\n") or b"\n" not in data:
            raise AssistantError(f"file '{path}': its first line is not valid UTF-8") from None
        text = data[: data.find(b"\n")].decode("utf-8")
    return text.split("\n", 1)[0].rstrip("\r")


MAX_PENDING_BYTES = 100_000  # a kept setup import (a BGA deal is well under 2,000 bytes); larger is ignored


def pending_path(journal: Path) -> Path:
    """Where a game's waiting setup import (a BGA deal waiting for its seat order) is kept beside its journal:
    ``.NAME.journal.setup`` (hidden, and not a ``*.journal``, so never listed as a game). The page and the
    terminal keep it at the same place, so either one finishes the import."""
    return journal.with_name(f".{journal.name}.setup")


def restore_pending(session: Any, journal: Path) -> str | None:
    """Give ``session`` (with no entry yet) the setup import kept beside ``journal``, read like a journal (a
    regular file, never through a link, at most ``MAX_PENDING_BYTES``); returns its text, or None when there is
    none or it is hostile or no deal (then the setup starts afresh)."""
    restore = getattr(session, "restore_setup", None)
    kept = pending_path(journal)
    if restore is None or session.lines or not os.path.lexists(kept):
        return None
    try:
        text = read_text(kept, MAX_PENDING_BYTES)
        restore(text)
    except AssistantError:
        return None
    return text


def keep_pending(session: Any, journal: Path, kept: str | None) -> str | None:
    """Keep ``session``'s waiting setup import beside ``journal`` (written atomically), or remove the kept file
    once nothing waits; ``kept`` is the text last written or read (nothing is written when it is unchanged).
    Returns the text now kept; raises OSError if it cannot be written or removed."""
    pending = getattr(session, "pending_setup", None)
    text = pending() if pending is not None else None
    if text == kept:
        return kept
    path = pending_path(journal)
    if text is None:
        path.unlink(missing_ok=True)
    else:
        write_atomic(path, text)
    return text


def read_lines(path: str | Path, limit: int | None = None) -> list[tuple[int, str]]:
    """The non-blank, non-comment lines of a game file with their 1-based line numbers. With ``limit`` the file
    must be a regular file of at most ``limit`` bytes (a journal; without it a pipe such as ``<(...)`` works)."""
    if limit is not None:
        text = read_text(path, limit)
    else:
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
    #: Every entry word of the game (the did-you-mean of an unknown word looks here, legal now or not).
    ENTRY_WORDS: ClassVar[tuple[str, ...]] = ()
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
        with table_ranges(self.table_ranges()), names_at_table(self.table_names()):
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
        # Leading zeros are read ('06' is entry 6) but do not count as digits: '0000000011' is 11, not a 1.
        digits = text.lstrip("0") if text.isascii() and text.isdigit() else None
        if digits is None or len(digits) > 9 or not 1 <= int(digits or "0") <= len(self.lines):
            raise AssistantError(f"{command} {text}: expected an entry number {span} (see 'history')")
        return int(digits)

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
        words = sorted({w.lower() for w in [*self.ENTRY_WORDS, *self.COMMAND_OF] if w[:1].isalpha()})
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

    def table_names(self) -> dict[str, tuple[str, ...]]:
        """The names that can be at this table, by vocabulary (Time Bomb's 'colour': the bomb colours in play),
        so that a mistyped name is told only of them (:func:`solver.names.table_names`)."""
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

    # -- the legal next words (taps on the page, Tab in the terminal) ---------------------------------------
    def choices(self, text: str) -> list[Choice]:
        """The legal next choices after ``text``, from the game's rules and knowledge (not word completion).

        ``text`` is the line typed (or tapped) so far: its whole words are read, and a last word not yet ended
        by a space keeps only the choices it begins. A choice may be a phrase of words that go together
        ("ask 3"); every word of a legal entry is offered at its place, so any entry can be made by taps."""
        words, current = split_text(text)
        key = current.lower()
        try:
            found = self._all_choices(words)
        except AssistantError:
            return []  # words no entry can have (typed by hand): nothing can follow them
        return [c for c in found if c.word.lower().startswith(key)]

    def completions(self, text: str) -> list[str]:
        """Tab completion: the whole words that may stand where the last word of ``text`` is being typed (the
        first word of each choice), each once; the terminal follows a completed word with a space."""
        found = self.choices(text)
        out: list[str] = []
        for c in found:
            word = c.word.split()[0] if c.word.split() else c.word
            if word not in out:
                out.append(word)
        return out

    def _all_choices(self, words: list[str]) -> list[Choice]:
        """The shared commands' words ('show brief', 'edit N ENTRY', 'drop N', the no-argument commands), else
        the game's entry choices (:meth:`_entry_choices`); with no word yet, the entries then the commands."""
        if not words:
            return [*self._entry_choices([]), *self._command_choices()]
        command = self.COMMAND_OF.get(words[0].lower())
        if command == "show":
            return [Choice("brief", "brief", ends=True)] if len(words) == 1 else []
        if command in self.NO_ARGS or command in ("help", "quit"):
            return []
        if command == "drop":
            if len(words) > 1:
                return []
            return [Choice(str(i), f"{i}: {line}", ends=True) for i, line in enumerate(self.lines, 1)]
        if command == "edit":
            if len(words) == 1:
                return [Choice(str(i), f"{i}: {line}") for i, line in enumerate(self.lines, 1)]
            n = words[1]
            if not (n.isascii() and n.isdigit()) or not 1 <= int(n[:9]) <= len(self.lines):
                return []
            # The entry's choices where it stands: the session as it was before entry N.
            before = self._before(int(n))
            return [c for c in before._entry_choices(words[2:]) if self.COMMAND_OF.get(c.word.split()[0]) is None]
        if command is not None:
            return self._command_args(command, words)
        return self._entry_choices(words)

    def fits(self, line: str) -> bool:
        """Whether ``line`` would be accepted now: handled by a copy of this session (no journal), so nothing
        here changes. The choices use it for an entry's last word, where the game's own check is exact."""
        journal, cache = self.journal, getattr(self, "_before_cache", None)
        self.journal, self._before_cache = None, None
        try:
            trial = copy.deepcopy(self)
            trial.blame_budget, trial._trial = 0.0, True
        except TypeError:  # a state that cannot be copied (a lock, a solver handle): a replay of the lines
            trial = self._replayed(self.lines)
        finally:
            self.journal, self._before_cache = journal, cache
        try:
            trial.handle(line, show=False)
        except AssistantError:
            return False
        return True

    def _before(self, n: int) -> Self:
        """A replay of the first ``n - 1`` lines (for the choices of 'edit N'); the last one is kept."""
        key = tuple(self.lines[: n - 1])
        cached = getattr(self, "_before_cache", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        trial = self._replayed(key)
        self._before_cache = (key, trial)
        return trial

    def _command_choices(self) -> list[Choice]:
        """The session commands offered as first words (each once, by its main name)."""
        names = dict.fromkeys(self.COMMAND_OF.values())
        return [Choice(name, name, ends=name in self.NO_ARGS or name in ("help", "quit", "show"))
                for name in names if name not in ("edit", "drop") or self.lines]

    def _command_args(self, command: str, words: list[str]) -> list[Choice]:
        """The words that may follow the game's own command ``command`` (``words[0]`` is its verb)."""
        return []

    def _entry_choices(self, words: list[str]) -> list[Choice]:
        """The legal choices after the entry words ``words`` (none yet: the entries that may come now)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Choice:
    """One legal next step of an entry: the ``word`` (or words) a tap adds, the button's ``label``, and whether
    the entry is whole with it: ``ends`` (nothing may follow; a tap sends the line) or ``complete`` (it may be
    sent, though more may follow, like another position of an Assist)."""

    word: str
    label: str = ""
    ends: bool = False
    complete: bool = False

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.word)
        if self.ends:
            object.__setattr__(self, "complete", True)


def split_text(text: str) -> tuple[list[str], str]:
    """The whole words of ``text`` and the last word being typed ('' after a space)."""
    words = text.split()
    current = "" if not words or text[-1:].isspace() else words.pop()
    return words, current


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


def tap_path(session: BaseSession, line: str) -> list[Choice] | None:
    """The taps that enter ``line`` with no typed character: at each point the longest offered choice that
    matches the next words (a phrase, or one word), then the Enter tap unless the last choice ``ends`` the
    entry (shown as a Choice of no word). None if some word of ``line`` is never offered."""
    words = line.split("#", 1)[0].split()
    taps: list[Choice] = []
    done = 0
    while done < len(words):
        typed = " ".join(words[:done]) + (" " if done else "")
        best: tuple[int, Choice] | None = None
        for c in session.choices(typed):
            # A choice stands for the next few words of the line: its words, or one name written without its
            # spaces ('Irene_Adler' for 'Irene Adler'); case never matters.
            key, parts = _letters(c.word), len(c.word.split())
            for n in ([parts] if parts > 1 else range(1, min(4, len(words) - done) + 1)):
                if key and _letters(" ".join(words[done: done + n])) == key and (best is None or n > best[0]):
                    best = (n, c)
        if best is None:
            return None
        taps.append(best[1])
        done += best[0]
    if not taps or not taps[-1].ends:
        taps.append(Choice("", "Enter", ends=True))
    return taps


def _letters(text: str) -> str:
    """``text`` lower-cased with only its letters and digits (and minus signs: values like -1)."""
    return "".join(ch for ch in text.lower() if ch.isalnum() or ch == "-")


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
