from collections import Counter

import pytest

from cardkit.rng import Rng, mix64

# Vigna's reference splitmix64.c, seeded 1234567: the published first outputs.
REFERENCE_1234567 = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]


def test_splitmix64_matches_the_reference_vector() -> None:
    rng = Rng(1234567)
    assert [rng.next64() for _ in range(5)] == REFERENCE_1234567


def test_mix64_is_the_first_output() -> None:
    assert mix64(1234567) == REFERENCE_1234567[0]


def test_streams_are_pinned() -> None:
    # Pinned once from this implementation; a change here changes every seeded deal.
    rng = Rng.stream(42, 0)
    assert [rng.next64() for _ in range(3)] == PINNED_STREAM_42_0
    assert Rng.stream(42, 0).shuffle(range(10)) == PINNED_SHUFFLE_42_0
    assert Rng.stream(42, 1).shuffle(range(10)) != PINNED_SHUFFLE_42_0


def test_negative_and_huge_seeds_are_reduced_mod_2_64() -> None:
    assert Rng.stream(-1, 0).next64() == Rng.stream(2**64 - 1, 0).next64()


def test_below_is_in_range_and_roughly_uniform() -> None:
    rng = Rng(7)
    counts = Counter(rng.below(6) for _ in range(60000))
    assert set(counts) == set(range(6))
    assert all(9000 < c < 11000 for c in counts.values())
    with pytest.raises(ValueError):
        rng.below(0)


def test_shuffle_is_a_permutation() -> None:
    items = list(range(52))
    assert sorted(Rng(3).shuffle(items)) == items


PINNED_STREAM_42_0 = [14769503741126384973, 58120087167760527, 14609132357826170061]
PINNED_SHUFFLE_42_0 = (8, 2, 1, 9, 7, 6, 4, 5, 0, 3)
