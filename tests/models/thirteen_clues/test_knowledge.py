"""The Thirteen Clues knowledge model: rulebook hints, soundness on random deals, agreement with brute force,
contradictions, undo, what-ifs and explanations."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, DEFAULT_DATA, SUITS
from models.thirteen_clues.deal import Deal, matcher, random_deal
from models.thirteen_clues.knowledge import MYSTERY, TableSetup, ThirteenCluesKnowledge, place_label
from models.thirteen_clues.observations import (
    Accusation,
    InformantBy,
    InformantLook,
    Me,
    Observation,
    Players,
    Private,
    Screen,
    Subcategories,
    Witness,
)
from solver import reference
from solver.errors import ContradictionError, IllegalActionError, InvalidObservationError

REF_LIMIT = 1500  # worlds; the brute force enumerates a few thousand worlds a second


# -- helpers: a player's true view of a dealt table ------------------------------------------------------------
def knowledge_for(deal: Deal, me: int, subcategories: bool = False) -> ThirteenCluesKnowledge:
    setup = TableSetup()
    for line in deal.setup_lines(me):
        setup.apply(line)
    if subcategories:
        setup.apply(Subcategories(True))
    return ThirteenCluesKnowledge(setup)


def true_places(deal: Deal, me: int) -> dict[str, str]:
    """Where each card I cannot see really is, in the model's place names."""
    out = dict.fromkeys(deal.screens[me], MYSTERY)
    for seat in deal.seats:
        if seat != me:
            left, right = deal.private[seat]
            if deal.players == 2:
                out |= {left: f"p{seat}L", right: f"p{seat}R"}
            else:
                out |= {left: f"p{seat}", right: f"p{seat}"}
    return out | {card: letter for letter, card in deal.informants.items()}


def legal_wrong_accusation(deal: Deal, seat: int, rng: random.Random) -> Accusation | None:
    """A wrong accusation ``seat`` may make: no card they can see, and not exactly their mystery."""
    visible = set(deal.visible_to(seat))
    in_play = [c.name for c in DEFAULT_DATA.cards_in_play(deal.players)]
    options = [[c for c in in_play if CARD_BY_NAME[c].category == cat and c not in visible] for cat in CATEGORIES]
    triples = [(p, loc, w) for p in options[0] for loc in options[1] for w in options[2]]
    wrong = [t for t in triples if set(t) != set(deal.screens[seat])]
    return Accusation(seat, *rng.choice(wrong), False) if wrong else None


def true_observations(
    deal: Deal, me: int, rng: random.Random, questions: int, hidden_letters: int, accusations: int,
    subcategories: bool = False,
) -> list[Observation]:
    """What ``me`` really observes: my informant looks (all letters but ``hidden_letters``), other players'
    looks, answers to random questions (some put to me), and legal wrong accusations by rivals and by me."""
    letters = list(deal.informants)
    mine = rng.sample(letters, max(len(letters) - hidden_letters, 0))
    out: list[Observation] = [InformantLook(letter, deal.informants[letter]) for letter in mine]
    rivals = [s for s in deal.seats if s != me]
    out += [InformantBy(rng.choice(letters), rng.choice(rivals)) for _ in range(2 if letters else 0)]
    subjects = [*DEFAULT_DATA.suits_in_play(deal.players), *CATEGORIES]
    if subcategories:
        subjects += ["Male", "Female", "Indoor", "Outdoor", "Close", "Ranged"]
    for _ in range(questions):
        target = rng.choice(deal.seats)
        asker = rng.choice([s for s in deal.seats if s != target])  # with two players: the other one
        side = rng.choice(("left", "right")) if deal.players == 2 else None
        out.append(deal.answer(target, rng.choice(subjects), asker, side))
    for _ in range(accusations):
        accusation = legal_wrong_accusation(deal, rng.choice([*rivals, me]), rng)
        if accusation is not None:
            out.append(accusation)
    rng.shuffle(out)
    return out


def observed(kn: ThirteenCluesKnowledge) -> list:
    """The constraints the observations added (the reference adds the problem's structure itself)."""
    return kn.knowledge.constraints()[len(kn.knowledge.problem.structure) :]


