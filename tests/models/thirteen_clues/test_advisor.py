"""The Thirteen Clues advisor: exact values on a state small enough to work out by hand, agreement with
recounting after each possible answer, accusation odds from an independent count, and the advisor bot."""

from __future__ import annotations

import functools
import math
import random

import pytest

from models.thirteen_clues.advisor import (
    Advice,
    AdvisorBot,
    Weights,
    advise,
    information_lower_bound,
    legal_actions,
)
from models.thirteen_clues.bots import bot_factory, make_bot
from models.thirteen_clues.data import CATEGORIES
from models.thirteen_clues.deal import random_deal
from models.thirteen_clues.knowledge import MYSTERY, TableSetup, ThirteenCluesKnowledge
from models.thirteen_clues.observations import (
    Accuse,
    Ask,
    Consult,
    InformantLook,
    Me,
    Players,
    Private,
    Screen,
    TakeGlass,
    Witness,
)
from models.thirteen_clues.rules import TableRules, new_game
from solver.constraints import require
from solver.counting import AllocationCounter
from solver.errors import IllegalActionError
from solver.simulate import Matchup, run_games, summarize


def hand_state() -> ThirteenCluesKnowledge:
    """Two players, me = 1. I see Officer/Parlor/Knife on player 2's screen and hold Duke and Market, and I have
    looked at all eight informants. Five cards are left: Butcher, Countess (Persons), Library, Park (Locations)
    and Poison (the only Weapon). My mystery is Poison with one Person and one Location; the other Person and
    Location are player 2's left and right cards, in either order. So 4 mysteries, 2 deals each, all equally
    likely: 2 bits of uncertainty."""
    setup = TableSetup()
    for entry in (Players(2), Me(1), Private(("Duke", "Market")), Screen(2, ("Officer", "Parlor", "Knife"))):
        setup.apply(entry)
    kn = ThirteenCluesKnowledge(setup)
    informants = ["Nurse", "Maid", "Museum", "Harbor", "Crossbow", "Sword", "Blowgun", "Rifle"]
    for letter, card in zip("ABCDEFGH", informants, strict=True):
        kn.add(InformantLook(letter, card))
    return kn


def by_action(advice: list[Advice]) -> dict[str, Advice]:
    return {str(a.action): a for a in advice}


def test_hand_worked_question_values() -> None:
    """'ask 2 Red left': player 2 counts my screen and their left card. Red cards are Butcher, Library, Poison.
    Enumerating the 8 deals: answer 3 in 4 of them (mysteries Butcher+Library twice, Butcher+Park once,
    Countess+Library once), answer 2 in the other 4, mirrored. Each answer leaves 3 mysteries at 1/2, 1/4, 1/4
    (entropy 1.5 bits), so the question is worth 2 - 1.5 = 0.5 bits and leaves 3 mysteries on average."""
    advice = by_action(advise(hand_state()))
    red = advice["ask 2 Red left"]
    assert red.bits == pytest.approx(0.5)
    assert red.expected_combinations == pytest.approx(3.0)
    assert dict(red.outcomes) == pytest.approx({"2": 0.5, "3": 0.5})
    assert red.p_correct == pytest.approx(0.5)  # the best triple after either answer has probability 1/2
    # No question does better here: every suit question mixes a Person and a Location, and the categories
    # say nothing about my mystery.
    asks = [a for a in advice.values() if isinstance(a.action, Ask)]
    assert max(a.bits for a in asks) == pytest.approx(0.5)
    assert {str(a.action) for a in asks if a.bits == pytest.approx(0.5)} == {
        "ask 2 Red left", "ask 2 Red right", "ask 2 Green left", "ask 2 Green right"
    }
    assert not any(isinstance(a.action, Consult) for a in advice.values())  # every letter already looked at


def test_zero_information_questions_score_zero_bits() -> None:
    """'ask 2 Person left' is 1 (my mystery's Person) plus whether their left card is the Person or the
    Location, a coin flip whatever my mystery is; 'ask 2 Pink left' is always 0 (the Pink cards are mine or
    an informant's). Neither tells me anything."""
    advice = by_action(advise(hand_state()))
    for line in ("ask 2 Person left", "ask 2 Pink left", "ask 2 Weapon right"):
        assert advice[line].bits == pytest.approx(0.0, abs=1e-12), line
        assert advice[line].expected_combinations == pytest.approx(4.0), line
    assert dict(advice["ask 2 Person left"].outcomes) == pytest.approx({"1": 0.5, "2": 0.5})
    assert dict(advice["ask 2 Pink left"].outcomes) == pytest.approx({"0": 1.0})


