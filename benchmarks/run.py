"""cardkit benchmarks: one command, figures and ratios printed.

    python benchmarks/run.py            # about a minute or two
    python benchmarks/run.py --quick    # a few seconds, smaller samples

Per game configuration: random playouts through the pure reducer (rules.decide +
rules.evolve, no Game) and through ``Game``; replay speed; for Crazy Eights also the
cost of ``Game.play`` 100 vs 10,000 actions into a game and the memory per logged
action. If ``open_spiel`` is installed (``pip install open_spiel``) the nearest
OpenSpiel game runs in the same process and the ratio of player actions/s is printed.
Performance targets live here, never in timed tests.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from typing import Any, Callable

import cardkit
from cardkit.core.game import Game, chance_outcome
from cardkit.core.rules import CHANCE
from cardkit.rng import Rng
from cardkit.testing.invariants import random_playout

TARGETS: list[tuple[str, str, int, dict[str, Any], str | None, dict[str, Any]]] = [
    ("crazy-eights 2p", "crazy-eights", 2, {}, "crazy_eights", {"players": 2}),
    ("crazy-eights 4p", "crazy-eights", 4, {}, "crazy_eights", {"players": 4}),
    ("wizard 4p", "wizard", 4, {}, "oh_hell", {"players": 4}),
    ("cutthroat-spades 3p", "cutthroat-spades", 3, {"wins_needed": 1, "max_hands": 30}, "spades", {}),
    ("spacc-u-mazz 2p", "spacc-u-mazz", 2, {}, None, {}),
    ("spacc-u-mazz 4p", "spacc-u-mazz", 4, {}, None, {}),
]


def pure_playouts(rules: Any, config: Any, seconds: float) -> tuple[float, float]:
    """Random games through decide/evolve only: (games/s, player actions/s)."""
    games = actions = 0
    start = time.perf_counter()
    seed = 0
    decide, evolve, legal_actions, to_act_of = rules.decide, rules.evolve, rules.legal_actions, rules.to_act
    while time.perf_counter() - start < seconds:
        seed += 1
        rng = Rng.stream(seed, 1 << 40)
        state = rules.initial_state(config)
        chances = 0
        while True:
            to_act = to_act_of(state)
            if to_act is None:
                break
            if to_act == CHANCE:
                action = chance_outcome(rules.pending_chance(state), seed, chances)
                chances += 1
            else:
                legal = legal_actions(state)
                action = legal[rng.below(len(legal))]
                actions += 1
            for event in decide(state, action):
                state = evolve(state, event)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def game_playouts(name: str, players: int, options: dict[str, Any], seconds: float) -> tuple[float, float, list[Game]]:
    """Random games through Game.play: (games/s, player actions/s, some finished games)."""
    games = actions = 0
    kept: list[Game] = []
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        seed += 1
        game = cardkit.new_game(name, players=players, seed=seed, **options)
        game = random_playout(game, Rng.stream(seed, 1 << 40))
        actions += game.seat_actions
        games += 1
        if len(kept) < 20:
            kept.append(game)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, kept


def replay_rate(games: list[Game]) -> float:
    """Logged entries re-decided per second by cardkit.replay."""
    logs = [g.log for g in games]
    entries = sum(len(log.entries) for log in logs)
    start = time.perf_counter()
    for log in logs:
        cardkit.replay(log)
    return entries / (time.perf_counter() - start)


def openspiel_rate(name: str, params: dict[str, Any], seconds: float) -> float | None:
    """OpenSpiel random playouts, player actions/s (None if open_spiel is not installed)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)
    actions = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        rng = Rng.stream(seed, 7)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.below(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
                actions += 1
    return actions / (time.perf_counter() - start)


def long_game(actions: int) -> Game:
    """A Crazy Eights points match long enough for ``actions`` seat actions."""
    game = cardkit.new_game("crazy-eights", players=4, seed=5, mode="points", target=10**9)
    return random_playout(game, Rng.stream(5, 99), max_seat_actions=actions)


def play_cost(at: int, sample: int = 300) -> float:
    """Microseconds per Game.play, measured ``at`` seat actions into a game."""
    game = long_game(at)
    rng = Rng.stream(at, 3)
    moves = []
    probe = game
    for _ in range(sample):
        legal = probe.legal_actions()
        action = legal[rng.below(len(legal))]
        moves.append(action)
        probe = probe.play(action)
    best = float("inf")
    for _ in range(3):
        g = game
        start = time.perf_counter()
        for action in moves:
            g = g.play(action)
        best = min(best, time.perf_counter() - start)
    return best / sample * 1e6


def memory_per_action(actions: int) -> float:
    """Bytes retained per logged entry by a Game of about ``actions`` seat actions."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    game = long_game(actions)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    entries = len(game.log.entries)
    del game
    return used / entries


def undo_cost(at: int, k: int) -> float:
    """Microseconds for undo(k) at ``at`` seat actions into a game."""
    game = long_game(at)
    start = time.perf_counter()
    for _ in range(20):
        game.undo(k)
    return (time.perf_counter() - start) / 20 * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short samples (smoke run)")
    parser.add_argument("--only", help="run only targets whose label contains this text")
    args = parser.parse_args(argv)
    seconds = 0.3 if args.quick else 2.0
    print(f"cardkit {cardkit.__version__}, Python {sys.version.split()[0]}, {seconds:.1f}s per measurement")
    available = set(cardkit.available_games())
    for label, name, players, options, os_name, os_params in TARGETS:
        if args.only and args.only not in label:
            continue
        if name not in available:
            print(f"{label}: not available")
            continue
        rules = cardkit.get_rules(name)
        config = rules.config(players, **options)
        pure_gps, pure_aps = pure_playouts(rules, config, seconds)
        game_gps, game_aps, kept = game_playouts(name, players, options, seconds)
        print(f"{label}: pure reducer {pure_gps:,.0f} games/s {pure_aps:,.0f} player actions/s")
        print(f"{label}: Game.play    {game_gps:,.0f} games/s {game_aps:,.0f} player actions/s "
              f"(Game/pure {game_aps / pure_aps:.2f}x)")
        print(f"{label}: replay       {replay_rate(kept):,.0f} entries/s")
        if os_name is not None:
            rate = openspiel_rate(os_name, os_params, seconds)
            if rate is None:
                print(f"{label}: OpenSpiel {os_name}: not installed (pip install open_spiel)")
            else:
                print(f"{label}: OpenSpiel {os_name} {rate:,.0f} player actions/s; "
                      f"ratio pure/OpenSpiel {pure_aps / rate:.2f}x, Game/OpenSpiel {game_aps / rate:.2f}x")
    if not args.only or "crazy" in args.only:
        near = play_cost(100)
        far = play_cost(2_000 if args.quick else 10_000)
        far_at = 2_000 if args.quick else 10_000
        print(f"crazy-eights 4p: Game.play {near:.1f} us at 100 actions, {far:.1f} us at {far_at:,} actions "
              f"(ratio {far / near:.2f}x)")
        print(f"crazy-eights 4p: undo(1) {undo_cost(far_at, 1):.0f} us, undo(10) {undo_cost(far_at, 10):.0f} us "
              f"at {far_at:,} actions")
        print(f"crazy-eights 4p: memory {memory_per_action(far_at):,.0f} bytes per logged entry "
              f"({far_at:,}-action game, tracemalloc)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
