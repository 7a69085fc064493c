"""The names of the hard model's world variables, shared by the engine and the knowledge model.

A world gives every physical card (an *instance*, ``red3``) in every round a value: ``out`` or a slot
``s<seat>.<k>`` (see :mod:`models.time_bomb.counting`). The engine writes its true hidden world in these names
for the soundness checks (:meth:`models.time_bomb.rules.TimeBombState.true_world`) and the knowledge model
builds its constraints with them, so the naming lives here, below both: the rules never import the model.
"""

from __future__ import annotations

OUT = "out"

Instance = tuple[str, int]


def instance_name(card: Instance) -> str:
    """``('red', 3)`` -> ``red3``."""
    return f"{card[0]}{card[1]}"


def instance_variable(round_: int, card: Instance) -> str:
    """The variable of ``card`` in round ``round_``: ``r2:red3``."""
    return f"r{round_}:{instance_name(card)}"


def slot_value(seat: int, index: int) -> str:
    """The value "the ``index``-th card of ``seat``'s hand this round": ``s4.2``."""
    return f"s{seat}.{index}"
