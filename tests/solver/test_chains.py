"""Every chain ends in the fact that was asked, and every step of it follows from what it cites.

For every prefix of every shipped example and of seeded games, in all four games, the chain of every certain or
ruled-out claim is built as ``why ... steps`` builds it; :func:`solver.steps_check.chain_problem` checks that
its last step concludes the claim's goal (computed on its own by the game's claims) and verifies each step with
a fresh CP-SAT model. Time Bomb has no chains: its explanation is case analyses ("these entries together leave no
deal with K COLOUR in play"), then the count; each case is checked on a fresh model with every entry it names
needed (:func:`solver.steps_check.case_problem`), the cases must rule out exactly the other counts, and the last
line must say the claim. By default a seeded sample of prefixes and claims runs (about half a minute a game);
the whole sweep is ``-m slow`` (``--runslow``), and its figures are in docs/teaching.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from models import GAMES
from models.time_bomb.counting import InPlay
from solver.claims import Explained, why_steps
from solver.proof import Claim, Fact
from solver.session import read_lines
from solver.simulate import game_seed
from solver.steps_check import case_problem, chain_problem, verify

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Figures:
    """What a sweep checked: chains (with every step verified), their steps, and Time Bomb's counted claims."""

    chains: int = 0
    steps: int = 0
    counted: int = 0
    cases: int = 0  # Time Bomb's case-analysis lines checked (each on a fresh model, once per distinct case)
    ending_in_fact: int = 0
    problems: list[str] = field(default_factory=list)
    checked: dict[object, str | None] = field(default_factory=dict)  # a distinct case's check, done once


def examples(game: str) -> list[list[str]]:
    """The lines of every shipped example of ``game``."""
    found = []
    for path in sorted((ROOT / "examples").glob("*.txt")):
        if GAMES.file_game(path) == game:
            found.append([line.split("#", 1)[0].strip() for _, line in read_lines(path)])
    return found


def sweep(game: str, lines: list[str], figures: Figures, prefixes: float = 1.0, claims: int | None = None,
          seed: int = 0) -> None:
    """Check the chain of every decided claim after each prefix of ``lines`` (a ``prefixes`` share of them,
    and at most ``claims`` claims each, both drawn with ``seed``)."""
    rng = random.Random(seed)
    t = GAMES[game].new_teacher()
    session = t.new_session()
    for n, line in enumerate(lines, start=1):
        session.handle(line, show=False)
        if not t.started(session) or (n < len(lines) and rng.random() >= prefixes):
            continue
        c = t.claims(session)
        decided = sorted(c.decided().items(), key=repr)
        if claims is not None and len(decided) > claims:
            decided = rng.sample(decided, claims)
        for key, value in decided:
            check_claim(c, key, value, figures, f"{game} after {n} '{line}': {c.say(key, value)}")


def check_claim(c: object, key: object, value: bool, figures: Figures, where: str) -> None:
    explained = c.explain(key, value)  # type: ignore[attr-defined]
    if explained.chain is None:  # Time Bomb: the count decides; its last line says the claim
        figures.counted += 1
        problem = counted_problem(c, key, value, explained, figures)
        if problem is None:
            figures.ending_in_fact += 1
        else:
            figures.problems.append(f"{where}: {problem}")
        return
    goal = c.goal(key, value)  # type: ignore[attr-defined]
    problem = chain_problem(explained.explainer, explained.chain, [goal])
    figures.chains += 1
    figures.steps += len(explained.chain.steps)
    if problem is None:
        figures.ending_in_fact += 1
    else:
        figures.problems.append(f"{where}: {problem}")


def counted_problem(c: object, key: object, value: bool, explained: Explained, figures: Figures) -> str | None:
    """What is wrong with a Time Bomb explanation (None: nothing): its last line must say the claim, its case
    analyses must rule out exactly the other counts (every other count for "exactly K", K itself for "cannot
    be K"), each line must name its case, and each case must hold on a fresh model with every entry needed."""
    colour, k = key  # type: ignore[misc]
    said = c.say(key, value)  # type: ignore[attr-defined]
    if not explained.lines[-1].endswith(f"So {said}. [counting]"):
        return f"the last line does not say the claim: '{explained.lines[-1]}'"
    bombs = c.kn.setup.bombs_per_colour  # type: ignore[attr-defined]
    wanted = [(colour, j) for j in range(bombs + 1) if j != k] if value else [(colour, k)]
    ruled = [(case.what.colour, case.what.count) for case in explained.cases]  # type: ignore[attr-defined]
    if ruled != wanted:
        return f"the cases rule out {ruled}, not {wanted}"
    for case in explained.cases:
        line = explained.lines[case.line]
        if not line.startswith(f"{case.line + 1}. These entries together leave no deal with "
                               f"{case.what.count} {colour} in play: "):  # type: ignore[attr-defined]
            return f"line {case.line + 1} does not name its case: '{line}'"
        figures.cases += 1
        seen = (case.problem.structure, case.premises, case.case)
        if seen not in figures.checked:
            figures.checked[seen] = case_problem(case.problem, case.premises, case.case)
        if figures.checked[seen] is not None:
            return f"line {case.line + 1}: {figures.checked[seen]}: '{line}'"
    return None


