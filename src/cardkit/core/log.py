"""The log: the source of truth of a game.

A :class:`GameLog` is everything needed to rebuild a game: the game name, its
``rules_version``, the resolved config, the seed and the entries, each an actor, an
action and the events the rules decided for it. :func:`cardkit.core.game.replay` re-decides
every entry and fails with :class:`~cardkit.errors.ReplayMismatchError` where the events
differ. This module holds data only and imports nothing of the engine above it (the
``Game`` imports the log, never the other way round: see ``tests/test_layers.py``).
"""

from __future__ import annotations

from typing import Any, Callable, Final, Iterable, Iterator, Mapping

import attrs

from cardkit.errors import LogError

__all__ = [
    "LOG_FORMAT",
    "LOG_FORMAT_VERSION",
    "SEAT_LOG_FORMAT",
    "FrozenConfig",
    "LogEntry",
    "GameLog",
    "SeatEntry",
    "SeatLog",
    "Upcaster",
    "register_upcaster",
    "upcast",
]

LOG_FORMAT: Final = "cardkit-log"
"""The ``format`` field of every log envelope."""

LOG_FORMAT_VERSION: Final = 1
"""The envelope version this library writes (and the newest it reads)."""

SEAT_LOG_FORMAT: Final = "cardkit-seat-log"
"""The ``format`` field of a per-seat export (:class:`SeatLog`)."""


class FrozenConfig(Mapping[str, Any]):
    """A read-only ``{option: value}`` mapping (a log's config): it cannot change a log
    after the fact, and still pickles, compares and serialises like a dict."""

    __slots__ = ("_items",)

    _items: dict[str, Any]

    def __init__(self, items: Mapping[str, Any] = {}) -> None:
        object.__setattr__(self, "_items", dict(items))

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a log's config is read-only")

    def __reduce__(self) -> tuple[type[FrozenConfig], tuple[dict[str, Any]]]:
        return (FrozenConfig, (dict(self._items),))

    def __repr__(self) -> str:
        return f"FrozenConfig({self._items!r})"


def _entry_tuple(value: Iterable[Any]) -> tuple[Any, ...]:
    return value if type(value) is tuple else tuple(value)


def _frozen_config(value: Mapping[str, Any]) -> FrozenConfig:
    return value if isinstance(value, FrozenConfig) else FrozenConfig(value)


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
    config: Mapping[str, Any] = attrs.field(converter=_frozen_config)
    seed: int
    entries: tuple[LogEntry, ...] = attrs.field(converter=_entry_tuple)
    auto_chance: bool = True


@attrs.frozen
class SeatEntry:
    """One log entry as a seat may see it (what a host sends to a player).

    ``actor`` is a seat or ``CHANCE`` (-1); ``action`` is ``None`` where it is withheld
    (every chance action, and seat actions the rules keep secret through
    ``rules.redact_action``); ``events`` are redacted for the viewer (events the viewer
    sees nothing of are left out).
    """

    seq: int
    actor: int
    action: Any
    events: tuple[Any, ...]


@attrs.frozen
class SeatLog:
    """A whole game as one seat may see it: no seed, no chance orders, redacted events.

    ``seat`` is the viewer (``None``: a spectator). JSON via :func:`cardkit.dumps`, back
    via :func:`cardkit.loads_seat_log`. It cannot be replayed (it lacks what the seat
    may not know); it is what a host may hand to a player or a spectator.
    """

    game: str
    rules_version: int
    config: Mapping[str, Any] = attrs.field(converter=_frozen_config)
    seat: int | None
    entries: tuple[SeatEntry, ...] = attrs.field(converter=_entry_tuple)


Upcaster = Callable[[GameLog], GameLog]
"""Turns a log of one ``rules_version`` into an equivalent log of a newer one."""

_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_upcaster(game: str, from_version: int, upcaster: Upcaster) -> None:
    """Register how logs of ``game`` at ``from_version`` become logs of a newer version.

    :func:`cardkit.core.game.replay` applies upcasters one after another until the log
    has the rules' current ``rules_version``; each must return a log with a higher ``rules_version``.
    """
    _UPCASTERS[(game, from_version)] = upcaster


def upcast(log: GameLog, target_version: int) -> GameLog:
    """``log`` brought to ``target_version`` by registered upcasters; :class:`LogError` if none fits."""
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

