"""Many independent games on several processes (or machines), results in job order.

The one place that decides how cardkit spreads games over workers (``cardkit simulate``,
``cardkit arena`` and :mod:`cardkit.bots.arena` use it; so can a host or a notebook).
Results depend only on the jobs, never on where they ran: each job carries everything
that decides its game (seeds included), and results come back in job order.

Work travels in *chunks*: a chunk is a run of consecutive jobs (seeds and settings in,
compact picklable results out, never game objects), played by one worker with
``[fn(job) for job in chunk]`` (:func:`run_chunk`). Shipping games one by one made a
second process slower than one on short runs; a chunk pays the round trip once for many
games. The chunk size is chosen by :func:`auto_chunk_size` unless given.

Two ways to run:

* ``workers=N`` (no executor): this process and ``N - 1`` *spawned* processes share the
  chunks. This process starts playing at once; the helpers are started only when the
  work left is worth it (:data:`HELPERS_WORTH_SECONDS`), and a helper is handed chunks
  only once it is up (a probe job tells), so the time a process takes to start is never
  spent waiting: a run too short to pay for a second process simply finishes here.
* ``executor=`` any :class:`concurrent.futures.Executor` (a ``ProcessPoolExecutor``, a
  Dask ``Client.get_executor()``, a Ray adapter: docs/scale.md): every chunk is submitted
  to it, a bounded window at a time, and this process only merges.

Either way the output is byte-identical whatever the executor, chunk size or number of
workers (tests/cli/test_scale.py checks it).
"""

from __future__ import annotations

import concurrent.futures as cf
from typing import Any, Callable, Iterator, Mapping, Sequence, TypeVar

__all__ = [
    "map_ordered", "run_chunk", "auto_chunk_size", "chunks_of", "CHUNKS_PER_WORKER", "MAX_CHUNK",
    "HELPERS_WORTH_SECONDS",
]  # fmt: skip

J = TypeVar("J")
R = TypeVar("R")

CHUNKS_PER_WORKER = 16
"""How many chunks :func:`auto_chunk_size` aims at per worker: enough that the last chunks
even out the workers' finishing times (and that a progress bar moves), few enough that
the per-chunk round trip (about a millisecond on a local pool) stays negligible."""

MAX_CHUNK = 256
"""The largest automatic chunk (games): bounds what a lost worker's chunk costs to re-run
and how long a progress bar can stand still."""


HELPERS_WORTH_SECONDS = 1.0
"""``workers=N`` starts its ``N - 1`` spawned processes only when the work left after two
chunks played here is estimated at more than this (seconds): a spawned process takes a
few tenths of a second to start (importing cardkit), and on a busy machine that start
slows the run down more than the process speeds up a short one."""


