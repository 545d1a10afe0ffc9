"""The web host on the open internet (issue 24): what a hostile client, a hostile page or a
broken store row can get out of it, and the limits that keep one client from the rest.

* a match whose stored log no longer replays: only a generic ``server`` error reaches any
  client, with no card in it, and the full error is logged on the server;
* client seeds are refused unless the host allows them, and a seeded match says so;
* private matches and the spectator cap; one update built per seq per audience;
* the Origin and content-type checks and the security headers on every response;
* malformed ``POST /api/matches`` fields are 400s, never 500s (a bounded fuzz).
"""

from __future__ import annotations

import json
import logging
import random
import re
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardkit.errors import LogError
from cardkit.web import create_app
from cardkit.web.app import WebHost
from tests.web.conftest import make_match, receive_until

# A card code standing alone: not inside a token (URL-safe base64) or an id.
CARD = re.compile(r"(?<![A-Za-z0-9_-])(?:[2-9TJQKA][SHDC]|RJ|BJ)(?![A-Za-z0-9_-])")


def join(ws: Any, seat: int | None, token: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "join", "spectator": True} if seat is None else {"type": "join", "seat": seat}
    if token is not None:
        message["token"] = token
    ws.send_json(message)
    reply: dict[str, Any] = ws.receive_json()
    assert reply["type"] == "update", reply
    return reply


def refused(client: TestClient, path: str, first: dict[str, Any]) -> int:
    with client.websocket_connect(path) as ws:
        ws.send_json(first)
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        return info.value.code


@pytest.fixture
def default_client() -> Iterator[TestClient]:
    """A host with every default (no client seeds)."""
    with TestClient(create_app("memory:")) as c:
        yield c


# ---------------------------------------------------------------- item 1: error texts


def _break_the_deal(db: Path, match_id: str) -> None:
    """Edit the stored deal entry's events by hand, so the match no longer replays."""
    conn = sqlite3.connect(db)
    try:
        seq, events = conn.execute(
            "SELECT seq, events FROM cardkit_entries WHERE match_id = ? AND actor = -1 AND action LIKE '%shuffle%'",
            (match_id,),
        ).fetchone()
        data = json.loads(events)
        deal = data[0]
        assert deal["type"] == "hand_dealt"
        deal["starter"] = "2S" if deal["starter"] != "2S" else "3S"
        with conn:
            conn.execute("UPDATE cardkit_entries SET events = ? WHERE match_id = ? AND seq = ?",
                         (json.dumps(data, separators=(",", ":")), match_id, seq))
    finally:
        conn.close()


