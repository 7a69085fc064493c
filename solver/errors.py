"""One hierarchy of ``ValueError`` subclasses. The CLI catches :class:`AssistantError` and prints one line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class AssistantError(ValueError):
    """Base of every error caused by user input or an illegal request."""


class InvalidObservationError(AssistantError):
    """An observation that cannot be read or is out of range (unknown card, impossible count, wrong seat)."""


class IllegalActionError(AssistantError):
    """An action the rules do not allow in the current game state."""


class UnknownGameError(AssistantError):
    """A game name the assistant does not know."""


class ContradictionError(AssistantError):
    """An observation inconsistent with earlier ones; ``conflicts`` is a minimal set of them."""

    def __init__(self, observation: Any, conflicts: Sequence[Any], reason: str | None = None) -> None:
        self.observation = observation
        self.conflicts = list(conflicts)
        if reason:
            msg = f"'{observation}' contradicts what you can see: {reason}"
        elif self.conflicts:
            earlier = "; ".join(f"'{c}'" for c in self.conflicts)
            msg = f"'{observation}' contradicts earlier entries: {earlier}"
        else:
            msg = f"'{observation}' contradicts what you can see (the setup)"
        super().__init__(msg)
