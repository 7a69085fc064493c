"""The compiled loops (:mod:`models.beyond_baker_street.kernels`) against the array code they stand in for, on
random positions (ties and cards with no world included), and the same decisions game for game either way."""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from models.beyond_baker_street import compiled as loader
from models.beyond_baker_street.advice import Situation, ValueTable, my_distribution, my_expected, narrowed
from models.beyond_baker_street.advisor import make_bot
from models.beyond_baker_street.hat import ALL_CARDS, HatBot, HatTable, good_cards, in_play, play_classes
from models.beyond_baker_street.knowledge import FULL_MASK, HandKnowledge, mask_distribution
from models.beyond_baker_street.observations import Action
from models.beyond_baker_street.plain import AdvisorBot, assist_numbers, assist_numbers_array
from models.beyond_baker_street.rules import TableRules, new_game
from solver.injections import unit_count
from solver.simulate import Matchup, game_seed, play_game

kernels = loader.compiled(wait=True)
pytestmark = pytest.mark.skipif(kernels is None, reason="Numba is not installed")


def situations(seed: int, bot: str = "advisor", case: int = 1, players: int = 3) -> list[Situation]:
    """Situations of every decision of a few seeded games."""
    out: list[Situation] = []

    def grab(self: AdvisorBot, _scores: Scores) -> None:
        sit = Situation.of(copy.deepcopy(self.hand))  # the knowledge of this decision, kept as it is
        sit.values  # noqa: B018 - the table of the board as it is now
        out.append(sit)

    watched(bot, case, grab, seed, 3, players)
    assert out, "no decision was seen"
    return out


Scores = Callable[[Any], tuple[list[Action], list[float]]]


def watched(bot: str, case: int, watch: Callable[[Any, Scores], None], seed: int, games: int,
            players: int = 3) -> None:
    """Play ``games`` seeded games with ``bot`` at every seat, ``watch(bot, scores)`` called at every decision
    before the bot's own ``scores`` (what its step asks; passed to ``watch`` too), which is put back afterwards."""
    cls = HatBot if bot == "hat" else AdvisorBot
    scores = cls.scores

    def watching(self: AdvisorBot) -> tuple[list[Action], list[float]]:
        watch(self, scores)
        return scores(self)

    matchup = Matchup(functools.partial(new_game, TableRules(players, case)), (bot,) * players, make_bot)
    cls.scores = watching  # type: ignore[method-assign]
    try:
        for i in range(games):
            play_game(matchup, game_seed(seed, i), i)
    finally:
        cls.scores = scores  # type: ignore[method-assign]


def random_masks(rng: random.Random, k: int) -> list[int]:
    """Slot masks: mostly wide, some narrow, some empty (no world), some equal (ties)."""
    pick = [FULL_MASK, rng.getrandbits(24), rng.getrandbits(24) & rng.getrandbits(24), 1 << rng.randrange(24), 0]
    first = rng.choice(pick)
    return [first if rng.random() < 0.2 else rng.choice(pick) for _ in range(k)]


@pytest.mark.parametrize("seed", range(3))
def test_value_tables_are_the_array_code(seed: int) -> None:
    for sit in situations(seed, case=1 + seed * 2):
        assert np.array_equal(sit._values_new(), sit._values_fast())


@pytest.mark.parametrize("k", [0, 1, 3, 4, 6])
def test_distributions_and_counts_are_the_array_code(k: int) -> None:
    rng = random.Random(k)
    for _ in range(300):
        masks = random_masks(rng, k)
        unseen = rng.choice([FULL_MASK, rng.getrandbits(24)])
        assert np.array_equal(kernels.distributions(np.array(masks, dtype=np.int64), unseen),
                              mask_distribution(tuple(masks), unseen))
        assert kernels.count(np.array([m & unseen for m in masks], dtype=np.int64)) == unit_count(
            [m & unseen for m in masks])


def test_expected_values_and_narrowing_are_the_array_code() -> None:
    rng = random.Random(5)
    for sit in situations(7):
        dists = np.array(my_distribution(sit.kn))  # writable: the compiled path
        loader.ARRAYS_ONLY = True
        try:
            want = sit.expected(dists)
            masks = random_masks(rng, len(dists))
            want_narrow = narrowed(dists, masks)
        finally:
            loader.ARRAYS_ONLY = False
        assert np.array_equal(sit.expected(dists), want)
        assert np.array_equal(narrowed(dists, masks), want_narrow)


