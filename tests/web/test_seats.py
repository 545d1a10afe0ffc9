"""The seat table is a source of truth: a cache in front of it may drop a match, the table may not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import cardkit.web.seats as seats_module
from cardkit.web import create_app
from cardkit.web.seats import SeatRecord, SqliteSeats, open_seats
from tests.web.conftest import make_match


def _records(i: int) -> list[SeatRecord]:
    return [SeatRecord(0, token_hash=f"{i:064x}"), SeatRecord(1, bot="rule", bot_seed=i)]


@pytest.mark.parametrize("url", ["memory:", "sqlite:///:memory:"])
def test_a_memory_seat_table_keeps_every_match(url: str) -> None:
    # Past the old 10,000-match cache limit every earlier match lost its seats (and refused
    # its own tokens). 10,050 puts of a dict entry take milliseconds.
    table = open_seats(url)
    for i in range(10_050):
        table.put(f"m{i}", _records(i))
    for i in (*range(60), 9_999, 10_000, 10_049):
        assert table.get(f"m{i}") == tuple(_records(i)), i
    assert table.get("never-made") == ()


def test_a_database_seat_table_evicts_from_its_cache_only(tmp_path: Path) -> None:
    table = SqliteSeats(str(tmp_path / "seats.db"), cache_limit=3)
    for i in range(8):
        table.put(f"m{i}", _records(i))
    assert len(table._cache) == 3  # the cache is bounded ...
    for i in range(8):  # ... and every match is still there (read back from the table)
        assert table.get(f"m{i}") == tuple(_records(i)), i
    assert len(table._cache) == 3


@pytest.mark.parametrize("url", ["memory:", "sqlite:///:memory:", "sqlite"])
def test_the_first_match_still_joins_after_many_others(url: str, tmp_path: Path, monkeypatch: Any) -> None:
    # The whole path, with the cache limit lowered to 3 so that 8 matches go past it.
    monkeypatch.setattr(seats_module, "SEAT_CACHE_LIMIT", 3, raising=False)
    store_url = f"sqlite:///{tmp_path}/web.db" if url == "sqlite" else url
    with TestClient(create_app(store_url)) as client:
        made = [make_match(client, game="crazy-eights", players=2) for _ in range(8)]
        for match_id, tokens in (made[0], made[3], made[7]):
            with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
                ws.send_json({"type": "join", "seat": 1, "token": tokens["1"]})
                update = ws.receive_json()
                assert update["type"] == "update" and update["seat"] == 1, update
