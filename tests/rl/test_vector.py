"""VectorEnv: the AEC environment's observations, masks, rewards and games, in batches."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from cardkit.core.game import Game
from cardkit.errors import ConfigError, IllegalActionError
from cardkit.rl import CardkitEnv
from cardkit.rl.outcome import rewards_of, truncated_by_guard
from cardkit.rl.vector import VectorEnv, random_actions

from conftest import long_or

# Crazy Eights configs that reach every path of the kernel encoder: action cards, a
# reversed direction, pending draws, rebuilt stocks, points matches (several deals,
# revealed hands, scores), two packs.
KERNEL_SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {"two_draws_two": True, "jack_skips": True, "ace_reverses": True}),
    (7, {"draw": "until_playable", "stock_empty": "reshuffle", "max_turns": 80}),
    (3, {"mode": "points", "target": 60, "queen_of_spades_draws_five": True}),
    (5, {"decks": 2, "two_draws_two": True, "stock_empty": "reshuffle"}),
]
GAME_SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("crazy-eights", 3, {}),
    ("wizard", 3, {"rounds": 3}),
    ("cutthroat-spades", 3, {"target": 100, "wins_needed": 1}),
    ("spacc-u-mazz", 2, {"max_turns": 200}),
]


def _lockstep(venv: VectorEnv, steps: int, seed: int) -> int:
    """Step ``venv`` with random legal actions next to reference Games fed the same seeds
    and actions; check every output against the AEC environment. Returns episodes ended."""
    name = venv.rules.name
    aec = CardkitEnv(name, venv.players, rewards=venv.reward_mode, **venv.options)
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    obs, info = venv.reset(seed=[seed * 100 + i for i in range(venv.num_envs)])
    games = [Game.start(venv.rules, venv.config, s) for s in venv.episode_seeds]
    ended = 0

    def check(obs: Any, info: dict[str, Any]) -> None:
        for i, game in enumerate(games):
            seat = game.to_act
            assert info["agent"][i] == seat
            np.testing.assert_array_equal(obs[i], aec.reference_observation_of(game, seat))
            np.testing.assert_array_equal(info["action_mask"][i], aec.mask_of(game))
            if pick.random() < 0.25:  # now and then every seat: the others' diffs span turns
                for other in range(venv.players):
                    np.testing.assert_array_equal(
                        venv.observation(i, other), aec.reference_observation_of(game, other)
                    )

    check(obs, info)
    for _ in range(steps):
        actions = random_actions(info["action_mask"], rng)
        obs, rewards, terminated, truncated, info = venv.step(actions)
        for i in range(venv.num_envs):
            game = games[i].play(venv.actions[int(actions[i])])
            if game.to_act is None:
                result = game.result
                assert result is not None
                last = game.last_entry
                cut = truncated_by_guard(name, game.state, last.events if last else ())
                assert (bool(terminated[i]), bool(truncated[i])) == (not cut, cut)
                assert tuple(rewards[i]) == rewards_of(result, venv.players, venv.reward_mode)
                game = Game.start(venv.rules, venv.config, venv.episode_seeds[i])
                ended += 1
            else:
                assert not terminated[i] and not truncated[i] and not rewards[i].any()
            games[i] = game
        check(obs, info)
    return ended


@pytest.mark.parametrize("players,options", KERNEL_SETUPS, ids=[f"{p}p-{i}" for i, (p, _) in enumerate(KERNEL_SETUPS)])
def test_kernel_engine_equals_the_aec_environment(players: int, options: dict[str, Any]) -> None:
    venv = VectorEnv("crazy-eights", 3, players=players, engine="kernel", **options)
    ended = _lockstep(venv, long_or(80 * players, 1000 * players), seed=players)
    assert ended >= 1  # episodes ended and were reset in the run


@pytest.mark.parametrize("game,players,options", GAME_SETUPS, ids=[g for g, _, _ in GAME_SETUPS])
def test_game_engine_equals_the_aec_environment(game: str, players: int, options: dict[str, Any]) -> None:
    venv = VectorEnv(game, 2, players=players, engine="game", **options)
    _lockstep(venv, long_or(40, 600), seed=players)


def test_score_rewards_and_many_episodes() -> None:
    venv = VectorEnv("crazy-eights", 4, players=2, rewards="score", seed=5)
    venv.record = True
    obs, info = venv.reset()
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(400):
        obs, rewards, terminated, truncated, info = venv.step(random_actions(info["action_mask"], rng))
        for i in np.flatnonzero(terminated | truncated):
            seen += 1
            assert rewards[i].sum() > 0  # the winner's points
    assert seen >= 4
    # game(i) replays the running episode: the same position as the kernel's
    aec = CardkitEnv("crazy-eights", 2)
    for i in range(4):
        game = venv.game(i)
        assert game.to_act == info["agent"][i]
        np.testing.assert_array_equal(obs[i], aec.reference_observation_of(game, game.to_act))


def test_illegal_action_changes_nothing() -> None:
    venv = VectorEnv("crazy-eights", 2, players=2, seed=3)
    obs, info = venv.reset()
    mask = info["action_mask"]
    bad = int(np.flatnonzero(mask[1] == 0)[0])
    good = int(np.flatnonzero(mask[0])[0])
    with pytest.raises(IllegalActionError, match="sub-environment 1"):
        venv.step([good, bad])
    with pytest.raises(IllegalActionError):
        venv.step([good, 70])
    np.testing.assert_array_equal(venv.action_mask, mask)
    np.testing.assert_array_equal(venv._observations(), obs)


def test_seeds_and_errors() -> None:
    a = VectorEnv("crazy-eights", 3, players=2, seed=10)
    b = VectorEnv("crazy-eights", 3, players=2, seed=[10, 11, 12])
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    assert a.episode_seeds == [10, 11, 12]
    # unseeded reset continues each sub-environment's own sequence (CardkitEnv's)
    a.reset()
    aec = CardkitEnv("crazy-eights", 2, seed=10)
    aec.reset()
    aec.reset()
    assert aec.game.seed == a.episode_seeds[0]
    with pytest.raises(ConfigError):
        VectorEnv("wizard", 2, players=3, engine="kernel")
    with pytest.raises(ConfigError):
        VectorEnv("crazy-eights", 0, players=2)
    with pytest.raises(ConfigError):
        VectorEnv("crazy-eights", 2, players=2, seed=[1])
    with pytest.raises(IllegalActionError):
        VectorEnv("crazy-eights", 2, players=2).step([0, 0])
