"""PettingZoo-style module of the ``cardkit/cutthroat_spades_v0`` environment: ``env()`` and ``raw_env()``."""

from __future__ import annotations

from typing import Any

from cardkit.rl.env import CardkitEnv

__all__ = ["env", "raw_env"]

GAME = "cutthroat-spades"
"""The cardkit game of this environment."""


def env(players: int, seed: int | None = None, **options: Any) -> CardkitEnv:
    """The cutthroat-spades environment (options: see ``CardkitEnv`` and the game's docs)."""
    return CardkitEnv(GAME, players, seed, **options)


raw_env = env
"""The same as :func:`env`: the environment already enforces the AEC call order."""
