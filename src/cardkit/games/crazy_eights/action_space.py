"""The fixed action index of Crazy Eights (``CrazyEightsRules.action_space``)."""

from __future__ import annotations

from cardkit.cards import SUITS, standard_deck
from cardkit.games.crazy_eights.actions import DRAW, PASS, CrazyEightsAction, play_action
from cardkit.games.crazy_eights.config import CrazyEightsConfig

__all__ = ["action_space"]

_DECK = standard_deck()
_SPACE: tuple[CrazyEightsAction, ...] = (
    tuple(play_action(card) for card in _DECK)
    + tuple(play_action(card, suit) for card in _DECK if card.rank == 8 for suit in SUITS)
    + (DRAW, PASS)
)


def action_space(config: CrazyEightsConfig) -> tuple[CrazyEightsAction, ...]:
    """70 actions for every config: ``play C`` for the 52 card values (display order; an 8
    without a suit is how a player goes out with it), ``play 8X S|H|D|C`` for the four 8s,
    then ``draw`` and ``pass``. A second pack repeats values, so it adds no action."""
    return _SPACE
