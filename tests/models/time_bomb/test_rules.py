"""Rules tests: every colour effect, every end condition, illegal actions, and the engine's observations."""

import random

import pytest

from models.time_bomb.data import DEFAULT_DATA, DEFUSE, MORIARTY, SHERLOCK
from models.time_bomb.observations import (
    Claim,
    Cover,
    Cut,
    Draw,
    Hand,
    Me,
    Players,
    Redeal,
    Role,
    Say,
    Start,
    Target,
    Uncover,
)
from models.time_bomb.rules import (
    COVER,
    CUT,
    DRAW,
    EXTRA,
    OVER,
    REDEAL,
    UNCOVER,
    Table,
    TableRules,
    TimeBombState,
    left_of,
)
from solver.errors import AssistantError, IllegalActionError

from .helpers import SMALL, TINY


def table(players: int = 5, start: int = 1) -> Table:
    return Table(DEFAULT_DATA.setup(players), start)


def cuts(t: Table, *lines: str) -> None:
    """Apply 'SEAT CARD' cuts and 'cover/uncover/draw' choices in order."""
    for line in lines:
        verb, arg = line.split()
        if verb == "cover":
            t.cover(Cover(arg))
        elif verb == "uncover":
            t.uncover(Uncover(arg))
        elif verb == "draw":
            t.draw(Draw(int(arg)))
        else:
            t.cut(Cut(int(verb), arg))


def test_cutter_passes_to_the_owner_of_the_cut_card() -> None:
    t = table()
    cuts(t, "3 green")
    assert t.cutter == 3 and t.turns_taken == 1 and t.sizes[3] == 4
    cuts(t, "5 pink")
    assert t.cutter == 5 and t.round_cuts()[-1].index == 1


def test_defusing_card_covers_a_cut_colour_and_prevents_the_explosion() -> None:
    t = table(6)
    cuts(t, "2 defuse")  # nothing cut yet: no cover to place
    assert t.phase == CUT and t.defusers_cut == 1
    cuts(t, "3 orange", "4 orange", "5 orange", "1 defuse")
    assert t.phase == COVER and t.coverable() == ["orange"]
    cuts(t, "cover orange")
    assert t.covered == {"orange": DEFUSE}
    cuts(t, "2 orange")  # the 4th orange, but covered
    assert not t.over and t.counts["orange"] == 4


def test_four_uncovered_cards_of_a_colour_explode() -> None:
    t = table(6)
    cuts(t, "2 orange", "3 orange", "4 orange", "5 orange")
    assert t.over and t.winner == MORIARTY and t.exploded == "4 orange bombs cut"


def test_green_explodes_at_three() -> None:
    t = table()
    cuts(t, "2 green", "3 green")
    assert not t.over
    cuts(t, "4 green")
    assert t.winner == MORIARTY and "3 green" in t.reason


def test_pink_explodes_twice_in_a_row_unless_covered() -> None:
    t = table()
    cuts(t, "2 pink", "3 blue", "4 pink")
    assert not t.over
    cuts(t, "5 pink")
    assert t.winner == MORIARTY and t.exploded == "two pink bombs cut in a row"
    t = table()
    cuts(t, "2 pink", "3 defuse", "cover pink", "4 pink", "5 pink")
    assert not t.over


def test_pink_in_a_row_across_a_round_boundary() -> None:
    t = table(6)
    cuts(t, "2 orange", "3 blue", "4 green", "5 blue", "6 orange", "1 pink")
    assert t.phase == REDEAL
    t.redeal()
    assert t.round == 2 and t.sizes == dict.fromkeys(range(1, 7), 4) and t.cutter == 1
    cuts(t, "3 pink")
    assert t.over and t.exploded == "two pink bombs cut in a row"


def test_yellow_covers_like_a_defusing_card_and_may_cover_itself() -> None:
    t = table()
    cuts(t, "2 yellow")
    assert t.phase == COVER and t.coverable() == ["yellow"]
    cuts(t, "cover yellow", "3 yellow", "4 yellow", "5 yellow")
    assert not t.over and t.counts["yellow"] == 4


