"""The page's server side: the table payload, entry sentences, hints, bot levels, rules pages."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient

from cardkit.cards import Card
from cardkit.render import symbols_to_codes
from cardkit.testing.leaks import card_tokens
from cardkit.web.table import LEVELS, level_name
from tests.web.conftest import make_match, receive_until


def _join(ws: Any, seat: int, token: str) -> dict[str, Any]:
    ws.send_json({"type": "join", "seat": seat, "token": token})
    message: dict[str, Any] = ws.receive_json()
    return message


def test_levels_are_the_bot_levels() -> None:
    from cardkit.bots import LEVELS as BOT_LEVELS

    assert LEVELS == tuple((level.name, f"level:{level.number}") for level in BOT_LEVELS)
    assert [name for name, _ in LEVELS] == ["beginner", "casual", "standard", "strong", "expert"]
    assert level_name("level:3") == "standard" and level_name(" Level:1 ") == "beginner"
    assert level_name("rule") == "rule" and level_name("ismcts:1000") == "ismcts:1000"
    assert level_name(None) is None


def test_updates_carry_the_table_and_sentences(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="wizard", players=3, options={"rounds": 2}, seed=5, bots={"2": "level:2"})
    games = client.get("/api/games").json()
    assert [lv["name"] for lv in games["levels"]] == ["beginner", "casual", "standard", "strong", "expert"]
    assert games["bots"]["default"] == "level:3"
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        update = _join(ws, 0, tokens["0"])
        table = update["table"]
        assert table["seats"] == [{"seat": 0, "bot": None}, {"seat": 1, "bot": None}, {"seat": 2, "bot": "casual"}]
        assert any(s.startswith("Round 1 of 2") for s in table["status"]["sentences"])
        header = table["status"]["tables"][0]["header"]
        assert header[:3] == ["seat", "cards", "bid"]
        assert table["status"]["tables"][0]["rows"][2][0] == "Seat 2 (casual bot)"
        dealt = [e for e in update["entries"] if e["sentences"]]
        assert dealt and all(isinstance(s, str) and s.endswith(".") for e in dealt for s in e["sentences"])


def test_a_hint_is_a_legal_move_of_the_seat_to_act_and_names_only_its_cards(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="crazy-eights", players=2, seed=11)
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as w0, \
            client.websocket_connect(f"/api/matches/{match_id}/ws") as w1:
        updates = {0: _join(w0, 0, tokens["0"]), 1: _join(w1, 1, tokens["1"])}
        mover = updates[0]["to_act"]
        other = 1 - mover
        sockets = {0: w0, 1: w1}
        sockets[mover].send_json({"type": "hint"})
        hint = sockets[mover].receive_json()
        assert hint["type"] == "hint" and hint["action"] in updates[mover]["legal"], hint
        assert hint["reason"] and hint["seq"] == updates[mover]["seq"]
        hand = set(updates[mover]["view"]["hand"]) | {updates[mover]["view"]["top_card"]}
        deck = [Card(x) for x in hand | set(updates[other]["view"]["hand"])]
        named = {c.code for c in card_tokens(symbols_to_codes(json.dumps(hint, ensure_ascii=False)), deck)}
        assert named <= hand, named - hand
        sockets[other].send_json({"type": "hint"})
        refused = sockets[other].receive_json()
        assert refused["action"] is None and "not your turn" in refused["reason"]
        # a hint changes nothing: the move it names is then played as usual
        sockets[mover].send_json({"type": "move", "expected_seq": updates[mover]["seq"], "action": hint["action"]})
        assert receive_until(sockets[mover], updates[mover]["seq"] + 1)[-1]["seq"] > updates[mover]["seq"]


def test_rules_pages(client: TestClient) -> None:
    page = client.get("/rules/spacc-u-mazz")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "Spacc" in page.text or "spacc" in page.text
    assert "<script" not in page.text and "content-security-policy" in page.headers
    assert client.get("/rules/no-such-game").status_code == 404


def test_a_rematch_keeps_the_seats(client: TestClient) -> None:
    import random

    from cardkit.errors import ConcurrencyError

    match_id, tokens = make_match(client, game="crazy-eights", players=3, seed=3, bots={"2": "rule"})
    host = client.app.state.host  # type: ignore[attr-defined]
    path = f"/api/matches/{match_id}/ws"
    with client.websocket_connect(path) as w0:
        _join(w0, 0, tokens["0"])
        w0.send_json({"type": "rematch"})
        early = w0.receive_json()
        while early["type"] == "update":  # the bot may have moved first
            early = w0.receive_json()
        assert early["type"] == "error" and "over" in early["message"]
    # The hand is played to its end in the store (every seat, greedy plays: it ends soon);
    # the host's bot driver may still be making its first move, so a race is retried.
    rng = random.Random(0)
    for _ in range(1000):
        game = host.store.load(match_id)
        if game.is_over:
            break
        legal = [str(a) for a in game.legal_actions()]
        plays = [a for a in legal if a.startswith("play")]
        last = game.last_entry
        try:
            host.store.play(match_id, rng.choice(plays or legal), seat=game.to_act,
                            expected_seq=-1 if last is None else last.seq)
        except ConcurrencyError:
            continue
    assert host.store.load(match_id).is_over
    replies: dict[int, dict[str, Any]] = {}
    with client.websocket_connect(path) as w0, client.websocket_connect(path) as w1:
        sockets = {0: w0, 1: w1}
        _join(w0, 0, tokens["0"])
        _join(w1, 1, tokens["1"])
        for s in (0, 1, 0):
            sockets[s].send_json({"type": "rematch"})
            reply = sockets[s].receive_json()
            while reply["type"] == "update":
                reply = sockets[s].receive_json()
            assert reply["type"] == "rematch" and reply["seat"] == s, reply
            if s in replies:  # asking again gives the same seat of the same match
                assert reply == replies[s]
            replies[s] = reply
    assert replies[0]["match_id"] == replies[1]["match_id"] != match_id
    assert replies[0]["token"] != replies[1]["token"] and replies[0]["token"] not in tokens.values()
    new_id = replies[0]["match_id"]
    old_records, new_records = host.seats.get(match_id), host.seats.get(new_id)
    assert [r.bot for r in new_records] == [r.bot for r in old_records] == [None, None, "rule"]
    assert host.store.load(new_id).config == host.store.load(match_id).config
    with client.websocket_connect(f"/api/matches/{new_id}/ws") as ws:
        update = _join(ws, 1, replies[1]["token"])
        assert update["type"] == "update" and update["seat"] == 1 and not update["is_over"]
    with client.websocket_connect(f"/api/matches/{new_id}/ws") as ws:
        ws.send_json({"type": "join", "seat": 0, "token": tokens["0"]})  # the old token is no key here
        assert ws.receive()["type"] == "websocket.close"