def assert_true_world_possible(kn: ThirteenCluesKnowledge, deal: Deal, me: int) -> None:
    possible = kn.knowledge.possible()
    truth = true_places(deal, me)
    assert set(truth) == set(kn.unseen)
    for card, place in truth.items():
        assert place in possible[card], f"{card} is really in {place}, but the model rules it out"
    mystery = kn.mystery()
    for card in deal.screens[me]:
        assert mystery[CARD_BY_NAME[card].category.lower()][card] > 0


def assert_reasons_minimal(kn: ThirteenCluesKnowledge, card: str, place: str, reasons: Sequence[Observation],
                           status: str) -> None:
    """The reasons force the fact on their own, and without any one of them it is no longer forced."""

    def forced(subset: Sequence[Observation]) -> bool:
        fresh = ThirteenCluesKnowledge(kn.setup)
        for o in subset:
            fresh.add(o)
        possible = fresh.knowledge.possible()[card]
        return place not in possible if status == "impossible" else possible == {place}

    assert forced(reasons)
    for i in range(len(reasons)):
        assert not forced([*reasons[:i], *reasons[i + 1 :]]), f"'{reasons[i]}' is not needed"


# -- rulebook hints --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 7))
def test_thirteen_unseen_cards_for_every_player_count_and_seat(players: int) -> None:
    """Rulebook hint: ruling out the removed suits and every card I can see leaves 13 spaces."""
    deal = random_deal(players, random.Random(players))
    for me in deal.seats:
        kn = knowledge_for(deal, me)
        assert len(kn.unseen) == 13
        assert sum(kn.capacities.values()) == 13
        assert set(kn.unseen) == set(true_places(deal, me))
        # Uniform prior over deals: any unseen P x L x W as my mystery, the other 10 cards anywhere else.
        per_cat = [sum(1 for c in kn.unseen if CARD_BY_NAME[c].category == cat) for cat in CATEGORIES]
        rest = math.factorial(10) // math.prod(math.factorial(cap) for p, cap in kn.capacities.items() if p != MYSTERY)
        count = kn.count()
        assert count.exact and count.worlds == math.prod(per_cat) * rest
        for cat, n in zip(CATEGORIES, per_cat, strict=True):
            assert all(p == pytest.approx(1 / n) for p in kn.mystery()[cat.lower()].values())


def zero_answer(players: int) -> tuple[Deal, int, int, str]:
    """A seeded deal where some rival answers "zero" about a suit or category I did not see all of."""
    for seed in range(1000):
        deal = random_deal(players, random.Random(seed))
        for seat in deal.seats[1:]:
            for subject in [*DEFAULT_DATA.suits_in_play(players), *CATEGORIES]:
                side = "left" if players == 2 else None
                if deal.answer(seat, subject, 1, side).count == 0:
                    return deal, 1, seat, subject
    raise AssertionError("no zero answer found")


@pytest.mark.parametrize("players", range(3, 7))
def test_zero_answer_rules_out_every_card_asked_about(players: int) -> None:
    """Rulebook hint: "Zero!" rules out every card asked about from my screen, no matter who asked."""
    deal, me, seat, subject = zero_answer(players)
    answers = {deal.answer(seat, subject, asker) for asker in deal.seats if asker != seat}
    assert answers == {Witness(seat, subject, 0)}  # the same observation whoever asked, me or a rival
    kn = knowledge_for(deal, me)
    kn.add(Witness(seat, subject, 0))
    asked = [c for c in kn.unseen if matcher(subject)(c)]
    assert asked, "the subject should include cards I cannot see"
    for card in asked:
        assert MYSTERY not in kn.knowledge.possible()[card]
        assert f"p{seat}" not in kn.knowledge.possible()[card]
        assert card not in kn.mystery()[CARD_BY_NAME[card].category.lower()]
        why = kn.explain(card)
        assert not isinstance(why, str) and why.reasons == (Witness(seat, subject, 0),)


