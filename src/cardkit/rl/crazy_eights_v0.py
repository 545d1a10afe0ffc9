"""PettingZoo-style module of the ``cardkit/crazy_eights_v0`` environment: ``env()`` and ``raw_env()``."""

from __future__ import annotations

from typing import Any

from cardkit.rl.env import CardkitEnv

__all__ = ["env", "raw_env"]

GAME = "crazy-eights"
"""The cardkit game of this environment."""


def env(players: int, seed: int | None = None, **options: Any) -> CardkitEnv:
    """The crazy-eights environment (options: see ``CardkitEnv`` and the game's docs)."""
    return CardkitEnv(GAME, players, seed, **options)


raw_env = env
"""The same as :func:`env`: the environment already enforces the AEC call order."""
