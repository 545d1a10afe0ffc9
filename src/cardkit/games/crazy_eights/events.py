"""Crazy Eights events (past tense). Fields that may hide cards are optional: the
redacted form a seat receives has ``None`` where it may not see the cards."""

from __future__ import annotations

from typing import Literal, Union

import attrs

from cardkit.cards import Card, Suit

__all__ = [
    "CrazyEightsEvent",
    "DealerChosen",
    "HandDealt",
    "CardPlayed",
    "DirectionReversed",
    "TurnSkipped",
    "CardsDrawn",
    "Passed",
    "ReshuffleNeeded",
    "StockRebuilt",
    "HandEnded",
    "NextHandDue",
    "GameEnded",
    "EVENT_TYPES",
]


@attrs.frozen(weakref_slot=False)
class DealerChosen:
    """The first dealer was chosen (chance)."""

    dealer: int


@attrs.frozen(weakref_slot=False)
class HandDealt:
    """A hand was dealt and the starter turned; ``buried`` 8s went to the bottom of the stock.

    Host side ``hands`` and ``stock`` (top first) are complete; a seat sees only its own
    hand, a spectator none, and nobody the stock.
    """

    hand_number: int
    dealer: int
    hand_sizes: tuple[int, ...]
    hands: tuple[tuple[Card, ...] | None, ...]
    starter: Card
    buried: int
    stock_size: int
    stock: tuple[Card, ...] | None


@attrs.frozen(weakref_slot=False)
class CardPlayed:
    """``seat`` played ``card`` (naming ``suit`` with an 8); ``next_seat`` is to act (None: hand over)."""

    seat: int
    card: Card
    suit: Suit | None
    pending_draw: int
    next_seat: int | None


@attrs.frozen(weakref_slot=False)
class DirectionReversed:
    """An ace reversed play; ``direction`` is the new one (1 clockwise, -1 anticlockwise)."""

    direction: int


@attrs.frozen(weakref_slot=False)
class TurnSkipped:
    """``seat`` lost its turn (jack, or queen of spades)."""

    seat: int


@attrs.frozen(weakref_slot=False)
class CardsDrawn:
    """``seat`` took ``count`` cards from the top of the stock (``cards`` hidden from others).

    ``reason``: ``"draw"`` (a chosen draw; the seat may then play the drawn card),
    ``"pending"`` (the pending total of 2s), ``"penalty"`` (the queen of spades).
    ``next_seat`` is to act afterwards (None: the drawing seat continues).
    ``turn`` is true when this event is the seat's own action.
    """

    seat: int
    count: int
    cards: tuple[Card, ...] | None
    reason: Literal["draw", "pending", "penalty"]
    next_seat: int | None
    turn: bool


@attrs.frozen(weakref_slot=False)
class Passed:
    """``seat`` passed; ``next_seat`` is to act unless the hand ends with it (blocked)."""

    seat: int
    next_seat: int | None


@attrs.frozen(weakref_slot=False)
class ReshuffleNeeded:
    """The stock ran out while ``seat`` still had ``owed`` cards to take: a chance shuffle follows.

    ``next_seat`` and ``reason`` are those of the draw being completed.
    """

    seat: int
    owed: int
    reason: Literal["draw", "pending", "penalty"]
    next_seat: int | None


@attrs.frozen(weakref_slot=False)
class StockRebuilt:
    """The discard pile but its top card became the new stock (``cards`` top first, host side)."""

    count: int
    cards: tuple[Card, ...] | None


@attrs.frozen(weakref_slot=False)
class HandEnded:
    """A hand ended (``winner`` went out, or the hand was ``blocked``); every hand is shown.

    ``totals`` are the values of the cards left per seat, ``points`` what each seat
    scores for the hand (rules 20-21).
    """

    hand_number: int
    blocked: bool
    winner: int | None
    hands: tuple[tuple[Card, ...], ...]
    totals: tuple[int, ...]
    points: tuple[int, ...]


@attrs.frozen(weakref_slot=False)
class NextHandDue:
    """The match goes on; ``dealer`` deals the next hand (after a chance shuffle)."""

    dealer: int


@attrs.frozen(weakref_slot=False)
class GameEnded:
    """The game is over: final ``scores`` and ``winners`` (ascending; empty for a draw)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


EVENT_TYPES: tuple[type, ...] = (
    DealerChosen,
    HandDealt,
    CardPlayed,
    DirectionReversed,
    TurnSkipped,
    CardsDrawn,
    Passed,
    ReshuffleNeeded,
    StockRebuilt,
    HandEnded,
    NextHandDue,
    GameEnded,
)
"""Every Crazy Eights event class (registered with serde through ``Rules.event_types``)."""

CrazyEightsEvent = Union[
    DealerChosen, HandDealt, CardPlayed, DirectionReversed, TurnSkipped, CardsDrawn, Passed,
    ReshuffleNeeded, StockRebuilt, HandEnded, NextHandDue, GameEnded,
]  # fmt: skip
"""Any Crazy Eights event."""
