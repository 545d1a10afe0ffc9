"""Full states as JSON text, for a store's snapshots (host side: a state holds every card)."""

from __future__ import annotations

import json
from typing import Any

import attrs
import cattrs

from cardkit.errors import CardkitError, LogError
from cardkit.serde._convert import AnyRules, _converter, _describe

__all__ = ["dumps_state", "loads_state"]

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
