"""The fast path of :func:`cardkit.loads` and :func:`cardkit.loads_seat_log`: records
built while the JSON is parsed.

The generic path (:func:`cardkit.serde.parse_json`, then
:func:`~cardkit.serde.log_from_json`) parses with a strict hook that checks every object
for duplicate keys, then builds the records from the parsed dicts: two passes over every
object. A log that :func:`cardkit.dumps` wrote has a fixed shape (each record's keys in
its class's field order, ``"type"`` first; each entry's keys ``seq, actor, action,
events``), so one hook can do both jobs at once: an object with exactly its class's keys,
in order, cannot hold a duplicate, and becomes the record straight from its key/value
pairs, with no dict built and no second pass.

Anything this path does not accept exactly (another key order, a missing or unknown key,
a non-canonical card, an unknown type, a wrong envelope, bad JSON...) makes it give up:
:func:`fused_loads` (or :func:`fused_loads_seat_log`) returns None and the generic path
reads the text from the start, so it alone decides every error and words it. What this
path returns is what the generic path returns for the same text (the tests compare the
two on logs of every game and on damaged logs).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Callable, Final

from cardkit.core.game import SEED_LIMIT
from cardkit.core.log import LOG_FORMAT, SEAT_LOG_FORMAT, GameLog, LogEntry, SeatEntry, SeatLog
from cardkit.core.rules import CHANCE, Pick, Shuffle
from cardkit.serde._build import _GiveUp, record_builder
from cardkit.serde._convert import AnyRules, _types
from cardkit.serde._envelope import _ENVELOPE_KEYS, _SEAT_LOG_KEYS, _check_header, _resolve_rules
from cardkit.serde._records import _from_tagged
from cardkit.serde._text import MAX_DIGITS, _parse_constant, _parse_float, _parse_int

__all__ = ["fused_loads", "fused_loads_seat_log"]

# What dumps writes first; the game's name is needed before the entries are parsed (the
# hook must know the game's record classes), and the envelope object is parsed last.
_HEAD: Final = re.compile(r'\{"format":"cardkit-log","format_version":1,"game":"([^"\\]*)"')
_SEAT_HEAD: Final = re.compile(r'\{"format":"cardkit-seat-log","format_version":1,"game":"([^"\\]*)"')

_Pairs = list[tuple[str, Any]]
_Hook = Callable[[_Pairs], Any]


class _Reader:
    """The object hook for one game's logs, with the tables it needs."""

    def __init__(self, rules: AnyRules) -> None:
        self.rules = rules
        actions, events = _types(rules, "action"), _types(rules, "event")
        builders: dict[str, Callable[[_Pairs], Any]] = {}
        for name in sorted(set(actions) | set(events)):
            classes = {table[name] for table in (actions, events) if name in table}
            if len(classes) != 1:
                continue  # one name, an action and an event class: the entry decides which
            build = record_builder(classes.pop(), "pairs")
            if build is not None:
                builders[name] = build
        self.builders = builders
        tables = (
            builders,
            frozenset(actions.values()),
            frozenset(events.values()),
            lambda data: self.record(data, "action", actions),
            lambda data: self.record(data, "event", events),
        )
        self.hook = _make_hook(*tables, LogEntry, False)
        self.seat_hook = _make_hook(*tables, SeatEntry, True)

    def record(self, data: Any, kind: str, table: dict[str, type]) -> Any:
        """A record the hook left as a dict (keys in another order, a class without a
        plan, a name shared by an action and an event): the generic structuring."""
        if type(data) is not dict:
            raise _GiveUp
        return _from_tagged(self.rules, data, kind, table)


