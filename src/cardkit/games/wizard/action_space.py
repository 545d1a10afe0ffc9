"""The fixed action index of Wizard (``WizardRules.action_space``)."""

from __future__ import annotations

from cardkit.cards import SUITS, sort_cards
from cardkit.games.wizard.actions import Bid, ChooseTrump, Play, WizardAction
from cardkit.games.wizard.config import WizardConfig
from cardkit.games.wizard.state import DECK

__all__ = ["action_space"]

_TRUMPS: tuple[WizardAction, ...] = tuple(ChooseTrump(s) for s in SUITS)
_PLAYS: tuple[WizardAction, ...] = tuple(Play(c) for c in sort_cards(tuple(set(DECK))))


def action_space(config: WizardConfig) -> tuple[WizardAction, ...]:
    """``trump S/H/D/C``, ``bid 0..rounds`` (the last round deals ``rounds`` cards), then
    ``play C`` for the 54 distinct cards in display order (Wizard, Jester, S, H, D, C)."""
    return _TRUMPS + tuple(Bid(i) for i in range(config.rounds + 1)) + _PLAYS
