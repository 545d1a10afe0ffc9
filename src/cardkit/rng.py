"""The library's specified pseudo-random generator.

``random.shuffle`` may change between Python versions, so cardkit never uses it. This
module specifies, in pure integer arithmetic, everything that turns a seed into a deal;
the test suite pins its output with test vectors, so a seed deals the same on every
platform and Python version, forever.

Generator: **SplitMix64** (Steele, Lea, Flood 2014; Vigna's reference ``splitmix64.c``)::

    state = (state + 0x9E3779B97F4A7C15) mod 2**64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) mod 2**64
    output z ^ (z >> 31)

Streams: chance outcome number ``k`` (0-based) of a game with seed ``s`` draws from
``Rng.stream(s, k)``, whose initial state is ``mix64(s mod 2**64) ^ mix64(k)``, where
``mix64(x)`` is the first SplitMix64 output of a generator whose state is ``x``. So the
k-th chance outcome is a pure function of ``(seed, k)``: undoing and replaying a game
can never re-roll a shuffle.

Bounded integers (:meth:`Rng.below`): rejection sampling. With ``limit = 2**64 - (2**64 mod n)``
draw outputs until one is ``< limit`` and return it ``mod n`` — exactly uniform.

Shuffle (:meth:`Rng.shuffle`): Fisher-Yates from the back: for ``i = len-1 .. 1``,
``j = below(i + 1)``, swap items ``i`` and ``j``.
"""

from __future__ import annotations

from typing import Final, Sequence, TypeVar

__all__ = ["Rng", "mix64"]

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_SPAN: Final = 1 << 64
_TABLE: Final = 128
# below(n)'s rejection limit for the small n of a shuffle, computed once.
_LIMITS: Final[tuple[int, ...]] = (0,) + tuple(_SPAN - _SPAN % n for n in range(1, _TABLE))
_GAMMA: Final = 0x9E3779B97F4A7C15
_M1: Final = 0xBF58476D1CE4E5B9
_M2: Final = 0x94D049BB133111EB


def mix64(x: int) -> int:
    """The first SplitMix64 output of a generator whose state is ``x mod 2**64``."""
    z = (x + _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


class Rng:
    """A SplitMix64 generator (mutable; each :class:`~cardkit.Game` makes short-lived ones)."""

    __slots__ = ("_state",)

    def __init__(self, state: int) -> None:
        """Start from the raw 64-bit ``state`` (reduced mod 2**64)."""
        self._state = state & _MASK

    @classmethod
    def stream(cls, seed: int, index: int) -> Rng:
        """The generator for chance outcome ``index`` of a game seeded with ``seed``."""
        return cls(mix64(seed & _MASK) ^ mix64(index & _MASK))

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = z = (self._state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (``n >= 1``), without modulo bias."""
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        """A uniformly shuffled copy of ``items`` (Fisher-Yates, see the module docs)."""
        # below() and next64() inlined: every deal runs this loop once per card, and the
        # generator's outputs and their use are exactly those of the two methods.
        out = list(items)
        state = self._state
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < _TABLE else _SPAN - _SPAN % n
            while True:
                state = (state + _GAMMA) & _MASK
                z = ((state ^ (state >> 30)) * _M1) & _MASK
                z = ((z ^ (z >> 27)) * _M2) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            out[i], out[j] = out[j], out[i]
        self._state = state
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]
