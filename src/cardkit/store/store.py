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
from cardkit.serde import dumps_state, loads_state, to_json
from cardkit.store.backend import Backend, Session
from cardkit.store.errors import StoreError, UnknownMatchError
from cardkit.store.ids import check_match_id
from cardkit.store.records import (
    Append,
    EntryRow,
    MatchInfo,
    MatchRow,
    SeatEntry,
    SnapshotRow,
    entry_to_row,
    row_to_entry,
)

__all__ = ["Store", "DEFAULT_SNAPSHOT_EVERY", "DEFAULT_CACHE_SIZE"]

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
        # match id -> (nonce, length, game, chance entries so far): games this process
        # loaded or wrote, reused only while the stored match is still exactly that one.
        self._cache: OrderedDict[str, tuple[str, int, Game[Any, Any], int]] = OrderedDict()
        self._cache_lock = threading.Lock()

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
                "this game was loaded from a snapshot and holds only the end of its log; "
                "store the whole log instead (import_log with the store's log(match_id))"
            )
        row = MatchRow(
            match_id=match_id,
            ordinal=0,
            game=rules.name,
            rules_version=rules.rules_version,
            players=game.players,
            config=json.dumps(to_json(log.config), sort_keys=True),
            seed=game.seed,
            auto_chance=game.auto_chance,
            length=len(log.entries),
            is_over=game.is_over,
            to_act=game.to_act,
            nonce=secrets.token_hex(8),
        )
        snapshots = self._snapshots(rules, rules.initial_state(game.config), 0, 0, log.entries)
        with self._backend.write() as s:
            s.insert_match(row)
            s.insert_entries(match_id, [entry_to_row(e) for e in log.entries])
            s.put_snapshots(match_id, [snap for snap, _ in snapshots])
        self._forget(match_id)
        if self.cache_size:
            # Keep the game as load would give it (from its newest snapshot), so the host's
            # first move on the match it just created does not load it back.
            usable = [(snap, state) for snap, state in snapshots if snap.seq < row.length]
            if usable:
                snap, state = usable[-1]
                tail, base, base_chances = log.entries[snap.seq :], state, snap.chances
            else:
                tail, base, base_chances = log.entries, None, 0
            loaded = Game.resume(
                rules, game.config, game.seed, game.auto_chance, tail, state=base, chances=base_chances
            )
            chances = sum(1 for e in log.entries if e.actor == CHANCE)
            self._keep(match_id, row.nonce, row.length, loaded, chances)
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
        Returns the game after the action (its history starts at a snapshot, as :meth:`load`).
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
            game, chances = self._load(s, row, rules, writing=True)
            if isinstance(action, str):
                action = rules.parse_action(action)
            new = game.play(action, seat)
            entries = _entries_since(new, row.length)
            new, length, chances = self._write(s, row, rules, game.state, chances, entries, new)
        self._remember(row, length, new, chances)
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
        nonce, length, game, chances = hit
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
        rows, snapshots, new, new_length, chances = self._prepare(
            rules, length, game.state, chances, entries, new
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
        )
        if not self._backend.advance(append):
            return None
        self._keep(match_id, nonce, new_length, new, chances)
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
            game, chances = self._load(s, row, rules, writing=True)
            new = self._verify(game, entries)
            new, length, chances = self._write(s, row, rules, game.state, chances, entries, new)
        self._remember(row, length, new, chances)
        return new

    def delete(self, match_id: str) -> None:
        """Remove a match and everything stored with it; :class:`UnknownMatchError` if absent."""
        match_id = _check_match_id(match_id)
        with self._backend.write() as s:
            if not s.delete(match_id):
                raise UnknownMatchError(f"no match {match_id!r} in this store")
        self._forget(match_id)

    # ----------------------------------------------------------------- reading

    def load(self, match_id: str) -> Game[Any, Any]:
        """The match as a :class:`Game`: its newest usable snapshot plus the entries after it,
        each re-decided by the rules (chance entries checked against the seed).

        The game's history (``log``, ``events``, ``undo``) starts at that snapshot, at most
        ``snapshot_every`` entries back; :meth:`log` gives the whole log.
        """
        match_id = _check_match_id(match_id)
        with self._backend.read() as s:
            row, rules = self._row(s, match_id)
            game, _ = self._load(s, row, rules, writing=False)
        return game

    def log(self, match_id: str) -> GameLog:
        """The whole log of the match, seed included (host side, like ``game.log``)."""
        match_id = _check_match_id(match_id)
        with self._backend.read() as s:
            row, rules = self._row(s, match_id)
            return self._log(s, row, rules)

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

    def _load(self, s: Session, row: MatchRow, rules: AnyRules, writing: bool) -> tuple[Game[Any, Any], int]:
        """The game at the end of the stored log and how many chance entries it has had."""
        if row.rules_version != rules.rules_version:
            if writing:
                raise LogError(
                    f"match {row.match_id!r} was stored with {row.game} rules_version "
                    f"{row.rules_version}; this library plays version {rules.rules_version}. "
                    "Export its log, upcast it and import it as a new match to play on"
                )
            game = Game.from_log(rules, self._log(s, row, rules))
            return game, -1
        hit = self._cached(row)
        if hit is not None:
            return hit
        config = self._config(row, rules)
        snap = s.snapshot(row.match_id, row.length, rules.rules_version, self._library)
        state: Any = None
        chances = 0
        after = -1
        if snap is not None:
            try:
                state = loads_state(rules, snap.state)
                chances = snap.chances
                after = snap.seq - 1
            except LogError:
                # A snapshot is a cache of what the entries say: one that no longer reads
                # (say, a state class changed within a rules_version) is ignored.
                state = None
        entries = [row_to_entry(rules, row.match_id, r) for r in s.entries(row.match_id, after)]
        if len(entries) != row.length - after - 1 or (entries and entries[-1].seq != row.length - 1):
            raise LogError(
                f"match {row.match_id!r}: {row.length} entries recorded but rows "
                f"{after + 1}..{row.length - 1} are not all there"
            )
        try:
            game = Game.resume(
                rules, config, row.seed, row.auto_chance, entries, state=state, chances=chances
            )
        except LogError as exc:
            raise LogError(f"match {row.match_id!r}: {exc}") from exc
        last = game.last_entry.seq if game.last_entry is not None else -1
        if last != row.length - 1:
            raise LogError(
                f"match {row.match_id!r}: its stored log ends at a chance node, which a store never writes"
            )
        chances += sum(1 for e in entries if e.actor == CHANCE)
        self._remember(row, row.length, game, chances)
        return game, chances

    def _log(self, s: Session, row: MatchRow, rules: AnyRules) -> GameLog:
        entries = tuple(row_to_entry(rules, row.match_id, r) for r in s.entries(row.match_id, -1))
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
        rules: AnyRules,
        length: int,
        state: Any,
        chances: int,
        entries: Sequence[LogEntry],
        new: Game[Any, Any],
    ) -> tuple[tuple[EntryRow, ...], tuple[SnapshotRow, ...], Game[Any, Any], int, int]:
        """The rows that append ``entries`` (which take the game from ``state``, after
        ``length`` entries, ``chances`` of them chance, to ``new``), and the game as
        :meth:`load` would give it after they are written, its length and chance count."""
        rows = tuple(entry_to_row(e) for e in entries)
        new_length = entries[-1].seq + 1
        snapshots = self._snapshots(rules, state, length, chances, entries)
        chances += sum(1 for e in entries if e.actor == CHANCE)
        if snapshots:
            # Keep the history of the game we hand out short (it is walked on every move):
            # restart it at the new snapshot, or just before the last entry when the batch
            # ends on the snapshot (a resumed game needs one entry after its state).
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
            new = Game.resume(
                rules, new.config, new.seed, new.auto_chance, tail, state=base, chances=base_chances
            )
        return rows, tuple(snap for snap, _ in snapshots), new, new_length, chances

    def _write(
        self,
        s: Session,
        row: MatchRow,
        rules: AnyRules,
        state: Any,
        chances: int,
        entries: Sequence[LogEntry],
        new: Game[Any, Any],
    ) -> tuple[Game[Any, Any], int, int]:
        """Write ``entries`` (which take the game from ``state`` to ``new``); return the game
        as :meth:`load` would give it after the commit, its length and its chance count."""
        if not entries:
            return new, row.length, chances
        rows, snapshots, new, length, chances = self._prepare(
            rules, row.length, state, chances, entries, new
        )
        s.insert_entries(row.match_id, rows)
        s.put_snapshots(row.match_id, snapshots)
        s.update_match(row.match_id, length, new.is_over, new.to_act)
        return new, length, chances

    def _cached(self, row: MatchRow) -> tuple[Game[Any, Any], int] | None:
        with self._cache_lock:
            hit = self._cache.get(row.match_id)
            if hit is None or hit[0] != row.nonce or hit[1] != row.length:
                return None
            self._cache.move_to_end(row.match_id)
            return hit[2], hit[3]

    def _remember(self, row: MatchRow, length: int, game: Game[Any, Any], chances: int) -> None:
        self._keep(row.match_id, row.nonce, length, game, chances)

    def _keep(self, match_id: str, nonce: str, length: int, game: Game[Any, Any], chances: int) -> None:
        # Only with what is committed: a later writer may reach the same length otherwise.
        if self.cache_size == 0:
            return
        with self._cache_lock:
            self._cache[match_id] = (nonce, length, game, chances)
            self._cache.move_to_end(match_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

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
