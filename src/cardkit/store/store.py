"""The :class:`Store`: matches kept as logs, one row per entry, loaded from snapshots.

Every rule lives here and the backends only move rows, so memory, SQLite and PostgreSQL
behave the same: ``play`` and ``append`` re-decide what they write, ``load`` re-decides the
tail after the newest usable snapshot, and ``entries_for`` redacts for the viewer.
"""

from __future__ import annotations

import json
import math
import secrets
import threading
from collections import OrderedDict
from typing import Any, Callable, Iterable, Sequence

import cardkit
from cardkit.core.config import resolve_config
from cardkit.core.game import Game
from cardkit.core.log import GameLog, LogEntry
from cardkit.core.rules import CHANCE, Rules
from cardkit.errors import (
    CardkitError,
    ConcurrencyError,
    ConfigError,
    LogError,
    ReplayMismatchError,
    SeatError,
)
from cardkit.games import get_rules
from cardkit.serde import config_to_json, dumps_state, loads_state
from cardkit.store.backend import Backend, Session
from cardkit.store.chain import (
    chain_rows,
    check_run,
    header_hash,
    row_header_hash,
    seal_snapshot,
    snapshot_ok,
)
from cardkit.store.errors import BrokenMatchError, MatchIdError, StoreError, UnknownMatchError
from cardkit.store.ids import check_match_id
from cardkit.store.records import (
    Append,
    EntryRow,
    MatchCheck,
    MatchInfo,
    MatchRow,
    SeatEntry,
    SnapshotRow,
    entry_to_row,
    row_to_entry,
)

__all__ = ["Store", "DEFAULT_SNAPSHOT_EVERY", "DEFAULT_CACHE_SIZE"]

_CHAIN_MEMORY = 65_536
"""Matches whose hash chain a store remembers having checked (see ``Store._chains``)."""

AnyRules = Rules[Any, Any, Any, Any]

DEFAULT_SNAPSHOT_EVERY = 64
"""Entries between two snapshots: ``load`` re-decides at most this many."""

DEFAULT_CACHE_SIZE = 256
"""Games a store keeps in memory so that a move on a match it has just seen re-decides nothing."""


def _check_match_id(match_id: object) -> str:
    # One rule for every backend and every method (see cardkit.store.ids).
    return check_match_id(match_id)


def _new_match_id(match_id: object) -> str:
    return secrets.token_hex(8) if match_id is None else check_match_id(match_id)


def _entries_since(game: Game[Any, Any], length: int) -> list[LogEntry]:
    """The entries of ``game`` with ``seq >= length``, oldest first, in time proportional to
    them (``game.log`` would build the whole history)."""
    return game._entries_after(length - 1)


