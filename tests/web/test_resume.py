"""Reconnect and resume: a join with ``after=<last seq>`` gets every later entry exactly once.

(Resuming on another process of the same PostgreSQL store: tests/web/test_multiprocess.py.)
"""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient

from cardkit.serde import to_json
from tests.web.conftest import host_move, make_match, receive_until
from tests.web.test_host import join


def test_a_reconnect_gets_what_it_missed_once(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="crazy-eights", players=2, seed=21)
    path = f"/api/matches/{match_id}/ws"
    host = client.app.state.host  # type: ignore[attr-defined]
    with client.websocket_connect(path) as ws:
        first = join(ws, 0, tokens["0"])
    seen = [e["seq"] for e in first["entries"]]
    assert seen == list(range(first["seq"] + 1))
    # Seat 0 is away while both seats move (seat 0 from another device).
    for _ in range(6):
        game = host.store.load(match_id)
        if game.is_over:
            break
        host_move(client, match_id, game.to_act, game.last_entry.seq, str(game.legal_actions()[0]))
    newest = host.store.info(match_id).last_seq
    assert newest > seen[-1]
    with client.websocket_connect(path) as ws:
        update = join(ws, 0, tokens["0"], after=seen[-1])
        assert update["seq"] == newest
        seen += [e["seq"] for e in update["entries"]]
        assert seen == list(range(newest + 1))  # nothing lost, nothing twice
    with client.websocket_connect(path) as ws:  # nothing missed: no entry, the same seq
        update = join(ws, 0, tokens["0"], after=newest)
        assert update["seq"] == newest and update["entries"] == []


def test_a_resume_past_the_live_copy_reads_the_store_first(client: TestClient) -> None:
    # The match is live here (a spectator watches it) when moves are written by "another
    # process" (straight into the store: this process is not told). A client that saw them
    # there and reconnects here must not be sent an update older than what it saw.
    match_id, tokens = make_match(client, game="crazy-eights", players=2, seed=22)
    path = f"/api/matches/{match_id}/ws"
    host = client.app.state.host  # type: ignore[attr-defined]
    with client.websocket_connect(path) as spectator:
        start = join(spectator, None)
        for _ in range(4):
            game = host.store.load(match_id)
            if game.is_over:
                break
            host.store.play(match_id, game.legal_actions()[0], seat=game.to_act, expected_seq=game.last_entry.seq)
        newest = host.store.info(match_id).last_seq
        assert newest > start["seq"] and host.live.get(match_id).seq == start["seq"]  # the live copy is behind
        with client.websocket_connect(path) as ws:
            update = join(ws, 0, tokens["0"], after=newest)
            assert update["seq"] == newest and update["entries"] == []
            assert update["view"] == json.loads(json.dumps(to_json(host.store.load(match_id).view(0))))
        # The spectator hears of the moves too (the live copy moved on), each entry once.
        got: list[dict[str, Any]] = receive_until(spectator, newest)
        assert [e["seq"] for m in got for e in m["entries"]] == list(range(start["seq"] + 1, newest + 1))


def test_a_resume_past_the_stored_log_starts_from_the_newest(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="crazy-eights", players=2, seed=23)
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        update = join(ws, 0, tokens["0"], after=10_000)  # a client bug (or a lie): no entry, no error
        assert update["type"] == "update" and update["entries"] == []
        host = client.app.state.host  # type: ignore[attr-defined]
        assert update["seq"] == host.store.info(match_id).last_seq
        game = host.store.load(match_id)  # and the next move still reaches it
        host_move(client, match_id, game.to_act, update["seq"], str(game.legal_actions()[0]))
        assert [e["seq"] for e in receive_until(ws, update["seq"] + 1)[-1]["entries"]] == [update["seq"] + 1]
