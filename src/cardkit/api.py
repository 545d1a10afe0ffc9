"""The host-facing entry points that tie the registry to the engine."""

from __future__ import annotations

import secrets
from typing import Any

from cardkit.core.config import resolve_config
from cardkit.core.game import Game
from cardkit.core.log import GameLog
from cardkit.core.log import replay as _replay_with
from cardkit.errors import ConfigError, LogError, UnknownGameError
from cardkit.games import get_rules

__all__ = ["new_game", "replay", "fresh_seed"]


def fresh_seed() -> int:
    """A new random seed in ``0..2**64-1`` from :mod:`secrets` (what ``new_game`` uses
    when no seed is given)."""
    return secrets.randbits(64)


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
    """
    rules = get_rules(name)
    if not isinstance(auto_chance, bool):
        raise ConfigError(f"auto_chance must be True or False, not {auto_chance!r}")
    config = resolve_config(rules, players, options)
    return Game.start(rules, config, fresh_seed() if seed is None else seed, auto_chance)


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
