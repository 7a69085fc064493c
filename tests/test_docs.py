"""Every command the README and docs/*.md show still runs as written, and every relative link points to a file.

The commands are taken from the fenced code blocks (a leading ``$ `` prompt is dropped; ``.venv/bin/assist``
counts as ``assist``). Each ``assist`` command is walked through the real Click command tree: every
sub-command must exist, every ``--option`` must be one the command takes (so it appears in its ``--help``), and
no more positional arguments than it accepts. The cheap ones, with no placeholder (``FILE``, ``GAME_SEED``, a
file that is not shipped), are then run for real with ``python -m assistant_cli`` (analyze and piped games of
the shipped examples, ``games``, ``--version``); simulations and the demo are long, so only their options are
checked. A ``python bench/X.py`` command must name an existing script and options it declares.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer

from assistant_cli.main import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINKED = [*DOCS, ROOT / "bench" / "README.md"]
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*$|DATE|\.\.\.")
SLOW = {"simulate", "demo"}  # run for minutes (or seconds): their options are checked, they are not run


@dataclass(frozen=True)
class Shown:
    """One command shown in a fenced block: where, its words (no comment, no redirection) and its stdin file."""

    where: str
    words: tuple[str, ...]
    stdin: str | None

    def __str__(self) -> str:
        return f"{self.where}: {' '.join(self.words)}"


def fenced_lines(path: Path) -> list[tuple[int, str]]:
    """The lines inside fenced code blocks, with their line numbers."""
    lines, inside = [], False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.lstrip().startswith("```"):
            inside = not inside
        elif inside:
            lines.append((number, line))
    return lines


def shown_commands() -> list[Shown]:
    """Every ``assist`` and ``python bench/...`` command of the fenced blocks (each part of an ``&&`` chain)."""
    found = []
    for path in DOCS:
        for number, line in fenced_lines(path):
            text = line.strip().removeprefix("$ ")
            for part in text.split("&&"):
                part = re.split(r"\s#\s|\s#$|\|", part)[0].strip()
                if not re.match(r"^(\.venv/bin/)?(assist(\s|$)|python3? bench/)", part):
                    continue
                words = [w.strip("[]") for w in shlex.split(part)]
                words[0] = words[0].removeprefix(".venv/bin/")
                stdin = None
                if "<" in words:
                    at = words.index("<")
                    stdin, words = words[at + 1], words[:at]
                found.append(Shown(f"{path.relative_to(ROOT)}:{number}", tuple(w for w in words if w), stdin))
    return found


COMMANDS = shown_commands()
ASSIST = [c for c in COMMANDS if c.words[0] == "assist"]
BENCH = [c for c in COMMANDS if c.words[0] != "assist"]


def walk(shown: Shown) -> tuple[list[str], bool]:
    """Check ``shown`` against the command tree; return its command path and whether every argument is real."""
    command = typer.main.get_command(app)
    path: list[str] = []
    positionals = 0
    concrete = True
    words = list(shown.words[1:])
    while words:
        word = words.pop(0)
        if isinstance(command, typer.core.TyperGroup) and not word.startswith("-") and not positionals:
            sub = command.get_command(typer.Context(command), word)
            assert sub is not None, f"{shown}: no command '{' '.join([*path, word])}'"
            command, path = sub, [*path, word]
            continue
        if word.startswith("-"):
            name = word.split("=", 1)[0]
            option = next((p for p in command.params if name in (*p.opts, *p.secondary_opts)), None)
            if name == "--help":
                continue
            assert option is not None, f"{shown}: 'assist {' '.join(path)}' has no option {name}"
            if not getattr(option, "is_flag", False) and "=" not in word:
                value = words.pop(0)
                concrete = concrete and not PLACEHOLDER.search(value)
            continue
        positionals += 1
        arguments = [p for p in command.params if isinstance(p, typer.core.TyperArgument)]
        assert positionals <= len(arguments), f"{shown}: too many arguments for 'assist {' '.join(path)}'"
        if PLACEHOLDER.search(word):
            concrete = False
        elif "/" in word or "." in word:  # a file argument (a game name such as 'thirteen-clues' is not)
            assert (ROOT / word).exists(), f"{shown}: {word} is not in the repository"
    if shown.stdin is not None and (PLACEHOLDER.search(shown.stdin) or not (ROOT / shown.stdin).exists()):
        concrete = False
    return path, concrete


def test_the_docs_show_commands() -> None:
    """The extraction finds what the README and every game page show (a broken extractor would pass vacuously)."""
    where = {c.where.split(":")[0] for c in ASSIST}
    assert {"README.md", "docs/thirteen-clues.md", "docs/evidence.md", "docs/time-bomb.md"} <= where
    assert any(c.words == ("assist", "demo") for c in ASSIST)  # the second of the README's two commands


@pytest.mark.parametrize("shown", ASSIST, ids=str)
def test_each_assist_command_and_option_exists(shown: Shown) -> None:
    walk(shown)


def runnable() -> list[Shown]:
    """The shown commands cheap enough to run, once each."""
    seen: dict[tuple[tuple[str, ...], str | None], Shown] = {}
    for shown in ASSIST:
        try:
            path, concrete = walk(shown)
        except AssertionError:
            continue  # test_each_assist_command_and_option_exists reports it
        if concrete and not SLOW & set(path) and (len(path) > 1 or shown.stdin or path in ([], ["games"])):
            seen.setdefault((shown.words, shown.stdin), shown)
    return list(seen.values())


@pytest.mark.parametrize("shown", runnable(), ids=str)
def test_cheap_commands_run(shown: Shown) -> None:
    stdin = (ROOT / shown.stdin).read_text() if shown.stdin else ""
    result = subprocess.run([sys.executable, "-m", "assistant_cli", *shown.words[1:]], cwd=ROOT, input=stdin,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, f"{shown}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    assert result.stdout.strip()


def test_the_shown_runs_include_the_examples() -> None:
    ran = {" ".join(c.words) for c in runnable()}
    assert "assist evidence analyze examples/evidence-4p.txt" in ran and "assist games" in ran


@pytest.mark.parametrize("shown", BENCH, ids=str)
def test_each_bench_command_names_a_script_and_its_options(shown: Shown) -> None:
    script = ROOT / shown.words[1]
    assert script.is_file(), f"{shown}: no script {shown.words[1]}"
    source = script.read_text()
    for word in shown.words[2:]:
        if word.startswith("--"):
            assert f'"{word.split("=")[0]}"' in source, f"{shown}: {script.name} declares no option {word}"


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"\s", "-", text)


def anchors(path: Path) -> set[str]:
    inside, found = False, set()
    for line in path.read_text().splitlines():
        if line.lstrip().startswith("```"):
            inside = not inside
        elif not inside and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


@pytest.mark.parametrize("page", LINKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_to_existing_files(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    links = re.findall(r"\[[^\]]*\]\(([^)\s]+)\)", text)
    for link in links:
        if re.match(r"^[a-z]+:", link):
            continue
        target, _, anchor = link.partition("#")
        resolved = (page.parent / target).resolve() if target else page
        assert resolved.exists(), f"{page.relative_to(ROOT)}: link {link} points to no file"
        if anchor and resolved.suffix == ".md":
            assert anchor in anchors(resolved), f"{page.relative_to(ROOT)}: link {link}: no such heading"


def test_the_readme_short_session_shows_real_output() -> None:
    """The README's short session is the tail of what the command prints today, line for line."""
    lines = [line for _, line in fenced_lines(ROOT / "README.md")]
    start = lines.index("$ assist thirteen-clues < examples/thirteen-clues-short.txt")
    shown = lines[start + 2:lines.index("  1. accuse 2 Butcher Theater Poison wrong", start) + 1]
    stdin = (ROOT / "examples" / "thirteen-clues-short.txt").read_text()
    env = {**os.environ, "COLUMNS": "80"}
    result = subprocess.run([sys.executable, "-m", "assistant_cli", "thirteen-clues"], cwd=ROOT, input=stdin,
                            capture_output=True, text=True, timeout=300, check=True, env=env)
    output = [line.rstrip() for line in result.stdout.splitlines()]
    assert output[-len(shown):] == shown
