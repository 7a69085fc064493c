"""The terminal side every game's companion shares: journal and ``--resume``, piped stdin, the prompt loop.

A game's Typer commands build their session and hand it to :func:`run_companion` or :func:`run_analyze`; the
session does the rest through ``handle`` (any session with the :class:`CompanionSession` shape works). A game's
``assist simulate`` command hands its matchup to :func:`run_simulation` (with :func:`seat_bots` for ``--bots``). This
module and ``main.py`` are the only places that print to the terminal and catch
:class:`solver.errors.AssistantError`: a user error becomes one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn, Protocol

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from assistant_cli.session import Journal, Reply, read_lines
from solver.errors import AssistantError
from solver.simulate import GameRecord, Matchup, SimulationError, run_games

# The options every companion command takes (typer copies them per command, so sharing them is safe).
ResumeOption = Annotated[
    Path | None,
    typer.Option(help="Replay this journal or game file first, then continue.", exists=True, dir_okay=False),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Piped input: print only errors and the final state.")]
GameFileArgument = Annotated[
    Path, typer.Argument(help="A game file or journal: one entry per line.", exists=True, dir_okay=False)
]


def journal_option(game: str) -> Any:
    """The ``--journal`` option of ``game``'s companion (its help names the default file)."""
    return typer.Option(
        help="Journal file, rewritten after every accepted entry. Default when interactive: a new "
        f"{game}-DATE-TIME.journal in the current directory (or the resumed journal).",
        dir_okay=False,
    )


class Question(Protocol):
    """One step of a setup dialogue: what to ask, and the entry line an answer stands for."""

    @property
    def prompt(self) -> str: ...

    def line(self, answer: str) -> str: ...


class CompanionSession(Protocol):
    """What the shared runner needs of a game's session."""

    journal: Journal | None

    @property
    def lines(self) -> list[str]: ...

    @property
    def knowledge(self) -> object: ...

    def handle(self, line: str, show: bool = True) -> Reply: ...

    def setup_question(self) -> Question | None: ...

    def completions(self, text: str) -> list[str]: ...

    def summary(self) -> dict[str, Any]: ...

    def rebuilt(self, lines: list[str]) -> None: ...


def fail(message: str, soft_wrap: bool = True) -> NoReturn:
    """One red error line on stderr, then exit code 1 (``soft_wrap=False`` wraps it at the terminal width)."""
    Console(stderr=True).print(Text(f"error: {message}", style="bold red"), soft_wrap=soft_wrap)
    raise typer.Exit(1)


def print_reply(console: Console, reply: Reply) -> None:
    for renderable in reply.renderables:
        console.print(renderable)


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
    session: CompanionSession, lines: Iterable[tuple[int, str | None]], out: Console, err: Console, quiet: bool
) -> int:
    """Non-interactive mode: each line is echoed and answered; a bad line is reported with its number (a line
    that is not valid UTF-8 too), and the next one is read."""
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
        if not quiet:
            print_reply(out, reply)
        if reply.quit:
            break
    if quiet:
        print_reply(out, session.handle("show"))
    return errors


