"""The cached observation encoder: the same vectors as the reference, at a fraction of the cost.

:class:`~cardkit.rl.encoding.ObservationEncoder` builds an observation from scratch out of a
seat's view and the zones. Between two observations of one seat most of that vector does
not change: a hand that was not touched, the stock hidden behind its size, the scores. So
:class:`CachedEncoder` keeps, per seat, the last vector it returned and rewrites only

* the ``to_act`` one-hot, when the seat to act changed;
* the zone slots whose card tuple (compared by identity: states are immutable and share
  every tuple they do not change) or visibility changed: a hidden zone only its size, a
  pile that merely grew at its end only its new cards, any other visible zone its whole
  card plane (built once per tuple and shared by the seats that see it);
* the blocks after the slots (``other_zones`` and the game's view fields): short and
  sparse, cleared in one go and their non-zero values written.

Its input is :class:`Reading`: each zone's ``(name, owner)``, cards and ``visible_to`` as
plain tuples, and the few view values the game's view fields read, which a game's
:mod:`cardkit.rl.readers` take straight from the state's fields instead of building a
full view and ``Zone`` objects. The test suite checks, at every step of many random games
of every game and for every seat, that the result equals the reference encoding of
``rules.view`` and ``rules.zones``.

A returned vector is a fresh numpy copy: a caller may keep or modify it freely.
"""

# No ``from __future__ import annotations`` here: Reading's field annotations must be real
# objects for tools that read them at run time (the API reference).
from array import array
from collections import deque
from itertools import compress, count, repeat
from operator import is_not
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple, Optional, Sequence

import numpy as np
import numpy.typing as npt

from cardkit.cards import Card
from cardkit.errors import ConfigError
from cardkit.rl.encoding import ObservationEncoder

__all__ = ["CachedEncoder", "Reading", "ZoneKey"]

_PLANES = 512  # card planes remembered (by zone tuple) before the memo starts afresh

ZoneKey = tuple[str, Optional[int]]
"""A zone's ``(name, owner)``."""

if TYPE_CHECKING:
    FloatArray = array[float]
else:  # array.array is subscriptable at run time only from Python 3.12
    FloatArray = array


class Reading(NamedTuple):
    """What the encoder needs of one state, for one seat.

    ``keys[k]``, ``cards[k]`` and ``visible_to[k]`` describe zone ``k``: its ``(name,
    owner)``, its cards and the seats that may see them; ``view`` holds the view values the
    game's view fields read. A reader gives the same ``keys`` object every time (the encoder
    maps it to zone slots once per seat) with distinct keys.
    """

    keys: tuple[ZoneKey, ...]
    cards: Sequence[tuple[Card, ...]]
    visible_to: Sequence[tuple[int, ...]]
    view: Mapping[str, Any]


class _Seat:
    """The last observation of one seat and what it was made of."""

    __slots__ = ("buf", "mem", "held", "shown", "to_act", "keys", "slot_list", "plain", "cards", "visible_to")

    def __init__(self, size: int, slots: int) -> None:
        self.buf = array("f", bytes(4 * size))
        self.mem = memoryview(self.buf)
        # Per zone slot: the cards tuple last written (None while the slot is zeros) and
        # whether its plane shows them (visible) or is zeros (hidden).
        self.held: list[tuple[Card, ...] | None] = [None] * slots
        self.shown: list[bool] = [False] * slots
        self.to_act = -1  # position of the to_act one-hot last written (-1: none)
        self.keys: tuple[ZoneKey, ...] | None = None  # the keys slot_list was made for
        self.slot_list: list[int | None] = []
        self.plain = False  # whether those keys fill every slot, each once, and nothing else
        self.cards: Sequence[tuple[Card, ...]] | None = None  # the last reading's cards
        self.visible_to: object = None  # and its visible_to


