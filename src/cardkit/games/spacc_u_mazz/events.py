"""Spacc 'u Mazz events (past tense).

Fields that may hide cards are optional: the redacted form a viewer receives has
``None`` there (``HandDealt`` of another seat, every ``FaceDownDealt`` and
``StockFormed``, another seat's ``CardDrawn``; a ``StarterDrawn`` and a ``BlindFailed``
are shown to all, since everyone saw the card). Every seat action ends with exactly one
*closing* event: ``TurnStarted`` (the next seat is to act), ``ChoiceOffered`` (the same
seat decides what its red joker does) or ``HandEnded``.
"""

from __future__ import annotations

from typing import Literal, Union

import attrs

from cardkit.cards import Card

__all__ = [
    "SpaccEvent",
    "FirstDealerChosen",
    "HandStarted",
    "HandDealt",
    "FaceUpDealt",
    "FaceDownDealt",
    "StarterBuried",
    "StarterTurned",
    "StockFormed",
    "CardsPlayed",
    "PileBurned",
    "BlindPlayed",
    "BlindFailed",
    "JokerRevealed",
    "CardDrawn",
    "StarterDrawn",
    "JokerDrawn",
    "PenaltyWaived",
    "PileTaken",
    "Passed",
    "ChoiceOffered",
    "HandDumped",
    "HandKept",
    "CardRemoved",
    "RemovalDeclined",
    "PlayerWentOut",
    "TurnStarted",
    "HandEnded",
    "CardsRevealed",
    "HandScored",
    "GameEnded",
    "EVENT_TYPES",
]

StockName = Literal["main", "reserve"]


@attrs.frozen(weakref_slot=False)
class FirstDealerChosen:
    """Chance chose the first dealer."""

    dealer: int


@attrs.frozen(weakref_slot=False)
class HandStarted:
    """Hand ``hand_number`` (from 1) began: every card went back to its pack; ``dealer`` deals."""

    hand_number: int
    dealer: int


@attrs.frozen(weakref_slot=False)
class HandDealt:
    """``seat`` received ``count`` hand cards (rule 3); ``cards`` is None for other viewers."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None


@attrs.frozen(weakref_slot=False)
class FaceUpDealt:
    """``seat`` received its face-up ``cards`` (rule 3; public)."""

    seat: int
    cards: tuple[Card, ...]


@attrs.frozen(weakref_slot=False)
class FaceDownDealt:
    """``seat`` received ``count`` face-down cards (rule 4); ``cards`` is host side only."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None


@attrs.frozen(weakref_slot=False)
class StarterBuried:
    """A turned ``card`` (joker or 10) went to the bottom of the main stock (rule 5)."""

    card: Card


@attrs.frozen(weakref_slot=False)
class StarterTurned:
    """``card`` was turned up as the starting card: the first card of the pile (rule 5)."""

    card: Card


@attrs.frozen(weakref_slot=False)
class StockFormed:
    """The ``stock`` (main: rest of pack A; reserve: pack B) of ``size`` cards, top first.

    ``cards`` is host side only.
    """

    stock: StockName
    size: int
    cards: tuple[Card, ...] | None


@attrs.frozen(weakref_slot=False)
class CardsPlayed:
    """``seat`` played ``hand`` and ``up`` (face-up) cards of one rank; ``reference`` after it."""

    seat: int
    hand: tuple[Card, ...]
    up: tuple[Card, ...]
    reference: str | None


@attrs.frozen(weakref_slot=False)
class PileBurned:
    """A 10 removed the whole pile (``cards``, the 10 included) from the game (rule 21)."""

    seat: int
    cards: tuple[Card, ...]


@attrs.frozen(weakref_slot=False)
class BlindPlayed:
    """``seat`` played face-down card ``position`` blind: ``card`` was legal (rule 12)."""

    seat: int
    position: int
    card: Card
    reference: str | None


@attrs.frozen(weakref_slot=False)
class BlindFailed:
    """``seat``'s blind ``card`` was not playable: it goes to the hand with the pile (rule 12).

    ``card`` is None for other viewers (see the docs: a card in a hand is private).
    """

    seat: int
    position: int
    card: Card | None


@attrs.frozen(weakref_slot=False)
class JokerRevealed:
    """``seat`` revealed joker ``card`` as face-down card ``position`` (rule 19); it leaves the game."""

    seat: int
    position: int
    card: Card


@attrs.frozen(weakref_slot=False)
class CardDrawn:
    """``seat`` drew from the ``stock`` (``penalty``: rule 19/20 black joker); ``card`` private."""

    seat: int
    stock: StockName
    penalty: bool
    card: Card | None


