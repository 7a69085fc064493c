"""A small constraint language over hidden categorical variables.

A world assigns every hidden variable one value of its domain. A :data:`Lit` ``(variable, value)`` reads
"variable takes value". Games compile observations into these constraints; the CP-SAT model, the exact
counter and the brute-force reference all read the same objects, so they cannot disagree on meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Lit = tuple[str, str]
World = Mapping[str, str]


@dataclass(frozen=True)
class CountEquals:
    """Exactly ``count`` of the literals ``terms`` are true."""

    terms: tuple[Lit, ...]
    count: int

    def holds(self, world: World) -> bool:
        return sum(world.get(var) == val for var, val in self.terms) == self.count


@dataclass(frozen=True)
class NotAll:
    """Not every literal of ``terms`` is true (e.g. "the mystery is not exactly this triple")."""

    terms: tuple[Lit, ...]

    def holds(self, world: World) -> bool:
        return not all(world.get(var) == val for var, val in self.terms)


Constraint = CountEquals | NotAll


def forbid(var: str, value: str) -> CountEquals:
    return CountEquals(((var, value),), 0)


def require(var: str, value: str) -> CountEquals:
    return CountEquals(((var, value),), 1)


@dataclass(frozen=True)
class Problem:
    """Hidden variables with their domains, and the structural constraints that always hold."""

    variables: Mapping[str, tuple[str, ...]]
    structure: tuple[Constraint, ...] = ()

    def literals(self) -> list[Lit]:
        return [(var, val) for var, dom in self.variables.items() for val in dom]
