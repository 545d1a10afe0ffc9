"""Connection limits below the ASGI app: how many sockets, from whom, and for how long.

An ASGI app sees requests, not sockets: a client that opens a thousand connections and
never sends a byte costs the server a thousand file descriptors and is invisible to it.
uvicorn (0.55) has no limit on sockets and no timeout before a request's headers (its
``limit_concurrency`` answers *requests* with 503 but keeps every socket, and its keep-alive
timer starts only after a first response). So ``cardkit serve`` runs uvicorn with protocol
classes that wrap uvicorn's own (:meth:`ConnectionGuard.protocol_classes`):

* a socket past ``max_connections`` in this process, or past ``max_per_client`` from one
  client address, is answered ``503`` and closed at once;
* a client has ``request_timeout`` seconds, from connecting or from the end of its previous
  response, to send a whole request (line, headers and body; a WebSocket's upgrade
  request): a socket that sends nothing, or dribbles its headers, is closed;
* an idle keep-alive connection is closed after ``idle_timeout`` (uvicorn's own timer).

A socket is counted from its first byte of protocol to its close, across the switch to the
WebSocket protocol (uvicorn hands the same transport to a new protocol object).
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any, ClassVar

import attrs

__all__ = ["ConnectionLimits", "ConnectionGuard"]

_REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\n"
    b"content-length: 21\r\n"
    b"\r\n"
    b"too many connections\n"
)


def _at_least(minimum: float) -> Any:
    def check(instance: Any, attribute: Any, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= minimum:
            raise ValueError(f"{attribute.name} is a number of at least {minimum}, not {value!r}")

    return check


@attrs.frozen
class ConnectionLimits:
    """Socket limits of one ``cardkit serve`` process (see docs/web.md, "Resource limits")."""

    max_connections: int = attrs.field(default=512, validator=_at_least(1))
    """Open sockets (HTTP and WebSocket) in this process; more are answered 503 and closed."""

    max_per_client: int = attrs.field(default=64, validator=_at_least(0))
    """Open sockets from one client address (0: no per-address limit, e.g. behind a proxy)."""

    request_timeout: float = attrs.field(default=10.0, validator=_at_least(0.01))
    """Seconds to send a whole request after connecting or after the previous response."""

    idle_timeout: float = attrs.field(default=5.0, validator=_at_least(0.01))
    """Seconds an idle keep-alive HTTP connection stays open."""


class ConnectionGuard:
    """The open sockets of one server process, by client address (one event loop)."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self._peers: dict[Any, str] = {}
        self._per_client: collections.Counter[str] = collections.Counter()

    @property
    def open_connections(self) -> int:
        """Sockets counted now."""
        return len(self._peers)

    def admit(self, transport: Any) -> bool:
        """Count a new socket; False if it is over a limit (then it is not counted)."""
        if transport in self._peers:
            return True
        peer = transport.get_extra_info("peername")
        client = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else str(peer or "")
        per_client = self.limits.max_per_client
        if len(self._peers) >= self.limits.max_connections or (0 < per_client <= self._per_client[client]):
            return False
        self._peers[transport] = client
        self._per_client[client] += 1
        return True

    def release(self, transport: Any) -> None:
        """A counted socket closed (a socket never admitted is ignored)."""
        client = self._peers.pop(transport, None)
        if client is not None:
            self._per_client[client] -= 1
            if self._per_client[client] <= 0:
                del self._per_client[client]

    def protocol_classes(self) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol] | None]:
        """uvicorn's automatic HTTP and WebSocket protocol classes, guarded by this guard
        (pass them as ``uvicorn.run(..., http=..., ws=...)``)."""
        from uvicorn.protocols.http.auto import AutoHTTPProtocol
        from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

        http = type("GuardedHTTPProtocol", (_GuardedHTTP, AutoHTTPProtocol), {"guard": self})
        ws = None
        if isinstance(AutoWebSocketsProtocol, type):
            ws = type("GuardedWebSocketProtocol", (_GuardedWebSocket, AutoWebSocketsProtocol), {"guard": self})
        return http, ws


class _GuardedHTTP(asyncio.Protocol):
    """Mixed in before uvicorn's HTTP protocol: admission, the request timer, release."""

    guard: ClassVar[ConnectionGuard]
    _guard_transport: Any = None
    _request_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        if not self.guard.admit(transport):
            transport.write(_REFUSED)
            transport.close()
            return
        self._guard_transport = transport
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._guard_transport is None:
            return  # refused: nothing it sends is read
        cycle = getattr(self, "cycle", None)
        if self._request_timer is None and (cycle is None or cycle.response_complete):
            self._arm()  # the first bytes of a new request on a kept-alive connection
        super().data_received(data)
        cycle = getattr(self, "cycle", None)
        upgraded = self._guard_transport.get_protocol() is not self
        if upgraded or (cycle is not None and not cycle.more_body):
            self._disarm()  # the request is in (or the socket is a WebSocket now)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._guard_transport is not None:
            self.guard.release(self._guard_transport)
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        loop = asyncio.get_running_loop()
        self._request_timer = loop.call_later(self.guard.limits.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _too_slow(self) -> None:
        self._request_timer = None
        transport = self._guard_transport
        if transport is not None and not transport.is_closing() and transport.get_protocol() is self:
            transport.close()


class _GuardedWebSocket(asyncio.Protocol):
    """Mixed in before uvicorn's WebSocket protocol: releases the socket when it closes."""

    guard: ClassVar[ConnectionGuard]
    _guard_transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self._guard_transport = transport  # already admitted as an HTTP connection
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._guard_transport is not None:
            self.guard.release(self._guard_transport)
        super().connection_lost(exc)
