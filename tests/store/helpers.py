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


def wait_for_a_move(store: Any, match_id: str, last: int, action: Any) -> tuple[int, float]:
    """``store.wait(match_id, last, 10)`` while another thread plays ``action`` 0.2 s in;
    returns what ``wait`` returned and the seconds it took."""
    import threading
    import time

    def move() -> None:
        time.sleep(0.2)
        store.play(match_id, action)

    thread = threading.Thread(target=move)
    thread.start()
    start = time.monotonic()
    newest = store.wait(match_id, last, 10)
    waited = time.monotonic() - start
    thread.join()
    return newest, waited