def test_my_expected_values_in_one_call_are_the_three_steps() -> None:
    """``my_expected`` (one compiled call: distributions, narrowing, expected values) gives the very numbers of
    the three steps one by one, compiled and in array code, with and without a narrowing (hat decisions' and
    random masks, ties and masks with no card of the position included)."""
    rng = random.Random(9)
    checked = 0
    for sit in situations(7, bot="hat", case=5) + situations(8):
        k = len(sit.kn.hands[sit.me])
        for known in (None, random_masks(rng, k), [FULL_MASK] * k):
            dists = my_distribution(sit.kn)
            steps = sit.expected(dists if known is None else narrowed(dists, known))
            loader.ARRAYS_ONLY = True
            try:
                arrays = my_expected(sit, known)
            finally:
                loader.ARRAYS_ONLY = False
            got = my_expected(sit, known)
            assert got.dtype == np.float64
            assert np.array_equal(got, steps)
            assert np.array_equal(got, arrays)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("terms", [True, False])
def test_assist_values_are_the_array_code(terms: bool) -> None:
    rng = random.Random(int(terms))
    checked = 0
    for sit in situations(11, case=3):
        for target, hand in sit.hands.items():
            if not hand:
                continue
            k = len(hand)
            n = 6
            base = [0] * 3 + [3] * 3
            rows = [[s.mask for s in sit.kn.hands[target]] if r in (0, 3) else random_masks(rng, k) for r in range(n)]
            args = (np.array(rows, dtype=np.int64), np.array([sit.unseen | sum(1 << c for c in hand)] * n),
                    np.array([hand] * n, dtype=np.intp), np.array(base, dtype=np.intp),
                    np.array([rng.choice([1.0, 0.85, 0.7225]) for _ in range(n)]))
            got = assist_numbers(sit, *args, terms=terms)
            want = assist_numbers_array(sit, *args, terms=terms)
            assert got[0] == want[0]
            assert np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("bot, case", [("advisor", 2), ("hat", 5)])
def test_the_same_games_with_or_without_the_compiled_loops(bot: str, case: int) -> None:
    def play(arrays: bool) -> list[tuple[int, int]]:
        loader.ARRAYS_ONLY = arrays
        try:
            matchup = Matchup(functools.partial(new_game, TableRules(3, case)), (bot,) * 3, make_bot)
            return [(r.actions, int(r.stats[0]["won"])) for r in
                    (play_game(matchup, game_seed(3, i), i)[0] for i in range(4))]
        finally:
            loader.ARRAYS_ONLY = False

    assert play(True) == play(False)


def test_kernels_compile_once_for_the_types_the_advisor_passes() -> None:
    """After games on the compiled path, every kernel still has the one signature the loader compiled: no call
    ever compiled another one while a player waited."""
    situations(2, bot="hat", case=5)
    for name in ("value_table", "distributions", "expected", "narrowed", "assist_rows", "assist_subjects", "count",
                 "table_uses", "use_classes", "play_classes", "hand_expected", "hat_values", "hat_packed",
                 "table_all", "table_packed"):
        assert len(getattr(kernels, name).signatures) == 1, name


def test_a_card_possible_at_a_position_is_the_exact_count() -> None:
    """``_possible_at`` (the worlds with the card there, counted) against the marginals of every world."""
    checked = 0
    for sit in situations(13, case=4):
        kn = sit.kn
        weights = kn._counts(kn.me)[1]
        for position in range(1, len(kn.hands[kn.me]) + 1):
            for card in kn.data.evidence:
                index = kn.data.evidence.index(card)
                assert kn._possible_at(position, card) == (weights[position - 1][index] > 0)
                checked += 1
    assert checked > 1000


def sightings(kn: object) -> dict[int, list[tuple[int, int, int]]]:
    """Each slot's id, sightings and mask, as values (the slots' sightings change in place)."""
    return {seat: [(s.id, s.seen, s.mask) for s in hand] for seat, hand in kn.hands.items()}  # type: ignore[attr-defined]


