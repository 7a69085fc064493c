"""Card histories: a card I hold since entry t is none of the cards seen elsewhere at t or later, even once a Dead
Lead or a Pursue has shuffled them back into the deck. Checked on a hand-built table and against the brute force
that replays the card flow (bbs_reference), in random games with reshuffles at 2, 3 and 4 players and every Case
File, long 2-player games where the deck runs out included."""

from __future__ import annotations

import random

import pytest
from bbs_helpers import E, table
from bbs_reference import compare, game_states, history_matters, history_reference, pick
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.beyond_baker_street.knowledge import HandKnowledge, Sighting
from models.beyond_baker_street.observations import Assist, Eliminate, Investigate, Pursue
from models.beyond_baker_street.rules import TableRules, new_game
from solver import reference

LEADS3 = {"Opportunity": "8C 8D 7W", "Motive": "10C 10D 9T", "Suspect": "13C 13D 11W"}
HANDS = {1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"}


def follow(state: object, seat: int, kn: HandKnowledge | None = None) -> HandKnowledge:
    kn = kn or HandKnowledge()
    for o in state.take_observations(seat):
        kn.add(o)
    return kn


def pursued_table() -> object:
    """Player 2 plays 2T (dealt to them) to the Motive Lead, player 3 Pursues it: 2T is back in the deck."""
    state = table(HANDS, top="3D 4D 5D 6D", leads=LEADS3)
    state.apply(Assist(2, "Track"))  # player 1
    state.apply(Investigate(1, "Motive"))  # player 2: 2T on 9T (a Track), draws 3D
    state.apply(Pursue("Motive"))  # player 3: 2T goes back into the deck, 10D is revealed
    return state


def test_a_card_seen_since_the_deal_is_in_no_starting_position() -> None:
    kn = follow(pursued_table(), 1)
    assert E("2T") in kn.unseen()  # back in the deck
    assert all(E("2T") not in d for d in kn.hand())
    # 16 unseen cards (2T among them), but my 4 dealt cards can only be the 15 others
    assert len(kn.unseen()) == 16 and kn.worlds() == 15 * 14 * 13 * 12
    assert all(d.get(E("1W"), 0) == 0 and sum(d.values()) == pytest.approx(1.0) for d in kn.hand())
    ref = history_reference(kn.entries)
    assert ref.worlds == kn.worlds()


def test_why_names_the_sighting_and_a_later_draw_may_be_it() -> None:
    state = pursued_table()
    kn = follow(state, 1)
    why = kn.explain(2, E("2T"))
    assert why.status == "impossible"
    (reason,) = why.reasons
    assert isinstance(reason, Sighting) and reason.card == E("2T") and reason.positions == (1, 2, 3, 4)
    text = str(reason)
    assert "2T was on the Motive Lead from entry" in text and "'investigate 2 1 2T Motive'" in text
    assert "'pursue 3 Motive' shuffled it back into the deck" in text
    assert kn.sighted_at(2)[E("2T")] == reason
    # the CP-SAT model of the same reasons says the same
    assert "p2" not in kn.constraint_model().possible()["2T"]
    assert kn.explain_cp_sat(2, E("2T")).status == "impossible"
    state.apply(Eliminate(1))  # player 1 eliminates 3W and draws from the reshuffled deck: it may be 2T
    kn = follow(state, 1, kn)
    assert E("2T") in kn.hand()[3] and all(E("2T") not in d for d in kn.hand()[:3])
    assert kn.explain(4, E("2T")).status in ("open", "certain")
    assert kn.worlds() == history_reference(kn.entries).worlds


def test_my_own_card_killing_a_lead_is_none_of_my_older_cards() -> None:
    """A card I play that makes a Dead Lead is in sight for one entry only: my older cards still are not it."""
    state = table({1: "6T 4W 1T 6C", 2: "2T 5T 3T 1C", 3: "1W 2W 5W 6W"}, top="3D 4D 5D 6D", leads=LEADS3)
    state.apply(Assist(2, "Track"))  # player 1
    state.apply(Investigate(2, "Motive"))  # player 2: 5T on 9T
    state.apply(Assist(1, "Track"))  # player 3 tells me: a Track at position 1 (and 3)
    state.apply(Investigate(1, "Motive"))  # me: 6T makes 11 > 9, a Dead Lead: 5T and 6T back in the deck
    kn = follow(state, 1)
    assert {E("5T"), E("6T")} <= set(kn.unseen())
    assert all(E("6T") not in d and E("5T") not in d for d in kn.hand()[:3])
    assert E("6T") in kn.hand()[3]  # the card I drew after the Dead Lead may be it
    reason = kn.sighted_at(2)[E("6T")]
    assert str(reason).startswith("6T was shown on the Motive Lead at entry ")
    assert "'investigate 1 1 6T Motive', which shuffled it back into the deck" in str(reason)
    ref = history_reference(kn.entries)
    assert ref.worlds == kn.worlds()
    assert ref.probability(4, E("6T")) == pytest.approx(kn.hand()[3][E("6T")])


def test_empathy_follows_what_each_player_saw() -> None:
    state = pursued_table()
    kns = {s: HandKnowledge() for s in (1, 2, 3)}
    for s in kns:
        follow(state, s, kns[s])
    # player 3 saw 2T in player 2's hand while holding every dealt card
    assert all(E("2T") not in d for d in kns[1].empathy(3))
    assert all(E("2T") not in d for d in kns[3].hand())
    theirs = kns[1].sighted_at(2, seat=3)[E("2T")]
    assert theirs.positions == (1, 2, 3, 4) and "while player 3 already held their cards at positions" in str(theirs)
    # player 2 saw it on the Motive Lead: none of the cards they held then (their new 3D came after the play)
    assert all(E("2T") not in d for d in kns[1].empathy(2))
    # each player's own knowledge is at least as sharp as what another can say of it
    for me, kn in kns.items():
        for other in kns:
            if other != me:
                for mine, seen in zip(kns[other].hand(), kn.empathy(other), strict=True):
                    assert set(mine) <= set(seen)


def test_the_rule_matters_in_generated_games() -> None:
    """The model without histories gets the count wrong in most reshuffle states (so the tests below can fail)."""
    wrong = compared = 0
    for _, kn in game_states(3, 1, 7):
        if history_matters(kn):
            result = compare(kn, 20_000)
            if result is not None:
                compared += 1
                assert result[0]
                wrong += result[1]
    assert compared >= 5 and wrong >= 1


def _check_game(players: int, case: int, seed: int, most: int = 6, limit: int = 4000) -> tuple[int, int]:
    """Compare the reshuffle states of one game with the brute force (up to ``most``); also check that every
    state admits the true hand. Returns (states compared, of which with an empty deck)."""
    compared = empty = 0
    for state, kn in game_states(players, case, seed):
        assert state.soundness_failure(kn.me, kn) is None
        if compared < most and history_matters(kn):
            result = compare(kn, limit)
            if result is not None:
                assert result[0], f"players {players}, case {case}, seed {seed}: {kn.entries[-1]}"
                compared += 1
                empty += state.board.deck == 0
    return compared, empty


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([2, 3, 4]), st.integers(1, 6), st.integers(0, 10**6))
def test_reshuffle_states_match_the_history_brute_force(players: int, case: int, seed: int) -> None:
    _check_game(players, case, seed)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("case", range(1, 7))
