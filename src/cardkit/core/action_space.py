"""The optional ``action_space`` method of a game's rules: a fixed index of its actions.

Learners (``cardkit.rl``) need every action a game can ever offer under one config, in an
order that never changes, so that action number ``i`` always means the same thing. A game
provides it with ``rules.action_space(config) -> tuple[Action, ...]``; the method is
optional (the core never needs it), so a user's game without it still plays, replays and
checks: only an environment built on it refuses, with :func:`action_space_of`'s error.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from cardkit.errors import ConfigError

__all__ = ["SupportsActionSpace", "action_space_of"]


@runtime_checkable
class SupportsActionSpace(Protocol):
    """Rules that can list every action they may ever offer under a config."""

    def action_space(self, config: Any) -> tuple[Any, ...]:
        """Every action ``legal_actions`` can return under ``config``, no duplicates, in a
        stable order (the same tuple for equal configs, on every run and platform)."""
        ...


def action_space_of(rules: Any, config: Any) -> tuple[Any, ...]:
    """``rules.action_space(config)``, checked: a :class:`ConfigError` if the game has none,
    or if the space is empty or has duplicates."""
    method = getattr(rules, "action_space", None)
    if not callable(method):
        name = getattr(rules, "name", type(rules).__name__)
        raise ConfigError(
            f"the game {name!r} has no action_space(config) method, so it has no fixed action "
            "index; add one that lists every action it can offer (see docs/rl.md)"
        )
    actions = tuple(method(config))
    if not actions:
        raise ConfigError(f"{rules.name}: action_space(config) is empty")
    if len(set(actions)) != len(actions):
        raise ConfigError(f"{rules.name}: action_space(config) lists an action twice")
    return actions