def test_a_refused_entry_leaves_the_knowledge_as_it_was() -> None:
    """The board is copied only for entries checked after it took them; any refused entry, early or late,
    leaves everything as it was, the slots' sightings included."""
    from models.beyond_baker_street.observations import Assisted, Drew, Eliminated
    from solver.errors import AssistantError

    refused = 0
    for sit in situations(17):
        kn = sit.kn
        me = kn.me
        other = next(s for s in kn.hands if s != me)
        state = (kn.board.describe(), kn.board.current, kn.hands, list(kn.spans), kn.unseen_mask(), kn.hand(),
                 sightings(kn))
        tries = [Assisted(other, me, 6, (1, 2, 3, 4, 5, 6)[:len(kn.hands[me])]), Drew(other, kn.data.evidence[0])]
        # plays refused before their card leaves the hand (the hands are not copied for them): another's card
        # that is not the one at that position, and a card of mine I saw in another hand
        shown = [s.card for s in kn.hands[other] if s.card is not None]
        wrong = next(c for c in kn.data.evidence if c not in shown)
        if kn.hands[other]:
            tries.append(Eliminated(other, 1, wrong))
        if kn.hands[me] and shown and kn.board.current == me and not kn.board.pending and kn.board.leads:
            tries.append(Eliminated(me, 1, shown[0]))
        for entry in tries:
            try:
                kn.add(entry)
            except AssistantError:
                refused += 1
                after = (kn.board.describe(), kn.board.current, kn.hands, list(kn.spans), kn.unseen_mask(), kn.hand(),
                         sightings(kn))
                assert after == state
            else:
                return_to = kn.undo()
                assert return_to == entry
    assert refused > 10


@pytest.mark.parametrize("bot, case", [("advisor", 1), ("hat", 5), ("hat", 3)])
def test_a_bots_scores_are_its_ranked_advice(bot: str, case: int) -> None:
    """What a bot's step ranks (``scores``: actions and values, no Advice objects) is, once sorted as the advice
    is, exactly its ranked advice (every action with the same value, in the same order), and the action it plays
    (``top_legal``) is the first legal one of that advice."""
    compared = 0

    def check(self: AdvisorBot, scores: Scores) -> None:
        nonlocal compared
        actions, values = scores(self)
        order = sorted(range(len(values)), key=lambda i: -values[i])
        assert [(actions[i], values[i]) for i in order] == [(a.action, a.score) for a in self.ranked()]
        compared += 1

    watched(bot, case, check, 5, 3)
    assert compared > 40


def test_top_legal_is_the_first_legal_action_of_the_sorted_values() -> None:
    from models.beyond_baker_street.observations import Eliminate, Investigate, Pursue
    from models.beyond_baker_street.plain import top_legal

    a, b, c, d = Eliminate(1), Eliminate(2), Investigate(1, "Motive"), Pursue("Motive")
    assert top_legal([a, b, c], [1.0, 3.0, 3.0], [a, b, c]) == b  # the first of equal values
    assert top_legal([a, b, c], [1.0, 3.0, 3.0], [a, c]) == c  # the best is not legal: the next one
    assert top_legal([a, b, c], [-1.0, -0.0, 0.0], [a, c]) == c  # -0.0 and 0.0 are equal values
    assert top_legal([a, b], [1.0, 2.0], [d]) == d  # nothing legal among them: the first legal action
    assert top_legal([], [], [d, a]) == d


def test_soundness_sampling_is_a_simulation_option() -> None:
    """``assist simulate beyond-baker-street`` samples the soundness checks by default (the registry's option,
    data) and ``--check-every`` checks every observation; the games are the same either way, and a share out of
    range is refused in one line."""
    from models.beyond_baker_street import ENTRY
    from models.beyond_baker_street.simulate import matchup
    from solver.errors import AssistantError
    from solver.simulate import SAMPLED_SOUNDNESS

    assert ENTRY.simulation is not None
    options = {o.name: o for o in ENTRY.simulation.options}
    assert (options["soundness"].default, options["soundness"].low, options["soundness"].high) == \
        (SAMPLED_SOUNDNESS, 0.0, 1.0)
    assert options["check_every"].kind is bool and options["check_every"].default is False
    sampled = matchup(3, 1, "advisor", "", soundness=0.1)
    assert sampled.soundness == 0.1
    assert matchup(3, 1, "advisor", "", soundness=0.1, check_every=True).soundness == 1.0
    assert matchup(3, 1, "advisor", "").soundness == 1.0  # called from Python (the tests): every observation
    every = matchup(3, 1, "advisor", "", soundness=1.0)
    for i in range(3):
        one, two = play_game(sampled, game_seed(9, i), i)[0], play_game(every, game_seed(9, i), i)[0]
        assert (one.actions, one.stats) == (two.actions, two.stats)
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(AssistantError, match="--soundness"):
            matchup(3, 1, "advisor", "", soundness=bad)


