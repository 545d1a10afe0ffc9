"""The cached observation encoder: the same vectors as the reference, at a fraction of the cost.

:class:`~cardkit.rl.encoding.ObservationEncoder` builds an observation from scratch out of a
seat's view and the zones. Between two observations of one seat most of that vector does
not change: a hand that was not touched, the stock hidden behind its size, the scores. So
:class:`CachedEncoder` keeps, per seat, the last vector it returned and rewrites only

* the zone slots whose card tuple (compared by identity: states are immutable and share
  every tuple they do not change) or visibility changed, adding only the new cards when a
  pile merely grew at its end;
* the sparse blocks (``to_act``, ``other_zones`` and the game's view fields), whose
  non-zero positions of the last call are cleared and the new ones written.

Its input is :class:`Reading`: the zones as plain ``((name, owner), cards, visible_to)``
tuples and the few view values the game's view fields read, which a game's
:mod:`cardkit.rl.readers` take straight from the state's fields instead of building a
full view and ``Zone`` objects. The test suite checks, at every step of many random games
of every game and for every seat, that the result equals the reference encoding of
``rules.view`` and ``rules.zones``.

A returned vector is a fresh numpy copy: a caller may keep or modify it freely.
"""

from __future__ import annotations

from array import array
from typing import Any, Mapping, NamedTuple, Sequence

import numpy as np
import numpy.typing as npt

from cardkit.cards import Card
from cardkit.errors import ConfigError
from cardkit.rl.encoding import ObservationEncoder

__all__ = ["CachedEncoder", "Reading", "ZoneCards"]

ZoneCards = tuple[tuple[str, "int | None"], tuple[Card, ...], tuple[int, ...]]
"""One zone as a reader gives it: ``((name, owner), cards, visible_to)``."""


class Reading(NamedTuple):
    """What the encoder needs of one state: its zones and the view values of its fields."""

    zones: Sequence[ZoneCards]
    view: Mapping[str, Any]


class _Seat:
    """The last observation of one seat and what it was made of."""

    __slots__ = ("buf", "mem", "slots", "sparse")

    def __init__(self, size: int, slots: int) -> None:
        self.buf = array("f", bytes(4 * size))
        self.mem = memoryview(self.buf)
        # Per zone slot: (cards tuple, visible) last written, None while the slot is zeros.
        self.slots: list[tuple[tuple[Card, ...], bool] | None] = [None] * slots
        self.sparse: list[int] = []  # positions of the sparse blocks written last time


class CachedEncoder:
    """Per-seat incremental encoding for one :class:`ObservationEncoder` layout.

    Built-in games only need a reader (:mod:`cardkit.rl.readers`); the zones a reader gives
    must have distinct ``(name, owner)`` keys, which every built-in game's zones have.
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        """Start with no observation cached."""
        self.encoder = encoder
        self._seats: dict[int, _Seat] = {}
        self._zeros = array("f", bytes(4 * len(encoder.cards)))

    def clear(self) -> None:
        """Forget every cached observation (a new episode starts from zeros)."""
        self._seats.clear()

    def encode(self, reading: Reading, seat: int, to_act: int | None) -> npt.NDArray[np.float32]:
        """The observation of ``seat``: equal to the reference encoding of the same information."""
        enc = self.encoder
        cached = self._seats.get(seat)
        if cached is None:
            cached = self._seats[seat] = _Seat(enc.size, len(enc.slots))
        n = enc.players
        pos: list[int] = []
        val: list[float] = []
        if to_act is not None and 0 <= to_act < n:
            pos.append((to_act - seat) % n)
            val.append(1.0)
        try:
            self._zones(reading.zones, seat, cached, pos, val)
        except KeyError as exc:  # a card the initial state did not have
            raise ConfigError(
                f"card {exc.args[0]} is in a zone but in none of the initial state's zones: "
                "the game does not keep every card in its zones from the start"
            ) from None
        if enc.view_features is not None:
            try:
                enc.view_features(reading.view, seat, n, enc.views_start, pos, val)
            except KeyError as exc:
                raise ConfigError(f"the view does not fit the observation layout: no {exc.args[0]!r}") from None
        buf = cached.buf
        for p in cached.sparse:
            buf[p] = 0.0
        for p, v in zip(pos, val):
            buf[p] += v  # repeated positions add up, as in the reference's bincount
        cached.sparse = pos
        return np.array(cached.mem)  # a copy: the cache keeps changing, the caller's vector not

    def _zones(self, zones: Sequence[ZoneCards], seat: int, cached: _Seat, pos: list[int], val: list[float]) -> None:
        enc = self.encoder
        index = enc.card_index
        width = enc.slot_width
        c = width - 2
        base = enc.zones_start
        slot_of = enc.slots_of(seat)
        last = cached.slots
        buf = cached.buf
        seen = 0
        for key, cards, visible_to in zones:
            i = slot_of.get(key)
            if i is None:  # a zone the initial state did not have: sparse, as in the reference
                if cards:
                    other = enc.other_start
                    pos.append(other + c)
                    val.append(float(len(cards)))
                    if seat in visible_to:
                        pos.extend([other + index[card] for card in cards])
                        val.extend([1.0] * len(cards))
                continue
            seen += 1
            visible = seat in visible_to
            before = last[i]
            if before is not None and before[0] is cards and before[1] is visible:
                continue
            start = base + i * width
            buf[start + c] = len(cards)
            buf[start + c + 1] = 1.0 if visible else 0.0
            shown = before[0] if before is not None and before[1] else ()
            if visible:
                k = len(shown)
                if k and len(cards) >= k and cards[:k] == shown:
                    new = cards[k:]  # a pile that only grew at its end: add the new cards
                else:
                    if k:
                        buf[start : start + c] = self._zeros
                    new = cards
                for card in new:
                    buf[start + index[card]] += 1.0
            elif shown:
                buf[start : start + c] = self._zeros
            last[i] = (cards, visible)
        if seen != len(last):
            self._clear_missing(zones, seat, cached)

    def _clear_missing(self, zones: Sequence[ZoneCards], seat: int, cached: _Seat) -> None:
        """Zero the slots no zone filled this time (a reference slot without a zone is zeros)."""
        enc = self.encoder
        slot_of = enc.slots_of(seat)
        filled = {slot_of[key] for key, _, _ in zones if key in slot_of}
        width = enc.slot_width
        for i, before in enumerate(cached.slots):
            if i not in filled and before is not None:
                start = enc.zones_start + i * width
                cached.buf[start : start + width] = array("f", bytes(4 * width))
                cached.slots[i] = None
