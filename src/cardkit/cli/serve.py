"""``cardkit serve [--store URL] [--host 127.0.0.1] [--port 8000] [--allow-origin ORIGIN]…
[--allow-seeds] [--max-spectators N]`` — run the web host.

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


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise argparse.ArgumentTypeError(f"a whole number >= 0, not {text!r}")
    return int(text)


def serve(
    store: str,
    host: str,
    port: int,
    log_level: str = "info",
    *,
    allow_seeds: bool = False,
    allow_origins: tuple[str, ...] = (),
    max_spectators: int | None = None,
) -> int:
    """Serve the web host over the store at ``store`` until interrupted (the keywords are
    :func:`cardkit.web.create_app`'s)."""
    if sys.version_info < (3, 11):
        raise ConfigError("the web host needs Python 3.11 or newer (current Starlette does)")
    try:
        import uvicorn

        from cardkit.web import create_app
    except ImportError as exc:
        raise ConfigError(f"the web host needs the web extra: pip install 'cardkit[web]' ({exc})") from None
    import cardkit.store

    from cardkit.web.app import MAX_SPECTATORS

    cardkit.store.open(store).close()  # a bad URL or an unreachable database: one line, before uvicorn starts
    app = create_app(store, allow_seeds=allow_seeds, allow_origins=allow_origins,
                     max_spectators=MAX_SPECTATORS if max_spectators is None else max_spectators)
    if allow_seeds:
        print("cardkit: --allow-seeds: clients may choose seeds, so a match's creator can know every hand "
              "(development only)", file=sys.stderr)
    print(f"cardkit: serving on http://{host}:{port}/ (store {store.split('@')[-1]})", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=MAX_WS_MESSAGE, lifespan="on")
    return 0


def _run(args: argparse.Namespace) -> int:
    return serve(args.store, args.host, args.port, args.log_level, allow_seeds=args.allow_seeds,
                 allow_origins=tuple(args.allow_origin), max_spectators=args.max_spectators)


def add_serve_parser(sub: Any) -> None:
    """Register ``serve`` on the ``cardkit`` command's subparsers."""
    parser = sub.add_parser("serve", help="run the multiplayer web host (extra 'web')")
    parser.add_argument("--store", default="sqlite:///cardkit.db",
                        help="store URL: sqlite:///file.db (default: sqlite:///cardkit.db), memory:, postgresql://...")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="another origin whose pages may create matches and open sockets "
                             "(e.g. https://cards.example; repeatable; the host's own origin always may)")
    parser.add_argument("--allow-seeds", action="store_true",
                        help="accept a seed from the client (development only: its chooser can compute every hand)")
    parser.add_argument("--max-spectators", type=_count, default=None, metavar="N",
                        help="most spectators of one match on this process (default 100)")
    parser.set_defaults(func=_run)
