"""Resource limits of the web host that hold inside the app: request bodies, bots, shutdown.

Denial-of-service tests count things (bytes read, moves made, matches admitted); where a
bound needs time (a shutdown that must not wait), the bound is generous and only guards
against the old behaviour, which waited 30 s per bot.
"""

from __future__ import annotations

import asyncio
from typing import Any

from cardkit.web import create_app
from cardkit.web.app import MAX_BODY


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
