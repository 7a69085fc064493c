"""The terminal side every game's companion shares: journal and ``--resume``, piped stdin, the prompt loop.

A game's commands (built from its registry entry in :mod:`assistant_cli.companion_app`) build its session and hand
it to :func:`run_companion` or :func:`run_analyze`; the session does the rest through ``handle`` and ``state``
(any session with the :class:`CompanionSession` shape works). ``assist simulate`` runs a game's matchup through
:func:`run_simulation`. This module and ``main.py`` are the only places that print to the terminal and catch
:class:`solver.errors.AssistantError`: a user error becomes one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import shlex
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, Protocol

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from assistant_cli.terminal import to_rich
from solver.errors import AssistantError
from solver.parallel import open_backend
from solver.registry import GameEntry, Registry
from solver.session import Journal, Reply, keep_pending, pending_path, read_lines, restore_pending
from solver.simulate import GameRecord, Matchup, SimulationError, run_games
from solver.text import plural
from solver.view import View


class Question(Protocol):
    """One step of a setup dialogue: what to ask, the entry line an answer stands for, and the text tab
    completion completes while the answer is being typed."""

    @property
    def prompt(self) -> str: ...

    def line(self, answer: str) -> str: ...

    def completion_text(self, text: str) -> str: ...


class CompanionSession(Protocol):
    """What the shared runner needs of a game's session."""

    journal: Journal | None

    @property
    def lines(self) -> list[str]: ...

    @property
    def knowledge(self) -> object: ...

    def handle(self, line: str, show: bool = True) -> Reply: ...

    def state(self, brief: bool = False) -> list[View]: ...

    def missing_setup(self) -> str: ...

    def setup_question(self) -> Question | None: ...

    def completions(self, text: str) -> list[str]: ...

    def summary(self) -> dict[str, Any]: ...

    def rebuilt(self, lines: list[str]) -> None: ...


def fail(message: str, soft_wrap: bool = True) -> NoReturn:
    """One red error line on stderr, then exit code 1 (``soft_wrap=False`` wraps it at the terminal width)."""
    Console(stderr=True).print(Text(f"error: {message}", style="bold red"), soft_wrap=soft_wrap)
    raise typer.Exit(1)


def print_reply(console: Console, reply: Reply) -> None:
    """Draw a reply's views in the terminal (:mod:`assistant_cli.terminal`)."""
    print_views(console, reply.renderables)


def print_views(console: Console, views: Iterable[View]) -> None:
    for view in views:
        console.print(to_rich(view))


def replay_file(session: CompanionSession, path: Path, err: Console) -> int:
    """Handle every line of ``path``; report bad lines with their numbers and go on. Returns the error count."""
    errors = 0
    for number, line in read_lines(path):
        try:
            session.handle(line, show=False)
        except AssistantError as exc:
            err.print(Text(f"{path} line {number}: {exc}", style="red"), soft_wrap=True)
            errors += 1
    return errors


