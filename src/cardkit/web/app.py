"""The Starlette application: the lobby and play page, the JSON API and the WebSocket.

See docs/web.md for the wire protocol. One :class:`WebHost` per process holds the store,
the seat table, the wake-up hub, the live matches (:mod:`cardkit.web.live`: every move and
every update of a match goes through its one in-memory copy on the event loop) and the bot
runner (:mod:`cardkit.web.bots`). The store is read in worker threads, and only on a cold
start of a match or when another process moved.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from pathlib import Path
from typing import Any, AsyncIterator, Sequence

import attrs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import cardkit.store
from cardkit.api import new_game
from cardkit.bots import ISMCTSBot, PIMCBot, make_bot
from cardkit.bots.search_cutthroat_spades import BID_FACTOR, MCBidBot
from cardkit.bots.search_wizard import BidSearchBot
from cardkit.core.game import Game
from cardkit.errors import (
    CardkitError,
    ConcurrencyError,
    ConfigError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
)
from cardkit.serde import to_json
from cardkit.store import Store
from cardkit.store.errors import UnknownMatchError
from cardkit.web.access import AccessTable, MatchAccess, open_access
from cardkit.web.bots import BotLimits, BotMatchRefused, BotRunner
from cardkit.web.bots import derive_seed as _derive
from cardkit.web.clock import ClockRunner, MoveClock, check_move_seconds
from cardkit.web.origins import OriginGuard, normalise_origin
from cardkit.web.hub import Hub, PostgresListener, within
from cardkit.web.live import LiveMatch, LiveMatches, MatchUnreadable, PreparedUpdate
from cardkit.web.replay import replay_routes
from cardkit.web.protocol import (
    ErrorCode,
    ProtocolError,
    describe_games,
    describe_levels,
    encode,
    error_message,
    parse_join,
    parse_message,
    parse_move,
    parse_undo,
    server_error,
    update_message,
)
from cardkit.web.seats import PENDING, SeatRecord, SeatTable, hash_token, open_seats, token_matches
from cardkit.web.rematch import Rematches, open_rematches
from cardkit.web.table import LEVELS, entry_sentences, hint_message, rules_page, table_payload
from cardkit.web.undo import REVOKED_TEXT, fork_match, take_back, undo_status

__all__ = [
    "WebHost",
    "create_app",
    "MAX_BODY",
    "MAX_BAD_MESSAGES",
    "MAX_BOT_ITERATIONS",
    "MAX_BOT_SOLVE_AT",
    "JOIN_TIMEOUT",
    "MAX_SPECTATORS",
    "PreparedUpdate",
]

log = logging.getLogger("cardkit.web")

STATIC = Path(__file__).with_name("static")

MAX_BODY = 16_384
"""The largest request body ``POST /api/matches`` reads, in bytes."""

MAX_BAD_MESSAGES = 50
"""Bad messages in a row after which a socket is closed (1008)."""

MAX_BOT_ITERATIONS = 5000
"""The most ISMCTS iterations a web match's bot may use per move (a move holds one of the bot threads)."""

MAX_BOT_SOLVE_AT = 2
"""The most last tricks a web match's ``bid-search`` bot may solve exactly (level 5's; the
exact solver's cost grows steeply with each trick: three cost seconds a decision)."""

JOIN_TIMEOUT = 10.0
"""Seconds a new socket has to send its join message."""

MAX_SPECTATORS = 100
"""The default most spectators one match may have on one server process (``--max-spectators``)."""

_MAX_SEAT_KEY = 4  # digits of a bot seat key: no game has 10,000 seats

_MAX_SEED = 2**64 - 1
_SEND_TIMEOUT = 10.0
_POLL = 0.5


