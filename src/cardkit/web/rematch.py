"""Rematches that keep the seats: one new match per finished match, each seat in its old place.

The first seat of a finished match to ask creates the rematch: the same game and options,
a new deal, the same bots (with new bot seeds) in the same seats. A seeded match (a
development host) gives a seeded rematch with a seed derived from the first.

Any process of a host may be asked, so nothing about a rematch lives only in one process:

* which match is the rematch of which is a row of ``cardkit_web_rematches`` (in the store's
  database, or this process's memory for ``memory:`` stores). Two processes that create a
  rematch of the same match at the same moment both store a match, but only the first row
  written counts: the other process deletes its match and answers with the first one;
* each human seat's new token is derived from the old seat's token and the rematch's id
  (:func:`rematch_token`, an HMAC keyed by the old token), so whichever process a seat asks
  computes the same token, and asking again gives the same answer. The rematch is created
  with its human seats :data:`~cardkit.web.seats.PENDING`; a seat that asks has its token's
  hash written (the store never holds a seat token, only hashes, as for every match), and
  a seat that never asks stays closed;
* a private match's rematch has a new spectator token, kept in the rematch's row (every seat
  that asks is given it). It is kept in the clear: it only lets its holder watch, and
  whoever reads the database already sees every card of every match.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import sqlite3
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Callable, Protocol
from urllib.parse import unquote, urlsplit

from cardkit.core.game import Game
from cardkit.store.errors import StoreError
from cardkit.web.access import MatchAccess
from cardkit.web.bots import derive_seed
from cardkit.web.seats import PENDING, SeatRecord, hash_token
from cardkit.web.sidetable import open_postgres_pool

if TYPE_CHECKING:  # pragma: no cover
    from cardkit.web.app import WebHost

__all__ = ["Rematches", "RematchTable", "MAX_KEPT", "open_rematches", "rematch_token"]

MAX_KEPT = 10_000
"""Rematches one process remembers (a cache of the table; the oldest are forgotten first)."""

_CREATE = (
    "CREATE TABLE IF NOT EXISTS cardkit_web_rematches ("
    " match_id TEXT PRIMARY KEY, rematch_id TEXT NOT NULL, spectator_token TEXT)"
)
_INSERT = ("INSERT INTO cardkit_web_rematches (match_id, rematch_id, spectator_token) VALUES (?, ?, ?)"
           " ON CONFLICT (match_id) DO NOTHING")
_SELECT = "SELECT rematch_id, spectator_token FROM cardkit_web_rematches WHERE match_id = ?"

Made = tuple[str, "str | None"]
"""A rematch: its match id and its spectator token (``None``: a public match)."""


def rematch_token(old_token: str, rematch_id: str) -> str:
    """The token of a seat in the rematch ``rematch_id``, for the player who held that seat
    with ``old_token``: 256 bits nobody computes without the old token."""
    digest = hmac.new(old_token.encode("utf-8", "surrogatepass"), b"cardkit-web-rematch:" + rematch_id.encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class RematchTable(Protocol):
    """Where rematches are recorded: old match id -> (rematch id, spectator token)."""

    def add(self, match_id: str, made: Made) -> Made:
        """Record ``made`` as the rematch of ``match_id`` unless one is recorded; the one that is."""
        ...

    def get(self, match_id: str) -> Made | None:
        """The recorded rematch of ``match_id``, if any."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


class _MemoryRematches:
    """Rematches in this process (``memory:`` stores): the table itself, never evicted."""

    def __init__(self) -> None:
        self._rows: dict[str, Made] = {}
        self._lock = threading.Lock()

    def add(self, match_id: str, made: Made) -> Made:
        with self._lock:
            return self._rows.setdefault(match_id, made)

    def get(self, match_id: str) -> Made | None:
        with self._lock:
            return self._rows.get(match_id)

    def close(self) -> None:
        pass


class _SqlRematches:
    """Rematches in the store's database; ``run(sql, params, fetch)`` runs one statement."""

    def __init__(self, run: Callable[[str, tuple[Any, ...], bool], list[Any]], close: Callable[[], None]) -> None:
        self._run = run
        self._close = close
        self._run(_CREATE, (), False)

    def add(self, match_id: str, made: Made) -> Made:
        self._run(_INSERT, (match_id, made[0], made[1]), False)
        found = self._select(match_id)
        if found is None:  # pragma: no cover - the row was just written
            raise StoreError(f"the rematch of {match_id!r} was not recorded")
        return found

    def get(self, match_id: str) -> Made | None:
        return self._select(match_id)

    def _select(self, match_id: str) -> Made | None:
        rows = self._run(_SELECT, (match_id,), True)
        return None if not rows else (str(rows[0][0]), rows[0][1])

    def close(self) -> None:
        self._close()


