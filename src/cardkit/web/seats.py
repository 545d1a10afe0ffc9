"""Who sits where in a web match: token hashes and bot seats, kept beside the store.

A match's log lives in the :mod:`cardkit.store`; what only the web host needs — a hash of
each human seat's token, each bot seat's spec and the seed of its random stream — lives in
one side table, ``cardkit_web_seats``, in the same database (SQLite file or PostgreSQL), or
in this process's memory for ``memory:`` stores. The table is created if missing; the web
host owns it, so the store's schema version does not cover it. Seat records never change
after a match is created, with two exceptions: a rematch's human seat is :data:`PENDING` until
its player asks for the rematch (see :mod:`cardkit.web.rematch`), and is then given its
token's hash once; and a human seat's token is revoked (its hash set to null) when the match
is taken back into a new one (:mod:`cardkit.web.undo`). So each process caches the records of
a match once no seat is pending (the most recently used :data:`SEAT_CACHE_LIMIT` matches;
:meth:`revoke` updates this process's cache, another process's cached copy keeps the old
token until it is dropped). The cache may drop a match; the table never does: for
``memory:`` stores the table is a dict that lives as long as the store's own matches do.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
import threading
from typing import Any, Protocol, Sequence
from urllib.parse import unquote, urlsplit

import attrs

from cardkit.store.errors import StoreError
from cardkit.web.sidetable import LruCache, open_postgres_pool

__all__ = [
    "SeatRecord", "SeatTable", "MemorySeats", "SqliteSeats", "PostgresSeats", "open_seats", "hash_token", "token_matches",
    "SEAT_CACHE_LIMIT", "PENDING",
]

SEAT_CACHE_LIMIT = 10_000
"""How many matches' seat records a database-backed seat table keeps in memory (least
recently used dropped first). Only a cache: a dropped match is read again from its table."""

_CREATE = (
    "CREATE TABLE IF NOT EXISTS cardkit_web_seats ("
    " match_id TEXT NOT NULL, seat INTEGER NOT NULL, token_hash TEXT, bot TEXT, bot_seed TEXT,"
    " PRIMARY KEY (match_id, seat))"
)
_INSERT = "INSERT INTO cardkit_web_seats (match_id, seat, token_hash, bot, bot_seed) VALUES (?, ?, ?, ?, ?)"
_CLAIM = "UPDATE cardkit_web_seats SET token_hash = ? WHERE match_id = ? AND seat = ? AND token_hash = 'pending'"
_REVOKE = "UPDATE cardkit_web_seats SET token_hash = NULL WHERE match_id = ? AND seat = ? AND bot IS NULL"
_SELECT = "SELECT seat, token_hash, bot, bot_seed FROM cardkit_web_seats WHERE match_id = ? ORDER BY seat"


PENDING = "pending"
"""The ``token_hash`` of a rematch's human seat whose player has not asked for it yet: no
token matches it (a hash is 64 hex digits)."""


def hash_token(token: str) -> str:
    """The stored form of a seat token: its SHA-256, hex.

    Tokens are 32 random bytes from :mod:`secrets`, so a fast hash is enough: nobody can
    guess a preimage of 256 random bits, and a slow password hash would only cost time on
    every join.
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored_hash``, compared in constant time."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


@attrs.frozen
class SeatRecord:
    """One seat of a web match: a human (``token_hash``) or a bot (``bot`` spec and ``bot_seed``)."""

    seat: int
    token_hash: str | None = None
    bot: str | None = None
    bot_seed: int | None = None


def _rows(match_id: str, records: Sequence[SeatRecord]) -> list[tuple[Any, ...]]:
    return [
        (match_id, r.seat, r.token_hash, r.bot, None if r.bot_seed is None else str(r.bot_seed))
        for r in records
    ]


def _records(rows: Sequence[Sequence[Any]]) -> tuple[SeatRecord, ...]:
    return tuple(
        SeatRecord(int(seat), token_hash, bot, None if seed is None else int(seed))
        for seat, token_hash, bot, seed in rows
    )


