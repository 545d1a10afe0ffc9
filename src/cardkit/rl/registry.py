"""Environment names: ``cardkit/<game>_v0`` ids, :func:`make`, :func:`env` and :func:`raw_env`.

Gymnasium's registry is for single-agent environments, and PettingZoo has no registry of its
own: its environments are modules with ``env()`` and ``raw_env()`` functions. cardkit gives
both styles. Every registered game (built in or the user's, via :func:`cardkit.register`)
has the id ``"cardkit/" + name.replace("-", "_") + "_v0"``; :func:`make` takes an id,
:func:`env` a game name. The ``_v0`` is the environment's version: it goes up when the
observation layout or the action index of a game changes.
"""

from __future__ import annotations

from typing import Any

from cardkit.errors import UnknownGameError
from cardkit.games import available_games
from cardkit.rl.env import CardkitEnv, env_id

__all__ = ["env", "raw_env", "make", "env_ids", "env_id"]


def env_ids() -> tuple[str, ...]:
    """The ids of every registered game, sorted by game name."""
    return tuple(env_id(g) for g in available_games())


def env(name: str, players: int, seed: int | None = None, **options: Any) -> CardkitEnv:
    """The AEC environment of game ``name`` (see :class:`CardkitEnv` for the options).

    It is the raw environment: it already checks the order of calls and raises cardkit errors
    for illegal actions, so PettingZoo's wrappers (which would turn them into warnings or
    silent terminations) are left to the user.
    """
    return CardkitEnv(name, players, seed, **options)


raw_env = env
"""The same as :func:`env` (PettingZoo modules offer both names)."""


def make(env_name: str, players: int, seed: int | None = None, **options: Any) -> CardkitEnv:
    """The environment with id ``env_name`` (e.g. ``"cardkit/wizard_v0"``)."""
    for game in available_games():
        if env_id(game) == env_name:
            return CardkitEnv(game, players, seed, **options)
    raise UnknownGameError(
        f"no environment {env_name!r}; available: {', '.join(env_ids())}"
    )
