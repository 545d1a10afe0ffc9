"""Determinization: a full state consistent with what one seat knows.

A bot that searches needs full states, but it may only use what its seat knows. The
generic :func:`resample` works on zones (``rules.zones``): every card concealed from the
seat is redealt, uniformly at random, among the zones concealed from it, each zone keeping
its size; zones the seat can see (its hand, the discard, cards it knows, ...) are kept as
they are. A game plugs in through two optional hooks on its Rules object:

``with_zones(state, zones) -> state`` (needed)
    The state with the cards of its zones replaced: ``zones`` is ``rules.zones(state)``
    with new ``cards`` (same names, owners, sizes and order of zones). The game rebuilds
    every field that depends on where cards are (hands, stock order, face-down cards, a
    drawn card...), so the result is a legal full state.

``constraints(state, seat, events) -> tuple[Constraint, ...]`` (optional)
    What the seat has inferred from the public play, given its own (redacted) events:
    a failure to follow suit proves a void, for example. Each :class:`Constraint` says
    that at least ``at_least`` cards of one concealed zone lie outside ``forbidden``.

Everything :func:`resample` reads is what ``seat`` knows: the multiset of concealed cards
(the deck minus what the seat sees), the zone sizes, the constraints and the rng. The
concealed arrangement of ``state`` itself is never read, so two states the seat cannot
tell apart give the same sample for the same rng (the no-peek property; tests prove it).
"""

from __future__ import annotations

import random
from typing import Any, Final, Sequence

import attrs

from cardkit.cards import Card
from cardkit.core.rules import Rules, Zone
from cardkit.errors import ResampleError

__all__ = [
    "Constraint", "DealPlan", "ResampleError", "Resampler", "resample", "inferences", "conceal",
    "deal_plan", "supports_resample", "MAX_TRIES",
]  # fmt: skip

AnyRules = Rules[Any, Any, Any, Any]

MAX_TRIES: Final = 64
"""Fresh shuffles tried before the constraints are given up (see :func:`resample`)."""


@attrs.frozen
class Constraint:
    """At least ``at_least`` cards of the zone ``(name, owner)`` are not in ``forbidden``.

    A void in hearts is ``Constraint("hand", 2, hearts, len(hand))``; a hand of which
    only the cards held at some past moment are constrained uses the number of those
    cards that can still be in it.
    """

    name: str
    owner: int | None
    forbidden: frozenset[Card]
    at_least: int


def supports_resample(rules: AnyRules) -> bool:
    """True if ``rules`` has the ``with_zones`` hook that :func:`resample` needs."""
    return callable(getattr(rules, "with_zones", None))


def _canonical(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=_card_key)


def _card_key(card: Card) -> tuple[int, str]:
    return (card.sort_key, card.code)


def _concealed(zones: Sequence[Zone], seat: int) -> list[int]:
    return [i for i, z in enumerate(zones) if seat not in z.visible_to and z.cards]


def _rebuild(rules: AnyRules, state: Any, zones: tuple[Zone, ...], fills: dict[int, list[Card]]) -> Any:
    new = tuple(
        attrs.evolve(z, cards=tuple(fills[i])) if i in fills else z for i, z in enumerate(zones)
    )
    with_zones = getattr(rules, "with_zones", None)
    if with_zones is None:
        raise ResampleError(
            f"{rules.name} cannot be resampled: its rules have no with_zones(state, zones) hook"
        )
    return with_zones(state, new)


def conceal(rules: AnyRules, state: Any, seat: int) -> Any:
    """``state`` with every card concealed from ``seat`` put back in a canonical order.

    The concealed cards are sorted and dealt to the concealed zones in zone order, so the
    result depends only on what ``seat`` knows: a :class:`~cardkit.core.seat.SeatState`
    keeps this, never the true arrangement. It is not meant to be consistent with the
    seat's inferences (it is never played on; :func:`resample` redeals it).
    """
    zones = rules.zones(state)
    hidden = _concealed(zones, seat)
    pool = _canonical([c for i in hidden for c in zones[i].cards])
    fills: dict[int, list[Card]] = {}
    at = 0
    for i in hidden:
        size = len(zones[i].cards)
        fills[i] = pool[at : at + size]
        at += size
    return _rebuild(rules, state, zones, fills)


def resample(
    rules: AnyRules,
    state: Any,
    seat: int,
    rng: random.Random,
    events: Sequence[Any] = (),
    constraints: Sequence[Constraint] | None = None,
) -> Any:
    """A full state that ``seat`` cannot tell from ``state``, drawn with ``rng``.

    ``events`` are the seat's own redacted events (``game.events_for(seat)``), from which
    the game's ``constraints`` hook draws its inferences (pass ``constraints`` to reuse
    ones already drawn). Concealed cards are shuffled with ``rng`` and dealt slot by slot,
    the most constrained slots first; a slot takes the first remaining card its
    constraints allow. If no deal satisfying every constraint is found in
    :data:`MAX_TRIES` shuffles (possible only with contradictory or very tight
    constraints), the last shuffle is dealt without constraints: a sample is always
    returned, and it always has the seat's exact view.

    The samples are not exactly uniform over the consistent deals (greedy dealing favours
    no particular card, but tight constraints skew the joint distribution a little) and
    use no model of how opponents choose (every consistent deal is equally plausible).
    To draw many samples of one position, build a :class:`Resampler` once.
    """
    if constraints is None:
        constraints = inferences(rules, state, seat, events)
    return Resampler(rules, state, seat, constraints).draw(rng)


