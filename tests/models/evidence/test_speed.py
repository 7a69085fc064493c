"""The fast paths of the Evidence advisor make exactly the old decisions: the futures played in arrays against
:class:`Playout` one by one, and the greedy-opponent sampler against the plain chain it replaces (the same
deals from the same random numbers). The compiled loops load in the background when a session starts (no player
waits for Numba), advice given before they are loaded is the same advice, and the warm-up compiles exactly the
types the advisor passes."""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from models.evidence import advisor, compiled
from models.evidence.batch import _scalar, picks, play_options
from models.evidence.bots import GreedyBot, KnowledgeBot
from models.evidence.inference import EVIDENCE, C, GreedyOpponents, WordStream, pick_two
from models.evidence.observations import SETUP_TYPES
from models.evidence.rollout import Playout
from models.evidence.rules import PLAY, UNCOVER, new_game
from models.evidence.session import EvidenceSession, legal_for
from models.evidence.teach import EvidenceTeacher


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

    def record(base: Playout, actions: list, worlds: list, seeds: list, me: int, wait: bool = True,
               load: bool = True) -> list:
        positions.append((copy.deepcopy(base), list(actions), list(worlds), list(seeds), me))
        return real(base, actions, worlds, seeds, me, wait=wait, load=load)

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


# -- the compiled loops load before a player asks (models/evidence/compiled.py) ----------------------------------

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "evidence-4p.txt"


def example_lines() -> list[str]:
    return [line.strip() for line in EXAMPLE.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


@pytest.fixture
def no_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    """No loader started and nothing loaded (a real loader started by an earlier test has finished first, so it
    cannot publish the kernels in the middle of the test)."""
    compiled.compiled(wait=True)
    monkeypatch.setattr(compiled, "_LOADER", [])
    monkeypatch.setattr(compiled, "_COMPILED", None)


@pytest.mark.usefixtures("no_loader")
def test_a_session_starts_loading_the_kernels_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, bool]] = []
    monkeypatch.setattr(compiled, "_COMPILED", None)
    monkeypatch.setattr(compiled, "_background", lambda spawn: calls.append((threading.current_thread().name, spawn)))
    assert not compiled.started()
    EvidenceSession()
    compiled._LOADER[0].join()
    assert calls == [("evidence-kernels", True)]  # in its own thread, allowed to compile in a child process
    EvidenceSession()
    EvidenceSession().fresh()
    assert len(compiled._LOADER) == 1 and calls == [("evidence-kernels", True)]  # once per process
    assert compiled.compiled() is None  # not loaded (the stand-in loader loaded nothing): the caller uses Playout


@pytest.mark.usefixtures("no_loader")
def test_whoever_waits_compiles_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bool] = []
    monkeypatch.setattr(compiled, "_background", calls.append)
    assert compiled.compiled(wait=True) is None
    assert calls == [False]


@pytest.mark.usefixtures("no_loader")
def test_the_teacher_never_loads_them() -> None:
    teacher = EvidenceTeacher()
    session = teacher.new_session()
    decisions = 0
    for line in example_lines():
        session.handle(line, show=False)
        decisions += session.knowledge is not None and teacher.decision(session) is not None
    assert decisions == 10
    assert session.fresh().warm_up is False
    assert not compiled.started()
    assert compiled._COMPILED is None


def advice_at_every_turn_of_mine() -> list[tuple[str, list]]:
    """``advise`` (and ``advise greedy``) before each entry of the example at which it is my turn."""
    session = EvidenceSession()
    out = []
    for line in example_lines():
        if session.knowledge is not None and session.turn().seat == session.knowledge.me:
            for command in ("advise", "advise greedy"):
                out.append((f"{command} before '{line}'", session.handle(command).renderables))
        session.handle(line)
    return out


def test_advice_before_the_kernels_are_loaded_is_the_same_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    assert compiled.compiled(wait=True) is not None
    loaded = advice_at_every_turn_of_mine()
    monkeypatch.setattr(compiled, "PLAYOUT_ONLY", True)
    played = advice_at_every_turn_of_mine()
    assert len(loaded) == 24
    assert played == loaded


def test_the_teachers_decisions_are_the_same_with_and_without_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    assert compiled.compiled(wait=True) is not None  # loaded (by a session, say): the teacher uses them
    teacher = EvidenceTeacher()
    session = teacher.new_session()
    decisions = []
    for line in example_lines():
        session.handle(line)
        if session.knowledge is not None and (decision := teacher.decision(session)) is not None:
            decisions.append((session.lines[:], decision))
    assert len(decisions) == 10
    monkeypatch.setattr(compiled, "PLAYOUT_ONLY", True)
    for lines, decision in decisions:
        replayed = teacher.new_session()
        for line in lines:
            replayed.handle(line, show=False)
        assert teacher.decision(replayed) == decision


