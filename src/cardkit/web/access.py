"""How a web match was made and who may watch it: one row per match, beside the store.

:class:`MatchAccess` says whether the match's creator chose its seed (a development host
started with ``--allow-seeds``: every update then says ``"seeded": true``) and, for a
private match, the hash of its spectator token. Rows live in ``cardkit_web_access`` in the
store's database (created if missing, like the seat table), or in this process's memory for
``memory:`` stores, where the table itself is the source of truth and is never evicted. A
match with no row (made by an older cardkit) is public and not marked seeded.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

import attrs

from cardkit.store.errors import StoreError
from cardkit.web.sidetable import LruCache, open_postgres_pool

__all__ = ["MatchAccess", "AccessTable", "MemoryAccess", "SqliteAccess", "PostgresAccess", "open_access"]

_CREATE = (
    "CREATE TABLE IF NOT EXISTS cardkit_web_access ("
    " match_id TEXT PRIMARY KEY, seeded INTEGER NOT NULL, spectator_hash TEXT, move_seconds INTEGER)"
)
# A table made before the per-move clock (web/clock.py) gains its column (null: no clock).
_ADD_CLOCK = "ALTER TABLE cardkit_web_access ADD COLUMN move_seconds INTEGER"
_INSERT = "INSERT INTO cardkit_web_access (match_id, seeded, spectator_hash, move_seconds) VALUES (?, ?, ?, ?)"
_SELECT = "SELECT seeded, spectator_hash, move_seconds FROM cardkit_web_access WHERE match_id = ?"
_CACHE = 10_000


@attrs.frozen
class MatchAccess:
    """One web match's access record.

    ``seeded``: the creator chose the seed (so the creator can compute every hand).
    ``spectator_hash``: SHA-256 of the spectator token of a private match; ``None`` for a
    public match, which anyone may watch. ``move_seconds``: the per-move clock
    (:mod:`cardkit.web.clock`), ``None`` for none.
    """

    seeded: bool = False
    spectator_hash: str | None = None
    move_seconds: int | None = None

    @property
    def private(self) -> bool:
        """Whether spectators need the match's spectator token."""
        return self.spectator_hash is not None


class AccessTable(Protocol):
    """Where access records are kept."""

    def put(self, match_id: str, access: MatchAccess) -> None:
        """Store the record of a new match."""
        ...

    def get(self, match_id: str) -> MatchAccess:
        """The record of a match; the default (public, not seeded) if there is none."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


class MemoryAccess:
    """Access records in this process only (for ``memory:`` stores): never evicted."""

    def __init__(self) -> None:
        self._rows: dict[str, MatchAccess] = {}
        self._lock = threading.Lock()

    def put(self, match_id: str, access: MatchAccess) -> None:
        """Store the record of a new match."""
        with self._lock:
            self._rows[match_id] = access

    def get(self, match_id: str) -> MatchAccess:
        """The record of a match (default if unknown)."""
        with self._lock:
            return self._rows.get(match_id, MatchAccess())

    def close(self) -> None:
        """Nothing to release."""


class _SqlAccess:
    """Shared by the SQL tables: a bounded read-through cache (records never change)."""

    def __init__(self) -> None:
        self._cache: LruCache[MatchAccess] = LruCache(_CACHE)

    def _run(self, sql: str, params: tuple[Any, ...], fetch: bool) -> list[Any]:
        raise NotImplementedError

    def put(self, match_id: str, access: MatchAccess) -> None:
        """Store the record of a new match."""
        self._run(_INSERT, (match_id, int(access.seeded), access.spectator_hash, access.move_seconds), False)
        self._cache.put(match_id, access)

    def get(self, match_id: str) -> MatchAccess:
        """The record of a match (default if unknown)."""
        hit = self._cache.get(match_id)
        if hit is not None:
            return hit
        rows = self._run(_SELECT, (match_id,), True)
        if not rows:
            return MatchAccess()  # not cached: the row may be written by another process later
        seeded, spectator_hash, move_seconds = rows[0]
        return self._cache.put(match_id, MatchAccess(bool(seeded), spectator_hash,
                                                     None if move_seconds is None else int(move_seconds)))


class SqliteAccess(_SqlAccess):
    """Access records in a SQLite file (short-lived connections, like the seat table)."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self._path = path
        self._run(_CREATE, (), False)
        columns = [row[1] for row in self._run("PRAGMA table_info(cardkit_web_access)", (), True)]
        if "move_seconds" not in columns:
            with contextlib.suppress(StoreError):  # another process added it just now
                self._run(_ADD_CLOCK, (), False)

    def _run(self, sql: str, params: tuple[Any, ...], fetch: bool) -> list[Any]:
        try:
            conn = sqlite3.connect(self._path, timeout=30)
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite access table: {exc}") from None
        try:
            with conn:
                cursor = conn.execute(sql, params)
                return cursor.fetchall() if fetch else []
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite access table: {exc}") from None
        finally:
            conn.close()

    def close(self) -> None:
        """Nothing held between calls."""


class PostgresAccess(_SqlAccess):
    """Access records in PostgreSQL (a small pool of its own)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self._pool, self._error = open_postgres_pool(url, _CREATE, 1667330677, "access table")
        self._run(_ADD_CLOCK.replace("ADD COLUMN", "ADD COLUMN IF NOT EXISTS"), (), False)

    def _run(self, sql: str, params: tuple[Any, ...], fetch: bool) -> list[Any]:
        try:
            with self._pool.connection() as conn:
                cursor = conn.execute(sql.replace("?", "%s"), params)
                return list(cursor.fetchall()) if fetch else []
        except self._error as exc:
            raise StoreError(f"PostgreSQL access table: {exc}") from None

    def close(self) -> None:
        """Close the pool."""
        self._pool.close()


def open_access(url: str) -> AccessTable:
    """The access table that goes with the store at ``url`` (same database)."""
    scheme = url.partition(":")[0].lower()
    if scheme == "sqlite":
        path = unquote(urlsplit(url).path[1:])
        return MemoryAccess() if path == ":memory:" else SqliteAccess(path)
    if scheme in ("postgresql", "postgres"):
        return PostgresAccess(url)
    return MemoryAccess()