class Resampler:
    """:func:`resample` prepared once for one position and seat: ``draw(rng)`` is then
    one shuffle, one deal and one ``with_zones`` (what a search calls every iteration)."""

    __slots__ = ("_rules", "_state", "_zones", "_hidden", "_pool", "_slots", "_with_zones")

    def __init__(
        self, rules: AnyRules, state: Any, seat: int, constraints: Sequence[Constraint] = ()
    ) -> None:
        """Prepare the draws of ``seat``'s samples of ``state`` under ``constraints``."""
        with_zones = getattr(rules, "with_zones", None)
        if with_zones is None:
            raise ResampleError(
                f"{rules.name} cannot be resampled: its rules have no with_zones(state, zones) hook"
            )
        plan = deal_plan(rules, state, seat, constraints)
        self._rules = rules
        self._state = state
        self._with_zones = with_zones
        self._zones = plan.zones
        self._hidden = list(plan.hidden)
        self._pool = list(plan.pool)
        self._slots = list(plan.slots)

    def draw(self, rng: random.Random) -> Any:
        """One sample (see :func:`resample`)."""
        hidden = self._hidden
        if not hidden:
            return self._state
        zones = self._zones
        slots = self._slots
        pool = self._pool
        count = range(len(pool))
        random_ = rng.random
        fills: dict[int, list[Card]] | None = None
        order: list[Card] = []
        for _ in range(MAX_TRIES if slots else 1):
            # A uniformly random permutation: sort positions by independent uniform keys
            # (C-level sort; several times faster than random.shuffle on a 50-card pool).
            keys = [random_() for _ in count]
            order = [pool[i] for i in sorted(count, key=keys.__getitem__)]
            fills = _deal(zones, hidden, order, slots)
            if fills is not None:
                break
        if fills is None:
            fills = _deal(zones, hidden, order, [])
            assert fills is not None
        new = list(zones)
        for i in hidden:
            z = zones[i]
            new[i] = Zone(z.name, z.owner, tuple(fills[i]), z.visible_to)
        return self._with_zones(self._state, tuple(new))


@attrs.frozen
class DealPlan:
    """What a :class:`Resampler` deals, prepared from what one seat knows (for samplers
    that deal elsewhere, such as the kernel search's, :mod:`cardkit.bots.kernel_search`).

    A draw shuffles ``pool`` uniformly, gives each of ``slots`` in turn the first card
    left that is not in its forbidden set, then fills the ``hidden`` zones in order with
    the rest (a zone's slot cards first); after :data:`MAX_TRIES` failed shuffles the last
    one is dealt to the zones without the slots.
    """

    zones: tuple[Zone, ...]
    """``rules.zones(state)``."""
    hidden: tuple[int, ...]
    """Indices in ``zones`` of the non-empty zones concealed from the seat, in zone order."""
    pool: tuple[Card, ...]
    """The concealed cards in canonical order (a function of the seat's knowledge)."""
    slots: tuple[tuple[int, frozenset[Card]], ...]
    """The constrained slots, most constrained first: (index in ``zones``, forbidden cards)."""


def deal_plan(rules: AnyRules, state: Any, seat: int, constraints: Sequence[Constraint] = ()) -> DealPlan:
    """The :class:`DealPlan` of ``seat``'s samples of ``state`` under ``constraints``."""
    zones = tuple(rules.zones(state))
    hidden = _concealed(zones, seat)
    pool = _canonical([c for i in hidden for c in zones[i].cards])
    return DealPlan(zones, tuple(hidden), tuple(pool), tuple(_slots(zones, hidden, constraints)))


def inferences(rules: AnyRules, state: Any, seat: int, events: Sequence[Any]) -> tuple[Constraint, ...]:
    """The game's ``constraints`` hook for ``seat`` (``()`` for a game without one)."""
    hook = getattr(rules, "constraints", None)
    return tuple(hook(state, seat, tuple(events))) if hook is not None else ()


# A constrained slot: (zone index, forbidden cards); the slots of one zone come first in
# the zone's card order, so the "at least k" of every constraint lands on its first k slots.
_Slot = tuple[int, frozenset[Card]]


def _slots(zones: Sequence[Zone], hidden: list[int], constraints: Sequence[Constraint]) -> list[_Slot]:
    where = {(zones[i].name, zones[i].owner): i for i in hidden}
    per_zone: dict[int, list[Constraint]] = {}
    for c in constraints:
        i = where.get((c.name, c.owner))
        if i is None or c.at_least <= 0 or not c.forbidden:
            continue
        per_zone.setdefault(i, []).append(c)
    slots: list[_Slot] = []
    for i in sorted(per_zone):
        size = len(zones[i].cards)
        group = per_zone[i]
        for j in range(size):
            banned = frozenset().union(*(c.forbidden for c in group if c.at_least > j))
            if banned:
                slots.append((i, banned))
    # Most constrained first; ties keep zone order, so the deal is reproducible.
    slots.sort(key=lambda s: -len(s[1]))
    return slots


def _deal(
    zones: Sequence[Zone], hidden: list[int], order: list[Card], slots: list[_Slot]
) -> dict[int, list[Card]] | None:
    rest = list(order)
    fills: dict[int, list[Card]] = {i: [] for i in hidden}
    for i, banned in slots:
        for k, card in enumerate(rest):
            if card not in banned:
                fills[i].append(rest.pop(k))
                break
        else:
            return None
    at = 0
    for i in hidden:
        need = len(zones[i].cards) - len(fills[i])
        fills[i].extend(rest[at : at + need])
        at += need
    return fills
