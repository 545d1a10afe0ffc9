"""ISMCTS speed: iterations per second per game, next to OpenSpiel's C++ IS-MCTS.

    PYTHONPATH=src python benchmarks/bots_speed.py [--iterations 1000] [--positions 6]

For each built-in game (3 players, the short configurations of the strength table) it
plays a random game, stops at ``--positions`` seat decisions with at least two legal
actions spread along it, and times one ``ISMCTSBot(iterations=N).choose`` at each. The
figure is the whole decision: sampling a determinization every iteration, tree walk,
playout to the end of the hand (Spacc 'u Mazz: 40 steps) and backup, all in Python.

Side by side, in the same process: OpenSpiel's C++ ``pyspiel.ISMCTSBot`` (random-rollout
evaluator, one rollout per simulation, unlimited world samples, ``uct_c=2``) on
``oh_hell`` with 3 players and 5 tricks, timed on ``bot.step(state)`` at its decision
points. Only the call is Python; the search, resampling and rollouts are C++.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import cardkit
from cardkit.bots import ISMCTSBot

SHORT: dict[str, dict[str, Any]] = {
    "wizard": {"rounds": 5},
    "cutthroat-spades": {"max_hands": 3, "wins_needed": 1},
    "crazy-eights": {},
    "spacc-u-mazz": {},
}


def cardkit_positions(name: str, count: int, seed: int) -> list[cardkit.Game]:
    rng = random.Random(seed)
    game = cardkit.new_game(name, players=3, seed=seed, **SHORT[name])
    found: list[cardkit.Game] = []
    while not game.is_over and len(found) < count:
        if len(game.legal_actions()) > 1 and rng.random() < 0.2:
            found.append(game)
        game = game.play(rng.choice(game.legal_actions()))
    return found


def time_cardkit(name: str, iterations: int, count: int) -> tuple[list[float], list[float], int]:
    times = []
    cpu = []
    positions = cardkit_positions(name, count, 7)
    for i, game in enumerate(positions):
        bot = ISMCTSBot(iterations=iterations)
        ss = game.seat_state(game.to_act)  # type: ignore[arg-type]
        start, start_cpu = time.perf_counter(), time.process_time()
        bot.choose(ss, random.Random(i))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return times, cpu, len(positions)


def time_openspiel(iterations: int, count: int) -> tuple[list[float], list[float]] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 5})
    rng = random.Random(7)
    times: list[float] = []
    cpu: list[float] = []
    while len(times) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(times) < count:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.3:
                bot = pyspiel.ISMCTSBot(
                    len(times), pyspiel.RandomRolloutEvaluator(1, len(times)), 2.0, iterations,
                    -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False,
                )  # fmt: skip
                start, start_cpu = time.perf_counter(), time.process_time()
                bot.step(state)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            state.apply_action(rng.choice(legal))
    return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=6)
    args = parser.parse_args()
    n = args.iterations
    print(f"IS-MCTS, {n} iterations per decision, 3 players; median over the positions")
    print("wall = elapsed time; cpu = this process's CPU time (what an idle core would take)")
    head = f"{'engine / game':<44} {'positions':>9} {'wall ms':>8} {'cpu ms':>7} {'iter/s (cpu)':>13}"
    print(head)
    for name in SHORT:
        times, cpu, found = time_cardkit(name, n, args.positions)
        wall, used = statistics.median(times), statistics.median(cpu)
        label = "cardkit ISMCTSBot (Python) " + name
        print(f"{label:<44} {found:>9} {wall * 1000:>8.0f} {used * 1000:>7.0f} {n / used:>13.0f}")
    spiel = time_openspiel(n, args.positions)
    if spiel is None:
        print("open_spiel is not installed: no OpenSpiel comparison")
    else:
        wall, used = statistics.median(spiel[0]), statistics.median(spiel[1])
        label = "OpenSpiel C++ ISMCTSBot oh_hell 5 tricks"
        print(f"{label:<44} {len(spiel[0]):>9} {wall * 1000:>8.0f} {used * 1000:>7.0f} {n / used:>13.0f}")


if __name__ == "__main__":
    main()
