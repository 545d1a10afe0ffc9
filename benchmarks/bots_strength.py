"""Bot strength floors: 3-player arenas on short games, seats rotated, 95% Wilson intervals.

    PYTHONPATH=src python benchmarks/bots_strength.py [--games G] [--only NAME ...] [--workers W]

Each line runs ``cardkit.bots.arena.run_arena`` (the same code as ``cardkit arena``). The
short games: Wizard ``rounds=5``, Cutthroat Spades ``max_hands=3, wins_needed=1`` (one
game of at most three hands), a single Crazy Eights hand (the default), a single Spacc
'u Mazz hand (the default). The chance share of a 3-player game is 1/3.
"""

from __future__ import annotations

import argparse
import time

from cardkit.bots.arena import run_arena

SHORT = {
    "wizard": {"rounds": 5},
    "cutthroat-spades": {"max_hands": 3, "wins_needed": 1},
    "crazy-eights": {},
    "spacc-u-mazz": {},
}

RUNS = [
    ("rule-vs-random", "wizard", "rule,random,random"),
    ("rule-vs-random", "cutthroat-spades", "rule,random,random"),
    ("rule-vs-random", "crazy-eights", "rule,random,random"),
    ("rule-vs-random", "spacc-u-mazz", "rule,random,random"),
    ("ismcts-vs-random", "wizard", "ismcts:1000,random,random"),
    ("ismcts-vs-rule", "wizard", "ismcts:1000,rule,rule"),
    ("ismcts-vs-rule", "crazy-eights", "ismcts:1000,rule,rule"),
    ("ismcts-vs-rule", "cutthroat-spades", "ismcts:1000,rule,rule"),
    ("ismcts-vs-rule", "spacc-u-mazz", "ismcts:1000,rule,rule"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per run (a multiple of 3)")
    parser.add_argument("--ismcts-games", type=int, default=None, help="games per ISMCTS run")
    parser.add_argument("--only", nargs="*", default=None, help="run labels or game names")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    for label, game, bots in RUNS:
        if args.only and label not in args.only and game not in args.only and f"{label}:{game}" not in args.only:
            continue
        games = args.games
        if "ismcts" in bots and args.ismcts_games is not None:
            games = args.ismcts_games
        start = time.perf_counter()
        report = run_arena(game, 3, bots.split(","), games, args.seed, args.workers, SHORT[game])
        elapsed = time.perf_counter() - start
        print(f"## {label} {game}")
        print(report.table())
        print(f"({elapsed:.0f} s, {args.workers} worker(s))\n", flush=True)


if __name__ == "__main__":
    main()
