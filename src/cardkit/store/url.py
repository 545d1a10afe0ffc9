"""``open(url)``: which backend a URL names, and its options."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import parse_qsl, unquote, urlsplit

from cardkit.errors import ConfigError
from cardkit.store.memory import MemoryBackend
from cardkit.store.sqlite import SqliteBackend, Synchronous
from cardkit.store.store import DEFAULT_CACHE_SIZE, DEFAULT_SNAPSHOT_EVERY, Store

__all__ = ["open_store"]

_SYNCHRONOUS = ("off", "normal", "full", "extra")


def _sqlite(url: str) -> SqliteBackend:
    parts = urlsplit(url)
    if parts.netloc:
        raise ConfigError(
            f"{url!r}: a SQLite URL has three slashes before a relative path "
            "(sqlite:///games.db) and four before an absolute one (sqlite:////var/games.db)"
        )
    path = unquote(parts.path[1:]) if parts.path.startswith("/") else ""
    if not path:
        raise ConfigError(f"{url!r} names no database file (e.g. sqlite:///games.db)")
    options = dict(parse_qsl(parts.query, keep_blank_values=True))
    synchronous = options.pop("synchronous", "full").lower()
    if synchronous not in _SYNCHRONOUS:
        raise ConfigError(f"{url!r}: synchronous must be one of {', '.join(_SYNCHRONOUS)}")
    raw_timeout = options.pop("timeout", "30")
    try:
        timeout = float(raw_timeout)
    except ValueError:
        raise ConfigError(f"{url!r}: timeout must be a number of seconds, not {raw_timeout!r}") from None
    if not 0 <= timeout < 1e6:
        raise ConfigError(f"{url!r}: timeout must be between 0 and 1e6 seconds")
    if options:
        raise ConfigError(f"{url!r}: unknown option(s) {', '.join(sorted(options))}")
    return SqliteBackend(path, cast(Synchronous, synchronous), timeout)


def open_store(
    url: str,
    *,
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
    cache_size: int = DEFAULT_CACHE_SIZE,
    **options: Any,
) -> Store:
    """Open the store a URL names (see :func:`cardkit.store.open`)."""
    if not isinstance(url, str):
        raise ConfigError(f"a store URL is a string, not {type(url).__name__}")
    scheme = url.partition(":")[0].lower()
    if scheme == "memory":
        if url.lower() != "memory:" or options:
            raise ConfigError(f"{url!r}: the memory store is just 'memory:' and takes no options")
        return Store(MemoryBackend(), snapshot_every, cache_size)
    if scheme == "sqlite":
        if options:
            raise ConfigError(f"SQLite options go in the URL, not {', '.join(sorted(options))}")
        return Store(_sqlite(url), snapshot_every, cache_size)
    if scheme in ("postgresql", "postgres"):
        from cardkit.store.postgres import PostgresBackend

        return Store(PostgresBackend(url, **options), snapshot_every, cache_size)
    raise ConfigError(
        f"unknown store URL {url!r}: use 'memory:', 'sqlite:///path.db' or 'postgresql://…'"
    )
