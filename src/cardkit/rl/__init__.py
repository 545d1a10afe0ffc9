"""PettingZoo environments for cardkit games (extra ``rl``: ``pip install cardkit[rl]``).

``cardkit.rl.env("crazy-eights", players=3, seed=1)`` or
``cardkit.rl.make("cardkit/crazy_eights_v0", players=3)`` gives an AEC environment; the
modules :mod:`cardkit.rl.crazy_eights_v0` (and ``wizard_v0``, ``cutthroat_spades_v0``,
``spacc_u_mazz_v0``) offer PettingZoo-style ``env()`` / ``raw_env()``.
:class:`VectorEnv` steps ``n`` games in numpy batches (on the Crazy Eights kernel) and
:class:`SingleAgentEnv` is a Gymnasium environment for one seat against cardkit bots.
See docs/rl.md.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"cardkit.rl needs the 'rl' extra ({exc.name} is missing): pip install 'cardkit[rl]'"
    ) from exc

from cardkit.rl.checks import check_env
from cardkit.rl.encoding import Field, ObservationEncoder
from cardkit.rl.env import CardkitEnv
from cardkit.rl.outcome import REWARD_MODES, rewards_of
from cardkit.rl.registry import env, env_id, env_ids, make, raw_env
from cardkit.rl.single import SingleAgentEnv
from cardkit.rl.vector import VectorEnv, random_actions

__all__ = [
    "CardkitEnv",
    "ObservationEncoder",
    "Field",
    "REWARD_MODES",
    "rewards_of",
    "env",
    "raw_env",
    "make",
    "env_id",
    "env_ids",
    "check_env",
    "VectorEnv",
    "SingleAgentEnv",
    "random_actions",
]
