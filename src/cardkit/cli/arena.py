"""``cardkit arena``: bots against bots, seats rotated, win shares with 95% intervals.

    cardkit arena wizard --players 3 --bots ismcts:1000,rule,random --games 300 \\
        --seed 1 --workers 2 -o rounds=5 [--json]

Results depend only on the arguments, never on ``--workers`` (see
:mod:`cardkit.bots.arena`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(sub: Any, parse_option: Any) -> None:
    """Register the ``arena`` subcommand on the ``cardkit`` subparsers."""
    arena = sub.add_parser(
        "arena",
        help="play bots against each other (seats rotated) and print win shares",
        description=(
            "Play GAMES games between the bots listed in --bots (one per seat); game g seats "
            "bot (s + g) % N at seat s. Prints each bot's win share (ties shared) with a 95% "
            "Wilson interval, its mean score, and the unfinished games."
        ),
    )
    arena.add_argument("game")
    arena.add_argument("--players", type=int, required=True)
    arena.add_argument(
        "--bots", required=True,
        help="one bot per seat, comma-separated: random, rule, ismcts, ismcts:ITERATIONS[:C[:OPPONENTS[:BELIEFS[:ENGINE]]]] (OPPONENTS: search or policy; BELIEFS: uniform or policy; ENGINE: auto, kernel or reducer)",
    )  # fmt: skip
    arena.add_argument("--games", type=int, default=None, help="a multiple of --players (default 10x players)")
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--workers", type=int, default=1, help="processes (results do not depend on it)")
    arena.add_argument("--max-actions", type=int, default=5000, help="seat actions before a game counts as unfinished")
    arena.add_argument(
        "--engine", choices=("auto", "kernel", "reducer"), default="auto",
        help="auto (default): whole games on the game's compiled kernel when it has one and "
             "every bot is random or rule; kernel: require it; reducer: the reference reducer",
    )  # fmt: skip
    arena.add_argument("--json", action="store_true", help="print the report as JSON")
    arena.add_argument("--option", "-o", action="append", type=parse_option, metavar="KEY=VALUE")
    arena.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the arena described by ``args`` and print the report."""
    from cardkit.bots.arena import run_arena  # on use: `cardkit games` must not load the bots

    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    games = args.games if args.games is not None else 10 * args.players
    report = run_arena(
        args.game,
        args.players,
        specs,
        games,
        seed=args.seed,
        workers=args.workers,
        options=dict(args.option or []),
        max_actions=args.max_actions,
        engine=args.engine,
    )
    if args.json:
        print(json.dumps(report.as_json(), indent=2, sort_keys=True))
    else:
        print(report.table())
    return 0
