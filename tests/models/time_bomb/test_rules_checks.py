"""Exact refusals of the Time Bomb table's checks, in every phase (what mutation testing asked for)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from models.time_bomb.data import DEFAULT_DATA
from models.time_bomb.observations import Claim, Cover, Cut, Draw, Uncover
from models.time_bomb.rules import COVER, DRAW, OVER, REDEAL, UNCOVER, Table
from solver.errors import IllegalActionError


def table(players: int = 5, start: int = 1) -> Table:
    return Table(DEFAULT_DATA.setup(players), start)


def play(t: Table, *lines: str) -> Table:
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
    return t


def refusal(t: Table, check: Callable[[], object]) -> str:
    """The exact message ``check`` refuses with; the table must be left as it was."""
    before = (t.phase, t.cutter, dict(t.sizes), dict(t.covered), t.pending, t.extra_target, len(t.cuts))
    with pytest.raises(IllegalActionError) as caught:
        check()
    assert (t.phase, t.cutter, dict(t.sizes), dict(t.covered), t.pending, t.extra_target, len(t.cuts)) == before
    return str(caught.value)


def covering() -> Table:
    """Player 3 cut a defusing card with pink and green cut and uncovered: two colours to choose from."""
    t = play(table(), "2 pink", "3 green", "4 defuse")
    assert (t.phase, t.cutter, t.coverable()) == (COVER, 3, ["pink", "green"])
    return t


def uncovering() -> Table:
    """Player 1 cut a blue bomb with pink and green covered."""
    t = play(covering(), "cover pink", "1 yellow", "cover green", "2 blue")
    assert (t.phase, t.cutter, t.covered) == (UNCOVER, 1, {"pink": "defuse", "green": "yellow"})
    return t


def redealing() -> Table:
    t = play(table(), "2 red", "draw 2", "3 blue", "4 blue", "5 yellow", "cover red", "1 defuse", "cover blue",
             "2 green")
    assert (t.phase, t.next_sizes()) == (REDEAL, {2: 4, 3: 4, 4: 4, 5: 4, 1: 3})
    return t


def test_a_cut_while_a_step_is_pending_names_the_step_and_its_choices() -> None:
    t = covering()
    assert refusal(t, lambda: t.cut(Cut(1, "green"))) == (
        "'cut 1 green': player 3 must first place the defuse card: 'cover COLOUR' (pink, green)")
    t = uncovering()
    assert refusal(t, lambda: t.cut(Cut(3, "green"))) == (
        "'cut 3 green': the blue bomb must first remove a cover: 'uncover COLOUR' (pink, green)")
    t = play(table(), "2 red")
    assert t.phase == DRAW
    assert refusal(t, lambda: t.cut(Cut(4, "green"))) == (
        "'cut 4 green': the red bomb's numbered card comes first: 'draw K'")
    t = redealing()
    assert refusal(t, lambda: t.cut(Cut(3, "green"))) == (
        "'cut 3 green': the round is over: enter your new hand with 'redeal ...' first")


def test_a_cover_or_an_uncover_names_every_colour_it_may_choose() -> None:
    t = covering()
    assert refusal(t, lambda: t.cover(Cover("blue"))) == (
        "'cover blue': expected an uncovered colour with a cut card (pink, green)")
    t = uncovering()
    assert refusal(t, lambda: t.uncover(Uncover("red"))) == "'uncover red': expected a covered colour (pink, green)"


@pytest.mark.parametrize("number", [5, -1, 9])
def test_a_drawn_number_outside_the_red_bombs_cards_is_refused(number: int) -> None:
    t = play(table(), "2 red")
    assert refusal(t, lambda: t.draw(Draw(number))) == f"'draw {number}': expected a number 0 to 4"


def test_a_redeal_needs_the_round_over_and_each_seats_own_number_of_cards() -> None:
    t = uncovering()
    assert refusal(t, lambda: t.check_redeal(4, 1)) == (
        "redeal: the round is not over (round 1/4, turn 5/5, defusing cards 1/5: player 1 removes a cover "
        "(blue bomb))")
    t = redealing()
    t.check_redeal(3, 1)  # the last card dealt went to player 5, so player 1 gets one fewer
    t.check_redeal(4, 3)
    assert refusal(t, lambda: t.check_redeal(1, 1)) == "redeal: player 1 gets 3 cards this round, not 1"
    assert refusal(t, lambda: t.check_redeal(4, 1)) == "redeal: player 1 gets 3 cards this round, not 4"
    assert refusal(t, lambda: t.check_redeal(3, 2)) == "redeal: player 2 gets 4 cards this round, not 3"


def test_every_entry_after_the_game_is_over_is_refused_by_name() -> None:
    t = play(table(), "2 green", "3 green", "4 green")
    assert t.phase == OVER
    checks: list[tuple[Callable[[], object], str]] = [
        (lambda: t.claim(Claim(2, 1)), "'claim 2 1'"), (lambda: t.cut(Cut(2, "red")), "'cut 2 red'"),
        (lambda: t.cover(Cover("red")), "'cover red'"), (lambda: t.uncover(Uncover("red")), "'uncover red'"),
        (lambda: t.draw(Draw(1)), "'draw 1'"), (lambda: t.check_redeal(4, 1), "'redeal'")]
    assert [refusal(t, check) for check, _ in checks] == [
        f"{name}: the game is over (moriarty won)" for _, name in checks]
