"""The ``assist`` command: one Typer sub-app per game, plus ``games``, ``demo`` and ``--version``.

This is the only place that talks to the terminal and the only place that catches
:class:`solver.errors.AssistantError`: a user error becomes one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import sys
import time
import tomllib
from collections.abc import Iterable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from assistant_cli.beyond_baker_street import app as beyond_baker_street_app
from assistant_cli.evidence import app as evidence_app
from assistant_cli.session import GAME, Journal, Reply, Session, read_lines
from assistant_cli.simulate import app as simulate_app
from assistant_cli.time_bomb import app as time_bomb_app
from solver.errors import AssistantError

PACKAGE = "deduction-assistant"

#: Games the assistant supports: name -> (description, commands).
GAMES: dict[str, tuple[str, str]] = {
    GAME: (
        "Thirteen Clues (2-6 players): exact deduction of your own mystery",
        "assist thirteen-clues, assist thirteen-clues analyze FILE, assist demo",
    ),
    "beyond-baker-street": (
        "Beyond Baker Street (2-4 players, cooperative): what each card in your unseen hand can be",
        "assist beyond-baker-street, assist beyond-baker-street analyze FILE",
    ),
    "evidence": (
        "Evidence (2-5 players): each mystery's evidence value with exact probabilities, expected scores, advice",
        "assist evidence, assist evidence analyze FILE, assist simulate evidence",
    ),
    "time-bomb": (
        "Time Bomb Evolution (4-6 players): role and holding probabilities from cuts and claims, cut risks, advice",
        "assist time-bomb, assist time-bomb analyze FILE, assist simulate time-bomb",
    ),
}

app = typer.Typer(
    name="assist",
    help="A deduction companion for hidden-information card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
thirteen_app = typer.Typer(
    help="Thirteen Clues companion: type what you see and hear at the table, get exact deductions. "
    "On a terminal it starts with a setup dialogue, then takes commands (type 'help'). With piped stdin it "
    "reads commands from it: no prompts, bad lines reported with their line number, exit code 1 if any.",
    add_completion=False,
)
app.add_typer(thirteen_app, name=GAME)
app.add_typer(simulate_app, name="simulate")
app.add_typer(beyond_baker_street_app, name="beyond-baker-street")
app.add_typer(evidence_app, name="evidence")
app.add_typer(time_bomb_app, name="time-bomb")


def version() -> str:
    """The installed package version, or pyproject's when running from a source checkout."""
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        return str(tomllib.loads(pyproject.read_text())["project"]["version"])


def _version_callback(value: bool) -> None:
    if value:
        Console().print(f"assist {version()}")
        raise typer.Exit()


@app.callback()
def main(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_version_callback, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """A deduction companion for hidden-information card games."""


@app.command()
def games() -> None:
    """List the games the assistant supports."""
    table = Table(title="Games")
    table.add_column("Game")
    table.add_column("What it does")
    table.add_column("Commands")
    for name, (description, commands) in GAMES.items():
        table.add_row(name, description, commands)
    Console().print(table)


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="Seed of the deal and of the sequence of observations.")] = 1,
    players: Annotated[int, typer.Option(min=2, max=6, help="Number of players at the table.")] = 4,
    steps: Annotated[int, typer.Option(min=1, help="Stop after this many observations if not solved.")] = 80,
) -> None:
    """Replay a seeded game from seat 1's view and show each deduction as it happens (no input needed)."""
    from assistant_cli.demo import run_demo

    console = Console()
    try:
        correct = run_demo(console, seed, players, steps)
    except AssistantError as exc:
        _fail(str(exc))
    if correct is False:
        raise typer.Exit(1)


# -- thirteen-clues ---------------------------------------------------------------------------------------------


def _fail(message: str) -> NoReturn:
    Console(stderr=True).print(Text(f"error: {message}", style="bold red"), soft_wrap=True)
    raise typer.Exit(1)


def _print_reply(console: Console, reply: Reply) -> None:
    for renderable in reply.renderables:
        console.print(renderable)


def _replay_file(session: Session, path: Path, err: Console) -> int:
    """Handle every line of ``path``; report bad lines with their numbers and go on. Returns the error count."""
    errors = 0
    for number, line in read_lines(path):
        try:
            session.handle(line, show=False)
        except AssistantError as exc:
            err.print(Text(f"{path} line {number}: {exc}", style="red"), soft_wrap=True)
            errors += 1
    return errors


def _stdin_lines() -> Iterator[tuple[int, str]]:
    for number, line in enumerate(sys.stdin, 1):
        yield number, line.rstrip("\n")


