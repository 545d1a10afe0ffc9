"""JSON for logs, actions, events and views — the only module that imports cattrs.

* A card is its code (``"QS"``); actions and events are objects tagged with
  ``"type"``: the snake_case name of their class (``CardPlayed`` -> ``"card_played"``).
  Type names are unique per game (the log names its game), plus the shared chance
  actions ``"shuffle"`` and ``"pick"``.
* A log is the envelope ``{format, format_version, game, rules_version, config, seed,
  auto_chance, entries: [{seq, actor, action, events}]}``; the actor of a chance entry
  is ``"chance"``. A per-seat export (:class:`~cardkit.core.log.SeatLog`) is
  ``{format: "cardkit-seat-log", format_version, game, rules_version, config, seat,
  entries}`` with ``action`` null where it is withheld; read it back with
  :func:`loads_seat_log` (:func:`loads` reads only full logs).
* Logs are machine-written, so loading is strict: unknown or duplicate keys, a
  ``format_version`` other than the integer 1, cards not in their canonical code
  (``"qs"``, ``"10S"``, ``"7D "``), numbers of more than 4,300 digits, ``NaN`` and
  nesting too deep for Python's parser are all :class:`~cardkit.errors.LogError`.
"""

from __future__ import annotations

import json
import re
import sys
import types
import typing
from typing import Any, Callable, Final, Literal, Mapping, Union

import attrs
import cattrs
import cattrs.fns

from cardkit.cards import Card
from cardkit.core.game import SEED_LIMIT
from cardkit.core.fields import check_fields
from cardkit.core.log import (
    LOG_FORMAT,
    LOG_FORMAT_VERSION,
    SEAT_LOG_FORMAT,
    GameLog,
    LogEntry,
    SeatEntry,
    SeatLog,
)
from cardkit.core.rules import CHANCE, Pick, Rules, Shuffle
from cardkit.errors import CardkitError, ConfigError, LogError, NotationError, UnknownGameError
from cardkit.games import check_rules, get_rules

__all__ = [
    "dumps",
    "loads",
    "loads_seat_log",
    "seat_log_from_json",
    "seat_entries_from_json",
    "MAX_DIGITS",
    "parse_json",
    "to_json",
    "log_to_json",
    "log_from_json",
    "action_from_json",
    "event_from_json",
    "type_name",
]

AnyRules = Rules[Any, Any, Any, Any]

_ENVELOPE_KEYS = frozenset(
    {"format", "format_version", "game", "rules_version", "config", "seed", "auto_chance", "entries"}
)
_ENTRY_KEYS = frozenset({"seq", "actor", "action", "events"})
_SEAT_LOG_KEYS = frozenset(
    {"format", "format_version", "game", "rules_version", "config", "seat", "entries"}
)

MAX_DIGITS: Final = 4300
"""The most digits a number in a log may have (Python's own int/str conversion limit)."""


# Messages about a log's values never quote them: a value of a log can be a hidden card
# (a chance entry is the deck order, an event a card dealt face down), and hosts show
# these messages to people. They say what is wrong and where (the entry, the field).


def _structure_card(value: Any, _: Any) -> Card:
    # Logs are machine-written: only the canonical code (Card.parse is for people).
    if not isinstance(value, str):
        raise _safe(NotationError(f"a card must be a code string, not {_kind_of(value)}"))
    try:
        return Card(value)
    except NotationError:
        pass  # raised below, outside the except clause: the first error quotes the value
    raise _safe(
        NotationError(
            "a card is not a canonical card code (a log writes each card as its code: "
            "rank then suit, upper case, T for ten, no spaces)"
        )
    )


def _safe(exc: Exception) -> Exception:
    """``exc``, marked as one of our hooks' errors, whose message quotes no value."""
    exc._cardkit_safe = True  # type: ignore[attr-defined]
    return exc


