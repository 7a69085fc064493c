"""Every step of every generated explanation follows from its cited premises alone (an independent CP-SAT
check), in all the games that give chains; and ``why ... steps`` in each companion."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from assistant_cli.terminal import to_rich
from models import GAMES
from solver.exercises import game_explanations
from solver.session import read_lines
from solver.simulate import game_seed
from solver.steps_check import verify

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "thirteen-clues": "thirteen-clues-4p.txt",
    "beyond-baker-street": "beyond-baker-street-3p.txt",
    "evidence": "evidence-4p.txt",
    "time-bomb": "time-bomb-5p.txt",
}


def check(game: str, lines: list[str]) -> tuple[list[int], int]:
    """Chain lengths of the game's explanations (each step verified), and how many were counts instead."""
    t = GAMES[game].new_teacher()
    lengths: list[int] = []
    counted = 0
    for explained in game_explanations(t, lines):
        if explained.chain is None:
            counted += 1
            assert explained.note and explained.lines
            continue
        chain, ex = explained.chain, explained.explainer
        assert ex is not None and chain.steps[-1].fact in chain.targets
        for n in range(1, len(chain.steps) + 1):
            assert verify(ex, chain, n), (game, n, chain.steps[n - 1].sentence)
        lengths.append(len(chain.steps))
    return lengths, counted


@pytest.mark.parametrize("game", ["thirteen-clues", "beyond-baker-street", "evidence"])
def test_every_step_of_the_examples_explanations_is_verified(game: str) -> None:
    lines = [line.split("#", 1)[0].strip() for _, line in read_lines(ROOT / "examples" / EXAMPLES[game])]
    lengths, counted = check(game, lines)
    assert len(lengths) >= 5 and counted == 0
    assert max(lengths) >= 2  # chains, not only one-liners


def test_every_step_of_a_simulated_game_is_verified() -> None:
    t = GAMES["thirteen-clues"].new_teacher()
    lengths, _ = check("thirteen-clues", list(t.transcript(game_seed(0, 0), 4).lines))
    assert len(lengths) >= 10


@pytest.mark.slow
def test_verification_figures_over_simulated_games() -> None:
    """The figures of docs/teaching.md (bench/teaching.py prints the same with timings)."""
    for game in ["thirteen-clues", "beyond-baker-street", "evidence", "time-bomb"]:
        t = GAMES[game].new_teacher()
        lengths: list[int] = []
        counted = 0
        for g in range(8):
            more, c = check(game, list(t.transcript(game_seed(0, g), t.default_players).lines))
            lengths += more
            counted += c
        if game == "time-bomb":
            assert counted > 0 and not lengths
        else:
            assert lengths and statistics.median(lengths) >= 1


def run_lines(session: object, lines: list[str]) -> str:
    from rich.console import Console

    console = Console(width=400, record=True)
    reply = None
    for line in lines:
        reply = session.handle(line, show=False)  # type: ignore[attr-defined]
    assert reply is not None
    for renderable in reply.renderables:
        console.print(to_rich(renderable))
    return console.export_text()


def example(game: str) -> list[str]:
    return [line for _, line in read_lines(ROOT / "examples" / EXAMPLES[game])]


def test_why_steps_in_thirteen_clues() -> None:
    t = GAMES["thirteen-clues"].new_teacher()
    text = run_lines(t.new_session(), [*example("thirteen-clues"), "why Candlestick steps"])
    assert text.startswith("Why the Candlestick is in your mystery, step by step:")
    assert "[all needed; uses steps" in text and "Entry 19 'ask 4 White 1'" in text
    text = run_lines(t.new_session(), [*example("thirteen-clues"), "why Museum steps"])
    assert "is still open (probability 50.0%: 252 of 504 arrangements" in text


def test_why_steps_in_the_other_games() -> None:
    t = GAMES["beyond-baker-street"].new_teacher()
    lines = example("beyond-baker-street")
    upto = lines[: lines.index("assist 3 2 5 at 2 4") + 1]
    text = run_lines(t.new_session(), [*upto, "why 2 1C steps"])
    assert text.startswith("Why 1C is not at your position 2, step by step:")
    assert "'assist 3 2 5 at 2 4' (your position 2 is a 5)" in text and "[counts add up]" in text
    t = GAMES["evidence"].new_teacher()
    text = run_lines(t.new_session(), [*example("evidence"), "why brown 2 steps"])
    assert text.startswith("Why the brown evidence cannot be 2, step by step:")
    assert "'play 2 brown 2' says so directly" in text
    t = GAMES["time-bomb"].new_teacher()
    text = run_lines(t.new_session(), [*example("time-bomb"), "why inplay red 3 steps"])
    assert "there cannot be exactly 3 red cards in play" in text and "[counting]" in text
