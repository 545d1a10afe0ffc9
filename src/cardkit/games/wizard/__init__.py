"""Wizard (Ken Fisher, 1984): 60 cards, 3-6 players, bid the exact number of tricks.

The registry loads :data:`cardkit.games.wizard.rules.RULES`; see ``docs/games/wizard.md``.
"""

from cardkit.games.wizard.actions import Bid, ChooseTrump, Play
from cardkit.games.wizard.config import WizardConfig
from cardkit.games.wizard.state import WizardState

__all__ = ["Bid", "ChooseTrump", "Play", "WizardConfig", "WizardState"]
