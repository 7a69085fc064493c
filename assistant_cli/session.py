"""The Thirteen Clues companion session: one object that turns a typed line into a reply.

``Session.handle(line)`` is the whole interactive loop minus the terminal: it parses the line, updates the
setup or the knowledge model, keeps the journal of accepted entries and returns a :class:`Reply` holding rich
renderables. It raises :class:`solver.errors.AssistantError` for user errors and changes nothing then; the
CLI (``main.py``) catches it and prints one line. Because everything goes through ``handle``, a journal is
resumed by handling its lines again, and tests drive a session with plain strings.

The journal holds the lines that make up the current state, in canonical form (``str`` of the parsed entry,
so prefixes like ``ask 3 re 2`` are saved as ``ask 3 Red 2``); what-ifs are saved as ``whatif <entry>``.
``undo`` removes the last line, ``whatif clear`` removes the what-if lines. It is rewritten atomically after
every accepted entry, so a crash or Ctrl-C loses nothing.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import os
import tempfile
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Self

from rich.console import RenderableType
from rich.text import Text

from assistant_cli import render
from assistant_cli.companion_app import journal_header
from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, DEFAULT_DATA, SUBCATEGORIES, GameData
from models.thirteen_clues.knowledge import MYSTERY, TableSetup, ThirteenCluesKnowledge, place_label
from models.thirteen_clues.observations import (
    CARD_NAMES,
    Accusation,
    Entry,
    InformantBy,
    InformantLook,
    Observation,
    Witness,
    parse,
)
from solver.errors import AssistantError, ContradictionError
from solver.knowledge import Count
from solver.parsing import is_whole, parse_int
from solver.text import plural

GAME = "thirteen-clues"
JOURNAL_HEADER = journal_header(GAME)

# Session commands (not journaled) and their aliases; everything else is an entry for the parser.
COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "h", "?"),
    "quit": ("quit", "exit", "q"),
    "show": ("show", "state", "s"),
    "undo": ("undo", "u"),
    "why": ("why",),
    "locations": ("locations", "loc", "where"),
    "whatif": ("whatif", "what-if", "wi", "suppose"),
    "history": ("history", "hist"),
    "advise": ("advise", "advice", "hint"),
    "edit": ("edit",),
    "drop": ("drop",),
}
COMMAND_OF = {alias: name for name, aliases in COMMANDS.items() for alias in aliases}
ENTRY_VERBS = ("players", "me", "private", "screen", "ask", "informant", "accuse", "subcategories")
ENTRY_ALIASES = ("witness", "sees", "inf", "accusation")
OBSERVATION_TYPES = (Witness, InformantLook, InformantBy, Accusation)
ADVICE_SHOWN = 8  # rows of advice shown unless 'advise all'


class Journal:
    """The journal file: rewritten whole after every accepted entry (temp file + rename, so it is atomic)."""

    def __init__(self, path: str | Path, header: str = JOURNAL_HEADER) -> None:
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
    def is_journal(path: str | Path, header: str = JOURNAL_HEADER) -> bool:
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
    """What the session answers to one line: renderables to print, and whether the state changed."""

    renderables: list[RenderableType] = field(default_factory=list)
    accepted: bool = False  # an entry was recorded (the journal changed)
    quit: bool = False
    summary: str | None = None  # the one-line "what changed" of an accepted entry


@dataclass(frozen=True)
class SetupQuestion:
    """One step of the setup dialogue: what to ask, and how to turn the answer into an entry line.

    Each game subclasses it with its own ``KEYWORDS``, the first words of a whole command or entry."""

    prompt: str
    prefix: str

    KEYWORDS: ClassVar[frozenset[str]] = frozenset([*COMMAND_OF, *ENTRY_VERBS, *ENTRY_ALIASES])

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


@dataclass(frozen=True)
class Snapshot:
    """What the state-at-a-glance shows, kept to describe what the next entry changed."""

    mystery: dict[str, dict[str, float]]
    places: dict[str, frozenset[str]]
    count: Count
    whatifs: tuple[str, ...]


# A game's own session command: its arguments -> the reply, or one renderable to show.
Command = Callable[[list[str]], Reply | RenderableType]


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
        verb, args = tokens[0].lower(), tokens[1:]
        command = self.COMMAND_OF.get(verb)
        try:
            if command is None:
                return self._entry(tokens, show)
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
                return Reply([render.history_view(self.lines)])
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
                if number == new_at:
                    raise AssistantError(f"{what}: {exc}") from None
                reason = str(exc)
                if isinstance(exc, ContradictionError) and exc.entries:
                    # Name the entries as the user knows them: the numbers of the journal before the change.
                    named = [(numbers[k - 1], trial.lines[k - 1]) for k in exc.entries]
                    reason = contradiction_text(exc, named, fix=False)
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

    @staticmethod
    def _no_args(verb: str, args: list[str]) -> None:
        """Reject arguments after a command in ``NO_ARGS`` (a game may word it its own way)."""
        no_args(verb, args)

    # -- what each game gives -------------------------------------------------------------------------------
    def fresh(self) -> Self:
        """An empty session with the same options and no journal."""
        raise NotImplementedError

    def state_view(self, summary: str | None) -> RenderableType:
        """The state at a glance, under a one-line ``summary`` of what just changed (None: nothing)."""
        raise NotImplementedError

    def _help_view(self) -> RenderableType:
        """What 'help' shows."""
        raise NotImplementedError

    def brief_view(self) -> RenderableType:
        """'show brief': the essentials on one screen (at most ``render.BRIEF_LINES`` lines at 80 columns)."""
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


class Session(BaseSession):
    """One player's Thirteen Clues companion: setup, observations, what-ifs, journal."""

    COMMAND_OF = COMMAND_OF
    NO_ARGS = BaseSession.NO_ARGS | {"locations"}

    def __init__(
        self, journal: Journal | None = None, data: GameData = DEFAULT_DATA, count_budget: float = 2.0
    ) -> None:
        super().__init__(journal, count_budget)
        self.data = data
        self.setup = TableSetup(data=data)
        self.knowledge: ThirteenCluesKnowledge | None = None
        self._entries: list[tuple[Entry, bool]] = []  # parallel to ``lines``: (entry, hypothetical)
        self._snapshot: Snapshot | None = None
        self._show = True

    # -- the loop -------------------------------------------------------------------------------------------
    def handle(self, line: str, show: bool = True) -> Reply:
        self._show = show  # the state views of this line read it
        return super().handle(line, show)

    def _help_view(self) -> RenderableType:
        return render.help_view()

    def fresh(self) -> Session:
        return Session(None, self.data, self.count_budget)

    def _show_reply(self) -> Reply:
        return self._state_reply(summary=None, diff=False, accepted=False)

    def _changed_reply(self, summary: str, show: bool) -> Reply:
        self._show = show  # the rebuilt state came from a replay, which showed nothing
        return self._state_reply(summary, diff=False)

    def brief_view(self) -> RenderableType:
        if self.knowledge is None:
            return render.setup_view(self.setup, None)
        snap = self._take_snapshot()
        return render.brief_view(snap.mystery, snap.count, snap.whatifs)

    def _commands(self, show: bool) -> dict[str, Command]:
        return {"why": self._why, "locations": lambda args: self._locations(), "whatif": self._whatif,
                "advise": self._advise}

    def _entry(self, tokens: list[str], show: bool) -> Reply:
        entry = parse(" ".join(tokens))
        if isinstance(entry, OBSERVATION_TYPES):
            return self._observe(entry, hypothetical=False)
        return self._setup_entry(entry)

    # -- setup ----------------------------------------------------------------------------------------------
    def setup_question(self) -> SetupQuestion | None:
        """The next question of the setup dialogue, or None once the setup is complete."""
        s = self.setup
        if s.players is None:
            return SetupQuestion("Number of players (2-6): ", "players")
        if s.me is None:
            return SetupQuestion(f"Your seat (1-{s.players}): ", "me")
        if s.private is None:
            return SetupQuestion("Your two private cards (left then right): ", "private")
        for seat in s.seats_others():
            if seat not in s.screens:
                return SetupQuestion(f"Player {seat}'s screen (person location weapon): ", f"screen {seat}")
        return None

    def _setup_entry(self, entry: Entry) -> Reply:
        before = self.knowledge
        if before is None:
            setup = copy.deepcopy(self.setup)  # TableSetup.apply may fail half-way: work on a copy
            setup.apply(entry)
            knowledge = self._new_knowledge(setup) if setup.complete() else None
        else:
            # A correction after the game started: rebuild from scratch so every observation is re-checked.
            setup, knowledge = self._build([*self._entries, (entry, False)])

        def apply() -> None:
            self.setup, self.knowledge = setup, knowledge
            self._entries.append((entry, False))

        def reply() -> Reply:
            if knowledge is None:
                return self._state_reply(f"recorded '{entry}'")
            if before is None:
                summary = f"setup complete: {plural(len(knowledge.unseen), 'card')} unseen; '{entry}' recorded"
                self._snapshot = None
                return self._state_reply(summary=summary, diff=False)
            return self._state_reply(summary=f"'{entry}' (setup changed, every entry re-checked)")

        return self._accept(str(entry), apply, reply)

    def _new_knowledge(self, setup: TableSetup) -> ThirteenCluesKnowledge:
        return ThirteenCluesKnowledge(setup, count_budget=self.count_budget)

    def _build(self, entries: Sequence[tuple[Entry, bool]]) -> tuple[TableSetup, ThirteenCluesKnowledge | None]:
        """The setup and knowledge that ``entries`` give; raises on the first entry that does not fit."""
        setup = TableSetup(data=self.data)
        for entry, _ in entries:
            if not isinstance(entry, OBSERVATION_TYPES):
                setup.apply(entry)
        if not setup.complete():
            return setup, None
        knowledge = self._new_knowledge(setup)
        for entry, hypothetical in entries:
            if isinstance(entry, OBSERVATION_TYPES):
                knowledge.add(entry, hypothetical)
        return setup, knowledge

    # -- observations, undo, what-ifs -----------------------------------------------------------------------
    def _require_knowledge(self, what: str) -> ThirteenCluesKnowledge:
        if self.knowledge is None:
            raise AssistantError(f"{what}: finish the setup first, still need {', '.join(self.setup.missing())}")
        return self.knowledge

    def _observe(self, obs: Observation, hypothetical: bool) -> Reply:
        knowledge = self._require_knowledge(f"'{obs}'")
        line = f"whatif {obs}" if hypothetical else str(obs)
        label = f"what-if '{obs}' (not a fact)" if hypothetical else f"'{obs}'"

        def apply() -> None:
            self._baseline()
            knowledge.add(obs, hypothetical)
            self._entries.append((obs, hypothetical))

        return self._accept(line, apply, lambda: self._state_reply(summary=label))

    def _undo(self, show: bool) -> Reply:
        """Remove the last line (``show`` is in ``self._show`` already, where the state views read it)."""
        if not self.lines:
            raise AssistantError("undo: nothing to undo")
        line = self.lines[-1]
        entry, hypothetical = self._entries[-1]
        if isinstance(entry, OBSERVATION_TYPES):
            assert self.knowledge is not None
            self._baseline()
            self.knowledge.undo()
        else:
            had_knowledge = self.knowledge is not None
            self.setup, self.knowledge = self._build(self._entries[:-1])
            if not had_knowledge or self.knowledge is None:
                self._snapshot = None
        self.lines.pop()
        self._entries.pop()
        self._save()
        return self._state_reply(summary=f"undid '{line}'")

    def _whatif(self, args: list[str]) -> Reply:
        if not args:
            raise AssistantError("whatif: expected 'whatif ENTRY' (e.g. 'whatif ask 3 Red 2') or 'whatif clear'")
        if args[0].lower() == "clear":
            no_args("whatif clear", args[1:])
            knowledge = self._require_knowledge("whatif clear")
            if not knowledge.knowledge.whatifs:
                raise AssistantError("whatif clear: there is no what-if to clear")
            return self._guarded(lambda: self._clear_whatifs(knowledge), resave=True)
        entry = parse(" ".join(args))
        if not isinstance(entry, OBSERVATION_TYPES):
            raise AssistantError(f"whatif {entry}: expected an observation (ask, informant, accuse), not setup")
        return self._observe(entry, hypothetical=True)

    def _clear_whatifs(self, knowledge: ThirteenCluesKnowledge) -> Reply:
        """Drop every what-if: the facts stay (run through ``_guarded``)."""
        self._baseline()
        dropped = knowledge.knowledge.clear_whatifs()
        keep = [i for i, (_, hyp) in enumerate(self._entries) if not hyp]
        self.lines = [self.lines[i] for i in keep]
        self._entries = [self._entries[i] for i in keep]
        self._save()
        shown = ", ".join(f"'{o}'" for o in dropped)
        return self._state_reply(summary=f"cleared what-if {shown}; back to the facts")

    # -- queries --------------------------------------------------------------------------------------------
    def _why(self, args: list[str]) -> Reply:
        usage = "why CARD [PLACE] [steps]  (PLACE: mystery, a seat number, or an informant letter)"
        steps = bool(args) and args[-1].lower() == "steps"
        args = args[:-1] if steps else args
        if not args:
            raise AssistantError(f"why: expected '{usage}'")
        knowledge = self._require_knowledge("why")
        card, i = CARD_NAMES.take(args, 0)
        place = self._place(args[i:], knowledge, usage)
        if steps and knowledge.where_visible(card) is None:
            from assistant_cli.teach_games import ThirteenCluesTeacher, why_steps

            return Reply([Text(why_steps(ThirteenCluesTeacher(), self, (card, place)))])
        result = knowledge.explain(card, place)
        whatifs = set(knowledge.knowledge.whatifs)
        prob = knowledge.count().probability((card, MYSTERY)) if place == MYSTERY else None
        return Reply([render.explanation_view(card, place_label(place), result, whatifs, prob)])

    @staticmethod
    def _place(args: list[str], knowledge: ThirteenCluesKnowledge, usage: str) -> str:
        if not args:
            return MYSTERY
        text = "".join(args).lower()
        if text in ("mystery", "me", "mine", "my", "mymystery"):
            return MYSTERY
        if text.upper() in knowledge.letters:
            return text.upper()
        seat_text, side = text, ""
        for word, code in (("left", "L"), ("right", "R"), ("l", "L"), ("r", "R")):
            if text.endswith(word) and is_whole(text[: -len(word)]):
                seat_text, side = text[: -len(word)], code
                break
        if is_whole(seat_text):
            seat = parse_int(seat_text, "why: seat", 1, knowledge.players)
            places = knowledge.private_places(seat) if seat != knowledge.me else []
            if knowledge.players == 2 and side:
                places = [p for p in places if p.endswith(side)]
            if len(places) == 1 and places[0] in knowledge.capacities:
                return places[0]
            if len(places) > 1:
                raise AssistantError(f"why: place '{' '.join(args)}': in a two-player game say '{seat}left' or "
                                     f"'{seat}right'")
        raise AssistantError(f"why: unknown place '{' '.join(args)}', expected '{usage}'")

    def _locations(self) -> Reply:
        knowledge = self._require_knowledge("locations")
        hypothetical = bool(knowledge.knowledge.whatifs)
        return Reply([render.locations_view(knowledge.locations(), list(knowledge.capacities), hypothetical)])

    def _advise(self, args: list[str]) -> Reply:
        usage = "advise [all] [glasses N]"
        knowledge = self._require_knowledge("advise")
        words = [a.lower() for a in args]
        show_all = "all" in words
        if show_all:
            words.remove("all")
        kwargs: dict[str, int] = {}
        if words[:1] == ["glasses"] and len(words) == 2:
            # The glasses I hold: at most one per player is in the game (rulebook: the box has one per player).
            kwargs["glasses"] = parse_int(words[1], "advise glasses", 1, knowledge.players)
        elif words:
            raise AssistantError(f"advise: unexpected '{' '.join(args)}', expected '{usage}'")
        try:
            advisor = importlib.import_module("models.thirteen_clues.advisor")
        except ModuleNotFoundError as exc:
            if exc.name != "models.thirteen_clues.advisor":
                raise
            return Reply([Text("advise: the advisor is not available yet", style="yellow")])
        advice = advisor.advise(knowledge, **kwargs)
        hypothetical = bool(knowledge.knowledge.whatifs)
        return Reply([render.advice_view(advice, None if show_all else ADVICE_SHOWN, hypothetical)])

    # -- state at a glance ----------------------------------------------------------------------------------
    def _baseline(self) -> None:
        """Remember the state before a change, so the reply can say what the change did."""
        if self._show and self._snapshot is None:
            self._snapshot = self._take_snapshot()

    def _take_snapshot(self) -> Snapshot:
        knowledge = self.knowledge
        assert knowledge is not None
        places = {card: frozenset(p) for card, p in knowledge.knowledge.possible().items()}
        whatifs = tuple(str(o) for o in knowledge.knowledge.whatifs)
        return Snapshot(knowledge.mystery(), places, knowledge.count(), whatifs)

    def _state_reply(self, summary: str | None, diff: bool = True, accepted: bool = True) -> Reply:
        """The state at a glance, headed by ``summary`` and what changed since the last view."""
        if not self._show:
            self._snapshot = None  # the next view has no baseline; an entry takes one before it changes the state
            return Reply([], accepted, summary=summary)
        if self.knowledge is None:
            return Reply([render.setup_view(self.setup, summary)], accepted, summary=summary)
        before, after = self._snapshot, self._take_snapshot()
        self._snapshot = after
        comparable = diff and before is not None and before.places.keys() == after.places.keys()
        changes = describe_changes(before, after) if comparable and before is not None else ""
        head = "; ".join(part for part in (summary, changes) if part) or None
        return Reply([render.state_view(after.mystery, after.count, after.whatifs, head)], accepted, summary=head)

    def snapshot(self) -> Snapshot:
        """The current state (for the demo and for JSON output)."""
        self._require_knowledge("show")
        return self._take_snapshot()

    def solved(self) -> dict[str, str] | None:
        """My mystery as {category: card} once every category has one candidate left, else None."""
        if self.knowledge is None:
            return None
        mystery = self.knowledge.mystery()
        if all(len(cards) == 1 for cards in mystery.values()):
            return {cat: next(iter(cards)) for cat, cards in mystery.items()}
        return None

    def summary(self) -> dict[str, object]:
        """The final state as plain data (``analyze --json``)."""
        knowledge = self._require_knowledge("analyze")
        count = knowledge.count()
        mystery = knowledge.mystery()
        worlds: float | int = int(count.worlds) if count.exact else count.worlds
        out: dict[str, object] = {
            "worlds": worlds,
            "exact": count.exact,
            "solved": all(len(cards) == 1 for cards in mystery.values()),
            "mystery": mystery,
            "locations": {card: [place_label(p) for p in ps] for card, ps in knowledge.locations().items()},
            "entries": [line for line, (_, hyp) in zip(self.lines, self._entries, strict=True) if not hyp],
            "whatifs": [str(o) for o in knowledge.knowledge.whatifs],
        }
        if not count.exact:
            out["stderr"] = count.stderr
            out["note"] = count.note
        return out

    # -- completion -----------------------------------------------------------------------------------------
    def _candidates(self, words: list[str]) -> list[str]:
        if not words:
            return [*ENTRY_VERBS, *(aliases[0] for aliases in COMMANDS.values()), "exit"]
        verb, pos = words[0].lower(), len(words)
        players = self.setup.players
        seats = [str(s) for s in range(1, (players or 6) + 1)]
        others = [s for s in seats if s != str(self.setup.me)]
        in_play = self.data.cards_in_play(players) if players else tuple(CARD_BY_NAME[c] for c in CARD_BY_NAME)
        cards = [c.name for c in in_play]
        if COMMAND_OF.get(verb) == "whatif":
            return ["clear", "ask", "informant", "accuse"] if pos == 1 else self._candidates(words[1:])
        if COMMAND_OF.get(verb) == "why":
            unseen = self.knowledge.unseen if self.knowledge else cards
            return unseen if pos == 1 else ["mystery", *others, *(self.knowledge.letters if self.knowledge else ())]
        if COMMAND_OF.get(verb) == "advise":
            return ["all", "glasses"] if pos == 1 else []
        if verb == "players":
            return [str(n) for n in sorted(self.data.suits_removed)] if pos == 1 else []
        if verb == "me":
            return seats if pos == 1 else []
        if verb == "subcategories":
            return ["on", "off"] if pos == 1 else []
        if verb == "private":
            return cards if pos <= 2 else []
        if verb == "screen":
            return others if pos == 1 else cards if pos <= 4 else []
        if verb in ("ask", "witness", "sees"):
            suits = list(self.data.suits_in_play(players)) if players else list(SUBCATEGORIES)
            subjects = [*suits, *CATEGORIES]
            if self.setup.subcategories:
                subjects += [s for pair in SUBCATEGORIES.values() for s in pair]
            if pos == 1:
                return seats
            if pos == 2:
                return subjects
            return ["left", "right"] if pos == 3 and players == 2 else []
        if verb in ("informant", "inf"):
            letters = list(self.data.informant_letters(players)) if players else []
            if pos == 1:
                return letters
            if pos == 2:
                return ["by", *cards]
            return others if pos == 3 and words[2].lower() == "by" else []
        if verb in ("accuse", "accusation"):
            if pos == 1:
                return seats
            if pos <= 4:
                category = CATEGORIES[pos - 2]
                return [c for c in cards if CARD_BY_NAME[c].category == category]
            return ["wrong", "right"] if pos == 5 else []
        return []


