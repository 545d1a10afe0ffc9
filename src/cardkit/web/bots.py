"""Bots of web matches: one asyncio task per match, moving through the match's live copy.

A match's bots are driven by one task on the event loop. Each bot move is decided on the
live match (:mod:`cardkit.web.live`) like a human's: the bot reads the seat's state from
memory, chooses, and the move is written and announced by the live match. A bot whose
choice costs next to nothing (``random``, ``rule``) chooses on the event loop; any other
bot (a search) chooses in one of a few bot threads. Between turns (and every few moves of
one turn) the task yields, so a match of bots never holds the loop or a thread for its
whole game. What bots may cost a
host is bounded by :class:`BotLimits`:

* at most ``threads`` bot choices are computed in threads at once, whatever the number of
  matches (the threads of HTTP and WebSocket requests are never all taken by bots);
* a bot does not move in a match whose log already has ``action_budget`` entries, so an
  all-bot match that never ends stops writing (its clients are told so in every update);
* an all-bot match (no human seat) runs only on a host that allows them, and at most
  ``max_bot_matches`` of them run at once in a process.

On shutdown the tasks are cancelled at once: every acknowledged move is already stored, and a
choice still being computed in a thread is dropped (its task is gone, so nothing writes it).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import threading
from typing import TYPE_CHECKING, Any, Callable, Sequence

import anyio
import anyio.to_thread
import attrs

from cardkit.bots import RandomBot, RuleBot, make_bot
from cardkit.errors import CardkitError, ConcurrencyError
from cardkit.web.seats import SeatRecord

if TYPE_CHECKING:
    from cardkit.core.game import Game
    from cardkit.web.live import LiveMatch, LiveMatches

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
    """Bot choices computed in threads at once, over all matches (searching bots; see the module)."""


class BotMatchRefused(Exception):
    """An all-bot match this host will not start: ``status`` 403 (not allowed) or 503 (full)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


_IN_A_ROW = 8
"""Moves of one on-the-loop bot's turn made without yielding to the event loop."""

_ON_THE_LOOP = (RandomBot, RuleBot)
"""Bots that choose on the event loop: a choice costs them microseconds (exact types only,
so a subclass or a wrapper that may take longer goes to a bot thread)."""


class BotRunner:
    """Drives the bots of this process's matches (one instance per :class:`~cardkit.web.WebHost`)."""

    def __init__(self, live: LiveMatches, limits: BotLimits, allow_bot_matches: bool) -> None:
        self.limits = limits
        self.allow_bot_matches = allow_bot_matches
        self._live = live
        self._pending: dict[str, bool] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._slots: set[str] = set()  # all-bot matches running here
        self._reserved = 0  # all-bot POSTs in flight, counted against the cap before they exist
        self._places = threading.Lock()  # _slots and _reserved: reserve runs in request threads
        self._closed = False
        self._limiter: anyio.CapacityLimiter | None = None
        self._on_loop_bots: dict[str, Any] = {}  # spec -> bot, for answer (these bots keep no state)

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
        live: LiveMatch | None = None
        try:
            live = await self._live.acquire(match_id)
            records = live.records
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
                in_a_row = 0
                while (moved := await self._step(live, bots)) is not None:
                    # A bot that chooses on the loop finishes its turn (a draw, then a play)
                    # before anyone is told, so its sockets get one update per turn; at most
                    # _IN_A_ROW moves, then the loop serves everyone else.
                    in_a_row += 1
                    spec = records[moved].bot if 0 <= moved < len(records) else None
                    if (in_a_row < _IN_A_ROW and live.game.to_act == moved and spec is not None
                            and type(bots.get(spec)) in _ON_THE_LOOP):
                        continue
                    in_a_row = 0
                    await asyncio.sleep(0)
        except Exception:
            log.exception("bots of match %s stopped", match_id)
        finally:
            if live is not None:
                self._live.release(live)
            self._pending.pop(match_id, None)
            self._give_place(match_id)  # also the place a POST reserved, whatever ended the driver

    def answer(self, live: LiveMatch, game: Game[Any, Any]) -> Game[Any, Any]:
        """``game`` (a seat's move just decided on ``live``, not yet stored) played on by the
        bots that choose on the event loop (``random``, ``rule``), at most :data:`_IN_A_ROW`
        moves, until a person, a searching bot or the end is to act: the caller stores the
        move and these replies in one transaction. Each choice is the one the match's driver
        would make at that seq (the same bot, seat state and random stream), so a seeded
        match plays out the same either way. Anything that goes wrong stops the answering
        (the driver then moves, or logs why not)."""
        records = live.records
        bots = self._on_loop_bots
        for _ in range(_IN_A_ROW):
            seat, last = game.to_act, game.last_entry
            seq = -1 if last is None else last.seq
            if self._closed or seat is None or not 0 <= seat < len(records) or records[seat].bot is None:
                break
            if self.halted(seq, seat, records) is not None:
                break
            record = records[seat]
            spec = record.bot or "random"
            try:
                bot = bots.get(spec) or bots.setdefault(spec, make_bot(spec))
                if type(bot) not in _ON_THE_LOOP:
                    break
                action = bot.choose(game.seat_state(seat), random.Random(derive_seed(record.bot_seed, seq)))
                game = game.play(action, seat)
            except CardkitError:
                break
        return game

    async def _step(self, live: LiveMatch, bots: dict[str, Any]) -> int | None:
        # One bot move: the seat that moved (-1: none, look again); None when no bot may move
        # (a human is to act, the match is over or out of budget, or the host is stopping).
        await self._live.catch_up(live)  # another process may have moved
        records = live.records
        seq, game = live.seq, live.game
        seat = game.to_act
        if self._closed or self.halted(seq, seat, records) is not None:
            return None
        if seat is None or not 0 <= seat < len(records) or records[seat].bot is None:
            return None
        record = records[seat]
        spec = record.bot or "random"
        bot = bots.get(spec) or bots.setdefault(spec, make_bot(spec))
        seat_state = game.seat_state(seat)  # from memory: the live game holds its whole history
        rng = random.Random(derive_seed(record.bot_seed, seq))
        if type(bot) in _ON_THE_LOOP:
            action = bot.choose(seat_state, rng)
        else:
            action = await self._in_thread(bot.choose, seat_state, rng)
        if self._closed:
            return None
        try:
            await self._live.move(live, seat, seq, action)
        except ConcurrencyError:
            return -1  # another process moved first: look again at where the match is now
        except CardkitError:
            log.exception("a bot of match %s made a move its game refused", live.match_id)
            return None
        return seat

    async def stop(self) -> None:
        """Cancel every bot task now (a choice under way in a thread is dropped unwritten)."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
