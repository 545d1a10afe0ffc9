"""``simulate --store`` runs that can be resumed (issue 28, item 3): a re-run with the same
seeds and store skips the games already stored, and its report is that of an
uninterrupted run; on SQLite, and on PostgreSQL when CARDKIT_TEST_POSTGRES is set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cardkit.cli.simulate as simulate_module
import cardkit.store
from cardkit.cli.main import main

from .conftest import store_url

GAMES = 12
ARGS = ["simulate", "wizard", "--players", "3", "--games", str(GAMES), "--seed", "21", "-o", "rounds=2",
        "--bots", "rule,random,rule", "--json"]  # fmt: skip


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _ids(url: str) -> list[str]:
    with cardkit.store.open(url) as store:
        return sorted(m.match_id for m in store.matches(game="wizard"))


@pytest.fixture(params=["sqlite", "postgres"])
def fresh(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A function making fresh, empty stores of the backend under test."""
    made = [0]

    def make() -> str:
        made[0] += 1
        if request.param == "postgres" and made[0] > 1:
            raise AssertionError("one PostgreSQL store per test (the database is shared)")
        return store_url(str(request.param), tmp_path / f"s{made[0]}")

    return make


def test_an_interrupted_run_resumes_to_the_uninterrupted_report(
    fresh: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, want, _ = _run(ARGS, capsys)  # no store: the report to reach
    assert code == 0 and json.loads(want)["played"] == GAMES
    url = fresh()
    real = simulate_module._keep_log
    kept: list[int] = []

    def stop_after_five(outcome: Any, *rest: Any) -> None:
        if len(kept) == 5:
            raise KeyboardInterrupt  # Ctrl-C half-way through the run
        real(outcome, *rest)
        kept.append(outcome.number)

    monkeypatch.setattr(simulate_module, "_keep_log", stop_after_five)
    code, out, _ = _run([*ARGS, "--store", url], capsys)
    assert code == 130 and json.loads(out)["interrupted"] is True and kept == [0, 1, 2, 3, 4]
    assert _ids(url) == sorted(f"wizard-seed21-game{i}" for i in range(5))
    monkeypatch.setattr(simulate_module, "_keep_log", real)

    # the re-run: no MatchExistsError, the five stored games counted from the store
    code, out, err = _run([*ARGS, "--store", url, "--workers", "2", "--chunk-size", "2"], capsys)
    assert code == 0, err
    assert out == want, "the resumed run's report is the uninterrupted run's"
    assert f"resuming, 5 of {GAMES} games already in the store" in err
    assert _ids(url) == sorted(f"wizard-seed21-game{i}" for i in range(GAMES))

    # a gap in the middle (a game lost from the store) is played again, and only it
    with cardkit.store.open(url) as store:
        store.delete("wizard-seed21-game7")
        before = store.load("wizard-seed21-game3").log
    code, out, err = _run([*ARGS, "--store", url], capsys)
    assert (code, out) == (0, want) and f"resuming, {GAMES - 1} of {GAMES}" in err
    with cardkit.store.open(url) as store:
        assert store.load("wizard-seed21-game7").seed == 21 + 7
        assert store.load("wizard-seed21-game3").log == before, "a stored game is not written again"

    # a complete store: nothing is played, the same report
    played: list[int] = []
    monkeypatch.setattr(simulate_module, "play_game", lambda job: played.append(job.number))
    code, out, err = _run([*ARGS, "--store", url], capsys)
    assert (code, out, played) == (0, want, [])


def test_a_store_holding_other_games_under_the_ids_is_refused(fresh: Any, capsys: pytest.CaptureFixture[str]) -> None:
    url = fresh()
    first = ["simulate", "wizard", "--players", "3", "--games", "3", "--seed", "4", "-o", "rounds=2",
             "--store", url]  # fmt: skip
    assert _run(first, capsys)[0] == 0
    # the same ids, another game: refused before any game is played or written
    code, out, err = _run([*first[:-2], "-o", "rounds=3", "--store", url], capsys)
    assert code == 1 and "not as this run would play it" in err and "wizard-seed4-game0" in err
    code, _, err = _run([*first[:-2], "--max-actions", "5", "--store", url], capsys)
    assert code == 1 and "--max-actions" in err
    assert _ids(url) == [f"wizard-seed4-game{i}" for i in range(3)]
