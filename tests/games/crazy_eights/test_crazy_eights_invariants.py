"""The generic invariant suite on random Crazy Eights games.

Default run: every player count 2-7 against a spread of option combinations (one seed each),
plus a hypothesis search (30 examples). ``CARDKIT_LONG=1`` runs three seeds each, 100 examples,
and thousands of games over the full option grid.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import pytest
from hypothesis import given, settings

from cardkit.testing import check_invariants
from cardkit.testing.strategies import game_setups
from tests.conftest import long_or, long_scaled

LONG = os.environ.get("CARDKIT_LONG") == "1"

ACTION_CARDS = ("two_draws_two", "queen_of_spades_draws_five", "jack_skips", "ace_reverses")

COMBOS: list[dict[str, Any]] = [
    {},
    {"draw": "until_playable"},
    {"stock_empty": "reshuffle", "max_turns": 300},
    {"two_draws_two": True, "queen_of_spades_draws_five": True},
    {"jack_skips": True, "ace_reverses": True, "draw": "until_playable"},
    {a: True for a in ACTION_CARDS} | {"stock_empty": "reshuffle", "max_turns": 200},
    {"mode": "points", "target": 40},
    {"mode": "points", "target": 60, "stock_empty": "reshuffle", "two_draws_two": True, "max_turns": 200},
]


@long_scaled
@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("combo", range(len(COMBOS)))
def test_invariants(players: int, combo: int) -> None:
    options = COMBOS[combo]
    for seed in range(long_or(1, 3)):
        report = check_invariants(
            "crazy-eights", players, seed=1000 * seed + 10 * players + combo, policy_seed=seed, **options
        )
        assert report.finished and report.seat_actions > 0


def test_invariants_with_other_deck_and_hand_sizes() -> None:
    check_invariants("crazy-eights", 4, 7, decks=2, hand_size=10)
    check_invariants("crazy-eights", 3, 8, hand_size=1)
    check_invariants("crazy-eights", 2, 9, hand_size=10, stock_empty="reshuffle", max_turns=100)


OPTION_SPACE = {
    "mode": ["single", "points"],
    "draw": ["one", "until_playable"],
    "stock_empty": ["pass", "reshuffle"],
    "max_turns": [150],
    **{a: [False, True] for a in ACTION_CARDS},
}


@long_scaled
@settings(max_examples=long_or(30, 100))
@given(game_setups("crazy-eights", options=OPTION_SPACE))
def test_invariants_hypothesis(setup: Any) -> None:
    options = dict(setup.options)
    if options["mode"] == "points":
        options["target"] = 30
    check_invariants("crazy-eights", setup.players, setup.seed, policy_seed=setup.policy_seed, **options)


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set CARDKIT_LONG=1")
@pytest.mark.parametrize("players", range(2, 8))  # one test per player count: xdist spreads them
def test_invariants_thousands_of_games(players: int) -> None:
    grid = list(itertools.product(["single", "points"], ["one", "until_playable"], ["pass", "reshuffle"],
                                  itertools.product([False, True], repeat=4)))
    games = 0
    for index, (mode, draw, empty, flags) in enumerate(grid):
        options: dict[str, Any] = {"mode": mode, "draw": draw, "stock_empty": empty, "max_turns": 400}
        options.update(dict(zip(ACTION_CARDS, flags)))
        if mode == "points":
            options["target"] = 25 * players
        for seed in range(3):
            check_invariants("crazy-eights", players, seed * 1000 + index, policy_seed=seed,
                             full_checks_every=2, **options)
            games += 1
    assert games == len(grid) * 3
