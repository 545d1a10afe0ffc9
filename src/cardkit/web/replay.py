"""Replays on the web host: a stored match, or an uploaded log, stepped through move by move.

Two routes (registered by :func:`replay_routes`; see docs/web.md, "Replays"):

* ``POST /api/matches/{match_id}/replay`` with ``{"seat": S, "token": T}`` (a seat and its
  token: that seat's view at every step) or ``{"seat": null, "token": T|null}`` (the
  spectator view; a private match needs its spectator token). A match still being played
  is replayed up to its newest entry, as the asker could see it live; nothing more.
* ``POST /api/replays?seat=S`` with a log file as the body (``cardkit play``'s ``save`` or
  ``save --seat``). A full log (it has the seed, so whoever holds it knows every card) is
  replayed, which verifies it, and shown from any seat or as a spectator. A per-seat log is
  shown from its own seat only: its table at every step comes from a game rebuilt to fit
  everything the seat was told (:mod:`cardkit.web.seatworld`); when none is found within
  the bound, the sentences the seat was told are shown without a table.

A replay is one JSON object: ``steps[0]`` is the table before anything happened, ``steps[k]``
the table after entry ``k - 1``, each with the entry's action and its sentences
(``rules.describe``) and the table as sentences and small tables (``cardkit.render.status``),
all built from ``rules.view(state, viewer)`` and ``game.entries_for(viewer)``: what the
viewer was sent live, never more.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping, Sequence

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from cardkit.cards import Card
from cardkit.core.game import Game
from cardkit.core.log import GameLog, SeatEntry, SeatLog
from cardkit.errors import CardkitError
from cardkit.games import get_rules
from cardkit.render import action_text, describe, status
from cardkit.serde import to_json
from cardkit.store.errors import UnknownMatchError
from cardkit.web.seats import token_matches
from cardkit.web.table import status_json

__all__ = [
    "MAX_UPLOAD",
    "MAX_REPLAY_ENTRIES",
    "MAX_BUILDS",
    "MAX_REQUEST",
    "ReplayRefused",
    "card_name",
    "build_replay",
    "seat_log_replay",
    "match_replay",
    "upload_replay",
    "replay_routes",
    "BodyReader",
]

log = logging.getLogger("cardkit.web")

MAX_UPLOAD = 1_048_576
"""The largest log ``POST /api/replays`` reads, in bytes (1 MiB: a six-player Wizard game's
full log is well under 200 KiB). Read like every body: refused at its first byte past it."""

MAX_REPLAY_ENTRIES = 10_000
"""The most entries a replay has (the bots' action budget): a longer match or log is refused."""

MAX_BUILDS = 2
"""Replays built at once in one process (each holds a worker thread: a 10,000-entry replay
takes seconds of CPU); one more is answered ``503`` at once rather than queued."""

MAX_REQUEST = 1024
"""The largest body of ``POST /api/matches/{id}/replay`` (a seat and a token), in bytes."""

_RANKS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SPECIAL = {"RJ": "red joker", "BJ": "black joker", "XJ": "third joker", "W": "Wizard", "N": "Jester"}
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class ReplayRefused(CardkitError):
    """A replay this host will not give: ``status`` is the HTTP status, the message says why."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def card_name(code: str) -> str:
    """What a screen reader says for a card code: ``queen of spades``, ``10 of hearts``, ``Wizard``."""
    if code in _SPECIAL:
        return _SPECIAL[code]
    if len(code) == 2 and code[1] in _SUITS:
        return f"{_RANKS.get(code[0], code[0])} of {_SUITS[code[1]]}"
    return code


def _card_json(code: str) -> dict[str, str]:
    if len(code) == 2 and code[1] in _SYMBOLS:
        text = ("10" if code[0] == "T" else code[0]) + _SYMBOLS[code[1]]
        suit = code[1]
    else:
        text, suit = _SPECIAL.get(code, code), ""
    return {"code": code, "text": text, "name": card_name(code), "suit": suit}


def _hand(view: Any) -> list[dict[str, str]] | None:
    hand = view.get("hand") if isinstance(view, Mapping) else None
    if not isinstance(hand, list) or not all(isinstance(c, str) and c in Card._interned for c in hand):
        return None
    return [_card_json(c) for c in hand]


def _step(rules: Any, entry: SeatEntry | None, viewer: int | None) -> dict[str, Any]:
    if entry is None:
        return {"seq": -1, "actor": None, "action": None, "sentences": []}
    return {
        "seq": entry.seq,
        "actor": entry.actor,
        "action": None if entry.action is None else action_text(entry.action),
        "sentences": [describe(rules, event, viewer) for event in entry.events],
    }


def _viewer_label(viewer: int | None) -> str:
    return "a spectator" if viewer is None else f"seat {viewer}"


def build_replay(
    game: Game[Any, Any],
    viewer: int | None,
    *,
    names: Mapping[int, str] | None = None,
    source: str = "match",
    viewers: Sequence[int | None] = (),
) -> dict[str, Any]:
    """The replay of ``game`` as ``viewer`` (a seat, ``None``: a spectator) saw it.

    The host-side log is folded entry by entry (``rules.evolve``) and each step carries only
    ``rules.view(state, viewer)`` and the viewer's redacted entry: the state, the seed and
    the chance orders never leave this function. ``viewers`` lists whom the asker may switch
    to (a full log: every seat and the spectator).
    """
    entries = game.entries_for(viewer)
    if len(entries) > MAX_REPLAY_ENTRIES:
        raise ReplayRefused(f"a replay here has at most {MAX_REPLAY_ENTRIES} entries; this one has {len(entries)}", 413)
    rules = game.rules
    names = dict(names or {})
    state = rules.initial_state(game.config)
    steps = []
    full = game.log.entries
    for k in range(len(entries) + 1):
        if k:
            for event in full[k - 1].events:
                state = rules.evolve(state, event)
        view = to_json(rules.view(state, viewer))
        step = _step(rules, entries[k - 1] if k else None, viewer)
        step["to_act"] = rules.to_act(state)
        step["status"] = status_json(status(rules, view, names))
        step["hand"] = _hand(view)
        steps.append(step)
    result = game.result
    return {
        "game": rules.name,
        "players": game.players,
        "viewer": viewer,
        "viewer_label": _viewer_label(viewer),
        "source": source,
        "in_progress": result is None,
        "result": None if result is None else {"scores": list(result.scores), "winners": list(result.winners)},
        "names": {str(s): n for s, n in sorted(names.items())},
        "viewers": list(viewers),
        "tables": True,
        "steps": steps,
    }


def seat_log_replay(seat_log: SeatLog) -> dict[str, Any]:
    """The replay of a per-seat log, from its own seat: the table at every step from a game
    rebuilt to fit everything the seat was told (:func:`cardkit.web.seatworld.rebuild`:
    every step is checked against the log, and only the seat's view of it is sent); when no
    such game is found within the bound, the seat's sentences only, with ``note`` saying so.

    A log that shows its seat a card the rules hide from it (another seat's hand) is refused
    (400), and so is an entry the game's ``describe`` cannot read."""
    from cardkit.web.seatworld import ClaimsHiddenCards, Unrebuildable, rebuild

    rules = get_rules(seat_log.game)
    entries = seat_log.entries
    if len(entries) > MAX_REPLAY_ENTRIES:
        raise ReplayRefused(f"a replay here has at most {MAX_REPLAY_ENTRIES} entries; this one has {len(entries)}", 413)
    viewer = seat_log.seat
    note = None
    try:
        world = rebuild(rules, seat_log.config, viewer, entries)
    except ClaimsHiddenCards as exc:
        raise ReplayRefused(str(exc), 400) from None
    except Unrebuildable as exc:
        note = (f"No table could be rebuilt from this log ({exc}); "
                "the sentences are shown as its seat was told them.")
    else:
        replay = build_replay(world, viewer, source="seat-log", viewers=[viewer])
        replay["note"] = None
        return replay
    players = seat_log.config.get("players")
    steps = [_step(rules, None, viewer)]
    for entry in entries:
        try:
            steps.append(_step(rules, entry, viewer))
        except Exception:  # noqa: BLE001 - unverified data: any failure is the file's
            raise ReplayRefused(
                f"entry {entry.seq} of this seat log is not one {rules.name} writes: the file was changed "
                "or is not a cardkit log", 400) from None
    for step in steps:
        step.update(to_act=None, status=None, hand=None)
    return {
        "game": rules.name,
        "players": players if isinstance(players, int) and not isinstance(players, bool) else None,
        "viewer": viewer,
        "viewer_label": _viewer_label(viewer),
        "source": "seat-log",
        "in_progress": None,
        "result": None,
        "names": {},
        "viewers": [viewer],
        "tables": False,
        "note": note,
        "steps": steps,
    }


# ---------------------------------------------------------------------------- host side


def _bot_names(records: Sequence[Any]) -> dict[int, str]:
    return {r.seat: f"{r.bot} bot" for r in records if r.bot is not None}


def match_replay(host: Any, match_id: str, body: Any) -> dict[str, Any]:
    """The replay of a stored match for the asker of ``body`` (``{"seat", "token"}``).

    Refused alike (403, one message) for a wrong token, a bot seat and a private match
    without its spectator token, so a refusal does not tell which seats are bots."""
    if not isinstance(body, dict) or set(body) - {"seat", "token"}:
        raise ReplayRefused('the body is {"seat": a seat or null (a spectator), "token": its token}', 400)
    seat, token = body.get("seat"), body.get("token")
    if token is not None and not isinstance(token, str):
        raise ReplayRefused('"token" is a string or null', 400)
    try:
        info = host.store.info(match_id)
        records = host.seats.get(match_id)
    except UnknownMatchError:  # also an id no store can hold (MatchIdError)
        raise ReplayRefused("unknown match", 404) from None
    if len(records) != info.players:
        raise ReplayRefused("unknown match", 404)  # not a web match: nobody here may say who sees it
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < info.players):
        raise ReplayRefused(f'"seat" is a seat from 0 to {info.players - 1}, or null for the spectator view', 400)
    access = host.access.get(match_id)
    if seat is not None:
        record = records[seat]
        if record.bot is not None or not token_matches(token or "", record.token_hash):
            raise ReplayRefused("wrong token for that seat", 403)
    elif access.private and not token_matches(token or "", access.spectator_hash):
        raise ReplayRefused("this match is private: its replay needs the spectator token", 403)
    if info.entries > MAX_REPLAY_ENTRIES:
        raise ReplayRefused(f"a replay here has at most {MAX_REPLAY_ENTRIES} entries; this match has {info.entries}", 413)
    game = host.store.load(match_id)
    replay = build_replay(game, seat, names=_bot_names(records), source="match", viewers=[seat])
    replay["seeded"] = access.seeded
    return replay


def upload_replay(raw: bytes, seat_text: str | None) -> dict[str, Any]:
    """The replay of an uploaded log (its bytes) from ``seat_text`` (the ``seat`` query
    parameter: a seat number, ``spectator``, or absent: seat 0 of a full log, the log's own
    seat of a seat log). Anything malformed is a :class:`ReplayRefused` (400)."""
    from cardkit.api import replay as replay_log
    from cardkit.serde import loads, loads_seat_log

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayRefused("the file is not UTF-8 text: a cardkit log is UTF-8 JSON", 400) from None
    viewer: int | None
    if seat_text is None or seat_text == "":
        viewer, chosen = 0, False
    elif seat_text == "spectator":
        viewer, chosen = None, True
    elif seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 4:
        viewer, chosen = int(seat_text), True
    else:
        raise ReplayRefused('"seat" is a seat number or "spectator"', 400)
    try:
        try:
            full: GameLog | None = loads(text)
        except CardkitError as first:
            try:
                seat_log = loads_seat_log(text)
            except CardkitError:
                raise ReplayRefused(f"not a cardkit log: {_short(first)}", 400) from None
            if chosen and viewer != seat_log.seat:
                raise ReplayRefused(
                    f"this is {_viewer_label(seat_log.seat)}'s log: it can be shown only as that seat saw it", 403)
            return seat_log_replay(seat_log)
    except RecursionError:
        raise ReplayRefused("the file is nested too deeply to be a cardkit log", 400) from None
    assert full is not None
    if len(full.entries) > MAX_REPLAY_ENTRIES:
        raise ReplayRefused(f"a replay here has at most {MAX_REPLAY_ENTRIES} entries; this log has {len(full.entries)}", 413)
    try:
        game = replay_log(full)
    except CardkitError as exc:
        raise ReplayRefused(f"this log does not replay: {_short(exc)}", 400) from None
    if viewer is not None and not viewer < game.players:
        raise ReplayRefused(f'"seat" is a seat from 0 to {game.players - 1}, or "spectator"', 400)
    viewers: list[int | None] = [*range(game.players), None]
    return build_replay(game, viewer, source="log", viewers=viewers)


def _short(exc: Exception) -> str:
    # The uploader's own file: its errors may name its cards, which the uploader has anyway.
    return str(exc)[:300]


def _json_response(data: dict[str, Any]) -> Response:
    return Response(json.dumps(data, separators=(",", ":"), ensure_ascii=False),
                    media_type="application/json", headers={"Cache-Control": "no-store"})


def _refused(exc: ReplayRefused) -> Response:
    headers = {"Connection": "close"} if exc.status == 413 else None
    return JSONResponse({"error": exc.message}, status_code=exc.status, headers=headers)


BodyReader = Callable[[Request, int], Awaitable["bytes | None"]]
"""The host's body reader: the body, or ``None`` once it is known to pass the limit."""


def replay_routes(read_body: BodyReader, static: Path) -> list[Route]:
    """The replay page (``static/replay.html``) and its two API routes, for ``create_app``,
    which passes its own body reader so that every body is read the same way. At most
    :data:`MAX_BUILDS` replays are built at once in this app."""
    building = [0]  # replays being built now (one event loop: no lock needed)

    async def build(function: Callable[..., dict[str, Any]], *args: Any) -> Response:
        if building[0] >= MAX_BUILDS:
            return JSONResponse({"error": "the host is building other replays: try again in a moment"},
                                status_code=503, headers={"Retry-After": "2"})
        building[0] += 1
        try:
            data = await run_in_threadpool(function, *args)
        except ReplayRefused as exc:
            return _refused(exc)
        except Exception:
            log.exception("a replay failed")  # may name hidden cards: for operators only
            return JSONResponse({"error": "the server could not build that replay (its log says why)"}, status_code=500)
        finally:
            building[0] -= 1
        return _json_response(data)

    async def match(request: Request) -> Response:
        raw = await read_body(request, MAX_REQUEST)
        if raw is None:
            return _refused(ReplayRefused(f"the body is at most {MAX_REQUEST} bytes", 413))
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):
            return JSONResponse({"error": "the body is not valid JSON"}, status_code=400)
        return await build(match_replay, request.app.state.host, request.path_params["match_id"], body)

    async def upload(request: Request) -> Response:
        raw = await read_body(request, MAX_UPLOAD)
        if raw is None:
            return _refused(ReplayRefused(f"a log to replay is at most {MAX_UPLOAD} bytes", 413))
        return await build(upload_replay, raw, request.query_params.get("seat"))

    async def page(request: Request) -> Response:
        return FileResponse(static / "replay.html", headers={"Cache-Control": "no-cache"})

    return [
        Route("/replay", page),
        Route("/api/matches/{match_id}/replay", match, methods=["POST"]),
        Route("/api/replays", upload, methods=["POST"]),
    ]
