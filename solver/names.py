"""Resolving what a player types to a known name: case-insensitive, unique prefixes, "did you mean".

Shared by every game's parser so that card, suit and command names behave the same everywhere.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from solver.errors import InvalidObservationError

_TABLE: ContextVar[Mapping[str, Sequence[str]] | None] = ContextVar("table_names", default=None)


@contextmanager
def table_names(names: Mapping[str, Sequence[str]]) -> Iterator[None]:
    """Suggest, for a mistyped name, only this table's names of each vocabulary named in ``names`` (Time Bomb's
    bomb colours in play), so a did-you-mean or the list after it names what can be at this table."""
    token = _TABLE.set(names)
    try:
        yield
    finally:
        _TABLE.reset(token)


def _listed(names: Sequence[str], quote: str = "") -> str:
    shown = [f"{quote}{n}{quote}" for n in names]
    return f"{', '.join(shown[:-1])} or {shown[-1]}" if len(shown) > 1 else shown[0]


def normalize(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


#: A vocabulary this small is listed whole when a typed name is close to none of it.
SMALL = 8


class Names:
    """A vocabulary of display names; :meth:`resolve` maps typed text to one of them or raises."""

    def __init__(self, names: Iterable[str], kind: str, table: str = "") -> None:
        self.names = list(dict.fromkeys(names))
        self.kind = kind
        self.table = table  # the key of this table's own names in table_names ('' : every name is always there)
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
        """What to say after an unknown ``text``: the closest names ("did you mean", all that are equally close),
        or, in a small vocabulary with nothing close (a colour), every name; '' otherwise. Where the session gave
        this table's names (:func:`table_names`), only they are suggested and listed."""
        names = list((_TABLE.get() or {}).get(self.table, ())) if self.table else []
        by_key = {normalize(n): n for n in names} if names else self._by_key
        key = normalize(text)
        close = difflib.get_close_matches(key, list(by_key), n=3, cutoff=0.6)
        if close:
            ratio = {c: difflib.SequenceMatcher(None, key, c).ratio() for c in close}
            tied = [n for k, n in by_key.items() if k in ratio and ratio[k] == ratio[close[0]]]  # vocabulary order
            return " (did you mean " + _listed(tied, "'") + "?)"
        if names or len(self.names) <= SMALL:
            return f" (expected {_listed(names or self.names)})"
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