def test_the_issue_example_ends_in_minus_one() -> None:
    """Issue 22: blue 0, 3, 4 in my hand, blue 2 revealed at setup, 'play 4 blue 1': the blue evidence is -1,
    and the chain says so in its last step (it used to stop at "the blue 1 is not the blue evidence")."""
    lines = examples("evidence")[0]
    t = GAMES["evidence"].new_teacher()
    session = t.new_session()
    for line in lines[: lines.index("play 4 blue 1") + 1]:
        session.handle(line, show=False)
    c = t.claims(session)
    assert c.decided()[("blue", -1)] is True
    explained = c.explain(("blue", -1), True)
    assert chain_problem(explained.explainer, explained.chain, [c.goal(("blue", -1), True)]) is None
    assert explained.lines == (
        "1. 'play 4 blue 1' says so directly: the blue 1 was played by player 4. [stated]",
        "2. Player 4 was dealt 1 blue rumour (the backs show it), and that count is already full (the blue 1 was "
        "played by player 4): so the blue -1 was not dealt to player 4. [count full; uses step 1]",
        "3. The blue -1 is in one place: the blue evidence or player 4's hand (the places that hold blue cards you "
        "have not seen), and every other place is ruled out (the blue -1 was not dealt to player 4): so the blue "
        "-1 is the blue evidence. [only one left; uses step 2]",
    )
    assert why_steps(c, ("blue", 2)) == ("Why the blue evidence cannot be 2, step by step:\n"
                                         "1. The blue 2 was revealed at setup: so the blue evidence cannot be 2. "
                                         "[so the claim]")


def test_a_chain_that_stops_short_fails() -> None:
    """The check itself: drop the last step of a good chain, or ask it for another fact, and it fails."""
    lines = examples("evidence")[0]
    t = GAMES["evidence"].new_teacher()
    session = t.new_session()
    for line in lines[: lines.index("play 4 blue 1") + 1]:
        session.handle(line, show=False)
    c = t.claims(session)
    explained = c.explain(("blue", -1), True)
    chain, ex = explained.chain, explained.explainer
    short = type(chain)(chain.steps[-2].fact, chain.steps[:-1])
    assert chain_problem(ex, short, [c.goal(("blue", -1), True)]).startswith("the chain stops short")
    assert chain_problem(ex, chain, [c.goal(("blue", 1), False)]).startswith("the chain stops short")
    assert verify(ex, short, len(short.steps))


def test_a_claim_over_several_copies_is_closed_by_its_own_step() -> None:
    """With two blue 2s in the game, "cannot be 2" is a claim over both copies: one closing step says it."""
    t = GAMES["evidence"].new_teacher()
    session = t.new_session()
    lines = examples("evidence")[0]
    setup = lines[: lines.index("play 2 brown 2")]
    setup.insert(setup.index("variant basic") + 1, "values blue -1 0 2 2 3 4")
    for line in [*setup, "play 2 brown 2", "search 2 green", "play 3 white 2", "search 3 pink", "play 4 blue 2"]:
        session.handle(line, show=False)
    c = t.claims(session)
    goal = c.goal(("blue", 2), False)
    assert isinstance(goal, Claim) and len(goal.lits) == 1  # one of the two 2s was revealed at setup
    assert isinstance(c.goal(("blue", -1), True), Fact)
    assert c.decided()[("blue", -1)] is True
    explained = c.explain(("blue", -1), True)
    assert chain_problem(explained.explainer, explained.chain, [c.goal(("blue", -1), True)]) is None
    explained = c.explain(("blue", 2), False)
    assert chain_problem(explained.explainer, explained.chain, [goal]) is None
    assert explained.lines[-1] == (
        "3. The blue 2 was revealed at setup; the blue 2 (copy 2) is not the blue evidence (step 2): so the blue "
        "evidence cannot be 2. [so the claim; uses step 2]")