def test_a_match_that_no_longer_replays_shows_no_card(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "web.db"
    url = f"sqlite:///{db}"
    with TestClient(create_app(url)) as client:
        match_id, tokens = make_match(client, game="crazy-eights", players=2)
    _break_the_deal(db, match_id)
    caplog.set_level(logging.ERROR, logger="cardkit.web")
    seen: list[str] = []
    with TestClient(create_app(url)) as client:  # a cold start: nothing cached
        assert client.get("/api/games").status_code == 200  # (its option choices name cards: not scanned)
        response = client.post("/api/matches", json={"game": "crazy-eights", "players": 2, "bots": {"1": "rule"}})
        assert response.status_code == 201
        seen.append(response.text)
        for who in (0, 1, None):
            with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
                ws.send_json({"type": "join", "spectator": True} if who is None
                             else {"type": "join", "seat": who, "token": tokens[str(who)]})
                for action in ("draw", "play 7H", "pass"):
                    ws.send_json({"type": "move", "expected_seq": 1, "action": action})
                with pytest.raises(WebSocketDisconnect) as closed:
                    while True:
                        seen.append(ws.receive_text())
                assert closed.value.code == 1011
    messages = [json.loads(text) for text in seen[1:]]
    from cardkit.web.protocol import SERVER_ERROR_TEXT

    # Only errors: the server's own (one text, whatever failed), or a spectator told it cannot move.
    assert all(m["type"] == "error" and m["code"] in ("server", "not_your_turn") for m in messages), messages
    assert {m["message"] for m in messages if m["code"] == "server"} == {SERVER_ERROR_TEXT}
    leaked = [CARD.findall(text) for text in seen]
    assert not any(leaked), leaked
    # ... and the server's log has the whole error, for its operator.
    assert any(r.exc_info and isinstance(r.exc_info[1], LogError) for r in caplog.records)


@pytest.mark.parametrize("failure", [
    LogError("match 'x': entry 1 (shuffle QC 6S AD 5H): its events differ from what the rules decide now", seq=1),
    RuntimeError("state: hands [['QC', '6S'], ['AD', '5H']]"),
])
def test_a_failed_move_tells_the_player_only_server(failure: Exception, caplog: pytest.LogCaptureFixture) -> None:
    # The move path on its own (deterministic): the store fails while playing a well-formed move.
    import cardkit.store

    store = cardkit.store.open("memory:")
    with TestClient(create_app("memory:", store=store)) as client:
        match_id, tokens = make_match(client, game="crazy-eights", players=2, bots={"1": "rule"})

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise failure

        with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
            update = join(ws, 0, tokens["0"])
            while not update["legal"]:
                update = ws.receive_json()
            # Broken only now, with seat 0 to act: were it broken from the start, a bot that
            # opens the game (the deal is random) would fail its own move and seat 0 would
            # wait for its turn forever.
            # Both write paths: a move alone is played, a move with a bot's reply is appended.
            store.play = store.append = broken  # type: ignore[method-assign]
            ws.send_json({"type": "move", "expected_seq": update["seq"], "action": update["legal"][0]})
            reply = ws.receive_json()
    assert reply["type"] == "error" and reply["code"] == "server", reply
    assert not CARD.findall(json.dumps(reply))
    assert any(r.exc_info and r.exc_info[1] is failure for r in caplog.records)


def test_a_failed_create_is_a_server_error(caplog: pytest.LogCaptureFixture) -> None:
    import cardkit.store

    store = cardkit.store.open("memory:")
    failure = RuntimeError("dealt QC 6S AD")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise failure

    store.create = broken  # type: ignore[method-assign]
    with TestClient(create_app("memory:", store=store), raise_server_exceptions=False) as client:
        response = client.post("/api/matches", json={"game": "crazy-eights", "players": 2})
    assert response.status_code == 500 and response.json()["code"] == "server"
    assert not CARD.findall(response.text)
    assert any(r.exc_info and r.exc_info[1] is failure for r in caplog.records)


def test_a_join_the_store_fails_on_is_closed_1011(caplog: pytest.LogCaptureFixture) -> None:
    import cardkit.store

    store = cardkit.store.open("memory:")
    failure = RuntimeError("hands QC 6S | AD 5H")
    with TestClient(create_app("memory:", store=store)) as client:
        match_id, tokens = make_match(client, game="crazy-eights", players=2)

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise failure

        store.info = broken  # type: ignore[method-assign]
        with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
            ws.send_json({"type": "join", "seat": 0, "token": tokens["0"]})
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
    assert closed.value.code == 1011 and not CARD.findall(str(closed.value.reason))
    assert any(r.exc_info and r.exc_info[1] is failure for r in caplog.records)


# ---------------------------------------------------------------- item 2: client seeds


def test_client_seeds_are_refused_by_default(default_client: TestClient) -> None:
    described = default_client.get("/api/games").json()
    assert described["host"]["allow_seeds"] is False
    response = default_client.post("/api/matches", json={"game": "crazy-eights", "players": 2, "seed": 42})
    assert response.status_code == 400 and "seed" in response.json()["error"]
    assert default_client.post("/api/matches", json={"game": "crazy-eights", "players": 2, "seed": None}).status_code == 201
    match_id, tokens = make_match(default_client, game="crazy-eights", players=2)
    with default_client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        assert join(ws, 0, tokens["0"])["seeded"] is False


def test_an_allowed_seed_is_announced_to_every_seat() -> None:
    with TestClient(create_app("memory:", allow_seeds=True)) as client:
        assert client.get("/api/games").json()["host"]["allow_seeds"] is True
        match_id, tokens = make_match(client, game="wizard", players=3, seed=42, bots={"2": "rule"})
        unseeded, plain_tokens = make_match(client, game="wizard", players=3, bots={"2": "rule"})
        for mid, toks, expected in ((match_id, tokens, True), (unseeded, plain_tokens, False)):
            for who in (0, 1, None):
                with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
                    update = join(ws, who, None if who is None else toks[str(who)])
                    assert update["seeded"] is expected


def test_serve_flags_parse() -> None:
    from cardkit.cli.main import build_parser

    defaults = build_parser().parse_args(["serve"])
    assert (defaults.allow_seeds, defaults.allow_origin, defaults.max_spectators) == (False, [], None)
    args = build_parser().parse_args(["serve", "--allow-seeds", "--allow-origin", "https://a.example",
                                      "--allow-origin", "https://b.example:8443", "--max-spectators", "7"])
    assert (args.allow_seeds, args.allow_origin, args.max_spectators) == (
        True, ["https://a.example", "https://b.example:8443"], 7)


def test_a_bad_allowed_origin_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from cardkit.cli.main import main

    assert main(["serve", "--store", "memory:", "--allow-origin", "cards.example", "--port", "8765"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardkit: ConfigError") and "Traceback" not in err


# ---------------------------------------------------------------- item 13: spectators


def test_a_private_match_needs_its_spectator_token(default_client: TestClient) -> None:
    response = default_client.post("/api/matches", json={"game": "crazy-eights", "players": 2, "private": True})
    assert response.status_code == 201
    created = response.json()
    spectator_token = created["spectator_token"]
    assert isinstance(spectator_token, str) and len(spectator_token) >= 40
    assert spectator_token not in created["tokens"].values()
    path = f"/api/matches/{created['match_id']}/ws"
    assert refused(default_client, path, {"type": "join", "spectator": True}) == 1008
    assert refused(default_client, path, {"type": "join", "spectator": True, "token": "forged"}) == 1008
    assert refused(default_client, path, {"type": "join", "spectator": True, "token": created["tokens"]["0"]}) == 1008
    with default_client.websocket_connect(path) as ws:
        assert join(ws, None, spectator_token)["seat"] is None
    # A public match: no spectator token, and anyone may watch.
    public = default_client.post("/api/matches", json={"game": "crazy-eights", "players": 2}).json()
    assert public["spectator_token"] is None
    with default_client.websocket_connect(f"/api/matches/{public['match_id']}/ws") as ws:
        assert join(ws, None)["seat"] is None
    for bad in ("yes", 1, None):
        body = {"game": "crazy-eights", "players": 2, "private": bad}
        assert default_client.post("/api/matches", json=body).status_code == 400


def test_private_matches_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with TestClient(create_app(url)) as client:
        created = client.post("/api/matches", json={"game": "wizard", "players": 3, "private": True}).json()
    with TestClient(create_app(url)) as client:
        path = f"/api/matches/{created['match_id']}/ws"
        assert refused(client, path, {"type": "join", "spectator": True}) == 1008
        with client.websocket_connect(path) as ws:
            assert join(ws, None, created["spectator_token"])["seat"] is None


def test_spectators_are_capped_per_match() -> None:
    with TestClient(create_app("memory:", max_spectators=3)) as client:
        assert client.get("/api/games").json()["host"]["max_spectators"] == 3
        match_id, tokens = make_match(client, game="crazy-eights", players=2)
        other, _ = make_match(client, game="crazy-eights", players=2)
        path = f"/api/matches/{match_id}/ws"
        watchers = [client.websocket_connect(path) for _ in range(3)]
        try:
            for ws in watchers:
                join(ws.__enter__(), None)
            assert refused(client, path, {"type": "join", "spectator": True}) == 1008
            with client.websocket_connect(path) as ws:  # seats are not spectators
                assert join(ws, 0, tokens["0"])["seat"] == 0
            with client.websocket_connect(f"/api/matches/{other}/ws") as ws:  # the cap is per match
                join(ws, None)
            watchers.pop().__exit__(None, None, None)
            with client.websocket_connect(path) as ws:  # a freed place can be taken
                join(ws, None)
        finally:
            for ws in watchers:
                ws.__exit__(None, None, None)
    with pytest.raises(Exception, match="max_spectators"):
        create_app("memory:", max_spectators=-1)


SPECTATORS = 50
MOVES = 6


def test_one_update_per_seq_for_all_spectators(monkeypatch: pytest.MonkeyPatch) -> None:
    builds: dict[int | None, int] = {}
    original = WebHost.build_update

    def counting(self: WebHost, match_id: str, seat: int | None, after: int) -> dict[str, Any]:
        builds[seat] = builds.get(seat, 0) + 1
        return original(self, match_id, seat, after)

    monkeypatch.setattr(WebHost, "build_update", counting)
    with TestClient(create_app("memory:", allow_seeds=True)) as client:
        match_id, tokens = make_match(client, game="crazy-eights", players=2, seed=12)
        path = f"/api/matches/{match_id}/ws"
        seats = {s: client.websocket_connect(path) for s in (0, 1)}
        watchers = [client.websocket_connect(path) for _ in range(SPECTATORS)]
        try:
            latest = {s: join(ws.__enter__(), s, tokens[str(s)]) for s, ws in seats.items()}
            for ws in watchers:
                join(ws.__enter__(), None)
            texts: list[set[str]] = []
            for _ in range(MOVES):
                mover = next(s for s, u in latest.items() if u["legal"])
                seq = latest[mover]["seq"]
                seats[mover].send_json({"type": "move", "expected_seq": seq, "action": latest[mover]["legal"][0]})
                for s, ws in seats.items():
                    latest[s] = receive_until(ws, seq + 1)[-1]
                texts.append({ws.receive_text() for ws in watchers})
        finally:
            for ws in [*seats.values(), *watchers]:
                ws.__exit__(None, None, None)
    assert all(len(same) == 1 for same in texts)  # every spectator got the very same message
    assert builds[None] == MOVES + 1  # one for the joins, one per move: not SPECTATORS per move


# ---------------------------------------------------------------- item 14: origins and headers


def _has_security_headers(response: Any) -> None:
    csp = response.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-frame-options"] == "DENY"


def test_every_response_has_the_security_headers(default_client: TestClient) -> None:
    responses = [
        default_client.get("/"),
        default_client.get("/static/app.js"),
        default_client.get("/static/nope.js"),
        default_client.get("/api/games"),
        default_client.get("/nowhere"),
        default_client.post("/api/matches", json={"game": "crazy-eights", "players": 2}),
        default_client.post("/api/matches", json={"game": "chess", "players": 2}),
        default_client.post("/api/matches", content=b"x", headers={"content-type": "text/plain"}),
        default_client.post("/api/matches", json={}, headers={"origin": "https://evil.example"}),
    ]
    assert [r.status_code for r in responses] == [200, 200, 404, 200, 404, 201, 400, 415, 403]
    for response in responses:
        _has_security_headers(response)
    assert responses[5].headers["cache-control"] == "no-store"  # it holds the seat tokens


def test_cross_origin_posts_are_refused() -> None:
    body = json.dumps({"game": "crazy-eights", "players": 2}).encode()
    with TestClient(create_app("memory:", allow_origins=["https://friend.example"])) as client:
        store = client.app.state.host.store  # type: ignore[attr-defined]

        def post(**headers: str) -> int:
            return client.post("/api/matches", content=body, headers=headers).status_code

        json_type = "application/json"
        assert post(**{"content-type": "text/plain", "origin": "https://evil.example"}) == 403
        assert post(**{"content-type": "text/plain"}) == 415  # a form's type, even with no Origin
        assert post(**{"content-type": "application/x-www-form-urlencoded", "origin": "http://testserver"}) == 415
        assert post(**{"content-type": json_type, "origin": "https://evil.example"}) == 403
        assert post(**{"content-type": json_type, "origin": "null"}) == 403
        assert post(**{"content-type": json_type, "origin": "http://testserver.evil.example"}) == 403
        assert len(store.matches()) == 0  # nothing was created
        assert post(**{"content-type": json_type, "origin": "http://testserver"}) == 201  # the host's own
        assert post(**{"content-type": "application/json; charset=utf-8", "origin": "https://friend.example"}) == 201
        assert post(**{"content-type": json_type}) == 201  # not a browser page
        assert len(store.matches()) == 3


def test_cross_origin_sockets_are_refused() -> None:
    with TestClient(create_app("memory:", allow_origins=["https://friend.example"])) as client:
        match_id, tokens = make_match(client, game="crazy-eights", players=2)
        path = f"/api/matches/{match_id}/ws"
        for origin in ("https://evil.example", "null", "http://testserver:8080"):
            with pytest.raises(WebSocketDisconnect) as info:  # the handshake itself is refused
                with client.websocket_connect(path, headers={"origin": origin}) as ws:
                    join(ws, 0, tokens["0"])
            assert info.value.code == 1008
        for origin in ("http://testserver", "https://friend.example", "https://FRIEND.example:443"):
            with client.websocket_connect(path, headers={"origin": origin}) as ws:
                assert join(ws, 0, tokens["0"])["seat"] == 0


@pytest.mark.parametrize(
    "origin,host,allowed,expected",
    [
        (None, "cards.example", (), True),
        ("https://cards.example", "cards.example", (), True),
        ("https://cards.example", "cards.example:443", (), True),
        ("http://cards.example:8000", "cards.example:8000", (), True),
        ("http://cards.example:8000", "cards.example", (), False),
        ("https://cards.example:8443", "cards.example", (), False),
        ("https://evil.example", "cards.example", (), False),
        ("https://cards.example.evil.example", "cards.example", (), False),
        ("null", "cards.example", (), False),
        ("file://", "cards.example", (), False),
        ("https://cards.example", None, (), False),
        ("https://cards.example", "", (), False),
        ("https://app.example", "api.example", ("https://app.example",), True),
        ("https://app.example", "api.example", ("https://app.example:443",), True),
        ("http://app.example", "api.example", ("https://app.example",), False),
    ],
)
def test_origin_rules(origin: str | None, host: str | None, allowed: tuple[str, ...], expected: bool) -> None:
    from cardkit.web.origins import origin_allowed

    assert origin_allowed(origin, host, allowed) is expected


# ---------------------------------------------------------------- item 16: malformed fields


def test_a_huge_bot_seat_key_is_a_400(default_client: TestClient) -> None:
    for key in ("9" * 5000, "0" * 5000, "1" * 5, ""):
        body = {"game": "crazy-eights", "players": 2, "bots": {key: "rule"}}
        response = default_client.post("/api/matches", json=body)
        assert response.status_code == 400, key[:10]
        assert "bot seat" in response.json()["error"]


FUZZ_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 10**300, -(10**300), 1.5, 1e308, "", "x", "9" * 5000, "0" * 5000,
    "rule", "random", "ismcts:" + "9" * 4000, "ismcts:-1", "ismcts:1:nan", "ismcts:1:inf", "ismcts:1:1:1:1:1",
    "pimc:" + "9" * 5000, "pimc:0", "pimc:x", "pimc:1:1",
    [], [1], {}, {"a": 1}, "\x00", "0", "1", "٣", "crazy-eights", [[[[[]]]]],
]
FUZZ_KEYS = ["0", "1", "2", "9" * 5000, "٣", "-0", " 1", "1.0", "", "\x00", "00001"]


def test_create_fields_fuzz_never_a_500(default_client: TestClient) -> None:
    rng = random.Random(24)
    statuses: dict[int, int] = {}
    for _ in range(300):
        body: dict[str, Any] = {"game": rng.choice(["crazy-eights", "wizard", "spacc-u-mazz", "cutthroat-spades"]),
                                "players": rng.choice([2, 3, 4])}
        for _ in range(rng.randint(1, 3)):
            field = rng.choice(["game", "players", "options", "bots", "private", "seed"])
            if field == "options":
                body[field] = {rng.choice(["mode", "hand_size", "rounds", "target", "max_turns", "decks", "9" * 5000]):
                               rng.choice(FUZZ_VALUES)}
            elif field == "bots":
                body[field] = {rng.choice(FUZZ_KEYS): rng.choice(FUZZ_VALUES)}
            else:
                body[field] = rng.choice(FUZZ_VALUES)
        response = default_client.post("/api/matches", json=body)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        assert response.status_code in (201, 400), (response.status_code, json.dumps(body)[:300])
        assert isinstance(response.json(), dict)
    assert statuses.get(400, 0) > 100 and statuses.get(201, 0) > 0