def _kind_of(value: Any) -> str:
    """What ``value`` is, without its content (for messages about a log's values)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _bounded(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _strict_int(value: Any, _: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _safe(TypeError(f"expected an integer, not {_kind_of(value)}"))
    return value


def _strict_str(value: Any, _: Any) -> str:
    if not isinstance(value, str):
        raise _safe(TypeError(f"expected a string, not {_kind_of(value)}"))
    return value


def _strict_bool(value: Any, _: Any) -> bool:
    if not isinstance(value, bool):
        raise _safe(TypeError(f"expected true or false, not {_kind_of(value)}"))
    return value


_converter = cattrs.Converter(forbid_extra_keys=True)
_converter.register_unstructure_hook(Card, lambda card: card.code)
_converter.register_structure_hook(Card, _structure_card)
_converter.register_structure_hook(int, _strict_int)
_converter.register_structure_hook(str, _strict_str)
_converter.register_structure_hook(bool, _strict_bool)


_TYPE_NAMES: dict[type, str] = {}


def type_name(cls: type) -> str:
    """The ``"type"`` tag of an action or event class: its name in snake_case."""
    name = _TYPE_NAMES.get(cls)
    if name is None:
        # cached: the regex cost about a quarter of dumps
        name = _TYPE_NAMES[cls] = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    return name


# Keyed by the classes themselves (never by id(rules): a dropped rules object's address
# can be reused by a new one, which then got a stale table). A table is a pure function
# of its key, so entries never go stale; the key keeps the classes alive, which they
# are anyway while any of their instances exist.
_TYPE_TABLES: dict[tuple[str, tuple[type, ...]], dict[str, type]] = {}


def _types(rules: AnyRules, kind: str) -> dict[str, type]:
    classes = rules.action_types + (Shuffle, Pick) if kind == "action" else rules.event_types
    key = (kind, classes)
    cached = _TYPE_TABLES.get(key)
    if cached is not None:
        return cached
    table: dict[str, type] = {}
    for cls in classes:
        name = type_name(cls)
        if name in table and table[name] is not cls:
            raise LogError(f"{rules.name}: two {kind} types share the name {name!r}")
        table[name] = cls
    _TYPE_TABLES[key] = table
    return table


def to_json(obj: Any) -> Any:
    """JSON-compatible data for a log, entry, action, event, card, zone or view."""
    if isinstance(obj, GameLog):
        return log_to_json(obj)
    if isinstance(obj, Card):
        return obj.code
    if isinstance(obj, LogEntry):
        return _entry_to_json(obj)
    if isinstance(obj, SeatLog):
        return seat_log_to_json(obj)
    if isinstance(obj, SeatEntry):
        return _seat_entry_to_json(obj)
    if attrs.has(type(obj)):
        return _tagged(obj)
    if isinstance(obj, Mapping):
        return {str(k): to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    raise TypeError(f"cannot serialize {type(obj).__name__} to JSON")


_Writer = Callable[[Any], dict[str, Any]]
_WRITERS: dict[type, _Writer] = {}


def _writer(cls: type) -> _Writer:
    """``record -> {"type": ..., field: JSON value, ...}`` for ``cls``: cattrs's own
    unstructuring, field by field, in one function generated once per class (the generic
    dispatch per record and the merge with the type tag cost about half of ``dumps``)."""
    name = type_name(cls)
    hook = _converter.get_unstructure_hook(cls)
    writer: _Writer = lambda obj: {"type": name, **hook(obj)}  # noqa: E731 - the fallback
    try:
        hints = typing.get_type_hints(cls)
        fields = attrs.fields(cls)
        if all(f.name in hints and f.name.isidentifier() and f.name != "type" for f in fields):
            namespace: dict[str, Any] = {"_name": name}
            values = []
            for i, f in enumerate(fields):
                value = f"obj.{f.name}"
                annotation = hints[f.name]
                field_hook = _converter.get_unstructure_hook(annotation)
                inner = _optional_of(annotation)
                if annotation is Card:
                    values.append(f"{value}.code")  # the hook registered above, inlined
                elif field_hook is cattrs.fns.identity or (
                    inner is not None and _converter.get_unstructure_hook(inner) is cattrs.fns.identity
                ):
                    values.append(value)  # (an optional of an identity is one too)
                elif inner is Card:
                    values.append(f"(None if {value} is None else {value}.code)")
                elif typing.get_origin(annotation) is tuple and typing.get_args(annotation) == (Card, Ellipsis):
                    values.append(f"[c.code for c in {value}]")
                else:
                    namespace[f"_h{i}"] = field_hook
                    values.append(f"_h{i}({value})")
            items = "".join(f", {f.name!r}: {v}" for f, v in zip(fields, values))
            exec(f"def write(obj):\n    return {{'type': _name{items}}}\n", namespace)  # noqa: S102
            writer = namespace["write"]
    except Exception:  # noqa: BLE001 - anything unusual keeps the generic writer
        pass
    _WRITERS[cls] = writer
    return writer


def _optional_of(annotation: Any) -> Any:
    """``X`` for ``X | None``, else None."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if (origin is Union or origin is types.UnionType) and len(args) == 2 and type(None) in args:
        return args[0] if args[1] is type(None) else args[1]
    return None


