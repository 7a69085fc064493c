"""Beyond Baker Street advisor: ranked actions with reasons, and the bots the simulations use.

This module is the advisor's public face: :func:`advise` and the bots by name (:func:`make_bot`). The work is
done below it, in modules whose imports never go round in a circle (a test parses them all):

- :mod:`~models.beyond_baker_street.advice`: the shared pieces (:class:`Weights`, :class:`Advice`, the
  :class:`Situation` and its value tables), imported by all the others;
- :mod:`~models.beyond_baker_street.characters`: Character cards in the advice;
- :mod:`~models.beyond_baker_street.plain`: the plain advisor (:func:`advise`, the Assist values, the
  ``random`` and ``advisor`` bots; its docstring says how the advice is valued);
- :mod:`~models.beyond_baker_street.hat`: the hat convention and its bot, on top of the plain advisor.

Bots: ``random``, ``advisor`` (every seat follows the top advice) and ``hat`` (the advisor playing the hat
convention, which needs every seat to play it).
"""

from __future__ import annotations

import random

from models.beyond_baker_street.advice import (
    DEFAULT_WEIGHTS,
    ICON_OF,
    NUMBER_OF,
    Advice,
    Situation,
    Weights,
    completions,
    jointly_reachable,
    my_distribution,
    narrowed,
    pairs,
    reachable,
)
from models.beyond_baker_street.hat import HatBot
from models.beyond_baker_street.plain import (
    AdvisorBot,
    Outlook,
    RandomBot,
    advise,
    advise_in,
    assist_values,
    hint_value,
    hint_values,
)
from solver.errors import AssistantError

BOTS = ("random", "advisor", "hat")


def make_bot(name: str, seat: int, rng: random.Random) -> RandomBot | AdvisorBot:
    """A bot by name: ``random``, ``advisor``, or ``hat`` (the advisor playing the hat convention,
    :mod:`models.beyond_baker_street.hat`, which needs every seat to play it)."""
    if name == "random":
        return RandomBot(seat, rng)
    if name == "advisor":
        return AdvisorBot(seat, rng)
    if name == "hat":
        return HatBot(seat, rng)
    raise AssistantError(f"unknown bot '{name}': expected one of {', '.join(BOTS)}")


__all__ = [
    "BOTS", "DEFAULT_WEIGHTS", "ICON_OF", "NUMBER_OF", "Advice", "AdvisorBot", "HatBot", "Outlook", "RandomBot",
    "Situation", "Weights", "advise", "advise_in", "assist_values", "completions", "hint_value", "hint_values",
    "jointly_reachable", "make_bot", "my_distribution", "narrowed", "pairs", "reachable",
]
