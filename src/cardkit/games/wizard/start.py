"""A typed way to start Wizard: :func:`new_game` with the game's options as typed keywords.

``cardkit.new_game('wizard', ...)`` takes the same options untyped (``**options: Any``)
and is checked only when it runs; here a type checker also rejects a misspelt option or
a value of the wrong type. A correct call: ``new_game(players=4, seed=7, rounds=3)``.
"""

from __future__ import annotations

from typing_extensions import TypedDict, Unpack

from cardkit.core.game import Game
from cardkit.core.start import start_game
from cardkit.games import get_rules
from cardkit.games.wizard.actions import WizardAction
from cardkit.games.wizard.view import WizardView

__all__ = ["WizardOptions", "new_game"]


class WizardOptions(TypedDict, total=False):
    """The options of Wizard as typed keywords (every one optional; the names and
    allowed values are those of ``RULES.options()``)."""

    forbid_even_bids: bool
    rounds: int | None


def new_game(
    players: int,
    *,
    seed: int | None = None,
    auto_chance: bool = True,
    **options: Unpack[WizardOptions],
) -> Game[WizardAction, WizardView]:
    """Start a game of Wizard: :func:`cardkit.new_game` with typed options.

    The same checks run (a bad value is a :class:`~cardkit.errors.ConfigError`); an
    option left out takes its default.
    """
    # The registered rules (what cardkit.new_game uses, so pickling works the same);
    # not cardkit.api, which is a layer above the games.
    return start_game(get_rules('wizard'), players, seed, auto_chance, options)