def _tagged(obj: Any) -> dict[str, Any]:
    writer = _WRITERS.get(type(obj))
    try:
        return (writer or _writer(type(obj)))(obj)
    except (AttributeError, TypeError, ValueError):
        # A hand-built record with a wrong field type (Play("QS")): name the field.
        check_fields(obj)
        raise


def _entry_to_json(entry: LogEntry) -> dict[str, Any]:
    action, writers = entry.action, _WRITERS
    try:
        # _tagged, inlined: a log holds tens of thousands of records
        return {
            "seq": entry.seq,
            "actor": "chance" if entry.actor == CHANCE else entry.actor,
            "action": (writers.get(type(action)) or _writer(type(action)))(action),
            "events": [(writers.get(type(e)) or _writer(type(e)))(e) for e in entry.events],
        }
    except (AttributeError, TypeError, ValueError):
        pass  # once more record by record, where _tagged names a bad field
    return {
        "seq": entry.seq,
        "actor": "chance" if entry.actor == CHANCE else entry.actor,
        "action": _tagged(entry.action),
        "events": [_tagged(e) for e in entry.events],
    }


def _seat_entry_to_json(entry: SeatEntry) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "actor": "chance" if entry.actor == CHANCE else entry.actor,
        "action": None if entry.action is None else _tagged(entry.action),
        "events": [_tagged(e) for e in entry.events],
    }


def seat_log_to_json(log: SeatLog) -> dict[str, Any]:
    """A per-seat export as JSON-compatible data (no seed, no chance orders)."""
    return {
        "format": SEAT_LOG_FORMAT,
        "format_version": LOG_FORMAT_VERSION,
        "game": log.game,
        "rules_version": log.rules_version,
        "config": to_json(log.config),
        "seat": log.seat,
        "entries": [_seat_entry_to_json(e) for e in log.entries],
    }


def log_to_json(log: GameLog) -> dict[str, Any]:
    """The log envelope as JSON-compatible data."""
    return {
        "format": LOG_FORMAT,
        "format_version": LOG_FORMAT_VERSION,
        "game": log.game,
        "rules_version": log.rules_version,
        "config": to_json(log.config),
        "seed": log.seed,
        "auto_chance": log.auto_chance,
        "entries": [_entry_to_json(e) for e in log.entries],
    }


def dumps(obj: Any) -> str:
    """JSON text of a log, view, event, action (or a list of them), compact and key-stable."""
    return json.dumps(to_json(obj), separators=(",", ":"), ensure_ascii=False)


class _Slow(Exception):
    """The fast structurer declines: cattrs decides (and words the error)."""


_Field = Callable[[Any], Any]


def _fast_field(annotation: Any) -> _Field:
    """A converter for one field that accepts exactly what the cattrs hooks above accept
    (and returns the same value), raising :class:`_Slow` for anything else."""
    if annotation is Card:
        interned = Card._interned

        def card(value: Any) -> Any:
            found = interned.get(value) if isinstance(value, str) else None
            if found is None:
                raise _Slow
            return found

        return card
    if annotation is int:

        def integer(value: Any) -> Any:
            if type(value) is not int:
                raise _Slow
            return value

        return integer
    if annotation is str or annotation is bool:
        exact = annotation

        def plain(value: Any) -> Any:
            if type(value) is not exact:
                raise _Slow
            return value

        return plain
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _fast_field(args[0])

        def items(value: Any) -> Any:
            if type(value) is not list:
                raise _Slow
            return tuple([item(v) for v in value])

        return items
    if (origin is Union or origin is types.UnionType) and len(args) == 2 and type(None) in args:
        inner = _fast_field(args[0] if args[1] is type(None) else args[1])

        def optional(value: Any) -> Any:
            return None if value is None else inner(value)

        return optional
    if origin is Literal and all(type(a) is str for a in args):
        allowed = frozenset(args)

        def literal(value: Any) -> Any:
            if type(value) is not str or value not in allowed:
                raise _Slow
            return value

        return literal
    # any other type: cattrs's own hook for it, called directly (no dispatch per record)
    hook = _converter.get_structure_hook(annotation)

    def other(value: Any) -> Any:
        try:
            return hook(value, annotation)
        except Exception:  # noqa: BLE001 - cattrs redoes the record and words the error
            raise _Slow from None

    return other


