"""The compiled loops of Beyond Baker Street (:mod:`models.beyond_baker_street.kernels`), loaded without making
anyone wait: :func:`compiled` gives them once they are ready and None before, and every caller then does the same
work in plain Python and array code, with the same numbers (tests compare both ways).

Numba keeps compiled code on disk (``cache=True``, the package's ``__pycache__``): a process loads it in well under
a second, but the first process after an install, or after the kernels change, compiles them, which takes seconds
(tens on a loaded machine). So the first call of :func:`compiled` starts a background thread that loads (or
compiles) them and returns None at once; a player's first ``advise`` is answered by the array code meanwhile.
Benches and tests that want every decision on the compiled path ask ``compiled(wait=True)``.

This module imports nothing of the game (the knowledge model and the advisor both use it) and imports Numba only
in its thread.
"""

from __future__ import annotations

import threading
from types import ModuleType

import numpy as np

_COMPILED: ModuleType | None = None
_LOADER: list[threading.Thread] = []
_LOADER_LOCK = threading.Lock()
#: True: every number through the array code, the compiled loops left alone (tests compare the two ways).
ARRAYS_ONLY = False


def compiled(wait: bool = False) -> ModuleType | None:
    """The compiled loops (:mod:`models.beyond_baker_street.kernels`) once they are loaded, else None: the caller
    then uses the array code, which gives the same numbers. The first call starts loading them in a background
    thread (Numba reads them from its disk cache, or compiles them the first time after an install, which takes
    seconds), so that no player waits for it; ``wait`` blocks until they are loaded (benches, tests). If they
    cannot be loaded, this stays None and the array code does the work."""
    if ARRAYS_ONLY:
        return None
    if _COMPILED is not None:
        return _COMPILED
    with _LOADER_LOCK:
        if not _LOADER:
            _LOADER.append(threading.Thread(target=_load_compiled, name="bbs-kernels", daemon=True))
            _LOADER[0].start()
    if wait:
        _LOADER[0].join()
    return _COMPILED


def _load_compiled() -> None:
    """Import the kernels and run each once on a small case of the very types the advisor passes (a call with
    other types, a read-only array for a writable one, would compile again), then publish them."""
    global _COMPILED
    try:
        from models.beyond_baker_street import kernels
    except ImportError:  # no Numba: the array code does the work
        return
    kernels.count(np.full(2, 0xFFFFFF, dtype=np.int64))
    table = kernels.value_table(0xFFFFFF, np.array([0, 1], dtype=np.int64), np.array([7, 9], dtype=np.int64),
                                np.array([-12.0, -12.0]), 0, 20, 1.0, *(1.0,) * 8)
    table.flags.writeable = False
    kernels.table_all(0xFFFFFF, np.array([0, 1], dtype=np.int64), np.array([7, 9], dtype=np.int64),
                      np.array([-12.0, -12.0]), 0, 20, 1.0, *(1.0,) * 8)
    kernels.table_packed(0xFFFFFF, np.array([0, 7, 0, 1, 1, 9, 0, 1], dtype=np.int64), 0, 20, 1.0, *(1.0,) * 9)
    masks = np.full(2, 0xFFFFFF, dtype=np.int64)
    dists = kernels.distributions(masks, 0xFFFFFF)
    kernels.expected(dists, table)
    uses = kernels.table_uses(table, 0xFFFFFF, 2)
    kernels.use_classes(uses, 0xFFFFFF, 2, 6)
    kernels.play_classes(uses, 0xFFFFFF, 2, 4)
    kernels.narrowed(dists, masks)
    kernels.hand_expected(masks, 0xFFFFFF, masks, True, table)
    kernels.assist_rows(masks.reshape(1, 2), np.full(1, 0xFFFFFF, dtype=np.int64), np.array([[0, 1]], dtype=np.intp),
                        np.zeros(1, dtype=np.intp), np.ones(1), table, 0.5, 0.4, 0.3)
    kernels.assist_subjects(masks.reshape(1, 2), np.array([[0, 1]], dtype=np.intp),
                            np.full(1, 0xFFFFFF, dtype=np.int64), np.ones(1), np.array([1], dtype=np.int64),
                            np.zeros(1, dtype=np.intp), table, 0.5, 0.4, 0.3)
    kernels.hat_values(masks, masks, masks.reshape(1, 2), masks.reshape(1, 2), np.array([[0, 1]], dtype=np.intp),
                       np.full(1, 2, dtype=np.int64), 0xFFFFFF,
                       np.ones(1), 0, np.array([1], dtype=np.int64), np.zeros((2, 1), dtype=np.int64),
                       np.ones((2, 1), dtype=np.int64), table, 0.5, 0.4, 0.3)
    kernels.hat_packed(np.array([2, 1, 2, 0, 1, 2, *[0xFFFFFF] * 8, 0, 1, 2, 1, 0, -1, 1, 1], dtype=np.int64),
                       np.ones(1), 0xFFFFFF, table, 0.5, 0.4, 0.3)
    _COMPILED = kernels


