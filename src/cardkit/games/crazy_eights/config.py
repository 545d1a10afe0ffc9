"""Crazy Eights options (docs/games/crazy-eights.md: Options)."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from cardkit.core.config import check_players, reject_inapplicable
from cardkit.core.options import OptionSpec, check_known
from cardkit.errors import ConfigError

__all__ = ["CrazyEightsConfig", "make_config", "OPTIONS", "OPTION_NAMES"]

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("mode", "str", "single", "single: one hand; points: a match of hands up to the target",
               choices=("single", "points")),
    OptionSpec("draw", "str", "one", "how many cards a drawing player may take",
               choices=("one", "until_playable")),
    OptionSpec("stock_empty", "str", "pass", "whether the discards are shuffled into a new stock when it runs out",
               choices=("pass", "reshuffle")),
    OptionSpec("two_draws_two", "bool", False, "a 2 makes the next player draw two (rule 9)"),
    OptionSpec("queen_of_spades_draws_five", "bool", False, "the queen of spades makes the next player draw five (rule 10)"),
    OptionSpec("jack_skips", "bool", False, "a jack skips the next player (rule 11)"),
    OptionSpec("ace_reverses", "bool", False, "an ace reverses the direction of play (rule 12)"),
    OptionSpec("target", "int", None, "points mode only: the score that ends the match (default 50 per player)",
               minimum=1, nullable=True, default_depends=True),
    OptionSpec("decks", "int", None, "packs shuffled together (default 1 for up to 5 players, else 2)",
               choices=(1, 2), nullable=True, default_depends=True),
    OptionSpec("hand_size", "int", None, "cards dealt to each seat (default 7 for 2 players, else 5); hands and a starter must fit the deck",
               minimum=1, maximum=10, nullable=True, default_depends=True),
    OptionSpec("max_turns", "int", 1000, "seat actions in one hand before it is scored as blocked", minimum=1),
)  # fmt: skip
"""Every Crazy Eights option, in the documented order: the schema ``config`` validates with."""

OPTION_NAMES = tuple(spec.name for spec in OPTIONS)
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
    check_known(game, options, OPTIONS)
    n = check_players(game, players, 2, 7)
    spec = {s.name: s for s in OPTIONS}

    def get(name: str) -> Any:
        return spec[name].check(options.get(name, spec[name].default))

    mode: Literal["single", "points"] = get("mode")
    draw: Literal["one", "until_playable"] = get("draw")
    stock_empty: Literal["pass", "reshuffle"] = get("stock_empty")
    flags = {
        name: bool(get(name))
        for name in ("two_draws_two", "queen_of_spades_draws_five", "jack_skips", "ace_reverses")
    }
    if mode == "single":
        reject_inapplicable("target", options, None, 'target applies only with mode="points"')
        target = None
    else:
        raw = get("target")
        target = 50 * n if raw is None else int(raw)
    raw_decks = get("decks")
    decks = (1 if n <= 5 else 2) if raw_decks is None else int(raw_decks)
    raw_hand = get("hand_size")
    hand_size = (7 if n == 2 else 5) if raw_hand is None else int(raw_hand)
    if hand_size * n + 1 > 52 * decks:
        raise ConfigError(
            f"option 'hand_size': {n} hands of {hand_size} and a starter do not fit in "
            f"{52 * decks} cards; use decks=2 or a smaller hand_size",
            "hand_size",
            hand_size,
        )
    max_turns = int(get("max_turns"))
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
