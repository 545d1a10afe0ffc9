"""PettingZoo's own api_test and seed_test, for every game and the example user game."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import cardkit.rl  # noqa: E402
from rl_setups import IDS, SETUPS, register_example_game  # noqa: E402

# Dict observations ({"observation", "action_mask"}) are what PettingZoo's classic games use;
# api_test only whitelists those games by name, so it warns about them for everyone else.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


@pytest.mark.parametrize(("name", "players", "options"), SETUPS, ids=IDS)
def test_api_test_passes(name: str, players: int, options: dict[str, Any]) -> None:
    register_example_game()
    env = cardkit.rl.env(name, players=players, seed=5, **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=200)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert not unexpected


@pytest.mark.parametrize(("name", "players", "options"), SETUPS, ids=IDS)
def test_seed_test_passes(name: str, players: int, options: dict[str, Any]) -> None:
    register_example_game()
    seed_test(lambda: cardkit.rl.env(name, players=players, **options), num_cycles=200)
