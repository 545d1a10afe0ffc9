"""Steps per CPU-second of ``VectorEnv`` against ``Game.play``, the AEC environment,
OpenSpiel's ``rl_environment`` and PettingZoo's classic card environments.

    python benchmarks/rl_vector.py             # about three minutes: both builds
    python benchmarks/rl_vector.py --quick     # a smoke run
    python benchmarks/rl_vector.py --build compiled   # one build only (pure, compiled)

Every side plays uniformly random legal actions and counts the steps of the agent to act
(one seat action each), in CPU time (``time.process_time``), in interleaved rounds: each
round runs every side for about ``--slice`` CPU-seconds in turn, so a noisy neighbour
slows every side alike; a side's figure is the median over the rounds (the min is printed
too), and a ratio is the median of the per-round ratios (paired).

Sides, Crazy Eights with 2 players unless named otherwise:

* ``Game.play`` — the reference engine: ``game.play(legal[rng.below(len(legal))])``;
* ``AEC env`` — ``cardkit.rl.env`` (``last()``, a random index from the mask, ``step``);
* ``VectorEnv n=N`` — ``cardkit.rl.vector.VectorEnv`` with the kernel engine, the random
  legal actions picked with numpy from the returned masks (``random_actions``): the steps
  include the pick, the observations ``(N, 389)`` and the masks a learner receives;
* ``OpenSpiel rl_environment`` — ``rl_environment.Environment("crazy_eights", players=2)``
  (OpenSpiel's own Crazy Eights: other rules, a 213-value information state), a random
  legal action from ``time_step.observations["legal_actions"]``;
* ``PettingZoo <env>`` — the classic card environments PettingZoo 1.27 still ships, built
  on RLCard (Leduc Hold'em, limit and no-limit Texas Hold'em): other games, the same AEC
  loop as ours.

``--build both`` (default) measures the compiled build in this process and the pure
build in a subprocess (``CARDKIT_KERNELS=pure``); the pure build's target is VectorEnv >=
1.0x ``Game.play``, the compiled build's >= 100,000 steps per CPU-second.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
import warnings
from typing import Any, Callable

import numpy as np

import cardkit
import cardkit.kernels
import cardkit.rl
from cardkit.rl.vector import VectorEnv, random_actions
from cardkit.rng import Rng

Side = Callable[[float], int]  # run for about this many CPU-seconds; the steps done


def _loop(step: Callable[[], int]) -> Side:
    def run(seconds: float) -> int:
        done = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            done += step()
        return done

    return run


def game_play() -> Side:
    seeds = iter(range(1, 10**9))

    def one_game() -> int:
        seed = next(seeds)
        rng = Rng.stream(seed, 1 << 40)
        game = cardkit.new_game("crazy-eights", players=2, seed=seed)
        n = 0
        while not game.is_over:
            legal = game.legal_actions()
            game = game.play(legal[rng.below(len(legal))])
            n += 1
        return n

    return _loop(one_game)


def aec_env() -> Side:
    env = cardkit.rl.env("crazy-eights", players=2)
    seeds = iter(range(1, 10**9))

    def one_game() -> int:
        seed = next(seeds)
        rng = Rng.stream(seed, 1 << 40)
        env.reset(seed=seed)
        n = 0
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            env.step(int(legal[rng.below(len(legal))]))
            n += 1
        return n

    return _loop(one_game)


def vector_env(n: int) -> Side:
    env = VectorEnv("crazy-eights", n, players=2, seed=1)
    rng = np.random.default_rng(1)
    state = {"info": env.reset()[1]}

    def batch() -> int:
        info = state["info"]
        for _ in range(10):
            info = env.step(random_actions(info["action_mask"], rng))[4]
        state["info"] = info
        return 10 * n

    return _loop(batch)


def openspiel() -> Side | str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from open_spiel.python import rl_environment
    except ImportError as exc:
        return f"not measured: {exc}"
    env = rl_environment.Environment("crazy_eights", players=2)
    env.seed(1)
    rng = random.Random(1)

    def one_game() -> int:
        ts = env.reset()
        n = 0
        while not ts.last():
            p = ts.observations["current_player"]
            legal = ts.observations["legal_actions"][p]
            ts = env.step([legal[rng.randrange(len(legal))]])
            n += 1
        return n

    return _loop(one_game)


def pettingzoo(name: str) -> Side | str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import importlib

            module = importlib.import_module(f"pettingzoo.classic.{name}")
    except ImportError as exc:
        return f"not measured: {exc} (pip install 'pettingzoo[classic]')"
    env = module.env()
    rng = random.Random(1)
    # Seeded once: these environments rebuild their RLCard game on every seeded reset,
    # which would cost more than the steps.
    env.reset(seed=1)

    def one_game() -> int:
        env.reset()
        n = 0
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n

    return _loop(one_game)


def measure(sides: dict[str, Side], rounds: int, seconds: float) -> dict[str, list[float]]:
    """Steps per CPU-second of every side, per round (interleaved)."""
    rates: dict[str, list[float]] = {k: [] for k in sides}
    for side in sides.values():  # warm up: imports, caches
        side(seconds / 10)
    for _ in range(rounds):
        for key, side in sides.items():
            start = time.process_time()
            steps = side(seconds)
            rates[key].append(steps / (time.process_time() - start))
    return rates


def paired(a: list[float], b: list[float]) -> float:
    """The median of the per-round ratios a/b."""
    return statistics.median(x / y for x, y in zip(a, b))


def report(rates: dict[str, list[float]], base: str, build: str) -> None:
    width = max(map(len, rates))
    print(f"[{build} build] steps per CPU-second, median (min) over {len(rates[base])} rounds; ratios paired")
    for key, values in rates.items():
        extra = "" if key == base else f"   {paired(values, rates[base]):6.2f}x {base}"
        print(f"  {key:<{width}} {statistics.median(values):>12,.0f} ({min(values):>10,.0f}){extra}")


def run_build(build: str, args: argparse.Namespace) -> None:
    sides: dict[str, Side] = {"Game.play": game_play(), "AEC env": aec_env()}
    sizes = [64] if args.quick else ([16, 64] if build == "pure" else [16, 64, 256])
    for n in sizes:
        sides[f"VectorEnv n={n}"] = vector_env(n)
    skipped = []
    if build == "compiled" and not args.no_others:
        others: dict[str, Side | str] = {"OpenSpiel rl_environment": openspiel()}
        for name in ("leduc_holdem_v4", "texas_holdem_v4", "texas_holdem_no_limit_v6"):
            others[f"PettingZoo {name}"] = pettingzoo(name)
        for key, side in others.items():
            if isinstance(side, str):
                skipped.append(f"{key}: {side}")
            else:
                sides[key] = side
    rounds = 2 if args.quick else args.rounds
    seconds = 0.1 if args.quick else args.slice
    rates = measure(sides, rounds, seconds)
    report(rates, "Game.play", build)
    vector = [k for k in rates if k.startswith("VectorEnv")]
    best = max(vector, key=lambda k: paired(rates[k], rates["Game.play"]))
    if build == "compiled":
        value = statistics.median(rates[best])
        print(f"  target VectorEnv >= 100,000 steps/CPU-s: {best} {value:,.0f}: {'met' if value >= 100_000 else 'not met'}")
        for key in rates:
            if key.startswith(("OpenSpiel", "PettingZoo")):
                print(f"  {best} / {key}: {paired(rates[best], rates[key]):.2f}x")
    else:
        ratio = paired(rates[best], rates["Game.play"])
        print(f"  target VectorEnv >= 1.0x Game.play: {best} {ratio:.2f}x: {'met' if ratio >= 1.0 else 'not met'}")
    for line in skipped:
        print(f"  {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument("--slice", type=float, default=1.0, help="CPU-seconds per side per round (default 1)")
    parser.add_argument("--build", choices=("both", "compiled", "pure", "current"), default="both")
    parser.add_argument("--no-others", action="store_true", help="skip OpenSpiel and PettingZoo")
    args = parser.parse_args()
    here = cardkit.kernels.BUILD
    if args.build in ("current", here) or (args.build == "both" and here == "compiled"):
        run_build(here, args)
    elif args.build != "both":
        print(f"the {args.build} build is not the one this process loaded ({here}); use --build both or set CARDKIT_KERNELS")
    if args.build in ("both", "pure") and here == "compiled":
        argv = [sys.executable, __file__, "--build", "current", "--rounds", str(args.rounds), "--slice", str(args.slice)]
        if args.quick:
            argv.append("--quick")
        sys.stdout.flush()
        subprocess.run(argv, check=True, env={**os.environ, "CARDKIT_KERNELS": "pure"})


if __name__ == "__main__":
    main()
