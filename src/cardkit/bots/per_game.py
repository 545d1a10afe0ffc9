""":class:`PerGameBot`: one bot name, a different algorithm per game.

A level (:mod:`cardkit.bots.levels`) is one bot a player picks before knowing which game
it will play, but the strongest recipe is not the same in every game (see docs/bots.md,
*Levels*). A :class:`PerGameBot` holds a default bot and, per game name, another one; each
decision goes to the bot of the game the :class:`~cardkit.core.seat.SeatState` belongs
to. The bots are built once, when the :class:`PerGameBot` is, so a game's bot keeps no
state from another game's decisions that could matter (none of them keeps any).
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from cardkit.bots.explain import Explanation
from cardkit.core.seat import SeatState

__all__ = ["PerGameBot"]


class PerGameBot:
    """Plays ``games[name]`` in the game called ``name`` and ``default`` in the others."""

    name = "per-game"

    def __init__(self, default: Any, games: Mapping[str, Any]) -> None:
        self.default = default
        self.games = dict(games)

    def bot_for(self, game_name: str) -> Any:
        """The bot that plays ``game_name``."""
        return self.games.get(game_name, self.default)

    @property
    def limit(self) -> Any:
        """The default bot's budget (:class:`~cardkit.bots.Limit`)."""
        return self.default.limit

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The game's bot's choice."""
        return self.bot_for(seat_state.rules.name).choose(seat_state, rng)

    def explain(self, seat_state: SeatState, rng: random.Random, top: int = 3) -> tuple[Explanation, ...]:
        """The game's bot's explanation (``top`` is passed on unless it is the default 3: a
        rule bot's ``explain`` takes none)."""
        bot = self.bot_for(seat_state.rules.name)
        if top == 3:
            return bot.explain(seat_state, rng)  # type: ignore[no-any-return]
        return bot.explain(seat_state, rng, top)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        games = ", ".join(f"{name!r}: {bot!r}" for name, bot in sorted(self.games.items()))
        return f"PerGameBot({self.default!r}, {{{games}}})"