def _check_seq(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < -1:
        raise StoreError(f"{name} must be an integer >= -1 (the seq of an entry), not {value!r}")
    return value


class Store:
    """Matches kept durably as logs. Open one with :func:`cardkit.store.open`.

    Use it as a context manager, or call :meth:`close`. A store may be shared by the
    threads of a process; several processes may open the same database.
    """

    def __init__(
        self,
        backend: Backend,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        """Internal: use :func:`cardkit.store.open`."""
        for name, value, least in (("snapshot_every", snapshot_every, 1), ("cache_size", cache_size, 0)):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ConfigError(f"{name} must be an integer >= {least}, not {value!r}")
        self._backend = backend
        self.snapshot_every = snapshot_every
        self.cache_size = cache_size
        self._library = cardkit.__version__
        # match id -> (nonce, length, game, chance entries so far, hash of the newest entry):
        # games this process loaded or wrote, reused only while the stored match is still
        # exactly that one.
        self._cache: OrderedDict[str, tuple[str, int, Game[Any, Any], int, str]] = OrderedDict()
        self._cache_lock = threading.Lock()
        # match id -> (nonce, length, hash of entry length - 1): the rows this store has
        # hashed from entry 0 (or written), so a later load from a snapshot need hash only
        # the rows after them, not the whole match again. Small, so kept even when
        # cache_size is 0; forgetting one only costs hashing that match's rows once more.
        self._chains: OrderedDict[str, tuple[str, int, str]] = OrderedDict()

    # ----------------------------------------------------------------- lifecycle

    def close(self) -> None:
        """Release the database; the store cannot be used afterwards."""
        self._backend.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- writing

    def create(self, game: Game[Any, Any], match_id: str | None = None) -> str:
        """Store ``game`` (its config, seed, rules version and every entry so far); return its id.

        ``match_id`` defaults to 16 random hex digits from :mod:`secrets`; pass one to choose
        it (a non-empty string of at most 200 characters). :class:`MatchExistsError` if taken.
        """
        match_id = _new_match_id(match_id)
        if not isinstance(game, Game):
            raise ConfigError(f"create takes a cardkit Game, not {type(game).__name__}")
        rules = self._registered(game.rules)
        log = game.log
        if log.entries and log.entries[0].seq != 0:
            raise LogError(
                "this game was resumed from a state without its history and holds only the end "
                "of its log; store the whole log instead"
            )
        header = header_hash(rules.name, rules.rules_version, log.config, game.seed, game.auto_chance)
        rows = chain_rows(header, [entry_to_row(e) for e in log.entries])
        head = rows[-1].hash if rows else header
        row = MatchRow(
            match_id=match_id,
            ordinal=0,
            game=rules.name,
            rules_version=rules.rules_version,
            players=game.players,
            config=json.dumps(config_to_json(log.config), separators=(",", ":"), ensure_ascii=False),
            seed=game.seed,
            auto_chance=game.auto_chance,
            length=len(log.entries),
            is_over=game.is_over,
            to_act=game.to_act,
            nonce=secrets.token_hex(8),
            header_hash=header,
            head_hash=head,
        )
        snapshots = [
            (seal_snapshot(snap, rows[snap.seq - 1].hash), state)
            for snap, state in self._snapshots(rules, rules.initial_state(game.config), 0, 0, log.entries)
        ]
        with self._backend.write() as s:
            s.insert_match(row)
            s.insert_entries(match_id, rows)
            s.put_snapshots(match_id, [snap for snap, _ in snapshots])
        self._forget(match_id)
        self._chained(match_id, row.nonce, row.length, head)
        if self.cache_size:
            # Keep the game as load would give it (from its newest snapshot), so the host's
            # first move on the match it just created does not load it back.
            usable = [(snap, state) for snap, state in snapshots if snap.seq < row.length]
            if usable:
                snap, state = usable[-1]
                loaded = Game.resume(
                    rules, game.config, game.seed, game.auto_chance, log.entries[snap.seq :],
                    state=state, chances=snap.chances,
                    history=self._history(match_id, row.nonce, snap.seq, snap.entry_hash),
                )  # fmt: skip
            else:
                loaded = Game.resume(rules, game.config, game.seed, game.auto_chance, log.entries)
            chances = sum(1 for e in log.entries if e.actor == CHANCE)
            self._keep(match_id, row.nonce, row.length, loaded, chances, head)
        return match_id

    def import_log(self, log: GameLog, match_id: str | None = None) -> str:
        """Replay ``log`` (verifying it) and store the game; return its id (see :meth:`create`)."""
        if not isinstance(log, GameLog):
            raise LogError(f"import_log takes a GameLog, not {type(log).__name__}")
        return self.create(cardkit.replay(log), match_id)

    def play(
        self,
        match_id: str,
        action: Any,
        seat: int | None = None,
        expected_seq: int | None = None,
    ) -> Game[Any, Any]:
        """Load the match, play ``action`` and append the new entries, in one transaction.

        ``action`` is an action object or its text notation (``"play 8H S"``). ``seat`` and
        the errors are those of :meth:`Game.play`: an illegal move writes nothing.
        ``expected_seq`` is the seq of the newest entry the caller has seen; if the match has
        moved on since, :class:`ConcurrencyError` and nothing is written. Without it the
        action applies to the newest state (concurrent writers of a match take turns).
        Returns the game after the action (loaded from a snapshot, as :meth:`load`).
        """
        match_id = _check_match_id(match_id)
        if expected_seq is not None:
            _check_seq(expected_seq, "expected_seq")
        def decide(game: Game[Any, Any]) -> Game[Any, Any]:
            move = game.rules.parse_action(action) if isinstance(action, str) else action
            return game.play(move, seat)

        played = self._move_cached(match_id, expected_seq, decide)
        if played is not None:
            return played
        with self._backend.write() as s:
            row, rules = self._row(s, match_id, lock=True)
            self._check_expected(row, expected_seq)
            game, chances, head = self._load(s, row, rules, writing=True)
            if isinstance(action, str):
                action = rules.parse_action(action)
            new = game.play(action, seat)
            entries = _entries_since(new, row.length)
            new, length, chances, head = self._write(s, row, rules, game.state, chances, entries, new, head)
        self._chained(match_id, row.nonce, length, head)  # committed now
        self._remember(row, length, new, chances, head)
        return new

    def _move_cached(
        self,
        match_id: str,
        expected_seq: int | None,
        decide: Callable[[Game[Any, Any]], Game[Any, Any]],
    ) -> Game[Any, Any] | None:
        """A move (``play`` or ``append``) decided on the cached game and written only if
        the stored match is still that game (one short transaction, no read first); ``None``
        when there is no such game, it refuses the move, or the match moved on: then the
        locked path decides against what is stored (and words any error from it)."""
        with self._cache_lock:
            hit = self._cache.get(match_id)
        if hit is None:
            return None
        nonce, length, game, chances, head = hit
        if expected_seq is not None and expected_seq != length - 1:
            return None
        rules = game.rules
        try:
            if get_rules(rules.name) is not rules:
                return None
            new = decide(game)
        except CardkitError:
            return None
        entries = _entries_since(new, length)
        if not entries:
            return None
        rows, snapshots, new, new_length, chances, head = self._prepare(
            match_id, nonce, rules, length, game.state, chances, entries, new, head
        )
        append = Append(
            match_id=match_id,
            nonce=nonce,
            length=length,
            entries=rows,
            snapshots=snapshots,
            new_length=new_length,
            is_over=new.is_over,
            to_act=new.to_act,
            head_hash=head,
        )
        if not self._backend.advance(append):
            return None
        self._keep(match_id, nonce, new_length, new, chances, head)
        self._chained(match_id, nonce, new_length, head)
        return new

    def append(self, match_id: str, entries: Iterable[LogEntry], expected_seq: int) -> Game[Any, Any]:
        """Append log entries made elsewhere, after the entry ``expected_seq``; return the game.

        The entries must follow on with no gap and be exactly what the rules decide (chance
        entries of an ``auto_chance`` match exactly what its seed gives), else
        :class:`ReplayMismatchError` or :class:`IllegalActionError` and nothing is written.
        :class:`ConcurrencyError` if the match's newest entry is not ``expected_seq``.
        """
        match_id = _check_match_id(match_id)
        _check_seq(expected_seq, "expected_seq")
        entries = list(entries)
        if not all(isinstance(e, LogEntry) for e in entries):
            raise LogError("append takes LogEntry values")
        appended = self._move_cached(match_id, expected_seq, lambda game: self._verify(game, entries))
        if appended is not None:
            return appended
        with self._backend.write() as s:
            row, rules = self._row(s, match_id, lock=True)
            self._check_expected(row, expected_seq)
            game, chances, head = self._load(s, row, rules, writing=True)
            new = self._verify(game, entries)
            new, length, chances, head = self._write(s, row, rules, game.state, chances, entries, new, head)
        self._chained(match_id, row.nonce, length, head)  # committed now
        self._remember(row, length, new, chances, head)
        return new

    def delete(self, match_id: str) -> None:
        """Remove a match and everything stored with it; :class:`UnknownMatchError` if absent."""
        match_id = _check_match_id(match_id)
        with self._backend.write() as s:
            if not s.delete(match_id):
                raise UnknownMatchError(f"no match {match_id!r} in this store")
        self._forget(match_id)
        with self._cache_lock:
            self._chains.pop(match_id, None)

    # ----------------------------------------------------------------- reading

    def load(self, match_id: str) -> Game[Any, Any]:
        """The match as a :class:`Game`: its newest usable snapshot plus the entries after it,
        each re-decided by the rules (chance entries checked against the seed), after the
        match's hash chain is checked (:class:`BrokenMatchError` naming the seq if not).

        The game's ``log``, ``events`` and ``undo`` reach the whole match: the entries
        before the snapshot are fetched from this store the first time they are needed
        (so the store must still be open then).
        """
        match_id = _check_match_id(match_id)
        with self._backend.read() as s:
            row, rules = self._row(s, match_id)
            game, _, _ = self._load(s, row, rules, writing=False)
        return game

    def follow(self, match_id: str, game: Game[Any, Any]) -> Game[Any, Any]:
        """``game`` (this match as :meth:`load` or :meth:`play` gave it, or played on from
        such a game) brought to the newest stored entry: the rows after it are read in one
        short read, checked (their hashes, and their link to the newest entry this store has
        checked when it has checked up to ``game``), and re-decided onto ``game``, so what
        ``game`` holds in memory is kept. A process that keeps a match in memory follows
        other processes' moves this way at the cost of the new entries, not of a load.

        :class:`ReplayMismatchError` (or :class:`LogError`) if the stored entries do not
        continue ``game``: :meth:`load` the match again then.
        """
        match_id = _check_match_id(match_id)
        last = game.last_entry
        after = -1 if last is None else last.seq
        with self._backend.read() as s:
            row, rules = self._row(s, match_id)
            if row.length - 1 <= after:
                if row.length - 1 < after:
                    raise ReplayMismatchError(f"match {match_id!r} has {row.length} entries, fewer than the game")
                return game
            rows = s.entries(match_id, after)
        if rules is not game.rules:
            raise ReplayMismatchError(f"match {match_id!r} is not played by that game's rules")
        known = self._known(row)
        linked = known is not None and known[0] == after + 1
        head = check_run(match_id, rows, after + 1, known[1] if linked and known is not None else None)
        self._check_length(row, rows, after + 1)
        self._check_head(row, head if head is not None else "")
        new = self._verify(game, [row_to_entry(rules, match_id, r) for r in rows])
        if linked:
            self._chained(match_id, row.nonce, row.length, row.head_hash)
            with self._cache_lock:
                hit = self._cache.get(match_id)
            if hit is not None and hit[0] == row.nonce and hit[1] == after + 1:
                # The next move of this process is then one short write again, not a load.
                chances = hit[3] + sum(1 for r in rows if r.actor == CHANCE)
                self._keep(match_id, row.nonce, row.length, new, chances, row.head_hash)
        return new

    def log(self, match_id: str) -> GameLog:
        """The whole log of the match, seed included (host side, like ``game.log``)."""
        match_id = _check_match_id(match_id)
        with self._backend.read() as s:
            row, rules = self._row(s, match_id)
            return self._log(s, row, rules)

    def verify(self, match_ids: Iterable[str] | None = None) -> tuple[MatchCheck, ...]:
        """Re-check whole matches (every match, in creation order, when ``match_ids`` is
        None): each one's hash chain from its header to its newest entry, every snapshot's
        hash and the entry it is bound to, and a replay from the first entry that re-decides
        every entry (chance entries against the seed) and compares each snapshot of this
        library with the state replayed there. One :class:`MatchCheck` per match; a broken
        match is reported, not raised. Costs the whole of each match: this is for an operator
        (``cardkit store URL verify``), not for every request."""
        if match_ids is None:
            with self._backend.read() as s:
                ids: list[Any] = [r.match_id for r in s.matches(None, None, None)]
        else:
            ids = list(match_ids)
        return tuple(self._verify_match(m) for m in ids)

    def _verify_match(self, match_id: Any) -> MatchCheck:
        entries = 0
        try:
            match_id = _check_match_id(match_id)
            with self._backend.read() as s:
                row, rules = self._row(s, match_id)
                entries = row.length
                rows = self._chain_rows(s, row)
                snaps = s.snapshots(match_id)
                log = self._log(s, row, rules)
            try:
                game = Game.from_log(rules, log)
            except LogError as exc:
                if exc.seq is None or not 0 <= exc.seq < len(log.entries):
                    raise
                actor = log.entries[exc.seq].actor
                kind = "chance entry" if actor == CHANCE else f"entry of seat {actor}"
                # The replay's own message may quote the entry (a deal, for chance): not here.
                raise LogError(
                    f"match {match_id!r} does not replay at entry {exc.seq} (a {kind}): the rules "
                    f"or its seed now decide it differently ({type(exc).__name__})",
                    seq=exc.seq,
                ) from None
            self._verify_snapshots(match_id, rules, game, rows, snaps)
            if (row.is_over, row.to_act) != (game.is_over, game.to_act):
                return MatchCheck(
                    match_id, entries, f"match {match_id!r}: its row says who is to act otherwise "
                    "than its entries (the match row was edited)", None,
                )  # fmt: skip
        except MatchIdError as exc:
            # an id no match can have: shown escaped (it may hold a surrogate no terminal prints)
            return MatchCheck(ascii(match_id)[:200], 0, str(exc), None)
        except UnknownMatchError as exc:
            return MatchCheck(match_id, 0, str(exc), None)
        except CardkitError as exc:
            return MatchCheck(match_id, entries, str(exc), getattr(exc, "seq", None))
        return MatchCheck(match_id, entries, None, None)

    def _verify_snapshots(
        self,
        match_id: str,
        rules: AnyRules,
        game: Game[Any, Any],
        rows: Sequence[EntryRow],
        snaps: Sequence[SnapshotRow],
    ) -> None:
        """Every snapshot: its own hash, bound to the entry before it, and (one of this
        library and rules version) the very state a replay reaches there."""
        ours: dict[int, SnapshotRow] = {}
        for snap in snaps:
            if not snapshot_ok(snap) or not 0 < snap.seq <= len(rows) or snap.entry_hash != rows[snap.seq - 1].hash:
                raise BrokenMatchError(
                    match_id,
                    snap.seq,
                    f"match {match_id!r} is broken at the snapshot of entry {snap.seq}: it does "
                    "not match its hash or was not taken after the entry before it",
                )
            if snap.rules_version == rules.rules_version and snap.library == self._library:
                ours[snap.seq] = snap
        if not ours:
            return
        state = rules.initial_state(game.config)
        chances = 0
        for entry in game.log.entries:
            for event in entry.events:
                state = rules.evolve(state, event)
            chances += entry.actor == CHANCE
            found = ours.get(entry.seq + 1)
            if found is not None and (found.chances != chances or found.state != dumps_state(rules, state)):
                raise BrokenMatchError(
                    match_id,
                    found.seq,
                    f"match {match_id!r} is broken at the snapshot of entry {found.seq}: its state "
                    "is not the one its entries lead to",
                )

    def info(self, match_id: str) -> MatchInfo:
        """What the match is and where it stands (no seed)."""
        match_id = _check_match_id(match_id)
        with self._backend.read() as s:
            row = s.match(match_id)
        if row is None:
            raise UnknownMatchError(f"no match {match_id!r} in this store")
        return self._info(row)

    def matches(
        self, game: str | None = None, finished: bool | None = None, limit: int | None = None
    ) -> tuple[MatchInfo, ...]:
        """Stored matches in the order they were created, optionally only of one ``game``,
        only finished (``finished=True``) or unfinished ones, and at most ``limit``."""
        if game is not None and not isinstance(game, str):
            raise ConfigError(f"game must be a game name, not {game!r}")
        if finished is not None and not isinstance(finished, bool):
            raise ConfigError(f"finished must be True, False or None, not {finished!r}")
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
            raise ConfigError(f"limit must be a non-negative integer, not {limit!r}")
        with self._backend.read() as s:
            rows = s.matches(game, finished, limit)
        return tuple(self._info(r) for r in rows)

    def entries_for(self, match_id: str, seat: int | None, after: int = -1) -> tuple[SeatEntry, ...]:
        """The entries after seq ``after`` as ``seat`` may see them (``None``: a spectator).

        Chance actions are withheld (``None``) and events redacted, so nothing here tells
        the seed or a card the viewer may not see. Cost: the new entries only.
        """
        match_id = _check_match_id(match_id)
        after = _check_seq(after, "after")
        with self._backend.read() as s:
            row, rules = self._row(s, match_id)
            if seat is not None and (
                not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < row.players
            ):
                raise SeatError(f"seat {seat!r} is out of range 0..{row.players - 1}")
            rows = s.entries(match_id, after)
        # The rows read are checked against their hashes (a row edited behind the store's
        # back is refused, not streamed); where they hang in the whole chain is load's job.
        check_run(match_id, rows, after + 1, None)
        redact = rules.redact
        redact_action = getattr(rules, "redact_action", None)
        out = []
        for r in rows:
            entry = row_to_entry(rules, match_id, r)
            if entry.actor == CHANCE:
                action = None
            elif redact_action is not None:
                action = redact_action(entry.action, seat)
            else:
                action = entry.action
            events = tuple(x for x in (redact(e, seat) for e in entry.events) if x is not None)
            out.append(SeatEntry(entry.seq, entry.actor, action, events))
        return tuple(out)

    def wait(self, match_id: str, after: int, timeout: float) -> int:
        """Block until the match has an entry after seq ``after`` or ``timeout`` seconds pass;
        return its newest seq (still ``<= after`` on a timeout).

        PostgreSQL wakes waiters with LISTEN/NOTIFY; memory wakes them at once; SQLite polls
        (every few milliseconds at first, backing off to 0.1 s).
        """
        match_id = _check_match_id(match_id)
        after = _check_seq(after, "after")
        if (
            not isinstance(timeout, (int, float))
            or isinstance(timeout, bool)
            or not math.isfinite(timeout)
            or timeout < 0
        ):
            raise ConfigError(f"timeout must be a finite number of seconds >= 0, not {timeout!r}")
        newest = self._backend.wait(match_id, after, float(timeout))
        if newest is None:
            raise UnknownMatchError(f"no match {match_id!r} in this store")
        return newest

    # ----------------------------------------------------------------- internals

    def _registered(self, rules: AnyRules) -> AnyRules:
        found = get_rules(rules.name)
        if found is not rules:
            raise ConfigError(
                f"the game {rules.name!r} is not the registered one: register its rules "
                "(cardkit.register) so the store can load it again"
            )
        return found

    def _row(self, s: Session, match_id: str, lock: bool = False) -> tuple[MatchRow, AnyRules]:
        row = s.match(match_id, lock=lock)
        if row is None:
            raise UnknownMatchError(f"no match {match_id!r} in this store")
        try:
            rules = get_rules(row.game)
        except cardkit.UnknownGameError as exc:
            raise LogError(f"match {match_id!r} is a {row.game!r} game, which is not registered") from exc
        return row, rules

    @staticmethod
    def _check_expected(row: MatchRow, expected_seq: int | None) -> None:
        if expected_seq is not None and expected_seq != row.length - 1:
            raise ConcurrencyError(
                f"match {row.match_id!r} is at seq {row.length - 1}, not {expected_seq}: "
                "another move came first (load it again)"
            )

    def _config(self, row: MatchRow, rules: AnyRules) -> Any:
        try:
            options = json.loads(row.config)
            if not isinstance(options, dict):
                raise LogError("the config is not a JSON object")
            options.pop("players", None)
            return resolve_config(rules, row.players, options)
        except (ValueError, TypeError, cardkit.CardkitError) as exc:
            raise LogError(f"match {row.match_id!r}: its stored config is unusable ({exc})") from exc

    def _load(
        self, s: Session, row: MatchRow, rules: AnyRules, writing: bool
    ) -> tuple[Game[Any, Any], int, str]:
        """The game at the end of the stored log, how many chance entries it has had and the
        hash of its newest entry, after checking the match's hash chain (see
        :mod:`cardkit.store.chain`): the header, the snapshot used (its own hash, and the
        entry it stands for), every row read and the newest entry the match row records.

        Rows before the snapshot are hashed only once per store (``_chains`` remembers how
        far it has checked), so a load costs the rows after the snapshot plus the rows no
        load of this store has hashed yet."""
        if row.rules_version != rules.rules_version:
            if writing:
                raise LogError(
                    f"match {row.match_id!r} was stored with {row.game} rules_version "
                    f"{row.rules_version}; this library plays version {rules.rules_version}. "
                    "Export its log, upcast it and import it as a new match to play on"
                )
            log = self._log(s, row, rules)
            game = Game.from_log(rules, log)
            return game, -1, row.head_hash
        hit = self._cached(row)
        if hit is not None:
            return hit
        match_id = row.match_id
        header = self._check_header(row)
        config = self._config(row, rules)
        snap = s.snapshot(match_id, row.length, rules.rules_version, self._library)
        state: Any = None
        chances = 0
        base = 0
        if snap is not None:
            if not snapshot_ok(snap):
                raise BrokenMatchError(
                    match_id,
                    snap.seq,
                    f"match {match_id!r} is broken at the snapshot of entry {snap.seq}: it does "
                    "not match its hash (edited or damaged)",
                )
            try:
                state = loads_state(rules, snap.state)
                chances = snap.chances
                base = snap.seq
            except LogError:
                # A snapshot is a cache of what the entries say: one that no longer reads
                # (say, a state class changed within a rules_version) is ignored.
                state = None
        known = self._known(row)
        prev: str | None
        if known is None:
            start, prev = 0, header
        elif known[0] < base:
            start, prev = known[0], known[1]
        else:
            start = base
            prev = header if base == 0 else (known[1] if known[0] == base else None)
        rows = s.entries(match_id, start - 1)
        last = check_run(match_id, rows, start, prev)
        self._check_length(row, rows, start)
        if known is not None and start < known[0] and rows[known[0] - 1 - start].hash != known[1]:
            raise BrokenMatchError(
                match_id,
                known[0] - 1,
                f"match {match_id!r} is broken at entry {known[0] - 1}: it is no longer the entry "
                "this store checked before (rows rewritten)",
            )
        self._check_head(row, last if rows and last is not None else header)
        if base > 0 and snap is not None:
            before = rows[base - 1 - start].hash if base - 1 >= start else rows[0].prev_hash
            if snap.entry_hash != before:
                raise BrokenMatchError(
                    match_id,
                    base,
                    f"match {match_id!r} is broken at the snapshot of entry {base}: it was not "
                    f"taken after entry {base - 1} as the hash chain has it",
                )
        entries = [row_to_entry(rules, match_id, r) for r in rows[base - start :]]
        history = self._history(match_id, row.nonce, base, snap.entry_hash) if snap is not None and base else None
        try:
            game = Game.resume(
                rules, config, row.seed, row.auto_chance, entries, state=state, chances=chances,
                history=history,
            )  # fmt: skip
        except LogError as exc:
            raise LogError(f"match {match_id!r}: {exc}", seq=exc.seq) from exc
        last_seq = game.last_entry.seq if game.last_entry is not None else -1
        if last_seq != row.length - 1:
            raise LogError(
                f"match {match_id!r}: its stored log ends at a chance node, which a store never writes"
            )
        chances += sum(1 for e in entries if e.actor == CHANCE)
        self._chained(match_id, row.nonce, row.length, row.head_hash)
        self._remember(row, row.length, game, chances, row.head_hash)
        return game, chances, row.head_hash

    def _check_header(self, row: MatchRow) -> str:
        """The match's header hash, checked against what its row holds now."""
        header = row_header_hash(row)
        if header is None or header != row.header_hash:
            raise BrokenMatchError(
                row.match_id,
                None,
                f"match {row.match_id!r} is broken: its header (game, rules version, config, "
                "seed) does not match its hash (edited or damaged)",
            )
        return header

    @staticmethod
    def _check_length(row: MatchRow, rows: Sequence[EntryRow], start: int) -> None:
        """Rows ``start..`` (already checked to follow on) must end at the match's length."""
        if len(rows) < row.length - start:
            missing = start + len(rows)
            raise BrokenMatchError(
                row.match_id,
                missing,
                f"match {row.match_id!r} is broken at entry {missing}: the row is missing "
                f"({row.length} entries recorded)",
            )
        if len(rows) > row.length - start:
            extra = row.length
            raise BrokenMatchError(
                row.match_id,
                extra,
                f"match {row.match_id!r} is broken at entry {extra}: a row is stored beyond the "
                f"{row.length} entries the match records",
            )

    @staticmethod
    def _check_head(row: MatchRow, last: str) -> None:
        if last != row.head_hash:
            seq = row.length - 1
            raise BrokenMatchError(
                row.match_id,
                seq if seq >= 0 else None,
                f"match {row.match_id!r} is broken at entry {seq}: it is not the newest entry "
                "the match row records (a row removed or replaced at the end)",
            )

    def _chain_rows(self, s: Session, row: MatchRow) -> list[EntryRow]:
        """Every entry row of the match, its whole hash chain checked (header to head)."""
        header = self._check_header(row)
        rows = s.entries(row.match_id, -1)
        last = check_run(row.match_id, rows, 0, header)
        self._check_length(row, rows, 0)
        self._check_head(row, last if last is not None else header)
        return rows

    def _log(self, s: Session, row: MatchRow, rules: AnyRules) -> GameLog:
        rows = self._chain_rows(s, row)
        entries = tuple(row_to_entry(rules, row.match_id, r) for r in rows)
        try:
            config = json.loads(row.config)
        except ValueError as exc:
            raise LogError(f"match {row.match_id!r}: its stored config is not JSON") from exc
        return GameLog(
            game=row.game,
            rules_version=row.rules_version,
            config=config,
            seed=row.seed,
            entries=entries,
            auto_chance=row.auto_chance,
        )

    def _history(self, match_id: str, nonce: str, base: int, expected: str) -> Callable[[], list[LogEntry]]:
        """What a game resumed at entry ``base`` calls for the entries before it: read from
        this store, their chain checked from the header to ``expected``, the hash the
        snapshot was bound to (so they are the very entries the game's state came from)."""

        def load() -> list[LogEntry]:
            with self._backend.read() as s:
                row, rules = self._row(s, match_id)
                if row.nonce != nonce:
                    raise StoreError(
                        f"match {match_id!r} was deleted and created again since this game was "
                        "loaded: its older entries are gone"
                    )
                header = self._check_header(row)
                rows = s.entries(match_id, -1, limit=base)
                last = check_run(match_id, rows, 0, header)
                if len(rows) < base:
                    raise BrokenMatchError(
                        match_id, len(rows), f"match {match_id!r} is broken at entry {len(rows)}: the row is missing"
                    )
                if last != expected:
                    raise BrokenMatchError(
                        match_id,
                        base - 1,
                        f"match {match_id!r} is broken at entry {base - 1}: the entries before the "
                        f"snapshot of entry {base} are not the ones it was taken after",
                    )
                return [row_to_entry(rules, match_id, r) for r in rows]

        return load

    def _verify(self, game: Game[Any, Any], entries: Sequence[LogEntry]) -> Game[Any, Any]:
        """``game`` after ``entries``, each checked to be exactly what the rules produce."""
        length = game.last_entry.seq + 1 if game.last_entry is not None else 0
        i = 0
        while i < len(entries):
            entry = entries[i]
            if entry.seq != length:
                raise LogError(f"entry {i} of the batch has seq {entry.seq}; the next is {length}")
            if entry.actor == CHANCE:
                if game.auto_chance:
                    raise ReplayMismatchError(
                        f"entry {entry.seq}: this match draws chance from its seed, so a chance "
                        "entry can only follow the seat action that caused it"
                    )
                new = game.play(entry.action)
            else:
                new = game.play(entry.action, entry.actor)
            made = _entries_since(new, length)
            given = [
                LogEntry(e.seq, e.actor, e.action, tuple(e.events)) for e in entries[i : i + len(made)]
            ]
            if given != made:
                raise ReplayMismatchError(
                    f"entry {entry.seq}: the batch differs from what the rules decide "
                    f"({len(made)} entries expected from this action)"
                )
            game, i, length = new, i + len(made), length + len(made)
        return game

    def _snapshots(
        self, rules: AnyRules, state: Any, length: int, chances: int, entries: Sequence[LogEntry]
    ) -> list[tuple[SnapshotRow, Any]]:
        """Snapshots (with their states) at every multiple of ``snapshot_every`` that ``entries`` cross.

        ``state`` is the state after the first ``length`` entries, ``chances`` of them chance.
        """
        k = self.snapshot_every
        out: list[tuple[SnapshotRow, Any]] = []
        if not entries or (entries[-1].seq + 1) // k == length // k:
            return out  # no multiple of k crossed: nothing to evolve
        evolve = rules.evolve
        for entry in entries:
            for event in entry.events:
                state = evolve(state, event)
            if entry.actor == CHANCE:
                chances += 1
            length = entry.seq + 1
            if length % k == 0:
                snap = SnapshotRow(
                    length, rules.rules_version, self._library, chances, dumps_state(rules, state)
                )
                out.append((snap, state))
        return out

    def _prepare(
        self,
        match_id: str,
        nonce: str,
        rules: AnyRules,
        length: int,
        state: Any,
        chances: int,
        entries: Sequence[LogEntry],
        new: Game[Any, Any],
        head: str,
    ) -> tuple[tuple[EntryRow, ...], tuple[SnapshotRow, ...], Game[Any, Any], int, int, str]:
        """The rows that append ``entries`` (which take the game from ``state``, after
        ``length`` entries, ``chances`` of them chance, the newest hashed ``head``, to
        ``new``), and the game as :meth:`load` would give it after they are written, its
        length, chance count and newest hash."""
        rows = tuple(chain_rows(head, [entry_to_row(e) for e in entries]))
        hashes = {r.seq: r.hash for r in rows}
        hashes[length - 1] = head
        new_length = entries[-1].seq + 1
        snapshots = [
            (seal_snapshot(snap, hashes[snap.seq - 1]), st)
            for snap, st in self._snapshots(rules, state, length, chances, entries)
        ]
        chances += sum(1 for e in entries if e.actor == CHANCE)
        if snapshots:
            # Keep the part of the game we hand out that is held in memory short (moves walk
            # it): restart it at the new snapshot, or just before the last entry when the
            # batch ends on the snapshot (a resumed game needs one entry after its state);
            # the entries before come from the store if anything reaches back that far.
            snap, st = snapshots[-1]
            if snap.seq < new_length:
                tail = [e for e in entries if e.seq >= snap.seq]
                base, base_chances = st, snap.chances
            else:
                tail = [entries[-1]]
                base = state
                base_chances = chances - (1 if entries[-1].actor == CHANCE else 0)
                for entry in entries[:-1]:
                    for event in entry.events:
                        base = rules.evolve(base, event)
            first = tail[0].seq
            new = Game.resume(
                rules, new.config, new.seed, new.auto_chance, tail, state=base, chances=base_chances,
                history=self._history(match_id, nonce, first, hashes[first - 1]),
            )  # fmt: skip
        return rows, tuple(snap for snap, _ in snapshots), new, new_length, chances, rows[-1].hash

    def _write(
        self,
        s: Session,
        row: MatchRow,
        rules: AnyRules,
        state: Any,
        chances: int,
        entries: Sequence[LogEntry],
        new: Game[Any, Any],
        head: str,
    ) -> tuple[Game[Any, Any], int, int, str]:
        """Write ``entries`` (which take the game from ``state`` to ``new``); return the game
        as :meth:`load` would give it after the commit, its length, chance count and newest hash."""
        if not entries:
            return new, row.length, chances, head
        rows, snapshots, new, length, chances, head = self._prepare(
            row.match_id, row.nonce, rules, row.length, state, chances, entries, new, head
        )
        s.insert_entries(row.match_id, rows)
        s.put_snapshots(row.match_id, snapshots)
        s.update_match(row.match_id, length, new.is_over, new.to_act, head)
        return new, length, chances, head

    def _cached(self, row: MatchRow) -> tuple[Game[Any, Any], int, str] | None:
        with self._cache_lock:
            hit = self._cache.get(row.match_id)
            if hit is None or hit[0] != row.nonce or hit[1] != row.length or hit[4] != row.head_hash:
                return None
            self._cache.move_to_end(row.match_id)
            return hit[2], hit[3], hit[4]

    def _remember(self, row: MatchRow, length: int, game: Game[Any, Any], chances: int, head: str) -> None:
        self._keep(row.match_id, row.nonce, length, game, chances, head)

    def _keep(
        self, match_id: str, nonce: str, length: int, game: Game[Any, Any], chances: int, head: str
    ) -> None:
        # Only with what is committed: a later writer may reach the same length otherwise.
        if self.cache_size == 0:
            return
        with self._cache_lock:
            self._cache[match_id] = (nonce, length, game, chances, head)
            self._cache.move_to_end(match_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _known(self, row: MatchRow) -> tuple[int, str] | None:
        """How far this store has checked the match's chain: (entries, hash of the last),
        or None (another match under that id, or a match that has lost entries since)."""
        with self._cache_lock:
            known = self._chains.get(row.match_id)
        if known is None or known[0] != row.nonce or known[1] > row.length:
            return None
        return known[1], known[2]

    def _chained(self, match_id: str, nonce: str, length: int, head: str) -> None:
        """Remember that entries ``0..length - 1`` of the match are checked, ending in ``head``."""
        with self._cache_lock:
            self._chains[match_id] = (nonce, length, head)
            self._chains.move_to_end(match_id)
            while len(self._chains) > _CHAIN_MEMORY:
                self._chains.popitem(last=False)

    def _forget(self, match_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(match_id, None)

    @staticmethod
    def _info(row: MatchRow) -> MatchInfo:
        try:
            config = json.loads(row.config)
        except ValueError:
            config = {}
        return MatchInfo(
            match_id=row.match_id,
            game=row.game,
            players=row.players,
            rules_version=row.rules_version,
            config=config if isinstance(config, dict) else {},
            auto_chance=row.auto_chance,
            entries=row.length,
            is_over=row.is_over,
            to_act=row.to_act,
        )
