"""Crazy Eights: single hand or the "Partita a punti" points match, with action-card options.

See ``docs/games/crazy-eights.md`` for the numbered rules, options and decisions.
"""

from cardkit.games.crazy_eights.actions import Draw, Pass, Play
from cardkit.games.crazy_eights.config import CrazyEightsConfig
from cardkit.games.crazy_eights.rules import RULES, CrazyEightsRules
from cardkit.games.crazy_eights.state import CrazyEightsState

__all__ = ["RULES", "CrazyEightsRules", "CrazyEightsConfig", "CrazyEightsState", "Play", "Draw", "Pass"]
