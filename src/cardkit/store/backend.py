"""What a storage backend provides: transactions over three tables, and a wake-up.

The :class:`~cardkit.store.Store` holds every rule (verification, snapshots, redaction);
a backend only reads and writes rows. ``write()`` is one transaction that also serialises
writers of a match (``match(..., lock=True)``); leaving it with an exception rolls back.
"""

from __future__ import annotations

from typing import ContextManager, Protocol, Sequence

from cardkit.store.ids import MAX_MATCH_ID
from cardkit.store.records import Append, EntryRow, MatchRow, SnapshotRow

__all__ = ["Session", "Backend", "MAX_MATCH_ID"]



class Session(Protocol):
    """Reads and writes inside one transaction."""

    def match(self, match_id: str, lock: bool = False) -> MatchRow | None:
        """The match row, or ``None``; ``lock`` holds writers of that match off until commit."""
        ...

    def snapshot(self, match_id: str, before: int, rules_version: int, library: str) -> SnapshotRow | None:
        """The newest snapshot with ``seq < before`` written by that rules and library version."""
        ...

    def snapshots(self, match_id: str) -> list[SnapshotRow]:
        """Every snapshot of the match, by seq (whoever wrote them)."""
        ...

    def entries(self, match_id: str, after: int, limit: int | None = None) -> list[EntryRow]:
        """The entry rows with ``after < seq <= after + limit`` (no upper bound without
        ``limit``), in order."""
        ...

    def matches(self, game: str | None, finished: bool | None, limit: int | None) -> list[MatchRow]:
        """Match rows in creation order, filtered."""
        ...

    def insert_match(self, row: MatchRow) -> None:
        """Add a match (its ``ordinal`` is assigned here); :class:`MatchExistsError` if the id is taken."""
        ...

    def insert_entries(self, match_id: str, rows: Sequence[EntryRow]) -> None:
        """Add entry rows; :class:`~cardkit.errors.ConcurrencyError` if one of their seqs exists."""
        ...

    def put_snapshots(self, match_id: str, rows: Sequence[SnapshotRow]) -> None:
        """Add or replace snapshots."""
        ...

    def update_match(
        self, match_id: str, length: int, is_over: bool, to_act: int | None, head_hash: str
    ) -> None:
        """Record where the match stands after an append, with the hash of its newest entry
        (and wake its waiters at commit)."""
        ...

    def delete(self, match_id: str) -> bool:
        """Remove a match with its entries and snapshots; ``False`` if there was none."""
        ...


class Backend(Protocol):
    """A database holding matches."""

    def read(self) -> ContextManager[Session]:
        """A read-only transaction (a consistent view of the data)."""
        ...

    def write(self) -> ContextManager[Session]:
        """A read-write transaction: committed on a normal exit, rolled back on an exception."""
        ...

    def advance(self, append: Append) -> bool:
        """Write ``append`` in a transaction of its own if the match row still has its
        ``nonce`` and ``length``; ``False``, with nothing written, if it does not.

        This is the fast path of a move decided on a cached game: the check and the writes
        are one transaction (one round trip where the database allows), and a match that
        moved on meanwhile is left to the ordinary locked path. A duplicate entry is a
        :class:`~cardkit.errors.ConcurrencyError`, as for :meth:`Session.insert_entries`.
        """
        ...

    def wait(self, match_id: str, after: int, timeout: float) -> int | None:
        """Block until the match has an entry after ``after`` or ``timeout`` seconds pass.

        Returns the match's newest seq, or ``None`` if there is no such match.
        """
        ...

    def close(self) -> None:
        """Release connections; the backend is unusable afterwards."""
        ...