def test_the_soundness_flags_on_the_command_line() -> None:
    """``--soundness`` is bounded (one line, exit 2), and ``--check-every`` prints the same summary as the
    default sample: the games do not depend on which observations are checked."""
    from typer.testing import CliRunner

    from assistant_cli.main import app

    base = ["simulate", "beyond-baker-street", "--games", "2", "--seed", "3", "--json"]
    for bad, bound in (("1.5", "less than or equal to 1"), ("-0.1", "greater than or equal to 0")):
        result = CliRunner().invoke(app, [*base, "--soundness", bad], input="")
        assert result.exit_code == 2, result.output
        assert bound in " ".join(result.output.replace("│", " ").split())
    sampled = CliRunner().invoke(app, base, input="")
    every = CliRunner().invoke(app, [*base, "--check-every"], input="")
    assert sampled.exit_code == every.exit_code == 0, sampled.output + every.output
    assert sampled.output == every.output and '"games": 2' in sampled.output


def computed_play_part(hat: HatTable, kn: HandKnowledge, seat: int) -> object:
    """``HatTable.play_part`` computed afresh, as its docstring says, with nothing kept: the reference."""
    board = kn.board
    if not hat.plays or board is None or board.holmes > hat.plays or not in_play(kn):
        return None
    if hat.plays_limit is not None and board.case.limit > hat.plays_limit.get(kn.players, -1):
        return None
    sit = Situation.kept(kn, hat.weights)
    positions = list(range(len(kn.hands[seat])))
    if hat.skip_bad:
        good = good_cards(sit)
        positions = [i for i, slot in enumerate(kn.hands[seat])
                     if slot.told_mask & sit.live & hat.fixed.get(slot.id, ALL_CARDS) & good]
    if len(positions) < 2:
        return None
    if hat.free and hat.certain_play(kn, seat, sit):
        return None
    return (play_classes(sit, len(positions)), sit.live), positions


def test_the_kept_play_part_is_the_computed_one() -> None:
    """``HatTable.play_part`` is kept per knowledge state and hat messages taken in: at every decision and every
    read of a play in seeded hat games, for every seat, it is what a fresh computation gives."""
    read_play = HatBot.inform
    compared = 0

    def check(self: HatBot, observation: object) -> None:
        nonlocal compared
        if self.hand.started and not self.hand.board.over:  # type: ignore[union-attr]
            for seat in self.hand.hands:
                assert self.hat.play_part(self.hand, seat) == computed_play_part(self.hat, self.hand, seat)
                compared += 1
        read_play(self, observation)  # type: ignore[arg-type]

    matchup = Matchup(functools.partial(new_game, TableRules(3, 5)), ("hat",) * 3, make_bot)
    HatBot.inform = check  # type: ignore[method-assign]
    try:
        for i in range(2):
            play_game(matchup, game_seed(7, i), i)
    finally:
        HatBot.inform = read_play  # type: ignore[method-assign]
    assert compared > 200


def _best_uses_by_column(table: ValueTable) -> list[tuple[int, int, bool]]:
    """:attr:`ValueTable.best_uses` as it was first written: per live card, ``column.index(max(column))``."""
    out = []
    for i, column in enumerate(zip(*table.values.tolist(), strict=True)):
        if table.live >> i & 1:
            best = max(column)
            out.append((i, column.index(best), best > 0))
    return out