def test_fourth_yellow_can_cover_itself_before_the_check() -> None:
    t = table(6)
    cuts(t, "2 orange", "3 green", "4 pink", "5 blue", "6 yellow", "cover orange", "1 yellow", "cover green")
    t.redeal()
    cuts(t, "2 yellow", "cover pink", "3 yellow")
    assert t.phase == COVER and t.counts["yellow"] == 4 and not t.over
    cuts(t, "cover yellow")
    assert not t.over and t.covered == {"orange": "yellow", "green": "yellow", "pink": "yellow", "yellow": "yellow"}


def test_blue_removes_a_cover_and_an_exposed_colour_at_its_threshold_explodes() -> None:
    t = table()
    cuts(t, "2 green", "3 defuse", "cover green", "4 green", "5 green")
    assert not t.over and t.counts["green"] == 3
    cuts(t, "1 blue")
    assert t.phase == UNCOVER
    with pytest.raises(IllegalActionError, match="expected a covered colour"):
        t.uncover(Uncover("red"))
    cuts(t, "uncover green")
    assert t.winner == MORIARTY and t.exploded == "3 green bombs cut"


def test_blue_without_any_cover_has_no_effect() -> None:
    t = table()
    cuts(t, "2 blue")
    assert t.phase == CUT and t.cutter == 2


def test_red_draws_a_number_and_cuts_from_that_player_without_a_token() -> None:
    t = table(start=2)
    cuts(t, "4 red")
    assert t.phase == DRAW and t.turns_taken == 0
    cuts(t, "draw 2")  # cutter 2, two players to the left: seat 4
    assert t.phase == EXTRA and t.targets() == [4]
    with pytest.raises(IllegalActionError, match="extra cut is from player 4"):
        t.cut(Cut(3, "blue"))
    cuts(t, "4 blue")
    assert t.turns_taken == 1 and t.cutter == 4 and t.round_cuts()[-1].extra
    assert t.round_cuts()[-1].index == 2  # the second card cut from seat 4 this round


def test_red_number_zero_cuts_the_cutter() -> None:
    t = table(start=1)
    cuts(t, "3 red", "draw 0", "1 green")
    assert t.cutter == 1 and t.sizes[1] == 4


def test_red_on_an_empty_hand_has_no_extra_cut() -> None:
    t = table(start=1)
    t.sizes[3] = 0
    cuts(t, "2 red", "draw 2")
    assert t.phase == CUT and t.cutter == 2 and t.turns_taken == 1


def test_red_chain_explodes() -> None:
    t = table(start=1)
    cuts(t, "2 red", "draw 2", "3 red", "draw 3", "4 red", "draw 4", "5 red")
    assert t.winner == MORIARTY and t.exploded == "4 red bombs cut" and t.turns_taken == 0


def test_left_of_wraps() -> None:
    assert left_of(5, 1, 5) == 1 and left_of(2, 0, 5) == 2 and left_of(4, 3, 5) == 2


def test_sherlock_wins_when_the_last_defusing_card_is_cut() -> None:
    t = table(players=4)
    cuts(t, "2 defuse", "3 defuse", "4 defuse")
    assert not t.over and t.defusers_left() == 1
    cuts(t, "1 defuse")
    assert t.over and t.winner == SHERLOCK and t.phase == OVER


def test_orange_shortens_the_last_round_and_time_runs_out() -> None:
    t = table(players=6)
    t.round, t.oranges_cut, t.counts["orange"] = 4, 2, 2
    t.sizes = dict.fromkeys(t.seats, 2)
    assert t.turn_limit() == 4  # 6 turns less the 2 oranges cut
    cuts(t, "2 defuse", "cover orange", "3 pink", "4 green", "5 blue", "uncover orange")
    assert t.over and t.winner == MORIARTY and "round 4 ended" in t.reason