def test_zero_answer_two_players() -> None:
    """With two players my question names a side; "zero" rules the suit out of my screen and that card."""
    deal, me, seat, subject = zero_answer(2)
    kn = knowledge_for(deal, me)
    kn.add(Witness(seat, subject, 0, "left"))
    for card in (c for c in kn.unseen if matcher(subject)(c)):
        assert {MYSTERY, f"p{seat}L"}.isdisjoint(kn.knowledge.possible()[card])


@pytest.mark.parametrize("players", range(2, 7))
def test_rival_wrong_accusation_rules_its_cards_out_of_my_mystery(players: int) -> None:
    rng = random.Random(players)
    deal = random_deal(players, rng)
    me, rival = 1, 2
    accusation = legal_wrong_accusation(deal, rival, rng)
    assert accusation is not None
    kn = knowledge_for(deal, me)
    kn.add(accusation)
    rival_places = {f"p{rival}", f"p{rival}L", f"p{rival}R"}
    for card in accusation.cards:
        if card in kn.unseen:
            assert MYSTERY not in kn.knowledge.possible()[card]
            assert rival_places.isdisjoint(kn.knowledge.possible()[card])
            assert kn.explain(card).reasons == (accusation,)  # type: ignore[union-attr]
        else:  # I see it, the rival does not: my private cards, or the rival's own screen
            assert card in (*deal.private[me], *deal.screens[rival])
    assert_true_world_possible(kn, deal, me)


def test_my_wrong_accusation_rules_out_only_that_triple() -> None:
    deal = random_deal(3, random.Random(11))
    kn = knowledge_for(deal, 1)
    before = kn.count().worlds
    accusation = legal_wrong_accusation(deal, 1, random.Random(0))
    assert accusation is not None
    kn.add(accusation)
    others = before / math.prod(len(v) for v in kn.mystery().values())  # worlds per mystery triple
    assert kn.count().worlds == before - others
    for card in accusation.cards:
        assert MYSTERY in kn.knowledge.possible()[card]


# -- soundness and brute force on random deals (hypothesis) ----------------------------------------------------
QUESTIONS = {2: (6, 12), 3: (8, 14), 4: (9, 15), 5: (14, 22), 6: (18, 30)}


def check_random_deal(players: int, seed: int, me_index: int, compared: list[int], limit: int) -> None:
    """Deal, observe the truth from one seat, and check soundness; where the state is small enough, check
    possible values and my mystery's probabilities against the brute-force reference."""
    rng = random.Random(seed)
    deal = random_deal(players, rng)
    me = me_index % players + 1
    subcategories = rng.random() < 0.3
    observations = true_observations(
        deal, me, rng, questions=rng.randint(*QUESTIONS[players]),
        hidden_letters=rng.randint(0, 2), accusations=rng.randint(0, 3), subcategories=subcategories,
    )
    kn = knowledge_for(deal, me, subcategories)
    for obs in observations:
        kn.add(obs)  # a ContradictionError here means the model rejects the truth
    assert_true_world_possible(kn, deal, me)
    count = kn.count()
    assert count.exact
    if count.worlds > limit:
        return  # too large for the brute force (its enumeration would overflow the limit)
    ref = reference.solve(kn.knowledge.problem, observed(kn), limit=limit)
    assert ref.worlds == count.worlds
    assert ref.possible() == kn.knowledge.possible()
    for cat, cards in kn.mystery().items():
        assert sum(cards.values()) == pytest.approx(1.0)
        for card, p in cards.items():
            assert p == pytest.approx(ref.probability((card, MYSTERY)), abs=1e-12), (cat, card)
    assert {c for cards in kn.mystery().values() for c in cards} == {
        c for c in kn.unseen if ref.weights[(c, MYSTERY)]
    }
    compared.append(players)


@pytest.mark.parametrize("players", range(2, 7))
def test_random_deals_are_sound_and_match_the_reference(players: int) -> None:
    compared: list[int] = []
    examples = 8

    # Derandomized so that the number of examples small enough to compare is the same on every run.
    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(0, 2**32), st.integers(0, 5))
    def check(seed: int, me_index: int) -> None:
        check_random_deal(players, seed, me_index, compared, REF_LIMIT)

    check()
    # Most examples are small enough: make sure the comparison really ran.
    assert len(compared) >= examples // 2, f"only {len(compared)} of {examples} examples compared"


