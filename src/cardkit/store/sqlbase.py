"""A :class:`~cardkit.store.backend.Session` over a DB-API cursor, shared by SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from cardkit.errors import ConcurrencyError
from cardkit.store import sql
from cardkit.store.errors import MatchExistsError, StoreError
from cardkit.store.records import EntryRow, MatchRow, SnapshotRow

__all__ = ["SqlSession", "row_to_match"]


def row_to_match(r: Sequence[Any]) -> MatchRow:
    """A :class:`MatchRow` from the columns of :data:`sql.MATCH_COLUMNS`."""
    try:
        return MatchRow(
            match_id=r[0],
            ordinal=int(r[1]),
            game=r[2],
            rules_version=int(r[3]),
            players=int(r[4]),
            config=r[5],
            seed=int(r[6]),
            auto_chance=bool(r[7]),
            length=int(r[8]),
            is_over=bool(r[9]),
            to_act=None if r[10] is None else int(r[10]),
            nonce=r[11],
            header_hash=r[12],
            head_hash=r[13],
        )
    except (TypeError, ValueError) as exc:
        raise StoreError(f"match {r[0]!r}: its row is corrupt ({exc})") from exc


def _snapshot_row(r: Sequence[Any]) -> SnapshotRow:
    return SnapshotRow(
        seq=int(r[0]), rules_version=int(r[1]), library=r[2], chances=int(r[3]), state=r[4],
        entry_hash=r[5], hash=r[6],
    )  # fmt: skip


class SqlSession:
    """Statements of :mod:`cardkit.store.sql` run on one cursor inside one transaction.

    ``placeholder`` rewrites ``?`` for the driver; ``duplicate`` names the table of a
    duplicate key (``"match"``: a taken id, ``"entry"``: a lost race), else ``None``.
    """

    def __init__(
        self,
        cursor: Any,
        placeholder: Callable[[str], str],
        duplicate: Callable[[BaseException], str | None],
        lock_suffix: str = "",
        insert_match_sql: str = sql.INSERT_MATCH_SQLITE,
    ) -> None:
        self._cur = cursor
        self._q = placeholder
        self._duplicate = duplicate
        self._lock = lock_suffix
        self._insert_match = insert_match_sql
        self.changed: list[tuple[str, int]] = []

    def _run(self, statement: str, params: Sequence[Any]) -> Any:
        self._cur.execute(self._q(statement), tuple(params))
        return self._cur

    def match(self, match_id: str, lock: bool = False) -> MatchRow | None:
        """See :class:`~cardkit.store.backend.Session`."""
        cur = self._run(sql.SELECT_MATCH + (self._lock if lock else ""), (match_id,))
        r = cur.fetchone()
        return None if r is None else row_to_match(r)

    def snapshot(self, match_id: str, before: int, rules_version: int, library: str) -> SnapshotRow | None:
        """See :class:`~cardkit.store.backend.Session`."""
        cur = self._run(sql.SELECT_SNAPSHOT, (match_id, before, rules_version, library))
        r = cur.fetchone()
        if r is None:
            return None
        return _snapshot_row(r)

    def snapshots(self, match_id: str) -> list[SnapshotRow]:
        """See :class:`~cardkit.store.backend.Session`."""
        return [_snapshot_row(r) for r in self._run(sql.SELECT_SNAPSHOTS, (match_id,)).fetchall()]

    def entries(self, match_id: str, after: int, limit: int | None = None) -> list[EntryRow]:
        """See :class:`~cardkit.store.backend.Session`."""
        if limit is None:
            cur = self._run(sql.SELECT_ENTRIES, (match_id, after))
        else:
            cur = self._run(sql.SELECT_ENTRIES_BEFORE, (match_id, after, after + 1 + limit))
        return [EntryRow(int(r[0]), r[1], r[2], r[3], r[4], r[5]) for r in cur.fetchall()]

    def matches(self, game: str | None, finished: bool | None, limit: int | None) -> list[MatchRow]:
        """See :class:`~cardkit.store.backend.Session`."""
        where: list[str] = []
        params: list[Any] = []
        if game is not None:
            where.append(sql.WHERE_GAME)
            params.append(game)
        if finished is not None:
            where.append(sql.WHERE_OVER)
            params.append(finished)
        statement = sql.SELECT_MATCHES
        if where:
            statement += " WHERE " + " AND ".join(where)
        statement += sql.ORDER_MATCHES
        if limit is not None:
            statement += sql.LIMIT
            params.append(limit)
        return [row_to_match(r) for r in self._run(statement, params).fetchall()]

    def insert_match(self, row: MatchRow) -> None:
        """See :class:`~cardkit.store.backend.Session`."""
        values = (
            row.match_id, row.game, row.rules_version, row.players, row.config, str(row.seed),
            row.auto_chance, row.length, row.is_over, row.to_act, row.nonce, row.header_hash, row.head_hash,
        )
        try:
            self._run(self._insert_match, values)
        except Exception as exc:
            self._raise_duplicate(exc, row.match_id, -1)
            raise

    def insert_entries(self, match_id: str, rows: Sequence[EntryRow]) -> None:
        """See :class:`~cardkit.store.backend.Session`."""
        if not rows:
            return
        try:
            self._cur.executemany(
                self._q(sql.INSERT_ENTRY),
                [(match_id, r.seq, r.actor, r.action, r.events, r.prev_hash, r.hash) for r in rows],
            )
        except Exception as exc:
            self._raise_duplicate(exc, match_id, rows[0].seq)
            raise

    def _raise_duplicate(self, exc: Exception, match_id: str, seq: int) -> None:
        kind = self._duplicate(exc)
        if kind == "match":
            raise MatchExistsError(f"a match {match_id!r} already exists") from exc
        if kind == "entry":
            raise ConcurrencyError(
                f"match {match_id!r} already has an entry {seq}: another writer came first"
            ) from exc

    def put_snapshots(self, match_id: str, rows: Sequence[SnapshotRow]) -> None:
        """See :class:`~cardkit.store.backend.Session`."""
        if rows:
            self._cur.executemany(
                self._q(sql.UPSERT_SNAPSHOT),
                [
                    (match_id, r.seq, r.rules_version, r.library, r.chances, r.state, r.entry_hash, r.hash)
                    for r in rows
                ],
            )

    def update_match(
        self, match_id: str, length: int, is_over: bool, to_act: int | None, head_hash: str
    ) -> None:
        """See :class:`~cardkit.store.backend.Session`."""
        self._run(sql.UPDATE_MATCH, (length, is_over, to_act, head_hash, match_id))
        self.changed.append((match_id, length - 1))

    def delete(self, match_id: str) -> bool:
        """See :class:`~cardkit.store.backend.Session`."""
        if self.match(match_id, lock=True) is None:
            return False
        self._run(sql.DELETE_ENTRIES, (match_id,))
        self._run(sql.DELETE_SNAPSHOTS, (match_id,))
        self._run(sql.DELETE_MATCH, (match_id,))
        return True

    def newest(self, match_id: str) -> int | None:
        """The newest seq of a match (``None``: no such match), for ``wait``."""
        r = self._run(sql.SELECT_LENGTH, (match_id,)).fetchone()
        return None if r is None else int(r[0]) - 1
