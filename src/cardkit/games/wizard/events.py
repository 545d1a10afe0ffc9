"""Wizard events (past tense). All are public except :class:`RoundDealt`, which the
host sees whole; a seat sees it as :class:`HandDealt` (its own cards), a spectator as
:class:`RoundStarted`."""

from __future__ import annotations

import attrs

from cardkit.cards import Card, Suit

__all__ = [
    "DealerChosen",
    "RoundDealt",
    "HandDealt",
    "RoundStarted",
    "TrumpTurned",
    "TrumpChosen",
    "BidMade",
    "CardPlayed",
    "TrickWon",
    "RoundScored",
    "GameEnded",
    "WizardEvent",
]


@attrs.frozen(weakref_slot=False)
class DealerChosen:
    """Chance chose the first dealer (rule 3)."""

    seat: int


@attrs.frozen(weakref_slot=False)
class RoundDealt:
    """Host form of a deal (rule 5): every hand (in the order received) and the
    undealt cards, top first (the first of them is turned next if any remain)."""

    round: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]


@attrs.frozen(weakref_slot=False)
class HandDealt:
    """A seat's form of :class:`RoundDealt`: its own ``cards`` (every seat got as many)."""

    round: int
    dealer: int
    seat: int
    cards: tuple[Card, ...]


@attrs.frozen(weakref_slot=False)
class RoundStarted:
    """A spectator's form of :class:`RoundDealt`: ``cards_each`` cards went to every seat."""

    round: int
    dealer: int
    cards_each: int


@attrs.frozen(weakref_slot=False)
class TrumpTurned:
    """The top undealt card was turned (rule 6). ``card`` is None when nothing is left to
    turn (the last round); ``trump`` is None for a Jester, for no card, and for a Wizard
    (then the dealer chooses, :class:`TrumpChosen`)."""

    card: Card | None
    trump: Suit | None


@attrs.frozen(weakref_slot=False)
class TrumpChosen:
    """The dealer chose ``suit`` as trump after a turned Wizard (rule 6)."""

    seat: int
    suit: Suit


@attrs.frozen(weakref_slot=False)
class BidMade:
    """``seat`` bid ``tricks`` (rule 7)."""

    seat: int
    tricks: int


@attrs.frozen(weakref_slot=False)
class CardPlayed:
    """``seat`` played ``card`` to the current trick."""

    seat: int
    card: Card


@attrs.frozen(weakref_slot=False)
class TrickWon:
    """``seat`` won the completed ``trick`` (rules 11-14) and leads next (rule 8)."""

    seat: int
    trick: tuple[tuple[int, Card], ...]


@attrs.frozen(weakref_slot=False)
class RoundScored:
    """Round ``round`` was scored (rules 15-17): per seat ``bids``, ``tricks`` taken,
    ``points`` of the round and the cumulative ``scores``."""

    round: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]


@attrs.frozen(weakref_slot=False)
class GameEnded:
    """The last round was scored (rule 18): final ``scores`` and the ``winners`` (ascending)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


WizardEvent = (
    DealerChosen
    | RoundDealt
    | HandDealt
    | RoundStarted
    | TrumpTurned
    | TrumpChosen
    | BidMade
    | CardPlayed
    | TrickWon
    | RoundScored
    | GameEnded
)
"""Any Wizard event."""
