"""Evidence knowledge: exact probabilities (closed form = component counter = brute force), possible values
(CP-SAT = brute force), soundness in random games, why, contradictions, setup checks, expected scores."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from models.evidence.data import COLOURS, DEFAULT_DATA, GameData
from models.evidence.knowledge import EVIDENCE, EvidenceKnowledge, TableSetup, score_distribution
from models.evidence.observations import SETUP_TYPES, parse
from models.evidence.rules import new_game
from solver import reference
from solver.errors import AssistantError, ContradictionError, IllegalActionError, InvalidObservationError
from tests.models.evidence.helpers import knowledge_for

FOUR = [
    "players 4",
    "me 1",
    "setup white 0 blue 1 yellow 2 pink 3 green 4 brown -1",
    "hand white 1 white 2 blue 4 yellow -1 pink 0 green 0",
    "holds 2 white 1 blue 1 yellow 1 pink 1 green 1 brown 1",
    "holds 3 blue 1 yellow 1 pink 1 green 1 brown 2",
    "holds 4 white 1 blue 1 yellow 1 pink 1 green 1 brown 1",
]


def kn_of(lines: list[str], solver: bool = True) -> EvidenceKnowledge:
    return knowledge_for([parse(line) for line in lines], solver)


def _views(seed: int, players: int, stop: int, data: GameData = DEFAULT_DATA, pro: bool = False):  # noqa: ANN202
    """A random game played for ``stop`` actions; every seat's knowledge model fed its observations."""
    st = new_game(random.Random(seed), players, pro=pro, data=data)
    rng = random.Random(seed + 1)
    setups = {s: TableSetup() for s in range(1, players + 1)}
    kns: dict[int, EvidenceKnowledge] = {}

    def deliver() -> None:
        for s in range(1, players + 1):
            for obs in st.take_observations(s):
                if isinstance(obs, SETUP_TYPES):
                    setups[s].apply(obs)
                    if s not in kns and setups[s].complete():
                        kns[s] = EvidenceKnowledge(setups[s], solver=False)
                else:
                    kns[s].add(obs)
                if s in kns:
                    assert kns[s].admits(st.true_world()) is None

    deliver()
    for _ in range(stop):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
        deliver()
    return st, kns


DUPES = GameData({**DEFAULT_DATA.values, "blue": (0, 0, 2, 2, 2, 5), "pink": (1, 1, 1, 1, 3, 3)})


def _cross_check(data: GameData, games: int, max_worlds: int) -> int:
    """Closed form = ComponentCounter = python-constraint enumeration; CP-SAT possible = enumeration."""
    checked = 0
    rng = random.Random(5)
    for seed in range(games):
        players = rng.choice([2, 3, 4, 5])
        st, kns = _views(seed, players, stop=rng.randint(10, 90), data=data)
        for kn in kns.values():
            solver_kn = kn.solver_knowledge()
            count = solver_kn.count()
            if count.worlds > max_worlds:
                continue
            ref = reference.solve(solver_kn.problem, [c for e in solver_kn.entries for c in e.constraints])
            assert ref.worlds == count.worlds
            closed = kn.distribution_exact()
            for colour in COLOURS:
                by_ref: dict[int, Fraction] = {}
                for (c, v), names in kn.copies.items():
                    if c == colour:
                        w = sum(ref.weights[(n, EVIDENCE)] for n in names)
                        if w:
                            by_ref[v] = Fraction(w, ref.worlds)
                assert closed[colour] == by_ref, colour
            counted = kn.counted_distribution()
            assert {c: set(d) for c, d in counted.items()} == {c: set(d) for c, d in closed.items()}
            for colour in COLOURS:
                for v, p in closed[colour].items():
                    assert counted[colour][v] == pytest.approx(float(p), abs=1e-12)
            assert kn.possible() == {c: sorted(d) for c, d in closed.items()}
            checked += 1
    return checked


@pytest.mark.parametrize("data", [DEFAULT_DATA, DUPES], ids=["default", "duplicates"])
def test_probabilities_and_possible_match_brute_force(data: GameData) -> None:
    assert _cross_check(data, games=10, max_worlds=3_000) >= 8


