"""A typed way to start Crazy Eights: :func:`new_game` with the game's options as typed keywords.

``cardkit.new_game('crazy-eights', ...)`` takes the same options untyped (``**options: Any``)
and is checked only when it runs; here a type checker also rejects a misspelt option or
a value of the wrong type. A correct call: ``new_game(players=3, seed=7, mode="points", jack_skips=True)``.
"""

from __future__ import annotations

from typing import Literal
from typing_extensions import TypedDict, Unpack

from cardkit.core.game import Game
from cardkit.core.start import start_game
from cardkit.games import get_rules
from cardkit.games.crazy_eights.actions import CrazyEightsAction
from cardkit.games.crazy_eights.view import CrazyEightsView

__all__ = ["CrazyEightsOptions", "new_game"]


class CrazyEightsOptions(TypedDict, total=False):
    """The options of Crazy Eights as typed keywords (every one optional; the names and
    allowed values are those of ``RULES.options()``)."""

    mode: Literal["single", "points"]
    draw: Literal["one", "until_playable"]
    stock_empty: Literal["pass", "reshuffle"]
    two_draws_two: bool
    queen_of_spades_draws_five: bool
    jack_skips: bool
    ace_reverses: bool
    target: int | None
    decks: Literal[1, 2] | None
    hand_size: int | None
    max_turns: int


def new_game(
    players: int,
    *,
    seed: int | None = None,
    auto_chance: bool = True,
    **options: Unpack[CrazyEightsOptions],
) -> Game[CrazyEightsAction, CrazyEightsView]:
    """Start a game of Crazy Eights: :func:`cardkit.new_game` with typed options.

    The same checks run (a bad value is a :class:`~cardkit.errors.ConfigError`); an
    option left out takes its default.
    """
    # The registered rules (what cardkit.new_game uses, so pickling works the same);
    # not cardkit.api, which is a layer above the games.
    return start_game(get_rules('crazy-eights'), players, seed, auto_chance, options)
