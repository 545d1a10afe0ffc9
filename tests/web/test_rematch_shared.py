"""Rematches are found by every process of a host: two apps on one SQLite file stand for two
processes (the PostgreSQL version with real processes is in tests/web/test_multiprocess.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardkit.store.errors import UnknownMatchError
from cardkit.web import create_app
from cardkit.web.seats import PENDING
from tests.web.conftest import make_match
from tests.web.test_host import join


def _finish(host: Any, match_id: str) -> None:
    rng = random.Random(0)
    while not (game := host.store.load(match_id)).is_over:
        legal = [str(a) for a in game.legal_actions()]
        plays = [a for a in legal if a.startswith("play")]
        host.store.play(match_id, rng.choice(plays or legal), seat=game.to_act, expected_seq=game.last_entry.seq)


def _ask(client: TestClient, match_id: str, seat: int, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        join(ws, seat, token)
        ws.send_json({"type": "rematch"})
        while (reply := ws.receive_json())["type"] == "update":
            pass
    assert reply["type"] == "rematch", reply
    return dict(reply)


def test_two_processes_racing_to_create_a_rematch_agree(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/shared.db"
    with TestClient(create_app(url, allow_seeds=True)) as one, TestClient(create_app(url, allow_seeds=True)) as two:
        match_id, tokens = make_match(one, game="crazy-eights", players=3, seed=4, bots={"2": "rule"})
        first_host, second_host = one.app.state.host, two.app.state.host  # type: ignore[attr-defined]
        _finish(first_host, match_id)
        zero = _ask(one, match_id, 0, tokens["0"])
        # The second process did not see the first's row when it looked (the race): it creates
        # a rematch of its own, finds the first recorded, and deletes its own.
        real_get = second_host.rematches.table.get
        second_host.rematches.table.get = lambda _match_id: None
        made: list[str] = []
        real_store_match = second_host._store_match

        def store_match(*args: Any) -> str:
            made.append(real_store_match(*args))
            return made[-1]

        second_host._store_match = store_match
        one_reply = _ask(two, match_id, 1, tokens["1"])
        second_host.rematches.table.get = real_get
        assert one_reply["match_id"] == zero["match_id"] and len(made) == 1 and made[0] != zero["match_id"]
        with pytest.raises(UnknownMatchError):
            second_host.store.info(made[0])  # the loser's match is gone
        # Seat 1 was given its token by the second process; both seats play the rematch.
        new_id = zero["match_id"]
        assert [r.token_hash == PENDING for r in first_host.seats.get(new_id)] == [False, False, False]
        for client, seat, reply in ((two, 0, zero), (one, 1, one_reply)):
            with client.websocket_connect(f"/api/matches/{new_id}/ws") as ws:
                assert join(ws, seat, reply["token"])["seat"] == seat
        assert _ask(two, match_id, 0, tokens["0"]) == zero  # asking again elsewhere: the same answer


def test_a_rematch_seat_nobody_asked_for_stays_closed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/shared.db"
    with TestClient(create_app(url, allow_seeds=True)) as client:
        match_id, tokens = make_match(client, game="crazy-eights", players=2, seed=6)
        host = client.app.state.host  # type: ignore[attr-defined]
        _finish(host, match_id)
        reply = _ask(client, match_id, 0, tokens["0"])
        records = host.seats.get(reply["match_id"])
        assert records[1].token_hash == PENDING and records[0].token_hash not in (None, PENDING)
        for token in ("", tokens["1"], PENDING, reply["token"]):  # nothing opens seat 1 before it asks
            with client.websocket_connect(f"/api/matches/{reply['match_id']}/ws") as ws:
                ws.send_json({"type": "join", "seat": 1, "token": token})
                assert ws.receive()["type"] == "websocket.close"
