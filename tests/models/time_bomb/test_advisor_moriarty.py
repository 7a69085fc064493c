"""The Moriarty advisor and the new look-ahead pieces: claims ranked as the Sherlocks read them (checked against
a brute force over every hand), the explosion chance of an uncovered colour (against an enumeration of every
set of cuts), the cuts left, the Moriarty's cut score, and the ``advisor-moriarty`` seat."""

from __future__ import annotations

import collections
import functools
import itertools
import math
import random
import types
from dataclasses import replace

import pytest

from models.time_bomb import ENTRY
from models.time_bomb.advisor import (
    MORIARTY_WEIGHTS,
    SHERLOCK_WEIGHTS,
    Board,
    ClaimOption,
    Weights,
    _table_claim,
    _tail,
    advise,
    choose_claim,
    choose_cover,
    claim_options,
    cut_options,
    cuts_left,
    explode_chance,
    explosion,
    next_cut_explosion,
)
from models.time_bomb.bots import BOTS, AdvisorMoriartyBot, RoleBot, make_bot
from models.time_bomb.data import DEFUSE, MORIARTY, SHERLOCK
from models.time_bomb.knowledge import TableSetup, TimeBombKnowledge
from models.time_bomb.observations import Claim, Cut, Hand, Me, Players, Role, Start
from models.time_bomb.rules import TableRules, TimeBombState, new_game
from solver.simulate import Matchup, play_game
from solver.text import percent


def knowledge(players: int, hand: tuple[str, ...], role: str = MORIARTY, me: int = 1) -> TimeBombKnowledge:
    setup = TableSetup()
    for entry in (Players(players), Me(me), Role(role), Start(1), Hand(hand)):
        setup.apply(entry)
    return TimeBombKnowledge(setup)


def brute_claim_reading(players: int, size: int, claimed: int, sherlock: float, moriarty: float) -> tuple[float, float]:
    """(lure, suspicion) of a claim by enumerating every hand of ``size`` cards from the deck as an onlooker
    sees it (all 5N cards, N defusing), each hand's defusing count, and the bluff model's two likelihoods."""
    cards = 5 * players
    deck = [1] * players + [0] * (cards - players)
    p_s = p_m = mass = mass_d = 0.0
    for hand in itertools.combinations(range(cards), size):
        d = sum(deck[i] for i in hand)
        like_s = 1 - sherlock if d == claimed else sherlock / size
        like_m = 1 - moriarty if d == claimed else moriarty / size
        p_s += like_s
        p_m += like_m
        w = 0.5 * like_s + 0.5 * like_m
        mass += w
        mass_d += w * d
    return mass_d / (mass * size), p_m / (p_s + p_m)


@pytest.mark.parametrize("players", [4, 5])
def test_claim_readings_equal_a_brute_force_over_every_hand(players: int) -> None:
    kn = knowledge(players, ("pink", "red", "red", "blue", "green"))
    options = {o.claimed: o for o in claim_options(kn)}
    assert sorted(options) == [0, 1, 2, 3, 4, 5]
    for k, o in options.items():
        lure, suspicion = brute_claim_reading(players, 5, k, 0.1, 0.5)
        assert o.lure == pytest.approx(lure, abs=1e-12)
        assert o.suspicion == pytest.approx(suspicion, abs=1e-12)
        # holding no defusing card: lure up, suspicion down
        assert o.score == pytest.approx(MORIARTY_WEIGHTS.lure * lure - MORIARTY_WEIGHTS.suspect * suspicion)
        assert o.truth == (k == 0)


def test_a_moriarty_claims_one_holding_none_and_none_holding_some() -> None:
    """The reading alone (no claim table): one holding none, none holding some. The default table (round 1
    here) claims one holding two."""
    ranked = replace(MORIARTY_WEIGHTS, claim_table=())
    bare = knowledge(5, ("pink", "red", "red", "blue", "green"))
    assert [o.claimed for o in claim_options(bare, weights=ranked)][:3] == [1, 2, 0]
    assert [o.claimed for o in claim_options(bare)][:3] == [1, 2, 0]  # no row holding none
    assert choose_claim(bare)[0] == 1
    holding = knowledge(5, ("defuse", "defuse", "red", "blue", "green"))
    assert claim_options(holding, weights=ranked)[0].claimed == 0
    assert choose_claim(holding, weights=ranked)[0] == 0
    assert claim_options(holding)[0].claimed == choose_claim(holding)[0] == 1  # the table's row (1, 2, 1)
    # a Sherlock's best claim is the truth, then the counts nearest it
    sherlock = knowledge(5, ("defuse", "defuse", "red", "blue", "green"), role=SHERLOCK)
    assert [o.claimed for o in claim_options(sherlock)] == [2, 1, 3, 0, 4, 5]
    assert advise(sherlock, claim_pending=True).best == "claim 1 2"
    # the rates set for the table are the Sherlocks' reading: nobody lying makes every false claim read as Moriarty
    lure, suspicion = brute_claim_reading(5, 5, 3, 0.0, 0.5)
    kn = knowledge(5, ("pink", "red", "red", "blue", "green"))
    kn.bluff = type(kn.bluff)(0.0, 0.5)
    three = {o.claimed: o for o in claim_options(kn)}[3]
    assert (three.lure, three.suspicion) == (pytest.approx(lure, abs=1e-12), pytest.approx(suspicion, abs=1e-12))


