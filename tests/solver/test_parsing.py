"""The one number parser every entry and session command uses: ASCII digits, bounded length, a range."""

from __future__ import annotations

import pytest

from solver.errors import InvalidObservationError
from solver.parsing import is_whole, parse_fraction, parse_int


@pytest.mark.parametrize(("token", "value"), [("0", 0), ("6", 6), ("-1", -1), ("006", 6)])
def test_whole_numbers_in_range_are_read(token: str, value: int) -> None:
    assert parse_int(token, "seat", -1, 6) == value


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("²", "seat '²': expected a whole number from 1 to 6"),  # isdigit() says yes, int() raises
        ("٣", "seat '٣': expected a whole number from 1 to 6"),  # int() would read it as 3
        ("1_0", "seat '1_0': expected a whole number from 1 to 6"),  # int() would read it as 10
        ("+3", "seat '+3'"),
        ("3.0", "seat '3.0'"),
        ("", "seat '': expected"),
        ("7", "seat 7: expected a whole number from 1 to 6"),
        ("0", "seat 0: expected a whole number from 1 to 6"),
        ("1" * 5000, "(5000 characters)': expected a whole number from 1 to 6"),  # never converted
    ],
)
def test_other_tokens_are_refused_with_the_range(token: str, message: str) -> None:
    with pytest.raises(InvalidObservationError) as info:
        parse_int(token, "seat", 1, 6)
    assert message in str(info.value)
    assert len(str(info.value)) < 120  # a huge token is cut short in the message


def test_is_whole_tells_a_number_from_a_name() -> None:
    assert is_whole("12") and is_whole("-3")
    assert not is_whole("²") and not is_whole("3W") and not is_whole("left")


@pytest.mark.parametrize(("token", "value"), [("0", 0.0), ("1", 1.0), ("0.25", 0.25), (".5", 0.5), ("1.", 1.0)])
def test_fractions_are_read(token: str, value: float) -> None:
    assert parse_fraction(token, "rate") == value


@pytest.mark.parametrize("token", ["nan", "inf", "1e-3", "-0.1", "1.5", "0,5", "٠.٥", "0.1.2", "."])
def test_other_fractions_are_refused_with_the_range(token: str) -> None:
    with pytest.raises(InvalidObservationError, match="expected a number from 0 to 1"):
        parse_fraction(token, "rate")
