"""Evidence observations and actions: str/parse round trips and clear parse errors."""

from __future__ import annotations

import random

import pytest

from models.evidence.observations import (
    Done,
    EvidenceShown,
    Hand,
    Holds,
    Look,
    Me,
    Play,
    Players,
    PlayRumour,
    Reveal,
    Search,
    SetupRumours,
    Start,
    Take,
    TimeOut,
    ToolUsed,
    Uncover,
    Unknown,
    UseTimeOut,
    UseTool,
    Values,
    Variant,
    colour_of,
    parse,
    parse_action,
)
from models.evidence.rules import new_game
from solver.errors import InvalidObservationError

ENTRIES = [
    Players(4),
    Me(2),
    Variant(True),
    Variant(False),
    Start(3),
    Values("blue", (-1, 0, 1, 2, 3, 3)),
    SetupRumours((("white", 3), ("blue", -1))),
    Hand((("white", 2), ("blue", -1), ("pink", 4), ("pink", 0), ("green", 1), ("brown", 3))),
    Holds(3, (("white", 2), ("blue", 1), ("brown", 3))),
    Holds(4, ()),
    Unknown(1, (("yellow", 6),)),
    Play(3, "blue", 2),
    Play(1, "white", -1),
    Reveal(2, "pink", 4),
    EvidenceShown("green", 0),
    Look("yellow", -1),
    Search(4, ("blue", "blue", "green")),
    TimeOut(2, "blue", ("green", "yellow")),
    ToolUsed(1, "fortune", "blue"),
    ToolUsed(1, "balloon", "green"),
    ToolUsed(1, "timeout", "blue", ("white",)),
    ToolUsed(5, "typewriter"),
    ToolUsed(5, "plane"),
    ToolUsed(5, "telescope"),
]

ACTIONS = [
    Uncover("brown"),
    PlayRumour("blue", -1),
    Take("yellow"),
    Done(),
    UseTimeOut("blue", ("green", "green")),
    UseTool("fortune", "white"),
    UseTool("balloon", "pink"),
    UseTool("timeout", "blue", ("green",)),
    UseTool("telescope"),
]


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_entry_round_trip(entry: object) -> None:
    assert parse(str(entry)) == entry


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_action_round_trip(action: object) -> None:
    assert parse_action(str(action)) == action


def test_every_engine_observation_round_trips() -> None:
    rng = random.Random(0)
    for seed in range(10):
        st = new_game(random.Random(seed), 2 + seed % 4, pro=seed % 2 == 1)
        while not st.is_terminal():
            legal = st.legal_actions()
            assert all(parse_action(str(a)) == a for a in legal)
            st.apply(rng.choice(legal))
        for seat in range(1, st.num_players + 1):
            for obs in st.take_observations(seat):
                assert parse(str(obs)) == obs


def test_names_prefixes_and_mystery_names() -> None:
    assert colour_of("Yeti") == "white"
    assert colour_of("sea monster".replace(" ", "")) == "blue"
    assert colour_of("mummy") == "yellow"
    assert colour_of("bl") == "blue" and colour_of("BR") == "brown"
    assert parse("play 2 Yeti 3") == Play(2, "white", 3)
    assert parse("tool 2 Fortune-Teller blue") == ToolUsed(2, "fortune", "blue")
    assert parse("holds 3 none") == Holds(3, ())
    assert parse("play 2 blue 3  # a comment") == Play(2, "blue", 3)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("play 2 b 3", "ambiguous"),
        ("play 2 blu", "expected 'play SEAT COLOUR VALUE'"),
        ("play x blue 3", "seat 'x': expected a whole number"),
        ("play 2 purple 3", "unknown mystery colour 'purple'"),
        ("hand blue 2 white", "colour-value pairs"),
        ("holds 2 blue -1", "count -1: expected a whole number from 0 to 6"),
        ("holds 2 blue 1 blue 2", "given twice"),
        ("timeout 2 blue green", "expected 'timeout SEAT COLOUR for COLOUR"),
        ("variant expert", "expected 'variant basic|pro'"),
        ("tool 2 hammer", "unknown tool 'hammer'"),
        ("tool 2 fortune", "expected 'tool SEAT fortune COLOUR'"),
        ("tool 2 telescope blue", "unexpected 'blue'"),
        ("dance 3", "unknown entry 'dance'"),
        ("", "empty line"),
    ],
)
def test_parse_errors_are_one_clear_line(line: str, message: str) -> None:
    with pytest.raises(InvalidObservationError, match=message) as info:
        parse(line)
    assert "\n" not in str(info.value)


def test_action_parse_errors() -> None:
    with pytest.raises(InvalidObservationError, match="unknown action"):
        parse_action("jump")
    with pytest.raises(InvalidObservationError, match="expected 'take COLOUR'"):
        parse_action("take blue green")
