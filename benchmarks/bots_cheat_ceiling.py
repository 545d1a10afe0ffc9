"""The all-seeing ceiling of issue 26: ISMCTS shown every card, against two RuleBots.

    PYTHONPATH=src python benchmarks/bots_cheat_ceiling.py [--game wizard] [--iterations 5000]
        [--games 60] [--seed 2026] [--workers 1]

For measuring only, never a bot a player meets: every decision of the search's seat is
searched on the **true** state (every determinization is the real deal, no beliefs; the
game's own opponent model and playouts, as level 5 plays them), so
its share against two RuleBots is what the search could reach with perfect knowledge of
the hidden cards at that budget (level 5's: 5,000 iterations). The gap between it and
the fair search is what the model of the hidden hands is worth.

How it cheats, in this script only: ``Game.seat_state`` is wrapped to remember the state
it was asked about, and the kernel search's samplers (:mod:`cardkit.bots.kernel_search`)
are replaced by one that copies the kernel of that state. Games run in this process
(``--workers`` > 1 forks workers that inherit the patch). The same fair arena as
``benchmarks/bots_strength.py`` (duplicate deals, seats rotated) and the same short games.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import cardkit.bots.kernel_search as kernel_search
from cardkit.bots import pimc, search_cutthroat_spades, search_spacc_u_mazz, search_wizard
from cardkit.bots.arena import run_arena
from cardkit.core.game import Game
from cardkit.kernels.search import Sampler

SHORT: dict[str, dict[str, Any]] = {
    "wizard": {"rounds": 5},
    "cutthroat-spades": {"max_hands": 3, "wins_needed": 1},
    "crazy-eights": {},
    "spacc-u-mazz": {},
}

_SEEN: list[Any] = [None]


def _install() -> None:
    seat_state = Game.seat_state

    def remembering(self: Game[Any, Any], seat: int) -> Any:
        _SEEN[0] = self.state
        return seat_state(self, seat)

    def true_sampler(seat_state: Any, bridge: Any, *rest: Any, **options: Any) -> Sampler:
        return Sampler(bridge.kernel(_SEEN[0]))

    Game.seat_state = remembering  # type: ignore[method-assign]
    # every module that searches on sampled deals imported the samplers by name
    for module in (kernel_search, pimc, search_spacc_u_mazz, search_wizard, search_cutthroat_spades):
        if hasattr(module, "deal_sampler"):
            module.deal_sampler = true_sampler
        if hasattr(module, "pool_sampler"):
            module.pool_sampler = lambda *rest: None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="wizard", choices=tuple(SHORT))
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--games", type=int, default=60, help="a multiple of 3")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--bot", default=None,
        help="the searching bot's spec (default: ismcts:ITERATIONS:0.7::uniform:kernel, the game's own "
        "opponent model); e.g. level:5 for level 5's own recipe shown every card",
    )  # fmt: skip
    args = parser.parse_args()
    _install()
    start = time.perf_counter()
    spec = args.bot or f"ismcts:{args.iterations}:0.7::uniform:kernel"
    report = run_arena(args.game, 3, [spec, "rule", "rule"], args.games, args.seed, args.workers,
                       SHORT[args.game], design="rotations")  # fmt: skip
    print(report.table())
    bot = report.bots[0]
    print(
        f"all-seeing {spec} vs two RuleBots, {args.game} {SHORT[args.game]}: share "
        f"{bot.share:.3f} [{bot.low:.3f}, {bot.high:.3f}] over {report.games} games, seed {args.seed} "
        f"({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
