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


@pytest.mark.parametrize("kind", ["memory", "sqlite", "postgres"])
def test_a_revoked_token_is_gone_from_the_table_and_the_cache(kind: str, tmp_path: Path) -> None:
    # An undo (web/undo.py) revokes the old match's human seat; its bots are untouched.
    import os

    if kind == "postgres":
        url = os.environ.get("CARDKIT_TEST_POSTGRES")
        if not url:
            pytest.skip("set CARDKIT_TEST_POSTGRES to run the PostgreSQL seat table")
        table: Any = open_seats(url)
        fresh: Any = lambda: open_seats(url)  # noqa: E731
    elif kind == "sqlite":
        table = SqliteSeats(str(tmp_path / "seats.db"))
        fresh = lambda: SqliteSeats(str(tmp_path / "seats.db"))  # noqa: E731
    else:
        table = open_seats("memory:")
        fresh = lambda: table  # noqa: E731
    match_id = f"revoke-{os.getpid()}-{kind}-{tmp_path.name}"
    table.put(match_id, _records(7))
    assert table.get(match_id)[0].token_hash is not None  # cached
    table.revoke(match_id, 0)
    table.revoke(match_id, 1)  # a bot seat has no token to revoke: unchanged
    expected = (SeatRecord(0), SeatRecord(1, bot="rule", bot_seed=7))
    assert table.get(match_id) == expected
    other = fresh()
    assert other.get(match_id) == expected  # read back from the table itself
    if other is not table:
        other.close()
    table.close()
