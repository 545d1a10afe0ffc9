"""Spacc 'u Mazz: random whole games per CPU-second, kernel vs the reference reducer.

    PYTHONPATH=src python benchmarks/spacc_kernel.py [rounds]

Interleaved rounds (reference, kernel driven from Python, kernel's own loop, ...), CPU
time (``time.process_time``), median and best per side, as games and as player actions
per CPU-second. Every side plays uniformly random player actions under the default
config (one hand; the ``max_turns`` guard of 2000 turns ends most random games, on the
reference and on the kernel alike). The reference is ``workloads.pure_playout``
(decide/evolve, chance from the seed); the kernel answers chance with ``chance_random``,
either driven by a Python loop (``legal``/``apply`` per step) or inside
``random_playout`` (the loop compiled with the kernel). The kernel is whichever build is
importable: compile it in place with mypyc to time the compiled one (the printout says
which).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import pure_playout  # noqa: E402

from cardkit.games.spacc_u_mazz.rules import RULES  # noqa: E402
from cardkit.kernels import spacc_u_mazz as K  # noqa: E402
from cardkit.kernels._base import CHANCE, OVER, KRng  # noqa: E402


def driven_games(players: int, games: int, first: int) -> int:
    """``games`` random whole games on the kernel, stepped from Python; player actions."""
    start = RULES.kernel_bridge(RULES.config(players)).new_kernel()
    actions = 0
    for seed in range(first, first + games):
        k = start.copy()
        rng = KRng(seed)
        while True:
            actor = k.actor()
            if actor == OVER:
                break
            if actor == CHANCE:
                k.chance_random(rng)
            else:
                legal = k.legal()
                k.apply(legal[rng.below(len(legal))])
                actions += 1
    return actions


def looped_games(players: int, games: int, first: int) -> int:
    """The same games through the kernel's own ``random_playout``; player actions."""
    start = RULES.kernel_bridge(RULES.config(players)).new_kernel()
    return sum(K.random_playout(start.copy(), KRng(seed)) for seed in range(first, first + games))


def reference_games(players: int, games: int, first: int) -> int:
    """``games`` random whole games on the reference reducer; player actions."""
    config = RULES.config(players)
    return sum(pure_playout(RULES, config, seed) for seed in range(first, first + games))


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    build = "compiled" if K.__file__.endswith((".so", ".pyd")) else "interpreted"
    print(f"kernel build: {build} ({Path(K.__file__).name}); CPU time, {rounds} interleaved rounds")
    for players in (2, 4):
        sides: list[tuple[str, Callable[[int, int, int], int], int]] = [
            ("reference reducer", reference_games, 6),
            (f"kernel {build}, Python loop", driven_games, 40 if build == "interpreted" else 300),
            (f"kernel {build}, random_playout", looped_games, 40 if build == "interpreted" else 300),
        ]
        for _, run, _ in sides:
            run(players, 2, 10**6)  # untimed: the action index, the play cache, warm code
        games_rate: dict[str, list[float]] = {label: [] for label, _, _ in sides}
        action_rate: dict[str, list[float]] = {label: [] for label, _, _ in sides}
        for r in range(rounds):
            for label, run, games in sides:
                t = time.process_time()
                actions = run(players, games, 1 + r * games)
                spent = time.process_time() - t
                games_rate[label].append(games / spent)
                action_rate[label].append(actions / spent)
        ref_games = statistics.median(games_rate[sides[0][0]])
        ref_actions = statistics.median(action_rate[sides[0][0]])
        for label, _, _ in sides:
            g = statistics.median(games_rate[label])
            a = statistics.median(action_rate[label])
            print(
                f"{players}p {label:34} {g:8.1f} games/CPU-s (best {max(games_rate[label]):8.1f})"
                f"  {a / 1000:8.1f}k actions/CPU-s  x{g / ref_games:5.1f} games, x{a / ref_actions:5.1f} actions"
            )


if __name__ == "__main__":
    main()
