"""SingleAgentEnv: Gymnasium's checker, bots between steps, masks, and Gymnasium's vector API."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardkit.errors import ConfigError, IllegalActionError
from cardkit.rl import CardkitEnv
from cardkit.rl.single import SingleAgentEnv


@pytest.mark.parametrize(
    "game,players,options",
    [("crazy-eights", 2, {}), ("wizard", 3, {"rounds": 2}), ("cutthroat-spades", 3, {"max_hands": 1, "wins_needed": 1})],
)
def test_gymnasium_check_env_passes(game: str, players: int, options: dict[str, Any]) -> None:
    env = SingleAgentEnv(game, players, opponents="level:1", **options)
    check_env(env, skip_render_check=True)


def test_learner_sees_its_own_aec_observation_and_bots_play_the_rest() -> None:
    env = SingleAgentEnv("crazy-eights", 3, seat=1, opponents=["random", "rule"], illegal="raise")
    aec = CardkitEnv("crazy-eights", 3)
    rng = np.random.default_rng(0)
    episodes = 0
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        assert env.game.seed == seed
        done = False
        while not done:
            assert env.game.to_act == 1
            np.testing.assert_array_equal(obs, aec.reference_observation_of(env.game, 1))
            np.testing.assert_array_equal(info["action_mask"], aec.mask_of(env.game))
            np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        result = env.game.result
        assert result is not None
        assert reward == (0.0 if not result.winners else 1.0 if 1 in result.winners else -1.0)
        episodes += 1
    assert episodes == 6


def test_illegal_actions() -> None:
    env = SingleAgentEnv("crazy-eights", 2, seed=4)
    obs, info = env.reset()
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, bad)
    with pytest.raises(IllegalActionError):
        env.step(0)
    strict = SingleAgentEnv("crazy-eights", 2, seed=4, illegal="raise")
    strict.reset()
    with pytest.raises(IllegalActionError):
        strict.step(bad)
    with pytest.raises(ConfigError):
        SingleAgentEnv("crazy-eights", 2, seat=2)
    with pytest.raises(ConfigError):
        SingleAgentEnv("crazy-eights", 3, opponents=["random"])
    with pytest.raises(ConfigError):
        SingleAgentEnv("crazy-eights", 2, opponents="nobody")


def test_random_seat_and_determinism() -> None:
    env = SingleAgentEnv("crazy-eights", 4, seat="random", opponents="level:2")
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
    assert len(seats) > 1
    a, b = SingleAgentEnv("crazy-eights", 2), SingleAgentEnv("crazy-eights", 2)
    np.testing.assert_array_equal(a.reset(seed=9)[0], b.reset(seed=9)[0])


def test_gymnasium_sync_vector_env_loop() -> None:
    """Interop: Gymnasium's own vector API (SyncVectorEnv, next-step autoreset) drives the
    wrapper; masked random actions never break a rule (illegal='raise')."""
    n = 3
    venv = gymnasium.vector.SyncVectorEnv(
        [lambda: SingleAgentEnv("crazy-eights", 2, illegal="raise") for _ in range(n)]
    )
    obs, info = venv.reset(seed=11)
    assert obs.shape == (n, venv.single_observation_space.shape[0])
    rng = np.random.default_rng(2)
    finished = 0
    autoreset = np.zeros(n, dtype=bool)
    for _ in range(200):
        mask = info["action_mask"]
        keys = rng.random(mask.shape)
        keys[mask == 0] = -1
        actions = keys.argmax(1)
        actions[autoreset] = 0  # a next-step reset ignores the action
        obs, rewards, terminated, truncated, info = venv.step(actions)
        autoreset = terminated | truncated
        finished += int(autoreset.sum())
        assert set(np.unique(rewards[autoreset])) <= {-1.0, 0.0, 1.0}
    assert finished >= 3
    venv.close()
