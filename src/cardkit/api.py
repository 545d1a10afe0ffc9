"""The host-facing entry points that tie the registry to the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

from cardkit.core.game import Game
from cardkit.core.game import replay as _replay_with
from cardkit.core.log import GameLog
from cardkit.core.start import fresh_seed, start_game
from cardkit.errors import LogError, UnknownGameError
from cardkit.games import get_rules

if TYPE_CHECKING:  # the game packages load lazily, through the registry
    from cardkit.games.crazy_eights.actions import CrazyEightsAction
    from cardkit.games.crazy_eights.view import CrazyEightsView
    from cardkit.games.cutthroat_spades.actions import CutthroatAction
    from cardkit.games.cutthroat_spades.view import CutthroatView
    from cardkit.games.spacc_u_mazz.actions import SpaccAction
    from cardkit.games.spacc_u_mazz.view import SpaccView
    from cardkit.games.wizard.actions import WizardAction
    from cardkit.games.wizard.view import WizardView

__all__ = ["new_game", "replay", "fresh_seed"]


@overload
def new_game(
    name: Literal["crazy-eights"], /, *, players: int, seed: int | None = None,
    auto_chance: bool = True, **options: Any,
) -> Game[CrazyEightsAction, CrazyEightsView]: ...


@overload
def new_game(
    name: Literal["wizard"], /, *, players: int, seed: int | None = None,
    auto_chance: bool = True, **options: Any,
) -> Game[WizardAction, WizardView]: ...


@overload
def new_game(
    name: Literal["cutthroat-spades"], /, *, players: int, seed: int | None = None,
    auto_chance: bool = True, **options: Any,
) -> Game[CutthroatAction, CutthroatView]: ...


@overload
def new_game(
    name: Literal["spacc-u-mazz"], /, *, players: int, seed: int | None = None,
    auto_chance: bool = True, **options: Any,
) -> Game[SpaccAction, SpaccView]: ...


@overload
def new_game(
    name: str, /, *, players: int, seed: int | None = None,
    auto_chance: bool = True, **options: Any,
) -> Game[Any, Any]: ...


def new_game(
    name: str,
    /,
    *,
    players: int,
    seed: int | None = None,
    auto_chance: bool = True,
    **options: Any,
) -> Game[Any, Any]:
    """Start a game of the registered game ``name``.

    ``seed`` is an integer in ``0..2**64-1``; without one a fresh seed is drawn from
    :mod:`secrets`. The seed predicts every deal: keep it (and ``game.seed``,
    ``game.log``) on the host, and send players :meth:`Game.entries_for`,
    :meth:`Game.log_for` and :meth:`Game.view`. ``options`` are the game's keyword
    options (see its docs page); a bad name is an :class:`UnknownGameError`, a bad option
    or seed a :class:`ConfigError`. With ``auto_chance=False`` the game stops at every
    chance node (see ``Game.pending_chance``).

    Typing: with a built-in game's name as a literal the result is precisely typed
    (``new_game("wizard", ...)`` is a ``Game[WizardAction, WizardView]``); any other
    name gives ``Game[Any, Any]``. The options are not typed here: each game package's
    own ``new_game`` (``cardkit.games.wizard.new_game(players=4, rounds=3)``) takes them
    as typed keywords.
    """
    return start_game(get_rules(name), players, seed, auto_chance, options)


def replay(log: GameLog) -> Game[Any, Any]:
    """Rebuild the game of ``log`` by re-deciding every entry with the registered rules.

    :class:`LogError` for an unknown game or incompatible log; :class:`ReplayMismatchError`
    if the rules now decide other events than the log records, or (for a log that says
    ``auto_chance``) a chance entry is not the outcome the log's seed gives.
    """
    if not isinstance(log, GameLog):
        raise LogError(f"replay needs a GameLog (see cardkit.loads), not {type(log).__name__}")
    try:
        rules = get_rules(log.game)
    except UnknownGameError as exc:
        raise LogError(str(exc)) from exc
    return _replay_with(rules, log)
