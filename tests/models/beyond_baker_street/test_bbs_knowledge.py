"""Hand knowledge: exact per-position probabilities from Assists and sightings, positions moving as cards are
played and drawn, empathy, why, contradictions; cross-checked against CP-SAT and the brute-force reference."""

from __future__ import annotations

import random

import pytest
from bbs_helpers import E, table

from models.beyond_baker_street.knowledge import HandKnowledge, Sighting, Told
from models.beyond_baker_street.observations import Assist, Eliminate, Investigate, parse
from models.beyond_baker_street.rules import TableRules, new_game
from solver import reference
from solver.errors import AssistantError, ContradictionError, InvalidObservationError

LEADS3 = {"Opportunity": "8C 8D 7W", "Motive": "10C 10D 9T", "Suspect": "13C 13D 11W"}
HANDS = {1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"}
TRACKS = [E(f"{n}T") for n in (2, 3, 4, 5, 6)]  # player 2 sees 1T in player 1's hand


def game() -> object:
    return table(HANDS, top="3D 4D 5D 6D", leads=LEADS3)


def follow(st: object, seat: int, kn: HandKnowledge | None = None) -> HandKnowledge:
    kn = kn or HandKnowledge()
    for o in st.take_observations(seat):
        kn.add(o)
    return kn


def test_uniform_before_any_assist() -> None:
    kn = follow(game(), 2)
    assert len(kn.unseen()) == 16 and kn.worlds() == 16 * 15 * 14 * 13
    for dist in kn.hand():
        assert len(dist) == 16 and all(p == pytest.approx(1 / 16) for p in dist.values())


def test_assist_names_and_excludes_positions() -> None:
    st = game()
    st.apply(Assist(2, "Track"))
    kn = follow(st, 2)
    hand = kn.hand()
    for pos in range(3):
        assert hand[pos] == pytest.approx({c: 1 / 5 for c in TRACKS})
    assert len(hand[3]) == 11 and not any(c.icon == "Track" for c in hand[3])
    assert kn.worlds() == 5 * 4 * 3 * 11


def test_number_and_icon_combine_jointly() -> None:
    st = game()
    st.apply(Assist(2, "Track"))  # player 1
    st.apply(Eliminate(1))  # player 2 eliminates 2T; 3 Tracks left in their hand at positions 1, 2
    st.apply(Assist(2, 6))  # player 3: 6T is now at position 2
    kn = follow(st, 2)
    hand = kn.hand()
    assert hand[1] == {E("6T"): 1.0}  # a Track and a 6, jointly
    assert hand[0] == pytest.approx({E("3T"): 1 / 3, E("4T"): 1 / 3, E("5T"): 1 / 3})
    assert all(c.number != 6 for pos in (0, 2, 3) for c in hand[pos])  # the 6 Assist skipped them
    assert E("3D") in hand[3] and all(c.icon != "Track" for c in hand[2])


def test_positions_move_with_the_card() -> None:
    st = game()
    st.apply(Assist(2, 1))  # 1C is at position 4
    st.apply(Investigate(2, "Suspect"))  # player 2 plays 5T; 1C moves to position 3, a new card at 4
    kn = follow(st, 2)
    hand = kn.hand()
    assert set(hand[2]) == {E("1C"), E("1D")}  # 1T and 1W are seen, 1C/1D are unseen 1s
    assert all(c.number != 1 for pos in (0, 1) for c in hand[pos])
    assert E("1D") in hand[3]  # the new card was never assisted: it may be a 1
    assert E("5T") not in kn.unseen()  # now on the Suspect Lead


def test_cards_seen_elsewhere_are_excluded() -> None:
    kn = follow(game(), 2)
    for c in [E("3W"), E("1W"), E("6C")]:
        assert all(c not in d for d in kn.hand())
    assert kn.where(E("1W")) == "in player 3's hand (position 1)"


def test_empathy_uses_what_the_other_player_was_told() -> None:
    st = game()
    st.apply(Assist(3, 6))  # player 1 tells player 3: the 6 at position 4
    kn1 = follow(st, 1)
    view = kn1.empathy(3)
    # position 4 is a 6 that both of them cannot see: not 6T (player 2's); 6C is player 1's own card, which
    # player 1 cannot see, so from player 1's side it stays possible (player 3 may know more)
    assert set(view[3]) == {E("6C"), E("6D"), E("6W")}
    assert all(c.number != 6 for d in view[:3] for c in d)
    with pytest.raises(InvalidObservationError):
        kn1.empathy(1)


def test_why_names_assists_and_sightings() -> None:
    st = game()
    st.apply(Assist(2, "Track"))
    st.apply(Eliminate(1))
    st.apply(Assist(2, 6))
    kn = follow(st, 2)
    why = kn.explain(2, E("6T"))
    assert why.status == "certain"
    texts = [str(r) for r in why.reasons]
    assert any(isinstance(r, Told) and r.position == 2 for r in why.reasons)
    assert any("is a 6" in t for t in texts) and any("is a Track" in t for t in texts)
    why_not = kn.explain(1, E("1T"))
    assert why_not.status == "impossible"
    assert any(isinstance(r, Sighting) and r.card == E("1T") for r in why_not.reasons) or any(
        isinstance(r, Told) for r in why_not.reasons
    )


def test_contradictions_are_rejected_and_leave_the_state() -> None:
    kn = follow(game(), 2)
    before = kn.hand()
    with pytest.raises(ContradictionError, match="player 3's Witnesses are at 1 2 3 4"):
        kn.add(parse("assist 1 3 Witness at 1 2"))
    with pytest.raises(AssistantError, match="turn"):
        kn.add(parse("eliminate 2 1 1C"))
    kn.add(parse("assist 1 2 Track at 1 2 3"))
    with pytest.raises(ContradictionError, match="cannot be at your position 1"):
        kn.add(parse("eliminate 2 1 1C"))
    assert kn.hand()[3] == pytest.approx({c: 1 / 11 for c in kn.hand()[3]})
    kn.undo()
    assert kn.hand() == before
    with pytest.raises(ContradictionError, match="player 1's hand"):
        kn.add(parse("eliminate 1 1 3W"))
        kn.add(parse("draw 1 4W"))


def test_setup_errors() -> None:
    kn = HandKnowledge()
    with pytest.raises(InvalidObservationError, match="before the hands"):
        kn.add(parse("hand 2 1C 2C 3C 4C"))
    for line in ("players 3", "me 2"):
        kn.add(parse(line))
    with pytest.raises(InvalidObservationError, match="that is you"):
        kn.add(parse("hand 2 1C 2C 3C 4C"))
    with pytest.raises(InvalidObservationError, match="starts with 4"):
        kn.add(parse("hand 1 1C 2C 3C"))
    kn.add(parse("hand 1 1C 2C 3C 4C"))
    with pytest.raises(InvalidObservationError, match="player 1's hand"):
        kn.add(parse("hand 3 1C 2D 3D 4D"))
    with pytest.raises(InvalidObservationError, match="setup is not complete"):
        kn.add(parse("draw 2"))
    assert kn.missing() == ["case N", "hand 3 CARD ...", "lead CARD  (the face-up Opportunity Lead)",
                            "lead CARD  (the face-up Motive Lead)", "lead CARD  (the face-up Suspect Lead)"]


def _states(seed: int, count: int, max_worlds: int) -> list[HandKnowledge]:
    """Knowledge of random seats after random plays, small enough for the brute-force reference."""
    rng = random.Random(seed)
    out: list[HandKnowledge] = []
    while len(out) < count:
        st = new_game(TableRules(rng.choice([2, 3, 4]), rng.randint(1, 6)), rng)
        kns = {s: HandKnowledge() for s in st.seats}
        for _ in range(rng.randint(8, 40)):
            for s in st.seats:
                follow(st, s, kns[s])
            if st.is_terminal():
                break
            actions = st.legal_actions()
            assists = [a for a in actions if isinstance(a, Assist)]
            st.apply(rng.choice(assists if assists and rng.random() < 0.5 else actions))
        for s in st.seats:
            follow(st, s, kns[s])
        kn = kns[rng.choice(st.seats)]
        if kn.worlds() <= max_worlds:
            out.append(kn)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_against_brute_force_reference(seed: int) -> None:
    for kn in _states(seed, 2, 800):
        model = kn.constraint_model()
        ref = reference.solve(model.problem, [c for e in model.entries for c in e.constraints])
        assert ref.worlds == kn.worlds()
        for pos, dist in enumerate(kn.hand(), 1):
            for card in kn.data.evidence:
                assert dist.get(card, 0.0) == pytest.approx(ref.probability((card.code, f"p{pos}")))


@pytest.mark.parametrize("seed", range(3))
def test_against_cp_sat_possible_and_count(seed: int) -> None:
    for kn in _states(100 + seed, 3, 10**9):
        model = kn.constraint_model()
        possible = model.possible()
        count = model.count()
        for pos, dist in enumerate(kn.hand(), 1):
            assert {c.code for c in dist} == {v for v, places in possible.items() if f"p{pos}" in places}
            for card, p in dist.items():
                assert count.probability((card.code, f"p{pos}")) == pytest.approx(p)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_soundness_in_random_games(players: int) -> None:
    rng = random.Random(players * 7)
    for _ in range(8):
        st = new_game(TableRules(players, rng.randint(1, 6)), rng)
        kns = {s: HandKnowledge() for s in st.seats}
        while True:
            for s in st.seats:
                follow(st, s, kns[s])
                if kns[s].started:
                    assert st.soundness_failure(s, kns[s]) is None
                    for pos, card in enumerate(st.hands[s]):
                        assert kns[s].hand()[pos].get(card, 0) > 0
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_actions()))


