"""Bots that never peek: they see a :class:`~cardkit.core.seat.SeatState`, not the state.

* :class:`RandomBot` — a uniformly random legal action.
* :class:`RuleBot` — a hand-written strategy per built-in game, with ``explain``.
* :class:`ISMCTSBot` — information-set Monte Carlo tree search over ``seat_state.sample``.
* :class:`PIMCBot` — perfect-information Monte Carlo: every legal action tried in belief-weighted deals.
* :class:`PerGameBot` — one bot per game (how a level plays a recipe per game).
* :func:`make_bot` — a bot from its text spec (``level:3``, ``random``, ``rule``, ``ismcts:1000``, ``pimc:1000``).
* :data:`LEVELS` — the five levels (``level:1`` beginner ... ``level:5`` expert), the list a
  lobby shows; :class:`BeginnerBot` is level 1.
* :class:`Limit` — a search budget (iterations and/or milliseconds).
* :class:`Explanation` — one row of ``bot.explain(seat_state, rng)``: action, value, reason.
* :mod:`cardkit.bots.arena` — many games between bots, seats rotated, with intervals.

Every bot is ``choose(seat_state, rng) -> action`` with an explicit ``random.Random``;
none touches global randomness or the game's chance stream.
"""

from __future__ import annotations

from cardkit.bots.base import Bot, RandomBot
from cardkit.bots.explain import Explanation
from cardkit.bots.ismcts import ISMCTSBot
from cardkit.bots.levels import DEFAULT_LEVEL, LEVELS, BeginnerBot, Level, level_bot
from cardkit.bots.limit import Limit
from cardkit.bots.per_game import PerGameBot
from cardkit.bots.pimc import PIMCBot
from cardkit.bots.rule import RuleBot
from cardkit.bots.spec import make_bot
from cardkit.core.seat import SeatState

__all__ = [
    "Bot", "RandomBot", "RuleBot", "ISMCTSBot", "PIMCBot", "PerGameBot", "BeginnerBot", "SeatState", "make_bot",
    "LEVELS", "DEFAULT_LEVEL", "Level", "level_bot", "Limit", "Explanation",
]
