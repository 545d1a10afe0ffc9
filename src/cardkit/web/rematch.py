"""Rematches that keep the seats: one new match per finished match, each seat in its old place.

The first seat of a finished match to ask creates the rematch: the same game and options,
a new deal, the same bots (with new bot seeds) in the same seats, and a new token for every
human seat. Each human seat that asks (its socket joined with the old seat's token) is
given its own new token; the other seats' tokens are never sent to it. A seed chosen by the
match's creator (a development host) gives a seeded rematch with a seed derived from it.

The new tokens are kept in this process's memory only (the store keeps their hashes, as for
every match), at most :data:`MAX_KEPT` rematches, oldest dropped first: on a host of several
processes every seat of a match should ask the same process, and a seat that asks after a
restart (or after its rematch was dropped) gets a new match of its own instead.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from cardkit.core.game import Game
from cardkit.web.access import MatchAccess
from cardkit.web.bots import derive_seed
from cardkit.web.seats import SeatRecord, hash_token

if TYPE_CHECKING:  # pragma: no cover
    from cardkit.web.app import WebHost

__all__ = ["Rematches", "MAX_KEPT"]

MAX_KEPT = 10_000
"""Rematches whose tokens one process keeps (the oldest are forgotten first)."""


class Rematches:
    """The rematches this process made: old match id -> (new match id, seat tokens, spectator token)."""

    def __init__(self) -> None:
        self._made: OrderedDict[str, tuple[str, dict[int, str], str | None]] = OrderedDict()
        self._lock = threading.Lock()  # one rematch per match, even when two seats ask at once

    def claim(self, host: WebHost, match_id: str, seat: int) -> dict[str, Any]:
        """The ``rematch`` message for ``seat`` of the finished ``match_id`` (in a worker thread):
        ``{"type": "rematch", "match_id", "seat", "token", "spectator_token"}``, or an
        ``error`` message while the match is not over."""
        with self._lock:
            made = self._made.get(match_id)
            if made is None:
                game = host.store.load(match_id)
                if not game.is_over:
                    return {"type": "error", "code": "illegal", "message": "a rematch starts once the match is over"}
                made = self._create(host, match_id, game)
                self._made[match_id] = made
                while len(self._made) > MAX_KEPT:
                    self._made.popitem(last=False)
            new_id, tokens, spectator_token = made
        return {"type": "rematch", "match_id": new_id, "seat": seat, "token": tokens.get(seat),
                "spectator_token": spectator_token}

    @staticmethod
    def _create(host: WebHost, match_id: str, game: Game[Any, Any]) -> tuple[str, dict[int, str], str | None]:
        old = host.seats.get(match_id)
        access = host.access.get(match_id)
        seed = derive_seed("cardkit-web-rematch", game.seed) if access.seeded else secrets.randbits(64)
        new_game = Game.start(game.rules, game.config, seed)
        bot_root = secrets.randbits(64)
        tokens: dict[int, str] = {}
        records = []
        for record in old:
            if record.bot is not None:
                records.append(SeatRecord(record.seat, bot=record.bot, bot_seed=derive_seed(bot_root, record.seat)))
            else:
                tokens[record.seat] = secrets.token_urlsafe(32)
                records.append(SeatRecord(record.seat, token_hash=hash_token(tokens[record.seat])))
        spectator_token = secrets.token_urlsafe(32) if access.private else None
        new_access = MatchAccess(seeded=access.seeded,
                                 spectator_hash=None if spectator_token is None else hash_token(spectator_token),
                                 move_seconds=access.move_seconds)
        return host._store_match(new_game, records, new_access), tokens, spectator_token
