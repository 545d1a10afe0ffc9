"""The rows a store keeps, and how entries become rows and back.

Backends store these values as they are (text columns hold JSON), so every backend reads
and writes exactly the same data and the same decoding checks apply everywhere.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from cardkit.core.log import LogEntry, SeatEntry
from cardkit.core.rules import CHANCE, Rules
from cardkit.errors import CardkitError, LogError
from cardkit.serde import action_from_json, event_from_json, to_json

__all__ = [
    "MatchRow",
    "EntryRow",
    "SnapshotRow",
    "Append",
    "MatchInfo",
    "MatchCheck",
    "SeatEntry",
    "entry_to_row",
    "row_to_entry",
]

AnyRules = Rules[Any, Any, Any, Any]


@attrs.frozen
class MatchRow:
    """One match: what it is, and where it stands (``length`` entries, the last is ``length - 1``).

    ``nonce`` is random per ``create``: a match deleted and created again under the same id
    is another match (an in-process cache must not confuse them). ``header_hash`` and
    ``head_hash`` are the ends of its hash chain (:mod:`cardkit.store.chain`): the hash of
    its header and of its newest entry (the header's while there is none).
    """

    match_id: str
    ordinal: int
    game: str
    rules_version: int
    players: int
    config: str
    seed: int
    auto_chance: bool
    length: int
    is_over: bool
    to_act: int | None
    nonce: str
    header_hash: str = ""
    head_hash: str = ""


@attrs.frozen
class EntryRow:
    """One log entry as stored: the action and the events as JSON text, the hash of the
    entry before it (``prev_hash``) and its own (``hash``; see :mod:`cardkit.store.chain`)."""

    seq: int
    actor: int
    action: str
    events: str
    prev_hash: str = ""
    hash: str = ""


@attrs.frozen
class SnapshotRow:
    """The state after the first ``seq`` entries (``chances`` of them chance), as JSON text.

    ``rules_version`` and ``library`` say who wrote it; a snapshot is used only by the same.
    ``entry_hash`` is the hash of entry ``seq - 1`` (the history it stands for) and ``hash``
    the hash of its own content (see :mod:`cardkit.store.chain`).
    """

    seq: int
    rules_version: int
    library: str
    chances: int
    state: str
    entry_hash: str = ""
    hash: str = ""


@attrs.frozen
class Append:
    """A move's rows, to be written only if the match is still the one they were decided on.

    ``nonce`` and ``length`` are what the writer's cached game says the match is; the write
    happens (entries, snapshots, and the match row moved to ``new_length``, ``is_over``,
    ``to_act``, ``head_hash``) only if the stored row still says exactly that, all in one
    transaction.
    """

    match_id: str
    nonce: str
    length: int
    entries: tuple[EntryRow, ...]
    snapshots: tuple[SnapshotRow, ...]
    new_length: int
    is_over: bool
    to_act: int | None
    head_hash: str


@attrs.frozen
class MatchInfo:
    """A stored match as :meth:`Store.matches` lists it (the seed is not part of it)."""

    match_id: str
    game: str
    players: int
    rules_version: int
    config: dict[str, Any]
    auto_chance: bool
    entries: int
    is_over: bool
    to_act: int | None

    @property
    def last_seq(self) -> int:
        """The seq of the newest entry (-1 when there is none), what ``expected_seq`` compares to."""
        return self.entries - 1


@attrs.frozen
class MatchCheck:
    """What :meth:`Store.verify` found for one match: ``problem`` is ``None`` when the
    whole match replays from its first entry and every hash (rows, header, snapshots)
    holds, else one sentence naming the seq at fault (``seq``; ``None`` for the header or
    the match row), never a row's content."""

    match_id: str
    entries: int
    problem: str | None
    seq: int | None = None

    @property
    def ok(self) -> bool:
        """Whether the match passed every check."""
        return self.problem is None


# What json.dumps(value, separators=(",", ":"), ensure_ascii=False) does, without building
# an encoder per call (that was a third of encoding an entry).
_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def entry_to_row(entry: LogEntry) -> EntryRow:
    """The row of one log entry."""
    data = to_json(entry)
    return EntryRow(seq=entry.seq, actor=entry.actor, action=_json(data["action"]), events=_json(data["events"]))


def row_to_entry(rules: AnyRules, match_id: str, row: EntryRow) -> LogEntry:
    """The log entry of a row; :class:`LogError` naming the match and seq if the row is corrupt."""
    try:
        actor = row.actor
        if not isinstance(actor, int) or isinstance(actor, bool) or actor < CHANCE:
            raise LogError(f"bad actor {actor!r}")
        events = json.loads(row.events)
        if not isinstance(events, list):
            raise LogError("events must be a JSON list")
        return LogEntry(
            seq=row.seq,
            actor=actor,
            action=action_from_json(rules, json.loads(row.action)),
            events=tuple(event_from_json(rules, e) for e in events),
        )
    except (CardkitError, ValueError, TypeError) as exc:
        raise LogError(f"match {match_id!r}, entry {row.seq}: corrupt row ({exc})") from exc
