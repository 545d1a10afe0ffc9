"""Observation encoding: a seat's view and the zones it may see, as one float32 vector.

The encoder never reads a game's state. It reads ``rules.view(state, seat)`` (what the seat
may see, by the game's own contract) and ``rules.zones(state)``, of which it uses the cards
of the zones visible to the seat and only the *size* of the others (zone sizes are public
in every built-in game: the views show hand sizes and stock sizes too). Seats are
*relative*: block position 0 is the observing seat, 1 the seat to its left, and so on.

The vector is a concatenation of :class:`Field` blocks, listed by :attr:`ObservationEncoder.fields`
(docs/rl.md describes each):

1. ``to_act`` — one-hot of the relative seat to act (all zeros once the game is over);
2. per zone slot (a zone name and, for owned zones, a relative owner): a card plane
   (copies of each card value, zeros when the zone is hidden from the seat), its size and
   a visible flag;
3. ``other_zones`` — a card plane and a size for zones the layout did not foresee;
4. the game's own view fields (:mod:`cardkit.rl.features`), e.g. bids, scores, phase.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from cardkit.cards import Card, sort_cards
from cardkit.core.rules import Zone
from cardkit.errors import ConfigError

__all__ = ["Field", "ObservationEncoder", "BIG", "ViewFeatures", "card_values"]

BIG = float(2**24)
"""Bound of unbounded numeric fields (scores): every integer up to it is exact in float32."""


@attrs.frozen
class Field:
    """One block of the observation vector: ``size`` values in ``[low, high]`` from ``start``."""

    name: str
    start: int
    size: int
    low: float
    high: float
    doc: str

    @property
    def stop(self) -> int:
        """One past the block's last index."""
        return self.start + self.size


ViewFeatures = Callable[[Mapping[str, Any], int, int, int, list[int], list[float]], None]
"""``features(view, seat, players, base, positions, values)``: appends the non-zero values of a
game's view fields, at ``base`` + their offset (see :mod:`cardkit.rl.features`)."""


def _copies(zones: Sequence[Zone]) -> dict[Card, int]:
    copies: dict[Card, int] = {}
    for zone in zones:
        for card in zone.cards:
            copies[card] = copies.get(card, 0) + 1
    return copies


def card_values(zones: Sequence[Zone]) -> tuple[Card, ...]:
    """The distinct cards of ``zones`` (every card of a game at any step), in display order."""
    return sort_cards(tuple(_copies(zones)))


