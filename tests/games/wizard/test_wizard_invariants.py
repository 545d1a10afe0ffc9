"""The generic invariant suite on many random Wizard games (3-6 players, both bidding rules)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardkit.testing import check_invariants

PLAYERS = (3, 4, 5, 6)
FORBID = (False, True)

long_run = pytest.mark.skipif(
    os.environ.get("CARDKIT_LONG") != "1", reason="long run: CARDKIT_LONG=1"
)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("forbid", FORBID)
@pytest.mark.parametrize("seed", range(12))
def test_short_games(players: int, forbid: bool, seed: int) -> None:
    rounds = 1 + seed % 3
    report = check_invariants(
        "wizard", players, seed, policy_seed=seed + 100, rounds=rounds, forbid_even_bids=forbid
    )
    assert report.finished


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("forbid", FORBID)
@pytest.mark.parametrize("seed", range(3))
def test_full_games(players: int, forbid: bool, seed: int) -> None:
    report = check_invariants(
        "wizard", players, 1000 + 10 * seed + players, policy_seed=7 + seed, forbid_even_bids=forbid
    )
    assert report.finished


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from(PLAYERS),
    seed=st.integers(0, 2**63),
    policy_seed=st.integers(0, 2**32),
    forbid=st.booleans(),
    rounds=st.integers(1, 4),
)
def test_hypothesis_games(players: int, seed: int, policy_seed: int, forbid: bool, rounds: int) -> None:
    report = check_invariants(
        "wizard", players, seed, policy_seed=policy_seed, rounds=rounds, forbid_even_bids=forbid
    )
    assert report.finished


@pytest.mark.slow
@long_run
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("forbid", FORBID)
def test_long_run_many_full_games(players: int, forbid: bool) -> None:
    # 8 x 150 full games plus 8 x 250 short ones: 3200 games in all
    for seed in range(150):
        report = check_invariants(
            "wizard", players, seed, policy_seed=seed * 7 + 1, forbid_even_bids=forbid,
            full_checks_every=4, undo_checks=2,
        )
        assert report.finished
    for seed in range(250):
        report = check_invariants(
            "wizard", players, 10_000 + seed, policy_seed=seed, rounds=1 + seed % 5,
            forbid_even_bids=forbid,
        )
        assert report.finished