@pytest.mark.slow
def test_many_random_deals_are_sound_and_match_the_reference() -> None:
    compared: list[int] = []

    @settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 5))
    def check(players: int, seed: int, me_index: int) -> None:
        check_random_deal(players, seed, me_index, compared, 10_000)

    check()
    assert len(compared) >= 250
    assert set(compared) == {2, 3, 4, 5, 6}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(0, 2**32))
def test_truth_stays_possible_after_every_observation(players: int, seed: int) -> None:
    """Realistic, larger states (few observations): the truth is never ruled out along the way."""
    rng = random.Random(seed)
    deal = random_deal(players, rng)
    observations = true_observations(deal, 1, rng, questions=6, hidden_letters=8, accusations=2)
    kn = knowledge_for(deal, 1)
    for obs in observations:
        kn.add(obs)
        assert_true_world_possible(kn, deal, 1)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.integers(0, 2**32))
def test_why_gives_a_minimal_set(players: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = random_deal(players, rng)
    kn = knowledge_for(deal, 1)
    for obs in true_observations(deal, 1, rng, questions=8, hidden_letters=1, accusations=2):
        kn.add(obs)
    possible = kn.knowledge.possible()
    ruled_out = [c for c in kn.unseen if MYSTERY not in possible[c]]
    certain = [c for c in kn.unseen if possible[c] == {MYSTERY}]
    for card, status in [*((c, "impossible") for c in rng.sample(ruled_out, min(2, len(ruled_out)))),
                         *((c, "certain") for c in certain[:1])]:
        why = kn.explain(card)
        assert not isinstance(why, str)
        assert why.status == status
        assert set(why.reasons) <= set(kn.knowledge.facts)
        assert_reasons_minimal(kn, card, MYSTERY, why.reasons, status)


# -- contradictions, undo, what-ifs ----------------------------------------------------------------------------
def fixed_four_player() -> Deal:
    """Seat 1 (me) holds Butcher and Harbor; the mysteries are on the screens."""
    return Deal(
        players=4,
        screens={1: ("Duke", "Park", "Knife"), 2: ("Nurse", "Library", "Rifle"), 3: ("Maid", "Parlor", "Poison"),
                 4: ("Dancer", "Theater", "Sword")},
        private={1: ("Butcher", "Harbor"), 2: ("Countess", "Officer"), 3: ("Market", "Museum"),
                 4: ("Crossbow", "Gun")},
        informants={"A": "Blowgun", "B": "Plaza", "C": "Sailor", "D": "Candlestick"},
    )


def table() -> ThirteenCluesKnowledge:
    return knowledge_for(fixed_four_player(), 1)


def test_fixed_table_unseen_cards() -> None:
    kn = table()
    assert sorted(kn.unseen) == sorted(
        ["Duke", "Park", "Knife", "Countess", "Officer", "Market", "Museum", "Crossbow", "Gun", "Blowgun", "Plaza",
         "Sailor", "Candlestick"]
    )
    assert kn.where_visible("Butcher") == "one of your private cards"
    assert kn.where_visible("Rifle") == "on player 2's screen"
    assert kn.where_visible("Duke") is None
    assert kn.explain("Rifle") == "Rifle is on player 2's screen, so it is not in your mystery"


# Unseen Pink cards: Duke (my screen), Market (player 3's hand), Crossbow (player 4's hand). True answers: player 2
# sees Duke (1), player 3 sees Duke and Market (2), player 4 sees Duke and Crossbow (2).
PINK_3, PINK_4 = Witness(3, "Pink", 2), Witness(4, "Pink", 2)
# Player 2 cannot see Sailor, Market or Crossbow, so this is legal: none of them is on my screen or in their hand.
ACCUSE_2 = Accusation(2, "Sailor", "Market", "Crossbow", False)


def test_true_answers_of_the_fixed_table() -> None:
    deal = fixed_four_player()
    assert [deal.answer(s, "Pink", 1) for s in (2, 3, 4)] == [Witness(2, "Pink", 1), PINK_3, PINK_4]
    assert legal_wrong_accusation(deal, 2, random.Random(0)) is not None
    assert not {"Sailor", "Market", "Crossbow"} & set(deal.visible_to(2))


def test_why_names_the_unique_minimal_reasons() -> None:
    """Pink: with m Pink cards in my mystery, (3) says Market/Crossbow/Duke put 2 - m in player 3's hand and
    (4) 2 - m in player 4's; there are only 3 Pink cards, so m >= 1. The accusation keeps Market and Crossbow out
    of my mystery, so Duke is in it. Without any one of the three it is not forced; player 2's answer is not
    needed."""
    kn = table()
    for o in (InformantLook("A", "Blowgun"), Witness(2, "Pink", 1), PINK_3, PINK_4, ACCUSE_2):
        kn.add(o)
    assert kn.mystery()["person"] == {"Duke": 1.0}
    why = kn.explain("Duke")
    assert not isinstance(why, str)
    assert (why.status, why.reasons) == ("certain", (PINK_3, PINK_4, ACCUSE_2))
    assert_reasons_minimal(kn, "Duke", MYSTERY, why.reasons, "certain")
    why = kn.explain("Market")
    assert not isinstance(why, str)
    assert (why.status, why.reasons) == ("impossible", (ACCUSE_2,))
    open_ = kn.explain("Sailor", "p3")
    assert not isinstance(open_, str) and open_.status == "open" and open_.reasons == ()
    assert open_.example is not None and open_.example["Sailor"] == "p3"
    assert kn.explain("Sailor").reasons == (ACCUSE_2,)  # type: ignore[union-attr]


def test_contradiction_names_the_earlier_observations_and_changes_nothing() -> None:
    """"Player 2 sees no Pink" puts no Pink in my mystery; then (3) and (4) need 4 Pink cards out of 3."""
    kn = table()
    for o in (InformantLook("A", "Blowgun"), PINK_3, ACCUSE_2, PINK_4):
        kn.add(o)
    before = (kn.knowledge.possible(), kn.count(), kn.mystery(), kn.knowledge.facts)
    bad = Witness(2, "Pink", 0)
    with pytest.raises(ContradictionError) as err:
        kn.add(bad)
    assert err.value.conflicts == [PINK_3, PINK_4]
    assert str(err.value) == "'ask 2 Pink 0' contradicts earlier entries: 'ask 3 Pink 2'; 'ask 4 Pink 2'"
    assert (kn.knowledge.possible(), kn.count(), kn.mystery(), kn.knowledge.facts) == before
    # Minimal: each one alone is compatible with the bad answer.
    for keep in (PINK_3, PINK_4):
        fresh = table()
        fresh.add(keep)
        fresh.add(bad)
    kn.add(Witness(2, "Pink", 1))  # the true answer still goes in
    assert kn.knowledge.facts[-1] == Witness(2, "Pink", 1)


def test_contradicting_a_whatif() -> None:
    kn = table()
    kn.add(PINK_3)
    kn.add(PINK_4)
    kn.add(Accusation(1, "Duke", "Park", "Knife", False), hypothetical=True)  # what if I accused my truth?
    kn.add(ACCUSE_2)
    # Duke is forced into my mystery, so the mystery must avoid Park or Knife; a what-if naming both clashes.
    with pytest.raises(ContradictionError) as err:
        kn.add(Accusation(1, "Duke", "Park", "Knife", True), hypothetical=True)
    assert Accusation(1, "Duke", "Park", "Knife", False) in err.value.conflicts
    kn.knowledge.clear_whatifs()
    kn.add(Accusation(1, "Duke", "Park", "Knife", True), hypothetical=True)
    assert kn.solved()


@pytest.mark.parametrize(
    ("obs", "reason"),
    [
        (Witness(1, "Red", 0), "you see 3 Red cards, not 0"),
        (InformantLook("A", "Rifle"), "'Rifle' is on player 2's screen, so it cannot be informant A"),
        (InformantLook("B", "Butcher"), "'Butcher' is one of your private cards"),
    ],
)
def test_contradictions_with_what_i_see(obs: Observation, reason: str) -> None:
    kn = table()
    with pytest.raises(ContradictionError, match=reason) as err:
        kn.add(obs)
    assert err.value.conflicts == []
    assert kn.knowledge.facts == []


@pytest.mark.parametrize("obs", [Accusation(2, "Nurse", "Library", "Rifle", False),
                                 Accusation(2, "Duke", "Museum", "Blowgun", True)])
def test_an_accusation_against_a_screen_i_see_names_that_screen(obs: Observation) -> None:
    kn = table()
    with pytest.raises(ContradictionError, match="player 2's mystery is Nurse Library Rifle") as err:
        kn.add(obs)
    assert err.value.conflicts == [Screen(2, ("Nurse", "Library", "Rifle"))]  # the entry that showed it to me
    assert kn.knowledge.facts == []


def test_accusing_a_card_the_accuser_sees_is_a_rule_break() -> None:
    kn = table()
    with pytest.raises(IllegalActionError) as err:
        kn.add(Accusation(3, "Nurse", "Park", "Knife", False))
    assert str(err.value) == ("'accuse 3 Nurse Park Knife wrong': player 3 cannot accuse 'Nurse': they can see it on "
                              "player 2's screen (an accusation never names a card its maker can see)")
    assert kn.knowledge.facts == []


def test_undo() -> None:
    kn = table()
    start = kn.count().worlds
    kn.add(Witness(2, "Pink", 1))
    after = kn.count().worlds
    kn.add(InformantLook("A", "Blowgun"))
    assert kn.undo() == InformantLook("A", "Blowgun")
    assert kn.count().worlds == after
    assert kn.undo() == Witness(2, "Pink", 1)
    assert kn.count().worlds == start
    with pytest.raises(IndexError):
        kn.undo()


def test_whatif_then_clear() -> None:
    kn = table()
    kn.add(Witness(2, "Pink", 1))
    facts_only = kn.mystery()
    kn.add(Accusation(1, "Duke", "Park", "Knife", True), hypothetical=True)  # "what if I accused this?"
    assert kn.mystery() == {"person": {"Duke": 1.0}, "location": {"Park": 1.0}, "weapon": {"Knife": 1.0}}
    assert kn.solved()
    assert kn.knowledge.whatifs == [Accusation(1, "Duke", "Park", "Knife", True)]
    assert kn.knowledge.facts == [Witness(2, "Pink", 1)]
    assert kn.knowledge.clear_whatifs() == [Accusation(1, "Duke", "Park", "Knife", True)]
    assert kn.mystery() == facts_only
    assert not kn.solved()


def test_locations_and_place_labels() -> None:
    kn = table()
    kn.add(InformantLook("A", "Blowgun"))
    assert kn.locations()["Blowgun"] == ["A"]
    assert kn.locations()["Sailor"] == [MYSTERY, "p2", "p3", "p4", "B", "C", "D"]
    assert place_label(MYSTERY) == "your mystery"
    assert place_label("p3") == "player 3 (private cards)"
    assert place_label("p2L") == "player 2 (left private card)"
    assert place_label("C") == "informant C"


# -- input checks ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("obs", "message"),
    [
        (Witness(5, "Red", 0), "seat 5: expected 1 to 4"),
        (Witness(2, "Female", 0), "enable the house rule with 'subcategories on'"),
        (Witness(2, "Red", 0, "left"), "'left'/'right' is only for two-player games"),
        (Witness(2, "Red", 4), "count 4: there are only 3 Red cards in play"),
        (Witness(2, "Gray", 1), "the Gray suit is not in play with 4 players"),
        (Witness(2, "Gray", 0), "the Gray suit is not in play with 4 players"),
        (InformantLook("E", "Sailor"), "'informant E Sailor': expected a letter A to D"),
        (InformantLook("A", "Coachman"), "'Coachman' is not in play with 4 players \\(the Gray suit is removed\\)"),
        (InformantBy("A", 1), "that is you; type 'informant A CARD'"),
        (InformantBy("A", 7), "seat 7"),
        (Accusation(1, "Butcher", "Park", "Knife", False), "you cannot accuse with 'Butcher': it is one of your"),
        (Accusation(2, "Coachman", "Park", "Knife", False), "not in play"),
        (Players(4), "is a setup entry, not an observation"),
    ],
)
def test_invalid_observations(obs: Observation, message: str) -> None:
    kn = table()
    with pytest.raises(InvalidObservationError, match=message):
        kn.add(obs)
    assert kn.knowledge.facts == []


