"""Taking back a move against bots on the web: the rule, and the match that continues.

The rule is the library's, not a copy of it: a person may take back their own last move
together with the bots' replies when no card hidden from them was shown to them since
(``Game.undo_seat(seat, replies=True)``, :func:`cardkit.core.knowledge.check_take_back`),
the rule ``cardkit play``'s ``undo`` uses. The host adds two conditions of its own:

* **every other seat is a bot.** The library's check considers only what the person who
  takes back was shown, not what the other seats learned; a bot keeps no memory of a line
  that was taken back, a second person does (they saw the card you played). So a match
  with two people never offers undo, even before the other person has moved;
* **the match is not over** (its result stands; a rematch starts a new one).

The store is append-only and hash-chained, and other processes follow a match by its seq,
so a taken-back move is not deleted: the game as it was before the move is stored as a
**new match** (the same seed, so every later shuffle is the one the original would have
had; the same bots with the same bot seeds, so a bot answers the same move the same way),
and the person gets a new seat token for it, as with a rematch. The old match's seat token
is revoked (:meth:`SeatTable.revoke <cardkit.web.seats.SeatTable.revoke>`): its link no
longer joins and its sockets can no longer move, so nobody can go back to the line that was
taken back with what the new line showed them. The old match stays in the store, unfinished,
as a record.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any, Sequence

from cardkit.core.game import Game
from cardkit.core.rules import CHANCE
from cardkit.errors import CardkitError, IllegalActionError
from cardkit.web.seats import SeatRecord, hash_token

if TYPE_CHECKING:  # pragma: no cover
    from cardkit.web.access import MatchAccess
    from cardkit.web.app import WebHost

__all__ = ["REVOKED_TEXT", "undo_refusal", "take_back", "undo_status", "fork_match"]

REVOKED_TEXT = "this match was taken back and continues in another match: open that one"
"""What a revoked seat of an old match is told when it tries to move there."""


def undo_refusal(game: Game[Any, Any], seat: int | None, records: Sequence[SeatRecord]) -> str | None:
    """Why the host's own conditions refuse ``seat`` an undo now (``None``: they do not;
    the library's rule is checked by :func:`take_back`)."""
    if seat is None:
        return "spectators cannot undo"
    if any(r.bot is None and r.seat != seat for r in records):
        return "undo is only for a person playing against bots, and another person plays in this match"
    if game.is_over:
        return "the match is over: its result stands (a rematch starts a new one)"
    return None


def take_back(game: Game[Any, Any], seat: int, records: Sequence[SeatRecord]) -> Game[Any, Any]:
    """The game as it was just before ``seat``'s last move (with the bots' replies and any
    chance entries after it gone); :class:`IllegalActionError` with the reason otherwise."""
    refused = undo_refusal(game, seat, records)
    if refused is not None:
        raise IllegalActionError(f"cannot undo: {refused}", None, seat)
    try:
        # walks back only to the seat's own last move: cheap enough for every update
        return game.undo_seat(seat, safe=True, replies=True)
    except IllegalActionError as exc:
        reason = str(exc)
        if "has not acted yet" in reason:  # the library's words for it, said to a person
            reason = "you have not moved yet: there is nothing of yours to take back"
        raise IllegalActionError(f"cannot undo: {reason}", None, seat) from None


def undo_status(game: Game[Any, Any], seat: int | None, records: Sequence[SeatRecord]) -> dict[str, Any] | None:
    """The update's ``undo`` field: ``None`` where undo never applies (a spectator, a match
    with another person), else ``{"allowed": bool, "reason": str | None}``."""
    if seat is None or any(r.bot is None and r.seat != seat for r in records):
        return None
    if 0 <= seat < len(records) and records[seat].bot is None and records[seat].token_hash is None:
        return None  # revoked: this match was taken back into another one
    try:
        take_back(game, seat, records)
    except CardkitError as exc:
        return {"allowed": False, "reason": str(exc)}
    return {"allowed": True, "reason": None}


def fork_match(host: WebHost, game: Game[Any, Any], earlier: Game[Any, Any], records: Sequence[SeatRecord],
               access: MatchAccess, seat: int) -> dict[str, Any]:
    """Store ``earlier`` as a new match with the seats of ``records`` (the bots unchanged,
    ``seat`` with a new token); the ``undo`` reply (in a worker thread)."""
    token = secrets.token_urlsafe(32)
    new_records = [SeatRecord(r.seat, token_hash=hash_token(token)) if r.seat == seat else r for r in records]
    match_id = host._store_match(earlier, new_records, access)
    undone = game.log.entries[earlier.entry_count:]
    replies = sum(1 for e in undone if e.actor != CHANCE and e.actor != seat)
    return {"type": "undo", "match_id": match_id, "seat": seat, "token": token,
            "undone": sum(1 for e in undone if e.actor != CHANCE), "replies": replies}
