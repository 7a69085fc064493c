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

#: Character effect kinds (the rule each one changes: :mod:`models.beyond_baker_street.table` and ``rules``).
KINDS: dict[str, str] = {
    "calm_eliminate": "Evidence this character eliminates never moves Holmes, even past the Impossible limit.",
    "eliminate_factor": "Evidence this character eliminates counts {factor} times on the Investigation track.",
    "confirm_holmes": "When this character confirms a Lead, Holmes moves away from 0 by {step} instead of 1.",
    "assist_ban": "May not give an Assist naming {subject}.",
    "advance_holmes": "As an action ({uses}): move Holmes {step} space(s) away from 0.",
    "confirm_short": "May confirm a Lead whose evidence is its target or up to {short} short of it.",
    "draw_two": "Draws two; the player on the right sees both and chooses the one kept; the other goes face down "
                "to the bottom of the deck.",
    "impossible_limit": "The Impossible limit of the Case File is {extra} higher for the whole game.",
    "double_assist": "As an action may give two Assists; Holmes moves only once.",
    "swap_impossible": "As an action ({uses}): swap an Evidence card in the Impossible with one on a Lead; the "
                       "Investigation track changes by the difference of their values.",
    "swap_hand": "As an action ({uses}): swap a card of this hand with a chosen card of another player's hand.",
    "lead_not_impossible": "A Lead this character drops by a Pursue{dead} does not go to the Impossible.",
    "return_impossible": "As an action ({uses}): return an Evidence card from the Impossible to the deck "
                         "(shuffled); the Investigation track goes down by its value.",
    "peek": "As an action ({uses}): look at the top card of the deck and put it back on top or at the bottom; "
            "nobody else sees it; Holmes does not move.",
}


@dataclass(frozen=True)
class Character:
    """A Character card: ``order`` sets the start player (the lowest starts), ``pips`` is the printed difficulty
    (more pips: an easier game, per the card), ``kind`` names the rule it changes (:data:`KINDS`) and ``params``
    its numbers and flags (``uses`` 0: repeatable; else per game). ``confidence`` is RULES-NOTES' M or L."""

    name: str
    order: int
    pips: int
    kind: str
    params: tuple[tuple[str, object], ...] = ()
    confidence: str = "M"

    def param(self, key: str, default: object = None) -> object:
        return dict(self.params).get(key, default)

    @property
    def uses(self) -> int:
        """Uses per game of its action (0: as often as wanted)."""
        return int(self.param("uses", 0))  # type: ignore[call-overload]

    @property
    def effect(self) -> str:
        """The effect in words, from its kind and parameters."""
        p = dict(self.params)
        uses = int(p.get("uses", 0))  # type: ignore[call-overload]
        p["uses"] = "repeatable" if uses == 0 else "once per game" if uses == 1 else f"{uses} times per game"
        subject = p.get("subject")
        if subject is not None:
            p["subject"] = "a number (icons only)" if subject == "number" else f"the {subject} icon"
        p["dead"] = " or a Dead Lead of theirs" if p.get("dead_leads") else ""
        return KINDS[self.kind].format(**p)


def _char(name: str, order: int, pips: int, kind: str, conf: str = "M", **params: object) -> Character:
    return Character(name, order, pips, kind, tuple(sorted(params.items())), conf)


