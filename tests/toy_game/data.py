"""Toy Cards data: the cards and the places a card can be (a seat, or the mystery)."""

from __future__ import annotations

from solver.names import Names

CARDS = ("Ace", "King", "Queen", "Jack")
CARD_NAMES = Names(CARDS, "card")
MYSTERY = "mystery"
MAX_TURNS = 12  # turns before a game with no guess is a draw


def cards_in_play(players: int) -> tuple[str, ...]:
    """One card per player and one for the mystery."""
    return CARDS[: players + 1]


def places(players: int) -> tuple[str, ...]:
    """Every place a card can be: the seats ('1'...) and the mystery."""
    return (*(str(s) for s in range(1, players + 1)), MYSTERY)