@pytest.mark.parametrize(("total", "good", "draws", "need"),
                         [(8, 3, 4, 2), (7, 2, 7, 2), (9, 4, 3, 3), (6, 0, 5, 1), (5, 5, 2, 3), (10, 3, 6, 0)])
def test_tail_equals_an_enumeration_of_every_draw(total: int, good: int, draws: int, need: int) -> None:
    hits = sum(1 for chosen in itertools.combinations(range(total), draws) if sum(c < good for c in chosen) >= need)
    assert _tail(total, good, draws, need) == pytest.approx(hits / math.comb(total, draws), abs=1e-12)


def test_cuts_left_and_the_explosion_chance_of_a_colour() -> None:
    kn = knowledge(4, ("pink", "red", "blue", "green", "green"), role=SHERLOCK)
    assert cuts_left(kn.table) == 16  # 4 rounds of 4 cuts, 20 cards
    kn.add(Claim(1, 0))
    kn.add(Cut(2, "green"))
    assert cuts_left(kn.table) == 15
    # green: threshold 3, one cut; its cards not yet cut are in play less one, over the 19 cards left
    expected = sum(p * _tail(19, k - 1, 15, 2) for k, p in kn.in_play()["green"].items())
    assert explode_chance(kn, "green") == pytest.approx(expected, abs=1e-12)
    assert explode_chance(kn, "green", horizon=1) == 0.0  # one cut cannot bring two more
    pink = sum(p * min(1.0, _tail(19, k, 15, 4) + 14 * k * (k - 1) / (19 * 18))
               for k, p in kn.in_play()["pink"].items())
    assert explode_chance(kn, "pink") == pytest.approx(pink, abs=1e-12)


def test_the_sherlock_covers_the_colour_likeliest_to_explode_and_the_moriarty_the_least() -> None:
    kn = knowledge(5, ("defuse", "pink", "red", "blue", "green"), role=SHERLOCK)
    for entry in (Cut(2, "green"), Cut(3, "green"), Cut(4, "pink"), Cut(5, "defuse")):
        kn.add(entry)
    assert kn.table.phase == "cover"
    chances = {c: explode_chance(kn, c) for c in kn.table.coverable()}
    assert choose_cover(kn, SHERLOCK)[0] == max(chances, key=chances.__getitem__) == "green"
    assert choose_cover(kn, MORIARTY)[0] == min(chances, key=chances.__getitem__)


def test_the_moriarty_cut_score_ignores_suspicion() -> None:
    kn = knowledge(5, ("pink", "red", "red", "blue", "green"))
    for entry in (Claim(2, 0), Claim(3, 2), Claim(4, 2), Claim(5, 0)):
        kn.add(entry)
    roles = kn.roles()
    for o in cut_options(kn):
        want = o.p_explode + MORIARTY_WEIGHTS.bomb * (1 - o.p_defuse) + MORIARTY_WEIGHTS.cutter * roles[o.seat]
        assert o.score == pytest.approx(want, abs=1e-12)
    assert cut_options(kn)[0].seat in (2, 5)  # the players who claimed no defusing card: bombs
    # minding suspicion (for Sherlocks who read cuts): cutting a claim of 0 when the best claim is 2 of 5 costs
    # 0.5 * (2/5 - 0)
    bold = {o.seat: o.score for o in cut_options(kn)}
    careful = {o.seat: o.score for o in cut_options(kn, weights=Weights(suspicion=0.5, cutter=0.0))}
    for seat, cost in ((2, 0.2), (3, 0.0), (4, 0.0), (5, 0.2)):
        assert bold[seat] - careful[seat] == pytest.approx(cost, abs=1e-12)
    assert MORIARTY_WEIGHTS.cutter == MORIARTY_WEIGHTS.suspicion == 0.0 < SHERLOCK_WEIGHTS.cutter


