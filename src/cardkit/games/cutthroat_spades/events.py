"""Events of Cutthroat Spades (past tense; JSON ``type`` = snake_case class name)."""

from __future__ import annotations

from typing import Union

import attrs

from cardkit.cards import Card
from cardkit.games.cutthroat_spades.actions import BidKind

__all__ = [
    "DealerChosen", "CardsDealt", "HandsDealt", "HandLooked", "HandLookedPublic", "BidMade",
    "BiddingEnded", "CardPlayed", "SpadesBroken", "TrickWon", "SeatScore", "HandScored", "GameTied", "GameWon",
    "GameStarted", "TournamentWon", "Event", "CutthroatEvent", "EVENT_TYPES",
]


@attrs.frozen(weakref_slot=False)
class DealerChosen:
    """The first dealer of the tournament was chosen (rule 3)."""

    seat: int


@attrs.frozen(weakref_slot=False)
class CardsDealt:
    """A hand was dealt: every seat's cards (host only; everyone sees :class:`HandsDealt`)."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]


@attrs.frozen(weakref_slot=False)
class HandsDealt:
    """Public form of :class:`CardsDealt`: how many cards each seat received.

    Nobody, not even the owner, sees a hand at the deal (rule 5).
    """

    dealer: int
    sizes: tuple[int, ...]


@attrs.frozen(weakref_slot=False)
class HandLooked:
    """``seat`` looked at its hand (a ``look`` or a blind bid); ``cards`` shown to that seat only."""

    seat: int
    cards: tuple[Card, ...]


@attrs.frozen(weakref_slot=False)
class HandLookedPublic:
    """Public form of :class:`HandLooked`: ``seat`` has looked at its hand."""

    seat: int


@attrs.frozen(weakref_slot=False)
class BidMade:
    """``seat`` bid; ``tricks`` is the number the bid needs (nil 0, B6 6, 1F 1, 2F 2, SM the threshold)."""

    seat: int
    kind: BidKind
    tricks: int


@attrs.frozen(weakref_slot=False)
class BiddingEnded:
    """Every seat has bid; ``leader`` leads the first trick (rules 1 and 7)."""

    leader: int


@attrs.frozen(weakref_slot=False)
class CardPlayed:
    """``seat`` played ``card`` to the current trick."""

    seat: int
    card: Card


@attrs.frozen(weakref_slot=False)
class SpadesBroken:
    """A spade or joker was played on a trick led in another suit (rule 9)."""

    seat: int


@attrs.frozen(weakref_slot=False)
class TrickWon:
    """``seat`` won the trick just completed (``trick_number`` from 1 within the hand)."""

    seat: int
    trick_number: int


@attrs.frozen(weakref_slot=False)
class SeatScore:
    """One seat's scoring of a hand, in the order of rule 18.

    ``bid_points`` (rules 12–16), ``bags_taken`` this hand and their ``bag_points`` (+1 each
    under ``"limit"``, −10 each under ``"each_minus_10"``), ``jacks`` the prize jacks
    captured, ``prize_points`` (J♦/J♣, or +10 for J♥ under ``"each_minus_10"``),
    ``bags_removed`` (J♥ under ``"limit"``), ``bag_out_points`` (≤ 0), ``total`` the sum,
    then the new ``score`` and ``bags`` count.
    """

    kind: BidKind
    bid: int
    tricks: int
    bid_points: int
    bags_taken: int
    bag_points: int
    jacks: tuple[Card, ...]
    prize_points: int
    bags_removed: int
    bag_out_points: int
    total: int
    score: int
    bags: int


@attrs.frozen(weakref_slot=False)
class HandScored:
    """A hand was scored (rules 12–18); one :class:`SeatScore` per seat."""

    game_number: int
    hand_number: int
    seats: tuple[SeatScore, ...]


@attrs.frozen(weakref_slot=False)
class GameTied:
    """The target was reached with a tie at the top: hands continue until one player leads alone (rule 19)."""

    game_number: int
    scores: tuple[int, ...]


@attrs.frozen(weakref_slot=False)
class GameWon:
    """Game ``game_number`` ended; each of ``winners`` got a victory token (rules 19–21)."""

    game_number: int
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    tokens: tuple[int, ...]


@attrs.frozen(weakref_slot=False)
class GameStarted:
    """A new game of the tournament starts: scores, bags and blind-six uses reset (rule 21)."""

    game_number: int


@attrs.frozen(weakref_slot=False)
class TournamentWon:
    """``winners`` hold ``wins_needed`` tokens: the tournament (and the Game) is over."""

    winners: tuple[int, ...]
    tokens: tuple[int, ...]


Event = Union[
    DealerChosen, CardsDealt, HandsDealt, HandLooked, HandLookedPublic, BidMade, BiddingEnded, CardPlayed,
    SpadesBroken, TrickWon, HandScored, GameTied, GameWon, GameStarted, TournamentWon,
]
"""Any Cutthroat Spades event."""

CutthroatEvent = Event
"""Any Cutthroat Spades event (the same union as :data:`Event`, named like the other games')."""

EVENT_TYPES: tuple[type, ...] = (
    DealerChosen, CardsDealt, HandsDealt, HandLooked, HandLookedPublic, BidMade, BiddingEnded, CardPlayed,
    SpadesBroken, TrickWon, HandScored, GameTied, GameWon, GameStarted, TournamentWon,
)
"""Every event class (registered with serde through ``Rules.event_types``)."""
