"""Strength floors: 3 players, short games, seats rotated, 95% Wilson intervals.

The default run plays a bounded slice (RuleBot against two RandomBots, a few games per
game, fixed seeds); the floors themselves are long runs: ``CARDKIT_LONG=1 pytest -m slow``.
"""

from __future__ import annotations

import os

import pytest

from cardkit.bots.arena import run_arena

from bots_helpers import SHORT

LONG = os.environ.get("CARDKIT_LONG") == "1"
long_only = pytest.mark.skipif(not LONG, reason="long run: CARDKIT_LONG=1")
CHANCE = 1 / 3


@pytest.mark.parametrize(
    ("name", "games"), [("wizard", 30), ("cutthroat-spades", 15), ("crazy-eights", 30), ("spacc-u-mazz", 3)]
)
def test_rule_bot_beats_random_slice(name: str, games: int) -> None:
    report = run_arena(name, 3, ["rule", "random", "random"], games, seed=11, options=SHORT[name])
    rule = report.bots[0]
    assert rule.low > CHANCE, report.table()


@pytest.mark.slow
@long_only
@pytest.mark.parametrize("name", sorted(SHORT))
def test_rule_bot_beats_random(name: str) -> None:
    report = run_arena(name, 3, ["rule", "random", "random"], 300, seed=2026, options=SHORT[name])
    assert report.bots[0].low > CHANCE, report.table()


@pytest.mark.slow
@long_only
@pytest.mark.parametrize("name", sorted(SHORT))
def test_ismcts_beats_rule_bot(name: str) -> None:
    games = int(os.environ.get("CARDKIT_BOT_GAMES", "60"))
    report = run_arena(
        name, 3, ["ismcts:1000", "rule", "rule"], games, seed=2026, options=SHORT[name],
        workers=int(os.environ.get("CARDKIT_WORKERS", "2")),
    )  # fmt: skip
    assert report.bots[0].low > CHANCE, report.table()


@pytest.mark.slow
@long_only
@pytest.mark.parametrize(("opponent", "floor"), [("random", 0.65), ("rule", 0.60)])
def test_wizard_ismcts_floors(opponent: str, floor: float) -> None:
    report = run_arena(
        "wizard", 3, ["ismcts:1000", opponent, opponent], 300, seed=2026, options=SHORT["wizard"],
        workers=int(os.environ.get("CARDKIT_WORKERS", "2")),
    )  # fmt: skip
    assert report.bots[0].share >= floor, report.table()
