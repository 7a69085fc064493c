"""The fast paths of the Evidence advisor make exactly the old decisions: the futures played in arrays against
:class:`Playout` one by one, and the greedy-opponent sampler against the plain chain it replaces (the same
deals from the same random numbers)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest

from models.evidence import advisor
from models.evidence.batch import _scalar, picks, play_options
from models.evidence.bots import GreedyBot, KnowledgeBot
from models.evidence.inference import EVIDENCE, C, GreedyOpponents, WordStream, pick_two
from models.evidence.observations import SETUP_TYPES
from models.evidence.rollout import Playout
from models.evidence.rules import new_game


def test_pick_two_draws_what_random_sample_draws() -> None:
    for n in [*range(2, 30), 64]:
        items = list(range(n))
        for seed in range(60):
            plain, fast = random.Random(seed), random.Random(seed)
            assert plain.sample(items, 2) == list(pick_two(fast._randbelow, items)), (n, seed)
            assert plain.getstate() == fast.getstate()


def test_word_stream_draws_what_randbelow_draws_and_leaves_the_generator_there() -> None:
    for seed in range(20):
        plain, fast = random.Random(seed), random.Random(seed)
        sizes = random.Random(seed + 1)
        bounds = [sizes.choice([1, 2, 3, 5, 6, 7, 21, 33, 2**31 + 1]) for _ in range(5000)]
        words = WordStream(fast)
        assert [words.below(n) for n in bounds] == [plain._randbelow(n) for n in bounds]
        words.close()
        assert plain.getstate() == fast.getstate()


def test_picks_are_the_draws_of_playout() -> None:
    plan = ((0, 0, 5), (1, 0, 5), (0, 0, 5), (1, 1, 3), (1, 1, 3), (0, 0, 5))
    seeds = [random.Random(k).getrandbits(64) for k in range(30)]
    for seed, row in zip(seeds, picks(seeds, plan).tolist(), strict=True):
        rng = random.Random(seed)
        lists: dict[tuple[int, int], list[int]] = {}
        for (seat, kind, length), got in zip(plan, row, strict=True):
            cards = lists.setdefault((seat, kind), list(range(length)))
            assert got == cards.pop(rng.randrange(len(cards)))


def advisor_positions(players: int, games: int) -> Iterator[tuple]:
    """(base position, options, worlds, seeds, seat) at every advisor decision of real games against greedy
    bots (the advisor's own knowledge and greedy-opponent model)."""
    positions: list[tuple] = []
    real = advisor.play_options

    def record(base: Playout, actions: list, worlds: list, seeds: list, me: int) -> list:
        positions.append((copy.deepcopy(base), list(actions), list(worlds), list(seeds), me))
        return real(base, actions, worlds, seeds, me)

    advisor.play_options = record  # type: ignore[assignment]
    try:
        for g in range(games):
            st = new_game(random.Random(100 + g), players)
            bots = {s: GreedyBot(s, random.Random(g * 10 + s)) for s in range(2, players + 1)}
            bots[1] = advisor.AdvisorBot(1, random.Random(g), samples=8)  # type: ignore[assignment]
            while not st.is_terminal():
                for s, bot in bots.items():
                    for obs in st.take_observations(s):
                        bot.inform(obs)
                seat = st.current_player()
                assert seat is not None
                st.apply(bots[seat].step(st.view(seat)))
    finally:
        advisor.play_options = real
    yield from positions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_futures_in_arrays_are_the_playouts_one_by_one(players: int) -> None:
    compared = 0
    for base, actions, worlds, seeds, me in advisor_positions(players, 1):
        fast = play_options(base, actions, worlds, seeds, me)
        for action, outcomes in zip(actions, fast, strict=True):
            games = [base.with_world(*world) for world in worlds]
            for game in games:
                game.apply(action)
            assert outcomes == [_scalar(g, seed, me, 6) for g, seed in zip(games, seeds, strict=True)], action
            compared += len(outcomes)
    assert compared > 200


def plain_sample(model: GreedyOpponents, kn: object, k: int) -> list[tuple]:
    """The sampler as it was: every move with ``randrange`` and ``random.sample``, every seat's violations
    counted in full, the move kept when they do not grow (the reference for the fast chain)."""
    energy = model._energy()
    assert not any(energy.values())  # the positions below are consistent: no repair needed
    rng = model.rng
    out = []
    for _ in range(k):
        for _ in range(model.steps):
            ci = rng.randrange(C)
            slots = model.slots[ci]
            if len(slots) < 2:
                continue
            a, b = rng.sample(slots, 2)
            va, vb = a[1], b[1]
            if a[0] == b[0] or va == vb:
                continue
            model._move(ci, a, vb)
            model._move(ci, b, va)
            touched = {p for p in (a[0], b[0]) if p in energy}
            if EVIDENCE in (a[0], b[0]):
                touched |= {q for q in model.seats if any(d.looked[ci] for d in model.decisions[q])}
            new = {q: model._seat_violations(q) for q in touched}
            if sum(new[q] - energy[q] for q in touched) <= 0:
                energy.update(new)
            else:
                model._move(ci, a, va)
                model._move(ci, b, vb)
        out.append(model._world(kn))  # type: ignore[arg-type]
    return out


def test_fast_sampler_is_the_plain_chain() -> None:
    checked = 0
    for seed in range(6):
        players = 3 + seed % 3
        st = new_game(random.Random(seed), players)
        bots = {s: GreedyBot(s, random.Random(seed * 7 + s)) for s in range(1, players + 1)}
        mine = KnowledgeBot(1, random.Random(0))
        model: GreedyOpponents | None = None
        while not st.is_terminal():
            for s, bot in bots.items():
                for obs in st.take_observations(s):
                    bot.inform(obs)
                    if s != 1:
                        continue
                    if isinstance(obs, SETUP_TYPES):
                        mine.inform(obs)
                        continue
                    kn = mine.kn()
                    model = model or GreedyOpponents(kn, random.Random(seed))
                    model.observe(obs, kn)
            if st.current_player() == 1 and model is not None and model.consistent():
                kn = mine.kn()
                fast, plain = copy.deepcopy(model), copy.deepcopy(model)
                assert fast.sample(kn, 6) == plain_sample(plain, kn, 6)
                assert fast.rng.getstate() == plain.rng.getstate()
                assert fast.slots == plain.slots
                checked += 1
            seat = st.current_player()
            assert seat is not None
            st.apply(bots[seat].step(st.view(seat)))
    assert checked > 12
