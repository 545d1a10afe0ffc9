"""The ``postgresql://…`` backend: psycopg 3 with a connection pool (extra ``postgres``).

Many processes (many machines) may share one database. A write locks its match's row
(``SELECT … FOR UPDATE``) so ``play`` reads, decides and appends in one transaction; the
primary key ``(match_id, seq)`` still refuses any second entry at a seq. Commits that add
entries send ``NOTIFY cardkit_store`` so :meth:`wait` sleeps until something happens.
"""

from __future__ import annotations

import re
import select
import weakref
from contextlib import contextmanager
from typing import Any, Iterator

from cardkit.errors import ConcurrencyError, ConfigError
from cardkit.store import sql
from cardkit.store.backfill import hash_stored_matches
from cardkit.store.errors import MatchExistsError, SchemaVersionError, StoreError
from cardkit.store.records import Append
from cardkit.store.sqlbase import SqlSession

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg import pq
    from psycopg.conninfo import conninfo_to_dict
    from psycopg_pool import ConnectionPool, PoolTimeout
except ImportError as _exc:  # pragma: no cover - depends on the environment
    raise ConfigError(
        "PostgreSQL stores need psycopg 3 and psycopg_pool: pip install 'cardkit[postgres]'"
    ) from _exc

__all__ = ["PostgresBackend", "CHANNEL"]

CHANNEL = "cardkit_store"
"""The LISTEN/NOTIFY channel; a payload is ``"<seq>:<match_id>"``."""

_MIGRATION_LOCK = 0x63617264  # "card": one migrating process at a time
_NOTIFY = "SELECT pg_notify(%s, %s)"
# One statement, so its own transaction, whose commit does not wait for the WAL flush.
_WAKE_UNFLUSHED = "SELECT set_config('synchronous_commit', 'off', true), pg_notify(?, ?)"


def _placeholder(statement: str) -> str:
    return statement.replace("?", "%s")


# Arrays go in binary (%b): in text the driver escapes every quote of the JSON they hold.
_ADVANCE = _placeholder(sql.ADVANCE_POSTGRES).replace("%s::", "%b::")
_ADVANCE_ONE = _placeholder(sql.ADVANCE_ONE_POSTGRES)
_NOTIFY_UNFLUSHED = _placeholder(_WAKE_UNFLUSHED)


