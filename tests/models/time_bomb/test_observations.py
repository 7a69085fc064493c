import pytest

from models.time_bomb.observations import (
    Claim,
    Cover,
    Cut,
    Draw,
    Hand,
    Me,
    Players,
    Redeal,
    Role,
    Say,
    Start,
    Target,
    Uncover,
    parse,
    parse_action,
)
from solver.errors import InvalidObservationError

ENTRIES = [
    Players(5),
    Me(3),
    Role("moriarty"),
    Start(2),
    Hand(("red", "defuse", "pink", "pink", "green")),
    Redeal(("blue", "defuse")),
    Redeal(()),
    Claim(4, 1),
    Cut(2, "yellow"),
    Cut(1, "defuse"),
    Cover("green"),
    Uncover("pink"),
    Draw(0),
]


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_round_trip(entry) -> None:
    assert parse(str(entry)) == entry


@pytest.mark.parametrize("action", [Target(4), Say(2), Cover("red"), Uncover("blue")], ids=str)
def test_action_round_trip(action) -> None:
    assert parse_action(str(action)) == action


def test_hands_are_sorted_and_repeat_syntax() -> None:
    assert parse("hand 2xred def pi") == Hand(("defuse", "pink", "red", "red"))
    assert str(parse("hand red*2 defuse")) == "hand defuse red red"
    assert parse("redeal none") == Redeal(())


def test_prefixes_and_comments() -> None:
    assert parse("cut 3 def  # lucky") == Cut(3, "defuse")
    assert parse("role s") == Role("sherlock")
    assert parse("cover gr") == Cover("green")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("cut 3 purple", "unknown card 'purple'"),
        ("cut 3 rde", "did you mean 'red'"),
        ("claim 3", "expected 'claim SEAT DEFUSERS'"),
        ("claim 3 -1", "defusers -1: expected a whole number from 0 to 5"),
        ("cover defuse", "unknown colour 'defuse'"),
        ("draw x", "number 'x': expected a whole number"),
        ("dance 3", "unknown entry 'dance'"),
        ("redeal", "expected my new cards"),
        ("", "empty line"),
    ],
)
def test_errors_name_the_input(line: str, message: str) -> None:
    with pytest.raises(InvalidObservationError, match=message):
        parse(line)