class _BadRequest(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class WebHost:
    """What one server process shares between its requests: store, seats, hub, bot runners.

    ``allow_seeds``: accept a client's ``seed`` (development only: the creator then knows
    every hand, and every update says ``"seeded": true``). ``max_spectators``: the most
    spectators one match may have on this process. ``allow_bot_matches`` and ``bot_limits``:
    whether clients may create matches of bots only, and what bots may cost.
    """

    def __init__(
        self,
        store_url: str = "memory:",
        *,
        store: Store | None = None,
        seats: SeatTable | None = None,
        allow_bot_matches: bool = False,
        bot_limits: BotLimits = BotLimits(),
        allow_seeds: bool = False,
        max_spectators: int = MAX_SPECTATORS,
        move_clock: MoveClock | None = None,
    ) -> None:
        self.store_url = store_url
        self.store: Store = store if store is not None else cardkit.store.open(store_url)
        self.seats: SeatTable = seats if seats is not None else open_seats(store_url)
        self.access: AccessTable = open_access(store_url)
        self.allow_seeds = allow_seeds
        self.max_spectators = max_spectators
        self.spectators: dict[str, int] = {}
        self.hub = Hub(self._newest_in_store)
        scheme = store_url.partition(":")[0].lower()
        self.live = LiveMatches(self.store, self.seats, self.access, self.hub,
                                inline_writes=scheme in ("sqlite", "memory"))
        self.bots = BotRunner(self.live, bot_limits, allow_bot_matches)
        self.rematches = Rematches(open_rematches(store_url))  # in the store's database: any process finds them
        self.clocks = ClockRunner(self, move_clock or MoveClock())  # per-move clocks (web/clock.py)
        self._owns_store = store is None
        self._listener: PostgresListener | None = None
        self._poller: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Start cross-process wake-ups (PostgreSQL LISTEN, or polling a SQLite file)."""
        scheme = self.store_url.partition(":")[0].lower()
        loop = asyncio.get_running_loop()
        self.bots.start()
        if scheme in ("postgresql", "postgres"):
            self._listener = PostgresListener(self.store_url, loop, self.hub.bump, self.hub.refresh_all)
            await run_in_threadpool(self._listener.start)
        elif scheme == "sqlite" and ":memory:" not in self.store_url:
            self._poller = asyncio.create_task(self._poll())

    async def stop(self) -> None:
        """Stop background work and close what this host opened (bots are cancelled at once)."""
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        await self.bots.stop()
        await self.clocks.stop()
        await self.live.close()
        if self._listener is not None:
            await run_in_threadpool(self._listener.stop)
        self.seats.close()
        self.access.close()
        self.rematches.table.close()
        if self._owns_store:
            self.store.close()

    async def _newest_in_store(self, match_id: str) -> int | None:
        # What the hub reads when a notification may have been lost.
        try:
            info = await run_in_threadpool(self.store.info, match_id)
        except CardkitError:
            return None
        return info.last_seq

    async def _poll(self) -> None:
        # Other processes' moves on a SQLite file: look at the watched matches twice a second
        # (one worker-thread call for all of them).
        while True:
            await asyncio.sleep(_POLL)
            watched = self.hub.watched()
            if watched:
                for match_id, seq in await run_in_threadpool(self._newest_of, watched):
                    self.hub.bump(match_id, seq)

    def _newest_of(self, match_ids: list[str]) -> list[tuple[str, int]]:
        out = []
        for match_id in match_ids:
            with contextlib.suppress(CardkitError):
                out.append((match_id, self.store.info(match_id).last_seq))
        return out

    # ------------------------------------------------------------------ matches

    def create_match(self, body: Any) -> dict[str, Any]:
        """Create a match from a ``POST /api/matches`` body; :class:`_BadRequest` if it is wrong,
        :class:`BotMatchRefused` for a match of bots only that this host will not start now."""
        if not isinstance(body, dict):
            raise _BadRequest("the body is a JSON object: {game, players, options, bots, private, seed}")
        unknown = sorted(set(body) - {"game", "players", "options", "bots", "private", "seed", "move_seconds"})
        if unknown:
            raise _BadRequest(f"unknown field(s): {', '.join(k[:40] for k in unknown[:5])}")
        game_name, players = body.get("game"), body.get("players")
        options = body.get("options", {})
        bots = body.get("bots", {})
        options = {} if options is None else options
        bots = {} if bots is None else bots
        seed = body.get("seed")
        private = body.get("private", False)
        if seed is not None and not self.allow_seeds:
            raise _BadRequest(
                "this host does not take a seed from the client (whoever chooses the seed can compute "
                "every hand); leave it out, or start a development host with --allow-seeds"
            )
        if not isinstance(private, bool):
            raise _BadRequest('"private" is true (spectators need the spectator token) or false')
        try:
            move_seconds = check_move_seconds(body.get("move_seconds"))
        except ValueError as exc:
            raise _BadRequest(str(exc)) from None
        if not isinstance(game_name, str):
            raise _BadRequest('"game" is a game name, e.g. "crazy-eights" (see GET /api/games)')
        if not isinstance(players, int) or isinstance(players, bool):
            raise _BadRequest('"players" is a whole number')
        if not isinstance(options, dict) or {"players", "seed", "auto_chance"} & set(options):
            raise _BadRequest('"options" is an object of the game\'s options (not players or seed)')
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MAX_SEED):
            raise _BadRequest('"seed" is an integer from 0 to 2**64 - 1, or absent')
        if not isinstance(bots, dict):
            raise _BadRequest('"bots" maps seats to bot specs: {"1": "rule"}')
        try:
            game = new_game(game_name, players=players, seed=seed, **options)
        except CardkitError as exc:
            raise _BadRequest(str(exc)) from None
        bot_specs: dict[int, str] = {}
        for key, spec in bots.items():
            if not (isinstance(key, str) and 0 < len(key) <= _MAX_SEAT_KEY and key.isascii() and key.isdigit()
                    and int(key) < game.players):
                raise _BadRequest(f"bot seat {str(key)[:20]!r} is not a seat from 0 to {game.players - 1}")
            try:
                bot = make_bot(spec)
            except ConfigError as exc:
                raise _BadRequest(str(exc)) from None
            if isinstance(bot, ISMCTSBot) and (bot.iterations or 0) > MAX_BOT_ITERATIONS:
                raise _BadRequest(f"an ISMCTS bot here searches at most {MAX_BOT_ITERATIONS} iterations")
            if isinstance(bot, PIMCBot) and (bot.limit.iterations or 0) > MAX_BOT_ITERATIONS:
                raise _BadRequest(f"a PIMC bot here plays at most {MAX_BOT_ITERATIONS} playouts")
            if isinstance(bot, MCBidBot) and (
                (bot.limit.iterations or 0) > MAX_BOT_ITERATIONS or bot.bid_iterations > BID_FACTOR * MAX_BOT_ITERATIONS
            ):
                raise _BadRequest(
                    f"a Monte-Carlo bidder here searches at most {MAX_BOT_ITERATIONS} iterations and "
                    f"{BID_FACTOR * MAX_BOT_ITERATIONS} bid playouts"
                )
            if isinstance(bot, BidSearchBot) and (
                (bot.limit.iterations or 0) > MAX_BOT_ITERATIONS or bot.solve_at > MAX_BOT_SOLVE_AT
            ):
                raise _BadRequest(
                    f"a Monte-Carlo bidder here searches at most {MAX_BOT_ITERATIONS} iterations and "
                    f"solves at most the last {MAX_BOT_SOLVE_AT} tricks exactly"
                )
            bot_specs[int(key)] = spec.strip().lower()
        bot_root = secrets.randbits(64) if seed is None else _derive("cardkit-web-bots", seed)
        tokens: dict[str, str] = {}
        records = []
        for seat in range(game.players):
            if seat in bot_specs:
                records.append(SeatRecord(seat, bot=bot_specs[seat], bot_seed=_derive(bot_root, seat)))
            else:
                token = secrets.token_urlsafe(32)
                tokens[str(seat)] = token
                records.append(SeatRecord(seat, token_hash=hash_token(token)))
        spectator_token = secrets.token_urlsafe(32) if private else None
        access = MatchAccess(seeded=seed is not None,
                             spectator_hash=None if spectator_token is None else hash_token(spectator_token),
                             move_seconds=move_seconds)
        match_id = self._store_match(game, records, access)
        return {"match_id": match_id, "tokens": tokens, "spectator_token": spectator_token}

    def _store_match(self, game: Game[Any, Any], records: list[SeatRecord], access: MatchAccess) -> str:
        # A match of bots only takes one of the host's places for them before it is stored
        # (BotMatchRefused if it may not), and gives it back if storing fails.
        bots_only = all(r.bot is not None for r in records)
        if bots_only:
            self.bots.reserve()
        stored: str | None = None
        try:
            match_id = self.store.create(game)
            # Access before seats: a match is joinable only once its seats are written, so a
            # failure in between leaves it closed, never public by mistake.
            self.access.put(match_id, access)
            self.seats.put(match_id, records)
            stored = match_id
        finally:
            if bots_only:
                self.bots.settle(stored)
        return match_id

    # ------------------------------------------------------------------ bots

    def drive_bots(self, match_id: str) -> None:
        """Let the bots of ``match_id`` move (in the background) until a human is to act."""
        self.bots.drive(match_id)

    # ------------------------------------------------------------------ updates

    def build_update(self, match_id: str, seat: int | None, after: int) -> dict[str, Any]:
        """The update for ``seat`` with the entries after ``after``, from the live match
        (on the event loop: nothing here reads the store). The one place an update is made."""
        live = self._live(match_id)
        game = live.game
        entries = game.entries_for(seat, after) if after < live.seq else ()
        # The view and the legal actions once for both the message and the table.
        view = to_json(game.view(seat))
        legal = tuple(game.legal_actions()) if seat is not None and game.to_act == seat else ()
        message = update_message(game, seat, entries, live.bot_seats, seeded=live.access.seeded, view=view, legal=legal)
        # The page's table: the seat's view as sentences and tables, bot levels, and every
        # entry's events as sentences (all from what this seat may see).
        message["table"] = table_payload(game, seat, live.records, view=view, legal=legal)
        sentences = {e.seq: entry_sentences(game.rules, e, seat) for e in entries}
        for item in message["entries"]:
            item["sentences"] = sentences.get(item["seq"], [])
        message["halted"] = self.bots.halted(live.seq, game.to_act, live.records)
        message["undo"] = undo_status(game, seat, live.records)  # None unless a person plays bots alone
        message["clock"] = self.clocks.status(live)  # None without a per-move clock
        return message

    async def prepared_update(self, match_id: str, seat: int | None, after: int) -> PreparedUpdate:
        """The update for ``seat`` after ``after``, built once per seq for all its sockets.

        Sockets of one audience that have seen the same seq ask for the same update: the
        first one builds it and the others reuse its text while the match stays at that
        seq. The live match first catches up with moves other processes made.
        """
        live = self._live(match_id)
        await self.live.catch_up(live)
        key = (seat, after)
        prepared = live.updates.get(key)
        if prepared is None:
            update = self.build_update(match_id, seat, after)
            prepared = PreparedUpdate(update["seq"], encode(update))
            if live.access.move_seconds is None:  # a clock's remaining time is of the moment: not kept
                live.updates[key] = prepared
        return prepared

    def _live(self, match_id: str) -> LiveMatch:
        live = self.live.get(match_id)
        if live is None:
            raise CardkitError(f"match {match_id!r} is not live in this process")
        return live

    def joined(self, match_id: str, seat: int | None) -> None:
        """A socket joined ``match_id`` as ``seat`` (``None``: a spectator)."""
        if seat is None:
            self.spectators[match_id] = self.spectators.get(match_id, 0) + 1

    def left(self, match_id: str, seat: int | None) -> None:
        """A socket of ``match_id`` left."""
        if seat is None:
            _decrement(self.spectators, match_id)

    def hint(self, match_id: str, seat: int) -> dict[str, Any]:
        """The ``hint`` message for ``seat``: what the rule bot would play now, and why
        (from the live match when this process has it, else from the store)."""
        live = self.live.get(match_id)
        return hint_message(live.game if live is not None else self.store.load(match_id), seat)

    async def move(self, match_id: str, seat: int, expected_seq: int, action: str) -> int:
        """Play a seat's move; the newest seq once it is stored. Raises the game's errors.
        The match's bots are started before its sockets hear of the move (see LiveMatches.move)."""
        live = self._live(match_id)
        if _revoked(live.records, seat):
            raise IllegalActionError(REVOKED_TEXT, None, seat)
        # Bots that choose on the loop answer before the write (one transaction for the move
        # and the replies); the driver is started only if a bot is still to act after them.
        return await self.live.move(live, seat, expected_seq, action, answer=self.bots.answer,
                                    before_announcing=lambda: self._drive_if_bot_to_act(live))

    def _drive_if_bot_to_act(self, live: LiveMatch) -> None:
        if live.game.to_act in live.bot_seats:
            self.drive_bots(live.match_id)

    async def undo(self, match_id: str, seat: int, expected_seq: int) -> dict[str, Any]:
        """Take back ``seat``'s last move with the bots' replies (:mod:`cardkit.web.undo`): the
        ``undo`` reply naming the new match the seat continues in, with its new token.
        Raises :class:`IllegalActionError` with the reason when the rule refuses, and
        :class:`ConcurrencyError` when the match moved on since ``expected_seq``."""
        live = self._live(match_id)
        await self.live.catch_up(live)
        async with live.lock:  # no bot moves in between
            if _revoked(live.records, seat):
                raise IllegalActionError(REVOKED_TEXT, None, seat)
            if expected_seq != live.seq:
                raise ConcurrencyError(f"match {match_id!r} is at seq {live.seq}, not {expected_seq}")
            game = live.game
            earlier = take_back(game, seat, live.records)
            reply = await run_in_threadpool(fork_match, self, game, earlier, live.records, live.access, seat)
            await run_in_threadpool(self.seats.revoke, match_id, seat)
            live.records = tuple(attrs.evolve(r, token_hash=None) if r.seat == seat else r for r in live.records)
            live.updates.clear()
        self.drive_bots(reply["match_id"])
        return reply


def _revoked(records: Sequence[SeatRecord], seat: int) -> bool:
    # A human seat without a token: its match was taken back into a new one (web/undo.py).
    return 0 <= seat < len(records) and records[seat].bot is None and records[seat].token_hash is None


def _decrement(counts: dict[str, int], key: str) -> int:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
    return max(left, 0)


def _move_error(exc: Exception) -> tuple[ErrorCode, str] | None:
    # Only errors a player causes are told to the player; anything else (a match whose
    # stored log no longer replays, a database failure) may carry hidden cards in its text.
    if isinstance(exc, ConcurrencyError):
        return "stale", "the game has moved on since that update: look at the newest one and try again"
    if isinstance(exc, NotYourTurnError):
        return "not_your_turn", str(exc)
    if isinstance(exc, NotationError):
        return "malformed", str(exc)
    if isinstance(exc, IllegalActionError):
        return "illegal", str(exc)
    return None


class _Connection:
    """One WebSocket client after a successful join."""

    def __init__(self, host: WebHost, ws: WebSocket, match_id: str, seat: int | None, after: int,
                 token: str = "") -> None:
        self.host, self.ws, self.match_id, self.seat = host, ws, match_id, seat
        self.token = token  # the seat's: its rematch token is derived from it
        self.sent = after
        self._send_lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(json.dumps(message, separators=(",", ":")))

    async def send_text(self, text: str) -> None:
        async with self._send_lock:
            await within(self.ws.send_text(text), _SEND_TIMEOUT)

    async def push_updates(self) -> None:
        hub = self.host.hub
        first = True
        while True:
            if not first:
                await hub.wait_past(self.match_id, self.sent, 15.0)
                if hub.newest(self.match_id) <= self.sent:
                    continue
            initial, first = first, False
            try:
                update = await self.host.prepared_update(self.match_id, self.seat, self.sent)
            except Exception as exc:
                # The match cannot be read (its stored log no longer replays, the database
                # is down): the client learns only that the server failed.
                log.error("update for match %s seat %s failed", self.match_id, self.seat, exc_info=exc)
                await self.send(server_error())
                await self.ws.close(1011, "server error")
                return
            if update.seq <= self.sent and not initial:
                continue
            await self.send_text(update.text)
            self.sent = max(self.sent, update.seq)
            hub.bump(self.match_id, update.seq)

    async def read_moves(self) -> None:
        bad = 0
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            try:
                data = parse_message(message.get("text") if message.get("text") is not None else message.get("bytes"))
                if data.get("type") == "hint" and self.seat is not None:
                    await self.send(await run_in_threadpool(self.host.hint, self.match_id, self.seat))
                    bad = 0
                    continue
                if data.get("type") == "rematch" and self.seat is not None:
                    reply = await run_in_threadpool(self.host.rematches.claim, self.host, self.match_id, self.seat,
                                                    self.token)
                    if reply["type"] == "rematch":
                        self.host.drive_bots(reply["match_id"])
                    await self.send(reply)
                    bad = 0
                    continue
                if data.get("type") == "undo":
                    if self.seat is None:
                        raise ProtocolError("a spectator cannot undo", "not_your_turn")
                    await self.send(await self.host.undo(self.match_id, self.seat, parse_undo(data)))
                    bad = 0
                    continue
                move = parse_move(data)
                if self.seat is None:
                    raise ProtocolError("a spectator cannot move", "not_your_turn")
                await self.host.move(self.match_id, self.seat, move.expected_seq, move.action)
            except ProtocolError as exc:
                error = error_message(exc.code, str(exc))
            except Exception as exc:
                told = _move_error(exc)
                if told is None:
                    log.error("move in match %s by seat %s failed", self.match_id, self.seat, exc_info=exc)
                    await self.send(server_error())  # not the client's fault: not counted as bad
                    continue
                error = error_message(*told)
            else:
                bad = 0
                continue
            await self.send(error)
            bad += 1
            if bad >= MAX_BAD_MESSAGES:
                await self.ws.close(1008, "too many bad messages")
                return


async def _websocket(ws: WebSocket) -> None:
    host: WebHost = ws.app.state.host
    match_id = ws.path_params["match_id"]
    await ws.accept()
    try:
        message = await asyncio.wait_for(ws.receive(), JOIN_TIMEOUT)
    except (asyncio.TimeoutError, WebSocketDisconnect):
        await _close(ws, "no join message")
        return
    if message["type"] == "websocket.disconnect":
        return
    try:
        live = await host.live.acquire(match_id)  # a store read only if nobody here uses the match yet
    except (UnknownMatchError, ConfigError, ProtocolError) as exc:  # ConfigError: an id no store can hold
        await _close(ws, str(exc) if isinstance(exc, ProtocolError) else "unknown match")
        return
    except Exception as exc:  # the store failed: not the client's doing, and not for its eyes
        log.error("join of match %s failed", match_id, exc_info=exc.__cause__ if isinstance(exc, MatchUnreadable) else exc)
        with contextlib.suppress(Exception):
            if isinstance(exc, MatchUnreadable):  # the match is there but its log does not replay: say so, wordlessly
                await ws.send_text(json.dumps(server_error(), separators=(",", ":")))
            await ws.close(1011, "server error")
        return
    try:
        await _serve(host, ws, live, message)
    finally:
        host.live.release(live)


async def _serve(host: WebHost, ws: WebSocket, live: LiveMatch, message: Any) -> None:
    match_id = live.match_id
    try:
        join = parse_join(parse_message(message.get("text") if message.get("text") is not None else message.get("bytes")),
                          live.game.players)
    except ProtocolError as exc:
        await _close(ws, str(exc))
        return
    if join.seat is not None:
        if live.records[join.seat].token_hash == PENDING:  # a rematch seat: claimed since, maybe elsewhere
            live.records = await run_in_threadpool(host.seats.get, match_id)
        record = live.records[join.seat]
        if record.bot is not None or not token_matches(join.token or "", record.token_hash):
            await _close(ws, "wrong token for that seat")
            return
    else:
        if live.access.private and not token_matches(join.token or "", live.access.spectator_hash):
            await _close(ws, "this match is private: spectators need its spectator token")
            return
        if host.spectators.get(match_id, 0) >= host.max_spectators:
            await _close(ws, f"this match has its most spectators here ({host.max_spectators})")
            return
    try:  # a client resuming here after another process served it: never older than it saw
        after = await host.live.resume(live, join.after)
    except Exception as exc:
        log.error("resume of match %s failed", match_id, exc_info=exc)
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(server_error(), separators=(",", ":")))
            await ws.close(1011, "server error")
        return
    conn = _Connection(host, ws, match_id, join.seat, after, join.token or "")
    host.joined(match_id, join.seat)
    host.hub.watch(match_id, live.seq)
    host.drive_bots(match_id)  # a match left waiting on a bot (a host restart) moves on
    host.clocks.watch(live)
    pusher = asyncio.create_task(conn.push_updates())
    try:
        reader = asyncio.create_task(conn.read_moves())
        done, _ = await asyncio.wait({pusher, reader}, return_when=asyncio.FIRST_COMPLETED)
        for task in (pusher, reader):
            task.cancel()
        for task in (pusher, reader):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for task in done:
            failure = task.exception() if not task.cancelled() else None
            if failure is not None and not isinstance(failure, (WebSocketDisconnect, asyncio.TimeoutError, RuntimeError)):
                log.error("connection to match %s failed: %r", match_id, failure)
    finally:
        host.hub.unwatch(match_id)
        host.left(match_id, join.seat)
        with contextlib.suppress(Exception):
            await ws.close()


