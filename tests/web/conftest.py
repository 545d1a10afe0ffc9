"""Web host fixtures. The web extra needs Python >= 3.11 (current Starlette); on 3.10, or
without Starlette, these tests skip cleanly."""

from __future__ import annotations

import sys
from typing import Any, Iterator

import pytest

if sys.version_info < (3, 11):  # pragma: no cover - depends on the interpreter
    pytest.skip("the web extra needs Python 3.11 or newer", allow_module_level=True)
pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from cardkit.web import create_app  # noqa: E402


@pytest.fixture
def client() -> Iterator[TestClient]:
    """A test client of an app over a fresh memory store that takes client seeds (the tests
    replay matches by seed; the default host refuses them, see test_internet.py)."""
    with TestClient(create_app("memory:", allow_seeds=True)) as c:
        yield c


def make_match(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    """Create a match; its id and tokens."""
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["match_id"], data["tokens"]


def receive_until(ws: Any, seq: int) -> list[dict[str, Any]]:
    """Messages from ``ws`` up to the first update at ``seq`` or later (errors included)."""
    out = []
    while True:
        message = ws.receive_json()
        out.append(message)
        if message["type"] == "update" and message["seq"] >= seq:
            return out


async def _acquired_move(host: Any, match_id: str, seat: int, expected_seq: int, action: str) -> int:
    live = await host.live.acquire(match_id)
    try:
        seq: int = await host.move(match_id, seat, expected_seq, action)
        return seq
    finally:
        host.live.release(live)


def host_move(client: TestClient, match_id: str, seat: int, expected_seq: int, action: str) -> int:
    """Play a move through the host's live match, as a socket would (the match is made live
    for the move, the host's bots answer as tasks); the newest seq."""
    host = client.app.state.host  # type: ignore[attr-defined]
    seq: int = client.portal.call(_acquired_move, host, match_id, seat, expected_seq, action)  # type: ignore[union-attr]
    return seq
