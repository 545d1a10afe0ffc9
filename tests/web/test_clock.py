"""The per-move clock: a bot plays for a person whose time ran out. Time is injected (a fake
clock the test advances), so nothing here waits for seconds."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient

from cardkit.web import create_app
from cardkit.web.access import MatchAccess, SqliteAccess
from cardkit.web.clock import MAX_SECONDS, MIN_SECONDS, MoveClock, check_move_seconds
from tests.web.conftest import make_match

WS = "/api/matches/{}/ws"


class FakeTime:
    """A monotonic clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.t = 1000.0
        self._moved: asyncio.Event | None = None

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t < end:
            if self._moved is None:
                self._moved = asyncio.Event()
            await self._moved.wait()

    async def advance(self, seconds: float) -> None:
        self.t += seconds
        moved, self._moved = self._moved, None
        if moved is not None:
            moved.set()
        for _ in range(50):  # let the clock's task (and the bots') run
            await asyncio.sleep(0)


@pytest.fixture
def timed() -> Iterator[tuple[TestClient, FakeTime]]:
    fake = FakeTime()
    with TestClient(create_app("memory:", allow_seeds=True, move_clock=MoveClock(fake.now, fake.sleep))) as c:
        yield c, fake


def _advance(client: TestClient, fake: FakeTime, seconds: float) -> None:
    client.portal.call(fake.advance, seconds)  # type: ignore[union-attr]


def _join(ws: Any, seat: int, token: str) -> dict[str, Any]:
    ws.send_json({"type": "join", "seat": seat, "token": token, "after": -1})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "update"
    return message


def test_move_seconds_is_checked() -> None:
    assert check_move_seconds(None) is None and check_move_seconds(30) == 30
    for bad in (True, 4.5, "30", MIN_SECONDS - 1, MAX_SECONDS + 1, -30):
        with pytest.raises(ValueError, match="move_seconds"):
            check_move_seconds(bad)


def test_a_bad_clock_is_refused_and_no_clock_is_the_default(timed: tuple[TestClient, FakeTime]) -> None:
    client, _ = timed
    for bad in (0, 4, 3601, "60", 1.5, True):
        response = client.post("/api/matches", json={"game": "crazy-eights", "players": 2, "move_seconds": bad})
        assert response.status_code == 400 and "move_seconds" in response.json()["error"]
    match_id, tokens = make_match(client, game="crazy-eights", players=2, seed=0, bots={"1": "rule"})
    with client.websocket_connect(WS.format(match_id)) as ws:
        assert _join(ws, 0, tokens["0"])["clock"] is None


def test_the_stand_in_plays_for_a_seat_whose_time_ran_out(timed: tuple[TestClient, FakeTime]) -> None:
    client, fake = timed
    match_id, tokens = make_match(client, game="crazy-eights", players=3, seed=1, move_seconds=30,
                                  bots={"2": "rule"})
    with client.websocket_connect(WS.format(match_id)) as w0, client.websocket_connect(WS.format(match_id)) as w1:
        socks = {0: w0, 1: w1}
        first = {s: _join(ws, s, tokens[str(s)]) for s, ws in socks.items()}
        to_act = first[0]["to_act"]
        assert to_act in (0, 1)
        clock = first[to_act]["clock"]
        assert clock["seconds"] == 30 and clock["seat"] == to_act and clock["stand_in"] == "casual"
        assert 0 < clock["remaining"] <= 30 and clock["timed_out"] == []
        _advance(client, fake, 29)
        ws = socks[to_act]
        ws.send_json({"type": "hint"})  # nothing moved yet: the next message is the hint
        assert ws.receive_json()["type"] == "hint"
        _advance(client, fake, 2)  # 31 s: the stand-in plays this seat's move
        update = ws.receive_json()
        while update["seq"] == first[to_act]["seq"]:
            update = ws.receive_json()
        mine = [e for e in update["entries"] if e["actor"] == to_act]
        assert mine and mine[0]["seq"] == first[to_act]["seq"] + 1
        assert update["clock"]["timed_out"] == [mine[0]["seq"]]
        # the next person's time starts afresh at the new seq
        if update["clock"]["seat"] is not None:
            assert update["clock"]["remaining"] == 30


def test_the_clock_is_stored_with_the_match(tmp_path: Path) -> None:
    path = str(tmp_path / "access.db")
    table = SqliteAccess(path)
    table.put("m1", MatchAccess(move_seconds=45))
    table.put("m2", MatchAccess())
    fresh = SqliteAccess(path)  # no cache: read back from the file
    assert fresh.get("m1").move_seconds == 45 and fresh.get("m2").move_seconds is None


def test_a_table_made_before_the_clock_gains_its_column(tmp_path: Path) -> None:
    import sqlite3

    path = str(tmp_path / "old.db")
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE cardkit_web_access (match_id TEXT PRIMARY KEY, seeded INTEGER NOT NULL,"
                     " spectator_hash TEXT)")
        conn.execute("INSERT INTO cardkit_web_access VALUES ('old', 1, NULL)")
    table = SqliteAccess(path)
    assert table.get("old") == MatchAccess(seeded=True)
    table.put("new", MatchAccess(move_seconds=10))
    assert SqliteAccess(path).get("new").move_seconds == 10
