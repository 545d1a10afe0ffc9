"""Swapping two cards a seat never saw changes nothing that seat observes.

See ``cardkit.testing.scans.check_indistinguishable`` for the exact window compared.
Long mode: ``CARDKIT_LONG=1`` (marker ``slow``).
"""

from __future__ import annotations

from typing import Any

import pytest
from scan_setups import LONG, SETUPS, setup_id, setups

from cardkit.testing import InvariantViolation
from cardkit.testing.scans import check_indistinguishable


def announced(name: str, players: int, options: dict[str, Any]) -> tuple[str, ...]:
    """Cards whose holder the rules make public: with two jokers the 2♣'s holder leads."""
    return ("2C",) if name == "cutthroat-spades" and options.get("jokers") == 2 else ()


@pytest.mark.parametrize("setup", setups(), ids=setup_id)
def test_swapped_unseen_cards_are_invisible(setup: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = setup
    compared = sum(
        check_indistinguishable(
            name, players, seed, policy_seed=seed, swaps=3, max_seat_actions=120,
            public_places=announced(name, players, options), **options,
        )  # fmt: skip
        for seed in range(2)
    )
    assert compared > 0


def test_the_announced_two_of_clubs_holder_is_a_public_fact_not_a_leak() -> None:
    # Without public_places the scan sees the 2♣ holder's lead as a difference: this is
    # the case that made the parameter necessary (5 players, two jokers, seed 300).
    options: dict[str, Any] = {"max_hands": 2, "wins_needed": 1, "jokers": 2}
    with pytest.raises(InvariantViolation, match="2C"):
        for seed in range(30):
            check_indistinguishable("cutthroat-spades", 5, 300 + seed, policy_seed=seed, swaps=6, **options)
    for seed in range(3):
        check_indistinguishable(
            "cutthroat-spades", 5, 300 + seed, policy_seed=seed, swaps=6, public_places=("2C",), **options
        )


def test_a_view_that_depends_on_a_hidden_card_is_caught() -> None:
    from broken_for_scans import PeekingView

    with pytest.raises(InvariantViolation, match="looks different"):
        for seed in range(30):
            check_indistinguishable(PeekingView(), 3, seed, policy_seed=seed, swaps=4)


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set CARDKIT_LONG=1")
@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
def test_indistinguishability_long(setup: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = setup
    for seed in range(30):
        check_indistinguishable(
            name, players, 300 + seed, policy_seed=seed, swaps=6,
            public_places=announced(name, players, options), **options,
        )  # fmt: skip