def test_the_advisor_moriarty_seat_is_registered_and_plays_its_role() -> None:
    assert "advisor-moriarty" in BOTS and "advisor-moriarty" in ENTRY.bots
    state = TimeBombState(TableRules(5), random.Random(4))
    bots = {s: make_bot("advisor/advisor-moriarty", s, random.Random(s)) for s in state.seats}
    for s, bot in bots.items():
        for obs in state.take_observations(s):
            bot.inform(obs)
        assert isinstance(bot, RoleBot)
        assert isinstance(bot.inner, AdvisorMoriartyBot) == (state.roles[s] == MORIARTY)
        assert bot.knowledge is not None
    matchup = Matchup(functools.partial(lambda rng, players: new_game(TableRules(players), rng), players=4),
                      ("advisor/advisor-moriarty",) * 4, make_bot)
    record, final = play_game(matchup, 3)
    assert final.is_terminal() and record.stats[0]["sherlock_win"] in (0, 1)


def test_hazard_and_its_expected_change_by_a_cut() -> None:
    from models.time_bomb.advisor import Board, future_hazard, hazard

    kn = knowledge(4, ("pink", "red", "blue", "green", "green"), role=SHERLOCK)
    kn.add(Claim(1, 0))
    kn.add(Cut(2, "green"))
    kn.add(Cut(3, "pink"))
    board = Board.of(kn.table)
    reachable = dict.fromkeys(kn.setup.colours, True)
    w = SHERLOCK_WEIGHTS
    # green 1 of 3 (2 cuts away: 0.3), pink 1 of 4 (3 away: 0.1) and just cut uncovered (0.5)
    assert hazard(board, reachable, w) == pytest.approx(0.3 + 0.1 + 0.5)
    belief = kn.belief()
    seat = 4
    now = hazard(board, reachable, w)
    want = 0.0
    for card, p in belief.p_types(seat).items():
        after = board.after(seat, card)
        if card == "defuse":
            # the cover goes where it takes most hazard away: green or pink
            covered = [hazard(Board(after.players, after.colours, after.thresholds, after.counts,
                                    after.covered | {c}, after.last, after.sizes, after.defusers_left), reachable, w)
                       for c in ("pink", "green")]
            want += p * (min(covered) - now)
        elif card != "pink":  # a second pink in a row explodes: valued as the explosion, not here
            want += p * (hazard(after, reachable, w) - now)
    assert future_hazard(belief, board, seat, reachable, w) == pytest.approx(want, abs=1e-12)


def test_the_moriarty_look_ahead_values_the_next_cut_by_the_cut_players_assumed_play() -> None:
    """``look`` adds its weight times :func:`next_cut_explosion`, which equals the next cutter's explosion risk
    computed card by card with the recursive :func:`explosion` (a Sherlock picks its greedy target, avoiding; a
    Moriarty its likeliest explosion, seeking); it is off by default (measured no gain: docs/time-bomb.md)."""
    kn = knowledge(4, ("pink", "red", "blue", "green", "green"))
    for entry in (Claim(1, 1), Claim(2, 0), Claim(3, 1), Claim(4, 1)):
        kn.add(entry)
    soft, board = kn.belief(soft=True), Board.of(kn.table)
    assert MORIARTY_WEIGHTS.look == 0.0
    plain = {o.seat: o.score for o in cut_options(kn)}
    looking = {o.seat: o.score for o in cut_options(kn, weights=replace(MORIARTY_WEIGHTS, look=2.0))}
    for seat in (2, 3, 4):
        want = 0.0
        for card, p in soft.p_types(seat).items():
            if card == "red":
                continue  # its extra cut is in this cut's own risk
            after_b, after = soft.reveal(seat, card), board.after(seat, card)
            others = [k for k in (1, 2, 3, 4) if k != seat]
            avoid = {k: explosion(after_b, after, seat, k, "avoid") for k in others}
            seek = {k: explosion(after_b, after, seat, k, "seek") for k in others}
            p_def = {k: (1 / 5 if k == 1 else after_b.p_defuse(k)) for k in others}  # my claim: 1 of 5
            pick = max(others, key=lambda k: (p_def[k] - 2 * avoid[k], -k))
            q = after_b.roles()[seat]
            want += p * ((1 - q) * avoid[pick] + q * max(seek.values()))
        got = next_cut_explosion(kn, soft, board, seat)
        assert got == pytest.approx(want, abs=1e-9)
        assert looking[seat] - plain[seat] == pytest.approx(2.0 * got, abs=1e-12)
    assert {s: round(next_cut_explosion(kn, soft, board, s), 4) for s in (2, 3, 4)} == {2: 0.0337, 3: 0.0311, 4: 0.0311}


