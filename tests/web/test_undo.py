"""Undo on the web: a person against bots takes back their move with the bots' replies
(the library's rule, ``Game.undo_seat(seat, replies=True)``), continuing in a new match."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardkit.api import new_game
from cardkit.errors import IllegalActionError
from cardkit.web.protocol import ProtocolError, parse_undo
from cardkit.web.seats import SeatRecord
from cardkit.web.undo import REVOKED_TEXT, take_back, undo_refusal, undo_status
from tests.web.conftest import make_match

WS = "/api/matches/{}/ws"
BOTS = [SeatRecord(0, token_hash="h"), SeatRecord(1, bot="rule", bot_seed=1), SeatRecord(2, bot="rule", bot_seed=2)]


def _join(ws: Any, seat: int, token: str) -> dict[str, Any]:
    ws.send_json({"type": "join", "seat": seat, "token": token, "after": -1})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "update", message
    return message


def _until_my_turn(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    while not message["legal"]:
        message = ws.receive_json()
        assert message["type"] == "update", message
    return message


def _next(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def test_parse_undo() -> None:
    assert parse_undo({"type": "undo", "expected_seq": 7}) == 7
    for bad in ({"type": "undo"}, {"type": "undo", "expected_seq": "7"}, {"type": "undo", "expected_seq": True}):
        with pytest.raises(ProtocolError):
            parse_undo(bad)


def test_the_rule_is_the_librarys_with_the_hosts_conditions() -> None:
    game = new_game("wizard", players=3, seed=2, rounds=2)
    while game.to_act != 0:
        game = game.play(game.legal_actions()[0], game.to_act)
    assert undo_refusal(game, 0, BOTS) is None  # the host's own conditions hold; the library's rule refuses:
    with pytest.raises(IllegalActionError, match="you have not moved yet: there is nothing of yours to take back"):
        take_back(game, 0, BOTS)
    assert undo_status(game, None, BOTS) is None  # a spectator
    two_people = [BOTS[0], SeatRecord(1, token_hash="x"), BOTS[2]]
    assert undo_status(game, 0, two_people) is None
    after = game.play(game.legal_actions()[0], 0)
    with pytest.raises(IllegalActionError, match="another person plays"):
        take_back(after, 0, two_people)  # even before the other person has moved
    assert take_back(after, 0, BOTS).log == game.log
    # the very same answers as the library's own rule, whatever it says
    for seed in range(4):
        g = new_game("crazy-eights", players=3, seed=seed)
        while g.to_act != 0:
            g = g.play(g.legal_actions()[0], g.to_act)
        g = g.play(g.legal_actions()[0], 0)
        while g.to_act not in (0, None):
            g = g.play(g.legal_actions()[0], g.to_act)
        try:
            expected: Any = g.undo_seat(0, replies=True).log
        except IllegalActionError as exc:
            expected = str(exc)
        try:
            got: Any = take_back(g, 0, BOTS).log
        except IllegalActionError as exc:
            got = str(exc).removeprefix("cannot undo: ")
        assert got == expected


def test_undo_against_bots_continues_in_a_new_match(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="wizard", players=3, seed=2, options={"rounds": 2},
                                  bots={"1": "rule", "2": "rule"})
    with client.websocket_connect(WS.format(match_id)) as ws:
        first = _until_my_turn(ws, _join(ws, 0, tokens["0"]))
        assert first["undo"] == {"allowed": False, "reason": "cannot undo: you have not moved yet: there is "
                                 "nothing of yours to take back"}
        ws.send_json({"type": "move", "expected_seq": first["seq"], "action": first["legal"][0]})
        after = _until_my_turn(ws, ws.receive_json())
        assert after["seq"] > first["seq"] + 1  # the bots replied
        assert after["undo"] == {"allowed": True, "reason": None}
        ws.send_json({"type": "undo", "expected_seq": after["seq"] - 1})
        stale = _next(ws, "error")
        assert stale["code"] == "stale"
        ws.send_json({"type": "undo", "expected_seq": after["seq"]})
        reply = _next(ws, "undo")
        assert reply["match_id"] != match_id and reply["seat"] == 0
        assert reply["undone"] == after["seq"] - first["seq"] and reply["replies"] == reply["undone"] - 1
        # the old match: this socket can no longer move, the old link no longer joins
        ws.send_json({"type": "move", "expected_seq": after["seq"], "action": after["legal"][0]})
        assert _next(ws, "error") == {"type": "error", "code": "illegal", "message": REVOKED_TEXT}
    with client.websocket_connect(WS.format(match_id)) as ws:
        ws.send_json({"type": "join", "seat": 0, "token": tokens["0"], "after": -1})
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 1008
    # the new match is the old one before the move, with the same bots
    with client.websocket_connect(WS.format(reply["match_id"])) as ws:
        again = _join(ws, 0, reply["token"])
        assert again["seq"] == first["seq"] and again["legal"] == first["legal"]
        assert again["view"] == first["view"] and again["table"]["seats"] == first["table"]["seats"]
        ws.send_json({"type": "move", "expected_seq": again["seq"], "action": first["legal"][0]})
        replayed = _until_my_turn(ws, ws.receive_json())
        assert replayed["view"] == after["view"]  # the bots answer the same move the same way


def test_undo_refused_after_a_card_was_shown_and_with_two_people(client: TestClient) -> None:
    match_id, tokens = make_match(client, game="crazy-eights", players=3, seed=0, bots={"1": "rule", "2": "rule"})
    with client.websocket_connect(WS.format(match_id)) as ws:
        first = _until_my_turn(ws, _join(ws, 0, tokens["0"]))
        ws.send_json({"type": "move", "expected_seq": first["seq"], "action": first["legal"][0]})
        after = _until_my_turn(ws, ws.receive_json())
        assert after["undo"]["allowed"] is False and "hidden from you was shown to you" in after["undo"]["reason"]
        ws.send_json({"type": "undo", "expected_seq": after["seq"]})
        error = _next(ws, "error")
        assert error["code"] == "illegal" and "hidden from you was shown to you" in error["message"]
        ws.send_json({"type": "move", "expected_seq": after["seq"], "action": after["legal"][0]})  # still playable
        assert _next(ws, "update")["seq"] > after["seq"]
    match_id, tokens = make_match(client, game="crazy-eights", players=3, seed=0, bots={"2": "rule"})
    with client.websocket_connect(WS.format(match_id)) as ws:
        update = _join(ws, 0, tokens["0"])
        assert update["undo"] is None
        ws.send_json({"type": "undo", "expected_seq": update["seq"]})
        assert "another person" in _next(ws, "error")["message"]
    with client.websocket_connect(WS.format(match_id)) as ws:
        ws.send_json({"type": "join", "spectator": True})
        assert ws.receive_json()["undo"] is None
        ws.send_json({"type": "undo", "expected_seq": 0})
        assert _next(ws, "error")["code"] == "not_your_turn"
