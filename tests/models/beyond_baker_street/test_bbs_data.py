"""Component data (RULES-NOTES "Beyond Baker Street") and its JSON overrides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.beyond_baker_street.data import (
    CASE_FILES,
    DEFAULT_DATA,
    EVIDENCE,
    LEADS,
    Lead,
    load_game_data,
    section_of,
)


def test_components_match_the_rules_notes() -> None:
    assert len(EVIDENCE) == 24 and len(set(EVIDENCE)) == 24
    assert sum(c.number for c in EVIDENCE) == 4 * 21
    assert len(LEADS) == 28
    assert [sum(1 for lead in LEADS if lead.section == s) for s in ("Opportunity", "Motive", "Suspect")] == [8, 8, 12]
    assert [(c.holmes, c.limit) for c in CASE_FILES.values()] == [(15, 4), (12, 4), (11, 2), (10, 2), (9, 1), (8, 1)]
    assert [DEFAULT_DATA.hand_size(p) for p in (2, 3, 4)] == [6, 4, 3]
    assert Lead(12, "Witness").name == "Suspect 12 Witness" and section_of(8) == "Opportunity"


def test_errors_name_the_input() -> None:
    with pytest.raises(ValueError, match="players 5"):
        DEFAULT_DATA.hand_size(5)
    with pytest.raises(ValueError, match="case 9: expected a Case File 1 to 6"):
        DEFAULT_DATA.case(9)
    with pytest.raises(ValueError, match="lead value 14"):
        section_of(14)


def test_json_override(tmp_path: Path) -> None:
    path = tmp_path / "bbs.json"
    path.write_text(json.dumps({"case_files": {"1": [13, 3]}, "hand_sizes": {"3": 5}, "goal": 18}))
    data = load_game_data(path)
    assert data.case(1).holmes == 13 and data.case(1).limit == 3 and data.case(2).holmes == 12
    assert data.hand_size(3) == 5 and data.goal == 18
    path.write_text(json.dumps({"case_files": {"1": [20, 3]}}))
    with pytest.raises(ValueError, match="case file 1 has holmes 20"):
        load_game_data(path)
    path.write_text("not json")
    with pytest.raises(ValueError, match="expected JSON"):
        load_game_data(path)
