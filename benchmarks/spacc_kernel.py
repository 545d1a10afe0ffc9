"""Spacc 'u Mazz: random whole games per CPU-second, kernel vs the reference reducer.

    PYTHONPATH=src python benchmarks/spacc_kernel.py [rounds]

Interleaved rounds (reference, kernel, reference, kernel, ...), CPU time
(``time.process_time``), median and best per side. Both sides play uniformly random
player actions under the default config (one hand, ``max_turns`` 2000, the guard the
reference applies too); the reference is ``workloads.pure_playout`` (decide/evolve,
chance from the seed), the kernel answers chance with ``chance_random``. The kernel is
whichever build is importable: compile it in place with mypyc to time the compiled one
(``cardkit.kernels.spacc_u_mazz.__file__`` says which, and so does the printout).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import pure_playout  # noqa: E402

from cardkit.games.spacc_u_mazz.rules import RULES  # noqa: E402
from cardkit.kernels import spacc_u_mazz as K  # noqa: E402
from cardkit.kernels._base import CHANCE, OVER, KRng  # noqa: E402


def kernel_games(players: int, games: int, first: int) -> tuple[int, int]:
    """``games`` random whole games on the kernel; (player actions, guard-ended games)."""
    bridge = RULES.kernel_bridge(RULES.config(players))
    start = bridge.new_kernel()
    actions = 0
    guarded = 0
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
        if k.turns >= k.max_turns:
            guarded += 1
    return actions, guarded


def reference_games(players: int, games: int, first: int) -> int:
    """``games`` random whole games on the reference reducer; player actions."""
    config = RULES.config(players)
    return sum(pure_playout(RULES, config, seed) for seed in range(first, first + games))


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    build = "compiled" if K.__file__.endswith((".so", ".pyd")) else "interpreted"
    print(f"kernel build: {build} ({Path(K.__file__).name})")
    for players in (2, 4):
        kernel_games(players, 3, 10**6)  # untimed: the action index and the play cache
        reference_games(players, 1, 10**6)
        ref_games = 4
        kern_games = 40 if build == "interpreted" else 300
        ref_rates: list[float] = []
        kern_rates: list[float] = []
        ref_actions = kern_actions = guarded = 0
        for r in range(rounds):
            t = time.process_time()
            ref_actions = reference_games(players, ref_games, 1 + r * ref_games)
            ref_rates.append(ref_games / (time.process_time() - t))
            t = time.process_time()
            kern_actions, guarded = kernel_games(players, kern_games, 1 + r * kern_games)
            kern_rates.append(kern_games / (time.process_time() - t))
        ref_med = statistics.median(ref_rates)
        kern_med = statistics.median(kern_rates)
        print(
            f"{players}p: reference {ref_med:8.1f} games/CPU-s (best {max(ref_rates):.1f}, "
            f"{ref_actions / ref_games:.0f} actions/game) | kernel {build} {kern_med:8.1f} "
            f"games/CPU-s (best {max(kern_rates):.1f}, {kern_actions / kern_games:.0f} "
            f"actions/game, {guarded}/{kern_games} cut by max_turns) | ratio median "
            f"{kern_med / ref_med:.1f}x, best/best {max(kern_rates) / max(ref_rates):.1f}x"
        )


if __name__ == "__main__":
    main()
