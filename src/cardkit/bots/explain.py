""":class:`Explanation`: one action a bot considers, with its value and a reason a player can read."""

from __future__ import annotations

from typing import Any

import attrs

__all__ = ["Explanation"]


@attrs.frozen
class Explanation:
    """One row of ``bot.explain(seat_state, rng)``: ``action`` (one of the seat's legal
    actions), ``value`` (the bot's estimate of it in [0, 1]: for a search the mean payoff of
    the deals it searched, about the chance of winning; for a fixed strategy 1.0 for its
    choice) and ``reason`` (one line, such as ``"play 3♣: keeps the 8 for later"``).
    ``visits`` is how many search iterations tried the action (``None`` for bots that do
    not search). ``explain`` lists rows in the bot's order of preference: the first is what
    ``choose`` plays with the same rng."""

    action: Any
    """The action (one of ``seat_state.legal_actions``)."""

    value: float
    """The bot's estimate of the action, in [0, 1]."""

    reason: str
    """One line a player can read."""

    visits: int | None = None
    """Search iterations that tried the action (``None``: not a search)."""
