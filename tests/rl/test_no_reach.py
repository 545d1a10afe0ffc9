"""What a learning agent holds (observations, action masks, rewards, info dicts) reaches
nothing of the host's secrets: no Game, no true state, no log node, no chance order, no
seed (issue 24, item 3; the walk is :func:`cardkit.testing.reach.secrets_reachable`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import cardkit.rl  # noqa: E402
from cardkit.testing.reach import secrets_reachable  # noqa: E402
from rl_setups import IDS, SETUPS, register_example_game  # noqa: E402

SEED = 2**63 + 424_242


def _agent_inputs(env: Any) -> list[object]:
    """Everything the agent loop hands out now: ``last()`` (observation, reward,
    termination, truncation, info), every agent's ``observe``, the info dicts."""
    held: list[object] = [env.infos, env.rewards, env.terminations, env.truncations]
    if env.agents:  # once every agent has left, there is no last()
        held.append(env.last())
    held += [env.observe(agent) for agent in env.possible_agents]
    return held


@pytest.mark.parametrize(("name", "players", "options"), SETUPS, ids=IDS)
def test_observations_and_infos_reach_no_secret(name: str, players: int, options: dict[str, Any]) -> None:
    register_example_game()
    env = cardkit.rl.env(name, players=players, seed=SEED, **options)
    env.reset(seed=SEED)
    rng = random.Random(1)
    held: list[object] = []
    steps = 0
    for agent in env.agent_iter(max_iter=200):
        held.extend(_agent_inputs(env))
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(rng.choice([i for i, ok in enumerate(mask) if ok]))
        steps += 1
    held.extend(_agent_inputs(env))
    game = env.unwrapped.game
    assert steps > 0
    # everything at once: what an agent that kept every input would hold
    assert secrets_reachable(held, game) == []
    # the control: the environment itself is host side, and the walk does see that
    assert secrets_reachable([env], game) != []


def test_the_info_of_an_illegal_move_reaches_no_secret() -> None:
    env = cardkit.rl.env("wizard", players=3, seed=SEED, rounds=2, illegal="terminate")
    env.reset(seed=SEED)
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(next(i for i, ok in enumerate(mask) if not ok))
    infos = env.infos
    assert any("illegal_action" in info for info in infos.values())
    assert secrets_reachable(_agent_inputs(env), env.unwrapped.game) == []
