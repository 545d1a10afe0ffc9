"""Crazy Eights options (docs/games/crazy-eights.md: Options)."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from cardkit.core.config import (
    boolean,
    check_players,
    choice,
    int_in_range,
    reject_inapplicable,
    reject_unknown,
)
from cardkit.errors import ConfigError

__all__ = ["CrazyEightsConfig", "make_config", "OPTION_NAMES"]

OPTION_NAMES = (
    "mode",
    "draw",
    "stock_empty",
    "two_draws_two",
    "queen_of_spades_draws_five",
    "jack_skips",
    "ace_reverses",
    "target",
    "decks",
    "hand_size",
    "max_turns",
)
"""Every option name accepted by the Crazy Eights config, in the documented order."""


@attrs.frozen
class CrazyEightsConfig:
    """Every Crazy Eights option, resolved (``target`` is None in single mode)."""

    players: int
    mode: Literal["single", "points"] = "single"
    draw: Literal["one", "until_playable"] = "one"
    stock_empty: Literal["pass", "reshuffle"] = "pass"
    two_draws_two: bool = False
    queen_of_spades_draws_five: bool = False
    jack_skips: bool = False
    ace_reverses: bool = False
    target: int | None = None
    decks: int = 1
    hand_size: int = 5
    max_turns: int = 1000

    def as_options(self) -> dict[str, Any]:
        """Every option but ``players``, JSON-compatible."""
        return {name: getattr(self, name) for name in OPTION_NAMES}


def make_config(players: int, options: dict[str, Any]) -> CrazyEightsConfig:
    """Validate ``options`` and resolve defaults (rules: Options)."""
    game = "crazy-eights"
    reject_unknown(game, options, OPTION_NAMES)
    n = check_players(game, players, 2, 7)
    modes: tuple[Literal["single", "points"], ...] = ("single", "points")
    draws: tuple[Literal["one", "until_playable"], ...] = ("one", "until_playable")
    empties: tuple[Literal["pass", "reshuffle"], ...] = ("pass", "reshuffle")
    mode = choice("mode", options.get("mode", "single"), modes)
    draw = choice("draw", options.get("draw", "one"), draws)
    stock_empty = choice("stock_empty", options.get("stock_empty", "pass"), empties)
    flags = {
        name: boolean(name, options.get(name, False))
        for name in ("two_draws_two", "queen_of_spades_draws_five", "jack_skips", "ace_reverses")
    }
    if mode == "single":
        reject_inapplicable("target", options, None, 'target applies only with mode="points"')
        target = None
    else:
        raw = options.get("target")
        target = 50 * n if raw is None else int_in_range("target", raw, 1)
    raw_decks = options.get("decks")
    decks = (1 if n <= 5 else 2) if raw_decks is None else choice("decks", raw_decks, (1, 2))
    raw_hand = options.get("hand_size")
    hand_size = (7 if n == 2 else 5) if raw_hand is None else int_in_range("hand_size", raw_hand, 1, 10)
    if hand_size * n + 1 > 52 * decks:
        raise ConfigError(
            f"option 'hand_size': {n} hands of {hand_size} and a starter do not fit in "
            f"{52 * decks} cards; use decks=2 or a smaller hand_size"
        )
    max_turns = int_in_range("max_turns", options.get("max_turns", 1000), 1)
    return CrazyEightsConfig(
        players=n,
        mode=mode,
        draw=draw,
        stock_empty=stock_empty,
        target=target,
        decks=decks,
        hand_size=hand_size,
        max_turns=max_turns,
        **flags,
    )
