"""The host-facing entry points that tie the registry to the engine."""

from __future__ import annotations

from typing import Any

from cardkit.core.game import Game
from cardkit.core.log import GameLog
from cardkit.core.log import replay as _replay_with
from cardkit.errors import ConfigError, LogError, UnknownGameError
from cardkit.games import get_rules

__all__ = ["new_game", "replay"]


def new_game(name: str, *, players: int, seed: int, auto_chance: bool = True, **options: Any) -> Game:
    """Start a game of the registered game ``name``.

    ``options`` are the game's keyword options (see its docs page); a bad name is an
    :class:`UnknownGameError`, a bad option a :class:`ConfigError`. With
    ``auto_chance=False`` the game stops at every chance node (see ``Game.pending_chance``).
    """
    rules = get_rules(name)
    if not isinstance(auto_chance, bool):
        raise ConfigError(f"auto_chance must be True or False, not {auto_chance!r}")
    config = rules.config(players, **options)
    return Game.start(rules, config, seed, auto_chance)


def replay(log: GameLog) -> Game:
    """Rebuild the game of ``log`` by re-deciding every entry with the registered rules.

    :class:`LogError` for an unknown game or incompatible log; :class:`ReplayMismatchError`
    if the rules now decide other events than the log records.
    """
    if not isinstance(log, GameLog):
        raise LogError(f"replay needs a GameLog (see cardkit.loads), not {type(log).__name__}")
    try:
        rules = get_rules(log.game)
    except UnknownGameError as exc:
        raise LogError(str(exc)) from exc
    return _replay_with(rules, log)
