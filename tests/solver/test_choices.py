"""Every entry by taps (issue 19 §2): for every registered game, every shipped example and seeded simulated
games are entered with zero typed characters through ``BaseSession.choices``, at a median of 3 taps or fewer
per entry; the shared commands' choices ('edit N', 'drop N', 'show brief') and Tab completion's words."""

from __future__ import annotations

import statistics

import pytest

from models import GAMES
from solver.session import Choice, split_text, tap_path
from tests.solver.choices_helpers import example_lines, session_at

EXAMPLES = {"thirteen-clues": ["thirteen-clues-4p.txt", "thirteen-clues-short.txt"],
            "beyond-baker-street": ["beyond-baker-street-3p.txt"], "evidence": ["evidence-4p.txt"],
            "time-bomb": ["time-bomb-5p.txt"]}


def taps_of(game: str, lines: list[str]) -> list[int]:
    """Taps per entry entering ``lines`` into a new session of ``game``; fails on a word never offered."""
    session = GAMES.get(game).new_session()
    counts = []
    for line in lines:
        path = tap_path(session, line)
        assert path is not None, f"{game}: '{line}' cannot be tapped after {session.lines[-3:]}"
        counts.append(len(path))
        session.handle(line, show=False)
    return counts


def test_every_game_has_its_examples_listed() -> None:
    assert sorted(EXAMPLES) == sorted(GAMES.names())


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_every_shipped_example_is_entered_by_taps(game: str) -> None:
    for example in EXAMPLES[game]:
        counts = taps_of(game, example_lines(example))
        assert statistics.median(counts) <= 3, (example, counts)


def _seeded(game: str, seed: int) -> list[str]:
    teacher = GAMES.get(game).new_teacher()
    return list(teacher.transcript(seed, teacher.default_players).lines)


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_a_seeded_simulated_game_is_entered_by_taps(game: str) -> None:
    counts = taps_of(game, _seeded(game, 1))
    assert statistics.median(counts) <= 3, counts


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_more_seeded_simulated_games_are_entered_by_taps(game: str, seed: int) -> None:
    counts = taps_of(game, _seeded(game, seed))
    assert statistics.median(counts) <= 3, counts


def test_tap_path_takes_the_longest_phrase_and_ends_without_enter() -> None:
    session = session_at("thirteen-clues", "thirteen-clues-4p.txt", 6)
    path = tap_path(session, "ask 4 Green 1")
    assert [c.word for c in path] == ["ask 4", "Green", "1"]
    assert tap_path(session, "ask 4 Green 7") is None  # a count the knowledge rules out is never offered
    path = tap_path(session, "why Theater")
    assert [c.word for c in path] == ["why", "Theater", ""]  # the place is optional: the Enter tap sends it


def test_drop_and_edit_offer_the_entry_numbers_and_edit_the_choices_where_the_entry_stands() -> None:
    session = session_at("beyond-baker-street", "beyond-baker-street-3p.txt", 12)
    assert [(c.word, c.ends) for c in session.choices("drop ")] == [(str(i), True) for i in range(1, 13)]
    assert session.choices("drop 3 ") == []
    assert [c.label for c in session.choices("edit ")][:2] == ["1: players 3", "2: me 2"]
    # Entry 11 was player 1's draw: its edit offers the draw again, with the cards that were unseen then.
    assert [c.word for c in session.choices("edit 11 ")] == ["draw 1"]
    assert "2D" in [c.word for c in session.choices("edit 11 draw 1 ")]
    assert session.choices("edit 99 ") == []


def test_show_brief_and_commands_without_arguments() -> None:
    session = session_at("time-bomb", "time-bomb-5p.txt", 3)
    assert session.choices("show ") == [Choice("brief", ends=True)]
    assert session.choices("history ") == [] and session.choices("undo ") == []


def test_completions_are_the_first_words_of_the_choices_once_each() -> None:
    session = session_at("thirteen-clues", "thirteen-clues-4p.txt", 6)
    assert session.completions("as") == ["ask"]
    assert session.completions("ask") == ["ask"]  # a whole word still completes: the terminal adds the space
    assert session.completions("ask 4 Gr") == ["Green"]
    assert session.completions("inf") == ["informant"]
    assert session.completions("informant A b") == ["Butcher", "Blowgun", "by"]  # the cards it can be, or "by"


def test_split_text() -> None:
    assert split_text("") == ([], "")
    assert split_text("ask 3") == (["ask"], "3")
    assert split_text("ask 3 ") == (["ask", "3"], "")


HOSTILE_WORDS = ["", "me", "0", "-1", "99", "999999999999", "x", "é", "Race", "Course", "by", "and", "at", "for",
                 "steps", "1", "2", "3", "Duke", "3D", "red", "blue", "white", "Clue", "left", "2xred", "'", "edit",
                 "drop", "why", "Motive", "top", "evidence"]


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_hostile_text_gets_no_choice_and_no_traceback(game: str) -> None:
    """Seeded random lines of entry verbs and odd words: choices and completions answer (often nothing) and
    never raise; whatever they offer, the same text with it is a text they answer again."""
    import random

    rng = random.Random(7)
    example = EXAMPLES[game][0]
    for n in (0, 5, 20):
        session = session_at(game, example, n)
        verbs = sorted({c.word.split()[0] for c in session.choices("")} | {"edit", "drop", "why", "whatif"})
        for _ in range(150):
            words = [rng.choice(verbs), *(rng.choice(HOSTILE_WORDS) for _ in range(rng.randint(0, 5)))]
            text = " ".join(words) + rng.choice(["", " "])
            found = session.choices(text)
            session.completions(text)
            if found:
                session.choices(f"{text.rsplit(' ', 1)[0]} {found[0].word} ")
