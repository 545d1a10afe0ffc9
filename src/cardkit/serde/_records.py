"""Actions and events to JSON data and back (a record is an object tagged with ``"type"``)."""

from __future__ import annotations

import typing
from typing import Any, Callable

import attrs
import cattrs
import cattrs.fns

from cardkit.cards import Card
from cardkit.core.fields import check_fields
from cardkit.core.log import LogEntry, SeatEntry
from cardkit.core.rules import CHANCE
from cardkit.errors import CardkitError, LogError
from cardkit.serde._build import record_builder
from cardkit.serde._convert import (
    AnyRules,
    _bounded,
    _converter,
    _describe,
    _kind_of,
    _optional_of,
    _types,
    type_name,
)

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


_Plan = tuple[frozenset[str], Callable[[dict[str, Any]], Any]]
_FAST: dict[type, _Plan | None] = {}


def _fast_plan(cls: type) -> _Plan | None:
    """How to build ``cls`` from JSON without cattrs's per-call dispatch (its keys and a
    builder generated for it); None when its fields are not all plain required init
    arguments (cattrs then does the whole job)."""
    if cls in _FAST:
        return _FAST[cls]
    plan: _Plan | None = None
    try:
        build = record_builder(cls, "dict")
        if build is not None:
            plan = (frozenset(f.name for f in attrs.fields(cls)) | {"type"}, build)
    except Exception:  # noqa: BLE001 - anything unusual is left to cattrs
        plan = None
    _FAST[cls] = plan
    return plan


def _by_plan(cls: type, data: dict[str, Any]) -> Any:
    """``data`` as a ``cls`` record by the class's plan, or None when cattrs must decide."""
    plan = _FAST.get(cls) if cls in _FAST else _fast_plan(cls)
    if plan is not None and data.keys() == plan[0]:
        try:
            return plan[1](data)
        except Exception:  # noqa: BLE001 - not exactly what dumps writes: cattrs decides
            pass
    return None


def _fast_record(data: Any, table: dict[str, type]) -> Any:
    """The record of ``data`` by its class's plan, or None when cattrs must decide."""
    if type(data) is dict:
        name = data.get("type")
        cls = table.get(name) if type(name) is str else None
        if cls is not None:
            return _by_plan(cls, data)
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
    record = _by_plan(cls, data)
    if record is not None:
        return record
    fields = dict(data)
    del fields["type"]
    try:
        return _converter.structure(fields, cls)
    except (CardkitError, ValueError, TypeError, KeyError, cattrs.BaseValidationError) as exc:
        reason = _describe(exc)
    # Raised outside the except clause: the converter's exceptions (the __context__) quote
    # the values, and _describe does not.
    raise LogError(f"malformed {kind} {name!r}: {reason}")


def action_from_json(rules: AnyRules, data: Any) -> Any:
    """An action (of ``rules``' game, or a chance action) from its JSON data."""
    return _from_tagged(rules, data, "action")


def event_from_json(rules: AnyRules, data: Any) -> Any:
    """An event of ``rules``' game from its JSON data."""
    return _from_tagged(rules, data, "event")
