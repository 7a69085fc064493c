"""Small wording helpers shared by every game's messages (so ``1 entry`` and ``2 entries`` read right)."""

from __future__ import annotations


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` with ``noun`` in the right number: ``1 entry``, ``2 entries``, ``0 defusing cards``.

    ``many`` gives an irregular plural; otherwise a consonant + y becomes "ies" and anything else takes "s"."""
    if n == 1:
        return f"{n} {noun}"
    if many is None:
        many = noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"
    return f"{n} {many}"


def off_turn(seat: int, assumes: str) -> str:
    """The first line of advice asked off my turn, worded the same in every game: whose turn it is, that the
    advice is what I would do now, and what it assumes about the moves until my turn."""
    return f"(it is player {seat}'s turn, not yours; this is what you would do now: {assumes})"


#: How close to 0 or 1 a computed probability must be to be shown as exactly 0% or 100% (float sums of exact
#: counts land a few ulps away).
EXACT = 1e-12


def percent(p: float) -> str:
    """``p`` as a whole percentage that never rounds a possibility away: 0% and 100% only for what is impossible
    or certain; a chance under 1% is "<1%", one above 99% ">99%" (so the rest rounds to 1..99)."""
    if p <= EXACT:
        return "0%"
    if p >= 1 - EXACT:
        return "100%"
    if p < 0.01:
        return "<1%"
    if p > 0.99:
        return ">99%"
    return f"{100 * p:.0f}%"