_Plan = tuple[frozenset[str], Callable[[dict[str, Any]], Any]]
_FAST: dict[type, _Plan | None] = {}


def _fast_plan(cls: type) -> _Plan | None:
    """How to build ``cls`` from JSON without cattrs's per-call dispatch (its keys and a
    builder generated for it); None when its fields are not all plain required init
    arguments (cattrs then does the whole job)."""
    if cls in _FAST:
        return _FAST[cls]
    from cardkit._serde_fast import record_builder

    plan: _Plan | None = None
    try:
        build = record_builder(cls, "dict")
        if build is not None:
            plan = (frozenset(f.name for f in attrs.fields(cls)) | {"type"}, build)
    except Exception:  # noqa: BLE001 - anything unusual is left to cattrs
        plan = None
    _FAST[cls] = plan
    return plan


def _fast_record(data: Any, table: dict[str, type]) -> Any:
    """The record of ``data`` by its class's plan, or None when cattrs must decide."""
    if type(data) is dict:
        name = data.get("type")
        cls = table.get(name) if type(name) is str else None
        if cls is not None:
            plan = _FAST.get(cls) if cls in _FAST else _fast_plan(cls)
            if plan is not None and data.keys() == plan[0]:
                try:
                    return plan[1](data)
                except Exception:  # noqa: BLE001 - not exactly what dumps writes: cattrs decides
                    pass
    return None


def _from_tagged(rules: AnyRules, data: Any, kind: str, table: dict[str, type] | None = None) -> Any:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        what = "an object without a string 'type'" if isinstance(data, dict) else _kind_of(data)
        raise LogError(f"{kind} must be an object with a string 'type', not {what}")
    name = data["type"]
    cls = (table if table is not None else _types(rules, kind)).get(name)
    if cls is None:
        raise LogError(f"unknown {rules.name} {kind} type {_bounded(name)}")
    # A log holds tens of thousands of records: a pre-built plan per class is several
    # times faster than cattrs's generic path. Whatever the plan does not accept exactly
    # (a missing or extra key, a non-canonical card, ...) goes to cattrs, which decides
    # and words the error as before.
    plan = _FAST.get(cls) if cls in _FAST else _fast_plan(cls)
    if plan is not None and data.keys() == plan[0]:
        try:
            return plan[1](data)
        except Exception:  # noqa: BLE001 - not exactly what dumps writes: cattrs decides
            pass
    fields = dict(data)
    del fields["type"]
    try:
        return _converter.structure(fields, cls)
    except (CardkitError, ValueError, TypeError, KeyError, cattrs.BaseValidationError) as exc:
        reason = _describe(exc)
    # Raised outside the except clause: the converter's exceptions (the __context__) quote
    # the values, and _describe does not.
    raise LogError(f"malformed {kind} {name!r}: {reason}")


def _describe(exc: BaseException) -> str:
    """What is wrong, without quoting a value of the log: our own hooks' messages (which
    never quote one), else the kind of error and the field it is in."""
    if isinstance(exc, cattrs.BaseValidationError):
        inner = exc.exceptions
        parts = sorted({_describe(e) for e in inner}) if inner else [type(exc).__name__]
        return "; ".join(parts[:5]) + (f"; and {len(parts) - 5} more" if len(parts) > 5 else "")
    where = ""
    for note in getattr(exc, "__notes__", ()):
        name = getattr(note, "name", None)
        if isinstance(name, str) and name.isidentifier():
            where = f" (field {name})"
            break
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return f"unknown key(s) for {exc.cl.__name__}"
    if isinstance(exc, KeyError):
        return f"a field is missing{where}"
    if isinstance(exc, (NotationError, TypeError)) and getattr(exc, "_cardkit_safe", False):
        return f"{exc}{where}"
    return f"{type(exc).__name__}{where}"