def test_the_warm_up_compiles_the_types_the_advisor_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm-up's arguments have the Numba types of the batch's (another type would compile again in front
    of the player)."""
    import numba

    from models.evidence import kernels

    seen: dict[str, set[tuple]] = {"warm-up": set(), "advisor": set()}
    phase = ["warm-up"]
    for name in compiled.FUNCTIONS:
        real = getattr(kernels, name)

        def recording(*args: object, _real: object = real) -> None:
            seen[phase[0]].add((_real.__name__, tuple(numba.typeof(a) for a in args)))  # type: ignore[attr-defined]
            _real(*args)  # type: ignore[operator]

        monkeypatch.setattr(kernels, name, recording)
    monkeypatch.setattr(compiled, "_COMPILED", None)
    compiled._load()
    assert compiled._COMPILED is kernels
    phase[0] = "advisor"
    for players in (2, 4):
        for base, actions, worlds, seeds, me in advisor_positions(players, 1):
            play_options(base, actions, worlds, seeds, me)
    assert {name for name, _ in seen["advisor"]} == set(compiled.FUNCTIONS)
    assert seen["advisor"] <= seen["warm-up"]


def test_the_cache_check_reads_numba_s_index_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not compiled.cached()
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "kernels.greedy_search-33.py311.nbi").write_bytes(b"")
    assert not compiled.cached()  # one kernel of two
    (tmp_path / "deep" / "kernels.greedy_time_out-63.py311.nbi").write_bytes(b"")
    assert compiled.cached()
    old = compiled.KERNELS.stat().st_mtime - 10
    os.utime(tmp_path / "deep" / "kernels.greedy_time_out-63.py311.nbi", (old, old))
    assert not compiled.cached()  # older than the source: Numba would compile it again


def test_a_compiling_child_does_not_outlive_its_process(monkeypatch: pytest.MonkeyPatch) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    monkeypatch.setattr(compiled, "_CHILD", [child])
    compiled._stop_child()
    assert child.poll() is not None


@pytest.mark.usefixtures("no_loader")
def test_without_wait_a_compiling_loader_is_not_waited_for_and_a_loading_one_is(
        monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    ready = type(sys)("ready")  # stands for the kernels module

    def background(spawn: bool) -> None:
        release.wait(30)
        compiled._COMPILED = ready

    monkeypatch.setattr(compiled, "_COMPILING", [True])
    monkeypatch.setattr(compiled, "_background", background)
    assert compiled.compiled() is None  # a child compiles: Playout answers meanwhile
    assert compiled._LOADER[0].is_alive()
    compiled._COMPILING.clear()  # the child is done; the thread reads the cache: worth waiting for
    threading.Timer(0.05, release.set).start()
    assert compiled.compiled() is ready


def test_compiling_at_install_says_what_it_did(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    assert compiled.compiled(wait=True) is not None
    monkeypatch.setattr(compiled, "cached", lambda: True)
    compiled.main([])
    assert capsys.readouterr().out.startswith("Evidence kernels loaded from Numba's disk cache in ")
    monkeypatch.setattr(compiled, "cached", lambda: False)
    compiled.main([])
    assert capsys.readouterr().out.startswith("Evidence kernels compiled and kept in Numba's disk cache in ")
    compiled.main(["--quiet"])
    assert capsys.readouterr().out == ""
    monkeypatch.setattr(compiled, "PLAYOUT_ONLY", True)  # as without Numba
    with pytest.raises(SystemExit, match="could not be loaded"):
        compiled.main([])


def off_turn_positions(players: int, game: int) -> Iterator[tuple]:
    """(base position, my options, worlds, seeds) wherever another seat is to play in a real greedy game: my
    move now, out of turn (seat 1), then play resumed from that seat, as the off-turn advice plays them."""
    st = new_game(random.Random(200 + game), players)
    bots = {s: GreedyBot(s, random.Random(game * 10 + s)) for s in range(1, players + 1)}
    rng = random.Random(game)
    while not st.is_terminal():
        for s, bot in bots.items():
            for obs in st.take_observations(s):
                bot.inform(obs)
        seat = st.current_player()
        assert seat is not None
        view = st.view(seat)
        kn = bots[1].kn()
        if seat != 1 and view.phase in (UNCOVER, PLAY) and kn.hand:
            phase = UNCOVER if players == 2 and legal_for(kn, UNCOVER) else PLAY
            base = Playout(kn.table, *kn.sample(rng), view.round, 1, phase, resume=seat)
            worlds = [kn.sample(rng) for _ in range(6)]
            yield base, legal_for(kn, phase), worlds, [rng.getrandbits(64) for _ in worlds]
        st.apply(bots[seat].step(view))


@pytest.mark.parametrize("players", [2, 4, 5])
def test_off_turn_futures_in_arrays_are_the_playouts_and_never_play_past_a_hand(players: int) -> None:
    compared = short = 0
    for base, actions, worlds, seeds in off_turn_positions(players, 0):
        hand, left = len(base.hand[0]), 6 - base.round + (base.order.index(0) > base.order.index(base.resume))
        short += hand < 1 + left  # my move now leaves me a turn with no rumour: that draw is skipped
        fast = play_options(base, actions, worlds, seeds, 1)
        for action, outcomes in zip(actions, fast, strict=True):
            games = [base.with_world(*world) for world in worlds]
            for game in games:
                game.apply(action)
            assert outcomes == [_scalar(g, seed, 1, 6) for g, seed in zip(games, seeds, strict=True)], action
            compared += len(outcomes)
    assert compared > 100 and short > 0
