"""Trick-taking helpers shared by Wizard and Cutthroat Spades.

A trick is a tuple of ``(seat, card)`` plays in play order. Games that give some cards
another suit or rank for play (Spades' jokers are spades above the ace) pass
``suit_of`` / ``rank_of`` functions; Wizard decides Wizards and Jesters itself and then
uses :func:`winning_index` for suited cards.
"""

from __future__ import annotations

from typing import Callable, Sequence

from cardkit.cards import Card, Suit

__all__ = ["Play", "Trick", "plain_suit", "plain_rank", "winning_index", "follow_options"]

Play = tuple[int, Card]
"""One card of a trick: ``(seat, card)``."""

Trick = tuple[Play, ...]
"""A trick in play order."""


def plain_suit(card: Card) -> Suit | None:
    """A card's printed suit."""
    return card.suit


def plain_rank(card: Card) -> int:
    """A card's printed rank (ace high)."""
    return card.rank


def winning_index(
    cards: Sequence[Card],
    led: Suit | None,
    trump: Suit | None,
    suit_of: Callable[[Card], Suit | None] = plain_suit,
    rank_of: Callable[[Card], int] = plain_rank,
) -> int | None:
    """Index of the winning card: the highest trump if any was played, else the highest
    card of the ``led`` suit; ``None`` if neither exists. The first of equal cards wins
    (two decks)."""
    best: int | None = None
    best_key = (-1, -1)
    for i, card in enumerate(cards):
        suit = suit_of(card)
        if trump is not None and suit == trump:
            key = (1, rank_of(card))
        elif led is not None and suit == led:
            key = (0, rank_of(card))
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


def follow_options(
    hand: Sequence[Card],
    led: Suit | None,
    suit_of: Callable[[Card], Suit | None] = plain_suit,
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to follow ``led``: the led suit if held,
    otherwise the whole hand (also when nothing was led)."""
    if led is None:
        return tuple(hand)
    same = tuple(c for c in hand if suit_of(c) == led)
    return same if same else tuple(hand)
