"""Without a PostgreSQL server the PostgreSQL tests skip on a user's machine and fail in CI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET = "tests/store/test_contract.py::test_matches_lists_and_filters[postgres]"


def _run(ci: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "CARDKIT_TEST_POSTGRES")}
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", TARGET],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


def test_postgres_tests_skip_with_a_reason_off_ci() -> None:
    done = _run(ci=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout and "CARDKIT_TEST_POSTGRES" in done.stdout


def test_postgres_tests_fail_in_ci() -> None:
    done = _run(ci=True)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "CI is set" in done.stdout