async def _close(ws: WebSocket, reason: str) -> None:
    with contextlib.suppress(Exception):
        await ws.close(1008, reason[:120])


async def _games(request: Request) -> Response:
    host: WebHost = request.app.state.host
    # "host" tells the page what this host allows (the lobby shows a seed field only if seeds are taken).
    return JSONResponse({"games": describe_games(), "bots": describe_levels(),
                         "host": {"allow_seeds": host.allow_seeds, "max_spectators": host.max_spectators},
                         "levels": [{"name": name, "spec": spec} for name, spec in LEVELS]})


async def _read_body(request: Request, limit: int) -> bytes | None:
    """The request body, or ``None`` as soon as it is known to exceed ``limit`` bytes.

    A declared ``Content-Length`` over the limit is refused before reading anything; a
    chunked body is read chunk by chunk and abandoned at the first byte past the limit, so a
    client streaming gigabytes costs the server at most ``limit`` bytes plus one chunk.
    """
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def _create(request: Request) -> Response:
    host: WebHost = request.app.state.host
    raw = await _read_body(request, MAX_BODY)
    if raw is None:
        # Connection: close, so the server does not go on reading what the client still sends.
        return JSONResponse({"error": f"the body is at most {MAX_BODY} bytes"}, status_code=413,
                            headers={"Connection": "close"})
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        return JSONResponse({"error": "the body is not valid JSON"}, status_code=400)
    try:
        created = await run_in_threadpool(host.create_match, body)
    except _BadRequest as exc:
        return JSONResponse({"error": exc.message}, status_code=400)
    except BotMatchRefused as refused:
        return JSONResponse({"error": refused.message}, status_code=refused.status)
    except Exception:
        log.exception("creating a match failed")
        return JSONResponse({"error": server_error()["message"], "code": "server"}, status_code=500)
    host.drive_bots(created["match_id"])
    return JSONResponse(created, status_code=201)


