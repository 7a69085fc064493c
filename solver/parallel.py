"""Where many independent jobs (simulated games) run: in this process, in local worker processes, or on a Dask
cluster, all through one ``concurrent.futures``-style executor.

:func:`open_backend` opens one of the three (``--workers 1``, ``--workers N``, ``--cluster ADDRESS`` or
``--cluster local:N``) for as long as its ``with`` block lasts, so the worker processes live across every run
made through it and keep their caches. :func:`run_jobs` maps a function over jobs through it in chunks sized
from the measured time per job (about :attr:`Backend.chunk_seconds` each, and small enough at the end that
every worker stays busy), so 1 ms games and 2 s games both use the workers well. Results come back in job
order and depend only on the jobs, never on which worker or chunk ran them.

A local worker process that dies breaks its pool: the unfinished chunks are resubmitted to a new pool (at most
:data:`MAX_POOL_BREAKS` times a run). A Dask worker that dies has its tasks reassigned by the scheduler.
``distributed`` is imported only when a cluster is asked for; without it the error names the extra to install.
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from solver.errors import AssistantError

J = TypeVar("J")
R = TypeVar("R")

MAX_POOL_BREAKS = 3  # local pools replaced in one run before giving up (a job that always kills its worker)
LOCAL_CHUNK_SECONDS = 0.25  # a process pool's per-chunk overhead is well under a millisecond
CLUSTER_CHUNK_SECONDS = 0.5  # a Dask task costs a few milliseconds of scheduling
CONNECT_SECONDS = 10.0
CLUSTER_EXTRA = "pip install -e '.[cluster]'"


class InlineExecutor(Executor):
    """Runs each submitted call at once, in this process (tests, ``--workers 1``): its futures come back done."""

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        future: Future[R] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - handed to the caller through the future, as any executor does
            future.set_exception(exc)
        return future


@dataclass
class Backend:
    """An executor, how many jobs it runs at once (``slots``), how long a chunk should take, a label for the
    summary line, and for a local pool how to replace it when a worker died (``renew``)."""

    executor: Executor
    slots: int
    label: str
    chunk_seconds: float = LOCAL_CHUNK_SECONDS  # 0: one job per chunk
    renew: Callable[[], Executor] | None = None

    @classmethod
    def wrap(cls, executor: Executor) -> Backend:
        """Any ``concurrent.futures`` executor given directly (its worker count read where it is known)."""
        if isinstance(executor, InlineExecutor):
            return cls(executor, 1, "1 process", 0.0)
        slots = int(getattr(executor, "_max_workers", 0) or 1)
        return cls(executor, slots, f"{type(executor).__name__} ({slots} workers)")


def _spawn_pool(workers: int) -> ProcessPoolExecutor:
    # spawn, not fork: OR-Tools keeps threads, and a forked copy of a threaded process can deadlock
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


@contextmanager
def open_backend(workers: int = 1, cluster: str | None = None) -> Iterator[Backend]:
    """The backend for ``--workers`` / ``--cluster`` (a cluster wins; giving both is an error), closed on exit."""
    if cluster is not None:
        if workers != 1:
            raise AssistantError(f"--workers {workers} --cluster {cluster}: give one of them (a cluster brings "
                                 f"its own workers)")
        with _dask_backend(cluster) as backend:
            yield backend
        return
    if workers < 1:
        raise AssistantError(f"--workers {workers}: expected 1 or more")
    if workers == 1:
        yield Backend(InlineExecutor(), 1, "1 process", 0.0)
        return
    backend = Backend(_spawn_pool(workers), workers, f"{workers} local worker processes",
                      renew=lambda: _spawn_pool(workers))
    try:
        yield backend
    finally:
        backend.executor.shutdown(wait=True, cancel_futures=True)


def _local_workers(spec: str) -> int:
    count = spec.removeprefix("local:")
    if not count.isdigit() or int(count) < 1:
        raise AssistantError(f"--cluster {spec}: expected local:N with N workers (1 or more), or a scheduler "
                             f"address such as tcp://host:8786")
    return int(count)


@contextmanager
def _dask_backend(spec: str) -> Iterator[Backend]:
    """A Dask ``Client`` on the scheduler at ``spec``, or on a new ``LocalCluster`` for ``local:N``."""
    local = _local_workers(spec) if spec.startswith("local:") else None
    try:
        import distributed  # the optional extra, imported only when a cluster is asked for
    except ImportError as exc:
        raise AssistantError(f"--cluster {spec}: needs Dask's 'distributed' package: {CLUSTER_EXTRA}") from exc
    cluster = None
    try:
        if local is not None:
            cluster = distributed.LocalCluster(n_workers=local, threads_per_worker=1, processes=True,
                                               dashboard_address=None, host="127.0.0.1")
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(spec, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        raise AssistantError(f"--cluster {spec}: no Dask scheduler answered there ({exc})") from exc
    try:
        if not client.nthreads():
            try:
                client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError) as exc:
                raise AssistantError(f"--cluster {spec}: the scheduler has no workers") from exc
        slots = sum(client.nthreads().values())
        label = f"a local Dask cluster of {slots} workers" if local else f"the Dask cluster at {spec} ({slots} workers)"
        yield Backend(client.get_executor(pure=False), slots, label, CLUSTER_CHUNK_SECONDS)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _run_chunk(fn: Callable[[J], R], jobs: Sequence[J]) -> tuple[list[R], float]:
    """Worker entry point: ``fn`` of each job, and the seconds they took together (to size later chunks)."""
    start = time.perf_counter()
    out = [fn(job) for job in jobs]
    return out, time.perf_counter() - start


def _chunk_size(backend: Backend, per_job: Sequence[float], remaining: int) -> int:
    """Jobs in the next chunk: about ``chunk_seconds`` of work at the recent median time per job (one job until
    a chunk has been timed), and never more than a share of what is left, so the last chunks spread out."""
    if backend.chunk_seconds <= 0 or not per_job:
        return 1
    size = int(backend.chunk_seconds / max(statistics.median(per_job), 1e-6))
    return max(1, min(size, remaining // (2 * backend.slots)))


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    executor: Backend | Executor | int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[R]:
    """``[fn(job) for job in jobs]``, run through ``executor`` (a :class:`Backend`, any executor, or a worker
    count for a backend opened for this call); ``progress(n)`` is told each time n more jobs are done. ``fn``
    must be picklable (module-level, or a ``functools.partial`` of one) for worker processes and clusters. The
    first exception a job raises is raised here, and the chunks not started are cancelled."""
    if isinstance(executor, int):
        with open_backend(executor) as opened:
            return run_jobs(fn, jobs, opened, progress)
    backend = executor if isinstance(executor, Backend) else Backend.wrap(executor)
    results: dict[int, R] = {}
    retry: deque[range] = deque()
    in_flight: dict[Future[tuple[list[R], float]], range] = {}
    per_job: deque[float] = deque(maxlen=8)  # seconds per job of the latest chunks
    next_job, breaks = 0, 0

    def accept(future: Future[tuple[list[R], float]], span: range) -> None:
        out, seconds = future.result()
        results.update(zip(span, out, strict=True))
        per_job.append(seconds / len(span))
        if progress:
            progress(len(span))

    try:
        while len(results) < len(jobs):
            while len(in_flight) < 2 * backend.slots and (retry or next_job < len(jobs)):
                if retry:
                    span = retry.popleft()
                else:
                    size = _chunk_size(backend, per_job, len(jobs) - next_job)
                    span = range(next_job, min(len(jobs), next_job + size))
                    next_job = span.stop
                in_flight[backend.executor.submit(_run_chunk, fn, [jobs[i] for i in span])] = span
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                span = in_flight.pop(future)
                if isinstance(future.exception(), BrokenExecutor):
                    retry.append(span)
                    broken = True
                else:
                    accept(future, span)
            if broken:
                breaks += 1
                _replace_pool(backend, breaks, in_flight, retry, accept)
    finally:
        for future in in_flight:
            future.cancel()
    return [results[i] for i in range(len(jobs))]


def _replace_pool(
    backend: Backend,
    breaks: int,
    in_flight: dict[Future[tuple[list[R], float]], range],
    retry: deque[range],
    accept: Callable[[Future[tuple[list[R], float]], range], None],
) -> None:
    """A worker process died: keep what the old pool finished, queue the rest again, start a new pool."""
    wait(in_flight)  # a broken pool fails every pending future at once
    for future, span in list(in_flight.items()):
        del in_flight[future]
        if isinstance(future.exception(), BrokenExecutor):
            retry.append(span)
        else:
            accept(future, span)
    if backend.renew is None or breaks > MAX_POOL_BREAKS:
        unfinished = sum(len(span) for span in retry)
        raise AssistantError(f"worker processes died {breaks} times in one run ({unfinished} jobs unfinished); "
                             f"giving up")
    backend.executor.shutdown(wait=False, cancel_futures=True)
    backend.executor = backend.renew()