def action_from_json(rules: AnyRules, data: Any) -> Any:
    """An action (of ``rules``' game, or a chance action) from its JSON data."""
    return _from_tagged(rules, data, "action")


def event_from_json(rules: AnyRules, data: Any) -> Any:
    """An event of ``rules``' game from its JSON data."""
    return _from_tagged(rules, data, "event")


def _resolve_rules(data: dict[str, Any], rules: AnyRules | str | None) -> AnyRules:
    game = data["game"]
    if not isinstance(game, str):
        raise LogError(f"the log's game must be a string, not {_bounded(game)}")
    if rules is None or isinstance(rules, str):
        try:
            rules = get_rules(game if rules is None else rules)
        except UnknownGameError as exc:
            raise LogError(str(exc)) from exc
    else:
        try:
            check_rules(rules)
        except ConfigError as exc:
            raise ConfigError(
                f"the second argument must be a game's Rules or a registered game name: {exc}"
            ) from None
    if game != rules.name:
        raise LogError(f"the log is a {game!r} game, not {rules.name!r}")
    return rules


def _check_header(data: Any, fmt: str, keys: frozenset[str], optional: frozenset[str]) -> None:
    if not isinstance(data, dict):
        raise LogError("a log must be a JSON object")
    if data.get("format") != fmt:
        if fmt == LOG_FORMAT and data.get("format") == SEAT_LOG_FORMAT:
            raise LogError("this is a per-seat log (it cannot be replayed): read it with loads_seat_log")
        if fmt == SEAT_LOG_FORMAT and data.get("format") == LOG_FORMAT:
            raise LogError("this is a full game log: read it with loads")
        raise LogError(f"not a {fmt} (format {_bounded(data.get('format'))})")
    version = data.get("format_version")
    if type(version) is not int or version != LOG_FORMAT_VERSION:
        raise LogError(
            f"unknown log format_version {_bounded(version)}; this library reads the "
            f"integer {LOG_FORMAT_VERSION}"
        )
    extra = sorted(set(data) - keys)
    if extra:
        raise LogError(f"unknown log field(s): {', '.join(_bounded(k) for k in extra)}")
    missing = sorted(keys - optional - set(data))
    if missing:
        raise LogError(f"the log is missing field(s): {', '.join(missing)}")
    rv, config = data["rules_version"], data["config"]
    if not isinstance(rv, int) or isinstance(rv, bool):
        raise LogError("the log's rules_version must be an integer")
    if not isinstance(config, dict):
        raise LogError("the log's config must be an object")
    if not isinstance(data["entries"], list):
        raise LogError("the log's entries must be a list")


def _actor(raw: Any, i: int) -> int:
    actor = raw["actor"]
    if actor == "chance":
        return CHANCE
    if not isinstance(actor, int) or isinstance(actor, bool) or actor < 0:
        raise LogError(
            f"entry {i} has a bad actor ({_kind_of(actor)}; a seat number or \"chance\")", seq=i
        )
    return actor


def _entry_fields(raw: Any, i: int, expected_seq: int | None) -> tuple[int, int, list[Any]]:
    if not isinstance(raw, dict) or raw.keys() != _ENTRY_KEYS:
        raise LogError(f"entry {i} must have exactly the keys seq, actor, action, events", seq=i)
    seq, events = raw["seq"], raw["events"]
    if not isinstance(seq, int) or isinstance(seq, bool) or (
        expected_seq is not None and seq != expected_seq
    ):
        raise LogError(
            f"entry {i} has seq {seq if type(seq) is int else _kind_of(seq)}: the log is out of "
            "order or truncated",
            seq=i,
        )
    if not isinstance(events, list):
        raise LogError(f"entry {i}: events must be a list", seq=i)
    return seq, _actor(raw, i), events


def _at(seq: int, actor: int, load: Any, *args: Any) -> Any:
    try:
        return load(*args)
    except LogError as exc:
        if exc.seq is not None:
            raise
        message = str(exc)
    who = "chance" if actor == CHANCE else f"seat {actor}"
    raise LogError(f"entry {seq} ({who}): {message}", seq=seq)


