"""Socket limits of ``cardkit serve``, against a real server on 127.0.0.1.

Clients come from several loopback addresses (127.0.0.1 to 127.0.0.4: the whole 127/8 is
local on Linux), so the per-address cap and the per-process cap can be told apart. Counts
are small (at most 7 sockets) and every wait is bounded.
"""

from __future__ import annotations

import socket
import sys
import time
from contextlib import ExitStack
from typing import Iterator
from urllib.parse import urlsplit

import pytest

from tests.web.servers import running_server

LIMITS = ["--max-connections", "6", "--max-connections-per-client", "3",
          "--request-timeout", "1", "--idle-timeout", "1"]
GET = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="needs the 127/8 loopback range (Linux)")


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with running_server("memory:", args=LIMITS) as base:
        yield int(urlsplit(base).port or 0)


def _open(port: int, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def _read_to_close(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """Everything the server sends until it closes the socket (fails if it does not within ``timeout``)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    except socket.timeout:
        raise AssertionError(f"the server kept the socket open ({data[:80]!r})") from None
    return data


def _get(port: int, source: str) -> bytes:
    with _open(port, source) as sock:
        sock.sendall(GET + b"Connection: close\r\n\r\n")
        return _read_to_close(sock)


def _served_again(port: int, source: str) -> bytes:
    # The server learns of a close a moment after the client: a few bounded tries.
    for _ in range(20):
        response = _get(port, source)
        if response.startswith(b"HTTP/1.1 200"):
            return response
        time.sleep(0.05)
    return response


def test_caps_and_timeouts_on_silent_sockets(port: int) -> None:
    silent = [_open(port, "127.0.0.1") for _ in range(3)]
    try:
        with _open(port, "127.0.0.1") as fourth:  # past the per-address cap
            assert _read_to_close(fourth).startswith(b"HTTP/1.1 503")
        assert _get(port, "127.0.0.4").startswith(b"HTTP/1.1 200")  # another address is served
        silent += [_open(port, "127.0.0.2") for _ in range(3)]
        with _open(port, "127.0.0.3") as seventh:  # past the per-process cap
            assert _read_to_close(seventh).startswith(b"HTTP/1.1 503")
        # Six sockets that never sent a byte are closed by the request timeout (1 s), unanswered.
        assert [_read_to_close(s) for s in silent] == [b""] * 6
    finally:
        for s in silent:
            s.close()
    assert _served_again(port, "127.0.0.1").startswith(b"HTTP/1.1 200")  # their places are free again


def test_slow_headers_are_cut_off(port: int) -> None:
    with _open(port, "127.0.0.1") as sock:
        sock.sendall(GET)  # then one header byte every 0.2 s, never the blank line
        sock.settimeout(0.2)
        for sent in range(50):
            try:
                sock.sendall(b"X")
                if sock.recv(1024) == b"":
                    break
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        else:
            raise AssertionError("50 header bytes over 10 s and the socket is still open")
    assert sent < 35  # closed about 1 s in (some 5 bytes), long before the 50th


def test_an_idle_keep_alive_connection_is_closed(port: int) -> None:
    with _open(port, "127.0.0.1") as sock:
        sock.sendall(GET + b"\r\n")
        data = _read_to_close(sock)  # the response, then the close after 1 s of idleness
        assert data.startswith(b"HTTP/1.1 200") and data.count(b"HTTP/1.1") == 1


def test_websockets_count_until_they_close(port: int) -> None:
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{port}/api/matches/nope/ws"
    with ExitStack() as open_sockets:  # websockets 17 deprecates a bare connect()
        for _ in range(3):
            open_sockets.enter_context(connect(url, sock=_open(port, "127.0.0.1"), open_timeout=10))
        with _open(port, "127.0.0.1") as fourth:  # three upgraded sockets still count
            assert _read_to_close(fourth).startswith(b"HTTP/1.1 503")
    assert _served_again(port, "127.0.0.1").startswith(b"HTTP/1.1 200")  # and are released when closed
