"""Many independent games on several processes, results in job order.

The one place that decides how cardkit spreads games over processes (``cardkit simulate``
uses it; so can a host or a notebook). Results depend only on the jobs, never on the
number of workers: each job carries everything that decides its game (seeds included),
and results come back in job order.
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence, TypeVar

__all__ = ["map_ordered"]

J = TypeVar("J")
R = TypeVar("R")


def _ignore_ctrl_c() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the pool and reports;
    # workers printing their own KeyboardInterrupt tracebacks would only add noise
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def map_ordered(fn: Callable[[J], R], jobs: Sequence[J], workers: int = 1) -> Iterator[R]:
    """``fn(job)`` for every job, yielded in job order, on ``workers`` processes.

    ``workers == 1`` runs in this process. Otherwise ``fn`` and the jobs must pickle (a
    module-level function and plain values); processes are *spawned*, so nothing of the
    caller's state leaks into them. Closing the iterator early (or Ctrl-C) stops the pool.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            yield fn(job)
        return
    import multiprocessing

    # small chunks keep the order of results close to the order of work, so a progress
    # bar moves evenly; bigger ones would only save pickling, which is cheap next to a game
    chunksize = max(1, min(16, len(jobs) // (workers * 8)))
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_ignore_ctrl_c)
    try:
        yield from pool.imap(fn, jobs, chunksize=chunksize)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
