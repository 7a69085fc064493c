"""Character cards that move cards unseen or let one player see a card (Lady Eva Blackwell's draw of two, Toby's
look at the top card, Langdale Pike's swap, Mrs Hudson's return), two Assists as one action (Lady Hilda Hope) and
Baskerville's exchange, against the brute force that replays the card flow (bbs_reference): in random games at
2, 3 and 4 players, from every seat, the exact model's world count equals the number of distinct hands and its
probabilities equal the histories'."""

from __future__ import annotations

import pytest
from bbs_reference import compare, game_states

from models.beyond_baker_street.observations import Buried, HandSwapped, Peeked, Returned

MOVERS = {
    "Lady Eva Blackwell": Buried,
    "Toby": Peeked,
    "Langdale Pike": HandSwapped,
    "Mrs Hudson": Returned,
    "Lady Hilda Hope": None,
    "Sir Henry Baskerville": None,
}
QUIET = ("Lestrade", "Gregson", "Baynes")  # the other seats: Characters that move no card


def _check(name: str, players: int, games: int, limit: int = 800) -> tuple[int, int]:
    """(states compared, states right after the Character's own entry compared); asserts every one agrees."""
    compared = after = 0
    for g in range(games):
        chars = (name, *QUIET[: players - 1])
        chars = chars[g % players:] + chars[: g % players]  # the Character moves around the table
        seat = g // players % players + 1
        for _st, kn in game_states(players, 1 + g % 3, 500 * players + g, characters=chars, seat=seat,
                                   max_turns=60):
            if kn.worlds() > limit:
                continue
            result = compare(kn, limit)
            if result is None:
                continue
            assert result[0], f"{name}, {players} players, game {g}, seat {seat}: {kn.entries[-1]}"
            compared += 1
            kind = MOVERS[name]
            after += kind is not None and isinstance(kn.entries[-1], kind)
    return compared, after


SLOW = pytest.mark.slow


@pytest.mark.parametrize("players", [pytest.param(2, marks=SLOW), 3, pytest.param(4, marks=SLOW)])
@pytest.mark.parametrize("name", list(MOVERS))
def test_character_histories_agree_with_the_brute_force(name: str, players: int) -> None:
    compared, after = _check(name, players, games=players * 2)
    assert compared > 20
    if name in ("Lady Eva Blackwell", "Toby"):  # repeatable; the once-per-game swap is checked in test_bbs_characters
        assert after > 0, f"no state right after a {name} entry was compared"