@pytest.mark.slow
@pytest.mark.parametrize("data", [DEFAULT_DATA, DUPES], ids=["default", "duplicates"])
def test_probabilities_match_brute_force_many_states(data: GameData) -> None:
    assert _cross_check(data, games=80, max_worlds=100_000) >= 60


def test_soundness_in_random_games_every_seat() -> None:
    for seed in range(8):
        players = 2 + seed % 4
        st, kns = _views(seed, players, stop=10_000, pro=seed % 3 == 0)
        assert st.is_terminal()
        for seat, kn in kns.items():
            assert kn.admits(st.true_world(), deep=seed < 2) is None
            # at the end every evidence is certain and every score is exact
            assert all(len(d) == 1 for d in kn.distribution().values())
            for s, est in kn.expected_scores().items():
                assert est.mean == st.stats[s]["score"] and est.sd == 0, (seat, s)


def test_known_distribution_from_a_hand() -> None:
    kn = kn_of(FOUR)
    dist = kn.distribution_exact()
    # white: 0 at setup, 1 and 2 in my hand: 4 white rumours hidden (-1, 3, 4 and one more) - uniform
    assert dist["white"] == {-1: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(1, 3)}
    assert dist["blue"] == {v: Fraction(1, 4) for v in (-1, 0, 2, 3)}
    assert dist["brown"] == {v: Fraction(1, 5) for v in (0, 1, 2, 3, 4)}
    assert kn.possible()["white"] == [-1, 3, 4]
    kn.add(parse("play 2 white 3"))
    assert kn.distribution_exact()["white"] == {-1: Fraction(1, 2), 4: Fraction(1, 2)}
    kn.add(parse("play 4 white -1"))
    assert kn.distribution_exact()["white"] == {4: Fraction(1)}
    why = kn.why("white", 4)
    assert why.status == "certain"
    assert "'play 2 white 3'" in why.reasons and "'play 4 white -1'" in why.reasons
    assert any("dealt to you" in r for r in why.reasons) and any("revealed at setup" in r for r in why.reasons)


def test_why_impossible_and_open() -> None:
    kn = kn_of([*FOUR, "play 3 blue 3"])
    why = kn.why("blue", 3)
    assert why.status == "impossible" and why.reasons == ("'play 3 blue 3'",)
    assert kn.why("blue", 4).reasons == ("blue 4 was dealt to you",)
    assert kn.why("blue", 1).reasons == ("blue 1 was revealed at setup",)
    open_ = kn.why("blue", 0)
    assert open_.status == "open" and open_.probability == pytest.approx(1 / 3)
    assert "player 2's hand" in open_.reasons[0] and "player 3's hand" not in open_.reasons[0]
    with pytest.raises(InvalidObservationError, match="values -1, 0, 1, 2, 3, 4, not 7"):
        kn.why("blue", 7)


def test_look_and_evidence() -> None:
    kn = kn_of([*FOUR[:1], "variant pro", *FOUR[1:], "play 1 white 1", "tool 1 fortune brown", "look brown 2"])
    assert kn.distribution_exact()["brown"] == {2: Fraction(1)}
    assert kn.why("brown", 2).reasons == ("'look brown 2'",)
    with pytest.raises(ContradictionError, match="the brown evidence is 2"):
        kn.add(parse("evidence brown 3"))
    with pytest.raises(ContradictionError, match="every brown 2"):
        kn.add(parse("play 3 brown 2"))
    kn.add(parse("evidence brown 2"))
    assert kn.table.evidence["brown"] == 2


def test_contradictions_name_the_cause() -> None:
    kn = kn_of(FOUR)
    with pytest.raises(ContradictionError, match=r"every white 1 .* in your hand"):
        kn.add(parse("play 2 white 1"))
    with pytest.raises(IllegalActionError, match="player 3 holds no white rumour"):
        kn.add(parse("play 3 white 3"))
    with pytest.raises(InvalidObservationError, match="you do not hold blue 3"):
        kn.add(parse("play 1 blue 3"))
    kn.add(parse("play 3 blue 3"))
    with pytest.raises(ContradictionError, match="'play 3 blue 3'"):
        kn.add(parse("play 2 blue 3"))
    assert len(kn.events) == 1


