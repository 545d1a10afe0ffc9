"""The cards of a Cutthroat Spades configuration (rule 1): which are shuffled, which
are removed, how many each seat gets.

Its own module so that the rules and the action index (``action_space.py``) can both
use it without importing each other.
"""

from __future__ import annotations

from typing import Final

from cardkit.cards import Card, standard_deck
from cardkit.games.cutthroat_spades.config import CutthroatConfig

__all__ = ["Layout", "layout_of", "JOKERS"]

_TWO_C: Final = Card("2C")
_TWO_D: Final = Card("2D")
JOKERS: Final = (Card("RJ"), Card("BJ"), Card("XJ"))
"""The jokers in the order a configuration adds them (``RJ``, then ``BJ``, then ``XJ``)."""


class Layout:
    """The cards of a configuration (rule 1): cards shuffled, cards removed, shares and tricks."""

    __slots__ = ("cards", "removed", "tricks", "two_jokers")

    def __init__(self, players: int, jokers: int) -> None:
        """Build the layout for ``players`` seats and ``jokers`` jokers."""
        deck = standard_deck()
        removed: tuple[Card, ...] = ()
        if players == 3:
            removed = (_TWO_C,)
        elif players == 5 and jokers == 0:
            removed = (_TWO_D, _TWO_C)
        cards = JOKERS[:jokers] + tuple(c for c in deck if c not in removed)
        self.cards: tuple[Card, ...] = cards
        self.removed: tuple[Card, ...] = removed
        self.two_jokers: bool = jokers == 2
        self.tricks: int = 11 if self.two_jokers else len(cards) // players

    def shares(self, players: int, dealer: int) -> tuple[int, ...]:
        """Cards per seat: ``tricks`` each, the dealer one fewer with two jokers."""
        if self.two_jokers:
            return tuple(10 if s == dealer else 11 for s in range(players))
        return (self.tricks,) * players


_LAYOUTS: dict[tuple[int, int], Layout] = {}


def layout_of(config: CutthroatConfig) -> Layout:
    """The (cached) :class:`Layout` of ``config``."""
    key = (config.players, config.jokers)
    lay = _LAYOUTS.get(key)
    if lay is None:
        lay = _LAYOUTS[key] = Layout(*key)
    return lay
