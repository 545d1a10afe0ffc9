"""Scale-out: the chunked local pool and a local Dask cluster against one worker.

    PYTHONPATH=src python benchmarks/scale.py [--rounds 3] [--engine reducer] [--no-dask]

Plays the issue's two runs (2,000 rule-bot Crazy Eights games for 3, 200 rule-bot Wizard
games for 3) through :func:`cardkit.cli.simulate.play_games` under each setting, and
prints wall-clock seconds (min and median over the rounds) and each setting's speed-up
against its named baseline:

* ``workers 2`` against ``workers 1``: a fresh local pool per run, so the time includes
  starting its spawned process (as ``cardkit simulate --workers 2`` pays it);
* ``dask local:2`` against ``dask local:1``: two local Dask clusters (one thread per worker
  process) started once before the rounds and warmed up with a few games (a cluster is
  meant to outlive a run); the time is the run's.

For the local settings it also prints the CPU seconds spent (this process and its pool's
processes): on a machine whose cores are busy with other work, wall-clock speed-ups
cannot show, but CPU seconds still tell what a second process costs on top of the games.
Rounds are interleaved (every setting once per round, in turn), so a noisy neighbour slows
every setting instead of one. Wall-clock time: on a shared machine, say so next to the
figures. Every setting's outcomes are checked equal to ``workers 1``'s.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import resource
import statistics
import time
from typing import Any, Callable

from cardkit.cli.simulate import play_games

RUNS = (
    ("crazy-eights", 3, 2000, {}),
    ("wizard", 3, 200, {}),
)


def _cpu() -> float:
    # this process and its ended children (a local pool's processes are joined by then)
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _time(run: Callable[[], list[Any]]) -> tuple[float, float, list[Any]]:
    before = set(multiprocessing.active_children())  # the Dask clusters' processes
    cpu = _cpu()
    start = time.perf_counter()
    outcomes = run()
    seconds = time.perf_counter() - start
    # the pool does not wait for its processes to exit; reap them (untimed) so that their
    # CPU is counted
    while set(multiprocessing.active_children()) - before:
        time.sleep(0.01)
    return seconds, _cpu() - cpu, outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engine", choices=("reducer", "kernel", "auto"), default="reducer")
    parser.add_argument("--no-dask", action="store_true", help="only the local pool")
    args = parser.parse_args()

    settings: dict[str, tuple[Any, int]] = {"workers 1": (None, 1), "workers 2": (None, 2)}
    baselines = {"workers 2": "workers 1"}
    with contextlib.ExitStack() as stack:
        if not args.no_dask:
            from cardkit.cluster import open_cluster

            for n in (1, 2):
                cluster = stack.enter_context(open_cluster(f"local:{n}"))
                settings[f"dask local:{n}"] = (cluster.executor, cluster.workers)
                # warm-up: every worker imports cardkit once, outside the timing
                list(play_games("wizard", 3, 4 * n, bots=["rule"] * 3, executor=cluster.executor,
                                workers=n, chunk_size=1, engine=args.engine))  # fmt: skip
            baselines["dask local:2"] = "dask local:1"
        times: dict[tuple[str, str], list[float]] = {}
        cpus: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.rounds):
            for game, players, games, options in RUNS:
                reference = None
                for name, (executor, workers) in settings.items():
                    def run(executor: Any = executor, workers: int = workers) -> list[Any]:
                        return list(play_games(game, players, games, bots=["rule"] * players, options=options,
                                               engine=args.engine, workers=workers, executor=executor))  # fmt: skip

                    seconds, cpu, outcomes = _time(run)
                    if reference is None:
                        reference = outcomes
                    assert outcomes == reference, f"{name} played other games than workers 1"
                    times.setdefault((game, name), []).append(seconds)
                    cpus.setdefault((game, name), []).append(cpu)
    executor_of = {name: executor for name, (executor, _) in settings.items()}
    load = os.getloadavg()[0]
    print(f"engine {args.engine}, {args.rounds} interleaved rounds, wall-clock seconds (min / median); "
          f"CPU: median CPU seconds of this process and its pool; load average {load:.1f} on {os.cpu_count()} cores")
    for game, players, games, _ in RUNS:
        print(f"{game} {players}p, {games} rule-bot games:")
        for name in settings:
            sample = times[(game, name)]
            line = f"  {name:<14} {min(sample):7.3f} s / {statistics.median(sample):7.3f} s"
            if executor_of[name] is None:  # CPU of the Dask workers is not this process's
                line += f"  (CPU {statistics.median(cpus[(game, name)]):6.2f} s)"
            base = baselines.get(name)
            if base is not None:
                ref = times[(game, base)]
                line += (
                    f"   {min(ref) / min(sample):.2f}x min, {statistics.median(ref) / statistics.median(sample):.2f}x"
                    f" median against {base}"
                )
            print(line)


if __name__ == "__main__":
    main()