def test_two_player_questions_name_a_side() -> None:
    deal, me, seat, subject = zero_answer(2)
    kn = knowledge_for(deal, me)
    with pytest.raises(InvalidObservationError, match="two-player questions name 'left' or 'right'"):
        kn.add(Witness(seat, subject, 0))


def test_no_informants_with_six_players() -> None:
    kn = knowledge_for(random_deal(6, random.Random(0)), 1)
    with pytest.raises(InvalidObservationError, match="there is no Secret Informant with 6 players"):
        kn.add(InformantLook("A", "Knife"))


def test_subcategory_questions_with_the_house_rule() -> None:
    deal = fixed_four_player()
    kn = knowledge_for(deal, 1, subcategories=True)
    answer = deal.answer(2, "Female", 1)
    kn.add(answer)
    assert_true_world_possible(kn, deal, 1)


# -- the setup -------------------------------------------------------------------------------------------------
def test_setup_lists_what_is_missing() -> None:
    setup = TableSetup()
    assert setup.missing() == ["players N", "me SEAT", "private CARD CARD"]
    setup.apply(Players(3))
    setup.apply(Me(2))
    assert setup.missing() == ["private CARD CARD", "screen 1 PERSON LOCATION WEAPON",
                               "screen 3 PERSON LOCATION WEAPON"]
    with pytest.raises(InvalidObservationError, match="setup incomplete: still need private CARD CARD"):
        ThirteenCluesKnowledge(setup)


