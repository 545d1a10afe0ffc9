"""Shared test configuration.

Long property runs (thousands of games) run only with CARDKIT_LONG=1; the default run
stays within five minutes on two cores with ``-n auto`` (pytest-xdist). A test whose counts
come from :func:`long_or` runs a bounded slice by default and its full counts under
CARDKIT_LONG=1, where :func:`long_scaled` marks it ``slow`` so that ``-m slow`` selects it.

Under pytest-xdist each worker gets its own PostgreSQL database (``<name>_gw0``, ...): the
store tests drop and recreate the store's tables, and the LISTEN/NOTIFY channel is shared
by everything on one database, so two workers on one database would disturb each other.
"""

from __future__ import annotations

import os
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Callable, TypeVar

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
if str(ROOT) not in sys.path:  # so that test modules can import tests.conftest under a bare `pytest` too
    sys.path.append(str(ROOT))

LONG = os.environ.get("CARDKIT_LONG") == "1"

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., object])


def long_or(default: T, long: T) -> T:
    """``default`` in the default run, ``long`` under CARDKIT_LONG=1 (counts of seeds, examples...)."""
    return long if LONG else default


def long_scaled(test: F) -> F:
    """Mark a test whose counts come from :func:`long_or`: under CARDKIT_LONG=1 it is one of
    the ``slow`` runs (so ``-m slow`` runs its full counts); by default it is an ordinary test."""
    return pytest.mark.slow(test) if LONG else test


# derandomize: the same examples on every run and on every xdist worker, so a failure
# reproduces; a long run explores more examples, not different ones each time.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile(
    "long", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=2000, derandomize=True
)
settings.load_profile("long" if LONG else "default")


def _worker_postgres(dsn: str, worker: str) -> str | None:
    """The URL of ``worker``'s own database beside the one ``dsn`` names, created if it is
    missing; None when it cannot be made (no server, no right to create databases)."""
    parts = urllib.parse.urlsplit(dsn)
    base = parts.path.lstrip("/")
    if parts.scheme not in ("postgresql", "postgres") or not base:
        return None
    name = f"{base}_{worker}"
    try:
        import psycopg
        from psycopg import sql

        with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as conn:
            for attempt in range(5):
                if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                    break
                try:
                    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
                    break
                except psycopg.errors.DuplicateDatabase:
                    break
                except psycopg.errors.ObjectInUse:  # template1 busy for a moment: try again
                    time.sleep(0.2 * (attempt + 1))
            else:
                return None
    except Exception:  # no server or no right: the store tests report it as they always did
        return None
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def _isolate_postgres_per_worker() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    shared = os.environ.get("CARDKIT_TEST_POSTGRES", "")
    # CARDKIT_TEST_POSTGRES_SHARED: already done in this process, or inherited by a subprocess
    if not worker or not shared or "CARDKIT_TEST_POSTGRES_SHARED" in os.environ:
        return
    own = _worker_postgres(shared, worker)
    if own is not None:
        os.environ["CARDKIT_TEST_POSTGRES_SHARED"] = shared
        os.environ["CARDKIT_TEST_POSTGRES"] = own


_isolate_postgres_per_worker()


def pytest_report_header() -> str:
    """Which build of the game kernels this run loads (tests/test_kernel_build.py re-runs
    tests/kernels under the other one)."""
    import cardkit.kernels

    return f"cardkit kernels: {cardkit.kernels.BUILD} ({cardkit.kernels.BUILD_REASON})"
