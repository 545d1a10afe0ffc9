"""The test loop itself: the documented command runs on every core (pytest-xdist), CI runs
that command, long counts come from one switch, and xdist workers share no database."""

from __future__ import annotations

import os
import re
import sys
import urllib.parse
from pathlib import Path

import pytest

from tests.conftest import LONG, long_or, long_scaled

ROOT = Path(__file__).resolve().parent.parent
README_COMMAND = "python -m pip install -e '.[dev]' && python -m pytest -q -n auto"


def test_the_dev_extra_installs_xdist() -> None:
    if sys.version_info < (3, 11):  # pragma: no cover - depends on the interpreter
        pytest.skip("tomllib needs Python 3.11")
    import tomllib

    dev = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]["dev"]
    assert any(re.match(r"pytest-xdist\b", requirement) for requirement in dev)


def test_the_readme_command_runs_on_every_core_and_ci_runs_it() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert README_COMMAND in readme
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert README_COMMAND in ci.splitlines()


def test_long_or_and_long_scaled_follow_cardkit_long() -> None:
    assert long_or(3, 30) == (30 if LONG else 3)

    def probe() -> None:
        pass

    marked = long_scaled(probe)
    names = [mark.name for mark in getattr(marked, "pytestmark", [])]
    assert names == (["slow"] if LONG else [])


def test_each_xdist_worker_has_a_database_of_its_own() -> None:
    from tests.store.conftest import postgres_dsn  # skips (fails under CI) without a server

    dsn = postgres_dsn()
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    shared = os.environ.get("CARDKIT_TEST_POSTGRES_SHARED")
    name = urllib.parse.urlsplit(dsn).path.lstrip("/")
    if worker is None:
        assert shared is None  # one process: the configured database as it is
        return
    assert shared is not None
    assert name == urllib.parse.urlsplit(shared).path.lstrip("/") + "_" + worker
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute("SELECT current_database()").fetchone() == (name,)
