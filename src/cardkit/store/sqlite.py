"""The ``sqlite:///path`` backend: the standard library's :mod:`sqlite3`, in WAL mode.

A connection serves one transaction at a time (borrowed from a small idle list, so any
thread may use the store); several processes may use one file. Writes take SQLite's write lock at ``BEGIN IMMEDIATE``, so a
``play`` reads, decides and appends in one transaction that no other writer interleaves.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Iterator, Literal

from cardkit.errors import ConcurrencyError
from cardkit.store import sql
from cardkit.store.backfill import hash_stored_matches
from cardkit.store.errors import SchemaVersionError, StoreError
from cardkit.store.records import Append
from cardkit.store.sqlbase import SqlSession

__all__ = ["SqliteBackend", "Synchronous"]

_MAX_IDLE = 8  # idle connections kept for reuse; more are closed when given back

Synchronous = Literal["off", "normal", "full", "extra"]
"""SQLite's ``PRAGMA synchronous`` levels a store URL may choose (``full`` by default)."""


def _duplicate(exc: BaseException) -> str | None:
    if not isinstance(exc, sqlite3.IntegrityError) or "UNIQUE" not in str(exc):
        return None
    return "match" if "cardkit_matches" in str(exc) else "entry"


def _same(statement: str) -> str:
    return statement