def test_hand_worked_accusations() -> None:
    """Four equally likely mysteries: each accusation is right with probability 1/4, and its outcome carries
    H(1/4) = 0.811 bits. In a two-player game nothing is wasted by a wrong accusation, so with 2 bits at stake
    an accusation outranks the 0.5-bit questions."""
    advice = advise(hand_state())
    accusations = [a for a in advice if isinstance(a.action, Accuse)]
    assert sorted(a.action.cards for a in accusations) == sorted(
        (p, loc, "Poison") for p in ("Butcher", "Countess") for loc in ("Library", "Park")
    )
    h = -(0.25 * math.log2(0.25) + 0.75 * math.log2(0.75))
    for a in accusations:
        assert a.p_correct == pytest.approx(0.25)
        assert a.bits == pytest.approx(h)
        assert a.expected_combinations == pytest.approx(0.25 * 1 + 0.75 * 3)
    assert isinstance(advice[0].action, Accuse)


def test_certain_mystery_puts_the_accusation_first() -> None:
    kn = hand_state()
    kn.add(Witness(2, "Red", 3, "left"))
    kn.add(Witness(2, "Red", 3, "right"))  # both of player 2's cards are non-Red: Butcher and Library are mine
    advice = advise(kn)
    top = advice[0]
    assert top.action == Accuse("Butcher", "Library", "Poison")
    assert top.p_correct == 1.0 and top.expected_combinations == 1.0
    assert top.reason.startswith("certain")
    assert all(a.score <= 0 for a in advice[1:])


def game_state(players: int, seed: int, questions: int) -> ThirteenCluesKnowledge:
    """Seat 1's knowledge after ``questions`` true random answers on a random deal."""
    rng = random.Random(seed)
    deal = random_deal(players, rng)
    setup = TableSetup()
    for line in deal.setup_lines(1):
        setup.apply(line)
    kn = ThirteenCluesKnowledge(setup)
    subjects = [*setup.data.suits_in_play(players), *CATEGORIES]
    for _ in range(questions):
        seat = rng.randint(2, players)
        side = rng.choice(["left", "right"]) if players == 2 else None
        kn.add(deal.answer(seat, rng.choice(subjects), asker=1, side=side))
    return kn


def mystery_entropy(kn: ThirteenCluesKnowledge) -> tuple[float, int, float]:
    """(entropy of my mystery, number of possible mysteries, world count) of the state as it is, recounted from
    scratch: the mystery distribution from the joint counter's rows, the world count from the plain counter."""
    problem = kn.knowledge.problem
    observed = [c for e in kn.knowledge.entries for c in e.constraints]
    counter = AllocationCounter(kn.capacities, MYSTERY)
    total = counter(problem, observed, budget=60).worlds
    rows = counter.joint(problem, observed, kn.private_places(2)[0]).pivot_counts()
    assert rows.sum() == total
    probs = [w / total for w in rows.tolist() if w]
    return -sum(p * math.log2(p) for p in probs), len(probs), total


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
def test_question_and_consult_values_equal_recounting_each_answer(players: int, seed: int) -> None:
    """Bits and expected combinations from the joint counts equal adding each possible answer as a what-if
    and recounting with the plain counter."""
    kn = game_state(players, seed, questions=5)
    h0, _, total = mystery_entropy(kn)
    advice = advise(kn)
    asks = [a for a in advice if isinstance(a.action, Ask)]
    consults = [a for a in advice if isinstance(a.action, Consult)]
    # The best questions, the worst one, and two consultations.
    for item in [*asks[:3], asks[-1], *consults[:2]]:
        line = str(item.action)
        h_after = combos = mass = 0.0
        for value, p in item.outcomes:
            if isinstance(item.action, Ask):
                obs = Witness(item.action.seat, item.action.subject, int(value))
            else:
                obs = InformantLook(item.action.letter, value)
            kn.add(obs, hypothetical=True)
            h, n, worlds = mystery_entropy(kn)
            kn.undo()
            assert worlds / total == pytest.approx(p), (line, value)
            h_after += p * h
            combos += p * n
            mass += p
        assert mass == pytest.approx(1.0)
        assert item.bits == pytest.approx(h0 - h_after, abs=1e-9), line
        assert item.expected_combinations == pytest.approx(combos), line


def test_accusation_odds_equal_an_independent_count() -> None:
    """p_correct of each accusation = worlds with that triple as my mystery / all worlds (plain counter)."""
    kn = game_state(4, 5, questions=6)
    problem = kn.knowledge.problem
    observed = [c for e in kn.knowledge.entries for c in e.constraints]
    counter = AllocationCounter(kn.capacities, MYSTERY)
    total = counter(problem, observed, budget=60).worlds
    accusations = [a for a in advise(kn) if isinstance(a.action, Accuse)]
    assert len(accusations) >= 2
    assert sum(a.p_correct for a in accusations) == pytest.approx(1.0)
    for a in accusations:
        worlds = counter(problem, [*observed, *(require(c, MYSTERY) for c in a.action.cards)], budget=60).worlds
        assert a.p_correct == pytest.approx(worlds / total)
    # An accusation naming a card I can see is legal to rank when given, and is never right.
    visible = Accuse(kn.setup.screens[2][0], *accusations[0].action.cards[1:])
    (ranked,) = advise(kn, [visible])
    assert ranked.p_correct == 0.0


