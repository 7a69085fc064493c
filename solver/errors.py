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


class UnknownEntryError(InvalidObservationError):
    """A line whose first word is no entry of the game (nor a session command); the message points to 'help'."""

    def __init__(self, word: str, expected: str = "", close: str = "") -> None:
        self.word = word
        self.expected = expected
        detail = f" (did you mean '{close}'?)" if close else f" {expected}" if expected else ""
        super().__init__(f"unknown entry '{word}'{detail} (type 'help' for the entries and commands)")


class UnknownGameError(AssistantError):
    """A game name the assistant does not know."""


class ContradictionError(AssistantError):
    """An observation inconsistent with earlier ones; ``conflicts`` is a minimal set of them, ``reason`` what the
    game says about it. A companion session fills ``entries`` with the journal numbers of the earlier entries it
    contradicts (so the user can fix the wrong one) and rewords the message to name them."""

    def __init__(self, observation: Any, conflicts: Sequence[Any], reason: str | None = None) -> None:
        self.observation = observation
        self.conflicts = list(conflicts)
        self.reason = reason
        self.entries: list[int] = []
        if reason:
            msg = f"'{observation}' contradicts what you can see: {reason}"
        elif self.conflicts:
            earlier = "; ".join(f"'{c}'" for c in self.conflicts)
            msg = f"'{observation}' contradicts earlier entries: {earlier}"
        else:
            msg = f"'{observation}' contradicts what you can see (the setup)"
        super().__init__(msg)
