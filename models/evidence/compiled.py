"""The compiled loops of the Evidence advisor (:mod:`models.evidence.kernels`), loaded before a player asks.

Numba keeps compiled code on disk (``cache=True``, the package's ``__pycache__``, or Numba's user cache when that is
not writable): a later process loads it in well under a second, but the first process after an install, or after the
kernels change, compiles them, which takes about 5 s (15 s on a loaded machine). So a companion session calls
:func:`start` when it is created: a background thread loads the kernels while the player types the setup (the
teacher leaves them alone: Playout plays its few small decisions sooner than Numba starts). When Numba's cache holds
no copy of them yet, that thread first has them compiled by a child process (``python -m models.evidence.compiled``,
stopped if this process ends first): the compiler then runs on another core instead of taking turns with the session
for Python's interpreter lock, and the thread loads the result from the cache. While the child compiles,
:func:`compiled` returns None and the advisor plays its futures one by one with
:class:`models.evidence.rollout.Playout`, which gives the very same numbers (the tests compare both ways on every
decision of real games), so an early ``advise`` is slower but never waits for a compiler and never differs; while
the thread only reads the cache (about a second), an ``advise`` waits for it, which is quicker. Simulations and
benches ask ``compiled(wait=True)``, which compiles in this process if nobody has started.

``python -m models.evidence.compiled`` loads (or compiles) them in the foreground and says which: run it once
after installing (an image build, a classroom machine) and even the first session of the installation finds
them on disk.

This module imports nothing of the game and imports Numba only in the loader.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import ModuleType

import numpy as np

_COMPILED: ModuleType | None = None
_LOADER: list[threading.Thread] = []
_LOADER_LOCK = threading.Lock()
_CHILD: list[subprocess.Popen[bytes]] = []  # the compiling child process, while it runs
_COMPILING: list[bool] = []  # set while a child process compiles them (then nobody waits for the loader)
#: How long a caller that does not ``wait`` still waits for a loader that only reads the cache (about a second
#: of work): less than playing the futures one by one would take.
LOAD_WAIT = 2.0
#: True: every future through :class:`Playout`, the compiled loops left alone (tests compare the two ways).
PLAYOUT_ONLY = False
KERNELS = Path(__file__).with_name("kernels.py")
FUNCTIONS = ("greedy_search", "greedy_time_out")  # the kernels batch.py calls (each compiles its helpers)


def start(spawn: bool = True) -> None:
    """Start loading the kernels in a background thread (once per process; later calls do nothing); with
    ``spawn``, a child process compiles them first if Numba's cache has no copy (module docstring)."""
    with _LOADER_LOCK:
        if not _LOADER:
            _LOADER.append(threading.Thread(target=_background, args=(spawn,), name="evidence-kernels", daemon=True))
            _LOADER[0].start()


def cached() -> bool:
    """Whether Numba's disk cache seems to hold every kernel compiled from the current ``kernels.py``: an index
    file per function, newer than the source, under ``NUMBA_CACHE_DIR`` if it is set, else in the package's
    ``__pycache__`` or Numba's user-wide cache (where it goes when that is not writable). A wrong guess costs
    time, never a result: the loader compiles what the cache lacks."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        where = [Path(os.environ["NUMBA_CACHE_DIR"])]
    else:
        user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"
        where = [KERNELS.parent / "__pycache__", user]
    source = KERNELS.stat().st_mtime
    for name in FUNCTIONS:
        found = [p for d in where if d.is_dir() for p in d.rglob(f"kernels.{name}-*.nbi")]
        if not any(p.stat().st_mtime >= source for p in found):
            return False
    return True


def _background(spawn: bool) -> None:
    if spawn and not cached():
        _COMPILING.append(True)
        try:
            _compile_in_child()
        finally:
            _COMPILING.clear()
    _load()


def _compile_in_child() -> None:
    """Have ``python -m models.evidence.compiled`` compile the kernels into the cache, and wait for it (any
    failure is left to :func:`_load`, which compiles in this process)."""
    root = str(KERNELS.parents[2])
    path = os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])])
    try:
        child = subprocess.Popen([sys.executable, "-m", "models.evidence.compiled", "--quiet"], cwd=root,
                                 env={**os.environ, "PYTHONPATH": path}, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return
    _CHILD.append(child)
    try:
        child.wait()
    finally:
        _CHILD.remove(child)


@atexit.register
def _stop_child() -> None:
    """A compiling child does not outlive the process that started it."""
    for child in list(_CHILD):
        child.kill()
        child.wait()


def started() -> bool:
    """Whether the loader has been started in this process."""
    return bool(_LOADER)


def compiled(wait: bool = False, load: bool = True) -> ModuleType | None:
    """The kernels once they are loaded, else None (the caller then plays the futures with :class:`Playout`,
    the same numbers). Starts the loader if nobody has (unless not ``load``: then only kernels already loaded
    are given); ``wait`` blocks until it is done. Without ``wait``, a loader that is reading the cache (not
    compiling in a child process) is given up to :data:`LOAD_WAIT` seconds. None for good if Numba cannot be
    imported."""
    if PLAYOUT_ONLY:
        return None
    if _COMPILED is not None or not load:
        return _COMPILED
    start(spawn=not wait)  # whoever waits compiles here: a child process would only add its start-up
    if wait:
        _LOADER[0].join()
    elif not _COMPILING:
        _LOADER[0].join(LOAD_WAIT)
    return _COMPILED


def _load() -> None:
    """Import the kernels and run each once on a small case of the very types :mod:`models.evidence.batch`
    passes (C-ordered int64, float64 and bool arrays, int64 scalars: any other type would compile again on the
    player's first ``advise``), then publish them."""
    global _COMPILED
    try:
        from models.evidence import kernels
    except ImportError:  # no Numba: Playout does the work
        return
    colours = 6
    hot = np.ones((1, colours), dtype=bool)
    reg = np.full((1, colours), 3, dtype=np.int64)
    art = np.zeros((1, 2, colours), dtype=np.int64)
    hl = np.zeros((1, 2, colours), dtype=bool)
    means = np.linspace(-1.0, 2.0, colours).reshape(1, colours)
    active = np.ones(1, dtype=bool)
    kernels.greedy_search(hot, reg, art, hl, means, active, 0, 6, 2)
    tokens = np.ones((1, colours), dtype=bool)
    extras = np.zeros((1, 2), dtype=np.int64)
    kernels.greedy_time_out(hot, reg, art, hl, tokens, extras, means[:, ::-1].copy(), active, 0, 1)
    _COMPILED = kernels


def main(argv: list[str] | None = None) -> None:
    """Load or compile the kernels now (``python -m models.evidence.compiled [--quiet]``) and say how long it
    took."""
    args = sys.argv[1:] if argv is None else argv
    was_cached = cached()
    began = time.perf_counter()
    kernels = compiled(wait=True)
    took = time.perf_counter() - began
    if kernels is None:
        raise SystemExit("the Evidence kernels could not be loaded (is Numba installed?); Playout does the work")
    if "--quiet" not in args:
        how = "loaded from Numba's disk cache" if was_cached else "compiled and kept in Numba's disk cache"
        print(f"Evidence kernels {how} in {took:.1f} s")


if __name__ == "__main__":
    main()
