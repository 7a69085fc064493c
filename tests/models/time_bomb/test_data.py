import json

import pytest

from models.time_bomb.data import COLOURS, DEFAULT_DATA, DEFUSE, load_game_data


@pytest.mark.parametrize("players", [4, 5, 6])
def test_setup_by_player_count(players: int) -> None:
    setup = DEFAULT_DATA.setup(players)
    assert setup.colours == COLOURS[:players]
    assert setup.removed == players and setup.defusers == players
    assert setup.deck_size == 5 * players == players * setup.hand_sizes[0]
    assert setup.types == (DEFUSE, *COLOURS[:players])
    assert setup.rounds == 4 and setup.numbers == tuple(range(players))
    assert setup.thresholds.get("green", 3) == 3 and setup.thresholds["pink"] == 4


def test_roles_by_player_count() -> None:
    assert (DEFAULT_DATA.setup(4).sherlock_cards, DEFAULT_DATA.setup(4).moriarty_cards) == (3, 2)
    assert DEFAULT_DATA.setup(4).role_cards == 5  # one card stays unseen
    assert (DEFAULT_DATA.setup(6).sherlock_cards, DEFAULT_DATA.setup(6).moriarty_cards) == (4, 2)


def test_unsupported_player_count() -> None:
    with pytest.raises(ValueError, match="players 3: expected 4 to 6"):
        DEFAULT_DATA.setup(3)


def test_load_game_data_overrides(tmp_path) -> None:
    path = tmp_path / "tb.json"
    path.write_text(json.dumps({"thresholds": {"green": 4}, "removed": {"5": 5}}))
    data = load_game_data(path)
    assert data.setup(5).thresholds["green"] == 4
    path.write_text(json.dumps({"thresholdz": {}}))
    with pytest.raises(ValueError, match="unknown keys"):
        load_game_data(path)
    path.write_text(json.dumps({"removed": {"5": 4}}))
    with pytest.raises(ValueError, match="cable cards in play"):
        load_game_data(path)
