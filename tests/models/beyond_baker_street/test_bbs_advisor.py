"""The advisor: rankings in known situations, the bots, the shared conformance checks, and (slow) win rates."""

from __future__ import annotations

import functools
import random

import pytest
from bbs_helpers import E, table

from models.beyond_baker_street.advisor import AdvisorBot, RandomBot, Weights, advise, make_bot, reachable
from models.beyond_baker_street.knowledge import HandKnowledge, card_mask
from models.beyond_baker_street.observations import Assist, Confirm, Eliminate, Investigate, Pursue
from models.beyond_baker_street.rules import TableRules, new_game
from solver.conformance import check_game
from solver.errors import AssistantError
from solver.simulate import Matchup, run_games

LEADS3 = {"Opportunity": "8C 8D 7W", "Motive": "10C 10D 9T", "Suspect": "13C 13D 11W"}


def knowledge_of(st: object, seat: int) -> HandKnowledge:
    kn = HandKnowledge()
    for obs in st.take_observations(seat):
        kn.add(obs)
    return kn


def test_reachable_subset_sums() -> None:
    cards = card_mask([E("1W"), E("3W"), E("5W")])
    assert reachable(cards, 4) and reachable(cards, 9) and reachable(cards, 0)
    assert not reachable(cards, 2) and not reachable(cards, 10) and not reachable(cards, -1)


def test_advice_covers_every_legal_action_once() -> None:
    st = new_game(TableRules(3, 1), random.Random(4), first_player=1)
    kn = knowledge_of(st, 1)
    advice = advise(kn)
    assert sorted(map(str, (a.action for a in advice))) == sorted(map(str, st.legal_actions()))
    assert [a.score for a in advice] == sorted((a.score for a in advice), reverse=True)
    assert all(a.reason for a in advice)


def test_a_certain_completing_play_comes_first() -> None:
    st = table({1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"}, top="3D 4D 5D", leads=LEADS3)
    st.apply(Assist(2, "Track"))  # player 1 tells player 2: Tracks at 1 2 3
    st.apply(Eliminate(1))  # player 2 eliminates 2T
    st.apply(Assist(2, 6))  # player 3 tells player 2: the 6 at 2 (6T)
    kn = knowledge_of(st, 2)
    kn.board.leads["Motive"].evidence.append(E("3T"))  # as if 3T had been played: the 9T Lead needs 6
    kn.board.current = 2
    kn._cache.clear()
    best = advise(kn)[0]
    assert best.action == Investigate(2, "Motive") and best.reason == "it completes the Lead"


def test_what_if_i_knew_my_cards() -> None:
    # Player 1 holds 3W 4W 1T 6C but knows nothing of them. Told the cards ("known"), every outcome is certain:
    # 3W leaves the 7W Opportunity Lead 4 short, 6C on the 9T Motive Lead is the wrong icon; knowing nothing more
    # (every mask full) changes nothing.
    st = table({1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"}, leads=LEADS3)
    kn = knowledge_of(st, 1)
    blind = {str(a.action): a for a in advise(kn)}
    known = [card_mask([E(c)]) for c in ["3W", "4W", "1T", "6C"]]
    told = {str(a.action): a for a in advise(kn, known=known)}
    assert told["investigate 1 Opportunity"].reason == "it leaves the Lead 4 short"
    assert told["investigate 4 Motive"].reason == "it is the wrong icon and raises the Lead's target by 6"
    assert told["investigate 1 Opportunity"].score > blind["investigate 1 Opportunity"].score
    assert [a.action for a in advise(kn, known=[(1 << 24) - 1] * 4)] == [a.action for a in advise(kn)]


def test_confirm_first_but_never_the_last_lead_off_twenty() -> None:
    st = table({1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"}, leads=LEADS3)
    kn = knowledge_of(st, 1)
    ls = kn.board.leads["Opportunity"]
    ls.evidence = [kn.data.evidence[18 + 2], kn.data.evidence[18 + 3]]  # 3W 4W: 7 of 7 (board copy for the test)
    assert advise(kn)[0].action == Confirm("Opportunity")
    for section in ("Motive", "Suspect"):
        kn.board.leads[section].confirmed = True
    ranked = advise(kn)
    confirm = next(a for a in ranked if a.action == Confirm("Opportunity"))
    assert confirm.score < 0 and "loses" in confirm.reason


def test_no_assist_when_holmes_is_at_one() -> None:
    st = new_game(TableRules(3, 1), random.Random(2), first_player=1)
    kn = knowledge_of(st, 1)
    kn.board.holmes = 1
    ranked = advise(kn)
    assert all(a.score < -100 for a in ranked if isinstance(a.action, Assist))
    assert not isinstance(ranked[0].action, Assist)


def test_pursuing_the_last_lead_is_never_advised() -> None:
    st = table({1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"},
               leads={"Opportunity": "7W", "Motive": "9T", "Suspect": "11W"})
    kn = knowledge_of(st, 1)
    for ls in kn.board.leads.values():
        ls.pile = 0  # a player counts the piles: here every section is down to its last Lead
    assert all(a.score < -100 for a in advise(kn) if isinstance(a.action, Pursue))


def test_advise_before_setup_is_an_error() -> None:
    with pytest.raises(AssistantError, match="finish the setup"):
        advise(HandKnowledge())


def test_make_bot() -> None:
    assert isinstance(make_bot("random", 1, random.Random(0)), RandomBot)
    bot = make_bot("advisor", 2, random.Random(0))
    assert isinstance(bot, AdvisorBot) and bot.knowledge is None  # until the setup is complete
    assert make_bot("hat", 3, random.Random(0)).name == "hat"
    with pytest.raises(AssistantError, match="unknown bot"):
        make_bot("oracle", 1, random.Random(0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int) -> None:
    new_state = functools.partial(new_game, TableRules(players, 1 + players))
    report = check_game(new_state, functools.partial(make_bot, "advisor"), games=2, seed=players)
    assert report.knowledge_checks > 0 and report.actions > 0
    check_game(new_state, functools.partial(make_bot, "random"), games=10, seed=players, deep=False)


def _win_rate(bot: str, players: int, case: int, games: int, weights: Weights | None = None) -> float:
    matchup = Matchup(functools.partial(new_game, TableRules(players, case)), (bot,) * players, make_bot)
    records = run_games(matchup, games, seed=2024)
    return sum(r.stats[0]["won"] for r in records) / games


def test_advisor_beats_random_in_a_few_games() -> None:
    assert _win_rate("advisor", 3, 1, 6) > _win_rate("random", 3, 1, 6)


@pytest.mark.slow
def test_advisor_win_rate_case_1() -> None:
    assert _win_rate("advisor", 3, 1, 200) >= 0.5
