"""No lost wake-ups: a move a server was not notified of still reaches its clients.

The PostgreSQL test kills a real server's LISTEN connection (``pg_terminate_backend``) and
makes a move from another store while that server is reconnecting: the notification of that
move reaches nobody there, and the server must find the move by re-reading the store.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import cardkit.store
from cardkit.web.hub import Hub, PostgresListener
from tests.store.conftest import postgres_dsn
from tests.web.test_postgres import _wipe
from tests.web.servers import running_server


def test_a_wait_that_times_out_reads_the_store() -> None:
    # Nobody bumps the match (its notification was lost): the waiter still learns of seq 7.
    reads: list[str] = []

    async def newest_in_store(match_id: str) -> int | None:
        reads.append(match_id)
        return 7

    async def main() -> tuple[int, int]:
        hub = Hub(newest_in_store)
        hub.watch("m", 3)
        hub.watch("m", 3)
        first, second = await asyncio.gather(hub.wait_past("m", 3, 0.01), hub.wait_past("m", 3, 0.01))
        return first, second

    assert asyncio.run(main()) == (7, 7)
    assert reads == ["m"]  # two waiters, one read of the store


# The web host's listeners (by their application name) that connected after ``since``: a
# server another test left behind on this database, or its reconnects, never count.
_LISTENERS = (
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
    "AND pid <> pg_backend_pid() AND application_name = %s AND backend_start >= %s"
)


def _listeners(conn: Any, since: Any) -> list[int]:
    rows = conn.execute(_LISTENERS, (PostgresListener.APPLICATION_NAME, since)).fetchall()
    return [int(row[0]) for row in rows]


def _wait_until(conn: Any, since: Any, want_none: bool) -> list[int]:
    for _ in range(200):  # a state PostgreSQL reaches on its own (bounded polls)
        pids = _listeners(conn, since)
        if bool(pids) != want_none:
            return pids
        time.sleep(0.02)
    raise AssertionError("the server's LISTEN connection never " + ("went away" if want_none else "appeared"))


def test_a_move_made_while_the_listener_reconnects_reaches_the_client() -> None:
    import psycopg

    dsn = postgres_dsn()
    _wipe(dsn)
    with psycopg.connect(dsn, autocommit=True) as admin:
        since = admin.execute("SELECT clock_timestamp()").fetchone()[0]
        with running_server(dsn) as base:
            _check_a_lost_notification_is_found(dsn, base, admin, since)


def _check_a_lost_notification_is_found(dsn: str, base: str, admin: Any, since: Any) -> None:
    import httpx
    from websockets.sync.client import connect

    created = httpx.post(base + "/api/matches", json={"game": "crazy-eights", "players": 2},
                         headers={"Origin": base}).json()
    match_id, tokens = created["match_id"], created["tokens"]
    store = cardkit.store.open(dsn)
    try:
        with connect(base.replace("http", "ws") + f"/api/matches/{match_id}/ws", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "seat": 0, "token": tokens["0"]}))
            seen = json.loads(ws.recv(timeout=10))["seq"]
            for _attempt in range(3):
                listener = _wait_until(admin, since, want_none=False)
                admin.execute("SELECT pg_terminate_backend(%s)", (listener[0],))
                _wait_until(admin, since, want_none=True)
                game = store.load(match_id)
                store.play(match_id, game.legal_actions()[0], seat=game.to_act, expected_seq=seen)
                seen += 1
                if not _listeners(admin, since):
                    break  # the move was made while nobody in that server listened
                # The server reconnected before the move (it should not, within 1 s): the
                # move was notified normally, so this attempt proves nothing; try again.
                update = json.loads(ws.recv(timeout=10))
                assert update["seq"] >= seen
            else:
                raise AssertionError("could not make a move while the listener was down")
            # The notification was lost; the reconnect's re-read finds the move. Without
            # it the client waited forever (15 s wait timeouts never looked at the store).
            update = json.loads(ws.recv(timeout=10))
            assert update["type"] == "update" and update["seq"] == seen
            assert [e["seq"] for e in update["entries"]][-1] == seen
    finally:
        store.close()
