"""What every request passes first: the Origin check and the security headers.

A browser attaches an ``Origin`` header to every WebSocket handshake and to every
cross-origin ``POST``, so a page on another site that tries to create matches or open a
seat's socket in its visitor's browser is recognised here and refused: ``403`` for HTTP,
a refused handshake (also ``403``) for WebSockets. A request with no ``Origin`` is not from
a browser page (curl, a bot, a script); it cannot ride on a visitor's browser, so it passes.
The own origin is the request's ``Host`` header (so the check holds behind a reverse proxy
that passes ``Host`` on); more origins may be allowed by name (``--allow-origin``). A
``POST`` must also say ``Content-Type: application/json``: the simple types a cross-site
form may send without asking (``text/plain``, form encodings) are refused with ``415``.

Every HTTP response carries :data:`SECURITY_HEADERS`: a Content Security Policy that
allows only the host's own scripts, styles and sockets and no framing, ``nosniff``, no
``Referer`` and ``X-Frame-Options: DENY``.
"""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable, Iterable, MutableMapping

__all__ = ["SECURITY_HEADERS", "OriginGuard", "origin_allowed", "normalise_origin"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy",
     "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"),
    ("x-content-type-options", "nosniff"),
    # The page's links carry a seat's token after the '#', which browsers never put in a
    # Referer, but the match id and the page's path need not leak to other sites either.
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
    ("cross-origin-opener-policy", "same-origin"),
)
"""Headers added to every HTTP response of the web host."""

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def normalise_origin(text: str) -> str | None:
    """``scheme://host[:port]`` in lower case, without a default port; ``None`` if ``text``
    is not such an origin (``null``, a path, another scheme)."""
    origin = text.strip().lower()
    scheme, sep, netloc = origin.partition("://")
    if not sep or scheme not in _DEFAULT_PORTS or not netloc or any(c in netloc for c in "/?#@ \\"):
        return None
    if netloc.endswith(_DEFAULT_PORTS[scheme]):
        netloc = netloc[: -len(_DEFAULT_PORTS[scheme])]
    return f"{scheme}://{netloc}"


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] = ()) -> bool:
    """Whether a request with these ``Origin`` and ``Host`` headers may act.

    No ``Origin``: yes (not a browser page). Otherwise the origin's ``host[:port]`` must be
    the ``Host`` header's, or the origin one of ``allowed``. The scheme is not compared with
    the host's own: behind a TLS proxy the host cannot know whether its page was https.
    """
    if origin is None:
        return True
    normal = normalise_origin(origin)
    if normal is None:
        return False
    if normal in {normalise_origin(a) for a in allowed}:
        return True
    if host is None:
        return False
    scheme, _, netloc = normal.partition("://")
    own = host.strip().lower()
    if own.endswith(_DEFAULT_PORTS[scheme]):
        own = own[: -len(_DEFAULT_PORTS[scheme])]
    return bool(own) and netloc == own


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class OriginGuard:
    """ASGI middleware: the Origin and content-type checks and the security headers."""

    def __init__(self, app: ASGIApp, allow_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allow_origins = tuple(allow_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then pass it on with the headers added to its response."""
        if scope["type"] == "websocket":
            if not origin_allowed(_header(scope, b"origin"), _header(scope, b"host"), self.allow_origins):
                await receive()  # websocket.connect; closing before accepting refuses the handshake
                await send({"type": "websocket.close", "code": 1008, "reason": "cross-origin socket refused"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {bytes(k).lower() for k, _ in headers}
                for name, value in SECURITY_HEADERS:
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                if str(scope.get("path", "")).startswith("/api/") and b"cache-control" not in present:
                    headers.append((b"cache-control", b"no-store"))  # a match's tokens are in a response
                message["headers"] = headers
            await send(message)

        if scope.get("method", "GET") not in _SAFE_METHODS:
            refusal = self._refusal(scope)
            if refusal is not None:
                status, text = refusal
                await _json(send_with_headers, status, {"error": text})
                return
        await self.app(scope, receive, send_with_headers)

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        if not origin_allowed(_header(scope, b"origin"), _header(scope, b"host"), self.allow_origins):
            return 403, "cross-origin request refused (this host allows its own origin and those it was told)"
        kind = (_header(scope, b"content-type") or "").partition(";")[0].strip().lower()
        if kind != "application/json":
            return 415, "send the body as Content-Type: application/json"
        return None


async def _json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())],
    })
    await send({"type": "http.response.body", "body": data})
