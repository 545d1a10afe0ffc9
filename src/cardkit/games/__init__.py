"""The explicit game registry: name -> Rules.

The built-in games are listed here by hand (no registration by import side effect);
users add their own with :func:`register`. The registry is safe to use from several
threads at once: a built-in game is imported on its first lookup, under a lock, and
appears in the registry only once its rules are complete.
"""

from __future__ import annotations

import copyreg
import threading
from typing import TYPE_CHECKING, Any, TypeAlias

from cardkit.errors import ConfigError, UnknownGameError

if TYPE_CHECKING:  # only for the annotations: the registry itself must not load attrs
    from cardkit.core.rules import Rules

__all__ = ["available_games", "get_rules", "register", "check_rules", "builtin_player_range"]

AnyRules: TypeAlias = "Rules[Any, Any, Any, Any]"

_REGISTRY: dict[str, AnyRules] = {}
_LOCK = threading.RLock()

_BUILTIN_GAMES: dict[str, tuple[str, int, int]] = {
    # name: (module holding RULES, min_players, max_players). Each game's module is
    # imported on its first lookup, so a host pays only for the games it plays; the
    # player counts let `cardkit games` list them without importing any (a test checks
    # them against the loaded rules).
    "crazy-eights": ("cardkit.games.crazy_eights.rules", 2, 7),
    "wizard": ("cardkit.games.wizard.rules", 3, 6),
    "cutthroat-spades": ("cardkit.games.cutthroat_spades.rules", 3, 5),
    "spacc-u-mazz": ("cardkit.games.spacc_u_mazz.rules", 2, 4),
}

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


def _load_builtin(name: str) -> None:
    """Import the built-in game ``name`` (if it is one) and register its rules."""
    if name in _REGISTRY or name not in _BUILTIN_GAMES:
        return
    with _LOCK:
        if name in _REGISTRY:
            return
        import importlib

        rules = importlib.import_module(_BUILTIN_GAMES[name][0]).RULES
        copyreg.pickle(type(rules), _reduce_builtin)
        # a dict assignment is atomic: another thread sees no game or the whole game
        _REGISTRY.setdefault(rules.name, rules)


def builtin_player_range(name: str) -> tuple[int, int] | None:
    """``(min_players, max_players)`` of the built-in game ``name`` without importing it;
    None if ``name`` is not a built-in game."""
    entry = _BUILTIN_GAMES.get(name)
    return None if entry is None else (entry[1], entry[2])


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
    _load_builtin(rules.name)
    with _LOCK:
        existing = _REGISTRY.get(rules.name)
        if existing is not None and existing is not rules:
            raise ConfigError(f"a game named {rules.name!r} is already registered")
        _REGISTRY[rules.name] = rules
    return rules


def available_games() -> tuple[str, ...]:
    """Registered game names, sorted (the built-in games are listed without importing them)."""
    with _LOCK:
        return tuple(sorted(set(_REGISTRY) | set(_BUILTIN_GAMES)))


def get_rules(name: str) -> AnyRules:
    """The rules registered under ``name``; :class:`UnknownGameError` otherwise."""
    if not isinstance(name, str):
        rules = None
    else:
        _load_builtin(name)
        rules = _REGISTRY.get(name)
    if rules is None:
        known = ", ".join(available_games()) or "none"
        raise UnknownGameError(f"no game named {name!r}; available: {known}") from None
    return rules