def test_orange_cut_in_the_last_round_shortens_it_at_once() -> None:
    t = table(players=6)
    t.round = 4
    t.sizes = dict.fromkeys(t.seats, 2)
    cuts(t, "2 orange", "3 green", "4 pink", "5 blue")
    assert not t.over and t.turns_left() == 1
    cuts(t, "6 orange")
    assert t.over and t.winner == MORIARTY


def test_last_round_with_no_turn_left_ends_the_game_at_the_redeal() -> None:
    t = table(players=4)
    t.round, t.oranges_cut, t.phase = 3, 4, REDEAL
    t.redeal()
    assert t.over and t.winner == MORIARTY


def test_redeal_with_fewer_cards_than_full_hands() -> None:
    t = table(players=4, start=1)
    cuts(t, "2 red", "draw 2", "3 blue", "4 green", "1 blue", "2 defuse", "cover blue")
    assert t.phase == REDEAL and t.remaining_cards() == 15 and t.cutter == 2
    assert t.next_sizes() == {2: 4, 3: 4, 4: 4, 1: 3}  # dealt one by one from the next cutter
    t.redeal()
    assert t.sizes == {1: 3, 2: 4, 3: 4, 4: 4} and t.round_sizes[-1] == t.sizes


def test_round_ends_early_when_nobody_can_be_cut() -> None:
    t = table(players=5, start=1)
    t.sizes = {1: 0, 2: 1, 3: 1, 4: 1, 5: 1}
    cuts(t, "2 blue", "3 green", "4 yellow", "cover green", "5 pink")
    assert t.turns_taken == 4 and t.turns_left() == 1
    assert t.phase == REDEAL  # player 5 holds the cutter and every other hand is empty


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda t: t.cut(Cut(1, "red")), "must cut another player"),
        (lambda t: t.cut(Cut(7, "red")), "seat 7: expected 1 to 5"),
        (lambda t: t.cut(Cut(2, "orange")), "not in play with 5 players"),
        (lambda t: t.cover(Cover("red")), "no defusing or yellow card"),
        (lambda t: t.uncover(Uncover("red")), "no blue bomb"),
        (lambda t: t.draw(Draw(1)), "no red bomb"),
        (lambda t: t.claim(Claim(2, 6)), "holds 5 cards, so 0 to 5"),
        (lambda t: t.redeal(), "the round is not over"),
    ],
)
def test_illegal_actions(action, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        action(table())


def test_no_action_after_the_game_is_over() -> None:
    t = table()
    cuts(t, "2 green", "3 green", "4 green")
    with pytest.raises(IllegalActionError, match="the game is over"):
        t.cut(Cut(2, "red"))


def test_cut_from_an_empty_hand_and_claim_during_redeal_are_illegal() -> None:
    t = table()
    t.sizes[3] = 0
    with pytest.raises(IllegalActionError, match="no card left"):
        t.cut(Cut(3, "red"))
    t = table()
    cuts(t, "2 red", "draw 2", "3 blue", "4 blue", "5 yellow", "cover red", "1 defuse", "cover blue", "2 green")
    assert t.phase == REDEAL
    with pytest.raises(IllegalActionError, match="enter your new hand"):
        t.claim(Claim(2, 1))


def test_cover_must_name_an_eligible_colour() -> None:
    t = table()
    cuts(t, "2 pink", "3 defuse")
    with pytest.raises(IllegalActionError, match=r"uncovered colour with a cut card \(pink\)"):
        t.cover(Cover("blue"))


# -- the engine ---------------------------------------------------------------------------------------------


def test_engine_setup_observations() -> None:
    state = TimeBombState(TableRules(5, first_player=2), random.Random(1))
    for seat in state.seats:
        obs = state.take_observations(seat)
        assert obs[:4] == [Players(5), Me(seat), Role(state.roles[seat]), Start(2)]
        assert isinstance(obs[4], Hand) and len(obs[4].cards) == 5
        assert sorted(obs[4].cards) == state.true_hand(seat)
    assert sorted(state.roles.values()).count(MORIARTY) == 2
    assert state.current_player() == 2 and state.legal_actions() == [Say(k) for k in range(6)]


def test_engine_unseen_role_card_with_four_players() -> None:
    for seed in range(20):
        state = TimeBombState(TableRules(4), random.Random(seed))
        assert len(state.aside_roles) == 1
        assert sorted([*state.roles.values(), *state.aside_roles]) == sorted([SHERLOCK] * 3 + [MORIARTY] * 2)


def test_engine_claims_then_cuts_and_everyone_sees_public_events() -> None:
    state = TimeBombState(TableRules(5, first_player=1), random.Random(3))
    for s in state.seats:
        state.take_observations(s)
    for seat in [1, 2, 3, 4, 5]:
        assert state.current_player() == seat
        state.apply(Say(0))
    seen = {s: state.take_observations(s) for s in state.seats}
    assert seen[1] == seen[4] == [Claim(s, 0) for s in range(1, 6)]
    with pytest.raises(IllegalActionError, match="may cut 2, 3, 4, 5"):
        state.apply(Target(1))
    state.apply(Target(3))
    obs = state.take_observations(2)
    assert isinstance(obs[0], Cut) and obs[0].seat == 3
    assert state.stats[1]["turns"] == 1


def test_engine_illegal_claim_order() -> None:
    state = TimeBombState(TableRules(5, first_player=1), random.Random(3))
    with pytest.raises(IllegalActionError, match="must first say"):
        state.apply(Target(2))
    with pytest.raises(IllegalActionError, match="0 to 5 defusing"):
        state.apply(Say(6))


def test_engine_games_are_reproducible_and_end() -> None:
    def run(seed: int) -> tuple:
        state = TimeBombState(TableRules(5), random.Random(seed))
        chooser = random.Random(seed)
        while not state.is_terminal():
            state.apply(chooser.choice(state.legal_actions()))
        return state.table.winner, state.table.reason, tuple(state.table.cuts), state.returns()

    for seed in range(30):
        a, b = run(seed), run(seed)
        assert a == b
        winner, _, _, returns = a
        assert winner in (SHERLOCK, MORIARTY) and sum(returns) in (2.0, 3.0)


def test_engine_redeal_gives_each_seat_its_own_hand() -> None:
    state = TimeBombState(TableRules(4, first_player=1), random.Random(11))
    chooser = random.Random(0)
    redeals: dict[int, list[Redeal]] = {s: [] for s in state.seats}
    while not state.is_terminal():
        state.apply(chooser.choice(state.legal_actions()))
        for s in state.seats:
            redeals[s] += [o for o in state.take_observations(s) if isinstance(o, Redeal)]
        if state.table.round >= 2 and state.phase() == "claim" and redeals[1]:
            for s in state.seats:
                assert list(redeals[s][-1].cards) == sorted(
                    state.true_hand(s), key=[DEFUSE, *state.setup.colours].index
                )
            break
    assert redeals[1], "the game should reach round 2"


def test_table_rules_errors() -> None:
    with pytest.raises(AssistantError, match="players 3"):
        TableRules(3)
    with pytest.raises(AssistantError, match="first player 6"):
        TableRules(5, first_player=6)


@pytest.mark.parametrize("data", [TINY, SMALL], ids=["tiny", "small"])
def test_small_variants_play_to_the_end(data) -> None:
    players = min(data.role_cards)
    for seed in range(20):
        state = TimeBombState(TableRules(players, data), random.Random(seed))
        chooser = random.Random(seed)
        while not state.is_terminal():
            state.apply(chooser.choice(state.legal_actions()))
        assert state.table.winner in (SHERLOCK, MORIARTY)


def test_the_rules_never_import_the_knowledge_model() -> None:
    """The engine writes its true world in the shared names of ``variables.py``; no import circle with the model."""
    import ast
    from pathlib import Path

    import models.time_bomb.rules as rules_module

    tree = ast.parse(Path(rules_module.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert "models.time_bomb.variables" in imported
    assert not imported & {"models.time_bomb.knowledge", "models.time_bomb.counting"}
