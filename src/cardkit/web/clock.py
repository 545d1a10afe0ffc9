"""The optional per-move clock of web matches: a bot plays for a person who runs out of time.

A match created with ``"move_seconds": N`` (5 to 3600; absent or ``null``: no clock, the
default) gives every person N seconds per move. The time of a move starts when this process
first sees the match at that seq with that person to act (after the previous move, or when
the match becomes live here); when it runs out, the **casual bot** (:data:`STAND_IN`,
``level:2``, the rule strategy) plays that one move for the seat, exactly as the seat could
have (the same live-match path, the same checks), and the seat's person plays on at the next
turn. Bots' turns have no clock. A match's clock runs while anyone (a seat or a spectator)
is connected to it in this process: nobody is rushed in an empty room.

Time comes from a :class:`MoveClock` (``now`` and ``sleep``), so tests inject their own and
never wait for seconds. Which moves the stand-in made is kept in this process's memory (the
newest :data:`KEPT_TIMEOUTS` per match) and shown in updates; a restart, or a move of the
match to another process, starts the move's time afresh there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from cardkit.bots import LEVELS, make_bot
from cardkit.errors import CardkitError, ConcurrencyError
from cardkit.web.bots import derive_seed

if TYPE_CHECKING:  # pragma: no cover
    from cardkit.web.app import WebHost
    from cardkit.web.live import LiveMatch

__all__ = ["MoveClock", "ClockRunner", "STAND_IN", "MIN_SECONDS", "MAX_SECONDS", "KEPT_TIMEOUTS", "check_move_seconds"]

log = logging.getLogger("cardkit.web")

STAND_IN = "level:2"
"""The bot level that plays for a seat whose time ran out (the casual bot: the rule strategy)."""

MIN_SECONDS = 5
"""The shortest time per move a match may set."""

MAX_SECONDS = 3600
"""The longest time per move a match may set (an hour)."""

KEPT_TIMEOUTS = 100
"""Moves made by the stand-in that one match remembers (the newest), per process."""


def check_move_seconds(value: object) -> int | None:
    """``move_seconds`` of a ``POST /api/matches`` body: ``None`` (no clock) or a whole number
    of seconds from :data:`MIN_SECONDS` to :data:`MAX_SECONDS`; :class:`ValueError` otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_SECONDS <= value <= MAX_SECONDS:
        raise ValueError(f'"move_seconds" is a whole number of seconds from {MIN_SECONDS} to {MAX_SECONDS}, '
                         "or null for no clock")
    return value


def _stand_in_name() -> str:
    return next((lv.name for lv in LEVELS if lv.spec == STAND_IN), STAND_IN)


class MoveClock:
    """Where the per-move clock takes its time from: ``now()`` in seconds (monotonic) and
    ``sleep(seconds)``; :func:`time.monotonic` and :func:`asyncio.sleep` unless injected."""

    def __init__(self, now: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self.now = now
        self.sleep = sleep


class ClockRunner:
    """Runs the clocks of one host's matches: one task per live match with a clock."""

    def __init__(self, host: WebHost, clock: MoveClock) -> None:
        self._host = host
        self.clock = clock
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._started: dict[str, tuple[int, float]] = {}  # match -> (seq, when its move's time started)
        self._timeouts: dict[str, list[int]] = {}
        self._bot = make_bot(STAND_IN)
        self.stand_in = _stand_in_name()

    def watch(self, live: LiveMatch) -> None:
        """Run ``live``'s clock (if it has one) while something here uses the match."""
        if live.access.move_seconds is None or live.match_id in self._tasks:
            return
        task = asyncio.get_running_loop().create_task(self._run(live))
        self._tasks[live.match_id] = task
        task.add_done_callback(lambda _: self._ended(live.match_id, task))

    def _ended(self, match_id: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(match_id) is task:
            del self._tasks[match_id]
            self._started.pop(match_id, None)
            self._timeouts.pop(match_id, None)

    def status(self, live: LiveMatch) -> dict[str, Any] | None:
        """The update's ``clock``: ``None`` without a clock, else ``{"seconds", "seat" (the person
        whose time runs, or null), "remaining" (seconds, or null), "stand_in", "timed_out"}``."""
        seconds = live.access.move_seconds
        if seconds is None:
            return None
        seat = self._clocked_seat(live)
        remaining: float | None = None
        if seat is not None:
            remaining = max(0.0, self._start_of(live) + seconds - self.clock.now())
        return {"seconds": seconds, "seat": seat, "remaining": None if remaining is None else round(remaining, 1),
                "stand_in": self.stand_in, "timed_out": list(self._timeouts.get(live.match_id, ()))}

    def _start_of(self, live: LiveMatch) -> float:
        seen = self._started.get(live.match_id)
        if seen is None or seen[0] != live.seq:
            seen = self._started[live.match_id] = (live.seq, self.clock.now())
        return seen[1]

    def _clocked_seat(self, live: LiveMatch) -> int | None:
        game = live.game
        seat = game.to_act
        if game.is_over or seat is None or not 0 <= seat < len(live.records):
            return None
        record = live.records[seat]
        if record.bot is not None or record.token_hash is None:  # a bot, or a seat taken back (web/undo.py)
            return None
        return seat

    async def _run(self, live: LiveMatch) -> None:
        host, match_id = self._host, live.match_id
        seconds = live.access.move_seconds
        assert seconds is not None
        try:
            while host.live.get(match_id) is live:
                await host.live.catch_up(live)  # another process may have moved
                seq, seat = live.seq, self._clocked_seat(live)
                if seat is None:
                    await self._until_moved(live, seq, None)
                    continue
                remaining = self._start_of(live) + seconds - self.clock.now()
                if remaining > 0:
                    await self._until_moved(live, seq, remaining)
                    continue
                await self._play_for(live, seat, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the clock of match %s stopped", match_id)

    async def _until_moved(self, live: LiveMatch, seq: int, timeout: float | None) -> None:
        # Until the match moves past seq (a hub wake-up), the time runs out, or (every few
        # seconds) to see whether the match is still used here.
        waiter = asyncio.ensure_future(self._host.hub.wait_past(live.match_id, seq, 5.0))
        sleeper = asyncio.ensure_future(self.clock.sleep(timeout)) if timeout is not None else None
        try:
            await asyncio.wait({waiter} if sleeper is None else {waiter, sleeper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (waiter, sleeper):
                if task is not None and not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task

    async def _play_for(self, live: LiveMatch, seat: int, seq: int) -> None:
        game = live.game
        rng = random.Random(derive_seed("cardkit-web-clock", live.match_id, seq))
        action = self._bot.choose(game.seat_state(seat), rng)  # the rule strategy: microseconds, on the loop
        try:
            await self._host.move(live.match_id, seat, seq, str(action))
        except ConcurrencyError:
            return  # the seat (or another process's clock) moved first
        except CardkitError:
            log.exception("the stand-in of match %s made a move its game refused", live.match_id)
            await self._until_moved(live, seq, None)
            return
        kept = self._timeouts.setdefault(live.match_id, [])
        kept.append(seq + 1)
        del kept[:-KEPT_TIMEOUTS]

    async def stop(self) -> None:
        """Cancel every clock."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