def test_contradiction_found_by_the_solver_names_entries() -> None:
    kn = kn_of(FOUR)
    kn.add(parse("play 2 white 3"))
    kn.add(parse("play 4 white -1"))
    # the only white left hidden is the 4 and it must be the evidence: player 3 holds no white
    assert kn.possible()["white"] == [4]


def test_undo_restores() -> None:
    kn = kn_of(FOUR)
    before = kn.distribution_exact()
    kn.add(parse("play 2 blue 2"))
    kn.add(parse("search 2 blue"))
    assert kn.undo() == parse("search 2 blue")
    assert kn.table.articles[2]["blue"] == 0
    kn.undo()
    assert kn.distribution_exact() == before
    with pytest.raises(IndexError):
        kn.undo()


def test_setup_checks() -> None:
    setup = TableSetup()
    for line in FOUR[:3]:
        setup.apply(parse(line))
    with pytest.raises(InvalidObservationError, match="expected 6 rumours"):
        setup.apply(parse("hand white 1"))
    with pytest.raises(InvalidObservationError, match="only 1 white 0"):
        setup.apply(parse("hand white 0 white 2 blue 4 yellow -1 pink 0 green 0"))
    with pytest.raises(InvalidObservationError, match="add up to 5, expected 6"):
        setup.apply(parse("holds 2 white 5"))
    with pytest.raises(InvalidObservationError, match="that is your seat"):
        setup.apply(parse("holds 1 white 6"))
    with pytest.raises(InvalidObservationError, match="before its rumours"):
        setup.apply(parse("values blue 0 0 1 1 2 2"))
    with pytest.raises(InvalidObservationError, match="1 white rumour"):
        setup.apply(parse("setup white 3"))
    for line in FOUR[3:-1]:
        setup.apply(parse(line))
    assert setup.missing() == ["holds 4 COLOUR COUNT ..."]
    setup.apply(parse("holds 4 white 2 blue 1 yellow 1 pink 1 green 1"))
    with pytest.raises(InvalidObservationError, match="white: you have seen 3 .* so 3 are hidden, .* hold 4"):
        EvidenceKnowledge(setup)


def test_entries_before_setup_and_after_game_start() -> None:
    kn = kn_of(FOUR)
    with pytest.raises(InvalidObservationError, match="setup entry"):
        kn.add(parse("players 3"))  # type: ignore[arg-type]
    with pytest.raises(AssistantError, match="card limit"):
        kn.add(parse("search 2 blue blue"))


def test_score_distribution_exact() -> None:
    dists = {c: {0: Fraction(1)} for c in COLOURS}
    dists["blue"] = {-1: Fraction(1, 2), 3: Fraction(1, 2)}
    dists["green"] = {1: Fraction(1, 4), 2: Fraction(3, 4)}
    dist = score_distribution({"blue": 2, "green": 1}, {"blue"}, [], dists)
    assert dist == {0: Fraction(1, 8), 1: Fraction(3, 8), 8: Fraction(1, 8), 9: Fraction(3, 8)}
    typed = score_distribution({"blue": 1, "green": 1}, set(), ["typewriter"], dists)
    # the typewriter copies the better of blue and green, minus 1
    assert typed == {-1 + 1 + 1 - 1: Fraction(1, 8), -1 + 2 + 2 - 1: Fraction(3, 8),
                     3 + 1 + 3 - 1: Fraction(1, 8), 3 + 2 + 3 - 1: Fraction(3, 8)}


def test_expected_scores_for_everyone() -> None:
    kn = kn_of([*FOUR, "play 2 blue 2", "search 2 blue", "play 3 brown 4", "search 3 brown"])
    est = kn.expected_scores()
    assert est[2].mean == pytest.approx((-1 + 0 + 3) / 3 + 1)
    assert est[3].mean == pytest.approx((0 + 1 + 2 + 3) / 4 + 1)
    assert est[1].mean == 0 and est[1].sd == 0
    assert est[2].sd > 0 and est[2].low == -1 + 1 and est[2].high == 3 + 1
