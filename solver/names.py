"""Resolving what a player types to a known name: case-insensitive, unique prefixes, "did you mean".

Shared by every game's parser so that card, suit and command names behave the same everywhere.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from solver.errors import InvalidObservationError


def normalize(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


class Names:
    """A vocabulary of display names; :meth:`resolve` maps typed text to one of them or raises."""

    def __init__(self, names: Iterable[str], kind: str) -> None:
        self.names = list(dict.fromkeys(names))
        self.kind = kind
        self._by_key = {normalize(n): n for n in self.names}

    def __contains__(self, text: str) -> bool:
        return normalize(text) in self._by_key

    def resolve(self, text: str) -> str:
        key = normalize(text)
        if key in self._by_key:
            return self._by_key[key]
        matches = [n for k, n in self._by_key.items() if key and k.startswith(key)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            shown = ", ".join(f"'{m}'" for m in matches[:6])
            raise InvalidObservationError(f"{self.kind} '{text}' is ambiguous: {shown}")
        close = difflib.get_close_matches(key, list(self._by_key), n=1, cutoff=0.6)
        hint = f" (did you mean '{self._by_key[close[0]]}'?)" if close else ""
        raise InvalidObservationError(f"unknown {self.kind} '{text}'{hint}")

    def take(self, tokens: Sequence[str], start: int) -> tuple[str, int]:
        """Resolve the name starting at ``tokens[start]``; two-word names may be typed with a space.

        Returns the name and the index after it.
        """
        if start >= len(tokens):
            raise InvalidObservationError(f"missing {self.kind}")
        if start + 1 < len(tokens):
            joined = normalize(tokens[start] + tokens[start + 1])
            if joined in self._by_key and normalize(tokens[start]) not in self._by_key:
                return self._by_key[joined], start + 2
        return self.resolve(tokens[start]), start + 1