def stdin_lines() -> Iterator[tuple[int, str | None]]:
    """The lines of stdin with their numbers, read as UTF-8 whatever the locale; None for a line that is not
    valid UTF-8 (a strict locale would raise on it, a lenient one would pass on unpaired surrogates)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream with no bytes under it (a test's StringIO): already decoded
        for number, text in enumerate(sys.stdin, 1):
            yield number, text.rstrip("\r\n")
        return
    for number, raw in enumerate(stream, 1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield number, None
            continue
        yield number, (text.removeprefix("\ufeff") if number == 1 else text).rstrip("\r\n")


def run_piped(
    session: CompanionSession, lines: Iterable[tuple[int, str | None]], out: Console, err: Console, quiet: bool,
    after: Callable[[], None] | None = None,
) -> int:
    """Non-interactive mode: each line is echoed and answered; a bad line is reported with its number (a line
    that is not valid UTF-8 too), and the next one is read. ``after`` runs after each accepted line."""
    errors = 0
    for number, line in lines:
        if line is None:
            err.print(Text(f"line {number}: not valid UTF-8 (the line is ignored)", style="red"), soft_wrap=True)
            errors += 1
            continue
        if not line.split("#", 1)[0].strip():
            continue
        if not quiet:
            out.print(Text(f"> {line}", style="bold cyan"))
        try:
            reply = session.handle(line)
        except AssistantError as exc:
            err.print(Text(f"line {number}: {exc}", style="red"), soft_wrap=True)
            errors += 1
            continue
        if after is not None:
            after()
        if not quiet:
            print_reply(out, reply)
        if reply.quit:
            break
    if quiet:
        print_views(out, session.state())
    return errors


def tolerant_output() -> None:
    """Let stdout and stderr print any text: what cannot be encoded in the terminal's encoding (an ASCII
    locale echoing a '²' that was typed) is written as a backslash escape instead of raising."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def default_journal(game: str, header: str, folder: Path | None = None) -> Journal:
    """A new journal of ``game`` in ``folder`` (the current directory): ``GAME-DATE-TIME-ID.journal`` with a
    random ID, created exclusively, so two companions started in the same second never share one."""
    import secrets

    stamp = time.strftime("%Y%m%d-%H%M%S")
    for _ in range(100):
        path = (folder or Path.cwd()) / f"{game}-{stamp}-{secrets.token_hex(3)}.journal"
        try:
            return Journal.create(path, header)
        except FileExistsError:
            continue
        except OSError as exc:
            raise AssistantError(f"journal '{path}': cannot create it ({exc.strerror})") from None
    raise AssistantError(f"cannot find a free journal name in '{folder or Path.cwd()}'")


def chosen_journal(path: Path, entry: GameEntry, resume: Path | None) -> Journal:
    """The ``--journal FILE`` of ``entry``'s companion, refused in one line (and left untouched) unless it is new,
    empty, or this game's journal being resumed: a file that is not this game's journal is never overwritten,
    nor a journal of a game in progress."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        try:
            return Journal.create(path, entry.header)
        except FileExistsError:
            raise AssistantError(f"journal '{path}': created by another program just now; choose another") from None
        except OSError as exc:
            raise AssistantError(f"journal '{path}': cannot create it ({exc.strerror})") from None
    except OSError as exc:
        raise AssistantError(f"journal '{path}': cannot read it ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise AssistantError(f"journal '{path}': not a regular file; choose another --journal file")
    if info.st_size == 0:
        return Journal(path, entry.header)
    if not Journal.is_journal(path, entry.header):
        raise AssistantError(f"journal '{path}': not a {entry.name} journal (its first line is not "
                             f"'{entry.header}'); it is left untouched, choose another --journal file")
    if resume is None or not _same_file(resume, path):
        raise AssistantError(f"journal '{path}': already holds a {entry.name} game; continue it with "
                             f"--resume {shlex.quote(str(path))}, or choose another --journal file")
    return Journal(path, entry.header)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False


def new_session(entry: GameEntry, options: dict[str, Any]) -> CompanionSession:
    """``entry``'s session with ``options``; an option the session refuses (a bad setup file) is one line."""
    try:
        return entry.new_session(**options)  # type: ignore[no-any-return]
    except AssistantError as exc:
        fail(str(exc))


def run_companion(entry: GameEntry, session: CompanionSession, journal: Path | None, resume: Path | None,
                  quiet: bool) -> None:
    """Run ``entry``'s companion: replay ``resume``, open the journal, then the prompt loop on a terminal, else
    stdin. After resuming on a terminal it shows the state (or the setup so far).

    The journal written is locked for the whole run (:meth:`Journal.lock`): a journal open in ``assist serve``
    or another terminal is refused, naming that program, before anything is read or written."""
    game, header, title = entry.name, entry.header, f"{entry.title} companion"
    tolerant_output()
    out, err = Console(), Console(stderr=True)
    interactive = sys.stdin.isatty()
    errors = 0
    writer: Journal | None = None
    holder = f"assist {game}"
    try:
        if journal is not None:
            writer = chosen_journal(journal, entry, resume)
            writer.lock(holder)
        elif resume is not None and Journal.is_journal(resume, header):
            writer = Journal(resume, header)  # keep writing to a resumed journal (unless it has bad lines)
            writer.lock(holder)
        if resume is not None:
            errors += replay_file(session, resume, err)
            if errors and journal is None and writer is not None:
                writer.unlock()  # rewriting it would drop its bad lines: a new journal instead
                writer = None
        if writer is None and interactive:
            writer = default_journal(game, header)
            writer.lock(holder)
        keeper = PendingKeeper(session, writer.path if writer is not None else None, err)
        if writer is not None:
            session.journal = writer
            writer.save(session.lines)
            out.print(f"journal: {writer.path}", soft_wrap=True)  # a path is never split: it can be copied whole
            keeper.start(out)
        if resume is not None:
            out.print(f"resumed {plural(len(session.lines), 'entry')} from {resume}", soft_wrap=True)
            if interactive:
                print_views(out, session.state())
        if interactive:
            run_interactive(session, out, title, f"{game}> ", game, after=keeper.keep)
        else:
            errors += run_piped(session, stdin_lines(), out, err, quiet, after=keeper.keep)
            if keeper.kept is not None and writer is not None:
                path = shlex.quote(str(writer.path))
                out.print(f"the deal waits for its seat order, kept beside the journal; answer it with: assist {game} "
                          f"--resume {path}", soft_wrap=True)
    except AssistantError as exc:
        fail(str(exc))
    finally:
        if writer is not None:
            writer.unlock()
    if errors:
        raise typer.Exit(1)


