"""Crazy Eights: single hand or the "Partita a punti" points match, with action-card options.

See ``docs/games/crazy-eights.md`` for the numbered rules, options and decisions.
"""

from __future__ import annotations

from cardkit.games.crazy_eights.actions import CrazyEightsAction, Draw, Pass, Play
from cardkit.games.crazy_eights.config import OPTIONS, CrazyEightsConfig
from cardkit.games.crazy_eights.events import CrazyEightsEvent, CardPlayed, CardsDrawn, DealerChosen, DirectionReversed, GameEnded, HandDealt, HandEnded, NextHandDue, Passed, ReshuffleNeeded, StockRebuilt, TurnSkipped
from cardkit.games.crazy_eights.rules import RULES, CrazyEightsRules
from cardkit.games.crazy_eights.start import CrazyEightsOptions, new_game
from cardkit.games.crazy_eights.state import CrazyEightsState
from cardkit.games.crazy_eights.view import CrazyEightsView

__all__ = [
    # the rules, options, state and view
    "RULES", "CrazyEightsRules", "OPTIONS", "CrazyEightsConfig", "CrazyEightsState", "CrazyEightsView", "CrazyEightsOptions", "new_game",
    # actions
    "CrazyEightsAction", "Play", "Draw", "Pass",
    # events
    "CrazyEightsEvent", "DealerChosen", "HandDealt", "CardPlayed", "DirectionReversed", "TurnSkipped", "CardsDrawn", "Passed", "ReshuffleNeeded", "StockRebuilt", "HandEnded", "NextHandDue", "GameEnded",
]  # fmt: skip