def _make_hook(
    builders: dict[str, Callable[[_Pairs], Any]],
    action_classes: frozenset[type],
    event_classes: frozenset[type],
    action_record: Callable[[Any], Any],
    event_record: Callable[[Any], Any],
    entry_type: type,
    withheld: bool,
) -> _Hook:
    """The hook for full logs (``LogEntry``) or per-seat logs (``SeatEntry``, whose
    ``action`` is null where it is ``withheld``)."""
    # One closure with its tables in local cells: this runs once per JSON object.

    def hook(pairs: _Pairs) -> Any:
        """One parsed JSON object: a record, an entry, or a dict (checked for duplicate keys)."""
        if pairs:
            key, value = pairs[0]
            if key == "type":
                try:
                    return builders[value](pairs)
                except Exception:  # noqa: BLE001 - not exactly what dumps writes: a dict (below)
                    pass
            elif key == "seq":
                (_, seq), (k1, actor), (k2, action), (k3, events) = pairs
                if k1 != "actor" or k2 != "action" or k3 != "events" or type(seq) is not int:
                    raise _GiveUp
                if type(actor) is not int or actor < 0:
                    if actor != "chance":
                        raise _GiveUp
                    actor = CHANCE
                if type(action) not in action_classes and not (withheld and action is None):
                    action = action_record(action)
                if type(events) is not list:
                    raise _GiveUp
                if len(events) == 1:
                    only = events[0]
                    loaded: tuple[Any, ...] = (only if type(only) in event_classes else event_record(only),)
                else:
                    loaded = tuple([e if type(e) in event_classes else event_record(e) for e in events])
                return entry_type(seq, actor, action, loaded)
        out = dict(pairs)
        if len(out) != len(pairs):
            raise _GiveUp  # a duplicate key: the generic path names it
        return out

    return hook


_READERS: dict[tuple[tuple[type, ...], tuple[type, ...]], _Reader] = {}


def _reader(rules: AnyRules) -> _Reader:
    # Keyed by the classes (as serde's type tables are), never by id(rules). Two rules
    # objects with the same classes share a reader: its rules only word errors, and the
    # generic path words every error anyway.
    key = (tuple(rules.action_types) + (Shuffle, Pick), tuple(rules.event_types))
    reader = _READERS.get(key)
    if reader is None:
        reader = _READERS[key] = _Reader(rules)
    return reader


def _plain_json(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is JSON data only (no record the hook built inside a config)."""
    if depth > 100:
        return False
    if type(value) is dict:
        return all(_plain_json(v, depth + 1) for v in value.values())
    if type(value) is list:
        return all(_plain_json(v, depth + 1) for v in value)
    return value is None or type(value) in (str, int, float, bool)


def _fused(text: str, rules: AnyRules | str | None, seat_log: bool) -> tuple[AnyRules, dict[str, Any]] | None:
    """The rules and the parsed envelope (its entries built) of a log or a per-seat log in
    the shape dumps writes; None where anything is off."""
    head = (_SEAT_HEAD if seat_log else _HEAD).match(text)
    if head is None:
        return None
    try:
        resolved = _resolve_rules({"game": head.group(1)}, rules)
        reader = _reader(resolved)
        limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
        data = json.loads(
            text,
            object_pairs_hook=reader.seat_hook if seat_log else reader.hook,
            parse_int=None if 0 < limit <= MAX_DIGITS else _parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
        if seat_log:
            _check_header(data, SEAT_LOG_FORMAT, _SEAT_LOG_KEYS, frozenset())
        else:
            _check_header(data, LOG_FORMAT, _ENVELOPE_KEYS, frozenset({"auto_chance"}))
        if _resolve_rules(data, rules) is not resolved:
            return None
    except Exception:  # noqa: BLE001 - anything off: the generic path decides and words it
        return None
    if not _plain_json(data["config"]) or type(data["rules_version"]) is not int:
        return None
    entry_type = SeatEntry if seat_log else LogEntry
    for i, entry in enumerate(data["entries"]):
        if type(entry) is not entry_type or entry.seq != i:
            return None
    return resolved, data


def fused_loads(text: str, rules: AnyRules | str | None) -> GameLog | None:
    """The :class:`GameLog` of ``text`` if it has the shape :func:`cardkit.dumps` writes,
    else None (the generic path then reads it and decides every error)."""
    read = _fused(text, rules, seat_log=False)
    if read is None:
        return None
    resolved, data = read
    seed, auto = data["seed"], data.get("auto_chance", True)
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT or type(auto) is not bool:
        return None
    return GameLog(
        game=resolved.name,
        rules_version=data["rules_version"],
        config=data["config"],
        seed=seed,
        entries=tuple(data["entries"]),
        auto_chance=auto,
    )


def fused_loads_seat_log(text: str, rules: AnyRules | str | None) -> SeatLog | None:
    """The :class:`SeatLog` of ``text`` if it has the shape :func:`cardkit.dumps` writes,
    else None (the generic path then reads it and decides every error)."""
    read = _fused(text, rules, seat_log=True)
    if read is None:
        return None
    resolved, data = read
    seat = data["seat"]
    if seat is not None and (type(seat) is not int or seat < 0):
        return None
    return SeatLog(
        game=resolved.name,
        rules_version=data["rules_version"],
        config=data["config"],
        seat=seat,
        entries=tuple(data["entries"]),
    )
