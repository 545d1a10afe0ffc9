"""The log: the source of truth of a game.

A :class:`GameLog` is everything needed to rebuild a game: the game name, its
``rules_version``, the resolved config, the seed and the entries, each an actor, an
action and the events the rules decided for it. :func:`replay` re-decides every entry
and fails with :class:`~cardkit.errors.ReplayMismatchError` where the events differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import attrs

if TYPE_CHECKING:
    from cardkit.core.game import Game
    from cardkit.core.rules import Rules

__all__ = ["LOG_FORMAT", "LOG_FORMAT_VERSION", "LogEntry", "GameLog", "replay"]

LOG_FORMAT: Final = "cardkit-log"
"""The ``format`` field of every log envelope."""

LOG_FORMAT_VERSION: Final = 1
"""The envelope version this library writes (and the newest it reads)."""


@attrs.frozen
class LogEntry:
    """One step: ``seq`` (0-based position), ``actor`` (a seat or ``CHANCE``), the action and its events."""

    seq: int
    actor: int
    action: Any
    events: tuple[Any, ...]


@attrs.frozen
class GameLog:
    """A whole game as data (see docs/concepts.md for the JSON envelope)."""

    game: str
    rules_version: int
    config: dict[str, Any]
    seed: int
    entries: tuple[LogEntry, ...]
    auto_chance: bool = True


def replay(rules: Rules[Any, Any, Any, Any], log: GameLog) -> Game:
    """Rebuild a game by re-deciding every entry of ``log`` with ``rules``.

    Raises :class:`~cardkit.errors.LogError` if the log belongs to another game or
    rules version or has a bad config, and :class:`~cardkit.errors.ReplayMismatchError`
    if an entry's actor or events differ from what the rules decide now.
    """
    from cardkit.core.game import Game

    return Game.from_log(rules, log)
