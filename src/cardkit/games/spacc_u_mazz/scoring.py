"""Rank order (rules 7-8) and scoring (rules 24-27)."""

from __future__ import annotations

from collections import Counter
from typing import Final, Iterable

from cardkit.cards import Card

__all__ = ["rank_orders", "variable_points", "hand_points", "ORDINARY_RANKS"]

ORDINARY_RANKS: Final[tuple[int, ...]] = (3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14)
"""Ranks that have a place in the order (2 and 10 stand outside it, rule 8)."""


def rank_orders(rank_order: str) -> tuple[int, ...]:
    """Comparison value per rank index 0..14 (rule 7): ``standard`` J<Q<K, ``as_printed`` J<K<Q.

    2 and 10 get 0 (they are never compared: always playable).
    """
    value = [0] * 15
    for rank in (3, 4, 5, 6, 7, 8, 9, 11, 14):
        value[rank] = rank
    if rank_order == "as_printed":
        value[13], value[12] = 12, 13
    else:
        value[12], value[13] = 12, 13
    return tuple(value)


def variable_points(cards: Iterable[Card], card_points: tuple[int, ...]) -> int:
    """Rule 25: each rank held 1-3 times counts once; 4 or more times ("poker") once, doubled."""
    counts = Counter(c.rank for c in cards if c.suit is not None)
    total = 0
    for rank, count in counts.items():
        points = card_points[rank - 2]
        total += points * 2 if count >= 4 else points
    return total


def hand_points(
    players: int, places: tuple[int, ...], fixed: tuple[int, ...], variable: int
) -> tuple[int, ...]:
    """Rules 26-27: the place's fixed points; the winner adds the last player's variable points."""
    points = [0] * players
    for index, seat in enumerate(places):
        points[seat] = fixed[index]
    points[places[0]] += variable
    return tuple(points)
