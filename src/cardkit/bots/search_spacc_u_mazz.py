"""Spacc 'u Mazz: :class:`EagerShedderBot`, the rule strategy without its costly draw.

The rule strategy (:mod:`cardkit.bots.heuristics.spacc_u_mazz`) draws a card rather than
play a 2 or a 10 when those are all it could play, to keep them for later. Measured
against two RuleBots, that one habit is its main weakness: a seat that plays the 2 (a 2
before a 10, fewest copies first, the rule's own order when it has to) instead of
drawing wins about 0.58 of the hands (docs/bots.md, *Levels*), where searches over
determinizations stayed at or below an even third (a hand lasts hundreds of turns; cut
playouts judge a position poorly, and whole playouts cost too much per decision).

It reads only the seat's :class:`~cardkit.core.seat.SeatState` (its masked state and
legal actions), like the rule bot, and is deterministic.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from cardkit.bots.base import require_turn
from cardkit.bots.explain import Explanation
from cardkit.bots.heuristics import spacc_u_mazz
from cardkit.bots.rule import RuleBot
from cardkit.core.seat import SeatState
from cardkit.games.spacc_u_mazz.actions import Draw, Play

__all__ = ["EagerShedderBot", "eager_decide"]


def eager_decide(state: Any, seat: int, legal: Sequence[Any]) -> tuple[Any, str]:
    """The rule strategy's action, except that where it would draw while a 2 or a 10 is
    playable it plays one (a 2 before a 10, fewest copies first); with the reason."""
    action, reason = spacc_u_mazz.decide(state, seat, legal)
    if type(action) is Draw:
        best: Any = None
        best_key = (True, 99)
        for a in legal:
            if type(a) is Play:
                cards = a.hand or a.up
                key = (cards[0].rank != 2, len(a.hand) + len(a.up))
                if key < best_key:
                    best, best_key = a, key
        if best is not None:
            return best, f"{best}: a card shed now beats a card drawn"
    return action, reason()


class EagerShedderBot:
    """Spacc 'u Mazz's level 3 (see the module docs): the rule strategy, but never a draw
    while a 2 or a 10 could be played. Other games: the rule strategy."""

    name = "eager-shedder"

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The strategy's action (``rng`` unused: the strategy is deterministic)."""
        return self.explain(seat_state, rng)[0].action

    def explain(self, seat_state: SeatState, rng: random.Random | None = None) -> tuple[Explanation, ...]:
        """The strategy's choice as one :class:`~cardkit.bots.Explanation` (value 1.0)."""
        legal = require_turn(seat_state)
        if seat_state.rules.name != "spacc-u-mazz":
            return RuleBot().explain(seat_state, rng)
        action, reason = eager_decide(seat_state.masked, seat_state.seat, legal)
        return (Explanation(action, 1.0, reason),)

    def __repr__(self) -> str:
        return "EagerShedderBot()"
