"""The training example (examples/rl_train.py), in a few seconds: it learns, masks hold."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np

import rl_train  # examples/ is on sys.path (tests/conftest.py)


def test_smoke_training_moves_the_loss_and_never_plays_an_illegal_action(tmp_path: Path) -> None:
    # a fixed number of updates: the same run on any machine
    policy, curve, facts = rl_train.train(
        60.0, envs=32, batch_episodes=32, eval_every=1e9, eval_games=200, seed=1, max_updates=25, log=lambda *a: None
    )
    assert facts["illegal"] == 0  # sampled from the masked policy (VectorEnv would raise too)
    losses = facts["losses"]
    assert len(losses) == 25
    assert np.std(losses) > 0  # the loss moves
    assert np.abs(policy.params["wp"]).sum() > 0  # the policy head left its zero start
    assert [p.episodes for p in curve][0] == 0 and curve[-1].episodes == facts["episodes"]
    first, last = curve[0], curve[-1]
    assert 0.3 < first.win_share < 0.7  # the untrained (uniform) policy plays like random
    assert last.win_share > first.win_share  # three seconds already pull away from random
    rl_train.write_csv(tmp_path / "curve.csv", curve)
    rl_train.write_png(tmp_path / "curve.png", curve)
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("cpu_seconds,episodes,win_share") and len(rows) == len(curve) + 1
    png = (tmp_path / "curve.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    idat = png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8]
    assert len(zlib.decompress(idat)) == 360 * (1 + 640 * 3)


def test_wilson_interval() -> None:
    low, high = rl_train.wilson(60, 100)
    assert 0.50 < low < 0.51 and 0.69 < high < 0.70
    assert rl_train.wilson(0, 0) == (0.0, 1.0)
