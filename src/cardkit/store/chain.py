"""The hash chain of a stored match: what each row's hash is, and checking a run of rows.

Every match is a chain of SHA-256 hashes over canonical bytes (those of
:func:`cardkit.dumps`, UTF-8):

* the **header** hash is ``sha256(dumps(log without entries))``: the game, its
  ``rules_version``, config (keys sorted), seed and ``auto_chance``;
* entry ``k``'s hash is ``sha256(hash(k - 1) + dumps(entry k))``, with ``hash(-1)`` the
  header hash (a hash is written as 64 lower-case hex digits, and hashed as those ASCII
  bytes); each entry row keeps its predecessor's hash and its own;
* the match row keeps the header hash and the newest entry's (``head``), so a row taken
  off the end is seen too;
* a snapshot after ``p`` entries keeps ``hash(p - 1)`` (the entry it stands for) and a
  hash of its own content, so a snapshot is bound to one history and cannot be edited.

The hashes guard against rows edited or lost behind the store's back (by hand, by a
faulty tool, by damage); they are not a signature: someone who knows this scheme and can
write the database can rewrite a whole chain.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable

from cardkit.core.log import GameLog
from cardkit.serde import dumps
from cardkit.store.errors import BrokenMatchError
from cardkit.store.records import EntryRow, MatchRow, SnapshotRow

__all__ = [
    "header_hash",
    "row_header_hash",
    "entry_hash",
    "snapshot_hash",
    "chain_rows",
    "check_run",
]

def _bytes(text: str) -> bytes:
    # surrogatepass: a user's game may hold any str; a hash must never fail to encode
    return text.encode("utf-8", "surrogatepass")


def header_hash(game: str, rules_version: int, config: Any, seed: int, auto_chance: bool) -> str:
    """The hash of a match's header: its log without entries, in canonical bytes."""
    header = GameLog(
        game=game, rules_version=rules_version, config=config, seed=seed, entries=(), auto_chance=auto_chance
    )
    return hashlib.sha256(_bytes(dumps(header))).hexdigest()


def row_header_hash(row: MatchRow) -> str | None:
    """The header hash of what a match row holds now (``None`` if its config is not a JSON
    object). The config's ``players`` is the row's own column, so an edit of either shows."""
    try:
        config = json.loads(row.config)
    except ValueError:
        return None
    if not isinstance(config, dict):
        return None
    config["players"] = row.players
    try:
        return header_hash(row.game, row.rules_version, config, row.seed, row.auto_chance)
    except (TypeError, ValueError):
        return None


def entry_hash(prev: str, seq: int, actor: int, action: str, events: str) -> str:
    """Entry ``seq``'s hash after ``prev``: over ``prev`` and ``dumps`` of the entry, whose
    action and events are the JSON texts a row holds (what :func:`cardkit.dumps` writes)."""
    who = '"chance"' if actor == -1 else str(actor)
    text = f'{prev}{{"seq":{seq},"actor":{who},"action":{action},"events":{events}}}'
    return hashlib.sha256(_bytes(text)).hexdigest()


def snapshot_hash(seq: int, rules_version: int, library: str, chances: int, entry: str, state: str) -> str:
    """The hash of a snapshot's content, ``entry`` (the hash of entry ``seq - 1``) included."""
    head = json.dumps([seq, rules_version, library, chances, entry], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(_bytes(head + "\n" + state)).hexdigest()


def chain_rows(prev: str, rows: Iterable[EntryRow]) -> list[EntryRow]:
    """``rows`` (each with its seq, actor, action and events) with their ``prev_hash`` and
    ``hash`` filled in, the first following ``prev``."""
    out = []
    for r in rows:
        h = entry_hash(prev, r.seq, r.actor, r.action, r.events)
        out.append(EntryRow(r.seq, r.actor, r.action, r.events, prev, h))
        prev = h
    return out


def seal_snapshot(snap: SnapshotRow, entry: str) -> SnapshotRow:
    """``snap`` bound to ``entry`` (the hash of entry ``snap.seq - 1``), its own hash filled in."""
    return SnapshotRow(
        snap.seq, snap.rules_version, snap.library, snap.chances, snap.state, entry,
        snapshot_hash(snap.seq, snap.rules_version, snap.library, snap.chances, entry, snap.state),
    )  # fmt: skip


def snapshot_ok(snap: SnapshotRow) -> bool:
    """Whether a snapshot's content still hashes to its stored hash."""
    return snap.hash == snapshot_hash(
        snap.seq, snap.rules_version, snap.library, snap.chances, snap.entry_hash, snap.state
    )


def check_run(match_id: str, rows: list[EntryRow], first: int, prev: str | None) -> str | None:
    """Check rows that should be entries ``first``, ``first + 1``, … in order: no seq
    missing, each row's content hashing to its stored hash, each following the one before
    (and the first following ``prev``, when it is known). Returns the last row's hash
    (``prev`` when there are none); :class:`BrokenMatchError` naming the first bad seq."""
    for i, r in enumerate(rows):
        seq = first + i
        if r.seq != seq:
            raise BrokenMatchError(
                match_id, seq, f"match {match_id!r} is broken at entry {seq}: the row is missing"
            )
        if prev is not None and r.prev_hash != prev:
            raise BrokenMatchError(
                match_id,
                seq,
                f"match {match_id!r} is broken at entry {seq}: it does not follow entry {seq - 1} "
                "in the match's hash chain (a row before it was edited, or this one replaced)",
            )
        if entry_hash(r.prev_hash, r.seq, r.actor, r.action, r.events) != r.hash:
            raise BrokenMatchError(
                match_id,
                seq,
                f"match {match_id!r} is broken at entry {seq}: the row does not match its hash "
                "(edited or damaged)",
            )
        prev = r.hash
    return prev


__all__ += ["seal_snapshot", "snapshot_ok"]
