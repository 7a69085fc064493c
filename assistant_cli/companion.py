"""The terminal side every game's companion shares: journal and ``--resume``, piped stdin, the prompt loop.

A game's Typer commands build their session and hand it to :func:`run_companion` or :func:`run_analyze`; the
session does the rest through ``handle`` (any session with the :class:`CompanionSession` shape works). A game's
``assist simulate`` command hands its matchup to :func:`run_simulation` (with :func:`seat_bots` for ``--bots``). This
module and ``main.py`` are the only places that print to the terminal and catch
:class:`solver.errors.AssistantError`: a user error becomes one line on stderr, never a traceback.
"""

from __future__ import annotations

import importlib
import json
import re
import shlex
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

from assistant_cli.companion_app import MAX_GAMES, MAX_SEED, MAX_WORKERS
from assistant_cli.terminal import to_rich
from solver.errors import AssistantError
from solver.parallel import open_backend
from solver.session import Journal, Reply, read_lines
from solver.simulate import GameRecord, Matchup, SimulationError, run_games
from solver.text import plural


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
    for view in reply.renderables:
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
            out.print(f"resumed {plural(len(session.lines), 'entry')} from {resume}")
            if interactive and (show_setup_on_resume or session.knowledge is not None):
                print_reply(out, session.handle("show"))
        if interactive:
            run_interactive(session, out, title, f"{game}> ", game)
        else:
            errors += run_piped(session, stdin_lines(), out, err, quiet)
    except AssistantError as exc:
        fail(str(exc))
    if errors:
        raise typer.Exit(1)


# Each game's entry parser, to tell which game a file is for (imported only when a file does not fit).
PARSERS = {
    "thirteen-clues": "models.thirteen_clues.observations",
    "beyond-baker-street": "models.beyond_baker_street.observations",
    "evidence": "models.evidence.observations",
    "time-bomb": "models.time_bomb.observations",
}
JOURNAL_GAME = re.compile(r"#\s*assist\s+(\S+)\s+journal")


def file_game(path: Path, expected: str | None = None) -> str | None:
    """The game a game file or journal looks like: the one its journal header names, else the game whose parser
    reads the most of its lines (at least 80% of them, and more than any other game's). The ``expected`` game's
    parser is tried first, and if it reads 80% of the lines, that game it is (the others are not imported)."""
    try:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    except (OSError, UnicodeDecodeError):
        return None
    if (match := JOURNAL_GAME.match(first)) and match.group(1) in PARSERS:
        return match.group(1)
    try:
        lines = [line.split("#", 1)[0].split() for _, line in read_lines(path)]
    except AssistantError:
        return None
    entries = [_entry_text(words) for words in lines]
    if not entries:
        return None
    scores: dict[str, int] = {}
    for game, module in sorted(PARSERS.items(), key=lambda item: item[0] != expected):
        parse = importlib.import_module(module).parse
        scores[game] = sum(1 for text in entries if _parses(parse, text))
        if game == expected and scores[game] >= 0.8 * len(entries):
            return game
    best = max(scores, key=lambda g: scores[g])
    runner_up = max(v for g, v in scores.items() if g != best)
    return best if scores[best] >= 0.8 * len(entries) and scores[best] > runner_up else None


def _entry_text(words: list[str]) -> str:
    """The entry a line stands for, for a parser: after 'whatif' (a hypothetical entry), with 'me' standing for a
    seat after the first word (as the sessions read it)."""
    if words[0].lower() == "whatif" and len(words) > 1:
        words = words[1:]
    return " ".join([words[0], *("1" if w.lower() == "me" else w for w in words[1:])])


def _parses(parse: Callable[[str], object], text: str) -> bool:
    try:
        parse(text)
    except AssistantError:
        return False
    return True


def check_game_file(path: Path, game: str) -> None:
    """Refuse, in one line, a file that looks like another game's (and name the command that reads it)."""
    other = file_game(path, game)
    if other is not None and other != game:
        article = "an" if other[0] in "aeiou" else "a"
        raise AssistantError(f"file '{path}' looks like {article} {other} game (try: assist {other} analyze "
                             f"{shlex.quote(str(path))})")