def test_best_uses_row_by_row_is_the_first_of_the_highest() -> None:
    """The row-by-row pass gives, for every live card, the first row of highest value (ties and -0.0 included)
    and whether it is positive, as the column-wise reading does, on random tables of 1 to 4 rows; so do the
    compiled loop (``kernels.table_uses``) and the plain Python it stands in for, with each Lead's positive
    cards."""
    rng = np.random.default_rng(21)
    for trial in range(500):
        rows = int(rng.integers(1, 5))
        values = rng.integers(-2, 3, size=(rows, 24)).astype(np.float64) * 0.5  # many equal values
        if trial % 2:
            values[rng.random(values.shape) < 0.3] = -0.0
        values.flags.writeable = False  # as the advisor's tables are (no other signature compiled)
        table = ValueTable(values, int(rng.integers(0, 1 << 24)), rows - 1)
        assert table.best_uses == _best_uses_by_column(table)
        assert table.positive == [sum(1 << i for i, v in enumerate(row) if v > 0) for row in values[:rows - 1]]
        assert table._uses is not None  # read by the compiled loop
        loader.ARRAYS_ONLY = True
        try:
            plain = ValueTable(values, table.live, rows - 1)
            assert (plain.best_uses, plain.positive, plain.good) == (table.best_uses, table.positive, table.good)
            assert plain._uses is None
        finally:
            loader.ARRAYS_ONLY = False
    table = ValueTable(np.array([[1.0, -1.0, 0.0, 2.0], [1.0, 3.0, -0.0, -5.0], [0.5, 3.0, 0.0, 2.0]]), 0b1011, 2)
    assert table.best_uses == [(0, 0, True), (1, 1, True), (3, 0, True)]


def test_every_seat_reads_one_shared_play_part() -> None:
    """``HatTable.play_part`` is kept in the value table's memo: another seat's table, asking about the same hand
    with the same hat messages, gets the very answer the first computed (the same object)."""
    seen = 0

    def check(self: HatBot, observation: object) -> None:
        nonlocal seen
        if self.hand.started and not self.hand.board.over:  # type: ignore[union-attr]
            other = HatTable(self.hat.mode, self.hat.weights)
            other.fixed = dict(self.hat.fixed)
            for seat in self.hand.hands:
                first = self.hat.play_part(self.hand, seat)
                if first is not None:
                    assert other.play_part(self.hand, seat) is first
                    seen += 1
        inform(self, observation)  # type: ignore[arg-type]

    inform = HatBot.inform
    matchup = Matchup(functools.partial(new_game, TableRules(3, 5)), ("hat",) * 3, make_bot)
    HatBot.inform = check  # type: ignore[method-assign]
    try:
        play_game(matchup, game_seed(7, 0), 0)
    finally:
        HatBot.inform = inform  # type: ignore[method-assign]
    assert seen > 20


def test_a_draw_refused_after_the_sightings_puts_them_back() -> None:
    """A draw of another player's that leaves my hand no world is refused after the card places and sightings
    took it (the slots' sightings change in place): every slot's sightings and mask are put back as they were."""
    from models.beyond_baker_street.observations import Drew
    from solver.errors import ContradictionError

    refused = 0

    def check(self: HatBot, observation: object) -> None:
        nonlocal refused
        kn = self.hand
        if isinstance(observation, Drew) and observation.seat != kn.me and kn.started and refused < 3:
            trial = copy.deepcopy(kn)
            for card in kn.data.evidence:
                if card not in trial.unseen() or card == observation.card:
                    continue
                before = sightings(trial)
                try:
                    trial.add(Drew(observation.seat, card))
                except ContradictionError:
                    refused += 1
                    assert sightings(trial) == before
                else:
                    trial = copy.deepcopy(kn)
        inform(self, observation)  # type: ignore[arg-type]

    inform = HatBot.inform
    matchup = Matchup(functools.partial(new_game, TableRules(3, 5)), ("hat",) * 3, make_bot)
    HatBot.inform = check  # type: ignore[method-assign]
    try:
        for i in range(6):
            play_game(matchup, game_seed(11, i), i)
            if refused >= 3:
                break
    finally:
        HatBot.inform = inform  # type: ignore[method-assign]
    assert refused >= 3


def _tracked(kn: object) -> tuple[object, ...]:
    """What the card places and sightings leave: the spans, the open spans, the places, the cards out of the
    unseen ones, and every slot's sightings and mask."""
    return (list(kn.spans), dict(kn._open), dict(kn._open_at), kn._sighted, sightings(kn))  # type: ignore[attr-defined]