class SqliteBackend:
    """A SQLite database file (or ``:memory:``, one connection shared under a lock)."""

    def __init__(self, path: str, synchronous: Synchronous = "full", timeout: float = 30.0) -> None:
        self.path = path
        self.synchronous = synchronous
        self.timeout = timeout
        self._idle: list[sqlite3.Connection] = []
        self._all: list[sqlite3.Connection] = []
        self._guard = threading.RLock()
        self._shared = path == ":memory:"
        self._changed = threading.Condition()
        self._waiters = 0  # threads in wait(): a commit wakes them only if there are any
        self._closed = False
        with self._transaction(immediate=True) as cur:
            self._migrate(cur)

    # ------------------------------------------------------------ connections

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
            )
            if not self._shared:
                mode = self._enter_wal(conn)
                if mode is None or str(mode[0]).lower() != "wal":
                    raise StoreError(f"SQLite could not put {self.path!r} in WAL mode")
            conn.execute(f"PRAGMA synchronous={self.synchronous.upper()}")
            conn.execute(f"PRAGMA busy_timeout={int(self.timeout * 1000)}")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite database {self.path!r}: {exc}") from exc
        with self._guard:
            self._all.append(conn)
        return conn

    def _enter_wal(self, conn: sqlite3.Connection) -> Any:
        # Switching a new database to WAL needs an exclusive lock, and SQLite may answer
        # "database is locked" at once, without its busy handler, while other processes
        # open the same new file: retry until the store's timeout.
        deadline = time.monotonic() + self.timeout
        pause = 0.005
        while True:
            try:
                return conn.execute("PRAGMA journal_mode=WAL").fetchone()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)

    def _borrow(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreError("the store is closed")
        with self._guard:
            if self._shared:
                return self._all[0] if self._all else self._connect()
            if self._idle:
                return self._idle.pop()
        return self._connect()

    def _give_back(self, conn: sqlite3.Connection) -> None:
        if self._shared:
            return
        with self._guard:
            if self._closed or len(self._idle) >= _MAX_IDLE:
                conn.close()
                if conn in self._all:
                    self._all.remove(conn)
            else:
                self._idle.append(conn)

    @contextmanager
    def _transaction(self, immediate: bool) -> Iterator[sqlite3.Cursor]:
        # A connection is borrowed per transaction (not per thread), so a host that starts a
        # thread per request does not leave a connection behind per thread.
        lock: AbstractContextManager[object] = self._guard if self._shared else nullcontext()
        with lock:
            conn = self._borrow()
            try:
                cur = conn.cursor()
                try:
                    cur.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
                except sqlite3.Error as exc:
                    raise StoreError(f"SQLite database {self.path!r} refused a transaction: {exc}") from exc
                try:
                    yield cur
                except BaseException:
                    conn.rollback()
                    raise
                try:
                    cur.execute("COMMIT")
                except sqlite3.Error as exc:
                    conn.rollback()
                    raise StoreError(f"SQLite database {self.path!r} did not commit: {exc}") from exc
                finally:
                    cur.close()
            finally:
                self._give_back(conn)

    def _migrate(self, cur: sqlite3.Cursor) -> None:
        try:
            cur.execute(sql.CREATE_SCHEMA_TABLE)
            found = cur.execute(sql.SELECT_SCHEMA).fetchone()[0] or 0
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path!r} is not a cardkit SQLite store: {exc}") from exc
        if found > sql.SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{self.path!r} has store schema version {found}, newer than the {sql.SCHEMA_VERSION} "
                "this cardkit knows: upgrade cardkit to open it"
            )
        for version in range(found + 1, sql.SCHEMA_VERSION + 1):
            for statement in sql.SQLITE_MIGRATIONS[version - 1]:
                cur.execute(statement)
            if version == 2 and found >= 1:
                hash_stored_matches(cur, _same)
            cur.execute(sql.INSERT_SCHEMA, (version,))

    # ------------------------------------------------------------ the backend

    def _session(self, cur: sqlite3.Cursor) -> SqlSession:
        return SqlSession(cur, _same, _duplicate)

    @contextmanager
    def read(self) -> Iterator[SqlSession]:
        """A read transaction (see :class:`~cardkit.store.backend.Backend`)."""
        try:
            with self._transaction(immediate=False) as cur:
                yield self._session(cur)
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite database {self.path!r}: {exc}") from exc

    @contextmanager
    def write(self) -> Iterator[SqlSession]:
        """A write transaction (see :class:`~cardkit.store.backend.Backend`)."""
        try:
            with self._transaction(immediate=True) as cur:
                session = self._session(cur)
                yield session
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite database {self.path!r}: {exc}") from exc
        if session.changed:
            with self._changed:
                self._changed.notify_all()

    def advance(self, append: Append) -> bool:
        """See :meth:`cardkit.store.backend.Backend.advance`."""
        a = append
        values: tuple[object, ...]
        if a.is_over:
            check = sql.ADVANCE_MATCH
            values = (a.new_length, True, a.to_act, a.head_hash, a.match_id, a.nonce, a.length)
        else:
            check = sql.ADVANCE_PLAYING
            values = (a.new_length, a.to_act, a.head_hash, a.match_id, a.nonce, a.length)
        mid = a.match_id
        rows = [(mid, r.seq, r.actor, r.action, r.events, r.prev_hash, r.hash) for r in a.entries]
        # _transaction spelt out: this is every cached move, and the generator cost a fifth
        # of the statements' own time.
        lock: AbstractContextManager[object] = self._guard if self._shared else nullcontext()
        with lock:
            conn = self._borrow()
            try:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                except sqlite3.Error as exc:
                    raise StoreError(f"SQLite database {self.path!r} refused a transaction: {exc}") from exc
                try:
                    # The write lock is held from BEGIN IMMEDIATE, so the row checked here
                    # is the row the entries follow; no match row is read first.
                    moved = conn.execute(check, values).rowcount == 1
                    if moved:
                        try:
                            conn.executemany(sql.INSERT_ENTRY, rows)
                        except sqlite3.IntegrityError as exc:
                            raise ConcurrencyError(
                                f"match {mid!r} already has an entry {a.length}: another writer came first"
                            ) from exc
                        if a.snapshots:
                            conn.executemany(
                                sql.UPSERT_SNAPSHOT,
                                [
                                    (mid, r.seq, r.rules_version, r.library, r.chances, r.state,
                                     r.entry_hash, r.hash)
                                    for r in a.snapshots
                                ],  # fmt: skip
                            )
                    conn.execute("COMMIT")
                except BaseException as exc:
                    conn.rollback()
                    if isinstance(exc, sqlite3.Error):
                        raise StoreError(f"SQLite database {self.path!r}: {exc}") from exc
                    raise
            finally:
                self._give_back(conn)
        if not moved:
            return False
        if self._waiters:
            with self._changed:
                self._changed.notify_all()
        return True

    def wait(self, match_id: str, after: int, timeout: float) -> int | None:
        """See :meth:`cardkit.store.backend.Backend.wait`."""
        # Other processes' commits are seen by polling; this process's wake waiters at once.
        deadline = time.monotonic() + timeout
        pause = 0.005
        while True:
            with self.read() as s:
                newest = s.newest(match_id)
            left = deadline - time.monotonic()
            if newest is None or newest > after or left <= 0:
                return newest
            with self._changed:
                self._waiters += 1
                try:
                    self._changed.wait(min(pause, left))
                finally:
                    self._waiters -= 1
            pause = min(pause * 1.5, 0.1)

    def close(self) -> None:
        """Release the database; later calls raise :class:`StoreError`."""
        with self._guard:
            self._closed = True
            # Only connections no thread is using are closed here: closing one another thread
            # is in the middle of (a host's background poll at shutdown) crashes SQLite's C
            # library. A borrowed connection is closed when it is given back.
            unused = self._all if self._shared else self._idle
            for conn in unused:
                conn.close()
                if conn in self._all and unused is not self._all:
                    self._all.remove(conn)
            if self._shared:
                self._all.clear()
            self._idle.clear()
