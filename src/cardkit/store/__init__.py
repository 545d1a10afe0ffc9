"""Event stores: a match's log kept durably, one row per entry (see docs/store.md).

``open(url)`` gives a :class:`Store` over ``memory:``, ``sqlite:///path`` (the embedded
default) or ``postgresql://…`` (extra ``postgres``, psycopg 3 with a connection pool).
"""

from __future__ import annotations

from typing import Any

from cardkit.errors import ConcurrencyError
from cardkit.store.errors import (
    BrokenMatchError,
    MatchExistsError,
    MatchIdError,
    SchemaVersionError,
    StoreError,
    UnknownMatchError,
)
from cardkit.store.ids import MAX_MATCH_ID
from cardkit.store.records import MatchInfo, SeatEntry
from cardkit.store.sql import SCHEMA_VERSION
from cardkit.store.store import DEFAULT_CACHE_SIZE, DEFAULT_SNAPSHOT_EVERY, Store
from cardkit.store.url import open_store

__all__ = [
    "open",
    "Store",
    "MatchInfo",
    "SeatEntry",
    "SCHEMA_VERSION",
    "DEFAULT_SNAPSHOT_EVERY",
    "DEFAULT_CACHE_SIZE",
    "StoreError",
    "UnknownMatchError",
    "MatchExistsError",
    "MatchIdError",
    "BrokenMatchError",
    "MAX_MATCH_ID",
    "SchemaVersionError",
    "ConcurrencyError",
]


def open(  # noqa: A001 - the module's verb, as in cardkit.store.open(url)
    url: str,
    *,
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
    cache_size: int = DEFAULT_CACHE_SIZE,
    **options: Any,
) -> Store:
    """Open a store.

    * ``"memory:"`` — in this process only, gone when closed (tests, throwaway hosts);
    * ``"sqlite:///games.db"`` (relative path), ``"sqlite:////var/lib/games.db"`` (absolute)
      or ``"sqlite:///:memory:"`` — SQLite in WAL mode, created if missing; URL options
      ``synchronous=full`` (the default: a committed move survives a power cut; ``normal``
      survives a crash of the process only) and ``timeout=30`` (seconds to wait for a lock);
    * ``"postgresql://user@host/db"`` — PostgreSQL through psycopg 3 (extra ``postgres``);
      keyword options ``min_size`` / ``max_size`` size its connection pool.

    ``snapshot_every`` (default 64) is how many entries lie between two snapshots, the most
    a load re-decides. ``cache_size`` (default 256) is how many games the store keeps in
    memory: a move on a match this store has just loaded or written re-decides nothing
    (the cached game is used only if the stored match has not changed since). Malformed URL or option: :class:`~cardkit.errors.ConfigError`.
    A database of a newer schema: :class:`SchemaVersionError`.
    """
    return open_store(url, snapshot_every=snapshot_every, cache_size=cache_size, **options)
