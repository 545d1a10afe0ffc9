"""Environment steps per second of ``cardkit.rl`` against ``Game.play`` in the same run.

    python benchmarks/rl_env.py            # about a minute
    python benchmarks/rl_env.py --quick    # a few seconds

Both sides play uniformly random legal moves from the same seeds:

* **Game.play** — ``game.play(legal[rng.below(len(legal))])`` until the game ends: the
  engine alone (log, guards, auto chance);
* **env step** — one AEC step as a learner runs it: ``env.last()`` (the observation vector
  and the int8 action mask), a random index among the mask's non-zero entries,
  ``env.step(index)``; the finished agents' ``step(None)`` are not counted. The non-zero
  entries are found with ``np.flatnonzero(mask.view(np.bool_))``: numpy's ``nonzero`` has a
  fast path for booleans only, and on an int8 mask it tests entry by entry, which costs
  about 0.1 ms on Spacc 'u Mazz's 32,694 entries — more than a ``Game.play`` (the
  breakdown line prints both picks; ``--int8-pick`` runs the loop with the plain one).

Rounds alternate between the two (interleaved, so machine noise hits both alike) and the
ratio env/Game.play of seat actions per second is printed as min and median over rounds.
The target is env >= 0.5x Game.play. ``--floor`` adds a third side, the same AEC loop
with the observation replaced by a constant vector: what the protocol itself costs (the
action mask, the pick, ``last``/``step`` bookkeeping, the legal actions of the next seat),
the ceiling of any encoder. A second line per target splits the cost of one step:
``Game.play`` (first legal action), the game's reader (``read``) and the cached encoder
(``encode``) that the environment runs, the reference encoding from ``view`` + ``zones``
(``reference``), the action mask (``mask``) and the two picks.
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


def _pick_bool(mask: Any) -> Any:
    return np.flatnonzero(mask.view(np.bool_))


def _pick_int8(mask: Any) -> Any:
    return np.flatnonzero(mask)


class _Constant:
    """Stands in for the cached encoder in ``--floor``: the same zero vector every time."""

    def __init__(self, size: int) -> None:
        self.zeros = np.zeros(size, dtype=np.float32)

    def encode(self, reading: Any, seat: int, to_act: Any) -> Any:
        return self.zeros.copy()

    def clear(self) -> None:
        pass


def floor_env(name: str, players: int, options: dict[str, Any]) -> cardkit.rl.CardkitEnv:
    """An environment whose observation is a constant vector (the protocol's own cost)."""
    env = cardkit.rl.env(name, players=players, **options)
    env._reader = lambda state, seat: None  # type: ignore[assignment]
    env._cached = _Constant(env.encoder.size)  # type: ignore[assignment]
    return env


def env_rate(env: cardkit.rl.CardkitEnv, seconds: float, seed0: int, pick: Any = _pick_bool) -> float:
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
            legal = pick(obs["action_mask"])
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
    read = env._reader
    readings = [read(g.state, g.to_act) for g in games] if read is not None else []
    masks = [env.mask_of(g) for g in games]
    parts: dict[str, Any] = {
        "Game.play": lambda: [g.play(g.legal_actions()[0]) for g in games],
        "read": lambda: [read(g.state, g.to_act) for g in games] if read is not None else None,
        "encode": lambda: [env._cached.encode(r, g.to_act, g.to_act) for r, g in zip(readings, games)],
        "reference": lambda: [env.reference_observation_of(g, g.to_act) for g in games],
        "mask": lambda: [env.mask_of(g) for g in games],
        "pick int8": lambda: [_pick_int8(m) for m in masks],
        "pick bool": lambda: [_pick_bool(m) for m in masks],
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
    parser.add_argument("--floor", action="store_true", help="also time the loop with a constant observation")
    parser.add_argument("--int8-pick", action="store_true", help="pick with np.flatnonzero on the int8 mask")
    parser.add_argument("--no-breakdown", action="store_true", help="skip the per-part line")
    args = parser.parse_args()
    seconds = 0.3 if args.quick else 1.5
    rounds = args.rounds or (3 if args.quick else 5)
    pick = _pick_int8 if args.int8_pick else _pick_bool
    for label, name, players, options in TARGETS:
        if args.only and args.only not in label:
            continue
        env = cardkit.rl.env(name, players=players, **options)
        floor = floor_env(name, players, options) if args.floor else None
        plays: list[float] = []
        steps: list[float] = []
        ratios: list[float] = []
        floors: list[float] = []
        for r in range(rounds):
            plays.append(game_play_rate(name, players, options, seconds, 1000 * r))
            steps.append(env_rate(env, seconds, 1000 * r, pick))
            ratios.append(steps[-1] / plays[-1])
            if floor is not None:
                floors.append(env_rate(floor, seconds, 1000 * r, pick) / plays[-1])
        print(
            f"{label}: Game.play median {statistics.median(plays):,.0f} seat actions/s; "
            f"env step median {statistics.median(steps):,.0f} steps/s "
            f"(obs {env.encoder.size} floats, {len(env.actions)} actions); "
            f"ratio env/Game.play min {min(ratios):.2f}x median {statistics.median(ratios):.2f}x "
            f"over {rounds} interleaved rounds"
            + (f"; constant observation: median {statistics.median(floors):.2f}x" if floors else "")
        )
        if not args.no_breakdown:
            parts = breakdown(env)
            print("  per step (µs, best of 3): " + ", ".join(f"{k} {v:.1f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
