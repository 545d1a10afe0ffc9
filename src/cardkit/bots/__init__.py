"""Bots that never peek: they see a :class:`~cardkit.core.seat.SeatState`, not the state.

* :class:`RandomBot` — a uniformly random legal action.
* :class:`RuleBot` — a hand-written strategy per built-in game, with ``explain``.
* :class:`ISMCTSBot` — information-set Monte Carlo tree search over ``seat_state.sample``.
* :func:`make_bot` — a bot from its text spec (``random``, ``rule``, ``ismcts:1000``).
* :mod:`cardkit.bots.arena` — many games between bots, seats rotated, with intervals.

Every bot is ``choose(seat_state, rng) -> action`` with an explicit ``random.Random``;
none touches global randomness or the game's chance stream.
"""

from __future__ import annotations

from cardkit.bots.base import Bot, RandomBot
from cardkit.bots.ismcts import ISMCTSBot
from cardkit.bots.rule import RuleBot
from cardkit.bots.spec import make_bot
from cardkit.core.seat import SeatState

__all__ = ["Bot", "RandomBot", "RuleBot", "ISMCTSBot", "SeatState", "make_bot"]
