"""The explicit game registry: name -> Rules.

The built-in games are listed here by hand (no registration by import side effect);
users add their own with :func:`register`.
"""

from __future__ import annotations

from typing import Any

from cardkit.core.rules import Rules
from cardkit.errors import UnknownGameError

__all__ = ["available_games", "get_rules", "register"]

AnyRules = Rules[Any, Any, Any, Any]

_REGISTRY: dict[str, AnyRules] = {}
_BUILTINS_LOADED = False


def _load_builtins() -> None:
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    _BUILTINS_LOADED = True
    import importlib

    for module, attr in _BUILTIN_GAMES:
        rules = getattr(importlib.import_module(module), attr)
        _REGISTRY.setdefault(rules.name, rules)


_BUILTIN_GAMES: tuple[tuple[str, str], ...] = (
    ("cardkit.games.crazy_eights.rules", "RULES"),
    ("cardkit.games.wizard.rules", "RULES"),
    ("cardkit.games.cutthroat_spades.rules", "RULES"),
    ("cardkit.games.spacc_u_mazz.rules", "RULES"),
)


def register(rules: AnyRules) -> AnyRules:
    """Register a game (a :class:`~cardkit.core.rules.Rules`) under ``rules.name``.

    Re-registering the same object is a no-op; another object under a taken name is a
    ``ValueError``. Returns ``rules`` so it can be used as an expression.
    """
    _load_builtins()
    existing = _REGISTRY.get(rules.name)
    if existing is not None and existing is not rules:
        raise ValueError(f"a game named {rules.name!r} is already registered")
    _REGISTRY[rules.name] = rules
    return rules


def available_games() -> tuple[str, ...]:
    """Registered game names, sorted."""
    _load_builtins()
    return tuple(sorted(_REGISTRY))


def get_rules(name: str) -> AnyRules:
    """The rules registered under ``name``; :class:`UnknownGameError` otherwise."""
    _load_builtins()
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"no game named {name!r}; available: {known}") from None
