"""Spacc 'u Mazz (Spacca il mazzo): an Italian shedding game for 2-4 players, two packs.

See ``docs/games/spacc-u-mazz.md``.
"""

from __future__ import annotations

from cardkit.core.log import register_upcaster
from cardkit.games.spacc_u_mazz.actions import SpaccAction, Blind, Decline, Draw, Dump, Keep, Pass, Play, RemoveDown, RemoveUp, Take
from cardkit.games.spacc_u_mazz.config import OPTIONS, SpaccConfig
from cardkit.games.spacc_u_mazz.events import SpaccEvent, BlindFailed, BlindPlayed, CardDrawn, CardRemoved, CardsPlayed, CardsRevealed, ChoiceOffered, FaceDownDealt, FaceUpDealt, FirstDealerChosen, GameEnded, HandDealt, HandDumped, HandEnded, HandKept, HandScored, HandStarted, JokerDrawn, JokerRevealed, Passed, PenaltyWaived, PileBurned, PileTaken, PlayerWentOut, RemovalDeclined, StarterBuried, StarterDrawn, StarterTurned, StockFormed, TurnStarted
from cardkit.games.spacc_u_mazz.rules import RULES, SpaccRules
from cardkit.games.spacc_u_mazz.start import SpaccOptions, new_game
from cardkit.games.spacc_u_mazz.state import SpaccState
from cardkit.games.spacc_u_mazz.upcast import upcast_v1, upcast_v2
from cardkit.games.spacc_u_mazz.view import SpaccView

register_upcaster(RULES.name, 1, upcast_v1)  # version 1 logs replay under version 2
register_upcaster(RULES.name, 2, upcast_v2)  # version 2 logs where version 3 agrees (else a LogError)

__all__ = [
    # the rules, options, state and view
    "RULES", "SpaccRules", "OPTIONS", "SpaccConfig", "SpaccState", "SpaccView", "SpaccOptions", "new_game",
    # actions
    "SpaccAction", "Play", "Blind", "Draw", "Take", "Pass", "Dump", "Keep", "RemoveUp", "RemoveDown", "Decline",
    # events
    "SpaccEvent", "FirstDealerChosen", "HandStarted", "HandDealt", "FaceUpDealt", "FaceDownDealt", "StarterBuried", "StarterTurned", "StockFormed", "CardsPlayed", "PileBurned", "BlindPlayed", "BlindFailed", "JokerRevealed", "CardDrawn", "StarterDrawn", "JokerDrawn", "PenaltyWaived", "PileTaken", "Passed", "ChoiceOffered", "HandDumped", "HandKept", "CardRemoved", "RemovalDeclined", "PlayerWentOut", "TurnStarted", "HandEnded", "CardsRevealed", "HandScored", "GameEnded",
]  # fmt: skip