async def _rules(request: Request) -> Response:
    page = await run_in_threadpool(rules_page, request.path_params["game"][:60])
    if page is None:
        return Response("no such game", status_code=404, media_type="text/plain")
    return Response(page, media_type="text/html; charset=utf-8")


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


def create_app(
    store_url: str = "memory:",
    *,
    store: Store | None = None,
    allow_bot_matches: bool = False,
    bot_limits: BotLimits = BotLimits(),
    allow_seeds: bool = False,
    allow_origins: Sequence[str] = (),
    max_spectators: int = MAX_SPECTATORS,
    move_clock: MoveClock | None = None,
) -> Starlette:
    """The web host as an ASGI app over the store at ``store_url`` (or an open ``store``
    with that URL's kind, which the app then does not close).

    ``allow_bot_matches`` lets clients create matches without a human seat (refused with
    403 otherwise); ``bot_limits`` bounds what bots may cost. ``allow_seeds`` accepts a
    client's ``seed`` (development only); ``allow_origins`` are origins besides the host's
    own (``https://cards.example``) whose pages may create matches and open sockets;
    ``max_spectators`` caps the spectators of one match here. ``move_clock`` is where
    matches with a per-move clock take their time (tests inject theirs). See docs/web.md.
    """
    if not (isinstance(max_spectators, int) and max_spectators >= 0):
        raise ConfigError(f"max_spectators is a whole number >= 0, not {max_spectators!r}")
    for origin in allow_origins:
        if normalise_origin(origin) is None:
            raise ConfigError(f"an allowed origin is scheme://host[:port], such as https://cards.example, not {origin!r}")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        host = WebHost(store_url, store=store, allow_bot_matches=allow_bot_matches, bot_limits=bot_limits,
                       allow_seeds=allow_seeds, max_spectators=max_spectators, move_clock=move_clock)
        app.state.host = host
        await host.start()
        try:
            yield
        finally:
            await host.stop()

    routes = [
        Route("/", _index),
        Route("/api/games", _games),
        Route("/rules/{game}", _rules),
        Route("/api/matches", _create, methods=["POST"]),
        WebSocketRoute("/api/matches/{match_id}/ws", _websocket),
        *replay_routes(_read_body, STATIC),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    middleware = [Middleware(OriginGuard, allow_origins=tuple(allow_origins))]
    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