class PendingKeeper:
    """Keeps a setup import waiting for an answer (an imported deal waiting for its seat order) beside
    the journal, as the page does (:func:`solver.session.pending_path`: ``.NAME.journal.setup``), so a session
    left before the answer loses nothing: ``--resume`` of the journal (here or on the page) asks again."""

    def __init__(self, session: CompanionSession, journal: Path | None, err: Console) -> None:
        self.session, self.journal, self.err = session, journal, err
        self.kept: str | None = None
        self.failed = False

    def start(self, out: Console) -> None:
        """Read back a deal kept beside a journal with no entry (unless one was given now), then keep what
        waits; says so in one line either way."""
        if self.journal is None:
            return
        pending = getattr(self.session, "pending_setup", None)
        if pending is not None and pending() is None:
            self.kept = restore_pending(self.session, self.journal)
            if self.kept is not None:
                out.print(f"a deal kept beside the journal waits for its seat order: {pending_path(self.journal)}",
                          soft_wrap=True)
        self.keep()

    def keep(self) -> None:
        """Write (or remove) the kept file after a line; a failure is one line on stderr, said once."""
        if self.journal is None:
            return
        try:
            self.kept = keep_pending(self.session, self.journal, self.kept)
        except OSError as exc:
            if not self.failed:
                self.err.print(Text(f"the waiting deal is not kept beside the journal ({exc.strerror}): answer it "
                                    "before leaving", style="red"), soft_wrap=True)
            self.failed = True


def check_game_file(path: Path, game: str, games: Registry) -> None:
    """Refuse, in one line, a file that looks like another game's of ``games`` (and name the command that reads
    it)."""
    other = games.file_game(path, game)
    if other is not None and other != game:
        article = "an" if other[0] in "aeiou" else "a"
        raise AssistantError(f"file '{path}' looks like {article} {other} game (try: assist {other} analyze "
                             f"{shlex.quote(str(path))})")


def run_analyze(entry: GameEntry, session: CompanionSession, file: Path, as_json: bool, games: Registry) -> None:
    """Replay a game file and print the final state (bad lines on stderr; exit code 1 if any). A file that looks
    like another game's is refused first, in one line that names that game."""
    tolerant_output()
    err = Console(stderr=True)
    try:
        check_game_file(file, entry.name, games)
        errors = replay_file(session, file, err)
        if session.knowledge is None:
            raise AssistantError(f"{file}: setup incomplete, still need {session.missing_setup()}")
        if as_json:
            typer.echo(json.dumps(session.summary(), indent=2, allow_nan=False))
        else:
            out = Console()
            out.print(f"{file}: {plural(len(session.lines), 'entry')}")
            print_views(out, session.state())
    except AssistantError as exc:
        fail(str(exc))
    if errors:
        raise typer.Exit(1)


def line_completions(session: CompanionSession, question: Question | None, text: str) -> list[str]:
    """Tab completion of ``text``: the whole words legal where the last word is being typed. In the setup
    dialogue (``question``) the answer completes as if the question's prefix were typed before it, and only
    the answer's words are offered (no command: 'wh' in a colour answer is 'white', never 'why')."""
    if question is None:
        return session.completions(text)
    return session.completions(question.completion_text(text))