def test_every_claim_option_of_a_moriarty_holding_some_has_its_score_and_reason() -> None:
    """Holding defusing cards the lure counts against the claim; ``lure`` weighs it (2 here, to tell ``*`` from
    ``/``); every option's reason says what it is read as. The table's row is off (ranked claims only)."""
    kn = knowledge(4, ("defuse", "defuse", "red", "blue", "green"))
    weights = replace(MORIARTY_WEIGHTS, claim_table=(), lure=2.0)
    options = claim_options(kn, weights=weights)
    for o in options:
        lure, suspicion = brute_claim_reading(4, 5, o.claimed, 0.1, 0.5)
        assert o.score == pytest.approx(-2.0 * lure - 3.0 * suspicion, abs=1e-12)
        assert o.reason == (f"read as {percent(lure)} defusing per card (keeps cuts away from your defusing cards), "
                            f"{percent(suspicion)} Moriarty")
        assert o.truth == (o.claimed == 2)
    assert [o.claimed for o in options][0] == 0
    bare = claim_options(knowledge(4, ("pink", "red", "blue", "green", "green")), weights=weights)
    assert all("(draws cuts to your bombs)" in o.reason for o in bare)


def test_a_claim_nobody_could_make_truly_reads_as_even_odds_and_no_lure() -> None:
    """With bluff rates 0 / 0 a claim of 5 defusing cards at 4 players (4 in the deck) has no likelihood for
    either role: even odds and a lure of 0, not a division by zero."""
    kn = knowledge(4, ("pink", "red", "blue", "green", "green"))
    kn.bluff = type(kn.bluff)(0.0, 0.0)
    five = {o.claimed: o for o in claim_options(kn, weights=replace(MORIARTY_WEIGHTS, claim_table=()))}[5]
    assert (five.lure, five.suspicion) == (0.0, 0.5)


def test_a_sherlocks_claim_options_are_the_truth_then_the_counts_nearest_it() -> None:
    sherlock = knowledge(4, ("defuse", "defuse", "red", "blue", "green"), role=SHERLOCK)
    assert claim_options(sherlock) == [
        ClaimOption(2, True, 0.0, 0.0, 0, "the truth"),
        ClaimOption(1, False, 0.0, 0.0, -1, "1 off the truth"),
        ClaimOption(3, False, 0.0, 0.0, -1, "1 off the truth"),
        ClaimOption(0, False, 0.0, 0.0, -2, "2 off the truth"),
        ClaimOption(4, False, 0.0, 0.0, -2, "2 off the truth"),
        ClaimOption(5, False, 0.0, 0.0, -3, "3 off the truth"),
    ]


def test_the_fixed_claims_and_the_ranked_claims_say_why() -> None:
    """``claims="fixed"``: the bait holding none (its word, or the number past two; at most my hand), none
    holding some. The ranked claim's reason is its option's."""
    bare = knowledge(4, ("pink", "red", "blue", "green", "green"))
    holding = knowledge(4, ("defuse", "defuse", "red", "blue", "green"))
    fixed = Weights(claims="fixed")
    assert choose_claim(bare, MORIARTY, fixed) == (1, "you hold none: claim one to draw cuts to your bombs")
    assert choose_claim(bare, MORIARTY, replace(fixed, bait=0)) == (0, "you hold none: claim none to draw cuts to "
                                                                       "your bombs")
    assert choose_claim(bare, MORIARTY, replace(fixed, bait=2)) == (2, "you hold none: claim two to draw cuts to "
                                                                       "your bombs")
    assert choose_claim(bare, MORIARTY, replace(fixed, bait=3)) == (3, "you hold none: claim 3 to draw cuts to "
                                                                       "your bombs")
    assert choose_claim(bare, MORIARTY, replace(fixed, bait=9)) == (5, "you hold none: claim 5 to draw cuts to "
                                                                       "your bombs")
    assert choose_claim(holding, MORIARTY, fixed) == (0, "you hold 2: claim none so that nobody cuts them")
    assert choose_claim(bare) == (1, claim_options(bare)[0].reason)


def test_a_claim_table_row_is_capped_at_my_hand() -> None:
    """A row claiming more than I hold cards claims my whole hand (here one card left)."""
    hand = types.SimpleNamespace(my_hand=lambda: collections.Counter({DEFUSE: 1}), table=types.SimpleNamespace(round=1))
    weights = replace(MORIARTY_WEIGHTS, claim_table=((1, 1, 3),))
    assert _table_claim(hand, weights) == 1  # type: ignore[arg-type]
    assert _table_claim(types.SimpleNamespace(my_hand=lambda: collections.Counter({DEFUSE: 0}),
                                              table=types.SimpleNamespace(round=1)), weights) is None  # type: ignore[arg-type]
