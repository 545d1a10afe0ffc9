"""Wizard's trick rules (9-14): suit to follow, legal plays, trick winner.

Wizards and Jesters are decided here; suited cards use :mod:`cardkit.core.tricks`.
"""

from __future__ import annotations

from typing import Sequence

from cardkit.cards import Card, Suit
from cardkit.core.tricks import follow_options, winning_index
from cardkit.games.wizard.state import JESTER, WIZARD

__all__ = ["suit_to_follow", "playable", "trick_winner"]


def suit_to_follow(cards: Sequence[Card]) -> Suit | None:
    """Rule 9: the suit of the first card that is not a Jester; ``None`` if that card is a
    Wizard (no suit to follow for the whole trick) or while only Jesters were played."""
    for card in cards:
        if card is not JESTER:
            return card.suit  # None for a Wizard
    return None


def playable(hand: Sequence[Card], led: Suit | None) -> tuple[Card, ...]:
    """Rule 10: the cards of ``hand`` (in its order, duplicates kept) that may be played:
    Wizards and Jesters always; suited cards of ``led`` if held, else any suited card."""
    # Suited cards must follow ``led`` when the hand holds one (what follow_options says
    # of the suited cards); Wizards and Jesters are always allowed.
    if led is not None:
        for card in hand:
            if card.suit == led:
                return tuple([c for c in hand if c.suit is None or c.suit == led])
    return tuple(hand)


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index of the winning card of a complete trick (rules 11-14)."""
    for i, card in enumerate(cards):
        if card is WIZARD:
            return i  # rule 11: the first Wizard
    led = suit_to_follow(cards)
    if led is None:
        return 0  # rule 12: only Jesters, the first one wins
    best = winning_index(cards, led, trump)  # rules 13-14
    assert best is not None  # the card that fixed the led suit qualifies
    return best
