"""Seats, turn order and the library's dealing convention (:func:`deal`)."""

from __future__ import annotations

from typing import Sequence

from cardkit.cards import Card

__all__ = ["left_of", "seats_from", "deal"]


def left_of(seat: int, players: int, step: int = 1) -> int:
    """The seat ``step`` places clockwise from ``seat`` (left of X is ``(X + 1) % n``)."""
    return (seat + step) % players


def seats_from(first: int, players: int) -> tuple[int, ...]:
    """All seats clockwise starting at ``first``."""
    return tuple((first + i) % players for i in range(players))


def deal(
    cards: Sequence[Card], dealer: int, shares: Sequence[int]
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal from the top of ``cards`` by the library's dealing convention.

    One card at a time, starting left of ``dealer`` and going clockwise, skipping seats
    that already hold their share (``shares[seat]`` cards). Returns the hands (each in
    the order received) and the remaining cards, top first.
    """
    players = len(shares)
    hands: list[list[Card]] = [[] for _ in range(players)]
    need = sum(shares)
    if need > len(cards):
        raise ValueError(f"cannot deal {need} cards from {len(cards)}")
    pos = 0
    seat = dealer
    while pos < need:
        seat = (seat + 1) % players
        if len(hands[seat]) < shares[seat]:
            hands[seat].append(cards[pos])
            pos += 1
    return tuple(tuple(h) for h in hands), tuple(cards[pos:])