def make_completer(session: CompanionSession, asking: list[Question | None]) -> Any:
    """The prompt's completer (prompt_toolkit is imported only here, for a terminal): each legal word of
    :func:`line_completions`, followed by a space so the next word can be typed or completed at once
    (``asking[0]``: the setup question being answered, if any)."""
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document

    class LineCompleter(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            text = document.text_before_cursor
            word = "" if not text or text[-1].isspace() else text.split()[-1]
            for candidate in line_completions(session, asking[0], text):
                yield Completion(candidate + " ", start_position=-len(word), display=candidate)

    return LineCompleter()


def goodbye(session: CompanionSession, game: str) -> str:
    """What quitting prints: where the journal is and the command that resumes it."""
    if session.journal is None:
        return "no journal was kept (start with --journal FILE to keep one)"
    path = shlex.quote(str(session.journal.path))
    return f"journal saved: {path}; resume with: assist {game} --resume {path}"


def run_interactive(
    session: CompanionSession, out: Console, title: str, prompt_text: str, game: str,
    after: Callable[[], None] | None = None, **prompt_io: Any
) -> None:
    """The terminal loop: a setup dialogue, then a prompt with history, line editing and tab completion.

    ``prompt_io`` (``input``, ``output``) goes to prompt_toolkit: tests drive the loop through a pipe."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory

    asking: list[Question | None] = [None]  # the setup question being answered, if any

    history = InMemoryHistory()
    for line in session.lines:
        history.append_string(line)
    prompt = PromptSession(history=history, completer=make_completer(session, asking), complete_while_typing=False,
                           **prompt_io)
    out.print(f"{title}. Type 'help' for the commands, Tab completes, Ctrl-D quits.")
    try:
        _prompt_loop(session, out, prompt, prompt_text, asking, after)
    finally:
        out.print(goodbye(session, game), soft_wrap=True)  # one line: the command can be copied whole


def _prompt_loop(session: CompanionSession, out: Console, prompt: Any, prompt_text: str,
                 asking: list[Question | None], after: Callable[[], None] | None = None) -> None:
    """Ask the setup questions, then read lines until 'quit' or Ctrl-D."""

    def run(line: str) -> bool:
        """Handle one line; False when the session should end."""
        try:
            reply = session.handle(line)
        except AssistantError as exc:
            out.print(Text(f"error: {exc}", style="bold red"), soft_wrap=True)
            return True
        except KeyboardInterrupt:
            session.rebuilt(list(session.lines))
            entries = plural(len(session.lines), "entry")
            out.print(Text(f"interrupted: state rebuilt from the journal ({entries})", "yellow"))
            return True
        if after is not None:
            after()
        print_reply(out, reply)
        return not reply.quit

    while (question := session.setup_question()) is not None:
        asking[0] = question
        try:
            answer = prompt.prompt(question.prompt)
        except KeyboardInterrupt:
            continue
        except EOFError:
            return
        finally:
            asking[0] = None
        if answer.strip() and not run(question.line(answer)):
            return
    while True:
        try:
            line = prompt.prompt(prompt_text)
        except KeyboardInterrupt:
            continue
        except EOFError:
            return
        if not run(line):
            return


# -- assist simulate GAME -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SimulationRun:
    """A finished ``assist simulate`` run: what was played, each game's record, the wall time in seconds, and
    where the games ran (``2 local worker processes``, ``a local Dask cluster of 2 workers``...)."""

    matchup: Matchup
    records: list[GameRecord]
    elapsed: float
    where: str = "1 process"


def run_simulation(
    build: Callable[[], Matchup],
    games: int,
    seed: int,
    workers: int,
    replay: int | None,
    show_replay: Callable[[Matchup, int], None],
    rerun: str,
    progress: bool = True,
    soft_wrap: bool = True,
    cluster: str | None = None,
) -> SimulationRun | None:
    """The body every game's ``assist simulate`` shares: build the matchup (which validates the options), then
    either replay the one game seeded ``replay`` with ``show_replay`` (and return None) or play the run through
    ``--workers`` local processes or the ``--cluster`` (:func:`solver.parallel.open_backend`), with a progress
    bar on stderr if ``progress``. A user error or a failed game is one red line on stderr and exit code 1; a
    failed game's line says how to replay it: ``assist simulate {rerun} --replay SEED``."""
    try:
        matchup = build()
        if replay is not None:
            show_replay(matchup, replay)
            return None
        with open_backend(workers, cluster) as backend:
            start = time.perf_counter()
            if progress and Console(stderr=True).is_terminal:  # a bar piped to a file is only noise
                with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                              console=Console(stderr=True), transient=True) as bar:
                    task = bar.add_task("games", total=games)
                    records = run_games(matchup, games, seed, backend, lambda n: bar.advance(task, n))
            else:
                records = run_games(matchup, games, seed, backend)
            elapsed = time.perf_counter() - start
    except SimulationError as exc:
        fail(f"{exc}. Replay it: assist simulate {rerun} --replay {exc.seed}", soft_wrap)
    except AssistantError as exc:
        fail(str(exc), soft_wrap)
    return SimulationRun(matchup, records, elapsed, backend.label)


