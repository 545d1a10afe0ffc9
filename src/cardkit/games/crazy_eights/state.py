"""The Crazy Eights state: everything, host side."""

from __future__ import annotations

from typing import Literal

import attrs

from cardkit.cards import Card, Suit
from cardkit.core.records import maker, replacer
from cardkit.core.rules import Result
from cardkit.games.crazy_eights.config import CrazyEightsConfig

__all__ = ["CrazyEightsState", "Owed", "make_state", "replace_state"]


@attrs.frozen
class Owed:
    """Cards still to be drawn by ``seat`` once the stock is rebuilt (see ReshuffleNeeded)."""

    seat: int
    count: int
    reason: Literal["draw", "pending", "penalty"]
    next_seat: int | None


@attrs.frozen(weakref_slot=False)  # no __weakref__ slot: see cardkit.core.records
class CrazyEightsState:
    """Full state. ``to_act`` is a seat, ``CHANCE`` (-1), or None when the game is over.

    ``dealer`` is -1 and ``hand_number`` 0 before the first deal. ``stock`` is top first,
    ``discard`` bottom first. ``drawn`` is the card the seat to act drew this turn (it may
    then play only that card). ``passes`` counts the passes in a row that rule 8 counts
    towards a blocked hand (made without drawing that turn, holding nothing playable);
    ``turns`` the seat actions of this hand. ``hand_points`` are the points of the last
    scored hand (zeros before); ``revealed`` is true between the end of a hand and the
    next deal, when every hand is shown.
    """

    config: CrazyEightsConfig
    to_act: int | None
    dealer: int
    hand_number: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    active_suit: Suit | None
    direction: int
    pending_draw: int
    drawn: Card | None
    passes: int
    turns: int
    scores: tuple[int, ...]
    hand_points: tuple[int, ...]
    revealed: bool
    owed: Owed | None
    result: Result | None


make_state = maker(CrazyEightsState)
"""``make_state(config, to_act, ...)``: ``CrazyEightsState(...)`` from every field in order, built cheaply."""
replace_state = replacer(CrazyEightsState)
"""``replace_state(state, field=value, ...)``: ``attrs.evolve`` of a state, built cheaply."""
