"""Many ``cardkit serve`` processes on one PostgreSQL store, no sticky sessions.

* A client that reconnects to *another* process with ``after=<last seq>`` gets every entry
  after it exactly once.
* The kill test: two processes under load (several matches, every human seat a client
  playing random legal moves), one is SIGKILLed mid-game; every client of the killed process
  reconnects to the other and resumes; each client's received seqs are compared with the
  store's log: nothing lost, nothing duplicated, every entry as the store has it.
* A rematch asked for on one process is the same match, with the same seat tokens, when
  asked for on the other.

Needs CARDKIT_TEST_POSTGRES (skips without it; fails under CI without it).
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from typing import Any

import cardkit.store
from tests.store.conftest import postgres_dsn
from tests.web.servers import running_server, server_process
from tests.web.test_postgres import _wipe

MATCHES = 6
"""Matches played at once in the kill test (two human clients each)."""


def _ws(base: str, match_id: str) -> str:
    return base.replace("http", "ws") + f"/api/matches/{match_id}/ws"


def _create(base: str, seed: int, **extra: Any) -> dict[str, Any]:
    import httpx

    response = httpx.post(base + "/api/matches", json={
        "game": "crazy-eights", "players": 3, "bots": {"2": "rule"}, "seed": seed, **extra}, timeout=20)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def _store_entries(dsn: str, match_id: str, seat: int) -> list[dict[str, Any]]:
    """The seat's entries as the store has them, in the protocol's JSON form."""
    from cardkit.web.protocol import entry_json

    store = cardkit.store.open(dsn)
    try:
        game = store.load(match_id)
        return [json.loads(json.dumps(entry_json(e))) for e in game.entries_for(seat, -1)]
    finally:
        store.close()


class _Client:
    """One human seat: plays random legal moves; on a dropped socket it reconnects to the
    next base URL with ``after`` = the last seq it received."""

    def __init__(self, bases: list[str], match_id: str, seat: int, token: str, rng: random.Random) -> None:
        self.bases, self.match_id, self.seat, self.token, self.rng = bases, match_id, seat, token, rng
        self.seen: list[dict[str, Any]] = []  # every entry received (without its sentences)
        self.reconnects = 0
        self.over = False

    @property
    def last(self) -> int:
        return int(self.seen[-1]["seq"]) if self.seen else -1

    async def play(self, deadline: float) -> None:
        import websockets

        while not self.over:
            assert time.monotonic() < deadline, f"{self.match_id} seat {self.seat}: no end by the deadline"
            base = self.bases[min(self.reconnects, len(self.bases) - 1)]
            try:
                async with websockets.connect(_ws(base, self.match_id), open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "join", "seat": self.seat, "token": self.token,
                                              "after": self.last}))
                    await self._session(ws)
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake, asyncio.TimeoutError):
                if self.over:
                    return
                self.reconnects += 1
                await asyncio.sleep(0.05)

    async def _session(self, ws: Any) -> None:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if message["type"] == "error":
                assert message["code"] == "stale", message  # a move raced a bot or a reconnect
                continue
            assert message["type"] == "update", message
            for entry in message["entries"]:
                entry.pop("sentences", None)
                self.seen.append(entry)
            if message["is_over"]:
                self.over = True
                return
            if message["legal"]:
                await asyncio.sleep(self.rng.uniform(0, 0.04))  # a player's thinking (keeps matches going)
                await ws.send(json.dumps({"type": "move", "expected_seq": message["seq"],
                                          "action": self.rng.choice(message["legal"])}))


def test_a_client_resumes_on_another_process_from_its_last_seq() -> None:
    from websockets.sync.client import connect

    dsn = postgres_dsn()
    _wipe(dsn)
    with running_server(dsn, args=["--allow-seeds"]) as first, running_server(dsn, args=["--allow-seeds"]) as second:
        created = _create(first, seed=11)
        match_id, tokens = created["match_id"], created["tokens"]
        seen: list[int] = []
        with connect(_ws(first, match_id), open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "seat": 0, "token": tokens["0"]}))
            update = json.loads(ws.recv(timeout=10))
            seen += [e["seq"] for e in update["entries"]]
        # Seat 0 is away; the match goes on: seat 1 on the second process, seat 0 from another
        # device on the first (a fresh join for each move), the rule bot answering each move.
        to_act = update["to_act"]
        for _ in range(6):
            if to_act not in (0, 1):
                break
            with connect(_ws((first, second)[to_act], match_id), open_timeout=10) as ws:
                ws.send(json.dumps({"type": "join", "seat": to_act, "token": tokens[str(to_act)]}))
                latest = json.loads(ws.recv(timeout=10))
                if latest["is_over"]:
                    break
                moved_at = latest["seq"]
                ws.send(json.dumps({"type": "move", "expected_seq": moved_at, "action": latest["legal"][0]}))
                while latest["seq"] <= moved_at:  # the move is stored and announced before leaving
                    latest = json.loads(ws.recv(timeout=10))
                to_act = latest["to_act"]
        final = _store_entries(dsn, match_id, 0)[-1]["seq"]
        assert final > seen[-1]
        # Back on the *second* process (it never served seat 0) with after = the last seq seen.
        with connect(_ws(second, match_id), open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "seat": 0, "token": tokens["0"], "after": seen[-1]}))
            while not seen or seen[-1] < final:
                update = json.loads(ws.recv(timeout=10))
                assert update["type"] == "update"
                seen += [e["seq"] for e in update["entries"]]
    assert seen == list(range(len(seen))), seen  # every entry once, in order


def test_kill_one_of_two_processes_under_load() -> None:
    dsn = postgres_dsn()
    _wipe(dsn)
    with server_process(dsn, args=["--allow-seeds"]) as (first, victim), \
            running_server(dsn, args=["--allow-seeds"]) as second:
        clients: list[_Client] = []
        for index in range(MATCHES):
            created = _create(first if index % 2 else second, seed=100 + index)
            # Matches 0, 3: both seats on the victim (its bots too); 1, 4: split; 2, 5: the survivor.
            homes = [[first, first], [first, second], [second, second]][index % 3]
            for seat in (0, 1):
                bases = [homes[seat], second]
                clients.append(_Client(bases, created["match_id"], seat, created["tokens"][str(seat)],
                                       random.Random(index * 2 + seat)))

        async def main() -> None:
            deadline = time.monotonic() + 45  # a fail-safe: the test takes 5-20 s
            tasks = [asyncio.create_task(c.play(deadline)) for c in clients]
            # Kill the victim once every client has played a little (entries past the deal).
            while min(c.last for c in clients if c.bases[0] == first) < 3 and not all(c.over for c in clients):
                await asyncio.sleep(0.01)
            victim.send_signal(signal.SIGKILL)
            cut.extend(c for c in clients if c.bases[0] == first and not c.over)
            await asyncio.gather(*tasks)

        cut: list[_Client] = []  # the victim's clients still playing when it was killed

        asyncio.run(main())
        assert victim.wait(5) == -signal.SIGKILL
    assert len(cut) >= 4 and all(c.reconnects >= 1 for c in cut), [(c.last, c.reconnects) for c in cut]
    for c in clients:
        stored = _store_entries(dsn, c.match_id, c.seat)
        assert [e["seq"] for e in c.seen] == [e["seq"] for e in stored], (c.match_id, c.seat)  # none lost or twice
        assert c.seen == stored, (c.match_id, c.seat)  # and each as the store has it


def test_a_rematch_made_on_one_process_is_found_on_the_other() -> None:
    from websockets.sync.client import connect

    dsn = postgres_dsn()
    _wipe(dsn)
    with running_server(dsn, args=["--allow-seeds"]) as first, running_server(dsn, args=["--allow-seeds"]) as second:
        created = _create(first, seed=5, private=True)
        match_id, tokens = created["match_id"], created["tokens"]
        store = cardkit.store.open(dsn)
        try:  # played to its end straight in the store (greedy plays end a hand soon)
            rng = random.Random(0)
            while not (game := store.load(match_id)).is_over:
                legal = [str(a) for a in game.legal_actions()]
                plays = [a for a in legal if a.startswith("play")]
                store.play(match_id, rng.choice(plays or legal), seat=game.to_act, expected_seq=game.last_entry.seq)
        finally:
            store.close()

        def ask(base: str, seat: int) -> dict[str, Any]:
            with connect(_ws(base, match_id), open_timeout=10) as ws:
                ws.send(json.dumps({"type": "join", "seat": seat, "token": tokens[str(seat)]}))
                ws.send(json.dumps({"type": "rematch"}))
                while (reply := json.loads(ws.recv(timeout=10)))["type"] == "update":
                    pass
                assert reply["type"] == "rematch", reply
                return dict(reply)

        zero, one, again = ask(first, 0), ask(second, 1), ask(second, 0)
        assert zero["match_id"] == one["match_id"] == again["match_id"] != match_id
        assert again == zero  # asking again, on another process, gives the same answer
        assert zero["token"] != one["token"] and zero["spectator_token"] == one["spectator_token"] is not None
        new_id = zero["match_id"]
        for base, seat, token in ((second, 0, zero["token"]), (first, 1, one["token"])):
            with connect(_ws(base, new_id), open_timeout=10) as ws:
                ws.send(json.dumps({"type": "join", "seat": seat, "token": token}))
                update = json.loads(ws.recv(timeout=10))
                assert update["type"] == "update" and update["seat"] == seat and not update["is_over"]
        with connect(_ws(second, new_id), open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "spectator": True, "token": zero["spectator_token"]}))
            assert json.loads(ws.recv(timeout=10))["type"] == "update"
        with connect(_ws(first, new_id), open_timeout=10) as ws:  # the old token is no key to the rematch
            ws.send(json.dumps({"type": "join", "seat": 0, "token": tokens["0"]}))
            try:
                ws.recv(timeout=10)
                raise AssertionError("an old token joined the rematch")
            except Exception as exc:
                assert "1008" in str(exc) or getattr(getattr(exc, "rcvd", None), "code", None) == 1008, exc
