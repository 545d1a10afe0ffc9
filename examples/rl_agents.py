"""Random and rule-based agents playing Crazy Eights through the PettingZoo AEC API.

Needs the ``rl`` extra (``pip install 'cardkit[rl]'``). The rule-based agent reads only
what an RL agent gets: the observation vector (its hand is the ``hand[0].cards`` block)
and the action mask, decoded with ``env.actions``. (cardkit.bots will offer a RuleBot per
game; this small heuristic is written here so that the example shows the observation.)

Run it:  python examples/rl_agents.py
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from cardkit.games.crazy_eights.actions import Draw, Play

try:
    import numpy as np

    import cardkit.rl
except ImportError as exc:  # the example is documentation: say what is missing
    MISSING: str | None = str(exc)
else:
    MISSING = None


def random_agent(env: Any, observation: dict[str, Any], rng: random.Random) -> int:
    """Any legal action, uniformly."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def rule_agent(env: Any, observation: dict[str, Any], rng: random.Random) -> int:
    """Shed the most valuable card that is not an 8; keep 8s for when nothing else plays,
    and then name the suit we hold most of; draw before passing."""
    legal = [int(i) for i in np.flatnonzero(observation["action_mask"])]
    hand_block = env.encoder.field("hand[0].cards")
    plane = observation["observation"][hand_block.start : hand_block.stop]
    hand = [card for card, copies in zip(env.encoder.cards, plane) for _ in range(int(copies))]
    suits = Counter(c.suit for c in hand if c.rank != 8)

    def preference(i: int) -> tuple[int, int]:
        action = env.actions[i]
        if isinstance(action, Play):
            if action.card.rank != 8:
                return (3, action.card.rank)
            return (2, suits.get(action.suit, 0) if action.suit else 9)
        return (1, 0) if isinstance(action, Draw) else (0, 0)

    return max(legal, key=preference)


def play(episodes: int, seed: int) -> Counter[str]:
    """Player 0 uses the rules, players 1 and 2 play at random; count the wins."""
    env = cardkit.rl.make("cardkit/crazy_eights_v0", players=3, seed=seed)
    agents = {"player_0": rule_agent, "player_1": random_agent, "player_2": random_agent}
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    for _ in range(episodes):
        env.reset()  # the next deal of the seeded sequence
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                if reward > 0:
                    wins[agent] += 1
                env.step(None)
            else:
                env.step(agents[agent](env, observation, rng))
    return wins


if __name__ == "__main__" and MISSING is not None:
    print(f"this example needs the rl extra: {MISSING}")
elif __name__ == "__main__":
    wins = play(episodes=60, seed=2026)
    print("wins in 60 games of Crazy Eights (player_0 follows rules, the others are random):")
    for agent in ("player_0", "player_1", "player_2"):
        print(f"  {agent}: {wins[agent]}")
