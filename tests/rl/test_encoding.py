"""The observation blocks hold what docs/rl.md says they hold."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import cardkit.rl  # noqa: E402
from rl_setups import IDS, SETUPS, register_example_game  # noqa: E402


def _block(env: Any, obs: Any, name: str) -> Any:
    f = env.encoder.field(name)
    return obs[f.start : f.stop]


def _cards(env: Any, plane: Any) -> Counter[str]:
    return Counter({c.code: int(k) for c, k in zip(env.encoder.cards, plane) if k})


@pytest.mark.parametrize(("name", "players", "options"), SETUPS, ids=IDS)
def test_blocks_match_the_view_and_the_zones(name: str, players: int, options: dict[str, Any]) -> None:
    register_example_game()
    env = cardkit.rl.env(name, players=players, seed=21, **options)
    env.reset()
    rng = random.Random(4)
    for step in range(150):
        if env.game.is_over:
            break
        game = env.game
        seat = game.to_act
        watcher = (seat + 1) % players
        for who in (seat, watcher):
            obs = env.observation_of(game, who)
            assert obs.dtype == np.float32 and obs.shape == (env.encoder.size,)
            assert env.observation_space(f"player_{who}")["observation"].contains(obs)
            to_act = _block(env, obs, "to_act")
            assert to_act.tolist() == [1.0 if r == (seat - who) % players else 0.0 for r in range(players)]
            for zone in game.zones():
                rel = None if zone.owner is None else (zone.owner - who) % players
                label = zone.name if rel is None else f"{zone.name}[{rel}]"
                assert _block(env, obs, f"{label}.size")[0] == len(zone.cards)
                visible = who in zone.visible_to
                assert _block(env, obs, f"{label}.visible")[0] == (1.0 if visible else 0.0)
                expected = Counter(c.code for c in zone.cards) if visible else Counter()
                assert _cards(env, _block(env, obs, f"{label}.cards")) == expected
            view = game.view(who)
            if "scores" in view:
                scores = view["scores"]
                assert _block(env, obs, "scores").tolist() == [scores[(who + r) % players] for r in range(players)]
            if "trick" in view and name != "high-card":
                plane = _block(env, obs, "trick").reshape(players, len(env.encoder.cards))
                for s, code in view["trick"]:
                    assert plane[(s - who) % players, env.encoder.cards.index(cardkit.Card(code))] == 1.0
                assert plane.sum() == len(view["trick"])
            if name == "crazy-eights":
                top = _block(env, obs, "top_card")
                assert env.encoder.cards[int(np.argmax(top))].code == view["top_card"]
        mask = env.observe(f"player_{seat}")["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_the_rule_agent_of_the_example_beats_random_agents() -> None:
    from rl_agents import play

    wins = play(episodes=30, seed=5)
    assert wins["player_0"] > max(wins["player_1"], wins["player_2"])