@pytest.mark.parametrize(
    ("lines", "bad", "message"),
    [
        ([], Players(7), "players 7: expected 2 to 6"),
        ([Players(3)], Players(4), "players already set to 3"),
        ([Me(5)], Players(4), "your seat 5 would not exist"),
        ([Players(3)], Me(4), "seat 4: expected 1 to 3"),
        ([Players(3), Screen(2, ("Duke", "Park", "Knife"))], Me(2), "you entered a screen for seat 2"),
        ([Players(3), Me(2)], Screen(2, ("Duke", "Park", "Knife")), "that is your seat"),
        ([Players(3)], Private(("Duke", "Duke")), "a card is named twice"),
        ([Players(3)], Private(("Duke", "Sailor")), "'Sailor' is not in play with 3 players"),
        ([Private(("Sailor", "Duke"))], Players(3), "'Sailor' is not in play with 3 players"),
        ([Players(3), Private(("Duke", "Park"))], Screen(2, ("Duke", "Market", "Knife")),
         "'Duke' is already on your private cards"),
        ([Players(3), Screen(1, ("Duke", "Park", "Knife"))], Screen(2, ("Nurse", "Park", "Rifle")),
         "'Park' is already on player 1's screen"),
        ([Players(3)], Witness(2, "Red", 0), "is not a setup entry"),
    ],
)
def test_setup_errors(lines: list, bad: object, message: str) -> None:
    setup = TableSetup()
    for line in lines:
        setup.apply(line)
    with pytest.raises(InvalidObservationError, match=message):
        setup.apply(bad)  # type: ignore[arg-type]


def test_setup_screen_can_be_retyped() -> None:
    setup = TableSetup()
    setup.apply(Players(3))
    setup.apply(Screen(2, ("Duke", "Park", "Knife")))
    setup.apply(Screen(2, ("Duke", "Market", "Knife")))  # a correction replaces the earlier screen
    assert setup.screens[2] == ("Duke", "Market", "Knife")


def test_suits_named_in_play() -> None:
    assert set(SUITS) - set(DEFAULT_DATA.suits_in_play(4)) == {"Gray", "Brown"}
