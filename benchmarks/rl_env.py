"""Environment steps per second of ``cardkit.rl`` against ``Game.play`` in the same run.

    python benchmarks/rl_env.py            # about a minute
    python benchmarks/rl_env.py --quick    # a few seconds

Both sides play uniformly random legal moves from the same seeds:

* **Game.play** — ``game.play(legal[rng.below(len(legal))])`` until the game ends: the
  engine alone (log, guards, auto chance);
* **env step** — one AEC step as a learner runs it: ``env.last()`` (the observation vector
  encoded from the view and the visible zones, and the int8 action mask), a random index
  among the mask's non-zero entries, ``env.step(index)``; the finished agents' ``step(None)``
  are not counted.

Rounds alternate between the two (interleaved, so machine noise hits both alike) and the
ratio env/Game.play of seat actions per second is printed as min and median over rounds.
The target is env >= 0.5x Game.play. A second line per target splits the cost of one
step: ``Game.play`` (first legal action), the game's ``view`` and ``zones``, the encoder
(``encode``, given the view and zones) and the action mask (``mask``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

import cardkit
import cardkit.rl
from cardkit.rng import Rng

TARGETS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("crazy-eights 2p", "crazy-eights", 2, {}),
    ("crazy-eights 4p", "crazy-eights", 4, {}),
    ("wizard 4p", "wizard", 4, {}),
    ("cutthroat-spades 3p", "cutthroat-spades", 3, {"wins_needed": 1, "max_hands": 30}),
    ("spacc-u-mazz 2p", "spacc-u-mazz", 2, {}),
    ("spacc-u-mazz 4p", "spacc-u-mazz", 4, {}),
]


def game_play_rate(name: str, players: int, options: dict[str, Any], seconds: float, seed0: int) -> float:
    """Seat actions per second through ``Game.play`` with random legal moves."""
    actions = 0
    seed = seed0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        rng = Rng.stream(seed, 1 << 40)
        game = cardkit.new_game(name, players=players, seed=seed, **options)
        while not game.is_over:
            legal = game.legal_actions()
            game = game.play(legal[rng.below(len(legal))])
            actions += 1
    return actions / (time.perf_counter() - start)


def env_rate(env: cardkit.rl.CardkitEnv, seconds: float, seed0: int) -> float:
    """Seat actions per second through the AEC API (``last()`` + ``step()``)."""
    actions = 0
    seed = seed0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        rng = Rng.stream(seed, 1 << 40)
        env.reset(seed=seed)
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.below(len(legal))]))
            actions += 1
    return actions / (time.perf_counter() - start)


def breakdown(env: cardkit.rl.CardkitEnv, positions: int = 400) -> dict[str, float]:
    """Microseconds per step of each part of an observation, over positions of random games."""
    games = []
    seed = 0
    while len(games) < positions:
        seed += 1
        rng = Rng.stream(seed, 1 << 40)
        game = cardkit.new_game(env.rules.name, players=env.players, seed=seed, **env.config.as_options())
        while not game.is_over and len(games) < positions:
            games.append(game)
            legal = game.legal_actions()
            game = game.play(legal[rng.below(len(legal))])
    rules = env.rules
    views = [rules.view(g.state, g.to_act) for g in games]
    zones = [rules.zones(g.state) for g in games]
    parts: dict[str, Any] = {
        "Game.play": lambda: [g.play(g.legal_actions()[0]) for g in games],
        "view": lambda: [rules.view(g.state, g.to_act) for g in games],
        "zones": lambda: [rules.zones(g.state) for g in games],
        "encode": lambda: [env.encoder.encode(v, z, g.to_act, g.to_act) for v, z, g in zip(views, zones, games)],
        "mask": lambda: [env.mask_of(g) for g in games],
    }
    out = {}
    for name, run in parts.items():
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - start)
        out[name] = best / len(games) * 1e6
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short rounds (a smoke run)")
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds per target")
    parser.add_argument("--only", default=None, help="run the targets whose label contains this")
    args = parser.parse_args()
    seconds = 0.3 if args.quick else 1.5
    rounds = args.rounds or (3 if args.quick else 5)
    for label, name, players, options in TARGETS:
        if args.only and args.only not in label:
            continue
        env = cardkit.rl.env(name, players=players, **options)
        plays: list[float] = []
        steps: list[float] = []
        ratios: list[float] = []
        for r in range(rounds):
            plays.append(game_play_rate(name, players, options, seconds, 1000 * r))
            steps.append(env_rate(env, seconds, 1000 * r))
            ratios.append(steps[-1] / plays[-1])
        print(
            f"{label}: Game.play median {statistics.median(plays):,.0f} seat actions/s; "
            f"env step median {statistics.median(steps):,.0f} steps/s "
            f"(obs {env.encoder.size} floats, {len(env.actions)} actions); "
            f"ratio env/Game.play min {min(ratios):.2f}x median {statistics.median(ratios):.2f}x "
            f"over {rounds} interleaved rounds"
        )
        parts = breakdown(env)
        print(f"  per step (µs, best of 3): " + ", ".join(f"{k} {v:.1f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
