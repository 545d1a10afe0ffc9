"""The floor of the web load benchmark: a trivial Starlette WebSocket server, same protocol.

    PYTHONPATH=src python benchmarks/web_floor.py --port 8000

It speaks what ``benchmarks/web_load.py``'s clients speak (``POST /api/matches``, then
``join`` / ``move`` / ``update`` on ``/api/matches/{id}/ws``) for a match shaped like the
benchmark's Crazy Eights for 3 (two human seats and a bot seat that answers at once, about
as many entries per match, updates of the same shape and a similar size: the view, the
``table`` (status sentences, the per-seat table, the seats) and each entry's ``sentences``),
with none of the work of a real host:
no rules, no store, no tokens checked, one dict per match in memory, one ``json.dumps`` per
update per socket. Served by uvicorn with the same WebSocket settings as ``cardkit serve``
(per-message compression on), so what the host costs above it is the host's own work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

ENTRIES = 75
"""Entries per match (a Crazy Eights match for 3 with a rule bot has about this many)."""

# The shapes of a real update (Crazy Eights for 3, mid-hand), so that the clients read and the
# sockets carry as many bytes as from the host.
_LEGAL = ["play 3H", "play 3D", "play 8S H", "play 8S D", "play 8S C", "play 8S S", "play KH", "draw"]
_VIEW = {"game": "crazy-eights", "players": 3, "seat": 0, "phase": "play", "mode": "single", "hand_number": 1,
         "dealer": 2, "to_act": 1, "hand": ["6S", "9S", "JC", "QC", "3H", "8S", "KH"], "hand_sizes": [7, 8, 3],
         "top_card": "5H", "active_suit": "H", "stock_size": 29, "discard_size": 8, "pending_draw": 0,
         "direction": 1, "drawn": None, "scores": [0, 0, 0], "hand_points": [0, 0, 0], "target": None,
         "revealed_hands": None, "legal_actions": [], "result": None}


# The page's table and an entry's sentences as the host sends them (Crazy Eights for 3, mid-hand).
_TABLE = {"status": {"sentences": ["One hand; seat 0 dealt.", "Top card: 5\u2665; the suit to play is \u2665 hearts.",
                                   "Order of play: 1\u21922\u21920.", "Stock: 29 cards; discard pile: 8 cards."],
                     "tables": [{"title": "", "header": ["seat", "cards", "score"],
                                 "rows": [["Seat 0 (you)", "7", "0"], ["Seat 1", "8", "0"], ["Seat 2 (rule bot)", "3", "0"]],
                                 "numeric": [False, True, True]}]},
          "seats": [{"seat": 0, "bot": None}, {"seat": 1, "bot": None}, {"seat": 2, "bot": "rule"}], "notes": []}
BARE = False
"""``--bare``: updates without ``table`` and ``sentences`` (the protocol before the card table)."""


class _Match:
    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = [{"seq": 0, "actor": -1, "action": None, "events": [], "text": None}]
        self.sockets: dict[int, list[WebSocket]] = {0: [], 1: []}
        self.changed = asyncio.Event()

    @property
    def seq(self) -> int:
        return len(self.entries) - 1

    @property
    def to_act(self) -> int:
        return (len(self.entries) - 1) % 3  # seat 0 after the deal (entry 0), then 1, then the bot

    def add(self, actor: int, action: str) -> None:
        seq = len(self.entries)
        self.entries.append({"seq": seq, "actor": actor, "action": {"type": "play", "card": action[-2:], "suit": None},
                             "events": [{"type": "card_played", "seat": actor, "card": action[-2:], "suit": None,
                                         "pending_draw": 0, "next_seat": (actor + 1) % 3}],
                             "text": action})
        if not BARE:
            self.entries[-1]["sentences"] = [f"Seat {actor} plays {action[-2:]}; seat {(actor + 1) % 3} is next."]

    def update(self, seat: int, after: int) -> str:
        over = self.seq >= ENTRIES - 1
        message = {
            "type": "update", "seq": self.seq, "game": "crazy-eights", "players": 3, "seat": seat,
            "to_act": None if over else self.to_act, "legal": _LEGAL if not over and self.to_act == seat else [],
            "view": {**_VIEW, "seat": seat, "to_act": self.to_act}, "scores": [0, 0, 0], "is_over": over, "result": None, "bots": [2], "seeded": False,
            "entries": self.entries[after + 1:], "halted": None,
        }
        if not BARE:
            message["table"] = _TABLE
        return json.dumps(message, separators=(",", ":"))


_matches: dict[str, _Match] = {}


async def _create(request: Request) -> Response:
    await request.body()
    match_id = secrets.token_hex(8)
    _matches[match_id] = _Match()
    return JSONResponse({"match_id": match_id, "tokens": {"0": "t0", "1": "t1"}, "spectator_token": None},
                        status_code=201)


async def _ws(ws: WebSocket) -> None:
    await ws.accept()
    match = _matches[ws.path_params["match_id"]]
    join = json.loads(await ws.receive_text())
    seat = int(join["seat"])
    sent = -1

    async def push() -> None:
        nonlocal sent
        while True:
            if match.seq > sent:
                text = match.update(seat, sent)
                sent = match.seq
                await ws.send_text(text)
            event = match.changed
            if match.seq <= sent:
                await event.wait()

    pusher = asyncio.create_task(push())
    try:
        while True:
            move = json.loads(await ws.receive_text())
            if move["expected_seq"] != match.seq or match.to_act != seat:
                await ws.send_text(json.dumps({"type": "error", "code": "stale", "message": "stale"}))
                continue
            match.add(seat, move["action"])
            if match.to_act == 2 and match.seq < ENTRIES - 1:
                match.add(2, "play 4H")  # the bot answers at once
            match.changed.set()
            match.changed = asyncio.Event()
    except WebSocketDisconnect:
        pass
    finally:
        pusher.cancel()


async def _games(request: Request) -> Response:
    return JSONResponse({"games": []})


app = Starlette(routes=[Route("/api/games", _games), Route("/api/matches", _create, methods=["POST"]),
                        WebSocketRoute("/api/matches/{match_id}/ws", _ws)])


def main() -> None:
    """Serve the floor on 127.0.0.1."""
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bare", action="store_true", help="updates without the table and sentences")
    args = parser.parse_args()
    global BARE
    BARE = args.bare
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", ws_max_size=16_384, lifespan="off")


if __name__ == "__main__":
    main()