def log_from_json(data: Any, rules: AnyRules | str | None = None) -> GameLog:
    """A :class:`GameLog` from envelope data; :class:`LogError` if anything is off.

    The game's types come from ``rules`` (a Rules object or a registered game name) if
    given, else from the registry by the log's ``game``.
    """
    _check_header(data, LOG_FORMAT, _ENVELOPE_KEYS, frozenset({"auto_chance"}))
    rules = _resolve_rules(data, rules)
    seed = data["seed"]
    auto = data.get("auto_chance", True)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise LogError("the log's seed must be an integer in 0..2**64-1")
    if not isinstance(auto, bool):
        raise LogError("the log's auto_chance must be true or false")
    entries = []
    actions, event_types = _types(rules, "action"), _types(rules, "event")
    for i, raw in enumerate(data["entries"]):
        seq, actor, events = _entry_fields(raw, i, i)
        action = _fast_record(raw["action"], actions)
        if action is None:
            action = _at(seq, actor, _from_tagged, rules, raw["action"], "action", actions)
        loaded = []
        for e in events:
            event = _fast_record(e, event_types)
            loaded.append(event if event is not None else _at(seq, actor, _from_tagged, rules, e, "event", event_types))
        entries.append(LogEntry(seq=seq, actor=actor, action=action, events=tuple(loaded)))
    return GameLog(
        game=rules.name,
        rules_version=data["rules_version"],
        config=data["config"],
        seed=seed,
        entries=tuple(entries),
        auto_chance=auto,
    )


def seat_entries_from_json(rules: AnyRules, data: Any) -> tuple[SeatEntry, ...]:
    """:class:`SeatEntry` values from the JSON of ``dumps(game.entries_for(...))``."""
    if not isinstance(data, list):
        raise LogError("seat entries must be a JSON list")
    out = []
    previous = -1
    actions, event_types = _types(rules, "action"), _types(rules, "event")
    for i, raw in enumerate(data):
        seq, actor, events = _entry_fields(raw, i, None)
        if seq <= previous:
            raise LogError(f"entry {i} has seq {seq}: seat entries must be in order", seq=i)
        previous = seq
        action = raw["action"]
        if action is not None:
            loaded = _fast_record(action, actions)
            action = loaded if loaded is not None else _at(seq, actor, _from_tagged, rules, action, "action", actions)
        records = []
        for e in events:
            event = _fast_record(e, event_types)
            records.append(event if event is not None else _at(seq, actor, _from_tagged, rules, e, "event", event_types))
        out.append(SeatEntry(seq=seq, actor=actor, action=action, events=tuple(records)))
    return tuple(out)


def seat_log_from_json(data: Any, rules: AnyRules | str | None = None) -> SeatLog:
    """A :class:`SeatLog` from its JSON data; :class:`LogError` if anything is off."""
    _check_header(data, SEAT_LOG_FORMAT, _SEAT_LOG_KEYS, frozenset())
    rules = _resolve_rules(data, rules)
    seat = data["seat"]
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise LogError(f"the log's seat must be a seat number or null, not {_bounded(seat)}")
    entries = seat_entries_from_json(rules, data["entries"])
    for i, entry in enumerate(entries):
        if entry.seq != i:
            raise LogError(f"entry {i} has seq {entry.seq}: the log is out of order", seq=i)
    return SeatLog(
        game=rules.name,
        rules_version=data["rules_version"],
        config=data["config"],
        seat=seat,
        entries=entries,
    )


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise LogError(f"the key {_bounded(key)} appears twice in one JSON object")
            seen.add(key)
    return out