@pytest.mark.parametrize("seed", range(3))
def test_fast_why_agrees_with_cp_sat(seed: int) -> None:
    """The counter-based minimal reasons give CP-SAT's verdict, and force it in a CP-SAT model of their own."""
    from solver.knowledge import Knowledge

    rng = random.Random(seed)
    for kn in _states(200 + seed, 1, 10**9):
        model = kn.constraint_model()
        possible = model.possible()
        held = len(kn.hands[kn.me])
        for pos, card in [(rng.randint(1, held), rng.choice(kn.data.evidence)) for _ in range(3)]:
            fast = kn.explain(pos, card)
            lit = f"p{pos}"
            slow = "impossible" if lit not in possible[card.code] else (
                "certain" if all(lit not in possible[c.code] for c in kn.data.evidence if c != card) else "open")
            assert fast.status == slow
            if fast.status == "open":
                continue
            only: Knowledge = Knowledge(model.problem, kn._compile_reason)
            for reason in fast.reasons:
                only.add(reason)
            places = only.possible()[card.code]
            assert (lit not in places) if fast.status == "impossible" else (places == frozenset({lit}))


def test_why_cp_sat_matches_on_a_known_case() -> None:
    st = game()
    st.apply(Assist(2, "Track"))
    st.apply(Eliminate(1))
    st.apply(Assist(2, 6))
    kn = follow(st, 2)
    slow = kn.explain_cp_sat(2, E("6T"))
    fast = kn.explain(2, E("6T"))
    assert slow.status == fast.status == "certain"
    assert set(slow.reasons) == set(fast.reasons)
