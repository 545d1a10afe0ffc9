"""``benchmarks/bots_cheat_ceiling.py``: the all-seeing search of issue 26 runs for any bot
spec, and every module that samples deals is handed the true state."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], code: str | None = None) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT / "benchmarks")]))
    command = [sys.executable, "-c", code] if code else [sys.executable, str(ROOT / "benchmarks" / "bots_cheat_ceiling.py"), *args]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_level_bot_shown_every_card_plays_the_arena() -> None:
    out = _run(["--game", "spacc-u-mazz", "--bot", "level:4", "--games", "3", "--seed", "5"])
    assert "all-seeing level:4 vs two RuleBots, spacc-u-mazz" in out and "over 3 games, seed 5" in out
    assert "unfinished games: 0" in out


def test_every_sampler_draws_the_true_deal() -> None:
    code = """
import random
import cardkit
import bots_cheat_ceiling as ceiling
from cardkit.bots import kernel_search, pimc, search_cutthroat_spades, search_spacc_u_mazz, search_wizard
from cardkit.kernels._base import KRng
from cardkit.kernels.bridge import bridge_for
ceiling._install()
game = cardkit.new_game("crazy-eights", players=3, seed=3)
seat_state = game.seat_state(game.to_act)
bridge = bridge_for(game.rules, game.config)
for module in (kernel_search, pimc, search_cutthroat_spades, search_spacc_u_mazz, search_wizard):
    if hasattr(module, "deal_sampler"):
        drawn = module.deal_sampler(seat_state, bridge, []).draw(KRng(1))
        true = bridge.kernel(game.state)
        rng_a, rng_b = KRng(9), KRng(9)
        for _ in range(60):  # the same line of play from the drawn and the true kernel
            if true.actor() < 0:
                break
            assert drawn.actor() == true.actor() and drawn.legal() == true.legal()
            action = true.policy_action(rng_a, 0.0)
            assert drawn.policy_action(rng_b, 0.0) == action
            true.apply(action)
            drawn.apply(action)
    if hasattr(module, "pool_sampler"):
        assert module.pool_sampler(seat_state, bridge, random.Random(0), KRng(0)) is None
print("ok")
"""
    assert _run([], code).strip().endswith("ok")
