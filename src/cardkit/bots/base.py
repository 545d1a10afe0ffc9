"""The :class:`Bot` protocol and :class:`RandomBot`.

A bot receives a :class:`~cardkit.core.seat.SeatState` (what its seat knows, never the
full state) and an explicit ``random.Random``; it returns one of
``seat_state.legal_actions``. Given the same seat state and an rng in the same state, a bot
returns the same action (``ISMCTSBot`` with ``time_ms`` excepted).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from cardkit.bots.explain import Explanation
from cardkit.core.seat import SeatState
from cardkit.errors import IllegalActionError

if TYPE_CHECKING:
    from cardkit.kernels._base import Kernel

__all__ = ["Bot", "RandomBot", "require_turn"]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(seat_state, rng) -> action``."""

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """One of ``seat_state.legal_actions``."""
        ...


def require_turn(seat_state: SeatState) -> tuple[Any, ...]:
    """The legal actions, or :class:`IllegalActionError` when the seat is not to act."""
    if not seat_state.is_my_turn or not seat_state.legal_actions:
        raise IllegalActionError(
            f"seat {seat_state.seat} is not to act: a bot can only choose on its own turn",
            None,
            seat_state.seat,
        )
    return seat_state.legal_actions


class RandomBot:
    """Plays a legal action chosen uniformly with the rng it is given."""

    name = "random"

    def choose(self, seat_state: SeatState, rng: random.Random) -> Any:
        """A uniformly random legal action."""
        actions = require_turn(seat_state)
        return actions[rng.randrange(len(actions))]

    def explain(self, seat_state: SeatState, rng: random.Random) -> tuple[Explanation, ...]:
        """Every legal action at the same value (the chance of being picked): first the
        one :meth:`choose` picks with an rng in the same state, then the others in legal order."""
        actions = require_turn(seat_state)
        pick = actions[rng.randrange(len(actions))]
        share = 1.0 / len(actions)
        order = [pick, *(a for a in actions if a != pick)]
        return tuple(Explanation(a, share, f"{a}: any legal action is as good to a random player") for a in order)

    def choose_id(self, kernel: Kernel, rng: random.Random) -> int:
        """The same choice on a game kernel: ``kernel.legal()`` lists the action ids in the
        order of ``legal_actions``, so the same rng call picks the same action."""
        legal = kernel.legal()
        return legal[rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomBot()"