def run_analyze(session: CompanionSession, file: Path, as_json: bool, still_need: Callable[[], str],
                game: str | None = None) -> None:
    """Replay a game file and print the final state (bad lines on stderr; exit code 1 if any).

    ``still_need`` says what the setup lacks when the file leaves it incomplete. With ``game``, a file that looks
    like another game's is refused first, in one line that names that game."""
    tolerant_output()
    err = Console(stderr=True)
    try:
        if game is not None:
            check_game_file(file, game)
        errors = replay_file(session, file, err)
        if session.knowledge is None:
            raise AssistantError(f"{file}: setup incomplete, still need {still_need()}")
        if as_json:
            typer.echo(json.dumps(session.summary(), indent=2))
        else:
            out = Console()
            out.print(f"{file}: {plural(len(session.lines), 'entry')}")
            print_reply(out, session.handle("show"))
    except AssistantError as exc:
        fail(str(exc))
    if errors:
        raise typer.Exit(1)


def line_completions(session: CompanionSession, question: Question | None, text: str) -> list[str]:
    """Tab completion of ``text``: in the setup dialogue (``question``) the answer completes as if the question's
    prefix were typed before it, and a first word may also complete to a command; otherwise the session's."""
    if question is None:
        return session.completions(text)
    found = session.completions(question.completion_text(text))
    if len(text.split()) <= 1 and not text[-1:].isspace():
        found += [c for c in session.completions(text) if c not in found]
    return found


def goodbye(session: CompanionSession, game: str) -> str:
    """What quitting prints: where the journal is and the command that resumes it."""
    if session.journal is None:
        return "no journal was kept (start with --journal FILE to keep one)"
    path = shlex.quote(str(session.journal.path))
    return f"journal saved: {path}; resume with: assist {game} --resume {path}"


def run_interactive(
    session: CompanionSession, out: Console, title: str, prompt_text: str, game: str, **prompt_io: Any
) -> None:
    """The terminal loop: a setup dialogue, then a prompt with history, line editing and tab completion.

    ``prompt_io`` (``input``, ``output``) goes to prompt_toolkit: tests drive the loop through a pipe."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.history import InMemoryHistory

    asking: list[Question | None] = [None]  # the setup question being answered, if any

    class _Completer(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            text = document.text_before_cursor
            word = "" if not text or text[-1].isspace() else text.split()[-1]
            for candidate in line_completions(session, asking[0], text):
                yield Completion(candidate, start_position=-len(word))

    history = InMemoryHistory()
    for line in session.lines:
        history.append_string(line)
    prompt = PromptSession(history=history, completer=_Completer(), complete_while_typing=False, **prompt_io)
    out.print(f"{title}. Type 'help' for the commands, Tab completes, Ctrl-D quits.")
    try:
        _prompt_loop(session, out, prompt, prompt_text, asking)
    finally:
        out.print(goodbye(session, game), soft_wrap=True)  # one line: the command can be copied whole


def _prompt_loop(session: CompanionSession, out: Console, prompt: Any, prompt_text: str,
                 asking: list[Question | None]) -> None:
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

# The options whose help is the same in every game's ``assist simulate`` command (each command sets its default).
GamesOption = Annotated[int, typer.Option(help="Number of games to play.", min=1, max=MAX_GAMES)]
SeedOption = Annotated[int, typer.Option(help="Run seed: game i is played from (seed, i) alone.", min=0, max=MAX_SEED)]
WorkersOption = Annotated[
    int, typer.Option(help="Local worker processes (results do not depend on it).", min=1, max=MAX_WORKERS)
]
ClusterOption = Annotated[
    str | None,
    typer.Option(help="Run the games on a Dask cluster: a scheduler address (tcp://host:8786) or local:N to start "
                      "N local workers (needs pip install -e '.[cluster]'; results do not depend on it)."),
]
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