def auto_chunk_size(jobs: int, workers: int) -> int:
    """The automatic chunk size: ``ceil(jobs / (workers * CHUNKS_PER_WORKER))``, at least 1
    and at most :data:`MAX_CHUNK`. (With one local worker nothing is shipped: map_ordered
    then plays game by game, so that a progress bar moves game by game.)"""
    if jobs < 1:
        return 1
    target = max(1, workers) * CHUNKS_PER_WORKER
    return max(1, min(MAX_CHUNK, -(-jobs // target)))


def chunks_of(jobs: Sequence[J], size: int) -> list[Sequence[J]]:
    """``jobs`` cut into consecutive runs of ``size`` (the last one may be shorter)."""
    if size < 1:
        raise ValueError(f"the chunk size must be at least 1, not {size}")
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def run_chunk(fn: Callable[[J], R], chunk: Sequence[J]) -> list[R]:
    """``[fn(job) for job in chunk]``: what one worker runs for one chunk (module level, so
    that it pickles by reference to any executor)."""
    return [fn(job) for job in chunk]


def _ready() -> bool:
    # a probe: its result arriving means a spawned process is up and importing nothing more
    return True


def _ignore_ctrl_c() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the pool and reports;
    # workers printing their own KeyboardInterrupt tracebacks would only add noise
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def map_ordered(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    workers: int = 1,
    *,
    executor: cf.Executor | None = None,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[R]:
    """``fn(job)`` for every job, yielded in job order.

    Without ``executor``, on ``workers`` processes (this one included; ``workers == 1``
    runs everything here). With ``executor``, on it; ``workers`` then says how many chunks
    it can run at once (for the automatic chunk size and the submission window). ``fn``
    and the jobs must pickle (a module-level function and plain values); local processes
    are *spawned*, so nothing of the caller's state leaks into them.

    ``chunk_size`` overrides :func:`auto_chunk_size`. ``progress(n)`` is called in this
    process each time a chunk of ``n`` jobs finishes (in the order they finish, which is
    not always job order). Closing the iterator early (or Ctrl-C) stops the work: pending
    chunks are cancelled and the local processes are ended.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if chunk_size is None:
        here = executor is None and workers == 1
        chunk_size = 1 if here else auto_chunk_size(len(jobs), workers)
    size = chunk_size
    chunks = chunks_of(jobs, size)
    if executor is not None:
        return _on_executor(fn, chunks, executor, workers, progress)
    if workers == 1 or len(chunks) <= 1:
        return _here(fn, chunks, progress)
    return _local(fn, chunks, workers, progress)


def _here(fn: Callable[[J], R], chunks: list[Sequence[J]], progress: Callable[[int], None] | None) -> Iterator[R]:
    for chunk in chunks:
        results = run_chunk(fn, chunk)
        if progress is not None:
            progress(len(chunk))
        yield from results


def _on_executor(
    fn: Callable[[J], R],
    chunks: list[Sequence[J]],
    executor: cf.Executor,
    workers: int,
    progress: Callable[[int], None] | None,
) -> Iterator[R]:
    # a window of chunks in flight (two per worker, so that none idles between chunks),
    # and never more than a few windows of finished chunks waiting for an earlier one
    in_flight_max = 2 * workers
    ahead_max = 8 * workers
    pending: dict[cf.Future[list[R]], int] = {}
    done: dict[int, list[R]] = {}
    submitted = 0
    yielded = 0
    try:
        while yielded < len(chunks):
            while submitted < len(chunks) and len(pending) < in_flight_max and submitted - yielded < ahead_max:
                pending[executor.submit(run_chunk, fn, chunks[submitted])] = submitted
                submitted += 1
            if yielded not in done:
                finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    index = pending.pop(future)
                    done[index] = future.result()  # a chunk's error is the run's error
                    if progress is not None:
                        progress(len(chunks[index]))
            while yielded in done:
                yield from done.pop(yielded)
                yielded += 1
    finally:
        for future in pending:
            future.cancel()


def _local(
    fn: Callable[[J], R], chunks: list[Sequence[J]], workers: int, progress: Callable[[int], None] | None
) -> Iterator[R]:
    import multiprocessing
    import time

    helpers = workers - 1
    pool: cf.ProcessPoolExecutor | None = None
    probes: set[cf.Future[bool]] = set()
    ready = 0
    pending: dict[cf.Future[list[R]], int] = {}
    done: dict[int, list[R]] = {}
    taken = 0  # chunks handed out (to the pool or played here), in job order
    yielded = 0
    timed: list[float] = []  # seconds of the chunks played here until the helpers start
    decided = False  # whether to start the helpers, once known

    def collect(block: bool) -> None:
        nonlocal ready
        waiting: set[cf.Future[Any]] = set(pending) | probes
        if not waiting:
            return
        finished, _ = cf.wait(waiting, timeout=None if block else 0, return_when=cf.FIRST_COMPLETED)
        for future in finished:
            if future in probes:
                probes.discard(future)
                future.result()
                ready += 1
                continue
            index = pending.pop(future)
            done[index] = future.result()
            if progress is not None:
                progress(len(chunks[index]))

    try:
        while yielded < len(chunks):
            if not decided and len(timed) >= 2 and taken < len(chunks):
                decided = True
                # start the helpers only for work that pays for them: the fastest chunk so
                # far (the first one pays for imports) times the chunks left. The clock
                # decides only where chunks run, never what they return.
                if min(timed) * (len(chunks) - taken) > HELPERS_WORTH_SECONDS:
                    pool = cf.ProcessPoolExecutor(
                        helpers, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_ctrl_c
                    )
                    # one probe per helper: chunks go to the pool only once a process has
                    # answered, so that no chunk waits in a queue while its process starts
                    probes = {pool.submit(_ready) for _ in range(helpers)}
                # (not worth it now: the estimate only shrinks, so never)
            collect(block=False)
            # keep two chunks queued per ready process, then play the next one here
            while pool is not None and taken < len(chunks) and len(pending) < 2 * ready:
                pending[pool.submit(run_chunk, fn, chunks[taken])] = taken
                taken += 1
            if taken < len(chunks):
                index = taken
                taken += 1
                start = time.perf_counter()
                done[index] = run_chunk(fn, chunks[index])
                if not decided:
                    timed.append(time.perf_counter() - start)
                if progress is not None:
                    progress(len(chunks[index]))
            elif yielded not in done:
                collect(block=True)
            while yielded in done:
                yield from done.pop(yielded)
                yielded += 1
    finally:
        if pool is not None:
            _stop_pool(pool, pending, idle=not pending and not probes)


def _stop_pool(pool: cf.ProcessPoolExecutor, pending: Mapping[cf.Future[Any], int], idle: bool) -> None:
    for future in pending:
        future.cancel()
    # never wait for the processes to exit: an idle pool's processes exit on their own once
    # told to; one still starting (or playing a chunk nobody wants any more) is ended
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    if not idle:
        for process in processes:
            process.terminate()