@pytest.mark.parametrize("bot, case", [("advisor", 1), ("hat", 5)])
def test_a_plain_draw_tracks_as_the_full_rebuild(bot: str, case: int) -> None:
    """A draw that moves no other card in sight adds its card to the places without rebuilding them from the
    board (``HandKnowledge._track_draw``): at every such draw of seeded games, for every seat, the spans, places
    and every slot's sightings are those the full rebuild (``_track`` from the board) gives. So does a play
    whose card stays where it went (``_track_play``)."""
    from models.beyond_baker_street.knowledge import HandKnowledge

    track = HandKnowledge._track
    track_play = HandKnowledge._track_play
    compared = 0
    plays = 0

    def check_play(self: HandKnowledge, entry: int, seat: int, held: int, card: object, place: object) -> None:
        nonlocal plays
        full = copy.deepcopy(self)
        track(full, entry, [(card, place)])  # type: ignore[list-item]
        track_play(self, entry, seat, held, card, place)  # type: ignore[arg-type]
        assert _tracked(self) == _tracked(full)
        plays += 1

    def check(self: HandKnowledge, entry: int, passing: object = (), drawn: tuple[int, int] | None = None) -> None:
        nonlocal compared
        if drawn is None:
            track(self, entry, passing)  # type: ignore[arg-type]
            return
        full = copy.deepcopy(self)
        track(full, entry, passing)  # type: ignore[arg-type]
        track(self, entry, passing, drawn)  # type: ignore[arg-type]
        assert _tracked(self) == _tracked(full)
        compared += 1

    matchup = Matchup(functools.partial(new_game, TableRules(3, case)), (bot,) * 3, make_bot)
    HandKnowledge._track = check  # type: ignore[method-assign]
    HandKnowledge._track_play = check_play  # type: ignore[method-assign]
    try:
        for i in range(2):
            play_game(matchup, game_seed(13, i), i)
    finally:
        HandKnowledge._track = track  # type: ignore[method-assign]
        HandKnowledge._track_play = track_play  # type: ignore[method-assign]
    assert compared > 50
    assert plays > 50


def test_slots_made_fast_are_the_dataclass_ones() -> None:
    """``Slot.drawn`` and ``Slot.told`` (no frozen dataclass set-up) give every field, the derived masks included,
    that the dataclass constructor and its ``__post_init__`` give."""
    from models.beyond_baker_street.data import EVIDENCE, ICONS
    from models.beyond_baker_street.knowledge import Slot

    rng = random.Random(5)
    for trial in range(300):
        card = None if trial % 3 == 0 else rng.choice(EVIDENCE)
        slot = Slot.drawn(trial, card, trial % 7)
        assert slot.__dict__ == Slot(trial, card, filled=trial % 7).__dict__
        slot = slot.seeing(rng.getrandbits(24))
        for entry in range(rng.randrange(4)):
            subject = rng.choice([*range(1, 7), *ICONS])
            named = rng.random() < 0.5
            told = slot.told(subject, named, entry)
            made = Slot(slot.id, slot.card, told.numbers, told.icons, (*slot.hints, (entry, named)), slot.filled,
                        slot.seen)
            assert told.__dict__ == made.__dict__
            slot = told


def test_the_hat_partitions_by_the_compiled_loops_are_the_plain_ones() -> None:
    """``kernels.use_classes`` and ``kernels.play_classes`` give every card still in play the class the plain
    Python of ``hat._use_classes`` and ``hat._play_classes`` gives, for every message count the modes use and
    every hand size, on random tables (ties, -0.0 and cards worth nothing included)."""
    from types import SimpleNamespace

    from models.beyond_baker_street.hat import _play_classes, _use_classes

    rng = np.random.default_rng(8)
    for trial in range(300):
        leads = int(rng.integers(1, 4))
        values = rng.integers(-2, 3, size=(leads + 1, 24)).astype(np.float64) * 0.5
        if trial % 2:
            values[rng.random(values.shape) < 0.3] = -0.0
        values.flags.writeable = False  # as the advisor's tables are (no other signature compiled)
        live = int(rng.integers(0, 1 << 24))
        compiled_table = ValueTable(values, live, leads)
        sit = SimpleNamespace(value_table=compiled_table, leads=[None] * leads)
        loader.ARRAYS_ONLY = True
        try:
            plain_sit = SimpleNamespace(value_table=ValueTable(values, live, leads), leads=[None] * leads)
            plain = ([_use_classes(plain_sit, c) for c in (4, 6, 8, 9, 12)],  # type: ignore[arg-type]
                     [_play_classes(plain_sit, c) for c in range(1, 7)])  # type: ignore[arg-type]
            assert plain_sit.value_table.uses is None
        finally:
            loader.ARRAYS_ONLY = False
        assert compiled_table.uses is not None
        assert ([_use_classes(sit, c) for c in (4, 6, 8, 9, 12)],  # type: ignore[arg-type]
                [_play_classes(sit, c) for c in range(1, 7)]) == plain  # type: ignore[arg-type]


