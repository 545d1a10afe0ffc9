"""The ``memory:`` backend: rows in dicts, for tests and throwaway hosts (one process)."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence

import attrs

from cardkit.errors import ConcurrencyError
from cardkit.store.errors import MatchExistsError, StoreError
from cardkit.store.records import Append, EntryRow, MatchRow, SnapshotRow

__all__ = ["MemoryBackend"]


class _Tables:
    def __init__(self) -> None:
        self.matches: dict[str, MatchRow] = {}
        self.entries: dict[str, dict[int, EntryRow]] = {}
        self.snapshots: dict[str, dict[int, SnapshotRow]] = {}
        self.ordinal = 0


class _MemorySession:
    """A transaction: reads see the committed tables plus this transaction's own writes.

    The backend's lock is held for the whole transaction, so checks made here stay true
    until commit; writes are staged and applied only when the transaction ends normally.
    """

    def __init__(self, tables: _Tables) -> None:
        self._t = tables
        self._ops: list[Callable[[_Tables], None]] = []
        self._new_matches: dict[str, MatchRow] = {}
        self._new_entries: dict[str, dict[int, EntryRow]] = {}
        self._deleted: set[str] = set()

    def _row(self, match_id: str) -> MatchRow | None:
        if match_id in self._new_matches:
            return self._new_matches[match_id]
        if match_id in self._deleted:
            return None
        return self._t.matches.get(match_id)

    def match(self, match_id: str, lock: bool = False) -> MatchRow | None:
        """See :class:`~cardkit.store.backend.Session`."""
        return self._row(match_id)

    def snapshot(self, match_id: str, before: int, rules_version: int, library: str) -> SnapshotRow | None:
        """See :class:`~cardkit.store.backend.Session`."""
        if match_id in self._deleted:
            return None
        rows = self._t.snapshots.get(match_id, {})
        fits = [
            r for s, r in rows.items()
            if s < before and r.rules_version == rules_version and r.library == library
        ]
        return max(fits, key=lambda r: r.seq) if fits else None

    def snapshots(self, match_id: str) -> list[SnapshotRow]:
        """See :class:`~cardkit.store.backend.Session`."""
        if match_id in self._deleted:
            return []
        rows = self._t.snapshots.get(match_id, {})
        return [rows[s] for s in sorted(rows)]

    def entries(self, match_id: str, after: int, limit: int | None = None) -> list[EntryRow]:
        """See :class:`~cardkit.store.backend.Session`."""
        if match_id in self._deleted:
            return []
        rows = dict(self._t.entries.get(match_id, {}))
        rows.update(self._new_entries.get(match_id, {}))
        last = None if limit is None else after + limit
        return [rows[s] for s in sorted(rows) if s > after and (last is None or s <= last)]

    def matches(self, game: str | None, finished: bool | None, limit: int | None) -> list[MatchRow]:
        """See :class:`~cardkit.store.backend.Session`."""
        rows = sorted(self._t.matches.values(), key=lambda r: r.ordinal)
        out = [
            r for r in rows
            if (game is None or r.game == game) and (finished is None or r.is_over == finished)
        ]
        return out if limit is None else out[:limit]

    def insert_match(self, row: MatchRow) -> None:
        """See :class:`~cardkit.store.backend.Session`."""
        if self._row(row.match_id) is not None:
            raise MatchExistsError(f"a match {row.match_id!r} already exists")
        self._new_matches[row.match_id] = row

        def insert(t: _Tables) -> None:
            t.ordinal += 1
            t.matches[row.match_id] = attrs.evolve(row, ordinal=t.ordinal)
            t.entries[row.match_id] = {}
            t.snapshots[row.match_id] = {}

        self._ops.append(insert)

    def insert_entries(self, match_id: str, rows: Sequence[EntryRow]) -> None:
        """See :class:`~cardkit.store.backend.Session`."""
        staged = self._new_entries.setdefault(match_id, {})
        stored = self._t.entries.get(match_id, {})
        for row in rows:
            if row.seq in staged or row.seq in stored:
                raise ConcurrencyError(f"match {match_id!r} already has an entry {row.seq}")
            staged[row.seq] = row
        added = tuple(rows)

        def insert(t: _Tables) -> None:
            stored = t.entries[match_id]
            for row in added:
                stored[row.seq] = row

        self._ops.append(insert)

    def put_snapshots(self, match_id: str, rows: Sequence[SnapshotRow]) -> None:
        """See :class:`~cardkit.store.backend.Session`."""
        added = tuple(rows)

        def put(t: _Tables) -> None:
            stored = t.snapshots[match_id]
            for row in added:
                stored[row.seq] = row

        self._ops.append(put)

    def update_match(
        self, match_id: str, length: int, is_over: bool, to_act: int | None, head_hash: str
    ) -> None:
        """See :class:`~cardkit.store.backend.Session`."""
        row = self._row(match_id)
        if row is None:
            raise StoreError(f"no match {match_id!r} to update")
        row = attrs.evolve(row, length=length, is_over=is_over, to_act=to_act, head_hash=head_hash)
        self._new_matches[match_id] = row
        def update(t: _Tables) -> None:
            t.matches[match_id] = attrs.evolve(
                t.matches[match_id], length=length, is_over=is_over, to_act=to_act, head_hash=head_hash
            )

        self._ops.append(update)

    def delete(self, match_id: str) -> bool:
        """See :class:`~cardkit.store.backend.Session`."""
        existed = self._row(match_id) is not None
        self._deleted.add(match_id)
        self._new_matches.pop(match_id, None)
        self._new_entries.pop(match_id, None)
        def delete(t: _Tables) -> None:
            t.matches.pop(match_id, None)
            t.entries.pop(match_id, None)
            t.snapshots.pop(match_id, None)

        self._ops.append(delete)
        return existed

    def commit(self) -> None:
        """Apply the staged writes (the backend lock is held)."""
        for op in self._ops:
            op(self._t)


class MemoryBackend:
    """Tables in this process's memory; gone when the store is closed or the process ends."""

    def __init__(self) -> None:
        self._tables = _Tables()
        self._cond = threading.Condition(threading.RLock())
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    @contextmanager
    def read(self) -> Iterator[_MemorySession]:
        """A read transaction (see :class:`~cardkit.store.backend.Backend`)."""
        with self._cond:
            self._check_open()
            yield _MemorySession(self._tables)

    @contextmanager
    def write(self) -> Iterator[_MemorySession]:
        """A write transaction (see :class:`~cardkit.store.backend.Backend`)."""
        with self._cond:
            self._check_open()
            session = _MemorySession(self._tables)
            yield session
            session.commit()
            self._cond.notify_all()

    def advance(self, append: Append) -> bool:
        """See :meth:`cardkit.store.backend.Backend.advance`."""
        with self.write() as s:
            row = s.match(append.match_id, lock=True)
            if row is None or row.nonce != append.nonce or row.length != append.length:
                return False
            s.insert_entries(append.match_id, append.entries)
            s.put_snapshots(append.match_id, append.snapshots)
            s.update_match(
                append.match_id, append.new_length, append.is_over, append.to_act, append.head_hash
            )
        return True

    def wait(self, match_id: str, after: int, timeout: float) -> int | None:
        """See :meth:`cardkit.store.backend.Backend.wait`."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                self._check_open()
                row = self._tables.matches.get(match_id)
                if row is None:
                    return None
                left = deadline - time.monotonic()
                if row.length - 1 > after or left <= 0:
                    return row.length - 1
                self._cond.wait(left)

    def close(self) -> None:
        """Release the database; later calls raise :class:`StoreError`."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
