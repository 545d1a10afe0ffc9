"""The public API's types catch host mistakes: mypy --strict on tests/typing/*.py.

``mistakes.py`` marks each deliberate mistake with ``# expect: CODE``; mypy must report
exactly those ``(line, code)`` pairs. ``correct_host.py`` (generic host code for every
game) and ``examples/generic_host.py`` must type-check with no error; the first runs here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SRC = HERE.parent.parent / "src"
EXAMPLE = HERE.parent.parent / "examples" / "generic_host.py"
EXPECT = re.compile(r"#\s*expect:\s*([a-z-]+)")
ERROR = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): error: .*\[(?P<code>[a-z-]+)\]$")

pytest.importorskip("mypy", reason="the typing tests need mypy (the dev extra)")


def _expected(path: Path) -> set[tuple[str, int, str]]:
    marks = set()
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            marks.add((path.name, number, match.group(1)))
    return marks


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> set[tuple[str, int, str]]:
    env = dict(os.environ, MYPYPATH=str(SRC))  # this checkout's cardkit, not an installed one
    cache = tmp_path_factory.mktemp("mypy_cache")
    proc = subprocess.run(
        [
            sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--hide-error-context",
            "--show-error-codes", "--cache-dir", str(cache), "mistakes.py", "correct_host.py",
            str(EXAMPLE),
        ],
        cwd=HERE, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr + proc.stdout
    errors = set()
    for line in proc.stdout.splitlines():
        match = ERROR.match(line)
        if match:
            errors.add((Path(match["file"]).name, int(match["line"]), match["code"]))
        else:
            assert ": note: " in line, f"unexpected mypy output: {line}"
    return errors


def test_every_deliberate_mistake_is_reported(mypy_errors: set[tuple[str, int, str]]) -> None:
    expected = _expected(HERE / "mistakes.py")
    assert len(expected) >= 12
    reported = {e for e in mypy_errors if e[0] == "mistakes.py"}
    assert expected - reported == set(), "mistakes mypy no longer catches"
    assert reported - expected == set(), "errors on lines that are not marked"


def test_generic_host_code_type_checks_clean(mypy_errors: set[tuple[str, int, str]]) -> None:
    assert {e for e in mypy_errors if e[0] in ("correct_host.py", EXAMPLE.name)} == set()


def test_generic_host_code_runs() -> None:
    sys.path.insert(0, str(HERE))
    try:
        import correct_host
    finally:
        sys.path.remove(str(HERE))
    lines = correct_host.main()
    assert [line.split(" ", 1)[0] for line in lines[:4]] == [
        "crazy-eights", "wizard", "cutthroat-spades", "spacc-u-mazz",
    ]  # fmt: skip
    assert lines[4].startswith("trump ") and lines[5].startswith("removed ")
