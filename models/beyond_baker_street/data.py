"""Beyond Baker Street component data (rulebook ``rules/beyond-baker-street.txt``, RULES-NOTES "Beyond Baker
Street").

The 24 Evidence cards (numbers 1 to 6 in four icons), the 28 Lead cards (Opportunity 7-8, Motive 9-10, Suspect
11-13, each value once per icon), the Case Files (Holmes start and Impossible limit), hand sizes by player count
and the two tracks. The case table is marked *configurable* in the notes, so every number lives here as data
(:class:`GameData`, overridable from JSON by :func:`load_game_data`), never as literals in the rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

ICONS: tuple[str, ...] = ("Clue", "Document", "Track", "Witness")
NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
SECTIONS: tuple[str, ...] = ("Opportunity", "Motive", "Suspect")

#: section -> the Lead values printed in it (one card per value and icon).
LEAD_VALUES: dict[str, tuple[int, ...]] = {"Opportunity": (7, 8), "Motive": (9, 10), "Suspect": (11, 12, 13)}


@dataclass(frozen=True)
class CaseFile:
    """One Case File card: where the Holmes marker starts and how many cards the Impossible holds for free."""

    number: int
    holmes: int
    limit: int


CASE_FILES: dict[int, CaseFile] = {
    n: CaseFile(n, holmes, limit)
    for n, holmes, limit in ((1, 15, 4), (2, 12, 4), (3, 11, 2), (4, 10, 2), (5, 9, 1), (6, 8, 1))
}

HAND_SIZES: dict[int, int] = {2: 6, 3: 4, 4: 3}


@dataclass(frozen=True, order=True)
class Evidence:
    """An Evidence card. ``code`` ("3W") is what observations print; ``name`` ("3 Witness") is for tables."""

    number: int
    icon: str

    @property
    def code(self) -> str:
        return f"{self.number}{self.icon[0]}"

    @property
    def name(self) -> str:
        return f"{self.number} {self.icon}"

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True, order=True)
class Lead:
    """A Lead card: its section follows from its value (7-8 Opportunity, 9-10 Motive, 11-13 Suspect)."""

    value: int
    icon: str

    @property
    def section(self) -> str:
        return section_of(self.value)

    @property
    def code(self) -> str:
        return f"{self.value}{self.icon[0]}"

    @property
    def name(self) -> str:
        return f"{self.section} {self.value} {self.icon}"

    def __str__(self) -> str:
        return self.code


def section_of(value: int) -> str:
    for section, values in LEAD_VALUES.items():
        if value in values:
            return section
    raise ValueError(f"lead value {value}: expected 7 to 13")


EVIDENCE: tuple[Evidence, ...] = tuple(Evidence(n, icon) for icon in ICONS for n in NUMBERS)
LEADS: tuple[Lead, ...] = tuple(Lead(v, icon) for vs in LEAD_VALUES.values() for v in vs for icon in ICONS)
EVIDENCE_BY_CODE: dict[str, Evidence] = {c.code: c for c in EVIDENCE}
LEAD_BY_CODE: dict[str, Lead] = {c.code: c for c in LEADS}


@dataclass(frozen=True)
class GameData:
    """Setup tables and track lengths; the default is RULES-NOTES, a JSON file may override any of them."""

    case_files: dict[int, CaseFile] = field(default_factory=lambda: dict(CASE_FILES))
    hand_sizes: dict[int, int] = field(default_factory=lambda: dict(HAND_SIZES))
    holmes_max: int = 15
    goal: int = 20  # the Investigation track must be exactly here at the third Confirm
    leads_per_section: int = 3

    @property
    def evidence(self) -> tuple[Evidence, ...]:
        return EVIDENCE

    def case(self, number: int) -> CaseFile:
        if number not in self.case_files:
            known = sorted(self.case_files)
            span = f"{known[0]} to {known[-1]}" if known == list(range(known[0], known[-1] + 1)) else ", ".join(
                map(str, known))
            raise ValueError(f"case {number}: expected a Case File {span}")
        return self.case_files[number]

    def hand_size(self, players: int) -> int:
        if players not in self.hand_sizes:
            lo, hi = min(self.hand_sizes), max(self.hand_sizes)
            raise ValueError(f"players {players}: expected {lo} to {hi}")
        return self.hand_sizes[players]


DEFAULT_DATA = GameData()


def load_game_data(path: str | Path) -> GameData:
    """Read overrides: ``{"case_files": {"1": [15, 4]}, "hand_sizes": {"3": 4}, "holmes_max": 15, "goal": 20}``."""
    try:
        raw = json.loads(Path(path).read_text())
        cases = dict(CASE_FILES)
        for k, (holmes, limit) in raw.get("case_files", {}).items():
            cases[int(k)] = CaseFile(int(k), int(holmes), int(limit))
        hands = dict(HAND_SIZES)
        hands.update({int(k): int(v) for k, v in raw.get("hand_sizes", {}).items()})
        data = GameData(
            cases,
            hands,
            int(raw.get("holmes_max", 15)),
            int(raw.get("goal", 20)),
            int(raw.get("leads_per_section", 3)),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"game data file '{path}': expected JSON with case_files, hand_sizes, ... ({exc})") from exc
    for case in data.case_files.values():
        if not 1 <= case.holmes <= data.holmes_max or case.limit < 0:
            raise ValueError(f"game data file '{path}': case file {case.number} has holmes {case.holmes}, "
                             f"limit {case.limit}")
    return data
