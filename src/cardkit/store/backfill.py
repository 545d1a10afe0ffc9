"""Hashing the matches of a version 1 database, as migration 2 opens it.

A version 1 store kept no hashes. Its matches are hashed as they are stored when the
database is first opened by a version 2 library, in the migration's transaction: the chain
then vouches for the rows as they were at the upgrade, no earlier (run ``cardkit store URL
verify`` after upgrading to replay every match once). Snapshots are bound to the entries
before them; one that stands for entries the match does not have is dropped (snapshots are
a cache).
"""

from __future__ import annotations

from typing import Any, Callable

from cardkit.store import sql
from cardkit.store.chain import chain_rows, row_header_hash, seal_snapshot
from cardkit.store.records import EntryRow, SnapshotRow
from cardkit.store.sqlbase import row_to_match

__all__ = ["hash_stored_matches"]

_UPDATE_ENTRY = "UPDATE cardkit_entries SET prev_hash = ?, hash = ? WHERE match_id = ? AND seq = ?"
_UPDATE_SNAPSHOT = "UPDATE cardkit_snapshots SET entry_hash = ?, hash = ? WHERE match_id = ? AND seq = ?"
_DELETE_SNAPSHOT = "DELETE FROM cardkit_snapshots WHERE match_id = ? AND seq = ?"
_UPDATE_MATCH = "UPDATE cardkit_matches SET header_hash = ?, head_hash = ? WHERE match_id = ?"


def hash_stored_matches(cur: Any, placeholder: Callable[[str], str]) -> int:
    """Fill in the hash chain of every match (see the module docs); returns how many.

    ``cur`` is a DB-API cursor inside the migration's transaction and ``placeholder``
    rewrites ``?`` for its driver. A match whose config does not read keeps an empty header
    hash, so loading it says it is broken rather than trusting it.
    """
    q = placeholder
    ids = [r[0] for r in cur.execute(q("SELECT match_id FROM cardkit_matches ORDER BY ordinal")).fetchall()]
    for match_id in ids:
        row = row_to_match(cur.execute(q(sql.SELECT_MATCH), (match_id,)).fetchone())
        header = row_header_hash(row) or ""
        raw = cur.execute(q(sql.SELECT_ENTRIES), (match_id, -1)).fetchall()
        rows = chain_rows(header, [EntryRow(int(r[0]), r[1], r[2], r[3]) for r in raw])
        cur.executemany(q(_UPDATE_ENTRY), [(r.prev_hash, r.hash, match_id, r.seq) for r in rows])
        hashes = {r.seq: r.hash for r in rows}
        for s in cur.execute(q(sql.SELECT_SNAPSHOTS), (match_id,)).fetchall():
            snap = SnapshotRow(int(s[0]), int(s[1]), s[2], int(s[3]), s[4])
            entry = hashes.get(snap.seq - 1)
            if entry is None:
                cur.execute(q(_DELETE_SNAPSHOT), (match_id, snap.seq))
            else:
                sealed = seal_snapshot(snap, entry)
                cur.execute(q(_UPDATE_SNAPSHOT), (sealed.entry_hash, sealed.hash, match_id, snap.seq))
        head = rows[-1].hash if rows else header
        cur.execute(q(_UPDATE_MATCH), (header, head, match_id))
    return len(ids)
