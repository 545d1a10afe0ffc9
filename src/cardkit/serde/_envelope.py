"""Logs and per-seat logs as JSON data: the envelope around the entries, both ways."""

from __future__ import annotations

import json
from typing import Any, Mapping

import attrs

from cardkit.cards import Card
from cardkit.core.game import SEED_LIMIT
from cardkit.core.log import (
    LOG_FORMAT,
    LOG_FORMAT_VERSION,
    SEAT_LOG_FORMAT,
    GameLog,
    LogEntry,
    SeatEntry,
    SeatLog,
)
from cardkit.core.rules import CHANCE
from cardkit.errors import ConfigError, LogError, UnknownGameError
from cardkit.games import check_rules, get_rules
from cardkit.serde._convert import AnyRules, _bounded, _kind_of, _types
from cardkit.serde._records import (
    _entry_to_json,
    _fast_record,
    _from_tagged,
    _seat_entry_to_json,
    _tagged,
)

_ENVELOPE_KEYS = frozenset(
    {"format", "format_version", "game", "rules_version", "config", "seed", "auto_chance", "entries"}
)
_ENTRY_KEYS = frozenset({"seq", "actor", "action", "events"})
_SEAT_LOG_KEYS = frozenset(
    {"format", "format_version", "game", "rules_version", "config", "seat", "entries"}
)

_PLAIN = frozenset({int, str, bool, float, type(None)})
"""Types that are their own JSON data (exact types: a subclass, such as an enum, is not)."""


def to_json(obj: Any) -> Any:
    """JSON-compatible data for a log, entry, action, event, card, zone or view."""
    # The plain types first, by exact type: a view is mostly ints, strings and lists, and
    # the checks below (attrs.has, isinstance against an abstract Mapping) cost far more.
    kind = type(obj)
    if kind in _PLAIN:
        return obj
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else to_json(v) for v in obj]
    if kind is dict:
        return {k if type(k) is str else str(k): v if type(v) in _PLAIN else to_json(v) for k, v in obj.items()}
    if isinstance(obj, Card):
        return obj.code
    if isinstance(obj, GameLog):
        return log_to_json(obj)
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


def _canonical(value: Any) -> Any:
    """JSON data with the keys of every object sorted (a log's config: whatever built it,
    a played game, a parsed file or a store's row, its keys come out in one order)."""
    if type(value) is dict:
        return {k: _canonical(value[k]) for k in sorted(value)}
    if type(value) is list:
        return [_canonical(v) for v in value]
    return value


def config_to_json(config: Mapping[str, Any]) -> dict[str, Any]:
    """A log's config as canonical JSON data: every option, keys sorted at every depth."""
    data: dict[str, Any] = _canonical(to_json(config))
    return data


def seat_log_to_json(log: SeatLog) -> dict[str, Any]:
    """A per-seat export as JSON-compatible data (no seed, no chance orders)."""
    return {
        "format": SEAT_LOG_FORMAT,
        "format_version": LOG_FORMAT_VERSION,
        "game": log.game,
        "rules_version": log.rules_version,
        "config": config_to_json(log.config),
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
        "config": config_to_json(log.config),
        "seed": log.seed,
        "auto_chance": log.auto_chance,
        "entries": [_entry_to_json(e) for e in log.entries],
    }


def dumps(obj: Any) -> str:
    """JSON text of a log, view, event, action (or a list of them), compact and key-stable.

    A log's text is canonical: the same log gives the same text whatever built it (a
    played game, :func:`loads`, a store): the envelope's keys in a fixed order, each
    record's keys in its class's field order after ``"type"``, the config's keys sorted.
    Its UTF-8 bytes are what a store's hash chain hashes.
    """
    return json.dumps(to_json(obj), separators=(",", ":"), ensure_ascii=False)


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