def test_the_hat_decision_in_one_call_is_the_general_path() -> None:
    """``hat._hat_scores_compiled`` (one compiled call for the literal Assists, the hat gains and my plays) gives
    the general path's actions in the same order with the same values, at every decision of seeded hat games (the
    hands of unequal sizes near the end included), and with hat messages fixing random classes."""
    from models.beyond_baker_street.hat import _hat_scores_compiled, _hat_scores_in

    rng = random.Random(4)
    compared = 0

    def check(self: HatBot, _scores: Scores) -> None:
        nonlocal compared
        sit = Situation.kept(self.hand, self.weights)
        tables = [self.hat]
        if compared % 3 == 0:  # narrowed by messages the table never sent: other masks, other foci
            other = copy.copy(self.hat)
            other.fixed = dict(self.hat.fixed)
            for hand in self.hand.hands.values():
                for slot in hand:
                    if rng.random() < 0.3:
                        other.fixed[slot.id] = other.fixed.get(slot.id, ALL_CARDS) & rng.getrandbits(24)
            tables.append(other)
        for hat in tables:
            fast = _hat_scores_compiled(kernels, self.hand, hat, sit)
            if fast is not None:
                assert fast == _hat_scores_in(self.hand, hat, sit)
                compared += 1

    watched("hat", 5, check, 9, 4)
    assert compared > 100


def test_the_hat_values_kernel_is_the_assist_kernels() -> None:
    """``kernels.hat_values`` against the calls it folds: ``hand_expected`` of my hand, ``assist_subjects`` of the
    target's Assists and ``assist_rows`` (no terms) of each focus card's pair of rows, on random masks (ties,
    empty masks and no world included) and hands of unequal sizes."""
    rng = random.Random(12)
    checked = 0
    for sit in situations(6, bot="hat", case=5)[::3]:
        hands = [hand for hand in sit.hands.values()]
        if not all(hands):
            continue
        seats, width = len(hands), max(len(h) for h in hands)
        sizes = [len(h) for h in hands]
        masks = [random_masks(rng, width) for _ in hands]
        fixed = [[FULL_MASK if rng.random() < 0.5 else rng.getrandbits(24) for _ in range(width)] for _ in hands]
        cards = [h + [0] * (width - len(h)) for h in hands]
        mine = random_masks(rng, 3)
        known = [FULL_MASK if rng.random() < 0.5 else rng.getrandbits(24) for _ in mine]
        target = rng.randrange(seats)
        subjects = [rng.getrandbits(24) & rng.getrandbits(24) for _ in range(rng.randrange(4))]
        foci = [[rng.randrange(-1, sizes[s]) for s in range(seats)] for _ in range(2)]
        told = [[rng.getrandbits(24) for _ in range(seats)] for _ in range(2)]
        discount = [rng.choice([1.0, 0.85, 0.7225]) for _ in hands]
        unseen = sit.unseen
        args = (np.array(mine, dtype=np.int64), np.array(known, dtype=np.int64),
                np.array(masks, dtype=np.int64), np.array(fixed, dtype=np.int64), np.array(cards, dtype=np.intp),
                np.array(sizes, dtype=np.int64), unseen, np.array(discount), target,
                np.array(subjects, dtype=np.int64), np.array(foci, dtype=np.int64), np.array(told, dtype=np.int64),
                sit.values, 0.5, 0.4, 0.3)
        expected, assist, gains = kernels.hat_values(*args)
        assert np.array_equal(expected, kernels.hand_expected(args[0], unseen, args[1], True, sit.values))
        cannot = [unseen | sum(1 << c for c in h) for h in hands]
        if subjects:
            k = sizes[target]
            want = kernels.assist_subjects(
                np.array([masks[target][:k]], dtype=np.int64), np.array([hands[target]], dtype=np.intp),
                np.array([cannot[target]], dtype=np.int64), np.array([discount[target]]), args[9],
                np.zeros(len(subjects), dtype=np.intp), sit.values, 0.5, 0.4, 0.3)[0]
            assert np.array_equal(assist, want)
        for p in range(2):
            for s in range(seats):
                f, k = foci[p][s], sizes[s]
                if f < 0:
                    assert gains[p, s] == 0.0
                    continue
                before = [m & x for m, x in zip(masks[s][:k], fixed[s][:k], strict=True)]
                after = list(before)
                after[f] &= told[p][s]
                value = kernels.assist_rows(
                    np.array([before, after], dtype=np.int64), np.array([cannot[s]] * 2, dtype=np.int64),
                    np.array([hands[s]] * 2, dtype=np.intp), np.zeros(2, dtype=np.intp),
                    np.array([discount[s]] * 2), sit.values, 0.5, 0.0, 0.0)[0]
                assert gains[p, s] == value[1]
                checked += 1
        packed = kernels.hat_packed(
            np.array([len(mine), seats, width, target, len(subjects), 2, *mine, *known, *sum(masks, []),
                      *sum(fixed, []), *sum(cards, []), *sizes, *subjects, *sum(foci, []), *sum(told, [])],
                     dtype=np.int64), args[7], unseen, sit.values, 0.5, 0.4, 0.3)
        assert np.array_equal(packed, np.concatenate([expected.ravel(), assist, gains.ravel()]))
    assert checked > 50


