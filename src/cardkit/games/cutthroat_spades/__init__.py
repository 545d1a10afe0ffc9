"""Cutthroat Spades (individual Spades for 3, 4 or 5 players; special bids; tournaments).

The rules object is :data:`cardkit.games.cutthroat_spades.rules.RULES`
(``cardkit.get_rules("cutthroat-spades")``).
"""

from cardkit.games.cutthroat_spades.actions import Bid, Look, Play, SpecialBid
from cardkit.games.cutthroat_spades.config import CutthroatConfig
from cardkit.games.cutthroat_spades.rules import RULES, CutthroatSpadesRules
from cardkit.games.cutthroat_spades.state import CutthroatState

__all__ = ["RULES", "CutthroatSpadesRules", "CutthroatConfig", "CutthroatState", "Look", "Bid", "SpecialBid", "Play"]
