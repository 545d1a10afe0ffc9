"""A typed way to start Spacc 'u Mazz: :func:`new_game` with the game's options as typed keywords.

``cardkit.new_game('spacc-u-mazz', ...)`` takes the same options untyped (``**options: Any``)
and is checked only when it runs; here a type checker also rejects a misspelt option or
a value of the wrong type. A correct call: ``new_game(players=2, seed=7, target_score=50)``.
"""

from __future__ import annotations

from typing import Literal, Mapping, Sequence
from typing_extensions import TypedDict, Unpack

from cardkit.core.game import Game
from cardkit.core.start import start_game
from cardkit.games import get_rules
from cardkit.games.spacc_u_mazz.actions import SpaccAction
from cardkit.games.spacc_u_mazz.view import SpaccView

__all__ = ["SpaccOptions", "new_game"]


class SpaccOptions(TypedDict, total=False):
    """The options of Spacc 'u Mazz as typed keywords (every one optional; the names and
    allowed values are those of ``RULES.options()``)."""

    rank_order: Literal["standard", "as_printed"]
    card_points: Mapping[str | int, int]
    fixed_points: Mapping[str | int, Sequence[int]] | Sequence[int]
    target_score: int | None
    max_turns: int


def new_game(
    players: int,
    *,
    seed: int | None = None,
    auto_chance: bool = True,
    **options: Unpack[SpaccOptions],
) -> Game[SpaccAction, SpaccView]:
    """Start a game of Spacc 'u Mazz: :func:`cardkit.new_game` with typed options.

    The same checks run (a bad value is a :class:`~cardkit.errors.ConfigError`); an
    option left out takes its default.
    """
    # The registered rules (what cardkit.new_game uses, so pickling works the same);
    # not cardkit.api, which is a layer above the games.
    return start_game(get_rules('spacc-u-mazz'), players, seed, auto_chance, options)
