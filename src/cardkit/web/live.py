"""Live matches: the one in-memory copy of a match that a server process serves.

A :class:`LiveMatch` exists while something in this process uses the match (a socket, or
the task driving its bots). It holds the game as of its newest seq, the seat records and
the access record, and the updates already built for that seq. Everything about a match
happens on the event loop, one step at a time under the match's lock:

* **moves** (a seat's or a bot's) are decided on the live game, written to the store (one
  short transaction), and only then applied to the live game and announced: an update never
  shows a move the store does not hold;
* **updates** are built from the live game, once per seq and audience (a seat, or the
  spectators) and ``after``, and every socket of that audience is sent the same text;
* **the store is read** only on a cold start (the first user of the match in this process)
  and when another process moved (a PostgreSQL notification, a SQLite poll, or a client
  that has seen a newer seq): then the entries it lacks are read and replayed onto the live
  game.

Where a write runs: on SQLite and in memory, on the event loop itself (a commit in WAL mode
with ``synchronous=normal`` writes the WAL without waiting for the disk: tens of
microseconds); on PostgreSQL, in a small pool of writer threads (a commit waits for the
server). See docs/web.md, "The live match".
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
from typing import Any, Callable, TypeVar

import attrs

from cardkit.core.game import Game
from cardkit.errors import CardkitError, ConcurrencyError, LogError, ReplayMismatchError
from cardkit.store import Store
from cardkit.web.access import AccessTable, MatchAccess
from cardkit.web.hub import Hub
from cardkit.web.protocol import ProtocolError
from cardkit.web.seats import SeatRecord, SeatTable

__all__ = ["LiveMatch", "LiveMatches", "MatchUnreadable", "PreparedUpdate", "WRITER_THREADS"]

T = TypeVar("T")

WRITER_THREADS = 4
"""Threads that write moves to a PostgreSQL store (per process; a commit waits for the server)."""


@attrs.frozen
class PreparedUpdate:
    """An update built once for one audience (a seat, or ``None``: spectators) and serialized:
    every socket of that audience at the same point is sent this same ``text``."""

    seq: int
    text: str


class MatchUnreadable(CardkitError):
    """A stored match that cannot be read back (its log no longer replays, or the read
    failed); the cause is chained. Its text names no card: clients are told only that the
    server failed."""


def _seq_of(game: Game[Any, Any]) -> int:
    last = game.last_entry
    return -1 if last is None else last.seq


class LiveMatch:
    """One match as this process serves it (see the module docstring). Only the event loop
    touches it; :class:`LiveMatches` makes and drops it."""

    def __init__(self, match_id: str, game: Game[Any, Any], records: tuple[SeatRecord, ...],
                 access: MatchAccess) -> None:
        self.match_id = match_id
        self.records = records
        self.access = access
        self.bot_seats = tuple(r.seat for r in records if r.bot is not None)
        self.game = game
        self.seq = _seq_of(game)
        self.lock = asyncio.Lock()
        self.users = 0
        # (seat, after) -> the update for self.seq; emptied whenever the game moves on.
        self.updates: dict[tuple[int | None, int], PreparedUpdate] = {}

    def advance(self, game: Game[Any, Any]) -> None:
        """The match is now ``game`` (its moves are in the store)."""
        self.game = game
        self.seq = _seq_of(game)
        self.updates.clear()


class LiveMatches:
    """The live matches of one server process, and the only way moves reach its store.

    ``inline_writes``: write on the event loop (SQLite, memory) rather than in the writer
    threads (PostgreSQL).
    """

    def __init__(self, store: Store, seats: SeatTable, access: AccessTable, hub: Hub, *,
                 inline_writes: bool) -> None:
        self._store = store
        self._seats = seats
        self._access = access
        self._hub = hub
        self._inline = inline_writes
        self._live: dict[str, LiveMatch] = {}
        self._starting: dict[str, asyncio.Future[LiveMatch]] = {}
        self._writer = concurrent.futures.ThreadPoolExecutor(WRITER_THREADS, thread_name_prefix="cardkit-write")

    def __len__(self) -> int:
        return len(self._live)

    def get(self, match_id: str) -> LiveMatch | None:
        """The live match ``match_id`` if this process has it."""
        return self._live.get(match_id)

    # ------------------------------------------------------------------ lifetime

    async def acquire(self, match_id: str) -> LiveMatch:
        """The live match ``match_id``, read from the store if nobody here uses it yet (one
        read however many ask at once). Every successful call is paired with :meth:`release`.

        Raises what the store raises for an unknown match, and :class:`ProtocolError` for a
        match without this host's seat records.
        """
        live = self._live.get(match_id)
        if live is None:
            starting = self._starting.get(match_id)
            if starting is None:
                starting = asyncio.ensure_future(self._in_thread(self._cold_start, match_id))
                self._starting[match_id] = starting
                starting.add_done_callback(lambda f: self._started(match_id, f))
            live = await asyncio.shield(starting)
            live = self._live.setdefault(match_id, live)
        live.users += 1
        return live

    def _started(self, match_id: str, future: asyncio.Future[LiveMatch]) -> None:
        self._starting.pop(match_id, None)
        if not future.cancelled():
            future.exception()  # retrieved here too: every waiter may have left before it failed

    def release(self, live: LiveMatch) -> None:
        """One user of ``live`` is done; a match nobody here uses is forgotten."""
        live.users -= 1
        if live.users <= 0 and self._live.get(live.match_id) is live:
            del self._live[live.match_id]

    def _cold_start(self, match_id: str) -> LiveMatch:
        # In a worker thread: the only full read of a match, once per process and use.
        info = self._store.info(match_id)
        records = self._seats.get(match_id)
        if len(records) != info.players:
            raise ProtocolError("this match is not hosted here")
        access = self._access.get(match_id)
        try:
            game = self._store.load(match_id)
            _hold_history(game)
        except Exception as exc:
            raise MatchUnreadable(f"match {match_id!r} cannot be read back") from exc
        return LiveMatch(match_id, game, records, access)

    async def close(self) -> None:
        """Wait for writes under way (the store must not close under them), then stop the writers."""
        await asyncio.get_running_loop().run_in_executor(None, self._writer.shutdown, True)

    # ------------------------------------------------------------------ reading others' moves

    async def catch_up(self, live: LiveMatch) -> None:
        """Bring ``live`` to the newest seq this process has heard of (another process's moves)."""
        if self._hub.newest(live.match_id) > live.seq:
            async with live.lock:
                await self._catch_up_locked(live)

    async def resume(self, live: LiveMatch, after: int) -> int:
        """Where a client that has seen up to ``after`` resumes: ``after``, once ``live`` holds
        it; or the live match's seq when the client claims a seq the store does not have.

        A client that reconnects to this process after another one served it may have seen
        moves this process has not heard of yet (their notification is on its way): the
        store is read once, so the client is never sent an update older than what it saw.
        """
        if after > live.seq:
            async with live.lock:
                if after > live.seq:
                    await self._catch_up_locked(live)
        return min(after, live.seq)

    async def _catch_up_locked(self, live: LiveMatch) -> None:
        game = await self._in_thread(self._read_on, self._store, live.match_id, live.game)
        if _seq_of(game) > live.seq:
            live.advance(game)
            self._hub.bump(live.match_id, live.seq)

    @staticmethod
    def _read_on(store: Store, match_id: str, game: Game[Any, Any]) -> Game[Any, Any]:
        # In a worker thread: the entries after the live game's, re-decided onto it (so the
        # live game keeps its whole history in memory); the match loaded afresh if they do
        # not continue it (they always should: both come from the same stored log).
        try:
            return store.follow(match_id, game)
        except (ReplayMismatchError, LogError):
            loaded = store.load(match_id)
            _hold_history(loaded)
            return loaded

    # ------------------------------------------------------------------ moves

    async def move(self, live: LiveMatch, seat: int, expected_seq: int, action: Any,
                   before_announcing: Callable[[], None] | None = None,
                   answer: Callable[[LiveMatch, Game[Any, Any]], Game[Any, Any]] | None = None) -> int:
        """Play ``action`` (text or action object) for ``seat`` after ``expected_seq``; the new
        seq once it is stored. Raises the game's errors (nothing written) and
        :class:`ConcurrencyError` when the match has moved on since ``expected_seq``.

        ``answer`` (the bots that choose on the loop) may play on from the decided game
        before anything is written: the move and the bots' replies are then stored in one
        transaction. ``before_announcing`` runs once the move is stored, before the sockets
        are woken: a bot driver started there answers (if its bot chooses on the loop) before
        any update is built, so the sockets get the move and the answer in one update."""
        async with live.lock:
            if expected_seq > live.seq or self._hub.newest(live.match_id) > live.seq:
                await self._catch_up_locked(live)  # the client or a wake-up knows of newer moves
            if expected_seq != live.seq:
                raise ConcurrencyError(f"match {live.match_id!r} is at seq {live.seq}, not {expected_seq}")
            game = live.game
            if isinstance(action, str):
                action = game.rules.parse_action(action)
            decided = game.play(action, seat)  # the game's errors, before the store is touched
            if answer is not None:
                decided = answer(live, decided)
            try:
                if decided.last_entry is not None and decided.last_entry.seq > expected_seq + 1:
                    # The move and what followed it (bots' replies, chance): one transaction.
                    await self._write(self._store.append, live.match_id, decided._entries_after(expected_seq),
                                      expected_seq=expected_seq)
                else:
                    await self._write(self._store.play, live.match_id, action, seat=seat, expected_seq=expected_seq)
            except ConcurrencyError:
                with contextlib.suppress(Exception):
                    await self._catch_up_locked(live)  # another process wrote first
                raise
            live.advance(decided)  # the decided game: its whole history is in memory
        if before_announcing is not None:
            before_announcing()
        self._hub.bump(live.match_id, live.seq)
        return live.seq

    async def _write(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        # More live matches than the store caches means a write may load the match first:
        # then it is no longer a short commit, so it goes to a writer thread.
        if self._inline and len(self._live) <= self._store.cache_size:
            return func(*args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._writer, lambda: func(*args, **kwargs))

    @staticmethod
    async def _in_thread(func: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(None, func, *args)


def _hold_history(game: Game[Any, Any]) -> None:
    """Fetch what a game loaded from a snapshot reads from the store when it reaches back
    (once, in the calling worker thread), so nothing on the event loop ever waits for it."""
    game.entries_for(None, -1)
