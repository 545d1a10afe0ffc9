"""Wizard actions and their notation: ``bid 2``, ``trump H``, ``play QS``, ``play W``, ``play N``."""

from __future__ import annotations

import attrs

from cardkit.cards import Card, Suit

__all__ = ["Bid", "ChooseTrump", "Play", "WizardAction"]


@attrs.frozen
class Bid:
    """Bid ``tricks`` tricks for this round (rule 7). Notation ``bid 2``."""

    tricks: int

    def __str__(self) -> str:
        return f"bid {self.tricks}"


@attrs.frozen
class ChooseTrump:
    """The dealer names the trump suit after a turned Wizard (rule 6). Notation ``trump H``."""

    suit: Suit

    def __str__(self) -> str:
        return f"trump {self.suit}"


@attrs.frozen
class Play:
    """Play ``card`` to the current trick (rules 9-10). Notation ``play QS`` / ``play W`` / ``play N``."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


WizardAction = Bid | ChooseTrump | Play
"""Any Wizard seat action."""
