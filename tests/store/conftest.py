"""Store fixtures: one contract suite over memory, SQLite and PostgreSQL.

PostgreSQL tests need a server: set ``CARDKIT_TEST_POSTGRES`` to a DSN of a database they
may fill (``.ci/run`` starts one). Without it they skip, except under ``CI``, where a missing
server is a failure.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

import cardkit.store

POSTGRES_DSN = os.environ.get("CARDKIT_TEST_POSTGRES", "")
IN_CI = bool(os.environ.get("CI"))
HOW = (
    "PostgreSQL store tests need a server: set CARDKIT_TEST_POSTGRES=postgresql://user@host:port/db "
    "(a database the tests may fill), or run .ci/run, which starts one"
)


def postgres_dsn() -> str:
    """The test server's DSN; skips (or fails under CI) when none answers."""
    if not POSTGRES_DSN:
        if IN_CI:
            pytest.fail("CI is set but CARDKIT_TEST_POSTGRES is not: " + HOW)
        pytest.skip(HOW)
    try:
        import psycopg

        with psycopg.connect(POSTGRES_DSN, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # any failure to reach the server
        if IN_CI:
            pytest.fail(f"no PostgreSQL server answers at CARDKIT_TEST_POSTGRES: {exc}")
        pytest.skip(f"{HOW} (the configured one did not answer: {exc})")
    return POSTGRES_DSN


def wipe_postgres(dsn: str) -> None:
    """Drop the store tables, so each test starts from an empty database."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        for table in ("cardkit_entries", "cardkit_snapshots", "cardkit_matches", "cardkit_schema"):
            conn.execute(f"DROP TABLE IF EXISTS {table}")


BACKENDS = ["memory", "sqlite", "postgres"]


def store_url(kind: str, tmp_path: Path) -> str:
    """A fresh, empty store URL of that kind."""
    if kind == "memory":
        return "memory:"
    if kind == "sqlite":
        tmp_path.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{tmp_path}/store.db"
    dsn = postgres_dsn()
    wipe_postgres(dsn)
    return dsn


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend under test."""
    return str(request.param)


@pytest.fixture
def url(backend: str, tmp_path: Path) -> str:
    """An empty store of the backend under test."""
    return store_url(backend, tmp_path)


@pytest.fixture
def store(url: str) -> Iterator[cardkit.store.Store]:
    """An open, empty store (small snapshot interval, so tests cross snapshots)."""
    with cardkit.store.open(url, snapshot_every=8) as s:
        yield s