def _run_piped(session: Session, lines: Iterable[tuple[int, str]], out: Console, err: Console, quiet: bool) -> int:
    """Non-interactive mode: each line is echoed and answered; a bad line is reported with its number."""
    errors = 0
    for number, line in lines:
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
            _print_reply(out, reply)
        if reply.quit:
            break
    if quiet:
        _print_reply(out, session.handle("show"))
    return errors


def _default_journal() -> Path:
    return Path.cwd() / f"{GAME}-{time.strftime('%Y%m%d-%H%M%S')}.journal"


@thirteen_app.callback(invoke_without_command=True)
def companion(
    ctx: typer.Context,
    journal: Annotated[
        Path | None,
        typer.Option(
            help="Journal file, rewritten after every accepted entry. Default when interactive: a new "
            "thirteen-clues-DATE-TIME.journal in the current directory (or the resumed journal).",
            dir_okay=False,
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Replay this journal or game file first, then continue.", exists=True, dir_okay=False),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Piped input: print only errors and the final state.")
    ] = False,
    count_budget: Annotated[
        float, typer.Option(min=0.1, help="Seconds allowed for exact world counting before estimating.")
    ] = 2.0,
) -> None:
    """Start the companion (see the sub-app help): interactive on a terminal, else read stdin."""
    if ctx.invoked_subcommand is not None:
        return
    out, err = Console(), Console(stderr=True)
    interactive = sys.stdin.isatty()
    session = Session(count_budget=count_budget)
    errors = 0
    try:
        if resume is not None:
            errors += _replay_file(session, resume, err)
            # Keep writing to a resumed journal, unless it had bad lines: rewriting would drop them.
            if journal is None and Journal.is_journal(resume) and not errors:
                journal = resume
        if journal is None and interactive:
            journal = _default_journal()
        if journal is not None:
            session.journal = Journal(journal)
            session.journal.save(session.lines)
            out.print(f"journal: {journal}")
        if resume is not None:
            out.print(f"resumed {len(session.lines)} entries from {resume}")
            if session.knowledge is not None and interactive:
                _print_reply(out, session.handle("show"))
        if interactive:
            _interactive(session, out)
        else:
            errors += _run_piped(session, _stdin_lines(), out, err, quiet)
    except AssistantError as exc:
        _fail(str(exc))
    if errors:
        raise typer.Exit(1)


def _interactive(
    session: Session, out: Console, title: str = "Thirteen Clues companion", prompt_text: str = f"{GAME}> "
) -> None:
    """The terminal loop: a setup dialogue, then a prompt with history, line editing and tab completion.

    Any session with ``handle``, ``setup_question``, ``completions`` and ``lines`` works (every game's)."""
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
        nonlocal session
        try:
            reply = session.handle(line)
        except AssistantError as exc:
            out.print(Text(f"error: {exc}", style="bold red"), soft_wrap=True)
            return True
        except KeyboardInterrupt:
            session = _rebuild(session)
            out.print(Text(f"interrupted: state rebuilt from the journal ({len(session.lines)} entries)", "yellow"))
            return True
        _print_reply(out, reply)
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


def _rebuild(old: Session) -> Session:
    """A fresh session from ``old``'s accepted lines (after an interrupt left it in doubt)."""
    session = type(old)(count_budget=old.count_budget, data=old.data)
    session.replay(old.lines)
    session.journal = old.journal
    if session.journal is not None:
        session.journal.save(session.lines)
    return session


@thirteen_app.command()
def analyze(
    file: Annotated[Path, typer.Argument(help="A game file or journal: one entry per line.", exists=True,
                                         dir_okay=False)],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final state as JSON (worlds, solved, mystery, ...).")
    ] = False,
    count_budget: Annotated[
        float, typer.Option(min=0.1, help="Seconds allowed for exact world counting before estimating.")
    ] = 2.0,
) -> None:
    """Replay a game file and print the final state (bad lines are reported on stderr; exit code 1 if any)."""
    err = Console(stderr=True)
    session = Session(count_budget=count_budget)
    try:
        errors = _replay_file(session, file, err)
        if session.knowledge is None:
            raise AssistantError(f"{file}: setup incomplete, still need {', '.join(session.setup.missing())}")
        if as_json:
            typer.echo(json.dumps(session.summary(), indent=2))
        else:
            out = Console()
            out.print(f"{file}: {len(session.lines)} entries")
            _print_reply(out, session.handle("show"))
    except AssistantError as exc:
        _fail(str(exc))
    if errors:
        raise typer.Exit(1)
