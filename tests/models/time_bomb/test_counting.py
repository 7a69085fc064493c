"""The Time Bomb exact counter on tiny tables, against an independent enumeration of every world.

Small enough (a few hundred worlds) to run in well under a second, so mutation testing can run it per mutant;
every figure is exact: the world count, every literal's weight, the removed-count distributions.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from models.time_bomb.counting import (
    Carry,
    HandCard,
    HardCounter,
    Holds,
    InPlay,
    Layout,
    Meanings,
    Removed,
    SlotCard,
    SlotFull,
    compositions,
    posterior,
    summarize,
    summarize_meanings,
)
from models.time_bomb.data import DEFUSE, Setup
from models.time_bomb.variables import OUT, instance_variable, slot_value
from solver.constraints import CountEquals
from solver.counting import UnsupportedShape

SETUP = Setup(players=2, colours=("red", "blue"), bombs_per_colour=2, removed=1, defusers=1,
              hand_sizes=(2, 2), thresholds={}, sherlock_cards=1, moriarty_cards=1)
WIDE = Setup(players=2, colours=("red", "blue", "green"), bombs_per_colour=2, removed=2, defusers=1,
             hand_sizes=(3, 2), thresholds={}, sherlock_cards=1, moriarty_cards=1)


def build(layout: Layout, facts: list) -> tuple[HardCounter, list, Meanings, object]:
    """The layout's problem and each fact as its constraint (with its meaning), as the knowledge model does."""
    problem, meanings = layout.problem()
    constraints = []
    for m in facts:
        if isinstance(m, SlotCard):
            c = layout.slot_card(m)
        elif isinstance(m, HandCard):
            c = layout.hand_card(m)
        elif isinstance(m, InPlay):
            c = layout.in_play(m)
        elif isinstance(m, Holds):
            c = layout.holds(m)
        else:
            cut = [(f.seat, f.index) for f in facts if isinstance(f, SlotCard) and f.round == m.round - 1]
            c = layout.carry(m, sorted(set(cut)))
        constraints.append(meanings.add(c, m))
    return HardCounter(layout, meanings), constraints, meanings, problem


def enumerate_worlds(layout: Layout, constraints: list, cuts: list[SlotCard]) -> list[dict[str, str]]:
    """Every world, built the game's way (remove, deal, cut, redeal), kept if it satisfies every constraint."""
    s = layout.setup
    bombs = [i for i in layout.instances if i[0] != DEFUSE]
    worlds: list[dict[str, str]] = []

    def deal(r: int, cards: list, world: dict[str, str]) -> None:
        if r > len(layout.rounds):
            if all(c.holds(world) for c in constraints):
                worlds.append(dict(world))
            return
        slots = [slot_value(seat, k) for seat, k in layout.all_slots(r)]
        if len(slots) != len(cards):
            return
        for order in itertools.permutations(cards):
            w = dict(world)
            for inst in layout.instances:
                w[instance_variable(r, inst)] = OUT
            for inst, slot in zip(order, slots, strict=True):
                w[instance_variable(r, inst)] = slot
            cut = {slot_value(f.seat, f.index) for f in cuts if f.round == r}
            deal(r + 1, [i for i in order if w[instance_variable(r, i)] not in cut], w)

    for removed in itertools.combinations(bombs, s.removed):
        deal(1, [i for i in layout.instances if i not in removed], {})
    return worlds


def reference(layout: Layout, facts: list, constraints: list, problem) -> tuple[int, Counter, Counter]:
    worlds = enumerate_worlds(layout, [*problem.structure, *constraints], [f for f in facts if isinstance(f, SlotCard)])
    literals: Counter = Counter()
    removed: Counter = Counter()
    for w in worlds:
        literals.update(w.items())
        removed[tuple(sum(w[instance_variable(1, (c, i))] == OUT for i in range(1, layout.setup.bombs_per_colour + 1))
                      for c in layout.setup.colours)] += 1
    return len(worlds), literals, removed


