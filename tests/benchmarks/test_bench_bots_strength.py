"""``benchmarks/bots_strength.py --quick`` (the CI slice) runs and prints every target of
issue 26 next to its figure; the level bots are stood in for by cheap specs (``--level``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("wizard", "cutthroat-spades", "crazy-eights", "spacc-u-mazz")


def _quick(*extra: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bots_strength.py"), "--quick", *extra],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_quick_slice_prints_each_target_next_to_its_figure() -> None:
    out = _quick("--level", "1=random", "--level", "2=rule", "--level", "3=ismcts:4")
    for game in GAMES:
        assert f"## default-vs-rule {game}" in out and f"## ladder {game}" in out
    assert out.count("target (ismcts:4 vs two RuleBots, >= 600 games)") == 4
    assert "share >= 0.75 (and >= 0.45) and low > 0.40" in out and "share >= 0.40 and low > 1/3" in out
    assert out.count("target (level 2 vs level 1, RuleBot third): share of the two >= 0.55; figure: ") == 4
    assert "bids made exactly >= 0.75; figure: " in out
    assert out.count("duplicate deals:") >= 12  # every arena table states its design
    assert "not measured here: the cost targets" in out and "its figures judge nothing" in out


def test_missing_level_bots_are_skipped_with_the_reason() -> None:
    out = _quick("--only", "default-vs-rule", "wizard")
    assert "## default-vs-rule wizard" in out and "## ladder" not in out and "## default-vs-rule crazy" not in out
    assert "skipped: unknown bot 'level:3'" in out or "target (level:3 vs two RuleBots" in out
