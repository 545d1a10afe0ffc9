"""Two ``cardkit serve`` processes on one PostgreSQL store see each other's moves.

Seat 0 talks to one server, seat 1 to the other, a rule bot fills seat 2 (run by whichever
server took the move before it). Each client must receive every entry once, in order,
whatever process wrote it: the servers learn of each other's writes through the store's
LISTEN/NOTIFY channel only. Needs CARDKIT_TEST_POSTGRES (fails under CI without it).
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from typing import Any

from tests.store.conftest import postgres_dsn, wipe_postgres
from tests.web.servers import running_server


def _wipe(dsn: str) -> None:
    import psycopg

    wipe_postgres(dsn)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS cardkit_web_seats")
        conn.execute("DROP TABLE IF EXISTS cardkit_web_access")
        conn.execute("DROP TABLE IF EXISTS cardkit_web_rematches")


def test_two_server_processes_share_one_postgres_store() -> None:
    import httpx
    from websockets.sync.client import connect

    dsn = postgres_dsn()
    _wipe(dsn)
    rng = random.Random(3)
    with running_server(dsn, args=["--allow-seeds"]) as first, running_server(dsn, args=["--allow-seeds"]) as second, ExitStack() as open_sockets:
        created = httpx.post(first + "/api/matches", json={
            "game": "crazy-eights", "players": 3, "bots": {"2": "rule"}, "seed": 99}).json()
        match_id, tokens = created["match_id"], created["tokens"]
        bases = {0: first, 1: second}
        # Each socket is a context manager (websockets 17 deprecates a bare connect()).
        sockets = {s: open_sockets.enter_context(connect(
                       bases[s].replace("http", "ws") + f"/api/matches/{match_id}/ws", open_timeout=10))
                   for s in (0, 1)}
        seen: dict[int, list[int]] = {0: [], 1: []}
        latest: dict[int, dict[str, Any]] = {}

        def receive(s: int) -> dict[str, Any]:
            message: dict[str, Any] = json.loads(sockets[s].recv(timeout=20))
            assert message["type"] == "update", message
            seen[s] += [e["seq"] for e in message["entries"]]
            latest[s] = message
            return message

        for s, ws in sockets.items():
            ws.send(json.dumps({"type": "join", "seat": s, "token": tokens[str(s)]}))
            receive(s)
        for _ in range(400):
            target = max(u["seq"] for u in latest.values())
            for s in sockets:  # both sides catch up with the newest seq either has seen
                while latest[s]["seq"] < target:
                    receive(s)
            if latest[0]["is_over"]:
                break
            mover = latest[0]["to_act"]
            if mover == 2:  # the bot: wait for news from its server
                receive(0)
                continue
            seq = latest[mover]["seq"]
            sockets[mover].send(json.dumps({"type": "move", "expected_seq": seq,
                                            "action": rng.choice(latest[mover]["legal"])}))
            other = 1 - mover
            while latest[other]["seq"] <= seq:  # the other process hears of it
                receive(other)
        assert latest[0]["is_over"] and latest[1]["is_over"]
        final = latest[0]["seq"]
        assert latest[1]["seq"] == final
        for s in (0, 1):
            assert seen[s] == list(range(final + 1)), s


def test_a_private_seeded_match_keeps_its_access_row_on_postgres() -> None:
    from starlette.testclient import TestClient

    from cardkit.web import create_app
    from tests.web.test_internet import join, refused

    dsn = postgres_dsn()
    _wipe(dsn)
    with TestClient(create_app(dsn, allow_seeds=True)) as client:
        created = client.post("/api/matches", json={"game": "wizard", "players": 3, "private": True, "seed": 5}).json()
    with TestClient(create_app(dsn)) as client:  # restarted without --allow-seeds: the mark stays
        path = f"/api/matches/{created['match_id']}/ws"
        assert refused(client, path, {"type": "join", "spectator": True}) == 1008
        with client.websocket_connect(path) as ws:
            assert join(ws, None, created["spectator_token"])["seeded"] is True
