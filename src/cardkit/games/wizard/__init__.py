"""Wizard (Ken Fisher, 1984): 60 cards, 3-6 players, bid the exact number of tricks.

See ``docs/games/wizard.md``; the trick helpers a bot needs are :func:`trick_winner`,
:func:`suit_to_follow` and :func:`playable`.
"""

from __future__ import annotations

from cardkit.games.wizard.actions import WizardAction, Bid, ChooseTrump, Play
from cardkit.games.wizard.config import OPTIONS, WizardConfig
from cardkit.games.wizard.events import WizardEvent, BidMade, CardPlayed, DealerChosen, GameEnded, HandDealt, RoundDealt, RoundScored, RoundStarted, TrickWon, TrumpChosen, TrumpTurned
from cardkit.games.wizard.rules import RULES, WizardRules
from cardkit.games.wizard.start import WizardOptions, new_game
from cardkit.games.wizard.state import WizardState
from cardkit.games.wizard.tricks import playable, suit_to_follow, trick_winner
from cardkit.games.wizard.view import WizardView

__all__ = [
    # the rules, options, state and view
    "RULES", "WizardRules", "OPTIONS", "WizardConfig", "WizardState", "WizardView", "WizardOptions", "new_game",
    # actions
    "WizardAction", "Bid", "ChooseTrump", "Play",
    # events
    "WizardEvent", "DealerChosen", "RoundDealt", "HandDealt", "RoundStarted", "TrumpTurned", "TrumpChosen", "BidMade", "CardPlayed", "TrickWon", "RoundScored", "GameEnded",
    # helpers for bots
    "trick_winner", "suit_to_follow", "playable",
]  # fmt: skip
