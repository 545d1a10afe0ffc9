"""Resource limits of the web host that hold inside the app: request bodies, bots, shutdown.

Denial-of-service tests count things (bytes read, moves made, matches admitted); where a
bound needs time (a shutdown that must not wait), the bound is generous and only guards
against the old behaviour, which waited 30 s per bot.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Callable

import pytest
from starlette.testclient import TestClient

import cardkit.bots
import cardkit.store
from cardkit.web import BotLimits, create_app
from cardkit.web.app import MAX_BODY
from tests.web.conftest import make_match


def _post_scope(headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/api/matches", "raw_path": b"/api/matches", "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
        "headers": [(b"host", b"testserver"), (b"origin", b"http://testserver"),
                    (b"content-type", b"application/json"), *headers],
    }


def _post_streamed(chunk: bytes, chunks: int, headers: list[tuple[bytes, bytes]]) -> tuple[int, int]:
    """POST a body of ``chunks`` chunks straight to the ASGI app; (status, bytes it read)."""
    app = create_app("memory:")
    read = 0
    offered = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal read, offered
        if offered == chunks:
            return {"type": "http.request", "body": b"", "more_body": False}
        offered += 1
        read += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def main() -> None:
        async with app.router.lifespan_context(app):
            await app(_post_scope(headers), receive, send)

    asyncio.run(main())
    start = next(m for m in sent if m["type"] == "http.response.start")
    return int(start["status"]), read


def test_a_chunked_body_is_refused_while_it_streams() -> None:
    # 64 MiB offered in 4 KiB chunks, no Content-Length: the host stops at the first chunk
    # past 16 KiB instead of reading all of it and then refusing.
    chunk = b" " * 4096
    status, read = _post_streamed(chunk, 16_384, [(b"transfer-encoding", b"chunked")])
    assert status == 413
    assert read <= MAX_BODY + len(chunk)


def test_a_declared_length_over_the_limit_reads_nothing() -> None:
    status, read = _post_streamed(b" " * 4096, 64, [(b"content-length", str(64 * 4096).encode())])
    assert (status, read) == (413, 0)


def test_a_body_at_the_limit_is_read() -> None:
    # 16 KiB of spaces is not JSON: a 400 shows the host read it all and parsed it.
    status, read = _post_streamed(b" " * 4096, MAX_BODY // 4096, [(b"transfer-encoding", b"chunked")])
    assert (status, read) == (400, MAX_BODY)


# ---------------------------------------------------------------------- bots


class _HeldBots:
    """Every bot move waits until the test releases it; counts moves waiting and made."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = threading.Event()
        self.waiting = 0
        self.made = 0
        self._lock = threading.Lock()
        real = cardkit.bots.make_bot
        held = self

        class Held:
            def __init__(self, bot: Any) -> None:
                self.bot = bot

            def choose(self, state: Any, rng: Any) -> Any:
                with held._lock:
                    held.waiting += 1
                held.release.wait(60)
                with held._lock:
                    held.waiting -= 1
                    held.made += 1
                return self.bot.choose(state, rng)

        # Bots are made where the host makes them (the app on 9bce1e5, the bot runner now).
        for name in ("cardkit.web.app", "cardkit.web.bots"):
            module = sys.modules.get(name)
            if module is not None:
                monkeypatch.setattr(module, "make_bot", lambda spec: Held(real(spec)), raising=False)

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        _wait_for(condition, what)


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    for _ in range(400):  # polls of a state the host reaches on its own, not a timing
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"never reached: {what}")


def _in_thread(func: Callable[[], Any], timeout: float) -> tuple[bool, Any]:
    """Run ``func`` in a thread; (finished within ``timeout``, its result)."""
    box: list[Any] = []
    thread = threading.Thread(target=lambda: box.append(func()), daemon=True)
    thread.start()
    thread.join(timeout)
    return (not thread.is_alive() and bool(box)), (box[0] if box else None)


ALL_BOTS = {"game": "crazy-eights", "players": 2, "bots": {"0": "random", "1": "random"}}


def test_bot_matches_need_the_hosts_permission(client: TestClient) -> None:
    response = client.post("/api/matches", json=ALL_BOTS)
    assert response.status_code == 403 and "--allow-bot-matches" in response.json()["error"]
    assert client.post("/api/matches", json={**ALL_BOTS, "bots": {"1": "random"}}).status_code == 201


