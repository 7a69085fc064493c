"""Building Beyond Baker Street tables with chosen cards, for rules and knowledge tests."""

from __future__ import annotations

import random

from models.beyond_baker_street.data import EVIDENCE, LEADS, SECTIONS, Evidence, Lead
from models.beyond_baker_street.observations import parse_evidence
from models.beyond_baker_street.rules import BakerStreetState, TableRules


def E(code: str) -> Evidence:  # noqa: N802 - reads like a card
    return parse_evidence(code)


def L(code: str) -> Lead:  # noqa: N802
    value, icon = int(code[:-1]), code[-1]
    return next(lead for lead in LEADS if lead.value == value and lead.icon[0] == icon)


def table(
    hands: dict[int, str],
    top: str = "",
    leads: dict[str, str] | None = None,
    case: int = 1,
    first: int = 1,
    seed: int = 0,
) -> BakerStreetState:
    """A table whose hands are ``{seat: "3W 5C ..."}``, whose deck draws ``top`` first (left to right) and then
    the other cards, and whose Lead piles are ``{section: "bottom ... top"}`` (the last is face up)."""
    dealt = {s: [E(c) for c in codes.split()] for s, codes in hands.items()}
    first_draws = [E(c) for c in top.split()]
    used = {c for h in dealt.values() for c in h} | set(first_draws)
    rest = [c for c in EVIDENCE if c not in used]
    deck = rest + list(reversed(first_draws))
    chosen = leads or {}
    piles = {}
    for section in SECTIONS:
        if section in chosen:
            piles[section] = [L(c) for c in chosen[section].split()]
        else:
            piles[section] = [lead for lead in LEADS if lead.section == section][:3]
    return BakerStreetState(TableRules(len(dealt), case), dealt, deck, piles, first, random.Random(seed))