class _Builder:
    """Collects fields while a layout is being built."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.size = 0

    def add(self, name: str, size: int, low: float, high: float, doc: str) -> None:
        self.fields.append(Field(name, self.size, size, low, high, doc))
        self.size += size


class ObservationEncoder:
    """The fixed observation layout of one game and config, and the encoder for it.

    ``cards`` are the distinct card values of the game (every card of the initial state's
    zones, in display order); ``slots`` the zone slots ``(name, relative owner or None)``
    found in the initial state. ``view_fields`` are ``(name, size, low, high, doc)`` of the
    game's view features, computed by ``view_features``.
    """

    def __init__(
        self,
        players: int,
        initial_zones: Sequence[Zone],
        view_fields: Sequence[tuple[str, int, float, float, str]] = (),
        view_features: ViewFeatures | None = None,
    ) -> None:
        """Build the layout from the zones of the game's initial state (see the class docs)."""
        self.players = players
        copies = _copies(initial_zones)
        self.cards: tuple[Card, ...] = sort_cards(tuple(copies))
        self.card_index: dict[Card, int] = {c: i for i, c in enumerate(self.cards)}
        most = float(max(copies.values(), default=1))
        total = float(sum(copies.values()))
        slots: list[tuple[str, int | None]] = []
        for zone in initial_zones:
            for rel in range(players) if zone.owner is not None else (None,):
                if (zone.name, rel) not in slots:
                    slots.append((zone.name, rel))
        self.slots: tuple[tuple[str, int | None], ...] = tuple(slots)
        self._seat_slots: dict[int, dict[tuple[str, int | None], int]] = {}
        c = len(self.cards)
        b = _Builder()
        b.add("to_act", players, 0.0, 1.0, "one-hot relative seat to act (0 = you); zeros when over")
        for name, rel in self.slots:
            label = name if rel is None else f"{name}[{rel}]"
            owner = "public zone" if rel is None else f"zone of relative seat {rel}"
            b.add(f"{label}.cards", c, 0.0, most, f"{owner} {name!r}: copies of each card value (zeros when hidden)")
            b.add(f"{label}.size", 1, 0.0, total, f"number of cards in {name!r}")
            b.add(f"{label}.visible", 1, 0.0, 1.0, f"1 if you may see the cards of {name!r}")
        b.add("other_zones.cards", c, 0.0, most, "visible zones of names the layout did not foresee")
        b.add("other_zones.size", 1, 0.0, total, "cards in zones of names the layout did not foresee")
        self.zones_start = players
        """Index of the first zone slot's block."""
        self.other_start = b.fields[-2].start
        """Index of the ``other_zones.cards`` block."""
        self.views_start = b.size
        """Index of the first view field."""
        for name, size, low, high, doc in view_fields:
            b.add(name, size, low, high, doc)
        self.fields: tuple[Field, ...] = tuple(b.fields)
        self.size = b.size
        self.view_size = b.size - self.views_start
        self.view_features = view_features
        """The game's view-field function (``None``: the game has no view fields)."""
        self.low: npt.NDArray[np.float32] = np.empty(self.size, dtype=np.float32)
        self.high: npt.NDArray[np.float32] = np.empty(self.size, dtype=np.float32)
        for f in self.fields:
            self.low[f.start : f.stop] = f.low
            self.high[f.start : f.stop] = f.high
        self.slot_width = c + 2
        """Values per zone slot: the card plane, the size and the visible flag."""

    def field(self, name: str) -> Field:
        """The field called ``name`` (KeyError-free: a ``ValueError`` naming the fields)."""
        for f in self.fields:
            if f.name == name:
                return f
        raise ValueError(f"no observation field {name!r}; fields: {', '.join(f.name for f in self.fields)}")

    def encode(
        self, view: Mapping[str, Any], zones: Sequence[Zone], seat: int, to_act: int | None
    ) -> npt.NDArray[np.float32]:
        """The observation of ``seat``: from its view and the zones (cards only where visible)."""
        n = self.players
        # Sparse build: (position, value) pairs summed by one bincount (far cheaper than
        # setting numpy items one by one; repeated positions add up, e.g. two packs).
        pos: list[int] = []
        val: list[float] = []
        if to_act is not None and 0 <= to_act < n:
            pos.append((to_act - seat) % n)
            val.append(1.0)
        try:
            self._encode_zones(zones, seat, pos, val)
        except KeyError as exc:  # a card the initial state did not have
            raise ConfigError(
                f"card {exc.args[0]} is in a zone but in none of the initial state's zones: "
                "the game does not keep every card in its zones from the start"
            ) from None
        if self.view_features is not None:
            try:
                self.view_features(view, seat, n, self.views_start, pos, val)
            except KeyError as exc:
                raise ConfigError(
                    f"the view does not fit the observation layout: no {exc.args[0]!r}"
                ) from None
        return np.bincount(pos, val, self.size).astype(np.float32)

    def slots_of(self, seat: int) -> dict[tuple[str, int | None], int]:
        """Slot number by (zone name, absolute owner) as ``seat`` sees them (cached)."""
        found = self._seat_slots.get(seat)
        if found is None:
            n = self.players
            found = {
                (name, None if rel is None else (seat + rel) % n): i
                for i, (name, rel) in enumerate(self.slots)
            }
            self._seat_slots[seat] = found
        return found

    def _encode_zones(self, zones: Sequence[Zone], seat: int, pos: list[int], val: list[float]) -> None:
        index = self.card_index
        width = self.slot_width
        base = self.zones_start
        slot_index = self.slots_of(seat)
        other = self.other_start
        for zone in zones:
            i = slot_index.get((zone.name, zone.owner))
            cards = zone.cards
            visible = seat in zone.visible_to
            if i is None:  # a zone the initial state did not have
                if cards:
                    pos.append(other + len(index))
                    val.append(float(len(cards)))
                    if visible:
                        pos.extend([other + index[c] for c in cards])
                        val.extend([1.0] * len(cards))
                continue
            start = base + i * width
            if cards:
                pos.append(start + width - 2)
                val.append(float(len(cards)))
            if not visible:
                continue
            pos.append(start + width - 1)
            val.append(1.0)
            pos.extend([start + index[c] for c in cards])
            val.extend([1.0] * len(cards))
