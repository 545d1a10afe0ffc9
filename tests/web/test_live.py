"""The live match: moves and updates from memory, the store read only on a cold start."""

from __future__ import annotations

import collections
from typing import Any

import cardkit.store
from starlette.testclient import TestClient

from cardkit.web import create_app
from tests.web.conftest import make_match, receive_until
from tests.web.test_host import join

MOVES = 24


def _counting(store: cardkit.store.Store) -> collections.Counter[str]:
    reads: collections.Counter[str] = collections.Counter()
    for name in ("load", "entries_for", "info", "log", "follow"):
        real = getattr(store, name)

        def counting(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            reads[_name] += 1
            return _real(*args, **kwargs)

        setattr(store, name, counting)
    return reads


def _play(seed: int) -> tuple[list[dict[str, Any]], dict[str, int], dict[str, int]]:
    """Two human seats and a rule bot play up to MOVES human moves; every update the humans
    got, and the store reads after the joins and at the end."""
    store = cardkit.store.open("memory:")
    reads = _counting(store)
    updates: list[dict[str, Any]] = []
    with TestClient(create_app("memory:", store=store, allow_seeds=True)) as client:
        match_id, tokens = make_match(client, game="crazy-eights", players=3, bots={"2": "rule"}, seed=seed)
        path = f"/api/matches/{match_id}/ws"
        with client.websocket_connect(path) as ws0, client.websocket_connect(path) as ws1:
            sockets = {0: ws0, 1: ws1}
            latest = {s: join(ws, s, tokens[str(s)]) for s, ws in sockets.items()}
            latest = {s: receive_until(ws, max(u["seq"] for u in latest.values()))[-1] if latest[s]["seq"] < max(
                u["seq"] for u in latest.values()) else latest[s] for s, ws in sockets.items()}
            updates.extend(latest.values())
            joined = dict(reads)
            for _ in range(MOVES):
                if latest[0]["is_over"]:
                    break
                mover = next((s for s, u in latest.items() if u["legal"]), None)
                seq = max(u["seq"] for u in latest.values())
                if mover is not None:  # else the bot is in the middle of its turn: wait for it
                    sockets[mover].send_json({"type": "move", "expected_seq": seq, "action": latest[mover]["legal"][0]})
                for s, ws in sockets.items():
                    got = receive_until(ws, seq + 1)
                    assert all(m["type"] == "update" for m in got), got
                    updates.extend(got)
                    latest[s] = got[-1]
    return updates, joined, dict(reads)


def test_moves_and_updates_do_not_read_the_store() -> None:
    updates, joined, at_end = _play(seed=3)
    assert len(updates) >= 10 and updates[-1]["seq"] >= 10
    assert 1 <= joined.get("load", 0) <= 2  # a cold start (the bot's driver at creation may have made one too)
    assert at_end == joined  # not one read for all the moves and updates since


def test_a_rule_bot_answers_in_the_update_of_the_move() -> None:
    # The bot moves before the update of a human's move is built, and finishes its turn (a
    # draw, then a play or a pass) before anyone is told: no update leaves the rule bot to act.
    for seed in (3, 8):
        updates, _, _ = _play(seed)
        waiting = [u["seq"] for u in updates if u["to_act"] == 2 and not u["is_over"] and not u["halted"]]
        assert not waiting, waiting
        assert any(e["actor"] == 2 for u in updates for e in u["entries"])  # the bot did play


def test_a_move_and_the_rule_bots_reply_are_one_write() -> None:
    # One store transaction per human move: the bot's reply is decided on the live game and
    # written with the move (store.append), not by a second write of the bot's driver.
    store = cardkit.store.open("memory:")
    writes: collections.Counter[str] = collections.Counter()
    for name in ("play", "append"):
        real = getattr(store, name)

        def counting(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            writes[_name] += 1
            return _real(*args, **kwargs)

        setattr(store, name, counting)
    with TestClient(create_app("memory:", store=store, allow_seeds=True)) as client:
        match_id, tokens = make_match(client, game="crazy-eights", players=2, bots={"1": "rule"}, seed=12)
        with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
            latest = join(ws, 0, tokens["0"])
            while not latest["legal"]:
                latest = ws.receive_json()
            writes.clear()  # a bot that opened the hand wrote on its own (nobody moved before it)
            moves = 0
            while moves < 8 and not latest["is_over"]:
                ws.send_json({"type": "move", "expected_seq": latest["seq"], "action": latest["legal"][0]})
                moves += 1
                latest = receive_until(ws, latest["seq"] + 1)[-1]
                while not latest["legal"] and not latest["is_over"]:
                    latest = ws.receive_json()
            game = store.load(match_id)
    assert moves >= 4 and sum(writes.values()) == moves, (moves, dict(writes))
    bot_entries = [e for e in game.entries_for(None, -1) if e.actor == 1]
    assert bot_entries and writes["append"] >= 1  # the bot did answer, in those same writes
