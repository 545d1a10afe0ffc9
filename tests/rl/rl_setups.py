"""Game setups for the RL tests: short episodes for every game and the example user game."""

from __future__ import annotations

from typing import Any

import cardkit

# (game, players, options) with episodes short enough for the default run.
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("crazy-eights", 2, {}),
    ("crazy-eights", 4, {"two_draws_two": True, "jack_skips": True, "ace_reverses": True}),
    ("crazy-eights", 7, {"draw": "until_playable", "stock_empty": "reshuffle"}),
    ("crazy-eights", 3, {"mode": "points", "target": 60, "queen_of_spades_draws_five": True}),
    ("wizard", 3, {"rounds": 4}),
    ("wizard", 6, {"rounds": 2, "forbid_even_bids": True}),
    ("cutthroat-spades", 3, {"target": 100, "wins_needed": 1}),
    ("cutthroat-spades", 4, {"max_hands": 1, "wins_needed": 1}),
    ("cutthroat-spades", 5, {"jokers": 2, "target": 100, "wins_needed": 1}),
    ("spacc-u-mazz", 2, {"max_turns": 300}),
    ("spacc-u-mazz", 4, {"max_turns": 300}),
    ("high-card", 3, {}),
]

IDS = [f"{g}-{p}p-{i}" for i, (g, p, _) in enumerate(SETUPS)]


def register_example_game() -> None:
    """Register the example user game (examples/custom_game.py) once."""
    if "high-card" not in cardkit.available_games():
        from custom_game import RULES  # examples/ is on sys.path (tests/conftest.py)

        cardkit.register(RULES)