#: The default sample: the share of prefixes and the claims per prefix checked, where a game needs other than
#: (0.25, 4). Time Bomb used to sample (0.1, 2), since each explanation solved a CP-SAT core per count; its cores
#: are now kept while their entries stand and each distinct case is checked once, so it samples as the others do.
SAMPLE: dict[str, tuple[float, int]] = {}


@pytest.mark.parametrize("game", [e.name for e in GAMES])
def test_sampled_chains_of_examples_and_seeded_games_end_in_their_fact(game: str) -> None:
    figures = Figures()
    prefixes, claims = SAMPLE.get(game, (0.25, 4))
    for lines in examples(game):
        sweep(game, lines, figures, prefixes=prefixes, claims=claims, seed=1)
    t = GAMES[game].new_teacher()
    sweep(game, list(t.transcript(game_seed(0, 0), t.default_players).lines), figures, prefixes=prefixes / 2,
          claims=claims, seed=2)
    assert figures.problems == []
    assert figures.ending_in_fact == figures.chains + figures.counted >= 8


@pytest.mark.slow
@pytest.mark.parametrize("game", [e.name for e in GAMES])
def test_every_chain_of_every_prefix_ends_in_its_fact(game: str) -> None:
    """The whole sweep: every prefix of every example and of four seeded games, every decided claim."""
    figures = Figures()
    for lines in examples(game):
        sweep(game, lines, figures)
    t = GAMES[game].new_teacher()
    for g in range(4):
        sweep(game, list(t.transcript(game_seed(0, g), t.default_players).lines), figures)
    print(f"{game}: {figures.chains} chains ({figures.steps} steps, each verified), {figures.counted} counted "
          f"({figures.cases} case analyses, {len(figures.checked)} distinct, each checked); "
          f"{figures.ending_in_fact} ending in their fact")
    assert figures.problems == []
    assert figures.ending_in_fact == figures.chains + figures.counted


def time_bomb_after(last: str) -> object:
    """Time Bomb's claims after the example's lines up to and including ``last``."""
    lines = examples("time-bomb")[0]
    t = GAMES["time-bomb"].new_teacher()
    session = t.new_session()
    for line in lines[: lines.index(last) + 1]:
        session.handle(line, show=False)
    return t.claims(session)


def test_a_time_bomb_case_analysis_is_checked_on_its_own() -> None:
    """Each "these entries together leave no deal" line is a Case: it holds on a fresh model with every entry
    it names needed; drop an entry and it fails, name one too many and that one is not needed."""
    c = time_bomb_after("cut 2 red")
    explained = c.explain(("red", 2), False)
    assert explained.lines == (
        "1. These entries together leave no deal with 2 red in play: 'cut 3 red' (round 1); 'cut 5 red' (round 1); "
        "'cut 2 red' (round 1). [case analysis]",
        "2. No short chain of single-card steps: the hard facts' exact count of deals decides it (red cards in "
        "play: 4: 33%, 5: 67%). So there cannot be exactly 2 red cards in play. [counting]",
    )
    (case,) = explained.cases
    assert (case.what, case.line, len(case.premises)) == (InPlay("red", 2), 0, 3)
    assert case_problem(case.problem, case.premises, case.case) is None
    assert counted_problem(c, ("red", 2), False, explained, Figures()) is None
    assert case_problem(case.problem, case.premises[:2], case.case) == (
        "the entries it names leave a world where the case holds")
    hand = c.kn.fact_constraints[0]  # my hand's two reds stand in for 'cut 3 red'
    assert case_problem(case.problem, (*case.premises, hand), case.case) == "entry 1 of 4 it names is not needed"


def test_a_time_bomb_core_is_kept_while_its_entries_stand() -> None:
    """Asked again, a core is given without a solve; once one of its entries is undone it is found anew."""
    c = time_bomb_after("cut 2 red")
    kn = c.kn
    core = kn.explain_whatif(InPlay("red", 2))
    engine = kn.engine()
    solves = engine.last_solve_count
    assert kn.explain_whatif(InPlay("red", 2)) == core
    assert engine.last_solve_count == solves
    assert [str(f) for f in core] == ["cut 3 red", "cut 5 red", "cut 2 red"]
    kn.undo()  # 'cut 2 red'
    assert [str(f) for f in kn.explain_whatif(InPlay("red", 2))] == ["hand pink red red blue green", "cut 5 red"]
