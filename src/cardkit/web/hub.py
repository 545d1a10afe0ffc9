"""Wake-ups inside one server process: who is waiting for which match to move.

Each match that has a connected client has a "newest seq" and an :class:`asyncio.Event`
replaced at every bump. Bumps come from this process's own moves, and from other
processes: a PostgreSQL ``LISTEN cardkit_store`` thread (one connection per process,
whatever the number of matches) or, for SQLite files, a poll of the matches watched here.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable

__all__ = ["Hub", "PostgresListener"]


class Hub:
    """Per-match newest seqs and the events that wake their waiters (one event loop)."""

    def __init__(self) -> None:
        self._seq: dict[str, int] = {}
        self._events: dict[str, asyncio.Event] = {}
        self._watchers: dict[str, int] = {}

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
        """Wait until the match is past ``after`` (or ``timeout`` seconds); its newest seq."""
        if self.newest(match_id) <= after:
            event = self._events.get(match_id)
            if event is None:
                event = self._events[match_id] = asyncio.Event()
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except asyncio.TimeoutError:
                pass
        return self.newest(match_id)


class PostgresListener:
    """A thread holding one connection that LISTENs to the store's channel for this process.

    Every notification (payload ``"<seq>:<match_id>"``) is handed to ``on_notify`` on the
    event loop. The thread checks ``stop`` every half second, so it ends promptly.
    """

    def __init__(self, url: str, loop: asyncio.AbstractEventLoop, on_notify: Callable[[str, int], Any]) -> None:
        self._url = url
        self._loop = loop
        self._on_notify = on_notify
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
                with psycopg.connect(self._url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            seq_text, _, match_id = note.payload.partition(":")
                            if seq_text.lstrip("-").isdigit():
                                self._loop.call_soon_threadsafe(self._on_notify, match_id, int(seq_text))
            except psycopg.Error:
                # The server went away: try again shortly (waiters still poll on timeouts).
                self._stop.wait(1.0)

    def stop(self) -> None:
        """Stop the thread and wait for it."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5.0)
