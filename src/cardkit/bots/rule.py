""":class:`RuleBot`: a hand-written heuristic per built-in game, with a one-line reason."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable

from cardkit.bots.base import require_turn
from cardkit.bots.explain import Explanation
from cardkit.bots.heuristics import crazy_eights, cutthroat_spades, spacc_u_mazz, wizard
from cardkit.core.seat import SeatState
from cardkit.errors import UnknownGameError

if TYPE_CHECKING:
    from cardkit.kernels._base import Kernel

__all__ = ["RuleBot", "HEURISTICS"]

Heuristic = Callable[[SeatState], tuple[Any, str]]

HEURISTICS: dict[str, Heuristic] = {
    "crazy-eights": crazy_eights.choose,
    "cutthroat-spades": cutthroat_spades.choose,
    "spacc-u-mazz": spacc_u_mazz.choose,
    "wizard": wizard.choose,
}
"""Game name → strategy (``seat_state -> (action, reason)``)."""


class RuleBot:
    """A fixed strategy per built-in game (deterministic: it ignores the rng).

    * Wizard: bids from Wizards, trumps and aces; plays to make its bid exactly.
    * Cutthroat Spades: looks, bids from spades and high cards, nil when weak; plays to its bid.
    * Crazy Eights: sheds costly cards of its long suits, keeps eights for last and names
      its longest suit.
    * Spacc 'u Mazz: plays its lowest playable rank, keeps 2s and 10s, draws rather than
      picking up the pile.
    """

    name = "rule"

    def _heuristic(self, seat_state: SeatState) -> Heuristic:
        game = seat_state.rules.name
        heuristic = HEURISTICS.get(game)
        if heuristic is None:
            raise UnknownGameError(
                f"RuleBot has no strategy for {game!r}; it knows {', '.join(sorted(HEURISTICS))}"
            )
        return heuristic

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """The strategy's action (always one of ``seat_state.legal_actions``)."""
        return self.reason(seat_state)[0]

    def choose_id(self, kernel: Kernel, rng: random.Random) -> int:
        """The same choice on a game kernel (``kernel.rule_action()``, which every kernel
        proves equal to this bot: ``cardkit.testing.check_kernel``)."""
        return kernel.rule_action()

    def explain(self, seat_state: SeatState, rng: random.Random | None = None) -> tuple[Explanation, ...]:
        """The strategy's choice as one :class:`~cardkit.bots.Explanation` (value 1.0: a
        fixed strategy rates no alternatives), with its one-line reason; ``rng`` is
        accepted for the common bot interface and ignored."""
        action, reason = self.reason(seat_state)
        return (Explanation(action, 1.0, reason),)

    def reason(self, seat_state: SeatState) -> tuple[Any, str]:
        """The action and a one-line reason a person can read."""
        legal = require_turn(seat_state)
        heuristic = self._heuristic(seat_state)
        if len(legal) == 1:
            return legal[0], f"{legal[0]}: the only legal action"
        action, reason = heuristic(seat_state)
        if action not in legal:  # a strategy bug must never become an illegal move
            return legal[0], f"{legal[0]}: fallback (the strategy proposed {action})"
        return action, reason

    def __repr__(self) -> str:
        return "RuleBot()"