@attrs.frozen(weakref_slot=False)
class StarterDrawn:
    """``seat`` drew ``card`` from the main stock, a starting card buried face up at its
    bottom (rule 5): every seat saw it, so unlike :class:`CardDrawn` it is shown to all
    (``penalty``: rule 19/20 black joker)."""

    seat: int
    penalty: bool
    card: Card


@attrs.frozen(weakref_slot=False)
class JokerDrawn:
    """``seat`` drew joker ``card`` from the ``stock``; it acts and leaves the game (rule 20)."""

    seat: int
    stock: StockName
    penalty: bool
    card: Card


@attrs.frozen(weakref_slot=False)
class PenaltyWaived:
    """A black joker's penalty draw found both stocks empty: nothing was drawn."""

    seat: int


@attrs.frozen(weakref_slot=False)
class PileTaken:
    """``seat`` took the whole pile (``cards``, bottom first) into the hand."""

    seat: int
    cards: tuple[Card, ...]


@attrs.frozen(weakref_slot=False)
class Passed:
    """``seat`` could do nothing (rule 15)."""

    seat: int


@attrs.frozen(weakref_slot=False)
class ChoiceOffered:
    """``seat`` must decide what its red joker does: ``dump``/``keep`` or ``remove``/``decline``."""

    seat: int
    choice: Literal["dump", "remove"]


@attrs.frozen(weakref_slot=False)
class HandDumped:
    """``seat`` threw its whole hand (``cards``) onto the pile (rule 20); new ``reference``."""

    seat: int
    cards: tuple[Card, ...]
    reference: str | None


@attrs.frozen(weakref_slot=False)
class HandKept:
    """``seat`` kept its hand after drawing the red joker."""

    seat: int


@attrs.frozen(weakref_slot=False)
class CardRemoved:
    """``seat`` removed its ``card`` from the game: face ``zone`` ``up`` or ``down`` (``position``
    from 1 for a face-down card, 0 for face up)."""

    seat: int
    zone: Literal["up", "down"]
    position: int
    card: Card


@attrs.frozen(weakref_slot=False)
class RemovalDeclined:
    """``seat`` removed nothing with its red joker."""

    seat: int


@attrs.frozen(weakref_slot=False)
class PlayerWentOut:
    """``seat`` has no cards left: it finished in ``place`` (1 = winner of the hand)."""

    seat: int
    place: int


@attrs.frozen(weakref_slot=False)
class TurnStarted:
    """``seat`` is to act next."""

    seat: int


@attrs.frozen(weakref_slot=False)
class HandEnded:
    """The hand ended (``out``: rule 22; ``max_turns``: rule 23); ``places`` best first."""

    hand_number: int
    reason: Literal["out", "max_turns"]
    places: tuple[int, ...]


@attrs.frozen(weakref_slot=False)
class CardsRevealed:
    """At the end of a hand ``seat`` still held ``hand``, ``face_up`` and ``face_down`` (public)."""

    seat: int
    hand: tuple[Card, ...]
    face_up: tuple[Card, ...]
    face_down: tuple[Card, ...]


@attrs.frozen(weakref_slot=False)
class HandScored:
    """Rules 24-27: ``points`` of the hand per seat, the ``variable`` points of the last
    player's cards, and the match ``totals``."""

    points: tuple[int, ...]
    variable: int
    totals: tuple[int, ...]


@attrs.frozen(weakref_slot=False)
class GameEnded:
    """The game is over: final ``scores`` and ``winners`` (ascending)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


EVENT_TYPES: tuple[type, ...] = (
    FirstDealerChosen, HandStarted, HandDealt, FaceUpDealt, FaceDownDealt, StarterBuried,
    StarterTurned, StockFormed, CardsPlayed, PileBurned, BlindPlayed, BlindFailed,
    JokerRevealed, CardDrawn, StarterDrawn, JokerDrawn, PenaltyWaived, PileTaken, Passed,
    ChoiceOffered, HandDumped, HandKept, CardRemoved, RemovalDeclined, PlayerWentOut,
    TurnStarted, HandEnded, CardsRevealed, HandScored, GameEnded,
)  # fmt: skip
"""Every event class (registered with serde through ``Rules.event_types``)."""

SpaccEvent = Union[
    FirstDealerChosen, HandStarted, HandDealt, FaceUpDealt, FaceDownDealt, StarterBuried,
    StarterTurned, StockFormed, CardsPlayed, PileBurned, BlindPlayed, BlindFailed,
    JokerRevealed, CardDrawn, StarterDrawn, JokerDrawn, PenaltyWaived, PileTaken, Passed,
    ChoiceOffered, HandDumped, HandKept, CardRemoved, RemovalDeclined, PlayerWentOut,
    TurnStarted, HandEnded, CardsRevealed, HandScored, GameEnded,
]  # fmt: skip
"""Any Spacc 'u Mazz event."""