def test_every_player_count_and_case_file(players: int, case: int) -> None:
    total = sum(_check_game(players, case, seed, most=3)[0] for seed in range(3))
    assert total >= 1


def test_long_two_player_games_where_the_deck_runs_out() -> None:
    compared = empty = 0
    for seed in range(6):
        c, e = _check_game(2, seed % 6 + 1, 500 + seed, most=40, limit=3000)
        compared, empty = compared + c, empty + e
    assert empty >= 5 and compared >= 20


def test_constraint_model_and_its_brute_force_in_reshuffle_states() -> None:
    """The CP-SAT model's reasons (past sightings included) give the same counts, checked by python-constraint
    on the model itself too."""
    checked = 0
    for seed in range(4):
        for _, kn in game_states(4, 2, 900 + seed):
            if not history_matters(kn) or kn.worlds() > 1500 or checked > 8:
                continue
            model = kn.constraint_model()
            ref = reference.solve(model.problem, [c for e in model.entries for c in e.constraints])
            assert ref.worlds == kn.worlds()
            for pos, dist in enumerate(kn.hand(), 1):
                for card in kn.data.evidence:
                    assert dist.get(card, 0.0) == pytest.approx(ref.probability((card.code, f"p{pos}")))
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_empathy_is_sound_in_random_games(players: int) -> None:
    """What I list as possible for another player covers all they can know themselves, reshuffles included."""
    rng = random.Random(players)
    for _ in range(3):
        state = new_game(TableRules(players, rng.randint(1, 6)), rng)
        kns = {s: HandKnowledge() for s in state.seats}
        while not state.is_terminal():
            state.apply(pick(state, rng))
            for s in state.seats:
                follow(state, s, kns[s])
            for s, kn in kns.items():
                for other in state.seats:
                    if other != s:
                        for own, seen in zip(kns[other].hand(), kn.empathy(other), strict=True):
                            assert set(own) <= set(seen)