def _parse_int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise LogError(f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise LogError(f"a number of {len(text)} characters (at most {MAX_DIGITS})")
    return float(text)


def _parse_constant(text: str) -> Any:
    raise LogError(f"{text} is not a JSON number")


def parse_json(text: str | bytes) -> Any:
    """Strict JSON (see the module docs); :class:`LogError` for anything else."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogError(f"the log is not UTF-8 text: {exc}") from None
    if not isinstance(text, str):
        raise LogError(f"a log is JSON text, not {type(text).__name__}")
    # Python's own limit on digits, when it is on and no looser than ours, does the
    # check in C (a Python hook per number cost a tenth of loads).
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_int=None if 0 < limit <= MAX_DIGITS else _parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except LogError:
        raise
    except (ValueError, TypeError, RecursionError) as exc:
        if "integer string conversion" in str(exc):
            raise LogError(f"a number of more than {limit} digits (at most {MAX_DIGITS})") from None
        raise LogError(f"the log is not valid JSON: {exc}") from None


def loads(text: str | bytes, rules: AnyRules | str | None = None) -> GameLog:
    """A :class:`GameLog` from JSON text; :class:`LogError` if malformed, truncated or of
    an unknown ``format_version``. Pass ``rules`` (a Rules object or a registered name)
    for a game that is not registered; a per-seat export is read by :func:`loads_seat_log`."""
    # what dumps wrote is read in one pass; anything else, and every error, here below
    from cardkit._serde_fast import fused_loads

    decoded = _utf8(text)
    log = None if decoded is None else fused_loads(decoded, rules)
    return log if log is not None else log_from_json(parse_json(text), rules)


def _utf8(text: object) -> str | None:
    """``text`` as a str for the one-pass readers (None where only the generic path can
    say what is wrong with it)."""
    if type(text) is str:
        return text
    if isinstance(text, (bytes, bytearray)):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def loads_seat_log(text: str | bytes, rules: AnyRules | str | None = None) -> SeatLog:
    """A :class:`SeatLog` (``dumps(game.log_for(seat))``) from JSON text; :class:`LogError`
    if malformed. ``rules`` as for :func:`loads`."""
    from cardkit._serde_fast import fused_loads_seat_log

    decoded = _utf8(text)
    log = None if decoded is None else fused_loads_seat_log(decoded, rules)
    return log if log is not None else seat_log_from_json(parse_json(text), rules)


# ----------------------------------------------------------------- states (snapshots)
# A state is stored as {"type": <class name>, "state": <cattrs data>}. Stores keep these as
# snapshots, a cache that is only ever used with the same rules_version and library version
# that wrote it, so the encoding is free to follow the state classes as they are.

_STATE_TYPES: dict[int, type] = {}


def _state_type(rules: AnyRules) -> type:
    cached = _STATE_TYPES.get(id(rules))
    if cached is not None:
        return cached
    declared = getattr(rules, "state_type", None)
    if isinstance(declared, type):
        cls = declared
    else:
        # The rules protocol does not name its state class; the initial state of the
        # smallest default table shows it.
        cls = type(rules.initial_state(rules.config(rules.min_players)))
    if not attrs.has(cls):
        raise LogError(f"{rules.name}: its state class {cls.__name__} is not an attrs class")
    _STATE_TYPES[id(rules)] = cls
    return cls


def dumps_state(rules: AnyRules, state: Any) -> str:
    """JSON text of a full (host-side) ``state`` of ``rules``' game; :func:`loads_state` reads it back.

    The state holds every hidden card: this text is for a host's own storage, never for a seat.
    """
    cls = _state_type(rules)
    if type(state) is not cls:
        raise LogError(f"{rules.name} states are {cls.__name__}, not {type(state).__name__}")
    data = {"type": cls.__name__, "state": _converter.unstructure(state, cls)}
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def loads_state(rules: AnyRules, text: str | bytes) -> Any:
    """The state of ``rules``' game that :func:`dumps_state` wrote; :class:`LogError` if the text
    is not valid JSON, names another state class, or does not fit the class."""
    cls = _state_type(rules)
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise LogError(f"the state is not valid JSON: {exc}") from exc
    if not isinstance(data, dict) or set(data) != {"type", "state"}:
        raise LogError("a state must be an object with exactly the keys type and state")
    if data["type"] != cls.__name__:
        raise LogError(f"the state is a {data['type']!r}, not a {rules.name} {cls.__name__}")
    try:
        return _converter.structure(data["state"], cls)
    except (CardkitError, ValueError, TypeError, KeyError, cattrs.BaseValidationError) as exc:
        reason = _describe(exc)
    raise LogError(f"malformed {rules.name} state: {reason}")  # a state holds every hidden card


__all__ += ["dumps_state", "loads_state"]
