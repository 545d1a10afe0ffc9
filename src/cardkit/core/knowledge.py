"""What a seat could learn from an entry: the check behind ``Game.undo(safe=True)``.

Taking back an entry is safe only if nobody learned from it something the actor did
not already know. "Learned" is judged generically, from what every game provides:

1. **Zones.** For every seat, the multiset of cards it can see after the entry minus
   what it could see before (a second copy of a card counts: zones are multisets).
2. **Events naming cards.** Every card named in the events as that seat receives them
   (``rules.redact``), unless the seat could see a copy of it before.
3. **Events that depend on where hidden cards lie.** An event can reveal a card's place
   without naming the card ("seat 3 leads" because seat 3 holds the 2♣). To catch this
   kind, the entry is decided again in *counterfactual* states: states where two card
   values the actor cannot see (every copy hidden from it) swap places, one from each
   of two zones. If some seat would then receive other events (compared after swapping
   back), the events depend on hidden cards, and the entry is not safely undoable.

A card the actor could already see before the entry is exempt from 1 and 2 (taking
back a misclick gives away only the actor's own card). Messages never name the card:
the error goes to the actor, who must not learn it from the refusal either.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any, Iterable, Iterator, Sequence

import attrs

from cardkit.cards import Card
from cardkit.core.log import LogEntry
from cardkit.core.rules import CHANCE, Rules, Zone
from cardkit.errors import CardkitError, IllegalActionError

__all__ = ["check_safe_undo", "check_take_back", "visible_cards", "cards_named", "swap_cards"]

AnyRules = Rules[Any, Any, Any, Any]


def visible_cards(zones: Iterable[Zone], seat: int) -> Counter[Card]:
    """The multiset of cards ``seat`` may see in ``zones``."""
    seen: Counter[Card] = Counter()
    for zone in zones:
        if seat in zone.visible_to:
            seen.update(zone.cards)
    return seen


def cards_named(obj: object) -> Iterator[Card]:
    """Every :class:`Card` inside ``obj`` (attrs fields, tuples, lists, dicts, sets)."""
    if isinstance(obj, Card):
        yield obj
    elif isinstance(obj, (tuple, list, frozenset, set)):
        for item in obj:
            yield from cards_named(item)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from cards_named(key)
            yield from cards_named(value)
    elif attrs.has(type(obj)):
        for field in attrs.fields(type(obj)):  # type: ignore[arg-type]
            yield from cards_named(getattr(obj, field.name))


def swap_cards(obj: Any, a: Card, b: Card) -> Any:
    """``obj`` with every ``a`` replaced by ``b`` and every ``b`` by ``a`` (a relabelled copy;
    parts without either card are shared, not copied)."""
    if obj is a:
        return b
    if obj is b:
        return a
    if isinstance(obj, Card) or obj is None or isinstance(obj, (str, int, float)):
        return obj
    if isinstance(obj, tuple):
        items = [swap_cards(x, a, b) for x in obj]
        if all(x is y for x, y in zip(items, obj)):
            return obj
        if type(obj) is tuple:
            return tuple(items)
        if hasattr(obj, "_fields"):
            return type(obj)(*items)
        return type(obj)(items)
    if isinstance(obj, (list, frozenset, set)):
        items = [swap_cards(x, a, b) for x in obj]
        return type(obj)(items)
    if isinstance(obj, dict):
        return type(obj)((swap_cards(k, a, b), swap_cards(v, a, b)) for k, v in obj.items())
    if attrs.has(type(obj)):
        changed = {}
        for field in attrs.fields(type(obj)):
            value = getattr(obj, field.name)
            new = swap_cards(value, a, b)
            if new is not value:
                changed[field.name] = new
        if not changed:
            return obj
        clone = copy.copy(obj)
        for name, value in changed.items():
            object.__setattr__(clone, name, value)
        return clone
    return obj


def _refuse(entry: LogEntry, why: str) -> IllegalActionError:
    return IllegalActionError(f"unsafe undo: after {entry.action}, {why}", entry.action, entry.actor)


def check_safe_undo(
    rules: AnyRules, players: int, state: Any, entries: Sequence[LogEntry]
) -> None:
    """Raise :class:`IllegalActionError` unless undoing ``entries`` (oldest first, played
    from ``state``) takes back nothing anyone learned that the actor did not know."""
    if any(e.actor == CHANCE for e in entries):
        raise IllegalActionError("unsafe undo: it would take back a chance outcome")
    if len({e.actor for e in entries}) > 1:
        raise IllegalActionError("unsafe undo: it would take back actions of several seats")
    redact = rules.redact
    for entry in entries:
        actor = entry.actor
        zones_before = rules.zones(state)
        after_state = state
        for event in entry.events:
            after_state = rules.evolve(after_state, event)
        zones_after = rules.zones(after_state)
        for seat in range(players):
            if _learned(rules, seat, actor, entry, zones_before, zones_after, redact):
                who = "you" if seat == actor else f"seat {seat}"
                raise _refuse(entry, f"{who} could see a card that was hidden from {who} before")
        known_to_actor = visible_cards(zones_before, actor)
        if _depends_on_hidden_cards(rules, players, state, entry, zones_before, known_to_actor):
            raise _refuse(
                entry,
                "what the seats were told depends on where cards hidden from you lie",
            )
        state = after_state


def check_take_back(
    rules: AnyRules, players: int, state: Any, entries: Sequence[LogEntry], seat: int
) -> None:
    """Raise :class:`IllegalActionError` unless undoing ``entries`` (oldest first, played
    from ``state``; ``seat``'s own action first, then whatever followed it: other seats'
    replies, chance) shows ``seat`` nothing it had not seen: no card hidden from ``seat``
    before an entry can be seen by it, or is named to it, after the entry.

    This is the rule of taking back a move against bots (``Game.undo_seat(seat,
    replies=True)``): the other seats' knowledge is not considered (bots keep no memory of
    a line that was taken back), nor what their choices say about their hands (a bid, a
    draw): only cards shown. The message never names the card.
    """
    redact = rules.redact
    for entry in entries:
        zones_before = rules.zones(state)
        after_state = state
        for event in entry.events:
            after_state = rules.evolve(after_state, event)
        zones_after = rules.zones(after_state)
        # seat as the "actor": whatever seat could see before (its own cards) is exempt
        if _learned(rules, seat, seat, entry, zones_before, zones_after, redact):
            raise IllegalActionError(
                "since your last action, a card that was hidden from you was shown to you, "
                "and undo never lets you choose again knowing it",
                None,
                seat,
            )
        state = after_state


_Place = tuple[str, "int | None", int]


def _by_place(zones: Sequence[Zone]) -> dict[_Place, Zone]:
    # A zone's identity across an entry is its name and owner (numbered when repeated).
    out: dict[_Place, Zone] = {}
    for zone in zones:
        k = 0
        while (zone.name, zone.owner, k) in out:
            k += 1
        out[(zone.name, zone.owner, k)] = zone
    return out


def _learned(
    rules: AnyRules,
    seat: int,
    actor: int,
    entry: LogEntry,
    zones_before: Sequence[Zone],
    zones_after: Sequence[Zone],
    redact: Any,
) -> bool:
    """Whether ``seat`` can know a card's place after ``entry`` that it could not before and
    that the actor could not see before (copies counted: a second copy matters)."""
    before = _by_place(zones_before)
    after = _by_place(zones_after)
    empty = Zone("", None, (), ())
    # copies the seat can now see in a place where it could not see them before, less
    # those the actor could see in that very place
    residual: Counter[Card] = Counter()
    # copies the actor could see that the entry moved out of their place (a played card)
    moved: Counter[Card] = Counter()
    for place in before.keys() | after.keys():
        was = before.get(place, empty)
        now = after.get(place, empty)
        was_cards = Counter(was.cards)
        now_cards = Counter(now.cards)
        if seat in now.visible_to:
            gained = now_cards - (was_cards if seat in was.visible_to else Counter())
            if actor in was.visible_to:
                gained -= was_cards
            residual += gained
        if actor in was.visible_to:
            moved += was_cards - now_cards
    if residual - moved:
        return True
    seen_before = visible_cards(zones_before, seat)
    seen_after = visible_cards(zones_after, seat)
    known_to_actor = visible_cards(zones_before, actor)
    for event in entry.events:
        for card in cards_named(redact(event, seat)):
            if seen_before[card] == 0 and seen_after[card] == 0 and known_to_actor[card] == 0:
                return True
    return False


def _depends_on_hidden_cards(
    rules: AnyRules,
    players: int,
    state: Any,
    entry: LogEntry,
    zones: Sequence[Zone],
    known_to_actor: Counter[Card],
) -> bool:
    actor = entry.actor
    hidden_zones: list[list[Card]] = []
    for zone in zones:
        if actor in zone.visible_to:
            continue
        values = []
        for card in zone.cards:
            if known_to_actor[card] == 0 and card not in values:
                values.append(card)
        if values:
            hidden_zones.append(values)
    if len(hidden_zones) < 2:
        return False
    redact = rules.redact
    seen_by = [tuple(redact(e, s) for e in entry.events) for s in range(players)]
    for i, mine in enumerate(hidden_zones):
        for j, other in enumerate(hidden_zones):
            if j == i:
                continue
            for a in mine:
                b = next((c for c in other if c is not a and c not in mine), None)
                if b is None:
                    continue
                swapped = swap_cards(state, a, b)
                try:
                    events = tuple(rules.decide(swapped, entry.action))
                except CardkitError:
                    continue  # the action is not possible there: not a world the actor may be in
                except Exception:  # noqa: BLE001
                    # a user's rules may assume facts the relabelling broke (a cached
                    # count): that world is not comparable, and undo must not crash on it
                    continue
                if len(events) != len(entry.events):
                    return True
                events = tuple(swap_cards(e, a, b) for e in events)
                for seat in range(players):
                    if tuple(redact(e, seat) for e in events) != seen_by[seat]:
                        return True
    return False