def _numbered(statement: str) -> bytes:
    """``statement`` with its ``?`` placeholders numbered ``$1, $2, ...`` (for libpq)."""
    count = iter(range(1, statement.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", statement).encode()


# The usual move (one entry, no snapshot) goes through libpq directly (see _advance_one):
# two statements prepared once per connection, under names psycopg never uses.
_ADVANCE_ONE_NAME = b"cardkit_advance_one"
_ADVANCE_ONE_LIBPQ = _numbered(sql.ADVANCE_ONE_POSTGRES)
_NOTIFY_NAME = b"cardkit_notify"
# Its own transaction, whose commit does not wait for the WAL flush; sent only if the
# match is at the move's length (a move that failed wakes nobody).
_NOTIFY_LIBPQ = _numbered(_WAKE_UNFLUSHED + " FROM cardkit_matches WHERE match_id = ? AND length = ?")
_UNIQUE_VIOLATION = b"23505"
_NO_SUCH_STATEMENT = b"26000"  # invalid_sql_statement_name


def _duplicate(exc: BaseException) -> str | None:
    if not isinstance(exc, pg_errors.UniqueViolation):
        return None
    return "match" if (exc.diag.constraint_name or "").startswith("cardkit_matches") else "entry"


class _StoreErrors:
    """``with _STORE_ERRORS:`` a pool timeout or a PostgreSQL error leaves as a
    :class:`StoreError` (the cardkit errors a statement's outcome raises, such as
    ``ConcurrencyError``, pass through). A class, not a generator: it wraps every move,
    and a generator-based context manager costs about ten times more."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        if kind is None:
            return
        if issubclass(kind, PoolTimeout):
            raise StoreError(f"no PostgreSQL connection free: {exc}") from None
        if issubclass(kind, psycopg.Error):
            raise StoreError(f"PostgreSQL: {exc}") from exc


_STORE_ERRORS = _StoreErrors()


def _pipeline_results(pgconn: Any, syncs: int) -> list[Any]:
    """Send what is queued on ``pgconn`` (in pipeline mode) and read until ``syncs``
    synchronisation points: the result of each statement, in order (sync points and the
    end-of-statement markers left out). A lost server raises ``psycopg.OperationalError``."""
    fd = pgconn.socket
    while pgconn.flush():
        select.select([], [fd], [])
    out: list[Any] = []
    while syncs:
        if pgconn.is_busy():
            select.select([fd], [], [])
            pgconn.consume_input()
            continue
        result = pgconn.get_result()
        if result is None:
            continue
        if result.status == pq.ExecStatus.PIPELINE_SYNC:
            syncs -= 1
        else:
            out.append(result)
    return out


class PostgresBackend:
    """A PostgreSQL database reached through a pool of ``min_size``..``max_size`` connections."""

    def __init__(self, url: str, min_size: int = 1, max_size: int = 8, timeout: float = 30.0) -> None:
        try:
            conninfo_to_dict(url)
        except psycopg.ProgrammingError as exc:
            raise ConfigError(f"malformed PostgreSQL URL: {exc}") from None
        for name, value in (("min_size", min_size), ("max_size", max_size)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ConfigError(f"{name} must be a positive integer, not {value!r}")
        if max_size < min_size:
            raise ConfigError(f"max_size {max_size} is below min_size {min_size}")
        # Connections that hold the prepared statements of the usual move (_advance_one).
        self._prepared: weakref.WeakSet[Any] = weakref.WeakSet()
        self._pipelines = psycopg.Pipeline.is_supported()  # libpq 14 or newer
        self._pool: ConnectionPool[Any] = ConnectionPool(
            url, min_size=min_size, max_size=max_size, timeout=timeout, open=False,
            kwargs={"autocommit": False},
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except PoolTimeout as exc:
            self._pool.close()
            raise StoreError(f"no PostgreSQL server answered within {timeout} s: {exc}") from None
        try:
            # Not pipelined: each statement's result is read before the next is sent.
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                self._migrate(cur)
        except psycopg.Error as exc:
            self._pool.close()
            raise StoreError(f"PostgreSQL: {exc}") from exc
        except BaseException:
            self._pool.close()
            raise

    def _migrate(self, cur: Any) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,)).fetchall()
        cur.execute(sql.CREATE_SCHEMA_TABLE)
        found = cur.execute(sql.SELECT_SCHEMA).fetchone()[0] or 0
        if found > sql.SCHEMA_VERSION:
            raise SchemaVersionError(
                f"the database has store schema version {found}, newer than the "
                f"{sql.SCHEMA_VERSION} this cardkit knows: upgrade cardkit to open it"
            )
        for version in range(found + 1, sql.SCHEMA_VERSION + 1):
            for statement in sql.POSTGRES_MIGRATIONS[version - 1]:
                cur.execute(statement)
            if version == 2 and found >= 1:
                hash_stored_matches(cur, _placeholder)
            cur.execute(_placeholder(sql.INSERT_SCHEMA), (version,))

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        # Pipeline mode: statements whose results are not read (the inserts, the update,
        # the notify, COMMIT) travel together, so a move costs two round trips, not eight.
        with _STORE_ERRORS:  # outermost: the unique violations below are named first
            try:
                with self._pool.connection() as conn:
                    failure: BaseException | None = None
                    try:
                        with conn.pipeline():
                            try:
                                with conn.transaction():
                                    with conn.cursor() as cur:
                                        yield cur
                            except BaseException as exc:
                                # Held until the pipeline is closed, which then need not
                                # report (as a logged warning) that it was aborted.
                                failure = exc
                    except pg_errors.PipelineAborted:
                        if failure is None:
                            raise
                    if failure is not None:
                        raise failure
            except pg_errors.UniqueViolation as exc:
                # Raised where the pipeline syncs, so it is named here rather than at the insert.
                constraint = exc.diag.constraint_name or ""
                if constraint.startswith("cardkit_matches"):
                    raise MatchExistsError(
                        f"that match id is already taken ({exc.diag.message_detail})"
                    ) from None
                raise ConcurrencyError(
                    f"another writer stored an entry at the same seq first ({exc.diag.message_detail})"
                ) from None

    def _session(self, cur: Any) -> SqlSession:
        return SqlSession(
            cur, _placeholder, _duplicate, lock_suffix=" FOR UPDATE",
            insert_match_sql=sql.INSERT_MATCH_POSTGRES,
        )

    @contextmanager
    def read(self) -> Iterator[SqlSession]:
        """A read transaction (see :class:`~cardkit.store.backend.Backend`)."""
        with self._transaction() as cur:
            # One snapshot for all the reads: the match row and the entries agree.
            cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield self._session(cur)

    @contextmanager
    def write(self) -> Iterator[SqlSession]:
        """A write transaction (see :class:`~cardkit.store.backend.Backend`)."""
        with self._transaction() as cur:
            session = self._session(cur)
            yield session
            for match_id, seq in session.changed:
                # Delivered at commit, and only if it commits.
                cur.execute(_NOTIFY, (CHANNEL, f"{seq}:{match_id}"))

    def advance(self, append: Append) -> bool:
        """See :meth:`cardkit.store.backend.Backend.advance`.

        The usual move (one entry, no snapshot) takes one round trip through libpq
        (:meth:`_advance_one`); the others, or any move where libpq is older than 14 and
        has no pipeline mode, one statement and a wake-up through psycopg."""
        a = append
        with _STORE_ERRORS:
            if len(a.entries) == 1 and not a.snapshots and self._pipelines:
                # getconn/putconn, not connection(): its exit commits, which costs a round
                # of psycopg's machinery on a connection libpq has left idle.
                conn = self._pool.getconn()
                try:
                    return self._advance_one(conn, a)
                finally:
                    self._pool.putconn(conn)
            return self._advance_statement(a)

    def _advance_statement(self, a: Append) -> bool:
        """A move as one statement through psycopg, then its wake-up."""
        statement: str
        params: tuple[Any, ...]
        if len(a.entries) == 1 and not a.snapshots:
            e = a.entries[0]
            statement = _ADVANCE_ONE
            params = (
                a.new_length, a.is_over, a.to_act, a.head_hash, a.match_id, a.nonce, a.length,
                e.seq, e.actor, e.action, e.events, e.prev_hash, e.hash,
            )
        else:
            statement = _ADVANCE
            params = (
                a.new_length, a.is_over, a.to_act, a.head_hash, a.match_id, a.nonce, a.length,
                [r.seq for r in a.entries], [r.actor for r in a.entries],
                [r.action for r in a.entries], [r.events for r in a.entries],
                [r.prev_hash for r in a.entries], [r.hash for r in a.entries],
                [r.seq for r in a.snapshots], [r.rules_version for r in a.snapshots],
                [r.library for r in a.snapshots], [r.chances for r in a.snapshots],
                [r.state for r in a.snapshots], [r.entry_hash for r in a.snapshots],
                [r.hash for r in a.snapshots],
            )
        try:
            with self._pool.connection() as conn:
                conn.autocommit = True
                try:
                    # The move is one statement, so one round trip and a transaction of its
                    # own. The wake-up is a second one: NOTIFY takes a lock held until its
                    # transaction's commit is flushed, so inside the move's transaction it
                    # would serialise every writer's flush (no group commit). Its own commit
                    # need not wait for the disk: a wake-up lost to a crash only holds a
                    # waiter to its timeout, when it reads the match again. The move's
                    # commit still waits for the disk as any other.
                    rows = conn.execute(statement, params).fetchall()
                    moved = len(rows) == 1 and (statement is _ADVANCE_ONE or int(rows[0][0]) == 1)
                    if moved:
                        try:
                            conn.execute(_NOTIFY_UNFLUSHED, (CHANNEL, f"{a.new_length - 1}:{a.match_id}"))
                        except psycopg.Error:
                            pass  # the move is committed; waiters see it when they next read the match
                finally:
                    conn.autocommit = False
        except pg_errors.UniqueViolation as exc:
            raise ConcurrencyError(
                f"match {a.match_id!r} already has an entry {a.length}: another writer came first "
                f"({exc.diag.message_detail})"
            ) from None
        return moved

    def _advance_one(self, conn: Any, a: Append) -> bool:
        """A move of one entry and no snapshot in one round trip, through libpq.

        The move's statement and the wake-up are pipelined, each in an implicit
        transaction of its own (see :meth:`_advance_statement` for why the ``NOTIFY`` is
        not in the move's transaction), as two prepared statements with text parameters:
        psycopg's cursor machinery costs the client more per move than the server's work
        on it.
        """
        pgconn = conn.pgconn
        e = a.entries[0]
        # Text-format parameters, spelt out (a call per value cost a twentieth of a move).
        move = [
            b"%d" % a.new_length, b"t" if a.is_over else b"f",
            None if a.to_act is None else b"%d" % a.to_act,
            a.head_hash.encode(), a.match_id.encode(), a.nonce.encode(), b"%d" % a.length,
            b"%d" % e.seq, b"%d" % e.actor, e.action.encode(), e.events.encode(),
            e.prev_hash.encode(), e.hash.encode(),
        ]  # fmt: skip
        wake = [CHANNEL.encode(), f"{a.new_length - 1}:{a.match_id}".encode(), a.match_id.encode(),
                b"%d" % a.new_length]  # fmt: skip
        for attempt in range(2):
            if conn not in self._prepared:
                for name, text in ((_ADVANCE_ONE_NAME, _ADVANCE_ONE_LIBPQ), (_NOTIFY_NAME, _NOTIFY_LIBPQ)):
                    prepared = pgconn.prepare(name, text)
                    if prepared.status != pq.ExecStatus.COMMAND_OK:
                        raise StoreError(f"PostgreSQL: {prepared.get_error_message()}")
                self._prepared.add(conn)
            try:
                pgconn.enter_pipeline_mode()
                pgconn.send_query_prepared(_ADVANCE_ONE_NAME, move)
                pgconn.pipeline_sync()
                pgconn.send_query_prepared(_NOTIFY_NAME, wake)
                pgconn.pipeline_sync()
                results = _pipeline_results(pgconn, syncs=2)
                pgconn.exit_pipeline_mode()
            except BaseException:
                conn.close()  # left in an unknown state: the pool replaces it
                raise
            if attempt == 0 and results[0].error_field(pq.DiagnosticField.SQLSTATE) == _NO_SUCH_STATEMENT:
                # psycopg deallocates every prepared statement of a connection after a
                # rollback on it; nothing was written, so prepare them again and resend.
                self._prepared.discard(conn)
                continue
            break
        result = results[0]
        if result.status == pq.ExecStatus.TUPLES_OK:
            # A row back: written. None: the match moved on (or was deleted) meanwhile.
            # A failed wake-up is ignored: waiters see the move when they next read.
            return bool(result.ntuples == 1)
        if result.error_field(pq.DiagnosticField.SQLSTATE) == _UNIQUE_VIOLATION:
            detail = (result.error_field(pq.DiagnosticField.MESSAGE_DETAIL) or b"").decode(errors="replace")
            raise ConcurrencyError(
                f"match {a.match_id!r} already has an entry {a.length}: another writer came first ({detail})"
            )
        raise StoreError(f"PostgreSQL: {result.get_error_message()}")

    def wait(self, match_id: str, after: int, timeout: float) -> int | None:
        """See :meth:`cardkit.store.backend.Backend.wait`."""
        import time

        deadline = time.monotonic() + timeout
        with _STORE_ERRORS, self._pool.connection() as conn:
            conn.autocommit = True
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                while True:
                    row = conn.execute(_placeholder(sql.SELECT_LENGTH), (match_id,)).fetchone()
                    newest = None if row is None else int(row[0]) - 1
                    left = deadline - time.monotonic()
                    if newest is None or newest > after or left <= 0:
                        return newest
                    for note in conn.notifies(timeout=left):
                        if note.payload.partition(":")[2] == match_id:
                            break
            finally:
                conn.execute(f"UNLISTEN {CHANNEL}")
                conn.autocommit = False

    def close(self) -> None:
        """Release the database; later calls raise :class:`StoreError`."""
        self._pool.close()