def open_rematches(url: str) -> RematchTable:
    """The rematch table that goes with the store at ``url`` (same database)."""
    scheme = url.partition(":")[0].lower()
    if scheme == "sqlite":
        path = unquote(urlsplit(url).path[1:])
        if path == ":memory:":
            return _MemoryRematches()

        def run_sqlite(sql: str, params: tuple[Any, ...], fetch: bool) -> list[Any]:
            try:
                conn = sqlite3.connect(path, timeout=30)
                try:
                    with conn:
                        rows = conn.execute(sql, params).fetchall()
                    return rows if fetch else []
                finally:
                    conn.close()
            except sqlite3.Error as exc:
                raise StoreError(f"SQLite rematch table: {exc}") from None

        return _SqlRematches(run_sqlite, lambda: None)
    if scheme in ("postgresql", "postgres"):
        pool, error = open_postgres_pool(url, _CREATE, 1667330678, "rematch table")

        def run_postgres(sql: str, params: tuple[Any, ...], fetch: bool) -> list[Any]:
            try:
                with pool.connection() as conn:
                    cursor = conn.execute(sql.replace("?", "%s"), params)
                    return list(cursor.fetchall()) if fetch else []
            except error as exc:
                raise StoreError(f"PostgreSQL rematch table: {exc}") from None

        return _SqlRematches(run_postgres, pool.close)
    return _MemoryRematches()


class Rematches:
    """The rematches of one process's host: a bounded cache over the :class:`RematchTable`."""

    def __init__(self, table: RematchTable | None = None) -> None:
        self.table: RematchTable = table if table is not None else _MemoryRematches()
        self._made: OrderedDict[str, Made] = OrderedDict()
        self._lock = threading.Lock()  # one creation per match in this process, even when two seats ask at once

    def claim(self, host: WebHost, match_id: str, seat: int, token: str) -> dict[str, Any]:
        """The ``rematch`` message for ``seat`` (which joined with ``token``) of the finished
        ``match_id`` (in a worker thread): ``{"type": "rematch", "match_id", "seat", "token",
        "spectator_token"}``, or an ``error`` message while the match is not over."""
        with self._lock:
            made = self._made.get(match_id) or self.table.get(match_id)
            if made is None:
                game = host.store.load(match_id)
                if not game.is_over:
                    return {"type": "error", "code": "illegal", "message": "a rematch starts once the match is over"}
                mine = self._create(host, match_id, game)
                made = self.table.add(match_id, mine)
                if made[0] != mine[0]:  # another process recorded its rematch first: ours goes
                    host.store.delete(mine[0])
            self._made[match_id] = made
            self._made.move_to_end(match_id)
            while len(self._made) > MAX_KEPT:
                self._made.popitem(last=False)
        new_id, spectator_token = made
        new_token = rematch_token(token, new_id)
        host.seats.claim(new_id, seat, hash_token(new_token))
        return {"type": "rematch", "match_id": new_id, "seat": seat, "token": new_token,
                "spectator_token": spectator_token}

    @staticmethod
    def _create(host: WebHost, match_id: str, game: Game[Any, Any]) -> Made:
        old = host.seats.get(match_id)
        access = host.access.get(match_id)
        seed = derive_seed("cardkit-web-rematch", game.seed) if access.seeded else secrets.randbits(64)
        new_game = Game.start(game.rules, game.config, seed)
        bot_root = secrets.randbits(64)
        records = [
            SeatRecord(r.seat, bot=r.bot, bot_seed=derive_seed(bot_root, r.seat)) if r.bot is not None
            else SeatRecord(r.seat, token_hash=PENDING)
            for r in old
        ]
        spectator_token = secrets.token_urlsafe(32) if access.private else None
        new_access = MatchAccess(seeded=access.seeded,
                                 spectator_hash=None if spectator_token is None else hash_token(spectator_token),
                                 move_seconds=access.move_seconds)
        return host._store_match(new_game, records, new_access), spectator_token
