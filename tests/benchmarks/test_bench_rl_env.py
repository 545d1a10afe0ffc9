"""``benchmarks/rl_env.py`` runs, measures fixed batches through the shared harness, and
prints each target's ratio with its verdict read from the paired figure (no timing is
asserted)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import rl_env  # noqa: E402

LINE = re.compile(
    r"^(?P<label>[a-z' -]+ \dp): Game\.play [\d,]+ seat actions/s \(median\), env step [\d,]+ steps/s .*"
    r"env/Game\.play (?P<median>[\d.]+)x median \((?P<best>[\d.]+)x best; (?P<paired>[\d.]+)x paired\) "
    r"over 2 rounds of \d+ and \d+ games   target >= 0\.5x: (?P<verdict>met|not met)"
    r"; constant observation: [\d.]+x paired$"
)


def test_quick_run_prints_a_ratio_and_verdict_per_target() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "rl_env.py"), "--quick", "--floor", "--no-breakdown"],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    found = {}
    for line in done.stdout.splitlines():
        match = LINE.match(line)
        assert match is not None, line
        paired = float(match["paired"])
        assert match["verdict"] == ("met" if paired >= 0.5 else "not met"), line
        found[match["label"]] = paired
    assert sorted(found) == sorted(label for label, *_ in rl_env.TARGETS)


def test_a_batch_plays_the_same_games_every_time() -> None:
    # The harness asserts that every round does the same work: both sides must be
    # deterministic functions of (games, first seed).
    import cardkit.rl

    env = cardkit.rl.env("crazy-eights", players=2)
    assert rl_env.env_batch(env, 3, 5) == rl_env.env_batch(env, 3, 5)
    assert rl_env.game_play_batch("crazy-eights", 2, {}, 3, 5) == rl_env.game_play_batch("crazy-eights", 2, {}, 3, 5)
    # Slices of consecutive seeds add up to the whole batch.
    whole = rl_env.game_play_batch("wizard", 3, {"rounds": 2}, 4, 1)
    parts = rl_env.game_play_batch("wizard", 3, {"rounds": 2}, 2, 1) + rl_env.game_play_batch("wizard", 3, {"rounds": 2}, 2, 3)
    assert whole == parts
