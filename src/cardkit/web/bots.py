"""Bots of web matches: asyncio tasks that compute one move at a time in a few worker threads.

A match's bots are driven by one task on the event loop. Each bot move is one short call in
a worker thread (load the match, let the bot choose, store the move); between moves the
task yields, so a match of bots never holds a thread for its whole game. What bots may cost
a host is bounded by :class:`BotLimits`:

* at most ``threads`` bot moves are computed at once, whatever the number of matches (the
  threads of HTTP and WebSocket requests are never all taken by bots);
* a bot does not move in a match whose log already has ``action_budget`` entries, so an
  all-bot match that never ends stops writing (its clients are told so in every update);
* an all-bot match (no human seat) runs only on a host that allows them, and at most
  ``max_bot_matches`` of them run at once in a process.

On shutdown the tasks are cancelled at once: every acknowledged move is already stored, and a
move still being computed is dropped (a closed gate stops it before it writes).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import threading
from typing import Any, Callable, Sequence

import anyio
import anyio.to_thread
import attrs

from cardkit.bots import make_bot
from cardkit.errors import ConcurrencyError
from cardkit.store import Store
from cardkit.web.seats import SeatRecord, SeatTable

__all__ = ["BotLimits", "BotRunner", "BotMatchRefused", "derive_seed"]

log = logging.getLogger("cardkit.web")


def derive_seed(*parts: object) -> int:
    """A 64-bit number from ``parts``: deterministic, independent streams for bot seats."""
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _positive(instance: Any, attribute: Any, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{attribute.name} is a whole number of at least 1, not {value!r}")


@attrs.frozen
class BotLimits:
    """What the bots of one server process may cost (see docs/web.md, "Resource limits")."""

    max_bot_matches: int = attrs.field(default=4, validator=_positive)
    """All-bot matches running at once in this process; a POST past it is refused (503)."""

    action_budget: int = attrs.field(default=10_000, validator=_positive)
    """A bot does not move in a match whose log has this many entries (every seat's and chance's)."""

    threads: int = attrs.field(default=4, validator=_positive)
    """Bot moves computed at once (worker threads), over all matches."""


class BotMatchRefused(Exception):
    """An all-bot match this host will not start: ``status`` 403 (not allowed) or 503 (full)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class _WriteGate:
    """Counts bot store calls (reads and writes) in flight; once closed, lets none start and
    can wait for the rest."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._open = True
        self._writing = 0

    def enter(self) -> bool:
        """Start a store call; False once the gate is closed (do not touch the store)."""
        with self._cond:
            if not self._open:
                return False
            self._writing += 1
            return True

    def leave(self) -> None:
        """A store call started with :meth:`enter` is done."""
        with self._cond:
            self._writing -= 1
            self._cond.notify_all()

    def close(self) -> None:
        """Let no new store call start."""
        with self._cond:
            self._open = False

    def wait_idle(self, timeout: float) -> bool:
        """Wait (in a thread) until no store call is in flight; False if ``timeout`` passed first."""
        with self._cond:
            return self._cond.wait_for(lambda: self._writing == 0, timeout)


class BotRunner:
    """Drives the bots of this process's matches (one instance per :class:`~cardkit.web.WebHost`)."""

    def __init__(
        self,
        store: Store,
        seats: SeatTable,
        bump: Callable[[str, int], None],
        limits: BotLimits,
        allow_bot_matches: bool,
    ) -> None:
        self.limits = limits
        self.allow_bot_matches = allow_bot_matches
        self._store = store
        self._seats = seats
        self._bump = bump
        self._pending: dict[str, bool] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._slots: set[str] = set()  # all-bot matches running here
        self._reserved = 0  # all-bot POSTs in flight, counted against the cap before they exist
        self._places = threading.Lock()  # _slots and _reserved: reserve runs in request threads
        self._gate = _WriteGate()
        self._closed = False
        self._limiter: anyio.CapacityLimiter | None = None

    @property
    def running_bot_matches(self) -> int:
        """All-bot matches that hold one of the ``max_bot_matches`` places now (reserved included)."""
        with self._places:
            return len(self._slots) + self._reserved

    # ------------------------------------------------------------------ all-bot matches

    def reserve(self) -> None:
        """Hold a place for an all-bot match about to be created; :class:`BotMatchRefused` if none.

        Every successful :meth:`reserve` is followed by one :meth:`settle` (any thread).
        """
        if not self.allow_bot_matches:
            raise BotMatchRefused(
                "this host does not run matches without a human seat (its operator may allow them: "
                "cardkit serve --allow-bot-matches)", 403)
        with self._places:
            if self._closed or len(self._slots) + self._reserved >= self.limits.max_bot_matches:
                raise BotMatchRefused(
                    f"this host already runs {self.limits.max_bot_matches} matches of bots only: try again later", 503)
            self._reserved += 1

    def settle(self, match_id: str | None) -> None:
        """The reserved place goes to ``match_id`` (an all-bot match now stored), or back (``None``)."""
        with self._places:
            self._reserved -= 1
            if match_id is not None and not self._closed:
                self._slots.add(match_id)

    def _take_place(self, match_id: str) -> bool:
        with self._places:
            if match_id in self._slots:  # created here just now: its place is reserved
                return True
            if len(self._slots) + self._reserved >= self.limits.max_bot_matches:
                return False
            self._slots.add(match_id)
            return True

    def _give_place(self, match_id: str) -> None:
        with self._places:
            self._slots.discard(match_id)

    def halted(self, last_seq: int, to_act: int | None, records: Sequence[SeatRecord]) -> str | None:
        """Why the bots of a match do not move although one is to act (``None``: they do, or no bot is to act)."""
        if to_act is None or not 0 <= to_act < len(records) or records[to_act].bot is None:
            return None
        if last_seq + 1 >= self.limits.action_budget:
            return (f"the match stopped: its bots reached this host's limit of "
                    f"{self.limits.action_budget} entries per match")
        if all(r.bot is not None for r in records) and not self.allow_bot_matches:
            return "the match stopped: this host does not run matches without a human seat"
        return None

    # ------------------------------------------------------------------ driving

    def start(self) -> None:
        """Create what needs the running event loop (the bot threads' limiter)."""
        self._limiter = anyio.CapacityLimiter(self.limits.threads)

    def drive(self, match_id: str) -> None:
        """Let the bots of ``match_id`` move (in the background) until a human is to act."""
        if self._closed:
            return
        if match_id in self._pending:
            self._pending[match_id] = True  # the running driver looks again when done
            return
        self._pending[match_id] = True
        task = asyncio.get_running_loop().create_task(self._drive(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _in_thread(self, func: Callable[..., Any], *args: Any) -> Any:
        # Abandoned on cancel: a shutdown does not wait for a bot to finish thinking.
        return await anyio.to_thread.run_sync(func, *args, limiter=self._limiter, abandon_on_cancel=True)

    async def _drive(self, match_id: str) -> None:
        # The one driver of a match (see drive) owns its place, if it has one, until it ends.
        try:
            records: tuple[SeatRecord, ...] = await self._in_thread(self._seats.get, match_id)
            if not any(r.bot is not None for r in records):
                return
            if all(r.bot is not None for r in records):
                if not self.allow_bot_matches:
                    return
                if not self._take_place(match_id):
                    log.info("all-bot match %s waits: %d already run here", match_id, self.limits.max_bot_matches)
                    return
            bots: dict[str, Any] = {}
            while self._pending.get(match_id):
                self._pending[match_id] = False
                while True:  # one move per thread call; the loop serves everyone else between them
                    seq = await self._in_thread(self._step, match_id, records, bots)
                    if seq is None:
                        break
                    self._bump(match_id, seq)
        except Exception:
            log.exception("bots of match %s stopped", match_id)
        finally:
            self._pending.pop(match_id, None)
            self._give_place(match_id)  # also the place a POST reserved, whatever ended the driver

    def _step(self, match_id: str, records: Sequence[SeatRecord], bots: dict[str, Any]) -> int | None:
        # In a worker thread: one bot move, or None when no bot may move (a human is to act,
        # the match is over or out of budget, the host is stopping, or another process moved).
        # Everything that reads the store (the load, and the seat state, which may fetch the
        # history before a snapshot) passes the gate too: the store must not close under it.
        if not self._gate.enter():
            return None
        try:
            game = self._store.load(match_id)
            last = game.last_entry
            seq = -1 if last is None else last.seq
            seat = game.to_act
            if self._closed or self.halted(seq, seat, records) is not None:
                return None
            if seat is None or not 0 <= seat < len(records) or records[seat].bot is None:
                return None
            seat_state = game.seat_state(seat)
        finally:
            self._gate.leave()
        record = records[seat]
        spec = record.bot or "random"
        bot = bots.get(spec) or bots.setdefault(spec, make_bot(spec))
        # The search runs outside the gate: a shutdown does not wait for it.
        action = bot.choose(seat_state, random.Random(derive_seed(record.bot_seed, seq)))
        if not self._gate.enter():
            return None
        try:
            game = self._store.play(match_id, action, seat=seat, expected_seq=seq)
        except ConcurrencyError:
            return None  # whoever won the race carries on
        finally:
            self._gate.leave()
        new_last = game.last_entry
        return None if new_last is None else new_last.seq

    async def stop(self, write_grace: float = 10.0) -> None:
        """Cancel every bot task now; wait only for store writes already under way."""
        self._closed = True
        self._gate.close()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # A write is one short transaction; the store must not close under it.
        if not await anyio.to_thread.run_sync(self._gate.wait_idle, write_grace):
            log.warning("a bot move was still being stored at shutdown")
