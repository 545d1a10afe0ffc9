"""A typed way to start Cutthroat Spades: :func:`new_game` with the game's options as typed keywords.

``cardkit.new_game('cutthroat-spades', ...)`` takes the same options untyped (``**options: Any``)
and is checked only when it runs; here a type checker also rejects a misspelt option or
a value of the wrong type. A correct call: ``new_game(players=4, seed=7, preset="short", mercy=200)``.
"""

from __future__ import annotations

from typing import Literal, Sequence
from typing_extensions import TypedDict, Unpack

from cardkit.core.game import Game
from cardkit.core.start import start_game
from cardkit.games import get_rules
from cardkit.games.cutthroat_spades.actions import CutthroatAction
from cardkit.games.cutthroat_spades.view import CutthroatView

__all__ = ["CutthroatOptions", "new_game"]


class CutthroatOptions(TypedDict, total=False):
    """The options of Cutthroat Spades as typed keywords (every one optional; the names and
    allowed values are those of ``RULES.options()``)."""

    preset: Literal["official", "short", "short_minus_10", "long"]
    target: int
    bags: Literal["limit", "each_minus_10"]
    bag_limit: int | None
    bag_out: Literal["reset", "carry"]
    blind_six_per_game: int | None
    prize_jacks: Sequence[Literal["JD", "JC", "JH"]]
    wins_needed: int
    jokers: Literal[0, 2, 3]
    max_hands: int | None
    mercy: int | None


def new_game(
    players: int,
    *,
    seed: int | None = None,
    auto_chance: bool = True,
    **options: Unpack[CutthroatOptions],
) -> Game[CutthroatAction, CutthroatView]:
    """Start a game of Cutthroat Spades: :func:`cardkit.new_game` with typed options.

    The same checks run (a bad value is a :class:`~cardkit.errors.ConfigError`); an
    option left out takes its default.
    """
    # The registered rules (what cardkit.new_game uses, so pickling works the same);
    # not cardkit.api, which is a layer above the games.
    return start_game(get_rules('cutthroat-spades'), players, seed, auto_chance, options)
