"""The generic invariant suite over every layout and preset (bounded by default; CARDKIT_LONG=1 for thousands)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardkit.testing import check_invariants

NAME = "cutthroat-spades"

LAYOUTS: list[tuple[int, dict[str, Any]]] = [
    (3, {}), (4, {}), (5, {}), (5, {"jokers": 2}), (5, {"jokers": 3}),
]
PRESETS: list[dict[str, Any]] = [
    {"preset": "official"}, {"preset": "short"}, {"preset": "short_minus_10"}, {"preset": "long"},
    {"preset": "official", "bag_out": "carry", "bag_limit": 3},
    {"preset": "long", "prize_jacks": ["JH"], "blind_six_per_game": 2},
]

long_only = pytest.mark.skipif(os.environ.get("CARDKIT_LONG") != "1", reason="long run: CARDKIT_LONG=1")


@pytest.mark.parametrize("players, layout", LAYOUTS, ids=lambda x: str(x))
@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_invariants_every_layout_and_preset(players: int, layout: dict[str, Any], preset: dict[str, Any]) -> None:
    for seed in range(2):
        report = check_invariants(
            NAME, players, seed, policy_seed=seed + 7, max_hands=2, wins_needed=1, **layout, **preset
        )
        assert report.finished


@pytest.mark.parametrize("players, layout", LAYOUTS, ids=lambda x: str(x))
def test_invariants_small_targets_whole_tournaments(players: int, layout: dict[str, Any]) -> None:
    # low targets reach rule 19 (and its ties) and several games of a tournament
    for seed in range(3):
        report = check_invariants(
            NAME, players, 100 + seed, policy_seed=seed, target=60, wins_needed=2, max_hands=6,
            full_checks_every=3, **layout,
        )
        assert report.finished


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    layout=st.sampled_from(LAYOUTS),
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**32),
    policy_seed=st.integers(0, 2**16),
    target=st.integers(20, 300),
)
def test_invariants_hypothesis(
    layout: tuple[int, dict[str, Any]], preset: dict[str, Any], seed: int, policy_seed: int, target: int
) -> None:
    players, options = layout
    check_invariants(
        NAME, players, seed, policy_seed=policy_seed, target=target, wins_needed=1, max_hands=2,
        full_checks_every=2, **options, **preset,
    )


@pytest.mark.slow
@long_only
@pytest.mark.parametrize("players, layout", LAYOUTS, ids=lambda x: str(x))
@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_invariants_long(players: int, layout: dict[str, Any], preset: dict[str, Any]) -> None:
    for seed in range(70):  # 5 layouts x 6 presets x 70 = 2100 tournaments
        check_invariants(
            NAME, players, 1000 + seed, policy_seed=seed, target=150, wins_needed=2, max_hands=8,
            full_checks_every=10, undo_checks=2, **layout, **preset,
        )
