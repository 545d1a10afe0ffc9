"""The web host through its HTTP and WebSocket API (Starlette's test client, memory store)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardkit.games import available_games
from cardkit.web import create_app
from tests.web.conftest import make_match, receive_until


def join(ws: Any, seat: int | None, token: str | None = None, after: int = -1) -> dict[str, Any]:
    ws.send_json({"type": "join", "spectator": True, "after": after} if seat is None
                 else {"type": "join", "seat": seat, "token": token, "after": after})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "update", message
    return message


def closed_with(client: TestClient, path: str, first: Any) -> int:
    """The close code the server answers ``first`` with (it must close)."""
    with client.websocket_connect(path) as ws:
        if isinstance(first, bytes):
            ws.send_bytes(first)
        elif isinstance(first, str):
            ws.send_text(first)
        else:
            ws.send_json(first)
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        return info.value.code


def test_games_endpoint(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    names = [g["name"] for g in games]
    assert names == list(available_games())  # other tests may have registered games of their own
    assert {"crazy-eights", "cutthroat-spades", "spacc-u-mazz", "wizard"} <= set(names)


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<script" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "players": 2},
        {"game": "crazy-eights", "players": 1},
        {"game": "crazy-eights", "players": "2"},
        {"game": "crazy-eights", "players": 2, "options": {"mode": "blitz"}},
        {"game": "crazy-eights", "players": 2, "options": {"players": 3}},
        {"game": "crazy-eights", "players": 2, "options": {"nonsense": 1}},
        {"game": "crazy-eights", "players": 2, "options": []},
        {"game": "crazy-eights", "players": 2, "bots": {"2": "rule"}},
        {"game": "crazy-eights", "players": 2, "bots": {"-1": "rule"}},
        {"game": "crazy-eights", "players": 2, "bots": {"1": "genius"}},
        {"game": "crazy-eights", "players": 2, "bots": {"1": 7}},
        {"game": "crazy-eights", "players": 2, "bots": {"1": "ismcts:1000000"}},
        {"game": "crazy-eights", "players": 2, "bots": {"1": "pimc:1000000"}},
        {"game": "crazy-eights", "players": 2, "bots": {"1": "pimc:" + "9" * 5000}},
        {"game": "cutthroat-spades", "players": 3, "bots": {"1": "mcbid:1000000"}},
        {"game": "cutthroat-spades", "players": 3, "bots": {"1": "mcbid:1000:100000000"}},
        {"game": "cutthroat-spades", "players": 3, "bots": {"1": "mcbid:" + "9" * 5000}},
        {"game": "wizard", "players": 3, "bots": {"1": "bid-search:1000000"}},
        {"game": "wizard", "players": 3, "bots": {"1": "bid-search:1000:20"}},
        {"game": "wizard", "players": 3, "bots": {"1": "bid-search:" + "9" * 5000}},
        {"game": "crazy-eights", "players": 2, "seed": -1},
        {"game": "crazy-eights", "players": 2, "seed": 2**64},
        {"game": "crazy-eights", "players": 2, "seed": "1"},
        {"game": "crazy-eights", "players": 2, "extra": 1},
        {"game": "'; DROP TABLE cardkit_matches; --", "players": 2},
        ["crazy-eights"],
    ],
)
def test_bad_match_requests_are_400(client: TestClient, body: Any) -> None:
    response = client.post("/api/matches", json=body)
    assert response.status_code == 400
    assert isinstance(response.json()["error"], str) and response.json()["error"]


def test_body_limits(client: TestClient) -> None:
    json_type = {"content-type": "application/json"}
    assert client.post("/api/matches", content=b"{nope", headers=json_type).status_code == 400
    big = b'{"game": "crazy-eights", "players": 2, "options": {"x": "' + b"a" * 20_000 + b'"}}'
    assert client.post("/api/matches", content=big, headers=json_type).status_code == 413


def test_tokens_only_for_humans_and_random(client: TestClient) -> None:
    _, tokens = make_match(client, game="crazy-eights", players=3, bots={"1": "rule"})
    assert sorted(tokens) == ["0", "2"]
    assert len(set(tokens.values())) == 2 and all(len(t) >= 40 for t in tokens.values())


def test_only_token_hashes_are_stored(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with TestClient(create_app(f"sqlite:///{db}")) as client:
        _, tokens = make_match(client, game="wizard", players=3, bots={"2": "random"})
    raw = db.read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("web.db-*"))
    for token in tokens.values():
        assert token.encode() not in raw


def test_bad_joins_close_with_1008(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="crazy-eights", players=3, bots={"2": "rule"})
    path = f"/api/matches/{match_id}/ws"
    assert closed_with(client, path, {"type": "join", "seat": 0, "token": "wrong"}) == 1008
    assert closed_with(client, path, {"type": "join", "seat": 0}) == 1008
    assert closed_with(client, path, {"type": "join", "seat": 1, "token": tokens["0"]}) == 1008
    assert closed_with(client, path, {"type": "join", "seat": 2, "token": tokens["0"]}) == 1008  # a bot seat
    assert closed_with(client, path, {"type": "join", "seat": 9, "token": tokens["0"]}) == 1008
    assert closed_with(client, path, {"type": "move", "expected_seq": 0, "action": "draw"}) == 1008
    assert closed_with(client, path, "not json") == 1008
    assert closed_with(client, path, b"\x00\x01") == 1008
    assert closed_with(client, path, "x" * 100_000) == 1008


@pytest.mark.parametrize(
    "match_id",
    ["nope", "' OR 1=1 --", "%00", "a" * 300, "%2e%2e", "a.b", "ü😀", "1; DROP TABLE cardkit_web_seats"],
)
def test_hostile_match_ids(client: TestClient, match_id: str) -> None:
    code = closed_with(client, f"/api/matches/{match_id}/ws", {"type": "join", "spectator": True})
    assert code == 1008
    assert client.get("/api/games").status_code == 200  # still serving


def test_seat_cannot_act_for_another(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="crazy-eights", players=3, seed=4)
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        first = join(ws, 1, tokens["1"])
        to_act = first["to_act"]
        other = (to_act + 1) % 3 if to_act == 1 else 1
        with client.websocket_connect(f"/api/matches/{match_id}/ws") as mover:
            update = join(mover, other, tokens[str(other)])
            assert update["legal"] == []
            mover.send_json({"type": "move", "expected_seq": update["seq"], "action": "draw"})
            error = mover.receive_json()
            assert error["type"] == "error" and error["code"] == "not_your_turn"


def test_errors_for_stale_illegal_and_malformed(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="crazy-eights", players=2, seed=11)
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws0, \
         client.websocket_connect(f"/api/matches/{match_id}/ws") as ws1:
        updates = {0: join(ws0, 0, tokens["0"]), 1: join(ws1, 1, tokens["1"])}
        seat = updates[0]["to_act"]
        ws = ws0 if seat == 0 else ws1
        seq = updates[seat]["seq"]
        legal = updates[seat]["legal"]

        def expect(message: Any, code: str) -> None:
            if isinstance(message, str):
                ws.send_text(message)
            else:
                ws.send_json(message)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == code, reply
            assert reply["message"]

        expect({"type": "move", "expected_seq": seq, "action": "play 8X"}, "malformed")
        expect({"type": "move", "expected_seq": seq, "action": "sing"}, "malformed")
        illegal = next(f"play {c}" for c in ("AS", "AH", "AD", "AC", "KS", "2C") if f"play {c}" not in legal)
        expect({"type": "move", "expected_seq": seq, "action": illegal}, "illegal")
        expect({"type": "move", "expected_seq": seq - 1, "action": legal[0]}, "stale")
        expect({"type": "move", "expected_seq": seq}, "malformed")
        expect("{" * 5000, "malformed")
        expect({"type": "dance"}, "malformed")
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["code"] == "malformed"
        # After all that the game is unchanged and the real move works.
        ws.send_json({"type": "move", "expected_seq": seq, "action": legal[0]})
        after = receive_until(ws, seq + 1)[-1]
        assert after["type"] == "update" and after["seq"] > seq
        assert after["entries"][0]["seq"] == seq + 1 and after["entries"][0]["text"] == legal[0]


def test_spectator_gets_view_none_and_cannot_move(client: TestClient) -> None:
    match_id, _ = make_match(client, game="crazy-eights", players=2, seed=3)
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        update = join(ws, None)
        assert update["seat"] is None and update["legal"] == []
        assert update["view"]["seat"] is None and update["view"].get("hand") in (None, [])
        ws.send_json({"type": "move", "expected_seq": update["seq"], "action": "draw"})
        assert ws.receive_json()["code"] == "not_your_turn"


def test_reconnect_resumes_after_last_seen_seq(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="crazy-eights", players=2, seed=21, bots={"1": "rule"})
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        update = join(ws, 0, tokens["0"])
        while update["to_act"] != 0 and not update["is_over"]:
            update = ws.receive_json()
        seen = update["seq"]
        ws.send_json({"type": "move", "expected_seq": seen, "action": update["legal"][0]})
        newer = receive_until(ws, seen + 1)[-1]
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        resumed = join(ws, 0, tokens["0"], after=seen)
        assert [e["seq"] for e in resumed["entries"]] == list(range(seen + 1, resumed["seq"] + 1))
        assert resumed["seq"] >= newer["seq"]


def _play_to_end(client: TestClient, body: dict[str, Any], seed: int) -> dict[str, Any]:
    """Humans pick random legal moves; bots fill the rest; the spectator watches."""
    rng = random.Random(seed)
    match_id, tokens = make_match(client, seed=seed, **body)
    path = f"/api/matches/{match_id}/ws"
    humans = sorted(int(s) for s in tokens)
    sockets = {s: client.websocket_connect(path) for s in humans}
    spectator = client.websocket_connect(path)
    try:
        latest = {s: join(ws.__enter__(), s, tokens[str(s)]) for s, ws in sockets.items()}
        watch = join(spectator.__enter__(), None)
        seqs: dict[Any, list[int]] = {s: [e["seq"] for e in u["entries"]] for s, u in latest.items()}
        seqs["spectator"] = [e["seq"] for e in watch["entries"]]
        for _ in range(2000):
            if any(u["is_over"] for u in latest.values()):
                break
            movers = [s for s, u in latest.items() if u["legal"] and u["seq"] == max(v["seq"] for v in latest.values())]
            if not movers:
                # A socket that is behind catches up first (its seat may be the one to act);
                # when every socket is up to date, a bot is thinking: wait for its move.
                top = max(u["seq"] for u in latest.values())
                behind = [s for s in sockets if latest[s]["seq"] < top]
                targets = {s: top for s in behind} if behind else {s: top + 1 for s in sockets}
                for s, target in targets.items():
                    got = receive_until(sockets[s], target)
                    latest[s] = got[-1]
                    seqs[s] += [e["seq"] for m in got for e in m.get("entries", [])]
                continue
            s = movers[0]
            seq = latest[s]["seq"]
            sockets[s].send_json({"type": "move", "expected_seq": seq, "action": rng.choice(latest[s]["legal"])})
            for t, ws in sockets.items():
                got = receive_until(ws, seq + 1)
                assert all(m["type"] == "update" for m in got), got
                latest[t] = got[-1]
                seqs[t] += [e["seq"] for m in got for e in m["entries"]]
        final = max(latest.values(), key=lambda u: u["seq"])
        assert final["is_over"] and final["result"] is not None
        got = receive_until(spectator, final["seq"])
        seqs["spectator"] += [e["seq"] for m in got for e in m["entries"]]
        for s, ws in sockets.items():  # a socket may not have had the last update yet
            if latest[s]["seq"] < final["seq"]:
                got = receive_until(ws, final["seq"])
                seqs[s] += [e["seq"] for m in got for e in m["entries"]]
        for who, seen in seqs.items():  # every entry once, in order, none lost
            assert seen == list(range(final["seq"] + 1)), who
        return final
    finally:
        for ws in [*sockets.values(), spectator]:
            ws.__exit__(None, None, None)


def test_two_humans_and_a_bot_play_crazy_eights_to_the_end(client: TestClient) -> None:
    final = _play_to_end(client, {"game": "crazy-eights", "players": 3, "bots": {"2": "rule"}}, seed=5)
    assert final["view"]["game"] == "crazy-eights" and final["bots"] == [2]


def test_bots_alone_finish_a_match() -> None:
    with TestClient(create_app("memory:", allow_bot_matches=True, allow_seeds=True)) as client:
        match_id, tokens = make_match(client, game="wizard", players=3, seed=8,
                                      bots={"0": "rule", "1": "random", "2": "rule"}, options={"rounds": 2})
        assert tokens == {}
        with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
            update = join(ws, None)
            for _ in range(500):
                if update["is_over"]:
                    break
                update = ws.receive_json()
            assert update["is_over"] and update["result"]["winners"] and update["halted"] is None


def test_bots_are_deterministic_per_seed() -> None:
    def final_log(seed: int) -> str:
        with TestClient(create_app("memory:", allow_bot_matches=True, allow_seeds=True)) as client:
            match_id, _ = make_match(client, game="crazy-eights", players=3, seed=seed,
                                     bots={"0": "random", "1": "rule", "2": "random"})
            with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
                update = join(ws, None)
                while not update["is_over"]:
                    update = ws.receive_json()
            import cardkit

            store = client.app.state.host.store  # type: ignore[attr-defined]
            return cardkit.dumps(store.log(match_id))

    assert final_log(77) == final_log(77)
    assert final_log(77) != final_log(78)


def test_the_lobby_lists_the_bot_levels_and_a_match_takes_one(client: TestClient) -> None:
    from cardkit.bots import LEVELS

    described = client.get("/api/games").json()["bots"]
    assert described["default"] == "level:3"
    assert [lv["spec"] for lv in described["levels"]] == [lv.spec for lv in LEVELS]
    assert all(lv["name"] and lv["summary"] for lv in described["levels"])
    created = client.post("/api/matches", json={"game": "crazy-eights", "players": 3,
                                                "bots": {"1": "level:1", "2": "level:5"}})
    assert created.status_code == 201, created.text
    refused = client.post("/api/matches", json={"game": "crazy-eights", "players": 3, "bots": {"1": "level:9"}})
    assert refused.status_code == 400 and "level" in refused.json()["error"]
