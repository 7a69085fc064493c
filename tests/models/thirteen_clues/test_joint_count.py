"""One exact joint count per knowledge state serves the count, the grid, the advisor and ``possible`` (issue 19
§7): the values are those of the budget-limited :class:`AllocationCounter` and of the CP-SAT cover loop alone, at
every entry of the shipped example and of a seeded six-player game."""

from __future__ import annotations

from pathlib import Path

import pytest

from models import GAMES
from models.thirteen_clues.knowledge import MYSTERY, JointCounter
from models.thirteen_clues.session import ThirteenCluesSession
from solver.constraints import Problem
from solver.counting import AllocationCounter
from solver.errors import AssistantError
from solver.knowledge import Knowledge
from solver.narrate import replay_lines
from solver.session import read_lines

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = [line for _, line in read_lines(ROOT / "examples" / "thirteen-clues-4p.txt")]


def six_players() -> list[str]:
    _, lines, _, _ = replay_lines(GAMES, "thirteen-clues", None, 1, 6)
    return list(lines)


def states(lines: list[str]) -> list[ThirteenCluesSession]:
    """A session after each accepted entry once the setup is complete (a fresh one each, so no cache is shared)."""
    out = []
    for count in range(1, len(lines) + 1):
        session = ThirteenCluesSession()
        try:
            session.replay(lines[:count])
        except AssistantError:
            continue
        if session.knowledge is not None:
            out.append(session)
    return out


@pytest.mark.parametrize("lines", [EXAMPLE, six_players()], ids=["example-4p", "seed1-6p"])
def test_the_count_is_the_allocation_counters(lines: list[str]) -> None:
    """Worlds (a float), each mystery literal's weight (an int, only those with worlds) and exactness are the
    budget-limited counter's, entry by entry."""
    checked = 0
    for session in states(lines):
        kn = session.knowledge
        assert kn is not None
        observed = [c for e in kn.knowledge.entries for c in e.constraints]
        old = AllocationCounter(kn.capacities, MYSTERY)(kn.knowledge.problem, observed, 60)
        new = kn.count()
        assert new == old
        assert type(new.worlds) is float and {type(w) for w in new.weights.values()} == {int}
        checked += 1
    assert checked == (19 if lines is EXAMPLE else 30), checked


def test_the_example_count_has_its_worlds() -> None:
    """The final state of the shipped example: the exact count ``analyze --json`` reports."""
    session = ThirteenCluesSession()
    session.replay(EXAMPLE)
    kn = session.knowledge
    assert kn is not None
    count = kn.count()
    assert count.exact and count.worlds == session.summary()["worlds"]
    assert sum(count.weights.values()) == 3 * count.worlds  # three cards in every mystery


@pytest.mark.parametrize("lines", [EXAMPLE, six_players()], ids=["example-4p", "seed1-6p"])
def test_possible_is_the_cover_loops(lines: list[str]) -> None:
    """``possible`` with the literals the joints rule out equals a plain CP-SAT knowledge of the same
    constraints, and the literals ruled out are exactly the impossible ones."""
    for session in states(lines):
        kn = session.knowledge
        assert kn is not None
        k = kn.knowledge
        observed = [c for e in k.entries for c in e.constraints]
        plain = Knowledge(Problem(k.problem.variables, tuple(k.problem.structure) + tuple(observed)), lambda _o: ())
        possible = plain.possible()
        assert k.possible() == possible
        assert set(kn.ruled_out()) == {(c, p) for c, dom in k.problem.variables.items() for p in dom
                                        if p not in possible[c]}


def test_one_joint_count_per_state() -> None:
    """The count, the grid, the advice, the possible places and the entry's consistency check of one state share
    one joint computation; the state before an entry is still kept (the last two are), so the reply's changes and
    an undo back to it compute nothing; an entry that adds no constraint ('informant B by 2') and its undo reuse
    the state's; an undo to a state neither kept computes anew."""
    session = ThirteenCluesSession()
    session.replay(EXAMPLE[:-2])
    kn = session.knowledge
    assert kn is not None
    calls = []
    joints = kn.counter.allocation.joints

    def counted(*args: object) -> object:
        calls.append(1)
        return joints(*args)  # type: ignore[arg-type]

    kn.counter.allocation.joints = counted  # type: ignore[method-assign]
    session.handle(EXAMPLE[-2])
    session.state()
    session.handle("advise")
    assert len(calls) == 1
    session.handle(EXAMPLE[-1])
    session.state()
    session.handle("undo")
    assert len(calls) == 1
    session.handle("undo")
    session.state()
    assert len(calls) == 1
    session.handle("undo")
    session.state()
    assert len(calls) == 2


def test_the_joint_counter_has_every_place_but_the_pivot() -> None:
    counter = JointCounter({MYSTERY: 3, "p2": 2, "A": 1}, MYSTERY)
    assert counter.probes == ["p2", "A"]
