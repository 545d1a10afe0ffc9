"""What the web host's side tables (seats, access) share: a read-through cache of records
that never change, and the PostgreSQL pool that creates its table once.

Each side table lives in the store's database beside the store's own tables; these helpers
keep the two tables' plumbing in one place so that a fix reaches both.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Generic, TypeVar

from cardkit.errors import ConfigError
from cardkit.store.errors import StoreError

__all__ = ["LruCache", "open_postgres_pool"]

V = TypeVar("V")


class LruCache(Generic[V]):
    """A thread-safe map of at most ``limit`` entries; the least recently used goes first.

    Only a cache: the table behind it keeps every row (``limit`` 0 keeps nothing).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """How many entries are kept now."""
        with self._lock:
            return len(self._entries)

    def get(self, key: str) -> V | None:
        """The value of ``key`` (now the most recently used), or ``None``."""
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: str, value: V) -> V:
        """Keep ``value`` under ``key``, dropping the least recently used past the limit."""
        if self.limit > 0:
            with self._lock:
                self._entries[key] = value
                self._entries.move_to_end(key)
                while len(self._entries) > self.limit:
                    self._entries.popitem(last=False)
        return value


def open_postgres_pool(url: str, create: str, lock_key: int, what: str) -> tuple[Any, type[Exception]]:
    """A small psycopg pool on ``url`` with the table of ``create`` in place, and psycopg's
    base error class. ``lock_key`` (an advisory lock) lets one process create it at a time;
    ``what`` names the table in errors (:class:`StoreError`, or :class:`ConfigError` without
    psycopg)."""
    try:
        import psycopg
        from psycopg_pool import ConnectionPool
    except ImportError:  # pragma: no cover - depends on the environment
        raise ConfigError("PostgreSQL needs psycopg 3: pip install 'cardkit[postgres]'") from None
    pool: Any = ConnectionPool(url, min_size=1, max_size=2, open=True)
    try:
        with pool.connection() as conn:
            conn.execute(f"SELECT pg_advisory_xact_lock({int(lock_key)})")  # one creator at a time
            conn.execute(create)
    except psycopg.Error as exc:
        pool.close()
        raise StoreError(f"PostgreSQL {what}: {exc}") from None
    return pool, psycopg.Error