def test_legal_actions_cover_the_rules() -> None:
    kn = game_state(4, 3, questions=3)
    actions = legal_actions(kn)
    asks = [a for a in actions if isinstance(a, Ask)]
    assert len(asks) == 3 * (len(kn.setup.data.suits_in_play(4)) + 3)
    assert [a for a in actions if isinstance(a, Consult)] == [Consult(x) for x in "ABCD"]
    kn.add(InformantLook("B", next(c for c in kn.unseen)), hypothetical=True)
    assert Consult("B") not in legal_actions(kn)


def test_what_a_question_gives_away() -> None:
    """A glass handed to a player holding none adds no action (they would take one from the supply); to a
    player holding one it does, and the weights turn that into a lower score."""
    kn = game_state(4, 4, questions=2)
    ask = Ask(2, "Red")
    (free,) = advise(kn, [ask], glasses=1, table_glasses={1: 1, 2: 0, 3: 0, 4: 0})
    (costly,) = advise(kn, [ask], glasses=1, table_glasses={1: 1, 2: 1, 3: 0, 4: 0})
    assert free.extra_actions == 0 and costly.extra_actions == 1
    assert free.bits == costly.bits
    assert costly.score == pytest.approx(free.score - Weights().glass)
    assert free.gives_away >= 0
    heavy = Weights(leak=2.0)
    (leaky,) = advise(kn, [ask], glasses=1, table_glasses={1: 1, 2: 0, 3: 0, 4: 0}, weights=heavy)
    assert leaky.score == pytest.approx(free.bits - 2.0 * free.gives_away)
    # Consulting never hands anyone an extra action and tells rivals nothing about their mysteries.
    (consult,) = advise(kn, [Consult("A")])
    assert consult.gives_away == 0 and consult.score == consult.bits


def test_wrong_accusation_cost_grows_with_glasses_left() -> None:
    kn = game_state(4, 6, questions=6)
    one = [a for a in advise(kn, glasses=1) if isinstance(a.action, Accuse)]
    three = by_action(advise(kn, glasses=3))
    for a in one:
        if a.p_correct < 1:
            assert three[str(a.action)].score < a.score


def test_information_lower_bound() -> None:
    """Hand state before the informant looks: 4 Persons x 4 Locations x 5 Weapons unseen = 80 mysteries; a
    Red question can be answered 0..3 (all three Red cards are unseen), 2 bits at most: log2(80) / 2."""
    kn = hand_state()
    assert information_lower_bound(kn) == pytest.approx(math.log2(80) / 2)


def test_advisor_is_registered_and_plays_legal_games_with_glass_taking() -> None:
    assert bot_factory("advisor") is AdvisorBot
    bot = make_bot("advisor", 1, random.Random(0))
    assert bot.name == "advisor"
    # Two glasses for four players: the supply runs dry and players must take glasses from each other.
    rules = TableRules(4, glasses=2)
    matchup = Matchup(functools.partial(new_game, rules), ("advisor", "logic", "advisor", "logic"), make_bot)
    records = run_games(matchup, 3, seed=11)
    assert all(r.winner is not None for r in records)
    assert sum(r.stats[0]["glasses_taken"] + r.stats[2]["glasses_taken"] for r in records) > 0


def test_take_glass_prefers_the_richest_player() -> None:
    kn = game_state(4, 7, questions=1)
    advice = advise(kn, [TakeGlass(2), TakeGlass(3)], table_glasses={1: 0, 2: 1, 3: 2, 4: 0})
    assert advice[0].action == TakeGlass(3)


def win_share(games: int, seed: int, players: int = 4) -> float:
    bots = ("advisor",) + ("logic",) * (players - 1)
    matchup = Matchup(functools.partial(new_game, TableRules(players)), bots, make_bot)
    return summarize(run_games(matchup, games, seed), bots).bots[0].win_share


def test_advisor_beats_three_logic_bots() -> None:
    """40 seeded four-player games: the advisor wins far more than its fair 25% against random questioners."""
    assert win_share(40, seed=2024) >= 0.5


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_advisor_beats_logic_bots_at_every_table_size(players: int) -> None:
    """100 games at each table size: at least one and a half times the fair share."""
    assert win_share(100, seed=7, players=players) >= 1.5 / players


def test_actions_the_rules_forbid_are_refused_with_the_reason() -> None:
    kn = game_state(4, 8, questions=0)
    with pytest.raises(IllegalActionError, match="'ask 1 Red': expected another player's seat"):
        advise(kn, [Ask(1, "Red")])
    with pytest.raises(IllegalActionError, match="two-player games, and only there"):
        advise(kn, [Ask(2, "Red", "left")])
    with pytest.raises(IllegalActionError, match="no informant E with 4 players"):
        advise(kn, [Consult("E")])
