"""Bot levels: ``level:1`` (a beginner) to ``level:5`` (the strongest recipe), one fixed
recipe (algorithm + budget) each, the same names everywhere a bot spec is accepted
(:func:`cardkit.bots.make_bot`, the CLI's ``--bots``, the arena, a web host's ``bots``).

:data:`LEVELS` is the one list a host or a lobby reads (number, name, summary, recipe);
docs/bots.md has the table with what each level costs and how strong it was measured.
Every level's budget is a count of iterations, never the clock, so a level plays the same
game for the same seeds on any machine; a host that needs a cap on the clock builds an
:class:`~cardkit.bots.ISMCTSBot` with ``Limit(iterations=..., time_ms=...)`` itself.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from cardkit.bots.base import require_turn
from cardkit.bots.explain import Explanation
from cardkit.bots.ismcts import ISMCTSBot
from cardkit.bots.limit import Limit
from cardkit.bots.per_game import PerGameBot
from cardkit.bots.pimc import PIMCBot
from cardkit.bots.rule import RuleBot
from cardkit.bots.search_cutthroat_spades import MCBidBot
from cardkit.bots.search_spacc_u_mazz import EagerShedderBot, ShedderSearchBot
from cardkit.bots.search_wizard import BidSearchBot
from cardkit.core.seat import SeatState
from cardkit.errors import ConfigError

__all__ = ["ALGORITHMS", "BeginnerBot", "DEFAULT_LEVEL", "LEVELS", "Level", "Recipe", "level_bot"]

ALGORITHMS: tuple[str, ...] = (
    "beginner", "rule", "ismcts", "pimc", "eager-shedder", "shedder-search", "bid-search", "mc-bid",
)
"""The algorithms a :class:`Recipe` names."""


class BeginnerBot:
    """The rule strategy with plausible slips: with probability ``mistakes`` (drawn from
    the rng it is given) it plays a *near* alternative instead of the rule bot's action:
    another action of the same kind (another card to play, another suit to name), and for
    a bid of tricks only one trick more or fewer, never a special bid it did not mean (a
    blind nil by mistake is not a beginner's error, it is a random one). With no near
    alternative it plays the rule's action. Deterministic for a given rng.

    On a game kernel (the arena's and ``cardkit simulate``'s fast path) it plays with
    :meth:`choose_id`, the same choice with the same rng calls; a slip needs the actions
    themselves, so the driver first hands it the game's action index with
    :meth:`bind_kernel` (:func:`cardkit.bots.kernel_play.bot_ids` does)."""

    name = "beginner"

    def __init__(self, mistakes: float = 0.3) -> None:
        if isinstance(mistakes, bool) or not isinstance(mistakes, (int, float)) or not 0.0 <= mistakes <= 1.0:
            raise ConfigError(f"mistakes is a share from 0 to 1, not {mistakes!r}")
        self.mistakes = float(mistakes)
        self._rule = RuleBot()
        self._actions: tuple[Any, ...] | None = None

    def bind_kernel(self, bridge: Any) -> None:
        """Remember ``bridge.actions`` (the game's action index), which :meth:`choose_id` reads."""
        self._actions = tuple(bridge.actions)

    def choose_id(self, kernel: Any, rng: random.Random) -> int:
        """:meth:`choose` on a game kernel: the id of the action :meth:`choose` returns for
        the same position and rng (the rule action is ``kernel.rule_action()``, the near
        alternatives are looked up in the bound action index, in legal order).
        :class:`ConfigError` unless :meth:`bind_kernel` was called."""
        actions = self._actions
        if actions is None:
            raise ConfigError("BeginnerBot.choose_id needs bind_kernel(bridge) first")
        best = kernel.rule_action()
        if rng.random() >= self.mistakes:
            return int(best)
        legal = [int(i) for i in kernel.legal()]
        by_action = {actions[i]: i for i in legal}
        others = self.near(actions[best], tuple(actions[i] for i in legal))
        if not others:
            return int(best)
        return by_action[others[rng.randrange(len(others))]]

    @staticmethod
    def near(best: Any, legal: tuple[Any, ...]) -> list[Any]:
        """The slips a beginner could make instead of ``best``, in legal order."""
        out = []
        for action in legal:
            if action == best or type(action) is not type(best):
                continue
            tricks, meant = getattr(action, "tricks", None), getattr(best, "tricks", None)
            if isinstance(tricks, int) and isinstance(meant, int) and abs(tricks - meant) > 1:
                continue
            out.append(action)
        return out

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The rule bot's action, or (a slip) a near alternative."""
        return self.explain(seat_state, rng)[0].action

    def explain(self, seat_state: SeatState, rng: random.Random) -> tuple[Explanation, ...]:
        """What it plays first (value 1.0), then, after a slip, the rule bot's choice it missed (0.0)."""
        legal = require_turn(seat_state)
        best, reason = self._rule.reason(seat_state)
        # One rng draw for every decision, a second only on a slip.
        if rng.random() >= self.mistakes:
            return (Explanation(best, 1.0, reason),)
        others = self.near(best, legal)
        if not others:
            return (Explanation(best, 1.0, reason),)
        other = others[rng.randrange(len(others))]
        return (
            Explanation(other, 1.0, f"{other}: a beginner's hunch"),
            Explanation(best, 0.0, f"{reason} (what a careful player would do)"),
        )

    def __repr__(self) -> str:
        return f"BeginnerBot(mistakes={self.mistakes})"


@attrs.frozen
class Recipe:
    """How a level plays: an ``algorithm`` of :data:`ALGORITHMS` and, for a search, its
    ``limit`` (``mistakes``: the beginner's share of slips); ``games``: other recipes for
    some games by name (a :class:`~cardkit.bots.per_game.PerGameBot` then plays each game
    by its own)."""

    algorithm: str = attrs.field(validator=attrs.validators.in_(ALGORITHMS))
    """``beginner``, ``rule``, ``ismcts``, ``pimc`` (:class:`~cardkit.bots.pimc.PIMCBot`),
    ``eager-shedder`` (:class:`~cardkit.bots.search_spacc_u_mazz.EagerShedderBot`),
    ``shedder-search`` (:class:`~cardkit.bots.search_spacc_u_mazz.ShedderSearchBot`: the eager
    shedder checked by whole-hand playouts), ``bid-search``
    (:class:`~cardkit.bots.search_wizard.BidSearchBot`: Monte-Carlo bidding and ISMCTS card
    play) or ``mc-bid`` (:class:`~cardkit.bots.search_cutthroat_spades.MCBidBot`: Monte-Carlo
    bidding, ISMCTS card play)."""

    limit: Limit | None = None
    """The search budget (``ismcts``, ``pimc``, ``shedder-search``, ``bid-search``, and
    ``mc-bid``'s card play)."""

    mistakes: float = 0.0
    """The share of slips (``beginner`` only)."""

    games: tuple[tuple[str, Recipe], ...] = ()
    """``(game name, recipe)`` pairs: the recipe of those games (none: this one everywhere)."""

    pool: int | None = None
    """Determinizations weighed per decision where the game has beliefs (``ismcts`` and
    ``bid-search``; ``None``: :data:`cardkit.bots.beliefs.BELIEF_POOL`)."""

    solve_at: int = 0
    """``ismcts`` and ``bid-search``: playouts end by the exact last-tricks solver once the
    bot holds at most this many cards (0: never; :mod:`cardkit.kernels.trick_solver`)."""

    bids: int | None = None
    """Playouts per bidding decision (``mc-bid`` only; ``None``: four per iteration of ``limit``)."""

    def make(self) -> Any:
        """A new bot playing this recipe."""
        if self.games:
            plain = attrs.evolve(self, games=())
            return PerGameBot(plain.make(), {name: recipe.make() for name, recipe in self.games})
        if self.algorithm == "eager-shedder":
            return EagerShedderBot()
        if self.algorithm == "bid-search":
            if self.limit is None:
                raise ConfigError("a bid-search recipe needs a limit")
            return BidSearchBot(self.limit, pool=self.pool, solve_at=self.solve_at)
        if self.algorithm == "shedder-search":
            if self.limit is None:
                raise ConfigError("a shedder-search recipe needs a limit")
            return ShedderSearchBot(self.limit)
        if self.algorithm == "pimc":
            if self.limit is None:
                raise ConfigError("a pimc recipe needs a limit")
            return PIMCBot(self.limit)
        if self.algorithm == "mc-bid":
            if self.limit is None:
                raise ConfigError("an mc-bid recipe needs a limit")
            return MCBidBot(self.limit, bid_iterations=self.bids)
        if self.algorithm == "beginner":
            return BeginnerBot(self.mistakes)
        if self.algorithm == "rule":
            return RuleBot()
        if self.limit is None:
            raise ConfigError("an ismcts recipe needs a limit")
        return ISMCTSBot(limit=self.limit, pool=self.pool, solve_at=self.solve_at)

    def __str__(self) -> str:
        if self.games:
            plain = str(attrs.evolve(self, games=()))
            return "; ".join([plain, *(f"{name}: {recipe}" for name, recipe in self.games)])
        if self.algorithm == "eager-shedder":
            return "rule strategy that sheds a 2 or a 10 rather than draw"
        solved = f", exact last {self.solve_at} tricks" if self.solve_at else ""
        if self.algorithm == "bid-search":
            return f"Monte-Carlo bidding and ISMCTS play, {self.limit}, belief pool {self.pool}{solved}"
        if self.algorithm == "shedder-search":
            return f"eager shedder checked by whole-hand playouts, {self.limit}"
        if self.algorithm == "pimc":
            return f"PIMC with belief-weighted deals, {self.limit}"
        if self.algorithm == "mc-bid":
            bids = f"{self.bids:,} playouts" if self.bids is not None else "four playouts per iteration"
            return f"Monte-Carlo bids ({bids}), ISMCTS card play, {self.limit}"
        if self.algorithm == "beginner":
            return f"rule strategy, {round(100 * self.mistakes)}% near slips"
        if self.algorithm == "rule":
            return "rule strategy"
        if self.pool is None:
            return f"ISMCTS, {self.limit}{solved}"
        return f"ISMCTS, {self.limit}, belief pool {self.pool}{solved}"


@attrs.frozen
class Level:
    """One level: ``number`` (1-5, the spec ``level:N``), a ``name`` for a lobby, a one-line
    ``summary`` and its :class:`Recipe` (with per-game recipes where another algorithm
    measured stronger: see docs/bots.md, *Levels*)."""

    number: int
    """1 (beginner) to 5 (strongest)."""

    name: str
    """A short name for a lobby (``beginner`` ... ``expert``)."""

    summary: str
    """One line: how it plays."""

    recipe: Recipe
    """Its algorithm and budget."""

    @property
    def spec(self) -> str:
        """The bot spec naming it: ``level:N``."""
        return f"level:{self.number}"


def _search(iterations: int, crazy_eights: int, spades: int, wizard: Recipe, spacc: Recipe) -> Recipe:
    # Each game its own recipe, chosen by measurement (docs/bots.md, *Levels*): ISMCTS in
    # Cutthroat Spades with ``spades`` iterations (a budget ladder: 300 already beats the
    # rule bots, and each level above searches three to four times as much; Monte-Carlo
    # bidding did not measure stronger), PIMC on belief-weighted deals in Crazy Eights,
    # Wizard's and Spacc 'u Mazz's own recipes. Any other game: ISMCTS weighing as many
    # belief samples as it runs iterations.
    return Recipe(
        "ismcts", Limit(iterations=iterations), pool=iterations,
        games=(
            ("cutthroat-spades", Recipe("ismcts", Limit(iterations=spades))),
            ("crazy-eights", Recipe("pimc", Limit(iterations=crazy_eights))),
            ("spacc-u-mazz", spacc),
            ("wizard", wizard),
        ),
    )  # fmt: skip


# Wizard (docs/bots.md, *Wizard, round 3*): level 3 is ISMCTS with as many belief samples as
# iterations (Monte-Carlo bidding and the last-tricks solver did not measure stronger at its
# budget, and the solver costs more than level 3 may); levels 4 and 5 add Monte-Carlo bidding
# and the exact solver of the last two tricks to a bigger budget (three tricks cost up to 5 s
# a bid at level 5: over its cost bound).
_WIZARD_3 = Recipe("ismcts", Limit(iterations=1000), pool=1000)
_WIZARD_4 = Recipe("bid-search", Limit(iterations=2500), pool=2500, solve_at=2)
_WIZARD_5 = Recipe("bid-search", Limit(iterations=5000), pool=5000, solve_at=2)


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", "the rule strategy, but half of its moves slip to a near alternative",
          Recipe("beginner", mistakes=0.5)),
    Level(2, "casual", "the rule strategy: sound, predictable, no look-ahead", Recipe("rule")),
    Level(3, "standard", "searches every decision, about as long as one OpenSpiel IS-MCTS decision (the default)",
          _search(1000, 1000, 300, _WIZARD_3, Recipe("eager-shedder"))),
    Level(4, "strong", "a longer search; Monte-Carlo bidding in Wizard, playouts checking the shedder in Spacc 'u Mazz",
          _search(2500, 2500, 1200, _WIZARD_4, Recipe("shedder-search", Limit(iterations=400)))),
    Level(5, "expert", "the longest search this machine plays within ten OpenSpiel IS-MCTS decisions",
          _search(5000, 5000, 4000, _WIZARD_5, Recipe("shedder-search", Limit(iterations=1000)))),
)  # fmt: skip
"""The levels, weakest first (``LEVELS[n - 1]`` is ``level:n``)."""

DEFAULT_LEVEL = 3
"""The level a host offers when nothing is asked."""


def level_bot(number: int) -> Any:
    """A new bot of level ``number`` (1-5); :class:`ConfigError` for another number."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(LEVELS):
        raise ConfigError(f"a level is a whole number from 1 to {len(LEVELS)}, not {number!r}")
    return LEVELS[number - 1].recipe.make()
