"""The greedy-opponent model: the true deal always fits the recorded decisions, sampled deals fit the hard
facts and the decisions, and they estimate the evidence better than the exact knowledge alone."""

from __future__ import annotations

import random
from collections import Counter

from models.evidence.bots import GreedyBot, KnowledgeBot
from models.evidence.data import COLOURS
from models.evidence.inference import GreedyOpponents
from models.evidence.observations import SETUP_TYPES
from models.evidence.rules import PLAY, new_game


def test_truth_fits_and_samples_fit_the_facts() -> None:
    errors_exact = errors_model = 0.0
    for seed in range(6):
        players = 2 + seed % 4
        st = new_game(random.Random(seed), players)
        bots = {s: GreedyBot(s, random.Random(seed * 7 + s)) for s in range(1, players + 1)}
        me = 1
        mine = KnowledgeBot(me, random.Random(0))
        model: GreedyOpponents | None = None
        while not st.is_terminal():
            for s, bot in bots.items():
                for obs in st.take_observations(s):
                    bot.inform(obs)
                    if s != me:
                        continue
                    if isinstance(obs, SETUP_TYPES):
                        mine.inform(obs)
                        continue
                    kn = mine.kn()
                    model = model or GreedyOpponents(kn, random.Random(seed))
                    model.observe(obs, kn)
            seat = st.current_player()
            if seat == me and st.phase == PLAY and model is not None:
                kn = mine.kn()
                assert model.fits(kn, st.evidence, st.hands, st.unknown), \
                    f"seed {seed}: the true deal breaks a recorded greedy decision"
                for evidence, hands, piles in model.sample(kn, 6):
                    for q in model.seats:  # public colour counts kept
                        assert Counter(c for c, _ in hands[q]) == +kn.table.hands[q]
                    for c in COLOURS:
                        hidden = [v for q in model.seats for cc, v in hands[q] if cc == c]
                        hidden += [v for p in piles.values() for cc, v in p if cc == c]
                        if kn.evidence_known(c) is None:
                            hidden.append(evidence[c])
                        assert Counter(hidden) == kn.free_copies(c)
                assert model.consistent()
                ws = model.sample(kn, 12)
                means = kn.means()
                for c in COLOURS:
                    errors_exact += abs(means[c] - st.evidence[c])
                    errors_model += abs(sum(w[0][c] for w in ws) / len(ws) - st.evidence[c])
            assert seat is not None
            st.apply(bots[seat].step(st.view(seat)))
    assert errors_model < errors_exact