def test_bot_matches_do_not_starve_a_humans_join(monkeypatch: pytest.MonkeyPatch) -> None:
    # 40 all-bot matches whose bots never finish a move: on 9bce1e5 each held a worker thread
    # for its whole game, all 40 of them, and the human's POST and join waited forever.
    held = _HeldBots(monkeypatch)
    limits = BotLimits(max_bot_matches=40, threads=4)
    with TestClient(create_app("memory:", allow_bot_matches=True, bot_limits=limits)) as client:
        try:
            codes = [client.post("/api/matches", json=ALL_BOTS).status_code for _ in range(40)]
            assert codes == [201] * 40
            held.wait_for(lambda: held.waiting >= limits.threads, "every bot thread busy")

            def human() -> dict[str, Any]:
                match_id, tokens = make_match(client, game="crazy-eights", players=2)
                with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
                    ws.send_json({"type": "join", "seat": 0, "token": tokens["0"]})
                    message: dict[str, Any] = ws.receive_json()
                    return message

            finished, update = _in_thread(human, 30)
            assert finished and update["type"] == "update"
            # Served while every bot move was still held: the human waited for no bot, and
            # the bots never held more than their own threads.
            assert (held.made, held.waiting) == (0, limits.threads)
        finally:
            held.release.set()


def test_the_cap_on_bot_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    held = _HeldBots(monkeypatch)
    with TestClient(create_app("memory:", allow_bot_matches=True, bot_limits=BotLimits(max_bot_matches=3))) as client:
        host = client.app.state.host  # type: ignore[attr-defined]
        try:
            responses = [client.post("/api/matches", json=ALL_BOTS) for _ in range(5)]
            assert [r.status_code for r in responses] == [201, 201, 201, 503, 503]
            assert "3" in responses[3].json()["error"]
            # Matches with a human seat are not counted against the cap.
            assert client.post("/api/matches", json={**ALL_BOTS, "bots": {"1": "random"}}).status_code == 201
            # A bad request is a bad request first (400), full host or not.
            assert client.post("/api/matches", json={**ALL_BOTS, "bots": {"0": "x", "1": "y"}}).status_code == 400
        finally:
            held.release.set()
        held.wait_for(lambda: host.bots.running_bot_matches == 0, "the bot matches finished")
        assert client.post("/api/matches", json=ALL_BOTS).status_code == 201


def test_the_action_budget_stops_a_match_and_says_so() -> None:
    budget = 30
    app = create_app("memory:", allow_bot_matches=True, bot_limits=BotLimits(action_budget=budget))
    with TestClient(app) as client:
        match_id, _ = make_match(client, game="cutthroat-spades", players=4,
                                 bots={str(s): "random" for s in range(4)})
        with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
            ws.send_json({"type": "join", "spectator": True})
            for _ in range(budget + 5):  # one update per entry at most
                update = ws.receive_json()
                if update.get("halted"):
                    break
        assert update["halted"] and str(budget) in update["halted"] and not update["is_over"]
        assert budget <= update["seq"] + 1 <= budget + 4  # the last bot move may bring a deal with it
        host = client.app.state.host  # type: ignore[attr-defined]
        _wait_for(lambda: host.bots.running_bot_matches == 0, "the bots stopped")
        assert host.store.info(match_id).last_seq == update["seq"]  # nothing written past it


def test_shutdown_cancels_bots_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # 4 bot matches each in the middle of a move: on 9bce1e5 shutdown waited 30 s per bot task.
    held = _HeldBots(monkeypatch)
    store = cardkit.store.open("memory:")  # the app does not close a store it was given
    client = TestClient(create_app("memory:", store=store, allow_bot_matches=True, bot_limits=BotLimits(threads=4)))
    client.__enter__()
    try:
        made = [make_match(client, **ALL_BOTS)[0] for _ in range(4)]
        held.wait_for(lambda: held.waiting == 4, "four bot moves under way")
        before = [store.info(m).last_seq for m in made]
        finished, _ = _in_thread(lambda: client.__exit__(None, None, None), 20)
        assert finished
    finally:
        held.release.set()
    held.wait_for(lambda: held.waiting == 0, "the abandoned moves returned")
    assert [store.info(m).last_seq for m in made] == before  # none stored after shutdown


def test_sigterm_with_four_bot_matches_running_stops_the_server_at_once() -> None:
    # A real `cardkit serve`: on 9bce1e5 its lifespan shutdown waited up to 30 s for each
    # running bot task (48 s and 65 s measured with these four endless matches).
    import httpx
    from websockets.sync.client import connect

    from tests.web.servers import SRC, free_port

    port = free_port()
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardkit.cli.main", "serve", "--store", "memory:", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning", "--allow-bot-matches"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(base + "/api/games", timeout=1.0)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        endless = {"game": "cutthroat-spades", "players": 4, "bots": {str(s): "random" for s in range(4)}}
        made = [httpx.post(base + "/api/matches", json=endless, headers={"Origin": base}) for _ in range(4)]
        assert [r.status_code for r in made] == [201] * 4
        with connect(f"ws://127.0.0.1:{port}/api/matches/{made[-1].json()['match_id']}/ws", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "spectator": True}))
            for _ in range(200):  # the bots are at work (these games last thousands of entries)
                update = json.loads(ws.recv(timeout=10))
                if update["seq"] >= 20:
                    break
            assert update["seq"] >= 20 and not update["is_over"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) is not None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
