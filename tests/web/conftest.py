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
