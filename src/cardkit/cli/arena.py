"""``cardkit arena``: bots against bots on duplicate deals, win shares with 95% intervals.

    cardkit arena wizard --players 3 --bots ismcts:1000,rule,random --games 300 \\
        --seed 1 --workers 2 -o rounds=5 [--design permutations|rotations|fresh] [--json]
    cardkit arena wizard --players 3 --bots ismcts:1000,ismcts:100,rule --games 1200 \\
        --sprt [--p0 0.5 --p1 0.55 --alpha 0.05 --beta 0.05]

Results depend only on the arguments, never on ``--workers`` (see
:mod:`cardkit.bots.arena`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
from typing import Any

from cardkit.cli.simulate import add_scale_arguments
from cardkit.cluster import cluster_executor
from cardkit.errors import ConfigError

__all__ = ["add_parser", "run"]


def add_parser(sub: Any, parse_option: Any) -> None:
    """Register the ``arena`` subcommand on the ``cardkit`` subparsers."""
    arena = sub.add_parser(
        "arena",
        help="play bots against each other (duplicate deals) and print win shares",
        description=(
            "Play GAMES games between the bots listed in --bots (one per seat). By default each "
            "deal is played once per seating permutation (N! games per deal, the same cards each "
            "time); --design rotations plays it once per cyclic rotation (N games per deal), "
            "--design fresh deals new cards every game with bot (s + g) % N at seat s. Prints the "
            "design, each bot's win share (ties shared) with a 95% Wilson interval, its mean score, "
            "and the unfinished games. --sprt tests whether the first bot is stronger than the "
            "second and stops as soon as the test decides (GAMES is then the most it plays)."
        ),
    )
    arena.add_argument("game")
    arena.add_argument("--players", type=int, required=True)
    arena.add_argument(
        "--bots", required=True,
        help="one bot per seat, comma-separated: level:1 to level:5, random, rule, pimc[:PLAYOUTS], mcbid[:ITERATIONS[:BID_PLAYOUTS[:METRIC[:FIGHT]]]] (Cutthroat Spades), ismcts, ismcts:ITERATIONS[:C[:OPPONENTS[:BELIEFS[:ENGINE]]]] (OPPONENTS: search or policy; BELIEFS: uniform or policy; ENGINE: auto, kernel or reducer)",
    )  # fmt: skip
    arena.add_argument(
        "--games", type=int, default=None,
        help="a multiple of the seatings per deal (N! for permutations, N otherwise); "
             "default: 2 deals under permutations, 10x players otherwise",
    )  # fmt: skip
    arena.add_argument(
        "--design", choices=("permutations", "rotations", "fresh"), default="permutations",
        help="permutations (default): each deal under every seating; rotations: under every "
             "cyclic rotation; fresh: a new deal every game, seats rotated",
    )  # fmt: skip
    arena.add_argument("--sprt", action="store_true", help="SPRT: is the first bot stronger than the second?")
    arena.add_argument("--p0", type=float, default=0.5, help="SPRT H0: the first bot's share of decisive games")
    arena.add_argument("--p1", type=float, default=0.55, help="SPRT H1: the first bot's share of decisive games")
    arena.add_argument("--alpha", type=float, default=0.05, help="SPRT: P(accept H1 | H0)")
    arena.add_argument("--beta", type=float, default=0.05, help="SPRT: P(accept H0 | H1)")
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--workers", type=int, default=1,
                       help="processes, this one included (results do not depend on it)")  # fmt: skip
    add_scale_arguments(arena)
    arena.add_argument("--max-actions", type=int, default=5000, help="seat actions before a game counts as unfinished")
    arena.add_argument(
        "--engine", choices=("auto", "kernel", "reducer"), default="auto",
        help="auto (default): whole games on the game's compiled kernel when it has one and "
             "every bot is random, rule or a beginner (level:1); kernel: require it; reducer: the reference reducer",
    )  # fmt: skip
    arena.add_argument("--json", action="store_true", help="print the report as JSON")
    arena.add_argument("--option", "-o", action="append", type=parse_option, metavar="KEY=VALUE")
    arena.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the arena described by ``args`` and print the report."""
    # on use: `cardkit games` must not load the bots
    from cardkit.bots.arena import run_arena, run_sprt, seatings
    from cardkit.bots.sprt import Sprt

    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    games = args.games
    if games is None:
        games = 2 * len(seatings(args.players, args.design)) if args.design == "permutations" else 10 * args.players
    if args.cluster is not None:
        from cardkit.cluster import parse_cluster

        parse_cluster(args.cluster)  # a bad spec is refused before any work
        if args.workers != 1:
            raise ConfigError("--workers and --cluster exclude each other (the cluster's workers play)")
    common: dict[str, Any] = dict(
        seed=args.seed, options=dict(args.option or []), max_actions=args.max_actions,
        engine=args.engine, design=args.design, chunk_size=args.chunk_size,
    )  # fmt: skip
    report: Any
    with contextlib.ExitStack() as stack:
        executor, width = stack.enter_context(cluster_executor(args.cluster))
        common.update(workers=args.workers if executor is None else width, executor=executor)
        if args.sprt:
            test = Sprt(args.p0, args.p1, args.alpha, args.beta)
            report = run_sprt(args.game, args.players, specs, games, test=test, **common)
        else:
            report = run_arena(args.game, args.players, specs, games, **common)
    if args.json:
        print(json.dumps(report.as_json(), indent=2, sort_keys=True))
    else:
        print(report.table())
    return 0
