"""The compiled per-row loops (:mod:`models.evidence.kernels`) against :class:`Playout`, one row at a time, on
random positions that include the rare cases real games seldom reach: stacks nearly empty, so that a time-out
cannot take as many cards as it gives back, ties between mysteries, no token, no room."""

from __future__ import annotations

import random

import numpy as np
import pytest

from models.evidence import kernels
from models.evidence.rollout import C, Playout

SEATS = 3


def playout(rng: random.Random) -> Playout:
    """A bare basic-game position with the fields greedy searches and time-outs read."""
    p = Playout.__new__(Playout)
    p.n, p.pro, p.max_extras = SEATS, False, 1
    p.hot = [rng.random() < 0.4 for _ in range(C)]
    p.reg = [rng.choice([0, 0, 1, 2, 4]) for _ in range(C)]
    p.art = [[rng.choice([0, 0, 1, 2, 3]) for _ in range(C)] for _ in range(SEATS)]
    p.hl = [[a > 0 and rng.random() < 0.3 for a in row] for row in p.art]
    p.tokens = [rng.random() < 0.7 for _ in range(C)]
    p.extras = [rng.choice([0, 0, 1]) for _ in range(SEATS)]
    p.tools_of = [[] for _ in range(SEATS)]
    p.hand = [[(0, 1)] * rng.randrange(3) for _ in range(SEATS)]
    p.limit = [rng.choice([4, 6, 8]) for _ in range(SEATS)]
    return p


def means(rng: random.Random) -> list[float]:
    """Evidence means with ties and non-positive values (a time-out or a take must beat 0)."""
    return [rng.choice([-0.5, 0.0, 1.0, 2.5, 2.5, 3.0, 7 / 3, 4.0]) for _ in range(C)]


def arrays(rows: list[Playout]) -> dict[str, np.ndarray]:
    return {
        "hot": np.array([p.hot for p in rows], dtype=bool),
        "reg": np.array([p.reg for p in rows], dtype=np.int64),
        "art": np.array([p.art for p in rows], dtype=np.int64),
        "hl": np.array([p.hl for p in rows], dtype=bool),
        "tokens": np.array([p.tokens for p in rows], dtype=bool),
        "extras": np.array([p.extras for p in rows], dtype=np.int64),
    }


@pytest.mark.parametrize("seed", range(4))
def test_time_outs_are_playouts(seed: int) -> None:
    rng = random.Random(seed)
    rows = [playout(rng) for _ in range(300)]
    m = [means(rng) for _ in rows]
    active = np.array([rng.random() < 0.9 for _ in rows])
    a = arrays(rows)
    kernels.greedy_time_out(a["hot"], a["reg"], a["art"], a["hl"], a["tokens"], a["extras"], np.array(m), active,
                            1, 1)
    used = 0
    for r, p in enumerate(rows):
        if active[r]:
            before = p.extras[1]
            p.greedy_extra(1, m[r])
            used += p.extras[1] > before
    assert 30 < used < 300  # the random positions do exercise time-outs, and not always
    assert all(np.array_equal(a[k], v) for k, v in arrays(rows).items())


@pytest.mark.parametrize("seed", range(4))
def test_searches_are_playouts(seed: int) -> None:
    rng = random.Random(100 + seed)
    rows = [playout(rng) for _ in range(300)]
    for p in rows:  # one hand length for the whole batch, as in a batch of futures
        p.hand[1] = [(0, 1)]
    limit = 7
    for p in rows:
        p.limit[1] = limit
    m = [means(rng) for _ in rows]
    active = np.array([rng.random() < 0.9 for _ in rows])
    a = arrays(rows)
    kernels.greedy_search(a["hot"], a["reg"], a["art"], a["hl"], np.array(m), active, 1, limit, 1)
    taken = 0
    for r, p in enumerate(rows):
        if active[r]:
            before = sum(p.art[1])
            p.greedy_search(1, m[r])
            taken += sum(p.art[1]) - before
    assert taken > 100
    assert all(np.array_equal(a[k], v) for k, v in arrays(rows).items())