#: The 18 Characters (RULES-NOTES "Beyond Baker Street Characters"; the printed cards win: override by JSON).
CHARACTERS: dict[str, Character] = {c.name: c for c in (
    _char("Lestrade", 1, 4, "calm_eliminate"),
    _char("Gregson", 2, 4, "eliminate_factor", "L", factor=2),
    _char("Baynes", 3, 3, "confirm_holmes", "L", step=2),
    _char("Bradstreet", 4, 1, "assist_ban", subject="Document"),
    _char("Hopkins", 5, 1, "assist_ban", subject="Witness"),
    _char("Jones", 6, 1, "assist_ban", subject="Track"),
    _char("Forrester", 7, 1, "assist_ban", subject="Clue"),
    _char("Martin", 8, 1, "assist_ban", "L", subject="number"),
    _char("Irene Adler", 9, 2, "advance_holmes", step=1, uses=1),
    _char("Mary Morstan", 10, 2, "confirm_short", short=1),
    _char("Lady Eva Blackwell", 11, 3, "draw_two"),
    _char("Helen Stoner", 12, 3, "impossible_limit", extra=1),
    _char("Lady Hilda Hope", 13, 4, "double_assist"),
    _char("Sir Henry Baskerville", 14, 3, "swap_impossible", uses=1),
    _char("Langdale Pike", 15, 3, "swap_hand", uses=1),
    _char("Wiggins", 16, 3, "lead_not_impossible", "L", dead_leads=True),
    _char("Mrs Hudson", 17, 3, "return_impossible", "L", uses=0),
    _char("Toby", 18, 4, "peek", "L", uses=0),
)}


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
    # a safeguard, not a rule: repeatable Character actions that move no track (Toby's look, Mrs Hudson's
    # return) could let a table play forever; the game is lost after this many turns (the base game never gets
    # near: every turn spends a card or a Holmes space)
    max_turns: int = 300
    characters: dict[str, Character] = field(default_factory=lambda: dict(CHARACTERS))

    def character(self, name: str) -> Character:
        """The Character called ``name`` (case-insensitive; a unique prefix or a word of the name will do)."""
        from solver.names import normalize

        key = normalize(name)
        by_key = {normalize(n): c for n, c in self.characters.items()}
        if key in by_key:
            return by_key[key]
        found = [c for k, c in by_key.items() if key and (k.startswith(key) or any(
            normalize(w).startswith(key) for w in c.name.split()))]
        if len(found) == 1:
            return found[0]
        names = ", ".join(c.name for c in (found or sorted(self.characters.values(), key=lambda c: c.order)))
        what = "is ambiguous" if found else "is not a Character"
        raise ValueError(f"character '{name}' {what}: expected one of {names}")

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


def _characters(raw: dict[str, dict[str, object]]) -> dict[str, Character]:
    """The Characters with JSON overrides: ``{"Gregson": {"factor": 3}, "Toby": {"uses": 1, "pips": 3}}``;
    ``order``, ``pips``, ``kind`` and ``confidence`` are the card's fields, any other key is a parameter. A new
    name adds a Character (it then needs ``order``, ``pips`` and ``kind``)."""
    out = dict(CHARACTERS)
    for name, fields in raw.items():
        base = out.get(name)
        fields = dict(fields)
        order = int(fields.pop("order", base.order if base else -1))  # type: ignore[call-overload]
        pips = int(fields.pop("pips", base.pips if base else -1))  # type: ignore[call-overload]
        kind = str(fields.pop("kind", base.kind if base else ""))
        conf = str(fields.pop("confidence", base.confidence if base else "table"))
        if kind not in KINDS or order < 0 or pips < 0:
            raise ValueError(f"character {name}: expected order, pips and a kind ({', '.join(KINDS)})")
        params = dict(base.params) if base and base.kind == kind else {}
        params.update(fields)
        out[name] = Character(name, order, pips, kind, tuple(sorted(params.items())), conf)
    return out


def load_game_data(path: str | Path) -> GameData:
    """Read overrides: ``{"case_files": {"1": [15, 4]}, "hand_sizes": {"3": 4}, "holmes_max": 15, "goal": 20,
    "characters": {"Gregson": {"factor": 3}}}``."""
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
            max_turns=int(raw.get("max_turns", 300)),
            characters=_characters(raw.get("characters", {})),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"game data file '{path}': expected JSON with case_files, hand_sizes, ... ({exc})") from exc
    for case in data.case_files.values():
        if not 1 <= case.holmes <= data.holmes_max or case.limit < 0:
            raise ValueError(f"game data file '{path}': case file {case.number} has holmes {case.holmes}, "
                             f"limit {case.limit}")
    return data
