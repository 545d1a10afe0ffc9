"""``check_env``: the environment checks of the test suite, for any registered game.

Run it on your own game once it has ``action_space(config)``: it plays random episodes
through the AEC API and checks, at every step, that the action mask is exactly the legal
actions of the seat to act (so that ``action_space`` covers them), that every waiting
agent's mask is zero and every observation lies in its space; then it runs PettingZoo's
``api_test`` and ``seed_test``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from cardkit.rl.env import CardkitEnv
from cardkit.rng import Rng
from cardkit.testing.invariants import InvariantViolation

__all__ = ["check_env"]

_DICT_OBS_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


def _mask_steps(env: CardkitEnv, steps: int, seed: int) -> int:
    rng = Rng.stream(seed, 1 << 41)
    env.reset(seed=seed)
    checked = 0
    players = env.players
    while checked < steps:
        agent = env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        game = env.game
        where = f"{env} seed {seed}, step {checked} (entry {len(game.log.entries)})"
        seat = env.possible_agents.index(agent)
        legal = game.legal_actions()
        missing = [a for a in legal if a not in env.action_index]
        if missing:
            raise InvariantViolation(f"{where}: legal actions missing from action_space: {missing}")
        mask = obs["action_mask"]
        chosen = np.flatnonzero(mask)
        if {env.actions[i] for i in chosen.tolist()} != set(legal) or len(chosen) != len(legal):
            raise InvariantViolation(f"{where}: the mask of {agent} differs from legal_actions()")
        if not env.observation_space(agent).contains(obs):
            raise InvariantViolation(f"{where}: the observation of {agent} is outside its space")
        for other in range(players):
            if other != seat and env.observe(env.possible_agents[other])["action_mask"].any():
                raise InvariantViolation(f"{where}: waiting agent player_{other} has a non-zero mask")
        env.step(int(chosen[rng.below(len(chosen))]))
        checked += 1
    return checked


def check_env(game: str, players: int, *, seed: int = 0, steps: int = 2000, **options: Any) -> int:
    """Check the environment of registered game ``game`` (see the module docs).

    ``steps`` random seat actions are checked (over as many episodes as they take); raises
    :class:`~cardkit.testing.InvariantViolation` (an ``AssertionError``) naming the game,
    seed and step on the first failure (the environment itself raises a
    :class:`~cardkit.ConfigError` as soon as the game offers an action its ``action_space``
    lacks). Returns the number of steps checked. PettingZoo's tests print a line or two.
    """
    from pettingzoo.test import api_test, seed_test

    checked = _mask_steps(CardkitEnv(game, players, seed, **options), steps, seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            api_test(CardkitEnv(game, players, seed, **options), num_cycles=100)
            seed_test(lambda: CardkitEnv(game, players, **options), num_cycles=100)
        except AssertionError as exc:
            raise InvariantViolation(f"{game}: PettingZoo's test failed: {exc}") from exc
    odd = [str(w.message) for w in caught if not str(w.message).startswith(_DICT_OBS_WARNINGS)]
    if odd:
        raise InvariantViolation(f"{game}: PettingZoo's api_test warned: {odd[0]}")
    return checked
