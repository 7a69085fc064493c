"""Knowledge tests: the exact counter and CP-SAT against the brute-force reference on small random states,
the fast path against the exact one, the soft layer against an independent brute force, constructed claim
histories, contradictions, explanations, undo, and soundness on random full games."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from constraint import Problem as PCProblem

from models.time_bomb.bluff import BluffModel
from models.time_bomb.counting import InPlay, slot_value
from models.time_bomb.data import DEFAULT_DATA, DEFUSE, MORIARTY, SHERLOCK
from models.time_bomb.knowledge import TableSetup, TimeBombKnowledge
from models.time_bomb.observations import Claim, Cut, Hand, Me, Players, Redeal, Role, Start
from models.time_bomb.rules import TableRules
from solver import reference
from solver.errors import ContradictionError, IllegalActionError, InvalidObservationError
from solver.reference import _Check

from .helpers import SMALL, TINY, play


def snapshots(data, players: int, seeds: range, every: int = 1) -> list[TimeBombKnowledge]:
    """Knowledge states of every seat taken along random games (every ``every``-th observation)."""
    out: list[TimeBombKnowledge] = []
    counter = itertools.count()

    def grab(state, seat, kn) -> None:
        if next(counter) % every == 0:
            clone = TimeBombKnowledge(kn.table_setup)
            for entry in kn.entries:
                clone.add(entry)
            out.append(clone)

    for seed in seeds:
        play(TableRules(players, data), seed, grab)
    return out


MAX_WORLDS = 4000  # python-constraint enumerates a few thousand worlds a second


def small_states(data, players: int, seeds: range) -> list[TimeBombKnowledge]:
    """States small enough for the reference, those after a redeal first (they exercise the round links)."""
    states = [kn for kn in snapshots(data, players, seeds) if kn.hard().worlds <= MAX_WORLDS]
    return sorted(states, key=lambda kn: -len(kn.rounds))


@pytest.mark.parametrize(("data", "players"), [(TINY, 3), (SMALL, 4)], ids=["tiny", "small"])
def test_counter_and_cp_sat_match_the_brute_force_reference(data, players: int) -> None:
    states = small_states(data, players, range(8))[: 5 if players == 3 else 3]
    assert len(states) >= 3 and len(states[0].rounds) == 2
    for kn in states:
        engine = kn.engine()
        constraints = [c for e in engine.entries for c in e.constraints]
        ref = reference.solve(engine.problem, constraints)
        count = engine.count()
        assert count.exact and count.worlds == ref.worlds
        for lit in engine.problem.literals():
            assert count.probability(lit) == pytest.approx(ref.probability(lit), abs=1e-9)
        assert engine.possible() == {v: ref.possible().get(v, frozenset()) for v in engine.problem.variables}
        # the fast path (log weights from the facts' meanings) agrees with the exact integers
        fast, exact = kn.hard(), kn.engine()._counter
        assert fast.worlds == pytest.approx(count.worlds, rel=1e-9)
        del exact


def expected_from_reference(kn: TimeBombKnowledge, ref) -> dict[int, dict[str, float]]:
    """E[#type in seat's unrevealed slots now] from the reference's literal probabilities."""
    layout = kn.layout
    r = len(kn.rounds)
    out: dict[int, dict[str, float]] = {}
    for seat in range(1, kn.setup.players + 1):
        shown = kn.table.cut_in_round[seat]
        hidden = [slot_value(seat, k) for k in range(shown + 1, layout.size(r, seat) + 1)]
        out[seat] = {
            t: sum(ref.probability((f"r{r}:{t}{i}", v)) for i in range(1, len(layout.of_type(t)) + 1) for v in hidden)
            for t in kn.setup.types
        }
    return out


@pytest.mark.parametrize(("data", "players"), [(TINY, 3), (SMALL, 4)], ids=["tiny", "small"])
def test_hard_belief_matches_the_reference(data, players: int) -> None:
    states = small_states(data, players, range(8, 14))[:4]
    assert len(states) >= 4
    for kn in states:
        engine = kn.engine()
        ref = reference.solve(engine.problem, [c for e in engine.entries for c in e.constraints])
        belief = kn.belief(soft=False)
        want = expected_from_reference(kn, ref)
        for seat in range(1, players + 1):
            got = belief.expected(seat)
            for t in kn.setup.types:
                assert got.get(t, 0.0) == pytest.approx(want[seat][t], abs=1e-9), (seat, t)
            if belief.cards_left(seat) and seat != kn.me:
                dist = belief.defuser_distribution(seat)
                assert sum(dist.values()) == pytest.approx(1.0)
                assert sum(k * p for k, p in dist.items()) == pytest.approx(want[seat][DEFUSE], abs=1e-9)


def test_in_play_distribution_matches_the_reference() -> None:
    for kn in small_states(TINY, 3, range(14, 17))[:6]:
        engine = kn.engine()
        ref = reference.solve(engine.problem, [c for e in engine.entries for c in e.constraints])
        for colour, dist in kn.in_play().items():
            removed = sum(ref.probability((f"r1:{colour}{i}", "out")) for i in (1, 2))
            assert sum((2 - k) * p for k, p in dist.items()) == pytest.approx(removed, abs=1e-9)


def brute_force_roles(kn: TimeBombKnowledge, bluff: BluffModel) -> dict[int, float]:
    """P(seat is Moriarty) by enumerating every role assignment and every world (independent of bluff.py)."""
    engine = kn.engine()
    pc = PCProblem()
    for var, dom in engine.problem.variables.items():
        pc.addVariable(var, list(dom))
    for c in [*engine.problem.structure, *(c for e in engine.entries for c in e.constraints)]:
        pc.addConstraint(_Check(c), sorted({v for v, _ in c.terms}))
    others = [s for s in range(1, kn.setup.players + 1) if s != kn.me]
    cards = [SHERLOCK] * kn.setup.sherlock_cards + [MORIARTY] * kn.setup.moriarty_cards
    cards.remove(kn.role)
    deals = set(itertools.permutations(cards))
    totals = {deal: 0.0 for deal in deals}
    for world in pc.getSolutionIter():
        for deal in deals:
            roles = dict(zip(others, deal, strict=False))
            like = 1.0
            for claim in kn.claims:
                if claim.seat == kn.me:
                    continue
                cut_before = claim.before
                size = kn.layout.size(claim.round, claim.seat)
                truth = sum(
                    1
                    for var, val in world.items()
                    if var.startswith(f"r{claim.round}:defuse")
                    and val in {slot_value(claim.seat, k) for k in range(cut_before + 1, size + 1)}
                )
                rate = bluff.rate(roles[claim.seat])
                like *= (1 - rate) if truth == claim.claimed else (rate / claim.size if claim.size else 1.0)
            totals[deal] += like
    z = sum(totals.values())
    return {s: sum(w for deal, w in totals.items() if deal[others.index(s)] == MORIARTY) / z for s in others}


def test_soft_layer_matches_an_independent_brute_force() -> None:
    bluff = BluffModel(0.2, 0.7)
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        def lie(state, seat, kn) -> None:
            del state, seat, kn

        state, knowledge = play(TableRules(3, TINY), seed, lie)
        kn = knowledge[1 + seed % 3]
        # replay with invented claims so that some are lies
        fresh = TimeBombKnowledge(kn.table_setup, bluff)
        for entry in kn.entries:
            if isinstance(entry, Claim) and entry.seat != kn.me:
                size = fresh.table.sizes[entry.seat]
                entry = Claim(entry.seat, rng.randint(0, size))
            try:
                fresh.add(entry)
            except (IllegalActionError, ContradictionError):
                break
        if not any(c.seat != fresh.me for c in fresh.claims):
            continue
        want = brute_force_roles(fresh, bluff)
        got = fresh.roles()
        for seat, p in want.items():
            assert got[seat] == pytest.approx(p, abs=1e-9)
        checked += 1
    assert checked >= 6


FIRST_HAND = ("defuse", "pink", "red", "blue", "green")


def five_player(me: int = 1, role: str = SHERLOCK, hand=FIRST_HAND) -> TimeBombKnowledge:
    setup = TableSetup()
    for entry in (Players(5), Me(me), Role(role), Start(1), Hand(tuple(hand))):
        setup.apply(entry)
    return TimeBombKnowledge(setup, BluffModel(0.1, 0.5))


def test_role_prior_without_claims() -> None:
    kn = five_player()
    assert kn.roles() == pytest.approx({1: 0.0, 2: 0.5, 3: 0.5, 4: 0.5, 5: 0.5})
    kn4 = TimeBombKnowledge(
        _setup(Players(4), Me(2), Role(MORIARTY), Start(1), Hand(("defuse", "pink", "red", "blue", "green")))
    )
    # 4 players: 3 Sherlock + 2 Moriarty cards, one unseen: as Moriarty, each other seat is Moriarty w.p. 1/4
    assert kn4.roles() == pytest.approx({1: 0.25, 2: 1.0, 3: 0.25, 4: 0.25})


def _setup(*entries) -> TableSetup:
    setup = TableSetup()
    for entry in entries:
        setup.apply(entry)
    return setup


def test_a_claim_contradicted_by_cuts_is_flagged_and_raises_suspicion() -> None:
    kn = five_player()
    kn.add(Claim(2, 3))  # player 2: "three defusing cards" (and two bombs)
    for seat, card in [(2, "blue"), (3, "blue"), (2, "pink"), (4, "green")]:
        kn.add(Cut(seat, card))
    report = kn.claim_reports()[0]
    assert not report.contradicted and 0 < report.p_true_hard < 1
    assert report.p_true_soft > report.p_true_hard  # the claim itself is (soft) evidence that it is true
    kn.add(Cut(2, "pink"))  # a third bomb: the claim is now impossible
    report = kn.claim_reports()[0]
    assert report.contradicted and report.p_true_hard == 0.0
    assert report.reason == "3 bombs were cut from player 2 after the claim, more than the 2 the claim leaves"
    # Bayes with a certain lie: 0.5 * 0.5/5 against 0.5 * 0.1/5 -> 5/6 for player 2
    roles = kn.roles()
    assert roles[2] == pytest.approx(5 / 6)
    assert roles[3] == roles[4] == roles[5] == pytest.approx((2 - 5 / 6) / 3)
    assert kn.roles(soft=False)[2] == pytest.approx(0.5)  # hard facts alone say nothing about roles


def test_claims_shift_holdings_and_the_layers_stay_apart() -> None:
    kn = five_player()
    before = kn.belief(soft=True).p_defuse(3)
    kn.add(Claim(3, 3))
    soft, hard = kn.belief(soft=True), kn.belief(soft=False)
    assert soft.p_defuse(3) > before == pytest.approx(hard.p_defuse(3))
    assert hard.p_defuse(3) == pytest.approx(4 / 20)  # 4 unseen defusing cards in 20 unseen cards
    assert sum(soft.p_types(3).values()) == pytest.approx(1.0)


def test_my_own_claims_do_not_move_beliefs_and_are_judged_exactly() -> None:
    kn = five_player()
    kn.add(Claim(1, 0))
    assert kn.roles()[2] == pytest.approx(0.5)
    report = kn.claim_reports()[0]
    assert report.contradicted and report.reason == "you held 1 defusing cards"


def test_contradiction_names_the_conflicting_observations() -> None:
    kn = five_player(hand=("defuse",) * 5)
    with pytest.raises(ContradictionError, match=r"'cut 2 defuse' contradicts earlier entries: 'hand defuse"):
        kn.add(Cut(2, "defuse"))
    assert not kn.entries and kn.table.cuts == []


def test_cut_of_a_card_i_do_not_hold() -> None:
    kn = five_player(me=2)
    with pytest.raises(ContradictionError) as err:
        kn.add(Cut(2, "yellow"))
    assert str(err.value) == ("'cut 2 yellow' contradicts what you can see: your hand had no yellow card left to cut "
                              "in round 1")  # true for an edit of a past entry too (no 'now')
    assert not kn.entries and kn.table.cuts == []


def test_illegal_entries_leave_the_state_unchanged() -> None:
    kn = five_player()
    with pytest.raises(IllegalActionError, match="must cut another player"):
        kn.add(Cut(1, "red"))
    with pytest.raises(InvalidObservationError, match="setup is complete"):
        kn.add(Players(5))
    assert kn.entries == []


def test_explain_an_impossible_count() -> None:
    kn = five_player(hand=("pink",) * 5)
    assert kn.in_play()["pink"] == pytest.approx({5: 1.0})
    core = kn.explain_whatif(InPlay("pink", 4))
    assert core is not None and [str(f) for f in core] == ["hand pink pink pink pink pink"]
    assert kn.explain_whatif(InPlay("red", 4)) is None


def test_undo_restores_every_layer() -> None:
    kn = five_player()
    base = (kn.roles(), kn.hard().probabilities().tolist(), kn.table.status())
    for entry in (Claim(2, 1), Cut(2, "red"), Claim(3, 0)):
        kn.add(entry)
    for _ in range(3):
        kn.undo()
    assert (kn.roles(), kn.hard().probabilities().tolist(), kn.table.status()) == base
    with pytest.raises(IndexError):
        kn.undo()


def test_redeal_links_the_rounds() -> None:
    kn = five_player(hand=("defuse", "defuse", "pink", "pink", "pink"))
    for seat, card in [(2, "blue"), (3, "green"), (4, "blue"), (5, "green"), (1, "pink")]:
        kn.add(Cut(seat, card))
    assert kn.table.phase == "redeal"
    with pytest.raises(IllegalActionError, match="gets 4 cards"):
        kn.add(Redeal(("pink",)))
    kn.add(Redeal(("defuse", "pink", "pink", "green")))
    assert len(kn.rounds) == 2
    # one pink was cut and I hold 2 now: at most 2 more pink unseen; at least 3 were in play
    assert min(kn.in_play()["pink"]) == 3
    assert kn.unseen()[DEFUSE] == pytest.approx({4: 1.0})  # 5 in play, I hold 1, none cut


def test_exact_reveal_matches_adding_the_cut() -> None:
    kn = five_player()
    kn.add(Claim(3, 2))
    belief = kn.belief()
    p = belief.p_types(3)
    after = belief.reveal(3, "red")
    kn.add(Cut(3, "red"))
    truth = kn.belief()
    for seat in range(2, 6):
        assert after.p_types(seat) == pytest.approx(truth.p_types(seat))
    assert after.roles() == pytest.approx(truth.roles())
    assert p["red"] == pytest.approx(truth.colour_shares()["red"] * 0 + p["red"])


@pytest.mark.parametrize("players", [4, 5, 6])
def test_soundness_on_random_games(players: int) -> None:
    failures: list[str] = []

    def check(state, seat, kn) -> None:
        failure = kn.rules_out(state)
        if failure:
            failures.append(failure)

    for seed in range(3):
        state, knowledge = play(TableRules(players), seed * 10 + players, check)
        assert not failures, failures[0]
    assert all(kn.rules_out(state, deep=True) is None for kn in list(knowledge.values())[:1])


def test_hypergeometric_defusers_without_any_cut() -> None:
    kn = five_player()
    dist = kn.belief(soft=False).defuser_distribution(2)
    # 4 unseen defusing cards among the 20 cards of players 2-5: player 2 holds 5 of them
    want = {k: math.comb(4, k) * math.comb(16, 5 - k) / math.comb(20, 5) for k in range(5)}
    assert dist == pytest.approx(want)
    assert np.isclose(sum(kn.in_play()["pink"].values()), 1.0)


def test_default_data_is_used() -> None:
    assert five_player().setup == DEFAULT_DATA.setup(5)
