"""The game setups the scans run over: every built-in game, several option combinations.

``SETUPS`` is the whole grid (long mode); ``DEFAULT_SLICE`` a bounded slice of it for the
default run (one setup per game).
"""

from __future__ import annotations

import os
from typing import Any

LONG = os.environ.get("CARDKIT_LONG") == "1"

SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("crazy-eights", 2, {}),
    ("crazy-eights", 3, {"two_draws_two": True, "queen_of_spades_draws_five": True, "draw": "until_playable"}),
    ("crazy-eights", 4, {"decks": 2, "jack_skips": True, "ace_reverses": True}),
    ("crazy-eights", 5, {"mode": "points", "target": 50, "stock_empty": "reshuffle", "max_turns": 200}),
    ("wizard", 3, {}),
    ("wizard", 4, {"forbid_even_bids": True}),
    ("wizard", 6, {}),
    ("cutthroat-spades", 3, {"max_hands": 2, "wins_needed": 1}),
    ("cutthroat-spades", 4, {"max_hands": 2, "wins_needed": 1, "preset": "long"}),
    ("cutthroat-spades", 5, {"max_hands": 2, "wins_needed": 1, "jokers": 2}),
    ("cutthroat-spades", 5, {"max_hands": 2, "wins_needed": 1, "jokers": 3, "preset": "short"}),
    ("spacc-u-mazz", 2, {"max_turns": 80}),
    ("spacc-u-mazz", 3, {"max_turns": 80, "rank_order": "as_printed"}),
    ("spacc-u-mazz", 4, {"max_turns": 80}),
]

DEFAULT_SLICE = [SETUPS[1], SETUPS[4], SETUPS[7], SETUPS[11]]


def setups() -> list[tuple[str, int, dict[str, Any]]]:
    """The setups of this run: the whole grid with CARDKIT_LONG=1, else the slice."""
    return SETUPS if LONG else DEFAULT_SLICE


def setup_id(setup: tuple[str, int, dict[str, Any]]) -> str:
    """A readable test id."""
    name, players, options = setup
    return f"{name}-{players}-" + "-".join(f"{k}={v}" for k, v in options.items())