@pytest.mark.parametrize("seed", range(2))
def test_the_value_table_in_one_call_is_the_table_and_its_uses(seed: int) -> None:
    """``kernels.table_packed`` (and ``table_all``) give ``value_table``'s table, ``table_uses`` of it and each
    icon's feasibility as ``Situation.icon_feasible`` answers it, on the boards of seeded games; the Pursue values
    read from it are the plain ones."""
    from models.beyond_baker_street.advice import ICON_INDEX, _lead_arrays
    from models.beyond_baker_street.data import ICONS
    from models.beyond_baker_street.plain import _pursue_value, pursue_values

    checked = 0
    for sit in situations(seed, bot="hat", case=3 + 2 * seed):
        w = sit.weights
        cost = sit.impossible_cost(1)
        icons, needs, dead = _lead_arrays(tuple([fact[1:] for fact in sit.facts]), cost, w)
        floats = (float(w.complete), float(w.progress), float(w.stuck), float(w.mismatch_base), float(w.mismatch),
                  float(w.eliminate), float(w.finish), float(w.lead_card))
        board = sit.board
        table = kernels.value_table(sit.live, icons, needs, dead, board.track, board.data.goal, float(cost), *floats)
        table.flags.writeable = False
        uses = kernels.table_uses(table, sit.live, len(sit.leads))
        feasible = [int(sit.icon_feasible(icon, sit.live)) for icon in ICONS]
        facts = [x for _s, icon, need, total, pile in sit.facts for x in (ICON_INDEX[icon], need, total, pile)]
        got, got_uses = kernels.table_packed(sit.live, np.array(facts, dtype=np.int64), board.track,
                                             board.data.goal, float(cost), float(w.dead), *floats)
        assert np.array_equal(got, table) and np.array_equal(got, sit.values)
        assert got_uses.tolist() == uses.tolist() + feasible
        assert pursue_values(sit) == [_pursue_value(sit, ls) for ls in sit.leads]
        checked += 1
    assert checked > 30


def test_the_shared_answers_value_table_is_the_value_table() -> None:
    """``value_table`` (the answers that do not depend on the card asked once per Lead and number) gives the
    table of the same loops asking every card anew (``_value_table(..., share=False)``) to the last bit, signs of
    zero included, on random boards: Leads sharing an icon, needs past any card, the track near and at the
    goal."""
    rng = random.Random(1)
    for _ in range(3000):
        leads = rng.randint(1, 3)
        icons = np.array([rng.randrange(4) for _ in range(leads)], dtype=np.int64)
        needs = np.array([rng.randint(0, 14) for _ in range(leads)], dtype=np.int64)
        dead = np.array([rng.choice([-1000.0, -13.5, -12.0]) for _ in range(leads)])
        live = rng.getrandbits(24) | (rng.getrandbits(24) if rng.random() < 0.5 else 0)
        floats = [rng.choice([1.0, 0.5, 3.0, 10.0, 6.0, 0.6, 0.0]) for _ in range(9)]
        args = (live, icons, needs, dead, rng.randint(0, 20), 20, *floats)
        assert kernels.value_table(*args).tobytes() == kernels._value_table(*args, False).tobytes()
