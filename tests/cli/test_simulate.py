"""``cardkit simulate``: bots per seat, workers, JSON, saved logs, the store, progress."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardkit
from cardkit.cli.main import main
from cardkit.parallel import map_ordered


def _sim(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _without_speed(out: str) -> list[str]:
    return [line for line in out.splitlines() if "games/s" not in line]


@pytest.mark.parametrize("bots", [None, "rule,random,ismcts:20"])
def test_workers_do_not_change_the_results(bots: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["wizard", "--players", "3", "--games", "12", "--seed", "7", "-o", "rounds=2"]
    if bots:
        args += ["--bots", bots]
    one = _sim([*args, "--workers", "1"], capsys)
    two = _sim([*args, "--workers", "2"], capsys)
    assert one[0] == two[0] == 0
    assert _without_speed(one[1]) == _without_speed(two[1])
    assert len(_without_speed(one[1])) == 9  # header, 3 seats, means, no winner, guard-ended, unfinished
    jone = _sim([*args, "--workers", "1", "--json"], capsys)[1]
    jtwo = _sim([*args, "--workers", "2", "--json"], capsys)[1]
    assert jone == jtwo, "the JSON report holds no timing, so it is byte-identical"


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _sim(["crazy-eights", "--players", "3", "--games", "10", "--seed", "2", "--json",
                         "--bots", "rule"], capsys)  # fmt: skip
    report = json.loads(out)
    assert code == 0 and report["played"] == 10 and report["bots"] == ["rule"] * 3
    assert report["finished"] + report["guard_ended"] + report["unfinished"] == 10
    assert sum(report["wins"]) >= report["finished"] - report["no_winner"]
    assert len(report["mean_scores"]) == 3 and report["interrupted"] is False


def test_bots_play_the_same_games_as_the_arena_would_seat_by_seat(capsys: pytest.CaptureFixture[str]) -> None:
    # rule bots against random bots: the rule bots win more (a check that --bots is used)
    code, out, _ = _sim(["crazy-eights", "--players", "2", "--games", "40", "--seed", "1", "--json",
                         "--bots", "rule,random"], capsys)  # fmt: skip
    report = json.loads(out)
    assert report["wins"][0] > report["wins"][1]


def test_save_logs_writes_replayable_logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _sim(["spacc-u-mazz", "--players", "3", "--games", "3", "--seed", "5",
                         "--save-logs", str(tmp_path / "logs")], capsys)  # fmt: skip
    assert code == 0
    files = sorted((tmp_path / "logs").iterdir())
    assert [f.name for f in files] == ["game-000000.json", "game-000001.json", "game-000002.json"]
    for i, f in enumerate(files):
        game = cardkit.replay(cardkit.loads(f.read_text(encoding="utf-8")))
        assert game.seed == 5 + i and game.is_over


def test_store_keeps_every_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store_module = pytest.importorskip("cardkit.store")
    url = f"sqlite:///{tmp_path / 'games.db'}"
    code, _, err = _sim(["crazy-eights", "--players", "2", "--games", "3", "--seed", "9", "--store", url], capsys)
    assert code == 0, err
    store = store_module.open(url)
    try:
        game = store.load("crazy-eights-seed9-game1")
        assert game.seed == 10 and game.is_over
    finally:
        store.close()


def test_progress_lines_on_a_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = _sim(["crazy-eights", "--players", "2", "--games", "20", "--seed", "1"], capsys)
    lines = err.splitlines()
    assert lines[0] == "simulate: 2/20 games" and lines[-1] == "simulate: 20/20 games"
    _, _, err = _sim(["crazy-eights", "--players", "2", "--games", "5", "--seed", "1"], capsys)
    assert err == "", "short runs stay quiet"


@pytest.mark.parametrize(
    ("bots", "message"),
    [("rule,rule", "--bots lists 2 bots for 3 seats"), ("wizardly", "unknown bot")],
)
def test_bad_bots_are_refused_before_playing(bots: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _sim(["wizard", "--players", "3", "--games", "2", "--bots", bots], capsys)
    assert code == 1 and message in err and out == ""


def test_workers_below_one_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "wizard", "--players", "3", "--workers", "0"])
    assert info.value.code == 2 and "workers" in capsys.readouterr().err


def _square(x: int) -> int:
    return x * x


def test_map_ordered_keeps_job_order() -> None:
    assert list(map_ordered(_square, list(range(7)), 1)) == [x * x for x in range(7)]
    assert list(map_ordered(_square, list(range(7)), 2)) == [x * x for x in range(7)]
    with pytest.raises(ValueError):
        list(map_ordered(_square, [1], 0))
