"""Environment steps per second of ``cardkit.rl`` against ``Game.play`` in the same run.

    python benchmarks/rl_env.py            # about two minutes
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

Both sides play fixed batches (the same seeds every round, sized to about
``--batch-seconds`` of CPU) measured by ``benchmarks/harness.py`` as ``run.py`` measures:
CPU time, interleaved rounds, each batch cut into ``--slices`` slices of consecutive seeds
taken in turn (A1 B1 A2 B2 ...), so machine noise hits both sides alike. The ratio
env/Game.play of seat actions per CPU-second is printed as median/median, best/best and
paired (the median of the per-round ratios), which the verdict reads. The target is
env >= 0.5x Game.play. ``--floor`` adds a third side, the same AEC loop
with the observation replaced by a constant vector: what the protocol itself costs (the
action mask, the pick, ``last``/``step`` bookkeeping, the legal actions of the next seat),
the ceiling of any encoder. A second line per target splits the cost of one step:
``Game.play`` (first legal action), the game's reader (``read``) and the cached encoder
(``encode``) that the environment runs, the reference encoding from ``view`` + ``zones``
(``reference``), the action mask (``mask``) and the two picks.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

import numpy as np

import cardkit
import cardkit.rl
from cardkit.rng import Rng

from harness import Workload, measure, ratios, units, verdict

TARGETS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("crazy-eights 2p", "crazy-eights", 2, {}),
    ("crazy-eights 4p", "crazy-eights", 4, {}),
    ("wizard 4p", "wizard", 4, {}),
    ("cutthroat-spades 3p", "cutthroat-spades", 3, {"wins_needed": 1, "max_hands": 30}),
    ("spacc-u-mazz 2p", "spacc-u-mazz", 2, {}),
    ("spacc-u-mazz 4p", "spacc-u-mazz", 4, {}),
]


def game_play_batch(name: str, players: int, options: dict[str, Any], games: int, first: int) -> int:
    """Seat actions of ``games`` random games (seeds ``first``...) through ``Game.play``."""
    actions = 0
    for seed in range(first, first + games):
        rng = Rng.stream(seed, 1 << 40)
        game = cardkit.new_game(name, players=players, seed=seed, **options)
        while not game.is_over:
            legal = game.legal_actions()
            game = game.play(legal[rng.below(len(legal))])
            actions += 1
    return actions


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


def env_batch(env: cardkit.rl.CardkitEnv, games: int, first: int, pick: Any = _pick_bool) -> int:
    """Seat actions of ``games`` random episodes (seeds ``first``...) through the AEC API
    (``last()`` + ``step()``; the finished agents' ``step(None)`` are not counted)."""
    actions = 0
    for seed in range(first, first + games):
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
    return actions


def _workload(key: str, label: str, batch: Callable[[int, int], int]) -> Workload:
    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        return lambda: batch(games, first)

    return Workload(key, label, "seat actions", prepare, units)


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
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds per target (default 7)")
    parser.add_argument("--batch-seconds", type=float, default=None, help="CPU seconds of one side's batch (default 1.0)")
    parser.add_argument("--slices", type=int, default=None, help="slices a batch is cut into (default 10)")
    parser.add_argument("--only", default=None, help="run the targets whose label contains this")
    parser.add_argument("--floor", action="store_true", help="also time the loop with a constant observation")
    parser.add_argument("--int8-pick", action="store_true", help="pick with np.flatnonzero on the int8 mask")
    parser.add_argument("--no-breakdown", action="store_true", help="skip the per-part line")
    args = parser.parse_args()
    batch_seconds = args.batch_seconds or (0.05 if args.quick else 1.0)
    rounds = args.rounds or (2 if args.quick else 7)
    slices = args.slices or (1 if args.quick else 10)
    pick = _pick_int8 if args.int8_pick else _pick_bool
    for label, name, players, options in TARGETS:
        if args.only and args.only not in label:
            continue
        env = cardkit.rl.env(name, players=players, **options)
        sides = [
            _workload("play", f"{label} Game.play", lambda n, f: game_play_batch(name, players, options, n, f)),
            _workload("env", f"{label} env step", lambda n, f, env=env: env_batch(env, n, f, pick)),
        ]
        if args.floor:
            flat = floor_env(name, players, options)
            sides.append(_workload("floor", f"{label} constant observation", lambda n, f: env_batch(flat, n, f, pick)))
        got = measure(sides, rounds, batch_seconds, slices=slices)
        play, step = got["play"], got["env"]
        median, best, paired = ratios(step, play)
        print(
            f"{label}: Game.play {play.median:,.0f} seat actions/s (median), env step {step.median:,.0f} "
            f"steps/s (obs {env.encoder.size} floats, {len(env.actions)} actions); env/Game.play "
            f"{median:.2f}x median ({best:.2f}x best; {paired:.2f}x paired) over {rounds} rounds of "
            f"{play.games} and {step.games} games   target >= 0.5x: {verdict(paired, 0.5)}"
            + (f"; constant observation: {ratios(got['floor'], play)[2]:.2f}x paired" if args.floor else "")
        )
        if not args.no_breakdown:
            parts = breakdown(env)
            print("  per step (µs, best of 3): " + ", ".join(f"{k} {v:.1f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