class CachedEncoder:
    """Per-seat incremental encoding for one :class:`ObservationEncoder` layout (see the
    module docs); the input is a :class:`Reading` from a reader (:mod:`cardkit.rl.readers`)."""

    def __init__(self, encoder: ObservationEncoder) -> None:
        """Start with no observation cached."""
        self.encoder = encoder
        self._seats: dict[int, _Seat] = {}
        self._zeros = array("f", bytes(4 * len(encoder.cards)))
        self._tail = array("f", bytes(4 * (encoder.size - encoder.other_start)))
        self._planes: dict[int, tuple[tuple[Card, ...], FloatArray]] = {}
        # The layout's numbers, fetched once per call as locals.
        self._layout = (encoder.players, encoder.other_start, encoder.views_start, encoder.view_features)
        width = encoder.slot_width
        starts = [encoder.zones_start + i * width for i in range(len(encoder.slots))]
        self._zone_layout = (encoder.card_index, width - 2, starts, encoder.other_start)

    def clear(self) -> None:
        """Forget every cached observation (a new episode starts from zeros)."""
        self._seats.clear()
        self._planes.clear()

    def encode(self, reading: Reading, seat: int, to_act: int | None) -> npt.NDArray[np.float32]:
        """The observation of ``seat``: equal to the reference encoding of the same information."""
        cached = self._seats.get(seat)
        if cached is None:
            cached = self._seats[seat] = _Seat(self.encoder.size, len(self.encoder.slots))
        buf = cached.buf
        n, tail_start, views_start, features = self._layout
        where = (to_act - seat) % n if to_act is not None and 0 <= to_act < n else -1
        if where != cached.to_act:
            if cached.to_act >= 0:
                buf[cached.to_act] = 0.0
            if where >= 0:
                buf[where] = 1.0
            cached.to_act = where
        # The blocks after the zone slots (other_zones, the view fields) are sparse and
        # short: cleared in one go, then their non-zero values written.
        buf[tail_start:] = self._tail
        try:
            self._zones(reading, seat, cached)
        except KeyError as exc:  # a card the initial state did not have
            del self._seats[seat]  # half written: the next call starts afresh
            raise ConfigError(
                f"card {exc.args[0]} is in a zone but in none of the initial state's zones: "
                "the game does not keep every card in its zones from the start"
            ) from None
        if features is not None:
            pos: list[int] = []
            val: list[float] = []
            try:
                features(reading.view, seat, n, views_start, pos, val)
            except KeyError as exc:
                del self._seats[seat]
                raise ConfigError(f"the view does not fit the observation layout: no {exc.args[0]!r}") from None
            # A view field's positions are distinct: plain stores, looped at C speed.
            deque(map(buf.__setitem__, pos, val), maxlen=0)
        return np.array(cached.mem)  # a copy: the cache keeps changing, the caller's vector not

    def _slot_list(self, keys: tuple[ZoneKey, ...], seat: int, cached: _Seat) -> list[int | None]:
        """Slot of each zone key for ``seat`` (None: a name the layout did not foresee)."""
        slot_of = self.encoder.slots_of(seat)
        found = [slot_of.get(key) for key in keys]
        filled = [i for i in found if i is not None]
        if len(set(filled)) != len(filled):
            raise ConfigError("a reader gave two zones with the same name and owner")
        cached.keys, cached.slot_list, cached.cards = keys, found, None
        cached.plain = len(filled) == len(found) == len(cached.held)
        if len(filled) < len(cached.held):  # a slot without a zone is zeros in the reference
            width = self.encoder.slot_width
            for i, before in enumerate(cached.held):
                if i not in filled and before is not None:
                    start = self.encoder.zones_start + i * width
                    cached.buf[start : start + width] = array("f", bytes(4 * width))
                    cached.held[i], cached.shown[i] = None, False
        return found

    def _zones(self, reading: Reading, seat: int, cached: _Seat) -> None:
        index, c, starts, other = self._zone_layout
        keys = reading.keys
        slot_list = cached.slot_list if cached.keys is keys else self._slot_list(keys, seat, cached)
        held = cached.held
        shown = cached.shown
        buf = cached.buf
        cards_of = reading.cards
        visible_of = reading.visible_to
        before_cards = cached.cards
        todo: Iterable[int]
        if cached.plain and before_cards is not None and visible_of is cached.visible_to:
            # Same visibility object as last time: only the zones whose card tuple is
            # another object can have changed (found at C speed).
            todo = compress(count(), map(is_not, cards_of, before_cards))
        else:
            todo = range(len(cards_of))
        cached.cards, cached.visible_to = cards_of, visible_of
        for k in todo:
            i = slot_list[k]
            cards = cards_of[k]
            if i is None:  # a zone the initial state did not have: sparse, as in the reference
                if cards:
                    buf[other + c] += len(cards)
                    if seat in visible_of[k]:
                        for card in cards:
                            buf[other + index[card]] += 1.0
                continue
            before = held[i]
            if before is cards:
                if (seat in visible_of[k]) is shown[i]:
                    continue
            elif before is not None and not shown[i] and seat not in visible_of[k]:
                buf[starts[i] + c] = len(cards)  # hidden before and now: only the size
                held[i] = cards
                continue
            visible = seat in visible_of[k]
            start = starts[i]
            buf[start + c] = len(cards)
            buf[start + c + 1] = 1.0 if visible else 0.0
            old = before if before is not None and shown[i] else ()
            if visible:
                size = len(old)
                if size and len(cards) >= size and cards[:size] == old:
                    for card in cards[size:]:  # a pile that only grew at its end
                        buf[start + index[card]] += 1.0
                else:
                    buf[start : start + c] = self._plane(cards)
            elif old:
                buf[start : start + c] = self._zeros
            held[i], shown[i] = cards, visible

    def _plane(self, cards: tuple[Card, ...]) -> FloatArray:
        """The card plane of ``cards``. A zone's tuple is the same object in every seat's
        reading of a state, so a plane is built once and copied into each seat that sees it."""
        planes = self._planes
        hit = planes.get(id(cards))
        if hit is not None and hit[0] is cards:  # the entry holds the tuple: never a recycled id
            return hit[1]
        plane = array("f", self._zeros)
        where = list(map(self.encoder.card_index.__getitem__, cards))
        if len(set(where)) == len(where):  # one copy of each: plain stores at C speed
            deque(map(plane.__setitem__, where, repeat(1.0)), maxlen=0)
        else:
            for i in where:
                plane[i] += 1.0
        if len(planes) >= _PLANES:
            planes.clear()
        planes[id(cards)] = (cards, plane)
        return plane