#: How a contradiction that names no earlier entry ends: how to find and fix one.
FIX_HINT = "; if an earlier entry is wrong, 'history' numbers them, and 'edit N ...' or 'drop N' fixes one"


def contradiction_text(exc: ContradictionError, named: Sequence[tuple[int, str]], fix: bool = True) -> str:
    """The message of a contradiction that names the earlier entries it contradicts (number, line) and, with
    ``fix``, how to correct the wrong one; with no entry named, how to find one. Without ``fix`` (inside the
    refusal of an edit, which already names the entry) it says "it contradicts ..."."""
    if not named:
        base = str(exc.args[0]) if exc.args else str(exc)
        if not fix:
            return base
        return base + FIX_HINT
    entries = " and ".join(f"{n} '{line}'" for n, line in named)
    subject = f"'{exc.observation}'" if fix else "it"
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


def describe_changes(before: Snapshot, after: Snapshot) -> str:
    """One line saying what changed: cards ruled out of / back into my mystery, categories narrowed,
    placements learned elsewhere, and the world count."""
    parts = []
    out_cards = [c for cat in before.mystery for c in before.mystery[cat] if c not in after.mystery[cat]]
    back = [c for cat in after.mystery for c in after.mystery[cat] if c not in before.mystery[cat]]
    if out_cards:
        parts.append(f"ruled out {', '.join(out_cards)}")
    if back:
        parts.append(f"possible again: {', '.join(back)}")
    for cat, cards in after.mystery.items():
        if len(cards) != len(before.mystery[cat]):
            if len(cards) == 1:
                parts.append(f"{cat} solved: {next(iter(cards))}")
            else:
                parts.append(f"{cat} now {len(cards)} candidates")
    removed = sum(len(before.places[c] - after.places[c]) for c in after.places)
    added = sum(len(after.places[c] - before.places[c]) for c in after.places)
    newly_fixed = [
        f"{c} is {place_label(next(iter(ps)))}"
        for c, ps in after.places.items()
        if len(ps) == 1 and len(before.places[c]) > 1 and MYSTERY not in ps
    ]
    if newly_fixed:
        parts.append("; ".join(newly_fixed))
    if not out_cards and not back:
        if removed or added:
            elsewhere = []
            if removed:
                elsewhere.append(f"{plural(removed, 'placement')} ruled out")
            if added:
                elsewhere.append(f"{added} possible again")
            parts.append(f"no change to your mystery's candidates ({', '.join(elsewhere)} elsewhere)")
        elif before.count.worlds == after.count.worlds:
            parts.append("no new information")
        else:
            parts.append("no card ruled out anywhere")
    if before.count.worlds != after.count.worlds:
        parts.append(f"worlds {render.worlds_short(before.count)} -> {render.worlds_short(after.count)}")
    return "; ".join(parts)