class SeatTable(Protocol):
    """Where seat records are kept."""

    def put(self, match_id: str, records: Sequence[SeatRecord]) -> None:
        """Store the seats of a new match."""
        ...

    def get(self, match_id: str) -> tuple[SeatRecord, ...]:
        """The seats of a match, by seat; ``()`` if the host made no such match."""
        ...

    def claim(self, match_id: str, seat: int, token_hash: str) -> None:
        """Give the :data:`PENDING` ``seat`` of ``match_id`` its token's hash (nothing if it
        is not pending: a seat is claimed once)."""
        ...

    def revoke(self, match_id: str, seat: int) -> None:
        """Revoke the token of a human ``seat``: nobody joins it again (see :mod:`cardkit.web.undo`)."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


class _Cached:
    """A bounded read-through cache (least recently used out): seat records never change."""

    def __init__(self, cache_limit: int | None = None) -> None:
        self._cache: LruCache[tuple[SeatRecord, ...]] = LruCache(
            SEAT_CACHE_LIMIT if cache_limit is None else cache_limit
        )

    def _remember(self, match_id: str, records: tuple[SeatRecord, ...]) -> tuple[SeatRecord, ...]:
        # An unknown match (no rows) is not cached: another process may create it later; nor
        # is one with a pending seat: another process may give it its token.
        if not records or any(r.token_hash == PENDING for r in records):
            return records
        return self._cache.put(match_id, records)

    def _cached(self, match_id: str) -> tuple[SeatRecord, ...] | None:
        return self._cache.get(match_id)

    def _revoked(self, match_id: str, seat: int) -> None:
        cached = self._cache.get(match_id)
        if cached is not None:
            self._cache.put(match_id, _without_token(cached, seat))


def _without_token(records: tuple[SeatRecord, ...], seat: int) -> tuple[SeatRecord, ...]:
    return tuple(attrs.evolve(r, token_hash=None) if r.seat == seat and r.bot is None else r for r in records)


class MemorySeats:
    """Seat records in this process only (for ``memory:`` stores).

    This dict *is* the seat table, not a cache of one: it never drops a match, exactly as the
    memory store never drops the match itself (both end with the process).
    """

    def __init__(self) -> None:
        self._records: dict[str, tuple[SeatRecord, ...]] = {}
        self._lock = threading.Lock()

    def put(self, match_id: str, records: Sequence[SeatRecord]) -> None:
        """Store the seats of a new match."""
        with self._lock:
            self._records[match_id] = tuple(records)

    def get(self, match_id: str) -> tuple[SeatRecord, ...]:
        """The seats of a match, ``()`` if unknown."""
        with self._lock:
            return self._records.get(match_id, ())

    def claim(self, match_id: str, seat: int, token_hash: str) -> None:
        """Give a pending seat its token's hash."""
        with self._lock:
            records = self._records.get(match_id, ())
            if 0 <= seat < len(records) and records[seat].token_hash == PENDING:
                changed = attrs.evolve(records[seat], token_hash=token_hash)
                self._records[match_id] = records[:seat] + (changed,) + records[seat + 1:]

    def revoke(self, match_id: str, seat: int) -> None:
        """Revoke the token of a human ``seat``."""
        with self._lock:
            if match_id in self._records:
                self._records[match_id] = _without_token(self._records[match_id], seat)

    def close(self) -> None:
        """Nothing to release."""