def tolerant_output() -> None:
    """Let stdout and stderr print any text: what cannot be encoded in the terminal's encoding (an ASCII
    locale echoing a '²' that was typed) is written as a backslash escape instead of raising."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def default_journal(game: str) -> Path:
    return Path.cwd() / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}.journal"


def run_companion(
    session: CompanionSession,
    journal: Path | None,
    resume: Path | None,
    quiet: bool,
    *,
    game: str,
    header: str,
    title: str,
    show_setup_on_resume: bool = False,
) -> None:
    """Run a companion: replay ``resume``, open the journal, then the prompt loop on a terminal, else stdin.

    ``show_setup_on_resume``: after resuming on a terminal, show the state even if the setup is not complete
    (the games whose ``show`` has a setup view)."""
    tolerant_output()
    out, err = Console(), Console(stderr=True)
    interactive = sys.stdin.isatty()
    errors = 0
    try:
        if resume is not None:
            errors += replay_file(session, resume, err)
            # Keep writing to a resumed journal, unless it had bad lines: rewriting would drop them.
            if journal is None and Journal.is_journal(resume, header) and not errors:
                journal = resume
        if journal is None and interactive:
            journal = default_journal(game)
        if journal is not None:
            session.journal = Journal(journal, header)
            session.journal.save(session.lines)
            out.print(f"journal: {journal}")
        if resume is not None:
            out.print(f"resumed {len(session.lines)} entries from {resume}")
            if interactive and (show_setup_on_resume or session.knowledge is not None):
                print_reply(out, session.handle("show"))
        if interactive:
            run_interactive(session, out, title, f"{game}> ")
        else:
            errors += run_piped(session, stdin_lines(), out, err, quiet)
    except AssistantError as exc:
        fail(str(exc))
    if errors:
        raise typer.Exit(1)


def run_analyze(session: CompanionSession, file: Path, as_json: bool, still_need: Callable[[], str]) -> None:
    """Replay a game file and print the final state (bad lines on stderr; exit code 1 if any).

    ``still_need`` says what the setup lacks when the file leaves it incomplete."""
    tolerant_output()
    err = Console(stderr=True)
    try:
        errors = replay_file(session, file, err)
        if session.knowledge is None:
            raise AssistantError(f"{file}: setup incomplete, still need {still_need()}")
        if as_json:
            typer.echo(json.dumps(session.summary(), indent=2))
        else:
            out = Console()
            out.print(f"{file}: {len(session.lines)} entries")
            print_reply(out, session.handle("show"))
    except AssistantError as exc:
        fail(str(exc))
    if errors:
        raise typer.Exit(1)


def run_interactive(session: CompanionSession, out: Console, title: str, prompt_text: str) -> None:
    """The terminal loop: a setup dialogue, then a prompt with history, line editing and tab completion."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.history import InMemoryHistory

    class _Completer(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            text = document.text_before_cursor
            word = "" if not text or text[-1].isspace() else text.split()[-1]
            for candidate in session.completions(text):
                yield Completion(candidate, start_position=-len(word))

    history = InMemoryHistory()
    for line in session.lines:
        history.append_string(line)
    prompt = PromptSession(history=history, completer=_Completer(), complete_while_typing=False)
    out.print(f"{title}. Type 'help' for the commands, Tab completes, Ctrl-D quits.")

    def run(line: str) -> bool:
        """Handle one line; False when the session should end."""
        try:
            reply = session.handle(line)
        except AssistantError as exc:
            out.print(Text(f"error: {exc}", style="bold red"), soft_wrap=True)
            return True
        except KeyboardInterrupt:
            session.rebuilt(list(session.lines))
            out.print(Text(f"interrupted: state rebuilt from the journal ({len(session.lines)} entries)", "yellow"))
            return True
        print_reply(out, reply)
        return not reply.quit

    while (question := session.setup_question()) is not None:
        try:
            answer = prompt.prompt(question.prompt)
        except KeyboardInterrupt:
            continue
        except EOFError:
            return
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

# The options whose help is the same in every game's ``assist simulate`` command (each command sets its default).
# Every number an option takes has both bounds (Typer prints them in --help and refuses others in one line).
MAX_GAMES = 100_000
MAX_WORKERS = 64
MAX_SEED = 2**64 - 1  # a game seed is 8 bytes of a hash (solver.simulate.game_seed)
GamesOption = Annotated[int, typer.Option(help="Number of games to play.", min=1, max=MAX_GAMES)]
SeedOption = Annotated[int, typer.Option(help="Run seed: game i is played from (seed, i) alone.", min=0, max=MAX_SEED)]
WorkersOption = Annotated[
    int, typer.Option(help="Worker processes (results do not depend on it).", min=1, max=MAX_WORKERS)
]
MAX_COUNT_BUDGET = 600.0  # seconds: Thirteen Clues' --count-budget


SummaryJsonOption = Annotated[bool, typer.Option("--json", help="Print the summary as JSON on stdout.")]
ReplayOption = Annotated[
    int | None, typer.Option(help="Play only the game with this game seed and print its log.", min=0, max=MAX_SEED)
]
# Evidence's and Time Bomb's (Thirteen Clues' --deep-check asks something else).
DeepCheckOption = Annotated[
    bool, typer.Option(help="Also check each bot's CP-SAT knowledge model at the end of every game (slower).")
]


def seat_bots(spec: str, players: int, check: Callable[[str], object], noun: str = "name",
              counted: bool = True) -> tuple[str, ...]:
    """``--bots``: one name for every seat, or comma-separated names seat by seat (seat 1 first), each given once
    to ``check``, which raises with the list of known bots. ``noun`` and ``counted`` shape the wrong-count error."""
    names = tuple(n.strip().lower() for n in spec.split(",") if n.strip())
    names = names * players if len(names) == 1 else names
    if len(names) != players:
        got = f" (one per seat), got {len(names)}" if counted else ""
        raise AssistantError(f"--bots '{spec}': expected one {noun} or {players} comma-separated {noun}s{got}")
    for name in dict.fromkeys(names):
        check(name)
    return names


@dataclass(frozen=True)
class SimulationRun:
    """A finished ``assist simulate`` run: what was played, each game's record, and the wall time in seconds."""

    matchup: Matchup
    records: list[GameRecord]
    elapsed: float


def run_simulation(
    build: Callable[[], Matchup],
    games: int,
    seed: int,
    workers: int,
    replay: int | None,
    show_replay: Callable[[Matchup, int], None],
    rerun: str,
    progress: bool = False,
    soft_wrap: bool = True,
) -> SimulationRun | None:
    """The body every game's ``assist simulate`` shares: build the matchup (which validates the options), then
    either replay the one game seeded ``replay`` with ``show_replay`` (and return None) or play the run, with a
    progress bar on stderr if ``progress``. A user error or a failed game is one red line on stderr and exit
    code 1; a failed game's line says how to replay it: ``assist simulate {rerun} --replay SEED``."""
    try:
        matchup = build()
        if replay is not None:
            show_replay(matchup, replay)
            return None
        start = time.perf_counter()
        if progress:
            with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("games", total=games)
                records = run_games(matchup, games, seed, workers, lambda n: bar.advance(task, n))
        else:
            records = run_games(matchup, games, seed, workers)
        elapsed = time.perf_counter() - start
    except SimulationError as exc:
        fail(f"{exc}. Replay it: assist simulate {rerun} --replay {exc.seed}", soft_wrap)
    except AssistantError as exc:
        fail(str(exc), soft_wrap)
    return SimulationRun(matchup, records, elapsed)


def speed_text(games: int, elapsed: float, workers: int) -> str:
    """The timing every simulation summary ends with."""
    rate = games / elapsed if elapsed > 0 else float("inf")
    return f"{elapsed:.1f} s, {rate:.2f} games/s on {workers} worker(s)"
