"""The explicit game registry: name -> Rules.

The built-in games are listed here by hand (no registration by import side effect);
users add their own with :func:`register`. The registry is safe to use from several
threads at once: the built-ins are loaded under a lock, and the "loaded" flag is set
only after every one of them is in.
"""

from __future__ import annotations

import copyreg
import threading
from typing import Any

from cardkit.core.rules import Rules
from cardkit.errors import ConfigError, UnknownGameError

__all__ = ["available_games", "get_rules", "register", "check_rules"]

AnyRules = Rules[Any, Any, Any, Any]

_REGISTRY: dict[str, AnyRules] = {}
_LOCK = threading.RLock()
_BUILTINS_LOADED = False

_BUILTIN_GAMES: tuple[tuple[str, str], ...] = (
    ("cardkit.games.crazy_eights.rules", "RULES"),
    ("cardkit.games.wizard.rules", "RULES"),
    ("cardkit.games.cutthroat_spades.rules", "RULES"),
    ("cardkit.games.spacc_u_mazz.rules", "RULES"),
)

_METHODS = (
    "config",
    "initial_state",
    "to_act",
    "pending_chance",
    "legal_actions",
    "decide",
    "evolve",
    "zones",
    "view",
    "redact",
    "scores",
    "result",
    "parse_action",
)


def _reduce_builtin(rules: Any) -> Any:
    # A built-in game's rules unpickle (and deep-copy) to the registered instance, so
    # games sent to another process keep comparing equal and share the serde tables.
    name = getattr(rules, "name", None)
    if isinstance(name, str) and _REGISTRY.get(name) is rules:
        return (get_rules, (name,))
    return rules.__reduce_ex__(2)


def _load_builtins() -> None:
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    with _LOCK:
        if _BUILTINS_LOADED:
            return
        import importlib

        for module, attr in _BUILTIN_GAMES:
            rules = getattr(importlib.import_module(module), attr)
            _REGISTRY.setdefault(rules.name, rules)
            copyreg.pickle(type(rules), _reduce_builtin)
        # set last: another thread that sees the flag must also see every game
        _BUILTINS_LOADED = True


def check_rules(rules: object) -> AnyRules:
    """``rules`` if it looks like a :class:`~cardkit.core.rules.Rules`; :class:`ConfigError`
    naming what is missing or of the wrong type otherwise."""
    what = type(rules).__name__
    name = getattr(rules, "name", None)
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"a game's rules need a non-empty string name, not {name!r} ({what})")
    for attr in ("rules_version", "min_players", "max_players"):
        value = getattr(rules, attr, None)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError(f"the rules of {name!r} need an integer {attr}, not {value!r}")
    for attr in ("action_types", "event_types"):
        value = getattr(rules, attr, None)
        if not isinstance(value, tuple) or not all(isinstance(t, type) for t in value):
            raise ConfigError(f"the rules of {name!r} need {attr} as a tuple of classes")
    missing = [m for m in _METHODS if not callable(getattr(rules, m, None))]
    if missing:
        raise ConfigError(f"the rules of {name!r} lack the method(s): {', '.join(missing)}")
    return rules  # type: ignore[return-value]


def register(rules: AnyRules) -> AnyRules:
    """Register a game (a :class:`~cardkit.core.rules.Rules`) under ``rules.name``.

    Re-registering the same object is a no-op; another object under a taken name, or an
    object that is not a Rules (no string name, missing methods), is a
    :class:`ConfigError`. Returns ``rules`` so it can be used as an expression.
    """
    check_rules(rules)
    _load_builtins()
    with _LOCK:
        existing = _REGISTRY.get(rules.name)
        if existing is not None and existing is not rules:
            raise ConfigError(f"a game named {rules.name!r} is already registered")
        _REGISTRY[rules.name] = rules
    return rules


def available_games() -> tuple[str, ...]:
    """Registered game names, sorted."""
    _load_builtins()
    with _LOCK:
        return tuple(sorted(_REGISTRY))


def get_rules(name: str) -> AnyRules:
    """The rules registered under ``name``; :class:`UnknownGameError` otherwise."""
    _load_builtins()
    rules = _REGISTRY.get(name) if isinstance(name, str) else None
    if rules is None:
        known = ", ".join(available_games()) or "none"
        raise UnknownGameError(f"no game named {name!r}; available: {known}") from None
    return rules
