"""Name resolution shared by every parser: case, spacing, prefixes, ambiguity and suggestions."""

from __future__ import annotations

import pytest

from solver.errors import InvalidObservationError
from solver.names import SMALL, Names, normalize, table_names

CARDS = Names(["Butcher", "Rail Car", "Race Course", "Parlor", "Park", "Poison", "Butcher"], "card")


def test_normalize_ignores_case_spaces_and_punctuation() -> None:
    assert normalize("Rail-Car ") == "railcar"
    assert normalize("RACE course") == "racecourse"


def test_duplicates_are_dropped_in_order() -> None:
    assert CARDS.names == ["Butcher", "Rail Car", "Race Course", "Parlor", "Park", "Poison"]


@pytest.mark.parametrize(
    ("typed", "name"),
    [("butcher", "Butcher"), ("RAILCAR", "Rail Car"), ("rail car", "Rail Car"), ("But", "Butcher"), ("pois", "Poison"),
     ("park", "Park")],
)
def test_resolve_exact_or_unique_prefix(typed: str, name: str) -> None:
    assert CARDS.resolve(typed) == name


def test_prefix_is_not_membership() -> None:
    assert "But" not in CARDS
    assert "Butcher" in CARDS


def test_ambiguous_prefix_lists_the_candidates() -> None:
    with pytest.raises(InvalidObservationError, match="card 'Pa' is ambiguous: 'Parlor', 'Park'"):
        CARDS.resolve("Pa")


def test_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(InvalidObservationError, match=r"unknown card 'Bucher' \(did you mean 'Butcher'\?\)"):
        CARDS.resolve("Bucher")
    with pytest.raises(InvalidObservationError) as info:  # nothing close, a small vocabulary: every name
        CARDS.resolve("zzz")
    assert str(info.value) == "unknown card 'zzz' (expected Butcher, Rail Car, Race Course, Parlor, Park or Poison)"
    many = Names([f"Card{i}" for i in range(SMALL + 1)], "card")
    with pytest.raises(InvalidObservationError, match=r"^unknown card 'zzz'$"):  # a long list is no help
        many.resolve("zzz")
    with pytest.raises(InvalidObservationError, match="unknown card ''"):
        CARDS.resolve("")


def test_a_typo_equally_close_to_two_names_suggests_both_and_a_table_limits_the_names() -> None:
    colours = Names(["red", "rod", "blue", "orange"], "colour", table="colour")
    with pytest.raises(InvalidObservationError) as info:
        colours.resolve("rxd")
    assert str(info.value) == "unknown colour 'rxd' (did you mean 'red' or 'rod'?)"
    with table_names({"colour": ("red", "blue")}):
        with pytest.raises(InvalidObservationError) as info:
            colours.resolve("rxd")
        assert str(info.value) == "unknown colour 'rxd' (did you mean 'red'?)"
        with pytest.raises(InvalidObservationError) as info:
            colours.resolve("oranje")  # close only to a colour this table has not
        assert str(info.value) == "unknown colour 'oranje' (expected red or blue)"
        assert colours.resolve("orange") == "orange"  # still read: the game's rules say it is not in play
    with pytest.raises(InvalidObservationError) as info:
        colours.resolve("oranje")
    assert str(info.value) == "unknown colour 'oranje' (did you mean 'orange'?)"


def test_take_reads_two_word_names() -> None:
    tokens = ["Rail", "Car", "Race", "Course", "butch"]
    name, i = CARDS.take(tokens, 0)
    assert (name, i) == ("Rail Car", 2)
    name, i = CARDS.take(tokens, i)
    assert (name, i) == ("Race Course", 4)
    assert CARDS.take(tokens, i) == ("Butcher", 5)
    with pytest.raises(InvalidObservationError, match="missing card"):
        CARDS.take(tokens, 5)


def test_take_prefers_a_one_word_name_when_it_exists() -> None:
    names = Names(["Rail", "Rail Car", "Car"], "thing")
    assert names.take(["Rail", "Car"], 0) == ("Rail", 1)
    assert names.take(["railcar"], 0) == ("Rail Car", 1)
