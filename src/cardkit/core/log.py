"""The log: the source of truth of a game.

A :class:`GameLog` is everything needed to rebuild a game: the game name, its
``rules_version``, the resolved config, the seed and the entries, each an actor, an
action and the events the rules decided for it. :func:`replay` re-decides every entry
and fails with :class:`~cardkit.errors.ReplayMismatchError` where the events differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Final

import attrs

if TYPE_CHECKING:
    from cardkit.core.game import Game
    from cardkit.core.rules import Rules

__all__ = [
    "LOG_FORMAT",
    "LOG_FORMAT_VERSION",
    "LogEntry",
    "GameLog",
    "Upcaster",
    "register_upcaster",
    "upcast",
    "replay",
]

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


Upcaster = Callable[[GameLog], GameLog]
"""Turns a log of one ``rules_version`` into an equivalent log of a newer one."""

_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_upcaster(game: str, from_version: int, upcaster: Upcaster) -> None:
    """Register how logs of ``game`` at ``from_version`` become logs of a newer version.

    :func:`replay` applies upcasters one after another until the log has the rules'
    current ``rules_version``; each must return a log with a higher ``rules_version``.
    """
    _UPCASTERS[(game, from_version)] = upcaster


def upcast(log: GameLog, target_version: int) -> GameLog:
    """``log`` brought to ``target_version`` by registered upcasters; :class:`LogError` if none fits."""
    from cardkit.errors import LogError

    while log.rules_version != target_version:
        step = _UPCASTERS.get((log.game, log.rules_version))
        if step is None or log.rules_version > target_version:
            raise LogError(
                f"the log was written with {log.game} rules_version {log.rules_version}; "
                f"this library has rules_version {target_version} and no upcaster for it"
            )
        newer = step(log)
        if not isinstance(newer, GameLog) or newer.rules_version <= log.rules_version:
            raise LogError(
                f"the upcaster of {log.game} rules_version {log.rules_version} did not "
                "return a log of a newer version"
            )
        log = newer
    return log


def replay(rules: Rules[Any, Any, Any, Any], log: GameLog) -> Game:
    """Rebuild a game by re-deciding every entry of ``log`` with ``rules``.

    Raises :class:`~cardkit.errors.LogError` if the log belongs to another game or
    rules version or has a bad config, and :class:`~cardkit.errors.ReplayMismatchError`
    if an entry's actor or events differ from what the rules decide now.
    """
    from cardkit.core.game import Game

    return Game.from_log(rules, log)
