"""The action mask equals legal_actions() at every step, over thousands of random steps."""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import cardkit  # noqa: E402
import cardkit.rl  # noqa: E402
from rl_setups import IDS, SETUPS, register_example_game  # noqa: E402

STEPS = 10_000 if os.environ.get("CARDKIT_LONG") == "1" else 1_500


def _run(name: str, players: int, options: dict[str, Any], steps: int, seed: int) -> int:
    env = cardkit.rl.env(name, players=players, seed=seed, **options)
    rng = random.Random(seed)
    env.reset()
    checked = 0
    while checked < steps:
        agent = env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        game = env.game
        seat = env.possible_agents.index(agent)
        assert game.to_act == seat
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        legal = game.legal_actions()
        chosen = np.flatnonzero(mask)
        # decoded, the mask is exactly the legal actions (no duplicates, none missing)
        assert len(chosen) == len(legal)
        assert {env.actions[i] for i in chosen.tolist()} == set(legal)
        assert np.array_equal(env.mask_of(game), mask)
        other = env.possible_agents[(seat + 1) % players]
        assert not env.observe(other)["action_mask"].any(), "a waiting agent's mask is non-zero"
        if checked % 25 == 0:  # a masked-out index is refused, and nothing changes
            refused = np.flatnonzero(mask == 0)
            if len(refused):
                before = env.game
                with pytest.raises(cardkit.IllegalActionError):
                    env.step(int(rng.choice(refused)))
                assert env.game is before and env.agent_selection == agent
        env.step(int(rng.choice(chosen)))
        checked += 1
    return checked


@pytest.mark.parametrize(("name", "players", "options"), SETUPS, ids=IDS)
def test_mask_equals_legal_actions(name: str, players: int, options: dict[str, Any]) -> None:
    register_example_game()
    assert _run(name, players, options, STEPS // 2 if name == "high-card" else STEPS, 11) > 0


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("CARDKIT_LONG") != "1", reason="CARDKIT_LONG=1 only")
@pytest.mark.parametrize(("name", "players", "options"), SETUPS, ids=IDS)
def test_mask_long_run_other_seeds(name: str, players: int, options: dict[str, Any]) -> None:
    register_example_game()
    for seed in (101, 102):
        assert _run(name, players, options, STEPS, seed) == STEPS