def speed_text(games: int, elapsed: float, where: int | str) -> str:
    """The timing every simulation summary ends with; ``where`` is a worker count or a backend's label."""
    rate = games / elapsed if elapsed > 0 else float("inf")
    place = plural(where, "worker") if isinstance(where, int) else where
    return f"{elapsed:.1f} s, {rate:.2f} games/s on {place}"


def run_simulate(entry: GameEntry, options: dict[str, Any]) -> None:
    """``assist simulate GAME``: the game's matchup from its options, played through the backend the common
    options choose; then its summary as tables (or ``--json``), or one game's log (``--replay``)."""
    from solver.registry import load

    tolerant_output()
    module = load(entry.simulation.module)
    own = {option.name: options[option.name] for option in entry.simulation.options}
    rerun = " ".join([entry.name, *_flags(entry, own)])
    games, seed, as_json = options["games"], options["seed"], options["as_json"]

    def show_replay(played: Matchup, game_seed: int) -> None:
        print_views(Console(), module.replay(played, game_seed))

    run = run_simulation(lambda: module.matchup(**own), games, seed, options["workers"], options["replay"],
                         show_replay, rerun, cluster=options["cluster"])
    if run is None:
        return
    summary = module.summary(run.records, run.matchup, options)
    if as_json:
        typer.echo(json.dumps(summary.data, indent=2, allow_nan=False))
        return
    out = Console()
    print_views(out, summary.views)
    out.print(speed_text(len(run.records), run.elapsed, run.where) + ".")


def _flags(entry: GameEntry, values: dict[str, Any]) -> list[str]:
    """The flags that replay a run: every option that has a value, quoted for a shell."""
    flags = []
    for option in entry.simulation.options:
        value = values[option.name]
        if option.kind is bool:
            if value != option.default:
                flags.append(option.flag if value else f"--no-{option.flag[2:]}")
        elif value is not None and value != "":
            flags.append(f"{option.flag} {shlex.quote(str(value))}")
    return flags


def run_demo(entry: GameEntry, options: dict[str, Any]) -> bool | None:
    """``assist demo GAME``: draw each view the game's demo yields as it comes; returns the demo's verdict."""
    from solver.registry import load

    assert entry.demo is not None
    tolerant_output()
    out = Console()
    views = load(entry.demo.target)(**options)
    try:
        while True:
            out.print(to_rich(next(views)))
    except StopIteration as done:
        return done.value
    except AssistantError as exc:
        fail(str(exc))


def games_table(games: Iterable[GameEntry]) -> View:
    """``assist games``: each game, its players, what it does and its commands."""
    from solver.view import Table

    table = Table(title="Games", boxed=True)
    for header in ("Game", "Players", "What it does", "Commands"):
        table.add_column(header, prose=header == "What it does")
    for entry in games:
        commands = [f"assist {entry.name}", f"assist {entry.name} analyze FILE", f"assist simulate {entry.name}",
                    f"assist teach {entry.name}"]
        if entry.demo is not None:
            commands.append(f"assist demo {entry.name}")
        table.add_row(entry.name, entry.players_text, entry.about, ", ".join(commands))
    return table
