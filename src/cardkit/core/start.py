"""Starting a game of given rules from keyword options: what :func:`cardkit.new_game` does
once it has looked the rules up in the registry.

It lives in the core so that a game package's typed ``new_game`` (``games/<g>/start.py``)
can start its own game without importing :mod:`cardkit.api`, a layer above the games.
"""

from __future__ import annotations

import secrets
from typing import Any, Mapping

from cardkit.core.config import resolve_config
from cardkit.core.game import Game
from cardkit.core.rules import Rules
from cardkit.errors import ConfigError

__all__ = ["fresh_seed", "start_game"]


def fresh_seed() -> int:
    """A new random seed in ``0..2**64-1`` from :mod:`secrets` (what ``new_game`` uses
    when no seed is given)."""
    return secrets.randbits(64)


def start_game(
    rules: Rules[Any, Any, Any, Any],
    players: int,
    seed: int | None = None,
    auto_chance: bool = True,
    options: Mapping[str, Any] | None = None,
) -> Game[Any, Any]:
    """A new game of ``rules``: ``options`` resolved and checked (:class:`ConfigError`),
    ``seed`` checked, or drawn by :func:`fresh_seed` when ``None``."""
    if not isinstance(auto_chance, bool):
        raise ConfigError(
            f"auto_chance must be True or False, not {auto_chance!r}", "auto_chance", auto_chance
        )
    config = resolve_config(rules, players, options if options is not None else {})
    return Game.start(rules, config, fresh_seed() if seed is None else seed, auto_chance)
