"""Strength floors: 3 players, short games, seats rotated, 95% Wilson intervals.

The default run plays a bounded slice (RuleBot against two RandomBots, a few games per
game, fixed seeds); the floors themselves are long runs: ``CARDKIT_LONG=1 pytest -m slow``.
Each long run replays exactly a run of the strength table in ``docs/bots.md`` (same bots,
games and seeds), so a failure here means the table no longer holds.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

import pytest

from cardkit.bots.arena import ArenaReport, run_arena, summarize

from bots_helpers import SHORT

LONG = os.environ.get("CARDKIT_LONG") == "1"
long_only = pytest.mark.skipif(not LONG, reason="long run: CARDKIT_LONG=1")
CHANCE = 1 / 3
WORKERS = int(os.environ.get("CARDKIT_WORKERS", "2"))


def chunked(name: str, specs: Sequence[str], games: int, seeds: Sequence[int]) -> ArenaReport:
    """``games`` games for each arena seed in ``seeds``, summarized together (the table's
    long runs were played in such chunks so that a cut-off run still gave its counts)."""
    outcomes: list[Any] = []
    for seed in seeds:
        report = run_arena(name, 3, specs, games, seed=seed, options=SHORT[name], workers=WORKERS)
        outcomes.extend(report.outcomes)
    return summarize(name, 3, SHORT[name], seeds[0], specs, outcomes)


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


# The ISMCTS runs of the table: (game, bots, games per chunk, arena seeds). A floor that
# the table shows is asserted; one it does not show is an expected failure that says so.
WIZARD_VS_RULE = ("wizard", ["ismcts:1000", "rule", "rule"], 30, range(4000, 4010))
WIZARD_VS_RANDOM = ("wizard", ["ismcts:1000", "random", "random"], 30, range(3000, 3010))
CUTTHROAT_VS_RULE = ("cutthroat-spades", ["ismcts:1000", "rule", "rule"], 3, range(2026, 2046))
CRAZY_EIGHTS_VS_RULE = ("crazy-eights", ["ismcts:1000", "rule", "rule"], 30, range(2026, 2046))
SPACC_VS_RULE = ("spacc-u-mazz", ["ismcts:1000", "rule", "rule"], 3, range(2026, 2034))


@pytest.mark.slow
@long_only
def test_wizard_ismcts_beats_random_bots() -> None:
    name, specs, games, seeds = WIZARD_VS_RANDOM
    report = chunked(name, specs, games, seeds)
    assert report.bots[0].share >= 0.65 and report.bots[0].low > CHANCE, report.table()


@pytest.mark.slow
@long_only
def test_wizard_ismcts_beats_rule_bots() -> None:
    name, specs, games, seeds = WIZARD_VS_RULE
    report = chunked(name, specs, games, seeds)
    assert report.bots[0].low > CHANCE, report.table()


@pytest.mark.slow
@long_only
def test_wizard_ismcts_reaches_060_against_rule_bots() -> None:
    name, specs, games, seeds = WIZARD_VS_RULE
    report = chunked(name, specs, games, seeds)
    assert report.bots[0].share >= 0.60, report.table()


@pytest.mark.slow
@long_only
def test_cutthroat_ismcts_beats_rule_bots() -> None:
    name, specs, games, seeds = CUTTHROAT_VS_RULE
    report = chunked(name, specs, games, seeds)
    assert report.bots[0].low > CHANCE, report.table()


@pytest.mark.slow
@long_only
@pytest.mark.xfail(reason="not shown: 0.350 [0.313, 0.389] over the table's 600 Crazy Eights hands, level with RuleBot", strict=False)
def test_crazy_eights_ismcts_beats_rule_bots() -> None:
    name, specs, games, seeds = CRAZY_EIGHTS_VS_RULE
    report = chunked(name, specs, games, seeds)
    assert report.bots[0].low > CHANCE, report.table()


@pytest.mark.slow
@long_only
@pytest.mark.xfail(reason="not met: 0.375 [0.212, 0.573] over the table's 24 Spacc 'u Mazz hands", strict=False)
def test_spacc_ismcts_beats_rule_bots() -> None:
    name, specs, games, seeds = SPACC_VS_RULE
    report = chunked(name, specs, games, seeds)
    assert report.bots[0].low > CHANCE, report.table()


@pytest.mark.slow
@long_only
def test_spacc_default_level_beats_rule_bots() -> None:
    """docs/bots.md, *Crazy Eights and Spacc 'u Mazz, 2026-12-02 evening*: level 3 (the
    eager shedder) against two RuleBots, the held-out 600 games of seed 9100 (0.517
    [0.477, 0.556]); the issue's target there is a share >= 0.40 with the low > 1/3."""
    report = run_arena("spacc-u-mazz", 3, ["level:3", "rule", "rule"], 600, seed=9100,
                       options=SHORT["spacc-u-mazz"], workers=WORKERS, design="rotations")  # fmt: skip
    bot = report.bots[0]
    assert bot.share >= 0.40 and bot.low > CHANCE, report.table()


@pytest.mark.slow
@long_only
def test_spacc_level_4_beats_level_3() -> None:
    """docs/bots.md, *Crazy Eights and Spacc 'u Mazz, round 3*: the ladder's rung 3 -> 4 in
    Spacc 'u Mazz (level 4, the eager shedder checked by 400 whole-hand playouts, against
    level 3, the eager shedder, with a RuleBot third), held-out seed 9202: the SPRT
    accepted after 360 games, 0.573 [0.519, 0.624] of the games between the two."""
    from cardkit.bots.arena import run_sprt
    from cardkit.bots.sprt import ACCEPT_H1, Sprt

    report = run_sprt("spacc-u-mazz", 3, ["level:4", "level:3", "rule"], 600, seed=9202,
                      options=SHORT["spacc-u-mazz"], workers=WORKERS,
                      test=Sprt(p0=0.5, p1=0.55, alpha=0.05, beta=0.05))  # fmt: skip
    assert report.state.decision == ACCEPT_H1, report.table()
