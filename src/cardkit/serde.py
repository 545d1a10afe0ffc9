"""JSON for logs, actions, events and views — the only module that imports cattrs.

* A card is its code (``"QS"``); actions and events are objects tagged with
  ``"type"``: the snake_case name of their class (``CardPlayed`` -> ``"card_played"``).
  Type names are unique per game (the log names its game), plus the shared chance
  actions ``"shuffle"`` and ``"pick"``.
* A log is the envelope ``{format, format_version, game, rules_version, config, seed,
  auto_chance, entries: [{seq, actor, action, events}]}``; the actor of a chance entry
  is ``"chance"``. Unknown keys are refused.
"""

from __future__ import annotations

import json
import re
from typing import Any

import attrs
import cattrs

from cardkit.cards import Card
from cardkit.core.log import LOG_FORMAT, LOG_FORMAT_VERSION, GameLog, LogEntry
from cardkit.core.rules import CHANCE, Pick, Rules, Shuffle
from cardkit.errors import CardkitError, LogError, NotationError, UnknownGameError
from cardkit.games import get_rules

__all__ = [
    "dumps",
    "loads",
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


def _structure_card(value: Any, _: Any) -> Card:
    if not isinstance(value, str):
        raise NotationError(f"a card must be a code string, not {value!r}")
    return Card.parse(value)


def _strict_int(value: Any, _: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected an integer, not {value!r}")
    return value


def _strict_str(value: Any, _: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, not {value!r}")
    return value


def _strict_bool(value: Any, _: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, not {value!r}")
    return value


_converter = cattrs.Converter(forbid_extra_keys=True)
_converter.register_unstructure_hook(Card, lambda card: card.code)
_converter.register_structure_hook(Card, _structure_card)
_converter.register_structure_hook(int, _strict_int)
_converter.register_structure_hook(str, _strict_str)
_converter.register_structure_hook(bool, _strict_bool)


def type_name(cls: type) -> str:
    """The ``"type"`` tag of an action or event class: its name in snake_case."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


_TYPE_TABLES: dict[tuple[int, str], dict[str, type]] = {}


def _types(rules: AnyRules, kind: str) -> dict[str, type]:
    key = (id(rules), kind)
    cached = _TYPE_TABLES.get(key)
    if cached is not None:
        return cached
    classes = rules.action_types + (Shuffle, Pick) if kind == "action" else rules.event_types
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
    if attrs.has(type(obj)):
        return _tagged(obj)
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    raise TypeError(f"cannot serialize {type(obj).__name__} to JSON")


def _tagged(obj: Any) -> dict[str, Any]:
    return {"type": type_name(type(obj)), **_converter.unstructure(obj)}


def _entry_to_json(entry: LogEntry) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "actor": "chance" if entry.actor == CHANCE else entry.actor,
        "action": _tagged(entry.action),
        "events": [_tagged(e) for e in entry.events],
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


def _from_tagged(rules: AnyRules, data: Any, kind: str) -> Any:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise LogError(f"{kind} must be an object with a string 'type', not {data!r}")
    fields = dict(data)
    name = fields.pop("type")
    cls = _types(rules, kind).get(name)
    if cls is None:
        raise LogError(f"unknown {rules.name} {kind} type {name!r}")
    try:
        return _converter.structure(fields, cls)
    except (CardkitError, ValueError, TypeError, KeyError, cattrs.BaseValidationError) as exc:
        raise LogError(f"malformed {kind} {name!r}: {_describe(exc)}") from exc


def _describe(exc: BaseException) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        inner = exc.exceptions
        return "; ".join(_describe(e) for e in inner) if inner else str(exc)
    return str(exc) or type(exc).__name__


def action_from_json(rules: AnyRules, data: Any) -> Any:
    """An action (of ``rules``' game, or a chance action) from its JSON data."""
    return _from_tagged(rules, data, "action")


def event_from_json(rules: AnyRules, data: Any) -> Any:
    """An event of ``rules``' game from its JSON data."""
    return _from_tagged(rules, data, "event")


def log_from_json(data: Any, rules: AnyRules | None = None) -> GameLog:
    """A :class:`GameLog` from envelope data; :class:`LogError` if anything is off.

    The game's types come from ``rules`` if given, else from the registry.
    """
    if not isinstance(data, dict):
        raise LogError("a log must be a JSON object")
    if data.get("format") != LOG_FORMAT:
        raise LogError(f"not a cardkit log (format {data.get('format')!r})")
    version = data.get("format_version")
    if version != LOG_FORMAT_VERSION:
        raise LogError(
            f"unknown log format_version {version!r}; this library reads version {LOG_FORMAT_VERSION}"
        )
    extra = sorted(set(data) - _ENVELOPE_KEYS)
    if extra:
        raise LogError(f"unknown log field(s): {', '.join(extra)}")
    missing = sorted(_ENVELOPE_KEYS - {"auto_chance"} - set(data))
    if missing:
        raise LogError(f"the log is missing field(s): {', '.join(missing)}")
    if rules is None:
        try:
            rules = get_rules(data["game"])
        except UnknownGameError as exc:
            raise LogError(str(exc)) from exc
    elif data["game"] != rules.name:
        raise LogError(f"the log is a {data['game']!r} game, not {rules.name!r}")
    seed, rv, config = data["seed"], data["rules_version"], data["config"]
    auto = data.get("auto_chance", True)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise LogError("the log's seed must be an integer")
    if not isinstance(rv, int) or isinstance(rv, bool):
        raise LogError("the log's rules_version must be an integer")
    if not isinstance(config, dict):
        raise LogError("the log's config must be an object")
    if not isinstance(auto, bool):
        raise LogError("the log's auto_chance must be true or false")
    raw_entries = data["entries"]
    if not isinstance(raw_entries, list):
        raise LogError("the log's entries must be a list")
    entries = []
    for i, raw in enumerate(raw_entries):
        if not isinstance(raw, dict) or set(raw) != _ENTRY_KEYS:
            raise LogError(f"entry {i} must have exactly the keys seq, actor, action, events")
        seq, actor, events = raw["seq"], raw["actor"], raw["events"]
        if seq != i or not isinstance(seq, int) or isinstance(seq, bool):
            raise LogError(f"entry {i} has seq {seq!r}: the log is out of order or truncated")
        if actor == "chance":
            actor = CHANCE
        elif not isinstance(actor, int) or isinstance(actor, bool) or actor < 0:
            raise LogError(f"entry {i} has a bad actor {actor!r}")
        if not isinstance(events, list):
            raise LogError(f"entry {i}: events must be a list")
        entries.append(
            LogEntry(
                seq=seq,
                actor=actor,
                action=action_from_json(rules, raw["action"]),
                events=tuple(event_from_json(rules, e) for e in events),
            )
        )
    return GameLog(
        game=rules.name,
        rules_version=rv,
        config=dict(config),
        seed=seed,
        entries=tuple(entries),
        auto_chance=auto,
    )


def loads(text: str | bytes, rules: AnyRules | None = None) -> GameLog:
    """A :class:`GameLog` from JSON text; :class:`LogError` if malformed, truncated or of
    an unknown ``format_version``. Pass ``rules`` for a game that is not registered."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise LogError(f"the log is not valid JSON: {exc}") from exc
    return log_from_json(data, rules)


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
        raise LogError(f"malformed {rules.name} state: {_describe(exc)}") from exc


__all__ += ["dumps_state", "loads_state"]
