"""Interleaved CPU-time measurement of fixed workloads (the timing half of ``run.py``).

A :class:`Workload` is a fixed batch of work (the same games, from the same seeds, every
time it runs) plus an untimed count of what it did. :func:`measure` sizes each batch once
(so one batch costs about ``batch_seconds`` of CPU), then runs every workload once per
round, in the same order, for ``rounds`` rounds: A, B, C, A, B, C ... . A noisy
neighbour then slows every side in turn instead of one side's whole sample. Time is
``time.process_time`` (CPU time of this process), so waiting for the CPU is not counted.

With ``slices`` > 1 a round is finer still: each batch (seeds ``1..n``) is cut into
``slices`` runs of consecutive seeds, and the round runs slice 1 of every workload, then
slice 2 of every workload, and so on (A1 B1 C1 A2 B2 C2 ...); a workload's round time is
the sum of its slices. Every round still plays exactly the same games; only the order is
finer. On a shared machine the speed drifts within a second or two, and a slow spell then
falls on every side instead of on the one that happened to be running.
"""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable

__all__ = ["Workload", "Measured", "measure", "ratios", "units", "verdict"]


@dataclass(frozen=True)
class Workload:
    """A named batch of work.

    ``prepare(n, first)`` does the untimed setup for ``n`` games from seed ``first``
    (default 1; e.g. recording logs to replay) and returns the timed body; the body returns whatever ``count`` needs to tell, untimed,
    how many ``unit`` (player actions, log entries) one run of the body did.
    """

    key: str
    label: str
    unit: str
    prepare: Callable[..., Callable[[], object]]
    count: Callable[[object], int]


def units(result: object) -> int:
    """The ``count`` of a workload whose body returns its units itself (an ``int``)."""
    assert isinstance(result, int)
    return result


@dataclass
class Measured:
    """The CPU times of one workload's rounds and the units each round did."""

    workload: Workload
    games: int
    units: int
    times: list[float] = field(default_factory=list)

    @property
    def best(self) -> float:
        """Units per CPU-second in the fastest round."""
        return self.units / max(min(self.times), 1e-9)

    @property
    def median(self) -> float:
        """Units per CPU-second at the median round time."""
        return self.units / max(statistics.median(self.times), 1e-9)


def ratios(num: Measured, den: Measured) -> tuple[float, float, float]:
    """``num``'s rate over ``den``'s: median over median, best over best, and paired (the
    ratio within each round, both sides having run in the same slices of time, then the
    median over rounds; the target verdicts read this one)."""
    paired = statistics.median(
        (num.units / max(t_num, 1e-9)) / (den.units / max(t_den, 1e-9)) for t_num, t_den in zip(num.times, den.times)
    )
    return num.median / den.median, num.best / den.best, paired


def verdict(value: float, goal: float, at_least: bool = True) -> str:
    """``"met"`` if ``value`` reaches ``goal`` (``>=``, or ``<=`` when not ``at_least``), else ``"not met"``."""
    return "met" if (value >= goal if at_least else value <= goal) else "not met"


def _timed(body: Callable[[], object]) -> tuple[float, object]:
    gc.collect()  # garbage left by the previous workload is not charged to this one
    start = time.process_time()
    result = body()
    return time.process_time() - start, result


def _batch_size(workload: Workload, batch_seconds: float, warm_up: bool) -> int:
    """How many games make one batch of about ``batch_seconds`` CPU (at least one)."""
    if warm_up:
        _timed(workload.prepare(1))  # imports, caches, first-call costs
    games = 1
    while True:
        elapsed, _ = _timed(workload.prepare(games))
        if elapsed >= batch_seconds / 4 or games >= 100_000:
            break
        games *= 4
    return max(1, min(100_000, round(games * batch_seconds / max(elapsed, 1e-6))))


def _cuts(games: int, slices: int) -> list[int]:
    """Boundaries of ``min(slices, games)`` near-equal runs of ``games`` (0 .. games)."""
    parts = max(1, min(slices, games))
    return [games * i // parts for i in range(parts + 1)]


def measure(
    workloads: list[Workload],
    rounds: int,
    batch_seconds: float,
    progress: Callable[[str], None] | None = None,
    warm_up: bool = True,
    slices: int = 1,
) -> dict[str, Measured]:
    """Run ``workloads`` interleaved for ``rounds`` rounds; results by workload key.

    Each workload first runs one game untimed (``warm_up``), then is sized; its batch is
    cut into ``min(slices, games)`` slices of consecutive seeds (see the module docs).

    Every round of a workload must do the same number of units (same seeds, same games);
    a workload that does not is a bug in the workload, and raises ``AssertionError``.
    """
    bodies: dict[str, list[Callable[[], object]]] = {}
    results: dict[str, Measured] = {}
    for workload in workloads:
        games = _batch_size(workload, batch_seconds, warm_up)
        cuts = _cuts(games, slices)
        bodies[workload.key] = [workload.prepare(cuts[i + 1] - cuts[i], cuts[i] + 1) for i in range(len(cuts) - 1)]
        results[workload.key] = Measured(workload, games, -1)
        if progress is not None:
            progress(f"sized {workload.label}: {games} games per batch, {len(cuts) - 1} slice(s)")
    # The prepared batches (the replay side's recorded logs above all: hundreds of MB for a
    # full run) belong to the benchmark, not to any side: frozen, the collector skips them,
    # so a side's own full collections do not traverse other sides' fixtures, and the
    # gc.collect() before each slice stays cheap. Whatever a side allocates while timed is
    # collected as usual.
    gc.collect()
    gc.freeze()
    try:
        most = max((len(b) for b in bodies.values()), default=0)
        for round_number in range(rounds):
            times = dict.fromkeys(bodies, 0.0)
            units_of = dict.fromkeys(bodies, 0)
            for k in range(most):
                for workload in workloads:
                    parts = bodies[workload.key]
                    if k < len(parts):
                        elapsed, result = _timed(parts[k])
                        times[workload.key] += elapsed
                        units_of[workload.key] += workload.count(result)
            for workload in workloads:
                units = units_of[workload.key]
                measured = results[workload.key]
                if measured.units < 0:
                    measured.units = units
                assert units == measured.units, f"{workload.label}: round {round_number} did other work"
                measured.times.append(times[workload.key])
            if progress is not None:
                progress(f"round {round_number + 1}/{rounds} done")
    finally:
        gc.unfreeze()
    return results