ROUND2 = Layout(SETUP, ((2, 2), (2, 1)))
CASES = {
    "nothing known": (Layout(SETUP, ((2, 2),)), []),
    "my hand": (Layout(SETUP, ((2, 2),)), [HandCard(1, 1, DEFUSE, 1), HandCard(1, 1, "red", 1),
                                          HandCard(1, 1, "blue", 0)]),
    "my hand and a cut of mine": (Layout(SETUP, ((2, 2),)), [HandCard(1, 1, DEFUSE, 0), HandCard(1, 1, "red", 1),
                                                             HandCard(1, 1, "blue", 1), SlotCard(1, 1, 1, "blue")]),
    "cuts of the other hand": (Layout(SETUP, ((2, 2),)), [SlotCard(1, 2, 1, "red"), SlotCard(1, 2, 2, "red")]),
    "two rounds": (ROUND2, [HandCard(1, 1, DEFUSE, 1), HandCard(1, 1, "red", 1), HandCard(1, 1, "blue", 0),
                            SlotCard(1, 2, 1, "blue"),
                            *(Carry(2, i) for i in ROUND2.instances), SlotCard(2, 2, 1, "red")]),
    "two rounds, hand known in round 2": (ROUND2, [SlotCard(1, 1, 1, "red"), *(Carry(2, i) for i in ROUND2.instances),
                                                   HandCard(2, 2, DEFUSE, 1), HandCard(2, 2, "red", 0),
                                                   HandCard(2, 2, "blue", 0)]),
    "in play": (Layout(SETUP, ((2, 2),)), [InPlay("red", 1), SlotCard(1, 2, 2, DEFUSE)]),
    "three colours": (Layout(WIDE, ((2, 3),)), [HandCard(1, 1, DEFUSE, 0), HandCard(1, 1, "red", 2),
                                               HandCard(1, 1, "blue", 0), HandCard(1, 1, "green", 0),
                                               SlotCard(1, 2, 3, "green")]),
    "three colours, in play": (Layout(WIDE, ((2, 3),)), [InPlay("green", 0), SlotCard(1, 1, 2, "blue")]),
    "impossible": (Layout(SETUP, ((2, 2),)), [SlotCard(1, 2, 1, DEFUSE), SlotCard(1, 2, 2, DEFUSE)]),
    "my hand, two cuts of one type": (Layout(WIDE, ((3, 2),)), [
        HandCard(1, 1, DEFUSE, 0), HandCard(1, 1, "red", 2), HandCard(1, 1, "blue", 1), HandCard(1, 1, "green", 0),
        SlotCard(1, 1, 1, "red"), SlotCard(1, 1, 2, "red")]),
    "my hand contradicted by my cut": (Layout(SETUP, ((2, 2),)), [
        HandCard(1, 1, DEFUSE, 1), HandCard(1, 1, "red", 1), HandCard(1, 1, "blue", 0), SlotCard(1, 1, 1, "blue")]),
    "my hand bigger than its slots": (Layout(SETUP, ((2, 2),)), [
        HandCard(1, 1, DEFUSE, 1), HandCard(1, 1, "red", 1), HandCard(1, 1, "blue", 1)]),
    "both hands known": (Layout(SETUP, ((2, 2),)), [
        HandCard(1, 1, DEFUSE, 1), HandCard(1, 1, "red", 1), HandCard(1, 1, "blue", 0),
        HandCard(1, 2, DEFUSE, 0), HandCard(1, 2, "red", 0), HandCard(1, 2, "blue", 2)]),
    "a cut before a known hand": (Layout(SETUP, ((2, 2),)), [
        SlotCard(1, 1, 1, "red"), HandCard(1, 2, DEFUSE, 1), HandCard(1, 2, "red", 0), HandCard(1, 2, "blue", 1)]),
    "two reds cut, then a redeal": (Layout(SETUP, ((2, 2), (1, 1))), [
        SlotCard(1, 2, 1, "red"), SlotCard(1, 2, 2, "red"), *(Carry(2, i) for i in ROUND2.instances)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_count_and_every_literal_weight_match_the_enumeration(name: str) -> None:
    layout, facts = CASES[name]
    counter, constraints, _, problem = build(layout, facts)
    total, literals, _ = reference(layout, facts, constraints, problem)
    got = counter(problem, constraints, 1.0)
    assert got.worlds == total
    want = {lit: float(literals.get(lit, 0)) for lit in problem.literals()}
    if total == 0:
        assert got.weights == {}
        return
    assert set(got.weights) == set(want)
    for lit, w in want.items():
        assert got.weights[lit] == pytest.approx(w, abs=1e-9), lit


@pytest.mark.parametrize("name", sorted(CASES))
def test_composition_posterior_matches_the_enumeration(name: str) -> None:
    layout, facts = CASES[name]
    counter, constraints, _, problem = build(layout, facts)
    total, _, removed = reference(layout, facts, constraints, problem)
    for exact in (True, False):
        post = counter.posterior([*problem.structure, *constraints], exact=exact)
        assert post.consistent == (total > 0)
        assert post.worlds == pytest.approx(total, rel=1e-12, abs=1e-12)
        probs = post.probabilities()
        assert len(probs) == len(post.comps)
        for comp, p in zip(post.comps, probs, strict=True):
            assert p == pytest.approx(removed.get(comp, 0) / total if total else 0.0, abs=1e-12), comp
        for i, colour in enumerate(layout.setup.colours):
            dist: Counter = Counter()
            for comp, n in removed.items():
                dist[comp[i]] += n / total
            assert post.removed_distribution(colour) == pytest.approx(dict(dist), abs=1e-12)
            cap = layout.setup.bombs_per_colour
            in_play = post.in_play_distribution(colour)
            assert list(in_play) == sorted(cap - k for k in dist)
            assert in_play == pytest.approx({cap - k: p for k, p in dist.items()}, abs=1e-12)
        if exact:
            assert post.exact_weights == [removed.get(c, 0) for c in post.comps]
            assert all(type(w) is int for w in post.exact_weights)  # exact integers, never floats
        else:
            assert post.exact_weights is None
        for comp, log_w in zip(post.comps, post.log_weights.tolist(), strict=True):
            n = removed.get(comp, 0)
            assert log_w == (pytest.approx(math.log(n), abs=1e-9) if n else -math.inf), comp


def test_exact_weights_per_composition_without_facts() -> None:
    """Nothing known: C(2, removed) per colour times 4! deals."""
    layout = Layout(WIDE, ((2, 3),))
    problem, meanings = layout.problem()
    post = HardCounter(layout, meanings).posterior(list(problem.structure), exact=True)
    assert post.comps == [(2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 2, 0), (0, 1, 1), (0, 0, 2)]
    assert post.exact_weights == [1 * 120, 4 * 120, 4 * 120, 1 * 120, 4 * 120, 1 * 120]
    assert post.worlds == 15 * 120
    assert post.unseen.tolist() == [[1, 0, 2, 2], [1, 1, 1, 2], [1, 1, 2, 1], [1, 2, 0, 2], [1, 2, 1, 1],
                                    [1, 2, 2, 0]]
    assert post.unknown_slots == {1: 2, 2: 3}
    assert post.known_left == {}
    assert [p.tolist() for p in post.round_pools] == [post.unseen.tolist()]
    assert math.isclose(HardCounter(layout, meanings).posterior(list(problem.structure)).worlds, 1800)


def test_what_the_current_round_leaves() -> None:
    layout, facts = CASES["two rounds"]
    counter, constraints, _, problem = build(layout, facts)
    post = counter.posterior([*problem.structure, *constraints], exact=True)
    assert post.comps == [(1, 0), (0, 1)]
    # round 2: pool defuse 1, red 1|2, blue 1|0 (a blue cut in round 1); seat 2 cut a red; seat 1 unknown now
    assert [p.tolist() for p in post.round_pools] == [[[1, 1, 2], [1, 2, 1]], [[1, 1, 1], [1, 2, 0]]]
    assert post.unseen.tolist() == [[1, 0, 1], [1, 1, 0]]
    assert post.unknown_slots == {1: 2, 2: 0}
    assert post.known_left == {}
    known = CASES["my hand and a cut of mine"]
    counter, constraints, _, problem = build(*known)
    post = counter.posterior([*problem.structure, *constraints])
    assert post.known_left == {1: {DEFUSE: 0, "red": 1, "blue": 0}}
    assert post.unknown_slots == {2: 2}


def test_compositions_with_in_play_facts() -> None:
    assert compositions(WIDE) == [(2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 2, 0), (0, 1, 1), (0, 0, 2)]
    assert compositions(WIDE, {"green": 2, "red": 1}) == [(1, 1, 0)]
    assert compositions(WIDE, {"blue": 0}) == [(0, 2, 0)]
    assert compositions(WIDE, {"blue": 0, "red": 0}) == []
    big = Setup(players=2, colours=("red", "blue"), bombs_per_colour=2, removed=3, defusers=1,
                hand_sizes=(1, 1), thresholds={}, sherlock_cards=1, moriarty_cards=1)
    assert compositions(big) == [(2, 1), (1, 2)]


def test_problem_domains_and_builders() -> None:
    layout = Layout(SETUP, ((2, 2), (2, 1)))
    assert layout.instances == (("red", 1), ("red", 2), ("blue", 1), ("blue", 2), (DEFUSE, 1))
    assert layout.slots(2, 2) == ["s2.1"]
    assert layout.all_slots(2) == [(1, 1), (1, 2), (2, 1)]
    assert layout.domain(1, (DEFUSE, 1)) == ("s1.1", "s1.2", "s2.1", "s2.2")
    assert layout.domain(1, ("red", 1)) == (OUT, "s1.1", "s1.2", "s2.1", "s2.2")
    assert layout.domain(2, (DEFUSE, 1)) == (OUT, "s1.1", "s1.2", "s2.1")
    problem, meanings = layout.problem()
    assert problem.variables["r1:defuse1"] == ("s1.1", "s1.2", "s2.1", "s2.2")
    assert problem.structure[0] == CountEquals(
        (("r1:red1", OUT), ("r1:red2", OUT), ("r1:blue1", OUT), ("r1:blue2", OUT)), 1)
    assert len(problem.structure) == 1 + 4 + 3
    assert meanings.get(problem.structure[0]) == (Removed(1),)
    assert [meanings.get(c) for c in problem.structure[1:]] == [
        (SlotFull(1, 1, 1),), (SlotFull(1, 1, 2),), (SlotFull(1, 2, 1),), (SlotFull(1, 2, 2),),
        (SlotFull(2, 1, 1),), (SlotFull(2, 1, 2),), (SlotFull(2, 2, 1),)]
    assert problem.structure[-1] == CountEquals(tuple((f"r2:{n}", "s2.1") for n in
                                                      ("red1", "red2", "blue1", "blue2", "defuse1")), 1)
    assert layout.carry(Carry(2, (DEFUSE, 1)), [(2, 2)]) == CountEquals(
        (("r2:defuse1", "s1.1"), ("r2:defuse1", "s1.2"), ("r2:defuse1", "s2.1"), ("r1:defuse1", "s2.2")), 1)
    assert layout.carry(Carry(2, ("red", 2)), [(1, 1), (2, 2)]) == CountEquals(
        (("r2:red2", "s1.1"), ("r2:red2", "s1.2"), ("r2:red2", "s2.1"), ("r1:red2", OUT),
         ("r1:red2", "s1.1"), ("r1:red2", "s2.2")), 1)
    assert layout.in_play(InPlay("blue", 2)) == CountEquals((("r1:blue1", OUT), ("r1:blue2", OUT)), 0)
    assert layout.holds(Holds(1, 2, "red", 1, 2, 2)) == CountEquals((("r1:red1", "s2.2"), ("r1:red2", "s2.2")), 1)
    assert layout.hand_card(HandCard(2, 2, DEFUSE, 1)) == CountEquals((("r2:defuse1", "s2.1"),), 1)
    assert layout.slot_card(SlotCard(1, 1, 2, "blue")) == CountEquals((("r1:blue1", "s1.2"), ("r1:blue2", "s1.2")), 1)


def test_meanings_keep_every_meaning_once() -> None:
    meanings, other = Meanings(), Meanings()
    c = CountEquals((("r1:defuse1", "s1.1"),), 1)
    a, b = HandCard(1, 1, DEFUSE, 1), SlotCard(1, 1, 1, DEFUSE)
    assert meanings.add(c, a) is c
    meanings.add(c, a)
    other.add(c, b)
    other.add(c, a)
    meanings.update(other)
    assert meanings.get(c) == (a, b)
    assert meanings.get(CountEquals((), 0)) == ()


def test_an_empty_hand_is_known_from_one_shared_meaning() -> None:
    """Every type's "0 in an empty hand" is one constraint: its one meaning stands for all types."""
    layout = Layout(SETUP, ((3, 0),))
    summary = summarize_meanings(layout, [HandCard(1, 2, "red", 0)])
    assert summary.rounds[0].known == {2: {"red": 0, DEFUSE: 0, "blue": 0}}
    with pytest.raises(UnsupportedShape) as err:
        summarize_meanings(Layout(SETUP, ((2, 2),)), [HandCard(1, 2, "red", 1)])
    assert str(err.value) == "round 1: player 2's hand is only partly known"


def test_contradictions_and_unsupported_shapes() -> None:
    layout = Layout(SETUP, ((2, 2),))
    for facts in ([SlotCard(1, 1, 1, "red"), SlotCard(1, 1, 1, "blue")],
                  [HandCard(1, 1, "red", 1), HandCard(1, 1, "red", 2), HandCard(1, 1, "blue", 0),
                   HandCard(1, 1, DEFUSE, 0)],
                  [InPlay("red", 1), InPlay("red", 2)]):
        summary = summarize_meanings(layout, facts)
        assert summary.contradiction
        post = posterior(layout, summary, exact=True)
        zeros = [0] * len(post.comps)
        assert len(zeros) == (1 if isinstance(facts[0], InPlay) else 2)
        assert post.exact_weights == zeros and post.worlds == 0 and not post.consistent
        assert post.probabilities().tolist() == zeros
        assert post.removed_distribution("red") == {}
        assert posterior(layout, summary).worlds == 0
        assert posterior(layout, summary).exact_weights is None
        assert posterior(layout, summary).log_weights.tolist() == [-math.inf] * len(zeros)
        assert posterior(layout, summary).probabilities().tolist() == zeros
    same = summarize_meanings(layout, [SlotCard(1, 1, 1, "red"), SlotCard(1, 1, 1, "red")])
    assert same.contradiction is False and same.setup is SETUP and same.in_play == {}
    assert same.rounds[0].revealed == {(1, 1): "red"} and same.rounds[0].known == {}
    with pytest.raises(UnsupportedShape) as err:
        summarize_meanings(layout, [Holds(1, 1, "red", 1, 1, 2)])
    assert str(err.value) == ("the Time Bomb counter does not count what-ifs like "
                              "Holds(round=1, seat=1, card='red', count=1, first=1, last=2)")
    two = Layout(SETUP, ((2, 2), (2, 1)))
    with pytest.raises(UnsupportedShape) as err:
        summarize_meanings(two, [Carry(2, i) for i in two.instances[:-1]])
    assert str(err.value) == "round 2 is not linked to round 1 (no redeal observation)"
    problem, meanings = layout.problem()
    stranger = CountEquals((("r1:red1", OUT),), 1)
    with pytest.raises(UnsupportedShape) as err:
        summarize(layout, [*problem.structure, stranger], meanings)
    assert str(err.value) == f"a constraint the Time Bomb counter does not know: {stranger}"
    wrong = Layout(SETUP, ((2, 3),))
    problem, meanings = wrong.problem()
    with pytest.raises(UnsupportedShape) as err:
        HardCounter(wrong, meanings).posterior(list(problem.structure))
    assert str(err.value) == "round 1: 5 slots for 4 cards"
    one = Layout(WIDE, ((2, 2),))  # one composition left: both red cards removed
    with pytest.raises(UnsupportedShape) as err:
        posterior(one, summarize_meanings(one, [InPlay("red", 0)]))
    assert str(err.value) == "round 1: 4 slots for 5 cards"


def test_no_composition_left() -> None:
    """Both red and both blue cards removed, but only two are: no world, and no composition to weigh."""
    layout = Layout(WIDE, ((2, 3),))
    summary = summarize_meanings(layout, [InPlay("red", 0), InPlay("blue", 0)])
    assert summary.contradiction is False
    for exact in (True, False):
        post = posterior(layout, summary, exact=exact)
        assert post.comps == [] and post.log_weights.tolist() == [] and not post.consistent
        assert post.worlds == 0 and post.probabilities().tolist() == []
        assert post.removed_distribution("red") == {}


def test_the_log_weights_hold_past_the_float_range() -> None:
    """Three rounds of 60 cards: more than 10**160 worlds per composition, whose logs stay exact ratios."""
    big = Setup(players=2, colours=("red", "blue"), bombs_per_colour=20, removed=2, defusers=22,
                hand_sizes=(30, 30, 30), thresholds={}, sherlock_cards=1, moriarty_cards=1)
    layout = Layout(big, ((30, 30),) * 3)
    summary = summarize_meanings(layout, [Carry(r, i) for r in (2, 3) for i in layout.instances])
    exact = posterior(layout, summary, exact=True)
    logs = posterior(layout, summary)
    assert float(logs.log_weights.max()) > 400  # exp() of it overflows a float
    assert exact.comps == [(2, 0), (1, 1), (0, 2)]
    assert exact.exact_weights == [190 * math.factorial(60) ** 3, 400 * math.factorial(60) ** 3,
                                   190 * math.factorial(60) ** 3]
    assert logs.probabilities().tolist() == pytest.approx([190 / 780, 400 / 780, 190 / 780], abs=1e-12)
    assert logs.worlds == pytest.approx(780 * math.factorial(60) ** 3, rel=1e-9)


def test_count_needs_exact_weights() -> None:
    layout = Layout(SETUP, ((2, 2),))
    problem, meanings = layout.problem()
    post = HardCounter(layout, meanings).posterior(list(problem.structure))
    assert post.exact_weights is None
    with pytest.raises(AssertionError, match=r"^count\(\) needs posterior\(\.\.\., exact=True\)$"):
        post.count(layout)
