"""Card values and hand scoring (rules 15-22)."""

from __future__ import annotations

from typing import Sequence

from cardkit.cards import Card

__all__ = ["card_value", "hand_total", "points_for_out", "points_for_blocked"]

_VALUES = {8: 50, 10: 10, 11: 10, 12: 10, 13: 10, 14: 1}


def card_value(card: Card) -> int:
    """Rule 15: 8 = 50; K, Q, J, 10 = 10; A = 1; 2-7 and 9 face value."""
    return _VALUES.get(card.rank, card.rank)


def hand_total(cards: Sequence[Card]) -> int:
    """The value of the cards left in a hand."""
    return sum(_VALUES.get(c.rank, c.rank) for c in cards)


def points_for_out(winner: int, totals: Sequence[int]) -> tuple[int, ...]:
    """Rule 20: the player who goes out scores the total of all other hands."""
    won = sum(t for seat, t in enumerate(totals) if seat != winner)
    return tuple(won if seat == winner else 0 for seat in range(len(totals)))


def points_for_blocked(totals: Sequence[int]) -> tuple[tuple[int, ...], int | None]:
    """Rules 17 and 21: the unique lowest total scores ``Σ (total_i − lowest)``; a tie scores nothing.

    Returns the points per seat and the winner (None for a tie).
    """
    lowest = min(totals)
    holders = [seat for seat, t in enumerate(totals) if t == lowest]
    if len(holders) > 1:
        return tuple(0 for _ in totals), None
    winner = holders[0]
    won = sum(t - lowest for t in totals)
    return tuple(won if seat == winner else 0 for seat in range(len(totals))), winner
