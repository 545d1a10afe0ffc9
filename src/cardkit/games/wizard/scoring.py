"""Wizard scoring (rules 15-18)."""

from __future__ import annotations

from typing import Sequence

__all__ = ["round_points", "winners"]


def round_points(bid: int, tricks: int) -> int:
    """Rule 15: an exact bid scores 20 + 10 per trick; rule 16: a miss loses 10 per trick off."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(tricks - bid)


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """Rule 18: every seat with the highest total, ascending."""
    best = max(scores)
    return tuple(i for i, s in enumerate(scores) if s == best)
