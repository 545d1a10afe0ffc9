"""Small helpers shared by the store tests."""

from __future__ import annotations

from typing import Any

import cardkit
from cardkit.rng import Rng

PLAYERS = {"crazy-eights": 3, "wizard": 3, "cutthroat-spades": 3, "spacc-u-mazz": 2}


def random_moves(game: cardkit.Game, rng: Rng, n: int) -> tuple[cardkit.Game, list[Any]]:
    """Play up to ``n`` random legal moves; the game after them and the moves."""
    moves = []
    for _ in range(n):
        if game.is_over:
            break
        legal = game.legal_actions()
        action = legal[rng.below(len(legal))]
        moves.append(action)
        game = game.play(action)
    return game, moves
