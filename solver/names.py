"""Resolving what a player types to a known name: case-insensitive, unique prefixes, "did you mean".

Shared by every game's parser so that card, suit and command names behave the same everywhere.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from solver.errors import InvalidObservationError


def normalize(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


#: A vocabulary this small is listed whole when a typed name is close to none of it.
SMALL = 8


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
        raise InvalidObservationError(f"unknown {self.kind} '{text}'{self.hint(text)}")

    def hint(self, text: str) -> str:
        """What to say after an unknown ``text``: the closest name ("did you mean"), or, in a small vocabulary
        with nothing close (a colour), every name; '' otherwise."""
        close = difflib.get_close_matches(normalize(text), list(self._by_key), n=1, cutoff=0.6)
        if close:
            return f" (did you mean '{self._by_key[close[0]]}'?)"
        if len(self.names) <= SMALL:
            return f" (expected {', '.join(self.names[:-1])} or {self.names[-1]})" if len(self.names) > 1 else \
                f" (expected {self.names[0]})"
        return ""

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
