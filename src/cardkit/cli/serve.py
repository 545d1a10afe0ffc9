"""``cardkit serve [--store URL] [--host 127.0.0.1] [--port 8000]`` — run the web host.

Needs the ``web`` extra (Starlette and uvicorn, Python >= 3.11); without it the command
says so in one line. It listens on loopback unless told otherwise.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cardkit.errors import ConfigError

__all__ = ["add_serve_parser", "serve", "MAX_WS_MESSAGE"]

MAX_WS_MESSAGE = 65_536
"""The largest WebSocket frame uvicorn accepts (bytes); the host refuses anything over 4096 characters anyway."""


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to 65535, not {text!r}")
    return int(text)


def serve(store: str, host: str, port: int, log_level: str = "info") -> int:
    """Serve the web host over the store at ``store`` until interrupted."""
    if sys.version_info < (3, 11):
        raise ConfigError("the web host needs Python 3.11 or newer (current Starlette does)")
    try:
        import uvicorn

        from cardkit.web import create_app
    except ImportError as exc:
        raise ConfigError(f"the web host needs the web extra: pip install 'cardkit[web]' ({exc})") from None
    import cardkit.store

    cardkit.store.open(store).close()  # a bad URL or an unreachable database: one line, before uvicorn starts
    app = create_app(store)
    print(f"cardkit: serving on http://{host}:{port}/ (store {store.split('@')[-1]})", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=MAX_WS_MESSAGE, lifespan="on")
    return 0


def _run(args: argparse.Namespace) -> int:
    return serve(args.store, args.host, args.port, args.log_level)


def add_serve_parser(sub: Any) -> None:
    """Register ``serve`` on the ``cardkit`` command's subparsers."""
    parser = sub.add_parser("serve", help="run the multiplayer web host (extra 'web')")
    parser.add_argument("--store", default="sqlite:///cardkit.db",
                        help="store URL: sqlite:///file.db (default: sqlite:///cardkit.db), memory:, postgresql://...")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    parser.set_defaults(func=_run)
