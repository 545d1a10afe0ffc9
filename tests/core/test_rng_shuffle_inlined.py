"""Rng.shuffle inlines below() and next64(): it must draw exactly what they draw."""

from __future__ import annotations

from typing import Sequence, TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.rng import Rng

T = TypeVar("T")


def _reference_shuffle(rng: Rng, items: Sequence[T]) -> tuple[T, ...]:
    """Fisher-Yates from the back through the public below() (the specified algorithm)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


@given(st.integers(0, 2**64 - 1), st.integers(0, 10**6), st.integers(0, 300))
@settings(max_examples=150, deadline=None)
def test_shuffle_draws_what_below_draws(seed: int, index: int, size: int) -> None:
    items = list(range(size))
    fast, reference = Rng.stream(seed, index), Rng.stream(seed, index)
    assert fast.shuffle(items) == _reference_shuffle(reference, items)
    assert fast.next64() == reference.next64()  # the generator ends in the same state
