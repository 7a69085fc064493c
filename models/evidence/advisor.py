"""Evidence advisor: ranks the options of the player to move by simulated futures, and the ``advisor`` bot.

For each option the advisor samples hidden worlds from the player's exact knowledge (each colour's unseen
rumours dealt uniformly into the evidence, the other hands by their public colour counts and the unknown
piles), plays the option, then plays the game out with every player following the greedy policy from their
*own* information (:func:`models.evidence.bots.greedy_choice`: its hand and the table, never the sampled
truth). The same worlds and random streams are used for every option (common random numbers), so the
differences between options are not sampling noise between worlds. Each option gets:

- ``win``: the share of futures I win (a shared victory counts as a share);
- ``score``: my mean final score; ``lead``: mean (my score - the best other score);
- for a rumour: what it tells the others (how it moves the public estimate of its mystery).

Options are ranked by ``win + LEAD_WEIGHT * lead``: the win share is the goal, the lead breaks near-ties
with less noise. This is a one-step improvement of the greedy policy against greedy opponents ("rollout"):
it waits when waiting pays, hides the rumours that would send others to its mysteries, and keeps its
time-out for when the evidence is clear, because the futures say so, not because of a hand-written rule.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from models.evidence.batch import play_options
from models.evidence.bots import KnowledgeBot, extra_gains, register_bot
from models.evidence.inference import GreedyOpponents
from models.evidence.knowledge import EvidenceKnowledge
from models.evidence.observations import SETUP_TYPES, Action, Card, Done, Entry, PlayRumour
from models.evidence.rollout import Playout
from models.evidence.rules import PLAY, SEARCH, UNCOVER, EvidenceView

LEAD_WEIGHT = 0.05
DEFAULT_SAMPLES = 24
DEFAULT_ROUNDS = 3


@dataclass(frozen=True)
class Option:
    """One ranked option: its simulated outcome (see module docstring) and what it reveals."""

    action: Action
    win: float
    score: float
    lead: float
    samples: int
    tells: str = ""
    lead_weight: float = LEAD_WEIGHT

    @property
    def utility(self) -> float:
        return self.win + self.lead_weight * self.lead


def sample_world(kn: EvidenceKnowledge, rng: random.Random) -> tuple[dict[str, int], dict[int, list[Card]], dict]:
    """A hidden world drawn uniformly from ``kn`` (:meth:`EvidenceKnowledge.sample`)."""
    return kn.sample(rng)


def public_shift(kn: EvidenceKnowledge, colour: str, value: int) -> tuple[float, float]:
    """The public estimate of ``colour``'s evidence (every unrevealed rumour equally likely, as seen by someone
    who does not know my hand) before and after I reveal ``value``."""
    t = kn.table
    if t.evidence[colour] is not None:
        return float(t.evidence[colour]), float(t.evidence[colour])
    unseen = Counter(t.data.values[colour])
    unseen.subtract(t.displays[colour])
    before = sum(v * k for v, k in unseen.items()) / sum(unseen.values())
    unseen[value] -= 1
    after = sum(v * k for v, k in unseen.items()) / sum(unseen.values())
    return before, after


def candidates(kn: EvidenceKnowledge, phase: str, legal: Sequence[Action]) -> list[Action]:
    """The options worth simulating: every rumour or pile colour; every search card and stopping; stopping,
    and the best swap for each mystery and each tool (the other swaps of a mystery differ only by which
    cards replace it, where the myopic best is the sensible one)."""
    if phase in (UNCOVER, PLAY, SEARCH):
        return list(dict.fromkeys(legal))
    legal_set = set(legal)
    out: list[Action] = [Done()]
    for _, action in extra_gains(kn.table, kn.me, kn.means()):
        if action in legal_set:
            out.append(action)
    return out


def evaluate(
    kn: EvidenceKnowledge,
    round_: int,
    phase: str,
    options: Sequence[Action],
    samples: int = DEFAULT_SAMPLES,
    rng: random.Random | None = None,
    rounds: int = 1,
    lead_weight: float = LEAD_WEIGHT,
    model: GreedyOpponents | None = None,
    wait: bool = True,
    load: bool = True,
    resume: int | None = None,
) -> list[Option]:
    """Simulate each option in the same sampled futures; best first (see module docstring).

    With ``rounds > 1``, successive halving: after each round the better half of the options is kept and the
    sample doubles (new futures added to the old ones), so the budget goes where the choice is close. With a
    ``model`` of the others, the hidden worlds come from it (deals consistent with their past decisions) rather
    than from the exact knowledge alone. ``wait=False`` (a player is waiting): while the compiled loops are still
    loading, the futures are played by :class:`Playout` instead, with the same results; ``load=False``: by
    :class:`Playout` unless the compiled loops are loaded already (:func:`models.evidence.batch.play_options`).
    ``resume`` (advice off my turn): the seat whose turn it is; each option is my move now, out of turn, and then
    the table goes on from that seat (a seat with no card left at its turn plays none).
    """
    rng = rng or random.Random(0)
    me = kn.me
    some_world = sample_world(kn, random.Random(0))
    base = Playout(kn.table, *some_world, round_, me, phase, resume)
    worlds: list[tuple] = []
    seeds: list[int] = []
    totals: dict[Action, list[float]] = {a: [0.0, 0.0, 0.0] for a in options}
    done: dict[Action, int] = dict.fromkeys(options, 0)
    alive = list(dict.fromkeys(options))
    n = samples
    for step in range(rounds):
        if len(worlds) < n:
            more = n - len(worlds)
            fresh = model.sample(kn, more) if model else [sample_world(kn, rng) for _ in range(more)]
            worlds += fresh
            seeds += [rng.getrandbits(64) for _ in fresh]
        lo = done[alive[0]]  # the options still alive have all played the same futures so far
        outcomes = play_options(base, alive, worlds[lo:n], seeds[lo:n], me, wait=wait, load=load)
        for action, futures in zip(alive, outcomes, strict=True):
            acc = totals[action]
            for win, score, lead in futures:  # in the order of the futures
                acc[0] += win
                acc[1] += score
                acc[2] += lead
            done[action] = n
        if step < rounds - 1 and len(alive) > 2:
            alive.sort(key=lambda a: -(totals[a][0] + lead_weight * totals[a][2]) / done[a])
            alive = alive[: max(2, (len(alive) + 1) // 2)]
        n *= 2
    results = []
    for action in options:
        k = done[action]
        win, score, lead = (x / k for x in totals[action])
        tells = ""
        if isinstance(action, PlayRumour):
            before, after = public_shift(kn, action.colour, action.value)
            tells = f"public {action.colour} estimate {before:.2f} -> {after:.2f}"
        results.append(Option(action, win, score, lead, k, tells, lead_weight))
    return sorted(results, key=lambda o: (-o.samples, -o.utility))


def advise(kn: EvidenceKnowledge, view: EvidenceView, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> list[Option]:
    """Ranked options for the player to move (``view`` must be theirs, with its legal actions)."""
    options = candidates(kn, view.phase, view.legal_actions)
    return evaluate(kn, view.round, view.phase, options, samples, random.Random(seed))


class AdvisorBot(KnowledgeBot):
    """Plays the advisor's best option (see module docstring); obvious steps are taken without simulating."""

    name = "advisor"

    def __init__(
        self,
        seat: int,
        rng: random.Random,
        samples: int = DEFAULT_SAMPLES,
        rounds: int = DEFAULT_ROUNDS,
        lead_weight: float = LEAD_WEIGHT,
        opponents: str = "greedy",
    ) -> None:
        super().__init__(seat, rng)
        self.samples = samples
        self.rounds = rounds
        self.lead_weight = lead_weight
        self.opponents = opponents  # "greedy": infer from the others' searches; "none": exact knowledge only
        self.model: GreedyOpponents | None = None

    def inform(self, observation: Entry) -> None:
        if isinstance(observation, SETUP_TYPES):
            super().inform(observation)
            return
        kn = self.kn()
        if self.model is None and self.opponents == "greedy":
            self.model = GreedyOpponents(kn, random.Random(self.rng.getrandbits(64)))
        if self.model is not None:
            self.model.observe(observation, kn)
        else:
            kn.add(observation)

    def step(self, view: EvidenceView) -> Action:
        kn = self.kn()
        options = candidates(kn, view.phase, view.legal_actions)
        if len(options) == 1:
            return options[0]
        if view.phase == SEARCH and kn.table.room(self.seat) <= 0:
            return Done()
        rng = random.Random(self.rng.getrandbits(64))
        ranked = evaluate(
            kn, view.round, view.phase, options, self.samples, rng, self.rounds, self.lead_weight, self.model
        )
        return ranked[0].action


register_bot("advisor", AdvisorBot)
