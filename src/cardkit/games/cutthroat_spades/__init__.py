"""Cutthroat Spades (individual Spades for 3, 4 or 5 players; special bids; tournaments).

See ``docs/games/cutthroat-spades.md``; the trick helpers a bot needs are :func:`suit_of`,
:func:`rank_of` (jokers are spades above the ace) and :func:`current_trick_winner`.
"""

from __future__ import annotations

from cardkit.games.cutthroat_spades.actions import CutthroatAction, Bid, Look, Play, SpecialBid
from cardkit.games.cutthroat_spades.config import OPTIONS, CutthroatConfig
from cardkit.games.cutthroat_spades.rules import RULES, CutthroatSpadesRules, current_trick_winner, rank_of, suit_of
from cardkit.games.cutthroat_spades.events import CutthroatEvent, BidMade, BiddingEnded, CardPlayed, CardsDealt, DealerChosen, GameStarted, GameTied, GameWon, HandLooked, HandLookedPublic, HandScored, HandsDealt, SpadesBroken, TournamentWon, TrickWon
from cardkit.games.cutthroat_spades.start import CutthroatOptions, new_game
from cardkit.games.cutthroat_spades.state import CutthroatState
from cardkit.games.cutthroat_spades.view import CutthroatView

__all__ = [
    # the rules, options, state and view
    "RULES", "CutthroatSpadesRules", "OPTIONS", "CutthroatConfig", "CutthroatState", "CutthroatView", "CutthroatOptions", "new_game",
    # actions
    "CutthroatAction", "Look", "Bid", "SpecialBid", "Play",
    # events
    "CutthroatEvent", "DealerChosen", "CardsDealt", "HandsDealt", "HandLooked", "HandLookedPublic", "BidMade", "BiddingEnded", "CardPlayed", "SpadesBroken", "TrickWon", "HandScored", "GameTied", "GameWon", "GameStarted", "TournamentWon",
    # helpers for bots
    "suit_of", "rank_of", "current_trick_winner",
]  # fmt: skip
