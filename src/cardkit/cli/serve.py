"""``cardkit serve [--store URL] [--host 127.0.0.1] [--port 8000] [--allow-origin ORIGIN]…
[--allow-seeds] [--max-spectators N] [limits]`` — run the web host.

Needs the ``web`` extra (Starlette and uvicorn, Python >= 3.11); without it the command
says so in one line. It listens on loopback unless told otherwise. Every resource limit has
a flag and a default (docs/web.md, "Resource limits"): sockets and their timeouts
(:class:`cardkit.web.guard.ConnectionLimits`) and what bots may cost
(:class:`cardkit.web.BotLimits`; matches of bots only need ``--allow-bot-matches``).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Callable, cast

from cardkit.errors import ConfigError

if TYPE_CHECKING:  # the web extra may be missing: imported when serving
    from cardkit.web.bots import BotLimits
    from cardkit.web.guard import ConnectionLimits

__all__ = ["add_serve_parser", "serve", "MAX_WS_MESSAGE"]

MAX_WS_MESSAGE = 65_536
"""The largest WebSocket frame uvicorn accepts (bytes); the host refuses anything over 4096 characters anyway."""


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to 65535, not {text!r}")
    return int(text)


def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit() and len(text) <= 9) or int(text) < minimum:
            raise argparse.ArgumentTypeError(f"a whole number of at least {minimum}, not {text[:20]!r}")
        return int(text)

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text) if len(text) <= 20 else -1.0
    except ValueError:
        value = -1.0
    if not 0.01 <= value <= 86_400:
        raise argparse.ArgumentTypeError(f"a number of seconds from 0.01 to 86400, not {text[:20]!r}")
    return value


def _fit_file_limit(sockets: int) -> None:
    # Every socket is a file descriptor: make room for the allowed sockets and some headroom
    # (store connections, log files), raising the soft limit up to the hard one if needed.
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = sockets + 64
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            target = soft
        if target < wanted:
            print(f"cardkit: warning: --max-connections {sockets} needs about {wanted} open files, "
                  f"the limit is {target} (ulimit -n)", file=sys.stderr)


def serve(
    store: str,
    host: str,
    port: int,
    log_level: str = "info",
    *,
    allow_bot_matches: bool = False,
    bot_limits: BotLimits | None = None,
    connection_limits: ConnectionLimits | None = None,
    allow_seeds: bool = False,
    allow_origins: tuple[str, ...] = (),
    max_spectators: int | None = None,
) -> int:
    """Serve the web host over the store at ``store`` until interrupted.

    ``allow_bot_matches`` lets clients create matches without a human seat; ``bot_limits``
    and ``connection_limits`` default to :class:`cardkit.web.BotLimits` and
    :class:`cardkit.web.guard.ConnectionLimits` when ``None``. ``allow_seeds``,
    ``allow_origins`` and ``max_spectators`` are :func:`cardkit.web.create_app`'s.
    """
    if sys.version_info < (3, 11):
        raise ConfigError("the web host needs Python 3.11 or newer (current Starlette does)")
    try:
        import uvicorn

        from cardkit.web import BotLimits, create_app
        from cardkit.web.guard import ConnectionGuard, ConnectionLimits
    except ImportError as exc:
        raise ConfigError(f"the web host needs the web extra: pip install 'cardkit[web]' ({exc})") from None
    import cardkit.store

    from cardkit.web.app import MAX_SPECTATORS

    cardkit.store.open(store).close()  # a bad URL or an unreachable database: one line, before uvicorn starts
    limits = connection_limits if connection_limits is not None else ConnectionLimits()
    app = create_app(store, allow_bot_matches=allow_bot_matches,
                     bot_limits=bot_limits if bot_limits is not None else BotLimits(),
                     allow_seeds=allow_seeds, allow_origins=allow_origins,
                     max_spectators=MAX_SPECTATORS if max_spectators is None else max_spectators)
    http, ws = ConnectionGuard(limits).protocol_classes()
    _fit_file_limit(limits.max_connections)
    if allow_seeds:
        print("cardkit: --allow-seeds: clients may choose seeds, so a match's creator can know every hand "
              "(development only)", file=sys.stderr)
    print(f"cardkit: serving on http://{host}:{port}/ (store {store.split('@')[-1]})", file=sys.stderr)
    uvicorn.run(
        app, host=host, port=port, log_level=log_level, ws_max_size=MAX_WS_MESSAGE, lifespan="on",
        http=http, ws=ws if ws is not None else "auto",
        # uvicorn types this timer as int seconds; it is handed to loop.call_later, which takes any number.
        timeout_keep_alive=cast(int, limits.idle_timeout),
    )
    return 0


def _run(args: argparse.Namespace) -> int:
    from cardkit.web import BotLimits
    from cardkit.web.guard import ConnectionLimits

    return serve(
        args.store, args.host, args.port, args.log_level,
        allow_bot_matches=args.allow_bot_matches,
        bot_limits=BotLimits(max_bot_matches=args.max_bot_matches, action_budget=args.bot_action_budget,
                             threads=args.bot_threads),
        connection_limits=ConnectionLimits(
            max_connections=args.max_connections, max_per_client=args.max_connections_per_client,
            request_timeout=args.request_timeout, idle_timeout=args.idle_timeout),
        allow_seeds=args.allow_seeds, allow_origins=tuple(args.allow_origin), max_spectators=args.max_spectators,
    )


def add_serve_parser(sub: Any) -> None:
    """Register ``serve`` on the ``cardkit`` command's subparsers."""
    parser = sub.add_parser("serve", help="run the multiplayer web host (extra 'web')")
    parser.add_argument("--store", default="sqlite:///cardkit.db",
                        help="store URL: sqlite:///file.db (default: sqlite:///cardkit.db), memory:, postgresql://...")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    limits = parser.add_argument_group("resource limits (docs/web.md, \"Resource limits\")")
    limits.add_argument("--max-connections", type=_count(1), default=512, metavar="N",
                        help="open sockets in this process; more are answered 503 and closed (default 512)")
    limits.add_argument("--max-connections-per-client", type=_count(0), default=64, metavar="N",
                        help="open sockets from one client address, 0 for no limit (default 64; "
                             "behind a proxy every client has the proxy's address: use 0 and limit in the proxy)")
    limits.add_argument("--request-timeout", type=_seconds, default=10.0, metavar="SECONDS",
                        help="time to send a whole request after connecting or after the previous response (default 10)")
    limits.add_argument("--idle-timeout", type=_seconds, default=5.0, metavar="SECONDS",
                        help="an idle keep-alive connection is closed after this (default 5)")
    limits.add_argument("--allow-bot-matches", action="store_true",
                        help="let clients create matches without a human seat (refused with 403 otherwise)")
    limits.add_argument("--max-bot-matches", type=_count(1), default=4, metavar="N",
                        help="matches of bots only running at once; more are refused with 503 (default 4)")
    limits.add_argument("--bot-action-budget", type=_count(1), default=10_000, metavar="N",
                        help="bots stop moving in a match whose log has N entries (default 10000)")
    limits.add_argument("--bot-threads", type=_count(1), default=4, metavar="N",
                        help="moves of searching bots computed at once in threads, over all matches "
                        "(default 4; rule and random bots choose on the event loop)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="another origin whose pages may create matches and open sockets "
                             "(e.g. https://cards.example; repeatable; the host's own origin always may)")
    parser.add_argument("--allow-seeds", action="store_true",
                        help="accept a seed from the client (development only: its chooser can compute every hand)")
    parser.add_argument("--max-spectators", type=_count(0), default=None, metavar="N",
                        help="most spectators of one match on this process (default 100)")
    parser.set_defaults(func=_run)
