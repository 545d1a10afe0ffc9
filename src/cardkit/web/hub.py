"""Wake-ups inside one server process: who is waiting for which match to move.

Each match that has a connected client has a "newest seq" and an :class:`asyncio.Event`
replaced at every bump. Bumps come from this process's own moves, and from other
processes: a PostgreSQL ``LISTEN cardkit_store`` thread (one connection per process,
whatever the number of matches) or, for SQLite files, a poll of the matches watched here.

A notification can be lost: one sent while the listening connection is being re-established
reaches nobody in this process. So the hub never trusts notifications alone: after every
reconnect it re-reads the newest seq of every watched match from the store, and so does a
waiter whose wait timed out (one read per match, shared by all its waiters).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sys
import threading
from typing import Any, Awaitable, Callable, TypeVar

__all__ = ["Hub", "PostgresListener", "within"]

log = logging.getLogger("cardkit.web")

T = TypeVar("T")

if sys.version_info >= (3, 11):

    async def within(awaitable: Awaitable[T], seconds: float) -> T:
        """``await awaitable``, or :class:`TimeoutError` after ``seconds`` (without the
        task :func:`asyncio.wait_for` makes per call: this runs once per update sent)."""
        async with asyncio.timeout(seconds):
            return await awaitable

else:  # pragma: no cover - the web host needs 3.11; this keeps the module importable

    async def within(awaitable: Awaitable[T], seconds: float) -> T:
        """``await awaitable``, or :class:`TimeoutError` after ``seconds``."""
        return await asyncio.wait_for(awaitable, seconds)


class Hub:
    """Per-match newest seqs and the events that wake their waiters (one event loop).

    ``newest_in_store`` (a coroutine function: match id -> its newest seq in the store, or
    ``None`` if it cannot tell) is how the hub checks for news it may have missed.
    """

    def __init__(self, newest_in_store: Callable[[str], Awaitable[int | None]] | None = None) -> None:
        self._seq: dict[str, int] = {}
        self._events: dict[str, asyncio.Event] = {}
        self._watchers: dict[str, int] = {}
        self._newest_in_store = newest_in_store
        self._refreshing: dict[str, asyncio.Task[None]] = {}

    def watch(self, match_id: str, seq: int) -> None:
        """A client of ``match_id`` connected (it has seen up to ``seq``)."""
        self._watchers[match_id] = self._watchers.get(match_id, 0) + 1
        self.bump(match_id, seq)

    def unwatch(self, match_id: str) -> None:
        """A client of ``match_id`` left; forget the match when nobody watches it."""
        left = self._watchers.get(match_id, 0) - 1
        if left > 0:
            self._watchers[match_id] = left
            return
        self._watchers.pop(match_id, None)
        self._seq.pop(match_id, None)
        event = self._events.pop(match_id, None)
        if event is not None:
            event.set()

    def watched(self) -> list[str]:
        """The matches with clients here, in the order they were first watched."""
        return list(self._watchers)

    def newest(self, match_id: str) -> int:
        """The newest seq known for the match (-1 if none)."""
        return self._seq.get(match_id, -1)

    def bump(self, match_id: str, seq: int) -> None:
        """The match has reached ``seq``: wake its waiters if that is news."""
        if match_id not in self._watchers or seq <= self._seq.get(match_id, -1):
            return
        self._seq[match_id] = seq
        event = self._events.pop(match_id, None)
        if event is not None:
            event.set()

    async def wait_past(self, match_id: str, after: int, timeout: float) -> int:
        """Wait until the match is past ``after``; its newest seq.

        After ``timeout`` seconds without a wake-up the newest seq is read from the store
        (a lost notification costs a client at most one timeout).
        """
        if self.newest(match_id) <= after:
            event = self._events.get(match_id)
            if event is None:
                event = self._events[match_id] = asyncio.Event()
            try:
                await within(event.wait(), timeout)
            except asyncio.TimeoutError:
                await self.refresh(match_id)
        return self.newest(match_id)

    async def refresh(self, match_id: str) -> None:
        """Read the match's newest seq from the store and bump it (one read at a time per match)."""
        with contextlib.suppress(Exception):
            await asyncio.shield(self._refresh_task(match_id))

    def refresh_all(self) -> None:
        """Re-read every watched match from the store, in the background (after a reconnect)."""
        for match_id in self.watched():
            self._refresh_task(match_id)

    def _refresh_task(self, match_id: str) -> asyncio.Task[None]:
        task = self._refreshing.get(match_id)
        if task is None:
            task = self._refreshing[match_id] = asyncio.get_running_loop().create_task(self._refresh(match_id))
            task.add_done_callback(functools.partial(self._refreshed, match_id))
        return task

    def _refreshed(self, match_id: str, task: asyncio.Task[None]) -> None:
        self._refreshing.pop(match_id, None)
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not re-read match %s: %r", match_id, task.exception())

    async def _refresh(self, match_id: str) -> None:
        if self._newest_in_store is None or match_id not in self._watchers:
            return
        seq = await self._newest_in_store(match_id)
        if seq is not None:
            self.bump(match_id, seq)


class PostgresListener:
    """A thread holding one connection that LISTENs to the store's channel for this process.

    Every notification (payload ``"<seq>:<match_id>"``) is handed to ``on_notify`` on the
    event loop, in batches: the thread waits for one notification, then takes every one
    already queued behind it and hands them over in one call (one wake-up of the event loop
    for a burst of moves, not one per move; of several notices of one match only the newest
    seq is passed on). Every time the LISTEN is (re-)established ``on_listen`` is called there:
    notifications sent while the connection was down are lost, so the host re-reads what its
    clients watch. The thread checks ``stop`` every half second, so it ends promptly. Its
    connection is named ``cardkit-web-listen`` (``application_name``) for the operator.
    """

    APPLICATION_NAME = "cardkit-web-listen"
    RETRY = 1.0
    """Seconds between attempts to reconnect."""

    def __init__(
        self,
        url: str,
        loop: asyncio.AbstractEventLoop,
        on_notify: Callable[[str, int], Any],
        on_listen: Callable[[], Any] | None = None,
    ) -> None:
        self._url = url
        self._loop = loop
        self._on_notify = on_notify
        self._on_listen = on_listen
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cardkit-web-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        """Start listening; returns once the LISTEN is in place (or ``timeout`` passed)."""
        self._thread.start()
        self._ready.wait(timeout)

    def _run(self) -> None:
        import psycopg

        from cardkit.store.postgres import CHANNEL

        while not self._stop.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True, application_name=self.APPLICATION_NAME) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    if self._on_listen is not None:
                        self._loop.call_soon_threadsafe(self._on_listen)
                    while not self._stop.is_set():
                        newest: dict[str, int] = {}
                        for notes in (conn.notifies(timeout=0.5, stop_after=1), conn.notifies(timeout=0.0)):
                            for note in notes:  # the first, then whatever is queued behind it
                                seq_text, _, match_id = note.payload.partition(":")
                                if seq_text.lstrip("-").isdigit():
                                    newest[match_id] = max(int(seq_text), newest.get(match_id, -1))
                        if newest:
                            self._loop.call_soon_threadsafe(self._notify_all, newest)
            except psycopg.Error:
                # The server went away: try again shortly (and re-read on success, above).
                self._stop.wait(self.RETRY)

    def _notify_all(self, newest: dict[str, int]) -> None:
        # On the event loop: one call for a batch of notifications.
        for match_id, seq in newest.items():
            self._on_notify(match_id, seq)

    def stop(self) -> None:
        """Stop the thread and wait for it."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5.0)