class SqliteSeats(_Cached):
    """Seat records in a SQLite file (its own short-lived connections, WAL like the store)."""

    def __init__(self, path: str, cache_limit: int | None = None) -> None:
        super().__init__(cache_limit)
        self._path = path
        try:
            with self._connect() as conn:
                conn.execute(_CREATE)
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite seat table in {path!r}: {exc}") from None

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self._path, timeout=30)

    def put(self, match_id: str, records: Sequence[SeatRecord]) -> None:
        """Store the seats of a new match."""
        conn = self._connect()
        try:
            with conn:
                conn.executemany(_INSERT, _rows(match_id, records))
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite seat table: {exc}") from None
        finally:
            conn.close()
        self._remember(match_id, tuple(records))

    def get(self, match_id: str) -> tuple[SeatRecord, ...]:
        """The seats of a match, ``()`` if unknown."""
        cached = self._cached(match_id)
        if cached is not None:
            return cached
        conn = self._connect()
        try:
            rows = conn.execute(_SELECT, (match_id,)).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite seat table: {exc}") from None
        finally:
            conn.close()
        return self._remember(match_id, _records(rows))

    def claim(self, match_id: str, seat: int, token_hash: str) -> None:
        """Give a pending seat its token's hash."""
        conn = self._connect()
        try:
            with conn:
                conn.execute(_CLAIM, (token_hash, match_id, seat))
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite seat table: {exc}") from None
        finally:
            conn.close()

    def revoke(self, match_id: str, seat: int) -> None:
        """Revoke the token of a human ``seat``."""
        conn = self._connect()
        try:
            with conn:
                conn.execute(_REVOKE, (match_id, seat))
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite seat table: {exc}") from None
        finally:
            conn.close()
        self._revoked(match_id, seat)

    def close(self) -> None:
        """Nothing held between calls."""


class PostgresSeats(_Cached):
    """Seat records in PostgreSQL (a small pool of its own)."""

    def __init__(self, url: str, cache_limit: int | None = None) -> None:
        super().__init__(cache_limit)
        self._pool, self._error = open_postgres_pool(url, _CREATE, 1667330676, "seat table")

    def put(self, match_id: str, records: Sequence[SeatRecord]) -> None:
        """Store the seats of a new match."""
        try:
            with self._pool.connection() as conn, conn.cursor() as cur:
                cur.executemany(_INSERT.replace("?", "%s"), _rows(match_id, records))
        except self._error as exc:
            raise StoreError(f"PostgreSQL seat table: {exc}") from None
        self._remember(match_id, tuple(records))

    def get(self, match_id: str) -> tuple[SeatRecord, ...]:
        """The seats of a match, ``()`` if unknown."""
        cached = self._cached(match_id)
        if cached is not None:
            return cached
        try:
            with self._pool.connection() as conn:
                rows = conn.execute(_SELECT.replace("?", "%s"), (match_id,)).fetchall()
        except self._error as exc:
            raise StoreError(f"PostgreSQL seat table: {exc}") from None
        return self._remember(match_id, _records(rows))

    def claim(self, match_id: str, seat: int, token_hash: str) -> None:
        """Give a pending seat its token's hash."""
        try:
            with self._pool.connection() as conn:
                conn.execute(_CLAIM.replace("?", "%s"), (token_hash, match_id, seat))
        except self._error as exc:
            raise StoreError(f"PostgreSQL seat table: {exc}") from None

    def revoke(self, match_id: str, seat: int) -> None:
        """Revoke the token of a human ``seat``."""
        try:
            with self._pool.connection() as conn:
                conn.execute(_REVOKE.replace("?", "%s"), (match_id, seat))
        except self._error as exc:
            raise StoreError(f"PostgreSQL seat table: {exc}") from None
        self._revoked(match_id, seat)

    def close(self) -> None:
        """Close the pool."""
        self._pool.close()


def open_seats(url: str) -> SeatTable:
    """The seat table that goes with the store at ``url`` (same database)."""
    scheme = url.partition(":")[0].lower()
    if scheme == "sqlite":
        path = unquote(urlsplit(url).path[1:])
        if path == ":memory:":
            return MemorySeats()
        return SqliteSeats(path)
    if scheme in ("postgresql", "postgres"):
        return PostgresSeats(url)
    return MemorySeats()
